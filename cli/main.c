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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "inputs.h"
#include "live.h"
#include "options.h"
#include "out.h"
#include "rank.h"
#include "source.h"
#include "timeline.h"

struct app {
	struct options o;
	struct source *src;
	struct analysis a;
	struct timeline tl;
	struct rank rank;           /* ops --sort latency; the summary's slowest */
	struct ops_out ops;
	uint64_t written;           /* ops written (--limit) */
	struct fpdus_out fpdus;
	bool since_set, until_set;
	uint32_t ticks_skipped;
	int64_t since_ns, until_ns;
};

static bool op_selected(struct app *app, const struct conn *c, const struct iws_op *op)
{
	const struct options *o = &app->o;
	if (o->op_mask && !(o->op_mask & (1u << op->type)))
		return false;
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
		if (o->since.kind && op->start_ns < app->since_ns)
			return false;
		if (o->until.kind && op->start_ns >= app->until_ns)
			return false;
	}
	int64_t took;
	if (o->has_min_latency && (!rank_time(op, &took) || took < o->min_latency_ns))
		return false;
	return true;
}

static void on_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct app *app = ctx;
	if (app->o.cmd == CMD_SUMMARY) {
		if (!op->rtr)
			rank_add(&app->rank, c, op);
	} else if (op_selected(app, c, op)) {
		if (app->o.sort_latency)
			rank_add(&app->rank, c, op);
		else
			timeline_add(&app->tl, c, op);
	}
}

static void emit_op(void *ctx, const struct conn *c, const struct iws_op *op)
{
	struct app *app = ctx;
	if (app->o.limit && app->written >= app->o.limit)
		return;
	app->written++;
	ops_out_write(&app->ops, c, op);
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
		fprintf(stderr, "iwarpscope: warning: %llu operations printed early (--max-reorder)\n",
			(unsigned long long)app->tl.forced);
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
	if (app->tl.out_of_order)
		fprintf(stderr, "iwarpscope: warning: %llu operations printed out of start order\n",
			(unsigned long long)app->tl.out_of_order);
}

int main(int argc, char **argv)
{
	static struct app app;
	char err[512] = "";
	int rc = options_parse(argc, argv, &app.o);
	if (rc)
		return rc == 1 ? 0 : 2;
	const struct options *o = &app.o;

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
		.track_order = o->cmd == CMD_OPS,
		.max_ooo_dir = o->max_ooo_dir,
		.max_ooo_total = o->max_ooo_total,
		.max_inflight = o->max_inflight,
		.max_reasm = o->max_reasm,
		.max_flows = o->max_flows,
		.include_rtr = o->include_rtr,
		.ctx = &app,
		.op = o->cmd == CMD_OPS || o->cmd == CMD_SUMMARY ? on_op : NULL,
		.fpdu = o->cmd == CMD_FPDUS ? on_fpdu : NULL,
	};
	if (!analysis_init(&app.a, &ao)) {
		fprintf(stderr, "iwarpscope: out of memory\n");
		source_close(app.src);
		return 2;
	}
	/* Ranked: the slowest --limit (all without one); the summary's five. */
	rank_init(&app.rank, o->cmd == CMD_SUMMARY ? SUMMARY_SLOWEST : o->limit,
		  o->has_min_latency ? o->min_latency_ns : 0);
	if (o->cmd == CMD_OPS) {
		timeline_init(&app.tl, o->max_reorder, &app, emit_op);
		ops_out_begin(&app.ops, stdout, o->format);
		app.ops.pts = pts;
	} else if (o->cmd == CMD_FPDUS) {
		fpdus_out_begin(&app.fpdus, stdout);
		app.fpdus.pts = pts;
	}

	struct report r = { &app.a, app.src, o, &app.tl, &app.rank, pts };
	struct run_hooks h = {
		.ctx = &app,
		.tick = o->cmd == CMD_OPS ? tick : NULL,
		.live_out = (o->cmd == CMD_OPS || o->cmd == CMD_FPDUS) ? stderr : stdout,
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
				emit_op(&app, app.rank.h.items[i].c, &app.rank.h.items[i].op);
		}
		ops_out_end(&app.ops);
		break;
	case CMD_FPDUS:
		fpdus_out_end(&app.fpdus);
		break;
	case CMD_STATS:
		if (o->format == FMT_JSON)
			stats_write_json(stdout, &r);
		else
			stats_write_text(stdout, &r);
		break;
	case CMD_SUMMARY:
		summary_write(stdout, &r);
		break;
	}
	if (o->cmd != CMD_SUMMARY)
		warn_stderr(&app);
	fflush(stdout);

	unsigned found = report_findings(&r) & o->fail_on;
	int status = found ? 1 : 0;
	if (ferror(stdout)) {
		fprintf(stderr, "iwarpscope: error writing the output\n");
		status = 2;
	}
	timeline_free(&app.tl);
	rank_free(&app.rank);
	analysis_free(&app.a);
	source_close(app.src);
	points_free(pts);
	inputs_free(&ins);
	free(app.o.files);
	return status;
}
