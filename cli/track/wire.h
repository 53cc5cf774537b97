// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wire.h - the TCP segments of each iWARP QP, placed in time for the
 * consumers that count what crossed the wire (the report's throughput,
 * `stats --interval`'s wire rows): every segment of a connection that
 * carries iWARP, from its first (docs/semantics.md, "Over time").
 *
 * The engine may recognise iWARP only some segments in (a capture that
 * starts mid-stream: it hunts for FPDUs first). The segments read before
 * are held, at most WIRE_HELD_PER_CONN per connection and WIRE_HELD_TOTAL in
 * all, and placed, in their order, before the segment that found the
 * connection to be iWARP; a connection found not to be iWARP drops them.
 * What could not be held is counted (unplaced_*) once its connection turns
 * out to be iWARP, so a picture can say what it lacks.
 */
#ifndef IWS_CLI_WIRE_H
#define IWS_CLI_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "conn.h"
#include "slotmap.h"

#define WIRE_HELD_PER_CONN 256
#define WIRE_HELD_TOTAL 65536

typedef void (*wire_place_fn)(void *ctx, const struct conn *c, const struct conn_seg *s);

struct wire_held {
	uint32_t slot;
	uint32_t n, cap;
	struct conn_seg *v;
	uint64_t lost_segments, lost_bytes; /* beyond the limits */
};

struct wire {
	void *ctx;
	wire_place_fn place;
	struct slotmap by_slot;     /* conn->slot -> index in held */
	struct wire_held *held;
	uint32_t nheld, capheld;
	uint64_t total;             /* segments held now */
	uint64_t unplaced_segments, unplaced_bytes; /* of iWARP QPs, not placed */
};

void wire_init(struct wire *w, void *ctx, wire_place_fn place);
/* A segment of c (conn.h's segment hook): placed now if c is known to
 * carry iWARP, else held or dropped as above. */
void wire_segment(struct wire *w, const struct conn *c, const struct conn_seg *s);
/* The end of the input: connections recognised only as they were finished
 * have their held segments placed. */
void wire_finish(struct wire *w, const struct analysis *a);
void wire_free(struct wire *w);

#endif
