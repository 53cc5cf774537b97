// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What several capture points add to the reports (points.h): which files
 * form each point, and per QP seen at two points which point its numbers
 * come from, each direction's path between the points, one-way times, the
 * clock offset between the points and where loss happened. Text for the
 * summary, JSON for stats (docs/semantics.md, "Two capture points").
 */
#include <inttypes.h>
#include <stdarg.h>

#include "conn.h"
#include "findings.h"
#include "jsonw.h"
#include "out_points.h"
#include "units.h"

static const char *pname(const struct points *pts, int i)
{
	return points_name(pts, i);
}

/* One finding (findings.h) of qp (-1: the capture), as a format. */
static void finding(const struct finding_sink *s, int64_t qp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void finding(const struct finding_sink *s, int64_t qp, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	struct finding fi = { .qp = qp, .text = text };
	s->add(s->ctx, &fi);
}

/* The points' lines on f (NULL: none), their "!" lines as findings to s. */
static void header(FILE *f, const struct points *pts, const struct finding_sink *s)
{
	if (!pts)
		return;
	if (f) {
		fprintf(f, "%d capture points, %u connection%s seen at two of them (each segment "
			   "counted once):\n",
			points_count(pts), points_multi_count(pts), points_multi_count(pts) == 1 ? "" : "s");
		for (int p = 0; p < points_count(pts); p++) {
			fprintf(f, "  %s", pname(pts, p));
			if (points_point_files(pts, p) > 1)
				fprintf(f, " (%d files)", points_point_files(pts, p));
			fputc('\n', f);
		}
	}
	if (points_unindexed(pts))
		finding(s, -1,
			"two-point matching stopped at its memory bound (%u connections, %u "
			"segments): %" PRIu64 " later segments not matched",
			POINTS_MAX_CONNS, POINTS_MAX_RECORDS, points_unindexed(pts));
}

void points_header_text(FILE *f, const struct points *pts)
{
	struct finding_sink s = findings_text_sink(f);
	header(f, pts, &s);
}

void points_findings(const struct points *pts, const struct finding_sink *s)
{
	header(NULL, pts, s);
}

static void dir_text(FILE *f, const struct points *pts, const struct points_qp *c, int side,
		     const char *name, const struct finding_sink *s, int64_t qp)
{
	const struct points_dir *d = &c->dir[side];
	char a[32], b[32], m[32];
	if (f) {
		fprintf(f, "  %s passes %s then %s%s: %" PRIu64 " segments at both", name,
			pname(pts, d->up), pname(pts, d->down), d->measured ? "" : " (order assumed)",
			d->matched);
		if (d->n_oneway)
			fprintf(f, ", one-way min %s, median %s, max %s", fmt_dur(a, sizeof(a), d->ow_min),
				fmt_dur(m, sizeof(m), d->ow_p50), fmt_dur(b, sizeof(b), d->ow_max));
		fputc('\n', f);
	}
	if (d->lost_before || d->lost_between || d->lost_after || d->missed_up || d->missed_down)
		finding(s, qp, "%s loss: %" PRIu64 " before %s, %" PRIu64 " between the points, %" PRIu64
			       " after %s (or spurious); missed by the capture at %s %" PRIu64,
			name, d->lost_before, pname(pts, d->up), d->lost_between, d->lost_after,
			pname(pts, d->down), pname(pts, d->up), d->missed_up);
}

static void qp_lines(FILE *f, const struct points *pts, const struct conn *cn,
		     const struct finding_sink *s)
{
	struct points_qp qp_at;
	const struct points_qp *c = &qp_at;
	if (!points_qp_get(pts, cn->stream, &qp_at))
		return;
	char a[32], b[32], m[32];
	int is = conn_init_side(cn);
	int64_t qp = cn->stream;
	if (f)
		fprintf(f, "  seen at %s and %s: numbers (frames, times, latencies) at %s\n",
			pname(pts, c->p), pname(pts, c->q), pname(pts, c->ref));
	dir_text(f, pts, c, is, "i2r", s, qp);
	dir_text(f, pts, c, !is, "r2i", s, qp);
	if (c->has_offset && f)
		fprintf(f, "  clock of %s minus %s: %s if the minimum one-way times are equal "
			   "(between %s and %s)\n",
			pname(pts, c->q), pname(pts, c->p), fmt_dur(m, sizeof(m), c->off),
			fmt_dur(a, sizeof(a), c->off_lo), fmt_dur(b, sizeof(b), c->off_hi));
	if (c->has_offset && (c->off_lo > 0 || c->off_hi < 0))
		finding(s, qp, "the two clocks are not synchronised: one-way times are off by the offset");
	if (c->disputed)
		finding(s, qp, "the points disagree on %" PRIu64 " segment%s (other octets at the same "
			       "sequence numbers; %" PRIu64 " agree): not matched",
			c->disputed, c->disputed == 1 ? "" : "s", c->agreed);
	if (c->filled && f)
		fprintf(f, "  %" PRIu64 " segment%s missed by the capture at %s taken from %s\n",
			c->filled, c->filled == 1 ? "" : "s", pname(pts, c->ref),
			pname(pts, c->ref == c->p ? c->q : c->p));
}

void points_qp_text(FILE *f, const struct points *pts, const struct conn *cn)
{
	struct finding_sink s = findings_text_sink(f);
	qp_lines(f, pts, cn, &s);
}

void points_qp_findings(const struct points *pts, const struct conn *cn, const struct finding_sink *s)
{
	qp_lines(NULL, pts, cn, s);
}

void points_capture_json(struct jsonw *j, const struct points *pts)
{
	jw_key(j, "capture_points");
	if (!pts) {
		jw_null(j);
		return;
	}
	jw_arr(j);
	for (int p = 0; p < points_count(pts); p++) {
		jw_obj(j);
		jw_kstr(j, "name", pname(pts, p));
		jw_key(j, "files");
		jw_arr(j);
		for (int i = 0; i < points_file_count(pts); i++)
			if (points_file_point(pts, i) == p)
				jw_str(j, points_file_name(pts, i));
		jw_arr_end(j);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void dir_json(struct jsonw *j, const struct points *pts, const struct points_dir *d, const char *k)
{
	jw_key(j, k);
	jw_obj(j);
	jw_kstr(j, "upstream", pname(pts, d->up));
	jw_kstr(j, "downstream", pname(pts, d->down));
	jw_kbool(j, "order_measured", d->measured);
	jw_ku64(j, "matched", d->matched);
	jw_koi64(j, "oneway_min_ns", d->n_oneway != 0, d->ow_min);
	jw_koi64(j, "oneway_p50_ns", d->n_oneway != 0, d->ow_p50);
	jw_koi64(j, "oneway_max_ns", d->n_oneway != 0, d->ow_max);
	jw_ku64(j, "lost_before", d->lost_before);
	jw_ku64(j, "lost_between", d->lost_between);
	jw_ku64(j, "lost_after", d->lost_after);
	jw_ku64(j, "missed_upstream", d->missed_up);
	jw_obj_end(j);
}

void points_qp_json(struct jsonw *j, const struct points *pts, const struct conn *cn)
{
	struct points_qp qp_at;
	const struct points_qp *c = &qp_at;
	jw_key(j, "capture_points");
	if (!points_qp_get(pts, cn->stream, &qp_at)) {
		jw_null(j);
		return;
	}
	int is = conn_init_side(cn);
	jw_obj(j);
	jw_key(j, "points");
	jw_arr(j);
	jw_str(j, pname(pts, c->p));
	jw_str(j, pname(pts, c->q));
	jw_arr_end(j);
	jw_kstr(j, "reference", pname(pts, c->ref));
	jw_ku64(j, "agreed", c->agreed);
	jw_ku64(j, "disagreed", c->disputed);
	jw_ku64(j, "other_copies", c->dropped);
	jw_ku64(j, "filled", c->filled);
	jw_koi64(j, "clock_offset_ns", c->has_offset, c->off);
	jw_koi64(j, "clock_offset_min_ns", c->has_offset, c->off_lo);
	jw_koi64(j, "clock_offset_max_ns", c->has_offset, c->off_hi);
	dir_json(j, pts, &c->dir[is], "i2r");
	dir_json(j, pts, &c->dir[!is], "r2i");
	jw_obj_end(j);
}
