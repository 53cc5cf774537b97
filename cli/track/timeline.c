// SPDX-License-Identifier: GPL-2.0-or-later
/* Reports in start order (see timeline.h): a binary min-heap of fixed-size
 * elements, each a header (key, connection) followed by the item, with two
 * scratch elements after the last (a swap, the element being emitted). */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX 200000u

struct tl_hdr {
	struct tl_key k;
	const struct conn *c;
};

/* The item after the header, aligned for any of its members. */
#define HDR_SIZE ((sizeof(struct tl_hdr) + 15) & ~(size_t)15)

static struct tl_hdr *el(const struct timeline *t, uint32_t i)
{
	return (struct tl_hdr *)(t->heap + (size_t)i * t->esize);
}

static bool before(const struct tl_hdr *a, const struct tl_hdr *b)
{
	if (a->k.start_ns != b->k.start_ns)
		return a->k.start_ns < b->k.start_ns;
	if (a->k.first_frame != b->k.first_frame)
		return a->k.first_frame < b->k.first_frame;
	if (a->k.qp != b->k.qp)
		return a->k.qp < b->k.qp;
	return a->k.id < b->k.id;
}

void timeline_init(struct timeline *t, uint32_t max, size_t item_size, void *ctx, tl_emit_fn emit)
{
	memset(t, 0, sizeof(*t));
	t->max = max ? max : DEFAULT_MAX;
	t->isize = item_size;
	t->esize = (HDR_SIZE + item_size + 15) & ~(size_t)15;
	t->ctx = ctx;
	t->emit = emit;
}

static void swap(struct timeline *t, uint32_t i, uint32_t j)
{
	void *tmp = el(t, t->cap);
	memcpy(tmp, el(t, i), t->esize);
	memcpy(el(t, i), el(t, j), t->esize);
	memcpy(el(t, j), tmp, t->esize);
}

static void sift_up(struct timeline *t, uint32_t i)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(el(t, i), el(t, p)))
			break;
		swap(t, i, p);
		i = p;
	}
}

static void sift_down(struct timeline *t, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < t->n && before(el(t, l), el(t, m)))
			m = l;
		if (r < t->n && before(el(t, r), el(t, m)))
			m = r;
		if (m == i)
			break;
		swap(t, i, m);
		i = m;
	}
}

static void out(struct timeline *t, const struct tl_key *k, const struct conn *c, const void *item)
{
	if (t->any_out && (k->start_ns < t->last_ts ||
			   (k->start_ns == t->last_ts && k->first_frame < t->last_frame)))
		t->out_of_order++;
	t->any_out = true;
	t->last_ts = k->start_ns;
	t->last_frame = k->first_frame;
	t->emit(t->ctx, c, item);
}

static void pop_out(struct timeline *t)
{
	/* The root goes to the second scratch element (swap() uses the first),
	 * the last element to the root. */
	unsigned char *s = (unsigned char *)el(t, t->cap + 1);
	memcpy(s, el(t, 0), t->esize);
	if (--t->n) {
		memcpy(el(t, 0), el(t, t->n), t->esize);
		sift_down(t, 0);
	}
	const struct tl_hdr *h = (const struct tl_hdr *)s;
	out(t, &h->k, h->c, s + HDR_SIZE);
}

void timeline_add(struct timeline *t, const struct conn *c, const struct tl_key *k, const void *item)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 1024;
		unsigned char *h = realloc(t->heap, ((size_t)cap + 2) * t->esize);
		if (!h) {
			/* No room to wait: out of order rather than lost. */
			out(t, k, c, item);
			return;
		}
		t->heap = h;
		t->cap = cap;
	}
	struct tl_hdr *e = el(t, t->n);
	e->k = *k;
	e->c = c;
	memcpy((unsigned char *)e + HDR_SIZE, item, t->isize);
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
	while (t->n && (el(t, 0)->k.start_ns < ts ||
			(el(t, 0)->k.start_ns == ts && el(t, 0)->k.first_frame < frame)))
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
