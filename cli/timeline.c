// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations in start order (see timeline.h): a binary min-heap. */
#include "timeline.h"

#include <string.h>

#define DEFAULT_MAX 200000u

void timeline_init(struct timeline *t, uint32_t max, void *ctx,
		   void (*emit)(void *ctx, const struct conn *c, const struct iws_op *op))
{
	memset(t, 0, sizeof(*t));
	t->h.first = op_starts_before;
	t->max = max ? max : DEFAULT_MAX;
	t->ctx = ctx;
	t->emit = emit;
}

static void out(struct timeline *t, const struct tl_item *it)
{
	if (t->any_out && (it->op.start_ns < t->last_ts ||
			   (it->op.start_ns == t->last_ts && it->op.first_frame < t->last_frame)))
		t->out_of_order++;
	t->any_out = true;
	t->last_ts = it->op.start_ns;
	t->last_frame = it->op.first_frame;
	t->emit(t->ctx, it->c, &it->op);
}

static void pop_out(struct timeline *t)
{
	struct tl_item it;
	opheap_pop(&t->h, &it);
	out(t, &it);
}

void timeline_add(struct timeline *t, const struct conn *c, const struct iws_op *op)
{
	struct tl_item it = { *op, c };
	if (!opheap_reserve(&t->h, 0)) {
		/* No room to wait: out of order rather than lost. */
		out(t, &it);
		return;
	}
	opheap_push(&t->h, &it);
	if (t->h.n > t->peak)
		t->peak = t->h.n;
	while (t->h.n > t->max) {
		t->forced++;
		pop_out(t);
	}
}

void timeline_release(struct timeline *t, int64_t ts, uint64_t frame)
{
	const struct tl_item *top;
	while (t->h.n && ((top = &t->h.items[0])->op.start_ns < ts ||
			  (top->op.start_ns == ts && top->op.first_frame < frame)))
		pop_out(t);
}

void timeline_flush(struct timeline *t)
{
	while (t->h.n)
		pop_out(t);
}

void timeline_free(struct timeline *t)
{
	opheap_free(&t->h);
	memset(t, 0, sizeof(*t));
}
