// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RPC statistics per (program, version, procedure) (see rpcrdma.h): the
 * CLI's `stats` rpc section adds every reported RPC here, and the plugin can
 * do the same, so both print the same numbers. Distributions are
 * core/stats.c's (nearest-rank quantiles, exact up to IWS_LAT_EXACT_MAX
 * samples); the groups are bounded (IWS_RPC_STATS_MAX_GROUPS).
 */
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/rpcrdma.h"
#include "sorted.h"

void iws_rpc_stats_init(struct iws_rpc_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void iws_rpc_stats_free(struct iws_rpc_stats *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		iws_latency_free(&s->e[i].latency);
		iws_latency_free(&s->e[i].think);
		iws_latency_free(&s->e[i].data);
	}
	free(s->e);
	memset(s, 0, sizeof(*s));
}

static int cmp_key(const struct iws_rpc *r, const struct iws_rpc_proc_stats *e)
{
	uint32_t a[4] = { r->has_call, r->prog, r->vers, r->proc };
	uint32_t b[4] = { e->has_call, e->prog, e->vers, e->proc };
	for (int i = 0; i < 4; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static struct iws_rpc_proc_stats *group(struct iws_rpc_stats *s, const struct iws_rpc *r)
{
	uint32_t lo = 0, hi = s->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = cmp_key(r, &s->e[mid]);
		if (c == 0)
			return &s->e[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (s->n == IWS_RPC_STATS_MAX_GROUPS)
		return NULL;
	struct iws_rpc_proc_stats *g = iws_array_insert((void **)&s->e, &s->n, &s->cap, sizeof(*g), lo);
	if (!g)
		return NULL;
	g->has_call = r->has_call;
	g->prog = r->has_call ? r->prog : 0;
	g->vers = r->has_call ? r->vers : 0;
	g->proc = r->has_call ? r->proc : 0;
	g->name = r->has_call ? r->proc_name : NULL;
	iws_latency_init(&g->latency);
	iws_latency_init(&g->think);
	iws_latency_init(&g->data);
	return g;
}

bool iws_rpc_stats_add(struct iws_rpc_stats *s, const struct iws_rpc *r)
{
	struct iws_rpc r0;
	if (!r->has_call) { /* one group for the replies without their call */
		r0 = *r;
		r0.prog = r0.vers = r0.proc = 0;
		r = &r0;
	}
	struct iws_rpc_proc_stats *g = group(s, r);
	if (!g) {
		s->other++;
		return false;
	}
	g->count++;
	g->rdma_bytes += r->rdma_bytes;
	if (!r->complete)
		return true;
	g->complete++;
	iws_latency_add(&g->latency, r->latency_ns);
	if (r->data_first_frame) {
		iws_latency_add(&g->think, r->think_ns);
		iws_latency_add(&g->data, r->data_ns);
	}
	return true;
}
