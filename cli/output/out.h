// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out.h - the writers: text for people, JSON/JSONL/CSV for scripts. They
 * read the analysis and never change it.
 */
#ifndef IWS_CLI_OUT_H
#define IWS_CLI_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "dists.h"
#include "iwarpscope/doctor.h"
#include "jsonw.h"
#include "outopts.h"
#include "points.h"
#include "rank.h"
#include "rows.h"
#include "select.h"
#include "source.h"
#include "timeline.h"

/* Everything a report is made of. */
struct report {
	const struct analysis *a;
	const struct source *src;
	struct out_opts o;          /* format, --fail-on */
	const struct timeline *tl;  /* ops only */
	struct slowest *slow;       /* summary: the slowest lists (NULL: none) */
	const struct points *pts;   /* several capture points (NULL: one) */
	const struct select *sel;   /* what the report covers (NULL: everything) */
};

/* How many of the slowest operations the summary lists. */
#define SUMMARY_SLOWEST 5

/* Where an operation's time went, in words (the slowest lists). */
const char *op_why(char *buf, size_t n, const struct iws_op *op);
/* The same for an NVMe command: its data phase, its status. */
const char *nvme_why(char *buf, size_t n, const struct iws_nvme_cmd *m);

/* ---- ops (out_ops.c): items are struct iws_op ---- */
void ops_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);

/* "addr:port" of the initiator (dir IWS_DIR_I2R) or responder of c. */
const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf);

/* ---- nvme (out_nvme.c): items are struct iws_nvme_cmd ---- */
void nvme_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);
/* The statistics' nvme sections (a QP's "nvme" object, the total's), the
 * text tables, and the summary's NVMe-oF block: each writes nothing when
 * the capture (or QP) has no NVMe. */
void nvme_qp_json(struct jsonw *j, const struct conn *c);
void nvme_total_json(struct jsonw *j, const struct report *r);
void nvme_stats_text(FILE *f, const struct report *r);
void nvme_summary(FILE *f, const struct report *r);

/* ---- fpdus (out_fpdus.c) ---- */
struct fpdus_out {
	FILE *f;
	struct jsonw j;
	const struct points *pts;   /* several capture points (NULL: one) */
};

void fpdus_out_begin(struct fpdus_out *w, FILE *f);
void fpdus_out_write(struct fpdus_out *w, const struct conn *c, const struct iws_pdu *pdu);
void fpdus_out_end(struct fpdus_out *w);

/* ---- stats and summary ---- */
void stats_write_json(FILE *f, const struct report *r);
void stats_write_text(FILE *f, const struct report *r);
void summary_write(FILE *f, const struct report *r);
/* The live view's rolling per-QP lines: totals so far and, with prev, what
 * changed since the last lines (prev remembers each QP's totals; zeroed
 * before the first call, freed with live_prev_free). */
struct live_prev {
	uint64_t (*qp)[2];          /* by QP number: operations, octets */
	uint32_t n;
};
void summary_write_short(FILE *f, const struct report *r, struct live_prev *prev);
void live_prev_free(struct live_prev *prev);

/* One operation type's numbers: count, complete, bytes, segments,
 * crc_errors, retransmissions, stall_ns, latency_ns, delivery_ns. */
void stats_op_fields_json(struct jsonw *j, const struct iws_op_stats *o);
/* "tcp": {fast_retransmits, timeouts, duplicate_acks, zero_windows} */
void stats_tcp_json(struct jsonw *j, const struct conn *c);

/* ---- report (out_html.c) ---- */
struct pagedata;
/* The HTML page of the report command, from the analysis and what
 * pagedata gathered (its sample is consumed). */
void report_write_html(FILE *f, const struct report *r, struct pagedata *p);

/* No iWARP in the capture (out_silence.c): what it holds, why each TCP
 * connection is not iWARP, and what to try; every line starts with pre. */
void silence_write(FILE *f, const struct report *r, const char *pre);

/* ---- doctor (out_doctor.c): the interop doctor's findings ---- */
void doctor_write(FILE *f, const struct report *r);
/* A QP's findings, in catalogue order (iwarpscope/doctor.h: rule, dir,
 * count, frames, fraction; iws_rule_info for severity, title, reference;
 * iws_finding_text for the first occurrence's words): what the summary and
 * the report show as findings. NULL and 0 when the doctor did not run
 * (analysis_opts.doctor: the doctor command, or --fail-on naming rules). */
const struct iws_finding_sum *doctor_findings(const struct conn *c, uint32_t *n);
/* Does a finding match --fail-on's rule ids or severities? */
bool doctor_fails(const struct report *r);
/* Over the QPs reported: findings (rule and direction) per severity, and
 * how many QPs have any. */
void doctor_counts(const struct report *r, uint64_t by_sev[3], uint32_t *qps_with);
/* The rule catalogue (doctor --rules), as text, JSON or JSON lines. */
void doctor_rules_write(FILE *f, enum out_format fmt);

/* Problems in the report, for --fail-on (FAIL_* bits). */
unsigned report_findings(const struct report *r);

/* Shared by the text and JSON writers (out_stats.c). */
const char *hs_name(enum iws_stream_state st);
uint64_t conn_gap_count(const struct conn *c);
uint64_t conn_gap_bytes(const struct conn *c);

#endif
