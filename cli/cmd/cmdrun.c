// SPDX-License-Identifier: GPL-2.0-or-later
/* One run of a command: its stages set up, fed, and reported (see cmdrun.h). */
#include "cmdrun.h"

#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "out_doctor.h"
#include "out_silence.h"
#include "out_stats.h"
#include "readloop.h"
#include "units.h"

/* The selection stage (select.h): does the report cover this operation
 * (op_type >= 0) or NVMe command (-1)? */
static bool selected(void *ctx, const struct conn *c, int op_type, int64_t start_ns,
		     int64_t end_ns)
{
	struct cmdrun *p = ctx;
	return select_item(&p->sel, c->stream, op_type, start_ns, end_ns,
			   source_stats(p->src)->first_ns);
}

/* The time window (select.h): is ts inside it? */
static bool in_window(void *ctx, int64_t ts)
{
	struct cmdrun *p = ctx;
	return select_time(&p->sel, ts, source_stats(p->src)->first_ns);
}

static void tick(void *ctx)
{
	struct cmdrun *p = ctx;
	int64_t ts;
	uint64_t frame;
	/* The watermark visits every open connection: with many of them, look
	 * less often so the cost per packet stays constant. */
	p->ticks_skipped += RUN_TICK_PACKETS;
	if (p->ticks_skipped < p->a.nactive)
		return;
	p->ticks_skipped = 0;
	analysis_watermark(&p->a, &ts, &frame);
	timeline_release(&p->tl, ts, frame);
}

/* Live: the short per-QP summary every --interval seconds. */
static void live(void *ctx)
{
	struct cmdrun *p = ctx;
	summary_write_short(p->live_out, &p->r, &p->live_prev);
}

bool cmdrun_init(struct cmdrun *p, const struct options *o, const struct cmd_stages *stages,
		 struct source *src, struct points *pts, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->stages = stages;
	p->o = o;
	p->src = src;
	p->pts = pts;
	p->out = out;
	struct select_spec spec = options_select(o);
	select_init(&p->sel, &spec);
	units_config(o->units == UNITS_IEC, o->time_unit);
	units_bw(o->bw == BW_MBPS ? UNITS_BW_MBPS : o->bw == BW_GBPS ? UNITS_BW_GBPS : UNITS_BW_BITS);
	const struct cmdinfo *def = cmdinfo_of(o->cmd);
	struct analysis_opts ao = {
		.check_crc = o->check_crc,
		.max_ooo_dir = o->max_ooo_dir,
		.max_ooo_total = o->max_ooo_total,
		.max_inflight = o->max_inflight,
		.max_reasm = o->max_reasm,
		.max_flows = o->max_flows,
		.include_rtr = o->include_rtr,
		.ctx = p,
		/* The reports that show NVMe (the statistics' nvme sections,
		 * the summary's NVMe-oF block, the page's) unless --no-nvme;
		 * the nvme command's plan turns it on. */
		.nvme = (def->flags & CF_NVME) && !o->no_nvme,
		.sel = &p->sel,
		.selected = select_active(&p->sel) ? selected : NULL,
		.in_window = select_windowed(&p->sel) ? in_window : NULL,
		/* the interop doctor: the commands that show its findings
		 * (cli/output/findings.c), or --fail-on naming its rules */
		.doctor = (def->flags & CF_DOCTOR) || o->fail_rules || o->fail_severities,
	};
	if (stages->plan)
		stages->plan(p, &ao);
	ao.track_order = p->ordered;
	if (!analysis_init(&p->a, &ao))
		return false;
	p->ao = ao;
	/* -j N: the runs whose report is put together at the end from each
	 * connection's state (no consumer sees operations, FPDUs or segments as
	 * they come, in the order connections interleave), of a file. The
	 * statistics' JSON holds the buffers' peaks over all connections at
	 * once, which only one analysis sees. */
	p->jobs_ok = !ao.op && !ao.fpdu && !ao.mark && !ao.segment && !ao.nvme_cmd &&
		     !ao.rpc_call && !ao.smb_call && !ao.selected && !ao.in_window && !source_is_live(src) &&
		     !o->save && !(o->cmd == CMD_STATS && o->format == FMT_JSON);
	/* Ranked: the slowest --limit (all without one); the summary's lists. */
	rank_init(&p->rank, o->limit, o->has_min_latency ? o->min_latency_ns : 0);
	slowest_init(&p->slow, SUMMARY_SLOWEST);
	p->r = (struct report){ &p->a, src, { o->format, o->fail_rules, o->fail_severities }, &p->tl,
				NULL, pts, &p->sel };
	if (stages->begin)
		stages->begin(p);
	return true;
}

bool cmdrun_read(struct cmdrun *p)
{
	const struct options *o = p->o;
	p->live_out = (cmdinfo_of(o->cmd)->flags & CF_LIVE_OUT) && !p->ordered ? p->out : stderr;
	p->live_prev = (struct live_prev){ NULL, 0 };
	struct run_hooks h = {
		.ctx = p,
		.tick = p->has_tl ? tick : NULL,
		.live = live,
		.interval = o->interval,
		.pts = p->pts,
		.stop_count = o->stop_count,
		.stop_after_ns = o->stop_after_ns,
		.stop_filesize = o->stop_filesize,
	};
	bool same = true;
	if (p->jobs > 1 && p->jobs_ok && !p->has_tl) {
		same = jobs_read(p->src, &p->a, &p->ao, p->jobs, &h, &p->workers);
	} else {
		run_input(p->src, &p->a, &h);
		/* what tests/golden/jobs_check.py looks for */
		if (getenv("IWARPSCOPE_JOBS_TRACE"))
			fprintf(stderr, "iwarpscope: jobs: 1 worker\n");
	}
	live_prev_free(&p->live_prev);
	if (!same)
		return false;
	analysis_finish(&p->a);
	if (p->has_page)
		pagedata_finish(&p->page, &p->a);
	if (p->has_series)
		series_wire_finish(&p->series, &p->a);
	return true;
}

unsigned cmdrun_report(struct cmdrun *p, FILE *page)
{
	const struct options *o = p->o;
	p->stages->report(p, page);
	return (report_findings(&p->r) & o->fail_on) | (doctor_fails(&p->r) ? FAIL_RULE : 0);
}

void cmdrun_warnings(const struct cmdrun *p, FILE *f)
{
	const struct source_stats *ss = source_stats(p->src);
	const struct analysis_counts *c = analysis_counts(&p->a);
	for (uint32_t i = 0; i < ss->n_warnings; i++)
		fprintf(f, "iwarpscope: warning: %s\n", ss->warnings[i].text);
	if (c->truncated || c->malformed)
		fprintf(f, "iwarpscope: warning: %llu damaged packets (first: frame %llu, %s)\n",
			(unsigned long long)(c->truncated + c->malformed),
			(unsigned long long)c->first_damage_frame, c->first_damage ? c->first_damage : "?");
	if (ss->live_dropped)
		fprintf(f, "iwarpscope: warning: %llu packets dropped by the capture\n",
			(unsigned long long)ss->live_dropped);
	if (c->snap_cut)
		fprintf(f, "iwarpscope: warning: %llu TCP segments cut by the snapshot length\n",
			(unsigned long long)c->snap_cut);
	if (c->limit_dropped || c->limit_finished || c->limit_skipped)
		fprintf(f, "iwarpscope: warning: connection limit reached (--max-flows %u): "
			   "%llu given up, %llu finished early, %llu not analysed\n",
			p->a.max_flows, (unsigned long long)c->limit_dropped,
			(unsigned long long)c->limit_finished, (unsigned long long)c->limit_skipped);
	uint64_t ooo = 0, reasm = 0, evicted = 0;
	const struct conn *qp;
	for (uint32_t i = 0; (qp = analysis_next_conn(&p->a, &i)) != NULL;) {
		ooo += CONN_SUM_ALL(qp, ooo_limit_hits);
		reasm += CONN_SUM_ALL(qp, buf_limit_hits);
		evicted += iws_stream_tracker_counts(qp->eng)->evicted;
	}
	if (ooo)
		fprintf(f, "iwarpscope: warning: out-of-order buffer limit reached %llu times "
			   "(--max-ooo, --max-ooo-total)\n", (unsigned long long)ooo);
	if (reasm)
		fprintf(f, "iwarpscope: warning: reassembly buffer limit reached %llu times "
			   "(--max-reasm)\n", (unsigned long long)reasm);
	if (evicted)
		fprintf(f, "iwarpscope: warning: %llu operations given up: in-flight limit "
			   "(--max-inflight)\n", (unsigned long long)evicted);
	const char *what = cmdinfo_of(p->o->cmd)->items;
	if (p->tl.forced)
		fprintf(f, "iwarpscope: warning: %llu %s printed early (--max-reorder)\n",
			(unsigned long long)p->tl.forced, what);
	if (p->o->sort_latency && p->rank.unranked)
		fprintf(f, "iwarpscope: note: %llu operations with neither a latency nor an ACK "
			   "not ranked (--sort latency)\n",
			(unsigned long long)p->rank.unranked);
	if (p->rank.dropped)
		fprintf(f, "iwarpscope: warning: %llu operations not ranked: out of memory\n",
			(unsigned long long)p->rank.dropped);
	if (p->series.wire_late)
		fprintf(f, "iwarpscope: warning: %llu segments or FPDUs of intervals already written "
			   "left out of the wire rows (--max-reorder)\n",
			(unsigned long long)p->series.wire_late);
	if (p->series.late)
		fprintf(f, "iwarpscope: warning: %llu operations counted in a later interval "
			   "than their start (--max-reorder)\n",
			(unsigned long long)p->series.late);
	if (p->tl.out_of_order)
		fprintf(f, "iwarpscope: warning: %llu %s printed out of start order\n",
			(unsigned long long)p->tl.out_of_order, what);
	if (analysis_iwarp_count(&p->a) == 0 && ss->records)
		silence_write(f, &p->r, "iwarpscope: ");
}

void cmdrun_notes(const struct cmdrun *p, FILE *f)
{
	const struct options *o = p->o;
	for (int k = 0; k < o->nqps; k++) {
		const struct conn *c;
		bool found = false;
		for (uint32_t i = 0; !found && (c = analysis_next_iwarp(&p->a, &i)) != NULL;)
			found = c->stream == o->qps[k];
		if (found)
			continue;
		fprintf(f, "iwarpscope: note: --qp %u: no iWARP QP of that number in the capture (its QPs:",
			o->qps[k]);
		uint32_t n = 0;
		for (uint32_t i = 0; (c = analysis_next_iwarp(&p->a, &i)) != NULL && n < 16; n++)
			fprintf(f, "%s %u", n ? "," : "", c->stream);
		fprintf(f, "%s)\n", n ? (n == 16 ? ", ..." : "") : " none");
	}
}

void cmdrun_free(struct cmdrun *p)
{
	if (p->has_tl)
		timeline_free(&p->tl);
	if (p->has_series)
		series_free(&p->series);
	rank_free(&p->rank);
	slowest_free(&p->slow);
	if (p->has_page)
		pagedata_free(&p->page);
	analysis_free(&p->a);
	/* after the connections: their engines count in the workers' limits */
	jobs_free(p->workers);
	p->workers = NULL;
	source_close(p->src);
	points_free(p->pts);
	p->src = NULL;
	p->pts = NULL;
}
