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
#include "jsonw.h"
#include "options.h"
#include "points.h"
#include "rank.h"
#include "source.h"
#include "timeline.h"

/* Everything a report is made of. */
struct report {
	const struct analysis *a;
	const struct source *src;
	const struct options *o;
	const struct timeline *tl;  /* ops only */
	struct rank *rank;          /* summary: the slowest operations */
	const struct points *pts;   /* several capture points (NULL: one) */
};

/* How many of the slowest operations the summary lists. */
#define SUMMARY_SLOWEST 5

/* ---- ops (out_ops.c) ---- */
struct ops_out {
	FILE *f;
	enum out_format fmt;
	struct jsonw j;
	uint64_t n;
	const struct points *pts;   /* several capture points (NULL: one) */
};

void ops_out_begin(struct ops_out *w, FILE *f, enum out_format fmt);
void ops_out_write(struct ops_out *w, const struct conn *c, const struct iws_op *op);
void ops_out_end(struct ops_out *w);

/* Where an operation's time went, in words (the summary's slowest list). */
const char *op_why(char *buf, size_t n, const struct iws_op *op);

/* "addr:port" of the initiator (dir IWS_DIR_I2R) or responder of c. */
const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf);

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
/* The live view's short per-QP lines. */
void summary_write_short(FILE *f, const struct report *r);

/* Problems in the report, for --fail-on (FAIL_* bits). */
unsigned report_findings(const struct report *r);

/* Shared by the text and JSON writers. */
const char *hs_name(enum iws_stream_state st);
uint64_t conn_gap_count(const struct conn *c);
uint64_t conn_gap_bytes(const struct conn *c);

#endif
