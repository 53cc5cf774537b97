// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarpscope: makes iWARP traffic readable. `iwarpscope [COMMAND] [OPTIONS]
 * FILE...` reads captures (or a live interface), runs the pipeline
 *
 *   source -> netdecode -> flows -> conn (the core's stream engine: TCP, MPA, tracker)
 *          -> consumers (timeline, statistics) -> writers
 *
 * and prints the command's report. Exit status: 0 ok, 1 --fail-on matched,
 * 2 usage error or unreadable input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "inputs.h"
#include "live.h"
#include "merge.h"
#include "options.h"
#include "out.h"
#include "pagedata.h"
#include "rank.h"
#include "series.h"
#include "source.h"
#include "timeline.h"

struct app {
	struct options o;
	struct source *src;
	struct analysis a;
	struct timeline tl;
	struct rank rank;           /* ops --sort latency; the summary's slowest */
	struct rows_out rows;       /* ops or nvme, in start order */
	uint64_t written;           /* rows written (--limit) */
	struct fpdus_out fpdus;
	struct series series;       /* stats --format csv|jsonl */
	bool series_mode;
	struct pagedata page;       /* report */
	bool since_set, until_set;
	uint32_t ticks_skipped;
	int64_t since_ns, until_ns;
};

/* --qp, --since, --until (ops and nvme). */
static bool selected(struct app *app, const struct conn *c, int64_t start_ns)
{
	const struct options *o = &app->o;
	if (o->nqps) {
		bool hit = false;
		for (int i = 0; i < o->nqps; i++)
			hit |= o->qps[i] == c->stream;
		if (!hit)
			return false;
	}
	if (o->since.kind || o->until.kind) {
		/* Relative and clock times count from the first frame. */
		int64_t first = source_stats(app->src)->first_ns;
		if (o->since.kind && !app->since_set) {
			app->since_ns = tspec_resolve(&o->since, first);
			app->since_set = true;
		}
		if (o->until.kind && !app->until_set) {
			app->until_ns = tspec_resolve(&o->until, first);
			app->until_set = true;
		}
		if (o->since.kind && start_ns < app->since_ns)
			return false;
		if (o->until.kind && start_ns >= app->until_ns)
			return false;
	}
	return true;
}

static void on_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct app *app = ctx;
	const struct options *o = &app->o;
	if (o->cmd == CMD_SUMMARY) {
		if (!op->rtr)
			rank_add(&app->rank, c, op);
		return;
	}
	if (o->cmd == CMD_REPORT) {
		pagedata_op(&app->page, c, op);
		return;
	}
	if (o->op_mask && !(o->op_mask & (1u << op->type)))
		return;
	int64_t took;
	if (o->has_min_latency && (!rank_time(op, &took) || took < o->min_latency_ns))
		return;
	if (!selected(app, c, op->start_ns))
		return;
	if (o->sort_latency)
		rank_add(&app->rank, c, op);
	else
		timeline_add(&app->tl, c,
			     &(struct tl_key){ op->start_ns, op->first_frame, c->stream, op->id }, op);
}

/* The timeline releases an operation or command: print it. */
static void emit(void *ctx, const struct conn *c, const void *item)
{
	struct app *app = ctx;
	if (app->o.limit && app->written >= app->o.limit)
		return;
	app->written++;
	if (app->series_mode)
		series_add(&app->series, c, item);
	else
		rows_write(&app->rows, c, item);
}

static void on_mark(void *ctx, struct conn *c, const struct conn_mark *m)
{
	struct app *app = ctx;
	pagedata_mark(&app->page, c, m);
}

static void on_nvme(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd)
{
	struct app *app = ctx;
	if (selected(app, c, cmd->start_ns))
		timeline_add(&app->tl, c,
			     &(struct tl_key){ cmd->start_ns, cmd->first_frame, c->stream, cmd->id }, cmd);
}

static void on_fpdu(void *ctx, struct conn *c, const struct iws_pdu *pdu)
{
	struct app *app = ctx;
	fpdus_out_write(&app->fpdus, c, pdu);
}

static void tick(void *ctx)
{
	struct app *app = ctx;
	int64_t ts;
	uint64_t frame;
	/* The watermark visits every open connection: with many of them, look
	 * less often so the cost per packet stays constant. */
	app->ticks_skipped += RUN_TICK_PACKETS;
	if (app->ticks_skipped < app->a.nactive)
		return;
	app->ticks_skipped = 0;
	analysis_watermark(&app->a, &ts, &frame);
	timeline_release(&app->tl, ts, frame);
}

/* Problems the source saw go to stderr when the report is machine-readable. */
static void warn_stderr(const struct app *app)
{
	const struct source_stats *ss = source_stats(app->src);
	const struct analysis_counts *c = &app->a.c;
	for (uint32_t i = 0; i < ss->n_warnings; i++)
		fprintf(stderr, "iwarpscope: warning: %s\n", ss->warnings[i].text);
	if (c->truncated || c->malformed)
		fprintf(stderr, "iwarpscope: warning: %llu damaged packets (first: frame %llu, %s)\n",
			(unsigned long long)(c->truncated + c->malformed),
			(unsigned long long)c->first_damage_frame, c->first_damage ? c->first_damage : "?");
	if (c->snap_cut)
		fprintf(stderr, "iwarpscope: warning: %llu TCP segments cut by the snapshot length\n",
			(unsigned long long)c->snap_cut);
	if (c->limit_dropped || c->limit_finished || c->limit_skipped)
		fprintf(stderr, "iwarpscope: warning: connection limit reached (--max-flows %u): "
				"%llu given up, %llu finished early, %llu not analysed\n",
			app->a.max_flows, (unsigned long long)c->limit_dropped,
			(unsigned long long)c->limit_finished, (unsigned long long)c->limit_skipped);
	uint64_t ooo = 0, reasm = 0, evicted = 0;
	for (uint32_t i = 0; i < app->a.nconns; i++) {
		const struct conn *qp = app->a.conns[i];
		if (!qp)
			continue;
		ooo += CONN_SUM(qp, ooo_limit_hits);
		reasm += CONN_SUM(qp, buf_limit_hits);
		evicted += conn_tracker_counts(qp)->evicted;
	}
	if (ooo)
		fprintf(stderr, "iwarpscope: warning: out-of-order buffer limit reached %llu times "
				"(--max-ooo, --max-ooo-total)\n", (unsigned long long)ooo);
	if (reasm)
		fprintf(stderr, "iwarpscope: warning: reassembly buffer limit reached %llu times "
				"(--max-reasm)\n", (unsigned long long)reasm);
	if (evicted)
		fprintf(stderr, "iwarpscope: warning: %llu operations given up: in-flight limit "
				"(--max-inflight)\n", (unsigned long long)evicted);
	if (app->tl.forced)
		fprintf(stderr, "iwarpscope: warning: %llu %s printed early (--max-reorder)\n",
			(unsigned long long)app->tl.forced,
			app->o.cmd == CMD_NVME ? "commands" : "operations");
	if (app->a.env.order_limit_hits)
		fprintf(stderr, "iwarpscope: warning: %llu operations in flight too long to keep "
				"the output in start order\n",
			(unsigned long long)app->a.env.order_limit_hits);
	if (app->o.sort_latency && app->rank.unranked)
		fprintf(stderr, "iwarpscope: note: %llu operations with neither a latency nor an ACK "
				"not ranked (--sort latency)\n",
			(unsigned long long)app->rank.unranked);
	if (app->rank.dropped)
		fprintf(stderr, "iwarpscope: warning: %llu operations not ranked: out of memory\n",
			(unsigned long long)app->rank.dropped);
	if (app->series.late)
		fprintf(stderr, "iwarpscope: warning: %llu operations counted in a later interval "
				"than their start (--max-reorder)\n",
			(unsigned long long)app->series.late);
	if (app->tl.out_of_order)
		fprintf(stderr, "iwarpscope: warning: %llu %s printed out of start order\n",
			(unsigned long long)app->tl.out_of_order,
			app->o.cmd == CMD_NVME ? "commands" : "operations");
}

int main(int argc, char **argv)
{
	static struct app app;
	char err[512] = "";
	/* merge reads statistics, not captures: a command of its own. */
	if (argc > 1 && strcmp(argv[1], "merge") == 0)
		return merge_main(argc - 1, argv + 1);
	int rc = options_parse(argc, argv, &app.o);
	if (rc)
		return rc == 1 ? 0 : 2;
	const struct options *o = &app.o;
	/* stats as CSV or JSON lines: a time series (series.h), fed in start
	 * order through the timeline like ops. */
	app.series_mode = o->cmd == CMD_STATS && (o->format == FMT_CSV || o->format == FMT_JSONL);
	bool ordered = o->cmd == CMD_OPS || app.series_mode;

	static char outbuf[1 << 20];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	/* Patterns and directories to files (rotated sets). */
	struct inputs ins;
	const char *notes[INPUTS_MAX_NOTES];
	if (inputs_expand(o->files, o->nfiles, &ins, err, sizeof(err))) {
		fprintf(stderr, "iwarpscope: %s\n", err);
		free(app.o.files);
		return 2;
	}
	for (int i = 0; i < ins.nnotes; i++)
		notes[i] = ins.notes[i];
	struct source_opts so = {
		.files = ins.files,
		.nfiles = ins.nfiles,
		.notes = notes,
		.nnotes = ins.nnotes,
		.iface = o->iface,
		.bpf = o->bpf,
		.snaplen = o->snaplen,
		.progress = o->progress,
	};
	/* Several files: a first pass finds capture points (points.h). */
	struct points *pts = NULL;
	bool has_stdin = false;
	for (int i = 0; i < ins.nfiles; i++)
		has_stdin |= strcmp(ins.files[i], "-") == 0;
	if (o->points && has_stdin)
		snprintf(err, sizeof(err), "--points reads its files twice: not stdin");
	else if (!o->iface && ins.nfiles > 1 && !has_stdin)
		pts = points_survey(&so, o->points, err, sizeof(err));
	app.src = pts || !err[0] ? source_open(&so, err, sizeof(err)) : NULL;
	if (!app.src) {
		fprintf(stderr, "iwarpscope: %s\n", err);
		points_free(pts);
		inputs_free(&ins);
		free(app.o.files);
		return 2;
	}
	if (pts)
		points_note(pts, stderr);

	struct analysis_opts ao = {
		.check_crc = o->check_crc,
		.track_order = ordered,
		.max_ooo_dir = o->max_ooo_dir,
		.max_ooo_total = o->max_ooo_total,
		.max_inflight = o->max_inflight,
		.max_reasm = o->max_reasm,
		.max_flows = o->max_flows,
		.include_rtr = o->include_rtr,
		.ctx = &app,
		.op = ordered || o->cmd == CMD_SUMMARY || o->cmd == CMD_REPORT ? on_op : NULL,
		.mark = o->cmd == CMD_REPORT ? on_mark : NULL,
		.fpdu = o->cmd == CMD_FPDUS ? on_fpdu : NULL,
		/* The reports that show NVMe: the command list, the statistics'
		 * nvme sections, the summary's NVMe-oF block. */
		.nvme = o->cmd == CMD_NVME || o->cmd == CMD_STATS || o->cmd == CMD_SUMMARY ||
			o->cmd == CMD_REPORT,
		.track_nvme_order = o->cmd == CMD_NVME,
		.nvme_cmd = o->cmd == CMD_NVME ? on_nvme : NULL,
	};
	if (!analysis_init(&app.a, &ao)) {
		fprintf(stderr, "iwarpscope: out of memory\n");
		source_close(app.src);
		return 2;
	}
	/* Ranked: the slowest --limit (all without one); the summary's five. */
	rank_init(&app.rank, o->cmd == CMD_SUMMARY ? SUMMARY_SLOWEST : o->limit,
		  o->has_min_latency ? o->min_latency_ns : 0);
	FILE *page_out = stdout;
	if (ordered)
		timeline_init(&app.tl, o->max_reorder, sizeof(struct iws_op), &app, emit);
	if (o->cmd == CMD_OPS) {
		ops_out_begin(&app.rows, stdout, o->format);
		app.rows.pts = pts;
	} else if (app.series_mode) {
		series_init(&app.series, stdout, o->format, o->interval_ns, o->include_rtr, app.src);
	} else if (o->cmd == CMD_REPORT) {
		pagedata_init(&app.page, app.src, o->limit, o->include_rtr);
		/* Before the analysis: a path that cannot be written fails at once. */
		if (o->output && !(page_out = fopen(o->output, "w"))) {
			fprintf(stderr, "iwarpscope: cannot write %s: %s\n", o->output, strerror(errno));
			pagedata_free(&app.page);
			analysis_free(&app.a);
			source_close(app.src);
			free(app.o.files);
			return 2;
		}
	} else if (o->cmd == CMD_NVME) {
		/* NVMe commands are large and an Asynchronous Event Request may stay
		 * outstanding for the whole capture (NVMe Base 2.0: the controller
		 * completes it when an event occurs), holding back everything after
		 * it: a smaller default bounds that memory (past it, the earliest
		 * commands are printed, still in order among themselves). */
		timeline_init(&app.tl, o->max_reorder ? o->max_reorder : NVME_REORDER_DEFAULT,
			      sizeof(struct iws_nvme_cmd), &app, emit);
		nvme_out_begin(&app.rows, stdout, o->format);
	} else if (o->cmd == CMD_FPDUS) {
		fpdus_out_begin(&app.fpdus, stdout);
		app.fpdus.pts = pts;
	}

	struct report r = { &app.a, app.src, o, &app.tl, &app.rank, pts };
	struct run_hooks h = {
		.ctx = &app,
		.tick = ordered || o->cmd == CMD_NVME ? tick : NULL,
		.live_out = (ordered || o->cmd == CMD_FPDUS || o->cmd == CMD_NVME ||
			     o->cmd == CMD_REPORT) ? stderr : stdout,
		.interval = o->interval,
		.pts = pts,
	};
	run_input(app.src, &app.a, &r, &h);
	analysis_finish(&app.a);

	switch (o->cmd) {
	case CMD_OPS:
		timeline_flush(&app.tl);
		if (o->sort_latency) {
			rank_sort(&app.rank);
			for (uint32_t i = 0; i < app.rank.h.n; i++)
				emit(&app, app.rank.h.items[i].c, &app.rank.h.items[i].op);
		}
		rows_end(&app.rows);
		break;
	case CMD_FPDUS:
		fpdus_out_end(&app.fpdus);
		break;
	case CMD_NVME:
		timeline_flush(&app.tl);
		rows_end(&app.rows);
		break;
	case CMD_STATS:
		if (app.series_mode) {
			timeline_flush(&app.tl);
			series_finish(&app.series);
		} else if (o->format == FMT_JSON) {
			stats_write_json(stdout, &r);
		} else {
			stats_write_text(stdout, &r);
		}
		break;
	case CMD_SUMMARY:
		summary_write(stdout, &r);
		break;
	case CMD_REPORT:
		report_write_html(page_out, &r, &app.page);
		break;
	}
	if (o->cmd != CMD_SUMMARY)
		warn_stderr(&app);
	fflush(stdout);

	unsigned found = report_findings(&r) & o->fail_on;
	int status = found ? 1 : 0;
	if (ferror(stdout) || (page_out != stdout && fclose(page_out) != 0)) {
		fprintf(stderr, "iwarpscope: error writing the output\n");
		status = 2;
	}
	timeline_free(&app.tl);
	if (app.series_mode)
		series_free(&app.series);
	rank_free(&app.rank);
	if (o->cmd == CMD_REPORT)
		pagedata_free(&app.page);
	analysis_free(&app.a);
	source_close(app.src);
	points_free(pts);
	inputs_free(&ins);
	free(app.o.files);
	return status;
}
