// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read and Atomic Requests and the responses that answer them (see
 * qp_int.h): RFC 5040 §5.2.1, responses come in request order; RFC 7306
 * §5.2.2, an Atomic Response names its request. Requests a snapshot length
 * hid are inferred from the responses that answer them.
 */
#include "qp_int.h"

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
 * (RFC 5040 §5.2.1, RFC 7306 §8): a request that arrived while it was still
 * sending earlier responses waited for them. queued_ns: from the request's
 * arrival (deliverable in order) to the end of the earlier responses, or to
 * its own first response if that came sooner. */
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

/* The oldest hidden span of the requests sent in dir, or NULL. */
static struct hidden_span *hidden_head(struct iws_tracker *t, uint8_t dir)
{
	return t->nhidden[dir] ? &t->hidden[dir][0] : NULL;
}

static void hidden_pop(struct iws_tracker *t, uint8_t dir)
{
	memmove(&t->hidden[dir][0], &t->hidden[dir][1], (t->nhidden[dir] - 1) * sizeof(t->hidden[0][0]));
	t->nhidden[dir]--;
}

/* A Read Response that answers no captured request while FPDUs a snapshot
 * length hid came before the oldest Read outstanding: it answers a Read
 * Request among them (responses come in request order, RFC 5040 §5.2.1).
 * The Read starts in the frame that carried the hidden span; its request's
 * fields (MSN, sizes, source STag) are not known. */
static struct node *hidden_read(struct iws_tracker *t, const struct hidden_span *sp,
				const struct iws_seg *s, struct node *before)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	n->kind = K_READ;
	n->from_hidden = true;
	n->data_dir = s->dir;
	n->gap_gen = t->gap_gen[s->dir];
	n->op.id = ++t->next_id;
	n->op.type = IWS_OPT_READ;
	n->op.opcode = IWS_OP_CODE_READ_REQ;
	n->op.dir = !s->dir;
	n->op.first_frame = n->op.first_inorder_frame = n->op.last_frame = sp->frame;
	n->op.start_ns = n->op.end_ns = sp->ts;
	n->req_done_ts = sp->ts;
	n->op.segments = 1;  /* its request */
	n->op.flags |= IWS_OPF_TRUNCATED;
	n->op.has_stag = true;
	n->op.stag = h->stag;
	n->op.to = h->to;
	n->expect_to = h->to;
	trk_started(t, n);
	t->counts.hidden_requests++;
	/* in request order: before the oldest captured Read outstanding */
	struct list *l = &t->requests[!s->dir];
	n->in = l;
	n->next = before;
	n->prev = before ? before->prev : l->tail;
	if (n->prev)
		n->prev->next = n;
	else
		l->head = n;
	if (before)
		before->prev = n;
	else
		l->tail = n;
	l->n++;
	return n;
}

static struct node *find_read(struct list *l, uint32_t stag, uint64_t to)
{
	uint32_t k = 0;
	for (struct node *n = l->head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_READ && n->op.stag == stag && n->expect_to == to)
			return n;
	return NULL;
}

void trk_read_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t pl = s->msg->payload_len;
	struct list *req = &t->requests[!s->dir];
	struct node *head = NULL;
	uint32_t k = 0;
	for (struct node *n = req->head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_READ) {
			head = n;
			break;
		}

	/* A response complete before the oldest Read outstanding was sent
	 * answers none of them (an FPDU the end of the capture cut, reported
	 * late, may come after later requests): an orphan. */
	bool too_early = head && s->frame < head->op.first_frame;
	if (too_early)
		head = NULL;
	struct node *n = NULL;
	struct hidden_span *sp = hidden_head(t, !s->dir);
	bool head_matches = head && !head->sink_unknown && head->op.stag == h->stag &&
			    head->expect_to == h->to;
	/* A captured Read answered after a hidden span: the span held no Read
	 * (or no more) still to answer. */
	while (sp && head_matches && !head->from_hidden && head->op.id > sp->after_id) {
		hidden_pop(t, !s->dir);
		sp = hidden_head(t, !s->dir);
	}
	if (!sp)
		t->hidden_spoiled[!s->dir] = false;
	if (t->hidden_spoiled[!s->dir])
		sp = NULL;
	if (sp && sp->frame <= s->frame && !head_matches &&
	    (!head || (!head->from_hidden && head->op.id > sp->after_id)) &&
	    !find_read(req, h->stag, h->to)) {
		n = hidden_read(t, sp, s, head);
	} else if (head && head->sink_unknown) {
		/* Its Sink STag and TO were cut by the snapshot length: the
		 * responses come in request order (RFC 5040 §5.2.1), so this
		 * one is its first. */
		n = head;
		n->sink_unknown = false;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->expect_to = h->to;
	} else if (head && head->op.stag == h->stag && head->expect_to == h->to) {
		n = head;
	} else if (head && gap_seen(t, head) && head->op.stag == h->stag && h->to > head->expect_to) {
		n = head;
		n->op.flags |= IWS_OPF_GAP;
	} else if (!too_early && (n = find_read(req, h->stag, h->to)) != NULL) {
		/* Responses come in request order (RFC 5040 §5.2.1): the reads
		 * before this one never got (all of) theirs in the capture. */
		bool any_gap = false;
		for (struct node *o = req->head, *nx; o && o != n; o = nx) {
			nx = o->next;
			if (o->kind != K_READ)
				continue;
			any_gap |= gap_seen(t, o);
			o->op.flags |= IWS_OPF_GAP;
			trk_report(t, o);
		}
		if (!any_gap) {
			note->flags |= IWS_SEGF_STAG_MISMATCH;
			t->counts.stag_mismatches++;
		}
	}

	if (n) {
		if (!n->resp_started) {
			n->resp_started = true;
			n->op.response_frame = s->frame;
			queued(t, n, s);
		}
		note->request_frame = n->op.first_frame;
		trk_add_segment(t, n, s, pl, note);
		n->expect_to = h->to + pl;
		if (n->op.has_read_size && n->op.bytes > n->op.read_size)
			note->flags |= IWS_SEGF_OVERRUN;
		if (h->last) {
			note->op_last = true;
			note->has_response_time = true;
			note->response_time_ns = s->ts_ns - n->op.start_ns;
			n->op.has_latency = true;
			n->op.latency_ns = note->response_time_ns;
			responded(t, s);
			trk_report(t, n);
		}
		return;
	}

	/* A zero-length Read Response without its request: the response to a
	 * Read RTR whose request was not captured (RFC 6581 §7), not an
	 * operation. */
	if (pl == 0 && h->last) {
		note->rtr = true;
		return;
	}
	/* No request for it in the capture: group the orphan responses like a
	 * Write, by STag and TO, up to the last one. */
	note->flags |= IWS_SEGF_ORPHAN_RESPONSE;
	for (n = t->tagged[s->dir].head; n; n = n->next)
		if (n->kind == K_ORPHAN_READ && n->op.stag == h->stag &&
		    (n->expect_to == h->to || (gap_seen(t, n) && h->to > n->expect_to)))
			break;
	if (!n) {
		n = trk_start(t, s, IWS_OPT_READ, K_ORPHAN_READ, note);
		if (!n)
			return;
		t->counts.orphan_responses++;
		/* The Read's initiator is the requester: the responses' peer. */
		n->op.dir = !s->dir;
		n->op.flags |= IWS_OPF_STARTED_BEFORE;
		n->op.has_stag = true;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->op.segments = 0;
		n->op.response_frame = s->frame;
		trk_push_open(t, &t->tagged[s->dir], n, note);
	}
	trk_add_segment(t, n, s, pl, note);
	n->expect_to = h->to + pl;
	if (h->last) {
		note->op_last = true;
		trk_report(t, n);
	}
}

static void count_outstanding(struct iws_tracker *t, struct node *n, uint8_t dir, struct iws_seg_note *note)
{
	uint32_t out = t->requests[dir].n;
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
	n->req_done_ts = s->ts_ns;
	trk_add_segment(t, n, s, 0, note);
	list_push(&t->requests[s->dir], n);
	count_outstanding(t, n, s->dir, note);
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
	list_push(&t->requests[s->dir], n);
	count_outstanding(t, n, s->dir, note);
}

void trk_atomic_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	trk_check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, NULL, note);
	struct node *n;
	uint32_t k = 0;
	/* RFC 7306 §4.2: the response's Request Identifier at 18..22. Either
	 * side's identifier cut by the snapshot length: responses come in
	 * request order (RFC 7306 §8), so it answers the oldest Atomic. */
	bool by_order = !iws_msg_has(m, 22);
	for (n = t->requests[!s->dir].head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_ATOMIC && (by_order || n->id_unknown ||
					    n->op.atomic_req_id == m->u.atomic_resp.req_id))
			break;
	if (k == SEARCH_MAX)
		n = NULL;
	if (n && s->frame < n->op.first_frame)
		n = NULL;  /* complete before it was sent (as for Read Responses) */
	if (n && n->id_unknown && !by_order) {
		n->op.atomic_req_id = m->u.atomic_resp.req_id;
		n->id_unknown = false;
	}
	if (!n) {
		note->flags |= IWS_SEGF_ORPHAN_RESPONSE;
		t->counts.orphan_responses++;
		n = trk_start(t, s, IWS_OPT_ATOMIC_FETCH_ADD, K_ATOMIC, note);
		if (!n)
			return;
		n->op.flags |= IWS_OPF_STARTED_BEFORE;
		n->op.dir = !s->dir;
		n->op.opcode = IWS_OP_CODE_ATOMIC_REQ;
		n->op.atomic_req_id = m->u.atomic_resp.req_id;
		n->op.bytes = 8;
	} else {
		note->request_frame = n->op.first_frame;
		note->has_response_time = true;
		note->response_time_ns = s->ts_ns - n->op.start_ns;
		n->op.has_latency = true;
		n->op.latency_ns = note->response_time_ns;
		queued(t, n, s);
	}
	responded(t, s);
	n->op.response_frame = s->frame;
	/* the Original Remote Data Value at 22..30 (RFC 7306 §4.2) */
	n->op.has_atomic_orig = iws_msg_has(m, 30);
	n->op.atomic_orig_value = n->op.has_atomic_orig ? m->u.atomic_resp.orig_value : 0;
	trk_add_segment(t, n, s, 0, note);
	note->op_last = true;
	trk_report(t, n);
}

void iws_tracker_hidden(struct iws_tracker *t, uint8_t dir, uint64_t frame, int64_t ts)
{
	if (dir > 1)
		return;
	if (!frame) {
		/* More octets were hidden, in frames not known: which hidden span
		 * a response answers cannot be told any more. */
		if (t->nhidden[dir])
			t->hidden_spoiled[dir] = true;
		return;
	}
	if (t->nhidden[dir] == HIDDEN_MAX)
		hidden_pop(t, dir);
	t->hidden[dir][t->nhidden[dir]++] = (struct hidden_span){ frame, ts, t->next_id };
}

