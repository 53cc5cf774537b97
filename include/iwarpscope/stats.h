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

void iws_latency_init(struct iws_latency *l);
void iws_latency_free(struct iws_latency *l);
/* false on allocation failure (the sample still counts in min/max/mean). */
bool iws_latency_add(struct iws_latency *l, int64_t ns);
/* Mean rounded to the nearest ns; 0 when empty. */
int64_t iws_latency_mean(const struct iws_latency *l);
/* Nearest-rank quantile, q in (0,1]; 0 when empty. Sorts lazily. */
int64_t iws_latency_quantile(struct iws_latency *l, double q);
bool iws_latency_is_exact(const struct iws_latency *l);

struct iws_op_stats {
	uint64_t count;             /* operations of this type */
	uint64_t complete;          /* of which complete */
	uint64_t bytes;
	uint64_t segments;
	uint64_t crc_errors;
	uint64_t retransmissions;   /* summed over the operations */
	int64_t stall_ns;           /* summed (saturating) */
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
