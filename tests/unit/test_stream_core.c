// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine's decisions that used to live in the front ends
 * (issue 25 item 3): TCP events reported as events, close records, the
 * NVMe stage, the initiator decision. Each case runs on a fresh engine.
 */
#include "iwarpscope/nvme.h"
#include "iwarpscope/stream.h"
#include "stream_rec.h"

static bool tcp_kind(enum iws_stream_event_kind k)
{
	return k >= IWS_SEV_FAST_RETRANSMIT && k <= IWS_SEV_DUPLICATE_ACK;
}

/* The counter of struct iws_stream_counts each TCP event kind moves. */
static uint64_t tcp_counter(const struct iws_stream_counts *k, enum iws_stream_event_kind kind)
{
	switch (kind) {
	case IWS_SEV_FAST_RETRANSMIT:
		return k->fast_retransmits;
	case IWS_SEV_TIMEOUT:
		return k->timeouts;
	case IWS_SEV_OTHER_RETRANSMIT:
		return k->other_retransmits;
	case IWS_SEV_REORDERED:
		return k->reordered;
	case IWS_SEV_ZERO_WINDOW:
		return k->zero_windows;
	case IWS_SEV_DUPLICATE_ACK:
		return k->duplicate_acks;
	default:
		return 0;
	}
}

/*
 * Feed one segment and check the TCP events it produced: one per counter
 * of the sender's that moved, none for the others, with the segment's side,
 * direction, frame, time, seq and length, after every other event of the
 * frame and in the order of the kinds.
 */
static void feed_checked(int side, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t win, const uint8_t *p,
			 uint32_t len)
{
	struct iws_stream_counts before[2] = { *iws_stream_counts(T.s, 0), *iws_stream_counts(T.s, 1) };
	int ev0 = T.nev;
	struct iws_tcp_seg g = { .seq = seq, .ack = ack, .win = win, .flags = flags, .payload = p,
				 .cap_len = len, .wire_len = len, .frame = ++T.frame, .ts_ns = TS(T.frame + 0) };
	T.during = T.frame;
	iws_stream_segment(T.s, side, &g);
	T.during = 0;
	for (int k = IWS_SEV_FAST_RETRANSMIT; k <= IWS_SEV_DUPLICATE_ACK; k++) {
		int n = 0;
		for (int i = ev0; i < T.nev; i++)
			n += T.ev[i].ev.kind == (enum iws_stream_event_kind)k;
		CHECK_EQ(n, tcp_counter(iws_stream_counts(T.s, side), k) - tcp_counter(&before[side], k));
		CHECK_EQ(tcp_counter(iws_stream_counts(T.s, !side), k), tcp_counter(&before[!side], k));
	}
	int last = 0;
	for (int i = ev0; i < T.nev; i++) {
		const struct iws_stream_event *e = &T.ev[i].ev;
		if (!tcp_kind(e->kind)) {
			CHECK_EQ(last, 0);  /* TCP events come last */
			continue;
		}
		CHECK((int)e->kind > last);
		last = (int)e->kind;
		CHECK_EQ(e->side, side);
		CHECK_EQ(e->dir, side == iws_stream_init_side(T.s) ? IWS_DIR_I2R : IWS_DIR_R2I);
		CHECK_EQ(e->frame, T.frame);
		CHECK_EQ(e->ts, TS(T.frame));
		CHECK_EQ(e->seq, seq);
		CHECK_EQ(e->len, len);
		CHECK_EQ(T.ev[i].during, T.frame);
	}
}

static int count_tcp_ev_in(enum iws_stream_event_kind k, uint64_t frame)
{
	int n = 0;
	for (int i = 0; i < T.nev; i++)
		n += T.ev[i].ev.kind == k && T.ev[i].ev.frame == frame;
	return n;
}

/* A fresh engine (opts as in T.o, guess_init_side as given), streams at
 * ISNs 1000 and 2000, an MPA Request and Reply (elements 0) when mpa. */
static void conn_begin(int guess, bool mpa)
{
	rec_begin(false, false, NULL);
	if (guess) {
		T.o.guess_init_side = guess;
		iws_stream_free(T.s);
		T.s = iws_stream_new(&T.o, &T.lim, &rec_sink, NULL);
	}
	side_init(0, 1000);
	side_init(1, 2000);
	if (mpa) {
		add_mpa(0, 0, 0, 0, 0);
		add_mpa(1, 1, 0, 0, 0);
	}
}

static void el_checked(int side, unsigned i)
{
	feed_checked(side, sq(side, at(side, i)), 0, IWS_TCP_PSH, 65535, T.sd[side].sb.buf + at(side, i),
		     len_of(side, i));
}

static void ack_checked(int side, uint32_t peer_off, uint32_t win)
{
	feed_checked(side, sq(side, (uint32_t)T.sd[side].sb.len), sq(!side, peer_off), IWS_TCP_ACK, win, NULL, 0);
}

/* Duplicate ACKs, a fast retransmit, a zero window, another retransmission,
 * segments out of order: each reported as an event of its kind. */
static void case_tcp_events(void)
{
	conn_begin(0, true);
	for (int i = 0; i < 6; i++)
		add_fpdu(0, sb_send_ulpdu(rec_ub, (uint32_t)i + 1, 0, 1, 100), 0);   /* el 1-6 */
	handshake(0);                           /* 1-4 */
	el_checked(0, 1);                       /* 5 */
	el_checked(0, 2);                       /* 6 */
	el_checked(0, 3);                       /* 7 */
	ack_checked(1, at(0, 2), 65535);        /* 8: acknowledges el 1 */
	CHECK_EQ(count_ev(IWS_SEV_DUPLICATE_ACK), 0);
	ack_checked(1, at(0, 2), 65535);        /* 9-11: three duplicates */
	ack_checked(1, at(0, 2), 65535);
	ack_checked(1, at(0, 2), 65535);
	CHECK_EQ(count_ev(IWS_SEV_DUPLICATE_ACK), 3);
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_DUPLICATE_ACK, 11), 1);
	el_checked(0, 2);                       /* 12: the fast retransmit */
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_FAST_RETRANSMIT, 12), 1);
	ack_checked(1, at(0, 4), 0);            /* 13: a zero window */
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_ZERO_WINDOW, 13), 1);
	const struct iws_stream_event *e = find_ev(IWS_SEV_ZERO_WINDOW, 0);
	if (e) {
		CHECK_EQ(e->side, 1);
		CHECK_EQ(e->dir, IWS_DIR_R2I);
	}
	el_checked(0, 3);                       /* 14: sent again, no duplicate ACKs */
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_TIMEOUT, 14) + count_tcp_ev_in(IWS_SEV_OTHER_RETRANSMIT, 14), 1);
	el_checked(0, 5);                       /* 15: ahead of el 4 */
	el_checked(0, 4);                       /* 16: behind it (reordered or resent) */
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_REORDERED, 16) + count_tcp_ev_in(IWS_SEV_TIMEOUT, 16) +
			 count_tcp_ev_in(IWS_SEV_OTHER_RETRANSMIT, 16),
		 1);
	/* 17: a keep-alive probe, the last octet delivered sent again alone
	 * (RFC 9293 §3.8.4): counted as such, not as a retransmission */
	uint64_t retrans = iws_stream_counts(T.s, 0)->retrans;
	feed_checked(0, sq(0, at(0, 6) - 1), 0, IWS_TCP_ACK, 65535, T.sd[0].sb.buf + at(0, 6) - 1, 1);
	CHECK_EQ(count_tcp_ev_in(IWS_SEV_TIMEOUT, 17) + count_tcp_ev_in(IWS_SEV_OTHER_RETRANSMIT, 17) +
			 count_tcp_ev_in(IWS_SEV_FAST_RETRANSMIT, 17),
		 0);
	CHECK_EQ(iws_stream_counts(T.s, 0)->keepalives, 1);
	CHECK_EQ(iws_stream_counts(T.s, 0)->retrans, retrans);
	/* 18: two old octets are a retransmission */
	feed_checked(0, sq(0, at(0, 6) - 2), 0, IWS_TCP_ACK, 65535, T.sd[0].sb.buf + at(0, 6) - 2, 2);
	CHECK_EQ(iws_stream_counts(T.s, 0)->keepalives, 1);
	CHECK_EQ(iws_stream_counts(T.s, 0)->retrans, retrans + 1);
	int before = T.nev;
	finish(IWS_OPF_UNFINISHED);
	for (int i = before; i < T.nev; i++)
		CHECK(!tcp_kind(T.ev[i].ev.kind));
	rec_end();
}

/* Close records: a Terminate, a FIN and a RST with the operations in
 * flight then, through the sink's close as they are made (a FIN's before
 * its event), none more at iws_stream_finish. */
static void case_close_records(void)
{
	conn_begin(0, true);
	add_fpdu(0, sb_read_req_ulpdu(rec_ub, 1, 0x10, 0, 4000, 0x20, 0), 0);   /* el 1 */
	uint16_t n = sb_send_ulpdu(rec_ub, 1, 0, 1, 28);                          /* el 1: a Terminate */
	rec_ub[1] = 0x40 | IWS_OP_CODE_TERMINATE;
	put_be32(rec_ub + 6, 2);
	memset(rec_ub + 18, 0, 28);
	rec_ub[18] = 0x10;  /* RDMAP layer, local catastrophic */
	add_fpdu(1, n, 0);
	CHECK_EQ(T.nclose, 0);
	handshake(0);                           /* 1-4 */
	send_el(0, 1, 1);                       /* 5: a Read, in flight */
	uint64_t id = 0;
	CHECK_EQ(iws_stream_inflight_ids(T.s, &id, 1), 1);
	send_el(1, 1, 1);                       /* 6: the Terminate */
	ack_to(0, at(1, 2));                    /* 7: its ACK */
	seg_full(0, sq(0, at(0, 2)), 0, IWS_TCP_FIN | IWS_TCP_ACK, NULL, 0, 0);  /* 8 */
	seg_full(1, sq(1, at(1, 2)), 0, IWS_TCP_RST, NULL, 0, 0);               /* 9 */
	seg_full(1, sq(1, at(1, 2)), 0, IWS_TCP_RST, NULL, 0, 0);               /* 10: not its first */
	int nc = T.nclose;
	CHECK_EQ(nc, 3);
	bool term = false;
	for (int i = 0; i < nc; i++) {
		const struct iws_close *r = &T.close[i].c;
		CHECK_EQ(r->outstanding, 1);
		CHECK_EQ(r->nids, 1);
		if (r->nids)
			CHECK_EQ(r->ids[0], id);
		if (r->kind == IWS_CLOSE_TERMINATE) {
			term = true;
			CHECK_EQ(r->dir, IWS_DIR_R2I);
			CHECK_EQ(r->frame, 6);
		}
	}
	CHECK(term);
	if (nc == 3) {
		const struct rclose *r = T.close;
		CHECK_EQ(r[1].c.kind, IWS_CLOSE_FIN);
		CHECK_EQ(r[1].c.dir, IWS_DIR_I2R);
		CHECK_EQ(r[1].c.frame, 8);
		CHECK_EQ(r[1].c.ts, TS(8));
		CHECK_EQ(r[2].c.kind, IWS_CLOSE_RST);
		CHECK_EQ(r[2].c.dir, IWS_DIR_R2I);
		CHECK_EQ(r[2].c.frame, 9);
		/* each FIN's and RST's record comes just before its event */
		CHECK(r[1].nev_before < T.nev && T.ev[r[1].nev_before].ev.kind == IWS_SEV_FIN);
		CHECK(r[2].nev_before < T.nev && T.ev[r[2].nev_before].ev.kind == IWS_SEV_RST);
	}
	/* the events say as much */
	const struct iws_stream_event *e = find_ev(IWS_SEV_FIN, 0);
	CHECK(e && e->detail == 1);
	finish(IWS_OPF_ABORTED);
	CHECK_EQ(T.nclose, 3);
	rec_end();

	/* Past IWS_STREAM_MAX_CLOSES no record comes: 10 Terminates and a FIN
	 * make the first 8 records; the FIN's event still counts. */
	conn_begin(0, true);
	for (uint32_t msn = 1; msn <= 10; msn++) {
		uint16_t tn = sb_send_ulpdu(rec_ub, msn, 0, 1, 28);
		rec_ub[1] = 0x40 | IWS_OP_CODE_TERMINATE;
		put_be32(rec_ub + 6, 2);
		memset(rec_ub + 18, 0, 28);
		rec_ub[18] = 0x10;
		add_fpdu(1, tn, 0);                 /* el 1-10 */
	}
	handshake(0);
	send_el(1, 1, 10);
	ack_to(0, at(1, 11));
	seg_full(1, sq(1, at(1, 11)), 0, IWS_TCP_FIN | IWS_TCP_ACK, NULL, 0, 0);
	finish(IWS_OPF_ABORTED);
	CHECK_EQ(T.nclose, IWS_STREAM_MAX_CLOSES);
	for (int i = 0; i < T.nclose; i++)
		CHECK_EQ(T.close[i].c.kind, IWS_CLOSE_TERMINATE);
	CHECK(find_ev(IWS_SEV_FIN, 0) != NULL);
	rec_end();

	/* No tracker: none outstanding. */
	conn_begin(0, false);
	seg_full(0, 1000, 0, IWS_TCP_FIN, NULL, 0, 0);
	seg_full(1, 2000, 0, IWS_TCP_RST, NULL, 0, 0);
	seg_full(0, 1001, 0, IWS_TCP_FIN, NULL, 0, 0);   /* not its first */
	CHECK_EQ(T.nclose, 2);
	if (T.nclose == 2) {
		CHECK_EQ(T.close[0].c.kind, IWS_CLOSE_FIN);
		CHECK_EQ(T.close[0].c.outstanding, 0);
		CHECK_EQ(T.close[0].c.nids, 0);
		CHECK_EQ(T.close[1].c.kind, IWS_CLOSE_RST);
	}
	rec_end();
}

/* ---- the NVMe stage ---- */

static struct iws_nvme_cmd nvme_cmds[8];
static int n_nvme_cmds;

static void on_nvme(void *ctx, const struct iws_nvme_cmd *c)
{
	CHECK(ctx == NULL);  /* the sink's */
	if (n_nvme_cmds < 8)
		nvme_cmds[n_nvme_cmds] = *c;
	n_nvme_cmds++;
}

/* A Send carrying a Keep Alive capsule (host, side 0), and the response
 * capsule carrying its CID (side 1). */
static void add_nvme_exchange(uint16_t cid)
{
	uint16_t n = sb_send_ulpdu(rec_ub, 1, 0, 1, 64);
	memset(rec_ub + 18, 0, 64);
	rec_ub[18] = 0x18;                   /* Keep Alive */
	rec_ub[19] = 0x40;                   /* SGL */
	put_le16(rec_ub + 20, cid);
	rec_ub[18 + 39] = 0x40;              /* keyed data block, length 0 */
	add_fpdu(0, n, 0);
	n = sb_send_ulpdu(rec_ub, 1, 0, 1, 16);
	memset(rec_ub + 18, 0, 16);
	put_le16(rec_ub + 18 + 8, 1);        /* SQ head */
	put_le16(rec_ub + 18 + 12, cid);
	put_le16(rec_ub + 18 + 14, 1);       /* phase, success */
	add_fpdu(1, n, 0);
}

static void nvme_conn_begin(bool stage)
{
	conn_begin(0, true);
	n_nvme_cmds = 0;
	if (stage)
		iws_stream_nvme_stage(T.s, 7, on_nvme);
	add_nvme_exchange(5);                   /* el 1 of each side */
}

static void case_nvme_stage(void)
{
	/* off: no view, no notes, no commands */
	nvme_conn_begin(false);
	handshake(0);
	send_el(0, 1, 1);
	send_el(1, 1, 1);
	CHECK(iws_stream_nvme(T.s) == NULL);
	for (int i = 0; i < T.npdu; i++)
		CHECK(!T.pdu[i].has_nvme_note);
	finish(IWS_OPF_UNFINISHED);
	CHECK_EQ(n_nvme_cmds, 0);
	rec_end();

	/* on: the command is recognised and reported, the FPDUs carry notes */
	nvme_conn_begin(true);
	CHECK(iws_stream_nvme(T.s) == NULL);    /* before the first PDU */
	handshake(0);                           /* 1-4 */
	CHECK(iws_stream_nvme(T.s) != NULL);
	send_el(0, 1, 1);                       /* 5: the capsule */
	send_el(1, 1, 1);                       /* 6: the response */
	const struct iws_nvme_conn *nc = iws_stream_nvme(T.s);
	CHECK(nc != NULL);
	if (nc) {
		CHECK_EQ(iws_nvme_conn_state(nc), IWS_NVME_YES);
		CHECK(iws_nvme_conn_tracker(nc) != NULL);
	}
	CHECK_EQ(n_nvme_cmds, 1);
	if (n_nvme_cmds == 1) {
		CHECK_EQ(nvme_cmds[0].qp, 7);
		CHECK_EQ(nvme_cmds[0].cid, 5);
		CHECK(nvme_cmds[0].complete);
		CHECK_EQ(nvme_cmds[0].first_frame, 5);
	}
	const struct rpdu *cap = fpdu_rec(0, 0), *rsp = fpdu_rec(1, 0);
	CHECK(cap && cap->has_nvme_note && cap->nvme_note.cmd_id != 0);
	CHECK(rsp && rsp->has_nvme_note && rsp->nvme_note.cmd_id == (cap ? cap->nvme_note.cmd_id : 0));
	for (int i = 0; i < T.npdu; i++)
		if (T.pdu[i].p.kind == IWS_PDU_MPA_FRAME)
			CHECK(!T.pdu[i].has_nvme_note);
	finish(IWS_OPF_UNFINISHED);
	nc = iws_stream_nvme(T.s);              /* readable after the end */
	CHECK(nc && iws_nvme_conn_state(nc) == IWS_NVME_YES);
	CHECK_EQ(n_nvme_cmds, 1);
	rec_end();

	/* on, but not NVMe: given up after IWS_NVME_PROBE_SENDS Sends that
	 * are no capsule, the view is gone */
	conn_begin(0, true);
	n_nvme_cmds = 0;
	iws_stream_nvme_stage(T.s, 7, on_nvme);
	for (uint32_t i = 0; i < IWS_NVME_PROBE_SENDS + 8; i++)
		add_fpdu(0, sb_send_ulpdu(rec_ub, i + 1, 0, 1, 100), 0);
	handshake(0);
	send_el(0, 1, 1);
	CHECK(iws_stream_nvme(T.s) != NULL);
	for (unsigned i = 2; i <= IWS_NVME_PROBE_SENDS + 8; i++)
		send_el(0, i, i);
	CHECK(iws_stream_nvme(T.s) == NULL);
	finish(IWS_OPF_UNFINISHED);
	CHECK(iws_stream_nvme(T.s) == NULL);
	CHECK_EQ(n_nvme_cmds, 0);
	rec_end();

	/* asked for after the first segment: off */
	conn_begin(0, true);
	n_nvme_cmds = 0;
	add_nvme_exchange(5);
	syn(0, false);
	iws_stream_nvme_stage(T.s, 7, on_nvme);
	syn(1, true);
	send_el(0, 0, 0);
	send_el(1, 0, 0);
	send_el(0, 1, 1);
	send_el(1, 1, 1);
	CHECK(iws_stream_nvme(T.s) == NULL);
	CHECK_EQ(n_nvme_cmds, 0);
	rec_end();
}

/* ---- the initiator ---- */

static int init_side_after(int guess, int side, uint8_t flags)
{
	conn_begin(guess, false);
	add_fpdu(side, sb_send_ulpdu(rec_ub, 1, 0, 1, 100), 0);
	if (flags & IWS_TCP_SYN)
		syn(side, (flags & IWS_TCP_ACK) != 0);
	else
		send_el(side, 0, 0);
	int r = iws_stream_init_side(T.s);
	rec_end();
	return r;
}

static void case_init_side(void)
{
	/* decided by the engine from the first segment */
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 0, IWS_TCP_SYN | IWS_TCP_ACK), 1);
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 1, IWS_TCP_SYN | IWS_TCP_ACK), 0);
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 0, IWS_TCP_SYN), 0);
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 1, IWS_TCP_SYN), 1);
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 0, 0), 0);
	CHECK_EQ(init_side_after(IWS_INIT_SIDE_AUTO, 1, 0), 1);
	/* a guess still holds without a SYN; a SYN still overrides it */
	CHECK_EQ(init_side_after(1, 0, 0), 1);
	CHECK_EQ(init_side_after(0, 1, 0), 0);
	CHECK_EQ(init_side_after(0, 0, IWS_TCP_SYN | IWS_TCP_ACK), 1);
	CHECK_EQ(init_side_after(1, 1, IWS_TCP_SYN), 1);

	/* an MPA Request overrides the first segment's decision */
	conn_begin(IWS_INIT_SIDE_AUTO, true);
	seg_full(1, sq(1, 0), 0, 0, NULL, 0, 0); /* side 1 first: no data */
	CHECK_EQ(iws_stream_init_side(T.s), 1);
	send_el(0, 0, 0);                       /* the Request, */
	send_el(1, 0, 0);                       /* the Reply */
	CHECK_EQ(iws_stream_state(T.s), IWS_SST_FULL);
	CHECK_EQ(iws_stream_init_side(T.s), 0);
	rec_end();
}

static const struct check_case cases[] = {
	{ "tcp_events", case_tcp_events },
	{ "close_records", case_close_records },
	{ "nvme_stage", case_nvme_stage },
	{ "init_side", case_init_side },
};

int main(void)
{
	return check_cases("test_stream_core", cases, sizeof(cases) / sizeof(cases[0]), NULL);
}
