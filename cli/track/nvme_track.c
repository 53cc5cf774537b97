// SPDX-License-Identifier: GPL-2.0-or-later
/* NVMe over Fabrics in the CLI (see nvme_track.h). */
#include "nvme_track.h"

#include <stdlib.h>
#include <string.h>

#include "conn.h"

static void on_cmd(void *ctx, const struct iws_nvme_cmd *cmd)
{
	struct conn *c = ctx;
	struct conn_nvme *n = c->nvme;
	if (c->env->selected && !c->env->selected(c->env->ctx, c, -1, cmd->start_ns))
		return;
	n->commands++;
	if (!cmd->complete)
		n->incomplete++;
	if (cmd->flags & IWS_NVMEF_AWAITS_EVENT)
		n->awaiting_event++;
	if (cmd->has_completion && cmd->status)
		n->errors++;
	iws_nvme_stats_add(&n->st, cmd);
	if (c->env->nvme_total)
		iws_nvme_stats_add(c->env->nvme_total, cmd);
	if (cmd->complete && (n->slow || (n->slow = malloc(NVME_SLOWEST * sizeof(*n->slow))))) {
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

/* The core's view of the connection, created with its first PDU. */
static struct iws_nvme_conn *view(struct conn *c)
{
	if (!c->nvme) {
		c->nvme = calloc(1, sizeof(*c->nvme));
		if (!c->nvme)
			return NULL;
		iws_nvme_stats_init(&c->nvme->st);
		struct iws_nvme_limits lim = { 0 };
		c->nvme->nc = iws_nvme_conn_new(&lim, c->stream, on_cmd, c);
	}
	return c->nvme->nc;
}

/* Found not to be NVMe: its view costs nothing more. */
static void settle(struct conn *c)
{
	if (c->nvme->nc && iws_nvme_conn_state(c->nvme->nc) == IWS_NVME_NO) {
		iws_nvme_conn_free(c->nvme->nc);
		c->nvme->nc = NULL;
	}
}

void conn_nvme_pdu(struct conn *c, const struct iws_pdu *pdu)
{
	if (c->nvme && !c->nvme->nc)
		return;
	struct iws_nvme_conn *nc = view(c);
	if (!nc)
		return;
	iws_nvme_conn_pdu(nc, pdu);
	settle(c);
}

void conn_nvme_event(struct conn *c, const struct iws_stream_event *ev)
{
	if (c->nvme && c->nvme->nc)
		iws_nvme_conn_event(c->nvme->nc, ev);
}

void conn_nvme_finish(struct conn *c, bool capture_end)
{
	if (!c->nvme || !c->nvme->nc)
		return;
	iws_nvme_conn_finish(c->nvme->nc, capture_end);
	settle(c);
}

void conn_nvme_free(struct conn *c)
{
	if (!c->nvme)
		return;
	iws_nvme_conn_free(c->nvme->nc);
	iws_nvme_stats_free(&c->nvme->st);
	free(c->nvme->slow);
	free(c->nvme);
	c->nvme = NULL;
}

bool conn_nvme_pending(const struct conn *c, int64_t *ts, uint64_t *frame)
{
	return c->nvme && c->nvme->nc && iws_nvme_conn_pending(c->nvme->nc, ts, frame);
}

bool conn_is_nvme(const struct conn *c)
{
	return c->nvme && c->nvme->nc && iws_nvme_conn_state(c->nvme->nc) == IWS_NVME_YES;
}

const struct iws_nvme_tracker *conn_nvme_tracker(const struct conn *c)
{
	return conn_is_nvme(c) ? iws_nvme_conn_tracker(c->nvme->nc) : NULL;
}
