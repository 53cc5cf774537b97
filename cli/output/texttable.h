// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * texttable.h - text tables people can paste: a heading row, then rows of
 * cells, each column as wide as its widest cell and two spaces from the
 * next (never running together), text left-aligned and numbers
 * right-aligned. Cells are collected first and printed at the end, so the
 * widths fit what the rows hold. Numbers go in with one unit per column
 * (units.h: fmt_in_unit), the unit named in the heading or the title.
 */
#ifndef IWS_CLI_TEXTTABLE_H
#define IWS_CLI_TEXTTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_col {
	const char *head;
	bool left;                  /* text: left-aligned (numbers: right) */
};

struct texttable {
	const struct tt_col *cols;
	int ncols;
	char **cells;               /* row-major, ncols per row */
	uint32_t nrows, caprows;
	int at;                     /* cells of the current row so far */
	bool oom;
};

void tt_init(struct texttable *t, const struct tt_col *cols, int ncols);
/* The next cell of the current row (a copy of s); the row ends by itself
 * after ncols cells. */
void tt_cell(struct texttable *t, const char *s);
void tt_cellf(struct texttable *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The heading row and every row, each line starting with indent. */
void tt_print(const struct texttable *t, FILE *f, const char *indent);
void tt_free(struct texttable *t);

#endif
