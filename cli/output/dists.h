// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dists.h - latency distributions as the writers show them: a JSON object
 * (with or without the mergeable sketch) and a text table of several
 * (dists.c); shared by the stats, nvme and merge writers.
 */
#ifndef IWS_CLI_DISTS_H
#define IWS_CLI_DISTS_H

#include <stdint.h>
#include <stdio.h>

struct iws_latency;
struct jsonw;

/* key: {count, min, mean, p50, p90, p99, p999, max, exact}, or null when empty. */
void latency_json(struct jsonw *j, const char *key, const struct iws_latency *l);
/* The same with the mergeable sketch (sketch.h): the statistics' JSON. */
void latency_json_sketch(struct jsonw *j, const char *key, const struct iws_latency *l);
/* A table of distributions (text): title (the unit is added), then per row
 * QP, label, count, min, mean, p50, p90, p99, p99.9, max, in one unit;
 * "(none)" without rows. */
struct dist_row {
	char qp[16];
	char label[96];
	uint64_t count;
	int64_t x[7];               /* min, mean, p50, p90, p99, p99.9, max (ns) */
	const struct iws_latency *l; /* its samples (the ladder), NULL: values only */
};
struct dist_rows {
	struct dist_row *v;         /* free() it */
	uint32_t n, cap;
};
void dist_rows_add(struct dist_rows *r, const char *qp, const char *label, const struct iws_latency *l);
/* A row of values already computed (merge reads them from JSON). */
void dist_rows_add_values(struct dist_rows *r, const char *qp, const char *label, uint64_t count,
			  const int64_t x[7]);
void dist_rows_print(FILE *f, const char *title, const char *label_head, const struct dist_rows *r);
/* fio's percentile ladder (iws_ladder_pct) as JSON: key {"1.000000": ns,
 * "5.000000": ns, ... "99.990000": ns} (fio's --output-format=json keys), or
 * null when empty. */
void ladder_json(struct jsonw *j, const char *key, const struct iws_latency *l);
/* ... and as text, fio's "clat percentiles" block per row: title (the unit is
 * added), then each row's QP, label and count and its ladder, four a line
 * ("  1.00th=[0.383],  5.00th=[...]"); rows without samples left out. */
void dist_rows_ladder(FILE *f, const char *title, const struct dist_rows *r);

#endif
