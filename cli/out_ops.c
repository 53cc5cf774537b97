// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `ops` writer: one line per RDMA operation, as text, JSON (an array),
 * JSON lines or CSV (the rows writer, shared with `nvme`). The JSON field names are the CLI contract (DESIGN.md):
 * qp, src, dst, op, opcode, first_frame, last_frame, start_ns, end_ns,
 * bytes, segments, stag, to, qn, msn, latency_ns, complete, crc_errors; then
 * the extras of each type.
 */
#include <inttypes.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "out.h"
#include "units.h"

const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf)
{
	int side = dir == IWS_DIR_I2R ? conn_init_side(c) : !conn_init_side(c);
	return endpoint_str(&c->ep[side], buf);
}

static void op_json(struct jsonw *j, const struct conn *c, const void *item)
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
	/* extras */
	jw_ku64(j, "id", op->id);
	jw_kstr(j, "flags", iws_op_flags_str(fl, sizeof(fl), op->flags));
	switch (op->type) {
	case IWS_OPT_READ:
		jw_ku64(j, "read_size", op->read_size);
		jw_ku64(j, "src_stag", op->src_stag);
		jw_ku64(j, "src_to", op->src_to);
		jw_kou64(j, "response_frame", op->response_frame != 0, op->response_frame);
		break;
	case IWS_OPT_SEND_INV:
	case IWS_OPT_SEND_SE_INV:
		jw_kou64(j, "inval_stag", op->has_inval, op->inval_stag);
		break;
	case IWS_OPT_IMMEDIATE:
	case IWS_OPT_IMMEDIATE_SE:
		jw_ku64(j, "immediate", op->immediate);
		break;
	case IWS_OPT_ATOMIC_FETCH_ADD:
	case IWS_OPT_ATOMIC_CMP_SWAP:
	case IWS_OPT_ATOMIC_SWAP:
		jw_ku64(j, "atomic_req_id", op->atomic_req_id);
		jw_kou64(j, "atomic_orig_value", op->has_atomic_orig, op->atomic_orig_value);
		jw_kou64(j, "response_frame", op->response_frame != 0, op->response_frame);
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
	fprintf(f, ",%s,%u,\"%s\"\n", op->complete ? "true" : "false", op->crc_errors,
		iws_op_flags_str(fl, sizeof(fl), op->flags));
}

static void op_text(FILE *f, const struct conn *c, const void *item)
{
	const struct iws_op *op = item;
	char t[48], a[64], b[64], by[32], lat[32], fl[160];
	fprintf(f, "%s qp %u %s > %s %-11s %9s %4u seg", fmt_clock(t, sizeof(t), op->start_ns),
		c->stream, conn_ep_str(c, op->dir, a), conn_ep_str(c, !op->dir, b),
		iws_op_type_name(op->type), fmt_bytes(by, sizeof(by), op->bytes), op->segments);
	if (op->has_latency)
		fprintf(f, " lat %s", fmt_dur(lat, sizeof(lat), op->latency_ns));
	if (op->first_frame == op->last_frame)
		fprintf(f, " frame %" PRIu64, op->first_frame);
	else
		fprintf(f, " frames %" PRIu64 "-%" PRIu64, op->first_frame, op->last_frame);
	if (op->type == IWS_OPT_TERMINATE) {
		const char *l = iws_term_layer_name(op->term_layer);
		const char *e = iws_term_etype_name(op->term_layer, op->term_etype);
		const char *k = iws_term_errcode_name(op->term_layer, op->term_etype, op->term_errcode);
		fprintf(f, " [%s: %s: %s]", l ? l : "?", e ? e : "?", k ? k : "?");
	}
	if (op->crc_errors)
		fprintf(f, " CRC-ERRORS %u", op->crc_errors);
	if (!op->complete)
		fprintf(f, " INCOMPLETE");
	if (op->flags)
		fprintf(f, " (%s)", iws_op_flags_str(fl, sizeof(fl), op->flags));
	fputc('\n', f);
}

static const struct row_fns op_fns = {
	"qp,id,src,dst,op,opcode,first_frame,last_frame,start_ns,end_ns,bytes,"
	"segments,stag,to,qn,msn,latency_ns,complete,crc_errors,flags\n",
	op_json, op_csv, op_text,
};

void ops_out_begin(struct rows_out *w, FILE *f, enum out_format fmt)
{
	rows_begin(w, f, fmt, &op_fns);
}

/* ---- rows ---- */

void rows_begin(struct rows_out *w, FILE *f, enum out_format fmt, const struct row_fns *fns)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->fmt = fmt == FMT_DEFAULT ? FMT_TEXT : fmt;
	w->fns = fns;
	jw_init(&w->j, false);
	if (w->fmt == FMT_CSV)
		fputs(fns->csv_header, f);
	else if (w->fmt == FMT_JSON)
		fputs("[", f);
}

void rows_write(struct rows_out *w, const struct conn *c, const void *item)
{
	switch (w->fmt) {
	case FMT_JSONL:
		w->fns->json(&w->j, c, item);
		jw_flush_line(&w->j, w->f);
		break;
	case FMT_JSON:
		if (w->n)
			fputc(',', w->f);
		fputc('\n', w->f);
		w->fns->json(&w->j, c, item);
		fwrite(w->j.buf, 1, w->j.len, w->f);
		jw_reset(&w->j);
		break;
	case FMT_CSV:
		w->fns->csv(w->f, c, item);
		break;
	default:
		w->fns->text(w->f, c, item);
		break;
	}
	w->n++;
}

void rows_end(struct rows_out *w)
{
	if (w->fmt == FMT_JSON)
		fputs(w->n ? "\n]\n" : "]\n", w->f);
	jw_free(&w->j);
}
