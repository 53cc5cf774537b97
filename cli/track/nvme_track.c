// SPDX-License-Identifier: GPL-2.0-or-later
/* NVMe over Fabrics in the CLI (see nvme_track.h). */
#include "nvme_track.h"

#include <stdlib.h>
#include <string.h>

#include "conn.h"

static struct conn_nvme *nvme_of(struct conn *c)
{
	if (!c->nvme) {
		if (!(c->nvme = calloc(1, sizeof(*c->nvme))))
			return NULL;
		iws_nvme_stats_init(&c->nvme->st);
	}
	return c->nvme;
}

/* The entry of command id among those with octets outside the window (add:
 * a new one if it has none); NULL if none (or out of memory). */
static struct nvme_outside *outside_of(struct conn_nvme *n, uint64_t id, bool add)
{
	for (uint32_t i = 0; i < n->nout; i++)
		if (n->out[i].id == id)
			return &n->out[i];
	if (!add)
		return NULL;
	if (n->nout == n->capout) {
		uint32_t cap = n->capout ? n->capout * 2 : 8;
		struct nvme_outside *o = realloc(n->out, cap * sizeof(*o));
		if (!o)
			return NULL;
		n->out = o;
		n->capout = cap;
	}
	n->out[n->nout] = (struct nvme_outside){ id, 0, false };
	return &n->out[n->nout++];
}

void conn_nvme_outside(struct conn *c, const struct iws_pdu *pdu)
{
	const struct iws_nvme_note *note = iws_stream_nvme_note(c->eng);
	if (!note || !note->cmd_id || !pdu->msg)
		return;
	/* what the NVMe stage counts as the command's octets (iws_nvme_cmd
	 * bytes): the payload of its RDMA Writes and Read Responses (a Read
	 * Request carries none), or the in-capsule data of the capsule this
	 * FPDU completes (NVMe-oF 1.1 §7.3.2, RDMA transport binding) */
	bool data = note->role == IWS_NVME_ROLE_DATA && pdu->msg->ddp.opcode != IWS_OP_CODE_READ_REQ;
	if (!data && note->role != IWS_NVME_ROLE_COMMAND)
		return;
	struct conn_nvme *n = nvme_of(c);
	struct nvme_outside *o = n ? outside_of(n, note->cmd_id, true) : NULL;
	if (!o)
		return;
	if (data)
		o->bytes += pdu->msg->payload_len;
	else
		o->capsule = true;
}

void conn_nvme_cmd(struct conn *c, const struct iws_nvme_cmd *cmd)
{
	/* the first command: the connection was recognised (commands come
	 * only then), whether or not the report covers this one */
	struct conn_nvme *n = nvme_of(c);
	if (!n)
		return;
	/* with a time window, the statistics count the octets of its FPDUs
	 * inside it; the list shows it whole */
	struct iws_nvme_cmd in = *cmd;
	struct nvme_outside *o = outside_of(n, cmd->id, false);
	if (o) {
		uint64_t out = o->bytes + (o->capsule && cmd->xfer == IWS_NVME_XFER_IN_CAPSULE ? cmd->bytes : 0);
		in.bytes = out < cmd->bytes ? cmd->bytes - out : 0;
		*o = n->out[--n->nout];
	}
	if (c->env->selected && !c->env->selected(c->env->ctx, c, -1, cmd->start_ns, cmd->end_ns))
		return;
	n->commands++;
	if (!cmd->complete)
		n->incomplete++;
	if (cmd->flags & IWS_NVMEF_AWAITS_EVENT)
		n->awaiting_event++;
	if (cmd->has_completion && cmd->status)
		n->errors++;
	/* with a time window, latencies of the commands ending inside it
	 * (docs/semantics.md, "Time window") */
	bool timed = !c->env->in_window ||
		     c->env->in_window(c->env->ctx, cmd->end_ns > cmd->start_ns ? cmd->end_ns
										 : cmd->start_ns);
	iws_nvme_stats_add_timed(&n->st, &in, timed);
	if (c->env->nvme_total)
		iws_nvme_stats_add_timed(c->env->nvme_total, &in, timed);
	if (timed && cmd->complete && (n->slow || (n->slow = malloc(NVME_SLOWEST * sizeof(*n->slow))))) {
		/* insertion into the short list, slowest first (earliest on ties) */
		uint32_t i = n->nslow < NVME_SLOWEST ? n->nslow++ : NVME_SLOWEST;
		while (i > 0 && n->slow[i - 1].latency_ns < cmd->latency_ns) {
			if (i < NVME_SLOWEST)
				n->slow[i] = n->slow[i - 1];
			i--;
		}
		if (i < NVME_SLOWEST)
			n->slow[i] = *cmd;
	}
	if (c->env->nvme_cmd)
		c->env->nvme_cmd(c->env->ctx, c, cmd);
}

void conn_nvme_free(struct conn *c)
{
	if (!c->nvme)
		return;
	iws_nvme_stats_free(&c->nvme->st);
	free(c->nvme->slow);
	free(c->nvme->out);
	free(c->nvme);
	c->nvme = NULL;
}

bool conn_is_nvme(const struct conn *c)
{
	const struct iws_nvme_conn *nc = iws_stream_nvme(c->eng);
	return c->nvme && nc && iws_nvme_conn_state(nc) == IWS_NVME_YES;
}

const struct iws_nvme_tracker *conn_nvme_tracker(const struct conn *c)
{
	return conn_is_nvme(c) ? iws_nvme_conn_tracker(iws_stream_nvme(c->eng)) : NULL;
}
