// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ordering stages of the CLI on small hand-made inputs: the watermark
 * (order.c; each connection's pending key is the core's, tested in
 * tests/unit/test_qp.c, oldest_unreported) and the timeline that releases
 * finished operations in start order (timeline.c).
 */
#include "../unit/check.h"
#include "order.h"
#include "timeline.h"

struct wm_ctx {
	bool has[3];
	int64_t ts[3];
	uint64_t fr[3];
};

static bool wm_pending(const void *ctx, uint32_t i, int64_t *ts, uint64_t *frame)
{
	const struct wm_ctx *w = ctx;
	*ts = w->ts[i];
	*frame = w->fr[i];
	return w->has[i];
}

static void test_watermark(void)
{
	struct wm_ctx w = { { false, true, true }, { 0, 500, 500 }, { 0, 7, 6 } };
	int64_t ts;
	uint64_t fr;
	/* Nothing pending: the frame after the current one. */
	order_watermark(1, &w, wm_pending, 900, 12, false, &ts, &fr);
	CHECK(ts == 900 && fr == 13);
	/* The earliest pending key, ties broken by frame. */
	order_watermark(3, &w, wm_pending, 900, 12, false, &ts, &fr);
	CHECK(ts == 500 && fr == 6);
	/* Pending keys later than the current frame do not move it. */
	w.ts[1] = w.ts[2] = 1000;
	order_watermark(3, &w, wm_pending, 900, 12, false, &ts, &fr);
	CHECK(ts == 900 && fr == 13);
	/* At the end only the pending keys count. */
	order_watermark(3, &w, wm_pending, 900, 12, true, &ts, &fr);
	CHECK(ts == 1000 && fr == 6);
	w.has[1] = w.has[2] = false;
	order_watermark(3, &w, wm_pending, 900, 12, true, &ts, &fr);
	CHECK(ts == INT64_MAX);
	CHECK(order_before(1, 9, 2, 1) && order_before(1, 1, 1, 2) && !order_before(1, 2, 1, 2));
}

/* ---- timeline ---- */

struct item {
	int v;
};

static int emitted[64];
static int nemitted;

static void emit(void *ctx, const struct conn *c, const void *item)
{
	(void)ctx;
	(void)c;
	if (nemitted < 64)
		emitted[nemitted++] = ((const struct item *)item)->v;
}

static void add(struct timeline *t, int64_t ts, uint64_t frame, uint32_t qp, uint64_t id, int v)
{
	struct item it = { v };
	timeline_add(t, NULL, &(struct tl_key){ ts, frame, qp, id }, &it);
}

static void test_timeline(void)
{
	struct timeline t;
	timeline_init(&t, 0, sizeof(struct item), NULL, emit);
	nemitted = 0;
	/* Added in the order they finish; released in start order: time,
	 * then frame, then qp, then id. */
	add(&t, 300, 3, 0, 1, 4);
	add(&t, 100, 2, 1, 1, 2);
	add(&t, 100, 1, 5, 9, 1);
	add(&t, 100, 2, 1, 0, 11);
	add(&t, 100, 2, 0, 7, 12);
	add(&t, 200, 9, 0, 2, 3);
	CHECK_EQ(t.n, 6);
	/* Release what starts before (200, 9): not the item at (200, 9). */
	timeline_release(&t, 200, 9);
	CHECK_EQ(nemitted, 4);
	int want1[] = { 1, 12, 11, 2 };
	for (int i = 0; i < 4 && i < nemitted; i++)
		CHECK_EQ(emitted[i], want1[i]);
	timeline_release(&t, 200, 10);
	CHECK_EQ(nemitted, 5);
	CHECK_EQ(emitted[4], 3);
	/* An item older than what was emitted is still emitted, counted. */
	add(&t, 150, 5, 0, 3, 5);
	timeline_flush(&t);
	CHECK_EQ(nemitted, 7);
	CHECK_EQ(emitted[5], 5);
	CHECK_EQ(emitted[6], 4);
	CHECK_EQ(t.out_of_order, 1);
	CHECK_EQ(t.forced, 0);
	CHECK_EQ(t.peak, 6);
	timeline_free(&t);

	/* The cap: beyond max held items the earliest is forced out. */
	timeline_init(&t, 3, sizeof(struct item), NULL, emit);
	nemitted = 0;
	for (int i = 0; i < 2000; i++)
		add(&t, 2000 - i, 1, 0, (uint64_t)i, i);
	CHECK_EQ(t.n, 3);
	CHECK_EQ(t.forced, 1997);
	timeline_flush(&t);
	CHECK_EQ(t.n, 0);
	timeline_free(&t);
}

int main(void)
{
	test_watermark();
	test_timeline();
	return check_done("test_order");
}
