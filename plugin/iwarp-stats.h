// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats.h - what the "iwarp" tap's text statistics (iwarp-stats.c)
 * and its GUI tables (iwarp-stats-gui.c) share: one QP's statistics, added
 * up from the operations and NVMe-oF commands the tap reports with the
 * core's iws_qp_stats_* and iws_nvme_stats_* (the CLI's numbers), and times
 * as every table writes them.
 */
#ifndef IWARP_STATS_H
#define IWARP_STATS_H

#include <glib.h>

#include "iwarpscope/nvme.h"
#include "iwarpscope/stats.h"
#include <epan/tap.h>

#include "packet-iwarp-state.h"
#include "ws-compat.h"

struct iwarp_qp_stats {
	guint32 qp;
	struct iws_qp_stats st;     /* operations */
	struct iws_nvme_stats nv;   /* NVMe-oF commands */
	gint64 first_ns, last_ns;   /* earliest start and latest end of its operations */
	GArray *slots;              /* GUI tables: the table rows its rows are in (guint), in order */
};

/* The statistics of qp in qps (struct iwarp_qp_stats sorted by qp), added
 * when new (a pointer into qps: valid until the next addition). */
struct iwarp_qp_stats *iwarp_qp_stats_get(GArray *qps, guint32 qp);
void iwarp_qp_stats_free(struct iwarp_qp_stats *q);
/* Every QP's statistics freed, qps emptied. */
void iwarp_qps_clear(GArray *qps);
/* The operations reported (iwarp_op_link *) into q, and its first start and
 * last end (RTR messages left out, as in every statistic). */
void iwarp_qp_stats_add_ops(struct iwarp_qp_stats *q, wmem_array_t *ops);
/* Every connection's operations (or NVMe commands) still in flight at the
 * end of the capture into qps (and total, when not NULL). */
void iwarp_stats_add_leftovers(GArray *qps, struct iwarp_qp_stats *total, gboolean nvme);

/* A time as the tables show it: milliseconds with 3 decimals (rounded to
 * the microsecond, half away from zero), or integer nanoseconds (raw). */
char *iwarp_stats_fmt_time(char *buf, size_t n, gint64 v, gboolean raw);

/* The values of a distribution the tables show, in the text tables' order. */
#define IWARP_DIST_N 7
enum { IWARP_DV_MIN, IWARP_DV_MEAN, IWARP_DV_P50, IWARP_DV_P90, IWARP_DV_P99, IWARP_DV_P999, IWARP_DV_MAX };
/* Value k (IWARP_DV_*) of a distribution that has samples (a quantile may
 * sort them: compute only what is shown). */
gint64 iwarp_stats_dist_value(const struct iws_latency *l, int k);

/* The text statistics of the "iwarp" tap (tshark -z iwarp,...). */
void iwarp_stats_register(void);

#endif
