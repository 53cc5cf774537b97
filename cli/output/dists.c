// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency distributions as the writers show them (see dists.h). */
#include "dists.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/stats.h"
#include "jsonw.h"
#include "sketch.h"
#include "texttable.h"
#include "units.h"

static void latency_obj(struct jsonw *j, const char *key, const struct iws_latency *lc,
			bool sketch)
{
	/* Quantiles sort the samples lazily: a cache, not a change of value. */
	struct iws_latency *l = (struct iws_latency *)lc;
	jw_key(j, key);
	if (!l->count) {
		jw_null(j);
		return;
	}
	jw_obj(j);
	jw_ku64(j, "count", l->count);
	jw_ki64(j, "min", l->min);
	jw_ki64(j, "mean", iws_latency_mean(l));
	jw_ki64(j, "p50", iws_latency_quantile(l, 0.50));
	jw_ki64(j, "p90", iws_latency_quantile(l, 0.90));
	jw_ki64(j, "p99", iws_latency_quantile(l, 0.99));
	jw_ki64(j, "p999", iws_latency_quantile(l, 0.999));
	jw_ki64(j, "max", l->max);
	jw_kbool(j, "exact", iws_latency_is_exact(l));
	if (sketch)
		sketch_json(j, l);
	jw_obj_end(j);
}

void latency_json(struct jsonw *j, const char *key, const struct iws_latency *l)
{
	latency_obj(j, key, l, false);
}

void latency_json_sketch(struct jsonw *j, const char *key, const struct iws_latency *l)
{
	latency_obj(j, key, l, true);
}

void dist_rows_add_values(struct dist_rows *r, const char *qp, const char *label, uint64_t count,
			  const int64_t x[7])
{
	if (r->n == r->cap) {
		uint32_t n = r->cap ? r->cap * 2 : 16;
		struct dist_row *v = realloc(r->v, n * sizeof(*v));
		if (!v)
			return; /* (a row left out rather than none printed) */
		r->v = v;
		r->cap = n;
	}
	struct dist_row *d = &r->v[r->n++];
	snprintf(d->qp, sizeof(d->qp), "%s", qp);
	snprintf(d->label, sizeof(d->label), "%s", label);
	d->count = count;
	memcpy(d->x, x, sizeof(d->x));
	d->l = NULL;
}

void dist_rows_add(struct dist_rows *r, const char *qp, const char *label, const struct iws_latency *l)
{
	struct iws_latency *m = (struct iws_latency *)l; /* quantiles sort lazily */
	int64_t x[7] = { l->min,
			 iws_latency_mean(m),
			 iws_latency_quantile(m, 0.50),
			 iws_latency_quantile(m, 0.90),
			 iws_latency_quantile(m, 0.99),
			 iws_latency_quantile(m, 0.999),
			 l->max };
	dist_rows_add_values(r, qp, label, l->count, x);
	if (r->n && !strcmp(r->v[r->n - 1].label, label) && !strcmp(r->v[r->n - 1].qp, qp))
		r->v[r->n - 1].l = l;
}

void ladder_json(struct jsonw *j, const char *key, const struct iws_latency *lc)
{
	struct iws_latency *l = (struct iws_latency *)lc; /* quantiles sort lazily */
	jw_key(j, key);
	if (!l->count) {
		jw_null(j);
		return;
	}
	jw_obj(j);
	char k[32];
	for (int i = 0; i < IWS_LADDER_N; i++) {
		snprintf(k, sizeof(k), "%f", iws_ladder_pct[i]);
		jw_ki64(j, k, iws_latency_quantile(l, iws_ladder_pct[i] / 100));
	}
	jw_obj_end(j);
}

static int64_t table_unit(const struct dist_rows *r, int *dec);

void dist_rows_ladder(FILE *f, const char *title, const struct dist_rows *r)
{
	int dec;
	int64_t unit = table_unit(r, &dec);
	fprintf(f, "\n%s, %s\n", title, unit_name(unit));
	char b[IWS_LADDER_N][48];
	for (uint32_t i = 0; i < r->n; i++) {
		struct iws_latency *l = (struct iws_latency *)r->v[i].l;
		if (!l || !l->count)
			continue;   /* (a row of values only: merge's, no samples) */
		fprintf(f, "  QP %s  %s  (%" PRIu64 " samples)\n", r->v[i].qp, r->v[i].label, l->count);
		int w = 0;
		for (int k = 0; k < IWS_LADDER_N; k++) {
			int n = (int)strlen(fmt_in_unit(b[k], sizeof(b[k]), iws_latency_quantile(l, iws_ladder_pct[k] / 100),
							unit, dec));
			w = n > w ? n : w;
		}
		for (int k = 0; k < IWS_LADDER_N; k++)
			fprintf(f, "%s%6.2fth=[%*s]%s", k % 4 ? " " : "    ", iws_ladder_pct[k], w, b[k],
				k + 1 == IWS_LADDER_N ? "\n" : k % 4 == 3 ? ",\n" : ",");
	}
	if (!r->n)
		fputs("  (none)\n", f);
}

/* One unit for a table: the one that shows its largest median with 1 to 3
 * digits (or --time-unit's); decimals enough for its smallest value. */
static int64_t table_unit(const struct dist_rows *r, int *dec)
{
	int64_t typical = 0, small = 0;
	for (uint32_t i = 0; i < r->n; i++) {
		int64_t p50 = r->v[i].x[2], min = r->v[i].x[0];
		typical = p50 > typical ? p50 : typical;
		if (min > 0 && (!small || min < small))
			small = min;
	}
	int64_t unit = units_column(typical);
	*dec = units_decimals(unit, small);
	return unit;
}

void dist_rows_print(FILE *f, const char *title, const char *label_head, const struct dist_rows *r)
{
	const struct dist_row *v = r->v;
	uint32_t n = r->n;
	int dec;
	int64_t unit = table_unit(r, &dec);
	fprintf(f, "\n%s, %s\n", title, unit_name(unit));
	if (!n) {
		fputs("  (none)\n", f);
		return;
	}
	const struct tt_col cols[] = { { "QP", false }, { label_head, true }, { "count", false },
				       { "min", false },  { "mean", false },     { "p50", false },
				       { "p90", false },  { "p99", false },      { "p99.9", false },
				       { "max", false } };
	struct texttable t;
	tt_init(&t, cols, 10);
	char b[48];
	for (uint32_t i = 0; i < n; i++) {
		tt_cell(&t, v[i].qp);
		tt_cell(&t, v[i].label);
		tt_cellf(&t, "%" PRIu64, v[i].count);
		for (int k = 0; k < 7; k++)
			tt_cell(&t, fmt_in_unit(b, sizeof(b), v[i].x[k], unit, dec));
	}
	tt_print(&t, f, "  ");
	tt_free(&t);
}
