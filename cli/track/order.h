// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * order.h - what output in start order needs: for each connection, a ring
 * of the operations in flight (by tracker id: when each started, whether it
 * has been reported), and over all connections the watermark, the earliest
 * (start_ns, first_frame) anything not yet reported can still start at.
 * The timeline (timeline.h) releases what starts before the watermark.
 *
 * Keys compare by time, then frame (docs/semantics.md: operations are
 * listed by start_ns, then first_frame).
 */
#ifndef IWS_CLI_ORDER_H
#define IWS_CLI_ORDER_H

#include <stdbool.h>
#include <stdint.h>

/* Past this many operations between the oldest in flight and the newest,
 * output order is given up for the oldest (it is reported when it ends). */
#define ORDER_RING_MAX (1u << 20)

struct order_ent {
	int64_t start_ns;
	uint64_t frame;
	bool started, done;
};

struct order_ring {
	uint64_t base_id;           /* op id of ents[head] */
	uint32_t head, n, cap;
	uint32_t max;               /* ORDER_RING_MAX unless set (tests) */
	struct order_ent *ents;
};

/* Operation id started (its first FPDU: the earliest frame and time that
 * carried it). Ids below the ring's base were given up: ignored. */
void order_started(struct order_ring *r, uint64_t id, int64_t ts, uint64_t frame);
/* Operation id was reported. */
void order_done(struct order_ring *r, uint64_t id);
/* Drop the reported operations at the head, and the oldest beyond max;
 * returns how many of those were given up unreported. */
uint64_t order_pop(struct order_ring *r);
/* The start of the oldest started and unreported operation (later ones
 * start later, but for timestamps that go backwards: the timeline counts
 * those); false if none. */
bool order_oldest(const struct order_ring *r, int64_t *ts, uint64_t *frame);
/* Operations held (started or not, reported or not, not yet popped). */
static inline uint32_t order_held(const struct order_ring *r)
{
	return r->n;
}
void order_free(struct order_ring *r);

/* (t1, f1) before (t2, f2)? */
static inline bool order_before(int64_t t1, uint64_t f1, int64_t t2, uint64_t f2)
{
	return t1 < t2 || (t1 == t2 && f1 < f2);
}

/* Keep the earlier of (*ts, *frame) (if *any) and (t2, f2) in (*ts, *frame). */
static inline void order_take_min(bool *any, int64_t *ts, uint64_t *frame, int64_t t2, uint64_t f2)
{
	if (!*any || order_before(t2, f2, *ts, *frame)) {
		*ts = t2;
		*frame = f2;
		*any = true;
	}
}

/*
 * The watermark over n connections, given each one's pending key through
 * pending(ctx, i, ...) (false: nothing pending). Nothing not yet read can
 * start before the frame after (cur_ts, cur_frame); at the end of the input
 * (finished) only what is pending counts.
 */
void order_watermark(uint32_t n, const void *ctx,
		     bool (*pending)(const void *ctx, uint32_t i, int64_t *ts, uint64_t *frame),
		     int64_t cur_ts, uint64_t cur_frame, bool finished, int64_t *ts, uint64_t *frame);

#endif
