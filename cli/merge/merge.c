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

#include "dists.h"
#include "outfile.h"
#include "sketch.h"
#include "textsafe.h"

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
 * (saturating); one value alone is itself. */
static void merge_numbers(struct mctx *m, const char *key, const struct val *v, int k)
{
	/* (a time window's bounds: the earliest start, the latest end) */
	static const char *const least[] = { "first_ns", "min", "from_ns", NULL };
	static const char *const most[] = { "last_ns", "max", "max_inflight", "to_ns", NULL };
	static const char *const none[] = { "throughput_bps", "iops", "span_ns", "data_span_ns", NULL };
	static const char *const same[] = { "qid", "status", NULL };
	bool lo = key_in(key, least), hi = key_in(key, most) || strstr(key, "_peak");
	bool all_u = true, first = true;
	uint64_t u = 0;
	int64_t s = 0;
	int present = 0, last = 0;
	for (int i = 0; i < k; i++)
		if (v[i].n->type != JR_NULL) {
			present++;
			last = i;
		}
	if (present == 1 && v[last].n->type == JR_NUMBER) {
		/* one value: itself (a rate of one input stays) */
		jw_key(m->j, key);
		emit(m->j, v[last].d, v[last].n, false);
		return;
	}
	if (key_in(key, none)) {
		jw_knull(m->j, key);
		return;
	}
	if (key_in(key, same)) {
		/* identities (the members lists are grouped by): kept when equal */
		bool eq = true;
		for (int i = 1; i < k; i++)
			eq &= v[i].n->len == v[0].n->len &&
			      !memcmp(v[i].d->text + v[i].n->off, v[0].d->text + v[0].n->off, v[0].n->len);
		jw_key(m->j, key);
		if (eq && v[0].n->type == JR_NUMBER)
			emit(m->j, v[0].d, v[0].n, false);
		else
			jw_null(m->j);
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

#define KEY_SLOTS (2 * MERGE_MAX_KEYS)

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * Objects: member by member, in the order names first appear. Each member
 * of each input is looked up once in a table of the names (a member named
 * twice in one object: the first counts, as jr_get), so time is linear in
 * the members, however wide the objects.
 */
static void merge_objects(struct mctx *m, const struct val *v, int k)
{
	size_t total = 0;
	for (int i = 0; i < k; i++) {
		if (v[i].n->n > MERGE_MAX_KEYS) {
			mfail(m, v[i].d, "an object with more than %d members", MERGE_MAX_KEYS);
			return;
		}
		total += v[i].n->n;
	}
	const char **keys = malloc(MERGE_MAX_KEYS * sizeof(*keys));
	int32_t *slot = malloc(KEY_SLOTS * sizeof(*slot));
	/* per name: its members' list (input order), the last input seen */
	int32_t *head = malloc(MERGE_MAX_KEYS * sizeof(*head));
	int32_t *tail = malloc(MERGE_MAX_KEYS * sizeof(*tail));
	int *last_in = malloc(MERGE_MAX_KEYS * sizeof(*last_in));
	struct val *ent = malloc((total + 1) * sizeof(*ent));
	int32_t *next = malloc((total + 1) * sizeof(*next));
	struct val *sub = malloc(((size_t)k + 1) * sizeof(*sub));
	int nkeys = 0;
	uint32_t ne = 0;
	if (!keys || !slot || !head || !tail || !last_in || !ent || !next || !sub) {
		mfail(m, NULL, "out of memory");
		goto out;
	}
	for (uint32_t x = 0; x < KEY_SLOTS; x++)
		slot[x] = -1;
	for (int i = 0; i < k; i++)
		for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c)) {
			const char *name = jr_key(v[i].d, c);
			uint32_t h = name_hash(name) % KEY_SLOTS;
			while (slot[h] >= 0 && strcmp(keys[slot[h]], name))
				h = (h + 1) % KEY_SLOTS;
			int x = slot[h];
			if (x < 0) {
				if (nkeys == MERGE_MAX_KEYS) {
					mfail(m, v[i].d, "an object with more than %d members", MERGE_MAX_KEYS);
					goto out;
				}
				x = slot[h] = nkeys++;
				keys[x] = name;
				head[x] = -1;
				last_in[x] = -1;
			}
			if (last_in[x] == i)
				continue;
			last_in[x] = i;
			ent[ne] = (struct val){ v[i].d, c };
			next[ne] = -1;
			if (head[x] < 0)
				head[x] = (int32_t)ne;
			else
				next[tail[x]] = (int32_t)ne;
			tail[x] = (int32_t)ne++;
		}
	jw_obj(m->j);
	for (int x = 0; x < nkeys && !m->failed; x++) {
		int ns = 0;
		for (int32_t e = head[x]; e >= 0; e = next[e])
			sub[ns++] = ent[e];
		size_t at = path_push(m, keys[x]);
		merge_values(m, keys[x], sub, ns);
		m->path[at] = 0;
	}
	jw_obj_end(m->j);
out:
	free(keys);
	free(slot);
	free(head);
	free(tail);
	free(last_in);
	free(ent);
	free(next);
	free(sub);
}

/* Lists of objects merged entry by entry: entries with equal identity
 * members (numbers by their text, strings, null) are one group. */
struct list_kind {
	const char *key;
	const char *ids[2];
};
static const struct list_kind list_kinds[] = {
	{ "ops", { "qid", "op" } },         /* NVMe groups */
	{ "all_ops", { "op", NULL } },      /* NVMe all-queue rows: per command type */
	{ "statuses", { "status", NULL } }, /* their status counts */
};

static const struct list_kind *list_kind_of(const char *key)
{
	for (size_t i = 0; i < sizeof(list_kinds) / sizeof(list_kinds[0]); i++)
		if (strcmp(key, list_kinds[i].key) == 0)
			return &list_kinds[i];
	return NULL;
}

/* The text an identity member compares by (NULL: no such member or not a
 * number, string or null). */
static const char *id_text(const struct jr_doc *d, const struct jr_node *e, const char *id,
			   size_t *len)
{
	const struct jr_node *n = jr_get(d, e, id);
	if (!n)
		return NULL;
	switch (n->type) {
	case JR_NUMBER:
	case JR_STRING:
		*len = n->len;
		return d->text + n->off;
	case JR_NULL:
		*len = 4;
		return "null";
	default:
		return NULL;
	}
}

/* The identity of entry e as a hash; false when it lacks a member. */
static bool id_hash(const struct list_kind *lk, const struct jr_doc *d, const struct jr_node *e,
		    uint64_t *h)
{
	*h = 1469598103934665603ull;
	if (e->type != JR_OBJECT)
		return false;
	for (int i = 0; i < 2 && lk->ids[i]; i++) {
		size_t n;
		const char *t = id_text(d, e, lk->ids[i], &n);
		if (!t)
			return false;
		for (size_t k = 0; k < n; k++)
			*h = (*h ^ (unsigned char)t[k]) * 1099511628211ull;
		*h = (*h ^ (uint64_t)jr_get(d, e, lk->ids[i])->type) * 1099511628211ull;
	}
	return true;
}

static bool same_id(const struct list_kind *lk, const struct val *a, const struct val *b)
{
	for (int i = 0; i < 2 && lk->ids[i]; i++) {
		size_t na = 0, nb = 0;
		const char *ta = id_text(a->d, a->n, lk->ids[i], &na);
		const char *tb = id_text(b->d, b->n, lk->ids[i], &nb);
		if (jr_get(a->d, a->n, lk->ids[i])->type != jr_get(b->d, b->n, lk->ids[i])->type ||
		    na != nb || memcmp(ta, tb, na))
			return false;
	}
	return true;
}

#define GROUP_SLOTS (2 * MERGE_MAX_GROUPS)

static void merge_groups(struct mctx *m, const char *key, const struct list_kind *lk,
			 const struct val *v, int k)
{
	size_t total = 0;
	for (int i = 0; i < k; i++) {
		total += v[i].n->n;
		if (total > MERGE_MAX_ENTRIES) {
			mfail(m, v[i].n->n > MERGE_MAX_ENTRIES ? v[i].d : NULL,
			      "more than %d entries to group", MERGE_MAX_ENTRIES);
			return;
		}
	}
	/* entries, their group, the groups' first entries, a hash table of groups */
	struct val *e = malloc((total ? total : 1) * sizeof(*e));
	struct val *sorted = malloc((total ? total : 1) * sizeof(*sorted));
	uint32_t *grp = malloc((total ? total : 1) * sizeof(*grp));
	uint32_t *first = malloc(MERGE_MAX_GROUPS * sizeof(*first));
	uint32_t *start = calloc(MERGE_MAX_GROUPS + 1, sizeof(*start));
	int32_t *slot = malloc(GROUP_SLOTS * sizeof(*slot));
	uint32_t ne = 0, ng = 0;
	if (!e || !sorted || !grp || !first || !start || !slot) {
		mfail(m, NULL, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < GROUP_SLOTS; i++)
		slot[i] = -1;
	for (int i = 0; i < k; i++)
		for (const struct jr_node *c = jr_first(v[i].d, v[i].n); c; c = jr_next(v[i].d, c)) {
			uint64_t h;
			if (!id_hash(lk, v[i].d, c, &h)) {
				mfail(m, v[i].d, "an entry without %s%s%s", lk->ids[0],
				      lk->ids[1] ? " and " : "", lk->ids[1] ? lk->ids[1] : "");
				goto out;
			}
			e[ne] = (struct val){ v[i].d, c };
			uint32_t s = (uint32_t)(h % GROUP_SLOTS);
			while (slot[s] >= 0 && !same_id(lk, &e[first[slot[s]]], &e[ne]))
				s = (s + 1) % GROUP_SLOTS;
			if (slot[s] < 0) {
				if (ng == MERGE_MAX_GROUPS) {
					mfail(m, NULL, "more than %d distinct entries", MERGE_MAX_GROUPS);
					goto out;
				}
				first[ng] = ne;
				slot[s] = (int32_t)ng++;
			}
			grp[ne] = (uint32_t)slot[s];
			start[grp[ne] + 1]++;
			ne++;
		}
	/* entries by group, in input order within each */
	for (uint32_t x = 0; x < ng; x++)
		start[x + 1] += start[x];
	for (uint32_t i = 0; i < ne; i++)
		sorted[start[grp[i]]++] = e[i];
	jw_key(m->j, key);
	jw_arr(m->j);
	for (uint32_t x = 0, at = 0; x < ng && !m->failed; x++) {
		uint32_t n = start[x] - at;
		merge_objects(m, sorted + at, (int)n);
		at = start[x];
	}
	jw_arr_end(m->j);
out:
	free(e);
	free(sorted);
	free(grp);
	free(first);
	free(start);
	free(slot);
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
	if (strcmp(key, "latency_percentiles_ns") == 0) {
		/* fio's ladder: one input's stays; of several it is not
		 * recomputed (latency_ns has the merged sketch's quantiles) */
		int present = 0, last = 0;
		for (int i = 0; i < k; i++)
			if (v[i].n->type != JR_NULL)
				present++, last = i;
		jw_key(m->j, key);
		if (present == 1)
			emit(m->j, v[last].d, v[last].n, false);
		else
			jw_null(m->j);
		return;
	}
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
		const struct list_kind *lk = list_kind_of(key);
		if (lk) {
			merge_groups(m, key, lk, v, k);
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

/* The time window of each source (stats --since/--until: its
 * capture.window, with its capture's first_ns, what +TIME counts from), null
 * for one without; no member when no source has one. Merged, capture.window
 * spans them all, its frames and octets summed. */
static void source_windows(struct mctx *m, struct merge_in *ins, int n)
{
	bool any = false;
	for (int i = 0; i < n; i++)
		any |= jr_get(&ins[i].doc, jr_get(&ins[i].doc, jr_root(&ins[i].doc), "capture"), "window") != NULL;
	if (!any)
		return;
	jw_key(m->j, "source_windows");
	jw_arr(m->j);
	for (int i = 0; i < n; i++) {
		const struct jr_doc *d = &ins[i].doc;
		const struct jr_node *c = jr_get(d, jr_root(d), "capture");
		const struct jr_node *w = jr_get(d, c, "window"), *first = jr_get(d, c, "first_ns");
		if (!w || w->type != JR_OBJECT) {
			jw_null(m->j);
			continue;
		}
		jw_obj(m->j);
		for (const struct jr_node *e = jr_first(d, w); e; e = jr_next(d, e)) {
			jw_key(m->j, jr_key(d, e));
			emit(m->j, d, e, false);
		}
		jw_key(m->j, "capture_first_ns");
		if (first)
			emit(m->j, d, first, false);
		else
			jw_null(m->j);
		jw_obj_end(m->j);
	}
	jw_arr_end(m->j);
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
	source_windows(m, ins, n);
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
	/* The tables are drawn from the merged document read back (its text
	 * becomes the document's: not copied). */
	struct jr_doc d;
	char msg[200];
	int rc = jr_adopt(&d, jw.buf, jw.len, msg, sizeof(msg));
	jw.buf = NULL;
	jw_free(&jw);
	if (rc) {
		snprintf(err, errlen, "the merged document does not read back (%s)", msg);
		return -1;
	}
	merge_text_tables(f, &d);
	jr_free(&d);
	return 0;
}

/* "iwarpscope merge: MSG" on stderr, names in it escaped (textsafe.h). */
static void merge_error(const char *msg)
{
	fputs("iwarpscope merge: ", stderr);
	text_safe_put(stderr, msg);
	fputc('\n', stderr);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* An input named twice counts twice: say so (sorted, not pairwise). */
static void warn_twice(const char *const *names, int n)
{
	const char **v = malloc((size_t)n * sizeof(*v));
	if (!v)
		return;
	memcpy(v, names, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), cmp_str);
	for (int i = 1; i < n; i++)
		if (strcmp(v[i], v[i - 1]) == 0 && strcmp(v[i], "-") && (i == 1 || strcmp(v[i], v[i - 2]))) {
			char msg[300];
			snprintf(msg, sizeof(msg), "warning: %s given twice: its QPs count twice", v[i]);
			merge_error(msg);
		}
	free(v);
}

static const char merge_usage[] =
	"Usage: iwarpscope merge [--format text|json] [-o FILE] STATS.json...\n"
	"\n"
	"Combines the statistics of several captures or hosts, each written by\n"
	"`iwarpscope stats --format json` ('-' reads one from stdin), into one report:\n"
	"QPs stay distinct (labelled with their input), counts and bytes are added,\n"
	"latency distributions merged through their sketches (quantiles within\n"
	"0.2 % of the joint analysis; docs/semantics.md). The output is the JSON of\n"
	"stats (mergeable again) or its text tables.\n"
	"\n"
	"  -T, --format text|json   output format (text)\n"
	"  -o, --output FILE        write to FILE instead of stdout\n"
	"  -h, --help               this text\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, unreadable, invalid or incompatible input.\n";

/* merge's options: -1 to go on, else the exit status (--help printed, or
 * a usage error said). */
static int merge_options(int argc, char **argv, bool *text, const char **output)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
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
			*text = strcmp(optarg, "text") == 0;
			break;
		case 'o':
			*output = optarg;
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
	return -1;
}

/* The operands: at least one, stdin at most once. false: said. */
static bool operands_ok(int n, char *const *paths)
{
	int stdins = 0;
	if (n < 1) {
		fputs("iwarpscope merge: no input (STATS.json...; --help)\n", stderr);
		return false;
	}
	for (int i = 0; i < n; i++)
		stdins += strcmp(paths[i], "-") == 0;
	if (stdins > 1) {
		fputs("iwarpscope merge: '-' (stdin) can be read only once\n", stderr);
		return false;
	}
	return true;
}

/* Each input read and checked whole before the next is read: JSON (a
 * first pass in constant memory), within what merge holds of all its
 * inputs (JR_MERGE_BUDGET), the shape of stats --format json. *parsed:
 * the inputs to free. false: said. */
static bool load_inputs(struct merge_in *ins, int n, char *const *paths, int *parsed)
{
	char err[600];
	uint64_t budget = JR_MERGE_BUDGET;
	for (; *parsed < n; (*parsed)++) {
		char *label = text_safe_dup(paths[*parsed]);
		ins[*parsed].label = label;
		if (!label) {
			merge_error("out of memory");
			return false;
		}
		if (jr_load(&ins[*parsed].doc, paths[*parsed], label, &budget, err, sizeof(err)) ||
		    check_shape(&ins[*parsed], err, sizeof(err))) {
			merge_error(err);
			(*parsed)++;
			return false;
		}
	}
	return true;
}

/* The merged report on f (of's file with -o, put in place on success):
 * the exit status. */
static int write_merged(FILE *f, struct outfile *of, struct merge_in *ins, int n, bool text)
{
	char err[600];
	int rc = 2;
	if (merge_write(f, ins, n, text, err, sizeof(err)))
		merge_error(err);
	else
		rc = 0;
	if (!of && (fflush(f) || ferror(f))) {
		merge_error("write error");
		rc = 2;
	}
	if (of && !rc && outfile_commit(of, err, sizeof(err))) {
		merge_error(err);
		rc = 2;
	}
	if (of && rc)
		outfile_abort(of);
	return rc;
}

int merge_main(int argc, char **argv)
{
	bool text = true;
	const char *output = NULL;
	int rc = merge_options(argc, argv, &text, &output);
	if (rc >= 0)
		return rc;
	int n = argc - optind;
	char *const *paths = argv + optind;
	if (!operands_ok(n, paths))
		return 2;
	warn_twice((const char *const *)paths, n);
	struct merge_in *ins = calloc((size_t)n, sizeof(*ins));
	char err[600];
	int parsed = 0;
	struct outfile of;
	rc = 2;
	if (!ins) {
		merge_error("out of memory");
		return 2;
	}
	/* -o: written beside the file and put in place only when the merge
	 * succeeded (outfile.h); never over one of the inputs. */
	if (output && outfile_open(&of, output, (const char *const *)paths, n, err, sizeof(err))) {
		merge_error(err);
	} else if (!load_inputs(ins, n, paths, &parsed)) {
		if (output)
			outfile_abort(&of);
	} else {
		rc = write_merged(output ? of.f : stdout, output ? &of : NULL, ins, n, text);
	}
	for (int i = 0; i < parsed; i++) {
		jr_free(&ins[i].doc);
		free((char *)ins[i].label);
	}
	free(ins);
	return rc;
}
