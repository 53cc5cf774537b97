// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's connection set-up checks (doctor_int.h): the key each side
 * starts its stream with (RFC 5044 §7.1.1, §7.1.2), the MPA Request and
 * Reply fields, peer-to-peer and IRD/ORD negotiation and the RTR that must
 * follow (RFC 6581 §5, §7), and whether the octets at each SeqStart agree
 * with the markers negotiated (RFC 5044 §4.3).
 */
#include "doctor_int.h"

#include <string.h>

#include "bytes.h"

/* Both keys start so (RFC 5044 §7.1.1): "MPA ID Req Frame", "MPA ID Rep Frame". */
static const uint8_t key_stem[7] = { 'M', 'P', 'A', ' ', 'I', 'D', ' ' };

/* Contiguous octets of a wanted span from a segment's captured payload. */
static void peek_feed(struct doc_peek *pk, uint32_t seq, const uint8_t *payload, uint32_t cap, uint64_t frame)
{
	if (!pk->want || pk->done || !payload)
		return;
	uint32_t off = pk->seq + pk->have - seq;
	if (off >= cap)
		return;
	uint32_t n = cap - off;
	if (n > (uint32_t)(pk->len - pk->have))
		n = pk->len - pk->have;
	memcpy(pk->buf + pk->have, payload + off, n);
	pk->have = (uint8_t)(pk->have + n);
	pk->frame = frame;
	if (pk->have == pk->len)
		pk->done = true;
}

static void peek_want(struct iws_doctor *d, int side, struct doc_peek *pk, uint32_t seq, uint8_t len)
{
	memset(pk, 0, sizeof(*pk));
	pk->want = true;
	pk->seq = seq;
	pk->len = len;
	/* the segment being fed may hold them already */
	if (d->cur && d->cur_side == side)
		peek_feed(pk, d->cur_seq, d->cur_payload, d->cur_cap, d->cur_frame);
}

/* A side's first octets are known (seg brought the last of them): is it
 * the key it must send? */
static void key_seen(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side, const struct iws_tcp_seg *seg)
{
	struct doc_side *s = &d->side[side], *o = &d->side[!side];
	const uint8_t *b = s->start.buf;
	uint64_t frame = s->start.frame;
	uint8_t dir = doc_dir_of(fa, side);
	if (memcmp(b, key_stem, sizeof(key_stem)) != 0) {
		s->key = -2;  /* not MPA at all (streaming mode first, or not iWARP) */
		return;
	}
	int type = iws_mpa_key_type(b, IWS_MPA_KEY_LEN);
	if (!type) {
		s->key = -1;
		doc_fire(d, IWS_RULE_MPA_KEY, dir, frame, 1, 0, 0);
		return;
	}
	s->key = type;
	s->key_frame = frame;
	uint16_t pd = iws_be16(b + 18);
	if (pd > IWS_MPA_MAX_PD_LEN)
		doc_fire(d, IWS_RULE_MPA_PD_LEN, dir, frame, pd, 1, 0);
	if (o->key == type)
		doc_fire(d, IWS_RULE_MPA_KEY, dir, frame, type == IWS_MPA_REQUEST ? 2 : 3, 0, 0);
	else if (type == IWS_MPA_REPLY && o->syn && (seg->flags & IWS_TCP_ACK) && seg->ack == o->isn + 1)
		/* RFC 5044 §7.1.2: the responder waits for the Request; this
		 * Reply's sender had not received one octet from its peer (its
		 * ACK says so, whatever the capture missed) */
		doc_fire(d, IWS_RULE_MPA_KEY, dir, frame, 4, 0, 0);
}

void doc_mpa_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side, const struct iws_tcp_seg *seg)
{
	struct doc_side *s = &d->side[side];
	if ((seg->flags & IWS_TCP_SYN) && !s->start.want)
		peek_want(d, side, &s->start, seg->seq + 1, DOC_PEEK_MAX);
	bool was = s->start.done;
	peek_feed(&s->start, d->cur_seq, d->cur_payload, d->cur_cap, seg->frame);
	if (!was && s->start.done)
		key_seen(d, fa, side, seg);
	peek_feed(&s->seqstart, d->cur_seq, d->cur_payload, d->cur_cap, seg->frame);
}

static int popcount3(uint32_t m)
{
	return (int)(m & 1) + (int)(m >> 1 & 1) + (int)(m >> 2 & 1);
}

/* What both frames say alike: flags, revision, private data length. */
static void frame_fields(struct iws_doctor *d, const struct iws_pdu *p)
{
	const struct iws_mpa_frame *fr = p->mpa;
	uint64_t which = fr->type == IWS_MPA_REQUEST ? 1 : 2;
	uint8_t rsvd = fr->flags & IWS_MPA_FLAG_RSVD;
	if (rsvd & 0x08)
		doc_fire(d, IWS_RULE_MPA_SIW_GSO_FLAG, p->dir, p->frame, fr->flags, which, 0);
	/* R means "rejected" in a Reply only: in a Request it is reserved. */
	uint8_t other = (uint8_t)((rsvd & 0x07) | (fr->type == IWS_MPA_REQUEST && fr->reject ? IWS_MPA_FLAG_R : 0));
	if (other)
		doc_fire(d, IWS_RULE_MPA_RESERVED_FLAGS, p->dir, p->frame, fr->flags, which, other);
	if (fr->warnings & IWS_MPA_W_UNKNOWN_REV)
		doc_fire(d, IWS_RULE_MPA_REVISION, p->dir, p->frame, fr->rev, 1, 0);
	else if (fr->type == IWS_MPA_REPLY && d->have_req && fr->rev > d->req.rev)
		doc_fire(d, IWS_RULE_MPA_REVISION, p->dir, p->frame, fr->rev, 2, d->req.rev);
	else if (fr->warnings & IWS_MPA_W_S_NOT_REV2)
		doc_fire(d, IWS_RULE_MPA_REVISION, p->dir, p->frame, fr->rev, 3, 0);
	if (fr->warnings & IWS_MPA_W_ENH_SHORT)
		doc_fire(d, IWS_RULE_MPA_PD_LEN, p->dir, p->frame, fr->pd_len, 2, 0);
}

/* RFC 6581 §7: in peer-to-peer mode the Reply echoes A and selects exactly
 * one of the RTR types the Request offered; RFC 6581 §5: the responder's
 * ORD must not exceed the initiator's IRD. */
static void negotiation(struct iws_doctor *d, const struct iws_pdu *p)
{
	const struct iws_mpa_frame *rq = &d->req, *rp = &d->rep;
	if (!d->have_req || !rq->has_enhanced || !rp->has_enhanced || rp->reject)
		return;
	if (rp->p2p && !rq->p2p)
		doc_fire(d, IWS_RULE_MPA_P2P_NEGOTIATION, p->dir, p->frame, 1, rp->rtr, rq->rtr);
	else if (rp->p2p && popcount3(rp->rtr) == 0)
		doc_fire(d, IWS_RULE_MPA_P2P_NEGOTIATION, p->dir, p->frame, 2, rp->rtr, rq->rtr);
	else if (rp->p2p && popcount3(rp->rtr) > 1)
		doc_fire(d, IWS_RULE_MPA_P2P_NEGOTIATION, p->dir, p->frame, 3, rp->rtr, rq->rtr);
	else if (rp->p2p && (rp->rtr & ~rq->rtr))
		doc_fire(d, IWS_RULE_MPA_P2P_NEGOTIATION, p->dir, p->frame, 4, rp->rtr, rq->rtr);
	if (rp->ord > rq->ird)
		doc_fire(d, IWS_RULE_MPA_IRD_ORD, p->dir, p->frame, rp->ord, rq->ird, 0);
}

void doc_mpa_frame(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	const struct iws_mpa_frame *fr = p->mpa;
	if (!fr)
		return;
	frame_fields(d, p);
	/* The first octet after the frame is the sender's SeqStart (RFC 5044
	 * §4.3): a marker sits there when markers were negotiated. */
	peek_want(d, p->side, &d->side[p->side].seqstart, p->seq + p->len, 4);
	d->side[p->side].have_seqstart = true;
	d->side[p->side].seqstart_seq = p->seq + p->len;
	if (fr->type == IWS_MPA_REQUEST) {
		d->have_req = true;
		d->req = *fr;
		d->req_frame = p->frame;
		if (fr->has_enhanced && fr->p2p && !(fr->rtr & (IWS_RTR_SEND | IWS_RTR_WRITE | IWS_RTR_READ)))
			doc_fire(d, IWS_RULE_MPA_P2P_NEGOTIATION, p->dir, p->frame, 5, 0, 0);
		return;
	}
	d->have_rep = true;
	d->rep = *fr;
	d->rep_frame = p->frame;
	if (fr->reject) {
		uint32_t ulp = fr->pd_len > (fr->has_enhanced ? IWS_MPA_ENHANCED_LEN : 0);
		doc_fire(d, IWS_RULE_MPA_REJECT, p->dir, p->frame, ulp, 0, 0);
		return;
	}
	negotiation(d, p);
	/* The engine negotiated already (it reports the frame after applying it). */
	const struct iws_mpa_conn *c = fa->mpa;
	d->rtr_due = c && c->p2p && c->rtr;
}

/*
 * RFC 5044 §4.3: with markers negotiated for a direction, a marker (all
 * zeros: reserved 0, FPDUPTR 0) sits at its SeqStart; an FPDU's
 * ULPDU_Length never reads 0 there. held against M once the octets and
 * both frames are known; returns 1 (markers missing), 2 (markers not
 * negotiated but there), 0 (as negotiated, or not known).
 */
static int markers_contradict(const struct iws_doctor *d, const struct iws_doctor_facts *fa, uint8_t dir,
			      uint32_t *word, uint64_t *frame)
{
	if (!d->have_req || !d->have_rep || d->rep.reject)
		return 0;
	int init = fa->init_side;
	const struct doc_peek *pk = &d->side[dir == IWS_DIR_I2R ? init : !init].seqstart;
	if (!pk->done)
		return 0;
	bool negotiated = dir == IWS_DIR_I2R ? d->rep.markers : d->req.markers;
	*word = iws_be32(pk->buf);
	*frame = pk->frame;
	return negotiated && *word != 0 ? 1 : !negotiated && *word == 0 ? 2 : 0;
}

/* The direction's first FPDU: when the octets at SeqStart contradict the
 * markers negotiated and the engine's framing of it made no DDP segment
 * (it followed the negotiation, not the octets), the negotiation is the
 * fault and what the misframed FPDUs seem to say is not the sender's.
 * (A sender whose grid is only shifted, RFC 5044 §4.3 broken otherwise, is
 * framed by the engine and named by the marker rules.) */
static void first_fpdu_markers(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	struct doc_dir *dd = &d->dir[p->dir];
	if (dd->markers_checked)
		return;
	uint32_t word;
	uint64_t frame;
	int how = markers_contradict(d, fa, p->dir, &word, &frame);
	if (!how)
		return;
	dd->markers_checked = true;
	if (p->msg)
		return;
	dd->garbled = true;
	dd->loss = true;
	doc_fire(d, IWS_RULE_MPA_MARKERS_NEGOTIATION, p->dir, frame, (uint64_t)how, word, 0);
}

/* RFC 6581 §7: after the Reply of a peer-to-peer set-up the initiator's
 * first FPDU is the zero-length message the Reply selected, and the
 * responder sends nothing before it arrives. */
void doc_mpa_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	first_fpdu_markers(d, fa, p);
	if (!d->rtr_due || d->dir[p->dir].garbled)
		return;
	const struct iws_mpa_conn *c = fa->mpa;
	uint8_t rtr = c ? c->rtr : 0;
	if (p->dir == IWS_DIR_R2I) {
		if (!d->rtr_checked) {
			d->rtr_checked = true;
			doc_fire(d, IWS_RULE_MPA_RTR_MISMATCH, IWS_DIR_R2I, p->frame, 2, 0, rtr);
		}
		return;
	}
	d->rtr_due = false;
	if (p->note && p->note->rtr)
		return;
	uint64_t what = 0xFF;   /* not decodable: no opcode to name */
	if (p->msg) {
		const struct iws_msg *m = p->msg;
		uint64_t len = m->ddp.opcode == IWS_OP_CODE_READ_REQ ? m->u.read_req.size : m->payload_len;
		what = m->ddp.opcode | len << 8;
	}
	doc_fire(d, IWS_RULE_MPA_RTR_MISMATCH, IWS_DIR_I2R, p->frame, 1, what, rtr);
}

/* A direction that never gave an FPDU: its octets at SeqStart against the
 * markers negotiated (the engine could not frame them at all). */
void doc_mpa_finish(struct iws_doctor *d, const struct iws_doctor_facts *fa)
{
	for (uint8_t dir = 0; dir < 2; dir++) {
		uint32_t word;
		uint64_t frame;
		int how = d->dir[dir].fpdus ? 0 : markers_contradict(d, fa, dir, &word, &frame);
		if (how)
			doc_fire(d, IWS_RULE_MPA_MARKERS_NEGOTIATION, dir, frame, (uint64_t)how, word, 0);
	}
}
