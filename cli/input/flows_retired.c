// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The retired conversations (flows_retired.h). A reference is the
 * record's index plus one, with REF_V6 set for an IPv6 record; a slot holds
 * a reference (0: empty) and the record's hash. Removal shifts the records after it back (linear
 * probing needs no tombstones), and the family's last record moves into
 * the hole, so each array stays dense.
 */
#include "flows_retired.h"

#include <stdlib.h>
#include <string.h>

#define REF_V6 0x80000000u
#define FIRST_SLOTS 1024u

void retired_free(struct retired_table *rt)
{
	free(rt->slots);
	free(rt->v4);
	free(rt->v6);
	memset(rt, 0, sizeof(*rt));
}

/* The fields of a record, whichever its family (alen: 4 or 16). */
struct fields {
	uint32_t *hash;
	uint8_t *addr0, *addr1;
	uint16_t *port;
	uint32_t *base_seq;
	uint8_t *flags;
	size_t alen;
};

static struct fields fields_of(const struct retired_table *rt, uint32_t ref)
{
	uint32_t i = (ref & ~REF_V6) - 1;
	if (ref & REF_V6) {
		struct retired6 *r = &rt->v6[i];
		return (struct fields){ &r->hash, r->addr[0], r->addr[1], r->port, r->base_seq,
					&r->flags, 16 };
	}
	struct retired4 *r = &rt->v4[i];
	return (struct fields){ &r->hash, r->addr[0], r->addr[1], r->port, r->base_seq, &r->flags, 4 };
}

static uint32_t hash_of(const struct retired_table *rt, uint32_t ref)
{
	return *fields_of(rt, ref).hash;
}

/* The slot that holds ref. */
static uint32_t slot_of(const struct retired_table *rt, uint32_t ref)
{
	uint32_t i = hash_of(rt, ref) & rt->mask;
	while (rt->slots[i].ref != ref)
		i = (i + 1) & rt->mask;
	return i;
}

static void place(struct retired_table *rt, uint32_t hash, uint32_t ref)
{
	uint32_t i = hash & rt->mask;
	while (rt->slots[i].ref)
		i = (i + 1) & rt->mask;
	rt->slots[i] = (struct retired_slot){ hash, ref };
}

/* Room for one more reference: the slots doubled (and every reference
 * placed again) past 3/4 full. */
static bool slot_room(struct retired_table *rt)
{
	if (rt->slots && (uint64_t)(rt->used + 1) * 4 <= (uint64_t)(rt->mask + 1) * 3)
		return true;
	uint32_t n = rt->slots ? (rt->mask + 1) * 2 : FIRST_SLOTS;
	if (n < FIRST_SLOTS) /* (wrapped: 2^32 slots) */
		return false;
	struct retired_slot *old = rt->slots;
	uint32_t old_n = rt->slots ? rt->mask + 1 : 0;
	if (!(rt->slots = calloc(n, sizeof(*rt->slots)))) {
		rt->slots = old;
		return false;
	}
	rt->mask = n - 1;
	for (uint32_t i = 0; i < old_n; i++)
		if (old[i].ref)
			place(rt, old[i].hash, old[i].ref);
	free(old);
	return true;
}

/* Room for one more record of size sz in *arr (n of cap): grown by half. */
static bool array_room(void **arr, size_t sz, uint32_t n, uint32_t *cap)
{
	if (n < *cap)
		return true;
	uint64_t c = *cap ? (uint64_t)*cap + *cap / 2 : 256;
	if (c >= REF_V6)
		return false;
	void *a = realloc(*arr, (size_t)c * sz);
	if (!a)
		return false;
	*arr = a;
	*cap = (uint32_t)c;
	return true;
}

static uint8_t flags_of(const struct flow *f)
{
	return (uint8_t)((f->base_set[0] ? RETIRED_BASE0 : 0) | (f->base_set[1] ? RETIRED_BASE1 : 0) |
			 (f->limit_skipped ? RETIRED_SKIPPED : 0));
}

bool retired_add(struct retired_table *rt, const struct flow *f)
{
	if (!slot_room(rt))
		return false;
	uint32_t ref;
	if (f->ep[0].af == 4) {
		if (!array_room((void **)&rt->v4, sizeof(*rt->v4), rt->n4, &rt->cap4))
			return false;
		ref = ++rt->n4;
	} else {
		if (!array_room((void **)&rt->v6, sizeof(*rt->v6), rt->n6, &rt->cap6))
			return false;
		ref = ++rt->n6 | REF_V6;
	}
	struct fields r = fields_of(rt, ref);
	*r.hash = f->hash;
	memcpy(r.addr0, f->ep[0].addr, r.alen);
	memcpy(r.addr1, f->ep[1].addr, r.alen);
	for (int k = 0; k < 2; k++) {
		r.port[k] = f->ep[k].port;
		r.base_seq[k] = f->base_seq[k];
	}
	*r.flags = flags_of(f);
	place(rt, f->hash, ref);
	rt->used++;
	return true;
}

/* 0: p goes ep[0] -> ep[1]; 1: the reverse; -1: another conversation. */
static int match(const struct retired_table *rt, uint32_t ref, const struct tcp_pkt *p)
{
	if ((p->af == 6) != !!(ref & REF_V6))
		return -1;
	struct fields r = fields_of(rt, ref);
	if (r.port[0] == p->sport && r.port[1] == p->dport && !memcmp(r.addr0, p->src, r.alen) &&
	    !memcmp(r.addr1, p->dst, r.alen))
		return 0;
	if (r.port[1] == p->sport && r.port[0] == p->dport && !memcmp(r.addr1, p->src, r.alen) &&
	    !memcmp(r.addr0, p->dst, r.alen))
		return 1;
	return -1;
}

uint32_t retired_find(const struct retired_table *rt, uint32_t hash, const struct tcp_pkt *p,
		      int *side)
{
	if (!rt->slots)
		return 0;
	for (uint32_t i = hash & rt->mask; rt->slots[i].ref; i = (i + 1) & rt->mask) {
		uint32_t ref = rt->slots[i].ref;
		if (rt->slots[i].hash == hash && (*side = match(rt, ref, p)) >= 0)
			return ref;
	}
	return 0;
}

void retired_view(const struct retired_table *rt, uint32_t ref, struct flow *f)
{
	struct fields r = fields_of(rt, ref);
	memset(f, 0, sizeof(*f));
	f->stream = UINT32_MAX;
	f->hash = *r.hash;
	for (int k = 0; k < 2; k++) {
		f->ep[k].af = r.alen == 4 ? 4 : 6;
		f->ep[k].port = r.port[k];
		f->base_seq[k] = r.base_seq[k];
	}
	memcpy(f->ep[0].addr, r.addr0, r.alen);
	memcpy(f->ep[1].addr, r.addr1, r.alen);
	f->base_set[0] = *r.flags & RETIRED_BASE0;
	f->base_set[1] = *r.flags & RETIRED_BASE1;
	f->limit_skipped = *r.flags & RETIRED_SKIPPED;
	f->done = true;
}

void retired_note_base(struct retired_table *rt, uint32_t ref, int side, uint32_t seq)
{
	struct fields r = fields_of(rt, ref);
	r.base_seq[side] = seq;
	*r.flags |= side ? RETIRED_BASE1 : RETIRED_BASE0;
}

/* Is slot j's home h outside the cyclic range (hole, j]? Then it may move
 * back into the hole. */
static bool may_move(uint32_t hole, uint32_t j, uint32_t h)
{
	return hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
}

void retired_remove(struct retired_table *rt, uint32_t ref)
{
	uint32_t hole = slot_of(rt, ref);
	rt->slots[hole].ref = 0;
	for (uint32_t j = (hole + 1) & rt->mask; rt->slots[j].ref; j = (j + 1) & rt->mask) {
		if (may_move(hole, j, rt->slots[j].hash & rt->mask)) {
			rt->slots[hole] = rt->slots[j];
			rt->slots[j].ref = 0;
			hole = j;
		}
	}
	rt->used--;
	/* the family's last record into the hole its record left */
	uint32_t i = (ref & ~REF_V6) - 1;
	uint32_t last = ref & REF_V6 ? rt->n6 : rt->n4;
	if (i + 1 != last) {
		uint32_t last_ref = last | (ref & REF_V6);
		rt->slots[slot_of(rt, last_ref)].ref = ref;
		if (ref & REF_V6)
			rt->v6[i] = rt->v6[last - 1];
		else
			rt->v4[i] = rt->v4[last - 1];
	}
	if (ref & REF_V6)
		rt->n6--;
	else
		rt->n4--;
}
