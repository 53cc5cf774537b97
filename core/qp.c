// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The operation tracker (see qp.h). Segments of one connection come in capture
 * order; each belongs to at most one in-flight operation, found by:
 *   RDMA Write             open tagged messages of its direction, by STag and
 *                          the next expected TO (RFC 5041 §5.2);
 *   Read Response          the oldest outstanding Read Request of the other
 *                          direction (RFC 5040 §5.2.1: responses come in
 *                          request order), checked by sink STag and TO;
 *   Send family, Immediate open untagged messages of queue 0 by MSN, placed
 *                          by MO (RFC 5041 §5.3);
 *   Atomic Response        the outstanding Atomic Request with the same
 *                          request identifier (RFC 7306 §5.2.2).
 * Read Request, Immediate Data, Atomic Request and Terminate are single
 * segment messages.
 */
#include "qp_int.h"


static enum iws_op_type untagged_type(uint8_t opcode)
{
	switch (opcode) {
	case IWS_OP_CODE_SEND_INV:
		return IWS_OPT_SEND_INV;
	case IWS_OP_CODE_SEND_SE:
		return IWS_OPT_SEND_SE;
	case IWS_OP_CODE_SEND_SE_INV:
		return IWS_OPT_SEND_SE_INV;
	case IWS_OP_CODE_IMMEDIATE:
		return IWS_OPT_IMMEDIATE;
	case IWS_OP_CODE_IMMEDIATE_SE:
		return IWS_OPT_IMMEDIATE_SE;
	default:
		return IWS_OPT_SEND;
	}
}

/* Is this the RTR message of a peer-to-peer set-up (RFC 6581 §7), or the
 * zero-length Read Response to a Read RTR? */
static bool is_rtr(struct iws_tracker *t, const struct iws_seg *s)
{
	const struct iws_msg *m = s->msg;
	const struct iws_ddp_hdr *h = &m->ddp;
	if (t->rtr_read_resp_pending && s->dir == IWS_DIR_R2I) {
		t->rtr_read_resp_pending = false;
		if (h->opcode == IWS_OP_CODE_READ_RESP && m->payload_len == 0 && h->last)
			return true;
	}
	if (t->rtr_legacy_pending && s->dir == IWS_DIR_I2R) {
		t->rtr_legacy_pending = false;
		if (h->opcode == IWS_OP_CODE_READ_REQ && iws_msg_has(m, 34) && m->u.read_req.size == 0) {
			t->rtr_read_resp_pending = true;
			return true;
		}
	}
	if (!t->rtr_pending || s->dir != IWS_DIR_I2R)
		return false;
	t->rtr_pending = false;
	if ((t->mpa.rtr & IWS_RTR_WRITE) && h->opcode == IWS_OP_CODE_WRITE && m->payload_len == 0)
		return true;
	if ((t->mpa.rtr & IWS_RTR_SEND) && h->opcode == IWS_OP_CODE_SEND && m->payload_len == 0)
		return true;
	if ((t->mpa.rtr & IWS_RTR_READ) && h->opcode == IWS_OP_CODE_READ_REQ && m->u.read_req.size == 0) {
		t->rtr_read_resp_pending = true;
		return true;
	}
	return false;
}

/* ---- per opcode ---- */

static void seg_write(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t pl = s->msg->payload_len;
	struct node *n;
	for (n = t->tagged[s->dir].head; n; n = n->next) {
		if (n->kind != K_WRITE || n->op.stag != h->stag)
			continue;
		if (n->expect_to == h->to)
			break;
		if (gap_seen(t, n) && h->to > n->expect_to) {
			n->op.flags |= IWS_OPF_GAP;
			break;
		}
	}
	if (!n) {
		/* A new message while another Write of this STag is open: the old
		 * one lost its end (tagged messages of one stream do not interleave
		 * in practice). */
		for (struct node *o = t->tagged[s->dir].head, *nx; o; o = nx) {
			nx = o->next;
			if (o->kind == K_WRITE && o->op.stag == h->stag) {
				o->op.flags |= IWS_OPF_OFFSET_GAP | IWS_OPF_GAP;
				t->counts.offset_gaps++;
				trk_report(t, o);
			}
		}
		n = trk_start(t, s, IWS_OPT_WRITE, K_WRITE, note);
		if (!n)
			return;
		n->op.has_stag = true;
		n->op.stag = h->stag;
		n->op.to = h->to;
		/* Nothing in a tagged segment says it is a message's first, so the
		 * first Write after a gap (or the capture start) may be partial. */
		if (t->tagged_unsure[s->dir])
			n->op.flags |= IWS_OPF_STARTED_BEFORE;
		trk_push_open(t, &t->tagged[s->dir], n, note);
	}
	trk_add_segment(t, n, s, pl, note);
	n->expect_to = h->to + pl;
	if (h->last) {
		note->op_last = true;
		trk_report(t, n);
	}
}

static void seg_untagged(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	const struct iws_ddp_hdr *h = &m->ddp;
	bool immediate = h->opcode == IWS_OP_CODE_IMMEDIATE || h->opcode == IWS_OP_CODE_IMMEDIATE_SE;
	uint32_t pl = immediate ? 8 : m->payload_len;
	struct node *n;
	for (n = t->untagged[s->dir].head; n; n = n->next)
		if (n->op.msn == h->msn)
			break;
	if (n) {
		if (h->mo != n->expect_mo) {
			n->op.flags |= gap_seen(t, n) ? IWS_OPF_GAP : IWS_OPF_OFFSET_GAP;
			note->flags |= IWS_SEGF_OFFSET_GAP;
			t->counts.offset_gaps++;
		}
	} else {
		n = trk_start(t, s, untagged_type(h->opcode), K_UNTAGGED, note);
		if (h->mo == 0)
			trk_check_msn(t, s->dir, h->qn, h->msn, n, note);
		if (!n)
			return;
		n->op.has_qn = true;
		n->op.qn = h->qn;
		n->op.msn = h->msn;
		if (iws_rdmap_is_send_inv(h->opcode)) {
			n->op.has_inval = true;
			n->op.inval_stag = h->rsvdulp;
		}
		if (immediate && iws_msg_has(m, 26)) {  /* RFC 7306 §5: 18..26 */
			n->op.has_immediate = true;
			n->op.immediate = m->u.immediate;
		}
		/* MO tells exactly whether we saw the message's start (RFC 5041 §5.3). */
		if (h->mo != 0)
			n->op.flags |= IWS_OPF_STARTED_BEFORE;
		trk_push_open(t, &t->untagged[s->dir], n, note);
	}
	trk_add_segment(t, n, s, pl, note);
	n->expect_mo = h->mo + pl;
	if (h->last) {
		note->op_last = true;
		trk_report(t, n);
	}
}

static void seg_terminate(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	/* the stream ends by error: no clean close to count on (qp_report.c) */
	t->term_seen = true;
	for (uint8_t d = 0; d < 2; d++)
		trk_hold_abandon(t, d);
	struct node *n = trk_start(t, s, IWS_OPT_TERMINATE, K_UNTAGGED, note);
	trk_check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	n->op.term_layer = m->u.term.layer;
	n->op.term_etype = m->u.term.etype;
	n->op.term_errcode = m->u.term.errcode;
	trk_add_segment(t, n, s, 0, note);
	note->op_last = true;
	trk_report(t, n);
}

/* ---- public ---- */

static void dispatch(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);

struct iws_tracker *iws_tracker_new(const struct iws_tracker_limits *lim, iws_op_cb cb, void *ctx)
{
	struct iws_tracker *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cb = cb;
	t->ctx = ctx;
	t->max_inflight = lim && lim->max_inflight ? lim->max_inflight : DEFAULT_MAX_INFLIGHT;
	t->max_ack_wait = lim && lim->max_ack_wait ? lim->max_ack_wait : DEFAULT_ACK_WAIT;
	t->ack_unseen_wait = lim && lim->ack_unseen_wait;
	if (lim && lim->shared_ack_wait_used) {
		t->shared_used = lim->shared_ack_wait_used;
		t->shared_peak = lim->shared_ack_wait_peak;
		t->shared_max = lim->shared_max_ack_wait ? lim->shared_max_ack_wait : UINT64_MAX;
	}
	return t;
}

/* Requests known only by number are no operations: let them go. */
static void free_slots(struct iws_tracker *t)
{
	for (int d = 0; d < 2; d++)
		for (struct node *n = t->requests[d].head, *nx; n; n = nx) {
			nx = n->next;
			if (n->kind == K_SLOTS) {
				list_unlink(n);
				free(n);
			}
		}
}

void iws_tracker_free(struct iws_tracker *t)
{
	if (!t)
		return;
	free_slots(t);
	for (struct node *n = t->all_head, *nx; n; n = nx) {
		nx = n->all_next;
		free(n);
	}
	for (int d = 0; d < 2; d++)
		while (t->waiting[d].head) {
			struct node *n = t->waiting[d].head;
			list_unlink(n);
			free(n);
		}
	if (t->shared_used)
		*t->shared_used -= t->own_shared;
	free(t->acks[0].r);
	free(t->acks[1].r);
	free(t);
}

void iws_tracker_set_mpa(struct iws_tracker *t, const struct iws_mpa_conn *c)
{
	t->mpa = *c;
	t->have_mpa = true;
	t->rtr_pending = c->p2p && c->rtr != 0;
	/* MPA revision 1 cannot negotiate an RTR (RFC 6581 §5 is revision 2),
	 * yet stacks that predate it (SMB Direct on Windows with Chelsio
	 * RNICs) open with the same zero-length Read: taken for the RTR it is
	 * when it is the initiator's first FPDU (docs/semantics.md). */
	t->rtr_legacy_pending = c->rev == 1 && c->state == IWS_MPA_ST_FULL;
}

void iws_tracker_segment(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	struct iws_seg_note scratch;
	if (!note)
		note = &scratch;
	memset(note, 0, sizeof(*note));
	t->counts.segments++;
	if (s->dir <= 1)
		t->ord[s->dir].hidden_just = false;
	if (s->crc == IWS_CRC_BAD)
		t->counts.crc_errors++;
	if (s->dir > 1 || !s->msg)
		return;
	/* The RTR message of a peer-to-peer set-up is an operation of its own,
	 * flagged (docs/semantics.md). */
	t->rtr_next = is_rtr(t, s);
	if (t->rtr_next)
		t->counts.rtr_messages++;
	dispatch(t, s, note);
	note->rtr |= t->rtr_next;
	t->rtr_next = false;
	/* Only the first segment after a gap can be the unseen middle of a
	 * Write; everything after it starts after the resynchronisation. */
	t->tagged_unsure[s->dir] = false;
}

static void dispatch(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	switch (s->msg->ddp.opcode) {
	case IWS_OP_CODE_WRITE:
		seg_write(t, s, note);
		break;
	case IWS_OP_CODE_READ_REQ:
		trk_read_req(t, s, note);
		break;
	case IWS_OP_CODE_READ_RESP:
		trk_read_resp(t, s, note);
		break;
	case IWS_OP_CODE_SEND:
	case IWS_OP_CODE_SEND_INV:
	case IWS_OP_CODE_SEND_SE:
	case IWS_OP_CODE_SEND_SE_INV:
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		seg_untagged(t, s, note);
		break;
	case IWS_OP_CODE_TERMINATE:
		seg_terminate(t, s, note);
		break;
	case IWS_OP_CODE_ATOMIC_REQ:
		trk_atomic_req(t, s, note);
		break;
	case IWS_OP_CODE_ATOMIC_RESP:
		trk_atomic_resp(t, s, note);
		break;
	default:
		break;
	}
}

void iws_tracker_gap(struct iws_tracker *t, uint8_t dir)
{
	if (dir > 1)
		return;
	/* Every operation whose data (or responses) flow in dir and that is in
	 * flight now may lose part of it: see gap_seen. */
	t->gap_gen[dir]++;
	trk_hold_lost(t, dir);
	for (int q = 0; q < N_QUEUES; q++)
		t->have_msn[dir][q] = false;
	t->tagged_unsure[dir] = true;
	trk_order_gap(t, dir);
	/* Whatever the RTR was, it is behind us or lost. */
	if (dir == IWS_DIR_I2R)
		t->rtr_pending = false;
}

void iws_tracker_finish(struct iws_tracker *t, uint32_t flag)
{
	trk_order_finish(t);
	free_slots(t);
	while (t->all_head) {
		struct node *n = t->all_head;
		/* The end (aborted: the connection; unfinished: the capture)
		 * caught it - unless the capture cannot tell it was still going:
		 * its response unproven, or it proven to answer a request not
		 * seen, its end perhaps in octets never captured or in FPDUs a
		 * snapshot length hid (docs/semantics.md, labels). */
		bool unknown = (n->op.flags & (IWS_OPF_RESPONSE_UNKNOWN | IWS_OPF_REQUEST_MISSING | IWS_OPF_GAP)) ||
			       trk_hold_uncertain(t, n);
		if (trk_hold_sliced(t, n)) {
			n->op.flags |= IWS_OPF_SLICED;
		} else if (unknown && !(n->op.flags & IWS_OPF_INCOMPLETE_MASK) &&
			   (n->kind == K_READ || n->kind == K_ATOMIC)) {
			/* a request a response not proven may have answered */
			n->op.flags |= IWS_OPF_RESPONSE_UNKNOWN;
			t->counts.responses_unknown++;
		} else if (!unknown || !(n->op.flags & IWS_OPF_INCOMPLETE_MASK)) {
			n->op.flags |= flag;
		}
		if (gap_seen(t, n) && n->kind != K_READ)
			n->op.flags |= IWS_OPF_GAP;
		trk_report(t, n);
	}
	/* Complete operations whose ACK never came (or was not captured). */
	for (int d = 0; d < 2; d++)
		while (t->waiting[d].head) {
			struct node *n = t->waiting[d].head;
			trk_unwait(t, n);
			trk_deliver(t, n);
		}
}

void iws_tracker_acks_settled(struct iws_tracker *t, uint8_t dir, uint32_t seq)
{
	if (dir > 1)
		return;
	struct ack_ring *a = &t->acks[dir];
	/* no FPDU of dir before seq is to come: an acknowledgement up to it
	 * is no operation's first any more (the newest is kept: the highest) */
	while (a->n > 1 && sdiff(a->r[a->head].ack, seq) <= 0) {
		a->head = (a->head + 1) & (a->cap - 1);
		a->n--;
	}
}

void iws_tracker_acks_forgotten(struct iws_tracker *t, uint8_t dir, uint32_t ack)
{
	if (dir > 1)
		return;
	struct ack_ring *a = &t->acks[dir];
	if (!a->evicted || sdiff(ack, a->evicted_hi) > 0) {
		a->evicted = true;
		a->evicted_hi = ack;
	}
}

void iws_tracker_ack(struct iws_tracker *t, uint8_t dir, uint32_t ack, uint64_t frame, int64_t ts,
		     bool with_data)
{
	if (dir > 1)
		return;
	struct ack_ring *a = &t->acks[dir];
	if (a->any && sdiff(ack, a->hi) <= 0)
		return;  /* nothing new acknowledged */
	a->any = true;
	a->hi = ack;
	if (a->n == a->cap && a->cap < ACK_HIST_MAX) {
		/* grow, the oldest first */
		uint32_t cap = a->cap ? 2 * a->cap : 16;
		struct ack_rec *r = malloc(cap * sizeof(*r));
		if (r) {
			for (uint32_t i = 0; i < a->n; i++)
				r[i] = a->r[(a->head + i) & (a->cap - 1)];
			free(a->r);
			a->r = r;
			a->cap = cap;
			a->head = 0;
		}
	}
	if (!a->cap) {
		a->evicted = true;  /* no memory: this one is not kept */
		a->evicted_hi = ack;
	} else {
		if (a->n == a->cap) {
			a->evicted = true;
			a->evicted_hi = a->r[a->head].ack;
			a->head = (a->head + 1) & (a->cap - 1);
			a->n--;
		}
		a->r[(a->head + a->n++) & (a->cap - 1)] = (struct ack_rec){ ack, frame, ts, with_data };
	}
	/* Operations complete in the order of their octets: the ones waiting
	 * first are covered first. */
	struct list *w = &t->waiting[dir];
	while (w->head && sdiff(ack, w->head->ack_seq) >= 0) {
		struct node *n = w->head;
		trk_unwait(t, n);
		n->op.has_ack = true;
		n->op.ack_frame = frame;
		n->op.ack_ns = ts - n->op.start_ns;
		n->op.ack_with_data = with_data;
		trk_deliver(t, n);
	}
	trk_hold_ack(t, dir, ack, frame, ts, with_data);
}

/* Do octets [seq, e) of dir belong to the operation's FPDUs? */
static bool owns(const struct node *n, uint8_t dir, uint32_t seq, uint32_t e)
{
	return n->rng[dir] && sdiff(seq, n->hi[dir]) < 0 && sdiff(e, n->lo[dir]) > 0;
}

void iws_tracker_resent(struct iws_tracker *t, uint8_t dir, uint32_t seq, uint32_t len)
{
	if (dir > 1 || !len)
		return;
	uint32_t e = seq + len;
	/* The newest operations first: a retransmission is of recent octets. */
	uint32_t k = 0;
	for (struct node *n = t->all_tail; n && k < RESENT_SCAN; n = n->all_prev, k++)
		if (owns(n, dir, seq, e))
			n->op.retransmissions++;
	for (int d = 0; d < 2; d++) {
		k = 0;
		for (struct node *n = t->waiting[d].tail; n && k < RESENT_SCAN; n = n->prev, k++)
			if (owns(n, dir, seq, e))
				n->op.retransmissions++;
	}
}

void iws_tracker_closed(struct iws_tracker *t, uint8_t dir, uint64_t frame, bool reset)
{
	if (dir > 1)
		return;
	if (reset) {
		/* no clean close to count on (qp_report.c) */
		t->reset_seen = true;
		for (uint8_t d = 0; d < 2; d++)
			trk_hold_abandon(t, d);
	}
	if (t->closed[dir])
		return;
	t->closed[dir] = true;
	t->closed_frame[dir] = frame;
}

uint32_t iws_tracker_inflight_ids(const struct iws_tracker *t, uint64_t *ids, uint32_t max)
{
	uint32_t n = 0;
	for (const struct node *x = t->all_head; x; x = x->all_next, n++)
		if (n < max)
			ids[n] = x->op.id;
	return n;
}

uint32_t iws_tracker_outstanding_ids(const struct iws_tracker *t, uint64_t *ids, uint32_t max)
{
	uint32_t n = 0;
	for (const struct node *x = t->all_head; x; x = x->all_next) {
		if (trk_hold_uncertain(t, x))
			continue;
		if (n < max)
			ids[n] = x->op.id;
		n++;
	}
	return n;
}

uint32_t iws_tracker_outstanding_begun(const struct iws_tracker *t)
{
	/* A Write or Send whose first FPDU the capture holds (one after a
	 * last, or at a message offset of 0) is outstanding whatever came
	 * before the capture; a Read or Atomic needs a pairing a cut may not
	 * prove (docs/semantics.md). */
	uint32_t n = 0;
	for (const struct node *x = t->all_head; x; x = x->all_next)
		n += (x->kind == K_WRITE || x->kind == K_UNTAGGED) && !(x->op.flags & IWS_OPF_STARTED_BEFORE) &&
		     !trk_hold_uncertain(t, x);
	return n;
}

static void take_earlier(const struct iws_op *op, bool *any, int64_t *start_ns, uint64_t *first_frame)
{
	if (!*any || op->start_ns < *start_ns || (op->start_ns == *start_ns && op->first_frame < *first_frame)) {
		*start_ns = op->start_ns;
		*first_frame = op->first_frame;
		*any = true;
	}
}

bool iws_tracker_oldest_unreported(const struct iws_tracker *t, int64_t *start_ns, uint64_t *first_frame)
{
	bool any = false;
	/* In flight: the first started is the first of the list (constant
	 * time, however many are in flight). */
	if (t->all_head)
		take_earlier(&t->all_head->op, &any, start_ns, first_frame);
	/* Waiting for their ACK, in the order of their octets, which is not
	 * their start order (a Read's response ends after Writes that started
	 * later): each (bounded by max_ack_wait). */
	for (int d = 0; d < 2; d++)
		for (const struct node *n = t->waiting[d].head; n; n = n->next)
			take_earlier(&n->op, &any, start_ns, first_frame);
	return any;
}

const struct iws_tracker_counts *iws_tracker_counts(const struct iws_tracker *t)
{
	return &t->counts;
}
