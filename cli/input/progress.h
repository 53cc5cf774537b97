// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * progress.h - a one-line progress bar on stderr while a large capture file
 * is read. Silent unless stderr is a terminal and the input is big enough for
 * a bar to help; never writes to stdout.
 */
#ifndef IWS_CLI_PROGRESS_H
#define IWS_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	bool active;
	uint64_t total;          /* octets to read */
	uint64_t last_draw_ns;
	unsigned last_permille;
	uint64_t start_ns;
};

/* Decide whether to show a bar for `total` octets of input. */
void progress_init(struct progress *p, uint64_t total, bool wanted);
/* Report the current position (cheap: draws at most a few times a second). */
void progress_update(struct progress *p, uint64_t done);
/* Erase the bar. */
void progress_done(struct progress *p);

#endif
