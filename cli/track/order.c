// SPDX-License-Identifier: GPL-2.0-or-later
/* The watermark (see order.h). */
#include "order.h"

void order_watermark(uint32_t n, const void *ctx,
		     bool (*pending)(const void *ctx, uint32_t i, int64_t *ts, uint64_t *frame),
		     int64_t cur_ts, uint64_t cur_frame, bool finished, int64_t *ts, uint64_t *frame)
{
	*ts = finished ? INT64_MAX : cur_ts;
	*frame = cur_frame + 1;
	for (uint32_t i = 0; i < n; i++) {
		int64_t t;
		uint64_t f;
		if (pending(ctx, i, &t, &f) && order_before(t, f, *ts, *frame)) {
			*ts = t;
			*frame = f;
		}
	}
}
