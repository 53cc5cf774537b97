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

int sketch_read(const struct jr_doc *d, const struct jr_node *lat, struct iws_latency *out,
		char *err, size_t errlen)
{
	uint64_t count, v, sub;
	int64_t min, max, sum;
	iws_latency_init(out);
	if (!lat || lat->type != JR_OBJECT) {
		snprintf(err, errlen, "a distribution is not an object");
		return -1;
	}
	if (!jr_u64(jr_get(d, lat, "count"), &count) || !count ||
	    !jr_i64(jr_get(d, lat, "min"), &min) || !jr_i64(jr_get(d, lat, "max"), &max) ||
	    min > max) {
		snprintf(err, errlen, "a distribution lacks a valid count, min or max");
		return -1;
	}
	const struct jr_node *sk = jr_get(d, lat, "sketch");
	if (!sk || sk->type != JR_OBJECT) {
		snprintf(err, errlen,
			 "a distribution has no sketch (written by an iwarpscope older than merge?)");
		return -1;
	}
	if (!jr_u64(jr_get(d, sk, "v"), &v) || v != IWS_SKETCH_VERSION) {
		char ver[24] = "missing";
		if (jr_u64(jr_get(d, sk, "v"), &v))
			snprintf(ver, sizeof(ver), "%" PRIu64, v);
		snprintf(err, errlen, "incompatible sketch: version %s, this iwarpscope reads version %d",
			 ver, IWS_SKETCH_VERSION);
		return -1;
	}
	if (!jr_u64(jr_get(d, sk, "sub_bits"), &sub) || sub != IWS_SKETCH_SUB_BITS) {
		snprintf(err, errlen,
			 "incompatible sketch: other bucket parameters (sub_bits must be %d)",
			 IWS_SKETCH_SUB_BITS);
		return -1;
	}
	const struct jr_node *bk = jr_get(d, sk, "buckets");
	if (!jr_i64(jr_get(d, sk, "sum"), &sum) || !bk || bk->type != JR_ARRAY || bk->n % 2 ||
	    !bk->n) {
		snprintf(err, errlen, "a sketch lacks a valid sum or bucket list");
		return -1;
	}
	uint64_t idx = 0, total = 0, first = 0;
	struct sum_bounds sb = { 0, 0 };
	const struct jr_node *e = jr_first(d, bk);
	for (uint32_t k = 0; e; k++) {
		uint64_t step, n;
		const struct jr_node *c = jr_next(d, e);
		if (!jr_u64(e, &step) || !jr_u64(c, &n) || !n || (k && !step)) {
			snprintf(err, errlen, "sketch bucket pair %" PRIu32 " is not two positive integers"
				 " (index steps after the first must be above 0)", k);
			goto bad;
		}
		if (step >= iws_sketch_nbuckets() || (idx += step) >= iws_sketch_nbuckets()) {
			snprintf(err, errlen, "sketch bucket %" PRIu32 " is out of range", k);
			goto bad;
		}
		if (n > count - total) {
			snprintf(err, errlen, "sketch buckets hold more than its count");
			goto bad;
		}
		if (!k)
			first = idx;
		total += n;
		bounds_add(&sb, (uint32_t)idx, n, min, max);
		if (!iws_latency_add_bucket(out, (uint32_t)idx, n)) {
			snprintf(err, errlen, "sketch bucket %" PRIu32 " too large (or out of memory)", k);
			goto bad;
		}
		e = jr_next(d, c);
	}
	if (total != count || first != iws_sketch_bucket(min) || idx != iws_sketch_bucket(max)) {
		snprintf(err, errlen, "sketch buckets disagree with the count, min or max");
		goto bad;
	}
	if (!sum_possible(&sb, sum, min)) {
		snprintf(err, errlen, "a sketch's sum (%" PRId64 ") is impossible for its buckets (the "
			 "samples sum to between %" PRId64 " and %" PRId64 ")", sum,
			 sb.lo < INT64_MIN ? INT64_MIN : (int64_t)sb.lo,
			 sb.hi > INT64_MAX ? INT64_MAX : (int64_t)sb.hi);
		goto bad;
	}
	out->count = count;
	out->min = min;
	out->max = max;
	out->sum = sum;
	return 0;
bad:
	iws_latency_free(out);
	return -1;
}
