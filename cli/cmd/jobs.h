// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobs.h - -j N: the read loop over N analyses on N threads. One reader (the
 * calling thread) reads the source, decodes each frame down to TCP, numbers
 * its conversation (tcp.stream, flows.h: it alone sees every packet) and
 * gives the frame to the analysis its connection hashes to: its own
 * (analysis 0, a smaller share, since reading takes the rest of its time),
 * or a worker thread's, through a bounded single-producer ring (one plain
 * file read in place: where the frame is in the mapped file, no copy; else
 * the frame copied). Both directions, and every conversation on the same
 * addresses and ports, go to the same analysis, so each one's conversation
 * table and connections see exactly the packets one analysis would have
 * given them. Each runs the per-connection pipeline (analysis.h) over its
 * share; at the end analysis_adopt takes their connections and statistics
 * over in stream order, so the report is the one -j 1 writes.
 *
 * Only runs whose results do not depend on the order connections interleave
 * in run here (jobs_possible): the commands that report at the end from
 * per-connection state (stats as tables, doctor). When analysis_adopt cannot
 * vouch for the result (a limit shared by all connections came near, NVMe or
 * RPC statistics on several workers), jobs_read says so and the caller reads
 * the input again with one analysis (docs/performance.md, "-j N").
 */
#ifndef IWS_CLI_JOBS_H
#define IWS_CLI_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "readloop.h"
#include "source.h"

/* The most workers -j takes. */
#define JOBS_MAX 64

struct jobs;

/*
 * Read s to its end (or h->stop_count frames) over n worker analyses set up
 * with *ao, and take what they found over into dst (initialised from the
 * same options, nothing read yet). *jp receives what must outlive the
 * connections (jobs_free after analysis_free(dst)). false: the result may
 * differ from one analysis (or memory ran out): read the input again.
 */
bool jobs_read(struct source *s, struct analysis *dst, const struct analysis_opts *ao,
	       unsigned n, const struct run_hooks *h, struct jobs **jp);
void jobs_free(struct jobs *j);

/* -j 0: the processors online. */
unsigned jobs_online(void);

#endif
