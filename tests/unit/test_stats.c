// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency statistics: nearest-rank quantiles, rounding, the switch to the
 * histogram and its error bound. */
#include "check.h"
#include "iwarpscope/stats.h"

int main(void)
{
	struct iws_latency l;
	iws_latency_init(&l);
	CHECK_EQ(iws_latency_quantile(&l, 0.5), 0);
	CHECK_EQ(iws_latency_mean(&l), 0);

	/* 1..200 in a scrambled order: p50 = 100, p90 = 180, p99 = 198,
	 * p99.9 = 200 (ceil(199.8)), mean 100.5 -> 101. */
	for (int i = 0; i < 200; i++)
		iws_latency_add(&l, (int64_t)((i * 37) % 200 + 1));
	CHECK_EQ(l.count, 200);
	CHECK_EQ(l.min, 1);
	CHECK_EQ(l.max, 200);
	CHECK_EQ(iws_latency_quantile(&l, 0.5), 100);
	CHECK_EQ(iws_latency_quantile(&l, 0.9), 180);
	CHECK_EQ(iws_latency_quantile(&l, 0.99), 198);
	CHECK_EQ(iws_latency_quantile(&l, 0.999), 200);
	CHECK_EQ(iws_latency_quantile(&l, 1.0), 200);
	CHECK_EQ(iws_latency_mean(&l), 101);
	CHECK(iws_latency_is_exact(&l));
	iws_latency_free(&l);

	/* One sample. */
	iws_latency_init(&l);
	iws_latency_add(&l, 41000);
	CHECK_EQ(iws_latency_quantile(&l, 0.5), 41000);
	CHECK_EQ(iws_latency_quantile(&l, 0.999), 41000);
	iws_latency_free(&l);

	/* Past the exact limit: histogram, bounded error, exact min/max/mean. */
	iws_latency_init(&l);
	uint64_t n = 100000;
	for (uint64_t i = 1; i <= n; i++)
		iws_latency_add(&l, (int64_t)(i * 1000));
	CHECK(!iws_latency_is_exact(&l));
	CHECK_EQ(l.min, 1000);
	CHECK_EQ(l.max, 100000000);
	CHECK_EQ(iws_latency_mean(&l), 50000500);
	int64_t p50 = iws_latency_quantile(&l, 0.5);
	int64_t p99 = iws_latency_quantile(&l, 0.99);
	CHECK(llabs(p50 - 50000000) <= 50000000 / 512 + 1);
	CHECK(llabs(p99 - 99000000) <= 99000000 / 512 + 1);
	CHECK_EQ(iws_latency_quantile(&l, 1.0), 100000000);
	iws_latency_free(&l);

	/* Hostile times (clamped to 2^62 ns): the sum saturates, the mean must
	 * not overflow; rounding is half away from zero on both sides. */
	iws_latency_init(&l);
	for (int i = 0; i < 3; i++)
		iws_latency_add(&l, (int64_t)1 << 62);
	CHECK_EQ(l.sum, INT64_MAX);
	CHECK_EQ(iws_latency_mean(&l), INT64_MAX / 3);  /* remainder 1 of 3 */
	iws_latency_free(&l);
	iws_latency_init(&l);
	for (int i = 0; i < 3; i++)
		iws_latency_add(&l, -((int64_t)1 << 62));
	CHECK_EQ(l.sum, INT64_MIN);
	CHECK_EQ(iws_latency_mean(&l), INT64_MIN / 3 - 1);  /* remainder -2 of 3 */
	iws_latency_free(&l);
	iws_latency_init(&l);
	iws_latency_add(&l, -3);
	iws_latency_add(&l, -4);
	CHECK_EQ(iws_latency_mean(&l), -4);  /* -3.5 */
	iws_latency_add(&l, -4);
	CHECK_EQ(iws_latency_mean(&l), -4);  /* -3.67 */
	iws_latency_free(&l);

	/* Per-type statistics take only complete operations' latencies. */
	struct iws_qp_stats s;
	iws_qp_stats_init(&s);
	struct iws_op op = { 0 };
	op.type = IWS_OPT_READ;
	op.bytes = 4096;
	op.segments = 4;
	op.has_latency = true;
	op.latency_ns = 5000;
	op.complete = true;
	iws_qp_stats_add(&s, &op);
	op.complete = false;
	op.latency_ns = 999999;
	iws_qp_stats_add(&s, &op);
	CHECK_EQ(s.op[IWS_OPT_READ].count, 2);
	CHECK_EQ(s.op[IWS_OPT_READ].complete, 1);
	CHECK_EQ(s.op[IWS_OPT_READ].bytes, 8192);
	CHECK_EQ(s.op[IWS_OPT_READ].latency.count, 1);
	CHECK_EQ(s.op[IWS_OPT_READ].latency.max, 5000);
	iws_qp_stats_free(&s);
	return check_done("test_stats");
}
