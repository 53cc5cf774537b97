// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which request a Read or Atomic Response is proven to answer, as a decoder
 * that sees only the capture knows it (docs/semantics.md, "Which request a
 * response answers"): the generator's own model of that rule, from what it
 * knows of every FPDU's visibility.
 *
 * Per connection and requester direction: the requests in request order as
 * slots (a visible request, or requests not visible known only by number,
 * with the frame that carried them when one sliced frame did), the range of
 * positions earlier responses took, and the visible responses taking the next
 * position each. Where the decoder would not know the pairing, the truth
 * splits the generator's operation: its request alone (response_unknown) and
 * its responses alone (request_missing); where it knows only the request's
 * frame, the responses join the first request of that frame still waiting.
 *
 * Responses not proven to answer a request are proven at a clean close (both
 * FINs, no RST, no Terminate) by the count (docs/semantics.md): the i-th
 * response since the capture began answers the request with MSN R0 + i,
 * R0 = the last request's MSN - the responses counted, unless the capture
 * lost responses after the first, or requests after the last seen, or a
 * response was cut, or the count contradicts a response proven on the way.
 */
#include "capture.h"

#include <stdlib.h>
#include <string.h>

#define INF UINT32_MAX
#define SEEN 16
#define HELD_MAX 4096   /* responses held per direction (core/qp_int.h) */

/* A response not proven when it came: the count may prove it at the close. */
struct held {
	int op;
	uint32_t index;         /* responses since the capture began, it included */
	uint32_t first_frame;
	int done;               /* its last FPDU came */
	int atomic, key_known;
	uint32_t stag, req_id;
	uint64_t to;
};

struct slot {
	int op;                 /* visible request: its op_rec; -1: requests not visible */
	uint32_t lo, hi;        /* how many (1 for a visible request) */
	uint32_t frame;         /* its (their) frame, 0: not known */
	int atomic;
	int key_known;
	uint32_t stag;
	uint64_t to;
	uint32_t req_id;
};

struct queue {
	struct slot *s;
	size_t n, cap;
	uint32_t skip_lo, skip_hi;
	int have_msn;
	uint32_t last_msn, tail_taken;
	uint32_t early;         /* responses before anything of this direction was seen */
	int hidden_just;
	int open;               /* op_rec whose responses are being received, -1 */
	int open_req;           /* ... the request op they were given to, -1: none */
	uint32_t nseen;
	uint32_t seen_stag[SEEN];
	uint64_t seen_to[SEEN];
	/* the count at a clean close */
	uint32_t responses;
	int first_known, have_last, tail_unsure, broken;
	uint32_t first_msn, last_req_msn;
	uint32_t anchors, anchor_lo, anchor_hi;
	struct held *h;
	size_t nh, caph;
	struct slot *reqs;      /* the visible requests, in order */
	size_t nreqs, capreqs;
};

static uint32_t add_sat(uint32_t a, uint32_t b)
{
	return a == INF || b == INF || a > INF - 1 - b ? INF : a + b;
}

static uint32_t sub_floor(uint32_t a, uint32_t b)
{
	return a == INF ? INF : a > b ? a - b : 0;
}

static void q_del(struct queue *q, size_t i)
{
	memmove(&q->s[i], &q->s[i + 1], (q->n - i - 1) * sizeof(q->s[0]));
	q->n--;
}

static void q_push(struct queue *q, const struct slot *x)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		q->s = xrealloc(q->s, q->cap * sizeof(q->s[0]));
	}
	q->s[q->n++] = *x;
}

struct proof {
	struct gen *g;
	struct truth *t;
	struct queue (*q)[2];   /* by conn and requester direction */
	int *answered_by;       /* per op_rec (response side): the request op it joins,
				 * -1 none (request_missing), -2 not decided */
	int *req_state;         /* per op_rec (request side): 1 answered by its own responses or
				 * another's, 2 perhaps answered (response_unknown) */
	int *ambiguous;         /* per request op: answered, but which request is not known */
	uint32_t *hid_frame;    /* per response op answering a request not visible: its frame */
	int *how;               /* per request op answered: PAIR_* */
	uint32_t taken_frame;   /* the frame of the slot take() last took from */
};

/* A visible request slot that leaves the queue unanswered by a proven response. */
static void drop(struct proof *p, struct queue *q, size_t i)
{
	if (q->s[i].op >= 0)
		p->req_state[q->s[i].op] = 2;
	q_del(q, i);
}

static void drop_answered(struct proof *p, struct queue *q)
{
	while (q->n && q->s[0].hi != INF && q->s[0].hi <= q->skip_lo) {
		q->skip_lo -= q->s[0].hi;
		q->skip_hi = q->skip_hi == INF ? INF : sub_floor(q->skip_hi, q->s[0].lo);
		drop(p, q, 0);
	}
}

static void add_slots(struct queue *q, uint32_t frame)
{
	struct slot x = { -1, 0, INF, frame, 0, 0, 0, 0, 0 };
	if (q->n) {
		const struct slot *t = &q->s[q->n - 1];
		if (t->op < 0 && !t->frame && !frame && t->hi == INF)
			return;
		if (t->op < 0 && frame && t->frame == frame)
			return;
	}
	q_push(q, &x);
	if (!q->have_msn && q->n == 1) {
		q->tail_taken += q->early;
		q->early = 0;
	}
}

static void msn_count(struct queue *q, uint32_t msn)
{
	uint32_t between = q->have_msn ? msn - q->last_msn - 1 : (msn ? msn - 1 : 0);
	if (between > (1u << 30))
		between = INF;
	uint32_t left = sub_floor(between, q->tail_taken);
	size_t i = q->n, nslots = 0;
	while (i && q->s[i - 1].op < 0) {
		struct slot *x = &q->s[--i];
		if (x->hi == INF || x->hi > left)
			x->hi = left;
		if (x->lo > x->hi)
			x->lo = x->hi;
		nslots++;
	}
	if (nslots == 1 && q->have_msn && !q->skip_lo && !q->skip_hi && left != INF)
		q->s[i].lo = left;
	while (q->n && q->s[q->n - 1].op < 0 && !q->s[q->n - 1].hi)
		q->n--;
	q->have_msn = 1;
	q->last_msn = msn;
	q->tail_taken = 0;
}

/* Octets of (conn, dir) were lost (lost / hidden in `frame`, 0: a gap). */
static void lost(struct proof *p, int conn, int dir, uint32_t frame)
{
	struct queue *rq = &p->q[conn][dir], *oq = &p->q[conn][!dir];
	if (frame) {
		struct truth *t = p->t;
		if (t->nhidden == t->caphidden) {
			t->caphidden = t->caphidden ? 2 * t->caphidden : 16;
			t->hidden = xrealloc(t->hidden, t->caphidden * sizeof(t->hidden[0]));
		}
		t->hidden[t->nhidden++] = (struct hidden_rec){ conn, dir, frame };
	}
	/* requests of dir after the last seen may be among them; responses of
	 * dir after some were counted break the count */
	rq->tail_unsure = 1;
	if (oq->responses)
		oq->broken = 1;
	if (frame) {
		add_slots(rq, frame);
		rq->hidden_just = 1;
	} else {
		if (!rq->hidden_just)
			add_slots(rq, 0);
		rq->hidden_just = 0;
	}
	if (oq->n || oq->open >= 0)
		oq->skip_hi = INF;
}

static int seen_unmatched(const struct queue *q, uint32_t stag, uint64_t to)
{
	uint32_t n = q->nseen < SEEN ? q->nseen : SEEN;
	for (uint32_t i = 0; i < n; i++)
		if (q->seen_stag[i] == stag && q->seen_to[i] == to)
			return 1;
	return 0;
}

static void remember(struct queue *q, uint32_t stag, uint64_t to)
{
	q->seen_stag[q->nseen % SEEN] = stag;
	q->seen_to[q->nseen % SEEN] = to;
	q->nseen++;
}

/* Take one position of slot i (positions before it: [alo, ahi]); the request
 * op it gives (-1: none known). */
static int take(struct proof *p, struct queue *q, size_t i, uint32_t alo, uint32_t ahi, int exact)
{
	while (i) {
		drop(p, q, 0);
		i--;
	}
	q->skip_lo = sub_floor(q->skip_lo, ahi);
	q->skip_hi = q->skip_hi == INF ? INF : sub_floor(q->skip_hi, alo);
	struct slot *x = &q->s[0];
	if (x->op >= 0) {
		int op = x->op;
		q_del(q, 0);
		if (exact)
			q->skip_lo = q->skip_hi = 0;
		return op;
	}
	int trailing = 1;
	for (size_t k = 1; k < q->n; k++)
		trailing &= q->s[k].op < 0;
	if (trailing)
		q->tail_taken++;
	int hidden = x->frame ? -3 : -1;   /* -3: a hidden request of a known frame */
	p->taken_frame = x->frame;
	if (x->hi != INF)
		x->hi--;
	if (x->lo)
		x->lo--;
	if (!x->hi)
		q_del(q, 0);
	return hidden;
}

/* The request a new response message takes; -1 none proven, -3 a hidden
 * request of a known frame; *amb: of its frame only. */
static int answer(struct proof *p, struct queue *q, uint32_t sent, int atomic, int key_known,
		  uint32_t stag, uint64_t to, uint32_t req_id, int *amb, int *none, int *how)
{
	uint32_t alo = 0, ahi = 0, nslots = 0, keyed = 0, frame = 0;
	uint32_t f_alo = 0, f_ahi = 0, d_alo = 0, d_ahi = 0;
	size_t first = 0, distinct = 0;
	int one_frame = 1, unseen = 0;
	*amb = *none = 0;
	*how = PAIR_NONE;
	if (atomic && key_known && q->skip_lo == q->skip_hi && !seen_unmatched(q, 0, req_id)) {
		int hit = -1, bad = 0;
		for (size_t i = 0; i < q->n && !bad; i++) {
			if (q->s[i].op < 0 || !q->s[i].key_known) {
				bad = 1;
				break;
			}
			if (q->s[i].frame >= sent)
				break;
			if (q->s[i].atomic && q->s[i].req_id == req_id)
				bad |= hit >= 0, hit = (int)i;
		}
		if (!bad && hit >= 0) {
			int op = q->s[hit].op;
			q_del(q, (size_t)hit);
			*how = PAIR_KEY;
			return op;
		}
	}
	for (size_t i = 0; i < q->n; i++) {
		const struct slot *x = &q->s[i];
		if (alo > q->skip_hi)
			break;
		if (x->frame && x->frame >= sent && (x->op >= 0 || x->frame > sent))
			break;
		uint32_t last = add_sat(ahi, x->hi);
		int may = x->hi > 0 && q->skip_lo < last && (q->skip_hi == INF || q->skip_hi >= alo);
		if (may && x->op >= 0 && x->atomic != atomic)
			may = 0;
		if (may) {
			if (!nslots) {
				first = i;
				f_alo = alo;
				f_ahi = ahi;
				frame = x->frame;
			}
			nslots++;
			if (!x->frame || x->frame != frame)
				one_frame = 0;
			if (x->op < 0)
				unseen = 1;
			if (x->op >= 0 && key_known && x->key_known &&
			    (atomic ? x->req_id == req_id : x->stag == stag && x->to == to)) {
				keyed++;
				distinct = i;
				d_alo = alo;
				d_ahi = ahi;
			}
		}
		alo = add_sat(alo, x->lo);
		ahi = last;
	}
	if (!frame)
		one_frame = 0;
	if (!nslots) {
		*none = 1;
		if (!q->n && !q->have_msn)
			q->early++;
		return -1;
	}
	if (nslots == 1) {
		int r = take(p, q, first, f_alo, f_ahi, q->s[first].op >= 0);
		*how = r >= 0 ? PAIR_ORDER : r == -3 ? PAIR_FRAME : PAIR_NONE;
		return r;
	}
	if (keyed == 1 && !unseen && !seen_unmatched(q, atomic ? 0 : stag, atomic ? req_id : to)) {
		*how = PAIR_KEY;
		return take(p, q, distinct, d_alo, d_ahi, 1);
	}
	if (one_frame) {
		*amb = 1;
		*how = PAIR_FRAME;
		return take(p, q, first, f_alo, f_ahi, 0);
	}
	q->skip_lo = add_sat(q->skip_lo, 1);
	q->skip_hi = add_sat(q->skip_hi, 1);
	drop_answered(p, q);
	return -1;
}

/* ---- the count at a clean close ---- */

static void held_push(struct queue *q, const struct held *x)
{
	if (q->nh == q->caph) {
		q->caph = q->caph ? 2 * q->caph : 16;
		q->h = xrealloc(q->h, q->caph * sizeof(q->h[0]));
	}
	q->h[q->nh++] = *x;
}

static void req_push(struct queue *q, const struct slot *x)
{
	if (q->nreqs == q->capreqs) {
		q->capreqs = q->capreqs ? 2 * q->capreqs : 16;
		q->reqs = xrealloc(q->reqs, q->capreqs * sizeof(q->reqs[0]));
	}
	q->reqs[q->nreqs++] = *x;
}

/* Both sides closed with a FIN, no RST, no Terminate in the capture. */
static int clean_close(const struct gen *g, const struct truth *t, int c)
{
	const struct conn_tcp *ct = &t->tcp[c];
	if (!ct->fin[0] || !ct->fin[1] || ct->rst[0] || ct->rst[1])
		return 0;
	for (size_t i = 0; i < g->nfpdus; i++)
		if (g->fpdus[i].conn == c && g->fpdus[i].listed && g->fpdus[i].opcode == RD_TERMINATE)
			return 0;
	return 1;
}

/* The visible request of (c, d) with this MSN still waiting for an answer
 * (not answered by a proven response), NULL none. */
static const struct slot *waiting_msn(const struct proof *p, const struct queue *q, uint32_t msn)
{
	for (size_t i = 0; i < q->nreqs; i++) {
		const struct slot *x = &q->reqs[i];
		if (p->req_state[x->op] != 1 && p->g->ops[x->op].msn == msn)
			return x;
	}
	return NULL;
}

/* Could held response x answer visible request r (core/qp_hold.c fits)? */
static int fits(const struct slot *r, const struct held *x)
{
	if (r->atomic != x->atomic || r->frame >= x->first_frame)
		return 0;
	if (!r->key_known || !x->key_known)
		return 1;
	return x->atomic ? r->req_id == x->req_id : r->stag == x->stag && r->to == x->to;
}

/* The held responses of (c, d)'s requests at the end: what the count
 * proves, all or nothing. */
static void close_count(struct proof *p, const struct truth *t, int c, int d)
{
	struct queue *q = &p->q[c][d];
	const struct gen *g = p->g;
	if (!q->nh || !clean_close(g, t, c) || q->broken || q->tail_unsure || !q->have_last || q->nh > HELD_MAX)
		return;
	uint32_t r0 = q->last_req_msn - q->responses;
	if (q->anchors && (q->anchor_lo != r0 || q->anchor_hi != r0))
		return;
	/* a waiting request answered before the capture began: no count */
	for (size_t i = 0; i < q->nreqs; i++)
		if (p->req_state[q->reqs[i].op] != 1 && (int32_t)(g->ops[q->reqs[i].op].msn - r0) <= 0)
			return;
	for (size_t k = 0; k < q->nh; k++) {
		const struct held *x = &q->h[k];
		uint32_t msn = r0 + x->index;
		const struct slot *r = waiting_msn(p, q, msn);
		if (!x->done)
			return;
		if (r ? !fits(r, x) : q->first_known && (int32_t)(msn - q->first_msn) >= 0)
			return;
	}
	for (size_t k = 0; k < q->nh; k++) {
		const struct held *x = &q->h[k];
		const struct slot *r = waiting_msn(p, q, r0 + x->index);
		if (!r) {
			p->answered_by[x->op] = -4;
			continue;
		}
		/* a sound count gives every response its own request */
		if (r->op != x->op)
			gen_die("the count at the close pairs the response of op %d with the request of op %d",
				x->op, r->op);
		p->answered_by[x->op] = r->op;
		p->req_state[r->op] = 1;
		p->how[r->op] = PAIR_CLOSE;
	}
}

/* Octets [off, off + n) of (conn, dir) all in the capture. */
static int all_in(const struct gen *g, int conn, int dir, uint64_t off, uint64_t n,
		  const uint32_t *(*fc)[2])
{
	(void)g;
	for (uint64_t k = 0; k < n; k++)
		if (!fc[conn][dir][off + k])
			return 0;
	return 1;
}

/* The first captured frame that carried octet off of (conn, dir), 0: none. */
static uint32_t frame_of(const struct truth *t, int conn, int dir, uint64_t off)
{
	for (uint32_t no = 1; no <= t->nframes; no++) {
		const struct frame *f = t->byno[no];
		if (f->conn == conn && f->dir == dir && f->paylen && f->soff <= off && off < f->soff + f->paylen)
			return no;
	}
	return 0;
}

void prove_responses(struct gen *g, struct truth *t, const uint32_t *(*fc)[2])
{
	struct proof p;
	memset(&p, 0, sizeof(p));
	p.g = g;
	p.t = t;
	p.q = calloc((size_t)g->nconns + 1, sizeof(*p.q));
	p.answered_by = malloc((g->nops + 1) * sizeof(int));
	p.req_state = calloc(g->nops + 1, sizeof(int));
	p.ambiguous = calloc(g->nops + 1, sizeof(int));
	p.hid_frame = calloc(g->nops + 1, sizeof(uint32_t));
	p.how = calloc(g->nops + 1, sizeof(int));
	/* per (conn, dir): the FPDU index just past the last visible one */
	size_t (*prev)[2] = calloc((size_t)g->nconns + 1, sizeof(*prev));
	int (*started)[2] = calloc((size_t)g->nconns + 1, sizeof(*started));
	if (!p.q || !p.answered_by || !p.req_state || !p.ambiguous || !p.hid_frame || !p.how || !prev || !started)
		gen_die("out of memory");
	for (size_t i = 0; i < g->nops; i++)
		p.answered_by[i] = -2;
	for (int c = 0; c < g->nconns; c++)
		for (int d = 0; d < 2; d++)
			p.q[c][d].open = p.q[c][d].open_req = -1;

	for (size_t k = 0; k < t->nfpdus; k++) {
		size_t fi = t->fpdus[k];
		const struct fpdu_rec *f = &g->fpdus[fi];
		int c = f->conn, d = f->dir;
		struct queue *rq = &p.q[c][d];
		/* The FPDUs of this direction not visible since the previous
		 * visible one: those of one sliced frame are a hidden span of
		 * that frame; any more (of other frames, or lost) an unknown
		 * number, as the decoder sees them. */
		uint32_t hid = 0;
		int any = 0, more = 0;
		for (size_t j = started[c][d] ? prev[c][d] : 0; j < fi; j++) {
			const struct fpdu_rec *y = &g->fpdus[j];
			if (y->conn != c || y->dir != d || y->listed)
				continue;
			uint32_t fr = frame_of(t, c, d, y->off);
			if (!any)
				hid = fr;
			else if (fr != hid)
				more = 1;
			any = 1;
		}
		if (!started[c][d]) {
			/* the capture started after this direction's first FPDU */
			const struct conn *cn = g->conns[c];
			uint64_t start = cn->d[d].seqstart;
			if (f->off != start || !all_in(g, c, d, start, f->off + 1 - start, fc)) {
				hid = 0;
				any = 1;
			}
			started[c][d] = 1;
		}
		if (any)
			lost(&p, c, d, hid);
		if (any && hid && more) {
			/* (octets of frames not known hidden too: an unknown
			 * number more, not the span's own loss of framing) */
			rq->hidden_just = 0;
			lost(&p, c, d, 0);
		}
		prev[c][d] = fi + 1;
		rq->hidden_just = 0;

		const struct op_rec *o = &g->ops[f->op];
		int is_req = f->op_seq == 0 && (f->opcode == RD_READ_REQ || f->opcode == RD_ATOMIC_REQ) &&
			     (o->kind == OP_READ || o->kind == OP_FADD || o->kind == OP_CSWAP) && !o->rtr;
		int is_resp = f->op_seq > 0 && (f->opcode == RD_READ_RESP || f->opcode == RD_ATOMIC_RESP) &&
			      !o->rtr;
		if (is_req) {
			struct slot x;
			memset(&x, 0, sizeof(x));
			x.op = f->op;
			x.lo = x.hi = 1;
			x.frame = f->first_frame;
			x.atomic = f->opcode == RD_ATOMIC_REQ;
			/* the request's key (sink STag/TO 18..30, Request Identifier
			 * 22..26 of the ULPDU) in the capture */
			x.key_known = all_in(g, c, d, f->off, x.atomic ? 2 + 26 : 2 + 30, fc);
			x.stag = o->stag;
			x.to = o->to;
			x.req_id = o->atomic_req_id;
			msn_count(rq, f->msn);
			q_push(rq, &x);
			req_push(rq, &x);
			if (!rq->first_known) {
				rq->first_known = 1;
				rq->first_msn = f->msn;
			}
			rq->have_last = 1;
			rq->last_req_msn = f->msn;
			rq->tail_unsure = 0;
		} else if (is_resp) {
			struct queue *q = &p.q[c][!d];
			int atomic = f->opcode == RD_ATOMIC_RESP;
			if (!atomic && q->open == f->op)
				goto next;  /* the next segment of the message */
			/* a new message while one held was still coming: it lost
			 * its end, and the count its proof */
			if (!atomic && q->open >= 0 && q->nh && q->h[q->nh - 1].op == q->open && !q->h[q->nh - 1].done)
				q->broken = 1;
			uint32_t index = ++q->responses;
			int amb, none, how;
			int key = atomic ? all_in(g, c, d, f->off, 2 + 22, fc) : 1;
			int r = answer(&p, q, f->first_frame, atomic, key, f->stag, f->to, o->atomic_req_id, &amb,
				       &none, &how);
			if (r == -1 && !atomic && !f->payload && f->last && none)
				goto next;  /* a Read RTR's response: no operation */
			if (r == -1) {
				remember(q, atomic ? 0 : f->stag, atomic ? o->atomic_req_id : f->to);
				if (t->norphans == t->caporphans) {
					t->caporphans = t->caporphans ? 2 * t->caporphans : 16;
					t->orphans = xrealloc(t->orphans, t->caporphans * sizeof(t->orphans[0]));
				}
				t->orphans[t->norphans++] = (struct orphan_rec){ c, !d, f->first_frame, f->frame };
				struct held x = { f->op, index, f->first_frame, atomic || f->last, atomic, key,
						  f->stag, o->atomic_req_id, f->to };
				held_push(q, &x);
			}
			p.answered_by[f->op] = r;
			if (r == -3)
				p.hid_frame[f->op] = p.taken_frame;
			if (r >= 0) {
				p.req_state[r] = 1;
				p.ambiguous[r] = amb;
				p.how[r] = how;
				/* a response proven to a request of known MSN: the count must agree */
				if (!amb) {
					uint32_t before = g->ops[r].msn - index;
					if (!q->anchors || before < q->anchor_lo)
						q->anchor_lo = before;
					if (!q->anchors || before > q->anchor_hi)
						q->anchor_hi = before;
					q->anchors++;
				}
			}
			if (!atomic && !f->last)
				q->open = f->op;
		}
	next:
		if (is_resp && f->last) {
			struct queue *q = &p.q[c][!d];
			q->open = -1;
			if (q->nh && q->h[q->nh - 1].op == f->op)
				q->h[q->nh - 1].done = 1;
		}
	}
	/* FPDUs a snapshot length hid after each direction's last visible one:
	 * the decoder hears of them too (requests among them, perhaps) */
	for (int c = 0; c < g->nconns; c++)
		for (int d = 0; d < 2; d++) {
			uint32_t hid = 0;
			int more = 0;
			for (size_t j = prev[c][d]; started[c][d] && j < g->nfpdus; j++) {
				const struct fpdu_rec *y = &g->fpdus[j];
				uint32_t fr;
				if (y->conn != c || y->dir != d || y->listed || !(fr = frame_of(t, c, d, y->off)))
					continue;
				if (!hid)
					hid = fr;
				else if (fr != hid)
					more = 1;
			}
			if (hid)
				lost(&p, c, d, hid);
			if (hid && more) {
				p.q[c][d].hidden_just = 0;
				lost(&p, c, d, 0);
			}
		}
	for (int c = 0; c < g->nconns; c++)
		for (int d = 0; d < 2; d++)
			close_count(&p, t, c, d);
	/* the end: requests perhaps answered by a response not proven */
	for (int c = 0; c < g->nconns; c++)
		for (int d = 0; d < 2; d++) {
			struct queue *q = &p.q[c][d];
			uint32_t alo = 0;
			for (size_t i = 0; i < q->n && alo < q->skip_hi; i++) {
				if (q->s[i].op >= 0 && !p.req_state[q->s[i].op])
					p.req_state[q->s[i].op] = 2;
				alo = add_sat(alo, q->s[i].lo);
			}
			free(q->s);
			free(q->h);
			free(q->reqs);
		}
	/* What the truth's operations become. */
	for (size_t i = 0; i < g->nops; i++) {
		struct op_rec *o = &g->ops[i];
		o->resp_of = -1;
		o->pairing = p.how[i];
		if (p.req_state[i] == 2)
			o->part = PART_RESPONSE_UNKNOWN;
		if (p.ambiguous[i])
			o->part = PART_AMBIGUOUS;
	}
	for (size_t i = 0; i < g->nops; i++) {
		struct op_rec *o = &g->ops[i];
		int r = p.answered_by[i];
		if (r == -2)
			continue;  /* no response visible, or not a read/atomic */
		if (r == -1) {
			o->resp_part = RESP_MISSING;
		} else if (r == -4) {
			o->resp_part = RESP_BEFORE;
		} else if (r == -3) {
			o->resp_part = RESP_HIDDEN;
			o->hid_frame = p.hid_frame[i];
		} else if (r != (int)i) {
			o->resp_part = RESP_MOVED;
			o->resp_of = r;
		}
	}
	free(prev);
	free(started);
	free(p.q);
	free(p.answered_by);
	free(p.req_state);
	free(p.ambiguous);
	free(p.hid_frame);
	free(p.how);
}
