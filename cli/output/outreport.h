// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outreport.h - what every writer of a whole report reads (struct report):
 * the analysis, the source, the format and --fail-on, the order, the
 * summary's slowest lists, the capture points, the selection. The writers
 * read it and never change the analysis; each writer has its own header
 * (out_<writer>.h).
 */
#ifndef IWS_CLI_OUTREPORT_H
#define IWS_CLI_OUTREPORT_H

#include "analysis.h"
#include "outopts.h"
#include "points.h"
#include "rank.h"
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

#endif
