// SPDX-License-Identifier: GPL-2.0-or-later
/* Time buckets that grow with the capture (see timegrid.h). */
#include "timegrid.h"

#include <stdlib.h>
#include <string.h>

void timegrid_init(struct timegrid *g, int64_t origin)
{
	memset(g, 0, sizeof(*g));
	g->origin = origin;
	g->width = TIMEGRID_MIN_WIDTH;
	g->used = 1;
}

uint64_t *timegrid_array(struct timegrid *g)
{
	if (g->narrays == g->caparrays) {
		uint32_t n = g->caparrays ? g->caparrays * 2 : 16;
		uint64_t **v = realloc(g->arrays, n * sizeof(*v));
		if (!v)
			return NULL;
		g->arrays = v;
		g->caparrays = n;
	}
	uint64_t *a = calloc(TIMEGRID_BUCKETS, sizeof(*a));
	if (a)
		g->arrays[g->narrays++] = a;
	return a;
}

/* Twice the width: bucket i becomes the sum of buckets 2i and 2i+1. */
static void coarsen(struct timegrid *g)
{
	for (uint32_t k = 0; k < g->narrays; k++) {
		uint64_t *a = g->arrays[k];
		for (uint32_t i = 0; i < TIMEGRID_BUCKETS / 2; i++)
			a[i] = a[2 * i] + a[2 * i + 1];
		memset(a + TIMEGRID_BUCKETS / 2, 0, TIMEGRID_BUCKETS / 2 * sizeof(*a));
	}
	g->width *= 2;
	g->used = (g->used + 1) / 2;
}

uint32_t timegrid_bucket(struct timegrid *g, int64_t t)
{
	if (t <= g->origin)
		return 0;
	uint64_t off = (uint64_t)(t - g->origin);
	while (off / (uint64_t)g->width >= TIMEGRID_BUCKETS)
		coarsen(g);
	uint32_t b = (uint32_t)(off / (uint64_t)g->width);
	if (b + 1 > g->used)
		g->used = b + 1;
	return b;
}

void timegrid_spread(struct timegrid *g, uint64_t *a, int64_t t0, int64_t t1, uint64_t amount)
{
	if (t1 < t0)
		t1 = t0;
	timegrid_bucket(g, t1); /* grow first: the buckets of t0 must not move after */
	uint32_t b0 = timegrid_bucket(g, t0), b1 = timegrid_bucket(g, t1);
	if (b0 == b1 || t1 == t0) {
		a[b0] += amount;
		return;
	}
	/* Time in each bucket, as a share of t1 - t0; the last takes the rest. */
	double per_ns = (double)amount / (double)(t1 - t0);
	uint64_t given = 0;
	int64_t lo = t0; /* (time before the origin is the first bucket's) */
	for (uint32_t b = b0; b < b1; b++) {
		int64_t edge = g->origin + (int64_t)(b + 1) * g->width;
		uint64_t part = (uint64_t)((double)(edge - lo) * per_ns + 0.5);
		if (given + part > amount)
			part = amount - given;
		a[b] += part;
		given += part;
		lo = edge;
	}
	a[b1] += amount - given;
}

void timegrid_free(struct timegrid *g)
{
	for (uint32_t k = 0; k < g->narrays; k++)
		free(g->arrays[k]);
	free(g->arrays);
	memset(g, 0, sizeof(*g));
}
