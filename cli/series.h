// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series.h - `stats --interval D --format csv|jsonl`: the statistics of
 * each QP and operation type per time interval, for scripts and plots.
 *
 * Intervals are [first + k*D, first + (k+1)*D), `first` being the capture's
 * first frame; an operation counts in the interval its start_ns falls in
 * (the same rule as the ops timeline's order). Operations arrive in start
 * order (through the timeline), so each interval is written as soon as the
 * next one begins and memory holds one interval's statistics at a time.
 * Each interval's numbers are an iws_qp_stats of their own (stats.h): the
 * same counting and percentiles as `stats`, so the rows of a QP and type
 * add up to its totals there. Intervals without an operation of a QP and
 * type have no row.
 */
#ifndef IWS_CLI_SERIES_H
#define IWS_CLI_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conn.h"
#include "jsonw.h"
#include "options.h"
#include "slotmap.h"
#include "source.h"

struct series_qp {
	uint32_t stream;
	struct iws_qp_stats st;
};

struct series {
	FILE *f;
	enum out_format fmt;        /* FMT_CSV or FMT_JSONL */
	int64_t width;              /* ns */
	bool include_rtr;
	const struct source *src;   /* the first frame's time */
	bool started;               /* origin known (the first operation came) */
	bool open;                  /* an interval has operations */
	int64_t origin, start;      /* first frame; the open interval's start */
	struct series_qp *qps;      /* QPs with operations in the open interval */
	uint32_t nqps, capqps;
	struct slotmap by_slot;     /* conn->slot -> index in qps */
	uint64_t late;              /* operations that started in an interval already written */
	uint64_t rows;
	struct jsonw j;
};

void series_init(struct series *s, FILE *f, enum out_format fmt, int64_t width_ns,
		 bool include_rtr, const struct source *src);
/* The next operation in start order. */
void series_add(struct series *s, const struct conn *c, const struct iws_op *op);
/* Write the last interval. */
void series_finish(struct series *s);
void series_free(struct series *s);

#endif
