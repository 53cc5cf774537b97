// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `report` writer: one self-contained HTML page. The page is a template
 * (cli/report/page.html with report.css and report.js, compiled in by
 * embed.cmake) and one JSON block, <script type="application/json"
 * id="iws-data">, holding everything the page draws; the script draws it
 * with SVG. Tests compare that block with golden files (tests/report/).
 *
 * The block (times are ns from grid.origin_ns, except the *_ns strings,
 * which are ns since the epoch; every number is an integer):
 *   generator, files, capture {frames, bytes, first_ns, last_ns (strings),
 *     duration_ns, tcp_connections, qps, operations, incomplete, window
 *     (with --since/--until: {text, from_ns, to_ns (strings), from, to
 *     (from the first frame: the page's time axis), span_ns, frames,
 *     bytes})},
 *   op_types [names by type number], mark_kinds, iec (sizes in binary
 *   units: --units), hist {per_decade, decades},
 *   tz {offset_s, name} (TZ, for wall-clock times), grid {origin_ns
 *   (string), width_ns, buckets}, flag_names [[bit, name]],
 *   qps [{qp (null: the other QPs together), nqps, initiator, responder,
 *     handshake, operations, incomplete, bytes, first, last, tcp {...} (as
 *     in stats), gaps, stall_ns, series {a number per bucket: ops,
 *     inflight_ns, wire_i2r, wire_r2i, retransmitted_i2r, retransmitted_r2i,
 *     goodput_i2r, goodput_r2i, retransmissions, zero_windows}, marks
 *     [[kind, dir, t, frame]], marks_dropped, teardown [[kind (1 FIN, 2 RST,
 *     3 Terminate), dir, t, frame, outstanding]], dists [{op, kind
 *     (latency|delivery), stats (as in stats), first (bin), counts (per bin
 *     from first)}], nvme (null, or {qid, series {completed, bytes,
 *     latency_sum_ns, latency_max_ns}, dists [{qid, op, stats, first,
 *     counts}], statuses [{qid, op, status, name, count}], commands,
 *     incomplete, awaiting_event, errors}), tseq (null, or {base [i2r,
 *     r2i], losses, left_out, segments [[t, dir, seq - base, len, ack -
 *     the peer's base or null, flags (tseq.h), frame, the receive window
 *     it advertises (scaled) or null, its sender's octets in flight or
 *     null, its SACK blocks [[left - the peer's base, right - ...]] or
 *     null]]})}],
 *   all {dists [...]} (every QP together),
 *   ops {total, drawn, cap, troubled, columns, rows [[...]]},
 *   slowest {waits [{kind (rdma|nvme), qp, id, op, time_ns, start,
 *     first_frame, last_frame, bytes, why; nvme: qid, cid, data_ns,
 *     data_first_frame, data_last_frame, status}], deliveries [{qp, id, op,
 *     time_ns, start, first_frame, last_frame, ack_frame, bytes, why}],
 *     delayed_ack (deliveries left out)},
 *   nvme_failed [{qp, qid, cid, op, status, name, start, first_frame,
 *     last_frame}] (the first PAGE_NVME_FAILED),
 *   findings [{qp (null: the capture), text, details [...]}] (findings.h:
 *     the summary's "!" lines, from the same calls),
 *   wire {unplaced_segments, unplaced_bytes},
 *   summary (the summary command's text, without its slowest lists),
 *   summary_cut.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iwarpscope/names.h"
#include "iwarpscope/status.h"
#include "findings.h"
#include "dists.h"
#include "out_summary.h"
#include "out_html.h"
#include "out_nvme.h"
#include "out_rpc.h"
#include "out_ops.h"
#include "out_points.h"
#include "out_stats.h"
#include "pagedata.h"
#include "report_assets.h"
#include "units.h"
#include "words.h"

/* The summary's text is cut here (a capture with many QPs). */
#define PAGE_SUMMARY_MAX (1u << 20)


static void key_ns_str(struct jsonw *j, const char *k, int64_t ns)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRId64, ns);
	jw_kstr(j, k, b);
}

static int64_t rel(const struct pagedata *p, int64_t ns)
{
	return ns - p->grid.origin;
}

/* [a, b, ...]: the page's compact records (marks, teardown) */
static void tuple_json(struct jsonw *j, const int64_t *v, int n)
{
	jw_arr(j);
	for (int i = 0; i < n; i++)
		jw_i64(j, v[i]);
	jw_arr_end(j);
}

/* A histogram's nonempty bins: first (bin) and counts (from it). */
static void bins_json(struct jsonw *j, const uint32_t *bins)
{
	uint32_t lo = LOGHIST_BINS, hi = 0;
	for (uint32_t b = 0; b < LOGHIST_BINS; b++)
		if (bins[b]) {
			if (lo == LOGHIST_BINS)
				lo = b;
			hi = b;
		}
	jw_ku64(j, "first", lo == LOGHIST_BINS ? 0 : lo);
	jw_key(j, "counts");
	jw_arr(j);
	for (uint32_t b = lo; b <= hi && lo != LOGHIST_BINS; b++)
		jw_u64(j, bins[b]);
	jw_arr_end(j);
}

/* A distribution is drawn as a histogram from this many samples up; below,
 * the page lists its samples instead (report.js MIN_DRAWN): a histogram of
 * six samples says less than the six numbers. */
#define REPORT_MIN_DRAWN 20

/* "samples": the sorted samples of a distribution too small to draw (exact:
 * fewer than REPORT_MIN_DRAWN is always under IWS_LAT_EXACT_MAX). */
static void few_samples_json(struct jsonw *j, const struct iws_latency *lc)
{
	struct iws_latency *l = (struct iws_latency *)lc; /* sorts lazily */
	if (l->count >= REPORT_MIN_DRAWN || !iws_latency_is_exact(l))
		return;
	jw_key(j, "samples");
	jw_arr(j);
	for (uint64_t i = 1; i <= l->n_samples; i++)
		jw_i64(j, iws_latency_quantile(l, (double)i / (double)l->n_samples));
	jw_arr_end(j);
}

static void dist_json(struct jsonw *j, int t, const char *kind, const struct iws_latency *l,
		      const uint32_t *bins)
{
	jw_obj(j);
	jw_kstr(j, "op", iws_op_type_name((enum iws_op_type)t));
	jw_kstr(j, "kind", kind);
	latency_json(j, "stats", l);
	few_samples_json(j, l);
	bins_json(j, bins);
	jw_obj_end(j);
}

/* One NVMe command type's latency: statistics, fio's ladder, the samples
 * when too few to draw, the bins. */
static void nvme_dist_json(struct jsonw *j, const struct iws_nvme_op_stats *o, const uint32_t *bins)
{
	jw_obj(j);
	if (o->qid != IWS_NVME_QID_ALL)
		jw_koi64(j, "qid", o->qid >= 0, o->qid);
	jw_kstr(j, "op", o->op);
	latency_json(j, "stats", &o->latency);
	ladder_json(j, "ladder", &o->latency);
	few_samples_json(j, &o->latency);
	bins_json(j, bins);
	jw_obj_end(j);
}

/* The distributions of one QP (stats from its statistics, bins from q). */
static void dists_json(struct jsonw *j, const struct iws_qp_stats *st,
		       struct loghist *const lat[], struct loghist *const del[])
{
	jw_key(j, "dists");
	jw_arr(j);
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		if (lat[t] && st->op[t].latency.count)
			dist_json(j, t, "latency", &st->op[t].latency, lat[t]->bins);
		if (del[t] && st->op[t].delivery.count)
			dist_json(j, t, "delivery", &st->op[t].delivery, del[t]->bins);
	}
	jw_arr_end(j);
}

static void arrays_json(struct jsonw *j, const struct pagedata *p, uint64_t *const *a,
			const char *const *names, int n)
{
	jw_key(j, "series");
	jw_obj(j);
	for (int k = 0; k < n; k++) {
		jw_key(j, names[k]);
		jw_arr(j);
		for (uint32_t b = 0; b < p->grid.used; b++)
			jw_u64(j, a[k] ? a[k][b] : 0);
		jw_arr_end(j);
	}
	jw_obj_end(j);
}

/* A QP's NVMe-oF queue: the series, the latency histograms with the
 * statistics' numbers, the non-zero statuses. */
static void nvme_json(struct jsonw *j, const struct pagedata *p, const struct page_qp *q)
{
	const struct conn *c = q->c;
	jw_key(j, "nvme");
	if (!q->nvme || !c || !conn_is_nvme(c)) {
		jw_null(j);
		return;
	}
	const struct iws_nvme_qp_info *in = iws_nvme_tracker_info(conn_nvme_tracker(c));
	const struct conn_nvme *n = c->nvme;
	jw_obj(j);
	jw_koi64(j, "qid", in->qid >= 0, in->qid);
	jw_ku64(j, "commands", n->commands);
	jw_ku64(j, "incomplete", n->incomplete - n->awaiting_event);
	jw_ku64(j, "awaiting_event", n->awaiting_event);
	jw_ku64(j, "errors", n->errors);
	arrays_json(j, p, q->nvme->series, page_nvme_series_names, PN_COUNT);
	jw_key(j, "dists");
	jw_arr(j);
	for (uint32_t k = 0; k < n->st.n; k++) {
		const struct iws_nvme_op_stats *o = &n->st.e[k];
		const struct loghist *h = NULL;
		for (uint32_t x = 0; x < q->nvme->nops; x++)
			if (q->nvme->ops[x].qid == o->qid && !strcmp(q->nvme->ops[x].op, o->op))
				h = q->nvme->ops[x].latency;
		if (!o->latency.count || !h)
			continue;
		nvme_dist_json(j, o, h->bins);
	}
	jw_arr_end(j);
	jw_key(j, "statuses");
	jw_arr(j);
	for (uint32_t k = 0; k < n->st.n; k++) {
		const struct iws_nvme_op_stats *o = &n->st.e[k];
		for (uint32_t x = 0; x < o->nstatus; x++) {
			jw_obj(j);
			jw_koi64(j, "qid", o->qid >= 0, o->qid);
			jw_kstr(j, "op", o->op);
			jw_ku64(j, "status", o->status[x].status);
			jw_kostr(j, "name", iws_nvme_status_name(o->status[x].status, o->fabrics));
			jw_ku64(j, "count", o->status[x].count);
			jw_obj_end(j);
		}
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/* The segments kept around a QP's losses (tseq.h). */
static void tseq_json(struct jsonw *j, const struct pagedata *p, const struct tseq *t)
{
	jw_key(j, "tseq");
	if (!t->losses || !t->nkept) {
		jw_null(j);
		return;
	}
	jw_obj(j);
	jw_key(j, "base");
	jw_arr(j);
	for (int d = 0; d < 2; d++)
		jw_u64(j, t->base[d]);
	jw_arr_end(j);
	jw_ku64(j, "losses", t->losses);
	jw_ku64(j, "left_out", t->left_out);
	jw_key(j, "segments");
	jw_arr(j);
	for (uint32_t i = 0; i < t->nkept; i++) {
		const struct tseq_rec *r = &t->kept[i];
		int d = r->dir ? 1 : 0;
		jw_arr(j);
		jw_i64(j, rel(p, r->ts));
		jw_u64(j, r->dir);
		/* relative to the direction's first sequence number, mod 2^32 */
		jw_i64(j, (int32_t)(r->seq - t->base[d]));
		jw_u64(j, r->len);
		if ((r->flags & TSEQ_ACK) && t->has_base[!d])
			jw_i64(j, (int32_t)(r->ack - t->base[!d]));
		else
			jw_null(j);
		jw_u64(j, r->flags);
		jw_u64(j, r->frame);
		if (r->flags & TSEQ_WIN)
			jw_u64(j, r->win);
		else
			jw_null(j);
		if (r->flags & TSEQ_FLIGHT)
			jw_u64(j, r->flight);
		else
			jw_null(j);
		if (r->nsack && t->has_base[!d]) {
			jw_arr(j);
			for (unsigned k = 0; k < r->nsack; k++) {
				jw_arr(j);
				jw_i64(j, (int32_t)(r->sack_l[k] - t->base[!d]));
				jw_i64(j, (int32_t)(r->sack_r[k] - t->base[!d]));
				jw_arr_end(j);
			}
			jw_arr_end(j);
		} else {
			jw_null(j);
		}
		jw_arr_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

static void qp_json(struct jsonw *j, const struct pagedata *p, const struct page_qp *q)
{
	const struct conn *c = q->c;
	char a[64];
	jw_obj(j);
	if (!c) {
		jw_knull(j, "qp");
		jw_ku64(j, "nqps", q->nqps);
		arrays_json(j, p, q->series, page_series_names, PS_COUNT);
		jw_obj_end(j);
		return;
	}
	jw_ku64(j, "qp", c->stream);
	jw_ku64(j, "nqps", 1);
	jw_kstr(j, "initiator", conn_ep_str(c, IWS_DIR_I2R, a));
	jw_kstr(j, "responder", conn_ep_str(c, IWS_DIR_R2I, a));
	jw_kstr(j, "handshake", hs_name(iws_stream_state(c->eng)));
	jw_ku64(j, "operations", c->c.ops);
	jw_ku64(j, "incomplete", c->c.ops_incomplete);
	jw_ku64(j, "bytes", c->c.op_bytes);
	jw_ki64(j, "first", rel(p, c->first_ns));
	jw_ki64(j, "last", rel(p, c->last_ns));
	stats_tcp_json(j, c);
	jw_ku64(j, "gaps", conn_gap_count(c));
	int64_t stall = 0;
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		int64_t s = conn_stats(c)->op[t].stall_ns;
		stall = s > INT64_MAX - stall ? INT64_MAX : stall + s;
	}
	jw_ki64(j, "stall_ns", stall);
	arrays_json(j, p, q->series, page_series_names, PS_COUNT);
	jw_key(j, "marks");
	jw_arr(j);
	for (uint32_t i = 0; i < q->nmarks; i++) {
		const struct page_mark *m = &q->marks[i];
		int64_t v[] = { m->kind, m->dir, rel(p, m->ts), (int64_t)m->frame };
		tuple_json(j, v, 4);
	}
	jw_arr_end(j);
	jw_ku64(j, "marks_dropped", q->marks_dropped);
	/* FIN, RST, Terminate (struct iws_close); kinds 1, 2, 3 */
	jw_key(j, "teardown");
	jw_arr(j);
	for (uint32_t i = 0; i < c->ncloses; i++) {
		const struct iws_close *t = &c->closes[i];
		int64_t v[] = { t->kind, t->dir, rel(p, t->ts), (int64_t)t->frame, t->outstanding };
		tuple_json(j, v, 5);
	}
	jw_arr_end(j);
	dists_json(j, conn_stats(c), q->latency, q->delivery);
	nvme_json(j, p, q);
	tseq_json(j, p, &q->tseq);
	jw_obj_end(j);
}

/* Every QP's bins added up, per type and kind (the "all QPs" picture). */
static void all_json(struct jsonw *j, const struct pagedata *p, const struct analysis *a)
{
	static struct loghist lat[IWS_OPT_COUNT], del[IWS_OPT_COUNT];
	struct loghist *lp[IWS_OPT_COUNT], *dp[IWS_OPT_COUNT];
	memset(lat, 0, sizeof(lat));
	memset(del, 0, sizeof(del));
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		lp[t] = &lat[t];
		dp[t] = &del[t];
		for (uint32_t i = 0; i <= PAGE_MAX_QPS; i++) {
			const struct page_qp *q = &p->qps[i];
			for (uint32_t b = 0; b < LOGHIST_BINS; b++) {
				lat[t].bins[b] += q->latency[t] ? q->latency[t]->bins[b] : 0;
				del[t].bins[b] += q->delivery[t] ? q->delivery[t]->bins[b] : 0;
			}
		}
	}
	jw_key(j, "all");
	jw_obj(j);
	dists_json(j, analysis_total(a), lp, dp);
	jw_obj_end(j);
}

/* The NVMe all-queue rows (out_nvme.c): per command type over every queue,
 * its bins every QP's added up. */
static void nvme_all_json(struct jsonw *j, const struct pagedata *p, const struct analysis *a)
{
	struct iws_nvme_stats all;
	static uint32_t bins[LOGHIST_BINS];
	nvme_all_rows(a, &all);
	jw_key(j, "nvme_all");
	jw_arr(j);
	for (uint32_t k = 0; k < all.n; k++) {
		const struct iws_nvme_op_stats *o = &all.e[k];
		if (!o->latency.count)
			continue;
		memset(bins, 0, sizeof(bins));
		for (uint32_t i = 0; i <= PAGE_MAX_QPS; i++) {
			const struct page_nvme *n = p->qps[i].nvme;
			for (uint32_t x = 0; n && x < n->nops; x++)
				for (uint32_t b = 0; n->ops[x].latency && !strcmp(n->ops[x].op, o->op) && b < LOGHIST_BINS; b++)
					bins[b] += n->ops[x].latency->bins[b];
		}
		nvme_dist_json(j, o, bins);
	}
	jw_arr_end(j);
	iws_nvme_stats_free(&all);
}

static void ops_json(struct jsonw *j, struct pagedata *p, FILE *f)
{
	static const char *const cols[] = { "qp", "id", "op", "dir", "start", "end", "first_frame",
					    "last_frame", "bytes", "latency", "ack", "ack_frame",
					    "retransmissions", "stall", "complete", "flags" };
	uint32_t n = 0;
	struct op_item *v = opsample_collect(&p->sample, &n);
	jw_key(j, "ops");
	jw_obj(j);
	jw_ku64(j, "total", p->sample.seen);
	jw_ku64(j, "drawn", n);
	jw_ku64(j, "cap", p->sample.cap);
	jw_ku64(j, "troubled", p->sample.troubled_seen);
	jw_key(j, "columns");
	jw_arr(j);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		jw_str(j, cols[i]);
	jw_arr_end(j);
	jw_key(j, "rows");
	jw_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct iws_op *op = &v[i].op;
		jw_arr(j);
		jw_u64(j, v[i].c->stream);
		jw_u64(j, op->id);
		jw_u64(j, op->type);
		jw_u64(j, op->dir);
		jw_i64(j, rel(p, op->start_ns));
		jw_i64(j, rel(p, op->end_ns));
		jw_u64(j, op->first_frame);
		jw_u64(j, op->last_frame);
		jw_u64(j, op->bytes);
		if (op->has_latency)
			jw_i64(j, op->latency_ns);
		else
			jw_null(j);
		if (op->has_ack) {
			jw_i64(j, op->ack_ns);
			jw_u64(j, op->ack_frame);
		} else {
			jw_null(j);
			jw_null(j);
		}
		jw_u64(j, op->retransmissions);
		jw_i64(j, op->stall_ns);
		jw_u64(j, op->complete);
		jw_u64(j, op->flags);
		jw_arr_end(j);
		if (j->len > (64u << 10))
			jw_drain_html(j, f);
	}
	jw_arr_end(j);
	jw_obj_end(j);
	free(v);
}

static void op_slow_json(struct jsonw *j, const struct pagedata *p, const struct op_item *it,
			 int64_t ns)
{
	char why[256];
	const struct iws_op *op = &it->op;
	jw_ku64(j, "qp", it->c->stream);
	jw_ku64(j, "id", op->id);
	jw_kstr(j, "op", iws_op_type_name(op->type));
	jw_ki64(j, "time_ns", ns);
	jw_ki64(j, "start", rel(p, op->start_ns));
	jw_ku64(j, "first_frame", op->first_frame);
	jw_ku64(j, "last_frame", op->last_frame);
	jw_kou64(j, "ack_frame", op->has_ack, op->ack_frame);
	jw_ku64(j, "bytes", op->bytes);
	jw_kstr(j, "why", op_why(why, sizeof(why), op));
}

static void slowest_json(struct jsonw *j, struct pagedata *p)
{
	char why[256];
	struct wait_item w[PAGE_SLOWEST];
	uint32_t nw = slowest_waits(&p->slow, w, PAGE_SLOWEST);
	jw_key(j, "slowest");
	jw_obj(j);
	jw_key(j, "waits");
	jw_arr(j);
	for (uint32_t i = 0; i < nw; i++) {
		jw_obj(j);
		if (w[i].op) {
			jw_kstr(j, "kind", "rdma");
			op_slow_json(j, p, w[i].op, w[i].ns);
		} else {
			const struct iws_nvme_cmd *m = &w[i].nvme->cmd;
			jw_kstr(j, "kind", "nvme");
			jw_ku64(j, "qp", w[i].nvme->c->stream);
			jw_ku64(j, "id", m->id);
			jw_kstr(j, "op", m->op);
			jw_ki64(j, "time_ns", w[i].ns);
			jw_ki64(j, "start", rel(p, m->start_ns));
			jw_ku64(j, "first_frame", m->first_frame);
			jw_ku64(j, "last_frame", m->last_frame);
			jw_ku64(j, "bytes", m->bytes);
			jw_kstr(j, "why", nvme_why(why, sizeof(why), m));
			jw_koi64(j, "qid", m->qid >= 0, m->qid);
			jw_ku64(j, "cid", m->cid);
			jw_ki64(j, "data_ns", m->data_ns);
			jw_kou64(j, "data_first_frame", m->data_first_frame != 0, m->data_first_frame);
			jw_kou64(j, "data_last_frame", m->data_last_frame != 0, m->data_last_frame);
			jw_ku64(j, "status", m->status);
		}
		jw_obj_end(j);
	}
	jw_arr_end(j);
	uint32_t nd;
	const struct op_item *d = slowest_deliveries(&p->slow, &nd);
	jw_key(j, "deliveries");
	jw_arr(j);
	for (uint32_t i = 0; i < nd && i < PAGE_SLOWEST; i++) {
		jw_obj(j);
		op_slow_json(j, p, &d[i], d[i].op.ack_ns);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "delayed_ack", p->slow.delivery.delayed_ack);
	jw_obj_end(j);
	jw_key(j, "nvme_failed");
	jw_arr(j);
	for (uint32_t i = 0; i < p->nfailed; i++) {
		const struct iws_nvme_cmd *m = &p->failed[i].cmd;
		jw_obj(j);
		jw_ku64(j, "qp", p->failed[i].c->stream);
		jw_koi64(j, "qid", m->qid >= 0, m->qid);
		jw_ku64(j, "cid", m->cid);
		jw_kstr(j, "op", m->op);
		jw_ku64(j, "status", m->status);
		jw_kostr(j, "name", m->status_name);
		jw_ki64(j, "start", rel(p, m->start_ns));
		jw_ku64(j, "first_frame", m->first_frame);
		jw_ku64(j, "last_frame", m->last_frame);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

/* Findings as the page's data (findings.h): the summary's "!" lines. */
static void finding_json(void *ctx, const struct finding *f)
{
	struct jsonw *j = ctx;
	jw_obj(j);
	if (f->qp < 0)
		jw_knull(j, "qp");
	else
		jw_ku64(j, "qp", (uint64_t)f->qp);
	jw_kstr(j, "text", f->text);
	jw_key(j, "details");
	jw_arr(j);
	for (int i = 0; i < f->ndetails; i++)
		jw_str(j, f->details[i]);
	jw_arr_end(j);
	jw_obj_end(j);
}

static void findings_json(struct jsonw *j, const struct report *r)
{
	struct finding_sink s = { j, finding_json };
	jw_key(j, "findings");
	jw_arr(j);
	/* in the summary's order: the capture's, then each QP's */
	findings_capture(r, &s);
	points_findings(r->pts, &s);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		findings_qp_handshake(c, &s);
		findings_qp(c, &s, NULL);
		points_qp_findings(r->pts, c, &s);
	}
	jw_arr_end(j);
}

/* The summary command's text (cut at PAGE_SUMMARY_MAX), through a
 * temporary file so a capture with many QPs does not need it in memory
 * whole. */
static void summary_json(struct jsonw *j, const struct report *r)
{
	struct report rs = *r;
	rs.slow = NULL; /* the page has its own slowest tables */
	FILE *t = tmpfile();
	char *buf = malloc(PAGE_SUMMARY_MAX + 1);
	size_t n = 0;
	if (t && buf) {
		summary_write(t, &rs);
		rewind(t);
		n = fread(buf, 1, PAGE_SUMMARY_MAX, t);
	}
	if (buf) {
		buf[n] = 0;
		jw_kstr(j, "summary", buf);
	} else {
		jw_kstr(j, "summary", "");
	}
	jw_kbool(j, "summary_cut", t && buf && !feof(t) && fgetc(t) != EOF);
	free(buf);
	if (t)
		fclose(t);
}

static void capture_json(struct jsonw *j, const struct report *r)
{
	const struct source_stats *ss = source_stats(r->src);
	const struct analysis *a = r->a;
	uint64_t nq = 0, ops = 0, inc = 0;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		nq++;
		ops += c->c.ops;
		inc += c->c.ops_incomplete;
	}
	jw_key(j, "files");
	jw_arr(j);
	for (int i = 0; i < source_nfiles(r->src); i++)
		jw_str(j, source_name(r->src, i));
	jw_arr_end(j);
	jw_key(j, "capture");
	jw_obj(j);
	jw_ku64(j, "frames", ss->records);
	jw_ku64(j, "bytes", ss->bytes);
	key_ns_str(j, "first_ns", ss->first_ns);
	key_ns_str(j, "last_ns", ss->last_ns);
	jw_ki64(j, "duration_ns", ss->last_ns - ss->first_ns);
	jw_ku64(j, "tcp_connections", analysis_counts(a)->tcp_conns);
	jw_ku64(j, "qps", nq);
	jw_ku64(j, "operations", ops);
	jw_ku64(j, "incomplete", inc);
	int64_t from, to;
	if (report_window(r, &from, &to)) {
		/* --since/--until: what the page counts (docs/semantics.md) */
		char w[160];
		jw_key(j, "window");
		jw_obj(j);
		jw_kstr(j, "text", select_window_describe(r->sel, ss->first_ns, ss->last_ns, w,
							  sizeof(w)));
		key_ns_str(j, "from_ns", from);
		key_ns_str(j, "to_ns", to);
		/* from the first frame, as every time of the page: its time axis */
		jw_ki64(j, "from", from - ss->first_ns);
		jw_ki64(j, "to", to - ss->first_ns);
		jw_ki64(j, "span_ns", to - from);
		jw_ku64(j, "frames", analysis_counts(a)->win_frames);
		jw_ku64(j, "bytes", analysis_counts(a)->win_bytes);
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

static int by_stream(const void *a, const void *b)
{
	const struct page_qp *x = *(const struct page_qp *const *)a;
	const struct page_qp *y = *(const struct page_qp *const *)b;
	return x->c->stream < y->c->stream ? -1 : x->c->stream > y->c->stream;
}

static void data_json(FILE *f, struct jsonw *j, const struct report *r, struct pagedata *p)
{
	if (!p->started)
		timegrid_init(&p->grid, source_stats(r->src)->first_ns);
	/* the buckets reach the last frame, after the last operation too */
	timegrid_bucket(&p->grid, source_stats(r->src)->last_ns);
	jw_obj(j);
	jw_kstr(j, "generator", "iwarpscope " IWS_VERSION_STRING);
	capture_json(j, r);
	jw_key(j, "op_types");
	jw_arr(j);
	for (int t = 0; t < IWS_OPT_COUNT; t++)
		jw_str(j, iws_op_type_name((enum iws_op_type)t));
	jw_arr_end(j);
	jw_key(j, "mark_kinds");
	jw_arr(j);
	for (uint32_t k = 0; k < PAGE_MARK_KINDS; k++)
		jw_str(j, pagedata_mark_kind_name(k));
	jw_arr_end(j);
	jw_kbool(j, "iec", units_iec());   /* sizes in KiB/MiB (--units) */
	jw_key(j, "hist");
	jw_obj(j);
	jw_ku64(j, "per_decade", LOGHIST_PER_DECADE);
	jw_ku64(j, "decades", LOGHIST_DECADES);
	jw_obj_end(j);
	/* the time zone iwarpscope ran in (TZ), for wall-clock times */
	time_t sec = (time_t)(p->grid.origin / 1000000000);
	struct tm tm;
	bool local = localtime_r(&sec, &tm) != NULL;
	jw_key(j, "tz");
	jw_obj(j);
	jw_ki64(j, "offset_s", local ? tm.tm_gmtoff : 0);
	jw_kstr(j, "name", local && tm.tm_zone ? tm.tm_zone : "UTC");
	jw_obj_end(j);
	jw_key(j, "grid");
	jw_obj(j);
	key_ns_str(j, "origin_ns", p->grid.origin);
	jw_ki64(j, "width_ns", p->grid.width);
	jw_ku64(j, "buckets", p->grid.used);
	jw_obj_end(j);
	jw_key(j, "flag_names");
	jw_arr(j);
	for (uint32_t bit = 1; bit && bit <= IWS_OPF_AFTER_CLOSE; bit <<= 1) {
		char b[64];
		jw_arr(j);
		jw_u64(j, bit);
		jw_str(j, iws_op_flags_str(b, sizeof(b), bit));
		jw_arr_end(j);
	}
	jw_arr_end(j);
	jw_key(j, "qps");
	jw_arr(j);
	/* in QP number order */
	const struct page_qp *order[PAGE_MAX_QPS];
	for (uint32_t i = 0; i < p->nqps; i++)
		order[i] = &p->qps[i];
	qsort(order, p->nqps, sizeof(order[0]), by_stream);
	for (uint32_t i = 0; i < p->nqps; i++) {
		qp_json(j, p, order[i]);
		jw_drain_html(j, f);
	}
	if (pagedata_others(p))
		qp_json(j, p, pagedata_others(p));
	jw_arr_end(j);
	all_json(j, p, r->a);
	nvme_all_json(j, p, r->a);
	rpc_page_json(j, r, p->rpc_slow, p->nrpc_slow, p->grid.origin);
	ops_json(j, p, f);
	slowest_json(j, p);
	findings_json(j, r);
	jw_key(j, "wire");
	jw_obj(j);
	jw_ku64(j, "unplaced_segments", p->wire.unplaced_segments);
	jw_ku64(j, "unplaced_bytes", p->wire.unplaced_bytes);
	jw_obj_end(j);
	summary_json(j, r);
	jw_obj_end(j);
}

/* Text for an HTML element's content or attribute. */
static void put_html(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void report_write_html(FILE *f, const struct report *r, struct pagedata *p)
{
	/* The template's placeholders, each on a line of its own. */
	static const char *const marks[] = { "@TITLE@", "/*@STYLE@*/", "/*@SCRIPT@*/", "@DATA@" };
	const char *t = iws_report_page;
	for (;;) {
		const char *next = NULL;
		int which = -1;
		for (int k = 0; k < 4; k++) {
			const char *at = strstr(t, marks[k]);
			if (at && (!next || at < next)) {
				next = at;
				which = k;
			}
		}
		if (!next) {
			fputs(t, f);
			break;
		}
		fwrite(t, 1, (size_t)(next - t), f);
		t = next + strlen(marks[which]);
		switch (which) {
		case 0:
			fputs("iwarpscope report:", f);
			for (int i = 0; i < source_nfiles(r->src); i++) {
				fputc(' ', f);
				put_html(f, source_name(r->src, i));
			}
			break;
		case 1:
			fputs(iws_report_css, f);
			break;
		case 2:
			fputs(iws_report_js, f);
			break;
		default: {
			struct jsonw j;
			jw_init(&j, false);
			data_json(f, &j, r, p);
			jw_drain_html(&j, f);
			jw_free(&j);
			break;
		}
		}
	}
}
