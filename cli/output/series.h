// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series.h - `stats --interval D --format csv|jsonl`: per time interval,
 * the statistics of each QP and operation type, and what each QP's
 * directions put on the wire, for scripts and plots.
 *
 * Intervals are [first + k*D, first + (k+1)*D), `first` being the capture's
 * first frame, a time placed by tshark's `-z io,stat` rule (its offset
 * rounded to the microsecond, timegrid.h: interval_of); docs/semantics.md,
 * "Over time".
 *   - Operation rows: an operation counts in the interval its start_ns
 *     falls in. Operations arrive in start order (through the timeline), so
 *     an interval is written as soon as the next one begins and memory holds
 *     one interval's statistics at a time. Each interval's numbers are an
 *     iws_qp_stats of their own (stats.h): the same counting and
 *     percentiles as `stats`, so the rows of a QP and type add up to its
 *     totals there.
 *   - Wire rows, per QP and direction: the TCP payload octets of its
 *     segments (tcp.len) and how many, the retransmitted ones' octets, and
 *     the goodput (ULP payload of the FPDUs delivered in order), each in the
 *     interval of its frame. They are held until the operation rows of
 *     their interval are written (operations are reported late, segments at
 *     once) and written with them, QP by QP.
 * Intervals without anything of a QP have no row for it.
 */
#ifndef IWS_CLI_SERIES_H
#define IWS_CLI_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "conn.h"
#include "jsonw.h"
#include "outopts.h"
#include "slotmap.h"
#include "source.h"
#include "wire.h"

struct series_qp {
	uint32_t stream;
	struct iws_qp_stats st;
};

/* One QP direction's wire numbers in one interval. */
struct series_wire {
	uint64_t interval;
	const struct conn *c;
	uint8_t dir;                /* IWS_DIR_* */
	uint64_t bytes, segments, retransmitted, goodput;
};

struct series {
	FILE *f;
	enum out_format fmt;        /* FMT_CSV or FMT_JSONL */
	int64_t width;              /* ns */
	bool include_rtr;
	const struct source *src;   /* the first frame's time */
	bool started;               /* origin known */
	bool open;                  /* an interval has operations */
	int64_t origin;             /* first frame */
	uint64_t cur;               /* the open interval */
	bool any_written;
	uint64_t written;           /* intervals below this one are written */
	struct series_qp *qps;      /* QPs with operations in the open interval */
	uint32_t nqps, capqps;
	struct slotmap by_slot;     /* conn->slot -> index in qps */
	/* wire rows not written yet, in the order they began */
	struct wire wire;
	struct series_wire *w;
	uint32_t nw, capw;
	struct slotmap wire_by;     /* 2 * conn->slot + dir -> its latest entry in w */
	uint64_t late;              /* operations that started in an interval already written */
	uint64_t wire_late;         /* segments or FPDUs of an interval already written */
	uint64_t rows;
	struct jsonw j;
};

void series_init(struct series *s, FILE *f, enum out_format fmt, int64_t width_ns,
		 bool include_rtr, const struct source *src);
/* The next operation in start order. */
void series_add(struct series *s, const struct conn *c, const struct iws_op *op);
/* A TCP segment (conn.h's segment hook) and an FPDU, as they are read. */
void series_segment(struct series *s, const struct conn *c, const struct conn_seg *seg);
void series_fpdu(struct series *s, const struct conn *c, const struct iws_pdu *pdu);

/* The goodput octets of a PDU (docs/semantics.md): the ULP payload of an
 * FPDU that became deliverable; none for one the stream ended inside (a ring
 * file that filled up mid-FPDU: its length is its header's, not octets that
 * arrived). One definition for the time series and the report's page. */
static inline uint32_t pdu_goodput(const struct iws_pdu *pdu)
{
	if (pdu->kind != IWS_PDU_FPDU || !pdu->msg || pdu->unfinished)
		return 0;
	return pdu->msg->payload_len;
}
/* The end of the input: segments held for connections recognised late. */
void series_wire_finish(struct series *s, const struct analysis *a);
/* Write what is left. */
void series_finish(struct series *s);
void series_free(struct series *s);

#endif
