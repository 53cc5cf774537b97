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

static int64_t time_of(const struct op_item *it)
{
	int64_t ns = 0;
	rank_time(&it->op, &ns);
	return ns;
}

/* Is a slower than b? Ties: in start order. */
static bool slower(const struct op_item *a, const struct op_item *b)
{
	int64_t ta = time_of(a), tb = time_of(b);
	if (ta != tb)
		return ta > tb;
	return op_starts_before(a, b);
}

/* The heap's root is the fastest kept: the first to give way. */
static bool faster(const struct op_item *a, const struct op_item *b)
{
	return slower(b, a);
}

void rank_init(struct rank *r, uint32_t limit, int64_t min_ns)
{
	memset(r, 0, sizeof(*r));
	r->h.first = faster;
	r->limit = limit;
	r->min_ns = min_ns;
}

void rank_add(struct rank *r, const struct conn *c, const struct iws_op *op)
{
	int64_t ns;
	if (r->sorted) {
		r->dropped++;  /* a caller's mistake: counted, not a broken heap */
		return;
	}
	if (!rank_time(op, &ns)) {
		r->unranked++;
		return;
	}
	if (ns < r->min_ns) {
		r->below++;
		return;
	}
	struct op_item it = { *op, c };
	if (!opheap_offer(&r->h, &it, r->limit))
		r->dropped++;
}

static int cmp_slowest(const void *a, const void *b)
{
	const struct op_item *x = a, *y = b;
	return slower(x, y) ? -1 : slower(y, x) ? 1 : 0;
}

void rank_sort(struct rank *r)
{
	if (r->h.n)
		qsort(r->h.items, r->h.n, sizeof(*r->h.items), cmp_slowest);
	r->sorted = true;
}

void rank_free(struct rank *r)
{
	opheap_free(&r->h);
	memset(r, 0, sizeof(*r));
}
