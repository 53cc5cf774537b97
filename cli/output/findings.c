// SPDX-License-Identifier: GPL-2.0-or-later
/* What went wrong, as data (see findings.h). */
#include "findings.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "out_ops.h"
#include "outreport.h"
#include "units.h"
#include "words.h"

/* One finding of qp from a format (details added with detail()). */
struct fbuf {
	struct finding f;
	char text[512];
	char det[FINDING_MAX_DETAILS][160];
};

static void fstart(struct fbuf *b, int64_t qp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fstart(struct fbuf *b, int64_t qp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->text, sizeof(b->text), fmt, ap);
	va_end(ap);
	b->f = (struct finding){ .qp = qp, .text = b->text };
}

static void detail(struct fbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void detail(struct fbuf *b, const char *fmt, ...)
{
	if (b->f.ndetails == FINDING_MAX_DETAILS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->det[b->f.ndetails], sizeof(b->det[0]), fmt, ap);
	va_end(ap);
	b->f.details[b->f.ndetails] = b->det[b->f.ndetails];
	b->f.ndetails++;
}

static void emit(const struct finding_sink *s, struct fbuf *b)
{
	s->add(s->ctx, &b->f);
}

/* ---- the capture ---- */

static void limits(const struct analysis *a, const struct finding_sink *s)
{
	const struct analysis_counts *k = &a->c;
	if (!(k->limit_dropped || k->limit_finished || k->limit_skipped))
		return;
	struct fbuf b;
	char parts[256] = "";
	size_t n = 0;
	const char *sep = "";
	if (k->limit_dropped) {
		n += (size_t)snprintf(parts + n, sizeof(parts) - n, " %" PRIu64 " without iWARP given up",
				      k->limit_dropped);
		sep = ",";
	}
	if (k->limit_finished && n < sizeof(parts)) {
		n += (size_t)snprintf(parts + n, sizeof(parts) - n, "%s %" PRIu64 " ending QP%s finished early",
				      sep, k->limit_finished, k->limit_finished == 1 ? "" : "s");
		sep = ",";
	}
	if (k->limit_skipped && n < sizeof(parts))
		snprintf(parts + n, sizeof(parts) - n, "%s %" PRIu64 " not analysed", sep, k->limit_skipped);
	fstart(&b, -1, "connection limit reached (--max-flows %u):%s; %" PRIu64 " packet%s ignored",
	       a->max_flows, parts, k->limit_skipped_packets, k->limit_skipped_packets == 1 ? "" : "s");
	emit(s, &b);
}

const char *findings_unchecked(const struct analysis *a, char *buf, size_t len)
{
	const struct analysis_counts *k = &a->c;
	/* A connection not analysed counts its first packet among the ignored
	 * ones; one given up or finished early whose later packets were all
	 * analysed (none came) left nothing unseen. */
	if (!k->limit_skipped_packets)
		return NULL;
	snprintf(buf, len, "%" PRIu64 " connection%s not analysed, %" PRIu64 " packet%s ignored (--max-flows %u)",
		 k->limit_skipped, k->limit_skipped == 1 ? "" : "s", k->limit_skipped_packets,
		 k->limit_skipped_packets == 1 ? "" : "s", a->max_flows);
	return buf;
}

void findings_capture(const struct report *r, const struct finding_sink *s)
{
	const struct source_stats *ss = source_stats(r->src);
	const struct analysis *a = r->a;
	const struct analysis_counts *ac = analysis_counts(a);
	struct fbuf b;
	char by[32];
	/* Damage: counted, reported, and everything decodable still reported. */
	for (uint32_t i = 0; i < ss->n_warnings; i++) {
		fstart(&b, -1, "%s", ss->warnings[i].text);
		emit(s, &b);
	}
	if (ac->truncated || ac->malformed) {
		fstart(&b, -1, "%" PRIu64 " damaged packet%s (first: frame %" PRIu64 ", %s)",
		       ac->truncated + ac->malformed, ac->truncated + ac->malformed == 1 ? "" : "s",
		       ac->first_damage_frame, ac->first_damage ? ac->first_damage : "?");
		emit(s, &b);
	}
	if (ac->snap_cut) {
		fstart(&b, -1, "%" PRIu64 " TCP segment%s cut by the snapshot length (%s of payload missing)",
		       ac->snap_cut, ac->snap_cut == 1 ? "" : "s",
		       fmt_bytes(by, sizeof(by), ac->snap_cut_bytes));
		emit(s, &b);
	}
	if (ac->fragments) {
		fstart(&b, -1, "%" PRIu64 " IP fragments skipped (not reassembled)", ac->fragments);
		emit(s, &b);
	}
	if (ac->unknown_link) {
		fstart(&b, -1, "%" PRIu64 " frames of unsupported link type %d skipped", ac->unknown_link,
		       ac->unknown_dlt);
		emit(s, &b);
	}
	if (ss->live_dropped) {
		fstart(&b, -1, "%" PRIu64 " packet%s dropped by the capture (kernel or libpcap buffer "
			       "full): the analysis sees gaps there",
		       ss->live_dropped, ss->live_dropped == 1 ? "" : "s");
		emit(s, &b);
	}
	if (ss->ts_backwards) {
		fstart(&b, -1, "%" PRIu64 " frame%s older than the frame before", ss->ts_backwards,
		       ss->ts_backwards == 1 ? "" : "s");
		emit(s, &b);
	}
	limits(a, s);
}

/* ---- one QP ---- */

void findings_qp_handshake(const struct conn *c, const struct finding_sink *s)
{
	if (iws_stream_state(c->eng) != IWS_SST_REJECTED)
		return;
	struct fbuf b;
	fstart(&b, c->stream, "connection REJECTED by the responder (MPA Reply with R set)");
	emit(s, &b);
}

static void terminates(const struct conn *c, const struct finding_sink *s)
{
	char a[64];
	struct fbuf b;
	for (uint32_t i = 0; i < c->nterms; i++) {
		const struct term_rec *t = &c->terms[i];
		const char *l = iws_term_layer_name(t->layer);
		const char *e = iws_term_etype_name(t->layer, t->etype);
		const char *k = iws_term_errcode_name(t->layer, t->etype, t->errcode);
		fstart(&b, c->stream, "Terminate from %s in frame %" PRIu64 ":",
		       conn_ep_str(c, t->dir, a), t->frame);
		detail(&b, "%s layer, %s, %s", l ? l : "unknown", e ? e : "unknown type",
		       k ? k : "unknown code");
		emit(s, &b);
	}
	if (c->c.terminates > c->nterms) {
		fstart(&b, c->stream, "... %" PRIu64 " more Terminates", c->c.terminates - c->nterms);
		emit(s, &b);
	}
}

/* How the QP ended: FIN, RST, Terminate, and what was still outstanding
 * (a finding only when something was). */
static void teardown(const struct conn *c, const struct finding_sink *s, FILE *text)
{
	char a[64], line[256];
	for (uint32_t i = 0; i < c->ncloses; i++) {
		const struct iws_close *t = &c->closes[i];
		int n = snprintf(line, sizeof(line), "%s from %s in frame %" PRIu64,
				 close_kind_title(t->kind), conn_ep_str(c, t->dir, a), t->frame);
		if (!t->outstanding) {
			if (text)
				fprintf(text, "  %s\n", line);
			continue;
		}
		n += snprintf(line + n, sizeof(line) - (size_t)n, " with %u operation%s outstanding",
			      t->outstanding, t->outstanding == 1 ? "" : "s");
		if (t->nids == 1 && n > 0 && (size_t)n < sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, " (id %" PRIu64 ")", t->ids[0]);
		else if (t->nids > 1 && n > 0 && (size_t)n < sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, " (ids %" PRIu64 "...%" PRIu64 ")",
				 t->ids[0], t->ids[t->nids - 1]);
		struct fbuf b;
		fstart(&b, c->stream, "%s", line);
		emit(s, &b);
	}
}

/* The interop doctor's rules this QP broke, when it ran: one
 * finding from the same sums `iwarpscope doctor` prints, the most severe
 * rules first as its details; that command lists every rule's frames. Its
 * number is of the doctor's findings, a rule broken in one direction
 * (docs/semantics.md), not of rules: one rule broken both ways is two
 * findings of one rule. */
const struct iws_finding_sum *doctor_findings(const struct conn *c, uint32_t *n)
{
	return iws_doctor_sums(conn_doctor(c), n);
}

static void doctor_rules(const struct conn *c, const struct finding_sink *s)
{
	uint32_t n;
	const struct iws_finding_sum *sums = doctor_findings(c, &n);
	if (!n)
		return;
	uint64_t by[IWS_SEVERITY_COUNT] = { 0 };
	for (uint32_t k = 0; k < n; k++)
		by[iws_rule_info(sums[k].rule)->severity]++;
	struct fbuf b;
	/* with a time window, the findings shown in its frames (conn.c) */
	fstart(&b, c->stream,
	       "interop doctor: %" PRIu32 " finding%s (%" PRIu64 " error, %" PRIu64 " deviation, %" PRIu64
	       " performance)%s",
	       n,
	       n == 1 ? "" : "s", by[IWS_SEVERITY_ERROR], by[IWS_SEVERITY_DEVIATION],
	       by[IWS_SEVERITY_PERFORMANCE], n > FINDING_MAX_DETAILS ? "; the most severe:" : ":");
	for (int sev = 0; sev < IWS_SEVERITY_COUNT; sev++)
		for (uint32_t k = 0; k < n; k++) {
			const struct iws_finding_sum *d = &sums[k];
			const struct iws_rule_info *ri = iws_rule_info(d->rule);
			if ((int)ri->severity != sev)
				continue;
			char of[48] = "";
			if (d->of) {
				uint64_t pm = iws_permille(d->count, d->of);
				snprintf(of, sizeof(of), " of %" PRIu64 " (%" PRIu64 ".%" PRIu64 "%%)", d->of,
					 pm / 10, pm % 10);
			}
			detail(&b, "%s %s %s %s%" PRIu64 "%s, frames %" PRIu64 "..%" PRIu64,
			       iws_severity_name(ri->severity), ri->id, d->dir == IWS_DIR_I2R ? "i2r" : "r2i",
			       d->count_at_least ? "at least " : "", d->count, of, d->first_frame, d->last_frame);
		}
	emit(s, &b);
}

/* What the capture lost of the QP: gaps, snapshot cuts, incomplete
 * operations, framing lost. */
static void loss_findings(const struct conn *c, const struct finding_sink *s)
{
	char b1[32], b2[32];
	struct fbuf b;
	int64_t qp = c->stream;
	uint64_t ng = conn_gap_count(c);
	if (ng) {
		fstart(&b, qp, "%" PRIu64 " gap%s, %s never captured%s", ng, ng == 1 ? "" : "s",
		       fmt_bytes(b1, sizeof(b1), conn_gap_bytes(c)), ng > 3 ? "; the first:" : ":");
		for (uint32_t i = 0; i < c->ngaps && i < 3; i++)
			detail(&b, "%s seq %u, %u octets, after frame %" PRIu64, conn_dir_name(c->gaps[i].dir),
			       c->gaps[i].seq, c->gaps[i].len, c->gaps[i].prev_frame);
		emit(s, &b);
	}
	uint64_t snap = CONN_SUM(c, snap_bytes);
	if (snap) {
		fstart(&b, qp, "%s cut by the snapshot length; %" PRIu64 " FPDUs truncated",
		       fmt_bytes(b1, sizeof(b1), snap), CONN_SUM(c, truncated));
		emit(s, &b);
	}
	if (c->c.ops_incomplete) {
		fstart(&b, qp, "%" PRIu64 " operation%s incomplete", c->c.ops_incomplete,
		       c->c.ops_incomplete == 1 ? "" : "s");
		emit(s, &b);
	}
	uint64_t lost = CONN_SUM(c, lost), skipped = CONN_SUM(c, skipped_bytes);
	if (lost || skipped) {
		fstart(&b, qp, "framing lost %" PRIu64 " time%s, %" PRIu64 " resync%s, %s skipped", lost,
		       lost == 1 ? "" : "s", CONN_SUM(c, resyncs), CONN_SUM(c, resyncs) == 1 ? "" : "s",
		       fmt_bytes(b2, sizeof(b2), skipped));
		emit(s, &b);
	}
}

/* Senders that break RFC 5044's marker rules or RFC 5040's formats. */
static void deviation_findings(const struct conn *c, const struct finding_sink *s)
{
	struct fbuf b;
	int64_t qp = c->stream;
	for (int side = 0; side < 2; side++) {
		uint32_t dev = iws_stream_marker_deviation(c->eng, side);
		for (uint32_t bit = 1; bit <= IWS_MARKER_DEV_OFFSET; bit <<= 1)
			if (dev & bit) {
				fstart(&b, qp, "%s's sender breaks RFC 5044: %s",
				       side == conn_init_side(c) ? "i2r" : "r2i", iws_marker_dev_text(bit));
				emit(s, &b);
			}
		dev = iws_stream_rdmap_deviation(c->eng, side);
		for (uint32_t bit = 1; bit <= IWS_RDMAP_DEV_READ_REQ_LE; bit <<= 1)
			if (dev & bit) {
				fstart(&b, qp, "%s's sender breaks RFC 5040: %s",
				       side == conn_init_side(c) ? "i2r" : "r2i", iws_rdmap_dev_text(bit));
				emit(s, &b);
			}
	}
}

/* FPDUs not decoded, and the limits the QP reached. */
static void limit_findings(const struct conn *c, const struct finding_sink *s)
{
	struct fbuf b;
	int64_t qp = c->stream;
	uint64_t und = CONN_SUM(c, undecodable), mk = CONN_SUM(c, marker_errors);
	if (und || mk) {
		fstart(&b, qp, "%" PRIu64 " FPDUs undecodable, %" PRIu64 " marker errors", und, mk);
		emit(s, &b);
	}
	if (CONN_SUM(c, ooo_limit_hits)) {
		fstart(&b, qp, "out-of-order buffer limit reached %" PRIu64 " times (--max-ooo)",
		       CONN_SUM(c, ooo_limit_hits));
		emit(s, &b);
	}
	if (CONN_SUM(c, buf_limit_hits)) {
		fstart(&b, qp, "reassembly buffer limit reached %" PRIu64 " times, octets dropped "
			       "(--max-reasm)",
		       CONN_SUM(c, buf_limit_hits));
		emit(s, &b);
	}
	if (c->evicted) {
		fstart(&b, qp, "finished early at the connection limit (--max-flows)");
		emit(s, &b);
	}
}

/* The operation tracker's: operations given up or not waited for, protocol
 * errors, requests inferred. */
static void tracker_findings(const struct conn *c, const struct finding_sink *s)
{
	struct fbuf b;
	int64_t qp = c->stream;
	const struct iws_tracker_counts *tc = conn_tracker_counts(c);
	if (tc->evicted) {
		fstart(&b, qp, "%" PRIu64 " operations given up: in-flight limit (--max-inflight)",
		       tc->evicted);
		emit(s, &b);
	}
	if (tc->ack_wait_forced) {
		fstart(&b, qp, "%" PRIu64 " operations reported without waiting for their ACK: "
			       "too many waiting",
		       tc->ack_wait_forced);
		emit(s, &b);
	}
	if (tc->msn_gaps || tc->orphan_responses || tc->ird_exceeded || tc->stag_mismatches) {
		fstart(&b, qp, "MSN gaps %" PRIu64 ", orphan responses %" PRIu64 ", IRD exceeded %" PRIu64
			       ", STag mismatches %" PRIu64,
		       tc->msn_gaps, tc->orphan_responses, tc->ird_exceeded, tc->stag_mismatches);
		emit(s, &b);
	}
	if (tc->hidden_requests) {
		fstart(&b, qp, "%" PRIu64 " Reads inferred from their responses: the snapshot length "
			       "hid their requests",
		       tc->hidden_requests);
		emit(s, &b);
	}
}

void findings_qp(const struct conn *c, const struct finding_sink *s, FILE *text)
{
	teardown(c, s, text);
	terminates(c, s);
	loss_findings(c, s);
	deviation_findings(c, s);
	limit_findings(c, s);
	tracker_findings(c, s);
	doctor_rules(c, s);
}

/* ---- as the summary prints them ---- */

static void text_add(void *ctx, const struct finding *f)
{
	FILE *out = ctx;
	fprintf(out, "%s! %s\n", f->qp < 0 ? "" : "  ", f->text);
	for (int i = 0; i < f->ndetails; i++)
		fprintf(out, "      %s\n", f->details[i]);
}

struct finding_sink findings_text_sink(FILE *f)
{
	return (struct finding_sink){ f, text_add };
}
