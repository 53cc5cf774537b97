// SPDX-License-Identifier: GPL-2.0-or-later
/* One item per line as text, JSON, JSON lines or CSV, and fixed-width text
 * columns (see rows.h): shared by the `ops` and `nvme` writers. */
#include "rows.h"

#include <stdarg.h>
#include <string.h>

#include "units.h"

/* ---- rows ---- */

void rows_begin(struct rows_out *w, FILE *f, enum out_format fmt, const struct row_fns *fns)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->fmt = fmt == FMT_DEFAULT ? FMT_TEXT : fmt;
	w->fns = fns;
	jw_init(&w->j, false);
	if (w->fmt == FMT_CSV)
		fputs(fns->csv_header, f);
	else if (w->fmt == FMT_JSON)
		fputs("[", f);
	else if (w->fmt == FMT_TEXT && fns->text_header)
		fns->text_header(f);
}

void rows_write(struct rows_out *w, const struct conn *c, const void *item)
{
	switch (w->fmt) {
	case FMT_JSONL:
		w->fns->json(&w->j, c, item, w->pts);
		jw_flush_line(&w->j, w->f);
		break;
	case FMT_JSON:
		if (w->n)
			fputc(',', w->f);
		fputc('\n', w->f);
		w->fns->json(&w->j, c, item, w->pts);
		fwrite(w->j.buf, 1, w->j.len, w->f);
		jw_reset(&w->j);
		break;
	case FMT_CSV:
		w->fns->csv(w->f, c, item);
		break;
	default:
		w->fns->text(w->f, c, item);
		break;
	}
	w->n++;
}

void rows_end(struct rows_out *w)
{
	if (w->fmt == FMT_JSON)
		fputs(w->n ? "\n]\n" : "]\n", w->f);
	jw_free(&w->j);
}

/* ---- fixed-width text columns ---- */

int64_t text_time_unit(void)
{
	return units_forced() ? units_forced() : 1000;
}

void fixed_header(FILE *f, const struct fixed_col *cols, int n, int64_t unit)
{
	const char *cells[32];
	char h[32][48];
	for (int i = 0; i < n && i < 32; i++) {
		/* a duration column names its unit */
		if (cols[i].is_time)
			snprintf(h[i], sizeof(h[i]), "%s %s", cols[i].head, unit_name(unit));
		else
			snprintf(h[i], sizeof(h[i]), "%s", cols[i].head);
		cells[i] = h[i];
	}
	fixed_row(f, cols, n < 32 ? n : 32, cells);
}

void fixed_row_cells(FILE *f, const struct fixed_col *cols, int n, char (*cell)[48], int wide_col,
		     const char *wide, const char *notes)
{
	const char *cells[32];
	for (int i = 0; i < n - 1 && i < 32; i++)
		cells[i] = i == wide_col ? wide : cell[i];
	if (n >= 1 && n <= 32)
		cells[n - 1] = notes;
	fixed_row(f, cols, n < 32 ? n : 32, cells);
}

void row_note(struct row_notes *s, const char *fmt, ...)
{
	if (s->n >= sizeof(s->b) - 2)
		return;
	if (s->n)
		s->n += (size_t)snprintf(s->b + s->n, sizeof(s->b) - s->n, "; ");
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(s->b + s->n, sizeof(s->b) - s->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		s->n += (size_t)k < sizeof(s->b) - s->n ? (size_t)k : sizeof(s->b) - 1 - s->n;
}

const char *row_notes_end(struct row_notes *s, bool complete, const char *flags)
{
	if (!s->n)
		s->b[0] = 0;
	if (!complete)
		row_note(s, "INCOMPLETE");
	if (flags && *flags)
		row_note(s, "(%s)", flags);
	return s->b;
}

void fixed_row(FILE *f, const struct fixed_col *cols, int n, const char *const *cells)
{
	char line[2048];
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		int w = i == n - 1 ? 0 : cols[i].width;
		size_t want = (size_t)(w < 0 ? -w : w), tw = text_width(cells[i]);
		size_t pad = tw < want ? want - tw : 0;
		int k = snprintf(line + len, sizeof(line) - len, "%s%*s%s%*s", i ? "  " : "",
				 w > 0 ? (int)pad : 0, "", cells[i], w < 0 ? (int)pad : 0, "");
		if (k < 0 || (size_t)k >= sizeof(line) - len)
			break;
		len += (size_t)k;
	}
	/* no trailing blanks (an empty last column, a left-aligned one before it) */
	while (len && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, f);
	fputc('\n', f);
}
