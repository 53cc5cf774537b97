// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An operation's record while it is in flight (qp_int.h): started by its
 * first segment, its segments added, its queue's MSNs checked, opened for the
 * segments that follow. The matching of responses (qp_match.c) and the
 * segment dispatch (qp.c) call it; what it finishes goes to qp_report.c.
 */
#include "qp_int.h"

/* A new operation joins the list of all, oldest first. */
void trk_started(struct iws_tracker *t, struct node *n)
{
	n->all_prev = t->all_tail;
	if (t->all_tail)
		t->all_tail->all_next = n;
	else
		t->all_head = n;
	t->all_tail = n;
	t->counts.inflight++;
	t->counts.ops_started++;
	if (t->counts.inflight > t->counts.max_inflight_seen)
		t->counts.max_inflight_seen = t->counts.inflight;
}
struct node *trk_start(struct iws_tracker *t, const struct iws_seg *s, enum iws_op_type type,
			  enum op_kind kind, struct iws_seg_note *note)
{
	/* Bounded memory: past the limit the oldest operation is given up. */
	if (t->counts.inflight >= t->max_inflight && t->all_head) {
		trk_evicting(t);
	}
	if (t->counts.inflight >= t->max_inflight && t->all_head) {
		t->all_head->op.flags |= IWS_OPF_EVICTED;
		t->counts.evicted++;
		note->flags |= IWS_SEGF_EVICTED;
		trk_report(t, t->all_head);
	}
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	n->kind = kind;
	n->data_dir = (kind == K_READ || kind == K_ATOMIC) ? !s->dir : s->dir;
	n->gap_gen = t->gap_gen[n->data_dir];
	n->op.id = ++t->next_id;
	n->op.type = type;
	n->op.opcode = h->opcode;
	n->op.dir = s->dir;
	n->op.rtr = t->rtr_next;
	/* It starts with the first transmission of its first FPDU. */
	n->op.first_frame = s->first_frame ? s->first_frame : s->frame;
	n->op.start_ns = s->first_frame ? s->first_ts : s->ts_ns;
	n->op.first_inorder_frame = n->op.last_frame = s->frame;
	n->op.end_ns = s->ts_ns;
	trk_started(t, n);
	note->op_first = true;
	return n;
}

/* A new multi-segment message joins the open ones of its direction; past
 * OPEN_MSG_MAX the oldest is given up (in-flight limit). */
void trk_push_open(struct iws_tracker *t, struct list *l, struct node *n,
		      struct iws_seg_note *note)
{
	if (l->n >= OPEN_MSG_MAX && l->head) {
		trk_evicting(t);
	}
	if (l->n >= OPEN_MSG_MAX && l->head) {
		struct node *o = l->head;
		o->op.flags |= IWS_OPF_EVICTED;
		t->counts.evicted++;
		note->flags |= IWS_SEGF_EVICTED;
		trk_report(t, o);
	}
	list_push(l, n);
}

/* Account one segment to an operation. */
void trk_add_segment(struct iws_tracker *t, struct node *n, const struct iws_seg *s,
			uint32_t payload, struct iws_seg_note *note)
{
	/* Sent after the receiver closed or reset the connection: its TCP
	 * octets perhaps, the operation cannot have been placed whole. */
	uint64_t sent = s->first_frame ? s->first_frame : s->frame;
	if (t->closed[!s->dir] && sent > t->closed_frame[!s->dir]) {
		n->op.flags |= IWS_OPF_AFTER_CLOSE;
		note->flags |= IWS_SEGF_AFTER_CLOSE;
	}
	n->op.segments++;
	n->op.bytes += payload;
	n->op.last_frame = s->frame;
	n->op.end_ns = s->ts_ns;
	/* Stall: from the later of its last octet's arrival and the previous
	 * FPDU's completion, to its own completion (docs/semantics.md). */
	int64_t from = s->arrived_frame ? s->arrived_ts : s->ts_ns;
	if (n->any_fpdu && n->prev_done_ts > from)
		from = n->prev_done_ts;
	if (s->ts_ns > from)
		n->op.stall_ns += s->ts_ns - from;
	n->prev_done_ts = s->ts_ns;
	n->any_fpdu = true;
	uint32_t retrans = s->retrans, reord = s->reordered;
	if (s->has_seq) {
		uint8_t d = s->dir;
		uint32_t e = s->seq + s->len;
		/* Each segment counts once per operation (docs/semantics.md): one
		 * that carried the end of its previous FPDU and the start of this
		 * one was counted already. */
		if (retrans && s->retrans_first_frame && n->rng[d] && s->seq == n->hi[d] &&
		    s->retrans_first_frame == n->retrans_last[d])
			retrans--;
		n->retrans_last[d] = s->retrans_last_frame;
		if (reord && s->reord_first_frame && n->rng[d] && s->seq == n->hi[d] &&
		    s->reord_first_frame == n->reord_last[d])
			reord--;
		n->reord_last[d] = s->reord_last_frame;
		if (!n->rng[d] || sdiff(s->seq, n->lo[d]) < 0)
			n->lo[d] = s->seq;
		if (!n->rng[d] || sdiff(e, n->hi[d]) > 0)
			n->hi[d] = e;
		n->rng[d] = true;
		n->ack_dir = d;
		n->ack_seq = e;
		n->can_wait = true;
	} else {
		n->can_wait = false;
	}
	n->op.retransmissions += retrans;
	n->op.reordered += reord;
	if (s->crc == IWS_CRC_BAD)
		n->op.crc_errors++;
	if (s->truncated)
		n->op.flags |= IWS_OPF_TRUNCATED;
	if (s->unfinished)
		n->op.flags |= IWS_OPF_UNFINISHED;
	note->op_id = n->op.id;
	note->op_type = n->op.type;
	note->payload = payload;
}

/* MSN bookkeeping for a message's first segment (RFC 5041 §5.3: MSNs of a
 * queue increase by one per message). */
void trk_check_msn(struct iws_tracker *t, uint8_t dir, uint32_t qn, uint32_t msn,
		      struct node *n, struct iws_seg_note *note)
{
	if (qn >= N_QUEUES)
		return;
	if (t->have_msn[dir][qn] && msn != t->last_msn[dir][qn] + 1) {
		note->flags |= IWS_SEGF_MSN_GAP;
		t->counts.msn_gaps++;
		if (n)
			n->op.flags |= IWS_OPF_MSN_GAP;
	}
	t->have_msn[dir][qn] = true;
	t->last_msn[dir][qn] = msn;
}
