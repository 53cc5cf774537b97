// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bench scenario: a large capture (any size, 1 GiB and more) streamed
 * to disk frame by frame, with several QPs, CRC on and a realistic mix of
 * Writes, Reads and Sends. Its truth file is a summary (counts per
 * operation type), not a per-FPDU listing.
 */
#ifndef IWSGEN_BENCH_H
#define IWSGEN_BENCH_H

#include "gen.h"

/* The QPs by default, and at most (--qps: many connections for -j N). */
#define BENCH_QPS 8
#define BENCH_MAX_QPS 200

int bench_run(struct gen *g, const char *prefix, uint64_t size, int qps);

#endif
