// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timegrid.h - time buckets for a capture of unknown length, read once.
 *
 * The grid starts at the capture's first frame with buckets of 1 µs and at
 * most TIMEGRID_BUCKETS of them. When a time past its end arrives, the
 * bucket width doubles (neighbouring buckets are combined: added, or the
 * larger kept for a "max" array) until the time fits, in every array that
 * follows the grid. So however long the capture, each array holds
 * TIMEGRID_BUCKETS numbers, the width is 2^n µs, and what went into the
 * buckets is never lost, only coarser.
 *
 * Which bucket a time falls in is tshark's `-z io,stat` rule
 * (docs/semantics.md, "Over time"): its offset from the first frame rounded
 * to the nearest microsecond, divided by the width. So bucket k of width W
 * is [origin + k*W - 500 ns, origin + (k+1)*W - 500 ns), and the buckets are
 * the rows of `tshark -q -z io,stat,W`. Times before that count in the
 * first bucket.
 */
#ifndef IWS_CLI_TIMEGRID_H
#define IWS_CLI_TIMEGRID_H

#include <stdbool.h>
#include <stdint.h>

#define TIMEGRID_BUCKETS 512
#define TIMEGRID_MIN_WIDTH 1000

struct timegrid {
	int64_t origin;             /* ns since the epoch */
	int64_t width;              /* ns: 1000 * 2^n */
	uint32_t used;              /* buckets up to the latest time seen */
	uint64_t **arrays;          /* every array that follows the grid */
	bool *is_max;               /* ... combined by max, not by sum */
	uint32_t narrays, caparrays;
};

/* The interval of an offset from the first frame (ns) for intervals of
 * width ns, by tshark's rule: the offset rounded to the microsecond; 0 for
 * offsets before the first frame. Shared with `stats --interval`. */
uint64_t interval_of(int64_t offset_ns, int64_t width_ns);

void timegrid_init(struct timegrid *g, int64_t origin);
/* A zeroed array of TIMEGRID_BUCKETS that follows the grid (is_max: its
 * buckets combine by keeping the larger); NULL when out of memory. Freed by
 * timegrid_free. */
uint64_t *timegrid_array(struct timegrid *g, bool is_max);
/* The bucket of time t (the grid grows to hold it). */
uint32_t timegrid_bucket(struct timegrid *g, int64_t t);
/* Add to each bucket the nanoseconds of [t0, t1) that lie in it (a span of
 * time, exactly: the buckets' edges as above). */
void timegrid_add_span(struct timegrid *g, uint64_t *a, int64_t t0, int64_t t1);
void timegrid_free(struct timegrid *g);

#endif
