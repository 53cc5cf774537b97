// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine (stream.h) through its public API: hand-cut TCP segments
 * in, the sink's PDUs, operations, spans and events out, each checked for
 * exact frames, sequence numbers, kinds and counts.
 */
#include "check.h"
#include "stream_rec.h"

/* Handshake (v2, CRC, IRD/ORD), then FPDUs one per segment, several per
 * segment, one across three segments; a bad CRC in the other direction. */
static void test_handshake(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 1000);
	side_init(1, 50000);
	add_mpa(0, 0, F_C | F_S, 4, 8);                                         /* el 0 */
	add_mpa(1, 1, F_C | F_S, 16, 2);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 1);                     /* el 1 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 10), 1);                     /* el 2-4 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 3, 0, 1, 30), 1);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 4, 0, 1, 7), 1);
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x77, 0x1000, 1, 600), 1);           /* el 5 */
	add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 40), 2);                     /* bad CRC */
	add_fpdu(1, sb_send_ulpdu(rec_ub, 2, 0, 1, 4), 1);

	syn(0, false);                    /* 1 */
	syn(1, true);                     /* 2 */
	ack_to(0, 0);                     /* 3 */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_NONE);
	CHECK_EQ(iws_stream_init_side(T.s), 0);
	send_el(0, 0, 0);                 /* 4: Request */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_REQUEST);
	send_el(1, 0, 0);                 /* 5: Reply */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_FULL);
	CHECK(iws_stream_is_iwarp(T.s));
	CHECK_EQ(iws_stream_request_frame(T.s), 4);
	CHECK_EQ(iws_stream_reply_frame(T.s), 5);
	const struct iws_mpa_conn *m = iws_stream_mpa(T.s);
	CHECK_EQ(m->state, IWS_MPA_ST_FULL);
	CHECK_EQ(m->rev, 2);
	CHECK(m->crc && m->has_ird_ord);
	CHECK_EQ(m->ird[IWS_DIR_I2R], 4);
	CHECK_EQ(m->ord[IWS_DIR_I2R], 8);
	CHECK_EQ(m->ird[IWS_DIR_R2I], 16);
	CHECK_EQ(m->ord[IWS_DIR_R2I], 2);
	const struct iws_mpa_dir *d0 = iws_stream_framing(T.s, 0), *d1 = iws_stream_framing(T.s, 1);
	CHECK(d0 && d1);
	if (d0 && d1) {
		CHECK(!d0->markers && d0->crc);
		CHECK_EQ(d0->marker_base, sq(0, 24));
		CHECK(!d1->markers && d1->crc);
		CHECK_EQ(d1->marker_base, sq(1, 24));
	}
	CHECK_EQ(count_ev(IWS_SEV_HANDSHAKE), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_HANDSHAKE, 0);
	if (e) {
		CHECK_EQ(e->side, 1);
		CHECK_EQ(e->dir, IWS_DIR_R2I);
		CHECK_EQ(e->seq, sq(1, 24));
		CHECK_EQ(e->frame, 5);
	}
	CHECK(iws_stream_request(T.s) && iws_stream_reply(T.s));

	send_el(0, 1, 1);                 /* 6: one FPDU */
	send_el(0, 2, 4);                 /* 7: three FPDUs */
	uint32_t w = at(0, 5);            /* 8, 9, 10: one FPDU in three pieces */
	send(0, w, 100);
	int64_t pts;
	uint64_t pfr;
	CHECK(iws_stream_pending(T.s, &pts, &pfr));
	CHECK_EQ(pfr, 8);
	CHECK_EQ(pts, TS(8));
	CHECK_EQ(iws_stream_buffered(T.s), 100);
	send(0, w + 100, 300);
	send(0, w + 400, len_of(0, 5) - 400);
	CHECK(!iws_stream_pending(T.s, &pts, &pfr));
	CHECK_EQ(iws_stream_buffered(T.s), 0);
	send_el(1, 1, 1);                 /* 11: bad CRC */
	send_el(1, 2, 2);                 /* 12 */

	/* The PDUs, in order: Request, Reply, five FPDUs of side 0, two of side 1. */
	CHECK_EQ(T.npdu, 9);
	const struct rpdu *r = &T.pdu[0];
	CHECK_EQ(r->p.kind, IWS_PDU_MPA_FRAME);
	CHECK_EQ(r->mpa_type, IWS_MPA_REQUEST);
	CHECK_EQ(r->p.side, 0);
	CHECK_EQ(r->p.dir, IWS_DIR_I2R);
	CHECK_EQ(r->p.seq, sq(0, 0));
	CHECK_EQ(r->p.len, 24);
	CHECK_EQ(r->p.first_frame, 4);
	CHECK_EQ(r->p.frame, 4);
	CHECK_EQ(r->during, 4);
	r = &T.pdu[1];
	CHECK_EQ(r->mpa_type, IWS_MPA_REPLY);
	CHECK_EQ(r->p.side, 1);
	CHECK_EQ(r->p.dir, IWS_DIR_R2I);
	CHECK_EQ(r->p.frame, 5);
	CHECK_EQ(r->during, 5);
	for (int i = 0; i < 4; i++) {
		r = fpdu_rec(0, i);
		CHECK_FPDU_AT(r, 0, 1 + i, i == 0 ? 6 : 7);
		if (!r)
			continue;
		CHECK_EQ(r->p.first_frame, r->p.frame);
		CHECK_EQ(r->p.arrived_frame, r->p.frame);
		CHECK_EQ(r->during, r->p.frame);
		CHECK_EQ(r->crc, IWS_CRC_OK);
		CHECK(r->has_msg && r->opcode == IWS_OP_CODE_SEND);
		CHECK_EQ(r->msn, 1 + i);
		CHECK(!r->p.gap_before && !r->p.truncated);
		CHECK(r->note.op_first && r->note.op_last);
	}
	r = fpdu_rec(0, 4);
	CHECK_FPDU_AT(r, 0, 5, 10);
	if (r) {
		CHECK_EQ(r->p.first_frame, 8);
		CHECK_EQ(r->p.first_ts, TS(8));
		CHECK_EQ(r->p.arrived_frame, 10);
		CHECK_EQ(r->p.arrived_ts, TS(10));
		CHECK_EQ(r->during, 10);
		CHECK_EQ(r->crc, IWS_CRC_OK);
		CHECK_EQ(r->opcode, IWS_OP_CODE_WRITE);
		CHECK_EQ(r->stag, 0x77);
	}
	/* Its three frames each get a PART span. */
	int parts = 0;
	for (int i = 0; i < T.nspan; i++) {
		const struct iws_span *sp = &T.span[i].sp;
		if (sp->kind != IWS_SPAN_PART || sp->pdu_seq != sq(0, w))
			continue;
		static const uint32_t offs[3] = { 0, 100, 400 }, lens[3] = { 100, 300, 0 };
		if (parts < 3) {
			CHECK_EQ(sp->frame, 8 + parts);
			CHECK_EQ(sp->pdu_frame, 10);
			CHECK_EQ(sp->seq, sq(0, w + offs[parts]));
			CHECK_EQ(sp->len, parts == 2 ? len_of(0, 5) - 400 : lens[parts]);
			CHECK_EQ(sp->side, 0);
		}
		parts++;
	}
	CHECK_EQ(parts, 3);
	CHECK_EQ(count_span(IWS_SPAN_RETRANS) + count_span(IWS_SPAN_PRESYNC) + count_span(IWS_SPAN_AFTER_GAP), 0);
	r = fpdu_rec(1, 0);
	CHECK_FPDU_AT(r, 1, 1, 11);
	if (r) {
		CHECK_EQ(r->p.dir, IWS_DIR_R2I);
		CHECK_EQ(r->crc, IWS_CRC_BAD);
		CHECK(r->has_msg);
	}
	r = fpdu_rec(1, 1);
	CHECK_FPDU_AT(r, 1, 2, 12);
	if (r)
		CHECK_EQ(r->crc, IWS_CRC_OK);
	CHECK(frames_in_order());

	/* The operations: complete ones wait for the ACK of their last octet
	 * (the SYN+ACK showed the responder acknowledges), then are reported
	 * with it (docs/semantics.md). */
	CHECK_EQ(T.nop, 0);
	CHECK_EQ(nop_found(), 7);
	ack_to(1, (uint32_t)T.sd[0].sb.len);   /* 13: everything the initiator sent */
	CHECK_EQ(T.nop, 5);
	ack_to(0, (uint32_t)T.sd[1].sb.len);   /* 14 */
	CHECK_EQ(T.nop, 7);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(T.op[i].op.type, IWS_OPT_SEND);
		CHECK_EQ(T.op[i].op.msn, 1 + i);
		CHECK(T.op[i].op.complete);
		CHECK(T.op[i].op.has_ack && T.op[i].op.ack_frame == 13);
		CHECK_EQ(T.op[i].op.ack_ns, TS(13) - TS(i == 0 ? 6 : 7));
	}
	CHECK_EQ(T.op[4].op.type, IWS_OPT_WRITE);
	/* it started with its first transmission, in frame 8 */
	CHECK_EQ(T.op[4].op.first_frame, 8);
	CHECK_EQ(T.op[4].op.start_ns, TS(8));
	CHECK_EQ(T.op[4].op.first_inorder_frame, 10);
	CHECK_EQ(T.op[4].op.last_frame, 10);
	CHECK_EQ(T.op[4].op.stall_ns, 0);
	CHECK_EQ(T.op[4].op.retransmissions, 0);
	CHECK_EQ(T.op[4].op.bytes, 600);
	CHECK_EQ(T.op[4].op.stag, 0x77);
	CHECK_EQ(T.op[4].during, 13);
	CHECK(T.op[4].op.complete);
	CHECK_EQ(T.op[5].op.dir, IWS_DIR_R2I);
	CHECK_EQ(T.op[5].op.crc_errors, 1);
	CHECK_EQ(T.op[5].during, 14);
	CHECK(T.op[5].op.has_ack && T.op[5].op.ack_frame == 14);
	CHECK_EQ(T.op[6].op.crc_errors, 0);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->crc_errors, 1);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->segments, 7);

	const struct iws_stream_counts *c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->segments, 6);
	CHECK_EQ(c->bytes, T.sd[0].sb.len);
	CHECK_EQ(c->fpdus, 5);
	CHECK_EQ(c->retrans + c->out_of_order + c->gaps + c->truncated + c->undecodable, 0);
	CHECK_EQ(iws_stream_counts(T.s, 1)->fpdus, 2);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 7);
	CHECK_EQ(T.npdu, 9);
	/* Feeding after finish is ignored; counters stay readable. */
	send_el(1, 2, 2);
	CHECK_EQ(T.npdu, 9);
	CHECK_EQ(iws_stream_counts(T.s, 0)->fpdus, 5);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->segments, 7);
	rec_end();
}

/* Markers on the initiator's FPDUs only (M in the Reply), at every
 * SeqStart + 512k (RFC 5044 §4.3), across the 32-bit sequence wrap. */
static void test_markers_wrap(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 0xFFFFF000u);
	side_init(1, 0x7FFFFFF0u);
	add_mpa(0, 0, F_S, 1, 1);
	add_mpa(1, 1, F_M | F_S, 1, 1);
	T.sd[0].sb.markers = 1;
	for (unsigned i = 0; i < 12; i++)
		add_fpdu(0, sb_send_ulpdu(rec_ub, 1 + i, 0, 1, (uint16_t)(100 + (i * 97) % 700)), 0);
	for (unsigned i = 0; i < 3; i++)
		add_fpdu(1, sb_send_ulpdu(rec_ub, 1 + i, 0, 1, (uint16_t)(300 + i)), 0);
	uint32_t start = sq(0, 24), end = sq(0, (uint32_t)T.sd[0].sb.len);
	CHECK(start > end); /* the stream wraps */
	unsigned grid = 0;
	for (uint32_t q = start; q != end; q++)
		grid += ((q - start) % 512u) == 0;

	syn(0, false);
	syn(1, true);
	send_el(0, 0, 0);                 /* 3 */
	send_el(1, 0, 0);                 /* 4 */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_FULL);
	const struct iws_mpa_dir *d0 = iws_stream_framing(T.s, 0), *d1 = iws_stream_framing(T.s, 1);
	CHECK(d0 && d0->markers && !d0->crc && d0->marker_base == start);
	CHECK(d1 && !d1->markers);
	/* The initiator's stream in 700-octet segments, cut anywhere. */
	uint32_t first = T.sd[0].el[1], total = (uint32_t)T.sd[0].sb.len;
	uint64_t f0 = T.frame + 1;
	for (uint32_t o = first; o < total; o += 700)
		send(0, o, total - o < 700 ? total - o : 700);
	send_el(1, 1, 3);
	CHECK_EQ(count_fpdus(0), 12);
	unsigned markers = 0;
	for (unsigned i = 0; i < 12; i++) {
		const struct rpdu *r = fpdu_rec(0, (int)i);
		uint32_t last = at(0, 2 + i) - 1;
		CHECK_FPDU_AT(r, 0, 1 + i, f0 + (last - first) / 700);
		if (!r)
			continue;
		CHECK_EQ(r->p.first_frame, f0 + (at(0, 1 + i) - first) / 700);
		CHECK_EQ(r->marker_errors, 0);
		CHECK(r->mdir.markers && r->mdir.marker_base == start);
		CHECK_EQ(r->crc, IWS_CRC_NOT_CHECKED);
		CHECK(r->has_msg && r->msn == 1 + i);
		markers += r->n_markers;
	}
	CHECK_EQ(markers, grid);
	CHECK(grid >= 9);
	for (unsigned i = 0; i < 3; i++) {
		const struct rpdu *r = fpdu_rec(1, (int)i);
		CHECK(r && r->n_markers == 0 && r->has_msg && r->msn == 1 + i);
	}
	CHECK_EQ(iws_stream_counts(T.s, 0)->marker_errors, 0);
	CHECK_EQ(iws_stream_marker_deviation(T.s, 0), 0);
	CHECK_EQ(nop_found(), 15);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 15);
	for (int i = 0; i < T.nop; i++)
		CHECK(T.op[i].op.complete);
	rec_end();
}

/* Retransmission of delivered octets, an overlap, an out-of-order segment
 * and the hole before it filled. */
static void test_retrans_ooo(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 7000);
	side_init(1, 9000);
	add_mpa(0, 0, 0, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	for (unsigned i = 0; i < 5; i++)
		add_fpdu(0, sb_send_ulpdu(rec_ub, 1 + i, 0, 1, (uint16_t)(50 + 10 * i)), 0);
	handshake(0);			/* frames 1-4 */
	send_el(0, 1, 1);                        /* 5: F0 */
	send_el(0, 1, 1);                        /* 6: F0 again */
	CHECK_EQ(count_fpdus(0), 1);
	const struct iws_stream_counts *c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->retrans, 1);
	CHECK_EQ(count_span(IWS_SPAN_RETRANS), 1);
	const struct iws_span *sp = find_span(IWS_SPAN_RETRANS, 0);
	if (sp) {
		CHECK_EQ(sp->frame, 6);
		CHECK_EQ(sp->seq, sq(0, at(0, 1)));
		CHECK_EQ(sp->len, len_of(0, 1));
		CHECK_EQ(sp->side, 0);
	}
	send_el(0, 3, 3);                        /* 7: F2 ahead of a hole */
	CHECK_EQ(count_fpdus(0), 1);
	CHECK_EQ(c->out_of_order, 1);
	int64_t ts;
	uint64_t fr;
	CHECK(iws_stream_pending(T.s, &ts, &fr));
	CHECK_EQ(fr, 7);
	CHECK_EQ(ts, TS(7));
	CHECK(iws_stream_buffered(T.s) >= len_of(0, 3));
	send_el(0, 2, 2);                        /* 8: F1 fills the hole */
	CHECK_EQ(c->late, 1);
	CHECK(!iws_stream_pending(T.s, &ts, &fr));
	CHECK_EQ(iws_stream_buffered(T.s), 0);
	CHECK_EQ(count_fpdus(0), 3);
	const struct rpdu *r = fpdu_rec(0, 1);
	CHECK_FPDU_AT(r, 0, 2, 8);
	if (r) {
		CHECK_EQ(r->p.first_frame, 8);
		CHECK_EQ(r->during, 8);
	}
	r = fpdu_rec(0, 2);
	CHECK_FPDU_AT(r, 0, 3, 8);
	if (r) {
		CHECK_EQ(r->p.first_frame, 7);
		CHECK_EQ(r->p.first_ts, TS(7));
		CHECK_EQ(r->p.arrived_frame, 7);
		CHECK_EQ(r->during, 8);
		CHECK(!r->p.gap_before);
	}
	/* F2's octets, carried by frame 7, became part of a PDU of frame 8. */
	int found = 0;
	for (int i = 0; i < T.nspan; i++) {
		sp = &T.span[i].sp;
		if (sp->kind == IWS_SPAN_PART && sp->frame == 7) {
			found++;
			CHECK_EQ(sp->pdu_frame, 8);
			CHECK_EQ(sp->seq, sq(0, at(0, 3)));
			CHECK_EQ(sp->pdu_seq, sq(0, at(0, 3)));
			CHECK_EQ(sp->len, len_of(0, 3));
		}
	}
	CHECK_EQ(found, 1);
	/* F3 with ten octets of F2 in front: an overlap, the ten are a duplicate. */
	send(0, at(0, 4) - 10, len_of(0, 4) + 10); /* 9 */
	CHECK_EQ(c->overlaps, 1);
	CHECK_EQ(c->retrans, 1);
	CHECK_EQ(count_span(IWS_SPAN_RETRANS), 2);
	sp = find_span(IWS_SPAN_RETRANS, 1);
	if (sp) {
		CHECK_EQ(sp->frame, 9);
		CHECK_EQ(sp->seq, sq(0, at(0, 4) - 10));
		CHECK_EQ(sp->len, 10);
	}
	r = fpdu_rec(0, 3);
	CHECK_FPDU_AT(r, 0, 4, 9);
	/* A segment entirely inside the out-of-order data, then a duplicate of
	 * buffered octets: the first copy wins. */
	send(0, at(0, 5) + 20, 10);               /* 10: ahead */
	send(0, at(0, 5) + 20, 10);               /* 11: the same again */
	CHECK_EQ(c->out_of_order, 3);
	CHECK_EQ(c->overlaps, 2);
	send_el(0, 5, 5);                         /* 12: all of F4 */
	r = fpdu_rec(0, 4);
	CHECK_FPDU_AT(r, 0, 5, 12);
	if (r) {
		/* frame 10 carried some of it first */
		CHECK_EQ(r->p.first_frame, 10);
		CHECK_EQ(r->p.first_ts, TS(10));
		CHECK_EQ(r->p.arrived_frame, 12);
	}
	CHECK_EQ(c->late, 2);
	CHECK_EQ(c->overlaps, 3);
	/* Frame 12's copy of the octets frame 10 carried is the duplicate. */
	CHECK_EQ(count_span(IWS_SPAN_RETRANS), 4);
	sp = find_span(IWS_SPAN_RETRANS, 3);
	if (sp) {
		CHECK_EQ(sp->frame, 12);
		CHECK_EQ(sp->seq, sq(0, at(0, 5) + 20));
		CHECK_EQ(sp->len, 10);
	}
	found = 0;
	for (int i = 0; i < T.nspan; i++) {
		sp = &T.span[i].sp;
		if (sp->kind == IWS_SPAN_PART && sp->pdu_seq == sq(0, at(0, 5))) {
			static const uint32_t o[3] = { 0, 20, 30 };
			static const uint64_t f[3] = { 12, 10, 12 };
			if (found < 3) {
				CHECK_EQ(sp->seq, sq(0, at(0, 5) + o[found]));
				CHECK_EQ(sp->frame, f[found]);
				CHECK_EQ(sp->pdu_frame, 12);
			}
			found++;
		}
	}
	CHECK_EQ(found, 3);
	CHECK_EQ(count_fpdus(0), 5);
	CHECK_EQ(nop_found(), 5);
	CHECK_EQ(c->gaps, 0);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 5);
	for (int i = 0; i < T.nop; i++)
		CHECK(T.op[i].op.complete);
	rec_end();
}

/* A hole the peer acknowledged past is a gap (RFC 9293: the receiver had
 * those octets): the tracker learns it and the Write across it is
 * incomplete; framing is found again on the next FPDU (its CRC proves it). */
static void test_gap_by_ack(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 100);
	side_init(1, 200);
	add_mpa(0, 0, F_C, 0, 0);
	add_mpa(1, 1, F_C, 0, 0);
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x55, 0, 0, 100), 1);     /* el 1 */
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x55, 100, 0, 100), 1);   /* el 2: lost */
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x55, 200, 1, 100), 1);   /* el 3 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 8), 1);           /* el 4 */
	handshake(F_C);			/* 1-4 */
	send_el(0, 1, 1);                        /* 5 */
	CHECK_EQ(T.nev, 1);
	ack_to(1, at(0, 3));                     /* 6: the peer had el 2 */
	CHECK_EQ(count_ev(IWS_SEV_GAP), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_GAP, 0);
	if (e) {
		CHECK_EQ(e->side, 0);
		CHECK_EQ(e->dir, IWS_DIR_I2R);
		CHECK_EQ(e->seq, sq(0, at(0, 2)));
		CHECK_EQ(e->len, len_of(0, 2));
		CHECK_EQ(e->frame, 6);
		CHECK_EQ(e->prev_frame, 5);
	}
	CHECK_EQ(count_ev(IWS_SEV_FRAMING_LOST), 1);
	const struct iws_stream_counts *c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->gaps, 1);
	CHECK_EQ(c->gap_bytes, len_of(0, 2));
	CHECK_EQ(c->lost, 1);
	send_el(0, 3, 3);                        /* 7 */
	CHECK_EQ(count_ev(IWS_SEV_FRAMING_FOUND), 1);
	e = find_ev(IWS_SEV_FRAMING_FOUND, 0);
	if (e) {
		CHECK_EQ(e->frame, 7);
		CHECK_EQ(e->seq, sq(0, at(0, 3)));
	}
	CHECK_EQ(c->resyncs, 1);
	CHECK_EQ(c->skipped_bytes, 0);
	const struct rpdu *r = fpdu_rec(0, 1);
	CHECK_FPDU_AT(r, 0, 3, 7);
	if (r) {
		CHECK(r->p.gap_before);
		CHECK_EQ(r->crc, IWS_CRC_OK);
		CHECK_EQ(r->during, 7);
	}
	CHECK_EQ(T.nop, 1);
	if (T.nop == 1) {
		const struct iws_op *op = &T.op[0].op;
		CHECK_EQ(op->type, IWS_OPT_WRITE);
		CHECK(!op->complete);
		CHECK(op->flags & IWS_OPF_GAP);
		CHECK_EQ(op->segments, 2);
		CHECK_EQ(op->bytes, 200);
		CHECK_EQ(op->first_frame, 5);
		CHECK_EQ(op->last_frame, 7);
		CHECK_EQ(T.op[0].during, 7);
	}
	send_el(0, 4, 4);                        /* 8 */
	r = fpdu_rec(0, 2);
	CHECK_FPDU_AT(r, 0, 4, 8);
	if (r)
		CHECK(!r->p.gap_before);
	CHECK_EQ(nop_found(), 2);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->ops_incomplete, 1);
	/* An acknowledgement of octets already delivered changes nothing. */
	ack_to(1, at(0, 4));
	CHECK_EQ(count_ev(IWS_SEV_GAP), 1);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* A hole inside an FPDU whose length is known: framing goes on, the FPDU is
 * reported with its missing octets, and the spans name only the octets each
 * frame carried (none for the hole: no frame carried it). */
static void test_hole_in_fpdu(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 0xFFFFFF00u);
	side_init(1, 500);
	add_mpa(0, 0, F_C, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x21, 0, 1, 700), 1);       /* el 1 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 16), 1);            /* el 2 */
	handshake(F_C);                                                /* 1-4 */
	uint32_t w = at(0, 1), n = len_of(0, 1);
	send(0, w, 100);                        /* 5 */
	ack_to(1, w + 400);                     /* 6: the peer had [100, 400) */
	CHECK_EQ(count_ev(IWS_SEV_GAP), 1);
	CHECK_EQ(count_ev(IWS_SEV_FRAMING_LOST), 0);
	send(0, w + 400, n - 400);              /* 7 */
	send_el(0, 2, 2);                       /* 8 */
	CHECK_EQ(count_fpdus(0), 2);
	const struct rpdu *r = fpdu_rec(0, 0);
	CHECK_FPDU_AT(r, 0, 1, 7);
	if (r) {
		CHECK(r->p.truncated);
		CHECK_EQ(r->p.first_hole, 100);
		CHECK_EQ(r->crc, IWS_CRC_UNVERIFIABLE);
		CHECK_EQ(r->p.first_frame, 5);
		CHECK_EQ(r->p.arrived_frame, 7);
		CHECK(r->has_msg && r->opcode == IWS_OP_CODE_WRITE);
	}
	r = fpdu_rec(0, 1);
	CHECK_FPDU_AT(r, 0, 2, 8);
	if (r)
		CHECK(!r->p.gap_before && r->crc == IWS_CRC_OK);
	int parts = 0;
	for (int i = 0; i < T.nspan; i++) {
		const struct iws_span *sp = &T.span[i].sp;
		if (sp->kind != IWS_SPAN_PART || sp->pdu_seq != sq(0, w))
			continue;
		if (parts == 0) {
			CHECK_EQ(sp->frame, 5);
			CHECK_EQ(sp->seq, sq(0, w));
			CHECK_EQ(sp->len, 100);
		} else if (parts == 1) {
			CHECK_EQ(sp->frame, 7);
			CHECK_EQ(sp->seq, sq(0, w + 400));
			CHECK_EQ(sp->len, n - 400);
		}
		CHECK_EQ(sp->pdu_frame, 7);
		parts++;
	}
	CHECK_EQ(parts, 2);
	CHECK_EQ(nop_found(), 2);
	CHECK(!T.op[0].op.complete);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* Octets cut by the snapshot length: the FPDU is framed from its length
 * field, reported truncated, its CRC unverifiable; the next one is whole. */
static void test_snaplen(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 300);
	side_init(1, 400);
	add_mpa(0, 0, F_C, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 200), 1);       /* el 1: cut at 60 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 20), 1);        /* el 2: whole */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 3, 0, 1, 200), 1);       /* el 3: cut at 10 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 4, 0, 1, 20), 1);        /* el 4 */
	handshake(0);
	CHECK(iws_stream_framing(T.s, 0)->crc && iws_stream_framing(T.s, 1)->crc);
	send_cap(0, at(0, 1), len_of(0, 1), 60, IWS_TCP_PSH); /* 5 */
	send_el(0, 2, 2);                                      /* 6 */
	send_cap(0, at(0, 3), len_of(0, 3), 10, IWS_TCP_PSH); /* 7 */
	send_el(0, 4, 4);                                      /* 8 */
	CHECK_EQ(count_fpdus(0), 4);
	const struct rpdu *r = fpdu_rec(0, 0);
	CHECK_FPDU_AT(r, 0, 1, 5);
	if (r) {
		CHECK(r->p.truncated);
		CHECK_EQ(r->p.first_hole, 60);
		CHECK_EQ(r->crc, IWS_CRC_UNVERIFIABLE);
		CHECK(r->has_msg && r->msn == 1);
		CHECK_EQ(r->ulpdu_len, 18 + 200);
		CHECK_EQ(r->during, 5);
	}
	r = fpdu_rec(0, 1);
	CHECK_FPDU_AT(r, 0, 2, 6);
	if (r) {
		CHECK(!r->p.truncated && !r->p.gap_before);
		CHECK_EQ(r->crc, IWS_CRC_OK);
	}
	r = fpdu_rec(0, 2);
	CHECK_FPDU_AT(r, 0, 3, 7);
	if (r) {
		CHECK(r->p.truncated);
		CHECK_EQ(r->p.first_hole, 10);
		CHECK(!r->has_msg);       /* the DDP header was not captured */
		CHECK_EQ(r->crc, IWS_CRC_UNVERIFIABLE);
	}
	r = fpdu_rec(0, 3);
	CHECK_FPDU_AT(r, 0, 4, 8);
	if (r)
		CHECK_EQ(r->crc, IWS_CRC_OK);
	const struct iws_stream_counts *c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->truncated, 2);
	CHECK_EQ(c->undecodable, 1);
	CHECK_EQ(c->snap_bytes, len_of(0, 1) - 60 + len_of(0, 3) - 10);
	CHECK_EQ(c->gaps, 0);
	CHECK_EQ(c->fpdus, 4);
	CHECK_EQ(count_ev(IWS_SEV_GAP) + count_ev(IWS_SEV_FRAMING_LOST), 0);
	CHECK_EQ(nop_found(), 3);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 3);
	/* The Send whose payload the snapshot length cut is complete all the
	 * same (its header says what it was), marked truncated. */
	for (int i = 0; i < T.nop; i++) {
		CHECK(T.op[i].op.complete);
		CHECK_EQ(!!(T.op[i].op.flags & IWS_OPF_TRUNCATED), T.op[i].op.msn == 1);
	}
	rec_end();
}

/* A slice cut the header of the second FPDU of a segment: framing is found
 * again at the next segment's start (an FPDU that begins there and ends
 * within it), and the Read Request the slice hid is inferred from the
 * response that answers nothing captured (RFC 5040 §5.2.1: in order). */
static void test_snaplen_resync(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 300);
	side_init(1, 400);
	add_mpa(0, 0, F_C, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 200), 1);                        /* el 1 */
	add_fpdu(0, sb_read_req_ulpdu(rec_ub, 1, 0x10, 0, 100, 0x20, 0), 1);        /* el 2: hidden */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 200), 1);                        /* el 3 */
	add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x10, 0, 1, 100), 1); /* el 1 */
	handshake(0);
	/* 5: el 1 and el 2 in one segment, 60 octets of it captured */
	send_cap(0, at(0, 1), len_of(0, 1) + len_of(0, 2), 60, IWS_TCP_PSH);
	send_cap(0, at(0, 3), len_of(0, 3), 60, IWS_TCP_PSH); /* 6: sliced too */
	send_el(1, 1, 1);                                      /* 7 */
	CHECK_EQ(count_fpdus(0), 2);
	CHECK_FPDU_AT(fpdu_rec(0, 0), 0, 1, 5);
	const struct rpdu *r = fpdu_rec(0, 1);
	CHECK_FPDU_AT(r, 0, 3, 6);
	if (r) {
		CHECK(r->p.truncated && r->has_msg && r->msn == 2);
		CHECK_EQ(r->crc, IWS_CRC_UNVERIFIABLE);
	}
	CHECK_EQ(iws_stream_counts(T.s, 0)->segment_resyncs, 1);
	CHECK_EQ(count_fpdus(1), 1);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->hidden_requests, 1);
	int reads = 0;
	for (int i = 0; i < T.nop; i++) {
		if (T.op[i].op.type != IWS_OPT_READ)
			continue;
		reads++;
		CHECK(T.op[i].op.complete);
		CHECK_EQ(T.op[i].op.first_frame, 5);   /* the segment that hid its request */
		CHECK_EQ(T.op[i].op.last_frame, 7);
		CHECK_EQ(T.op[i].op.dir, 0);
	}
	CHECK_EQ(reads, 1);
	CHECK_EQ(T.nop, 3);
	rec_end();
}

/* FIN and RST events; the operations in flight at the end are reported
 * with the flag given; what is buffered is pending until the end. */
static void test_fin_rst_finish(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 1000);
	side_init(1, 2000);
	add_mpa(0, 0, 0, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_read_req_ulpdu(rec_ub, 1, 0x10, 0, 4000, 0x20, 0), 0);           /* el 1 */
	add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x10, 0, 0, 1000), 0); /* el 1 */
	add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x10, 1000, 0, 1000), 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 0, 100), 0);                            /* el 2 */
	handshake(0);			/* 1-4 */
	send_el(0, 1, 1);                       /* 5 */
	send_el(1, 1, 1);                       /* 6 */
	send(1, at(1, 2), 500);                 /* 7: half an FPDU */
	send_el(0, 2, 2);                       /* 8: a Send, not its last segment */
	int64_t ts;
	uint64_t fr;
	CHECK(iws_stream_pending(T.s, &ts, &fr));
	CHECK_EQ(fr, 7);
	CHECK_EQ(ts, TS(7));
	/* The half FPDU waits; the Send of a later frame does not wait for it
	 * (whatever cuts it settles it later). */
	CHECK_EQ(iws_stream_buffered(T.s), 500);
	CHECK_EQ(count_fpdus(0), 2);
	seg_full(0, sq(0, at(0, 3)), 0, IWS_TCP_FIN | IWS_TCP_ACK, NULL, 0, 0);  /* 9 */
	CHECK_EQ(count_ev(IWS_SEV_FIN), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_FIN, 0);
	if (e) {
		CHECK_EQ(e->side, 0);
		CHECK_EQ(e->seq, sq(0, at(0, 3)));
		CHECK_EQ(e->frame, 9);
	}
	CHECK(iws_stream_counts(T.s, 0)->fin);
	CHECK(!iws_stream_done(T.s));
	seg_full(1, sq(1, at(1, 2) + 500), 0, IWS_TCP_RST, NULL, 0, 0);         /* 10 */
	CHECK_EQ(count_ev(IWS_SEV_RST), 1);
	e = find_ev(IWS_SEV_RST, 0);
	if (e) {
		CHECK_EQ(e->side, 1);
		CHECK_EQ(e->seq, sq(1, at(1, 2) + 500));
		CHECK_EQ(e->frame, 10);
	}
	CHECK(iws_stream_counts(T.s, 1)->rst && !iws_stream_counts(T.s, 1)->fin);
	CHECK(!iws_stream_done(T.s));
	CHECK_EQ(T.nop, 0);
	finish(IWS_OPF_ABORTED);
	/* The half FPDU is reported as what was captured of it; then the Read
	 * and the Send, oldest first, aborted. */
	CHECK_EQ(iws_stream_counts(T.s, 1)->partial_at_end, 1);
	const struct rpdu *r = fpdu_rec(1, 1);
	CHECK_FPDU_AT(r, 1, 2, 7);
	if (r) {
		CHECK(r->p.truncated);
		CHECK_EQ(r->p.first_hole, 500);
		CHECK_EQ(r->during, 0);
	}
	CHECK_EQ(T.nop, 2);
	if (T.nop == 2) {
		CHECK_EQ(T.op[0].op.type, IWS_OPT_READ);
		CHECK_EQ(T.op[0].op.flags & IWS_OPF_ABORTED, IWS_OPF_ABORTED);
		CHECK(!T.op[0].op.complete);
		CHECK_EQ(T.op[0].op.segments, 3);
		CHECK_EQ(T.op[0].during, 0);
		CHECK_EQ(T.op[1].op.type, IWS_OPT_SEND);
		CHECK(T.op[1].op.flags & IWS_OPF_ABORTED);
		CHECK(!(T.op[1].op.flags & IWS_OPF_UNFINISHED));
	}
	rec_end();

	/* Both FINs reached in order: done. The flag given to finish is the
	 * one the operations in flight get. */
	rec_begin(false, false, NULL);
	side_init(0, 1000);
	side_init(1, 2000);
	add_mpa(0, 0, 0, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 0, 100), 0);
	handshake(0);
	/* The FIN rides on the last data segment of side 0, which arrives
	 * before the one in front of it. */
	seg_full(0, sq(0, at(0, 1) + 50), 0, IWS_TCP_FIN | IWS_TCP_PSH, T.sd[0].sb.buf + at(0, 1) + 50,
		 len_of(0, 1) - 50, len_of(0, 1) - 50);   /* 5 */
	CHECK_EQ(count_ev(IWS_SEV_FIN), 1);
	seg_full(1, sq(1, at(1, 1)), 0, IWS_TCP_FIN, NULL, 0, 0);     /* 6 */
	CHECK(!iws_stream_done(T.s));
	send(0, at(0, 1), 50);                                         /* 7 */
	CHECK(iws_stream_done(T.s));
	CHECK_EQ(count_fpdus(0), 1);
	CHECK_EQ(T.nop, 0);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 1);
	if (T.nop == 1) {
		CHECK(T.op[0].op.flags & IWS_OPF_UNFINISHED);
		CHECK(!(T.op[0].op.flags & IWS_OPF_ABORTED));
	}
	rec_end();
}

/* Memory limits: a tiny max_buf drops what does not fit (an event, a
 * count, spans), yet an MPA Request is recognised (IWS_STREAM_FLOOR), and
 * small FPDUs are framed again after; a tiny out-of-order limit makes the
 * hole a gap. */
static void test_limits(void)
{
	struct iws_stream_limits lim = { .max_buf = 1 };
	rec_begin(true, true, &lim);
	side_init(0, 3000);
	side_init(1, 4000);
	add_mpa(0, 0, F_C | F_S, 2, 2);
	add_mpa(1, 1, F_C | F_S, 2, 2);
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x66, 0, 1, 6000), 1);      /* el 1 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 30), 1);            /* el 2 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 30), 1);            /* el 3 */
	handshake(F_C);			/* 1-4 */
	CHECK_EQ(T.npdu, 2);
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_FULL);
	send(0, at(0, 1), 3000);               /* 5 */
	CHECK_EQ(count_ev(IWS_SEV_LIMIT), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_LIMIT, 0);
	if (e) {
		CHECK_EQ(e->side, 0);
		CHECK_EQ(e->seq, sq(0, at(0, 1)));
		CHECK_EQ(e->len, 3000);
		CHECK_EQ(e->frame, 5);
	}
	const struct iws_span *sp = find_span(IWS_SPAN_LIMIT, 0);
	CHECK(sp && sp->frame == 5 && sp->seq == sq(0, at(0, 1)) && sp->len == 3000);
	send(0, at(0, 1) + 3000, len_of(0, 1) - 3000);   /* 6 */
	const struct iws_stream_counts *c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->buf_limit_hits, 2);
	CHECK_EQ(count_ev(IWS_SEV_LIMIT), 2);
	CHECK_EQ(count_span(IWS_SPAN_LIMIT), 2);
	CHECK_EQ(c->skipped_bytes, len_of(0, 1));
	CHECK_EQ(count_fpdus(0), 0);
	send_el(0, 2, 3);                      /* 7: small FPDUs fit */
	CHECK_EQ(count_fpdus(0), 2);
	const struct rpdu *r = fpdu_rec(0, 0);
	CHECK_FPDU_AT(r, 0, 2, 7);
	if (r) {
		CHECK(r->p.gap_before);
		CHECK_EQ(r->crc, IWS_CRC_OK);
	}
	CHECK(T.lim.buf_peak <= 2 * IWS_STREAM_FLOOR);
	CHECK_EQ(nop_found(), 2);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 2);
	rec_end();

	/* Out-of-order limit: a hole with more behind it than allowed is a gap. */
	struct iws_stream_limits lim2 = { .max_ooo_dir = 100 };
	rec_begin(true, true, &lim2);
	side_init(0, 3000);
	side_init(1, 4000);
	add_mpa(0, 0, F_C, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 100), 1);            /* el 1: lost */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 100), 1);            /* el 2 */
	handshake(0);
	send_el(0, 2, 2);                      /* 5 */
	c = iws_stream_counts(T.s, 0);
	CHECK_EQ(c->ooo_limit_hits, 1);
	CHECK_EQ(c->gaps, 1);
	CHECK_EQ(count_ev(IWS_SEV_GAP), 1);
	e = find_ev(IWS_SEV_GAP, 0);
	CHECK(e && e->seq == sq(0, at(0, 1)) && e->len == len_of(0, 1) && e->frame == 5);
	CHECK_EQ(T.lim.ooo_used, 0);
	CHECK(T.lim.ooo_peak > 100);
	r = fpdu_rec(0, 0);
	CHECK_FPDU_AT(r, 0, 2, 5);
	if (r)
		CHECK(r->p.gap_before);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

int main(void)
{
	test_handshake();
	test_markers_wrap();
	test_retrans_ooo();
	test_gap_by_ack();
	test_hole_in_fpdu();
	test_snaplen();
	test_snaplen_resync();
	test_fin_rst_finish();
	test_limits();
	return check_done("test_stream");
}
