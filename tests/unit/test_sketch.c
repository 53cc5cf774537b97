// SPDX-License-Identifier: GPL-2.0-or-later
/* The mergeable sketch of a latency distribution (issue 17 item 6): bucket
 * walks, merging exact and histogram distributions, the error bound of a
 * merged quantile against the exact union, and refusals. */
#include "check.h"
#include "iwarpscope/stats.h"

struct walk {
	uint32_t b[64];
	uint64_t n[64];
	int k;
};

static bool take(void *ctx, uint32_t b, uint64_t n)
{
	struct walk *w = ctx;
	if (w->k == 64)
		return false;
	w->b[w->k] = b;
	w->n[w->k++] = n;
	return true;
}

/* A pseudo-random latency between 1 us and about 1 s, log-spread. */
static int64_t draw(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	uint64_t r = *s >> 33;
	return (int64_t)(1000 + (r % 1000) * (1ull << (r % 20)));
}

static void check_bound(struct iws_latency *merged, struct iws_latency *exact)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	CHECK_EQ(merged->count, exact->count);
	CHECK_EQ(merged->min, exact->min);
	CHECK_EQ(merged->max, exact->max);
	CHECK_EQ(iws_latency_mean(merged), iws_latency_mean(exact));
	for (int i = 0; i < 4; i++) {
		int64_t m = iws_latency_quantile(merged, qs[i]), e = iws_latency_quantile(exact, qs[i]);
		int64_t d = m > e ? m - e : e - m;
		CHECK(d * (1 << IWS_SKETCH_SUB_BITS) <= e);
	}
}

int main(void)
{
	/* Buckets: one per value below 512, then 256 per power of two. */
	CHECK_EQ(iws_sketch_bucket(-5), 0);
	CHECK_EQ(iws_sketch_bucket(0), 0);
	CHECK_EQ(iws_sketch_bucket(511), 511);
	CHECK_EQ(iws_sketch_bucket(512), 512);
	CHECK_EQ(iws_sketch_bucket(513), 512);
	CHECK_EQ(iws_sketch_bucket(1023), 767);
	CHECK_EQ(iws_sketch_bucket(1024), 768);
	CHECK(iws_sketch_bucket(INT64_MAX) < iws_sketch_nbuckets());

	/* The walk of an exact distribution groups equal buckets, in order. */
	struct iws_latency a, b, u;
	iws_latency_init(&a);
	int64_t v[] = { 1000, 3, 512, 513, 3, 1000000, -7 };
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		iws_latency_add(&a, v[i]);
	struct walk w = { .k = 0 };
	iws_latency_buckets(&a, take, &w);
	CHECK_EQ(w.k, 5);
	CHECK_EQ(w.b[0], 0);
	CHECK_EQ(w.n[0], 1);
	CHECK_EQ(w.b[1], 3);
	CHECK_EQ(w.n[1], 2);
	CHECK_EQ(w.b[2], 512);
	CHECK_EQ(w.n[2], 2);
	CHECK_EQ(w.b[3], iws_sketch_bucket(1000));
	CHECK_EQ(w.b[4], iws_sketch_bucket(1000000));

	/* Exact + exact that fit: still exact, the union's values. */
	iws_latency_init(&b);
	iws_latency_add(&b, 2);
	iws_latency_add(&b, 2000000);
	CHECK(iws_latency_merge(&b, &a));
	CHECK(iws_latency_is_exact(&b));
	CHECK_EQ(b.count, 9);
	CHECK_EQ(b.min, -7);
	CHECK_EQ(b.max, 2000000);
	CHECK_EQ(b.sum, 1000 + 3 + 512 + 513 + 3 + 1000000 - 7 + 2 + 2000000);
	CHECK_EQ(iws_latency_quantile(&b, 0.5), 512);
	iws_latency_free(&b);
	/* Merging an empty distribution changes nothing. */
	iws_latency_init(&b);
	CHECK(iws_latency_merge(&a, &b));
	CHECK_EQ(a.count, 7);
	iws_latency_free(&a);

	/* Several "hosts", each past or under the exact limit: the merge of
	 * their distributions against the exact union. */
	uint64_t seed = 42;
	iws_latency_init(&u);
	struct iws_latency acc;
	iws_latency_init(&acc);
	static const int sizes[] = { 200, 30000, 1, 5000, 16384 };
	for (int h = 0; h < 5; h++) {
		iws_latency_init(&a);
		for (int i = 0; i < sizes[h]; i++) {
			int64_t x = draw(&seed);
			iws_latency_add(&a, x);
			iws_latency_add(&u, x);
		}
		CHECK(iws_latency_merge(&acc, &a));
		iws_latency_free(&a);
	}
	CHECK(!iws_latency_is_exact(&acc));
	/* the union as exact samples, to compare with */
	struct iws_latency ex;
	iws_latency_init(&ex);
	seed = 42;
	ex.samples = malloc(sizeof(int64_t) * 51585);
	ex.cap = 51585;
	for (int h = 0; h < 5; h++)
		for (int i = 0; i < sizes[h]; i++) {
			int64_t x = draw(&seed);
			ex.samples[ex.n_samples++] = x;
			if (!ex.count || x < ex.min)
				ex.min = x;
			if (!ex.count || x > ex.max)
				ex.max = x;
			ex.count++;
			ex.sum += x;
		}
	check_bound(&acc, &ex);
	/* The merge equals the histogram of the union (added in one place). */
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (int i = 0; i < 4; i++)
		CHECK_EQ(iws_latency_quantile(&acc, qs[i]), iws_latency_quantile(&u, qs[i]));

	/* Reading a sketch back: buckets, then the totals. */
	iws_latency_init(&b);
	CHECK(iws_latency_add_bucket(&b, 700, 3));
	CHECK(!iws_latency_is_exact(&b));
	CHECK(!iws_latency_add_bucket(&b, iws_sketch_nbuckets(), 1));
	CHECK(!iws_latency_add_bucket(&b, 700, UINT32_MAX));
	CHECK(iws_latency_add_bucket(&b, 700, UINT32_MAX - 3));
	CHECK(!iws_latency_add_bucket(&b, 700, 1));
	iws_latency_free(&b);

	/* A sum that saturates stays saturated. */
	iws_latency_init(&a);
	iws_latency_init(&b);
	iws_latency_add(&a, INT64_MAX - 1);
	iws_latency_add(&b, INT64_MAX - 1);
	CHECK(iws_latency_merge(&a, &b));
	CHECK_EQ(a.sum, INT64_MAX);
	iws_latency_free(&a);
	iws_latency_free(&b);

	iws_latency_free(&u);
	iws_latency_free(&acc);
	iws_latency_free(&ex);
	return check_done("sketch");
}
