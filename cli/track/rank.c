// SPDX-License-Identifier: GPL-2.0-or-later
/* The slowest operations and NVMe commands (see rank.h). */
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

bool op_delayed_ack(const struct iws_op *op, int64_t *wait_ns)
{
	if (!op->has_ack)
		return false;
	int64_t wait = op->ack_ns - (op->end_ns - op->start_ns);
	if (wait_ns)
		*wait_ns = wait < 0 ? 0 : wait;
	/* RFC 1122 §4.2.3.2: an ACK may be held (up to 500 ms) for data to
	 * ride on; Linux holds it at least TCP_DELACK_MIN (40 ms). Nothing of
	 * the operation's own waited: the ACK timer is what took the time. */
	return !op->ack_with_data && !op->retransmissions && !op->stall_ns && !op->queued_ns &&
	       wait >= DELAYED_ACK_MIN_NS && wait >= op->ack_ns - wait;
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

void rank_init_by(struct rank *r, enum rank_by by, uint32_t limit)
{
	memset(r, 0, sizeof(*r));
	r->h.first = faster;
	r->by = by;
	r->limit = limit;
}

void rank_init(struct rank *r, uint32_t limit, int64_t min_ns)
{
	rank_init_by(r, RANK_ANY, limit);
	r->min_ns = min_ns;
}

/* Does r's rule rank op? (Its time is then rank_time's.) */
static bool ranks(struct rank *r, const struct iws_op *op)
{
	switch (r->by) {
	case RANK_WAIT:
		return op->has_latency;
	case RANK_DELIVERY:
		if (op->has_latency || !op->has_ack)
			return false;
		if (op_delayed_ack(op, NULL)) {
			r->delayed_ack++;
			return false;
		}
		return true;
	default:
		return op->has_latency || op->has_ack;
	}
}

void rank_add(struct rank *r, const struct conn *c, const struct iws_op *op)
{
	int64_t ns;
	if (r->sorted) {
		r->dropped++;  /* a caller's mistake: counted, not a broken heap */
		return;
	}
	uint64_t delayed = r->delayed_ack;
	if (!ranks(r, op) || !rank_time(op, &ns)) {
		if (r->delayed_ack == delayed)
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
	if (r->sorted)
		return;
	if (r->h.n)
		qsort(r->h.items, r->h.n, sizeof(*r->h.items), cmp_slowest);
	r->sorted = true;
}

void rank_free(struct rank *r)
{
	opheap_free(&r->h);
	memset(r, 0, sizeof(*r));
}

/* ---- NVMe commands ---- */

void nvme_rank_init(struct nvme_rank *r, uint32_t limit)
{
	memset(r, 0, sizeof(*r));
	r->limit = limit;
}

/* Is a slower than b? Ties: the earlier start, then frame, QP, id. */
static bool nvme_slower(const struct iws_nvme_cmd *a, const struct nvme_item *b)
{
	const struct iws_nvme_cmd *y = &b->cmd;
	if (a->latency_ns != y->latency_ns)
		return a->latency_ns > y->latency_ns;
	if (a->start_ns != y->start_ns)
		return a->start_ns < y->start_ns;
	if (a->first_frame != y->first_frame)
		return a->first_frame < y->first_frame;
	if (a->qp != y->qp)
		return a->qp < y->qp;
	return a->id < y->id;
}

void nvme_rank_add(struct nvme_rank *r, const struct conn *c, const struct iws_nvme_cmd *m)
{
	if (!m->complete || !m->has_completion || (m->flags & IWS_NVMEF_NO_COMMAND) || !r->limit)
		return;
	r->ranked++;
	if (!r->v && !(r->v = malloc(r->limit * sizeof(*r->v))))
		return;
	/* insertion into the short list, slowest first */
	uint32_t i = r->n < r->limit ? r->n++ : r->limit;
	while (i > 0 && nvme_slower(m, &r->v[i - 1])) {
		if (i < r->limit)
			r->v[i] = r->v[i - 1];
		i--;
	}
	if (i < r->limit)
		r->v[i] = (struct nvme_item){ *m, c };
}

void nvme_rank_free(struct nvme_rank *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* ---- the summary's and the report's lists ---- */

void slowest_init(struct slowest *s, uint32_t limit)
{
	rank_init_by(&s->wait, RANK_WAIT, limit);
	rank_init_by(&s->delivery, RANK_DELIVERY, limit);
	nvme_rank_init(&s->nvme, limit);
}

void slowest_op(struct slowest *s, const struct conn *c, const struct iws_op *op)
{
	if (op->rtr)
		return;
	if (op->has_latency)
		rank_add(&s->wait, c, op);
	else
		rank_add(&s->delivery, c, op);
}

void slowest_nvme(struct slowest *s, const struct conn *c, const struct iws_nvme_cmd *m)
{
	nvme_rank_add(&s->nvme, c, m);
}

uint32_t slowest_waits(struct slowest *s, struct wait_item *v, uint32_t max)
{
	rank_sort(&s->wait);
	uint32_t i = 0, k = 0, n = 0;
	while (n < max && (i < s->wait.h.n || k < s->nvme.n)) {
		const struct op_item *o = i < s->wait.h.n ? &s->wait.h.items[i] : NULL;
		const struct nvme_item *m = k < s->nvme.n ? &s->nvme.v[k] : NULL;
		/* ties: the earlier start first */
		bool take_op = o && (!m || o->op.latency_ns > m->cmd.latency_ns ||
				     (o->op.latency_ns == m->cmd.latency_ns &&
				      o->op.start_ns <= m->cmd.start_ns));
		if (take_op) {
			v[n++] = (struct wait_item){ o, NULL, o->op.latency_ns };
			i++;
		} else {
			v[n++] = (struct wait_item){ NULL, m, m->cmd.latency_ns };
			k++;
		}
	}
	return n;
}

const struct op_item *slowest_deliveries(struct slowest *s, uint32_t *n)
{
	rank_sort(&s->delivery);
	*n = s->delivery.h.n;
	return s->delivery.h.items;
}

void slowest_free(struct slowest *s)
{
	rank_free(&s->wait);
	rank_free(&s->delivery);
	nvme_rank_free(&s->nvme);
}
