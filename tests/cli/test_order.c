// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ordering stages of the CLI on small hand-made inputs: the ring of
 * operations in flight and the watermark (order.c), and the timeline that
 * releases finished operations in start order (timeline.c).
 */
#include "../unit/check.h"
#include "order.h"
#include "timeline.h"

static void test_ring(void)
{
	struct order_ring r;
	memset(&r, 0, sizeof(r));
	int64_t ts;
	uint64_t fr;
	CHECK(!order_oldest(&r, &ts, &fr));

	/* Ids start at 5; 6 is reported before 5 (a Write after a Read). */
	order_started(&r, 5, 1000, 10);
	order_started(&r, 6, 2000, 20);
	order_started(&r, 5, 900, 9);          /* a second start is ignored */
	CHECK(order_oldest(&r, &ts, &fr));
	CHECK_EQ(ts, 1000);
	CHECK_EQ(fr, 10);
	CHECK_EQ(order_held(&r), 2);

	/* 6 reported first: 5 still holds the watermark. */
	order_done(&r, 6);
	CHECK_EQ(order_pop(&r), 0);
	CHECK(order_oldest(&r, &ts, &fr) && ts == 1000);
	CHECK_EQ(order_held(&r), 2);
	order_done(&r, 5);
	CHECK_EQ(order_pop(&r), 0);
	CHECK_EQ(order_held(&r), 0);
	CHECK(!order_oldest(&r, &ts, &fr));

	/* An id below the base (already popped) is ignored. */
	order_started(&r, 7, 3000, 30);
	order_done(&r, 4);
	order_started(&r, 3, 1, 1);
	CHECK(order_oldest(&r, &ts, &fr) && ts == 3000 && fr == 30);
	CHECK_EQ(order_held(&r), 1);

	/* Growth past the first allocation (64) keeps every entry in place,
	 * also when the ring has wrapped. */
	for (uint64_t id = 8; id < 8 + 300; id++)
		order_started(&r, id, (int64_t)id * 1000, id * 10);
	order_done(&r, 7);
	order_pop(&r);
	CHECK(order_oldest(&r, &ts, &fr) && ts == 8000 && fr == 80);
	for (uint64_t id = 8; id < 8 + 150; id++)
		order_done(&r, id);
	order_pop(&r);
	for (uint64_t id = 308; id < 308 + 100; id++)
		order_started(&r, id, (int64_t)id * 1000, id * 10);
	CHECK(order_oldest(&r, &ts, &fr) && ts == 158000 && fr == 1580);
	CHECK_EQ(order_held(&r), 250);
	order_free(&r);
	CHECK_EQ(order_held(&r), 0);

	/* The limit: past max entries the oldest unreported is given up. */
	memset(&r, 0, sizeof(r));
	r.max = 4;
	for (uint64_t id = 1; id <= 6; id++)
		order_started(&r, id, (int64_t)id, id);
	CHECK_EQ(order_pop(&r), 2);
	CHECK(order_oldest(&r, &ts, &fr) && ts == 3);
	order_done(&r, 1);                     /* given up already: ignored */
	CHECK_EQ(order_held(&r), 4);
	order_free(&r);
	CHECK_EQ(r.max, 4);
}

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
	test_ring();
	test_watermark();
	test_timeline();
	return check_done("test_order");
}
