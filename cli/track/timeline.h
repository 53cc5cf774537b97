// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeline.h - reports in start order. A tracker reports an RDMA operation
 * or an NVMe command when it ends; the timeline holds finished items in a
 * heap keyed by (start_ns, first_frame, qp, id) and releases those that
 * start before the analysis watermark (nothing still pending can start
 * earlier). Memory is bounded by the items that overlap in time, not by the
 * capture; a configurable cap forces the oldest out when it is reached
 * (counted). Items are copied in: each timeline holds one kind, of a fixed
 * size (struct iws_op for `ops`, struct iws_nvme_cmd for `nvme`).
 */
#ifndef IWS_CLI_TIMELINE_H
#define IWS_CLI_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn.h"

/* Where an item sorts (docs/semantics.md: by start_ns, then first_frame,
 * then qp; within a QP the tracker's start order, its id). */
struct tl_key {
	int64_t start_ns;
	uint64_t first_frame;
	uint32_t qp;
	uint64_t id;
};

typedef void (*tl_emit_fn)(void *ctx, const struct conn *c, const void *item);

struct timeline {
	unsigned char *heap;        /* cap + 2 elements of esize octets (the last two: scratch) */
	size_t esize, isize;        /* element: struct tl_hdr + the item; the item alone */
	uint32_t n, cap;
	uint32_t max;               /* forced release beyond this many */
	void *ctx;
	tl_emit_fn emit;
	/* output order bookkeeping */
	bool any_out;
	int64_t last_ts;
	uint64_t last_frame;
	uint64_t out_of_order;      /* emitted after a later-starting item */
	uint64_t forced;            /* released early because of the cap */
	uint32_t peak;
};

void timeline_init(struct timeline *t, uint32_t max, size_t item_size, void *ctx, tl_emit_fn emit);
void timeline_add(struct timeline *t, const struct conn *c, const struct tl_key *k, const void *item);
/* Emit every held item whose start is before (ts, frame). */
void timeline_release(struct timeline *t, int64_t ts, uint64_t frame);
void timeline_flush(struct timeline *t);
void timeline_free(struct timeline *t);

#endif
