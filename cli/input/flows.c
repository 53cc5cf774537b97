// SPDX-License-Identifier: GPL-2.0-or-later
/* The TCP conversation table (see flows.h): a chained hash table keyed by the
 * unordered pair of endpoints, and the conversations retired from it in
 * compact form (flows_retired.c), looked up after it. */
#include "flows.h"

#include "flows_retired.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define INITIAL_BUCKETS 1024u

bool flow_table_init(struct flow_table *t)
{
	memset(t, 0, sizeof(*t));
	/* A per-run seed: the hash is not cryptographic, but without knowing
	 * the seed a capture cannot be crafted to put every conversation in
	 * one chain. Nothing printed depends on it. */
	if (getrandom(&t->seed, sizeof(t->seed), GRND_NONBLOCK) != (ssize_t)sizeof(t->seed))
		t->seed = (uint32_t)time(NULL) ^ (uint32_t)getpid() ^ (uint32_t)(uintptr_t)t;
	t->nbuckets = INITIAL_BUCKETS;
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	return t->buckets != NULL;
}

void flow_table_free(struct flow_table *t)
{
	for (uint32_t i = 0; i < t->nbuckets; i++) {
		for (struct flow *f = t->buckets[i], *n; f; f = n) {
			n = f->hnext;
			free(f);
		}
	}
	free(t->buckets);
	if (t->retired)
		retired_free(t->retired);
	free(t->retired);
	memset(t, 0, sizeof(*t));
}

void flow_release(struct flow *f)
{
	free(f);
}

static uint32_t mix(uint32_t h, const uint8_t *p, size_t n)
{
	/* FNV-1a: short keys, good enough spread, no alignment concerns. */
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* Symmetric in the two endpoints, so both directions land in one bucket. */
static uint32_t flow_hash(const struct flow_table *t, const struct tcp_pkt *p)
{
	size_t alen = p->af == 4 ? 4 : 16;
	uint32_t a = mix(2166136261u ^ t->seed, p->src, alen);
	a = mix(a, (const uint8_t *)&p->sport, 2);
	uint32_t b = mix(2166136261u ^ t->seed, p->dst, alen);
	b = mix(b, (const uint8_t *)&p->dport, 2);
	uint32_t h = a ^ b;
	return h ^ (h >> 15) ^ p->af;
}

static bool ep_eq(const struct endpoint *e, uint8_t af, const uint8_t *addr, uint16_t port)
{
	return e->af == af && e->port == port && memcmp(e->addr, addr, af == 4 ? 4 : 16) == 0;
}

/* 0: p goes ep[0] -> ep[1]; 1: the reverse; -1: another conversation. */
static int match(const struct flow *f, const struct tcp_pkt *p)
{
	if (ep_eq(&f->ep[0], p->af, p->src, p->sport) && ep_eq(&f->ep[1], p->af, p->dst, p->dport))
		return 0;
	if (ep_eq(&f->ep[1], p->af, p->src, p->sport) && ep_eq(&f->ep[0], p->af, p->dst, p->dport))
		return 1;
	return -1;
}

static void grow(struct flow_table *t)
{
	uint32_t nb = t->nbuckets * 2;
	struct flow **b = calloc(nb, sizeof(*b));
	if (!b)
		return; /* keep the longer chains */
	for (uint32_t i = 0; i < t->nbuckets; i++) {
		for (struct flow *f = t->buckets[i], *n; f; f = n) {
			n = f->hnext;
			f->hnext = b[f->hash & (nb - 1)];
			b[f->hash & (nb - 1)] = f;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = nb;
}

static struct flow *create(struct flow_table *t, const struct tcp_pkt *p, uint32_t h)
{
	struct flow *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->stream = t->next_stream++;
	f->hash = h;
	f->ep[0].af = f->ep[1].af = p->af;
	memcpy(f->ep[0].addr, p->src, 16);
	memcpy(f->ep[1].addr, p->dst, 16);
	f->ep[0].port = p->sport;
	f->ep[1].port = p->dport;
	return f;
}

/* packet-tcp.c records a direction's base sequence number on its first
 * segment: the SYN's own number, else one less than the segment's. */
static void note_base(struct flow *f, int side, const struct tcp_pkt *p)
{
	if (f->base_set[side])
		return;
	f->base_set[side] = true;
	f->base_seq[side] = (p->flags & IWS_TCP_SYN) ? p->seq : p->seq - 1;
}

/* Where the conversation of p is chained (its link), or the end of its
 * chain; *side as flow_lookup's. */
static struct flow **find_slot(const struct flow_table *t, const struct tcp_pkt *p, uint32_t h,
			       int *side)
{
	struct flow **pp = &t->buckets[h & (t->nbuckets - 1)];
	for (; *pp; pp = &(*pp)->hnext) {
		if ((*pp)->hash != h)
			continue;
		if ((*side = match(*pp, p)) >= 0)
			break;
	}
	return pp;
}

/* packet-tcp.c: a SYN without ACK whose sequence number is not the base
 * already recorded for its direction starts a new conversation. */
static bool reuses(const struct flow *f, int s, const struct tcp_pkt *p)
{
	bool syn_only = (p->flags & (IWS_TCP_SYN | IWS_TCP_ACK)) == IWS_TCP_SYN;
	return syn_only && f->base_set[s] && p->seq != f->base_seq[s];
}

/* The retired conversation of p, as the table's view, or NULL. */
static struct flow *find_retired(struct flow_table *t, const struct tcp_pkt *p, uint32_t h,
				 int *side, uint32_t *ref)
{
	*ref = t->retired ? retired_find(t->retired, h, p, side) : 0;
	if (!*ref)
		return NULL;
	retired_view(t->retired, *ref, &t->view);
	return &t->view;
}

struct flow *flow_find(struct flow_table *t, const struct tcp_pkt *p, int *side, bool *reused)
{
	uint32_t h = flow_hash(t, p), ref;
	struct flow *f = *find_slot(t, p, h, side);
	if (!f)
		f = find_retired(t, p, h, side, &ref);
	*reused = f && reuses(f, *side, p);
	return f;
}

void flow_retire(struct flow_table *t, struct flow *f)
{
	if (f == &t->view || f->user || !f->done)
		return;
	struct flow **pp = &t->buckets[f->hash & (t->nbuckets - 1)];
	while (*pp && *pp != f)
		pp = &(*pp)->hnext;
	if (!*pp)
		return;
	if (!t->retired && !(t->retired = calloc(1, sizeof(*t->retired))))
		return;
	if (!retired_add(t->retired, f))
		return;
	*pp = f->hnext;
	t->nflows--;
	free(f);
}

struct flow *flow_lookup(struct flow_table *t, const struct tcp_pkt *p, int *side,
			 enum flow_event *ev, struct flow **old)
{
	uint32_t h = flow_hash(t, p);
	struct flow **slot = &t->buckets[h & (t->nbuckets - 1)];
	*old = NULL;
	int s = 0;
	struct flow **pp = find_slot(t, p, h, &s);
	if (*pp) {
		struct flow *f = *pp;
		if (reuses(f, s, p)) {
			/* Ports reused: a new conversation takes the old one's place. */
			struct flow *n = create(t, p, h);
			if (!n)
				return NULL;
			n->hnext = f->hnext;
			*pp = n;
			f->hnext = NULL;
			*old = f;
			*ev = FLOW_REUSED;
			*side = 0;
			note_base(n, 0, p);
			return n;
		}
		*ev = FLOW_EXISTING;
		*side = s;
		note_base(f, s, p);
		return f;
	}
	uint32_t ref;
	struct flow *r = find_retired(t, p, h, &s, &ref);
	if (r && !reuses(r, s, p)) {
		*ev = FLOW_EXISTING;
		*side = s;
		if (!r->base_set[s]) {
			note_base(r, s, p);
			retired_note_base(t->retired, ref, s, r->base_seq[s]);
		}
		return r;
	}
	struct flow *f = create(t, p, h);
	if (!f)
		return NULL;
	if (r)
		retired_remove(t->retired, ref); /* ports reused: a new conversation */
	f->hnext = *slot;
	*slot = f;
	t->nflows++;
	if (t->nflows > t->nbuckets)
		grow(t);
	*ev = r ? FLOW_REUSED : FLOW_NEW;
	*side = 0;
	note_base(f, 0, p);
	return f;
}

const char *endpoint_str(const struct endpoint *e, char *buf)
{
	if (e->af == 4) {
		snprintf(buf, 64, "%u.%u.%u.%u:%u", e->addr[0], e->addr[1], e->addr[2], e->addr[3],
			 e->port);
		return buf;
	}
	/* RFC 5952: lower case, the longest run (of two or more) of zero
	 * groups compressed, the first such run on a tie. */
	uint16_t w[8];
	for (int i = 0; i < 8; i++)
		w[i] = (uint16_t)(e->addr[2 * i] << 8 | e->addr[2 * i + 1]);
	int best = -1, bestlen = 0;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && w[j] == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	if (bestlen < 2)
		best = -1;
	char *q = buf;
	*q++ = '[';
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			*q++ = ':';
			*q++ = ':';
			i += bestlen - 1;
			continue;
		}
		if (i && i != best + bestlen)
			*q++ = ':';
		q += sprintf(q, "%x", w[i]);
	}
	sprintf(q, "]:%u", e->port);
	return buf;
}
