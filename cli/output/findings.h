// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * findings.h - what went wrong, as data. Each finding is one line of text
 * with optional detail lines, about the capture or about one QP. The
 * summary prints them as its "!" lines (the capture's under the header,
 * each QP's in its block, in the order they come); the report lists the
 * same findings from the same calls, never by reading the summary's text
 * back (text from the capture, an NQN or a file name, could pass for a
 * finding there).
 */
#ifndef IWS_CLI_FINDINGS_H
#define IWS_CLI_FINDINGS_H

#include <stdint.h>
#include <stdio.h>

#include "conn.h"
#include "iwarpscope/doctor.h"

struct report;
struct analysis;

#define FINDING_MAX_DETAILS 3

struct finding {
	int64_t qp;                 /* the QP's number, or -1: the capture */
	const char *text;
	const char *details[FINDING_MAX_DETAILS];
	int ndetails;
};

struct finding_sink {
	void *ctx;
	void (*add)(void *ctx, const struct finding *f);
};

/* A QP's findings, in catalogue order (iwarpscope/doctor.h: rule, dir,
 * count, frames, fraction; iws_rule_info for severity, title, reference;
 * iws_finding_text for the first occurrence's words): what the summary and
 * the report show as findings. NULL and 0 when the doctor did not run
 * (analysis_opts.doctor: the doctor command, or --fail-on naming rules). */
const struct iws_finding_sum *doctor_findings(const struct conn *c, uint32_t *n);
/* The capture's: damage, dropped packets, limits reached. */
void findings_capture(const struct report *r, const struct finding_sink *s);
/* One QP's, in two parts for the summary's order: its handshake (rejected)
 * after the MPA line, then FINs, RSTs and Terminates with operations
 * outstanding, Terminates, gaps, truncation, incomplete operations, lost
 * framing, broken marker rules, limits. Lines that are no finding (a FIN
 * with nothing outstanding) go to text (NULL: nowhere) so the summary keeps
 * its order. */
void findings_qp_handshake(const struct conn *c, const struct finding_sink *s);
void findings_qp(const struct conn *c, const struct finding_sink *s, FILE *text);

/* What the analysis never saw because of --max-flows, in words: "7233
 * connections not analysed, 28932 packets ignored (--max-flows 32768)"
 * into buf; NULL when it saw every packet. A --fail-on gate that found
 * nothing has still not checked these (exit 3 unless --allow-unanalysed). */
const char *findings_unchecked(const struct analysis *a, char *buf, size_t len);

/* A sink that prints findings as the summary does: "! text" (capture) or
 * "  ! text" (QP), each detail line indented below. */
struct finding_sink findings_text_sink(FILE *f);

#endif
