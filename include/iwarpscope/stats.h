// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.h - per-operation-type counters and latency distributions, shared by
 * the CLI's `stats`/`summary` and the plugin's `-z iwarp,ops` so both print
 * the same numbers for the same capture.
 *
 * Quantiles use the nearest-rank definition: the q-quantile of N sorted
 * samples is sample number ceil(q * N) (1-based). Up to IWS_LAT_EXACT_MAX
 * samples are kept exactly; past that the distribution moves into a
 * log-linear histogram (relative error below 1/512), so memory stays bounded
 * however long the capture is. min, max and mean are always exact.
 */
#ifndef IWARPSCOPE_STATS_H
#define IWARPSCOPE_STATS_H

#include "qp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_LAT_EXACT_MAX 16384

struct iws_latency {
	uint64_t count;
	int64_t min, max;
	int64_t sum;                /* saturating */
	int64_t *samples;           /* exact mode */
	uint32_t n_samples, cap;
	bool sorted;
	uint32_t *hist;             /* histogram mode (NULL while exact) */
};

/* fio's completion-latency percentile ladder (its default percentile list),
 * in percent: 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
 * 99.95, 99.99. Each is iws_latency_quantile(l, pct / 100): the nearest rank
 * over the samples (exact up to IWS_LAT_EXACT_MAX of them), where fio reports
 * the bin its own histogram puts the value in (docs/semantics.md). */
#define IWS_LADDER_N 17
extern const double iws_ladder_pct[IWS_LADDER_N];

void iws_latency_init(struct iws_latency *l);
void iws_latency_free(struct iws_latency *l);
/* false on allocation failure (the sample still counts in min/max/mean). */
bool iws_latency_add(struct iws_latency *l, int64_t ns);
/* Mean rounded to the nearest ns; 0 when empty. */
int64_t iws_latency_mean(const struct iws_latency *l);
/* Nearest-rank quantile, q in (0,1]; 0 when empty. Sorts lazily. */
int64_t iws_latency_quantile(struct iws_latency *l, double q);
bool iws_latency_is_exact(const struct iws_latency *l);

/*
 * The mergeable sketch of a distribution: the log-linear
 * histogram, 2^IWS_SKETCH_SUB_BITS buckets per power of two (values below
 * 2^IWS_SKETCH_SUB_BITS have a bucket each), plus the exact count, sum, min
 * and max. Merging sketches adds bucket counts, so a quantile of merged
 * sketches is the quantile of the union of their samples within the
 * histogram's bound: |estimate - exact| <= exact / 2^IWS_SKETCH_SUB_BITS.
 * Negative values (time running backwards) fall into bucket 0. A version
 * change means different buckets: merge refuses to mix versions.
 */
#define IWS_SKETCH_VERSION 1
#define IWS_SKETCH_SUB_BITS 9
/* Number of buckets (indices 0 .. n-1). */
uint32_t iws_sketch_nbuckets(void);
/* The bucket a value falls in. */
uint32_t iws_sketch_bucket(int64_t v);
/* Visit the nonempty buckets in increasing order (exact samples are
 * bucketed on the fly); a callback returning false stops the walk. */
typedef bool (*iws_bucket_fn)(void *ctx, uint32_t bucket, uint64_t count);
void iws_latency_buckets(struct iws_latency *l, iws_bucket_fn fn, void *ctx);
/* Add n samples to a bucket, the distribution turning into a histogram
 * (reading a sketch back). Only the bucket counts: count, sum, min and max
 * are the caller's. false: bucket out of range, a bucket count past 2^32-1,
 * or no memory. */
bool iws_latency_add_bucket(struct iws_latency *l, uint32_t bucket, uint64_t n);
/* dst += src: exact while both are and the union fits IWS_LAT_EXACT_MAX,
 * else a histogram. false on no memory or a bucket count past 2^32-1 (dst
 * is then unusable but safe to free). */
bool iws_latency_merge(struct iws_latency *dst, const struct iws_latency *src);

struct iws_op_stats {
	uint64_t count;             /* operations of this type */
	uint64_t complete;          /* of which complete */
	uint64_t bytes;
	uint64_t segments;
	uint64_t crc_errors;
	uint64_t retransmissions;   /* summed over the operations */
	uint64_t reordered;         /* summed: reordered segments (not retransmissions) */
	int64_t stall_ns;           /* summed (saturating) */
	/* The span a rate of these operations is over (docs/semantics.md,
	 * Statistics): the earliest start and the latest end among them, 0
	 * while none has a start. A total (every QP's operations of a type)
	 * so gets the type's own span, not the capture's. */
	int64_t first_ns, last_ns;
	struct iws_latency latency; /* complete operations that have a latency */
	struct iws_latency delivery;/* ack_ns of complete operations with a covering ACK */
};

struct iws_qp_stats {
	struct iws_op_stats op[IWS_OPT_COUNT];
	bool include_rtr;           /* count RTR messages (left out by default) */
};

void iws_qp_stats_init(struct iws_qp_stats *s);
void iws_qp_stats_free(struct iws_qp_stats *s);
void iws_qp_stats_add(struct iws_qp_stats *s, const struct iws_op *op);

#ifdef __cplusplus
}
#endif
#endif
