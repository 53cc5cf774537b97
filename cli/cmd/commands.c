// SPDX-License-Identifier: GPL-2.0-or-later
/* The command table and each command's hooks (see commands.h). */
#include "commands.h"

#include "cmdrun.h"
#include "out_doctor.h"
#include "out_html.h"
#include "out_nvme.h"
#include "out_ops.h"
#include "out_rpc.h"
#include "out_smb.h"
#include "out_stats.h"

/* ---- what the timeline releases in start order: written (or counted) ---- */

/* --limit: false once that many were written. */
static bool count_one(struct cmdrun *p)
{
	if (p->o->limit && p->written >= p->o->limit)
		return false;
	p->written++;
	return true;
}

/* ops and nvme: a row. */
static void emit_row(void *ctx, const struct conn *c, const void *item)
{
	struct cmdrun *p = ctx;
	if (count_one(p))
		rows_write(&p->rows, c, item);
}

/* Inside the time window (select.h; everything without one)? */
static bool inside(struct cmdrun *p, int64_t ts)
{
	return select_time(&p->sel, ts, source_stats(p->src)->first_ns);
}

/* stats as a time series: counted in its interval; with a time window,
 * the operations starting inside it (docs/semantics.md, "Time window"). */
static void emit_series(void *ctx, const struct conn *c, const void *item)
{
	struct cmdrun *p = ctx;
	if (inside(p, ((const struct iws_op *)item)->start_ns) && count_one(p))
		series_add(&p->series, c, item);
}

/* ---- what crossed the wire, of the QPs selected, inside the time window:
 * the report's page (pagedata.h) or the time series' wire rows (series.h) ---- */

static void on_wire_fpdu(void *ctx, struct conn *c, const struct iws_pdu *pdu)
{
	struct cmdrun *p = ctx;
	if (!select_qp(&p->sel, c->stream) || !inside(p, pdu->ts))
		return;
	if (p->has_page)
		pagedata_fpdu(&p->page, c, pdu);
	else
		series_fpdu(&p->series, c, pdu);
}

/* Every TCP segment. */
static void on_wire_segment(void *ctx, struct conn *c, const struct conn_seg *s)
{
	struct cmdrun *p = ctx;
	if (!select_qp(&p->sel, c->stream) || !inside(p, s->ts))
		return;
	if (p->has_page)
		pagedata_segment(&p->page, c, s);
	else
		series_segment(&p->series, c, s);
}

/* ---- summary: the slowest lists ---- */

/* With a time window, the slowest are among what ends inside it, like the
 * latency tables (docs/semantics.md, "Time window"). */
static bool ends_inside(struct cmdrun *p, int64_t start_ns, int64_t end_ns)
{
	return inside(p, end_ns > start_ns ? end_ns : start_ns);
}

static void summary_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct cmdrun *p = ctx;
	if (ends_inside(p, op->start_ns, op->end_ns))
		slowest_op(&p->slow, c, op);
}

static void summary_nvme(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd)
{
	struct cmdrun *p = ctx;
	if (ends_inside(p, cmd->start_ns, cmd->end_ns))
		slowest_nvme(&p->slow, c, cmd);
}

static void summary_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->op = summary_op;
	ao->nvme_cmd = summary_nvme;
}

static void summary_begin(struct cmdrun *p)
{
	p->r.slow = &p->slow;
}

static void summary_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	summary_write(p->out, &p->r);
}

/* ---- ops, and stats as a time series: operations in start order ---- */

/* An operation to order: ranked (ops --sort latency) or on the timeline. */
static void ordered_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct cmdrun *p = ctx;
	const struct options *o = p->o;
	int64_t took;
	if (o->has_min_latency && (!rank_time(op, &took) || took < o->min_latency_ns))
		return;
	if (o->sort_latency)
		rank_add(&p->rank, c, op);
	else
		timeline_add(&p->tl, c, &(struct tl_key){ op->start_ns, op->first_frame, c->stream, op->id },
			     op);
}

static void ops_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	p->ordered = true;
	ao->op = ordered_op;
}

static void ops_begin(struct cmdrun *p)
{
	timeline_init(&p->tl, p->o->max_reorder, sizeof(struct iws_op), p, emit_row);
	p->has_tl = true;
	ops_out_begin(&p->rows, p->out, p->o->format);
	p->rows.pts = p->pts;
}

static void ops_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	timeline_flush(&p->tl);
	if (p->o->sort_latency) {
		rank_sort(&p->rank);
		for (uint32_t i = 0; i < p->rank.h.n; i++)
			emit_row(p, p->rank.h.items[i].c, &p->rank.h.items[i].op);
	}
	rows_end(&p->rows);
}

/* ---- stats: the statistics, or with csv or jsonl a time series
 * (series.h), fed in start order through the timeline like ops ---- */

static void stats_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	const struct options *o = p->o;
	p->series_mode = o->format == FMT_CSV || o->format == FMT_JSONL;
	if (!p->series_mode) {
		ao->rpc_stats = true; /* the rpc section (out_rpc.c) */
		ao->smb = true;       /* the smb verdict (out_smb.c) */
		return;
	}
	p->ordered = true;
	ao->op = ordered_op;
	ao->segment = on_wire_segment;
	ao->fpdu = on_wire_fpdu;
}

static void stats_begin(struct cmdrun *p)
{
	const struct options *o = p->o;
	if (!p->series_mode)
		return;
	timeline_init(&p->tl, o->max_reorder, sizeof(struct iws_op), p, emit_series);
	p->has_tl = true;
	series_init(&p->series, p->out, o->format, o->interval_ns, o->include_rtr, p->src);
	p->has_series = true;
}

static void stats_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	if (p->series_mode) {
		timeline_flush(&p->tl);
		series_finish(&p->series);
	} else if (p->o->format == FMT_JSON) {
		stats_write_json(p->out, &p->r);
	} else {
		stats_write_text(p->out, &p->r);
	}
}

/* ---- fpdus: every FPDU as it is decoded ---- */

static void fpdus_fpdu(void *ctx, struct conn *c, const struct iws_pdu *pdu)
{
	struct cmdrun *p = ctx;
	if (select_qp(&p->sel, c->stream) &&
	    select_time(&p->sel, pdu->ts, source_stats(p->src)->first_ns))
		fpdus_out_write(&p->fpdus, c, pdu);
}

static void fpdus_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->fpdu = fpdus_fpdu;
}

static void fpdus_begin(struct cmdrun *p)
{
	fpdus_out_begin(&p->fpdus, p->out);
	p->fpdus.pts = p->pts;
	p->fpdus.text = p->o->format == FMT_TEXT;
}

static void fpdus_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	fpdus_out_end(&p->fpdus);
}

/* ---- nvme: NVMe commands in start order ---- */

static void nvme_cmd_hook(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd)
{
	struct cmdrun *p = ctx;
	timeline_add(&p->tl, c, &(struct tl_key){ cmd->start_ns, cmd->first_frame, c->stream, cmd->id },
		     cmd);
}

static void nvme_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->nvme = true;
	ao->track_nvme_order = true;
	ao->nvme_cmd = nvme_cmd_hook;
}

static void nvme_begin(struct cmdrun *p)
{
	/* NVMe commands are large and an Asynchronous Event Request may stay
	 * outstanding for the whole capture (NVMe Base 2.0: the controller
	 * completes it when an event occurs), holding back everything after
	 * it: a smaller default bounds that memory (past it, the earliest
	 * commands are printed, still in order among themselves). */
	timeline_init(&p->tl, p->o->max_reorder ? p->o->max_reorder : NVME_REORDER_DEFAULT,
		      sizeof(struct iws_nvme_cmd), p, emit_row);
	p->has_tl = true;
	nvme_out_begin(&p->rows, p->out, p->o->format);
}

static void nvme_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	timeline_flush(&p->tl);
	rows_end(&p->rows);
	if (p->o->format == FMT_TEXT || p->o->format == FMT_DEFAULT)
		nvme_ladder_text(p->out, &p->r);
}

/* ---- rpc: RPCs over RDMA in call order ---- */

static void rpc_call_hook(void *ctx, struct conn *c, const struct iws_rpc *r)
{
	struct cmdrun *p = ctx;
	timeline_add(&p->tl, c, &(struct tl_key){ r->call_ns, r->call_frame, c->stream, r->id }, r);
}

static void rpc_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->rpc = true;
	ao->rpc_call = rpc_call_hook;
}

static void rpc_begin(struct cmdrun *p)
{
	timeline_init(&p->tl, p->o->max_reorder ? p->o->max_reorder : NVME_REORDER_DEFAULT,
		      sizeof(struct iws_rpc), p, emit_row);
	p->has_tl = true;
	rpc_out_begin(&p->rows, p->out, p->o->format);
}

static void rpc_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	timeline_flush(&p->tl);
	rows_end(&p->rows);
	if (p->o->format == FMT_TEXT || p->o->format == FMT_DEFAULT)
		rpc_credits_text(p->out, &p->r);
}

/* ---- smb: SMB2 requests over SMB Direct in request order ---- */

static void smb_call_hook(void *ctx, struct conn *c, const struct iws_smb *m)
{
	struct cmdrun *p = ctx;
	timeline_add(&p->tl, c, &(struct tl_key){ m->req_ns, m->req_frame, c->stream, m->id }, m);
}

static void smb_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->smb = true;
	ao->smb_call = smb_call_hook;
}

static void smb_begin(struct cmdrun *p)
{
	timeline_init(&p->tl, p->o->max_reorder ? p->o->max_reorder : NVME_REORDER_DEFAULT,
		      sizeof(struct iws_smb), p, emit_row);
	p->has_tl = true;
	smb_out_begin(&p->rows, p->out, p->o->format);
}

static void smb_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	timeline_flush(&p->tl);
	rows_end(&p->rows);
	if (p->o->format == FMT_TEXT || p->o->format == FMT_DEFAULT)
		smb_verdict_text(p->out, &p->r);
}

/* ---- report: the HTML page's data (pagedata.h) ---- */

static void report_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct cmdrun *p = ctx;
	if (!ends_inside(p, op->start_ns, op->end_ns)) {
		/* Still running at the window's end (or ended before it, not
		 * possible for an overlapping one): drawn, without the latency and
		 * delivery that belong to the window it ends in, as in the
		 * statistics (docs/semantics.md, "Time window"). */
		struct iws_op w = *op;
		w.has_latency = false;
		w.has_ack = false;
		pagedata_op(&p->page, c, &w);
		return;
	}
	pagedata_op(&p->page, c, op);
}

static void report_nvme(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd)
{
	struct cmdrun *p = ctx;
	pagedata_nvme(&p->page, c, cmd);
}

static void report_rpc(void *ctx, struct conn *c, const struct iws_rpc *r)
{
	struct cmdrun *p = ctx;
	if (select_qp(&p->sel, c->stream) && r->has_reply && ends_inside(p, r->call_ns, r->reply_ns))
		pagedata_rpc(&p->page, r);
}

static void report_mark(void *ctx, struct conn *c, const struct conn_mark *m)
{
	struct cmdrun *p = ctx;
	if (select_qp(&p->sel, c->stream) && inside(p, m->ts))
		pagedata_mark(&p->page, c, m);
}

static void report_plan(struct cmdrun *p, struct analysis_opts *ao)
{
	(void)p;
	ao->op = report_op;
	ao->mark = report_mark;
	ao->segment = on_wire_segment;
	ao->fpdu = on_wire_fpdu;
	ao->nvme_cmd = report_nvme;
	ao->rpc_stats = true; /* the RPC section: per procedure (out_rpc.c) */
	ao->rpc_call = report_rpc;
}

static void report_begin(struct cmdrun *p)
{
	pagedata_init(&p->page, p->src, p->o->limit, p->o->include_rtr);
	p->has_page = true;
}

static void report_report(struct cmdrun *p, FILE *page)
{
	report_write_html(page ? page : p->out, &p->r, &p->page);
}

/* ---- doctor: the interop doctor's findings ---- */

static void doctor_report(struct cmdrun *p, FILE *page)
{
	(void)page;
	doctor_write(p->out, &p->r);
}

/* ---- each command's stages (its words are in cmdlist.c) ---- */

static const struct cmd_stages stages[CMD_COUNT] = {
	[CMD_SUMMARY] = { .plan = summary_plan, .begin = summary_begin, .report = summary_report },
	[CMD_OPS] = { .plan = ops_plan, .begin = ops_begin, .report = ops_report },
	[CMD_STATS] = { .plan = stats_plan, .begin = stats_begin, .report = stats_report },
	[CMD_FPDUS] = { .plan = fpdus_plan, .begin = fpdus_begin, .report = fpdus_report },
	[CMD_NVME] = { .plan = nvme_plan, .begin = nvme_begin, .report = nvme_report },
	[CMD_REPORT] = { .plan = report_plan, .begin = report_begin, .report = report_report },
	[CMD_DOCTOR] = { .report = doctor_report },
	[CMD_RPC] = { .plan = rpc_plan, .begin = rpc_begin, .report = rpc_report },
	[CMD_SMB] = { .plan = smb_plan, .begin = smb_begin, .report = smb_report },
};

const struct cmd_stages *command_stages(enum command c)
{
	return (unsigned)c < CMD_COUNT ? &stages[c] : NULL;
}
