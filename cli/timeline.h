// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeline.h - operations in start order. The tracker reports an operation
 * when it ends; the timeline holds finished operations in a heap keyed by
 * (start_ns, first_frame, qp, id) and releases those that start before the
 * analysis watermark (nothing still pending can start earlier). Memory is
 * bounded by the operations that overlap in time, not by the capture; a
 * configurable cap forces the oldest out when it is reached (counted).
 */
#ifndef IWS_CLI_TIMELINE_H
#define IWS_CLI_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "conn.h"
#include "iwarpscope/qp.h"
#include "opheap.h"

struct timeline {
	struct opheap h;            /* earliest start at the root */
	uint32_t max;               /* forced release beyond this many */
	void *ctx;
	void (*emit)(void *ctx, const struct conn *c, const struct iws_op *op);
	/* output order bookkeeping */
	bool any_out;
	int64_t last_ts;
	uint64_t last_frame;
	uint64_t out_of_order;      /* emitted after a later-starting operation */
	uint64_t forced;            /* released early because of the cap */
	uint32_t peak;
};

void timeline_init(struct timeline *t, uint32_t max, void *ctx,
		   void (*emit)(void *ctx, const struct conn *c, const struct iws_op *op));
void timeline_add(struct timeline *t, const struct conn *c, const struct iws_op *op);
/* Emit every held operation whose start is before (ts, frame). */
void timeline_release(struct timeline *t, int64_t ts, uint64_t frame);
void timeline_flush(struct timeline *t);
void timeline_free(struct timeline *t);

#endif
