// SPDX-License-Identifier: GPL-2.0-or-later
/* The stderr progress bar (see progress.h). */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Below this a bar would only flicker. */
#define PROGRESS_MIN_BYTES (64u << 20)
#define PROGRESS_INTERVAL_NS 200000000ull
#define BAR_WIDTH 40

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void progress_init(struct progress *p, uint64_t total, bool wanted)
{
	p->active = wanted && total >= PROGRESS_MIN_BYTES && isatty(STDERR_FILENO);
	p->total = total;
	p->last_draw_ns = 0;
	p->last_permille = 1001;
	p->start_ns = p->active ? now_ns() : 0;
}

void progress_update(struct progress *p, uint64_t done)
{
	if (!p->active)
		return;
	uint64_t t = now_ns();
	if (t - p->last_draw_ns < PROGRESS_INTERVAL_NS)
		return;
	p->last_draw_ns = t;
	unsigned permille = (unsigned)(done >= p->total ? 1000 : done * 1000 / p->total);
	if (permille == p->last_permille)
		return;
	p->last_permille = permille;
	char bar[BAR_WIDTH + 1];
	unsigned fill = permille * BAR_WIDTH / 1000;
	for (unsigned i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = 0;
	double secs = (double)(t - p->start_ns) / 1e9;
	double mbps = secs > 0 ? (double)done / secs / 1e6 : 0;
	fprintf(stderr, "\r[%s] %3u.%u%%  %.0f MB/s ", bar, permille / 10, permille % 10, mbps);
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (!p->active)
		return;
	fprintf(stderr, "\r%*s\r", BAR_WIDTH + 24, "");
	fflush(stderr);
	p->active = false;
}
