// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `summary` writer (the default command): what the capture holds, one
 * block per QP (endpoints, negotiated MPA parameters, operations, bytes,
 * throughput, retransmissions, gaps, CRC errors, Terminates, and anything
 * that went wrong), then the operation and latency tables. Readable at 80
 * columns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iwarpscope/names.h"
#include "iwarpscope/status.h"
#include "out.h"
#include "units.h"

void stats_tables(FILE *f, const struct report *r);

static const char *yn(bool b)
{
	return b ? "on" : "off";
}

static const char *markers_str(const struct conn *c)
{
	int is = conn_init_side(c);
	bool i2r = conn_markers(c, is), r2i = conn_markers(c, !is);
	if (i2r && r2i)
		return "both ways";
	if (i2r)
		return "i2r only";
	if (r2i)
		return "r2i only";
	return "none";
}

static void mpa_line(FILE *f, const struct conn *c)
{
	enum iws_stream_state st = iws_stream_state(c->eng);
	const struct iws_mpa_conn *m = iws_stream_mpa(c->eng);
	const struct iws_mpa_frame *req = iws_stream_request(c->eng), *rep = iws_stream_reply(c->eng);
	switch (st) {
	case IWS_SST_FULL:
	case IWS_SST_REJECTED:
		fprintf(f, "  MPA v%u%s, CRC %s, markers %s", m->rev,
			req && req->enhanced_flag ? " enhanced" : "", yn(m->crc), markers_str(c));
		if (req && req->has_enhanced && rep && rep->has_enhanced)
			fprintf(f, ", IRD/ORD %u/%u, responder %u/%u", req->ird, req->ord, rep->ird,
				rep->ord);
		fputc('\n', f);
		if (st == IWS_SST_REJECTED)
			fputs("  ! connection REJECTED by the responder (MPA Reply with R set)\n", f);
		else if (m->p2p)
			fprintf(f, "  peer-to-peer set-up, RTR %s\n",
				iws_rtr_name(m->rtr) ? iws_rtr_name(m->rtr) : "none");
		break;
	case IWS_SST_REQUEST:
		fprintf(f, "  MPA v%u Request seen, Reply not captured; CRC %s, markers %s\n", m->rev,
			yn(m->crc || conn_crc(c)), markers_str(c));
		break;
	default:
		fprintf(f, "  MPA handshake not captured: inferred CRC %s, markers %s\n",
			yn(conn_crc(c)), markers_str(c));
		break;
	}
}

static void terminates(FILE *f, const struct conn *c)
{
	char a[64];
	for (uint32_t i = 0; i < c->nterms; i++) {
		const struct term_rec *t = &c->terms[i];
		const char *l = iws_term_layer_name(t->layer);
		const char *e = iws_term_etype_name(t->layer, t->etype);
		const char *k = iws_term_errcode_name(t->layer, t->etype, t->errcode);
		fprintf(f, "  ! Terminate from %s in frame %" PRIu64 ":\n      %s layer, %s, %s\n",
			conn_ep_str(c, t->dir, a), t->frame, l ? l : "unknown", e ? e : "unknown type",
			k ? k : "unknown code");
	}
	if (c->c.terminates > c->nterms)
		fprintf(f, "  ! ... %" PRIu64 " more Terminates\n", c->c.terminates - c->nterms);
}

/* How the QP ended: FIN, RST, Terminate, and what was still outstanding. */
static void teardown(FILE *f, const struct conn *c)
{
	char a[64];
	for (uint32_t i = 0; i < c->ncloses; i++) {
		const struct close_rec *t = &c->closes[i];
		fprintf(f, "  %s%s from %s in frame %" PRIu64, t->outstanding ? "! " : "",
			close_kind_title(t->kind), conn_ep_str(c, t->dir, a),
			t->frame);
		if (t->outstanding) {
			fprintf(f, " with %u operation%s outstanding", t->outstanding,
				t->outstanding == 1 ? "" : "s");
			if (t->nids == 1)
				fprintf(f, " (id %" PRIu64 ")", t->ids[0]);
			else if (t->nids > 1)
				fprintf(f, " (ids %" PRIu64 "...%" PRIu64 ")", t->ids[0],
					t->ids[t->nids - 1]);
		}
		fputc('\n', f);
	}
}

static void problems(FILE *f, const struct conn *c)
{
	char b1[32], b2[32];
	terminates(f, c);
	uint64_t ng = conn_gap_count(c);
	if (ng) {
		fprintf(f, "  ! %" PRIu64 " gap%s, %s never captured%s\n", ng, ng == 1 ? "" : "s",
			fmt_bytes(b1, sizeof(b1), conn_gap_bytes(c)), ng > 3 ? "; the first:" : ":");
		for (uint32_t i = 0; i < c->ngaps && i < 3; i++)
			fprintf(f, "      %s seq %u, %u octets, after frame %" PRIu64 "\n",
				conn_dir_name(c->gaps[i].dir), c->gaps[i].seq,
				c->gaps[i].len, c->gaps[i].prev_frame);
	}
	uint64_t snap = CONN_SUM(c, snap_bytes);
	if (snap)
		fprintf(f, "  ! %s cut by the snapshot length; %" PRIu64 " FPDUs truncated\n",
			fmt_bytes(b1, sizeof(b1), snap), CONN_SUM(c, truncated));
	if (c->c.ops_incomplete)
		fprintf(f, "  ! %" PRIu64 " operation%s incomplete\n", c->c.ops_incomplete,
			c->c.ops_incomplete == 1 ? "" : "s");
	uint64_t lost = CONN_SUM(c, lost), skipped = CONN_SUM(c, skipped_bytes);
	if (lost || skipped)
		fprintf(f, "  ! framing lost %" PRIu64 " time%s, %" PRIu64 " resync%s, %s skipped\n",
			lost, lost == 1 ? "" : "s", CONN_SUM(c, resyncs),
			CONN_SUM(c, resyncs) == 1 ? "" : "s", fmt_bytes(b2, sizeof(b2), skipped));
	for (int side = 0; side < 2; side++) {
		uint32_t dev = iws_stream_marker_deviation(c->eng, side);
		for (uint32_t bit = 1; bit <= IWS_MARKER_DEV_OFFSET; bit <<= 1)
			if (dev & bit)
				fprintf(f, "  ! %s's sender breaks RFC 5044: %s\n",
					side == conn_init_side(c) ? "i2r" : "r2i", iws_marker_dev_text(bit));
		dev = iws_stream_rdmap_deviation(c->eng, side);
		for (uint32_t bit = 1; bit <= IWS_RDMAP_DEV_READ_REQ_LE; bit <<= 1)
			if (dev & bit)
				fprintf(f, "  ! %s's sender breaks RFC 5040: %s\n",
					side == conn_init_side(c) ? "i2r" : "r2i", iws_rdmap_dev_text(bit));
	}
	uint64_t und = CONN_SUM(c, undecodable), mk = CONN_SUM(c, marker_errors);
	if (und || mk)
		fprintf(f, "  ! %" PRIu64 " FPDUs undecodable, %" PRIu64 " marker errors\n", und, mk);
	if (CONN_SUM(c, ooo_limit_hits))
		fprintf(f, "  ! out-of-order buffer limit reached %" PRIu64 " times (--max-ooo)\n",
			CONN_SUM(c, ooo_limit_hits));
	if (CONN_SUM(c, buf_limit_hits))
		fprintf(f, "  ! reassembly buffer limit reached %" PRIu64 " times, octets dropped "
			   "(--max-reasm)\n",
			CONN_SUM(c, buf_limit_hits));
	if (c->evicted)
		fprintf(f, "  ! finished early at the connection limit (--max-flows)\n");
	const struct iws_tracker_counts *tc = conn_tracker_counts(c);
	if (tc->evicted)
		fprintf(f, "  ! %" PRIu64 " operations given up: in-flight limit (--max-inflight)\n",
			tc->evicted);
	if (tc->ack_wait_forced)
		fprintf(f, "  ! %" PRIu64 " operations reported without waiting for their ACK: "
			   "too many waiting\n",
			tc->ack_wait_forced);
	if (tc->msn_gaps || tc->orphan_responses || tc->ird_exceeded || tc->stag_mismatches)
		fprintf(f, "  ! MSN gaps %" PRIu64 ", orphan responses %" PRIu64
			   ", IRD exceeded %" PRIu64 ", STag mismatches %" PRIu64 "\n",
			tc->msn_gaps, tc->orphan_responses, tc->ird_exceeded, tc->stag_mismatches);
	if (tc->hidden_requests)
		fprintf(f, "  ! %" PRIu64 " Reads inferred from their responses: the snapshot length "
			   "hid their requests\n",
			tc->hidden_requests);
}

static void qp_block(FILE *f, const struct conn *c)
{
	char a[64], b[64], by[32], rt[32], du[32];
	fprintf(f, "QP %u  %s > %s\n", c->stream, conn_ep_str(c, IWS_DIR_I2R, a),
		conn_ep_str(c, IWS_DIR_R2I, b));
	mpa_line(f, c);
	int64_t span = c->any_fpdu ? c->last_fpdu_ns - c->first_fpdu_ns : 0;
	fprintf(f, "  %" PRIu64 " op%s, %s in %s (%s); frames %" PRIu64 "-%" PRIu64 "\n", c->c.ops,
		c->c.ops == 1 ? "" : "s", fmt_bytes(by, sizeof(by), c->c.op_bytes),
		fmt_dur(du, sizeof(du), span), fmt_rate(rt, sizeof(rt), c->c.op_bytes, span),
		c->first_frame, c->last_frame);
	uint64_t fast = CONN_SUM(c, fast_retransmits), rto = CONN_SUM(c, timeouts);
	uint64_t other = CONN_SUM(c, other_retransmits), reord = CONN_SUM(c, reordered);
	fprintf(f, "  retransmissions %" PRIu64, fast + rto + other);
	if (fast + rto + other)
		fprintf(f, " (%" PRIu64 " fast, %" PRIu64 " after a timeout, %" PRIu64 " other)", fast, rto,
			other);
	if (reord)
		fprintf(f, ", reordered %" PRIu64, reord);
	fprintf(f, ", gaps %" PRIu64 ", CRC errors %" PRIu64 ", Terminates %" PRIu64 "\n",
		conn_gap_count(c), c->c.crc_errors, c->c.terminates);
	uint64_t dup = CONN_SUM(c, duplicate_acks), zw = CONN_SUM(c, zero_windows);
	if (dup || zw)
		fprintf(f, "  duplicate ACKs %" PRIu64 ", zero windows %" PRIu64 "\n", dup, zw);
	teardown(f, c);
	problems(f, c);
}

/* Global limits that were reached (per-QP ones are in each QP's block). */
static void limits_lines(FILE *f, const struct analysis *a)
{
	const struct analysis_counts *k = &a->c;
	if (k->limit_dropped || k->limit_finished || k->limit_skipped) {
		fprintf(f, "! connection limit reached (--max-flows %u):", a->max_flows);
		const char *sep = "";
		if (k->limit_dropped) {
			fprintf(f, " %" PRIu64 " without iWARP given up", k->limit_dropped);
			sep = ",";
		}
		if (k->limit_finished) {
			fprintf(f, "%s %" PRIu64 " ending QP%s finished early", sep, k->limit_finished,
				k->limit_finished == 1 ? "" : "s");
			sep = ",";
		}
		if (k->limit_skipped)
			fprintf(f, "%s %" PRIu64 " not analysed", sep, k->limit_skipped);
		fprintf(f, "; %" PRIu64 " packet%s ignored\n", k->limit_skipped_packets,
			k->limit_skipped_packets == 1 ? "" : "s");
	}
}

static void header(FILE *f, const struct report *r)
{
	const struct source_stats *ss = source_stats(r->src);
	const struct analysis *a = r->a;
	const struct analysis_counts *ac = analysis_counts(a);
	char t1[48], t2[48], by[32], du[32];
	fprintf(f, "iwarpscope %s:", IWS_VERSION_STRING);
	for (int i = 0; i < source_nfiles(r->src); i++)
		fprintf(f, " %s", source_name(r->src, i));
	fputc('\n', f);
	if (!ss->records) {
		fputs("no frames\n", f);
		return;
	}
	fprintf(f, "%" PRIu64 " frame%s, %s in %s\nfrom %s to %s\n", ss->records,
		ss->records == 1 ? "" : "s", fmt_bytes(by, sizeof(by), ss->bytes),
		fmt_dur(du, sizeof(du), ss->last_ns - ss->first_ns),
		fmt_time(t1, sizeof(t1), ss->first_ns), fmt_clock(t2, sizeof(t2), ss->last_ns));
	uint64_t nq = analysis_iwarp_count(a);
	fprintf(f, "%" PRIu64 " TCP connection%s, %" PRIu64 " iWARP QP%s", ac->tcp_conns,
		ac->tcp_conns == 1 ? "" : "s", nq, nq == 1 ? "" : "s");
	if (ss->filtered_out)
		fprintf(f, "; %" PRIu64 " frames filtered out", ss->filtered_out);
	fputc('\n', f);
	if (r->sel && select_active(r->sel)) {
		char sel[256];
		fprintf(f, "selected: %s\n", select_describe(r->sel, sel, sizeof(sel)));
	}
	/* Damage: counted, reported, and everything decodable still reported. */
	for (uint32_t i = 0; i < ss->n_warnings; i++)
		fprintf(f, "! %s\n", ss->warnings[i].text);
	if (ac->truncated || ac->malformed)
		fprintf(f, "! %" PRIu64 " damaged packet%s (first: frame %" PRIu64 ", %s)\n",
			ac->truncated + ac->malformed, ac->truncated + ac->malformed == 1 ? "" : "s",
			ac->first_damage_frame, ac->first_damage ? ac->first_damage : "?");
	if (ac->snap_cut)
		fprintf(f, "! %" PRIu64 " TCP segment%s cut by the snapshot length (%s of payload "
			   "missing)\n",
			ac->snap_cut, ac->snap_cut == 1 ? "" : "s",
			fmt_bytes(by, sizeof(by), ac->snap_cut_bytes));
	if (ac->fragments)
		fprintf(f, "! %" PRIu64 " IP fragments skipped (not reassembled)\n", ac->fragments);
	if (ac->unknown_link)
		fprintf(f, "! %" PRIu64 " frames of unsupported link type %d skipped\n", ac->unknown_link,
			ac->unknown_dlt);
	if (ss->live_dropped)
		fprintf(f, "! %" PRIu64 " packet%s dropped by the capture (kernel or libpcap buffer "
			   "full): the analysis sees gaps there\n",
			ss->live_dropped, ss->live_dropped == 1 ? "" : "s");
	if (ss->ts_backwards)
		fprintf(f, "! %" PRIu64 " frame%s older than the frame before\n", ss->ts_backwards,
			ss->ts_backwards == 1 ? "" : "s");
	limits_lines(f, a);
	points_header_text(f, r->pts);
	if (analysis_limits(a)->ooo_peak)
		fprintf(f, "out-of-order buffer peak: %s\n", fmt_bytes(by, sizeof(by), analysis_limits(a)->ooo_peak));
}

/* The slowest operations and where their time went. */
static void slowest(FILE *f, struct rank *rk)
{
	char t[32], why[256];
	if (!rk || !rk->h.n)
		return;
	rank_sort(rk);
	int64_t top = 0;
	rank_time(&rk->h.items[0].op, &top);
	int64_t unit = units_column(top);
	char head[16];
	snprintf(head, sizeof(head), "%s", unit_name(unit));
	fprintf(f, "\nSlowest operations (latency, else delivery to the peer's ACK)\n");
	fprintf(f, "%4s %6s %-*s", "QP", "id", 11, "op");
	print_padded(f, head, 9);
	fprintf(f, "  %-13s %s\n", "frames", "why");
	units_cells(unit);
	for (uint32_t i = 0; i < rk->h.n; i++) {
		const struct op_item *it = &rk->h.items[i];
		int64_t ns = 0;
		rank_time(&it->op, &ns);
		char fr[48];
		snprintf(fr, sizeof(fr), "%" PRIu64 "-%" PRIu64, it->op.first_frame,
			 it->op.has_latency ? it->op.last_frame : it->op.ack_frame);
		fprintf(f, "%4u %6" PRIu64 " %-*s%9s  %-13s %s\n", it->c->stream, it->op.id, 11,
			iws_op_type_name(it->op.type), fmt_dur_c(t, sizeof(t), ns), fr,
			op_why(why, sizeof(why), &it->op));
	}
	units_cells(0);
}

void summary_write(FILE *f, const struct report *r)
{
	const struct analysis *a = r->a;
	header(f, r);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		fputc('\n', f);
		qp_block(f, c);
		points_qp_text(f, r->pts, c);
	}
	nvme_summary(f, r);
	fputc('\n', f);
	if (!analysis_iwarp_count(a) && source_stats(r->src)->records) {
		silence_write(f, r, "");
		return;
	}
	stats_tables(f, r);
	slowest(f, r->rank);
}

void live_prev_free(struct live_prev *prev)
{
	free(prev->qp);
	prev->qp = NULL;
	prev->n = 0;
}

/* The QP's totals at the last lines (NULL: out of memory). */
static uint64_t *prev_of(struct live_prev *prev, uint32_t qp)
{
	if (qp >= prev->n) {
		uint32_t n = qp + 64;
		void *g = realloc(prev->qp, (size_t)n * sizeof(*prev->qp));
		if (!g)
			return NULL;
		prev->qp = g;
		memset(prev->qp + prev->n, 0, (size_t)(n - prev->n) * sizeof(*prev->qp));
		prev->n = n;
	}
	return prev->qp[qp];
}

void summary_write_short(FILE *f, const struct report *r, struct live_prev *prev)
{
	const struct analysis *a = r->a;
	char t[48], a1[64], a2[64], by[32];
	const struct source_stats *ss = source_stats(r->src);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "-- %s  %" PRIu64 " frame%s, %" PRIu64 " dropped\n",
		fmt_clock(t, sizeof(t), (int64_t)now.tv_sec * 1000000000 + now.tv_nsec), ss->records,
		ss->records == 1 ? "" : "s", ss->live_dropped);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		fprintf(f, "QP %u %s > %s ops %" PRIu64 " %s crc %" PRIu64 " gaps %" PRIu64
			   " term %" PRIu64 "%s\n",
			c->stream, conn_ep_str(c, IWS_DIR_I2R, a1), conn_ep_str(c, IWS_DIR_R2I, a2),
			c->c.ops, fmt_bytes(by, sizeof(by), c->c.op_bytes), c->c.crc_errors,
			conn_gap_count(c), c->c.terminates, c->state == CONN_ACTIVE ? "" : " (closed)");
		uint64_t *p = prev ? prev_of(prev, c->stream) : NULL;
		if (p && (c->c.ops != p[0] || c->c.op_bytes != p[1]))
			fprintf(f, "   since the last lines: +%" PRIu64 " ops, +%s\n", c->c.ops - p[0],
				fmt_bytes(by, sizeof(by), c->c.op_bytes - p[1]));
		if (p) {
			p[0] = c->c.ops;
			p[1] = c->c.op_bytes;
		}
	}
	fflush(f);
}
