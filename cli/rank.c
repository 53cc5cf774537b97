// SPDX-License-Identifier: GPL-2.0-or-later
/* The slowest operations (see rank.h). */
#include "rank.h"

#include <stdlib.h>
#include <string.h>

bool rank_time(const struct iws_op *op, int64_t *ns)
{
	if (op->has_latency) {
		*ns = op->latency_ns;
		return true;
	}
	if (op->has_ack) {
		*ns = op->ack_ns;
		return true;
	}
	return false;
}

static int64_t time_of(const struct tl_item *it)
{
	int64_t ns = 0;
	rank_time(&it->op, &ns);
	return ns;
}

/* Is a slower than b? Ties: the earlier start, frame, QP, id first. */
static bool slower(const struct tl_item *a, const struct tl_item *b)
{
	int64_t ta = time_of(a), tb = time_of(b);
	if (ta != tb)
		return ta > tb;
	if (a->op.start_ns != b->op.start_ns)
		return a->op.start_ns < b->op.start_ns;
	if (a->op.first_frame != b->op.first_frame)
		return a->op.first_frame < b->op.first_frame;
	if (a->c->stream != b->c->stream)
		return a->c->stream < b->c->stream;
	return a->op.id < b->op.id;
}

static void swap(struct tl_item *a, struct tl_item *b)
{
	struct tl_item t = *a;
	*a = *b;
	*b = t;
}

/* The heap's root is the fastest kept: the first to give way. */
static void sift_up(struct rank *r, uint32_t i)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!slower(&r->items[p], &r->items[i]))
			break;
		swap(&r->items[p], &r->items[i]);
		i = p;
	}
}

static void sift_down(struct rank *r, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, rt = l + 1, m = i;
		if (l < r->n && slower(&r->items[m], &r->items[l]))
			m = l;
		if (rt < r->n && slower(&r->items[m], &r->items[rt]))
			m = rt;
		if (m == i)
			break;
		swap(&r->items[i], &r->items[m]);
		i = m;
	}
}

void rank_init(struct rank *r, uint32_t limit, int64_t min_ns)
{
	memset(r, 0, sizeof(*r));
	r->limit = limit;
	r->min_ns = min_ns;
}

void rank_add(struct rank *r, const struct conn *c, const struct iws_op *op)
{
	int64_t ns;
	if (!rank_time(op, &ns)) {
		r->unranked++;
		return;
	}
	if (ns < r->min_ns) {
		r->below++;
		return;
	}
	struct tl_item it = { *op, c };
	if (r->limit && r->n == r->limit) {
		if (slower(&it, &r->items[0])) {
			r->items[0] = it;
			sift_down(r, 0);
		}
		return;
	}
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 64;
		if (r->limit && cap > r->limit)
			cap = r->limit;
		struct tl_item *p = realloc(r->items, (size_t)cap * sizeof(*p));
		if (!p) {
			r->dropped++;
			return;
		}
		r->items = p;
		r->cap = cap;
	}
	r->items[r->n] = it;
	sift_up(r, r->n++);
}

static int cmp_slowest(const void *a, const void *b)
{
	const struct tl_item *x = a, *y = b;
	return slower(x, y) ? -1 : slower(y, x) ? 1 : 0;
}

void rank_sort(struct rank *r)
{
	if (r->n)
		qsort(r->items, r->n, sizeof(*r->items), cmp_slowest);
}

void rank_free(struct rank *r)
{
	free(r->items);
	memset(r, 0, sizeof(*r));
}
