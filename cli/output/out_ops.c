// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `ops` writer: one line per RDMA operation, as text, JSON (an array),
 * JSON lines or CSV (the rows writer, shared with `nvme`). The JSON field names are the CLI contract (docs/iwarpscope.1):
 * qp, src, dst, op, opcode, first_frame, last_frame, start_ns, end_ns,
 * bytes, segments, stag, to, qn, msn, latency_ns, complete, crc_errors; then
 * where the time went (docs/semantics.md): first_inorder_frame,
 * retransmissions, reordered, stall_ns, queued_ns, ack_frame, ack_ns, ack_with_data,
 * after_close, rtr, payload_captured, pairing; then the extras of each type.
 */
#include <inttypes.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "points.h"
#include "out_ops.h"
#include "rank.h"
#include "units.h"
#include "words.h"

/* What the other capture point saw of the operation: when its first and
 * last frames passed there, the latency there, and one-way times. */
static void op_points_json(struct jsonw *j, const struct points *pts, const struct iws_op *op)
{
	struct points_at s, e;
	points_at_frame(pts, op->first_frame, &s);
	points_at_frame(pts, op->last_frame, &e);
	if (!s.known && !e.known)
		return;
	const struct points_at *k = s.known ? &s : &e;
	jw_kstr(j, "point", k->point);
	jw_kstr(j, "other_point", k->other);
	jw_koi64(j, "other_start_ns", s.has_other, s.other_ns);
	jw_koi64(j, "other_end_ns", e.has_other, e.other_ns);
	jw_koi64(j, "other_latency_ns", op->has_latency && s.has_other && e.has_other,
		 e.other_ns - s.other_ns);
	jw_koi64(j, "oneway_ns", s.has_oneway, s.oneway_ns);
	jw_koi64(j, "oneway_back_ns", iws_op_type_has_response(op->type) && e.has_oneway, e.oneway_ns);
}

static void op_json(struct jsonw *j, const struct conn *c, const void *item,
		    const struct points *pts)
{
	const struct iws_op *op = item;
	char a[64], b[64], fl[160];
	jw_obj(j);
	jw_ku64(j, "qp", c->stream);
	jw_kstr(j, "src", conn_ep_str(c, op->dir, a));
	jw_kstr(j, "dst", conn_ep_str(c, !op->dir, b));
	jw_kstr(j, "op", iws_op_type_name(op->type));
	jw_ku64(j, "opcode", op->opcode);
	jw_ku64(j, "first_frame", op->first_frame);
	jw_ku64(j, "last_frame", op->last_frame);
	jw_ki64(j, "start_ns", op->start_ns);
	jw_ki64(j, "end_ns", op->end_ns);
	jw_ku64(j, "bytes", op->bytes);
	jw_ku64(j, "segments", op->segments);
	jw_kou64(j, "stag", op->has_stag, op->stag);
	jw_kou64(j, "to", op->has_stag, op->to);
	jw_kou64(j, "qn", op->has_qn, op->qn);
	jw_kou64(j, "msn", op->has_qn, op->msn);
	jw_koi64(j, "latency_ns", op->has_latency, op->latency_ns);
	jw_kbool(j, "complete", op->complete);
	jw_ku64(j, "crc_errors", op->crc_errors);
	/* where the time went */
	jw_ku64(j, "first_inorder_frame", op->first_inorder_frame);
	jw_ku64(j, "retransmissions", op->retransmissions);
	jw_ku64(j, "reordered", op->reordered);
	jw_ki64(j, "stall_ns", op->stall_ns);
	jw_ki64(j, "queued_ns", op->queued_ns);
	jw_kou64(j, "ack_frame", op->has_ack, op->ack_frame);
	jw_koi64(j, "ack_ns", op->has_ack, op->ack_ns);
	jw_kbool(j, "ack_with_data", op->has_ack && op->ack_with_data);
	jw_kbool(j, "after_close", (op->flags & IWS_OPF_AFTER_CLOSE) != 0);
	jw_kbool(j, "rtr", op->rtr);
	jw_kbool(j, "payload_captured", op->complete && !(op->flags & IWS_OPF_TRUNCATED));
	/* how a Read's or Atomic's request and response were paired */
	jw_kostr(j, "pairing", iws_pairing_name((enum iws_pairing)op->pairing));
	/* several capture points (docs/semantics.md) */
	if (pts)
		op_points_json(j, pts, op);
	/* extras */
	jw_ku64(j, "id", op->id);
	jw_kstr(j, "flags", iws_op_flags_str(fl, sizeof(fl), op->flags));
	switch (op->type) {
	case IWS_OPT_READ:
		jw_kou64(j, "read_size", op->has_read_size, op->read_size);
		jw_kou64(j, "src_stag", op->has_src, op->src_stag);
		jw_kou64(j, "src_to", op->has_src, op->src_to);
		jw_kou64(j, "response_frame", op->response_frame != 0, op->response_frame);
		jw_kou64(j, "response_op_id", op->response_op_id != 0, op->response_op_id);
		break;
	case IWS_OPT_SEND_INV:
	case IWS_OPT_SEND_SE_INV:
		jw_kou64(j, "inval_stag", op->has_inval, op->inval_stag);
		break;
	case IWS_OPT_IMMEDIATE:
	case IWS_OPT_IMMEDIATE_SE:
		jw_kou64(j, "immediate", op->has_immediate, op->immediate);
		break;
	case IWS_OPT_ATOMIC_FETCH_ADD:
	case IWS_OPT_ATOMIC_CMP_SWAP:
	case IWS_OPT_ATOMIC_SWAP:
		jw_ku64(j, "atomic_req_id", op->atomic_req_id);
		jw_kou64(j, "atomic_orig_value", op->has_atomic_orig, op->atomic_orig_value);
		jw_kou64(j, "response_frame", op->response_frame != 0, op->response_frame);
		jw_kou64(j, "response_op_id", op->response_op_id != 0, op->response_op_id);
		break;
	case IWS_OPT_TERMINATE:
		jw_ku64(j, "term_layer", op->term_layer);
		jw_ku64(j, "term_etype", op->term_etype);
		jw_ku64(j, "term_errcode", op->term_errcode);
		jw_kostr(j, "term_layer_name", iws_term_layer_name(op->term_layer));
		jw_kostr(j, "term_etype_name", iws_term_etype_name(op->term_layer, op->term_etype));
		jw_kostr(j, "term_errcode_name",
			 iws_term_errcode_name(op->term_layer, op->term_etype, op->term_errcode));
		break;
	default:
		break;
	}
	jw_obj_end(j);
}

static void opt_csv(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, "%" PRIu64, v);
}

static void op_csv(FILE *f, const struct conn *c, const void *item)
{
	const struct iws_op *op = item;
	char a[64], b[64], fl[160];
	fprintf(f, "%u,%" PRIu64 ",%s,%s,%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
		   ",%" PRIu64 ",%u,",
		c->stream, op->id, conn_ep_str(c, op->dir, a), conn_ep_str(c, !op->dir, b),
		iws_op_type_name(op->type), op->opcode, op->first_frame, op->last_frame,
		op->start_ns, op->end_ns, op->bytes, op->segments);
	opt_csv(f, op->has_stag, op->stag);
	fputc(',', f);
	opt_csv(f, op->has_stag, op->to);
	fputc(',', f);
	opt_csv(f, op->has_qn, op->qn);
	fputc(',', f);
	opt_csv(f, op->has_qn, op->msn);
	fputc(',', f);
	if (op->has_latency)
		fprintf(f, "%" PRId64, op->latency_ns);
	/* flags may contain commas: quote them (RFC 4180) */
	fprintf(f, ",%s,%u,\"%s\",%" PRIu64 ",%u,%" PRId64 ",%" PRId64 ",",
		op->complete ? "true" : "false", op->crc_errors,
		iws_op_flags_str(fl, sizeof(fl), op->flags), op->first_inorder_frame,
		op->retransmissions, op->stall_ns, op->queued_ns);
	opt_csv(f, op->has_ack, op->ack_frame);
	fputc(',', f);
	if (op->has_ack)
		fprintf(f, "%" PRId64, op->ack_ns);
	fprintf(f, ",%s,%s,%s,%u\n", op->has_ack && op->ack_with_data ? "true" : "false",
		(op->flags & IWS_OPF_AFTER_CLOSE) ? "true" : "false", op->rtr ? "true" : "false",
		op->reordered);
}


/* The text columns (streamed: fixed widths, two spaces apart; an IPv6
 * endpoint may stretch its column). Durations in one unit, named in the
 * heading: --time-unit's, else µs, to the nanosecond. */
static const struct fixed_col op_cols[] = {
	{ "time", -18, false },	   { "QP", 4, false },	      { "id", 7, false },
	{ "src", -21, false },	   { "dst", -21, false },     { "op", -16, false },
	{ "bytes", 10, false },	   { "segs", 5, false },      { "stag", -10, false },
	{ "latency", 12, true },   { "ack", 12, true },	      { "retrans", 7, false },
	{ "stall", 12, true },	   { "frames", -15, false },  { "notes", 0, false },
};
#define NCOLS (int)(sizeof(op_cols) / sizeof(op_cols[0]))

static void op_text_header(FILE *f)
{
	fixed_header(f, op_cols, NCOLS, text_time_unit());
}

static void op_text(FILE *f, const struct conn *c, const void *item)
{
	const struct iws_op *op = item;
	char t[48], a[64], b[64], fl[160], notes[512], d[32];
	char cell[NCOLS][64];
	int64_t unit = text_time_unit();
	int dec = units_decimals(unit, 1);
	int k = 0;
	snprintf(cell[k++], 64, "%s", fmt_clock(t, sizeof(t), op->start_ns));
	snprintf(cell[k++], 64, "%u", c->stream);
	snprintf(cell[k++], 64, "%" PRIu64, op->id);
	snprintf(cell[k++], 64, "%s", conn_ep_str(c, op->dir, a));
	snprintf(cell[k++], 64, "%s", conn_ep_str(c, !op->dir, b));
	snprintf(cell[k++], 64, "%s", iws_op_type_name(op->type));
	snprintf(cell[k++], 64, "%" PRIu64, op->bytes);
	snprintf(cell[k++], 64, "%u", op->segments);
	if (op->has_stag)
		snprintf(cell[k++], 64, "0x%08" PRIx32, op->stag);
	else
		snprintf(cell[k++], 64, "-");
	if (op->has_latency)
		fmt_in_unit(cell[k++], 64, op->latency_ns, unit, dec);
	else
		snprintf(cell[k++], 64, "-");
	if (op->has_ack)
		fmt_in_unit(cell[k++], 64, op->ack_ns, unit, dec);
	else
		snprintf(cell[k++], 64, "-");
	snprintf(cell[k++], 64, "%u", op->retransmissions);
	fmt_in_unit(cell[k++], 64, op->stall_ns, unit, dec);
	if (op->first_frame == op->last_frame)
		snprintf(cell[k++], 64, "%" PRIu64, op->first_frame);
	else
		snprintf(cell[k++], 64, "%" PRIu64 "-%" PRIu64, op->first_frame, op->last_frame);
	/* the rest, in words */
	size_t n = 0;
	notes[0] = 0;
	if (op->type == IWS_OPT_TERMINATE) {
		const char *l = iws_term_layer_name(op->term_layer);
		const char *e = iws_term_etype_name(op->term_layer, op->term_etype);
		const char *x = iws_term_errcode_name(op->term_layer, op->term_etype, op->term_errcode);
		snprintf(b, sizeof(b), "[%s: %s: %s]", l ? l : "?", e ? e : "?", x ? x : "?");
		words_join(notes, sizeof(notes), &n, b);
	}
	if (op->rtr)
		words_join(notes, sizeof(notes), &n, "RTR");
	/* a pair the capture proves only in part says how (docs/semantics.md):
	 * by its request's frame, by the count at the clean close, or a
	 * response whose request preceded the capture */
	if (op->pairing == IWS_PAIR_FRAME)
		words_join(notes, sizeof(notes), &n, "paired-by-frame");
	else if (op->pairing == IWS_PAIR_CLOSE)
		words_join(notes, sizeof(notes), &n, "paired-at-close");
	else if (op->pairing == IWS_PAIR_BEFORE_CAPTURE)
		words_join(notes, sizeof(notes), &n, "request-before-capture");
	/* segments overtaken on the way, not resent: the
	 * retrans column counts only resends */
	if (op->reordered) {
		snprintf(b, sizeof(b), "reordered %u", op->reordered);
		words_join(notes, sizeof(notes), &n, b);
	}
	if (op->queued_ns) {
		snprintf(b, sizeof(b), "queued %s", fmt_dur(d, sizeof(d), op->queued_ns));
		words_join(notes, sizeof(notes), &n, b);
	}
	if (op->has_ack && op->ack_with_data)
		words_join(notes, sizeof(notes), &n, "ack-with-data");
	else if (op_delayed_ack(op, NULL))
		words_join(notes, sizeof(notes), &n, "delayed-ACK");
	if (op->crc_errors) {
		snprintf(b, sizeof(b), "CRC-ERRORS %u", op->crc_errors);
		words_join(notes, sizeof(notes), &n, b);
	}
	if (!op->complete)
		words_join(notes, sizeof(notes), &n, "INCOMPLETE");
	if (op->flags) {
		char x[200];
		snprintf(x, sizeof(x), "(%s)", iws_op_flags_str(fl, sizeof(fl), op->flags));
		words_join(notes, sizeof(notes), &n, x);
	}
	const char *cells[NCOLS];
	for (int i = 0; i < NCOLS - 1; i++)
		cells[i] = cell[i];
	cells[NCOLS - 1] = notes;
	fixed_row(f, op_cols, NCOLS, cells);
}

static const struct row_fns op_fns = {
	"qp,id,src,dst,op,opcode,first_frame,last_frame,start_ns,end_ns,bytes,"
	"segments,stag,to,qn,msn,latency_ns,complete,crc_errors,flags,"
	"first_inorder_frame,retransmissions,stall_ns,queued_ns,ack_frame,ack_ns,"
	"ack_with_data,after_close,rtr,reordered\n",
	op_json, op_csv, op_text, op_text_header,
};

void ops_out_begin(struct rows_out *w, FILE *f, enum out_format fmt)
{
	rows_begin(w, f, fmt, &op_fns);
}

/* Append a clause to buf (bounded), "; "-separated. */

