// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read and Atomic Requests and the responses that answer them (see
 * qp_int.h and docs/semantics.md, "Which request a response answers").
 *
 * A responder answers Read and Atomic Requests in the order it received them
 * (RFC 5040 §5.2.1, RFC 7306), but a response names no request: only its
 * position in that order does, and perftest-like programs reuse one sink
 * STag/TO for every Read. So each requester direction keeps its outstanding
 * requests as a queue of slots in request order:
 *
 *   a captured request    (K_READ, K_ATOMIC node), one position;
 *   requests not seen     (K_SLOTS node): a number of positions, known
 *                         within [cnt_lo, cnt_hi], with the frame that
 *                         carried them when one hidden span did (a snapshot
 *                         length cut their headers), else unknown (a capture
 *                         gap, or the capture started after them).
 *
 * The MSNs of queue 1 (RFC 5041 §5.3: Read and Atomic Requests share it,
 * from 1 up by one) count the requests between two captured ones. Each new
 * response message takes the next position; how many positions earlier
 * responses took is known within [skip_lo, skip_hi] (exactly when the
 * capture saw the requester's stream from its start). A response is matched
 * only when its possible positions hold one request, or requests of one frame
 * (then its frame and latency are proven, not which request it answers), or
 * when its sink STag/TO (an Atomic's Request Identifier) is distinct;
 * otherwise it is request_missing and the positions move on uncertain.
 */
#include "qp_int.h"
#ifdef QPDBG
#include <stdio.h>
#endif

/* The unknown in a count or a skip. */
#define INF UINT32_MAX

static uint32_t add_sat(uint32_t a, uint32_t b)
{
	return a == INF || b == INF || a > INF - 1 - b ? INF : a + b;
}

static uint32_t sub_floor(uint32_t a, uint32_t b)
{
	return a == INF ? INF : a > b ? a - b : 0;
}

static enum iws_op_type atomic_type(uint8_t aop)
{
	switch (aop) {
	case IWS_AOP_CMP_SWAP:
		return IWS_OPT_ATOMIC_CMP_SWAP;
	case IWS_AOP_SWAP:
		return IWS_OPT_ATOMIC_SWAP;
	default:
		return IWS_OPT_ATOMIC_FETCH_ADD;
	}
}

/* A responder answers Reads and Atomics in the order of their requests
 * (RFC 5040 §5.2.1, RFC 7306): a request that arrived while it was still
 * sending earlier responses waited for them. queued_ns (docs/semantics.md):
 * from the request's arrival (deliverable in order) to the end of the
 * earlier responses, or to its own first response if that came sooner. */
static void queued(struct iws_tracker *t, struct node *n, const struct iws_seg *s)
{
	int64_t begin = s->first_frame ? s->first_ts : s->ts_ns;
	int64_t busy = t->resp_sent_ts[s->dir];
	if (!t->any_resp[s->dir] || busy <= n->req_done_ts || n->op.flags & IWS_OPF_STARTED_BEFORE)
		return;
	n->op.queued_ns = (busy < begin ? busy : begin) - n->req_done_ts;
	if (n->op.queued_ns < 0)
		n->op.queued_ns = 0;
}

/* The responder in dir sent the last FPDU of a response. */
static void responded(struct iws_tracker *t, const struct iws_seg *s)
{
	t->any_resp[s->dir] = true;
	t->resp_sent_ts[s->dir] = s->first_frame ? s->first_ts : s->ts_ns;
}

/* ---- the queue of a requester direction ---- */

static bool is_request(const struct node *n)
{
	return n->kind == K_READ || n->kind == K_ATOMIC;
}

/* The positions a slot holds. */
static uint32_t cnt_lo(const struct node *n)
{
	return n->kind == K_SLOTS ? n->cnt_lo : 1;
}

static uint32_t cnt_hi(const struct node *n)
{
	return n->kind == K_SLOTS ? n->cnt_hi : 1;
}

/* Take a slot out of the queue. A captured request whose answer can no
 * longer be told from the responses that went by stays an operation in
 * flight, flagged, until the end (docs/semantics.md): its response is
 * "never" as far as the capture shows; one whose response fell into a
 * capture gap is over. Requests known only by number are no operations. */
static void drop_slot(struct iws_tracker *t, struct node *n)
{
	list_unlink(n);
	if (n->kind == K_SLOTS) {
		free(n);
		return;
	}
	if (gap_seen(t, n)) {
		n->op.flags |= IWS_OPF_GAP;
		/* While responses may be held, a clean close may yet prove its
		 * response was captured (qp_report.c): it waits, flagged. */
		if (!trk_hold_possible(t, n->op.dir & 1))
			trk_report(t, n);
		return;
	}
	if (!(n->op.flags & IWS_OPF_RESPONSE_UNKNOWN)) {
		n->op.flags |= IWS_OPF_RESPONSE_UNKNOWN;
		t->counts.responses_unknown++;
	}
}

/* Slots at the head that every possible position is past were answered. */
static void drop_answered(struct iws_tracker *t, uint8_t d)
{
	struct order *o = &t->ord[d];
	struct node *h;
	while ((h = t->requests[d].head) != NULL && cnt_hi(h) != INF && cnt_hi(h) <= o->skip_lo) {
		o->skip_lo -= cnt_hi(h);
		o->skip_hi = o->skip_hi == INF ? INF : sub_floor(o->skip_hi, cnt_lo(h));
		drop_slot(t, h);
	}
}

/* Requests of d not seen, `frame` the frame that carried them (0: not
 * known), at the end of the queue (after the newest captured request). */
static void add_slots(struct iws_tracker *t, uint8_t d, uint64_t frame, int64_t ts)
{
	struct list *l = &t->requests[d];
	struct node *tail = l->tail;
	/* one span of unknown frame swallows the next: which holds what is not known anyway */
	if (tail && tail->kind == K_SLOTS && !tail->op.first_frame && !frame && tail->cnt_hi == INF)
		return;
	if (tail && tail->kind == K_SLOTS && tail->op.first_frame == frame && frame)
		return;  /* the same span again */
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return;
	n->kind = K_SLOTS;
	n->cnt_lo = 0;
	n->cnt_hi = INF;
	n->op.first_frame = frame;
	n->op.start_ns = ts;
	list_push(l, n);
	/* Responses seen before anything of this direction answered requests
	 * sent before the capture: these. */
	if (!t->ord[d].have_msn && l->n == 1) {
		t->ord[d].tail_taken += t->ord[d].early;
		t->ord[d].early = 0;
	}
}

/* A request captured with MSN msn: the requests not seen since the previous
 * captured one number msn - previous - 1 (RFC 5041 §5.3), fewer those
 * already answered; the slots that stand for them are bounded by it. */
static void msn_count(struct iws_tracker *t, uint8_t d, uint32_t msn)
{
	struct order *o = &t->ord[d];
	uint32_t between;
	if (o->have_msn)
		between = msn - o->last_msn - 1;
	else
		between = msn ? msn - 1 : 0;  /* the capture started after them */
	if (between > (1u << 30))
		between = INF;  /* MSNs going backwards: no count */
	uint32_t left = sub_floor(between, o->tail_taken);
	uint32_t nslots = 0;
	struct node *one = NULL;
	for (struct node *n = t->requests[d].tail; n && n->kind == K_SLOTS; n = n->prev) {
		if (n->cnt_hi == INF || n->cnt_hi > left)
			n->cnt_hi = left;
		if (n->cnt_lo > n->cnt_hi)
			n->cnt_lo = n->cnt_hi;
		one = n;
		nslots++;
	}
	/* One span holds them all: their number is exact, unless responses
	 * lost in a gap (skip not exact) or answered before the capture (the
	 * first captured request) took some unseen. */
	if (nslots == 1 && o->have_msn && o->skip_lo == 0 && o->skip_hi == 0 && left != INF)
		one->cnt_lo = left;
	/* slots that can hold nothing are no positions */
	struct node *n = t->requests[d].tail;
	while (n && n->kind == K_SLOTS && n->cnt_hi == 0) {
		struct node *p = n->prev;
		list_unlink(n);
		free(n);
		n = p;
	}
	o->have_msn = true;
	o->last_msn = msn;
	o->tail_taken = 0;
}

void trk_order_gap(struct iws_tracker *t, uint8_t dir)
{
	/* Requests of dir may have been lost: an unknown number of them after
	 * the newest captured one (at the capture start: those still
	 * outstanding then) - unless the octets lost are those of the hidden
	 * span just told (a snapshot length cut a header: framing is lost over
	 * octets whose frame is known). */
	if (!t->ord[dir].hidden_just)
		add_slots(t, dir, 0, 0);
	t->ord[dir].hidden_just = false;
	/* Responses sent in dir may have been lost: they took positions of
	 * the other direction's requests unseen. (The message being received
	 * goes on, flagged, if its next segment continues it.) */
	if (t->requests[!dir].head || t->ord[!dir].open)
		t->ord[!dir].skip_hi = INF;
}

void trk_order_finish(struct iws_tracker *t)
{
	/* responses held for pairing: what the close proves (qp_report.c) */
	trk_hold_finish(t);
	/* Captured requests a response whose request was not proven may have
	 * answered: not known to be unanswered. */
	for (int d = 0; d < 2; d++) {
		const struct order *o = &t->ord[d];
		uint32_t alo = 0, k = 0;
		for (struct node *n = t->requests[d].head; n && k < SEARCH_MAX && alo < o->skip_hi;
		     n = n->next, k++) {
			if (is_request(n) && !(n->op.flags & IWS_OPF_RESPONSE_UNKNOWN)) {
				n->op.flags |= IWS_OPF_RESPONSE_UNKNOWN;
				t->counts.responses_unknown++;
			}
			alo = add_sat(alo, cnt_lo(n));
		}
	}
}

void iws_tracker_hidden(struct iws_tracker *t, uint8_t dir, uint64_t frame, int64_t ts)
{
	if (dir > 1)
		return;
	trk_hold_lost(t, dir);
	if (frame > t->hidden_frame[dir])
		t->hidden_frame[dir] = frame;
	add_slots(t, dir, frame, ts);
	t->ord[dir].hidden_just = frame != 0;
	/* the FPDUs hidden may be responses to the other direction's requests */
	if (t->requests[!dir].head || t->ord[!dir].open)
		t->ord[!dir].skip_hi = INF;
}

/* STag/TO (an Atomic's Request Identifier) of the responses whose request
 * was not found: a captured request with the same ones is not told apart
 * by them. */
static void remember_unmatched(struct order *o, uint32_t stag, uint64_t to)
{
	o->seen_stag[o->nseen % SEEN_MAX] = stag;
	o->seen_to[o->nseen % SEEN_MAX] = to;
	o->nseen++;
}

static bool seen_unmatched(const struct order *o, uint32_t stag, uint64_t to)
{
	uint32_t n = o->nseen < SEEN_MAX ? o->nseen : SEEN_MAX;
	for (uint32_t i = 0; i < n; i++)
		if (o->seen_stag[i] == stag && o->seen_to[i] == to)
			return true;
	return false;
}

/* ---- which position a response takes ---- */

struct cand {
	struct node *first;         /* the first slot a position may fall in */
	uint32_t first_alo, first_ahi; /* positions before it (bounds) */
	uint32_t nslots;            /* slots a position may fall in */
	bool one_frame;             /* all of them requests of one known frame */
	uint64_t frame;
	struct node *distinct;      /* the one captured request with the response's key */
	uint32_t distinct_alo, distinct_ahi;
	uint32_t keyed;             /* candidates with the response's key */
	bool unseen;                /* a candidate is a request not seen (its key unknown) */
};

/* Does captured request n fit a response of this kind, with key (STag/TO,
 * or the Request Identifier)? */
static bool fits(const struct node *n, bool atomic)
{
	return atomic ? n->kind == K_ATOMIC : n->kind == K_READ;
}

static bool has_key(const struct node *n, bool atomic, bool key_known, uint32_t stag, uint64_t to,
		    uint32_t req_id)
{
	if (!key_known)
		return false;
	if (atomic)
		return !n->id_unknown && n->op.atomic_req_id == req_id;
	return !n->sink_unknown && n->op.stag == stag && n->op.to == to;
}

/*
 * The slots the response's position may fall in: positions from skip_lo to
 * skip_hi, over slots whose sizes are known within bounds; a request sent
 * after the response's first octet (RFC 5040 §5.2.1: the responder had not
 * received it) and everything after it cannot be.
 */
static void candidates(struct iws_tracker *t, uint8_t d, const struct iws_seg *s, bool atomic,
		       bool key_known, uint32_t stag, uint64_t to, uint32_t req_id, struct cand *c)
{
	const struct order *o = &t->ord[d];
	uint64_t sent = s->first_frame ? s->first_frame : s->frame;
	memset(c, 0, sizeof(*c));
	c->one_frame = true;
	uint32_t alo = 0, ahi = 0, k = 0;
	for (struct node *n = t->requests[d].head; n && k < SEARCH_MAX; n = n->next, k++) {
		if (alo > o->skip_hi)
			break;  /* every later position is past the response's */
		if (n->op.first_frame && n->op.first_frame >= sent &&
		    (n->kind != K_SLOTS || n->op.first_frame > sent))
			break;  /* sent after the response: it and all after it */
		uint32_t last = add_sat(ahi, cnt_hi(n));  /* one past its last position */
		bool may = cnt_hi(n) > 0 && o->skip_lo < last && (o->skip_hi == INF || o->skip_hi >= alo);
		if (may && is_request(n) && !fits(n, atomic))
			may = false;  /* a request of the other kind is no answer to it */
		if (may) {
			if (!c->nslots) {
				c->first = n;
				c->first_alo = alo;
				c->first_ahi = ahi;
				c->frame = n->op.first_frame;
			}
			c->nslots++;
			if (!n->op.first_frame || n->op.first_frame != c->frame)
				c->one_frame = false;
			if (n->kind == K_SLOTS)
				c->unseen = true;
			if (is_request(n) && has_key(n, atomic, key_known, stag, to, req_id)) {
				c->keyed++;
				c->distinct = n;
				c->distinct_alo = alo;
				c->distinct_ahi = ahi;
			}
		}
		alo = add_sat(alo, cnt_lo(n));
		ahi = last;
	}
	if (!c->frame)
		c->one_frame = false;
}

/* A request answered by a response although the capture did not show it
 * (hidden by a snapshot length, in the frame of slot sp; or told apart by
 * nothing but its frame): listed from that frame, its fields unknown. */
static struct node *hidden_request(struct iws_tracker *t, const struct node *sp, const struct iws_seg *s,
				   bool atomic)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = atomic ? K_ATOMIC : K_READ;
	n->from_hidden = true;
	n->data_dir = s->dir;
	n->gap_gen = t->gap_gen[s->dir];
	n->op.id = ++t->next_id;
	n->op.type = atomic ? IWS_OPT_ATOMIC_FETCH_ADD : IWS_OPT_READ;
	n->op.opcode = atomic ? IWS_OP_CODE_ATOMIC_REQ : IWS_OP_CODE_READ_REQ;
	n->op.dir = !s->dir;
	n->op.first_frame = n->op.first_inorder_frame = n->op.last_frame = sp->op.first_frame;
	n->op.start_ns = n->op.end_ns = sp->op.start_ns;
	n->req_done_ts = sp->op.start_ns;
	n->op.segments = 1;  /* its request */
	n->op.flags |= IWS_OPF_TRUNCATED;
	n->id_unknown = atomic;
	if (!atomic) {
		const struct iws_ddp_hdr *h = &s->msg->ddp;
		n->op.has_stag = true;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->expect_to = h->to;
	}
	trk_started(t, n);
	t->counts.hidden_requests++;
	return n;
}

/*
 * The response's position falls in slot c (positions before it: [alo, ahi]):
 * everything before c was answered. Takes one position of c: a captured
 * request is taken out of the queue and returned; of a slot of requests not
 * seen, one (they are alike) - returned as a new request when the slot's
 * frame is known, else NULL. exact: the response answers c itself and
 * nothing else was possible, so every position is known again.
 */
static struct node *take(struct iws_tracker *t, uint8_t d, struct node *c, uint32_t alo, uint32_t ahi,
			 bool exact, const struct iws_seg *s, bool atomic)
{
	struct order *o = &t->ord[d];
	while (t->requests[d].head != c)
		drop_slot(t, t->requests[d].head);
	/* positions already answered within c */
	o->skip_lo = sub_floor(o->skip_lo, ahi);
	o->skip_hi = o->skip_hi == INF ? INF : sub_floor(o->skip_hi, alo);
	if (c->kind != K_SLOTS) {
		list_unlink(c);
		if (exact)
			o->skip_lo = o->skip_hi = 0;
		return c;
	}
	bool trailing = true;  /* after the newest captured request */
	for (const struct node *x = c->next; x; x = x->next)
		trailing &= x->kind == K_SLOTS;
	if (trailing)
		o->tail_taken++;
	struct node *n = c->op.first_frame ? hidden_request(t, c, s, atomic) : NULL;
	if (c->cnt_hi != INF)
		c->cnt_hi--;
	if (c->cnt_lo)
		c->cnt_lo--;
	if (!c->cnt_hi) {
		list_unlink(c);
		free(c);
	}
	return n;
}

/*
 * A new response message (its first segment) of the responder in s->dir:
 * the request it answers, when the capture proves it; else NULL and the
 * positions move on (request_missing). *ambiguous: matched to the frame of
 * its request only; *none: no request it could answer was sent yet.
 */
/* An Atomic Response names its request (RFC 7306 §4.2, Original Request
 * Identifier): when every request outstanding was captured and one Atomic
 * among them has that identifier, it is the one, in whatever order. */
static struct node *atomic_by_id(struct iws_tracker *t, uint8_t d, uint32_t req_id, uint64_t sent)
{
	struct node *hit = NULL;
	uint32_t k = 0;
	if (t->ord[d].skip_lo != t->ord[d].skip_hi || seen_unmatched(&t->ord[d], 0, req_id))
		return NULL;
	for (struct node *n = t->requests[d].head; n && k < SEARCH_MAX; n = n->next, k++) {
		if (n->kind == K_SLOTS || n->id_unknown)
			return NULL;
		if (n->op.first_frame >= sent)
			break;
		if (n->kind == K_ATOMIC && n->op.atomic_req_id == req_id) {
			if (hit)
				return NULL;
			hit = n;
		}
	}
	return hit;
}

static struct node *answer(struct iws_tracker *t, const struct iws_seg *s, bool atomic, bool key_known,
			   uint32_t stag, uint64_t to, uint32_t req_id, bool *ambiguous, bool *none)
{
	uint8_t d = !s->dir;
	struct order *o = &t->ord[d];
	struct cand c;
	*ambiguous = *none = false;
	if (atomic && key_known) {
		struct node *n = atomic_by_id(t, d, req_id, s->first_frame ? s->first_frame : s->frame);
		if (n) {
			/* (out of order, it leaves its place; the others keep theirs) */
			list_unlink(n);
			n->op.pairing = IWS_PAIR_KEY;
			return n;
		}
	}
	candidates(t, d, s, atomic, key_known, stag, to, req_id, &c);
#ifdef QPDBG
	{
		fprintf(stderr, "answer frame %lu atomic %d skip [%u,%u] nslots %u keyed %u one_frame %d unseen %d:", (unsigned long)s->frame, atomic, o->skip_lo, o->skip_hi, c.nslots, c.keyed, c.one_frame, c.unseen);
		for (struct node *x = t->requests[d].head; x; x = x->next)
			fprintf(stderr, " [k%d f%lu %u-%u]", x->kind, (unsigned long)x->op.first_frame, cnt_lo(x), cnt_hi(x));
		fprintf(stderr, "\n");
	}
#endif
	if (!c.nslots) {
		*none = true;  /* an orphan */
		if (!t->requests[d].head && !o->have_msn)
			o->early++;
		return NULL;
	}
	struct node *n = NULL;
	if (c.nslots == 1) {
		/* its position: a captured request, or one hidden in a known frame */
		n = take(t, d, c.first, c.first_alo, c.first_ahi, c.first->kind != K_SLOTS, s, atomic);
		if (n)
			n->op.pairing = n->from_hidden ? IWS_PAIR_FRAME : IWS_PAIR_ORDER;
		return n;
	}
	/* a distinct key among requests all captured: a sink buffer is not
	 * read into twice at once */
	if (c.keyed == 1 && !c.unseen && !seen_unmatched(o, atomic ? 0 : stag, atomic ? req_id : to)) {
		n = take(t, d, c.distinct, c.distinct_alo, c.distinct_ahi, true, s, atomic);
		if (n)
			n->op.pairing = IWS_PAIR_KEY;
		return n;
	}
	if (c.one_frame) {
		*ambiguous = true;
		n = take(t, d, c.first, c.first_alo, c.first_ahi, false, s, atomic);
		if (n)
			n->op.pairing = IWS_PAIR_FRAME;
		return n;
	}
	o->skip_lo = add_sat(o->skip_lo, 1);
	o->skip_hi = add_sat(o->skip_hi, 1);
	drop_answered(t, d);
	return NULL;
}

/* ---- requests ---- */

static void count_outstanding(struct iws_tracker *t, struct node *n, uint8_t dir, struct iws_seg_note *note)
{
	uint32_t out = t->ord[dir].outstanding;
	note->outstanding = out;
	/* RFC 6581 §5: the peer's IRD bounds the Read (and Atomic) Requests
	 * outstanding towards it. */
	uint16_t ird = t->have_mpa && t->mpa.has_ird_ord ? t->mpa.ird[!dir] : 0;
	if (ird && out > ird) {
		note->flags |= IWS_SEGF_IRD_EXCEEDED;
		n->op.flags |= IWS_OPF_IRD_EXCEEDED;
		t->counts.ird_exceeded++;
	}
}

/* A captured request joins its direction's queue. */
static void enqueue(struct iws_tracker *t, struct node *n, const struct iws_seg *s,
		    struct iws_seg_note *note)
{
	uint8_t d = s->dir;
	msn_count(t, d, s->msg->ddp.msn);
	trk_hold_request(t, d, s->msg->ddp.msn);
	list_push(&t->requests[d], n);
	n->counted = true;
	t->ord[d].outstanding++;
	count_outstanding(t, n, d, note);
}

static uint32_t bswap32(uint32_t v)
{
	return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

static uint64_t bswap64(uint64_t v)
{
	return (uint64_t)bswap32((uint32_t)v) << 32 | bswap32((uint32_t)(v >> 32));
}

/* A Read Request decoded in network order from a sender that writes its
 * fields least significant octet first: what it meant. */
static void read_req_swap(struct node *n)
{
	n->op.stag = bswap32(n->op.stag);
	n->op.to = bswap64(n->op.to);
	n->expect_to = n->op.to;
	if (n->op.has_read_size)
		n->op.read_size = bswap32(n->op.read_size);
	if (n->op.has_src) {
		n->op.src_stag = bswap32(n->op.src_stag);
		n->op.src_to = bswap64(n->op.src_to);
	}
}

/* The response that answers captured Read n carries its sink STag and TO
 * byte-swapped: the requester writes Read Request fields little-endian (as
 * an early software stack did, like its FPDUPTR). From now on its requests
 * are read so, those waiting too. */
static bool read_req_le(struct iws_tracker *t, uint8_t d, struct node *n, uint32_t stag, uint64_t to,
			uint64_t frame)
{
	if (t->counts.rdmap_dev[d] & IWS_RDMAP_DEV_READ_REQ_LE || n->sink_unknown || n->from_hidden ||
	    bswap32(n->op.stag) != stag || bswap64(n->op.to) != to || (n->op.stag == stag && n->op.to == to))
		return false;
	t->counts.rdmap_dev[d] |= IWS_RDMAP_DEV_READ_REQ_LE;
	t->counts.rdmap_dev_frame[d] = frame;
	read_req_swap(n);
	uint32_t k = 0;
	for (struct node *x = t->requests[d].head; x && k < SEARCH_MAX; x = x->next, k++)
		if (x->kind == K_READ && !x->sink_unknown && !x->from_hidden)
			read_req_swap(x);
	return true;
}

void trk_read_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	struct node *n = trk_start(t, s, IWS_OPT_READ, K_READ, note);
	trk_check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	const struct iws_rdmap_read_req *rr = &m->u.read_req;
	n->op.has_stag = true;
	n->op.stag = rr->sink_stag;
	n->op.to = rr->sink_to;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	/* RFC 5040 §4.4, Read Request header after the 18-octet DDP header:
	 * Sink STag 18..22, Sink TO 22..30, size 30..34, Source STag and TO
	 * 34..46. With a snapshot length some may not have been captured. */
	n->sink_unknown = !iws_msg_has(m, 30);
	n->op.has_read_size = iws_msg_has(m, 34);
	n->op.read_size = n->op.has_read_size ? rr->size : 0;
	n->op.has_src = iws_msg_has(m, 46);
	n->op.src_stag = n->op.has_src ? rr->src_stag : 0;
	n->op.src_to = n->op.has_src ? rr->src_to : 0;
	n->expect_to = rr->sink_to;
	if ((t->counts.rdmap_dev[s->dir] & IWS_RDMAP_DEV_READ_REQ_LE) && !n->sink_unknown)
		read_req_swap(n);
	n->req_done_ts = s->ts_ns;
	trk_add_segment(t, n, s, 0, note);
	enqueue(t, n, s, note);
}

void trk_atomic_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	const struct iws_rdmap_atomic_req *a = &m->u.atomic_req;
	struct node *n = trk_start(t, s, atomic_type(a->aopcode), K_ATOMIC, note);
	trk_check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	n->op.has_stag = true;
	n->op.stag = a->stag;
	n->op.to = a->to;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	n->op.atomic_req_id = a->req_id;
	/* RFC 7306 §4.1: the Request Identifier at 22..26 */
	n->id_unknown = !iws_msg_has(m, 26);
	n->req_done_ts = s->ts_ns;
	trk_add_segment(t, n, s, 8, note);
	enqueue(t, n, s, note);
}

/* ---- responses ---- */

/* A response whose request is not proven (docs/semantics.md): an operation
 * of its own from its first response, incomplete. */
static struct node *unanswered(struct iws_tracker *t, const struct iws_seg *s, enum iws_op_type type,
			       struct iws_seg_note *note)
{
	struct node *n = trk_start(t, s, type, type == IWS_OPT_READ ? K_ORPHAN_READ : K_ATOMIC, note);
	if (!n)
		return NULL;
	note->flags |= IWS_SEGF_ORPHAN_RESPONSE;
	t->counts.orphan_responses++;
	t->hold[!s->dir].last_orphan = n->op.first_frame;
	/* The initiator is the requester: the responses' peer. */
	n->op.dir = !s->dir;
	n->op.flags |= IWS_OPF_STARTED_BEFORE | IWS_OPF_REQUEST_MISSING;
	n->op.segments = 0;
	n->op.response_frame = s->frame;
	return n;
}

/* The request n answered by its first response: what only the response
 * says, and what is not known when the response told its frame only. */
static void answered(struct iws_tracker *t, struct node *n, const struct iws_seg *s, bool ambiguous,
		     struct iws_seg_note *note)
{
	n->resp_started = true;
	n->op.response_frame = s->frame;
	queued(t, n, s);
	note->request_frame = n->op.first_frame;
	if (ambiguous) {
		/* one of the requests of its frame: which one is not known */
		n->op.has_qn = n->op.has_read_size = n->op.has_src = false;
		n->op.msn = n->op.read_size = n->op.src_stag = 0;
		n->op.src_to = 0;
		n->id_unknown = true;
	}
}

/* Does the Read Response segment continue the message being received (n):
 * the same Data Sink STag, at the TO where the last segment ended (each
 * tagged segment places its octets at its own TO, RFC 5041 §4.3), or
 * further on past octets not captured? */
static bool continues_open(const struct iws_tracker *t, const struct node *n,
			   const struct iws_ddp_hdr *h)
{
	return n && n->op.stag == h->stag &&
	       (n->expect_to == h->to || (gap_seen(t, n) && h->to > n->expect_to));
}

/* A new message before the last one (n) ended (L=1): it lost its end. */
static void end_cut_response(struct iws_tracker *t, struct order *o, struct node *n,
			     struct iws_seg_note *note)
{
	o->open = NULL;
	n->op.flags |= gap_seen(t, n) ? IWS_OPF_GAP : IWS_OPF_OFFSET_GAP | IWS_OPF_GAP;
	if (!gap_seen(t, n)) {
		note->flags |= IWS_SEGF_STAG_MISMATCH;
		t->counts.stag_mismatches++;
	}
	trk_report(t, n);
}

/* The Read Request n answered by a first response segment (header h):
 * the response goes to the request's Data Sink STag and TO (RFC 5040
 * §4.4), so they are checked, or learnt if the snapshot cut them. */
static void check_sink_key(struct iws_tracker *t, uint8_t d, struct node *n, const struct iws_seg *s,
			   const struct iws_ddp_hdr *h, struct iws_seg_note *note)
{
	if (n->sink_unknown) {
		/* its Sink STag and TO were cut by the snapshot length: the
		 * response says what they were */
		n->sink_unknown = false;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->expect_to = h->to;
	} else if ((n->op.stag != h->stag || n->expect_to != h->to) &&
		   !read_req_le(t, d, n, h->stag, h->to, s->frame)) {
		note->flags |= IWS_SEGF_STAG_MISMATCH;
		t->counts.stag_mismatches++;
		n->op.stag = h->stag;
		n->expect_to = h->to;
	}
}

/* The first segment of a Read Response message: the operation it answers,
 * or one of its own when its request is not proven; NULL if it is none
 * (*matched: a request was found). */
static struct node *start_read_response(struct iws_tracker *t, const struct iws_seg *s,
					struct iws_seg_note *note, bool *matched)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint8_t d = !s->dir;
	bool ambiguous, none;
	uint32_t index = trk_hold_response(t, d);
	struct node *n = answer(t, s, false, true, h->stag, h->to, 0, &ambiguous, &none);
	*matched = n != NULL;
	if (n) {
		check_sink_key(t, d, n, s, h, note);
		answered(t, n, s, ambiguous, note);
		if (n->op.has_qn && !n->from_hidden)
			trk_hold_matched(t, d, index, n->op.msn);
		return n;
	}
	/* A zero-length Read Response without its request: the response to
	 * a Read RTR whose request was not captured (RFC 6581 §7), not an
	 * operation. */
	if (s->msg->payload_len == 0 && h->last && none) {
		note->rtr = true;
		return NULL;
	}
	remember_unmatched(&t->ord[d], h->stag, h->to);
	n = unanswered(t, s, IWS_OPT_READ, note);
	if (!n)
		return NULL;
	n->op.has_stag = true;
	n->op.stag = h->stag;
	n->op.to = h->to;
	/* kept until the capture proves its request, or that it cannot (qp_report.c) */
	if (trk_hold_possible(t, d))
		trk_hold(t, d, n, index);
	return n;
}

/* The last segment (L=1) of the Read Response message n: the operation is
 * over; its response time when its request was seen (matched). */
static void end_read_response(struct iws_tracker *t, const struct iws_seg *s, struct order *o,
			      struct node *n, bool matched, struct iws_seg_note *note)
{
	o->open = NULL;
	note->op_last = true;
	if (n->held) {
		responded(t, s);
		trk_held_done(t, n);
		return;
	}
	if (matched) {
		note->has_response_time = true;
		note->response_time_ns = s->ts_ns - n->op.start_ns;
		n->op.has_latency = true;
		n->op.latency_ns = note->response_time_ns;
	}
	responded(t, s);
	trk_report(t, n);
}

void trk_read_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t pl = s->msg->payload_len;
	struct order *o = &t->ord[!s->dir];
	struct node *n = o->open;
	bool matched;
	if (continues_open(t, n, h)) {
		/* the next segment of the message being received */
		if (n->expect_to != h->to)
			n->op.flags |= IWS_OPF_GAP;
		matched = n->kind == K_READ;
	} else {
		if (n)
			end_cut_response(t, o, n, note);
		n = start_read_response(t, s, note, &matched);
		if (!n)
			return;
		o->open = n;
	}
	if (matched)
		note->request_frame = n->op.first_frame;
	trk_add_segment(t, n, s, pl, note);
	n->expect_to = h->to + pl;
	if (n->op.has_read_size && n->op.bytes > n->op.read_size)
		note->flags |= IWS_SEGF_OVERRUN;
	if (h->last)
		end_read_response(t, s, o, n, matched, note);
}

void trk_atomic_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	trk_check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, NULL, note);
	/* RFC 7306 §4.2: the response's Request Identifier at 18..22; cut by the
	 * snapshot length, only the position tells. */
	bool id_known = iws_msg_has(m, 22);
	uint32_t id = m->u.atomic_resp.req_id;
	bool ambiguous, none;
	uint32_t index = trk_hold_response(t, !s->dir);
	struct node *n = answer(t, s, true, id_known, 0, 0, id, &ambiguous, &none);
	if (n) {
		if (n->id_unknown && id_known && !ambiguous) {
			n->op.atomic_req_id = id;
			n->id_unknown = false;
		} else if (id_known && !n->id_unknown && n->op.atomic_req_id != id) {
			note->flags |= IWS_SEGF_STAG_MISMATCH;
			t->counts.stag_mismatches++;
		}
		answered(t, n, s, ambiguous, note);
		note->has_response_time = true;
		note->response_time_ns = s->ts_ns - n->op.start_ns;
		n->op.has_latency = true;
		n->op.latency_ns = note->response_time_ns;
		if (n->op.has_qn && !n->from_hidden)
			trk_hold_matched(t, !s->dir, index, n->op.msn);
	} else {
		if (id_known)
			remember_unmatched(&t->ord[!s->dir], 0, id);
		n = unanswered(t, s, IWS_OPT_ATOMIC_FETCH_ADD, note);
		if (!n)
			return;
		n->op.opcode = IWS_OP_CODE_ATOMIC_REQ;
		n->op.atomic_req_id = id;
		n->op.bytes = 8;
		n->held_id_known = id_known;
		if (trk_hold_possible(t, !s->dir))
			trk_hold(t, !s->dir, n, index);
	}
	responded(t, s);
	n->op.response_frame = s->frame;
	/* the Original Remote Data Value at 22..30 (RFC 7306 §4.2) */
	n->op.has_atomic_orig = iws_msg_has(m, 30);
	n->op.atomic_orig_value = n->op.has_atomic_orig ? m->u.atomic_resp.orig_value : 0;
	trk_add_segment(t, n, s, 0, note);
	note->op_last = true;
	if (n->held)
		trk_held_done(t, n);
	else
		trk_report(t, n);
}
