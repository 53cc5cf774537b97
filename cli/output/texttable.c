// SPDX-License-Identifier: GPL-2.0-or-later
/* Text tables people can paste (see texttable.h). */
#include "texttable.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define TT_GAP 2

void tt_init(struct texttable *t, const struct tt_col *cols, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
}

void tt_cell(struct texttable *t, const char *s)
{
	if (t->oom)
		return; /* (a table cut short rather than a row out of line) */
	if (t->at == 0) {
		if (t->nrows == t->caprows) {
			uint32_t n = t->caprows ? t->caprows * 2 : 16;
			char **v = realloc(t->cells, (size_t)n * (size_t)t->ncols * sizeof(*v));
			if (!v) {
				t->oom = true;
				return;
			}
			t->cells = v;
			t->caprows = n;
		}
		memset(t->cells + (size_t)t->nrows * (size_t)t->ncols, 0,
		       (size_t)t->ncols * sizeof(*t->cells));
		t->nrows++;
	}
	t->cells[(size_t)(t->nrows - 1) * (size_t)t->ncols + (size_t)t->at] = strdup(s ? s : "");
	if (++t->at == t->ncols)
		t->at = 0;
}

void tt_cellf(struct texttable *t, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	tt_cell(t, b);
}

static const char *cell(const struct texttable *t, uint32_t r, int c)
{
	const char *s = t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
	return s ? s : "";
}

void tt_print(const struct texttable *t, FILE *f, const char *indent)
{
	int w[64];
	int n = t->ncols < 64 ? t->ncols : 64;
	for (int c = 0; c < n; c++) {
		w[c] = (int)text_width(t->cols[c].head);
		for (uint32_t r = 0; r < t->nrows; r++)
			if ((int)text_width(cell(t, r, c)) > w[c])
				w[c] = (int)text_width(cell(t, r, c));
	}
	for (uint32_t r = 0; r <= t->nrows; r++) {
		fputs(indent, f);
		/* the last column, when left-aligned, is not padded (no trailing blanks) */
		for (int c = 0; c < n; c++) {
			const char *s = r ? cell(t, r - 1, c) : t->cols[c].head;
			if (c)
				fprintf(f, "%*s", TT_GAP, "");
			print_padded(f, s, t->cols[c].left ? (c == n - 1 ? 0 : -w[c]) : w[c]);
		}
		fputc('\n', f);
	}
}

void tt_free(struct texttable *t)
{
	for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
