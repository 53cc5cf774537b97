// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `stats` writer: per QP and operation type, counts, bytes and latency
 * distributions (iws_qp_stats, shared with the plugin's -z iwarp,ops), as
 * text or as JSON `{"capture": {...}, "qps": [...], "total": {...}}`. All
 * JSON times are integer nanoseconds.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "dists.h"
#include "out_ops.h"
#include "out_nvme.h"
#include "out_rpc.h"
#include "out_smb.h"
#include "out_points.h"
#include "out_stats.h"
#include "sketch.h"
#include "texttable.h"
#include "units.h"
#include "words.h"

unsigned report_findings(const struct report *r)
{
	unsigned f = 0;
	const struct analysis *a = r->a;
	const struct source_stats *ss = source_stats(r->src);
	if (a->c.truncated || a->c.malformed || a->c.snap_cut || ss->truncated_files ||
	    ss->read_errors)
		f |= FAIL_DAMAGED;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		if (c->c.crc_errors)
			f |= FAIL_CRC;
		if (conn_gap_count(c))
			f |= FAIL_GAP;
		if (c->c.terminates)
			f |= FAIL_TERMINATE;
		if (c->c.ops_incomplete)
			f |= FAIL_INCOMPLETE;
		if (CONN_SUM(c, undecodable) || CONN_SUM(c, marker_errors) || CONN_SUM(c, snap_bytes))
			f |= FAIL_MALFORMED;
		if (CONN_SUM(c, snap_bytes))
			f |= FAIL_DAMAGED;
	}
	return f;
}

bool report_window(const struct report *r, int64_t *from, int64_t *to)
{
	const struct source_stats *ss = source_stats(r->src);
	return r->sel && select_window(r->sel, ss->first_ns, ss->last_ns, from, to);
}

int64_t report_qp_span(const struct report *r, const struct conn *c)
{
	int64_t from, to;
	if (report_window(r, &from, &to))
		return to - from;
	return c->any_fpdu ? c->last_fpdu_ns - c->first_fpdu_ns : 0;
}

void report_window_text(FILE *f, const struct report *r)
{
	const struct source_stats *ss = source_stats(r->src);
	const struct analysis_counts *ac = analysis_counts(r->a);
	int64_t from, to;
	char w[160], by[32];
	if (!report_window(r, &from, &to))
		return;
	fprintf(f, "%s: %" PRIu64 " frame%s, %s\n",
		select_window_describe(r->sel, ss->first_ns, ss->last_ns, w, sizeof(w)),
		ac->win_frames, ac->win_frames == 1 ? "" : "s",
		fmt_bytes(by, sizeof(by), ac->win_bytes));
}

void report_window_json(struct jsonw *j, const struct report *r)
{
	const struct analysis_counts *ac = analysis_counts(r->a);
	int64_t from, to;
	if (!report_window(r, &from, &to))
		return;
	jw_key(j, "window");
	jw_obj(j);
	jw_ki64(j, "from_ns", from);
	jw_ki64(j, "to_ns", to);
	jw_ki64(j, "span_ns", to - from);
	jw_ku64(j, "frames", ac->win_frames);
	jw_ku64(j, "bytes", ac->win_bytes);
	jw_obj_end(j);
}

/* ---- JSON ---- */

static void op_fields(struct jsonw *j, const struct iws_op_stats *o, bool sketch)
{
	jw_ku64(j, "count", o->count);
	jw_ku64(j, "complete", o->complete);
	jw_ku64(j, "bytes", o->bytes);
	jw_ku64(j, "segments", o->segments);
	jw_ku64(j, "crc_errors", o->crc_errors);
	jw_ku64(j, "retransmissions", o->retransmissions);
	jw_ku64(j, "reordered", o->reordered);
	jw_ki64(j, "stall_ns", o->stall_ns);
	void (*lat)(struct jsonw *, const char *, const struct iws_latency *) =
		sketch ? latency_json_sketch : latency_json;
	lat(j, "latency_ns", &o->latency);
	lat(j, "delivery_ns", &o->delivery);
}

/* The type's span and its bytes over it (the plugin's kbit/s): its own
 * first start to last end, in a QP or across QPs (the total), so that the
 * total of a type only one QP has is that QP's (docs/semantics.md). */
static void op_rate_json(struct jsonw *j, const struct iws_op_stats *o)
{
	int64_t span = o->first_ns ? o->last_ns - o->first_ns : 0;
	jw_ki64(j, "first_ns", o->first_ns);
	jw_ki64(j, "last_ns", o->last_ns);
	jw_ki64(j, "span_ns", span);
	jw_ku64(j, "throughput_bps", span > 0 ? (uint64_t)((double)o->bytes * 8e9 / (double)span) : 0);
}

void stats_op_fields_json(struct jsonw *j, const struct iws_op_stats *o)
{
	op_fields(j, o, false);
}

void stats_tcp_json(struct jsonw *j, const struct conn *c)
{
	jw_key(j, "tcp");
	jw_obj(j);
	jw_ku64(j, "fast_retransmits", CONN_TCP(c, fast_retransmits));
	jw_ku64(j, "timeouts", CONN_TCP(c, timeouts));
	jw_ku64(j, "other_retransmits", CONN_TCP(c, other_retransmits));
	jw_ku64(j, "reordered", CONN_TCP(c, reordered));
	jw_ku64(j, "duplicate_acks", CONN_TCP(c, duplicate_acks));
	jw_ku64(j, "zero_windows", CONN_TCP(c, zero_windows));
	jw_ku64(j, "keepalives", CONN_TCP(c, keepalives));
	jw_obj_end(j);
}

static void ops_json(struct jsonw *j, const struct iws_qp_stats *s)
{
	jw_key(j, "ops");
	jw_obj(j);
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		const struct iws_op_stats *o = &s->op[t];
		if (!o->count)
			continue;
		jw_key(j, iws_op_type_name((enum iws_op_type)t));
		jw_obj(j);
		op_fields(j, o, true);
		op_rate_json(j, o);
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

/* A direction's deviations (bit names by name_of, bits up to last) as an
 * array under key. */
static void deviations_json(struct jsonw *j, const char *key, uint32_t dev, uint32_t last,
			    const char *(*name_of)(uint32_t bit))
{
	jw_key(j, key);
	jw_arr(j);
	for (uint32_t bit = 1; bit <= last; bit <<= 1)
		if (dev & bit)
			jw_str(j, name_of(bit));
	jw_arr_end(j);
}

/* The QP's ends and its MPA connection: handshake, revision, CRC, markers,
 * deviations, IRD/ORD, peer-to-peer. */
static void qp_mpa_json(struct jsonw *j, const struct conn *c)
{
	char a[64];
	enum iws_stream_state st = iws_stream_state(c->eng);
	const struct iws_mpa_conn *m = iws_stream_mpa(c->eng);
	const struct iws_mpa_frame *req = iws_stream_request(c->eng), *rep = iws_stream_reply(c->eng);
	bool hs = st == IWS_SST_FULL || st == IWS_SST_REJECTED;
	int is = conn_init_side(c);
	jw_ku64(j, "qp", c->stream);
	jw_kstr(j, "initiator", conn_ep_str(c, IWS_DIR_I2R, a));
	jw_kstr(j, "responder", conn_ep_str(c, IWS_DIR_R2I, a));
	jw_kstr(j, "initiator_by", iws_init_evidence_name(iws_stream_init_evidence(c->eng)));
	jw_kstr(j, "handshake", hs_name(st));
	jw_kou64(j, "mpa_rev", req || rep, m->rev);
	jw_kbool(j, "crc", m->crc);
	jw_kbool(j, "markers_i2r", conn_markers(c, is));
	jw_kbool(j, "markers_r2i", conn_markers(c, !is));
	/* senders that break RFC 5044's marker rules */
	for (int k = 0; k < 2; k++)
		deviations_json(j, k ? "marker_deviation_r2i" : "marker_deviation_i2r",
				iws_stream_marker_deviation(c->eng, k ? !is : is), IWS_MARKER_DEV_OFFSET,
				iws_marker_dev_name);
	/* ... and RFC 5040's formats (Read Request byte order) */
	for (int k = 0; k < 2; k++)
		deviations_json(j, k ? "rdmap_deviation_r2i" : "rdmap_deviation_i2r",
				iws_stream_rdmap_deviation(c->eng, k ? !is : is), IWS_RDMAP_DEV_READ_REQ_LE,
				iws_rdmap_dev_name);
	/* IRD/ORD (RFC 6581 §5): the initiator's from the Request, the
	 * responder's from the Reply. */
	jw_kou64(j, "ird", req && req->has_enhanced, req ? req->ird : 0);
	jw_kou64(j, "ord", req && req->has_enhanced, req ? req->ord : 0);
	jw_kou64(j, "ird_responder", rep && rep->has_enhanced, rep ? rep->ird : 0);
	jw_kou64(j, "ord_responder", rep && rep->has_enhanced, rep ? rep->ord : 0);
	jw_kbool(j, "p2p", hs && m->p2p);
	jw_kostr(j, "rtr", hs && m->p2p ? iws_rtr_short_name(m->rtr) : NULL);
	jw_kbool(j, "rejected", st == IWS_SST_REJECTED);
}

/* What the QP carried: frames, times, octets, operations, CRCs, TCP. */
static void qp_traffic_json(struct jsonw *j, const struct report *r, const struct conn *c)
{
	int is = conn_init_side(c);
	uint64_t rqf = iws_stream_request_frame(c->eng), rpf = iws_stream_reply_frame(c->eng);
	jw_kou64(j, "request_frame", rqf != 0, rqf);
	jw_kou64(j, "reply_frame", rpf != 0, rpf);
	uint64_t ff, lf;
	int64_t fns, lns;
	conn_frames(c, &ff, &lf, &fns, &lns);
	jw_ku64(j, "first_frame", ff);
	jw_ku64(j, "last_frame", lf);
	jw_ki64(j, "first_ns", fns);
	jw_ki64(j, "last_ns", lns);
	jw_ku64(j, "frames", c->c.packets);
	jw_ku64(j, "payload_bytes_i2r", c->c.payload_bytes[is]);
	jw_ku64(j, "payload_bytes_r2i", c->c.payload_bytes[!is]);
	jw_ku64(j, "fpdus", conn_fpdus(c));
	jw_ku64(j, "operations", c->c.ops);
	jw_ku64(j, "incomplete", c->c.ops_incomplete);
	jw_ku64(j, "bytes", c->c.op_bytes);
	int64_t span = report_qp_span(r, c);
	jw_ki64(j, "data_span_ns", span);
	jw_ku64(j, "throughput_bps",
		span > 0 ? (uint64_t)((double)c->c.op_bytes * 8e9 / (double)span) : 0);
	jw_ku64(j, "crc_checked", c->c.crc_checked);
	jw_ku64(j, "crc_errors", c->c.crc_errors);
	jw_ku64(j, "terminates", c->c.terminates);
	jw_ku64(j, "retransmissions", CONN_TCP(c, fast_retransmits) + CONN_TCP(c, timeouts) +
					     CONN_TCP(c, other_retransmits));
	jw_ku64(j, "reordered_segments", CONN_TCP(c, reordered));
	jw_ku64(j, "duplicate_segments", CONN_SUM(c, retrans));
	jw_ku64(j, "hole_fills", CONN_SUM(c, late));
	jw_ku64(j, "overlaps", CONN_SUM(c, overlaps));
	jw_ku64(j, "out_of_order", CONN_SUM(c, out_of_order));
	jw_ku64(j, "gaps", conn_gap_count(c));
	jw_ku64(j, "gap_bytes", conn_gap_bytes(c));
}

/* The gaps, the Terminates, (the TCP counts,) the teardown: lists. */
static void qp_events_json(struct jsonw *j, const struct conn *c)
{
	char a[64];
	jw_key(j, "gap_list");
	jw_arr(j);
	for (uint32_t i = 0; i < c->ngaps; i++) {
		const struct gap_rec *g = &c->gaps[i];
		jw_obj(j);
		jw_kstr(j, "dir", conn_dir_name(g->dir));
		jw_ku64(j, "seq", g->seq);
		jw_ku64(j, "len", g->len);
		jw_ku64(j, "prev_frame", g->prev_frame);
		jw_ku64(j, "seen_frame", g->seen_frame);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_key(j, "terminate_list");
	jw_arr(j);
	for (uint32_t i = 0; i < c->nterms; i++) {
		const struct term_rec *t = &c->terms[i];
		jw_obj(j);
		jw_kstr(j, "from", conn_ep_str(c, t->dir, a));
		jw_ku64(j, "frame", t->frame);
		jw_ku64(j, "term_layer", t->layer);
		jw_ku64(j, "term_etype", t->etype);
		jw_ku64(j, "term_errcode", t->errcode);
		jw_kostr(j, "term_layer_name", iws_term_layer_name(t->layer));
		jw_kostr(j, "term_etype_name", iws_term_etype_name(t->layer, t->etype));
		jw_kostr(j, "term_errcode_name", iws_term_errcode_name(t->layer, t->etype, t->errcode));
		jw_obj_end(j);
	}
	jw_arr_end(j);
	stats_tcp_json(j, c);
	jw_key(j, "teardown");
	jw_arr(j);
	for (uint32_t i = 0; i < c->ncloses; i++) {
		const struct iws_close *t = &c->closes[i];
		jw_obj(j);
		jw_kstr(j, "kind", close_kind_name(t->kind));
		jw_kstr(j, "from", conn_ep_str(c, t->dir, a));
		jw_ku64(j, "frame", t->frame);
		jw_ki64(j, "ns", t->ts);
		jw_ku64(j, "outstanding", t->outstanding);
		jw_key(j, "outstanding_ids");
		jw_arr(j);
		for (uint32_t k = 0; k < t->nids; k++)
			jw_u64(j, t->ids[k]);
		jw_arr_end(j);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

/* The limits reached, the framing lost and the operation tracker's counts. */
static void qp_limits_json(struct jsonw *j, const struct conn *c)
{
	const struct iws_tracker_counts *tc = conn_tracker_counts(c);
	jw_ku64(j, "snaplen_cut_bytes", CONN_SUM(c, snap_bytes));
	jw_ku64(j, "ooo_limit_hits", CONN_SUM(c, ooo_limit_hits));
	jw_ku64(j, "reasm_limit_hits", CONN_SUM(c, buf_limit_hits));
	jw_ku64(j, "order_forced", CONN_SUM(c, order_forced));
	jw_kbool(j, "flow_limit_finished", c->evicted);
	jw_ku64(j, "resyncs", CONN_SUM(c, resyncs));
	jw_ku64(j, "segment_resyncs", CONN_SUM(c, segment_resyncs));
	jw_ku64(j, "framing_lost", CONN_SUM(c, lost));
	jw_ku64(j, "skipped_bytes", CONN_SUM(c, skipped_bytes));
	jw_ku64(j, "undecodable_fpdus", CONN_SUM(c, undecodable));
	jw_ku64(j, "truncated_fpdus", CONN_SUM(c, truncated));
	jw_ku64(j, "marker_errors", CONN_SUM(c, marker_errors));
	jw_ku64(j, "rtr_messages", tc->rtr_messages);
	jw_ku64(j, "msn_gaps", tc->msn_gaps);
	jw_ku64(j, "offset_gaps", tc->offset_gaps);
	jw_ku64(j, "orphan_responses", tc->orphan_responses);
	jw_ku64(j, "hidden_requests", tc->hidden_requests);
	jw_ku64(j, "ird_exceeded", tc->ird_exceeded);
	jw_ku64(j, "stag_mismatches", tc->stag_mismatches);
	jw_ku64(j, "evicted", tc->evicted);
	jw_ku64(j, "ack_wait_forced", tc->ack_wait_forced);
	jw_ku64(j, "max_inflight", tc->max_inflight_seen);
}

static void qp_json(struct jsonw *j, const struct report *r, const struct conn *c)
{
	const struct points *pts = r->pts;
	jw_obj(j);
	qp_mpa_json(j, c);
	qp_traffic_json(j, r, c);
	qp_events_json(j, c);
	qp_limits_json(j, c);
	ops_json(j, conn_stats(c));
	if (conn_is_nvme(c))
		nvme_qp_json(j, c);
	rpc_qp_json(j, c);
	smb_qp_json(j, c);
	if (pts)
		points_qp_json(j, pts, c);
	jw_obj_end(j);
}

/* The "capture" object: the files, the frames, what was not analysed. */
static void capture_json(struct jsonw *j, const struct report *r)
{
	const struct analysis *a = r->a;
	const struct source_stats *ss = source_stats(r->src);
	jw_key(j, "capture");
	jw_obj(j);
	jw_key(j, "files");
	jw_arr(j);
	for (int i = 0; i < source_nfiles(r->src); i++)
		jw_str(j, source_name(r->src, i));
	jw_arr_end(j);
	jw_ku64(j, "frames", ss->records);
	jw_ku64(j, "filtered_out", ss->filtered_out);
	jw_ku64(j, "bytes", ss->bytes);
	jw_ki64(j, "first_ns", ss->first_ns);
	jw_ki64(j, "last_ns", ss->last_ns);
	jw_ku64(j, "tcp_segments", a->c.tcp);
	jw_ku64(j, "tcp_connections", a->c.tcp_conns);
	jw_ku64(j, "ip_fragments", a->c.fragments);
	jw_ku64(j, "snaplen_cut_segments", a->c.snap_cut);
	jw_ku64(j, "snaplen_cut_bytes", a->c.snap_cut_bytes);
	jw_ku64(j, "truncated_headers", a->c.truncated);
	jw_ku64(j, "malformed_headers", a->c.malformed);
	jw_ku64(j, "unknown_link_frames", a->c.unknown_link);
	jw_ku64(j, "truncated_files", ss->truncated_files);
	jw_ku64(j, "read_errors", ss->read_errors);
	jw_ku64(j, "timestamps_backwards", ss->ts_backwards);
	jw_ku64(j, "flows_given_up", a->c.limit_dropped);
	jw_ku64(j, "flows_finished_early", a->c.limit_finished);
	jw_ku64(j, "flows_not_analysed", a->c.limit_skipped);
	jw_ku64(j, "packets_not_analysed", a->c.limit_skipped_packets);
	/* peak memory of the engines' buffers (--max-ooo-total, --max-reasm) */
	jw_ku64(j, "ooo_peak_bytes", a->env.lim.ooo_peak);
	jw_ku64(j, "reasm_peak_bytes", a->env.lim.buf_peak);
	jw_ku64(j, "ack_wait_peak", a->env.lim.ack_wait_peak);
	jw_key(j, "warnings");
	jw_arr(j);
	for (uint32_t i = 0; i < ss->n_warnings; i++)
		jw_str(j, ss->warnings[i].text);
	jw_arr_end(j);
	if (r->pts)
		points_capture_json(j, r->pts);
	report_window_json(j, r);
	jw_obj_end(j);
}

/* The "total" object's sums over the QPs. */
struct qp_totals {
	uint64_t nq, ops, inc, bytes, crc, gaps, gapb, term, retr, reord, fpdus;
};

/* The "qps" array, drained to f as it grows; their sums into t. */
static void qps_json(struct jsonw *j, FILE *f, const struct report *r, struct qp_totals *t)
{
	jw_key(j, "qps");
	jw_arr(j);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		qp_json(j, r, c);
		/* A capture may hold 100,000 QPs: do not hold their report whole. */
		if (j->len > (64u << 10))
			jw_drain(j, f);
		t->nq++;
		t->ops += c->c.ops;
		t->inc += c->c.ops_incomplete;
		t->bytes += c->c.op_bytes;
		t->crc += c->c.crc_errors;
		t->gaps += conn_gap_count(c);
		t->gapb += conn_gap_bytes(c);
		t->term += c->c.terminates;
		t->retr += CONN_TCP(c, fast_retransmits) + CONN_TCP(c, timeouts) + CONN_TCP(c, other_retransmits);
		t->reord += CONN_TCP(c, reordered);
		t->fpdus += conn_fpdus(c);
	}
	jw_arr_end(j);
}

static void total_json(struct jsonw *j, const struct report *r, const struct qp_totals *t)
{
	jw_key(j, "total");
	jw_obj(j);
	jw_ku64(j, "qps", t->nq);
	jw_ku64(j, "fpdus", t->fpdus);
	jw_ku64(j, "operations", t->ops);
	jw_ku64(j, "incomplete", t->inc);
	jw_ku64(j, "bytes", t->bytes);
	jw_ku64(j, "crc_errors", t->crc);
	jw_ku64(j, "terminates", t->term);
	jw_ku64(j, "retransmissions", t->retr);
	jw_ku64(j, "reordered_segments", t->reord);
	jw_ku64(j, "gaps", t->gaps);
	jw_ku64(j, "gap_bytes", t->gapb);
	ops_json(j, &r->a->total);
	nvme_total_json(j, r);
	rpc_total_json(j, r);
	jw_obj_end(j);
}

void stats_write_json(FILE *f, const struct report *r)
{
	struct jsonw jw, *j = &jw;
	struct qp_totals t = { 0 };
	jw_init(j, true);
	jw_obj(j);
	capture_json(j, r);
	qps_json(j, f, r, &t);
	total_json(j, r, &t);
	jw_obj_end(j);
	jw_flush_line(j, f);
	jw_free(j);
}

/* ---- text ---- */

/* The rows of one QP (or the total) into the operations table. */
/* A type's rates over its own span (as op_rate_json: the JSON's
 * throughput_bps), 0 without a span. */
static void op_rates(const struct iws_op_stats *o, double *bps, double *ops_s)
{
	int64_t span = o->first_ns ? o->last_ns - o->first_ns : 0;
	*bps = span > 0 ? (double)o->bytes * 8e9 / (double)span : 0;
	*ops_s = span > 0 ? (double)o->count * 1e9 / (double)span : 0;
}

/* The rate columns: one unit each (--bw), decimals for the smallest. */
struct rate_cols {
	double max_bps, min_bps, min_ops;
	double per_unit;
	const char *unit;
	int dec_bw, dec_ops;
};

static void rate_scan(struct rate_cols *rc, const struct iws_qp_stats *s)
{
	for (int ty = 0; ty < IWS_OPT_COUNT; ty++) {
		double bps, ops;
		if (!s->op[ty].count)
			continue;
		op_rates(&s->op[ty], &bps, &ops);
		rc->max_bps = bps > rc->max_bps ? bps : rc->max_bps;
		if (bps > 0 && (!rc->min_bps || bps < rc->min_bps))
			rc->min_bps = bps;
		if (s->op[ty].count > 1 && ops > 0 && (!rc->min_ops || ops < rc->min_ops))
			rc->min_ops = ops;
	}
}

static void op_rows(struct texttable *t, const char *qp, const struct iws_qp_stats *s, const struct rate_cols *rc)
{
	for (int ty = 0; ty < IWS_OPT_COUNT; ty++) {
		const struct iws_op_stats *o = &s->op[ty];
		double bps, ops;
		if (!o->count)
			continue;
		op_rates(o, &bps, &ops);
		tt_cell(t, qp);
		tt_cell(t, iws_op_type_name((enum iws_op_type)ty));
		tt_cellf(t, "%" PRIu64, o->count);
		tt_cellf(t, "%" PRIu64, o->count - o->complete);
		tt_cellf(t, "%" PRIu64, o->bytes);
		tt_cellf(t, "%" PRIu64, o->segments);
		tt_cellf(t, "%" PRIu64, o->crc_errors);
		tt_cellf(t, "%" PRIu64, o->retransmissions);
		if (bps > 0 || ops > 0)
			tt_cellf(t, "%.*f", rc->dec_bw, bps / rc->per_unit);
		else
			tt_cell(t, "-");   /* no span to divide by */
		/* a rate of operations needs two: one operation over its own
		 * duration is its latency turned upside down */
		if (o->count > 1 && ops > 0)
			tt_cellf(t, "%.*f", rc->dec_ops, ops);
		else
			tt_cell(t, "-");
	}
}

/* The operation and latency tables (shared with the summary). */
void stats_tables(FILE *f, const struct report *r);

static const struct iws_latency *dist_of(const struct iws_op_stats *o, bool delivery)
{
	return delivery ? &o->delivery : &o->latency;
}

/* One distribution table: latency (reads, atomics) or delivery (the TCP
 * ACK of an operation's last octet). */
static void dist_table(FILE *f, const struct analysis *a, uint32_t nq, bool delivery)
{
	struct dist_rows rows = { 0 };
	char qp[16];
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		snprintf(qp, sizeof(qp), "%u", c->stream);
		for (int t = 0; t < IWS_OPT_COUNT; t++)
			if (dist_of(&conn_stats(c)->op[t], delivery)->count)
				dist_rows_add(&rows, qp, iws_op_type_name((enum iws_op_type)t),
					      dist_of(&conn_stats(c)->op[t], delivery));
	}
	if (nq > 1)
		for (int t = 0; t < IWS_OPT_COUNT; t++)
			if (dist_of(&a->total.op[t], delivery)->count)
				dist_rows_add(&rows, "all", iws_op_type_name((enum iws_op_type)t),
					      dist_of(&a->total.op[t], delivery));
	dist_rows_print(f,
			delivery ? "Delivery (start to the peer's TCP ACK of the last octet)"
				 : "Latency on the wire (complete reads and atomics, at the capture point)",
			"op", &rows);
	free(rows.v);
}

void stats_tables(FILE *f, const struct report *r)
{
	const struct analysis *a = r->a;
	char qp[16];
	uint32_t nq = 0;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		if (c->c.ops)
			nq++;
	}
	/* rates over each type's own span: throughput in one unit (--bw) and
	 * operations a second (perftest's MsgRate) */
	struct rate_cols rc = { 0 };
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;)
		rate_scan(&rc, conn_stats(c));
	rc.unit = rate_column_unit(rc.max_bps, rc.min_bps, &rc.per_unit);
	rc.dec_bw = decimals_for(rc.min_bps / rc.per_unit);
	rc.dec_ops = decimals_for(rc.min_ops);
	const struct tt_col cols[] = { { "QP", false },      { "op", true },         { "count", false },
				       { "incomplete", false }, { "bytes", false },  { "segments", false },
				       { "CRC err", false }, { "retrans", false },   { rc.unit, false },
				       { "ops/s", false } };
	fputs("Operations\n", f);
	if (!nq) {
		fputs("  (no RDMA operations)\n", f);
	} else {
		struct texttable t;
		tt_init(&t, cols, 10);
		for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
			snprintf(qp, sizeof(qp), "%u", c->stream);
			op_rows(&t, qp, conn_stats(c), &rc);
		}
		if (nq > 1)
			op_rows(&t, "all", &a->total, &rc);
		tt_print(&t, f, "  ");
		tt_free(&t);
	}
	dist_table(f, a, nq, false);
	dist_table(f, a, nq, true);
}

void stats_write_text(FILE *f, const struct report *r)
{
	report_window_text(f, r);
	stats_tables(f, r);
	nvme_stats_text(f, r);
	rpc_stats_text(f, r);
	rpc_credits_text(f, r);
	smb_verdict_text(f, r);
}
