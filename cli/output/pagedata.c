// SPDX-License-Identifier: GPL-2.0-or-later
/* What the HTML report draws, gathered as the capture streams by (see pagedata.h). */
#include "pagedata.h"
#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const page_series_names[PS_COUNT] = {
	"ops",          "inflight_ns",  "wire_i2r",        "wire_r2i",     "retransmitted_i2r",
	"retransmitted_r2i", "goodput_i2r", "goodput_r2i", "retransmissions", "zero_windows",
};
const char *const page_nvme_series_names[PN_COUNT] = { "completed", "bytes", "latency_sum_ns",
						       "latency_max_ns" };

static void place(void *ctx, const struct conn *c, const struct conn_seg *s);

void pagedata_init(struct pagedata *p, const struct source *src, uint32_t drawn, bool include_rtr)
{
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->include_rtr = include_rtr;
	p->tseq_budget = PAGE_TSEQ_BUDGET;
	opsample_init(&p->sample, drawn ? drawn : PAGE_DEFAULT_DRAWN);
	slowest_init(&p->slow, PAGE_SLOWEST);
	wire_init(&p->wire, p, place);
}

/* The entry's arrays (those a failed attempt left out). */
static bool qp_init(struct pagedata *p, struct page_qp *q, const struct conn *c)
{
	q->c = c;
	for (int k = 0; k < PS_COUNT; k++)
		if (!q->series[k] && !(q->series[k] = timegrid_array(&p->grid, false)))
			return false;
	return true;
}

static void start(struct pagedata *p)
{
	if (!p->started) {
		timegrid_init(&p->grid, source_stats(p->src)->first_ns);
		p->started = true;
	}
}

/* c's entry: its own while there is room, else the shared one. */
static struct page_qp *qp_of(struct pagedata *p, const struct conn *c)
{
	start(p);
	int32_t k = slotmap_get(&p->by_slot, c->slot);
	if (k >= 0)
		return &p->qps[k];
	bool own = p->nqps < PAGE_MAX_QPS;
	uint32_t i = own ? p->nqps : PAGE_MAX_QPS;
	struct page_qp *q = &p->qps[i];
	if (!qp_init(p, q, own ? c : NULL) || !slotmap_set(&p->by_slot, c->slot, (int32_t)i)) {
		p->oom++;
		return NULL;
	}
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

static uint8_t dir_of(const struct conn *c, int side)
{
	return side == conn_init_side(c) ? IWS_DIR_I2R : IWS_DIR_R2I;
}

void pagedata_op(struct pagedata *p, const struct conn *c, const struct iws_op *op)
{
	/* The statistics' population (iws_qp_stats_add). */
	if ((unsigned)op->type >= IWS_OPT_COUNT || (op->rtr && !p->include_rtr))
		return;
	struct page_qp *q = qp_of(p, c);
	if (!q)
		return;
	q->series[PS_OPS][timegrid_bucket(&p->grid, op->start_ns)]++;
	timegrid_add_span(&p->grid, q->series[PS_INFLIGHT_NS], op->start_ns, op->end_ns);
	if (op->complete && op->has_latency)
		hist_add(&q->latency[op->type], op->latency_ns, &p->oom);
	if (op->complete && op->has_ack)
		hist_add(&q->delivery[op->type], op->ack_ns, &p->oom);
	opsample_add(&p->sample, c, op);
	slowest_op(&p->slow, c, op);
}

/* A segment of an iWARP QP, in its place in time (wire.h). */
static void place(void *ctx, const struct conn *c, const struct conn_seg *s)
{
	struct pagedata *p = ctx;
	struct page_qp *q = qp_of(p, c);
	if (!q)
		return;
	uint8_t dir = dir_of(c, s->side);
	uint32_t b = timegrid_bucket(&p->grid, s->ts);
	q->series[dir == IWS_DIR_I2R ? PS_WIRE_I2R : PS_WIRE_R2I][b] += s->wire_len;
	if (s->retransmission)
		q->series[dir == IWS_DIR_I2R ? PS_RETX_I2R : PS_RETX_R2I][b] += s->wire_len;
	if (q->c) {
		uint8_t fl = (s->retransmission ? TSEQ_RETRANS : 0) |
			     (s->flags & IWS_TCP_ACK ? TSEQ_ACK : 0) |
			     (s->flags & IWS_TCP_SYN ? TSEQ_SYN : 0) |
			     (s->flags & IWS_TCP_FIN ? TSEQ_FIN : 0) |
			     (s->flags & IWS_TCP_RST ? TSEQ_RST : 0);
		struct tseq_rec r = { .ts = s->ts, .frame = s->frame, .seq = s->seq, .ack = s->ack,
				      .len = s->wire_len, .nsack = s->nsack, .wscale = s->wscale,
				      .raw_win = s->win, .dir = dir, .flags = fl };
		memcpy(r.sack_l, s->sack_l, sizeof(r.sack_l));
		memcpy(r.sack_r, s->sack_r, sizeof(r.sack_r));
		tseq_segment(&q->tseq, &r, s->retransmission, &p->tseq_budget);
	}
}

void pagedata_segment(struct pagedata *p, const struct conn *c, const struct conn_seg *s)
{
	wire_segment(&p->wire, c, s);
}

void pagedata_fpdu(struct pagedata *p, const struct conn *c, const struct iws_pdu *pdu)
{
	uint32_t good = pdu_goodput(pdu);
	if (!good)
		return;
	struct page_qp *q = qp_of(p, c);
	if (!q)
		return;
	q->series[pdu->dir == IWS_DIR_I2R ? PS_GOOD_I2R : PS_GOOD_R2I]
		 [timegrid_bucket(&p->grid, pdu->ts)] += good;
}

/* The page's mark kinds (its "mark_kinds", by index): the timeline draws a
 * fast retransmission apart and every other retransmission as "timeout"
 * (the sender's timer, or recovery without one: both are the sender acting
 * alone), a zero window, and octets never captured. */
static const struct {
	enum iws_stream_event_kind kind;
	const char *name;
} page_marks[PAGE_MARK_KINDS] = {
	{ IWS_SEV_FAST_RETRANSMIT, "fast_retransmit" },
	{ IWS_SEV_TIMEOUT, "timeout" },
	{ IWS_SEV_ZERO_WINDOW, "zero_window" },
	{ IWS_SEV_GAP, "gap" },
};

const char *pagedata_mark_kind_name(uint32_t index)
{
	return index < PAGE_MARK_KINDS ? page_marks[index].name : NULL;
}

static uint8_t page_mark_index(enum iws_stream_event_kind kind)
{
	if (kind == IWS_SEV_OTHER_RETRANSMIT)
		kind = IWS_SEV_TIMEOUT;
	uint8_t k = 0;
	while (k + 1 < PAGE_MARK_KINDS && page_marks[k].kind != kind)
		k++;
	return k;
}

void pagedata_mark(struct pagedata *p, const struct conn *c, const struct conn_mark *m)
{
	/* Only connections kept for the report (an entry must not outlive its
	 * connection): marks before iWARP was recognised are not drawn. */
	if (!conn_is_iwarp(c))
		return;
	struct page_qp *q = qp_of(p, c);
	if (!q)
		return;
	uint32_t b = timegrid_bucket(&p->grid, m->ts);
	if (m->kind == IWS_SEV_FAST_RETRANSMIT || m->kind == IWS_SEV_TIMEOUT || m->kind == IWS_SEV_OTHER_RETRANSMIT)
		q->series[PS_RETRANS][b]++;
	else if (m->kind == IWS_SEV_ZERO_WINDOW)
		q->series[PS_ZERO_WINDOWS][b]++;
	else if (m->kind == IWS_SEV_GAP && q->c)
		tseq_loss(&q->tseq, &p->tseq_budget);
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
	q->marks[q->nmarks++] = (struct page_mark){ page_mark_index(m->kind), m->dir, m->frame, m->ts };
}

/* The histogram of command type op on q (NULL: no room or memory). */
static struct loghist **nvme_hist(struct page_nvme *n, int32_t qid, const char *op)
{
	for (uint32_t i = 0; i < n->nops; i++)
		if (n->ops[i].qid == qid && !strcmp(n->ops[i].op, op))
			return &n->ops[i].latency;
	if (n->nops == PAGE_NVME_OPS) {
		n->ops_dropped++;
		return NULL;
	}
	struct page_nvme_op *o = &n->ops[n->nops++];
	o->qid = qid;
	snprintf(o->op, sizeof(o->op), "%s", op);
	return &o->latency;
}

void pagedata_nvme(struct pagedata *p, const struct conn *c, const struct iws_nvme_cmd *m)
{
	struct page_qp *q = qp_of(p, c);
	if (!q)
		return;
	if (!q->nvme) {
		if (!(q->nvme = calloc(1, sizeof(*q->nvme)))) {
			p->oom++;
			return;
		}
		for (int k = 0; k < PN_COUNT; k++)
			if (!(q->nvme->series[k] = timegrid_array(&p->grid, k == PN_LAT_MAX))) {
				p->oom++;
				return;
			}
	}
	struct page_nvme *n = q->nvme;
	if (!n->series[PN_COUNT - 1])
		return;
	/* The statistics' population: latencies of complete commands. */
	if (m->complete && m->has_completion && !(m->flags & IWS_NVMEF_NO_COMMAND)) {
		uint32_t b = timegrid_bucket(&p->grid, m->end_ns);
		n->series[PN_DONE][b]++;
		n->series[PN_BYTES][b] += m->bytes;
		n->series[PN_LAT_SUM][b] += (uint64_t)(m->latency_ns > 0 ? m->latency_ns : 0);
		if ((uint64_t)m->latency_ns > n->series[PN_LAT_MAX][b] && m->latency_ns > 0)
			n->series[PN_LAT_MAX][b] = (uint64_t)m->latency_ns;
		/* (keyed as the statistics' groups: an unknown qid is -1) */
		struct loghist **h = nvme_hist(n, m->qid < 0 ? -1 : m->qid, m->op ? m->op : "unknown");
		if (h)
			hist_add(h, m->latency_ns, &p->oom);
	}
	slowest_nvme(&p->slow, c, m);
	if (m->has_completion && m->status && p->nfailed < PAGE_NVME_FAILED) {
		if (!p->failed && !(p->failed = malloc(PAGE_NVME_FAILED * sizeof(*p->failed)))) {
			p->oom++;
			return;
		}
		p->failed[p->nfailed++] = (struct nvme_item){ *m, c };
	}
}

void pagedata_finish(struct pagedata *p, const struct analysis *a)
{
	wire_finish(&p->wire, a);
}

void pagedata_rpc(struct pagedata *p, const struct iws_rpc *r)
{
	if (!r->complete)
		return;
	if (!p->rpc_slow && !(p->rpc_slow = calloc(PAGE_RPC_SLOWEST, sizeof(*p->rpc_slow)))) {
		p->oom++;
		return;
	}
	/* slowest first; equal latencies in call order */
	uint32_t at = p->nrpc_slow;
	while (at > 0 && (p->rpc_slow[at - 1].latency_ns < r->latency_ns ||
			  (p->rpc_slow[at - 1].latency_ns == r->latency_ns &&
			   p->rpc_slow[at - 1].call_frame > r->call_frame)))
		at--;
	if (at >= PAGE_RPC_SLOWEST)
		return;
	uint32_t n = p->nrpc_slow < PAGE_RPC_SLOWEST ? p->nrpc_slow + 1 : PAGE_RPC_SLOWEST;
	memmove(&p->rpc_slow[at + 1], &p->rpc_slow[at], (n - 1 - at) * sizeof(*p->rpc_slow));
	p->rpc_slow[at] = *r;
	p->nrpc_slow = n;
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
		if (q->nvme)
			for (uint32_t k = 0; k < q->nvme->nops; k++)
				free(q->nvme->ops[k].latency);
		free(q->nvme);
		tseq_free(&q->tseq);
	}
	slotmap_free(&p->by_slot);
	opsample_free(&p->sample);
	slowest_free(&p->slow);
	wire_free(&p->wire);
	free(p->failed);
	free(p->rpc_slow);
	if (p->started)
		timegrid_free(&p->grid);
	memset(p, 0, sizeof(*p));
}
