// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Responses held until the capture proves the requests they answer
 * (docs/semantics.md, "Which request a response answers").
 *
 * A capture that starts mid-stream does not show how many Read and Atomic
 * Requests were outstanding when it began, so a response cannot be told
 * from an answer to a request before the capture (qp_match.c then reports
 * it request_missing, and the request it answers response_unknown: one Read
 * counted twice). The count comes at a clean close: RFC 5040 §6.2 closes a
 * stream gracefully only with no operation outstanding, so when both sides
 * closed with a FIN (no RST, no Terminate) every captured request was
 * answered and the last response answers the last request. The requests of
 * a direction are numbered by the MSNs of queue 1 (RFC 5041 §5.3: Read and
 * Atomic Requests share it, from 1, one per request), and responses come in
 * request order (RFC 5040 §5.2.1, RFC 7306), so the i-th response since the
 * capture began answers the request with MSN R0 + i, where R0 (responses
 * before the capture) = the last request's MSN - the responses counted.
 *
 * So the responses qp_match.c finds no proven request for are held (not
 * reported) until the end, and what the capture proves is then applied:
 *   answers a captured request    one operation, pairing "close", whose
 *                                 response_op_id is the id it was held under;
 *   answers a request before it   started_before, pairing "before_capture".
 * Every proof the capture holds is checked first and any contradiction gives
 * up (the responses go unpaired, as without holding): a request sent after
 * its response, a sink STag/TO or Atomic Request Identifier that differ, a
 * request the equation needs that is not in the file, a response matched on
 * the way to a request whose MSN the equation does not give it, responses
 * or the last requests the capture did not see (a gap, a slice). Memory is
 * bounded by HELD_MAX held responses per direction.
 */
#include "qp_int.h"

/* ---- holding ---- */

static void clear_ack(struct node *n)
{
	n->op.has_ack = n->op.ack_with_data = false;
	n->op.ack_frame = 0;
	n->op.ack_ns = 0;
}

bool trk_hold_possible(const struct iws_tracker *t, uint8_t d)
{
	return d < 2 && !t->hold[d].broken;
}

void trk_hold(struct iws_tracker *t, uint8_t d, struct node *n, uint32_t resp_index)
{
	struct hold *h = &t->hold[d];
	n->held = true;
	n->resp_index = resp_index;
	/* what queued_ns needs from the responder's state now (qp_match.c queued) */
	n->held_any_resp = t->any_resp[!d];
	n->held_busy_ts = t->resp_sent_ts[!d];
	/* how far the responder had acknowledged the requests when it sent it */
	n->held_req_acked = t->acks[d].any;
	n->held_req_ack = t->acks[d].hi;
	list_push(&h->held, n);
	if (h->held.n > HELD_MAX)
		trk_hold_abandon(t, d);
}

/* The first held response whose covering ACK is still to be noted. */
static void settle_cursor(struct hold *h)
{
	while (h->ack_next && h->ack_next->held_done && (h->ack_next->op.has_ack || !h->ack_next->can_wait))
		h->ack_next = h->ack_next->next;
}

void trk_held_done(struct iws_tracker *t, struct node *n)
{
	struct hold *h = &t->hold[n->op.dir & 1];
	n->held_done = true;
	if (n->can_wait)
		trk_ack_known(t, n);
	if (!h->ack_next)
		h->ack_next = n;
	settle_cursor(h);
}

void trk_hold_ack(struct iws_tracker *t, uint8_t dir, uint32_t ack, uint64_t frame, int64_t ts, bool with_data)
{
	/* responses to d's requests flow in !d: their octets are acknowledged
	 * in order, as they complete */
	struct hold *h = &t->hold[!dir];
	struct node *n;
	while ((n = h->ack_next) != NULL && n->held_done && n->can_wait && !n->op.has_ack &&
	       sdiff(ack, n->ack_seq) >= 0) {
		n->op.has_ack = true;
		n->op.ack_frame = frame;
		n->op.ack_ns = ts - n->op.start_ns;
		n->op.ack_with_data = with_data;
		h->ack_next = n->next;
		settle_cursor(h);
	}
}

/* n leaves the held list as the unpaired response qp_match.c made it (its
 * covering ACK is not kept: an incomplete operation is reported without). */
static void unhold(struct hold *h, struct node *n)
{
	if (h->ack_next == n)
		h->ack_next = n->next;
	list_unlink(n);
	n->held = false;
	clear_ack(n);
}

void trk_hold_release(struct iws_tracker *t, struct node *n)
{
	unhold(&t->hold[n->op.dir & 1], n);
	trk_hold_abandon(t, n->op.dir & 1);
}

void trk_hold_abandon(struct iws_tracker *t, uint8_t d)
{
	struct hold *h = &t->hold[d];
	h->broken = true;
	while (h->held.head) {
		struct node *n = h->held.head;
		unhold(h, n);
		/* the one still being received ends as an unpaired response */
		if (n->held_done)
			trk_report(t, n);
	}
	h->ack_next = NULL;
}

bool trk_hold_sliced(const struct iws_tracker *t, const struct node *n)
{
	return n->data_dir < 2 && t->hidden_frame[n->data_dir] && t->hidden_frame[n->data_dir] >= n->op.first_frame;
}

bool trk_hold_uncertain(const struct iws_tracker *t, const struct node *n)
{
	/* a response whose request is not proven (held or not) */
	if (n->held || (n->op.flags & IWS_OPF_REQUEST_MISSING))
		return true;
	/* one whose data (a response) may have come in FPDUs a snapshot
	 * length hid since it began */
	if (trk_hold_sliced(t, n))
		return true;
	/* a request the capture cannot tell answered or not: one such a
	 * response, begun after it was sent, may answer; one whose response
	 * may have been lost in a gap */
	if ((n->kind != K_READ && n->kind != K_ATOMIC) || n->resp_started || n->op.dir > 1)
		return false;
	return t->hold[n->op.dir].last_orphan > n->op.first_frame || (n->op.flags & IWS_OPF_GAP);
}

/* ---- the count at the end ---- */

/* Did both sides close with a FIN, and nothing else end the stream? */
static bool clean_close(const struct iws_tracker *t)
{
	return t->closed[0] && t->closed[1] && !t->reset_seen && !t->term_seen;
}

static bool msn_le(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

/* The captured requests of d still waiting for an answer, in MSN order. */
static uint32_t waiting_requests(const struct iws_tracker *t, uint8_t d, struct node **out, uint32_t max)
{
	uint32_t n = 0;
	for (struct node *x = t->all_head; x; x = x->all_next)
		if ((x->kind == K_READ || x->kind == K_ATOMIC) && x->op.dir == d && !x->resp_started &&
		    x->op.has_qn && !x->from_hidden) {
			if (n == max)
				return UINT32_MAX;
			out[n++] = x;
		}
	return n;
}

/* The index of the request with that MSN among n in MSN order (their MSNs
 * copied: a request merged with its response may be freed meanwhile), or
 * n when none has it. */
static uint32_t by_msn(const uint32_t *msns, uint32_t n, uint32_t msn)
{
	for (uint32_t lo = 0, hi = n; lo < hi;) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (msns[mid] == msn)
			return mid;
		if (msn_le(msns[mid], msn))
			lo = mid + 1;
		else
			hi = mid;
	}
	return n;
}

/* Could response r answer request q? The proofs the capture holds. */
static bool fits(const struct node *q, const struct node *r)
{
	bool atomic = r->kind == K_ATOMIC;
	if (q->kind != (atomic ? K_ATOMIC : K_READ))
		return false;
	/* sent after the response began: the responder had not received it
	 * (RFC 5040 §5.2.1) - by frame, and by the responder's own ACK */
	if (q->op.first_frame >= r->op.first_frame)
		return false;
	if (q->rng[q->op.dir] && (!r->held_req_acked || sdiff(r->held_req_ack, q->hi[q->op.dir]) < 0))
		return false;
	if (atomic)
		return q->id_unknown || !r->held_id_known || q->op.atomic_req_id == r->op.atomic_req_id;
	return q->sink_unknown || (q->op.stag == r->op.stag && q->op.to == r->op.to);
}

/* Response r answers captured request q: one operation, q's id. */
static void merge(struct iws_tracker *t, struct node *q, struct node *r)
{
	struct iws_op *o = &q->op;
	const struct iws_op *p = &r->op;
	o->last_frame = p->last_frame;
	o->end_ns = p->end_ns;
	o->bytes += p->bytes;
	o->segments += p->segments;
	o->retransmissions += p->retransmissions;
	o->reordered += p->reordered;
	o->stall_ns += p->stall_ns;
	o->crc_errors += p->crc_errors;
	/* its response was captured after all: not lost in a gap */
	o->flags &= ~IWS_OPF_GAP;
	o->flags |= p->flags & ~(IWS_OPF_STARTED_BEFORE | IWS_OPF_REQUEST_MISSING);
	if (o->flags & IWS_OPF_RESPONSE_UNKNOWN) {
		o->flags &= ~IWS_OPF_RESPONSE_UNKNOWN;
		t->counts.responses_unknown--;
	}
	o->response_frame = p->response_frame;
	o->has_latency = true;
	o->latency_ns = p->end_ns - o->start_ns;
	if (r->held_any_resp && r->held_busy_ts > q->req_done_ts && !(o->flags & IWS_OPF_STARTED_BEFORE)) {
		int64_t busy = r->held_busy_ts < p->start_ns ? r->held_busy_ts : p->start_ns;
		o->queued_ns = busy - q->req_done_ts > 0 ? busy - q->req_done_ts : 0;
	}
	if (p->has_ack) {
		o->has_ack = true;
		o->ack_frame = p->ack_frame;
		o->ack_ns = p->start_ns + p->ack_ns - o->start_ns;
		o->ack_with_data = p->ack_with_data;
	}
	if (r->kind == K_ATOMIC) {
		o->has_atomic_orig = p->has_atomic_orig;
		o->atomic_orig_value = p->atomic_orig_value;
		if (q->id_unknown && r->held_id_known) {
			o->atomic_req_id = p->atomic_req_id;
			q->id_unknown = false;
		}
	} else if (q->sink_unknown) {
		o->stag = p->stag;
		o->to = p->to;
		q->sink_unknown = false;
	}
	o->pairing = IWS_PAIR_CLOSE;
	o->response_op_id = p->id;
	q->resp_started = true;
	q->can_wait = false;  /* its ACK, if any, is noted */
	/* the response is no operation of its own after all */
	trk_forget(t, r);
	t->counts.orphan_responses--;
	trk_report(t, q);
}

/*
 * R0, the responses to d's requests before the capture, from the count at a
 * clean close; false when the capture does not prove it.
 */
static bool responses_before(const struct iws_tracker *t, uint8_t d, uint32_t *r0)
{
	const struct hold *h = &t->hold[d];
	if (!clean_close(t) || h->broken || !h->have_last_msn || h->tail_unsure)
		return false;
	/* every held response ended */
	for (const struct node *n = h->held.head; n; n = n->next)
		if (!n->held_done)
			return false;
	uint32_t r = h->last_msn - h->responses;
	/* the responses matched on the way answered the MSNs the count gives */
	if (h->anchors && (h->anchor_lo != r || h->anchor_hi != r))
		return false;
	*r0 = r;
	return true;
}

static void resolve(struct iws_tracker *t, uint8_t d)
{
	struct hold *h = &t->hold[d];
	uint32_t r0;
	if (!responses_before(t, d, &r0)) {
		trk_hold_abandon(t, d);
		return;
	}
	uint32_t cap = t->counts.inflight;
	struct node **req = cap ? malloc(cap * sizeof(*req)) : NULL;
	uint32_t *msns = cap ? malloc(cap * sizeof(*msns)) : NULL;
	uint32_t nreq = req && msns ? waiting_requests(t, d, req, cap) : 0;
	if (cap && (!req || !msns || nreq == UINT32_MAX)) {
		free(req);
		free(msns);
		trk_hold_abandon(t, d);
		return;
	}
	for (uint32_t i = 0; i < nreq; i++)
		msns[i] = req[i]->op.msn;
	/* Check every pair before changing anything. A captured request with
	 * an MSN up to r0 was answered before the capture began: impossible. */
	bool ok = !(nreq && msn_le(req[0]->op.msn, r0));
	for (struct node *n = h->held.head; ok && n; n = n->next) {
		uint32_t msn = r0 + n->resp_index;
		uint32_t i = by_msn(msns, nreq, msn);
		if (i < nreq)
			ok = fits(req[i], n);
		else  /* only a request before the first captured one may be missing */
			ok = !h->first_msn_known || !msn_le(h->first_msn, msn);
	}
	if (!ok) {
		free(req);
		free(msns);
		trk_hold_abandon(t, d);
		return;
	}
	while (h->held.head) {
		struct node *n = h->held.head;
		list_unlink(n);
		n->held = false;
		uint32_t i = by_msn(msns, nreq, r0 + n->resp_index);
		if (i < nreq && req[i]) {
			/* (merge reports the request: it may be freed) */
			merge(t, req[i], n);
			req[i] = NULL;
			continue;
		}
		/* its request preceded the capture: known now */
		n->op.flags &= ~IWS_OPF_REQUEST_MISSING;
		n->op.pairing = IWS_PAIR_BEFORE_CAPTURE;
		clear_ack(n);
		trk_report(t, n);
	}
	h->ack_next = NULL;
	free(req);
	free(msns);
}

void trk_hold_finish(struct iws_tracker *t)
{
	for (uint8_t d = 0; d < 2; d++)
		if (t->hold[d].held.head)
			resolve(t, d);
}

/* ---- the count on the way ---- */

void trk_hold_request(struct iws_tracker *t, uint8_t d, uint32_t msn)
{
	struct hold *h = &t->hold[d];
	if (!h->first_msn_known) {
		h->first_msn_known = true;
		h->first_msn = msn;
	}
	h->have_last_msn = true;
	h->last_msn = msn;
	h->tail_unsure = false;
}

uint32_t trk_hold_response(struct iws_tracker *t, uint8_t d)
{
	return ++t->hold[d].responses;
}

void trk_hold_matched(struct iws_tracker *t, uint8_t d, uint32_t index, uint32_t msn)
{
	struct hold *h = &t->hold[d];
	uint32_t before = msn - index;
	if (!h->anchors || before < h->anchor_lo)
		h->anchor_lo = before;
	if (!h->anchors || before > h->anchor_hi)
		h->anchor_hi = before;
	h->anchors++;
}

/* Responses of dir lost after some were counted: the count is broken
 * (before the first, the loss only adds to R0). Requests of dir lost:
 * the last ones may be among them. */
void trk_hold_lost(struct iws_tracker *t, uint8_t dir)
{
	if (dir > 1)
		return;
	t->hold[dir].tail_unsure = true;
	struct hold *h = &t->hold[!dir];
	if (h->responses) {
		if (h->held.head)
			trk_hold_abandon(t, !dir);
		h->broken = true;
	}
}

/* ---- reporting: every finished operation goes out here ---- */

/* Hand the operation over, once and for all. */
void trk_deliver(struct iws_tracker *t, struct node *n)
{
	if (!n->op.complete)
		t->counts.ops_incomplete++;
	t->counts.ops_reported++;
	if (t->cb)
		t->cb(t->ctx, &n->op);
	free(n);
}

/* Did an acknowledgement already cover the operation's last FPDU? The first
 * that did is its ACK. */
bool trk_ack_known(struct iws_tracker *t, struct node *n)
{
	const struct ack_ring *a = &t->acks[n->ack_dir];
	if (!a->any || sdiff(a->hi, n->ack_seq) < 0)
		return false;
	const struct ack_rec *e = NULL;
	for (uint32_t i = 0; i < a->n && !e; i++) {
		const struct ack_rec *x = &a->r[(a->head + i) & (a->cap - 1)];
		if (sdiff(x->ack, n->ack_seq) >= 0)
			e = x;
	}
	if (!e)
		return false;
	if (e == &a->r[a->head] && a->evicted && sdiff(a->evicted_hi, n->ack_seq) >= 0)
		return true;  /* one the ring let go covered it first: which is not known */
	n->op.has_ack = true;
	n->op.ack_frame = e->frame;
	n->op.ack_ns = e->ts - n->op.start_ns;
	n->op.ack_with_data = e->with_data;
	return true;
}

void trk_unwait(struct iws_tracker *t, struct node *n)
{
	list_unlink(n);
	t->counts.ack_waiting--;
	if (t->shared_used) {
		(*t->shared_used)--;
		t->own_shared--;
	}
}

/* Out of the list of all, not reported. */
static void unlink_all(struct iws_tracker *t, struct node *n)
{
	if (n->all_prev)
		n->all_prev->all_next = n->all_next;
	else
		t->all_head = n->all_next;
	if (n->all_next)
		n->all_next->all_prev = n->all_prev;
	else
		t->all_tail = n->all_prev;
	t->counts.inflight--;
}

void trk_forget(struct iws_tracker *t, struct node *n)
{
	list_unlink(n);
	unlink_all(t, n);
	t->counts.ops_started--;
	free(n);
}

/* The in-flight limit gives an operation up: responses held for pairing
 * (qp_report.c) lose the count that would prove it. */
void trk_evicting(struct iws_tracker *t)
{
	for (uint8_t d = 0; d < 2; d++)
		if (t->hold[d].held.head)
			trk_hold_abandon(t, d);
}

/* Is it worth waiting for an ACK of dir's octets? Once the receiver has
 * been seen acknowledging some of them, yes. Before that, on a connection
 * captured from its SYN, no (one direction captured, or a receiver that
 * never answers). Captured from past its start, a few operations wait: the
 * sender's FPDUs can come before the receiver's first segment, whose ACK
 * covers them (so they get the ack_ns the whole capture gives them);
 * past UNSEEN_ACK_WAIT of them with no ACK, nothing more waits until an
 * ACK shows up. The waiting operations of all trackers stay within bounds
 * (trk_report). */
static bool acks_data(const struct iws_tracker *t, uint8_t dir)
{
	return t->acks[dir].any || (t->ack_unseen_wait && !t->ack_unseen_given_up[dir]);
}

/* No ACK of dir after UNSEEN_ACK_WAIT operations: they go, unacknowledged. */
static void ack_unseen_give_up(struct iws_tracker *t, uint8_t dir)
{
	t->ack_unseen_given_up[dir] = true;
	while (t->waiting[dir].head) {
		struct node *n = t->waiting[dir].head;
		trk_unwait(t, n);
		trk_deliver(t, n);
	}
}

/* The operation is over: report it now, or once the ACK of its last FPDU
 * is seen (complete operations whose last FPDU's octets are known). */
void trk_report(struct iws_tracker *t, struct node *n)
{
	/* a held response whose stream broke goes unpaired, and its fellows */
	if (n->held)
		trk_hold_release(t, n);
	list_unlink(n);
	for (int d = 0; d < 2; d++)
		if (t->ord[d].open == n)
			t->ord[d].open = NULL;
	if (n->counted) {
		n->counted = false;
		t->ord[n->op.dir & 1].outstanding--;
	}
	unlink_all(t, n);

	n->op.complete = (n->op.flags & IWS_OPF_INCOMPLETE_MASK) == 0;
	if (!n->op.complete || !n->can_wait || trk_ack_known(t, n)) {
		trk_deliver(t, n);
		return;
	}
	if (!acks_data(t, n->ack_dir)) {
		trk_deliver(t, n);
		return;
	}
	if (t->shared_used && *t->shared_used >= t->shared_max) {
		t->counts.ack_wait_forced++;
		trk_deliver(t, n);
		return;
	}
	list_push(&t->waiting[n->ack_dir], n);
	t->counts.ack_waiting++;
	if (t->shared_used) {
		(*t->shared_used)++;
		t->own_shared++;
		if (t->shared_peak && *t->shared_used > *t->shared_peak)
			*t->shared_peak = *t->shared_used;
	}
	/* Bounded: no ACK in sight (one direction captured) must not hold
	 * everything. */
	struct list *w = &t->waiting[n->ack_dir];
	if (!t->acks[n->ack_dir].any && w->n > UNSEEN_ACK_WAIT) {
		ack_unseen_give_up(t, n->ack_dir);
		return;
	}
	if (w->n > t->max_ack_wait) {
		struct node *o = w->head;
		trk_unwait(t, o);
		t->counts.ack_wait_forced++;
		trk_deliver(t, o);
	}
}
