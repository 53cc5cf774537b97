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
#include "findings.h"
#include "out_nvme.h"
#include "out_ops.h"
#include "out_points.h"
#include "out_silence.h"
#include "out_stats.h"
#include "out_summary.h"
#include "texttable.h"
#include "units.h"
#include "words.h"

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

/* Without the handshake: what told which side connected (docs/semantics.md). */
static void initiator_line(FILE *f, const struct conn *c)
{
	char a[64];
	uint16_t port = c->ep[!conn_init_side(c)].port;
	switch (iws_stream_init_evidence(c->eng)) {
	case IWS_INIT_BY_SYN:
		fprintf(f, "  initiator %s: its SYN\n", conn_ep_str(c, IWS_DIR_I2R, a));
		break;
	case IWS_INIT_BY_LISTEN_PORT:
		fprintf(f, "  initiator %s: its peer listens on port %u (%s)\n", conn_ep_str(c, IWS_DIR_I2R, a),
			port, iws_listen_port_name(port));
		break;
	case IWS_INIT_BY_EPHEMERAL_PORT:
		fprintf(f, "  initiator %s: its port is ephemeral, its peer's (%u) is not\n",
			conn_ep_str(c, IWS_DIR_I2R, a), port);
		break;
	case IWS_INIT_BY_FIRST_SEGMENT:
		fprintf(f, "  initiator %s: a guess, the sender of the first segment captured\n",
			conn_ep_str(c, IWS_DIR_I2R, a));
		break;
	default:
		break;
	}
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
		if (st == IWS_SST_REJECTED) {
			struct finding_sink s = findings_text_sink(f);
			findings_qp_handshake(c, &s);
		} else if (m->p2p)
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
		initiator_line(f, c);
		break;
	}
}

static void qp_block(FILE *f, const struct report *r, const struct conn *c)
{
	char a[64], b[64], by[32], rt[32], du[32];
	fprintf(f, "QP %u  %s > %s\n", c->stream, conn_ep_str(c, IWS_DIR_I2R, a),
		conn_ep_str(c, IWS_DIR_R2I, b));
	mpa_line(f, c);
	int64_t span = report_qp_span(r, c), fns, lns;
	uint64_t ff, lf;
	conn_frames(c, &ff, &lf, &fns, &lns);
	fprintf(f, "  %" PRIu64 " op%s, %s in %s (%s); ", c->c.ops, c->c.ops == 1 ? "" : "s",
		fmt_bytes(by, sizeof(by), c->c.op_bytes), fmt_dur(du, sizeof(du), span),
		fmt_rate(rt, sizeof(rt), c->c.op_bytes, span));
	if (c->c.packets)
		fprintf(f, "frames %" PRIu64 "-%" PRIu64 "\n", ff, lf);
	else
		fputs("no frame in the window\n", f);
	uint64_t fast = CONN_TCP(c, fast_retransmits), rto = CONN_TCP(c, timeouts);
	uint64_t other = CONN_TCP(c, other_retransmits), reord = CONN_TCP(c, reordered);
	fprintf(f, "  retransmissions %" PRIu64, fast + rto + other);
	if (fast + rto + other)
		fprintf(f, " (%" PRIu64 " fast, %" PRIu64 " after a timeout, %" PRIu64 " other)", fast, rto,
			other);
	if (reord)
		fprintf(f, ", reordered %" PRIu64, reord);
	fprintf(f, ", gaps %" PRIu64 ", CRC errors %" PRIu64 ", Terminates %" PRIu64 "\n",
		conn_gap_count(c), c->c.crc_errors, c->c.terminates);
	uint64_t dup = CONN_TCP(c, duplicate_acks), zw = CONN_TCP(c, zero_windows);
	uint64_t ka = CONN_TCP(c, keepalives);
	if (dup || zw || ka) {
		fprintf(f, "  duplicate ACKs %" PRIu64 ", zero windows %" PRIu64, dup, zw);
		if (ka)
			fprintf(f, ", keep-alives %" PRIu64, ka);
		fputc('\n', f);
	}
	struct finding_sink fs = findings_text_sink(f);
	findings_qp(c, &fs, f);
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
		fmt_time(t1, sizeof(t1), ss->first_ns), fmt_clock_after(t2, sizeof(t2), ss->last_ns, ss->first_ns));
	uint64_t nq = analysis_iwarp_count(a);
	fprintf(f, "%" PRIu64 " TCP connection%s, %" PRIu64 " iWARP QP%s", ac->tcp_conns,
		ac->tcp_conns == 1 ? "" : "s", nq, nq == 1 ? "" : "s");
	if (ss->filtered_out)
		fprintf(f, "; %" PRIu64 " frames filtered out", ss->filtered_out);
	fputc('\n', f);
	if (r->sel && (r->sel->nqps || r->sel->op_mask)) {
		char sel[256];
		fprintf(f, "selected: %s\n", select_describe(r->sel, sel, sizeof(sel)));
	}
	report_window_text(f, r);
	struct finding_sink fs = findings_text_sink(f);
	findings_capture(r, &fs);
	points_header_text(f, r->pts);
	if (analysis_limits(a)->ooo_peak)
		fprintf(f, "out-of-order buffer peak: %s\n", fmt_bytes(by, sizeof(by), analysis_limits(a)->ooo_peak));
}

/* One row of a slowest list: QP, id, what, time, frames, why. */
static void slow_row(struct texttable *t, uint32_t qp, uint64_t id, const char *what, int64_t ns,
		     int64_t unit, int dec, uint64_t f0, uint64_t f1, const char *why)
{
	char b[48];
	tt_cellf(t, "%u", qp);
	tt_cellf(t, "%" PRIu64, id);
	tt_cell(t, what);
	tt_cell(t, fmt_in_unit(b, sizeof(b), ns, unit, dec));
	if (f0 == f1)
		tt_cellf(t, "%" PRIu64, f0);
	else
		tt_cellf(t, "%" PRIu64 "-%" PRIu64, f0, f1);
	tt_cell(t, why);
}

static const struct tt_col slow_cols[] = { { "QP", false },  { "id", false },	 { "op", true },
					   { "time", false }, { "frames", true }, { "why", true } };

/* The application's wait (docs/semantics.md "The slowest"): Reads and
 * Atomics by latency and NVMe commands by latency, one list; then the
 * deliveries, the receiver's delayed ACKs left out. */
static void slowest(FILE *f, struct slowest *sl)
{
	char why[256], what[64];
	if (!sl)
		return;
	struct wait_item w[SUMMARY_SLOWEST];
	uint32_t nw = slowest_waits(sl, w, SUMMARY_SLOWEST);
	if (nw) {
		int64_t unit = units_column(w[0].ns), small = w[nw - 1].ns;
		int dec = units_decimals(unit, small);
		fprintf(f, "\nSlowest waits (Read and Atomic latency, NVMe command latency), %s\n",
			unit_name(unit));
		struct texttable t;
		tt_init(&t, slow_cols, 6);
		for (uint32_t i = 0; i < nw; i++) {
			if (w[i].op) {
				const struct iws_op *op = &w[i].op->op;
				slow_row(&t, w[i].op->c->stream, op->id, iws_op_type_name(op->type), w[i].ns,
					 unit, dec, op->first_frame, op->last_frame,
					 op_why(why, sizeof(why), op));
			} else {
				const struct iws_nvme_cmd *m = &w[i].nvme->cmd;
				snprintf(what, sizeof(what), "NVMe %s", m->op);
				/* the id of an NVMe command is its CID (as `nvme` lists it) */
				slow_row(&t, w[i].nvme->c->stream, m->cid, what, w[i].ns, unit, dec,
					 m->first_frame, m->last_frame, nvme_why(why, sizeof(why), m));
			}
		}
		tt_print(&t, f, "  ");
		tt_free(&t);
	}
	uint32_t nd;
	const struct op_item *d = slowest_deliveries(sl, &nd);
	uint64_t delayed = sl->delivery.delayed_ack;
	if (!nd && !delayed)
		return;
	if (nd > SUMMARY_SLOWEST)
		nd = SUMMARY_SLOWEST;
	int64_t top = nd ? d[0].op.ack_ns : 0;
	int64_t unit = units_column(top);
	int dec = units_decimals(unit, nd ? d[nd - 1].op.ack_ns : 0);
	fprintf(f, "\nSlowest deliveries (start to the peer's TCP ACK of the last octet), %s\n",
		unit_name(unit));
	if (nd) {
		struct texttable t;
		tt_init(&t, slow_cols, 6);
		for (uint32_t i = 0; i < nd; i++) {
			const struct iws_op *op = &d[i].op;
			slow_row(&t, d[i].c->stream, op->id, iws_op_type_name(op->type), op->ack_ns, unit,
				 dec, op->first_frame, op->ack_frame, op_why(why, sizeof(why), op));
		}
		tt_print(&t, f, "  ");
		tt_free(&t);
	}
	if (delayed)
		fprintf(f, "  (%" PRIu64 " deliver%s the receiver's delayed ACK: a bare ACK %d ms or "
			   "more after the last octet, nothing lost; not listed)\n",
			delayed, delayed == 1 ? "y waited for" : "ies waited for",
			DELAYED_ACK_MIN_NS / 1000000);
}

void summary_write(FILE *f, const struct report *r)
{
	const struct analysis *a = r->a;
	header(f, r);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		fputc('\n', f);
		qp_block(f, r, c);
		points_qp_text(f, r->pts, c);
	}
	nvme_summary(f, r);
	fputc('\n', f);
	if (!analysis_iwarp_count(a) && source_stats(r->src)->records) {
		silence_write(f, r, "");
		return;
	}
	stats_tables(f, r);
	slowest(f, r->slow);
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
