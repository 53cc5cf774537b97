// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * order.h - what output in start order needs over all connections: the
 * watermark, the earliest (start_ns, first_frame) anything not yet reported
 * can still start at. Each connection tells its pending key (conn.h,
 * conn_pending_key: what its engine holds, from the core's
 * iws_stream_pending and iws_stream_oldest_unreported); the timeline
 * (timeline.h) releases what starts before the watermark.
 *
 * Keys compare by time, then frame (docs/semantics.md: operations are
 * listed by start_ns, then first_frame).
 */
#ifndef IWS_CLI_ORDER_H
#define IWS_CLI_ORDER_H

#include <stdbool.h>
#include <stdint.h>

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
