// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loghist.h - a latency histogram for pictures: LOGHIST_PER_DECADE bins per
 * power of ten from 1 ns to 10^12 ns (about 17 minutes), each 6 % wide, so
 * a page can draw a histogram and a CDF on a log axis. The numbers printed
 * (percentiles) come from the statistics (stats.h), not from here.
 */
#ifndef IWS_CLI_LOGHIST_H
#define IWS_CLI_LOGHIST_H

#include <stdint.h>

#define LOGHIST_PER_DECADE 40
#define LOGHIST_DECADES 12
/* bin 0: below 1 ns (0); bin 1 + k: [edge(k), edge(k+1)); the last: beyond */
#define LOGHIST_BINS (LOGHIST_PER_DECADE * LOGHIST_DECADES + 2)

struct loghist {
	uint64_t count;
	uint32_t bins[LOGHIST_BINS];
};

void loghist_add(struct loghist *h, int64_t ns);

#endif
