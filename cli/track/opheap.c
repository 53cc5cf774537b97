// SPDX-License-Identifier: GPL-2.0-or-later
/* A binary heap of operations (see opheap.h). */
#include "opheap.h"

#include <stdlib.h>
#include <string.h>

static void swap(struct op_item *a, struct op_item *b)
{
	struct op_item t = *a;
	*a = *b;
	*b = t;
}

static void sift_up(struct opheap *h, uint32_t i)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!h->first(&h->items[i], &h->items[p]))
			break;
		swap(&h->items[i], &h->items[p]);
		i = p;
	}
}

static void sift_down(struct opheap *h, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->first(&h->items[l], &h->items[m]))
			m = l;
		if (r < h->n && h->first(&h->items[r], &h->items[m]))
			m = r;
		if (m == i)
			break;
		swap(&h->items[i], &h->items[m]);
		i = m;
	}
}

bool op_starts_before(const struct op_item *a, const struct op_item *b)
{
	if (a->op.start_ns != b->op.start_ns)
		return a->op.start_ns < b->op.start_ns;
	if (a->op.first_frame != b->op.first_frame)
		return a->op.first_frame < b->op.first_frame;
	if (a->c->stream != b->c->stream)
		return a->c->stream < b->c->stream;
	return a->op.id < b->op.id;
}

bool opheap_reserve(struct opheap *h, uint32_t cap_max)
{
	if (h->n < h->cap)
		return true;
	uint32_t cap = h->cap ? h->cap * 2 : 64;
	if (cap_max && cap > cap_max)
		cap = cap_max;
	if (cap <= h->n)
		return false;
	struct op_item *p = realloc(h->items, (size_t)cap * sizeof(*p));
	if (!p)
		return false;
	h->items = p;
	h->cap = cap;
	return true;
}

void opheap_push(struct opheap *h, const struct op_item *it)
{
	h->items[h->n] = *it;
	sift_up(h, h->n++);
}

bool opheap_offer(struct opheap *h, const struct op_item *it, uint32_t cap)
{
	if (cap && h->n == cap) {
		if (h->first(&h->items[0], it)) {
			h->items[0] = *it;
			sift_down(h, 0);
		}
		return true;
	}
	if (!opheap_reserve(h, cap))
		return false;
	opheap_push(h, it);
	return true;
}

void opheap_free(struct opheap *h)
{
	free(h->items);
	h->items = NULL;
	h->n = h->cap = 0;
}
