// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine's cross-direction order (stream.h: PDUs reach the sink
 * in the order the engine can report them, settle_frame: the frames that
 * completed them, but for those a capture gap or a FIN cut, or that lay
 * behind a gap, which are settled when the gap or FIN is seen): FPDUs cut
 * by the end, by a FIN or by an acknowledged hole, octets behind a hole, a
 * chunk drained from behind one. Hand-cut TCP segments in, the sink's reports out
 * (see test_stream.c).
 */
#include "check.h"
#include "stream_rec.h"

/* At the end both directions hold an incomplete FPDU; they are reported in
 * the order of the frames that carried them whichever side is flushed first:
 * the Read Request (side 1, frame 5) before its response (side 0, frame 6). */
static void test_finish_order(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 1000);
	side_init(1, 2000);
	add_mpa(1, 0, 0, 0, 0);
	add_mpa(0, 1, 0, 0, 0);
	add_fpdu(1, sb_read_req_ulpdu(rec_ub, 1, 0x10, 0, 100, 0x20, 0), 0);
	add_fpdu(0, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x10, 0, 1, 100), 0);
	syn(1, false);
	syn(0, true);
	send_el(1, 0, 0);                       /* 3: Request */
	send_el(0, 0, 0);                       /* 4: Reply */
	CHECK_EQ(iws_stream_init_side(T.s), 1);
	send(1, at(1, 1), 30);                  /* 5: most of the Read Request */
	send(0, at(0, 1), 20);                  /* 6: the response's headers */
	CHECK_EQ(count_fpdus(-1), 0);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(count_fpdus(-1), 2);
	CHECK(frames_in_order());
	const struct rpdu *r = fpdu_rec(-1, 0);
	CHECK_FPDU_AT(r, 1, 1, 5);
	if (r) {
		CHECK(r->p.truncated && r->has_msg);
		CHECK_EQ(r->opcode, IWS_OP_CODE_READ_REQ);
		CHECK_EQ(r->p.dir, IWS_DIR_I2R);
	}
	r = fpdu_rec(-1, 1);
	CHECK_FPDU_AT(r, 0, 1, 6);
	if (r) {
		CHECK(r->p.truncated && r->has_msg);
		CHECK_EQ(r->note.request_frame, 5);
	}
	CHECK_EQ(iws_stream_tracker_counts(T.s)->orphan_responses, 0);
	CHECK_EQ(T.nop, 1);
	if (T.nop == 1) {
		CHECK_EQ(T.op[0].op.type, IWS_OPT_READ);
		CHECK(T.op[0].op.has_latency);
		CHECK_EQ(T.op[0].op.latency_ns, TS(6) - TS(5));
		CHECK(T.op[0].op.flags & IWS_OPF_TRUNCATED);
	}
	CHECK_EQ(iws_stream_counts(T.s, 0)->partial_at_end, 1);
	CHECK_EQ(iws_stream_counts(T.s, 1)->partial_at_end, 1);
	rec_end();
}

/* An FPDU that a FIN, or a hole the peer acknowledges, cuts belongs to the
 * frame of its last captured octet (5) but is settled only in the frame
 * that cuts it (7); the other direction's PDU of frame 6 does not wait for
 * it (a single-pass dissector shows every PDU where it belongs). */
static void test_truncated_order(void)
{
	for (int how = 0; how < 2; how++) {
		rec_begin(true, false, NULL);
		side_init(0, 1000);
		side_init(1, 2000);
		add_mpa(0, 0, 0, 0, 0);
		add_mpa(1, 1, 0, 0, 0);
		add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 200), 0);
		add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 0);
		handshake(0);                           /* 1-4 */
		send(0, at(0, 1), 100);                 /* 5: half of side 0's FPDU */
		send_el(1, 1, 1);                       /* 6: side 1's, reported now */
		CHECK_EQ(count_fpdus(-1), 1);
		const struct rpdu *r = fpdu_rec(-1, 0);
		CHECK_FPDU_AT(r, 1, 1, 6);
		if (r)
			CHECK(r->during == 6 && r->p.settle_frame == 6);
		if (how == 0)                           /* 7 */
			seg_full(0, sq(0, at(0, 1) + 100), 0, IWS_TCP_FIN, NULL, 0, 0);
		else
			ack_to(1, at(0, 2));
		CHECK_EQ(count_fpdus(-1), 2);
		CHECK(settled_in_order());
		r = fpdu_rec(-1, 1);
		CHECK_FPDU_AT(r, 0, 1, 5);
		if (r) {
			CHECK(r->p.truncated);
			CHECK_EQ(r->p.first_hole, 100);
			CHECK(r->during == 7 && r->p.settle_frame == 7);
		}
		CHECK_EQ(iws_stream_counts(T.s, 0)->partial_at_end, how == 0);
		CHECK_EQ(iws_stream_counts(T.s, 0)->gaps, how == 1);
		CHECK_EQ(iws_stream_counts(T.s, 1)->order_forced, 0);
		finish(IWS_OPF_UNFINISHED);
		rec_end();
	}
}

/* Octets behind a hole, buffered out of order, hold nothing back. Should
 * the hole prove a capture gap (the peer's ACK, frame 8, passes it), their
 * FPDUs belong to the frame that carried them (6) and are settled in 8; a
 * retransmission that fills it completes them in its own frame (8). The
 * other direction's PDU of frame 7 is reported in 7 either way. */
static void test_gap_order(void)
{
	for (int how = 0; how < 2; how++) {
		rec_begin(true, false, NULL);
		side_init(0, 1000);
		side_init(1, 2000);
		add_mpa(0, 0, F_C, 0, 0);
		add_mpa(1, 1, 0, 0, 0);
		add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 40), 1);      /* el 1: lost */
		add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 40), 1);      /* el 2 */
		add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 1);
		handshake(F_C);                         /* 1-4 */
		ack_to(0, at(1, 1));                    /* 5 */
		send_el(0, 2, 2);                       /* 6: ahead of the hole */
		send_el(1, 1, 1);                       /* 7: reported now */
		CHECK_EQ(count_fpdus(-1), 1);
		if (how == 0)
			ack_to(1, at(0, 2));            /* 8: the peer had el 1 */
		else
			send_el(0, 1, 1);               /* 8: el 1 retransmitted */
		CHECK(settled_in_order());
		CHECK_EQ(count_fpdus(-1), how == 0 ? 2 : 3);
		const struct rpdu *r = fpdu_rec(1, 0);
		CHECK_FPDU_AT(r, 1, 1, 7);
		if (r)
			CHECK_EQ(r->during, 7);
		r = fpdu_rec(0, how == 0 ? 0 : 1);
		CHECK_FPDU_AT(r, 0, 2, how == 0 ? 6 : 8);
		if (r) {
			CHECK_EQ(r->p.gap_before, how == 0);
			CHECK_EQ(r->p.first_frame, 6);
			CHECK(r->during == 8 && r->p.settle_frame == 8);
		}
		CHECK_EQ(iws_stream_counts(T.s, 1)->order_forced, 0);
		finish(IWS_OPF_UNFINISHED);
		rec_end();
	}
}

/* A chunk drained from behind a hole: the ACK of frame 8 proves the hole a
 * gap, which cuts one FPDU (it belongs to frame 6, where its last captured
 * octet came) and lets the chunk behind it start the next, which the end
 * cuts. Both are settled after the other direction's PDU of frame 7. */
static void test_chunk_order(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 1000);
	side_init(1, 2000);
	add_mpa(0, 0, 0, 0, 0);
	add_mpa(1, 1, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 174), 0);      /* el 1: 200 octets */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 174), 0);      /* el 2 */
	add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 0);
	handshake(0);                           /* 1-4 */
	uint32_t a = at(0, 1);
	CHECK_EQ(len_of(0, 1), 200);
	send(0, a, 100);                        /* 5 */
	send(0, a + 150, 100);                  /* 6: after a hole, into el 2 */
	send_el(1, 1, 1);                       /* 7 */
	CHECK_EQ(count_fpdus(1), 1);
	ack_to(1, a + 150);                     /* 8: the hole is a gap */
	CHECK_EQ(count_fpdus(0), 1);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(count_fpdus(-1), 3);
	CHECK(settled_in_order());
	CHECK_FPDU_AT(fpdu_rec(-1, 0), 1, 1, 7);
	CHECK_FPDU_AT(fpdu_rec(-1, 1), 0, 1, 6);
	CHECK_FPDU_AT(fpdu_rec(-1, 2), 0, 2, 6);
	const struct rpdu *r = fpdu_rec(-1, 1);
	if (r)
		CHECK(r->p.truncated && r->p.first_frame == 5 && r->during == 8);
	CHECK_EQ(iws_stream_counts(T.s, 1)->order_forced, 0);
	rec_end();
}

int main(void)
{
	test_finish_order();
	test_truncated_order();
	test_gap_order();
	test_chunk_order();
	return check_done("test_stream_order");
}
