// SPDX-License-Identifier: GPL-2.0-or-later
/* A QP's TCP segments around its losses (see tseq.h). */
#include "tseq.h"

#include <stdlib.h>
#include <string.h>

/* Keep r if the limits allow (budget: what every QP may still keep). */
static void keep(struct tseq *t, const struct tseq_rec *r, uint64_t *budget)
{
	if (t->nkept >= TSEQ_MAX_KEPT || !*budget) {
		t->left_out++;
		return;
	}
	if (t->nkept == t->capkept) {
		uint32_t n = t->capkept ? t->capkept * 2 : 256;
		struct tseq_rec *v = realloc(t->kept, n * sizeof(*v));
		if (!v) {
			t->oom++;
			return;
		}
		t->kept = v;
		t->capkept = n;
	}
	t->kept[t->nkept++] = *r;
	(*budget)--;
}

/* A loss: keep what the ring holds, oldest first, and what follows. */
static void loss(struct tseq *t, uint64_t *budget)
{
	t->losses++;
	uint32_t first = (t->ring_at + TSEQ_RING - t->ring_n) % TSEQ_RING;
	for (uint32_t i = 0; i < t->ring_n; i++)
		keep(t, &t->ring[(first + i) % TSEQ_RING], budget);
	t->ring_n = 0;
	t->after = TSEQ_AFTER;
}

void tseq_segment(struct tseq *t, const struct tseq_rec *r, bool is_loss, uint64_t *budget)
{
	if (!t->ring && !(t->ring = malloc(TSEQ_RING * sizeof(*t->ring)))) {
		t->oom++;
		return;
	}
	int d = r->dir ? 1 : 0;
	if (!t->has_base[d] && (r->len || (r->flags & TSEQ_SYN))) {
		t->has_base[d] = true;
		t->base[d] = r->seq;
	}
	if (is_loss)
		loss(t, budget);
	if (t->after) {
		t->after--;
		keep(t, r, budget);
		return;
	}
	t->ring[t->ring_at] = *r;
	t->ring_at = (t->ring_at + 1) % TSEQ_RING;
	if (t->ring_n < TSEQ_RING)
		t->ring_n++;
}

void tseq_loss(struct tseq *t, uint64_t *budget)
{
	if (t->ring)
		loss(t, budget);
}

void tseq_free(struct tseq *t)
{
	free(t->ring);
	free(t->kept);
	memset(t, 0, sizeof(*t));
}
