// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_stats.h - the stats writer (out_stats.c): statistics per QP and
 * operation type as text or JSON, the pieces of it other writers show, and
 * the --fail-on findings of a report.
 */
#ifndef IWS_CLI_OUT_STATS_H
#define IWS_CLI_OUT_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iwarpscope/stats.h"
#include "iwarpscope/stream.h"
#include "jsonw.h"
#include "outreport.h"

void stats_write_json(FILE *f, const struct report *r);
void stats_write_text(FILE *f, const struct report *r);

/* One operation type's numbers: count, complete, bytes, segments,
 * crc_errors, retransmissions, stall_ns, latency_ns, delivery_ns. */
void stats_op_fields_json(struct jsonw *j, const struct iws_op_stats *o);
/* "tcp": {fast_retransmits, timeouts, other_retransmits, reordered,
 * duplicate_acks, zero_windows, keepalives} */
void stats_tcp_json(struct jsonw *j, const struct conn *c);

/* The time window (--since, --until; select.h) as reported: [*from, *to)
 * clipped to the capture; false without one. */
bool report_window(const struct report *r, int64_t *from, int64_t *to);
/* The span a QP's rate is over: its first to last FPDU, or with a window
 * the window's length (docs/semantics.md, "Time window"). */
int64_t report_qp_span(const struct report *r, const struct conn *c);
/* With a window: its line ("window: +0.500000 s to ... of the capture: N
 * frames, B") for the text views' headers; nothing without one. */
void report_window_text(FILE *f, const struct report *r);
/* With a window: the "window" object (from_ns, to_ns, span_ns, frames,
 * bytes); nothing without one. */
void report_window_json(struct jsonw *j, const struct report *r);

/* Problems in the report, for --fail-on (FAIL_* bits). */
unsigned report_findings(const struct report *r);

#endif
