// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency distributions and per-type operation statistics (see stats.h).
 *
 * Histogram mode: values are bucketed log-linearly, 2^HIST_SUB_BITS buckets
 * per power of two, which bounds the relative error of a quantile by
 * 2^-HIST_SUB_BITS. The representative of a bucket is its midpoint, clamped
 * to the exact min and max.
 */
#include "iwarpscope/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HIST_SUB_BITS IWS_SKETCH_SUB_BITS
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_OCTAVES 64
#define HIST_BUCKETS (HIST_SUB + (HIST_OCTAVES - HIST_SUB_BITS) * (HIST_SUB / 2))

static uint32_t bucket_of(uint64_t v)
{
	if (v < HIST_SUB)
		return (uint32_t)v;
	unsigned msb = 63 - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - HIST_SUB_BITS + 1;
	uint32_t sub = (uint32_t)(v >> shift) - HIST_SUB / 2;  /* 256..511 -> 0..255 */
	return HIST_SUB + (shift - 1) * (HIST_SUB / 2) + sub;
}

static void bucket_range(uint32_t b, uint64_t *lo, uint64_t *hi)
{
	if (b < HIST_SUB) {
		*lo = *hi = b;
		return;
	}
	uint32_t k = b - HIST_SUB;
	unsigned shift = k / (HIST_SUB / 2) + 1;
	uint64_t top = (uint64_t)(k % (HIST_SUB / 2) + HIST_SUB / 2);
	*lo = top << shift;
	*hi = ((top + 1) << shift) - 1;
}

void iws_latency_init(struct iws_latency *l)
{
	memset(l, 0, sizeof(*l));
}

void iws_latency_free(struct iws_latency *l)
{
	free(l->samples);
	free(l->hist);
	memset(l, 0, sizeof(*l));
}

bool iws_latency_is_exact(const struct iws_latency *l)
{
	return l->hist == NULL;
}

static bool to_histogram(struct iws_latency *l)
{
	l->hist = calloc(HIST_BUCKETS, sizeof(uint32_t));
	if (!l->hist)
		return false;
	for (uint32_t i = 0; i < l->n_samples; i++)
		l->hist[bucket_of((uint64_t)(l->samples[i] < 0 ? 0 : l->samples[i]))]++;
	free(l->samples);
	l->samples = NULL;
	l->n_samples = l->cap = 0;
	return true;
}

bool iws_latency_add(struct iws_latency *l, int64_t ns)
{
	if (l->count == 0 || ns < l->min)
		l->min = ns;
	if (l->count == 0 || ns > l->max)
		l->max = ns;
	l->count++;
	if (__builtin_add_overflow(l->sum, ns, &l->sum))
		l->sum = ns > 0 ? INT64_MAX : INT64_MIN;

	if (!l->hist && l->n_samples == IWS_LAT_EXACT_MAX && !to_histogram(l))
		return false;
	if (l->hist) {
		l->hist[bucket_of((uint64_t)(ns < 0 ? 0 : ns))]++;
		return true;
	}
	if (l->n_samples == l->cap) {
		/* from 4: most QPs keep a few samples (a QP costs what it uses) */
		uint32_t cap = l->cap ? l->cap * 2 : 4;
		int64_t *s = realloc(l->samples, cap * sizeof(*s));
		if (!s)
			return false;
		l->samples = s;
		l->cap = cap;
	}
	l->samples[l->n_samples++] = ns;
	l->sorted = false;
	return true;
}

int64_t iws_latency_mean(const struct iws_latency *l)
{
	if (!l->count)
		return 0;
	/* Round half away from zero, in integers, so every front end agrees. */
	int64_t c = (int64_t)l->count;
	/* sum / c rounded, without l->sum +- c / 2 (a saturated sum would
	 * overflow): the quotient, plus one when the remainder is at least half. */
	int64_t q = l->sum / c, r = l->sum % c;
	if (r >= 0 ? r >= c - r : -r >= c + r)
		q += r >= 0 ? 1 : -1;
	return q;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

const double iws_ladder_pct[IWS_LADDER_N] = { 1,  5,  10, 20, 30,	 40,   50,   60,   70,
					      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

int64_t iws_latency_quantile(struct iws_latency *l, double q)
{
	if (!l->count)
		return 0;
	if (q <= 0)
		return l->min;
	if (q >= 1)
		return l->max;
	/* Nearest rank: ceil(q * N), 1-based. A small epsilon keeps 0.99 * 200
	 * at rank 198 despite binary floating point. */
	uint64_t rank = (uint64_t)ceil(q * (double)l->count - 1e-9);
	if (rank < 1)
		rank = 1;
	if (!l->hist) {
		if (!l->sorted) {
			qsort(l->samples, l->n_samples, sizeof(int64_t), cmp_i64);
			l->sorted = true;
		}
		if (rank > l->n_samples)
			rank = l->n_samples;
		return l->samples[rank - 1];
	}
	uint64_t seen = 0;
	for (uint32_t b = 0; b < HIST_BUCKETS; b++) {
		seen += l->hist[b];
		if (seen >= rank) {
			uint64_t lo, hi;
			bucket_range(b, &lo, &hi);
			int64_t mid = (int64_t)(lo + (hi - lo) / 2);
			if (mid < l->min)
				mid = l->min;
			if (mid > l->max)
				mid = l->max;
			return mid;
		}
	}
	return l->max;
}

/* ---- the sketch (stats.h) ---- */

uint32_t iws_sketch_nbuckets(void)
{
	return HIST_BUCKETS;
}

uint32_t iws_sketch_bucket(int64_t v)
{
	return bucket_of((uint64_t)(v < 0 ? 0 : v));
}

void iws_latency_buckets(struct iws_latency *l, iws_bucket_fn fn, void *ctx)
{
	if (l->hist) {
		for (uint32_t b = 0; b < HIST_BUCKETS; b++)
			if (l->hist[b] && !fn(ctx, b, l->hist[b]))
				return;
		return;
	}
	if (!l->sorted) {
		qsort(l->samples, l->n_samples, sizeof(int64_t), cmp_i64);
		l->sorted = true;
	}
	for (uint32_t i = 0; i < l->n_samples;) {
		uint32_t b = iws_sketch_bucket(l->samples[i]), k = i + 1;
		while (k < l->n_samples && iws_sketch_bucket(l->samples[k]) == b)
			k++;
		if (!fn(ctx, b, k - i))
			return;
		i = k;
	}
}

bool iws_latency_add_bucket(struct iws_latency *l, uint32_t bucket, uint64_t n)
{
	if (bucket >= HIST_BUCKETS || (!l->hist && !to_histogram(l)))
		return false;
	if (n > UINT32_MAX - l->hist[bucket])
		return false;
	l->hist[bucket] += (uint32_t)n;
	return true;
}

bool iws_latency_merge(struct iws_latency *d, const struct iws_latency *s)
{
	if (!s->count)
		return true;
	bool ok = true;
	if (!d->hist && !s->hist && d->n_samples == d->count && s->n_samples == s->count &&
	    d->n_samples + s->n_samples <= IWS_LAT_EXACT_MAX) {
		uint32_t need = d->n_samples + s->n_samples;
		if (need > d->cap) {
			int64_t *p = realloc(d->samples, need * sizeof(*p));
			if (!p)
				return false;
			d->samples = p;
			d->cap = need;
		}
		memcpy(d->samples + d->n_samples, s->samples, s->n_samples * sizeof(int64_t));
		d->n_samples = need;
		d->sorted = false;
	} else {
		if (!d->hist && !to_histogram(d))
			return false;
		if (s->hist) {
			for (uint32_t b = 0; b < HIST_BUCKETS && ok; b++)
				if (s->hist[b])
					ok = iws_latency_add_bucket(d, b, s->hist[b]);
		} else {
			for (uint32_t i = 0; i < s->n_samples && ok; i++)
				ok = iws_latency_add_bucket(d, iws_sketch_bucket(s->samples[i]), 1);
		}
	}
	if (!d->count || s->min < d->min)
		d->min = s->min;
	if (!d->count || s->max > d->max)
		d->max = s->max;
	d->count += s->count;
	if (__builtin_add_overflow(d->sum, s->sum, &d->sum))
		d->sum = s->sum > 0 ? INT64_MAX : INT64_MIN;
	return ok;
}

void iws_qp_stats_init(struct iws_qp_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void iws_qp_stats_free(struct iws_qp_stats *s)
{
	for (int i = 0; i < IWS_OPT_COUNT; i++) {
		iws_latency_free(&s->op[i].latency);
		iws_latency_free(&s->op[i].delivery);
	}
}

void iws_qp_stats_add(struct iws_qp_stats *s, const struct iws_op *op)
{
	if ((unsigned)op->type >= IWS_OPT_COUNT || (op->rtr && !s->include_rtr))
		return;
	struct iws_op_stats *o = &s->op[op->type];
	o->count++;
	if (op->complete)
		o->complete++;
	o->bytes += op->bytes;
	o->segments += op->segments;
	o->crc_errors += op->crc_errors;
	o->retransmissions += op->retransmissions;
	o->reordered += op->reordered;
	o->stall_ns = op->stall_ns > INT64_MAX - o->stall_ns ? INT64_MAX : o->stall_ns + op->stall_ns;
	/* a start of 0 is not known: it does not open the span */
	if (op->start_ns && (!o->first_ns || op->start_ns < o->first_ns))
		o->first_ns = op->start_ns;
	if (op->end_ns > o->last_ns)
		o->last_ns = op->end_ns;
	if (op->complete && op->has_latency)
		iws_latency_add(&o->latency, op->latency_ns);
	if (op->complete && op->has_ack)
		iws_latency_add(&o->delivery, op->ack_ns);
}
