// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_points.h - what several capture points (points.h) add to the reports
 * (out_points.c): the points and their files, and per QP seen at two points
 * what each point saw (directions, one-way times, clock offset, where loss
 * happened).
 */
#ifndef IWS_CLI_OUT_POINTS_H
#define IWS_CLI_OUT_POINTS_H

#include <stdio.h>

#include "jsonw.h"
#include "points.h"

struct conn;
struct finding_sink;
void points_header_text(FILE *f, const struct points *pts);
void points_qp_text(FILE *f, const struct points *pts, const struct conn *c);
/* Their "!" lines alone, as findings (findings.h), for the report. */
void points_findings(const struct points *pts, const struct finding_sink *s);
void points_qp_findings(const struct points *pts, const struct conn *c, const struct finding_sink *s);
void points_capture_json(struct jsonw *j, const struct points *pts);
void points_qp_json(struct jsonw *j, const struct points *pts, const struct conn *c);

#endif
