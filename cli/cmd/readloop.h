// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readloop.h - the read loop, for capture files and live interfaces alike:
 * every record from the source goes to the analysis (through the capture
 * points stage when there are several), with a tick every so many packets
 * for ordered output. Files run to their end; a live capture runs until
 * Ctrl-C (SIGINT) or SIGTERM, calling back every few seconds (the caller
 * prints its short per-QP summary there: the loop writes nothing).
 */
#ifndef IWS_CLI_READLOOP_H
#define IWS_CLI_READLOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "points.h"
#include "source.h"

/* run_input calls run_hooks.tick every this many packets. */
#define RUN_TICK_PACKETS 256u

struct run_hooks {
	void *ctx;
	/* Called every so many packets (ordered output releases operations). */
	void (*tick)(void *ctx);
	/* Live: called every interval seconds, after tick (the periodic summary). */
	void (*live)(void *ctx);
	unsigned interval;          /* seconds */
	struct points *pts;         /* several capture points: copies to leave out */
	/* Live stop conditions (0: none): packets, seconds, saved octets. */
	uint64_t stop_count;
	int64_t stop_after_ns;
	uint64_t stop_filesize;
};

/* Read every packet into the analysis. */
void run_input(struct source *s, struct analysis *a, const struct run_hooks *h);

#endif
