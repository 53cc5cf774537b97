// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rank.h - the slowest operations (`ops --sort latency`, the summary's
 * slowest list). An operation's time is its latency_ns (reads, atomics) or
 * else its ack_ns (the delivery of Writes, Sends, Immediate Data:
 * docs/semantics.md); operations with neither are not ranked. With a limit
 * only the slowest `limit` are kept (a min-heap: memory bounded by the
 * limit); without one, every ranked operation is kept until the end.
 */
#ifndef IWS_CLI_RANK_H
#define IWS_CLI_RANK_H

#include <stdbool.h>
#include <stdint.h>

#include "opheap.h"

struct rank {
	struct opheap h;            /* while collecting: the fastest kept at the root */
	bool sorted;                /* rank_sort ran: h.items is slowest first, no heap */
	uint32_t limit;             /* 0: keep all */
	int64_t min_ns;             /* rank only operations that took at least this */
	uint64_t unranked;          /* operations with neither a latency nor an ACK */
	uint64_t below;             /* faster than min_ns */
	uint64_t dropped;           /* no memory left to keep them */
};

/* The time an operation took, for ranking; false if it has none. */
bool rank_time(const struct iws_op *op, int64_t *ns);

void rank_init(struct rank *r, uint32_t limit, int64_t min_ns);
void rank_add(struct rank *r, const struct conn *c, const struct iws_op *op);
/* Sort what was kept, slowest first (then by start, frame, qp, id), into
 * r->h.items[0 .. r->h.n); nothing may be added after. */
void rank_sort(struct rank *r);
void rank_free(struct rank *r);

#endif
