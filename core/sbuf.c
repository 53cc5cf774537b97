// SPDX-License-Identifier: GPL-2.0-or-later
/* A buffer with frame marks and holes (see sbuf.h). */
#include "sbuf.h"

#include <stdlib.h>
#include <string.h>

/* Give the storage back (an empty buffer costs nothing: a capture may hold
 * many connections, most of them idle between FPDUs). */
static void release(struct sbuf *b)
{
	uint32_t seq = b->seq;
	sbuf_free(b);
	b->seq = seq;
}

/* The allocation size from which appending more octets to len grows:
 * doubling, from 256 (small at first: most buffers only ever hold a
 * handshake frame). 0 if it cannot be. */
static uint64_t grown_cap(uint32_t cap, uint32_t len, uint32_t more)
{
	uint64_t want = (uint64_t)len + more;
	uint64_t c = cap ? cap : 256;
	while (c < want)
		c *= 2;
	return c > UINT32_MAX ? 0 : c;
}

/* Move the octets to the allocation's start. */
static void compact(struct sbuf *b)
{
	if (!b->head)
		return;
	memmove(b->data - b->head, b->data, b->len);
	b->data -= b->head;
	b->head = 0;
}

static bool reserve(struct sbuf *b, uint32_t more)
{
	if (b->cap - b->head - b->len >= more)
		return true;
	if (b->cap - b->len >= more) {
		compact(b);
		return true;
	}
	uint64_t cap = grown_cap(b->cap, b->len, more);
	if (!cap)
		return false;
	compact(b);
	uint8_t *d = realloc(b->data, (size_t)cap);
	if (!d)
		return false;
	b->data = d;
	b->cap = (uint32_t)cap;
	return true;
}

uint32_t sbuf_growth(const struct sbuf *b, uint32_t n)
{
	if (b->cap - b->len >= n)
		return 0;
	uint64_t cap = grown_cap(b->cap, b->len, n);
	return cap ? (uint32_t)(cap - b->cap) : UINT32_MAX;
}

static void start(struct sbuf *b, uint32_t seq)
{
	if (b->len == 0) {
		b->seq = seq;
		b->nmarks = b->nholes = 0;
	}
}

static void add_mark(struct sbuf *b, uint32_t off, uint64_t frame, int64_t ts, uint8_t how,
		     uint64_t run_frame, int64_t run_ts)
{
	if (b->nmarks) {
		struct smark *l = &b->marks[b->nmarks - 1];
		if (l->frame == frame && l->run_frame == run_frame && l->how == how)
			return;
	}
	if (b->nmarks == b->capmarks) {
		uint32_t cap = b->capmarks ? b->capmarks * 2 : 8;
		struct smark *m = realloc(b->marks, cap * sizeof(*m));
		if (!m)
			return; /* the previous mark keeps covering: frames are approximate */
		b->marks = m;
		b->capmarks = cap;
	}
	b->marks[b->nmarks++] = (struct smark){ off, frame, ts, how, run_frame, run_ts };
}

bool sbuf_append(struct sbuf *b, uint32_t seq, const uint8_t *p, uint32_t n, uint64_t frame,
		 int64_t ts, uint8_t how, uint64_t run_frame, int64_t run_ts)
{
	if (!n)
		return true;
	if (!reserve(b, n))
		return false;
	start(b, seq);
	add_mark(b, b->len, frame, ts, how, run_frame, run_ts);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return true;
}

bool sbuf_append_hole(struct sbuf *b, uint32_t seq, uint32_t n, bool snap)
{
	if (!n)
		return true;
	if (!reserve(b, n))
		return false;
	start(b, seq);
	if (b->nholes && b->holes[b->nholes - 1].off + b->holes[b->nholes - 1].len == b->len &&
	    b->holes[b->nholes - 1].snap == snap) {
		b->holes[b->nholes - 1].len += n;
	} else {
		if (b->nholes == b->capholes) {
			uint32_t cap = b->capholes ? b->capholes * 2 : 4;
			struct shole *h = realloc(b->holes, cap * sizeof(*h));
			if (!h)
				return false;
			b->holes = h;
			b->capholes = cap;
		}
		b->holes[b->nholes++] = (struct shole){ b->len, n, snap };
	}
	memset(b->data + b->len, 0, n);
	b->len += n;
	return true;
}

bool sbuf_reserve(struct sbuf *b, uint32_t n)
{
	return n <= b->len || reserve(b, n - b->len);
}

void sbuf_clear(struct sbuf *b)
{
	release(b);
}

uint64_t sbuf_footprint(const struct sbuf *b)
{
	return (uint64_t)b->cap + (uint64_t)b->capmarks * sizeof(struct smark) +
	       (uint64_t)b->capholes * sizeof(struct shole);
}

void sbuf_consume(struct sbuf *b, uint32_t k)
{
	if (!k)
		return;
	if (k >= b->len) {
		b->seq += b->len;
		release(b);
		return;
	}
	b->data += k;
	b->head += k;
	b->len -= k;
	b->seq += k;
	/* The last mark at or before k covers the new first octet. */
	uint32_t keep = 0;
	for (uint32_t i = 0; i < b->nmarks; i++)
		if (b->marks[i].off <= k)
			keep = i;
	uint32_t j = 0;
	for (uint32_t i = keep; i < b->nmarks; i++, j++) {
		b->marks[j] = b->marks[i];
		b->marks[j].off = b->marks[i].off <= k ? 0 : b->marks[i].off - k;
	}
	b->nmarks = j;
	j = 0;
	for (uint32_t i = 0; i < b->nholes; i++) {
		struct shole h = b->holes[i];
		if (h.off + h.len <= k)
			continue;
		if (h.off < k) {
			h.len -= k - h.off;
			h.off = k;
		}
		h.off -= k;
		b->holes[j++] = h;
	}
	b->nholes = j;
}

void sbuf_free(struct sbuf *b)
{
	free(b->data ? b->data - b->head : NULL);
	free(b->marks);
	free(b->holes);
	memset(b, 0, sizeof(*b));
}

uint32_t sbuf_mark_index(const struct sbuf *b, uint32_t off)
{
	/* The last mark at or before off (marks are sorted; a buffer built
	 * from one-octet segments has one per octet). */
	uint32_t lo = 0, hi = b->nmarks;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->marks[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

const struct smark *sbuf_mark_at(const struct sbuf *b, uint32_t off)
{
	return b->nmarks ? &b->marks[sbuf_mark_index(b, off)] : NULL;
}

uint32_t sbuf_first_hole(const struct sbuf *b, uint32_t off, uint32_t w)
{
	for (uint32_t i = 0; i < b->nholes; i++) {
		const struct shole *h = &b->holes[i];
		if (h->off + h->len <= off)
			continue;
		if (h->off >= off + w)
			break;
		return h->off > off ? h->off - off : 0;
	}
	return w;
}

bool sbuf_snap_hole(const struct sbuf *b, uint32_t off)
{
	for (uint32_t i = 0; i < b->nholes; i++) {
		const struct shole *h = &b->holes[i];
		if (h->off <= off && off < h->off + h->len)
			return h->snap;
	}
	return false;
}
