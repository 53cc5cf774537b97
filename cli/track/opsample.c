// SPDX-License-Identifier: GPL-2.0-or-later
/* A bounded sample of operations (see opsample.h). */
#include "opsample.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64's finaliser: a well-mixed hash of (qp, id). */
static uint64_t op_hash(const struct op_item *it)
{
	uint64_t x = ((uint64_t)it->c->stream << 40) ^ it->op.id;
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static bool larger_hash(const struct op_item *a, const struct op_item *b)
{
	return op_hash(a) > op_hash(b);
}

/* 2: something went wrong with it; 1: TCP cost it time; 0: neither. */
static int trouble_class(const struct iws_op *op)
{
	if (!op->complete || op->crc_errors || op->type == IWS_OPT_TERMINATE ||
	    (op->flags & IWS_OPF_AFTER_CLOSE))
		return 2;
	return op->retransmissions || op->stall_ns ? 1 : 0;
}

/* Time lost to TCP, counting a retransmission as a millisecond. */
static int64_t trouble_ns(const struct iws_op *op)
{
	return op->stall_ns + (int64_t)op->retransmissions * 1000000;
}

/* a gives way before b: less troubled, or as troubled and later. */
static bool less_troubled(const struct op_item *a, const struct op_item *b)
{
	int ca = trouble_class(&a->op), cb = trouble_class(&b->op);
	if (ca != cb)
		return ca < cb;
	int64_t ta = trouble_ns(&a->op), tb = trouble_ns(&b->op);
	if (ta != tb)
		return ta < tb;
	return op_starts_before(b, a);
}

void opsample_init(struct opsample *s, uint32_t cap)
{
	memset(s, 0, sizeof(*s));
	s->cap = cap;
	s->cap_troubled = cap * 3 / 10;
	uint32_t slow = cap / 20;
	s->cap_slow = slow;
	s->cap_uniform = cap - s->cap_troubled - 2 * slow;
	s->uniform.first = larger_hash;
	s->troubled.first = less_troubled;
	rank_init_by(&s->slow_wait, RANK_WAIT, slow ? slow : 1);
	rank_init_by(&s->slow_delivery, RANK_DELIVERY, slow ? slow : 1);
}

void opsample_add(struct opsample *s, const struct conn *c, const struct iws_op *op)
{
	struct op_item it = { *op, c };
	s->seen++;
	if (!opheap_offer(&s->uniform, &it, s->cap_uniform))
		s->dropped++;
	if (trouble_class(op)) {
		s->troubled_seen++;
		if (!opheap_offer(&s->troubled, &it, s->cap_troubled))
			s->dropped++;
	}
	if (!op->rtr && s->cap_slow) /* (a rank's limit 0 would keep them all) */
		rank_add(op->has_latency ? &s->slow_wait : &s->slow_delivery, c, op);
}

static int cmp_start(const void *a, const void *b)
{
	const struct op_item *x = a, *y = b;
	if (x->c == y->c && x->op.id == y->op.id)
		return 0;
	return op_starts_before(x, y) ? -1 : 1;
}

struct op_item *opsample_collect(struct opsample *s, uint32_t *n)
{
	const struct opheap *parts[] = { &s->uniform, &s->troubled, &s->slow_wait.h,
					 &s->slow_delivery.h };
	size_t total = 0;
	for (int i = 0; i < 4; i++)
		total += parts[i]->n;
	*n = 0;
	struct op_item *v = total ? malloc(total * sizeof(*v)) : NULL;
	if (!v)
		return NULL;
	for (int i = 0; i < 4; i++) {
		if (!parts[i]->n)
			continue; /* (an empty heap may have no array at all) */
		memcpy(v + *n, parts[i]->items, parts[i]->n * sizeof(*v));
		*n += parts[i]->n;
	}
	qsort(v, *n, sizeof(*v), cmp_start);
	/* The same operation from two parts: keep one. */
	uint32_t k = 0;
	for (uint32_t i = 0; i < *n; i++)
		if (!k || v[k - 1].c != v[i].c || v[k - 1].op.id != v[i].op.id)
			v[k++] = v[i];
	*n = k;
	return v;
}

void opsample_free(struct opsample *s)
{
	opheap_free(&s->uniform);
	opheap_free(&s->troubled);
	rank_free(&s->slow_wait);
	rank_free(&s->slow_delivery);
	memset(s, 0, sizeof(*s));
}
