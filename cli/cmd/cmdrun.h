// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmdrun.h - one run of a command over an open source: the stages set up
 * for what the command reports,
 *
 *   source -> [points] -> netdecode -> flows -> conn (the core's stream engine)
 *          -> select -> consumers (timeline, rank, series, pagedata) -> writers
 *
 * read to the end (or to a stop condition), and the report written. main()
 * and the fuzz harness tests/fuzz/fuzz_cli_pcap.c set up every run through
 * here, so what is fuzzed is what runs.
 */
#ifndef IWS_CLI_CMDRUN_H
#define IWS_CLI_CMDRUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "options.h"
#include "out_fpdus.h"
#include "out_summary.h"
#include "outreport.h"
#include "pagedata.h"
#include "points.h"
#include "rank.h"
#include "rows.h"
#include "select.h"
#include "series.h"
#include "source.h"
#include "timeline.h"

struct cmdrun;
struct analysis_opts;

/* What a command does in a run (commands.c has one per command). */
struct cmd_stages {
	/* Before analysis_init: the run's mode (p->ordered, p->series_mode)
	 * and the analysis' hooks in ao (NULL: none). */
	void (*plan)(struct cmdrun *p, struct analysis_opts *ao);
	/* After it: the consumers and the writer (NULL: none). */
	void (*begin)(struct cmdrun *p);
	/* The report, on p->out (the report command's page on page when not
	 * NULL). */
	void (*report)(struct cmdrun *p, FILE *page);
};

struct cmdrun {
	const struct cmd_stages *stages;
	const struct options *o;
	struct source *src;
	struct points *pts;         /* several capture points (NULL: one) */
	FILE *out;                  /* the report */
	struct select sel;
	struct analysis a;
	struct timeline tl;
	struct rank rank;           /* ops --sort latency, --min-latency */
	struct slowest slow;        /* the summary's slowest lists */
	struct rows_out rows;       /* ops or nvme, in start order */
	uint64_t written;           /* rows written (--limit) */
	struct fpdus_out fpdus;
	struct series series;       /* stats --format csv|jsonl */
	struct pagedata page;       /* report */
	struct report r;
	FILE *live_out;             /* live: where the periodic short summary goes */
	struct live_prev live_prev; /* its totals at the last one */
	bool ordered;               /* ops and the time series: the timeline in start order */
	bool series_mode;
	bool has_tl, has_series, has_page;
	uint32_t ticks_skipped;
	/* -j N (jobs.h): the analysis' options again for the workers, and
	 * whether the run's results can be put together from theirs */
	struct analysis_opts ao;
	bool jobs_ok;
	unsigned jobs;              /* workers (0, 1: the read loop alone) */
	struct jobs *workers;
};

/* Set up o->cmd's stages (commands.h) over src (the run owns it, and pts, from
 * now on, also on failure). The report goes to out. false: out of memory. */
bool cmdrun_init(struct cmdrun *p, const struct options *o, const struct cmd_stages *stages,
		 struct source *src, struct points *pts, FILE *out);
/* Read the input to its end (or a stop condition) and finish the analysis,
 * over p->jobs workers when the run allows (jobs.h). false: the workers'
 * results could differ from one analysis': free the run and read the input
 * again with p->jobs 1. */
bool cmdrun_read(struct cmdrun *p);
/* Write the command's report to p->out (the report command's page to page
 * when not NULL); the --fail-on findings (FAIL_*) that matched. */
unsigned cmdrun_report(struct cmdrun *p, FILE *page);
/* The problems a machine-readable report cannot carry, on f (stderr). */
void cmdrun_warnings(const struct cmdrun *p, FILE *f);
/* What every command says on f (stderr) whatever its format: QPs asked for
 * with --qp that are not iWARP QPs of the capture. */
void cmdrun_notes(const struct cmdrun *p, FILE *f);
void cmdrun_free(struct cmdrun *p);

#endif
