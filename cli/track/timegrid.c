// SPDX-License-Identifier: GPL-2.0-or-later
/* Time buckets that grow with the capture (see timegrid.h). */
#include "timegrid.h"

#include <stdlib.h>
#include <string.h>

uint64_t interval_of(int64_t offset_ns, int64_t width_ns)
{
	/* tshark: (rel_ts.nsecs + 500) / 1000 µs (ui/cli/tap-iostat.c) */
	if (offset_ns < -500 || width_ns <= 0)
		return 0;
	uint64_t us = ((uint64_t)(offset_ns + 500)) / 1000;
	return us * 1000 / (uint64_t)width_ns;
}

void timegrid_init(struct timegrid *g, int64_t origin)
{
	memset(g, 0, sizeof(*g));
	g->origin = origin;
	g->width = TIMEGRID_MIN_WIDTH;
	g->used = 1;
}

uint64_t *timegrid_array(struct timegrid *g, bool is_max)
{
	if (g->narrays == g->caparrays) {
		uint32_t n = g->caparrays ? g->caparrays * 2 : 16;
		uint64_t **v = realloc(g->arrays, n * sizeof(*v));
		if (!v)
			return NULL;
		g->arrays = v;
		bool *m = realloc(g->is_max, n * sizeof(*m));
		if (!m)
			return NULL;
		g->is_max = m;
		g->caparrays = n;
	}
	uint64_t *a = calloc(TIMEGRID_BUCKETS, sizeof(*a));
	if (a) {
		g->is_max[g->narrays] = is_max;
		g->arrays[g->narrays++] = a;
	}
	return a;
}

/* Twice the width: bucket i becomes buckets 2i and 2i+1 together. */
static void coarsen(struct timegrid *g)
{
	for (uint32_t k = 0; k < g->narrays; k++) {
		uint64_t *a = g->arrays[k];
		for (uint32_t i = 0; i < TIMEGRID_BUCKETS / 2; i++) {
			uint64_t x = a[2 * i], y = a[2 * i + 1];
			a[i] = g->is_max[k] ? (x > y ? x : y) : x + y;
		}
		memset(a + TIMEGRID_BUCKETS / 2, 0, TIMEGRID_BUCKETS / 2 * sizeof(*a));
	}
	g->width *= 2;
	g->used = (g->used + 1) / 2;
}

uint32_t timegrid_bucket(struct timegrid *g, int64_t t)
{
	uint64_t b;
	while ((b = interval_of(t - g->origin, g->width)) >= TIMEGRID_BUCKETS)
		coarsen(g);
	if (b + 1 > g->used)
		g->used = (uint32_t)b + 1;
	return (uint32_t)b;
}

void timegrid_add_span(struct timegrid *g, uint64_t *a, int64_t t0, int64_t t1)
{
	if (t1 <= t0)
		return;
	timegrid_bucket(g, t1); /* grow first: the buckets of t0 must not move after */
	uint32_t b0 = timegrid_bucket(g, t0), b1 = timegrid_bucket(g, t1);
	int64_t lo = t0;
	for (uint32_t b = b0; b < b1; b++) {
		/* the upper edge of bucket b (time before it is the first bucket's) */
		int64_t edge = g->origin + (int64_t)(b + 1) * g->width - 500;
		a[b] += (uint64_t)(edge - lo);
		lo = edge;
	}
	a[b1] += (uint64_t)(t1 - lo);
}

void timegrid_free(struct timegrid *g)
{
	for (uint32_t k = 0; k < g->narrays; k++)
		free(g->arrays[k]);
	free(g->arrays);
	free(g->is_max);
	memset(g, 0, sizeof(*g));
}
