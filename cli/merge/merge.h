// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * merge.h - `iwarpscope merge A.json B.json ...`: the
 * statistics of several captures (`stats --format json`, one per host or
 * capture) combined into one report of the same shape. QPs stay distinct,
 * each labelled with its input ("source"); the capture and total sections
 * are combined: counts and bytes added, first/last times and peaks the
 * least/greatest, distributions merged through their sketches (sketch.h),
 * rates that cannot be combined (iops, throughput, spans) null; what one
 * input alone has is copied. A merge's
 * output can be merged again.
 */
#ifndef IWS_CLI_MERGE_H
#define IWS_CLI_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "jsonr.h"

struct merge_in {
	const char *label;          /* the QPs' "source" */
	struct jr_doc doc;
};

/* Merge n parsed inputs and write the result to f as JSON or (text) the
 * statistics' tables. 0, or -1 with a message in err (nothing written). */
int merge_write(FILE *f, struct merge_in *ins, int n, bool text, char *err, size_t errlen);

/* The tables of `stats` drawn from a merged document (merge_text.c). */
void merge_text_tables(FILE *f, const struct jr_doc *d);

/* The command: argv[0] is "merge". Returns the exit status. */
int merge_main(int argc, char **argv);

#endif
