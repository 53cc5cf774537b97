// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sketch.h - a distribution's mergeable sketch in the statistics' JSON,
 * and reading it back for `iwarpscope merge`:
 *
 *   "sketch": {"v": 1, "sub_bits": 9, "sum": S, "buckets": [i0, c0, d1, c1, ...]}
 *
 * beside the distribution's count, min and max. buckets lists the nonempty
 * buckets of the log-linear histogram (stats.h) in increasing order as
 * pairs: the first bucket's index and its count, then for each next bucket
 * the difference from the previous index and its count.
 */
#ifndef IWS_CLI_SKETCH_H
#define IWS_CLI_SKETCH_H

#include <stddef.h>

#include "iwarpscope/stats.h"
#include "jsonr.h"
#include "jsonw.h"

/* Writes the "sketch" member of an open latency object. */
void sketch_json(struct jsonw *j, struct iws_latency *l);
/* A latency object ({count, min, max, ..., sketch}) read into an empty
 * distribution (histogram mode). 0, or -1 with a message in err: no sketch,
 * another version or bucket layout, or numbers that do not agree. */
int sketch_read(const struct jr_doc *d, const struct jr_node *lat, struct iws_latency *out,
		char *err, size_t errlen);

#endif
