// SPDX-License-Identifier: GPL-2.0-or-later
/* The operation tracker: matching, grouping, latency, gaps, limits. */
#include "check.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stats.h"
#include "stream_builder.h"

#define MAX_OPS 64
static struct iws_op ops[MAX_OPS];
static int n_ops;

static void on_op(void *ctx, const struct iws_op *op)
{
	(void)ctx;
	if (n_ops < MAX_OPS)
		ops[n_ops] = *op;
	n_ops++;
}

static uint8_t ub[70000];

/* Parse a ULPDU we build into a message. */
static struct iws_msg msg_of(uint16_t len)
{
	struct iws_msg m;
	struct iws_result r = iws_rdmap_parse(ub, len, &m);
	CHECK_STATUS(r, IWS_OK);
	return m;
}

static struct iws_msg untagged(uint8_t opcode, uint32_t qn, uint32_t msn, uint32_t mo, int last,
			       uint16_t plen, uint32_t rsvdulp)
{
	memset(ub, 0, 18 + plen);
	ub[0] = (uint8_t)(0x01 | (last ? 0x40 : 0));
	ub[1] = (uint8_t)(0x40 | opcode);
	put_be32(ub + 2, rsvdulp);
	put_be32(ub + 6, qn);
	put_be32(ub + 10, msn);
	put_be32(ub + 14, mo);
	return msg_of((uint16_t)(18 + plen));
}

static struct iws_msg tagged(uint8_t opcode, uint32_t stag, uint64_t to, int last, uint16_t plen)
{
	return msg_of(sb_tagged_ulpdu(ub, opcode, stag, to, last, plen));
}

static struct iws_msg read_req(uint32_t msn, uint32_t sink, uint64_t sink_to, uint32_t size)
{
	return msg_of(sb_read_req_ulpdu(ub, msn, sink, sink_to, size, 0xABCD, 0x7000));
}

static struct iws_msg atomic_req(uint32_t msn, uint8_t aop, uint32_t id)
{
	memset(ub, 0, 70);
	ub[0] = 0x41;
	ub[1] = 0x4A;
	put_be32(ub + 6, 1);
	put_be32(ub + 10, msn);
	put_be32(ub + 18, aop);
	put_be32(ub + 22, id);
	put_be32(ub + 26, 0x5555);
	put_be64(ub + 30, 0x8000);
	return msg_of(70);
}

static struct iws_msg atomic_resp(uint32_t msn, uint32_t id, uint64_t orig)
{
	memset(ub, 0, 30);
	ub[0] = 0x41;
	ub[1] = 0x4B;
	put_be32(ub + 6, 3);
	put_be32(ub + 10, msn);
	put_be32(ub + 18, id);
	put_be64(ub + 22, orig);
	return msg_of(30);
}

/* A segment with its TCP whereabouts: octets [seq, seq+len) of dir, first
 * sent in first/first_ts, last octet arrived in arr/arr_ts, completed in
 * order in frame/ts. */
static void feed_tcp(struct iws_tracker *t, uint8_t dir, uint32_t seq, uint32_t len,
		     uint64_t first, int64_t first_ts, uint64_t arr, int64_t arr_ts, uint64_t frame,
		     int64_t ts, uint32_t retrans, const struct iws_msg *m, struct iws_seg_note *note)
{
	struct iws_seg s = { .dir = dir, .frame = frame, .ts_ns = ts, .msg = m, .crc = IWS_CRC_OK,
			     .first_frame = first, .first_ts = first_ts, .arrived_frame = arr,
			     .arrived_ts = arr_ts, .has_seq = true, .seq = seq, .len = len,
			     .retrans = retrans };
	iws_tracker_segment(t, &s, note);
}

static void feed(struct iws_tracker *t, uint8_t dir, uint64_t frame, int64_t ts,
		 const struct iws_msg *m, enum iws_crc_status crc, struct iws_seg_note *note)
{
	struct iws_seg s = { .dir = dir, .frame = frame, .ts_ns = ts, .msg = m, .crc = crc };
	iws_tracker_segment(t, &s, note);
}

/* one connection (one tracker): a Read, a Write and a Send interleaved, an Immediate, an MSN gap, Atomics, a stray Read Response, a Terminate, the end */
static void case_connection_life(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	/* --- Read: request, three responses (the middle one with a bad CRC) --- */
	struct iws_tracker *t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x100, 0x5000, 3000);
	feed(t, IWS_DIR_I2R, 10, 1000, &m, IWS_CRC_OK, &note);
	CHECK(note.op_first && !note.op_last);
	CHECK_EQ(note.outstanding, 1);
	uint64_t read_id = note.op_id;
	CHECK(read_id != 0);
	m = tagged(2, 0x100, 0x5000, 0, 1000);
	feed(t, IWS_DIR_R2I, 12, 1500, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.op_id, read_id);
	CHECK_EQ(note.request_frame, 10);
	CHECK(!note.has_response_time);
	m = tagged(2, 0x100, 0x5000 + 1000, 0, 1000);
	feed(t, IWS_DIR_R2I, 13, 1600, &m, IWS_CRC_BAD, &note);
	m = tagged(2, 0x100, 0x5000 + 2000, 1, 1000);
	feed(t, IWS_DIR_R2I, 15, 4100, &m, IWS_CRC_OK, &note);
	CHECK(note.op_last && note.has_response_time);
	CHECK_EQ(note.response_time_ns, 3100);
	CHECK_EQ(n_ops, 1);
	CHECK_EQ(ops[0].type, IWS_OPT_READ);
	CHECK_EQ(ops[0].first_frame, 10);
	CHECK_EQ(ops[0].last_frame, 15);
	CHECK_EQ(ops[0].response_frame, 12);
	CHECK_EQ(ops[0].bytes, 3000);
	CHECK_EQ(ops[0].segments, 4);
	CHECK_EQ(ops[0].latency_ns, 3100);
	CHECK(ops[0].has_latency && ops[0].complete);
	CHECK_EQ(ops[0].crc_errors, 1);
	CHECK_EQ(ops[0].stag, 0x100);
	CHECK_EQ(ops[0].to, 0x5000);
	CHECK_EQ(ops[0].qn, 1);
	CHECK_EQ(ops[0].msn, 1);
	CHECK_EQ(ops[0].read_size, 3000);
	CHECK_EQ(ops[0].dir, IWS_DIR_I2R);

	/* --- Write of two segments, interleaved with a two-segment Send in the
	 * other direction and an Immediate --- */
	n_ops = 0;
	m = tagged(0, 0x200, 0x9000, 0, 500);
	feed(t, IWS_DIR_I2R, 20, 2000, &m, IWS_CRC_NOT_CHECKED, &note);
	m = untagged(3, 0, 1, 0, 0, 100, 0);
	feed(t, IWS_DIR_R2I, 21, 2100, &m, IWS_CRC_NOT_CHECKED, &note);
	m = tagged(0, 0x200, 0x9000 + 500, 1, 250);
	feed(t, IWS_DIR_I2R, 22, 2200, &m, IWS_CRC_NOT_CHECKED, &note);
	CHECK_EQ(n_ops, 1);
	CHECK_EQ(ops[0].type, IWS_OPT_WRITE);
	CHECK_EQ(ops[0].bytes, 750);
	CHECK_EQ(ops[0].segments, 2);
	CHECK(!ops[0].has_latency);
	CHECK(ops[0].complete);
	m = untagged(3, 0, 1, 100, 1, 60, 0);
	feed(t, IWS_DIR_R2I, 23, 2300, &m, IWS_CRC_NOT_CHECKED, &note);
	CHECK_EQ(n_ops, 2);
	CHECK_EQ(ops[1].type, IWS_OPT_SEND);
	CHECK_EQ(ops[1].bytes, 160);
	CHECK_EQ(ops[1].first_frame, 21);
	CHECK_EQ(ops[1].last_frame, 23);
	CHECK_EQ(ops[1].msn, 1);
	CHECK_EQ(ops[1].dir, IWS_DIR_R2I);
	m = untagged(8, 0, 2, 0, 1, 8, 0);
	feed(t, IWS_DIR_R2I, 24, 2400, &m, IWS_CRC_NOT_CHECKED, &note);
	CHECK_EQ(n_ops, 3);
	CHECK_EQ(ops[2].type, IWS_OPT_IMMEDIATE);
	CHECK_EQ(ops[2].bytes, 8);
	CHECK(!(note.flags & IWS_SEGF_MSN_GAP));
	/* MSN jumps from 2 to 4: flagged */
	m = untagged(6, 0, 4, 0, 1, 10, 0x77);
	feed(t, IWS_DIR_R2I, 25, 2500, &m, IWS_CRC_NOT_CHECKED, &note);
	CHECK(note.flags & IWS_SEGF_MSN_GAP);
	CHECK_EQ(ops[3].type, IWS_OPT_SEND_SE_INV);
	CHECK(ops[3].has_inval);
	CHECK_EQ(ops[3].inval_stag, 0x77);
	CHECK(ops[3].flags & IWS_OPF_MSN_GAP);
	CHECK(ops[3].complete);  /* an MSN gap is not this message's fault */

	/* --- Atomics: matched by request id, not order --- */
	n_ops = 0;
	m = atomic_req(2, 0, 41);
	feed(t, IWS_DIR_I2R, 30, 3000, &m, IWS_CRC_OK, &note);
	m = atomic_req(3, 2, 42);
	feed(t, IWS_DIR_I2R, 31, 3100, &m, IWS_CRC_OK, &note);
	m = atomic_resp(1, 42, 7);
	feed(t, IWS_DIR_R2I, 32, 3500, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.request_frame, 31);
	CHECK_EQ(note.response_time_ns, 400);
	m = atomic_resp(2, 41, 9);
	feed(t, IWS_DIR_R2I, 33, 3700, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 2);
	CHECK_EQ(ops[0].type, IWS_OPT_ATOMIC_CMP_SWAP);
	CHECK_EQ(ops[0].atomic_orig_value, 7);
	CHECK_EQ(ops[1].type, IWS_OPT_ATOMIC_FETCH_ADD);
	CHECK_EQ(ops[1].latency_ns, 700);
	CHECK_EQ(ops[1].segments, 2);
	CHECK_EQ(ops[1].bytes, 8);
	CHECK_EQ(ops[1].stag, 0x5555);

	/* --- a Read Response nobody asked for (capture started late): held
	 * until a clean close could prove its request (qp_hold.c) --- */
	n_ops = 0;
	m = tagged(2, 0x300, 0x100, 0, 100);
	feed(t, IWS_DIR_I2R, 40, 4000, &m, IWS_CRC_OK, &note);
	CHECK(note.flags & IWS_SEGF_ORPHAN_RESPONSE);
	m = tagged(2, 0x300, 0x164, 1, 100);
	feed(t, IWS_DIR_I2R, 41, 4100, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 0);

	/* --- Terminate: no clean close any more, the held response goes
	 * unpaired first --- */
	memset(ub, 0, 22);
	ub[0] = 0x41;
	ub[1] = 0x47;
	put_be32(ub + 6, 2);
	put_be32(ub + 10, 1);
	put_be32(ub + 18, 0x20070000);  /* layer LLP, etype 0, code 7 */
	m = msg_of(22);
	feed(t, IWS_DIR_R2I, 50, 5000, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 2);
	CHECK_EQ(ops[0].type, IWS_OPT_READ);
	CHECK(!ops[0].complete);
	CHECK(ops[0].flags & IWS_OPF_STARTED_BEFORE);
	CHECK(ops[0].flags & IWS_OPF_REQUEST_MISSING);
	CHECK(!ops[0].has_latency);
	CHECK_EQ(ops[0].pairing, IWS_PAIR_NONE);
	CHECK_EQ(ops[1].type, IWS_OPT_TERMINATE);
	CHECK_EQ(ops[1].term_layer, 2);
	CHECK_EQ(ops[1].term_errcode, 7);

	/* --- end of capture: a half-done Write is reported incomplete --- */
	n_ops = 0;
	m = tagged(0, 0x400, 0, 0, 100);
	feed(t, IWS_DIR_I2R, 60, 6000, &m, IWS_CRC_OK, &note);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 1);
	CHECK(!ops[0].complete);
	CHECK(ops[0].flags & IWS_OPF_UNFINISHED);
	const struct iws_tracker_counts *c = iws_tracker_counts(t);
	CHECK_EQ(c->inflight, 0);
	CHECK_EQ(c->ops_started, c->ops_reported);
	iws_tracker_free(t);
}

static void case_gaps(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- a gap inside a Read's responses, and inside a Send --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x10, 0, 3000);
	feed(t, IWS_DIR_I2R, 1, 100, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x10, 0, 0, 1000);
	feed(t, IWS_DIR_R2I, 2, 200, &m, IWS_CRC_OK, &note);
	m = untagged(3, 0, 1, 0, 0, 1000, 0);
	feed(t, IWS_DIR_I2R, 3, 250, &m, IWS_CRC_OK, &note);
	iws_tracker_gap(t, IWS_DIR_R2I);
	m = tagged(2, 0x10, 2000, 1, 1000);  /* the middle response was lost */
	feed(t, IWS_DIR_R2I, 5, 400, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 1);
	CHECK(!ops[0].complete);
	CHECK(ops[0].flags & IWS_OPF_GAP);
	CHECK_EQ(ops[0].bytes, 2000);
	/* the Send in the other direction is untouched by that gap */
	m = untagged(3, 0, 1, 1000, 1, 10, 0);
	feed(t, IWS_DIR_I2R, 6, 500, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 2);
	CHECK(ops[1].complete);
	/* after a gap, the first Write seen may have begun in the hole */
	iws_tracker_gap(t, IWS_DIR_I2R);
	m = tagged(0, 0x20, 0x4000, 1, 100);
	feed(t, IWS_DIR_I2R, 7, 600, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 3);
	CHECK(!ops[2].complete);
	CHECK(ops[2].flags & IWS_OPF_STARTED_BEFORE);
	/* ... the next one is whole */
	m = tagged(0, 0x20, 0x8000, 1, 100);
	feed(t, IWS_DIR_I2R, 8, 700, &m, IWS_CRC_OK, &note);
	CHECK(ops[3].complete);
	/* a Send first seen at MO != 0 began before */
	m = untagged(3, 0, 9, 500, 1, 10, 0);
	feed(t, IWS_DIR_I2R, 9, 800, &m, IWS_CRC_OK, &note);
	CHECK(!ops[4].complete);
	CHECK(ops[4].flags & IWS_OPF_STARTED_BEFORE);
	/* a whole Read Response lost in a gap: the request is given up when
	 * the next read's response arrives */
	n_ops = 0;
	m = read_req(2, 0x30, 0, 100);
	feed(t, IWS_DIR_I2R, 10, 900, &m, IWS_CRC_OK, &note);
	m = read_req(3, 0x31, 0, 100);
	feed(t, IWS_DIR_I2R, 11, 950, &m, IWS_CRC_OK, &note);
	iws_tracker_gap(t, IWS_DIR_R2I);
	m = tagged(2, 0x31, 0, 1, 100);
	feed(t, IWS_DIR_R2I, 13, 1000, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 2);
	CHECK(!ops[0].complete && (ops[0].flags & IWS_OPF_GAP));
	CHECK(ops[1].complete);
	CHECK_EQ(ops[1].latency_ns, 50);
	CHECK(!(note.flags & IWS_SEGF_STAG_MISMATCH));
	iws_tracker_free(t);
}

static void case_rtr_ird(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- peer-to-peer RTR and IRD accounting --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	struct iws_mpa_conn conn;
	iws_mpa_conn_init(&conn);
	conn.state = IWS_MPA_ST_FULL;
	conn.p2p = true;
	conn.rtr = IWS_RTR_WRITE;
	conn.has_ird_ord = true;
	conn.ird[IWS_DIR_I2R] = 4;
	conn.ird[IWS_DIR_R2I] = 2;
	iws_tracker_set_mpa(t, &conn);
	m = tagged(0, 0, 0, 1, 0);
	feed(t, IWS_DIR_I2R, 1, 10, &m, IWS_CRC_OK, &note);
	/* the RTR is an operation of its own, flagged (docs/semantics.md) */
	CHECK(note.rtr);
	CHECK(note.op_id != 0);
	CHECK_EQ(n_ops, 1);
	CHECK(ops[0].rtr && ops[0].complete && ops[0].type == IWS_OPT_WRITE && ops[0].bytes == 0);
	for (uint32_t i = 0; i < 3; i++) {
		m = read_req(i + 1, 0x40 + i, 0, 10);
		feed(t, IWS_DIR_I2R, 2 + i, 20, &m, IWS_CRC_OK, &note);
		CHECK_EQ(note.outstanding, i + 1);
		CHECK_EQ(!!(note.flags & IWS_SEGF_IRD_EXCEEDED), i >= 2);
	}
	CHECK_EQ(iws_tracker_counts(t)->ird_exceeded, 1);
	iws_tracker_free(t);

	/* --- MPA revision 1 negotiates no RTR, yet a stack that predates
	 * RFC 6581 (SMB Direct, Windows and Chelsio) opens with a zero-length
	 * Read: the RTR, answered by a zero-length Read Response; a later
	 * zero-length Read, or one not first, is an ordinary Read --- */
	for (int later = 0; later < 2; later++) {
		n_ops = 0;
		t = iws_tracker_new(NULL, on_op, NULL);
		iws_mpa_conn_init(&conn);
		conn.state = IWS_MPA_ST_FULL;
		conn.rev = 1;
		iws_tracker_set_mpa(t, &conn);
		if (later) {
			m = msg_of(sb_send_ulpdu(ub, 1, 0, 1, 20));
			feed(t, IWS_DIR_I2R, 1, 10, &m, IWS_CRC_OK, &note);
		}
		m = read_req(1, 0x1, 0, 0);
		feed(t, IWS_DIR_I2R, 2, 20, &m, IWS_CRC_OK, &note);
		CHECK_EQ(note.rtr, !later);
		m = tagged(2, 0x1, 0, 1, 0);
		feed(t, IWS_DIR_R2I, 3, 30, &m, IWS_CRC_OK, &note);
		CHECK_EQ(note.rtr, !later);
		iws_tracker_finish(t, IWS_OPF_UNFINISHED);
		int reads = 0;
		for (int i = 0; i < n_ops && i < MAX_OPS; i++)
			if (ops[i].type == IWS_OPT_READ) {
				reads++;
				CHECK_EQ(ops[i].rtr, !later);
				CHECK(ops[i].complete && ops[i].bytes == 0);
			}
		CHECK_EQ(reads, 1);
		iws_tracker_free(t);
	}
}

static void case_bounded_inflight(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- bounded memory: a Read Request storm with no responses --- */
	n_ops = 0;
	struct iws_tracker_limits lim = { .max_inflight = 100 };
	t = iws_tracker_new(&lim, on_op, NULL);
	for (uint32_t i = 0; i < 1000; i++) {
		m = read_req(i + 1, i, 0, 10);
		feed(t, IWS_DIR_I2R, i + 1, i, &m, IWS_CRC_OK, &note);
	}
	const struct iws_tracker_counts *c = iws_tracker_counts(t);
	CHECK_EQ(c->inflight, 100);
	CHECK_EQ(c->evicted, 900);
	CHECK_EQ(n_ops, 900);
	CHECK(ops[0].flags & IWS_OPF_EVICTED);
	CHECK_EQ(ops[0].first_frame, 1);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 1000);
	iws_tracker_free(t);
}

static void case_where_time_went(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- where the time went: first transmission, stall, retransmissions, ACK --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	/* the responder has acknowledged octets of the initiator's */
	iws_tracker_ack(t, IWS_DIR_I2R, 990, 1, 100, false);
	/* Read Request [1000,1050): sent in frame 2, stuck behind a hole
	 * until frame 5 (a retransmission of earlier octets) */
	m = read_req(1, 0x100, 0, 200);
	feed_tcp(t, IWS_DIR_I2R, 980, 70, 2, 200, 2, 200, 5, 500, 0, &m, &note);
	CHECK_EQ(n_ops, 0);
	/* two responses [7000,7120) and [7120,7240); the second arrived in
	 * frame 7, was delivered in 9, and was retransmitted once */
	m = tagged(2, 0x100, 0, 0, 100);
	feed_tcp(t, IWS_DIR_R2I, 7000, 120, 6, 600, 6, 600, 6, 600, 0, &m, &note);
	m = tagged(2, 0x100, 100, 1, 100);
	feed_tcp(t, IWS_DIR_R2I, 7120, 120, 7, 700, 7, 700, 9, 950, 1, &m, &note);
	/* no ACK of the responder's octets seen yet: reported at once */
	CHECK_EQ(n_ops, 1);
	CHECK_EQ(ops[0].first_frame, 2);
	CHECK_EQ(ops[0].start_ns, 200);
	CHECK_EQ(ops[0].first_inorder_frame, 5);
	CHECK_EQ(ops[0].last_frame, 9);
	CHECK_EQ(ops[0].end_ns - ops[0].start_ns, 750);
	CHECK_EQ(ops[0].stall_ns, 300 + 250);
	CHECK_EQ(ops[0].retransmissions, 1);
	CHECK(!ops[0].has_ack);
	/* a Write [1050,1250) then its ACK: reported with ack_ns */
	m = tagged(0, 0x200, 0, 1, 150);
	feed_tcp(t, IWS_DIR_I2R, 1050, 200, 10, 1000, 10, 1000, 10, 1000, 0, &m, &note);
	CHECK_EQ(n_ops, 1);
	CHECK_EQ(iws_tracker_counts(t)->ack_waiting, 1);
	iws_tracker_resent(t, IWS_DIR_I2R, 1100, 50);  /* sent again */
	iws_tracker_ack(t, IWS_DIR_I2R, 1200, 11, 1100, false);  /* not all of it */
	CHECK_EQ(n_ops, 1);
	iws_tracker_ack(t, IWS_DIR_I2R, 1250, 12, 1300, true);
	CHECK_EQ(n_ops, 2);
	CHECK(ops[1].has_ack && ops[1].ack_frame == 12 && ops[1].ack_ns == 300);
	CHECK(ops[1].ack_with_data);
	CHECK_EQ(ops[1].retransmissions, 1);
	CHECK(ops[1].complete);
	/* an ACK seen before the operation completed (held for order) counts */
	m = tagged(0, 0x300, 0, 1, 10);
	iws_tracker_ack(t, IWS_DIR_I2R, 1300, 13, 1400, false);
	feed_tcp(t, IWS_DIR_I2R, 1250, 50, 12, 1250, 12, 1250, 14, 1500, 0, &m, &note);
	CHECK_EQ(n_ops, 3);
	CHECK(ops[2].has_ack && ops[2].ack_frame == 13 && ops[2].ack_ns == 150);
	CHECK(!ops[2].ack_with_data);
	/* the responder resets; a Write sent after that is not complete */
	iws_tracker_closed(t, IWS_DIR_R2I, 15, true);
	m = tagged(0, 0x400, 0, 1, 10);
	feed_tcp(t, IWS_DIR_I2R, 1300, 50, 16, 1600, 16, 1600, 16, 1600, 0, &m, &note);
	CHECK(note.flags & IWS_SEGF_AFTER_CLOSE);
	CHECK_EQ(n_ops, 4);
	CHECK(!ops[3].complete && (ops[3].flags & IWS_OPF_AFTER_CLOSE));
	iws_tracker_free(t);
}

/* the oldest operation not yet reported: in flight, or complete and
 * waiting for its ACK (iws_tracker_oldest_unreported) */
static void case_oldest_unreported(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	int64_t ts;
	uint64_t fr;
	struct iws_tracker *t = iws_tracker_new(NULL, on_op, NULL);
	CHECK(!iws_tracker_oldest_unreported(t, &ts, &fr));
	/* the responder acknowledges the initiator's octets: its Writes wait */
	iws_tracker_ack(t, IWS_DIR_I2R, 990, 1, 100, false);
	m = read_req(1, 0x100, 0, 100);   /* a Read Request, frame 2 */
	feed_tcp(t, IWS_DIR_I2R, 1000, 50, 2, 200, 2, 200, 2, 200, 0, &m, &note);
	CHECK(iws_tracker_oldest_unreported(t, &ts, &fr) && ts == 200 && fr == 2);
	m = tagged(0, 0x200, 0, 1, 150);  /* a Write, frame 3: complete, waits for its ACK */
	feed_tcp(t, IWS_DIR_I2R, 1050, 200, 3, 300, 3, 300, 3, 300, 0, &m, &note);
	CHECK_EQ(iws_tracker_counts(t)->ack_waiting, 1);
	CHECK(iws_tracker_oldest_unreported(t, &ts, &fr) && ts == 200 && fr == 2);
	/* the Read's response (no ACK of the responder's octets seen: the Read
	 * is reported at once); the Write waiting for its ACK is the oldest */
	m = tagged(2, 0x100, 0, 1, 100);
	feed_tcp(t, IWS_DIR_R2I, 7000, 120, 4, 400, 4, 400, 4, 400, 0, &m, &note);
	CHECK_EQ(n_ops, 1);
	CHECK(iws_tracker_oldest_unreported(t, &ts, &fr) && ts == 300 && fr == 3);
	/* a Send begun after it (not finished): the Write, waiting, started first */
	m = untagged(3, 0, 1, 0, 0, 40, 0);
	feed_tcp(t, IWS_DIR_I2R, 1250, 60, 5, 500, 5, 500, 5, 500, 0, &m, &note);
	CHECK(iws_tracker_oldest_unreported(t, &ts, &fr) && ts == 300 && fr == 3);
	/* the Write's ACK: the Send is left */
	iws_tracker_ack(t, IWS_DIR_I2R, 1250, 6, 600, false);
	CHECK_EQ(n_ops, 2);
	CHECK(iws_tracker_oldest_unreported(t, &ts, &fr) && ts == 500 && fr == 5);
	/* the end reports everything: nothing held */
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK(!iws_tracker_oldest_unreported(t, &ts, &fr));
	iws_tracker_free(t);
}

static void case_read_queued(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- a Read queued behind an earlier Read's responses --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x10, 0, 100);
	feed_tcp(t, IWS_DIR_I2R, 0, 50, 1, 100, 1, 100, 1, 100, 0, &m, &note);
	m = read_req(2, 0x20, 0, 100);
	feed_tcp(t, IWS_DIR_I2R, 50, 50, 2, 110, 2, 110, 2, 110, 0, &m, &note);
	m = tagged(2, 0x10, 0, 1, 100);   /* the first Read's answer, sent at 500 */
	feed_tcp(t, IWS_DIR_R2I, 0, 120, 3, 500, 3, 500, 3, 500, 0, &m, &note);
	m = tagged(2, 0x20, 0, 1, 100);   /* the second's, sent at 600 */
	feed_tcp(t, IWS_DIR_R2I, 120, 120, 4, 600, 4, 600, 4, 600, 0, &m, &note);
	CHECK_EQ(n_ops, 2);
	CHECK_EQ(ops[0].queued_ns, 0);
	CHECK_EQ(ops[1].queued_ns, 500 - 110);
	iws_tracker_free(t);
}

static void case_ack_wait_bounded(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- waiting for ACKs is bounded, and ends with the capture --- */
	n_ops = 0;
	uint64_t used = 0, peak = 0;
	struct iws_tracker_limits wl = { .shared_ack_wait_used = &used, .shared_ack_wait_peak = &peak,
					 .shared_max_ack_wait = 2 };
	t = iws_tracker_new(&wl, on_op, NULL);
	/* no ACK of the direction seen (one direction captured): nothing waits */
	m = tagged(0, 0x1, 0, 1, 10);
	feed_tcp(t, IWS_DIR_I2R, 100, 30, 2, 20, 2, 20, 2, 20, 0, &m, &note);
	CHECK_EQ(n_ops, 1);
	CHECK(!ops[0].has_ack);
	iws_tracker_ack(t, IWS_DIR_I2R, 130, 3, 30, false);
	for (uint32_t i = 0; i < 3; i++) {
		m = tagged(0, 0x10 + i, 0, 1, 10);
		feed_tcp(t, IWS_DIR_I2R, 130 + 30 * i, 30, 4 + i, 40, 4 + i, 40, 4 + i, 40, 0, &m, &note);
	}
	/* two wait (the shared bound), the third went at once */
	CHECK_EQ(n_ops, 2);
	CHECK_EQ(used, 2);
	CHECK_EQ(iws_tracker_counts(t)->ack_wait_forced, 1);
	/* a Read in flight is listed */
	m = read_req(1, 0x900, 0, 10);
	feed_tcp(t, IWS_DIR_I2R, 220, 50, 8, 80, 8, 80, 8, 80, 0, &m, &note);
	uint64_t ids[4];
	CHECK_EQ(iws_tracker_inflight_ids(t, ids, 4), 1);
	CHECK_EQ(ids[0], note.op_id);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 5);
	CHECK(ops[3].complete && !ops[3].has_ack);
	CHECK(!ops[2].complete);  /* the Read, reported first */
	CHECK_EQ(used, 0);
	CHECK_EQ(peak, 2);
	iws_tracker_free(t);
}

static void case_retrans_across_fpdus(void)
{
	struct iws_seg_note note;
	struct iws_tracker *t;
	/* --- one retransmitted segment across two FPDUs of a Write counts once --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	{
		/* FPDU 1 [100,150) ends in retransmitted frame 7, which also holds
		 * the start of FPDU 2 [150,200); FPDU 2's end came in frame 8, sent
		 * again too: two retransmissions, not three */
		struct iws_msg w1 = tagged(0, 0x77, 0, 0, 30), w2 = tagged(0, 0x77, 30, 1, 30);
		struct iws_seg a = { .dir = IWS_DIR_I2R, .frame = 7, .ts_ns = 70, .msg = &w1,
				     .crc = IWS_CRC_OK, .first_frame = 5, .first_ts = 50,
				     .arrived_frame = 7, .arrived_ts = 70, .has_seq = true,
				     .seq = 100, .len = 50, .retrans = 1, .retrans_first_frame = 0,
				     .retrans_last_frame = 7 };
		struct iws_seg b = a;
		b.msg = &w2;
		b.frame = 8;
		b.ts_ns = 80;
		b.first_frame = 7;
		b.first_ts = 70;
		b.arrived_frame = 8;
		b.arrived_ts = 80;
		b.seq = 150;
		b.retrans = 2;
		b.retrans_first_frame = 7;
		b.retrans_last_frame = 8;
		iws_tracker_segment(t, &a, &note);
		iws_tracker_segment(t, &b, &note);
		iws_tracker_finish(t, IWS_OPF_UNFINISHED);
		CHECK_EQ(n_ops, 1);
		CHECK_EQ(ops[0].retransmissions, 2);
		CHECK_EQ(ops[0].segments, 2);
	}
	iws_tracker_free(t);
}

static void case_snaplen_hidden_read(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- a snapshot length hid a Read Request: its response infers it --- */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x100, 0x5000, 1000);
	feed(t, IWS_DIR_I2R, 10, 1000, &m, IWS_CRC_OK, &note);
	iws_tracker_hidden(t, IWS_DIR_I2R, 20, 2000);   /* a request's header cut */
	m = read_req(3, 0x300, 0x7000, 1000);
	feed(t, IWS_DIR_I2R, 30, 3000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x100, 0x5000, 1, 1000);
	feed(t, IWS_DIR_R2I, 40, 4000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x200, 0x6000, 1, 1000);          /* answers nothing captured */
	feed(t, IWS_DIR_R2I, 50, 5000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x300, 0x7000, 1, 1000);
	feed(t, IWS_DIR_R2I, 60, 6000, &m, IWS_CRC_OK, &note);
	CHECK_EQ(n_ops, 3);
	CHECK_EQ(ops[0].first_frame, 10);
	CHECK_EQ(ops[0].latency_ns, 3000);
	CHECK_EQ(ops[1].type, IWS_OPT_READ);
	CHECK_EQ(ops[1].first_frame, 20);               /* the frame of the hidden span */
	CHECK_EQ(ops[1].last_frame, 50);
	CHECK_EQ(ops[1].latency_ns, 3000);
	CHECK_EQ(ops[1].stag, 0x200);
	CHECK_EQ(ops[1].dir, IWS_DIR_I2R);              /* the initiator's direction */
	CHECK(ops[1].complete && (ops[1].flags & IWS_OPF_TRUNCATED));
	CHECK_EQ(ops[2].first_frame, 30);
	CHECK(ops[2].complete);
	CHECK_EQ(iws_tracker_counts(t)->hidden_requests, 1);
	CHECK_EQ(iws_tracker_counts(t)->orphan_responses, 0);
	iws_tracker_free(t);
}

static void case_read_after_span(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* a captured Read answered after the span: the span held nothing to
	 * answer; and octets hidden in frames not known stop the inference */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	iws_tracker_hidden(t, IWS_DIR_I2R, 5, 500);
	m = read_req(1, 0x100, 0x5000, 1000);
	feed(t, IWS_DIR_I2R, 10, 1000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x100, 0x5000, 1, 1000);
	feed(t, IWS_DIR_R2I, 40, 4000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x200, 0x6000, 1, 1000);          /* after the span was answered */
	feed(t, IWS_DIR_R2I, 50, 5000, &m, IWS_CRC_OK, &note);
	iws_tracker_hidden(t, IWS_DIR_I2R, 60, 6000);
	iws_tracker_hidden(t, IWS_DIR_I2R, 0, 0);        /* spoiled */
	m = tagged(2, 0x400, 0x6000, 1, 1000);
	feed(t, IWS_DIR_R2I, 70, 7000, &m, IWS_CRC_OK, &note);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(iws_tracker_counts(t)->hidden_requests, 0);
	CHECK_EQ(n_ops, 3);                              /* two responses without their request */
	CHECK_EQ(ops[1].first_frame, 50);
	CHECK_EQ(ops[2].first_frame, 70);
	iws_tracker_free(t);
}

static void case_acks_before_tracker(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* ACKs seen before the tracker: only the highest was given, the ones
	 * before it are forgotten; an operation they covered has no known ACK
	 * (not the later one's) */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	iws_tracker_ack(t, IWS_DIR_I2R, 1000, 90, 9000, false);
	iws_tracker_acks_forgotten(t, IWS_DIR_I2R, 500);
	m = untagged(3, 0, 1, 0, 1, 20, 0);              /* a Send, octets [400,450) */
	feed_tcp(t, IWS_DIR_I2R, 400, 50, 5, 500, 5, 500, 5, 500, 0, &m, &note);
	m = untagged(3, 0, 2, 0, 1, 20, 0);              /* [600,650): covered first at 1000 */
	feed_tcp(t, IWS_DIR_I2R, 600, 50, 6, 600, 6, 600, 6, 600, 0, &m, &note);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 2);
	CHECK(ops[0].complete && !ops[0].has_ack);
	CHECK(ops[1].complete && ops[1].has_ack);
	CHECK_EQ(ops[1].ack_frame, 90);
	iws_tracker_free(t);
}

static void case_response_before_read(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* A response complete before the Read outstanding was even sent (an
	 * FPDU cut by the capture's end, reported late) answers nothing. */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x100, 0x5000, 1000);
	feed(t, IWS_DIR_I2R, 27, 2700, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x100, 0x5000, 1, 1000);
	feed(t, IWS_DIR_R2I, 20, 2000, &m, IWS_CRC_OK, &note);
	CHECK(note.flags & IWS_SEGF_ORPHAN_RESPONSE);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(iws_tracker_counts(t)->orphan_responses, 1);
	for (int i = 0; i < n_ops && i < MAX_OPS; i++)
		CHECK(ops[i].last_frame >= ops[i].first_frame);
	iws_tracker_free(t);
}

static void case_never_borrow(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* --- never borrow a request (docs/semantics.md, "Which request a
	 * response answers"): a capture that starts inside a Read storm whose
	 * Reads all use one sink STag/TO, as perftest's do. Reads MSN 1..10
	 * were sent before the capture; the first response seen (Read 1's) came
	 * before Reads 11..30 were sent together in frame 61. */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	iws_tracker_gap(t, IWS_DIR_I2R);                 /* the capture starts mid-stream */
	iws_tracker_gap(t, IWS_DIR_R2I);
	m = tagged(2, 0x77, 0x9000, 1, 100);
	feed(t, IWS_DIR_R2I, 56, 5600, &m, IWS_CRC_OK, &note);
	CHECK(note.flags & IWS_SEGF_ORPHAN_RESPONSE);
	for (uint32_t msn = 11; msn <= 30; msn++) {
		m = read_req(msn, 0x77, 0x9000, 100);
		feed(t, IWS_DIR_I2R, 61, 6100, &m, IWS_CRC_OK, &note);
	}
	for (uint64_t r = 2; r <= 30; r++) {
		m = tagged(2, 0x77, 0x9000, 1, 100);
		feed(t, IWS_DIR_R2I, 100 + r, 10000 + 100 * (int64_t)r, &m, IWS_CRC_OK, &note);
		/* Reads 2..10 answer requests that may precede the capture; 11..30
		 * requests of frame 61 (which one, known only for the last) */
		CHECK_EQ(note.request_frame, r <= 10 ? 0 : 61);
	}
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	{
		int complete = 0, missing = 0;
		for (int i = 0; i < n_ops && i < MAX_OPS; i++) {
			if (ops[i].complete) {
				complete++;
				CHECK_EQ(ops[i].first_frame, 61);
				CHECK_EQ(ops[i].latency_ns, ops[i].end_ns - 6100);
				CHECK(ops[i].has_qn == (ops[i].last_frame == 130));
			} else {
				missing++;
				CHECK(ops[i].flags & IWS_OPF_REQUEST_MISSING);
				CHECK(!ops[i].has_latency);
			}
		}
		CHECK_EQ(n_ops, 30);
		CHECK_EQ(complete, 20);
		CHECK_EQ(missing, 10);
	}
	iws_tracker_free(t);
}

static void case_same_stag_to(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* the same STag/TO for two Reads, then responses lost in a gap: the
	 * next response may answer either; neither is given it */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x88, 0, 100);
	feed(t, IWS_DIR_I2R, 10, 1000, &m, IWS_CRC_OK, &note);
	m = read_req(2, 0x88, 0, 100);
	feed(t, IWS_DIR_I2R, 11, 1100, &m, IWS_CRC_OK, &note);
	iws_tracker_gap(t, IWS_DIR_R2I);
	m = tagged(2, 0x88, 0, 1, 100);
	feed(t, IWS_DIR_R2I, 20, 2000, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.request_frame, 0);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 3);
	/* Read 1 is answered by now, in the gap or by that response: over;
	 * Read 2 may be answered by it (reported in this order: the response
	 * held for a clean close that never came, then what was in flight) */
	CHECK(!ops[0].complete && (ops[0].flags & IWS_OPF_REQUEST_MISSING));
	CHECK(!ops[1].complete && (ops[1].flags & IWS_OPF_GAP) && ops[1].first_frame == 10);
	CHECK(!ops[2].complete && (ops[2].flags & IWS_OPF_RESPONSE_UNKNOWN) && ops[2].first_frame == 11);
	CHECK_EQ(iws_tracker_counts(t)->responses_unknown, 1);
	iws_tracker_free(t);
}

static void case_msn_hidden_requests(void)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t;
	/* requests a slice hid, counted by the MSNs around them (1, then 4):
	 * two Reads of frame 20, answered before and after Read 4 is seen */
	n_ops = 0;
	t = iws_tracker_new(NULL, on_op, NULL);
	m = read_req(1, 0x100, 0x5000, 100);
	feed(t, IWS_DIR_I2R, 10, 1000, &m, IWS_CRC_OK, &note);
	iws_tracker_hidden(t, IWS_DIR_I2R, 20, 2000);
	iws_tracker_gap(t, IWS_DIR_I2R);                 /* framing lost over the same octets */
	m = tagged(2, 0x100, 0x5000, 1, 100);
	feed(t, IWS_DIR_R2I, 30, 3000, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x100, 0x5000, 1, 100);            /* a hidden one: nothing else was sent */
	feed(t, IWS_DIR_R2I, 31, 3100, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.request_frame, 20);
	m = read_req(4, 0x100, 0x5000, 100);
	feed(t, IWS_DIR_I2R, 32, 3200, &m, IWS_CRC_OK, &note);
	m = tagged(2, 0x100, 0x5000, 1, 100);            /* the other hidden one, not Read 4 */
	feed(t, IWS_DIR_R2I, 33, 3300, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.request_frame, 20);
	m = tagged(2, 0x100, 0x5000, 1, 100);
	feed(t, IWS_DIR_R2I, 34, 3400, &m, IWS_CRC_OK, &note);
	CHECK_EQ(note.request_frame, 32);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	CHECK_EQ(n_ops, 4);
	for (int i = 0; i < 4; i++)
		CHECK(ops[i].complete);
	CHECK_EQ(iws_tracker_counts(t)->hidden_requests, 2);
	iws_tracker_free(t);
}

static void case_type_names(void)
{
	CHECK(strcmp(iws_op_type_name(IWS_OPT_SEND_SE_INV), "send_se_inv") == 0);
	CHECK_EQ(iws_op_type_from_name("atomic_cmp_swap"), IWS_OPT_ATOMIC_CMP_SWAP);
	CHECK_EQ(iws_op_type_from_name("nope"), (unsigned long long)-1);
}

/*
 * A capture that starts mid-stream, perftest style (one sink STag and TO for
 * every Read): a response to a Read before the capture (MSN 4), then Reads
 * 5, 6, 7 each answered. Nothing proves the pairs until the close: with a
 * FIN each way, responses_before = 7 - 4 responses = 3, so the first
 * answers MSN 4 (before the capture) and the others Reads 5-7. end: 0 both
 * FINs, 1 one FIN only, 2 an RST, 3 a response whose sink TO contradicts.
 */
static void close_count_run(int end)
{
	struct iws_seg_note note;
	struct iws_msg m;
	struct iws_tracker *t = iws_tracker_new(NULL, on_op, NULL);
	uint64_t held_ids[4];
	n_ops = 0;
	/* the capture starts inside both streams (as the engine tells it) */
	iws_tracker_gap(t, IWS_DIR_R2I);
	iws_tracker_gap(t, IWS_DIR_I2R);
	m = tagged(2, 0x77, 0x1000, 1, 64);
	feed(t, IWS_DIR_R2I, 10, 10000, &m, IWS_CRC_OK, &note);
	CHECK(note.flags & IWS_SEGF_ORPHAN_RESPONSE);
	held_ids[0] = note.op_id;
	for (int i = 0; i < 3; i++) {
		uint64_t f = 11 + 2 * (uint64_t)i;
		m = read_req(5 + (uint32_t)i, 0x77, 0x1000, 64);
		feed(t, IWS_DIR_I2R, f, (int64_t)f * 1000, &m, IWS_CRC_OK, &note);
		m = tagged(2, 0x77, end == 3 && i == 1 ? 0x2000 : 0x1000, 1, 64);
		feed(t, IWS_DIR_R2I, f + 1, (int64_t)f * 1000 + 700, &m, IWS_CRC_OK, &note);
		/* not proven when it comes: no request link yet, held */
		CHECK_EQ(note.request_frame, 0);
		held_ids[1 + i] = note.op_id;
	}
	CHECK_EQ(n_ops, 0);
	/* at a FIN the Reads are not counted outstanding: the capture cannot
	 * tell yet whether they were answered */
	uint64_t ids[8];
	CHECK_EQ(iws_tracker_outstanding_ids(t, ids, 8), 0);
	CHECK_EQ(iws_tracker_inflight_ids(t, ids, 8), 7);
	iws_tracker_closed(t, IWS_DIR_I2R, 20, end == 2);
	if (end != 1)
		iws_tracker_closed(t, IWS_DIR_R2I, 21, false);
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	const struct iws_tracker_counts *c = iws_tracker_counts(t);
	CHECK_EQ(c->inflight, 0);
	CHECK_EQ(c->ops_started, c->ops_reported);
	if (end) {
		/* nothing proven: each request and each response alone */
		CHECK_EQ(n_ops, 7);
		for (int i = 0; i < n_ops && i < MAX_OPS; i++) {
			CHECK(!ops[i].complete);
			CHECK_EQ(ops[i].pairing, IWS_PAIR_NONE);
		}
		CHECK_EQ(c->orphan_responses, 4);
		iws_tracker_free(t);
		return;
	}
	CHECK_EQ(n_ops, 4);
	CHECK_EQ(c->orphan_responses, 1);
	CHECK_EQ(c->responses_unknown, 0);
	int before = 0, paired = 0;
	for (int i = 0; i < n_ops && i < MAX_OPS; i++) {
		const struct iws_op *o = &ops[i];
		CHECK_EQ(o->type, IWS_OPT_READ);
		if (o->pairing == IWS_PAIR_BEFORE_CAPTURE) {
			/* its request preceded the capture: known now, not missing */
			before++;
			CHECK_EQ(o->first_frame, 10);
			CHECK_EQ(o->id, held_ids[0]);
			CHECK(!o->complete && (o->flags & IWS_OPF_STARTED_BEFORE));
			CHECK(!(o->flags & IWS_OPF_REQUEST_MISSING));
			CHECK(!o->has_latency);
			continue;
		}
		CHECK_EQ(o->pairing, IWS_PAIR_CLOSE);
		paired++;
		/* one operation from its request to its response, the request's id */
		CHECK(o->complete && o->has_latency);
		CHECK_EQ(o->last_frame, o->first_frame + 1);
		CHECK_EQ(o->latency_ns, 700);
		CHECK_EQ(o->bytes, 64);
		CHECK_EQ(o->segments, 2);
		CHECK_EQ(o->msn, 5 + (o->first_frame - 11) / 2);
		CHECK_EQ(o->response_frame, o->first_frame + 1);
		CHECK_EQ(o->response_op_id, held_ids[1 + (o->first_frame - 11) / 2]);
		CHECK(o->response_op_id != o->id);
		CHECK(!(o->flags & (IWS_OPF_STARTED_BEFORE | IWS_OPF_REQUEST_MISSING | IWS_OPF_RESPONSE_UNKNOWN)));
	}
	CHECK_EQ(before, 1);
	CHECK_EQ(paired, 3);
	iws_tracker_free(t);
}

static void case_close_count(void)
{
	for (int end = 0; end < 4; end++)
		close_count_run(end);
}

/* Each case on fresh state: its own tracker, no operation recorded. */
static void reset(void)
{
	memset(ops, 0, sizeof(ops));
	n_ops = 0;
}

static const struct check_case cases[] = {
	{ "connection_life", case_connection_life },
	{ "gaps", case_gaps },
	{ "rtr_ird", case_rtr_ird },
	{ "bounded_inflight", case_bounded_inflight },
	{ "where_time_went", case_where_time_went },
	{ "oldest_unreported", case_oldest_unreported },
	{ "read_queued", case_read_queued },
	{ "ack_wait_bounded", case_ack_wait_bounded },
	{ "retrans_across_fpdus", case_retrans_across_fpdus },
	{ "snaplen_hidden_read", case_snaplen_hidden_read },
	{ "read_after_span", case_read_after_span },
	{ "acks_before_tracker", case_acks_before_tracker },
	{ "response_before_read", case_response_before_read },
	{ "never_borrow", case_never_borrow },
	{ "same_stag_to", case_same_stag_to },
	{ "close_count", case_close_count },
	{ "msn_hidden_requests", case_msn_hidden_requests },
	{ "type_names", case_type_names },
};

int main(void)
{
	return check_cases("test_qp", cases, sizeof(cases) / sizeof(cases[0]), reset);
}
