// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine (stream.h) without (all or part of) the MPA handshake:
 * captures that start mid-stream (both directions hunting, and the order in
 * which their PDUs reach the tracker), one direction only, a rejected
 * connection, a stream that is not iWARP. Hand-cut TCP segments in, the
 * sink's PDUs, operations, spans and events out (see test_stream.c).
 */
#include "check.h"
#include "stream_rec.h"

/*
 * A capture that starts mid-stream, both directions hunting: Read Requests
 * (small FPDUs) one way, three Read Responses per Read the other way. The
 * responder's side validates its FPDU chain first; its responses must wait
 * until the requester's side has found its requests, so that the tracker
 * sees every request before its responses (RFC 5040 §5.2.1) and matches
 * every Read.
 */
static void test_midstream_reads(void)
{
	enum { N = 6 };
	rec_begin(true, true, NULL);
	side_init(0, 0x10000000u);
	side_init(1, 0x20000000u);
	add_raw(0, NULL, 16);               /* the tail of an FPDU before the capture */
	add_raw(1, NULL, 16);
	for (unsigned i = 1; i <= N; i++) {
		add_fpdu(0, sb_read_req_ulpdu(rec_ub, i, 0x1000 + i, 0x10000ull * i, 3000, 0x99, 0x5000), 0);
		for (unsigned j = 0; j < 3; j++)
			add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x1000 + i,
						    0x10000ull * i + 1000 * j, j == 2, 1000), 0);
	}
	/* Frames 4i+1: request i (with the tail before the first); 4i+2..4i+4
	 * its responses. */
	for (unsigned i = 1; i <= N; i++) {
		if (i == 1)
			send_el(0, 0, 1);
		else
			send_el(0, i, i);
		for (unsigned j = 0; j < 3; j++) {
			unsigned el = 1 + 3 * (i - 1) + j;
			if (el == 1)
				send_el(1, 0, 1);
			else
				send_el(1, el, el);
		}
		if (i == 1) {
			/* The responder's side has its chain; its PDUs wait for the
			 * requester's side, still hunting since frame 1. */
			CHECK_EQ(count_fpdus(1), 0);
			CHECK(iws_stream_buffered(T.s) > 0);
			int64_t ts;
			uint64_t fr;
			CHECK(iws_stream_pending(T.s, &ts, &fr));
			CHECK_EQ(fr, 1);
			CHECK_EQ(ts, TS(1));
		}
	}
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_INFERRED);
	CHECK_EQ(count_fpdus(0), N);
	CHECK_EQ(count_fpdus(1), 3 * N);
	CHECK(frames_in_order());
	for (unsigned i = 1; i <= N; i++) {
		const struct rpdu *r = fpdu_rec(0, (int)i - 1);
		CHECK_FPDU_AT(r, 0, i, 4 * (i - 1) + 1);
		if (r) {
			CHECK_EQ(r->opcode, IWS_OP_CODE_READ_REQ);
			CHECK_EQ(r->p.gap_before, i == 1);
		}
		for (unsigned j = 0; j < 3; j++) {
			r = fpdu_rec(1, (int)(3 * (i - 1) + j));
			CHECK_FPDU_AT(r, 1, 1 + 3 * (i - 1) + j, 4 * (i - 1) + 2 + j);
			if (r) {
				CHECK_EQ(r->note.request_frame, 4 * (i - 1) + 1);
				CHECK(!(r->note.flags & (IWS_SEGF_ORPHAN_RESPONSE | IWS_SEGF_STAG_MISMATCH)));
			}
		}
	}
	/* Captured past the connection's start: the complete Reads wait for
	 * the requester's first ACK of the responses (issue 31 item 6), which
	 * comes next. */
	CHECK_EQ(T.nop, 0);
	CHECK_EQ(nop_found(), N);
	ack_to(0, (uint32_t)T.sd[1].sb.len);
	CHECK_EQ(T.nop, N);
	for (int i = 0; i < T.nop && i < N; i++) {
		const struct iws_op *op = &T.op[i].op;
		uint64_t req = 4 * (uint64_t)i + 1, last = req + 3;
		CHECK_EQ(op->type, IWS_OPT_READ);
		CHECK(op->complete);
		CHECK_EQ(op->stag, 0x1000 + (uint32_t)i + 1);
		CHECK_EQ(op->first_frame, req);
		CHECK_EQ(op->last_frame, last);
		CHECK_EQ(op->response_frame, req + 1);
		CHECK_EQ(op->segments, 4);
		CHECK_EQ(op->bytes, 3000);
		CHECK(op->has_latency);
		CHECK_EQ(op->latency_ns, TS(last) - TS(req));
		CHECK(op->has_ack && op->ack_frame == 4 * N + 1);
	}
	const struct iws_tracker_counts *tc = iws_stream_tracker_counts(T.s);
	CHECK_EQ(tc->orphan_responses, 0);
	CHECK_EQ(tc->stag_mismatches, 0);
	for (int side = 0; side < 2; side++) {
		const struct iws_stream_counts *c = iws_stream_counts(T.s, side);
		CHECK_EQ(c->resyncs, 1);
		CHECK_EQ(c->skipped_bytes, 16);
		CHECK_EQ(c->order_forced, 0);
	}
	/* The tails before the first boundaries were passed over. */
	CHECK_EQ(count_span(IWS_SPAN_PRESYNC), 2);
	for (int k = 0; k < 2; k++) {
		const struct iws_span *sp = find_span(IWS_SPAN_PRESYNC, k);
		if (sp) {
			CHECK_EQ(sp->seq, sq(sp->side, 0));
			CHECK_EQ(sp->len, 16);
			CHECK_EQ(sp->frame, sp->side == 0 ? 1 : 2);
		}
	}
	CHECK_EQ(count_ev(IWS_SEV_INFERRED), 1);
	CHECK_EQ(count_ev(IWS_SEV_FRAMING_FOUND), 2);
	const struct iws_mpa_dir *d0 = iws_stream_framing(T.s, 0);
	CHECK(d0 && !d0->markers && !d0->crc);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, N);
	rec_end();
}

/*
 * One direction hunts and never validates (an FPDU header whose body never
 * comes): the other direction's PDUs wait for it, but at most max_held of
 * them; past that the oldest go out of cross-direction order, counted.
 */
static void test_midstream_held_bound(void)
{
	struct iws_stream_limits lim = { .max_held = 4 };
	rec_begin(true, true, &lim);
	side_init(0, 5000);
	side_init(1, 6000);
	static const uint8_t stuck[8] = { 0xEA, 0x60, 0x41, 0x43, 0, 0, 0, 0 }; /* 60000 octets to come */
	add_raw(0, stuck, 8);
	add_raw(1, NULL, 16);
	for (unsigned i = 0; i < 10; i++)
		add_fpdu(1, sb_send_ulpdu(rec_ub, 7 + i, 0, 1, 40), 0);
	send_el(0, 0, 0);                           /* 1 */
	send_el(1, 0, 1);                           /* 2 */
	for (unsigned i = 2; i <= 10; i++)
		send_el(1, i, i);                   /* 3..11 */
	/* Side 1 validated at frame 4; its first four PDUs waited, then each
	 * new one pushed the oldest out. */
	CHECK_EQ(count_fpdus(1), 6);
	for (int i = 0; i < 6; i++) {
		const struct rpdu *r = fpdu_rec(1, i);
		CHECK_FPDU_AT(r, 1, 1 + (unsigned)i, 2 + (uint64_t)i);
		if (r)
			CHECK_EQ(r->during, 6 + (uint64_t)i);
	}
	CHECK_EQ(iws_stream_counts(T.s, 1)->order_forced, 6);
	CHECK_EQ(iws_stream_counts(T.s, 0)->order_forced, 0);
	CHECK_EQ(nop_found(), 6);
	int64_t ts;
	uint64_t fr;
	CHECK(iws_stream_pending(T.s, &ts, &fr));
	CHECK_EQ(fr, 1);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(count_fpdus(1), 10);
	CHECK_EQ(count_fpdus(0), 0);
	for (int i = 6; i < 10; i++) {
		const struct rpdu *r = fpdu_rec(1, i);
		CHECK_FPDU_AT(r, 1, 1 + (unsigned)i, 2 + (uint64_t)i);
		if (r)
			CHECK_EQ(r->during, 0);
	}
	CHECK_EQ(iws_stream_counts(T.s, 1)->order_forced, 6);
	CHECK_EQ(T.nop, 10);
	CHECK_EQ(iws_stream_counts(T.s, 0)->skipped_bytes, 8);
	rec_end();
}

/* A sliced capture that starts mid-stream: the responder's segments, each
 * one FPDU cut by the snapshot length after 80 octets, cannot be chained by
 * their lengths (the next header is never captured); SLICED_CHAIN
 * consecutive segments each filled exactly by the FPDU at its start find
 * the framing, and the chain's FPDUs are reported from the first link. */
static void test_midstream_sliced(void)
{
	enum { N = 5 };
	rec_begin(false, true, NULL);
	side_init(0, 0x10000000u);
	side_init(1, 0x20000000u);
	add_raw(0, NULL, 16);               /* the tails of FPDUs before the capture */
	add_raw(1, NULL, 16);
	for (unsigned i = 1; i <= N; i++) {
		add_fpdu(0, sb_read_req_ulpdu(rec_ub, i, 0x1000 + i, 0, 1000, 0x99, 0x5000), 0);
		add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x1000 + i, 0, 1, 1000), 0);
	}
	for (unsigned i = 1; i <= N; i++) {
		send_el(0, i == 1 ? 0 : i, i);
		if (i == 1)
			send(1, at(1, 0), len_of(1, 0));
		send_cap(1, at(1, i), len_of(1, i), 80, IWS_TCP_PSH);
	}
	CHECK_EQ(count_fpdus(1), N);
	const struct rpdu *r = fpdu_rec(1, 0);
	CHECK_FPDU_AT(r, 1, 1, 3);
	if (r) {
		CHECK(r->p.truncated && r->has_msg);
		CHECK(r->p.gap_before);
	}
	CHECK_EQ(iws_stream_counts(T.s, 1)->segment_resyncs, 1);
	finish(IWS_OPF_UNFINISHED);
	int reads = 0;
	for (int i = 0; i < T.nop; i++)
		reads += T.op[i].op.type == IWS_OPT_READ && T.op[i].op.complete;
	CHECK_EQ(reads, N);
	rec_end();

	/* Segments that do not end where their FPDU ends are no chain. */
	rec_begin(false, true, NULL);
	side_init(0, 0x10000000u);
	side_init(1, 0x20000000u);
	add_raw(1, NULL, 16);
	for (unsigned i = 1; i <= N; i++)
		add_fpdu(1, sb_tagged_ulpdu(rec_ub, IWS_OP_CODE_READ_RESP, 0x1000 + i, 0, 1, 1000), 0);
	send(1, at(1, 0), len_of(1, 0));
	for (unsigned i = 1; i <= N; i++)
		send_cap(1, at(1, i), len_of(1, i) - 100, 80, IWS_TCP_PSH);
	CHECK_EQ(count_fpdus(1), 0);
	CHECK_EQ(iws_stream_counts(T.s, 1)->segment_resyncs, 0);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* Only the initiator's direction was captured: the Request, then FPDUs
 * that follow it at once (RFC 5044 §7.1.2: the initiator sends FPDUs only
 * after the Reply). They are framed from what the Request says (SeqStart,
 * C), as soon as they arrive, without waiting for a Reply. */
static void test_request_only(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 0xABCD0000u);
	add_mpa(0, 0, F_C | F_S, 3, 3);
	add_fpdu(0, sb_write_ulpdu(rec_ub, 0x31, 0x8000, 1, 64), 1);   /* el 1 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 12), 1);            /* el 2 */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 2, 0, 1, 13), 1);            /* el 3 */
	syn(0, false);                          /* 1 */
	send_el(0, 0, 0);                       /* 2 */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_REQUEST);
	CHECK_EQ(T.npdu, 1);
	send_el(0, 1, 1);                       /* 3 */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_INFERRED);
	CHECK_EQ(count_fpdus(0), 1);
	const struct rpdu *r = fpdu_rec(0, 0);
	CHECK_FPDU_AT(r, 0, 1, 3);
	if (r) {
		CHECK_EQ(r->during, 3);
		CHECK_EQ(r->crc, IWS_CRC_OK);
		CHECK_EQ(r->p.dir, IWS_DIR_I2R);
		/* Nothing was missed: the FPDU follows the Request. */
		CHECK(!r->p.gap_before);
	}
	send_el(0, 2, 3);                       /* 4 */
	CHECK_EQ(count_fpdus(0), 3);
	CHECK_EQ(count_ev(IWS_SEV_INFERRED), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_INFERRED, 0);
	if (e)
		CHECK_EQ(e->frame, 3);
	const struct iws_mpa_dir *d = iws_stream_framing(T.s, 0);
	CHECK(d && d->crc && !d->markers);
	CHECK(iws_stream_mpa(T.s)->crc);
	CHECK_EQ(iws_stream_counts(T.s, 0)->skipped_bytes, 0);
	CHECK_EQ(iws_stream_counts(T.s, 0)->resyncs, 0);
	CHECK_EQ(iws_stream_counts(T.s, 0)->lost, 0);
	CHECK_EQ(iws_stream_tracker_counts(T.s)->ops_incomplete, 0);
	CHECK_EQ(count_span(IWS_SPAN_PRESYNC) + count_span(IWS_SPAN_AFTER_GAP), 0);
	/* The Write was seen from its first octet: complete. */
	CHECK_EQ(T.nop, 3);
	CHECK_EQ(T.op[0].op.type, IWS_OPT_WRITE);
	CHECK(T.op[0].op.complete);
	CHECK(T.op[1].op.complete && T.op[2].op.complete);
	CHECK(iws_stream_reply(T.s) == NULL);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* Only the responder's direction, from its SYN-ACK: the Reply, then FPDUs
 * with markers (the unseen Request asked for them) on the grid that starts
 * at the Reply's end (RFC 5044 §4.3). */
static void test_reply_only(void)
{
	rec_begin(true, false, NULL);
	side_init(0, 1);
	side_init(1, 0x40000000u);
	add_mpa(1, 1, F_S, 2, 2);
	T.sd[1].sb.markers = 1;
	add_fpdu(1, sb_write_ulpdu(rec_ub, 0x42, 0, 1, 300), 0);       /* el 1 */
	for (unsigned i = 0; i < 4; i++)
		add_fpdu(1, sb_send_ulpdu(rec_ub, 1 + i, 0, 1, 200), 0); /* el 2-5 */
	syn(1, true);                           /* 1 */
	send_el(1, 0, 0);                       /* 2 */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_INFERRED);
	CHECK_EQ(iws_stream_init_side(T.s), 0);
	CHECK_EQ(iws_stream_reply_frame(T.s), 2);
	for (unsigned i = 1; i <= 5; i++)
		send_el(1, i, i);               /* 3..7 */
	CHECK_EQ(count_fpdus(1), 5);
	for (unsigned i = 0; i < 5; i++) {
		const struct rpdu *r = fpdu_rec(1, (int)i);
		CHECK_FPDU_AT(r, 1, 1 + i, 3 + i);
		if (r) {
			CHECK_EQ(r->p.dir, IWS_DIR_R2I);
			CHECK_EQ(r->marker_errors, 0);
			CHECK(r->has_msg);
			CHECK_EQ(r->p.gap_before, false);
			/* the chain of three validated in frame 5 */
			CHECK_EQ(r->during, i < 3 ? 5 : 3 + i);
		}
	}
	const struct iws_mpa_dir *d = iws_stream_framing(T.s, 1);
	CHECK(d && d->markers && d->marker_base == sq(1, 24) && !d->crc);
	CHECK_EQ(iws_stream_counts(T.s, 1)->resyncs, 0);
	CHECK_EQ(iws_stream_counts(T.s, 1)->skipped_bytes, 0);
	CHECK_EQ(count_ev(IWS_SEV_FRAMING_FOUND), 1);
	CHECK_EQ(T.nop, 5);
	CHECK_EQ(T.op[0].op.type, IWS_OPT_WRITE);
	CHECK_EQ(T.op[0].op.dir, IWS_DIR_R2I);
	CHECK(T.op[0].op.complete);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* A rejected Reply: what follows in either direction is not FPDUs. */
static void test_rejected(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 10);
	side_init(1, 20);
	add_mpa(0, 0, F_S, 1, 1);
	add_mpa(1, 1, F_R | F_S, 0, 0);
	add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 0);     /* after the Reply, same segment */
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 30), 0);
	handshake(F_R);			/* 1-4; frame 4 holds only the Reply */
	CHECK_EQ(count_ev(IWS_SEV_REJECTED), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_REJECTED, 0);
	if (e) {
		CHECK_EQ(e->side, 1);
		CHECK_EQ(e->seq, sq(1, 24));
		CHECK_EQ(e->frame, 4);
	}
	send_el(1, 1, 1);                       /* 5 */
	send_el(0, 1, 1);                       /* 6 */
	CHECK_EQ(T.npdu, 2);
	CHECK_EQ(count_fpdus(-1), 0);
	CHECK_EQ(count_span(IWS_SPAN_AFTER_REJECT), 2);
	for (int k = 0; k < 2; k++) {
		const struct iws_span *sp = find_span(IWS_SPAN_AFTER_REJECT, k);
		if (!sp)
			continue;
		CHECK_EQ(sp->frame, 5 + (uint64_t)k);
		CHECK_EQ(sp->side, k == 0 ? 1 : 0);
		CHECK_EQ(sp->seq, sq(sp->side, 24));
		CHECK_EQ(sp->len, len_of(sp->side, 1));
	}
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_REJECTED);
	CHECK(iws_stream_is_iwarp(T.s));
	CHECK_EQ(iws_stream_mpa(T.s)->state, IWS_MPA_ST_REJECTED);
	CHECK(iws_stream_framing(T.s, 0) == NULL && iws_stream_framing(T.s, 1) == NULL);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 0);
	rec_end();

	/* The Reply and octets after it in one segment; the initiator's octets
	 * waiting after its Request. */
	rec_begin(true, true, NULL);
	side_init(0, 10);
	side_init(1, 20);
	add_mpa(0, 0, 0, 0, 0);
	add_fpdu(0, sb_send_ulpdu(rec_ub, 1, 0, 1, 30), 0);
	add_mpa(1, 1, F_R, 0, 0);
	add_fpdu(1, sb_send_ulpdu(rec_ub, 1, 0, 1, 20), 0);
	syn(0, false);
	syn(1, true);
	send_el(0, 0, 0);                       /* 3: Request */
	send_el(0, 1, 1);                       /* 4: octets that wait */
	CHECK_EQ(iws_stream_buffered(T.s), len_of(0, 1));
	send_el(1, 0, 1);                       /* 5: Reply + 44 octets */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_REJECTED);
	CHECK_EQ(T.npdu, 2);
	CHECK_EQ(iws_stream_buffered(T.s), 0);
	CHECK_EQ(count_span(IWS_SPAN_AFTER_REJECT), 2);
	for (int k = 0; k < 2; k++) {
		const struct iws_span *sp = find_span(IWS_SPAN_AFTER_REJECT, k);
		if (!sp)
			continue;
		CHECK_EQ(sp->side, k);
		CHECK_EQ(sp->frame, 4 + (uint64_t)k);
		CHECK_EQ(sp->seq, sq(k, 20));
		CHECK_EQ(sp->len, len_of(k, 1));
	}
	CHECK_EQ(count_fpdus(-1), 0);
	finish(IWS_OPF_UNFINISHED);
	rec_end();
}

/* A stream seen from its SYN that carries no MPA key within 16 kB is not
 * iWARP; once both directions are given up, the engine is done. */
static void test_not_iwarp(void)
{
	rec_begin(true, true, NULL);
	side_init(0, 111);
	side_init(1, 222);
	static uint8_t text[4000];
	for (unsigned i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)("GET /index.html HTTP/1.1\r\nHost: example\r\n\r\n"[i % 44]);
	memcpy(text + 1000, "MPA ID Req Fram!", 16);   /* a near miss */
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 5; i++)
			add_raw(k, text, sizeof(text));
	add_raw(0, text, 100);
	syn(0, false);
	syn(1, true);
	for (unsigned i = 0; i < 5; i++)
		send_el(0, i, i);               /* 3..7 */
	CHECK_EQ(count_ev(IWS_SEV_NOT_IWARP), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_NOT_IWARP, 0);
	if (e) {
		CHECK_EQ(e->side, 0);
		CHECK_EQ(e->frame, 7);
		CHECK_EQ(e->seq, sq(0, 20000));
	}
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_NONE);
	CHECK(!iws_stream_done(T.s));
	for (unsigned i = 0; i < 5; i++)
		send_el(1, i, i);               /* 8..12 */
	CHECK_EQ(count_ev(IWS_SEV_NOT_IWARP), 2);
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_NOT_IWARP);
	CHECK(!iws_stream_is_iwarp(T.s));
	CHECK(iws_stream_done(T.s));
	CHECK_EQ(iws_stream_buffered(T.s), 0);
	CHECK_EQ(T.lim.buf_used, 0);
	send_el(0, 5, 5);                       /* 13: more after it was given up */
	CHECK_EQ(T.npdu, 0);
	/* Every captured octet is accounted for: the spans say they were not
	 * iWARP, one per frame. */
	uint64_t spanned = 0;
	for (int i = 0; i < T.nspan; i++) {
		const struct iws_span *sp = &T.span[i].sp;
		CHECK_EQ(sp->kind, IWS_SPAN_NOT_IWARP);
		CHECK_EQ(sp->frame, i < 5 ? 3 + (uint64_t)i : i < 10 ? 8 + (uint64_t)i - 5 : 13);
		CHECK_EQ(sp->side, i < 5 || i == 10 ? 0 : 1);
		spanned += sp->len;
	}
	CHECK_EQ(spanned, 40100);
	CHECK_EQ(T.nspan, 11);
	CHECK_EQ(iws_stream_counts(T.s, 0)->skipped_bytes, 20000);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(T.nop, 0);
	rec_end();
}

int main(void)
{
	test_midstream_reads();
	test_midstream_held_bound();
	test_midstream_sliced();
	test_request_only();
	test_reply_only();
	test_rejected();
	test_not_iwarp();
	return check_done("test_stream_infer");
}
