// SPDX-License-Identifier: GPL-2.0-or-later
/* The ordering ring and the watermark (see order.h). */
#include "order.h"

#include <stdlib.h>
#include <string.h>

/* The entry of id, making room up to it; NULL when it was given up or no
 * memory is left. */
static struct order_ent *slot(struct order_ring *r, uint64_t id)
{
	if (r->n == 0) {
		r->base_id = id;
		r->head = 0;
	}
	if (id < r->base_id)
		return NULL;
	uint64_t rel = id - r->base_id;
	while (rel >= r->n) {
		if (r->n == r->cap) {
			uint32_t cap = r->cap ? r->cap * 2 : 64;
			struct order_ent *e = calloc(cap, sizeof(*e));
			if (!e)
				return NULL;
			for (uint32_t i = 0; i < r->n; i++)
				e[i] = r->ents[(r->head + i) % r->cap];
			free(r->ents);
			r->ents = e;
			r->cap = cap;
			r->head = 0;
		}
		memset(&r->ents[(r->head + r->n) % r->cap], 0, sizeof(struct order_ent));
		r->n++;
	}
	return &r->ents[(r->head + rel) % r->cap];
}

void order_started(struct order_ring *r, uint64_t id, int64_t ts, uint64_t frame)
{
	struct order_ent *e = slot(r, id);
	if (e && !e->started) {
		e->started = true;
		e->start_ns = ts;
		e->frame = frame;
	}
}

void order_done(struct order_ring *r, uint64_t id)
{
	struct order_ent *e = slot(r, id);
	if (e)
		e->done = true;
}

uint64_t order_pop(struct order_ring *r)
{
	uint64_t given_up = 0;
	uint32_t max = r->max ? r->max : ORDER_RING_MAX;
	while (r->n && (r->ents[r->head].done || r->n > max)) {
		if (!r->ents[r->head].done)
			given_up++;
		r->head = (r->head + 1) % r->cap;
		r->n--;
		r->base_id++;
	}
	return given_up;
}

bool order_oldest(const struct order_ring *r, int64_t *ts, uint64_t *frame)
{
	for (uint32_t i = 0; i < r->n; i++) {
		const struct order_ent *e = &r->ents[(r->head + i) % r->cap];
		if (e->started && !e->done) {
			*ts = e->start_ns;
			*frame = e->frame;
			return true;
		}
	}
	return false;
}

void order_free(struct order_ring *r)
{
	uint32_t max = r->max;
	free(r->ents);
	memset(r, 0, sizeof(*r));
	r->max = max;
}

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
