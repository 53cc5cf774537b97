// SPDX-License-Identifier: GPL-2.0-or-later
/* The read loop, offline and live (see readloop.h). */
#include "readloop.h"

#include <signal.h>
#include <string.h>
#include <time.h>


static struct source *volatile live_source;

static void on_signal(int sig)
{
	(void)sig;
	/* source_stop only sets a flag and calls pcap_breakloop, which libpcap
	 * documents as safe in a signal handler. */
	if (live_source)
		source_stop(live_source);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void run_input(struct source *s, struct analysis *a, const struct run_hooks *h)
{
	struct src_packet p;
	bool live = source_is_live(s);
	uint64_t next_report = 0;
	uint32_t n = 0;
	uint64_t packets = 0;
	uint64_t stop_at = 0;

	if (live) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		live_source = s;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		next_report = mono_ms() + 1000ull * h->interval;
		if (h->stop_after_ns)
			stop_at = mono_ms() + (uint64_t)(h->stop_after_ns / 1000000);
	}
	for (;;) {
		int rc = source_next(s, &p);
		if (rc == 0)
			break;
		if (rc == 1) {
			if (h->pts)
				points_admit(h->pts, &p);
			analysis_packet(a, &p);
			packets++;
			/* -c N on files: the first N frames, as tshark -r -c N */
			if (!live && h->stop_count && packets >= h->stop_count)
				break;
			if (h->tick && ++n == RUN_TICK_PACKETS) {
				n = 0;
				h->tick(h->ctx);
			}
		}
		if (live) {
			uint64_t now = mono_ms();
			/* Stop conditions (-c, -a): the report follows as on Ctrl-C. */
			if ((h->stop_count && packets >= h->stop_count) || (stop_at && now >= stop_at) ||
			    (h->stop_filesize && source_saved_bytes(s) >= h->stop_filesize))
				break;
			if (now >= next_report) {
				next_report = now + 1000ull * h->interval;
				if (h->tick)
					h->tick(h->ctx);
				if (h->live)
					h->live(h->ctx);
			}
		}
	}
	if (live) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		live_source = NULL;
	}
}
