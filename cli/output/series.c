// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics and wire numbers per time interval (see series.h). */
#include "series.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out_ops.h"
#include "out_stats.h"
#include "timegrid.h"
#include "words.h"

static const char csv_header[] =
	"start_ns,end_ns,offset_ns,qp,op,count,complete,bytes,segments,crc_errors,retransmissions,"
	"stall_ns,"
	"latency_count,latency_min_ns,latency_mean_ns,latency_p50_ns,latency_p90_ns,"
	"latency_p99_ns,latency_p999_ns,latency_max_ns,"
	"delivery_count,delivery_min_ns,delivery_mean_ns,delivery_p50_ns,delivery_p90_ns,"
	"delivery_p99_ns,delivery_p999_ns,delivery_max_ns,"
	"dir,wire_bytes,wire_segments,retransmitted_bytes,goodput_bytes\n";

static void place(void *ctx, const struct conn *c, const struct conn_seg *seg);

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
	wire_init(&s->wire, s, place);
	if (fmt == FMT_CSV)
		fputs(csv_header, f);
}

static void start(struct series *s)
{
	if (!s->started) {
		s->origin = source_stats(s->src)->first_ns;
		s->started = true;
	}
}

static uint64_t interval(const struct series *s, int64_t t)
{
	return interval_of(t - s->origin, s->width);
}

/* The interval's start, ns since the epoch. */
static int64_t at(const struct series *s, uint64_t k)
{
	return s->origin + (int64_t)k * s->width;
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

static void row_start_json(struct series *s, uint64_t k, uint32_t stream)
{
	struct jsonw *j = &s->j;
	jw_obj(j);
	jw_ki64(j, "start_ns", at(s, k));
	jw_ki64(j, "end_ns", at(s, k + 1));
	jw_ki64(j, "offset_ns", at(s, k) - s->origin);
	jw_ku64(j, "qp", stream);
}

static void write_row(struct series *s, uint32_t stream, int t, const struct iws_op_stats *o)
{
	const char *name = iws_op_type_name((enum iws_op_type)t);
	if (s->fmt == FMT_CSV) {
		fprintf(s->f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%u,%s,%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64,
			at(s, s->cur), at(s, s->cur + 1), at(s, s->cur) - s->origin, stream, name, o->count,
			o->complete, o->bytes, o->segments, o->crc_errors, o->retransmissions, o->stall_ns);
		latency_csv(s->f, &o->latency);
		latency_csv(s->f, &o->delivery);
		fputs(",,,,,\n", s->f);
	} else {
		struct jsonw *j = &s->j;
		row_start_json(s, s->cur, stream);
		jw_kstr(j, "op", name);
		stats_op_fields_json(j, o);
		jw_obj_end(j);
		jw_flush_line(j, s->f);
	}
	s->rows++;
}

static void write_wire(struct series *s, const struct series_wire *w)
{
	const char *dir = conn_dir_name(w->dir);
	if (s->fmt == FMT_CSV) {
		fprintf(s->f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%u,,,,,,,,,,,,,,,,,,,,,,,,,%s,%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			at(s, w->interval), at(s, w->interval + 1), at(s, w->interval) - s->origin,
			w->c->stream, dir, w->bytes, w->segments, w->retransmitted, w->goodput);
	} else {
		char a[64];
		struct jsonw *j = &s->j;
		row_start_json(s, w->interval, w->c->stream);
		jw_kstr(j, "dir", dir);
		jw_kstr(j, "src", conn_ep_str(w->c, w->dir, a));
		jw_kstr(j, "dst", conn_ep_str(w->c, !w->dir, a));
		jw_ku64(j, "wire_bytes", w->bytes);
		jw_ku64(j, "wire_segments", w->segments);
		jw_ku64(j, "retransmitted_bytes", w->retransmitted);
		jw_ku64(j, "goodput_bytes", w->goodput);
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

static int by_interval_qp_dir(const void *a, const void *b)
{
	const struct series_wire *x = a, *y = b;
	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->c->stream != y->c->stream)
		return x->c->stream < y->c->stream ? -1 : 1;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

/* Take the wire entries of intervals up to `upto` out of s->w, sorted
 * (*n of them, into a new array; NULL when none or out of memory: then
 * they stay). */
static struct series_wire *take_wire(struct series *s, uint64_t upto, uint32_t *n)
{
	*n = 0;
	uint32_t m = 0;
	for (uint32_t i = 0; i < s->nw; i++)
		m += s->w[i].interval <= upto;
	struct series_wire *v = m ? malloc(m * sizeof(*v)) : NULL;
	if (!v)
		return NULL;
	uint32_t k = 0;
	for (uint32_t i = 0; i < s->nw; i++) {
		if (s->w[i].interval <= upto)
			v[(*n)++] = s->w[i];
		else
			s->w[k++] = s->w[i];
	}
	s->nw = k;
	/* the latest entry of each QP direction, where it is now */
	slotmap_clear(&s->wire_by);
	for (uint32_t i = 0; i < s->nw; i++)
		slotmap_set(&s->wire_by, 2 * s->w[i].c->slot + s->w[i].dir, (int32_t)i);
	qsort(v, *n, sizeof(*v), by_interval_qp_dir);
	return v;
}

/* Write the intervals up to `upto`: wire rows of the intervals before the
 * open one, then the open one's operation rows (if it is <= upto) with its
 * wire rows, QP by QP. */
static void write_upto(struct series *s, uint64_t upto)
{
	uint32_t n = 0, i = 0;
	struct series_wire *v = take_wire(s, upto, &n);
	bool ops = s->open && s->cur <= upto;
	if (ops)
		qsort(s->qps, s->nqps, sizeof(*s->qps), by_stream);
	for (; i < n && (!ops || v[i].interval < s->cur); i++)
		write_wire(s, &v[i]);
	if (ops) {
		for (uint32_t q = 0; q < s->nqps; q++) {
			struct series_qp *e = &s->qps[q];
			for (; i < n && v[i].interval == s->cur && v[i].c->stream < e->stream; i++)
				write_wire(s, &v[i]);
			for (int t = 0; t < IWS_OPT_COUNT; t++)
				if (e->st.op[t].count)
					write_row(s, e->stream, t, &e->st.op[t]);
			iws_qp_stats_free(&e->st);
			for (; i < n && v[i].interval == s->cur && v[i].c->stream == e->stream; i++)
				write_wire(s, &v[i]);
		}
		slotmap_clear(&s->by_slot);
		s->nqps = 0;
		s->open = false;
	}
	for (; i < n; i++)
		write_wire(s, &v[i]);
	free(v);
	if (upto == UINT64_MAX)
		s->written = UINT64_MAX;
	else if (upto + 1 > s->written)
		s->written = upto + 1;
	s->any_written = true;
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
	start(s);
	uint64_t k = interval(s, op->start_ns);
	if (!s->open || k > s->cur) {
		/* the intervals before k are complete: nothing can start there any more */
		if (k)
			write_upto(s, k - 1);
		if (!s->open)
			s->cur = k > s->written || !s->any_written ? k : s->written;
	}
	if (s->any_written && k < s->written) {
		/* Its interval was written already (the timeline had to let an
		 * operation go early): it counts in the open one so the sums stay
		 * right. */
		s->late++;
	}
	struct iws_qp_stats *st = stats_of(s, c);
	if (st) {
		iws_qp_stats_add(st, op);
		s->open = true;
	}
}

/* The wire entry of c's direction dir in interval k (NULL: written already,
 * or out of memory). */
static struct series_wire *wire_of(struct series *s, const struct conn *c, uint8_t dir, uint64_t k)
{
	if (s->any_written && k < s->written) {
		s->wire_late++;
		return NULL;
	}
	uint32_t key = 2 * c->slot + dir;
	int32_t i = slotmap_get(&s->wire_by, key);
	if (i >= 0 && s->w[i].interval == k)
		return &s->w[i];
	if (i >= 0 && s->w[i].interval > k) {
		/* an earlier interval (a frame older than the one before): look for it */
		for (uint32_t x = 0; x < s->nw; x++)
			if (s->w[x].c == c && s->w[x].dir == dir && s->w[x].interval == k)
				return &s->w[x];
	}
	if (s->nw == s->capw) {
		uint32_t n = s->capw ? s->capw * 2 : 64;
		struct series_wire *v = realloc(s->w, n * sizeof(*v));
		if (!v)
			return NULL;
		s->w = v;
		s->capw = n;
	}
	s->w[s->nw] = (struct series_wire){ .interval = k, .c = c, .dir = dir };
	if (i < 0 || s->w[i].interval < k)
		slotmap_set(&s->wire_by, key, (int32_t)s->nw);
	return &s->w[s->nw++];
}

static void place(void *ctx, const struct conn *c, const struct conn_seg *seg)
{
	struct series *s = ctx;
	start(s);
	uint8_t dir = seg->side == conn_init_side(c) ? IWS_DIR_I2R : IWS_DIR_R2I;
	struct series_wire *w = wire_of(s, c, dir, interval(s, seg->ts));
	if (!w)
		return;
	w->bytes += seg->wire_len;
	w->segments++;
	if (seg->retransmission)
		w->retransmitted += seg->wire_len;
}

void series_segment(struct series *s, const struct conn *c, const struct conn_seg *seg)
{
	wire_segment(&s->wire, c, seg);
}

void series_fpdu(struct series *s, const struct conn *c, const struct iws_pdu *pdu)
{
	uint32_t good = pdu_goodput(pdu);
	if (!good)
		return;
	start(s);
	struct series_wire *w = wire_of(s, c, pdu->dir, interval(s, pdu->ts));
	if (w)
		w->goodput += good;
}

void series_wire_finish(struct series *s, const struct analysis *a)
{
	wire_finish(&s->wire, a);
}

void series_finish(struct series *s)
{
	write_upto(s, UINT64_MAX);
}

void series_free(struct series *s)
{
	for (uint32_t i = 0; i < s->nqps; i++)
		iws_qp_stats_free(&s->qps[i].st);
	free(s->qps);
	free(s->w);
	slotmap_free(&s->by_slot);
	slotmap_free(&s->wire_by);
	wire_free(&s->wire);
	jw_free(&s->j);
	memset(s, 0, sizeof(*s));
}
