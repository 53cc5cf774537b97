// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Several capture points (see points.h): the survey pass that indexes every
 * TCP segment of the inputs, groups files into points and works out, per
 * connection seen at two points, the direction order, one-way times, clock
 * offset and where loss happened; then the analysis pass's admission of
 * records and the lookups the writers make.
 */
#include "points.h"

#include <stdlib.h>
#include <string.h>

#include "netdecode.h"
#include "points_int.h"
#include "textsafe.h"

#define MAX_FILES_GROUPED 256
#define MAX_HOLES 16

/* ---- survey: indexing ---- */

static bool grow(void **v, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return true;
	uint32_t nc = *cap ? *cap * 2 : 1024;
	while (nc < need)
		nc *= 2;
	void *nv = realloc(*v, (size_t)nc * size);
	if (!nv)
		return false;
	*v = nv;
	*cap = nc;
	return true;
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint32_t pos_hash(uint32_t conn, uint8_t side, uint32_t seq, uint32_t len, uint8_t fl)
{
	uint64_t h = ((uint64_t)conn << 32 | seq) * 0x9e3779b97f4a7c15ull;
	h ^= ((uint64_t)len << 8 | (uint64_t)side << 4 | fl) * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* Same octets: the captured prefixes agree, and so do the hashes of two
 * fully captured payloads (points may slice differently). */
static bool same_octets(const struct pkey *k, const struct pkey *n)
{
	uint8_t m = k->pfx_len < n->pfx_len ? k->pfx_len : n->pfx_len;
	if (memcmp(k->pfx, n->pfx, m) != 0)
		return false;
	return !(k->full && n->full) || k->hash == n->hash;
}

static bool rehash(struct points *pts)
{
	uint32_t nb = pts->nbuckets ? pts->nbuckets * 2 : 4096;
	uint32_t *b = malloc((size_t)nb * sizeof(*b));
	if (!b)
		return false;
	memset(b, 0xff, (size_t)nb * sizeof(*b));
	for (uint32_t i = 0; i < pts->nkeys; i++) {
		struct pkey *k = &pts->keys[i];
		uint32_t h = pos_hash(k->conn, k->side, k->seq, k->len, k->flags) & (nb - 1);
		k->hnext = b[h];
		b[h] = i;
	}
	free(pts->buckets);
	pts->buckets = b;
	pts->nbuckets = nb;
	return true;
}

/*
 * A file read while no other file was open (a rotated set's files follow
 * each other) cannot share a segment with another file while both are
 * open: what it added to the index is forgotten when it ends alone, so the
 * survey of a rotated set holds one file's records at a time. Keys from
 * before it that it changed (a record appended, a dispute) are logged
 * before their first change and put back.
 */
static void undo_log(struct points *pts, uint32_t k)
{
	if (pts->alone_file < 0 || k >= pts->alone_ks)
		return;
	if (!grow((void **)&pts->undo, &pts->capundo, pts->nundo + 1, sizeof(*pts->undo))) {
		pts->alone_file = -1; /* cannot undo: keep everything */
		return;
	}
	const struct pkey *kk = &pts->keys[k];
	pts->undo[pts->nundo++] = (struct pundo){ k, kk->first, kk->last, kk->disputed };
}

static void alone_start(struct points *pts, int file)
{
	pts->alone_file = file;
	pts->alone_rs = pts->nrecs;
	pts->alone_ks = pts->nkeys;
	pts->alone_unindexed = pts->segs_unindexed;
	pts->nundo = 0;
}

static void forget_alone(struct points *pts)
{
	for (uint32_t i = pts->nundo; i-- > 0;) {
		const struct pundo *u = &pts->undo[i];
		struct pkey *k = &pts->keys[u->k];
		k->first = u->first;
		k->last = u->last;
		k->disputed = u->disputed;
		if (u->last != PT_NONE)
			pts->recs[u->last].next = PT_NONE;
	}
	/* newest first: each is the head of its bucket's chain */
	for (uint32_t k = pts->nkeys; k-- > pts->alone_ks;) {
		const struct pkey *kk = &pts->keys[k];
		uint32_t h = pos_hash(kk->conn, kk->side, kk->seq, kk->len, kk->flags) & (pts->nbuckets - 1);
		pts->buckets[h] = kk->hnext;
	}
	pts->nkeys = pts->alone_ks;
	pts->nrecs = pts->alone_rs;
	pts->segs_unindexed = pts->alone_unindexed;
	pts->recs_full = pts->recs_full && pts->nrecs >= POINTS_MAX_RECORDS;
	pts->nundo = 0;
	pts->alone_file = -1;
}

/* Before each record of the survey: which file it is from, how many files
 * are open now. */
static void track_alone(struct points *pts, int file, int nopen)
{
	if (file == pts->alone_file) {
		if (nopen >= 2)
			pts->alone_file = -1; /* another file opened: it overlaps */
		return;
	}
	/* Another file's record with only its file open: the one that was
	 * alone has ended, alone. */
	if (pts->alone_file >= 0 && nopen == 1)
		forget_alone(pts);
	if (nopen == 1)
		alone_start(pts, file);
	else
		pts->alone_file = -1;
}

/* The key of a segment: found, or added (PT_NONE: out of memory). */
static uint32_t key_of(struct points *pts, const struct pkey *n)
{
	if (pts->nkeys >= pts->nbuckets && !rehash(pts))
		return PT_NONE;
	uint32_t h = pos_hash(n->conn, n->side, n->seq, n->len, n->flags) & (pts->nbuckets - 1);
	struct pkey *same_place = NULL;
	for (uint32_t i = pts->buckets[h]; i != PT_NONE; i = pts->keys[i].hnext) {
		struct pkey *k = &pts->keys[i];
		if (k->conn != n->conn || k->side != n->side || k->seq != n->seq || k->len != n->len ||
		    k->flags != n->flags)
			continue;
		if (same_octets(k, n))
			return i;
		same_place = k;
	}
	if (!grow((void **)&pts->keys, &pts->capkeys, pts->nkeys + 1, sizeof(*pts->keys)))
		return PT_NONE;
	struct pkey *k = &pts->keys[pts->nkeys];
	*k = *n;
	k->first = k->last = PT_NONE;
	k->hnext = pts->buckets[h];
	/* Two segments at one place with other octets: the points disagree
	 * (or a sender rewrote data it had sent): neither is matched. */
	if (same_place) {
		if (!same_place->disputed)
			undo_log(pts, (uint32_t)(same_place - pts->keys));
		same_place->disputed = true;
		k->disputed = true;
	}
	pts->buckets[h] = pts->nkeys;
	return pts->nkeys++;
}

static uint32_t conn_of(struct points *pts, struct flow *f, int side, const struct tcp_pkt *t)
{
	if (f->user)
		return (uint32_t)(uintptr_t)f->user - 1;
	if (!grow((void **)&pts->conns, &pts->capconns, pts->nconns + 1, sizeof(*pts->conns)))
		return PT_NONE;
	struct pconn *c = &pts->conns[pts->nconns];
	memset(c, 0, sizeof(*c));
	c->stream = f->stream;
	bool syn = t->flags & IWS_TCP_SYN, ack = t->flags & IWS_TCP_ACK;
	c->opener = (uint8_t)(syn && ack ? !side : side);
	f->user = (void *)(uintptr_t)(++pts->nconns);
	return pts->nconns - 1;
}

static void index_segment(struct points *pts, const struct src_packet *p, struct flow *f, int side,
			  const struct tcp_pkt *t)
{
	uint32_t ci = conn_of(pts, f, side, t);
	if (ci == PT_NONE)
		return;
	if (pts->nrecs >= POINTS_MAX_RECORDS) {
		pts->recs_full = true;
		pts->segs_unindexed++;
		return;
	}
	if (!grow((void **)&pts->recs, &pts->caprecs, pts->nrecs + 1, sizeof(*pts->recs)))
		return;
	struct pconn *c = &pts->conns[ci];
	if (!c->base_set[side]) {
		c->base_set[side] = true;
		c->base[side] = t->seq;
	}
	struct prec *r = &pts->recs[pts->nrecs];
	memset(r, 0, sizeof(*r));
	r->frame = p->frame;
	r->ts = p->ts_ns;
	r->conn = ci;
	r->key = r->next = PT_NONE;
	r->seq = t->seq;
	r->ack = t->ack;
	r->len = t->wire_len;
	r->file = (uint16_t)p->file;
	r->side = (uint8_t)side;
	r->flags = t->flags;
	r->has_ip_id = t->has_ip_id;
	r->ip_id = t->ip_id;
	uint8_t fl = t->flags & (IWS_TCP_SYN | IWS_TCP_FIN);
	if (t->wire_len || fl) {
		struct pkey n;
		memset(&n, 0, sizeof(n));
		n.conn = ci;
		n.seq = t->seq;
		n.len = t->wire_len;
		n.side = (uint8_t)side;
		n.flags = fl;
		n.pfx_len = (uint8_t)(t->cap_len < sizeof(n.pfx) ? t->cap_len : sizeof(n.pfx));
		if (n.pfx_len)
			memcpy(n.pfx, t->payload, n.pfx_len);
		n.full = t->cap_len == t->wire_len;
		n.hash = n.full ? fnv(t->payload, t->cap_len) : 0;
		uint32_t k = key_of(pts, &n);
		if (k != PT_NONE) {
			r->key = k;
			struct pkey *kk = &pts->keys[k];
			if (kk->last == PT_NONE || kk->last < pts->alone_rs)
				undo_log(pts, k);
			if (kk->last != PT_NONE)
				pts->recs[kk->last].next = pts->nrecs;
			else
				kk->first = pts->nrecs;
			kk->last = pts->nrecs;
		}
	}
	pts->nrecs++;
}

/* ---- survey: files into points ---- */

static int point_of(const struct points *pts, const struct prec *r)
{
	return pts->files[r->file].point;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/*
 * Files that saw the same segments while overlapping in time are different
 * points; a file that starts after another ended and shares nothing with it
 * may continue it (a rotated set). Greedy, in order of first record: each
 * file joins the chain it can continue whose last file's name is most like
 * its own, else starts a new point.
 */
/* conflict[a * n + b]: files a and b overlap in time and hold the same
 * segment, so they are not one point. The files each segment was seen in
 * (each file once, however many copies it holds: time linear in the
 * records), then every pair of them; at most n files per segment,
 * n <= MAX_FILES_GROUPED. order and last: scratch of n. */
static void file_conflicts(const struct points *pts, uint8_t *conflict, int *order, int *last)
{
	int n = pts->nfiles;
	for (int i = 0; i < n; i++)
		last[i] = -1;
	for (uint32_t k = 0; k < pts->nkeys; k++) {
		if (pts->keys[k].disputed && pts->keys[k].first == pts->keys[k].last)
			continue;
		int nin = 0;
		for (uint32_t a = pts->keys[k].first; a != PT_NONE; a = pts->recs[a].next) {
			int fa = pts->recs[a].file;
			if (last[fa] == (int)k)
				continue;
			last[fa] = (int)k;
			order[nin++] = fa;
		}
		for (int x = 0; x < nin; x++)
			for (int y = x + 1; y < nin; y++) {
				int fa = order[x], fb = order[y];
				const struct pfile *A = &pts->files[fa], *B = &pts->files[fb];
				if (A->first <= B->last && B->first <= A->last)
					conflict[fa * n + fb] = conflict[fb * n + fa] = 1;
			}
	}
}

/* order: the files by their first record. */
static void files_by_start(const struct points *pts, int *order)
{
	int n = pts->nfiles;
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++) /* insertion sort by first record: n is small */
		for (int j = i; j > 0 && pts->files[order[j]].first < pts->files[order[j - 1]].first; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* Each file, in order of start, joins the point whose last file (last[],
 * by point) ended before it starts and holds no segment it holds, the one
 * with the longest common name prefix; else it starts a point. */
static void assign_points(struct points *pts, const uint8_t *conflict, const int *order, int *last)
{
	int n = pts->nfiles;
	pts->npoints = 0;
	for (int oi = 0; oi < n; oi++) {
		int f = order[oi], best = -1;
		size_t best_len = 0;
		for (int c = 0; c < pts->npoints; c++) {
			if (pts->files[last[c]].last > pts->files[f].first)
				continue;
			bool ok = true;
			for (int g = 0; g < n && ok; g++)
				ok = !(pts->files[g].point == c && conflict[f * n + g]);
			size_t l = common_prefix(pts->files[f].name, pts->files[last[c]].name);
			if (ok && (best < 0 || l > best_len)) {
				best = c;
				best_len = l;
			}
		}
		if (best < 0) {
			best = pts->npoints++;
			pts->pts[best].name = pts->files[f].name;
			pts->pts[best].nfiles = 0;
		}
		pts->files[f].point = best;
		pts->pts[best].nfiles++;
		last[best] = f;
	}
}

/* Points in the order their files were named (the first file named is in
 * point 0): a point's first file is then its first named. order and last:
 * scratch of n. */
static void renumber_points(struct points *pts, int *order, int *last)
{
	int n = pts->nfiles;
	int np = 0;
	for (int i = 0; i < n; i++)
		last[i] = -1;
	for (int f = 0; f < n; f++) {
		int c = pts->files[f].point;
		if (last[c] < 0) {
			last[c] = np;
			order[np++] = pts->pts[c].nfiles;
		}
		pts->files[f].point = last[c];
	}
	for (int c = 0; c < np; c++)
		pts->pts[c].nfiles = order[c];
	for (int f = n - 1; f >= 0; f--)
		pts->pts[pts->files[f].point].name = pts->files[f].name;
}

static bool group_files(struct points *pts)
{
	int n = pts->nfiles;
	if (n > MAX_FILES_GROUPED)
		return false;
	uint8_t *conflict = calloc((size_t)n * (size_t)n, 1);
	int *order = malloc((size_t)n * sizeof(*order));
	int *last = malloc((size_t)n * sizeof(*last));
	if (!conflict || !order || !last) {
		free(conflict);
		free(order);
		free(last);
		return false;
	}
	file_conflicts(pts, conflict, order, last);
	files_by_start(pts, order);
	assign_points(pts, conflict, order, last);
	renumber_points(pts, order, last);
	free(conflict);
	free(order);
	free(last);
	return true;
}

/* ---- survey: connections seen at two points ---- */

static uint64_t rel(const struct pconn *c, int side, uint32_t x)
{
	return (uint32_t)(x - c->base[side]);
}

/* Copies of key k at point pt: how many, and the i-th one. */
static int copies(const struct points *pts, uint32_t k, int pt, int want, const struct prec **out)
{
	int n = 0;
	for (uint32_t i = pts->keys[k].first; i != PT_NONE; i = pts->recs[i].next) {
		if (point_of(pts, &pts->recs[i]) != pt)
			continue;
		if (n == want && out)
			*out = &pts->recs[i];
		n++;
	}
	return n;
}

/* Keys grouped by connection (counting sort): a connection's keys are
 * keys_of[kstart[ci] .. kstart[ci + 1]). */
static bool sort_keys(struct points *pts)
{
	pts->kstart = calloc((size_t)pts->nconns + 1, sizeof(*pts->kstart));
	pts->keys_of = malloc(((size_t)pts->nkeys + 1) * sizeof(*pts->keys_of));
	if (!pts->kstart || !pts->keys_of)
		return false;
	for (uint32_t k = 0; k < pts->nkeys; k++)
		pts->kstart[pts->keys[k].conn + 1]++;
	for (uint32_t ci = 0; ci < pts->nconns; ci++)
		pts->kstart[ci + 1] += pts->kstart[ci];
	uint32_t *fill = malloc(((size_t)pts->nconns + 1) * sizeof(*fill));
	if (!fill)
		return false;
	memcpy(fill, pts->kstart, ((size_t)pts->nconns + 1) * sizeof(*fill));
	for (uint32_t k = 0; k < pts->nkeys; k++)
		pts->keys_of[fill[pts->keys[k].conn]++] = k;
	free(fill);
	return true;
}

#define FOR_KEYS(pts, ci, k)                                                               \
	for (uint32_t k##_i = (pts)->kstart[ci], k = 0;                                        \
	     k##_i < (pts)->kstart[(ci) + 1] && ((k = (pts)->keys_of[k##_i]), 1); k##_i++)

/* Pick each connection's pair of points: the two that share the most
 * segments (only connections seen at two points or more). Only the pairs
 * of points a segment was seen at are counted, and only the counters of
 * the connection's points cleared: time linear in the records. */
static void choose_pairs(struct points *pts)
{
	enum { NP = 64 };
	int np = pts->npoints < NP ? pts->npoints : NP;
	static uint64_t share[NP][NP];
	for (uint32_t i = 0; i < pts->nrecs; i++) {
		int pt = point_of(pts, &pts->recs[i]);
		if (pt < NP)
			pts->conns[pts->recs[i].conn].seen |= 1ull << pt;
	}
	for (uint32_t ci = 0; ci < pts->nconns; ci++) {
		struct pconn *c = &pts->conns[ci];
		if (__builtin_popcountll(c->seen) < 2)
			continue;
		for (uint64_t ma = c->seen; ma; ma &= ma - 1)
			for (uint64_t mb = c->seen; mb; mb &= mb - 1)
				share[__builtin_ctzll(ma)][__builtin_ctzll(mb)] = 0;
		FOR_KEYS(pts, ci, k) {
			uint64_t at = 0;
			for (uint32_t i = pts->keys[k].first; i != PT_NONE; i = pts->recs[i].next) {
				int pt = point_of(pts, &pts->recs[i]);
				if (pt < np)
					at |= 1ull << pt;
			}
			for (uint64_t ma = at; ma; ma &= ma - 1)
				for (uint64_t mb = ma & (ma - 1); mb; mb &= mb - 1)
					share[__builtin_ctzll(ma)][__builtin_ctzll(mb)]++;
		}
		uint64_t best = 0;
		for (uint64_t ma = c->seen; ma; ma &= ma - 1)
			for (uint64_t mb = ma & (ma - 1); mb; mb &= mb - 1) {
				int a = __builtin_ctzll(ma), b = __builtin_ctzll(mb);
				if (share[a][b] > best) {
					best = share[a][b];
					c->p = a;
					c->q = b;
				}
			}
		c->multi = best > 0;
		pts->nmulti += c->multi;
	}
}

struct ack_line {
	uint64_t *ack;
	int64_t *ts;
	uint32_t n, cap;
};

static void ack_add(struct ack_line *l, uint64_t ack, int64_t ts)
{
	if (l->n && ack <= l->ack[l->n - 1])
		return; /* only advances: a monotonic line to search */
	if (l->n == l->cap) {
		uint32_t nc = l->cap ? l->cap * 2 : 64;
		uint64_t *a = realloc(l->ack, nc * sizeof(*a));
		if (a)
			l->ack = a;
		int64_t *t = realloc(l->ts, nc * sizeof(*t));
		if (t)
			l->ts = t;
		if (!a || !t)
			return;
		l->cap = nc;
	}
	l->ack[l->n] = ack;
	l->ts[l->n++] = ts;
}

/* When the point first saw an ACK at or past v (false: never). */
static bool ack_time(const struct ack_line *l, uint64_t v, int64_t *ts)
{
	uint32_t lo = 0, hi = l->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (l->ack[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == l->n)
		return false;
	*ts = l->ts[lo];
	return true;
}

/* Octets not yet seen below the highest one seen, per point and direction:
 * a segment that lands in one filled a hole (its first transmission was
 * not captured there). */
struct holes {
	bool started;
	uint64_t max_end;
	uint32_t n;
	uint64_t a[MAX_HOLES], b[MAX_HOLES];
	int32_t id[MAX_HOLES];      /* IP ID of the segment after the hole, -1: none */
};

/* A segment that fills a hole, with an IP ID below that of the segment
 * after the hole, was sent before it: overtaken on the way (reordered),
 * its first transmission - no loss (docs/semantics.md, IP IDs of a sender
 * count up). */
static bool sent_before(int32_t id, const struct prec *r)
{
	return id >= 0 && r->has_ip_id && (int16_t)(r->ip_id - (uint16_t)id) < 0;
}

static bool holes_fill(struct holes *h, uint64_t s, uint64_t e, const struct prec *r)
{
	bool filled = false;
	if (!h->started) {
		h->started = true;
		h->max_end = e;
		return false;
	}
	for (uint32_t i = 0; i < h->n;) {
		if (s < h->b[i] && e > h->a[i]) {
			filled |= !sent_before(h->id[i], r);
			/* keep what is left of the hole on either side */
			uint64_t a = h->a[i], b = h->b[i];
			int32_t id = h->id[i];
			h->a[i] = h->a[--h->n];
			h->b[i] = h->b[h->n];
			h->id[i] = h->id[h->n];
			if (a < s && h->n < MAX_HOLES) {
				h->a[h->n] = a;
				h->b[h->n] = s;
				h->id[h->n++] = r->has_ip_id ? r->ip_id : -1;
			}
			if (e < b && h->n < MAX_HOLES) {
				h->a[h->n] = e;
				h->b[h->n] = b;
				h->id[h->n++] = id;
			}
			continue;
		}
		i++;
	}
	if (s > h->max_end) {
		if (h->n == MAX_HOLES) { /* forget the oldest */
			memmove(h->a, h->a + 1, (MAX_HOLES - 1) * sizeof(h->a[0]));
			memmove(h->b, h->b + 1, (MAX_HOLES - 1) * sizeof(h->b[0]));
			memmove(h->id, h->id + 1, (MAX_HOLES - 1) * sizeof(h->id[0]));
			h->n--;
		}
		h->a[h->n] = h->max_end;
		h->b[h->n] = s;
		h->id[h->n++] = r->has_ip_id ? r->ip_id : -1;
	}
	if (e > h->max_end)
		h->max_end = e;
	return filled;
}

/* Append x to a growable array (false: out of memory, x dropped). */
static bool push_i64(int64_t **v, uint32_t *n, uint32_t *cap, int64_t x)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 256;
		int64_t *nv = realloc(*v, nc * sizeof(*nv));
		if (!nv)
			return false;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return true;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* Per-record copy numbers and hole fills, and the ACK lines of two-point
 * connection ci (per point 0 = p, 1 = q, and per acknowledged side). Its
 * records are recs[0 .. n), in frame order. */
static void scan_conn(struct points *pts, uint32_t ci, const uint32_t *recs, uint32_t n,
		      struct ack_line acks[2][2], struct holes holes[2][2])
{
	struct pconn *c = &pts->conns[ci];
	/* Copy numbers: each segment's copies at each point, counted along its
	 * chain (time linear in the records, however many copies). */
	FOR_KEYS(pts, ci, k) {
		uint32_t at[2] = { 0, 0 };
		for (uint32_t i = pts->keys[k].first; i != PT_NONE; i = pts->recs[i].next) {
			struct prec *r = &pts->recs[i];
			int pt = point_of(pts, r);
			int x = pt == c->p ? 0 : pt == c->q ? 1 : -1;
			if (x < 0)
				continue;
			r->copy = (uint8_t)(at[x] > 255 ? 255 : at[x]);
			at[x]++;
		}
	}
	for (uint32_t j = 0; j < n; j++) {
		struct prec *r = &pts->recs[recs[j]];
		int pt = point_of(pts, r);
		int x = pt == c->p ? 0 : pt == c->q ? 1 : -1;
		if (x < 0)
			continue;
		if (r->key != PT_NONE && r->len) {
			uint64_t s = rel(c, r->side, r->seq);
			r->holefill = holes_fill(&holes[x][r->side], s, s + r->len, r);
		}
		if ((r->flags & IWS_TCP_ACK) && c->base_set[!r->side])
			ack_add(&acks[x][!r->side], rel(c, !r->side, r->ack), r->ts);
	}
}

/* Which point is nearer the sender of side s: the one where the sender's
 * segments wait longer for their ACK (round trips, each on one clock, so
 * the clock offset does not matter). 1: p, -1: q, 0: no evidence. */
static int upstream_vote(struct points *pts, uint32_t ci, int s, struct ack_line acks[2][2])
{
	struct pconn *c = &pts->conns[ci];
	int64_t *d = NULL;
	uint32_t n = 0, cap = 0;
	FOR_KEYS(pts, ci, k) {
		const struct pkey *key = &pts->keys[k];
		if (key->side != s || key->disputed)
			continue;
		const struct prec *rp = NULL, *rq = NULL;
		if (!copies(pts, k, c->p, 0, &rp) || !copies(pts, k, c->q, 0, &rq) || !rp || !rq)
			continue;
		uint64_t end = rel(c, s, key->seq) + key->len + ((key->flags & IWS_TCP_SYN) != 0) +
			       ((key->flags & IWS_TCP_FIN) != 0);
		int64_t ap, aq;
		if (!ack_time(&acks[0][s], end, &ap) || !ack_time(&acks[1][s], end, &aq) ||
		    ap < rp->ts || aq < rq->ts)
			continue;
		if (!push_i64(&d, &n, &cap, (ap - rp->ts) - (aq - rq->ts)))
			break;
	}
	int v = 0;
	if (n) {
		qsort(d, n, sizeof(*d), cmp_i64);
		v = d[n / 2] > 0 ? 1 : d[n / 2] < 0 ? -1 : 0;
	}
	free(d);
	return v;
}

/* Loss placement and one-way times of direction s (up and down known). */
static void measure_dir(struct points *pts, uint32_t ci, int s)
{
	struct pconn *c = &pts->conns[ci];
	struct points_dir *d = &c->dir[s];
	int64_t *ow = NULL;
	uint32_t n = 0, cap = 0;
	FOR_KEYS(pts, ci, k) {
		const struct pkey *key = &pts->keys[k];
		if (key->side != s || key->disputed)
			continue;
		const struct prec *u0 = NULL, *d0 = NULL, *up = NULL;
		int nu = copies(pts, k, d->up, 0, &u0), nd = copies(pts, k, d->down, 0, &d0);
		if (nu && nd) {
			d->matched++;
			/* The first copy to reach downstream left upstream after the
			 * copies lost between them (the earliest ones). */
			copies(pts, k, d->up, nu > nd ? nu - nd : 0, &up);
			push_i64(&ow, &n, &cap, d0->ts - up->ts);
		}
		if (nu > nd)
			d->lost_between += (uint64_t)(nu - nd);
		if (nd > nu)
			d->missed_up += (uint64_t)(nd - nu);
		if (nd > 1)
			d->lost_after += (uint64_t)(nd - 1);
		if (nu && u0->holefill && nd <= nu)
			d->lost_before++;
		else if (!nu && nd && d0->holefill)
			d->lost_before++;
	}
	d->n_oneway = n;
	if (n) {
		qsort(ow, n, sizeof(*ow), cmp_i64);
		d->ow_min = ow[0];
		d->ow_p50 = ow[(n - 1) / 2];
		d->ow_max = ow[n - 1];
	}
	free(ow);
}

/*
 * NTP-style offset (RFC 5905 §8): a segment p -> q gives t_q - t_p = d1 + θ,
 * one q -> p gives t_p - t_q = d2 - θ, θ = clock(q) - clock(p). With the
 * smallest of each, θ = (m1 - m2) / 2 if the two minimum one-way times are
 * equal; d1, d2 >= 0 bound it to [-m2, m1] whatever they are.
 */
static void clock_offset(struct pconn *c)
{
	const struct points_dir *a = &c->dir[0], *b = &c->dir[1];
	if (!a->n_oneway || !b->n_oneway || a->up == b->up)
		return;
	int64_t m1 = a->up == c->p ? a->ow_min : b->ow_min; /* p -> q */
	int64_t m2 = a->up == c->p ? b->ow_min : a->ow_min; /* q -> p */
	c->has_offset = true;
	c->off = (m1 - m2) / 2;
	c->off_lo = -m2;
	c->off_hi = m1;
}

/* Records grouped by two-point connection (counting sort, frame order
 * kept): connection ci's are idx[start[ci] .. start[ci + 1]). */
static bool group_records(const struct points *pts, uint32_t **start, uint32_t **idx)
{
	*start = calloc((size_t)pts->nconns + 2, sizeof(**start));
	*idx = malloc(((size_t)pts->nrecs + 1) * sizeof(**idx));
	if (!*start || !*idx)
		return false;
	uint32_t *st = *start;
	for (uint32_t i = 0; i < pts->nrecs; i++)
		if (pts->conns[pts->recs[i].conn].multi)
			st[pts->recs[i].conn + 2]++;
	for (uint32_t ci = 0; ci < pts->nconns; ci++)
		st[ci + 2] += st[ci + 1];
	/* st[ci + 1] is now where ci's records start: fill, moving it on */
	for (uint32_t i = 0; i < pts->nrecs; i++)
		if (pts->conns[pts->recs[i].conn].multi)
			(*idx)[st[pts->recs[i].conn + 1]++] = i;
	return true;
}

/* One connection at a time, so what a connection's measurement needs (ACK
 * lines, holes) is held for that connection only. */
static void analyse_conns(struct points *pts)
{
	uint32_t *start = NULL, *idx = NULL;
	if (!group_records(pts, &start, &idx)) {
		free(start);
		free(idx);
		return;
	}
	for (uint32_t ci = 0; ci < pts->nconns; ci++) {
		struct pconn *c = &pts->conns[ci];
		if (!c->multi)
			continue;
		struct ack_line acks[2][2];
		struct holes holes[2][2];
		memset(acks, 0, sizeof(acks));
		memset(holes, 0, sizeof(holes));
		scan_conn(pts, ci, idx + start[ci], start[ci + 1] - start[ci], acks, holes);
		FOR_KEYS(pts, ci, k) {
			const struct pkey *key = &pts->keys[k];
			bool at_p = copies(pts, k, c->p, 0, NULL), at_q = copies(pts, k, c->q, 0, NULL);
			if (key->disputed && (at_p || at_q))
				c->disputed++;
			else if (at_p && at_q)
				c->agreed++;
		}
		int v[2];
		for (int s = 0; s < 2; s++)
			v[s] = upstream_vote(pts, ci, s, acks);
		/* One direction's evidence decides the other's (the points sit on
		 * one path); with none, the point listed first is taken to be
		 * nearer the side that opened the connection. */
		for (int s = 0; s < 2; s++) {
			int vote = v[s] ? v[s] : -v[!s];
			bool p_up = vote ? vote > 0 : s == c->opener;
			c->dir[s].measured = vote != 0;
			c->dir[s].up = p_up ? c->p : c->q;
			c->dir[s].down = p_up ? c->q : c->p;
			measure_dir(pts, ci, s);
		}
		c->ref = c->dir[c->opener].up;
		clock_offset(c);
		for (int x = 0; x < 2; x++)
			for (int s = 0; s < 2; s++) {
				free(acks[x][s].ack);
				free(acks[x][s].ts);
			}
	}
	free(start);
	free(idx);
}

static const struct points *sort_pts;

static int cmp_stream(const void *x, const void *y)
{
	uint32_t a = sort_pts->conns[*(const uint32_t *)x].stream;
	uint32_t b = sort_pts->conns[*(const uint32_t *)y].stream;
	return a < b ? -1 : a > b;
}

/* The two-point connections sorted by stream, for points_conn. */
static void index_streams(struct points *pts)
{
	pts->by_stream = malloc(((size_t)pts->nmulti + 1) * sizeof(*pts->by_stream));
	if (!pts->by_stream)
		return;
	uint32_t n = 0;
	for (uint32_t ci = 0; ci < pts->nconns; ci++)
		if (pts->conns[ci].multi)
			pts->by_stream[n++] = ci;
	sort_pts = pts;
	qsort(pts->by_stream, n, sizeof(*pts->by_stream), cmp_stream);
	sort_pts = NULL;
}

const struct pconn *points_conn(const struct points *pts, uint32_t stream)
{
	if (!pts || !pts->by_stream)
		return NULL;
	uint32_t lo = 0, hi = pts->nmulti;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct pconn *c = &pts->conns[pts->by_stream[mid]];
		if (c->stream == stream)
			return c;
		if (c->stream < stream)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* One record of the survey: its file's time span, its connection (up to
 * POINTS_MAX_CONNS), its segment indexed. */
static void survey_record(struct points *pts, struct flow_table *ft, struct source *s,
			  const struct src_packet *p)
{
	struct tcp_pkt t;
	track_alone(pts, p->file, source_open_files(s));
	const char *why;
	if (net_decode(p->dlt, p->data, p->caplen, p->wirelen, &t, &why) != NET_TCP)
		return;
	struct pfile *pf = &pts->files[p->file];
	if (!pf->any || p->ts_ns < pf->first)
		pf->first = p->ts_ns;
	if (!pf->any || p->ts_ns > pf->last)
		pf->last = p->ts_ns;
	pf->any = true;
	int side;
	struct flow *f;
	if (ft->nflows < POINTS_MAX_CONNS) {
		enum flow_event ev;
		struct flow *old;
		f = flow_lookup(ft, &t, &side, &ev, &old);
		if (old)
			flow_release(old);
	} else {
		/* The table is full: connections it has go on being indexed,
		 * new ones (and new conversations on old ports) are not. */
		bool reused;
		f = flow_find(ft, &t, &side, &reused);
		if (f && reused)
			f->done = true;
		if (!f || f->done) {
			pts->segs_unindexed += p->matched;
			return;
		}
	}
	if (f && p->matched)
		index_segment(pts, p, f, side, &t);
}

/* The survey's tables and its own source over the files (no progress
 * bar), the names as shown (escaped: they reach text and stderr). NULL
 * (and err): out of memory or a file not opened. */
static struct source *survey_open(struct points *pts, const struct source_opts *o, char *err,
				  size_t errlen)
{
	pts->nfiles = o->nfiles;
	pts->files = calloc((size_t)o->nfiles, sizeof(*pts->files));
	pts->pts = calloc((size_t)o->nfiles, sizeof(*pts->pts));
	struct source *s = pts->files && pts->pts ? source_open(o, err, errlen) : NULL;
	if (!s) {
		if (!err[0])
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < o->nfiles; i++)
		if (!(pts->files[i].name = text_safe_dup(o->files[i]))) {
			snprintf(err, errlen, "out of memory");
			source_close(s);
			return NULL;
		}
	return s;
}

struct points *points_survey(const struct source_opts *so, bool expect, char *err, size_t errlen)
{
	err[0] = 0;
	struct source_opts o = *so;
	o.progress = false;
	o.streams = NULL;
	struct points *pts = calloc(1, sizeof(*pts));
	struct flow_table ft;
	if (!pts || !flow_table_init(&ft)) {
		free(pts);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	struct source *s = survey_open(pts, &o, err, errlen);
	if (!s) {
		flow_table_free(&ft);
		points_free(pts);
		return NULL;
	}
	struct src_packet p;
	pts->alone_file = -1;
	while (source_next(s, &p) == 1)
		survey_record(pts, &ft, s, &p);
	if (pts->alone_file >= 0)
		forget_alone(pts);
	free(pts->undo);
	pts->undo = NULL;
	source_close(s);
	flow_table_free(&ft);
	if (group_files(pts) && pts->npoints >= 2 && sort_keys(pts))
		choose_pairs(pts);
	if (!pts->nmulti) {
		if (expect)
			snprintf(err, errlen, "--points: no TCP connection was seen in two of the files "
					      "(no identical segments while they overlap in time)");
		points_free(pts);
		return NULL;
	}
	analyse_conns(pts);
	free(pts->buckets);
	pts->buckets = NULL;
	index_streams(pts);
	return pts;
}

/* ---- the analysis pass ---- */

static const struct prec *rec_at(const struct points *pts, uint64_t frame)
{
	uint32_t lo = 0, hi = pts->nrecs;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (pts->recs[mid].frame < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pts->nrecs && pts->recs[lo].frame == frame ? &pts->recs[lo] : NULL;
}

void points_admit(struct points *pts, struct src_packet *p)
{
	while (pts->cursor < pts->nrecs && pts->recs[pts->cursor].frame < p->frame)
		pts->cursor++;
	if (pts->cursor >= pts->nrecs || pts->recs[pts->cursor].frame != p->frame)
		return;
	const struct prec *r = &pts->recs[pts->cursor];
	struct pconn *c = &pts->conns[r->conn];
	int pt = point_of(pts, r);
	if (!c->multi || pt == c->ref)
		return;
	/* A segment the reference point's capture missed although it passed
	 * there on its way (the reference is upstream for it) is taken from
	 * here: the engine gets the stream the reference point carried. */
	const struct points_dir *d = &c->dir[r->side];
	if (r->key != PT_NONE && r->copy == 0 && d->up == c->ref && pt == d->down &&
	    !copies(pts, r->key, c->ref, 0, NULL) && !pts->keys[r->key].disputed) {
		c->filled++;
		return;
	}
	c->dropped++;
	p->matched = false;
}

void points_at_frame(const struct points *pts, uint64_t frame, struct points_at *at)
{
	memset(at, 0, sizeof(*at));
	const struct prec *r = pts ? rec_at(pts, frame) : NULL;
	if (!r || !pts->conns[r->conn].multi)
		return;
	const struct pconn *c = &pts->conns[r->conn];
	const struct points_dir *d = &c->dir[r->side];
	int pt = point_of(pts, r), other = pt == c->p ? c->q : c->p;
	at->known = true;
	at->point = pts->pts[pt].name;
	at->other = pts->pts[other].name;
	if (r->key == PT_NONE || pts->keys[r->key].disputed || (pt != c->p && pt != c->q))
		return;
	int nu = copies(pts, r->key, d->up, 0, NULL), nd = copies(pts, r->key, d->down, 0, NULL);
	int shift = nu > nd ? nu - nd : 0;
	int want = pt == d->up ? r->copy - shift : r->copy + shift;
	const struct prec *o = NULL;
	if (want < 0 || !copies(pts, r->key, other, want, &o) || !o)
		return;
	at->has_other = true;
	at->other_ns = o->ts;
	at->has_oneway = true;
	at->oneway_ns = pt == d->up ? o->ts - r->ts : r->ts - o->ts;
}

void points_note(const struct points *pts, FILE *f)
{
	uint32_t named = 0;
	for (uint32_t i = 0; i < pts->nmulti && named < POINTS_NOTE_LINES; i++, named++) {
		const struct pconn *c = &pts->conns[pts->by_stream ? pts->by_stream[i] : 0];
		if (!pts->by_stream)
			break;
		fprintf(f, "iwarpscope: note: connection %u seen at two capture points (%s, %s): "
			   "each segment counted once, numbers from %s\n",
			c->stream, pts->pts[c->p].name, pts->pts[c->q].name, pts->pts[c->ref].name);
	}
	/* A line per connection would drown the rest: the report lists them. */
	if (pts->nmulti > named)
		fprintf(f, "iwarpscope: note: %s%u connections seen at two capture points: each segment "
			   "counted once (the summary and stats --format json list them)\n",
			named ? "in all " : "", pts->nmulti);
	if (pts->segs_unindexed)
		fprintf(f, "iwarpscope: warning: two-point matching stopped at its memory bound (%u "
			   "connections, %u segments): %llu later segments not matched\n",
			POINTS_MAX_CONNS, POINTS_MAX_RECORDS, (unsigned long long)pts->segs_unindexed);
}

void points_free(struct points *pts)
{
	if (!pts)
		return;
	free(pts->recs);
	free(pts->undo);
	free(pts->keys);
	free(pts->kstart);
	free(pts->keys_of);
	free(pts->buckets);
	free(pts->conns);
	free(pts->by_stream);
	for (int i = 0; pts->files && i < pts->nfiles; i++)
		free((char *)pts->files[i].name);
	free(pts->files);
	free(pts->pts);
	free(pts);
}
