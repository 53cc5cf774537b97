// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rows.h - the writers' streamed output: one item per line, as text, JSON
 * (an array), JSON lines or CSV (rows.c); the `ops` and `nvme` writers
 * define the row functions.
 */
#ifndef IWS_CLI_ROWS_H
#define IWS_CLI_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jsonw.h"
#include "outopts.h"

struct conn;
struct points;

struct row_fns {
	const char *csv_header;
	/* pts: several capture points (NULL: one), for their fields */
	void (*json)(struct jsonw *j, const struct conn *c, const void *item,
		     const struct points *pts);
	void (*csv)(FILE *f, const struct conn *c, const void *item);
	void (*text)(FILE *f, const struct conn *c, const void *item);
	void (*text_header)(FILE *f); /* the text's heading row (may be NULL) */
};

/* Streamed text tables (ops, nvme): fixed widths (negative: left-aligned),
 * two spaces apart, the last column unpadded; a time column's heading
 * names the unit. */
struct fixed_col {
	const char *head;
	int width;
	bool is_time;
};
/* The unit of the streamed tables' durations: --time-unit's, else µs. */
int64_t text_time_unit(void);
void fixed_header(FILE *f, const struct fixed_col *cols, int n, int64_t unit);
void fixed_row(FILE *f, const struct fixed_col *cols, int n, const char *const *cells);

struct rows_out {
	FILE *f;
	enum out_format fmt;
	const struct row_fns *fns;
	struct jsonw j;
	uint64_t n;
	const struct points *pts;   /* several capture points (NULL: one) */
};

void rows_begin(struct rows_out *w, FILE *f, enum out_format fmt, const struct row_fns *fns);
void rows_write(struct rows_out *w, const struct conn *c, const void *item);
void rows_end(struct rows_out *w);

#endif
