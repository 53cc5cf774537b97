// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency sketches in JSON, written and read back (see sketch.h). */
#include "sketch.h"

#include <inttypes.h>
#include <stdio.h>

struct wctx {
	struct jsonw *j;
	uint32_t prev;
	bool any;
};

static bool put_bucket(void *ctx, uint32_t b, uint64_t n)
{
	struct wctx *w = ctx;
	jw_u64(w->j, w->any ? b - w->prev : b);
	jw_u64(w->j, n);
	w->prev = b;
	w->any = true;
	return true;
}

void sketch_json(struct jsonw *j, struct iws_latency *l)
{
	jw_key(j, "sketch");
	jw_obj(j);
	jw_ku64(j, "v", IWS_SKETCH_VERSION);
	jw_ku64(j, "sub_bits", IWS_SKETCH_SUB_BITS);
	jw_ki64(j, "sum", l->sum);
	jw_key(j, "buckets");
	jw_arr_compact(j);
	struct wctx w = { .j = j };
	iws_latency_buckets(l, put_bucket, &w);
	jw_arr_end(j);
	jw_obj_end(j);
}

/* The least value >= 0 in bucket b or above (INT64_MAX past the last). */
static int64_t bucket_low(uint32_t b)
{
	if (b >= iws_sketch_nbuckets())
		return INT64_MAX;
	int64_t lo = 0, hi = INT64_MAX;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (iws_sketch_bucket(mid) < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Is sum possible for these samples? Each of the n samples of bucket b lies
 * in the bucket's range (bucket 0 also holds values below 0) and within
 * [min, max], so the sum lies between the sums of those bounds. The core
 * saturates a sum at the int64 limits: a saturated sum is possible when the
 * bound passes the limit.
 */
struct sum_bounds {
	__int128 lo, hi;
};

static void bounds_add(struct sum_bounds *sb, uint32_t b, uint64_t n, int64_t min, int64_t max)
{
	int64_t lo = b == 0 ? min : bucket_low(b), hi = bucket_low(b + 1);
	hi = hi == INT64_MAX ? INT64_MAX : hi - 1;
	lo = lo < min ? min : lo;
	hi = hi > max ? max : hi;
	sb->lo += (__int128)lo * n;
	sb->hi += (__int128)hi * n;
}

static bool sum_possible(const struct sum_bounds *sb, int64_t sum, int64_t min)
{
	bool over = sb->hi > INT64_MAX, under = sb->lo < INT64_MIN;
	if ((over || under) && min < 0)
		return true; /* signs mixed past the limits: saturation order-dependent */
	if (over && sum == INT64_MAX)
		return true;
	if (under && sum == INT64_MIN)
		return true;
	return sum >= sb->lo && sum <= sb->hi;
}

/* What a distribution says of itself besides its buckets. */
struct sketch_head {
	uint64_t count;
	int64_t min, max, sum;
};

/* A distribution's fields and its sketch's: count, min, max, sum, the
 * bucket list (*bk). false: err says what is wrong. */
static bool sketch_head(const struct jr_doc *d, const struct jr_node *lat, struct sketch_head *h,
			const struct jr_node **bk, char *err, size_t errlen)
{
	uint64_t v, sub;
	if (!lat || lat->type != JR_OBJECT) {
		snprintf(err, errlen, "a distribution is not an object");
		return false;
	}
	if (!jr_u64(jr_get(d, lat, "count"), &h->count) || !h->count ||
	    !jr_i64(jr_get(d, lat, "min"), &h->min) || !jr_i64(jr_get(d, lat, "max"), &h->max) ||
	    h->min > h->max) {
		snprintf(err, errlen, "a distribution lacks a valid count, min or max");
		return false;
	}
	const struct jr_node *sk = jr_get(d, lat, "sketch");
	if (!sk || sk->type != JR_OBJECT) {
		snprintf(err, errlen,
			 "a distribution has no sketch (written by an iwarpscope older than merge?)");
		return false;
	}
	if (!jr_u64(jr_get(d, sk, "v"), &v) || v != IWS_SKETCH_VERSION) {
		char ver[24] = "missing";
		if (jr_u64(jr_get(d, sk, "v"), &v))
			snprintf(ver, sizeof(ver), "%" PRIu64, v);
		snprintf(err, errlen, "incompatible sketch: version %s, this iwarpscope reads version %d",
			 ver, IWS_SKETCH_VERSION);
		return false;
	}
	if (!jr_u64(jr_get(d, sk, "sub_bits"), &sub) || sub != IWS_SKETCH_SUB_BITS) {
		snprintf(err, errlen,
			 "incompatible sketch: other bucket parameters (sub_bits must be %d)",
			 IWS_SKETCH_SUB_BITS);
		return false;
	}
	*bk = jr_get(d, sk, "buckets");
	if (!jr_i64(jr_get(d, sk, "sum"), &h->sum) || !*bk || (*bk)->type != JR_ARRAY || (*bk)->n % 2 ||
	    !(*bk)->n) {
		snprintf(err, errlen, "a sketch lacks a valid sum or bucket list");
		return false;
	}
	return true;
}

/* The bucket list (index steps and counts) into out, checked against the
 * head h: within range, adding up to its count, from min's bucket to max's,
 * able to sum to its sum. false: err says what is wrong. */
static bool sketch_buckets(const struct jr_doc *d, const struct jr_node *bk, const struct sketch_head *h,
			   struct iws_latency *out, char *err, size_t errlen)
{
	uint64_t idx = 0, total = 0, first = 0;
	struct sum_bounds sb = { 0, 0 };
	const struct jr_node *e = jr_first(d, bk);
	for (uint32_t k = 0; e; k++) {
		uint64_t step, n;
		const struct jr_node *c = jr_next(d, e);
		if (!jr_u64(e, &step) || !jr_u64(c, &n) || !n || (k && !step)) {
			snprintf(err, errlen, "sketch bucket pair %" PRIu32 " is not two positive integers"
				 " (index steps after the first must be above 0)", k);
			return false;
		}
		if (step >= iws_sketch_nbuckets() || (idx += step) >= iws_sketch_nbuckets()) {
			snprintf(err, errlen, "sketch bucket %" PRIu32 " is out of range", k);
			return false;
		}
		if (n > h->count - total) {
			snprintf(err, errlen, "sketch buckets hold more than its count");
			return false;
		}
		if (!k)
			first = idx;
		total += n;
		bounds_add(&sb, (uint32_t)idx, n, h->min, h->max);
		if (!iws_latency_add_bucket(out, (uint32_t)idx, n)) {
			snprintf(err, errlen, "sketch bucket %" PRIu32 " too large (or out of memory)", k);
			return false;
		}
		e = jr_next(d, c);
	}
	if (total != h->count || first != iws_sketch_bucket(h->min) || idx != iws_sketch_bucket(h->max)) {
		snprintf(err, errlen, "sketch buckets disagree with the count, min or max");
		return false;
	}
	if (!sum_possible(&sb, h->sum, h->min)) {
		snprintf(err, errlen, "a sketch's sum (%" PRId64 ") is impossible for its buckets (the "
			 "samples sum to between %" PRId64 " and %" PRId64 ")", h->sum,
			 sb.lo < INT64_MIN ? INT64_MIN : (int64_t)sb.lo,
			 sb.hi > INT64_MAX ? INT64_MAX : (int64_t)sb.hi);
		return false;
	}
	return true;
}

int sketch_read(const struct jr_doc *d, const struct jr_node *lat, struct iws_latency *out,
		char *err, size_t errlen)
{
	struct sketch_head h = { 0, 0, 0, 0 };
	const struct jr_node *bk = NULL;
	iws_latency_init(out);
	if (!sketch_head(d, lat, &h, &bk, err, errlen))
		return -1;
	if (!sketch_buckets(d, bk, &h, out, err, errlen)) {
		iws_latency_free(out);
		return -1;
	}
	out->count = h.count;
	out->min = h.min;
	out->max = h.max;
	out->sum = h.sum;
	return 0;
}
