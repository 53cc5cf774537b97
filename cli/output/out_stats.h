// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_stats.h - the stats writer (out_stats.c): statistics per QP and
 * operation type as text or JSON, the pieces of it other writers show, and
 * the --fail-on findings of a report.
 */
#ifndef IWS_CLI_OUT_STATS_H
#define IWS_CLI_OUT_STATS_H

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

/* Problems in the report, for --fail-on (FAIL_* bits). */
unsigned report_findings(const struct report *r);

#endif
