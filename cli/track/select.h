// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.h - which QPs, operation types and times a report covers
 * (--qp, --op, --since, --until): one stage that every command consults,
 * so a filter means the same in the timeline, the statistics, the summary
 * and the HTML report.
 *
 * A QP not selected is analysed (its numbers are Wireshark's whatever the
 * filter) but not reported; an operation not selected is not reported and
 * not counted in any statistics. Time bounds select by start_ns and are
 * resolved against the capture's first frame when the first operation
 * asks.
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
/* An RDMA operation of type op_type (enum iws_op_type; -1: anything else,
 * an NVMe command) of QP stream starting at start_ns; first_ns: the
 * capture's first frame (used once, to resolve the time bounds). */
bool select_item(struct select *s, uint32_t stream, int op_type, int64_t start_ns,
		 int64_t first_ns);
/* A time alone (an FPDU, a TCP event). */
bool select_time(struct select *s, int64_t ts, int64_t first_ns);
/* "QP 1, 3; read, write; from +0.5 s" (for the summary): what is selected. */
const char *select_describe(const struct select *s, char *buf, size_t len);

#endif
