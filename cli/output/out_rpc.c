// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `rpc` command's rows: one per RPC over RDMA (RFC 8166), in call
 * order, with the RDMA operations that moved its data and where its time
 * went (docs/semantics.md, "RPC over RDMA"). JSON names: qp, xid, program,
 * version, procedure, proc, ops, offset, count, call_frame, reply_frame,
 * call_ns, reply_ns, latency_ns, rdma [op, chunk, stag, bytes, segments,
 * first_frame, last_frame], rdma_bytes, phases {think_ns, data_ns, tail_ns},
 * credits, complete, flags.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/qp.h"
#include "iwarpscope/stream.h"
#include "analysis.h"
#include "dists.h"
#include "jsonw.h"
#include "out_rpc.h"
#include "outreport.h"
#include "texttable.h"
#include "units.h"

static const char *prog_name(uint32_t prog)
{
	switch (prog) {
	case IWS_RPC_PROG_NFS:
		return "nfs";
	case IWS_RPC_PROG_NFS_ACL:
		return "nfs_acl";
	case IWS_RPC_PROG_MOUNT:
		return "mount";
	case IWS_RPC_PROG_NLM:
		return "nlm";
	default:
		return NULL;
	}
}

/* The flags as words, for text and JSON. */
static const char *flags_str(char *b, size_t n, uint32_t f)
{
	static const char *const w[] = { "unfinished", "aborted", "gap", "evicted",
					 "no_call", "xid_reuse", "rdma_more" };
	size_t k = 0;
	b[0] = 0;
	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]) && k < n; i++)
		if (f & (1u << i))
			k += (size_t)snprintf(b + k, n - k, "%s%s", k ? "," : "", w[i]);
	return b;
}

/* "read", "compound(sequence,putfh,read)", "7" */
static const char *proc_label(char *b, size_t n, const struct iws_rpc *r)
{
	if (!r->has_call) {
		snprintf(b, n, "?");
		return b;
	}
	size_t k = (size_t)snprintf(b, n, "%s", r->proc_name ? r->proc_name : "");
	if (!r->proc_name)
		k = (size_t)snprintf(b, n, "%" PRIu32, r->proc);
	if (r->compound.nknown && k < n) {
		k += (size_t)snprintf(b + k, n - k, "(");
		for (uint32_t i = 0; i < r->compound.nknown && k < n; i++) {
			const char *o = iws_nfs4_op_name(r->compound.op[i]);
			k += o ? (size_t)snprintf(b + k, n - k, "%s%s", i ? "," : "", o)
			       : (size_t)snprintf(b + k, n - k, "%s%" PRIu32, i ? "," : "", r->compound.op[i]);
		}
		if (r->compound.nknown < r->compound.numops && k < n)
			k += (size_t)snprintf(b + k, n - k, ",...");
		if (k < n)
			snprintf(b + k, n - k, ")");
	}
	return b;
}

/* The RDMA operations that moved its data. */
static uint64_t rdma_ops(const struct iws_rpc *r)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < r->nrdma; i++)
		n += r->rdma[i].ops;
	return n;
}

static void rpc_json(struct jsonw *j, const struct conn *c, const void *item, const struct points *pts)
{
	(void)pts;
	const struct iws_rpc *r = item;
	char fl[120];
	jw_obj(j);
	(void)c;
	jw_ku64(j, "qp", r->qp);
	jw_ku64(j, "xid", r->xid);
	jw_kou64(j, "program", r->has_call, r->prog);
	jw_kostr(j, "program_name", r->has_call ? prog_name(r->prog) : NULL);
	jw_kou64(j, "version", r->has_call, r->vers);
	jw_kou64(j, "procedure", r->has_call, r->proc);
	jw_kostr(j, "proc", r->has_call ? r->proc_name : NULL);
	jw_key(j, "ops");
	if (r->compound.numops) {
		jw_arr(j);
		for (uint32_t i = 0; i < r->compound.nknown; i++) {
			const char *o = iws_nfs4_op_name(r->compound.op[i]);
			if (o)
				jw_str(j, o);
			else
				jw_u64(j, r->compound.op[i]);
		}
		jw_arr_end(j);
	} else {
		jw_null(j);
	}
	jw_kou64(j, "offset", r->io.valid, r->io.offset);
	jw_kou64(j, "count", r->io.valid, r->io.count);
	jw_ku64(j, "call_frame", r->call_frame);
	jw_kou64(j, "reply_frame", r->has_reply, r->reply_frame);
	jw_ki64(j, "call_ns", r->call_ns);
	jw_koi64(j, "reply_ns", r->has_reply, r->reply_ns);
	jw_koi64(j, "latency_ns", r->has_reply && r->has_call, r->latency_ns);
	jw_key(j, "rdma");
	jw_arr(j);
	for (uint32_t i = 0; i < r->nrdma; i++) {
		const struct iws_rpc_rdma *d = &r->rdma[i];
		jw_obj(j);
		jw_kstr(j, "op", iws_op_type_name(d->type));
		jw_kstr(j, "chunk", iws_rpc_chunk_name(d->kind));
		jw_ku64(j, "stag", d->stag);
		jw_ku64(j, "ops", d->ops);
		jw_kou64(j, "first_op_id", d->first_op_id != 0, d->first_op_id);
		jw_ku64(j, "bytes", d->bytes);
		jw_ku64(j, "segments", d->segments);
		jw_ku64(j, "first_frame", d->first_frame);
		jw_ku64(j, "last_frame", d->last_frame);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "rdma_bytes", r->rdma_bytes);
	bool data = r->data_first_frame != 0;
	jw_kou64(j, "data_first_frame", data, r->data_first_frame);
	jw_kou64(j, "data_last_frame", data, r->data_last_frame);
	jw_key(j, "phases");
	jw_obj(j);
	jw_koi64(j, "think_ns", data, r->think_ns);
	jw_koi64(j, "data_ns", data, r->data_ns);
	jw_koi64(j, "tail_ns", data && r->has_reply, r->tail_ns);
	jw_obj_end(j);
	jw_kstr(j, "call_rdma_proc", r->has_call || r->call_frame ? iws_rpcrdma_proc_name(r->call_proc) : NULL);
	jw_kostr(j, "reply_rdma_proc", r->has_reply ? iws_rpcrdma_proc_name(r->reply_proc) : NULL);
	jw_ku64(j, "call_credits", r->call_credits);
	jw_kou64(j, "reply_credits", r->has_reply, r->reply_credits);
	jw_kostr(j, "accept_stat", r->reply_inline && r->reply_stat == 0 ? iws_rpc_accept_name(r->accept_stat)
								      : NULL);
	jw_kbool(j, "complete", r->complete);
	jw_kstr(j, "flags", flags_str(fl, sizeof(fl), r->flags));
	jw_obj_end(j);
}

static void rpc_csv(FILE *f, const struct conn *c, const void *item)
{
	(void)c;
	const struct iws_rpc *r = item;
	char fl[120], pl[200];
	fprintf(f, "%" PRIu32 ",%" PRIu32 ",", r->qp, r->xid);
	if (r->has_call)
		fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, r->prog, r->vers, r->proc);
	else
		fprintf(f, ",,");
	fprintf(f, ",\"%s\",", proc_label(pl, sizeof(pl), r));
	if (r->io.valid)
		fprintf(f, "%" PRIu64 ",%" PRIu32, r->io.offset, r->io.count);
	else
		fprintf(f, ",");
	fprintf(f, ",%" PRIu64 ",", r->call_frame);
	if (r->has_reply)
		fprintf(f, "%" PRIu64, r->reply_frame);
	fputc(',', f);
	if (r->has_reply && r->has_call)
		fprintf(f, "%" PRId64, r->latency_ns);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", rdma_ops(r), r->rdma_bytes);
	if (r->data_first_frame)
		fprintf(f, "%" PRId64 ",%" PRId64 ",", r->think_ns, r->data_ns);
	else
		fprintf(f, ",,");
	if (r->data_first_frame && r->has_reply)
		fprintf(f, "%" PRId64, r->tail_ns);
	fprintf(f, ",%s,\"%s\"\n", r->complete ? "true" : "false", flags_str(fl, sizeof(fl), r->flags));
}

static const struct fixed_col rpc_cols[] = {
	{ "time", -18, false },	 { "QP", 4, false },	  { "xid", -10, false },
	{ "proc", -16, false },	 { "offset", 10, false }, { "count", 8, false },
	{ "rdma", -10, false },	 { "rdma bytes", 10, false }, { "latency", 12, true },
	{ "think", 12, true },	 { "data", 12, true },	  { "tail", 12, true },
	{ "frames", -15, false }, { "notes", 0, false },
};
#define NCOLS (int)(sizeof(rpc_cols) / sizeof(rpc_cols[0]))

static void rpc_text_header(FILE *f)
{
	fixed_header(f, rpc_cols, NCOLS, text_time_unit());
}

static void rpc_text(FILE *f, const struct conn *c, const void *item)
{
	(void)c;
	const struct iws_rpc *r = item;
	char t[48], fl[120], pl[200];
	char cell[NCOLS][48];
	int64_t unit = text_time_unit();
	int dec = units_decimals(unit, 1);
	bool data = r->data_first_frame != 0;
	int k = 0;
	snprintf(cell[k++], 48, "%s", fmt_clock(t, sizeof(t), r->call_ns));
	snprintf(cell[k++], 48, "%" PRIu32, r->qp);
	snprintf(cell[k++], 48, "0x%08" PRIx32, r->xid);
	proc_label(pl, sizeof(pl), r);
	const int proc_col = k++; /* the label may be long: cells[] points at it */
	if (r->io.valid) {
		snprintf(cell[k++], 48, "%" PRIu64, r->io.offset);
		snprintf(cell[k++], 48, "%" PRIu32, r->io.count);
	} else {
		snprintf(cell[k++], 48, "-");
		snprintf(cell[k++], 48, "-");
	}
	/* "26 write", "1 read": the RDMA operations */
	if (r->nrdma)
		snprintf(cell[k++], 48, "%" PRIu64 " %s", rdma_ops(r), iws_op_type_name(r->rdma[0].type));
	else
		snprintf(cell[k++], 48, "-");
	snprintf(cell[k++], 48, "%" PRIu64, r->rdma_bytes);
	if (r->has_reply && r->has_call)
		fmt_in_unit(cell[k++], 48, r->latency_ns, unit, dec);
	else
		snprintf(cell[k++], 48, "-");
	if (data) {
		fmt_in_unit(cell[k++], 48, r->think_ns, unit, dec);
		fmt_in_unit(cell[k++], 48, r->data_ns, unit, dec);
	} else {
		snprintf(cell[k++], 48, "-");
		snprintf(cell[k++], 48, "-");
	}
	if (data && r->has_reply)
		fmt_in_unit(cell[k++], 48, r->tail_ns, unit, dec);
	else
		snprintf(cell[k++], 48, "-");
	if (r->has_reply)
		snprintf(cell[k++], 48, "%" PRIu64 "-%" PRIu64, r->call_frame, r->reply_frame);
	else
		snprintf(cell[k++], 48, "%" PRIu64 "-", r->call_frame);
	struct row_notes notes = { .n = 0 };
	if (r->has_reply && r->reply_proc != IWS_RDMA_MSG)
		row_note(&notes, "reply %s", iws_rpcrdma_proc_name(r->reply_proc));
	if (r->reply_inline && r->reply_stat == 0 && r->accept_stat)
		row_note(&notes, "%s", iws_rpc_accept_name(r->accept_stat));
	fixed_row_cells(f, rpc_cols, NCOLS, cell, proc_col, pl,
			row_notes_end(&notes, r->complete, flags_str(fl, sizeof(fl), r->flags)));
}

static const struct row_fns rpc_fns = {
	"qp,xid,program,version,procedure,proc,offset,count,call_frame,reply_frame,latency_ns,"
	"rdma_ops,rdma_bytes,think_ns,data_ns,tail_ns,complete,flags\n",
	rpc_json, rpc_csv, rpc_text, rpc_text_header,
};

void rpc_out_begin(struct rows_out *w, FILE *f, enum out_format fmt)
{
	rows_begin(w, f, fmt, &rpc_fns);
}

/* ---- statistics per procedure (iws_rpc_stats) ---- */

/* "nfs v3 read", "nfs_acl v3 getacl", "100099 v1 7", "(no call)" */
static const char *group_label(char *b, size_t n, const struct iws_rpc_proc_stats *g)
{
	if (!g->has_call) {
		snprintf(b, n, "(no call)");
		return b;
	}
	const char *p = prog_name(g->prog);
	size_t k = p ? (size_t)snprintf(b, n, "%s", p) : (size_t)snprintf(b, n, "%" PRIu32, g->prog);
	if (k < n)
		k += (size_t)snprintf(b + k, n - k, " v%" PRIu32 " ", g->vers);
	if (k < n) {
		if (g->name)
			snprintf(b + k, n - k, "%s", g->name);
		else
			snprintf(b + k, n - k, "%" PRIu32, g->proc);
	}
	return b;
}

/* A group's numbers, for stats and the report alike. */
static void group_numbers_json(struct jsonw *j, const struct iws_rpc_proc_stats *g)
{
	jw_ku64(j, "count", g->count);
	jw_ku64(j, "complete", g->complete);
	jw_ku64(j, "rdma_bytes", g->rdma_bytes);
	latency_json(j, "latency_ns", &g->latency);
	latency_json(j, "think_ns", &g->think);
	latency_json(j, "data_ns", &g->data);
}

void rpc_total_json(struct jsonw *j, const struct report *r)
{
	const struct iws_rpc_stats *s = &r->a->rpc_total;
	if (!s->n && !s->other)
		return;
	jw_key(j, "rpc");
	jw_obj(j);
	jw_key(j, "procs");
	jw_arr(j);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct iws_rpc_proc_stats *g = &s->e[i];
		jw_obj(j);
		jw_kou64(j, "program", g->has_call, g->prog);
		jw_kostr(j, "program_name", g->has_call ? prog_name(g->prog) : NULL);
		jw_kou64(j, "version", g->has_call, g->vers);
		jw_kou64(j, "procedure", g->has_call, g->proc);
		jw_kostr(j, "proc", g->name);
		group_numbers_json(j, g);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "other", s->other);
	jw_obj_end(j);
}

void rpc_stats_text(FILE *f, const struct report *r)
{
	const struct iws_rpc_stats *s = &r->a->rpc_total;
	if (!s->n && !s->other)
		return;
	static const struct tt_col cols[] = { { "procedure", true }, { "count", false },
					      { "incomplete", false }, { "rdma bytes", false } };
	struct texttable t;
	tt_init(&t, cols, 4);
	struct dist_rows lat = { 0 }, think = { 0 }, data = { 0 };
	char lb[96];
	for (uint32_t i = 0; i < s->n; i++) {
		const struct iws_rpc_proc_stats *g = &s->e[i];
		group_label(lb, sizeof(lb), g);
		tt_cell(&t, lb);
		tt_cellf(&t, "%" PRIu64, g->count);
		tt_cellf(&t, "%" PRIu64, g->count - g->complete);
		tt_cellf(&t, "%" PRIu64, g->rdma_bytes);
		dist_rows_add(&lat, "all", lb, &g->latency);
		if (g->think.count) {
			dist_rows_add(&think, "all", lb, &g->think);
			dist_rows_add(&data, "all", lb, &g->data);
		}
	}
	fputs("\nRPC over RDMA (RFC 8166)\n", f);
	tt_print(&t, f, "  ");
	if (s->other)
		fprintf(f, "  (%" PRIu64 " RPCs of further procedures not grouped)\n", s->other);
	tt_free(&t);
	dist_rows_print(f, "RPC latency (complete RPCs: call to reply)", "procedure", &lat);
	dist_rows_print(f, "RPC think time (complete RPCs with RDMA data: call to first data)", "procedure",
			&think);
	dist_rows_print(f, "RPC data time (complete RPCs with RDMA data: first to last data)", "procedure",
			&data);
	free(lat.v);
	free(think.v);
	free(data.v);
}

/* ---- credits per connection (iws_rpc_conn_counts, iws_rpc_conn_credits) ---- */

static const struct iws_rpc_conn *rpc_of(const struct conn *c)
{
	const struct iws_rpc_conn *rc = c->eng ? iws_stream_rpc(c->eng) : NULL;
	return rc && iws_rpc_conn_state(rc) == IWS_RPC_YES ? rc : NULL;
}

void rpc_qp_json(struct jsonw *j, const struct conn *c)
{
	const struct iws_rpc_conn *rc = rpc_of(c);
	if (!rc)
		return;
	const struct iws_rpc_counts *k = iws_rpc_conn_counts(rc);
	uint32_t n;
	const struct iws_rpc_credit *cr = iws_rpc_conn_credits(rc, &n);
	jw_key(j, "rpc");
	jw_obj(j);
	jw_ku64(j, "calls", k->calls);
	jw_ku64(j, "replies", k->replies);
	jw_ku64(j, "incomplete", k->incomplete);
	jw_ku64(j, "unmatched_rdma", k->unmatched_rdma);
	jw_ku64(j, "max_outstanding", k->max_inflight);
	jw_ku64(j, "granted_max", k->granted_max);
	jw_ku64(j, "credit_changes", k->credit_changes);
	jw_ku64(j, "credit_exceeded", k->credit_exceeded);
	jw_ku64(j, "credit_stalls", k->credit_stalls);
	jw_ki64(j, "stall_ns", k->stall_ns);
	jw_ki64(j, "stall_max_ns", k->stall_max_ns);
	/* every header whose credit value changed, per direction (the first
	 * IWS_RPC_CREDIT_LOG): the requester's asks and the responder's grants */
	jw_key(j, "credits");
	jw_arr(j);
	for (uint32_t i = 0; cr && i < n; i++) {
		jw_obj(j);
		jw_ku64(j, "frame", cr[i].frame);
		jw_ki64(j, "ts_ns", cr[i].ts_ns);
		jw_kstr(j, "dir", conn_dir_name(cr[i].dir));
		jw_ku64(j, "credits", cr[i].credits);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/* The credit values one direction's headers carried as they changed:
 * "32 (frame 12), 2 (frame 30)", at most 12, then "...". */
static void credit_list(char *b, size_t len, const struct iws_rpc_credit *cr, uint32_t n, uint8_t dir)
{
	size_t k = 0;
	uint32_t shown = 0;
	b[0] = 0;
	for (uint32_t i = 0; cr && i < n && k < len; i++) {
		if (cr[i].dir != dir)
			continue;
		if (shown++ == 12) {
			k += (size_t)snprintf(b + k, len - k, ", ...");
			break;
		}
		k += (size_t)snprintf(b + k, len - k, "%s%" PRIu32 " (frame %" PRIu64 ")", k ? ", " : "",
				      cr[i].credits, cr[i].frame);
	}
	if (!shown)
		snprintf(b, len, "-");
}

void rpc_credits_text(FILE *f, const struct report *r)
{
	static const struct tt_col cols[] = { { "QP", false },	     { "calls", false },
					      { "max outstanding", false }, { "largest grant", false },
					      { "changes", false },	     { "exceeded", false },
					      { "stalls", false },	     { "stalled", false },
					      { "longest stall", false } };
	struct texttable t;
	tt_init(&t, cols, 9);
	const struct conn *c;
	bool any = false;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		const struct iws_rpc_conn *rc = rpc_of(c);
		if (!rc)
			continue;
		any = true;
		const struct iws_rpc_counts *k = iws_rpc_conn_counts(rc);
		char b[48];
		tt_cellf(&t, "%" PRIu32, c->stream);
		tt_cellf(&t, "%" PRIu64, k->calls);
		tt_cellf(&t, "%" PRIu32, k->max_inflight);
		tt_cellf(&t, "%" PRIu32, k->granted_max);
		tt_cellf(&t, "%" PRIu64, k->credit_changes);
		tt_cellf(&t, "%" PRIu64, k->credit_exceeded);
		tt_cellf(&t, "%" PRIu64, k->credit_stalls);
		tt_cell(&t, k->credit_stalls ? fmt_dur(b, sizeof(b), k->stall_ns) : "-");
		tt_cell(&t, k->credit_stalls ? fmt_dur(b, sizeof(b), k->stall_max_ns) : "-");
	}
	if (!any) {
		tt_free(&t);
		return;
	}
	fputs("\nRPC credits per connection (RFC 8166 §3.3; stalls: docs/semantics.md)\n", f);
	tt_print(&t, f, "  ");
	tt_free(&t);
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		const struct iws_rpc_conn *rc = rpc_of(c);
		if (!rc)
			continue;
		uint32_t n;
		const struct iws_rpc_credit *cr = iws_rpc_conn_credits(rc, &n);
		char b[600];
		for (uint8_t d = 0; d < 2; d++) {
			credit_list(b, sizeof(b), cr, n, d);
			fprintf(f, "  QP %" PRIu32 " credits %s: %s\n", c->stream, conn_dir_name(d), b);
		}
	}
}

/* ---- the HTML report's RPC section (report.js: rpc()) ---- */

void rpc_page_json(struct jsonw *j, const struct report *r, const struct iws_rpc *slow, uint32_t nslow,
		   int64_t origin)
{
	const struct iws_rpc_stats *s = &r->a->rpc_total;
	jw_key(j, "rpc");
	if (!s->n) {
		jw_null(j);
		return;
	}
	jw_obj(j);
	jw_key(j, "procs");
	jw_arr(j);
	char lb[96], pl[200];
	for (uint32_t i = 0; i < s->n; i++) {
		const struct iws_rpc_proc_stats *g = &s->e[i];
		jw_obj(j);
		jw_kstr(j, "proc", group_label(lb, sizeof(lb), g));
		group_numbers_json(j, g);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "other", s->other);
	jw_key(j, "slowest");
	jw_arr(j);
	for (uint32_t i = 0; i < nslow; i++) {
		const struct iws_rpc *x = &slow[i];
		bool data = x->data_first_frame != 0;
		jw_obj(j);
		jw_ku64(j, "qp", x->qp);
		jw_ku64(j, "xid", x->xid);
		jw_kstr(j, "proc", proc_label(pl, sizeof(pl), x));
		jw_ku64(j, "call_frame", x->call_frame);
		jw_ku64(j, "reply_frame", x->reply_frame);
		jw_ki64(j, "start", x->call_ns - origin); /* as the page's other times */
		jw_ki64(j, "latency_ns", x->latency_ns);
		jw_koi64(j, "think_ns", data, x->think_ns);
		jw_koi64(j, "data_ns", data, x->data_ns);
		jw_koi64(j, "tail_ns", data, x->tail_ns);
		jw_ku64(j, "rdma_ops", rdma_ops(x));
		jw_ku64(j, "rdma_bytes", x->rdma_bytes);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}
