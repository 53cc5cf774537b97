// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's DDP and RDMAP checks (doctor_int.h): the headers as carried
 * (versions, reserved bits, opcode and buffer model, queue, Last flag:
 * RFC 5041 §4.2, §5.3, RFC 5040 §4.2, §5.1, RFC 7306), what the operation
 * tracker concluded about each segment (MSN and MO continuity, responses
 * without requests, the peer's IRD, Read Response overruns), each
 * Terminate with the message it names (RFC 5040 §4.8), and the connection
 * around the operations (FIN/RST with operations outstanding, zero windows
 * while Reads are outstanding).
 *
 * Continuity (MSN, MO, Last) is only judged while nothing of the direction
 * was lost or passed over unframed: across a loss a jump is the capture's,
 * not the sender's.
 */
#include "doctor_int.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"

void doc_rdma_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side, const struct iws_tcp_seg *seg)
{
	/* A window of 0 stops the peer's Read Responses (or Requests) until it
	 * opens again (RFC 9293 §3.8.6). */
	if (seg->win == 0 && (seg->flags & IWS_TCP_ACK) && !(seg->flags & (IWS_TCP_SYN | IWS_TCP_RST)) &&
	    d->reads_out && fa->iwarp && !doc_unseen(d, IWS_RULE_CONN_ZERO_WINDOW_READS))
		doc_fire(d, IWS_RULE_CONN_ZERO_WINDOW_READS, doc_dir_of(fa, side), seg->frame, d->reads_out, 0, 0);
}

/* Keep the FPDU's DDP header: a Terminate from the peer may quote it. */
static void remember(struct iws_doctor *d, const struct iws_pdu *p, const uint8_t *u, uint32_t ucap)
{
	struct doc_dir *dd = &d->dir[p->dir];
	uint32_t hl = ucap && (u[0] & IWS_DDP_FLAG_T) ? IWS_DDP_TAGGED_HDR_LEN : IWS_DDP_UNTAGGED_HDR_LEN;
	if (ucap < hl)
		return;
	if (!doc_ring_room((void **)&dd->recent, sizeof(*dd->recent), &dd->rhead, &dd->rn, &dd->rcap,
			   DOC_RECENT))
		return;
	struct doc_recent *r = &dd->recent[dd->rhead];
	r->frame = p->frame;
	memcpy(r->hdr, u, hl);
	r->hlen = (uint8_t)hl;
	r->bad_crc = p->fpdu->crc_status == IWS_CRC_BAD;
	dd->rhead = (dd->rhead + 1) % dd->rcap;
	dd->rn++;
}

/* The frame of the peer's message a Terminate names (RFC 5040 §4.8: the
 * DDP header of the segment that caused it when D is set), or of the
 * peer's last FPDU with a bad CRC for an LLP CRC error; 0 when not found. */
static uint64_t cause_of(const struct iws_doctor *d, uint8_t dir, const uint8_t *u, uint32_t ucap,
			 const struct iws_rdmap_terminate *t)
{
	const struct doc_dir *peer = &d->dir[!dir];
	bool crc = t->layer == IWS_TERM_LAYER_LLP && t->errcode == 0x02;
	if (!t->has_ddp && !crc)
		return 0;
	if (t->has_ddp && t->f_ddp.off + t->f_ddp.len > ucap)
		return 0;
	for (uint32_t k = 1; peer->recent && k <= peer->rn; k++) {
		const struct doc_recent *r = &peer->recent[(peer->rhead + peer->rcap - k) % peer->rcap];
		if (t->has_ddp ? r->hlen == t->f_ddp.len && memcmp(r->hdr, u + t->f_ddp.off, r->hlen) == 0
			       : r->bad_crc)
			return r->frame;
	}
	return 0;
}

/* RFC 5041 §5.3: per untagged queue, MSNs count messages and MO continues
 * a message; RFC 5041 §4.2: L marks a message's last segment. */
static void untagged(struct iws_doctor *d, const struct iws_pdu *p, const uint8_t *u, uint8_t opcode, bool last)
{
	struct doc_dir *dd = &d->dir[p->dir];
	uint32_t qn = iws_be32(u + 6), msn = iws_be32(u + 10), mo = iws_be32(u + 14);
	bool single = !iws_rdmap_is_send(opcode);
	if (single && (!last || mo != 0)) {
		doc_fire(d, IWS_RULE_DDP_LAST_FLAG, p->dir, p->frame, 1, opcode, 0);
		return;
	}
	struct doc_queue *q = &dd->q[qn];
	bool judge = !dd->loss;
	if (!single && judge && q->open && msn != q->open_msn && mo == 0)
		doc_fire(d, IWS_RULE_DDP_LAST_FLAG, p->dir, p->frame, 2, msn, q->open_msn);
	else if (!single && judge && !q->open && q->closed && msn == q->closed_msn && mo != 0)
		doc_fire(d, IWS_RULE_DDP_LAST_FLAG, p->dir, p->frame, 3, msn, 0);
	const struct iws_seg_note *n = p->note;
	if (n && (n->flags & IWS_SEGF_MSN_GAP) && judge) {
		/* the tracker saw msn != last + 1 on a message's first segment */
		if (q->have && (int32_t)(msn - (q->last + 1)) < 0)
			doc_fire(d, IWS_RULE_DDP_MSN_REPEAT, p->dir, p->frame, msn, q->last, qn);
		else
			doc_fire(d, IWS_RULE_DDP_MSN_GAP, p->dir, p->frame, msn, q->last, qn);
	}
	if (n && (n->flags & IWS_SEGF_OFFSET_GAP) && judge)
		doc_fire(d, IWS_RULE_DDP_MO_GAP, p->dir, p->frame, mo, msn, qn);
	/* RFC 5041 §5.1: each queue's MSNs start at 1. Its first message is
	 * known only on a connection captured from its start, its direction
	 * framed from SeqStart on with nothing lost. */
	if (mo == 0 && !q->have && !q->open && msn != 1 && judge && !doc_unseen(d, IWS_RULE_DDP_MSN_START))
		doc_fire(d, IWS_RULE_DDP_MSN_START, p->dir, p->frame, msn, qn, 0);
	if (mo == 0 && !(q->open && msn == q->open_msn)) {
		q->have = true;
		q->last = msn;
	}
	if (last) {
		q->open = false;
		q->closed = true;
		q->closed_msn = msn;
	} else {
		q->open = true;
		q->open_msn = msn;
	}
}

/* What the tracker concluded about a decoded segment. */
static void notes(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	const struct iws_seg_note *n = p->note;
	const struct iws_msg *m = p->msg;
	uint8_t opcode = m->ddp.opcode;
	if (n->flags & IWS_SEGF_OVERRUN)
		doc_fire(d, IWS_RULE_DDP_TAGGED_OVERRUN, p->dir, p->frame, 1, n->request_frame, 0);
	/* the Reads in flight are known only from the start, whole (doctor.h) */
	if ((n->flags & IWS_SEGF_IRD_EXCEEDED) && !doc_unseen(d, IWS_RULE_RDMAP_IRD_EXCEEDED)) {
		const struct iws_mpa_conn *c = fa->mpa;
		doc_fire(d, IWS_RULE_RDMAP_IRD_EXCEEDED, p->dir, p->frame, n->outstanding,
			 c ? c->ird[!p->dir] : 0, 0);
	}
	/* Only on a connection captured from its handshake, whole, with
	 * nothing lost can a response be proven to answer nothing. */
	if ((n->flags & IWS_SEGF_ORPHAN_RESPONSE) && !n->rtr && fa->state == IWS_SST_FULL &&
	    !doc_unseen(d, IWS_RULE_RDMAP_ORPHAN_RESPONSE))
		doc_fire(d, IWS_RULE_RDMAP_ORPHAN_RESPONSE, p->dir, p->frame, opcode, 0, 0);
	/* Reads outstanding: from the Read Request to its last Read Response. */
	if (opcode == IWS_OP_CODE_READ_REQ && n->op_first && !n->rtr)
		d->reads_out++;
	if (opcode == IWS_OP_CODE_READ_RESP && n->op_last && n->request_frame && !n->rtr && d->reads_out)
		d->reads_out--;
}

void doc_rdma_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	struct doc_dir *dd = &d->dir[p->dir];
	const struct iws_fpdu *f = p->fpdu;
	if (!f || !f->ulpdu)
		return;
	const uint8_t *u = f->ulpdu;
	uint32_t ucap = iws_fpdu_ulpdu_captured(f, p->first_hole);
	if (ucap > f->ulpdu_len)
		ucap = f->ulpdu_len;
	if (ucap < 2)
		return;
	uint8_t ctrl = u[0], rctrl = u[1];
	uint8_t dv = ctrl & IWS_DDP_DV_MASK, rv = (uint8_t)((rctrl & IWS_RDMAP_RV_MASK) >> 6);
	uint8_t opcode = rctrl & IWS_RDMAP_OPCODE_MASK;
	bool tagged = ctrl & IWS_DDP_FLAG_T, last = ctrl & IWS_DDP_FLAG_L;
	remember(d, p, u, ucap);
	if (dv != IWS_DDP_VERSION) {
		doc_fire(d, IWS_RULE_DDP_VERSION, p->dir, p->frame, dv, 0, 0);
		return;
	}
	if (rv != IWS_RDMAP_VERSION) {
		doc_fire(d, IWS_RULE_RDMAP_VERSION, p->dir, p->frame, rv, 0, 0);
		return;
	}
	if ((ctrl & IWS_DDP_RSVD_MASK) || (rctrl & IWS_RDMAP_RSVD_MASK))
		doc_fire(d, IWS_RULE_DDP_RESERVED, p->dir, p->frame, ctrl, rctrl, 0);
	else if (p->msg && (p->msg->warnings & IWS_DDP_W_RSVDULP))
		doc_fire(d, IWS_RULE_DDP_RESERVED, p->dir, p->frame, ctrl, rctrl, p->msg->ddp.rsvdulp);
	int q = iws_rdmap_opcode_queue(opcode);
	if (q == -2 || (q == -1 && !tagged) || (q >= 0 && tagged)) {
		doc_fire(d, IWS_RULE_RDMAP_OPCODE, p->dir, p->frame, opcode, q == -2 ? 0 : tagged ? 2 : 1, 0);
		return;
	}
	if (dd->terminated)
		doc_fire(d, IWS_RULE_RDMAP_AFTER_TERMINATE, p->dir, p->frame, opcode, dd->term_frame, 0);
	if (!tagged) {
		if (ucap < IWS_DDP_UNTAGGED_HDR_LEN)
			return;
		uint32_t qn = iws_be32(u + 6);
		if (qn != (uint32_t)q) {
			doc_fire(d, IWS_RULE_DDP_INVALID_QN, p->dir, p->frame, qn, opcode, 0);
			return;
		}
		untagged(d, p, u, opcode, last);
	} else if (ucap >= IWS_DDP_TAGGED_HDR_LEN) {
		/* RFC 5041 §4.3: a tagged segment's octets lie at TO.. TO + len - 1 */
		uint64_t to = iws_be64(u + 6), plen = f->ulpdu_len - IWS_DDP_TAGGED_HDR_LEN;
		if (plen && to > UINT64_MAX - (plen - 1))
			doc_fire(d, IWS_RULE_DDP_TAGGED_OVERRUN, p->dir, p->frame, 2, to, plen);
	}
	if (!p->msg)
		return;
	if (p->note)
		notes(d, fa, p);
	if (opcode == IWS_OP_CODE_TERMINATE) {
		const struct iws_rdmap_terminate *t = &p->msg->u.term;
		uint64_t code = (uint64_t)t->layer << 16 | (uint64_t)t->etype << 8 | t->errcode;
		doc_fire(d, IWS_RULE_RDMAP_TERMINATE, p->dir, p->frame, code, cause_of(d, p->dir, u, ucap, t), 0);
		if (!dd->terminated) {
			dd->terminated = true;
			dd->term_frame = p->frame;
		}
	}
}

/* RFC 5040 §4.4: a Read Request's fields are in network order. The
 * tracker finds a requester writing them least significant octet first
 * from the Read Responses (their sink STag and TO are the request's
 * swapped) and reads its requests so from then on: each Read whose request
 * (with its fields up to the size) was captured from such a sender is one
 * occurrence, in its request's frame. The operations are reported once
 * their responses end, or at the end: the sender is known by then. */
static void read_request_le(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_op *op)
{
	const struct iws_tracker_counts *tc = fa->tracker;
	if (op->type != IWS_OPT_READ || op->rtr || op->opcode != IWS_OP_CODE_READ_REQ || !op->has_read_size ||
	    op->dir > 1 || !tc || !(tc->rdmap_dev[op->dir] & IWS_RDMAP_DEV_READ_REQ_LE))
		return;
	doc_fire(d, IWS_RULE_RDMAP_READ_REQUEST_LE, op->dir, op->first_inorder_frame, op->stag, op->read_size,
		 tc->rdmap_dev_frame[op->dir]);
}

void doc_rdma_op(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_op *op)
{
	read_request_le(d, fa, op);
	/* RFC 5040 §5.2: the Read Responses carry exactly the size asked for. */
	if (op->type == IWS_OPT_READ && !op->rtr && op->complete && op->has_read_size &&
	    op->opcode == IWS_OP_CODE_READ_REQ && op->bytes < op->read_size && op->dir < 2)
		doc_fire(d, IWS_RULE_RDMAP_READ_RESPONSE_SIZE, (uint8_t)!op->dir, op->last_frame, op->bytes,
			 op->read_size, 0);
}

void doc_rdma_event(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_stream_event *ev)
{
	switch (ev->kind) {
	case IWS_SEV_GAP:
	case IWS_SEV_FRAMING_LOST:
	case IWS_SEV_LIMIT:
	case IWS_SEV_NOT_IWARP:
		d->dir[ev->dir].loss = true;
		break;
	/* The operations outstanding at a close are known only when every
	 * one since the start was captured whole (doctor.h): else a Read begun
	 * before the capture, or answered in octets not captured, counts.
	 * Without the start alone, the Writes and Sends begun in the capture
	 * still are (a killed peer's tail: a lower bound). */
	case IWS_SEV_FIN:
	case IWS_SEV_RST: {
		enum iws_rule rule = ev->kind == IWS_SEV_FIN ? IWS_RULE_CONN_FIN_OUTSTANDING :
							       IWS_RULE_CONN_RST_OUTSTANDING;
		uint32_t unseen = doc_unseen(d, rule);
		uint64_t n = !unseen ? ev->detail : unseen == IWS_DOC_UNSEEN_START ? fa->outstanding_begun : 0;
		if (n)
			doc_fire_bound(d, rule, ev->dir, ev->frame, n, 0, 0, unseen != 0);
		break;
	}
	default:
		break;
	}
}
