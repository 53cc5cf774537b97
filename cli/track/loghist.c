// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-binned histograms (see loghist.h). */
#include "loghist.h"

#include <math.h>

/* Integer edges, computed once, so a bin never depends on how a libm
 * rounds a logarithm at a boundary. */
static int64_t edges[LOGHIST_BINS];

static void init_edges(void)
{
	edges[0] = 0;
	for (uint32_t b = 1; b < LOGHIST_BINS; b++)
		edges[b] = (int64_t)ceil(pow(10.0, (double)(b - 1) / LOGHIST_PER_DECADE) - 1e-9);
}

void loghist_add(struct loghist *h, int64_t ns)
{
	if (!edges[1])
		init_edges();
	/* the last bin whose lower edge is <= ns */
	uint32_t lo = 0, hi = LOGHIST_BINS - 1;
	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;
		if (edges[mid] <= ns)
			lo = mid;
		else
			hi = mid - 1;
	}
	h->bins[lo]++;
	h->count++;
}
