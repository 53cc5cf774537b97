// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of `iwarpscope merge` (see merge.h): the tables of `stats`
 * drawn from a merged statistics document, QPs named source:qp, the "all"
 * rows from its total. Every number comes from the document, so text and
 * JSON agree.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dists.h"
#include "merge.h"
#include "textsafe.h"
#include "units.h"

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
	print_padded(f, qp, 6);
	fputc(' ', f);
	print_padded(f, op, -opw);
	uint64_t count = u64_of(d, o, "count");
	/* octets as integers, as the summary's table: one unit for the column */
	fprintf(f, "%8" PRIu64 "%11" PRIu64 "%13" PRIu64, count, count - u64_of(d, o, "complete"),
		u64_of(d, o, "bytes"));
	fprintf(f, "%10" PRIu64 "%9" PRIu64 "%9" PRIu64 "\n", u64_of(d, o, "segments"),
		u64_of(d, o, "crc_errors"), u64_of(d, o, "retransmissions"));
}

/* A distribution's row, its values read from the JSON (dists.c prints the
 * table in one unit, as stats does). */
static void dist_row(struct dist_rows *out, const char *qp, const char *op, const struct jr_doc *d,
		     const struct jr_node *l)
{
	static const char *const cols[] = { "min", "mean", "p50", "p90", "p99", "p999", "max" };
	int64_t x[7];
	for (int i = 0; i < 7; i++)
		x[i] = i64_of(d, l, cols[i]);
	dist_rows_add_values(out, qp, op, u64_of(d, l, "count"), x);
}

/* Each op of an "ops" object: an operation row (dist NULL), or a row of
 * distribution key dist added to out. */
static bool rows(FILE *f, struct dist_rows *out, const char *qp, int opw, const struct jr_doc *d,
		 const struct jr_node *ops, const char *dist)
{
	bool any = false;
	if (!ops || ops->type != JR_OBJECT)
		return false;
	for (const struct jr_node *o = jr_first(d, ops); o; o = jr_next(d, o)) {
		if (o->type != JR_OBJECT)
			continue;
		const struct jr_node *l = dist ? jr_get(d, o, dist) : NULL;
		char op[96]; /* a key of an input's JSON: shown escaped */
		text_safe(op, sizeof(op), jr_key(d, o));
		if (!dist)
			op_row(f, qp, op, opw, d, o);
		else if (l && l->type == JR_OBJECT)
			dist_row(out, qp, op, d, l);
		else
			continue;
		any = true;
	}
	return any;
}

/* "qid op" of an NVMe group, as stats prints it. */
static const char *group_label(char *buf, size_t n, const struct jr_doc *d, const struct jr_node *g)
{
	char q[24] = "?";
	uint64_t qid;
	if (jr_u64(jr_get(d, g, "qid"), &qid))
		snprintf(q, sizeof(q), "%" PRIu64, qid);
	const char *op = jr_str(d, jr_get(d, g, "op"));
	char safe[64];
	snprintf(buf, n, "%4s %s", q, op ? text_safe(safe, sizeof(safe), op) : "?");
	return buf;
}

/* The NVMe groups of one QP (or of the total): command rows (dist NULL) or
 * rows of the distribution dist. */
static bool nvme_rows(FILE *f, struct dist_rows *out, const char *qp, int w, const struct jr_doc *d,
		      const struct jr_node *nvme, const char *dist)
{
	const struct jr_node *ops = jr_get(d, nvme, "ops");
	char lb[96];
	bool any = false;
	if (!ops || ops->type != JR_ARRAY)
		return false;
	for (const struct jr_node *g = jr_first(d, ops); g; g = jr_next(d, g)) {
		if (g->type != JR_OBJECT)
			continue;
		group_label(lb, sizeof(lb), d, g);
		if (dist) {
			const struct jr_node *l = jr_get(d, g, dist);
			if (l && l->type == JR_OBJECT)
				dist_row(out, qp, lb, d, l);
			any = true;
			continue;
		}
		uint64_t count = u64_of(d, g, "count"), iops;
		print_padded(f, qp, 6);
		fputc(' ', f);
		print_padded(f, lb, -w);
		fprintf(f, "%8" PRIu64 "%11" PRIu64 "%7" PRIu64 "%13" PRIu64, count,
			count - u64_of(d, g, "complete"), u64_of(d, g, "errors"), u64_of(d, g, "bytes"));
		if (jr_u64(jr_get(d, g, "iops"), &iops))
			fprintf(f, "%9" PRIu64 "\n", iops);
		else
			fprintf(f, "%9s\n", "-");
		any = true;
	}
	return any;
}

/* The NVMe tables, when any QP has NVMe (IOPS of merged groups: "-"). */
static void nvme_tables(FILE *f, const struct jr_doc *d)
{
	const struct jr_node *r = jr_root(d), *qps = jr_get(d, r, "qps");
	const struct jr_node *tn = jr_get(d, jr_get(d, r, "total"), "nvme");
	static const char *const titles[] = {
		"NVMe commands", "NVMe latency (complete commands: command capsule to completion)",
		"NVMe data transfer (complete commands with RDMA data: first to last data message)",
	};
	static const char *const dists[] = { NULL, "latency_ns", "data_ns" };
	char qp[64];
	int w = 13;
	if (!tn)
		return;
	for (const struct jr_node *g = jr_first(d, jr_get(d, tn, "ops")); g; g = jr_next(d, g)) {
		const char *op = jr_str(d, jr_get(d, g, "op"));
		if (op && (int)strlen(op) + 6 > w)
			w = (int)strlen(op) + 6;
	}
	for (int t = 0; t < 3; t++) {
		struct dist_rows out = { 0 };
		if (!t)
			fprintf(f, "\n%s\n%6s %-*s%8s%11s%7s%13s%9s\n", titles[t], "QP", w, " qid op",
				"count", "incomplete", "errors", "bytes", "IOPS");
		uint32_t nq = 0;
		for (const struct jr_node *q = jr_first(d, qps); q; q = jr_next(d, q)) {
			qp_label(qp, sizeof(qp), d, q);
			nq += nvme_rows(f, &out, qp, w, d, jr_get(d, q, "nvme"), dists[t]);
		}
		if (nq > 1)
			nvme_rows(f, &out, "all", w, d, tn, dists[t]);
		if (t)
			dist_rows_print(f, titles[t], "qid op", &out);
		free(out.v);
	}
}

/* "+0.500000" (seconds from the capture's first frame, to the microsecond) */
static const char *rel_s(char *buf, size_t len, int64_t ns)
{
	int64_t a = ns < 0 ? -ns : ns;
	snprintf(buf, len, "%s%" PRId64 ".%06" PRId64, ns < 0 ? "-" : "+", a / 1000000000, (a % 1000000000) / 1000);
	return buf;
}

void merge_text_tables(FILE *f, const struct jr_doc *d)
{
	const struct jr_node *r = jr_root(d), *qps = jr_get(d, r, "qps");
	const struct jr_node *tops = jr_get(d, jr_get(d, r, "total"), "ops");
	char qp[64];
	int i = 1, opw = 11;
	fputs("Sources (QP column: source:qp)\n", f);
	const struct jr_node *w = jr_first(d, jr_get(d, r, "source_windows"));
	for (const struct jr_node *s = jr_first(d, jr_get(d, r, "sources")); s; s = jr_next(d, s)) {
		fprintf(f, "%6d ", i++);
		text_safe_put(f, jr_str(d, s));
		/* its time window (stats --since/--until), as stats names it */
		if (w && w->type == JR_OBJECT) {
			char a[48], b[48], span[32];
			int64_t first = i64_of(d, w, "capture_first_ns");
			fprintf(f, "  window: %s s to %s s (%s) of the capture: %" PRIu64 " frames",
				rel_s(a, sizeof(a), i64_of(d, w, "from_ns") - first),
				rel_s(b, sizeof(b), i64_of(d, w, "to_ns") - first),
				fmt_dur(span, sizeof(span), i64_of(d, w, "span_ns")), u64_of(d, w, "frames"));
		}
		if (w)
			w = jr_next(d, w);
		fputc('\n', f);
	}
	for (const struct jr_node *o = jr_first(d, tops); o; o = jr_next(d, o))
		if ((int)strlen(jr_key(d, o)) + 1 > opw)
			opw = (int)strlen(jr_key(d, o)) + 1;
	fprintf(f, "\nOperations\n%6s %-*s%8s%11s%13s%10s%9s%9s\n", "QP", opw, "op", "count",
		"incomplete", "bytes", "segments", "CRC err", "retrans");
	uint32_t nq = 0;
	for (const struct jr_node *q = jr_first(d, qps); q; q = jr_next(d, q)) {
		qp_label(qp, sizeof(qp), d, q);
		nq += rows(f, NULL, qp, opw, d, jr_get(d, q, "ops"), NULL);
	}
	if (nq > 1)
		rows(f, NULL, "all", opw, d, tops, NULL);
	if (!nq)
		fputs("  (no RDMA operations)\n", f);
	for (int t = 0; t < 2; t++) {
		const char *key = t ? "delivery_ns" : "latency_ns";
		struct dist_rows out = { 0 };
		for (const struct jr_node *q = jr_first(d, qps); q; q = jr_next(d, q)) {
			qp_label(qp, sizeof(qp), d, q);
			rows(f, &out, qp, opw, d, jr_get(d, q, "ops"), key);
		}
		if (nq > 1)
			rows(f, &out, "all", opw, d, tops, key);
		/* one unit per table, as stats prints them (dists.c) */
		dist_rows_print(f,
				t ? "Delivery (start to the peer's TCP ACK of the last octet)"
				  : "Latency on the wire (complete reads and atomics, at the capture point)",
				"op", &out);
		free(out.v);
	}
	nvme_tables(f, d);
}
