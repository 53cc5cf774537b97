// SPDX-License-Identifier: GPL-2.0-or-later
/* NVMe over Fabrics in the CLI (see nvme_track.h). */
#include "nvme_track.h"

#include <stdlib.h>
#include <string.h>

#include "conn.h"

void conn_nvme_cmd(struct conn *c, const struct iws_nvme_cmd *cmd)
{
	/* the first command: the connection was recognised (commands come
	 * only then), whether or not the report covers this one */
	if (!c->nvme) {
		if (!(c->nvme = calloc(1, sizeof(*c->nvme))))
			return;
		iws_nvme_stats_init(&c->nvme->st);
	}
	struct conn_nvme *n = c->nvme;
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
	iws_nvme_stats_add_timed(&n->st, cmd, timed);
	if (c->env->nvme_total)
		iws_nvme_stats_add_timed(c->env->nvme_total, cmd, timed);
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
