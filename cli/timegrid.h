// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timegrid.h - time buckets for a capture of unknown length, read once.
 *
 * The grid starts at the capture's first frame with buckets of 1024 ns and
 * at most TIMEGRID_BUCKETS of them. When a time past its end arrives, the
 * bucket width doubles (neighbouring buckets are added together) until the
 * time fits, in every array that follows the grid. So however long the
 * capture, each array holds TIMEGRID_BUCKETS numbers, the last width is the
 * capture's length / TIMEGRID_BUCKETS or less (a power of two of ns), and
 * what went into the buckets is never lost, only coarser. Times before the
 * start count in the first bucket.
 */
#ifndef IWS_CLI_TIMEGRID_H
#define IWS_CLI_TIMEGRID_H

#include <stdbool.h>
#include <stdint.h>

#define TIMEGRID_BUCKETS 512
#define TIMEGRID_MIN_WIDTH 1024

struct timegrid {
	int64_t origin;             /* ns since the epoch */
	int64_t width;              /* ns, a power of two */
	uint32_t used;              /* buckets up to the latest time seen */
	uint64_t **arrays;          /* every array that follows the grid */
	uint32_t narrays, caparrays;
};

void timegrid_init(struct timegrid *g, int64_t origin);
/* A zeroed array of TIMEGRID_BUCKETS that follows the grid; NULL when out of
 * memory. Freed by timegrid_free. */
uint64_t *timegrid_array(struct timegrid *g);
/* The bucket of time t (the grid grows to hold it). */
uint32_t timegrid_bucket(struct timegrid *g, int64_t t);
/* Add amount to the buckets [t0, t1] covers, in proportion to the time it
 * spends in each (all of it, in integers, whatever the rounding). */
void timegrid_spread(struct timegrid *g, uint64_t *a, int64_t t0, int64_t t1, uint64_t amount);
void timegrid_free(struct timegrid *g);

#endif
