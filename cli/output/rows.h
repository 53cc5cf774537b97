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

/* A streamed row's cells, 48 octets each, but for the notes (the last
 * column) and at most one wider cell (wide_col, -1: none). */
void fixed_row_cells(FILE *f, const struct fixed_col *cols, int n, char (*cell)[48], int wide_col,
		     const char *wide, const char *notes);

/* The notes of a streamed row: items joined by "; " (row_note), then
 * "INCOMPLETE" when the item is not complete and its flags' words in
 * parentheses (row_notes_end returns the text). */
struct row_notes {
	char b[320];
	size_t n;
};
void row_note(struct row_notes *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *row_notes_end(struct row_notes *s, bool complete, const char *flags);

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
