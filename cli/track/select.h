// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.h - which QPs, operation types and times a report covers
 * (--qp, --op, --since, --until): one stage that every command consults,
 * so a filter means the same in the timeline, the statistics, the summary
 * and the HTML report.
 *
 * A QP not selected is analysed (its numbers are Wireshark's whatever the
 * filter) but not reported; an operation not selected is not reported and
 * not counted in any statistics. Time bounds make a window [since, until)
 * (docs/semantics.md, "Time window"): an operation is selected when it
 * overlaps it, and counters count only what happened inside it; they are
 * resolved against the capture's first frame when the first frame asks.
 */
#ifndef IWS_CLI_SELECT_H
#define IWS_CLI_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A time bound as given: resolved against the capture's first frame. */
enum tspec_kind { TS_NONE = 0, TS_ABS, TS_REL, TS_CLOCK };
struct tspec {
	enum tspec_kind kind;
	int64_t ns;     /* TS_ABS: epoch ns; TS_REL: offset; TS_CLOCK: ns since midnight */
};

/* Resolve a time bound once the first frame's time is known. */
int64_t tspec_resolve(const struct tspec *t, int64_t first_ns);

/* What is asked for (--qp, --op, --since, --until). */
struct select_spec {
	const uint32_t *qps;        /* nqps of them */
	int nqps;
	uint32_t op_mask;           /* bit per enum iws_op_type; 0: every type */
	struct tspec since, until;
};

struct select {
	const uint32_t *qps;        /* NULL: every QP */
	int nqps;
	uint32_t op_mask;           /* bit per enum iws_op_type; 0: every type */
	struct tspec since, until;
	bool resolved;
	int64_t since_ns, until_ns;
};

/* From what is asked for (its QP list must outlive the selection). */
void select_init(struct select *s, const struct select_spec *spec);
/* Is any filter set? */
bool select_active(const struct select *s);
bool select_qp(const struct select *s, uint32_t stream);
/* Is a time window set (--since, --until)? */
bool select_windowed(const struct select *s);
/* Resolve the window's bounds against the capture's first frame (once). */
void select_resolve(struct select *s, int64_t first_ns);
/* An RDMA operation of type op_type (enum iws_op_type; -1: anything else,
 * an NVMe command) of QP stream from start_ns to end_ns: selected when its
 * QP and type are and it overlaps the window (select_overlaps); first_ns:
 * the capture's first frame (used once, to resolve the time bounds). */
bool select_item(struct select *s, uint32_t stream, int op_type, int64_t start_ns,
		 int64_t end_ns, int64_t first_ns);
/* A time alone (a frame, an FPDU, a TCP event): inside [since, until)? */
bool select_time(struct select *s, int64_t ts, int64_t first_ns);
/* Something lasting from start_ns to end_ns: does it overlap [since, until)
 * (start before until, end at or after since)? */
bool select_overlaps(struct select *s, int64_t start_ns, int64_t end_ns, int64_t first_ns);
/* The window as reported: [since, until) clipped to the capture's first and
 * last frames (cap_first, cap_last). False (and the capture's span) without
 * a window. Rates over the window divide by *to - *from. */
bool select_window(const struct select *s, int64_t cap_first, int64_t cap_last, int64_t *from,
		   int64_t *to);
/* "window: +0.500000 s to +1.000000 s (500 ms) of the capture"; "" without. */
const char *select_window_describe(const struct select *s, int64_t cap_first, int64_t cap_last,
				   char *buf, size_t len);
/* "QP 1, 3; read, write" (for the summary): the QPs and types selected. */
const char *select_describe(const struct select *s, char *buf, size_t len);

#endif
