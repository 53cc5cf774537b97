// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_summary.h - the summary writer (out_summary.c): the per-QP and
 * latency tables, the slowest operations, and the live view's rolling lines.
 */
#ifndef IWS_CLI_OUT_SUMMARY_H
#define IWS_CLI_OUT_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "outreport.h"

/* How many of the slowest operations the summary lists. */
#define SUMMARY_SLOWEST 5

void summary_write(FILE *f, const struct report *r);
/* The live view's rolling per-QP lines: totals so far and, with prev, what
 * changed since the last lines (prev remembers each QP's totals; zeroed
 * before the first call, freed with live_prev_free). */
struct live_prev {
	uint64_t (*qp)[2];          /* by QP number: operations, octets */
	uint32_t n;
};
void summary_write_short(FILE *f, const struct report *r, struct live_prev *prev);
void live_prev_free(struct live_prev *prev);

#endif
