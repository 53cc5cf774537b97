// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics per time interval (see series.h). */
#include "series.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

static const char csv_header[] =
	"start_ns,end_ns,offset_ns,qp,op,count,complete,bytes,segments,crc_errors,retransmissions,"
	"stall_ns,"
	"latency_count,latency_min_ns,latency_mean_ns,latency_p50_ns,latency_p90_ns,"
	"latency_p99_ns,latency_p999_ns,latency_max_ns,"
	"delivery_count,delivery_min_ns,delivery_mean_ns,delivery_p50_ns,delivery_p90_ns,"
	"delivery_p99_ns,delivery_p999_ns,delivery_max_ns\n";

void series_init(struct series *s, FILE *f, enum out_format fmt, int64_t width_ns,
		 bool include_rtr, const struct source *src)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->fmt = fmt;
	s->width = width_ns > 0 ? width_ns : 1000000000;
	s->include_rtr = include_rtr;
	s->src = src;
	jw_init(&s->j, false);
	if (fmt == FMT_CSV)
		fputs(csv_header, f);
}

/* count,min,mean,p50,p90,p99,p999,max (empty fields when there is none) */
static void latency_csv(FILE *f, const struct iws_latency *lc)
{
	struct iws_latency *l = (struct iws_latency *)lc; /* quantiles sort lazily */
	if (!l->count) {
		fputs(",0,,,,,,,", f);
		return;
	}
	fprintf(f, ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
		   ",%" PRId64 ",%" PRId64,
		l->count, l->min, iws_latency_mean(l), iws_latency_quantile(l, 0.50),
		iws_latency_quantile(l, 0.90), iws_latency_quantile(l, 0.99),
		iws_latency_quantile(l, 0.999), l->max);
}

static void write_row(struct series *s, uint32_t stream, int t, const struct iws_op_stats *o)
{
	int64_t end = s->start + s->width;
	const char *name = iws_op_type_name((enum iws_op_type)t);
	if (s->fmt == FMT_CSV) {
		fprintf(s->f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%u,%s,%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64,
			s->start, end, s->start - s->origin, stream, name, o->count, o->complete,
			o->bytes, o->segments, o->crc_errors, o->retransmissions, o->stall_ns);
		latency_csv(s->f, &o->latency);
		latency_csv(s->f, &o->delivery);
		fputc('\n', s->f);
	} else {
		struct jsonw *j = &s->j;
		jw_obj(j);
		jw_ki64(j, "start_ns", s->start);
		jw_ki64(j, "end_ns", end);
		jw_ki64(j, "offset_ns", s->start - s->origin);
		jw_ku64(j, "qp", stream);
		jw_kstr(j, "op", name);
		stats_op_fields_json(j, o);
		jw_obj_end(j);
		jw_flush_line(j, s->f);
	}
	s->rows++;
}

static int by_stream(const void *a, const void *b)
{
	const struct series_qp *x = a, *y = b;
	return x->stream < y->stream ? -1 : x->stream > y->stream;
}

/* Write the open interval's rows (QPs in number order) and empty it. */
static void close_interval(struct series *s)
{
	if (!s->open)
		return;
	qsort(s->qps, s->nqps, sizeof(*s->qps), by_stream);
	for (uint32_t i = 0; i < s->nqps; i++) {
		struct series_qp *q = &s->qps[i];
		for (int t = 0; t < IWS_OPT_COUNT; t++)
			if (q->st.op[t].count)
				write_row(s, q->stream, t, &q->st.op[t]);
		iws_qp_stats_free(&q->st);
	}
	slotmap_clear(&s->by_slot);
	s->nqps = 0;
	s->open = false;
}

/* The open interval's statistics of c (NULL when out of memory). */
static struct iws_qp_stats *stats_of(struct series *s, const struct conn *c)
{
	int32_t i = slotmap_get(&s->by_slot, c->slot);
	if (i >= 0)
		return &s->qps[i].st;
	if (s->nqps == s->capqps) {
		uint32_t n = s->capqps ? s->capqps * 2 : 16;
		struct series_qp *v = realloc(s->qps, n * sizeof(*v));
		if (!v)
			return NULL;
		s->qps = v;
		s->capqps = n;
	}
	if (!slotmap_set(&s->by_slot, c->slot, (int32_t)s->nqps))
		return NULL;
	struct series_qp *q = &s->qps[s->nqps++];
	q->stream = c->stream;
	iws_qp_stats_init(&q->st);
	q->st.include_rtr = s->include_rtr;
	return &q->st;
}

void series_add(struct series *s, const struct conn *c, const struct iws_op *op)
{
	if (op->rtr && !s->include_rtr)
		return;
	if (!s->started) {
		s->origin = s->start = source_stats(s->src)->first_ns;
		s->started = true;
	}
	int64_t t = op->start_ns;
	if (t >= s->start + s->width) {
		close_interval(s);
		/* the interval that holds t (empty ones in between have no rows) */
		s->start += (t - s->start) / s->width * s->width;
	} else if (t < s->start) {
		/* Its interval was written already (the timeline had to let an
		 * operation go early): it counts here so the sums stay right. */
		s->late++;
	}
	struct iws_qp_stats *st = stats_of(s, c);
	if (st) {
		iws_qp_stats_add(st, op);
		s->open = true;
	}
}

void series_finish(struct series *s)
{
	close_interval(s);
}

void series_free(struct series *s)
{
	close_interval(s);
	free(s->qps);
	slotmap_free(&s->by_slot);
	jw_free(&s->j);
	memset(s, 0, sizeof(*s));
}
