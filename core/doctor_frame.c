// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's framing checks (doctor_int.h): where each FPDU sits in the
 * TCP segments that carried it, against RFC 5044 §4.5 (FPDUs sized to the
 * MSS) and the alignment its Appendix A describes (every segment begins
 * with an FPDU, FPDUs are not split, several may share a segment); and what
 * the engine found in the FPDU itself: CRC (§4.4), markers (§4.2, §4.3),
 * PAD (§4.1).
 *
 * Segment boundaries: the last DOC_RING segments of each side, in the order
 * they were captured (retransmissions too), pruned as the direction's FPDUs
 * pass them. An FPDU whose first octet is in none of them (it was reported
 * long after, or the capture lost the segment) is not measured, nor is one
 * that does not start a segment and does not follow the previous PDU of its
 * direction (octets between them were never framed).
 */
#include "doctor_int.h"

#include <stdlib.h>

static inline int32_t sdiff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

static struct doc_seg *ring_at(struct doc_side *s, uint32_t i)
{
	return &s->ring[(s->head + s->cap - s->n + i) % s->cap];
}

void doc_frame_segment(struct iws_doctor *d, int side, const struct iws_tcp_seg *seg)
{
	if (!seg->wire_len)
		return;
	struct doc_side *s = &d->side[side];
	if (!doc_ring_room((void **)&s->ring, sizeof(*s->ring), &s->head, &s->n, &s->cap, DOC_RING))
		return;
	struct doc_seg *e = &s->ring[s->head];
	e->seq = d->cur_seq;
	e->len = seg->wire_len;
	e->began_fpdu = false;
	s->head = (s->head + 1) % s->cap;
	s->n++;
}

/* The segments that start where a PDU starts begin with a PDU. */
static void mark_starts(struct doc_side *s, uint32_t seq)
{
	for (uint32_t i = 0; s->ring && i < s->n; i++) {
		struct doc_seg *e = ring_at(s, i);
		if (e->seq == seq)
			e->began_fpdu = true;
	}
}

/* The PDU [seq, end) of the direction passed: segments wholly before its
 * end can no longer hold a later PDU's first octet. */
static void passed(struct doc_side *s, struct doc_dir *dd, uint32_t seq, uint32_t end)
{
	dd->have_prev = true;
	dd->prev_start = seq;
	dd->prev_end = end;
	while (s->ring && s->n) {
		struct doc_seg *e = ring_at(s, 0);
		if (sdiff(e->seq + e->len, end) > 0)
			break;
		s->n--;
	}
}

void doc_frame_mpa(struct iws_doctor *d, const struct iws_pdu *p)
{
	struct doc_side *s = &d->side[p->side];
	mark_starts(s, p->seq);
	passed(s, &d->dir[p->dir], p->seq, p->seq + p->len);
}

/* RFC 5044 §4.5, Appendix A: the FPDU against the TCP segments. */
static void position(struct iws_doctor *d, const struct iws_pdu *p)
{
	struct doc_side *s = &d->side[p->side];
	struct doc_dir *dd = &d->dir[p->dir];
	uint16_t mss = d->side[!p->side].mss;   /* what the receiver's SYN allowed */
	bool kept = doc_keeps(d, p->frame);   /* measured where its findings count */
	if (mss) {
		if (kept) {
			dd->measured_mss++;
			doc_measured(d, p->dir);
		}
		if (p->len > mss)
			doc_fire(d, IWS_RULE_FRAMING_FPDU_OVER_MSS, p->dir, p->frame, p->len, mss, 0);
	}
	bool starts = false, contained = false;
	struct doc_seg *home = NULL;   /* the first captured segment holding its first octet */
	for (uint32_t i = 0; s->ring && i < s->n; i++) {
		struct doc_seg *e = ring_at(s, i);
		uint32_t off = p->seq - e->seq;
		if (off >= e->len)
			continue;
		if (!home)
			home = e;
		if (off == 0) {
			starts = true;
			e->began_fpdu = true;
		}
		if (p->len <= e->len - off)
			contained = true;
	}
	bool follows = dd->have_prev && dd->prev_end == p->seq;
	if (!home || (!starts && !follows))
		return;
	if (kept) {
		dd->measured++;
		doc_measured(d, p->dir);
	}
	if (!contained)
		doc_fire(d, IWS_RULE_FRAMING_FPDU_SPLIT, p->dir, p->frame, p->len, 0, 0);
	if (starts)
		return;
	uint32_t off = p->seq - home->seq;
	/* Packed: the segment began with a PDU and every PDU before this one in
	 * it (the previous one at least) lies wholly inside it. */
	if (home->began_fpdu && sdiff(dd->prev_start, home->seq) >= 0)
		doc_fire(d, IWS_RULE_FRAMING_FPDU_PACKED, p->dir, p->frame, p->len, off, 0);
	else
		doc_fire(d, IWS_RULE_FRAMING_FPDU_UNALIGNED, p->dir, p->frame, p->len, off, 0);
}

/* The grid rules a sender's markers break, as the engine named them. */
static enum iws_rule grid_rule(uint32_t devs)
{
	return (devs & IWS_MARKER_DEV_SKIP_CRC) ? IWS_RULE_FRAMING_MARKER_SKIP_CRC
	       : (devs & IWS_MARKER_DEV_OFFSET) ? IWS_RULE_FRAMING_MARKER_OFFSET
						: IWS_RULE_COUNT;
}

/* n markers of an FPDU in frame off the RFC grid by delta: named by the
 * engine's finding, or kept until it has one (DOC_PENDING FPDUs). */
static void off_grid(struct iws_doctor *d, uint8_t dir, uint32_t devs, uint64_t frame, uint32_t n,
		     uint32_t delta)
{
	struct doc_dir *dd = &d->dir[dir];
	enum iws_rule r = grid_rule(devs);
	if (r != IWS_RULE_COUNT) {
		for (uint32_t i = 0; i < n; i++)
			doc_fire(d, r, dir, frame, delta, n, 0);
		return;
	}
	if (!doc_ring_room((void **)&dd->pend, sizeof(*dd->pend), &dd->phead, &dd->pn, &dd->pcap, DOC_PENDING))
		return;
	dd->pend[dd->phead] = (struct doc_pending){ frame, n, delta };
	dd->phead = (dd->phead + 1) % dd->pcap;
	dd->pn++;
}

/*
 * RFC 5044 §4.2, §4.3: each marker's FPDUPTR in network order, at SeqStart
 * + 512n. Every marker is an occurrence: one whose FPDUPTR reads right
 * least significant octet first and wrong as the RFC says (a value whose
 * two octets differ: 0, the leading marker's, reads alike), and, where
 * SeqStart is known (the sender's MPA frame was captured), one off that
 * grid, under the deviation the engine found in the sender's grid.
 */
static void markers(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	const struct iws_fpdu *f = p->fpdu;
	const struct doc_side *s = &d->side[p->side];
	uint32_t off_n = 0, delta = 0;
	for (uint32_t i = 0; i < f->n_markers; i++) {
		uint32_t off = f->markers[i].off;
		if (off + IWS_MPA_MARKER_LEN > p->first_hole || off + IWS_MPA_MARKER_LEN > p->len)
			continue;
		const uint8_t *m = p->wire + off;
		uint32_t want = iws_mpa_fpduptr_expected(f->len_off, off);
		uint16_t le = (uint16_t)(m[2] | m[3] << 8), be = (uint16_t)(m[2] << 8 | m[3]);
		if (!m[0] && !m[1] && le == want && be != want)
			doc_fire(d, IWS_RULE_FRAMING_MARKER_FPDUPTR_LE, p->dir, p->frame, off, want, 0);
		uint32_t dl = (p->seq + off - s->seqstart_seq) % IWS_MPA_MARKER_INTERVAL;
		if (s->have_seqstart && dl) {
			if (!off_n)
				delta = dl;
			off_n++;
		}
	}
	if (off_n)
		off_grid(d, p->dir, fa->marker_dev[p->side & 1], p->frame, off_n, delta);
}

void doc_frame_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	const struct iws_fpdu *f = p->fpdu;
	if (!f)
		return;
	markers(d, fa, p);
	/* RFC 5044 §4.4: a CRC field left zero where CRCs were negotiated is a
	 * sender that never computes them, not a damaged FPDU. */
	if (f->crc_status == IWS_CRC_BAD) {
		if (f->crc_wire == 0)
			doc_fire(d, IWS_RULE_MPA_CRC_NOT_SENT, p->dir, p->frame, f->crc_calc, 0, 0);
		else
			doc_fire(d, IWS_RULE_FRAMING_CRC_ERROR, p->dir, p->frame, f->crc_wire, f->crc_calc, 0);
	}
	if (f->marker_errors)
		doc_fire(d, IWS_RULE_FRAMING_MARKER_ERROR, p->dir, p->frame, f->marker_errors, 0, 0);
	/* RFC 5044 §4.1: PAD octets are zero. (PAD ends on a 4-octet boundary
	 * of the stream, so no marker sits inside it.) */
	if (f->pad && f->pad_off + f->pad <= p->first_hole && f->pad_off + f->pad <= p->len) {
		uint64_t v = 0;
		for (uint32_t i = 0; i < f->pad; i++)
			v = v << 8 | p->wire[f->pad_off + i];
		if (v)
			doc_fire(d, IWS_RULE_FRAMING_PAD_NONZERO, p->dir, p->frame, v, f->pad, 0);
	}
	if (!p->unfinished)
		position(d, p);
	passed(&d->side[p->side], &d->dir[p->dir], p->seq, p->seq + p->len);
}

/* The engine found how a sender's marker grid deviates: its markers off
 * the RFC grid found before are named now; where SeqStart is not known
 * (no MPA frame captured) which markers are off the grid cannot be told,
 * and the deviation is named once, a lower bound. */
void doc_frame_event(struct iws_doctor *d, const struct iws_stream_event *ev)
{
	if (ev->kind != IWS_SEV_MARKERS_NONSTANDARD)
		return;
	struct doc_dir *dd = &d->dir[ev->dir];
	enum iws_rule r = grid_rule(ev->detail);
	if (r == IWS_RULE_COUNT)
		return;
	if (!d->side[ev->side].have_seqstart) {
		uint32_t bit = r == IWS_RULE_FRAMING_MARKER_SKIP_CRC ? IWS_MARKER_DEV_SKIP_CRC : IWS_MARKER_DEV_OFFSET;
		if (!(dd->marker_devs & bit))
			doc_fire_bound(d, r, ev->dir, ev->frame, 0, 0, 0, true);
		dd->marker_devs |= bit;
		return;
	}
	for (uint32_t k = dd->pn; dd->pend && k > 0; k--) {
		const struct doc_pending *e = &dd->pend[(dd->phead + dd->pcap - k) % dd->pcap];
		for (uint32_t i = 0; i < e->markers; i++)
			doc_fire(d, r, ev->dir, e->frame, e->delta, e->markers, 0);
	}
	dd->pn = 0;
}
