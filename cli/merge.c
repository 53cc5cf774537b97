// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iwarpscope merge` (see merge.h). The inputs are parsed whole (jsonr.h),
 * checked, and combined member by member into a JSON buffer; only a merge
 * that succeeded is written. The text tables are drawn from the merged
 * document, so text and JSON always agree.
 */
#include "merge.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "out.h"
#include "sketch.h"
#include "units.h"

/* Members of one object merged by name; more is refused (hostile input). */
#define MERGE_MAX_KEYS 1024
/* Distinct (qid, op) groups of an NVMe "ops" list. */
#define MERGE_MAX_GROUPS 4096
#define MERGE_MAX_ENTRIES 65536

struct val {
	const struct jr_doc *d;
	const struct jr_node *n;
};

struct mctx {
	struct jsonw *j;
	const struct merge_in *ins;
	int n;
	char path[256];             /* where in the document, for messages */
	char *err;
	size_t errlen;
	bool failed;
};

static const char *label_of(const struct mctx *m, const struct jr_doc *d)
{
	for (int i = 0; i < m->n; i++)
		if (&m->ins[i].doc == d)
			return m->ins[i].label;
	return "?";
}

/* The first failure: "INPUT: PATH: what" (INPUT when d, the input at fault,
 * is known). */
__attribute__((format(printf, 3, 4))) static void mfail(struct mctx *m, const struct jr_doc *d,
							 const char *fmt, ...)
{
	if (m->failed)
		return;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(m->err, m->errlen, "%s%s%s: %s", d ? label_of(m, d) : "", d ? ": " : "", m->path,
		 msg);
	m->failed = true;
}

/* A value copied through. */
static void emit(struct jsonw *j, const struct jr_doc *d, const struct jr_node *n, bool compact)
{
	switch (n->type) {
	case JR_NULL:
		jw_null(j);
		break;
	case JR_BOOL:
		jw_bool(j, n->b);
		break;
	case JR_NUMBER:
		jw_raw(j, d->text + n->off, n->len);
		break;
	case JR_STRING:
		jw_str(j, jr_str(d, n));
		break;
	case JR_ARRAY:
		if (compact)
			jw_arr_compact(j);
		else
			jw_arr(j);
		for (const struct jr_node *c = jr_first(d, n); c; c = jr_next(d, c))
			emit(j, d, c, compact);
		jw_arr_end(j);
		break;
	case JR_OBJECT:
		jw_obj(j);
		for (const struct jr_node *c = jr_first(d, n); c; c = jr_next(d, c)) {
			jw_key(j, jr_key(d, c));
			emit(j, d, c, strcmp(jr_key(d, c), "buckets") == 0);
		}
		jw_obj_end(j);
		break;
	}
}

static bool is_dist(const struct jr_node *n, const struct jr_doc *d)
{
	return n->type == JR_OBJECT && (jr_get(d, n, "sketch") || jr_get(d, n, "p50"));
}

/* Distributions: through their sketches; one alone is copied (exact stays
 * exact). */
static void merge_dist(struct mctx *m, const char *key, const struct val *v, int k)
{
	struct iws_latency acc, one;
	char msg[200];
	int present = 0, last = 0;
	iws_latency_init(&acc);
	for (int i = 0; i < k && !m->failed; i++) {
		if (v[i].n->type == JR_NULL)
			continue;
		if (sketch_read(v[i].d, v[i].n, &one, msg, sizeof(msg))) {
			mfail(m, v[i].d, "%s", msg);
			break;
		}
		if (!iws_latency_merge(&acc, &one))
			mfail(m, NULL, "a merged bucket holds more than 2^32-1 samples (or out of memory)");
		iws_latency_free(&one);
		present++;
		last = i;
	}
	if (!m->failed) {
		if (!present) {
			jw_knull(m->j, key);
		} else if (present == 1) {
			jw_key(m->j, key);
			emit(m->j, v[last].d, v[last].n, false);
		} else {
			latency_json_sketch(m->j, key, &acc);
		}
	}
	iws_latency_free(&acc);
}

static bool key_in(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(key, *list) == 0)
			return true;
	return false;
}

/* Numbers: the least, the greatest, null (rates and spans), or the sum
 * (saturating). */
static void merge_numbers(struct mctx *m, const char *key, const struct val *v, int k)
{
	static const char *const least[] = { "first_ns", "min", NULL };
	static const char *const most[] = { "last_ns", "max", "max_inflight", NULL };
	static const char *const none[] = { "throughput_bps", "iops", "span_ns", "data_span_ns", NULL };
	bool lo = key_in(key, least), hi = key_in(key, most) || strstr(key, "_peak");
	bool all_u = true, first = true;
	uint64_t u = 0;
	int64_t s = 0;
	if (key_in(key, none)) {
		jw_knull(m->j, key);
		return;
	}
	for (int i = 0; i < k; i++) {
		const struct jr_node *n = v[i].n;
		uint64_t x;
		int64_t y;
		if (n->type == JR_NULL)
			continue;
		if (!jr_i64(n, &y) && !jr_u64(n, &x)) {
			mfail(m, v[i].d, "a number that is no 64-bit integer");
			return;
		}
		if (!jr_u64(n, &x))
			all_u = false;
		if (!jr_i64(n, &y))
			y = INT64_MAX;
		if (!all_u || !jr_u64(n, &x))
			x = 0;
		if (first) {
			u = x;
			s = y;
			first = false;
		} else if (lo) {
			u = x < u ? x : u;
			s = y < s ? y : s;
		} else if (hi) {
			u = x > u ? x : u;
			s = y > s ? y : s;
		} else {
			u = x > UINT64_MAX - u ? UINT64_MAX : u + x;
			if (__builtin_add_overflow(s, y, &s))
				s = y > 0 ? INT64_MAX : INT64_MIN;
		}
	}
	if (all_u)
		jw_ku64(m->j, key, u);
	else
		jw_ki64(m->j, key, s);
}

static void merge_values(struct mctx *m, const char *key, const struct val *v, int k);

static size_t path_push(struct mctx *m, const char *key)
{
	size_t at = strlen(m->path);
	snprintf(m->path + at, sizeof(m->path) - at, "%s%s", at ? "." : "", key);
	return at;
}

/* Objects: member by member, in the order names first appear. */
static void merge_objects(struct mctx *m, const struct val *v, int k)
{
	const char **keys = malloc(MERGE_MAX_KEYS * sizeof(*keys));
	struct val *sub = malloc((size_t)k * sizeof(*sub));
	int nkeys = 0;
	if (!keys || !sub) {
		mfail(m, NULL, "out of memory");
		goto out;
	}
	for (int i = 0; i < k; i++)
		if (v[i].n->n > MERGE_MAX_KEYS) {
			mfail(m, v[i].d, "an object with more than %d members", MERGE_MAX_KEYS);
			goto out;
		}
	for (int i = 0; i < k; i++)
		for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c)) {
			const char *name = jr_key(v[i].d, c);
			int x = 0;
			while (x < nkeys && strcmp(keys[x], name))
				x++;
			if (x < nkeys)
				continue;
			if (nkeys == MERGE_MAX_KEYS) {
				mfail(m, v[i].d, "an object with more than %d members", MERGE_MAX_KEYS);
				goto out;
			}
			keys[nkeys++] = name;
		}
	jw_obj(m->j);
	for (int x = 0; x < nkeys && !m->failed; x++) {
		int ns = 0;
		for (int i = 0; i < k; i++) {
			const struct jr_node *c = jr_get(v[i].d, v[i].n, keys[x]);
			if (c)
				sub[ns++] = (struct val){ v[i].d, c };
		}
		size_t at = path_push(m, keys[x]);
		merge_values(m, keys[x], sub, ns);
		m->path[at] = 0;
	}
	jw_obj_end(m->j);
out:
	free(keys);
	free(sub);
}

/* Entry c of document d has qid (of document qd) and op. */
static bool same_group(const struct jr_doc *qd, const struct jr_node *qid, const char *op,
		       const struct jr_doc *d, const struct jr_node *c)
{
	const struct jr_node *q = jr_get(d, c, "qid");
	return q->type == qid->type &&
	       (q->type == JR_NULL ||
		(q->len == qid->len && !memcmp(qd->text + qid->off, d->text + q->off, q->len))) &&
	       strcmp(op, jr_str(d, jr_get(d, c, "op"))) == 0;
}

/* The NVMe "ops" lists: entries with the same qid and op merged. */
static void merge_groups(struct mctx *m, const char *key, const struct val *v, int k)
{
	struct grp {
		const struct jr_node *qid;
		const struct jr_doc *qd;
		const char *op;
		int n;
	} *g = calloc(MERGE_MAX_GROUPS, sizeof(*g));
	size_t total = 0;
	for (int i = 0; i < k; i++) {
		total += v[i].n->n;
		if (total > MERGE_MAX_ENTRIES) {
			mfail(m, v[i].n->n > MERGE_MAX_ENTRIES ? v[i].d : NULL,
			      "more than %d entries to group", MERGE_MAX_ENTRIES);
			free(g);
			return;
		}
	}
	struct val *sub = malloc((total ? total : 1) * sizeof(*sub));
	int ng = 0;
	if (!g || !sub) {
		mfail(m, NULL, "out of memory");
		goto out;
	}
	for (int i = 0; i < k; i++)
		for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c)) {
			const struct jr_node *q = jr_get(v[i].d, c, "qid"), *o = jr_get(v[i].d, c, "op");
			if (c->type != JR_OBJECT || !q || !o || o->type != JR_STRING) {
				mfail(m, v[i].d, "an entry without qid and op");
				goto out;
			}
			int x = 0;
			while (x < ng && !same_group(g[x].qd, g[x].qid, g[x].op, v[i].d, c))
				x++;
			if (x == ng) {
				if (ng == MERGE_MAX_GROUPS) {
					mfail(m, NULL, "more than %d (qid, op) groups", MERGE_MAX_GROUPS);
					goto out;
				}
				g[ng++] = (struct grp){ q, v[i].d, jr_str(v[i].d, o), 0 };
			}
			g[x].n++;
		}
	jw_key(m->j, key);
	jw_arr(m->j);
	for (int x = 0; x < ng && !m->failed; x++) {
		int ns = 0;
		for (int i = 0; i < k; i++)
			for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c;
			     c = jr_next(v[i].d, c)) {
				if (same_group(g[x].qd, g[x].qid, g[x].op, v[i].d, c))
					sub[ns++] = (struct val){ v[i].d, c };
			}
		merge_objects(m, sub, ns);
	}
	jw_arr_end(m->j);
out:
	free(g);
	free(sub);
}

static void merge_values(struct mctx *m, const char *key, const struct val *v, int k)
{
	int type = -1;
	bool mixed = false, dist = false;
	for (int i = 0; i < k; i++) {
		int t = v[i].n->type;
		dist |= is_dist(v[i].n, v[i].d);
		if (t == JR_NULL)
			continue;
		if (type >= 0 && t != type)
			mixed = true;
		type = t;
	}
	if (m->failed)
		return;
	if (dist && !mixed) {
		merge_dist(m, key, v, k);
		return;
	}
	if (type < 0 || mixed) {
		jw_knull(m->j, key);
		return;
	}
	switch (type) {
	case JR_NUMBER:
		merge_numbers(m, key, v, k);
		return;
	case JR_OBJECT:
		jw_key(m->j, key);
		merge_objects(m, v, k);
		return;
	case JR_ARRAY: {
		bool objs = strcmp(key, "ops") == 0;
		for (int i = 0; i < k && objs; i++)
			for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c))
				objs &= c->type == JR_OBJECT;
		if (objs) {
			merge_groups(m, key, v, k);
			return;
		}
		/* lists (files, warnings, ...): one after the other */
		jw_key(m->j, key);
		jw_arr(m->j);
		for (int i = 0; i < k; i++)
			for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c))
				emit(m->j, v[i].d, c, false);
		jw_arr_end(m->j);
		return;
	}
	default: {
		/* strings and booleans: kept when all agree */
		bool same = true;
		for (int i = 1; i < k && same; i++) {
			const struct jr_node *a = v[0].n, *b = v[i].n;
			same = a->type == b->type &&
			       (a->type == JR_NULL || (a->type == JR_BOOL && a->b == b->b) ||
				(a->type == JR_STRING && !strcmp(jr_str(v[0].d, a), jr_str(v[i].d, b))));
		}
		jw_key(m->j, key);
		if (same)
			emit(m->j, v[0].d, v[0].n, false);
		else
			jw_null(m->j);
		return;
	}
	}
}

/* The shape of `stats --format json`: {"capture"?, "qps": [{"qp": N, ...}],
 * "total": {...}}. */
static int check_shape(const struct merge_in *in, char *err, size_t errlen)
{
	const struct jr_doc *d = &in->doc;
	const struct jr_node *r = jr_root(d), *q = jr_get(d, r, "qps"), *t = jr_get(d, r, "total");
	const struct jr_node *c = jr_get(d, r, "capture");
	if (!q || q->type != JR_ARRAY || !t || t->type != JR_OBJECT || (c && c->type != JR_OBJECT)) {
		snprintf(err, errlen,
			 "%s: not the output of `iwarpscope stats --format json` (no \"qps\" list"
			 " and \"total\" object)", in->label);
		return -1;
	}
	uint64_t n;
	for (const struct jr_node *e = jr_first(d, q); e; e = jr_next(d, e))
		if (e->type != JR_OBJECT || !jr_u64(jr_get(d, e, "qp"), &n)) {
			snprintf(err, errlen, "%s: a QP without a \"qp\" number", in->label);
			return -1;
		}
	return 0;
}

/* Every distribution in a QP read back: an incompatible sketch is refused
 * even where it would only be copied. */
static int check_dists(struct mctx *m, const struct jr_doc *d, const struct jr_node *n, int depth)
{
	struct iws_latency l;
	char msg[200];
	if (is_dist(n, d)) {
		if (sketch_read(d, n, &l, msg, sizeof(msg))) {
			mfail(m, NULL, "%s", msg);
			return -1;
		}
		iws_latency_free(&l);
		return 0;
	}
	if (depth > JR_MAX_DEPTH)
		return 0;
	for (const struct jr_node *c = jr_first(d, n); c; c = jr_next(d, c))
		if (check_dists(m, d, c, depth + 1))
			return -1;
	return 0;
}

static void qp_out(struct mctx *m, const struct merge_in *in, const struct jr_node *qp)
{
	const struct jr_doc *d = &in->doc;
	const struct jr_node *old = jr_get(d, qp, "source");
	char label[512];
	/* a merge merged again: the label of the merge, then the QP's own */
	if (old && old->type == JR_STRING)
		snprintf(label, sizeof(label), "%s/%s", in->label, jr_str(d, old));
	else
		snprintf(label, sizeof(label), "%s", in->label);
	jw_obj(m->j);
	for (const struct jr_node *c = jr_first(d, qp); c; c = jr_next(d, c)) {
		const char *k = jr_key(d, c);
		if (strcmp(k, "source") == 0)
			continue;
		jw_key(m->j, k);
		emit(m->j, d, c, strcmp(k, "buckets") == 0);
		if (strcmp(k, "qp") == 0)
			jw_kstr(m->j, "source", label);
	}
	jw_obj_end(m->j);
}

static void merge_json(struct mctx *m, struct merge_in *ins, int n)
{
	struct val *v = malloc((size_t)n * sizeof(*v));
	if (!v) {
		mfail(m, NULL, "out of memory");
		return;
	}
	jw_obj(m->j);
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct jr_node *c = jr_get(&ins[i].doc, jr_root(&ins[i].doc), "capture");
		if (c)
			v[k++] = (struct val){ &ins[i].doc, c };
	}
	if (k) {
		snprintf(m->path, sizeof(m->path), "capture");
		jw_key(m->j, "capture");
		merge_objects(m, v, k);
	}
	jw_key(m->j, "sources");
	jw_arr(m->j);
	for (int i = 0; i < n; i++)
		jw_str(m->j, ins[i].label);
	jw_arr_end(m->j);
	jw_key(m->j, "qps");
	jw_arr(m->j);
	for (int i = 0; i < n && !m->failed; i++) {
		const struct jr_doc *d = &ins[i].doc;
		for (const struct jr_node *q = jr_first(d, jr_get(d, jr_root(d), "qps")); q;
		     q = jr_next(d, q)) {
			uint64_t num = 0;
			jr_u64(jr_get(d, q, "qp"), &num);
			snprintf(m->path, sizeof(m->path), "%s: qp %" PRIu64, ins[i].label, num);
			if (check_dists(m, d, q, 0))
				break;
			qp_out(m, &ins[i], q);
		}
	}
	jw_arr_end(m->j);
	for (int i = 0; i < n; i++)
		v[i] = (struct val){ &ins[i].doc, jr_get(&ins[i].doc, jr_root(&ins[i].doc), "total") };
	if (!m->failed) {
		snprintf(m->path, sizeof(m->path), "total");
		jw_key(m->j, "total");
		merge_objects(m, v, n);
	}
	jw_obj_end(m->j);
	free(v);
}

/* ---- text: the tables of `stats`, drawn from the merged document ---- */

static uint64_t u64_of(const struct jr_doc *d, const struct jr_node *o, const char *key)
{
	uint64_t x = 0;
	jr_u64(jr_get(d, o, key), &x);
	return x;
}

static int64_t i64_of(const struct jr_doc *d, const struct jr_node *o, const char *key)
{
	int64_t x = 0;
	jr_i64(jr_get(d, o, key), &x);
	return x;
}

static void qp_label(char *buf, size_t n, const struct jr_doc *d, const struct jr_node *qp)
{
	const struct jr_node *srcs = jr_get(d, jr_root(d), "sources");
	const char *s = jr_str(d, jr_get(d, qp, "source"));
	int idx = 0, i = 1;
	for (const struct jr_node *c = jr_first(d, srcs); c && s && !idx; c = jr_next(d, c), i++) {
		const char *l = jr_str(d, c);
		size_t ln = l ? strlen(l) : 0;
		if (l && strncmp(s, l, ln) == 0 && (s[ln] == 0 || s[ln] == '/'))
			idx = i;
	}
	snprintf(buf, n, "%d:%" PRIu64, idx, u64_of(d, qp, "qp"));
}

static void op_row(FILE *f, const char *qp, const char *op, int opw, const struct jr_doc *d,
		   const struct jr_node *o)
{
	char b[32];
	print_padded(f, qp, 6);
	fputc(' ', f);
	print_padded(f, op, -opw);
	uint64_t count = u64_of(d, o, "count");
	fprintf(f, "%8" PRIu64 "%11" PRIu64, count, count - u64_of(d, o, "complete"));
	print_padded(f, fmt_bytes(b, sizeof(b), u64_of(d, o, "bytes")), 11);
	fprintf(f, "%10" PRIu64 "%9" PRIu64 "%9" PRIu64 "\n", u64_of(d, o, "segments"),
		u64_of(d, o, "crc_errors"), u64_of(d, o, "retransmissions"));
}

static void dist_row(FILE *f, const char *qp, const char *op, int opw, const struct jr_doc *d,
		     const struct jr_node *l)
{
	static const char *const cols[] = { "min", "mean", "p50", "p90", "p99", "p999", "max" };
	char b[32];
	print_padded(f, qp, 6);
	fputc(' ', f);
	print_padded(f, op, -opw);
	fprintf(f, "%8" PRIu64, u64_of(d, l, "count"));
	for (int i = 0; i < 7; i++)
		print_padded(f, fmt_dur_c(b, sizeof(b), i64_of(d, l, cols[i])), 8);
	fputc('\n', f);
}

/* Each op of an "ops" object: an operation row, or a row of distribution key. */
static bool rows(FILE *f, const char *qp, int opw, const struct jr_doc *d, const struct jr_node *ops,
		 const char *dist)
{
	bool any = false;
	if (!ops || ops->type != JR_OBJECT)
		return false;
	for (const struct jr_node *o = jr_first(d, ops); o; o = jr_next(d, o)) {
		if (o->type != JR_OBJECT)
			continue;
		const struct jr_node *l = dist ? jr_get(d, o, dist) : NULL;
		if (!dist)
			op_row(f, qp, jr_key(d, o), opw, d, o);
		else if (l && l->type == JR_OBJECT)
			dist_row(f, qp, jr_key(d, o), opw, d, l);
		else
			continue;
		any = true;
	}
	return any;
}

static void text_tables(FILE *f, const struct jr_doc *d)
{
	const struct jr_node *r = jr_root(d), *qps = jr_get(d, r, "qps");
	const struct jr_node *tops = jr_get(d, jr_get(d, r, "total"), "ops");
	char qp[64];
	int i = 1, opw = 11;
	fputs("Sources (QP column: source:qp)\n", f);
	for (const struct jr_node *s = jr_first(d, jr_get(d, r, "sources")); s; s = jr_next(d, s))
		fprintf(f, "%6d %s\n", i++, jr_str(d, s));
	for (const struct jr_node *o = jr_first(d, tops); o; o = jr_next(d, o))
		if ((int)strlen(jr_key(d, o)) + 1 > opw)
			opw = (int)strlen(jr_key(d, o)) + 1;
	fprintf(f, "\nOperations\n%6s %-*s%8s%11s%11s%10s%9s%9s\n", "QP", opw, "op", "count",
		"incomplete", "bytes", "segments", "CRC err", "retrans");
	uint32_t nq = 0;
	for (const struct jr_node *q = jr_first(d, qps); q; q = jr_next(d, q)) {
		qp_label(qp, sizeof(qp), d, q);
		nq += rows(f, qp, opw, d, jr_get(d, q, "ops"), NULL);
	}
	if (nq > 1)
		rows(f, "all", opw, d, tops, NULL);
	if (!nq)
		fputs("  (no RDMA operations)\n", f);
	for (int t = 0; t < 2; t++) {
		const char *key = t ? "delivery_ns" : "latency_ns";
		bool any = false;
		fprintf(f, "\n%s\n%6s %-*s%8s%8s%8s%8s%8s%8s%8s%8s\n",
			t ? "Delivery (start to the peer's TCP ACK of the last octet)"
			  : "Latency (complete reads and atomics)",
			"QP", opw, "op", "count", "min", "mean", "p50", "p90", "p99", "p99.9", "max");
		for (const struct jr_node *q = jr_first(d, qps); q; q = jr_next(d, q)) {
			qp_label(qp, sizeof(qp), d, q);
			any |= rows(f, qp, opw, d, jr_get(d, q, "ops"), key);
		}
		if (nq > 1)
			rows(f, "all", opw, d, tops, key);
		if (!any)
			fputs("  (none)\n", f);
	}
}

int merge_write(FILE *f, struct merge_in *ins, int n, bool text, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		if (check_shape(&ins[i], err, errlen))
			return -1;
	struct jsonw jw;
	struct mctx m = { .j = &jw, .ins = ins, .n = n, .err = err, .errlen = errlen };
	jw_init(&jw, true);
	merge_json(&m, ins, n);
	if (!m.failed && jw.oom)
		mfail(&m, NULL, "out of memory");
	if (m.failed) {
		jw_free(&jw);
		return -1;
	}
	if (!text) {
		jw_flush_line(&jw, f);
		jw_free(&jw);
		return 0;
	}
	struct jr_doc d;
	char msg[200];
	int rc = jr_parse(&d, jw.buf, jw.len, msg, sizeof(msg));
	jw_free(&jw);
	if (rc) {
		snprintf(err, errlen, "the merged document does not read back (%s)", msg);
		return -1;
	}
	text_tables(f, &d);
	jr_free(&d);
	return 0;
}

static const char merge_usage[] =
	"Usage: iwarpscope merge [--format text|json] [-o FILE] STATS.json...\n"
	"\n"
	"Combines the statistics of several captures or hosts, each written by\n"
	"`iwarpscope stats --format json` ('-' reads one from stdin), into one report:\n"
	"QPs stay distinct (labelled with their input), counts and bytes are added,\n"
	"latency distributions merged through their sketches (quantiles within\n"
	"0.2 %% of the joint analysis; docs/semantics.md). The output is the JSON of\n"
	"stats (mergeable again) or its text tables.\n"
	"\n"
	"  -T, --format text|json   output format (text)\n"
	"  -o, --output FILE        write to FILE instead of stdout\n"
	"  -h, --help               this text\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, unreadable, invalid or incompatible input.\n";

int merge_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool text = true;
	const char *output = NULL;
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":T:o:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'T':
			if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
				fprintf(stderr, "iwarpscope merge: unknown format '%s' (text, json)\n",
					optarg);
				return 2;
			}
			text = strcmp(optarg, "text") == 0;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(merge_usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "iwarpscope merge: %s needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "iwarpscope merge: unknown option '%s' (--help lists them)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	int n = argc - optind, stdins = 0;
	if (n < 1) {
		fputs("iwarpscope merge: no input (STATS.json...; --help)\n", stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		stdins += strcmp(argv[i], "-") == 0;
	if (stdins > 1) {
		fputs("iwarpscope merge: '-' (stdin) can be read only once\n", stderr);
		return 2;
	}
	struct merge_in *ins = calloc((size_t)n, sizeof(*ins));
	char err[600];
	int rc = 2, parsed = 0;
	if (!ins) {
		fputs("iwarpscope merge: out of memory\n", stderr);
		return 2;
	}
	for (; parsed < n; parsed++) {
		ins[parsed].label = argv[optind + parsed];
		if (jr_parse_file(&ins[parsed].doc, ins[parsed].label, err, sizeof(err))) {
			fprintf(stderr, "iwarpscope merge: %s\n", err);
			goto out;
		}
	}
	FILE *f = output ? fopen(output, "w") : stdout;
	if (!f) {
		fprintf(stderr, "iwarpscope merge: %s: cannot write\n", output);
		goto out;
	}
	if (merge_write(f, ins, n, text, err, sizeof(err)))
		fprintf(stderr, "iwarpscope merge: %s\n", err);
	else
		rc = 0;
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "iwarpscope merge: write error\n");
		rc = 2;
	}
	if (output)
		fclose(f);
out:
	for (int i = 0; i < parsed; i++)
		jr_free(&ins[i].doc);
	free(ins);
	return rc;
}
