// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe command statistics per (qid, op) (see nvme.h): the CLI's `stats`
 * nvme section and the plugin's `-z iwarp,nvme` both add every reported
 * command here, so they print the same numbers. Latency and data-transfer
 * distributions are core/stats.c's (nearest-rank quantiles, exact up to
 * IWS_LAT_EXACT_MAX samples). The number of groups is bounded: one qid per
 * connection (and "unknown"), op names from a fixed table.
 */
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/nvme.h"
#include "sorted.h"

void iws_nvme_stats_init(struct iws_nvme_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void iws_nvme_stats_free(struct iws_nvme_stats *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		iws_latency_free(&s->e[i].latency);
		iws_latency_free(&s->e[i].data);
	}
	free(s->e);
	memset(s, 0, sizeof(*s));
}

static int cmp_key(int32_t qid, const char *op, const struct iws_nvme_op_stats *e)
{
	if (qid != e->qid)
		return qid < e->qid ? -1 : 1;
	return strcmp(op, e->op);
}

static struct iws_nvme_op_stats *group(struct iws_nvme_stats *s, int32_t qid, const char *op)
{
	uint32_t lo = 0, hi = s->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = cmp_key(qid, op, &s->e[mid]);
		if (c == 0)
			return &s->e[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	struct iws_nvme_op_stats *g = iws_array_insert((void **)&s->e, &s->n, &s->cap, sizeof(*g), lo);
	if (!g)
		return NULL;
	g->qid = qid;
	g->op = op;
	iws_latency_init(&g->latency);
	iws_latency_init(&g->data);
	return g;
}

static void count_status(struct iws_nvme_op_stats *g, uint16_t status, uint64_t n)
{
	for (uint32_t i = 0; i < g->nstatus; i++)
		if (g->status[i].status == status) {
			g->status[i].count += n;
			return;
		}
	if (g->nstatus == IWS_NVME_STATUS_SLOTS) {
		g->status_other += n;
		return;
	}
	/* kept in status order, for output */
	uint32_t i = g->nstatus++;
	while (i > 0 && g->status[i - 1].status > status) {
		g->status[i] = g->status[i - 1];
		i--;
	}
	g->status[i] = (struct iws_nvme_status_count){ status, n };
}

bool iws_nvme_stats_add(struct iws_nvme_stats *s, const struct iws_nvme_cmd *c)
{
	return iws_nvme_stats_add_timed(s, c, true);
}

bool iws_nvme_stats_add_timed(struct iws_nvme_stats *s, const struct iws_nvme_cmd *c, bool timed)
{
	struct iws_nvme_op_stats *g = group(s, c->qid < 0 ? -1 : c->qid, c->op ? c->op : "unknown");
	if (!g)
		return false;
	g->fabrics = c->fabrics;
	g->count++;
	g->bytes += c->bytes;
	if (c->has_completion && c->status) {
		g->errors++;
		count_status(g, c->status, 1);
	}
	if (!c->complete)
		return true;
	if (g->complete == 0 || c->start_ns < g->first_start_ns)
		g->first_start_ns = c->start_ns;
	if (g->complete == 0 || c->end_ns > g->last_end_ns)
		g->last_end_ns = c->end_ns;
	g->complete++;
	if (!timed)
		return true;
	iws_latency_add(&g->latency, c->latency_ns);
	if (c->data_first_frame)
		iws_latency_add(&g->data, c->data_ns);
	return true;
}

bool iws_nvme_stats_merge_all(struct iws_nvme_stats *all, const struct iws_nvme_stats *s)
{
	bool ok = true;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct iws_nvme_op_stats *o = &s->e[i];
		struct iws_nvme_op_stats *g = group(all, IWS_NVME_QID_ALL, o->op);
		if (!g)
			return false;
		g->fabrics = o->fabrics;
		g->count += o->count;
		g->bytes += o->bytes;
		g->errors += o->errors;
		for (uint32_t k = 0; k < o->nstatus; k++)
			count_status(g, o->status[k].status, o->status[k].count);
		g->status_other += o->status_other;
		if (o->complete) {
			if (g->complete == 0 || o->first_start_ns < g->first_start_ns)
				g->first_start_ns = o->first_start_ns;
			if (g->complete == 0 || o->last_end_ns > g->last_end_ns)
				g->last_end_ns = o->last_end_ns;
		}
		g->complete += o->complete;
		ok &= iws_latency_merge(&g->latency, &o->latency);
		ok &= iws_latency_merge(&g->data, &o->data);
	}
	return ok;
}

/* A rate over a handful of commands says nothing (one Fabrics Connect of
 * 508 us would be "1969 IOPS"): IOPS needs IWS_NVME_IOPS_MIN complete
 * commands and a span that is not 0 (docs/semantics.md, NVMe statistics). */
bool iws_nvme_op_has_iops(const struct iws_nvme_op_stats *o)
{
	return o->complete >= IWS_NVME_IOPS_MIN && o->last_end_ns > o->first_start_ns;
}

uint64_t iws_nvme_op_iops(const struct iws_nvme_op_stats *o)
{
	if (!iws_nvme_op_has_iops(o))
		return 0;
	unsigned __int128 span = (unsigned __int128)(o->last_end_ns - o->first_start_ns);
	unsigned __int128 v = ((unsigned __int128)o->complete * 1000000000u + span / 2) / span;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}
