// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe over Fabrics reports: the `nvme` command (one line per command, as
 * text, JSON, JSON lines or CSV; the JSON names are the contract of docs/iwarpscope.1:
 * qp, qid, cid, opcode, op, nsid, slba, nlb, blocks, bytes, first_frame, last_frame,
 * start_ns, end_ns, latency_ns, data_ns, status, complete, then extras), the
 * `stats` nvme sections (per QP and per (qid, op): counts, bytes, IOPS,
 * latency and data-transfer distributions, errors by status) and the
 * summary's NVMe-oF block. docs/semantics.md says what each number means.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "dists.h"
#include "out_nvme.h"
#include "textsafe.h"
#include "texttable.h"
#include "units.h"

/* ---- one command ---- */

static void cmd_json(struct jsonw *j, const struct conn *c, const void *item,
		     const struct points *pts)
{
	(void)pts;
	const struct iws_nvme_cmd *m = item;
	char fl[200];
	const struct iws_nvme_command *q = &m->sqe;
	bool real = !(m->flags & IWS_NVMEF_NO_COMMAND);
	jw_obj(j);
	jw_ku64(j, "qp", c->stream);
	jw_koi64(j, "qid", m->qid >= 0, m->qid);
	jw_ku64(j, "cid", m->cid);
	jw_kou64(j, "opcode", real, m->opcode);
	jw_kstr(j, "op", m->op);
	jw_kou64(j, "nsid", m->has_nsid, m->nsid);
	jw_kou64(j, "slba", m->has_lba, m->slba);
	/* NLB as nvme-cli shows it (the wire's 0's based value), the count beside */
	jw_kou64(j, "nlb", m->has_lba, m->nlb);
	jw_kou64(j, "blocks", m->has_lba, m->blocks);
	jw_ku64(j, "bytes", m->bytes);
	jw_ku64(j, "first_frame", m->first_frame);
	jw_ku64(j, "last_frame", m->last_frame);
	jw_ki64(j, "start_ns", m->start_ns);
	jw_ki64(j, "end_ns", m->end_ns);
	jw_koi64(j, "latency_ns", m->has_completion && real, m->latency_ns);
	jw_ki64(j, "data_ns", m->data_ns);
	jw_kou64(j, "status", m->has_completion, m->status);
	jw_kostr(j, "status_name", m->status_name);
	jw_kbool(j, "complete", m->complete);
	/* extras */
	jw_ku64(j, "id", m->id);
	jw_kstr(j, "title", m->title);
	jw_kou64(j, "fctype", m->fabrics, m->fctype);
	jw_kstr(j, "xfer", iws_nvme_xfer_name(m->xfer));
	jw_ku64(j, "capsule_frame", m->capsule_frame);
	jw_kou64(j, "data_first_frame", m->data_first_frame != 0, m->data_first_frame);
	jw_kou64(j, "data_last_frame", m->data_last_frame != 0, m->data_last_frame);
	jw_ku64(j, "data_segments", m->data_segments);
	if (real) {
		jw_kstr(j, "sgl", iws_nvme_sgl_type_name(q->sgl.type) ? iws_nvme_sgl_type_name(q->sgl.type)
								     : "reserved");
		jw_ku64(j, "sgl_length", q->sgl.length);
		jw_kou64(j, "sgl_key", q->sgl.keyed, q->sgl.key);
		jw_kou64(j, "sgl_addr", q->sgl.keyed, q->sgl.addr);
	}
	if (q->adm.identify)
		jw_ku64(j, "cns", q->adm.cns);
	if (q->adm.features)
		jw_ku64(j, "fid", q->adm.fid);
	if (q->adm.log_page) {
		jw_ku64(j, "lid", q->adm.lid);
		jw_ku64(j, "numd", q->adm.numd);
	}
	if (m->fabrics && (m->fctype == IWS_NVME_FCT_PROPERTY_GET || m->fctype == IWS_NVME_FCT_PROPERTY_SET))
		jw_ku64(j, "property", q->fab.prop_offset);
	if (m->has_completion) {
		jw_ku64(j, "sqhd", m->cqe.sqhd);
		jw_ku64(j, "dw0", m->cqe.dw0);
		jw_kbool(j, "send_inv", m->send_inv);
	}
	jw_kstr(j, "flags", iws_nvme_flags_str(fl, sizeof(fl), m->flags));
	jw_obj_end(j);
}

static void ocsv(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, "%" PRIu64, v);
	fputc(',', f);
}

static void cmd_csv(FILE *f, const struct conn *c, const void *item)
{
	const struct iws_nvme_cmd *m = item;
	char fl[200];
	bool real = !(m->flags & IWS_NVMEF_NO_COMMAND);
	fprintf(f, "%u,", c->stream);
	if (m->qid >= 0)
		fprintf(f, "%" PRId32, m->qid);
	fprintf(f, ",%u,", m->cid);
	ocsv(f, real, m->opcode);
	fprintf(f, "%s,", m->op);
	ocsv(f, m->has_nsid, m->nsid);
	ocsv(f, m->has_lba, m->slba);
	ocsv(f, m->has_lba, m->nlb);
	ocsv(f, m->has_lba, m->blocks);
	fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",", m->bytes,
		m->first_frame, m->last_frame, m->start_ns, m->end_ns);
	if (m->has_completion && real)
		fprintf(f, "%" PRId64, m->latency_ns);
	fprintf(f, ",%" PRId64 ",", m->data_ns);
	ocsv(f, m->has_completion, m->status);
	/* names and flags may contain commas: quote them (RFC 4180) */
	fprintf(f, "\"%s\",%s,", m->status_name ? m->status_name : "", m->complete ? "true" : "false");
	ocsv(f, m->fabrics, m->fctype);
	fprintf(f, "%s,\"%s\"\n", iws_nvme_xfer_name(m->xfer), iws_nvme_flags_str(fl, sizeof(fl), m->flags));
}

/* The text columns (streamed: fixed widths; durations in one unit, named
 * in the heading: --time-unit's, else µs, to the nanosecond). NSIDs in hex,
 * as the NVMe specifications write them (FFFFFFFFh: every namespace). */
static const struct fixed_col cmd_cols[] = {
	{ "time", -18, false },	  { "QP", 4, false },	   { "qid", 3, false },
	{ "cid", 5, false },	  { "op", -16, false },	   { "nsid", -10, false },
	{ "slba", 10, false },	  { "nlb", 5, false },	   { "blocks", 6, false },
	{ "bytes", 9, false },
	{ "latency", 12, true },  { "data", 12, true },	   { "frames", -15, false },
	{ "status", -6, false },  { "notes", 0, false },
};
#define NCMDCOLS (int)(sizeof(cmd_cols) / sizeof(cmd_cols[0]))

static void cmd_text_header(FILE *f)
{
	fixed_header(f, cmd_cols, NCMDCOLS, text_time_unit());
}

static void cmd_text(FILE *f, const struct conn *c, const void *item)
{
	const struct iws_nvme_cmd *m = item;
	char t[48], fl[200], notes[400];
	char cell[NCMDCOLS][48];
	int64_t unit = text_time_unit();
	int dec = units_decimals(unit, 1);
	bool real = !(m->flags & IWS_NVMEF_NO_COMMAND);
	int k = 0;
	snprintf(cell[k++], 48, "%s", fmt_clock(t, sizeof(t), m->start_ns));
	snprintf(cell[k++], 48, "%u", c->stream);
	if (m->qid >= 0)
		snprintf(cell[k++], 48, "%" PRId32, m->qid);
	else
		snprintf(cell[k++], 48, "?");
	snprintf(cell[k++], 48, "%u", m->cid);
	snprintf(cell[k++], 48, "%s", m->op);
	if (m->has_nsid)
		snprintf(cell[k++], 48, "0x%" PRIx32, m->nsid);
	else
		snprintf(cell[k++], 48, "-");
	if (m->has_lba) {
		snprintf(cell[k++], 48, "%" PRIu64, m->slba);
		snprintf(cell[k++], 48, "%u", (unsigned)m->nlb);
		snprintf(cell[k++], 48, "%" PRIu32, m->blocks);
	} else {
		snprintf(cell[k++], 48, "-");
		snprintf(cell[k++], 48, "-");
		snprintf(cell[k++], 48, "-");
	}
	snprintf(cell[k++], 48, "%" PRIu64, m->bytes);
	if (m->has_completion && real)
		fmt_in_unit(cell[k++], 48, m->latency_ns, unit, dec);
	else
		snprintf(cell[k++], 48, "-");
	if (m->data_first_frame && m->xfer != IWS_NVME_XFER_IN_CAPSULE)
		fmt_in_unit(cell[k++], 48, m->data_ns, unit, dec);
	else
		snprintf(cell[k++], 48, "-");
	if (m->first_frame == m->last_frame)
		snprintf(cell[k++], 48, "%" PRIu64, m->first_frame);
	else
		snprintf(cell[k++], 48, "%" PRIu64 "-%" PRIu64, m->first_frame, m->last_frame);
	if (m->has_completion)
		snprintf(cell[k++], 48, "0x%04x", m->status);
	else
		snprintf(cell[k++], 48, "-");
	size_t n = 0;
	notes[0] = 0;
	/* Identify CNS, Get Log Page LID, Get/Set Features FID (the plugin's
	 * Info says the same: one core function) */
	char det[96];
	if (real && *iws_nvme_admin_detail(det, sizeof(det), &m->sqe.adm))
		n += (size_t)snprintf(notes + n, sizeof(notes) - n, "%s; ", det);
	if (m->has_completion && m->status)
		n += (size_t)snprintf(notes + n, sizeof(notes) - n, "STATUS %s; ",
				      m->status_name ? m->status_name : "?");
	if (m->flags & IWS_NVMEF_AWAITS_EVENT)
		n += (size_t)snprintf(notes + n, sizeof(notes) - n,
				      "OUTSTANDING by design (awaits an event); ");
	else if (!m->complete && n < sizeof(notes))
		n += (size_t)snprintf(notes + n, sizeof(notes) - n, "INCOMPLETE; ");
	uint32_t shown = m->flags & ~(uint32_t)IWS_NVMEF_AWAITS_EVENT;
	if (shown && n < sizeof(notes))
		n += (size_t)snprintf(notes + n, sizeof(notes) - n, "(%s); ",
				      iws_nvme_flags_str(fl, sizeof(fl), shown));
	if (n >= 2 && n < sizeof(notes))
		notes[n - 2] = 0; /* the last "; " */
	const char *cells[NCMDCOLS];
	for (int i = 0; i < NCMDCOLS - 1; i++)
		cells[i] = cell[i];
	cells[NCMDCOLS - 1] = notes;
	fixed_row(f, cmd_cols, NCMDCOLS, cells);
}

static const struct row_fns cmd_fns = {
	"qp,qid,cid,opcode,op,nsid,slba,nlb,blocks,bytes,first_frame,last_frame,start_ns,end_ns,"
	"latency_ns,data_ns,status,status_name,complete,fctype,xfer,flags\n",
	cmd_json, cmd_csv, cmd_text, cmd_text_header,
};

void nvme_out_begin(struct rows_out *w, FILE *f, enum out_format fmt)
{
	rows_begin(w, f, fmt, &cmd_fns);
}

/* ---- statistics ---- */

static const char *qid_src_name(enum iws_nvme_qid_src s)
{
	switch (s) {
	case IWS_NVME_QID_CONNECT:
		return "connect";
	case IWS_NVME_QID_CM:
		return "rdma_cm";
	case IWS_NVME_QID_CQE:
		return "completion";
	default:
		return NULL;
	}
}

static void groups_json(struct jsonw *j, const char *key, const struct iws_nvme_stats *s)
{
	jw_key(j, key);
	jw_arr(j);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct iws_nvme_op_stats *o = &s->e[i];
		jw_obj(j);
		if (o->qid != IWS_NVME_QID_ALL)
			jw_koi64(j, "qid", o->qid >= 0, o->qid);
		jw_kstr(j, "op", o->op);
		jw_ku64(j, "count", o->count);
		jw_ku64(j, "complete", o->complete);
		jw_ku64(j, "errors", o->errors);
		jw_ku64(j, "bytes", o->bytes);
		jw_kou64(j, "iops", iws_nvme_op_has_iops(o), iws_nvme_op_iops(o));
		/* over the complete commands: the first one's start, the last one's end */
		jw_koi64(j, "first_ns", o->complete != 0, o->first_start_ns);
		jw_koi64(j, "last_ns", o->complete != 0, o->last_end_ns);
		jw_ki64(j, "span_ns", o->complete ? o->last_end_ns - o->first_start_ns : 0);
		latency_json_sketch(j, "latency_ns", &o->latency);
		/* fio's clat percentile ladder (docs/semantics.md) */
		ladder_json(j, "latency_percentiles_ns", &o->latency);
		latency_json_sketch(j, "data_ns", &o->data);
		jw_key(j, "statuses");
		jw_arr(j);
		for (uint32_t k = 0; k < o->nstatus; k++) {
			jw_obj(j);
			jw_ku64(j, "status", o->status[k].status);
			jw_kostr(j, "name", iws_nvme_status_name(o->status[k].status, o->fabrics));
			jw_ku64(j, "count", o->status[k].count);
			jw_obj_end(j);
		}
		jw_arr_end(j);
		jw_ku64(j, "other_statuses", o->status_other);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

void nvme_qp_json(struct jsonw *j, const struct conn *c)
{
	const struct iws_nvme_tracker *t = conn_nvme_tracker(c);
	if (!t)
		return;
	const struct iws_nvme_qp_info *i = iws_nvme_tracker_info(t);
	const struct iws_nvme_counts *k = iws_nvme_tracker_counts(t);
	const struct conn_nvme *n = c->nvme;
	jw_key(j, "nvme");
	jw_obj(j);
	jw_koi64(j, "qid", i->qid >= 0, i->qid);
	jw_kostr(j, "qid_source", qid_src_name(i->qid_src));
	jw_kostr(j, "hostnqn", i->has_connect_data ? i->cdata.hostnqn : NULL);
	jw_kostr(j, "subnqn", i->has_connect_data ? i->cdata.subnqn : NULL);
	jw_kou64(j, "cntlid", i->has_cntlid, i->cntlid);
	jw_kou64(j, "sqsize", i->has_connect, i->sqsize);
	jw_kou64(j, "kato_ms", i->has_connect, i->kato);
	jw_kou64(j, "connect_status", i->has_connect, i->connect_status);
	jw_ku64(j, "commands", n->commands);
	jw_ku64(j, "incomplete", n->incomplete);
	jw_ku64(j, "errors", n->errors);
	jw_ku64(j, "capsules", k->capsules);
	jw_ku64(j, "responses", k->responses);
	jw_ku64(j, "orphan_responses", k->orphan_responses);
	jw_ku64(j, "cid_reuse", k->cid_reuse);
	jw_ku64(j, "evicted", k->evicted);
	jw_ku64(j, "undecodable", k->undecodable);
	jw_ku64(j, "unmatched_data", k->unmatched_data);
	jw_ku64(j, "bytes_in_capsule", k->bytes_in_capsule);
	jw_ku64(j, "bytes_rdma_write", k->bytes_c2h);
	jw_ku64(j, "bytes_rdma_read", k->bytes_h2c);
	jw_ku64(j, "max_inflight", k->max_inflight_seen);
	groups_json(j, "ops", &n->st);
	jw_obj_end(j);
}

/* The "all" rows: each command type over every queue of every QP
 * (iws_nvme_stats_merge_all, the plugin's -z iwarp,nvme "all" rows). */
void nvme_all_rows(const struct analysis *a, struct iws_nvme_stats *all)
{
	const struct conn *c;
	iws_nvme_stats_init(all);
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;)
		if (conn_is_nvme(c))
			iws_nvme_stats_merge_all(all, &c->nvme->st);
}

void nvme_total_json(struct jsonw *j, const struct report *r)
{
	const struct analysis *a = r->a;
	uint64_t nq = 0, cmds = 0, inc = 0, err = 0;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		if (!conn_is_nvme(c))
			continue;
		nq++;
		cmds += c->nvme->commands;
		inc += c->nvme->incomplete;
		err += c->nvme->errors;
	}
	if (!nq)
		return;
	jw_key(j, "nvme");
	jw_obj(j);
	jw_ku64(j, "qps", nq);
	jw_ku64(j, "commands", cmds);
	jw_ku64(j, "incomplete", inc);
	jw_ku64(j, "errors", err);
	groups_json(j, "ops", &a->nvme_total);
	struct iws_nvme_stats all;
	nvme_all_rows(a, &all);
	groups_json(j, "all_ops", &all);
	iws_nvme_stats_free(&all);
	jw_obj_end(j);
}

/* "qid op" labels of the text tables. */
static const char *label(char *buf, size_t len, const struct iws_nvme_op_stats *o)
{
	char q[16] = "?";
	if (o->qid == IWS_NVME_QID_ALL)
		snprintf(q, sizeof(q), "all");
	else if (o->qid >= 0)
		snprintf(q, sizeof(q), "%" PRId32, o->qid);
	snprintf(buf, len, "%s %s", q, o->op);
	return buf;
}

/* Connections with NVMe, for the tables and the summary. */
static bool any_nvme(const struct report *r)
{
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;)
		if (conn_is_nvme(c))
			return true;
	return false;
}

/* Asynchronous Event Requests still outstanding by design in group o
 * (docs/semantics.md): not counted among its incomplete commands; c NULL:
 * an "all" row, over every QP. */
static uint64_t awaiting(const struct analysis *a, const struct conn *c, const struct iws_nvme_op_stats *o)
{
	if (strcmp(o->op, "async_event"))
		return 0;
	if (c)
		return c->nvme->awaiting_event;
	uint64_t n = 0;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;)
		if (conn_is_nvme(c))
			n += c->nvme->awaiting_event;
	return n;
}

/* Each row of the tables: every NVMe QP's groups, then the "all" rows (a
 * row per command type over every queue). */
typedef void (*group_fn)(void *ctx, const char *qp, const struct conn *c, const struct iws_nvme_op_stats *o);

static void each_group(const struct analysis *a, struct iws_nvme_stats *all, group_fn fn, void *ctx)
{
	char qp[16];
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;)
		for (uint32_t k = 0; conn_is_nvme(c) && k < c->nvme->st.n; k++) {
			snprintf(qp, sizeof(qp), "%u", c->stream);
			fn(ctx, qp, c, &c->nvme->st.e[k]);
		}
	for (uint32_t k = 0; k < all->n; k++)
		fn(ctx, "all", NULL, &all->e[k]);
}

struct dist_ctx {
	struct dist_rows rows;
	size_t off;
};

static void dist_row(void *ctx, const char *qp, const struct conn *c, const struct iws_nvme_op_stats *o)
{
	struct dist_ctx *d = ctx;
	char lb[96];
	(void)c;
	const struct iws_latency *l = (const struct iws_latency *)((const char *)o + d->off);
	if (l->count)
		dist_rows_add(&d->rows, qp, label(lb, sizeof(lb), o), l);
}

static void dist_table(FILE *f, const struct analysis *a, struct iws_nvme_stats *all, const char *title,
		       size_t off, bool ladder)
{
	struct dist_ctx d = { { 0 }, off };
	each_group(a, all, dist_row, &d);
	if (ladder)
		dist_rows_ladder(f, title, &d.rows);
	else
		dist_rows_print(f, title, "qid op", &d.rows);
	free(d.rows.v);
}

/* fio's completion-latency percentile ladder (its "clat percentiles"): one
 * block per queue and command type, then the "all" rows; the same table in
 * stats and after the nvme command's list. */
static void nvme_ladder(FILE *f, const struct analysis *a, struct iws_nvme_stats *all)
{
	dist_table(f, a, all,
		   "NVMe completion latency percentiles (fio's clat ladder: nearest rank over the samples)",
		   offsetof(struct iws_nvme_op_stats, latency), true);
}

void nvme_ladder_text(FILE *f, const struct report *r)
{
	if (!any_nvme(r))
		return;
	struct iws_nvme_stats all;
	nvme_all_rows(r->a, &all);
	nvme_ladder(f, r->a, &all);
	iws_nvme_stats_free(&all);
}

struct table_ctx {
	const struct analysis *a;
	struct texttable t;
};

static void count_row(void *ctx, const char *qp, const struct conn *c, const struct iws_nvme_op_stats *o)
{
	struct table_ctx *x = ctx;
	char lb[96];
	tt_cell(&x->t, qp);
	tt_cell(&x->t, label(lb, sizeof(lb), o));
	tt_cellf(&x->t, "%" PRIu64, o->count);
	tt_cellf(&x->t, "%" PRIu64, o->count - o->complete - awaiting(x->a, c, o));
	tt_cellf(&x->t, "%" PRIu64, o->errors);
	tt_cellf(&x->t, "%" PRIu64, o->bytes);
	/* the core says when a rate means nothing (too few commands) */
	if (iws_nvme_op_has_iops(o))
		tt_cellf(&x->t, "%" PRIu64, iws_nvme_op_iops(o));
	else
		tt_cell(&x->t, "-");
}

static void status_row(void *ctx, const char *qp, const struct conn *c, const struct iws_nvme_op_stats *o)
{
	struct table_ctx *x = ctx;
	char lb[96];
	(void)c;
	for (uint32_t s = 0; s < o->nstatus; s++) {
		const char *nm = iws_nvme_status_name(o->status[s].status, o->fabrics);
		tt_cell(&x->t, qp);
		tt_cell(&x->t, label(lb, sizeof(lb), o));
		tt_cellf(&x->t, "0x%04x", o->status[s].status);
		tt_cellf(&x->t, "%" PRIu64, o->status[s].count);
		tt_cell(&x->t, nm ? nm : "?");
	}
	if (o->status_other) {
		tt_cell(&x->t, qp);
		tt_cell(&x->t, label(lb, sizeof(lb), o));
		tt_cell(&x->t, "other");
		tt_cellf(&x->t, "%" PRIu64, o->status_other);
		tt_cell(&x->t, "");
	}
}

void nvme_stats_text(FILE *f, const struct report *r)
{
	const struct analysis *a = r->a;
	if (!any_nvme(r))
		return;
	static const struct tt_col cols[] = { { "QP", false },         { "qid op", true },
					      { "count", false },      { "incomplete", false },
					      { "errors", false },     { "bytes", false },
					      { "IOPS", false } };
	struct iws_nvme_stats all;
	nvme_all_rows(a, &all);
	struct table_ctx x = { a, { 0 } };
	tt_init(&x.t, cols, 7);
	each_group(a, &all, count_row, &x);
	fputs("\nNVMe commands\n", f);
	tt_print(&x.t, f, "  ");
	tt_free(&x.t);
	dist_table(f, a, &all, "NVMe latency (complete commands: command capsule to completion)",
		   offsetof(struct iws_nvme_op_stats, latency), false);
	nvme_ladder(f, a, &all);
	dist_table(f, a, &all,
		   "NVMe data transfer (complete commands with RDMA data: first to last data message)",
		   offsetof(struct iws_nvme_op_stats, data), false);
	static const struct tt_col ecols[] = { { "QP", false }, { "qid op", true }, { "status", false },
					       { "count", false }, { "name", true } };
	tt_init(&x.t, ecols, 5);
	each_group(a, &all, status_row, &x);
	if (x.t.nrows) {
		fputs("\nNVMe errors\n", f);
		tt_print(&x.t, f, "  ");
	}
	tt_free(&x.t);
	iws_nvme_stats_free(&all);
}

/* ---- summary ---- */

void nvme_summary(FILE *f, const struct report *r)
{
	const struct analysis *a = r->a;
	if (!any_nvme(r))
		return;
	fputs("\nNVMe over Fabrics (NVMe/RDMA)\n", f);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) {
		if (!conn_is_nvme(c))
			continue;
		const struct iws_nvme_qp_info *in = iws_nvme_tracker_info(conn_nvme_tracker(c));
		const struct conn_nvme *n = c->nvme;
		char q[32] = "unknown";
		if (in->qid == 0)
			snprintf(q, sizeof(q), "0 (admin)");
		else if (in->qid > 0)
			snprintf(q, sizeof(q), "%" PRId32 " (I/O)", in->qid);
		fprintf(f, "QP %u  queue %s", c->stream, q);
		if (in->has_connect_data && in->cdata.subnqn[0]) {
			fputs("  ", f); /* from the capture: escaped (textsafe.h) */
			text_safe_put(f, in->cdata.subnqn);
		}
		if (in->has_cntlid)
			fprintf(f, "  controller %u", in->cntlid);
		fputc('\n', f);
		fprintf(f, "  %" PRIu64 " command%s", n->commands, n->commands == 1 ? "" : "s");
		const char *sep = ": ";
		for (uint32_t k = 0; k < n->st.n; k++) {
			fprintf(f, "%s%" PRIu64 " %s", sep, n->st.e[k].count, n->st.e[k].op);
			sep = ", ";
		}
		fprintf(f, "; %" PRIu64 " incomplete, %" PRIu64 " error%s", n->incomplete - n->awaiting_event,
			n->errors, n->errors == 1 ? "" : "s");
		if (n->awaiting_event)
			fprintf(f, "; %" PRIu64 " Asynchronous Event Request%s outstanding by design",
				n->awaiting_event, n->awaiting_event == 1 ? "" : "s");
		fputc('\n', f);
		for (uint32_t k = 0; k < n->nslow; k++) {
			const struct iws_nvme_cmd *m = &n->slow[k];
			char lat[32], dn[32];
			fprintf(f, "  %s cid %u %s", k ? "      " : "slowest", m->cid, m->op);
			if (m->has_lba)
				fprintf(f, " slba %" PRIu64 " nlb %u (%" PRIu32 " block%s)", m->slba,
					(unsigned)m->nlb, m->blocks, m->blocks == 1 ? "" : "s");
			fprintf(f, ": %s", fmt_dur(lat, sizeof(lat), m->latency_ns));
			if (m->data_first_frame && m->xfer != IWS_NVME_XFER_IN_CAPSULE)
				fprintf(f, " (data %s)", fmt_dur(dn, sizeof(dn), m->data_ns));
			fprintf(f, ", frames %" PRIu64 "-%" PRIu64 "\n", m->first_frame, m->last_frame);
		}
	}
}
