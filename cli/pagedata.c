// SPDX-License-Identifier: GPL-2.0-or-later
/* What the HTML report draws, gathered as the capture streams by (see pagedata.h). */
#include "pagedata.h"

#include <stdlib.h>
#include <string.h>

const char *const page_series_names[PS_COUNT] = { "ops", "bytes", "retransmissions",
						  "zero_windows" };

void pagedata_init(struct pagedata *p, const struct source *src, uint32_t drawn, bool include_rtr)
{
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->include_rtr = include_rtr;
	opsample_init(&p->sample, drawn ? drawn : PAGE_DEFAULT_DRAWN);
}

/* The entry's arrays (those a failed attempt left out). */
static bool qp_init(struct pagedata *p, struct page_qp *q, const struct conn *c)
{
	q->c = c;
	for (int k = 0; k < PS_COUNT; k++)
		if (!q->series[k] && !(q->series[k] = timegrid_array(&p->grid)))
			return false;
	return true;
}

/* c's entry: its own while there is room, else the shared one. */
static struct page_qp *qp_of(struct pagedata *p, const struct conn *c)
{
	if (!p->started) {
		timegrid_init(&p->grid, source_stats(p->src)->first_ns);
		p->started = true;
	}
	int32_t k = slotmap_get(&p->by_slot, c->slot);
	if (k >= 0)
		return &p->qps[k];
	bool own = p->nqps < PAGE_MAX_QPS;
	uint32_t i = own ? p->nqps : PAGE_MAX_QPS;
	struct page_qp *q = &p->qps[i];
	if (!qp_init(p, q, own ? c : NULL) || !slotmap_set(&p->by_slot, c->slot, (int32_t)i))
		return NULL;
	if (own)
		p->nqps++;
	else
		q->nqps++;
	return q;
}

static void hist_add(struct loghist **h, int64_t ns, uint64_t *oom)
{
	if (!*h && !(*h = calloc(1, sizeof(**h)))) {
		(*oom)++;
		return;
	}
	loghist_add(*h, ns);
}

void pagedata_op(struct pagedata *p, const struct conn *c, const struct iws_op *op)
{
	/* The statistics' population (iws_qp_stats_add). */
	if ((unsigned)op->type >= IWS_OPT_COUNT || (op->rtr && !p->include_rtr))
		return;
	struct page_qp *q = qp_of(p, c);
	if (!q) {
		p->oom++;
		return;
	}
	q->series[PS_OPS][timegrid_bucket(&p->grid, op->start_ns)]++;
	timegrid_spread(&p->grid, q->series[PS_BYTES], op->start_ns, op->end_ns, op->bytes);
	if (op->complete && op->has_latency)
		hist_add(&q->latency[op->type], op->latency_ns, &p->oom);
	if (op->complete && op->has_ack)
		hist_add(&q->delivery[op->type], op->ack_ns, &p->oom);
	opsample_add(&p->sample, c, op);
}

void pagedata_mark(struct pagedata *p, const struct conn *c, const struct conn_mark *m)
{
	/* Only connections kept for the report (an entry must not outlive its
	 * connection): marks before iWARP was recognised are not drawn. */
	if (!conn_is_iwarp(c))
		return;
	struct page_qp *q = qp_of(p, c);
	if (!q) {
		p->oom++;
		return;
	}
	uint32_t b = timegrid_bucket(&p->grid, m->ts);
	if (m->kind == MARK_FAST_RETRANSMIT || m->kind == MARK_TIMEOUT)
		q->series[PS_RETRANS][b]++;
	else if (m->kind == MARK_ZERO_WINDOW)
		q->series[PS_ZERO_WINDOWS][b]++;
	if (!q->c || q->nmarks == PAGE_MAX_MARKS) {
		q->marks_dropped++;
		return;
	}
	if (q->nmarks == q->capmarks) {
		uint32_t n = q->capmarks ? q->capmarks * 2 : 16;
		struct page_mark *v = realloc(q->marks, n * sizeof(*v));
		if (!v) {
			q->marks_dropped++;
			return;
		}
		q->marks = v;
		q->capmarks = n;
	}
	q->marks[q->nmarks++] = (struct page_mark){ (uint8_t)m->kind, m->dir, m->frame, m->ts };
}

const struct page_qp *pagedata_others(const struct pagedata *p)
{
	return p->qps[PAGE_MAX_QPS].nqps ? &p->qps[PAGE_MAX_QPS] : NULL;
}

void pagedata_free(struct pagedata *p)
{
	for (uint32_t i = 0; i <= PAGE_MAX_QPS; i++) {
		struct page_qp *q = &p->qps[i];
		for (int t = 0; t < IWS_OPT_COUNT; t++) {
			free(q->latency[t]);
			free(q->delivery[t]);
		}
		free(q->marks);
	}
	slotmap_free(&p->by_slot);
	opsample_free(&p->sample);
	if (p->started)
		timegrid_free(&p->grid);
	memset(p, 0, sizeof(*p));
}
