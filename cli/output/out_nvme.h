// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_nvme.h - the nvme writer (out_nvme.c): one row per NVMe over Fabrics
 * command (items are struct iws_nvme_cmd), and the NVMe parts of the
 * statistics and the summary.
 */
#ifndef IWS_CLI_OUT_NVME_H
#define IWS_CLI_OUT_NVME_H

#include <stddef.h>
#include <stdio.h>

#include "iwarpscope/nvme.h"
#include "jsonw.h"
#include "outopts.h"
#include "outreport.h"
#include "rows.h"

void nvme_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);
/* The statistics' nvme sections (a QP's "nvme" object, the total's), the
 * text tables, and the summary's NVMe-oF block: each writes nothing when
 * the capture (or QP) has no NVMe. */
void nvme_qp_json(struct jsonw *j, const struct conn *c);
void nvme_total_json(struct jsonw *j, const struct report *r);
/* The "all" rows (one per command type over every queue of every QP) into
 * all (iws_nvme_stats_init'ed here; iws_nvme_stats_free it). */
struct analysis;
void nvme_all_rows(const struct analysis *a, struct iws_nvme_stats *all);
void nvme_stats_text(FILE *f, const struct report *r);
/* After the nvme command's text list: fio's completion-latency percentile
 * ladder per queue and command type and over all queues (as in stats). */
void nvme_ladder_text(FILE *f, const struct report *r);
void nvme_summary(FILE *f, const struct report *r);

#endif
