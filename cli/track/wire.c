// SPDX-License-Identifier: GPL-2.0-or-later
/* The TCP segments of each iWARP QP, placed in time (see wire.h). */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

void wire_init(struct wire *w, void *ctx, wire_place_fn place)
{
	memset(w, 0, sizeof(*w));
	w->ctx = ctx;
	w->place = place;
}

/* Forget the held segments of entry i (the last entry takes its place). */
static void drop(struct wire *w, int32_t i)
{
	struct wire_held *h = &w->held[i];
	w->total -= h->n;
	free(h->v);
	slotmap_set(&w->by_slot, h->slot, -1);
	if ((uint32_t)i != w->nheld - 1) {
		*h = w->held[w->nheld - 1];
		slotmap_set(&w->by_slot, h->slot, i);
	}
	w->nheld--;
}

/* Hold s for c (its entry i, or -1 for none yet). */
static void hold(struct wire *w, const struct conn *c, int32_t i, const struct conn_seg *s)
{
	if (i < 0) {
		if (w->nheld == w->capheld) {
			uint32_t n = w->capheld ? w->capheld * 2 : 16;
			struct wire_held *v = realloc(w->held, n * sizeof(*v));
			if (!v)
				return; /* (nothing held: nothing is placed wrongly either) */
			w->held = v;
			w->capheld = n;
		}
		if (!slotmap_set(&w->by_slot, c->slot, (int32_t)w->nheld))
			return;
		i = (int32_t)w->nheld++;
		memset(&w->held[i], 0, sizeof(w->held[i]));
		w->held[i].slot = c->slot;
	}
	struct wire_held *h = &w->held[i];
	if (h->n == h->cap && h->cap < WIRE_HELD_PER_CONN && w->total < WIRE_HELD_TOTAL) {
		uint32_t n = h->cap ? h->cap * 2 : 8;
		struct conn_seg *v = realloc(h->v, n * sizeof(*v));
		if (v) {
			h->v = v;
			h->cap = n;
		}
	}
	if (h->n < h->cap && w->total < WIRE_HELD_TOTAL) {
		h->v[h->n++] = *s;
		w->total++;
	} else {
		h->lost_segments++;
		h->lost_bytes += s->wire_len;
	}
}

/* c turned out to carry iWARP: place what entry i held for it. */
static void release(struct wire *w, const struct conn *c, int32_t i)
{
	struct wire_held *h = &w->held[i];
	for (uint32_t k = 0; k < h->n; k++)
		w->place(w->ctx, c, &h->v[k]);
	w->unplaced_segments += h->lost_segments;
	w->unplaced_bytes += h->lost_bytes;
	drop(w, i);
}

void wire_segment(struct wire *w, const struct conn *c, const struct conn_seg *s)
{
	int32_t i = slotmap_get(&w->by_slot, c->slot);
	if (conn_is_iwarp(c)) {
		if (i >= 0)
			release(w, c, i);
		w->place(w->ctx, c, s);
		return;
	}
	if (iws_stream_state(c->eng) == IWS_SST_NOT_IWARP) {
		if (i >= 0)
			drop(w, i);
		return;
	}
	hold(w, c, i, s);
}

void wire_finish(struct wire *w, const struct analysis *a)
{
	/* (release() moves the last entry into i: look at i again) */
	for (uint32_t i = 0; i < w->nheld;) {
		uint32_t slot = w->held[i].slot;
		const struct conn *c = slot < a->nconns ? a->conns[slot] : NULL;
		if (c && conn_is_iwarp(c))
			release(w, c, (int32_t)i);
		else
			i++;
	}
}

void wire_free(struct wire *w)
{
	for (uint32_t i = 0; i < w->nheld; i++)
		free(w->held[i].v);
	free(w->held);
	slotmap_free(&w->by_slot);
	memset(w, 0, sizeof(*w));
}
