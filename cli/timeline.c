// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations in start order (see timeline.h): a binary min-heap. */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX 200000u

/* Semantics (docs/semantics.md): by start_ns, then first_frame, then qp;
 * within a QP the tracker's start order. */
static bool before(const struct tl_item *a, const struct tl_item *b)
{
	if (a->op.start_ns != b->op.start_ns)
		return a->op.start_ns < b->op.start_ns;
	if (a->op.first_frame != b->op.first_frame)
		return a->op.first_frame < b->op.first_frame;
	if (a->c->stream != b->c->stream)
		return a->c->stream < b->c->stream;
	return a->op.id < b->op.id;
}

void timeline_init(struct timeline *t, uint32_t max, void *ctx,
		   void (*emit)(void *ctx, const struct conn *c, const struct iws_op *op))
{
	memset(t, 0, sizeof(*t));
	t->max = max ? max : DEFAULT_MAX;
	t->ctx = ctx;
	t->emit = emit;
}

static void sift_up(struct timeline *t, uint32_t i)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(&t->heap[i], &t->heap[p]))
			break;
		struct tl_item tmp = t->heap[i];
		t->heap[i] = t->heap[p];
		t->heap[p] = tmp;
		i = p;
	}
}

static void sift_down(struct timeline *t, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < t->n && before(&t->heap[l], &t->heap[m]))
			m = l;
		if (r < t->n && before(&t->heap[r], &t->heap[m]))
			m = r;
		if (m == i)
			break;
		struct tl_item tmp = t->heap[i];
		t->heap[i] = t->heap[m];
		t->heap[m] = tmp;
		i = m;
	}
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
	struct tl_item it = t->heap[0];
	t->heap[0] = t->heap[--t->n];
	if (t->n)
		sift_down(t, 0);
	out(t, &it);
}

void timeline_add(struct timeline *t, const struct conn *c, const struct iws_op *op)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 1024;
		struct tl_item *h = realloc(t->heap, cap * sizeof(*h));
		if (!h) {
			/* No room to wait: out of order rather than lost. */
			struct tl_item it = { *op, c };
			out(t, &it);
			return;
		}
		t->heap = h;
		t->cap = cap;
	}
	t->heap[t->n].op = *op;
	t->heap[t->n].c = c;
	sift_up(t, t->n++);
	if (t->n > t->peak)
		t->peak = t->n;
	while (t->n > t->max) {
		t->forced++;
		pop_out(t);
	}
}

void timeline_release(struct timeline *t, int64_t ts, uint64_t frame)
{
	while (t->n && (t->heap[0].op.start_ns < ts ||
			(t->heap[0].op.start_ns == ts && t->heap[0].op.first_frame < frame)))
		pop_out(t);
}

void timeline_flush(struct timeline *t)
{
	while (t->n)
		pop_out(t);
}

void timeline_free(struct timeline *t)
{
	free(t->heap);
	memset(t, 0, sizeof(*t));
}
