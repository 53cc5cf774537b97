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

/* Sequence numbers compare mod 2^32 (RFC 9293 §3.4). */
static bool seq_after(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

/* The receive window r advertises, and its sender's octets in flight. */
static void window_and_flight(struct tseq *t, struct tseq_rec *r)
{
	int d = r->dir ? 1 : 0;
	if (r->flags & TSEQ_SYN) {
		t->syn_seen[d] = true;
		t->syn_wscale[d] = r->wscale;
	}
	if (r->flags & TSEQ_SYN) {
		r->win = r->raw_win;    /* never scaled (RFC 7323 §2.2) */
		r->flags |= TSEQ_WIN;
	} else if (t->syn_seen[0] && t->syn_seen[1]) {
		int shift = t->syn_wscale[0] >= 0 && t->syn_wscale[1] >= 0 ? t->syn_wscale[d] : 0;
		r->win = (uint32_t)r->raw_win << shift;
		r->flags |= TSEQ_WIN;
	}
	/* the peer's octets this one acknowledges */
	if ((r->flags & TSEQ_ACK) && (!t->has_acked[!d] || seq_after(r->ack, t->acked[!d]))) {
		t->acked[!d] = r->ack;
		t->has_acked[!d] = true;
	}
	uint32_t end = r->seq + r->len + ((r->flags & (TSEQ_SYN | TSEQ_FIN)) ? 1 : 0);
	if (!t->has_end[d] || seq_after(end, t->end[d])) {
		t->end[d] = end;
		t->has_end[d] = true;
	}
	/* as Wireshark's tcp.analysis.bytes_in_flight: the sender's highest
	 * octet sent less the peer's latest acknowledgement, on data segments */
	if (r->len && t->has_acked[d] && !seq_after(t->acked[d], t->end[d])) {
		r->flight = t->end[d] - t->acked[d];
		r->flags |= TSEQ_FLIGHT;
	}
}

void tseq_segment(struct tseq *t, struct tseq_rec *r, bool is_loss, uint64_t *budget)
{
	window_and_flight(t, r);
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
