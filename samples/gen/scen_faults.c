// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenarios with capture faults: loss and retransmission, reordering,
 * duplicates, a capture starting mid-stream, corrupted CRCs, true capture
 * gaps and snaplen truncation. */
#include "scenarios.h"

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

#define MAXSEG 128

void scen_retransmit_reorder_dup(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct segplan s[MAXSEG];
	uint32_t fault[MAXSEG] = { 0 };
	struct conn *c;
	uint64_t t = T_BASE;
	int n, op;

	g->description = "TCP faults on one connection, CRC on, FPDUs straddling segments: an i2r "
			 "segment of a multi-segment Write is lost before the capture point and "
			 "retransmitted after four duplicate ACKs (the original is never "
			 "captured); two r2i Read Response segments arrive swapped; a Send "
			 "segment and a Write segment are captured twice (spurious "
			 "retransmissions).";
	k.req_c = k.rep_c = 1;
	k.mode[0] = k.mode[1] = SEG_STREAM;
	k.ddp_max[I2R] = 1000;
	k.ddp_max[R2I] = 700;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_send(g, c, I2R, OP_SEND, 120, t + 30 * US);

	/* 1. loss, duplicate ACKs, fast retransmission */
	post_write(g, c, I2R, 9000);
	n = tcp_plan(c, I2R, s, MAXSEG);
	fault[2] = FF_LOST;
	t = emit_plan(g, c, I2R, s, n, NULL, fault, t + 30 * US);
	t += 40 * US;
	tcp_emit_seg(g, c, I2R, s[2].off, s[2].len, t, 0);
	tcp_ack_if_due(g, c, I2R, t + 3 * US);
	t += 30 * US;

	/* 2. reordering: Read Response segments 1 and 2 swapped */
	op = post_read(g, c, I2R, 6000, 0);
	t = tcp_flush(g, c, I2R, t);
	t += c->cfg.rtt + s_proc(g);
	rd_read_resp(g, c, op);
	t = emit_swapped(g, c, R2I, 1, 2, t);
	tcp_settle(g, c, t + 6 * US);
	t += 30 * US;

	/* 3. duplicates: the first Send segment and the last Write segment again */
	rd_send(g, c, I2R, OP_SEND_SE, 0, 2500);
	n = tcp_plan(c, I2R, s, MAXSEG);
	t = emit_plan(g, c, I2R, s, n, NULL, NULL, t);
	t += 25 * US;
	tcp_emit_seg(g, c, I2R, s[0].off, s[0].len, t, 0);
	tcp_ack_if_due(g, c, I2R, t + 3 * US);
	t += 30 * US;
	post_write(g, c, R2I, 3000);
	n = tcp_plan(c, R2I, s, MAXSEG);
	t = emit_plan(g, c, R2I, s, n, NULL, NULL, t);
	tcp_settle(g, c, t + 6 * US);
	t += 40 * US;
	tcp_emit_seg(g, c, R2I, s[n - 1].off, s[n - 1].len, t, 0);
	tcp_ack_if_due(g, c, R2I, t + 3 * US);
	t += 30 * US;

	/* 4. clean traffic afterwards */
	t = s_write(g, c, I2R, 2000, t);
	t = s_read(g, c, I2R, 1200, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_midstream(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct segplan s[MAXSEG];
	struct conn *c;
	uint64_t t = T_BASE;
	int n;

	g->description = "Capture started mid-stream: no TCP or MPA handshake, the first frame "
			 "is an i2r segment that starts inside an FPDU of a 3000-octet-segment "
			 "RDMA Write (MSN values continue from earlier traffic). CRC on, no "
			 "markers. The first, partial FPDU is not listed; its Write is listed "
			 "as incomplete.";
	k.req_c = k.rep_c = 1;
	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 3000;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 8000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 100, t + 30 * US);
	t = s_read(g, c, I2R, 2000, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 300, t + 30 * US);

	post_write(g, c, I2R, 15000);
	n = tcp_plan(c, I2R, s, MAXSEG);
	t += 200 * US;
	/* segment 1 begins 1460 octets into the Write's first (3024-octet) FPDU */
	g->capture_start = t + (tcp_wire_ns(s[0].len + 54) + 700);
	t = emit_plan(g, c, I2R, s, n, NULL, NULL, t);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;
	t = s_read(g, c, I2R, 5000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_SE, 800, t + 30 * US);
	/* no Write after the capture start other than the cut one: a decoder cannot
	 * tell whether a direction's first Write segment began the message
	 * (docs/semantics.md), so the r2i traffic here is a Send */
	t = s_send(g, c, R2I, OP_SEND, 2000, t + 30 * US);
	t = s_imm(g, c, I2R, 1, 0x00000000DEADBEEFull, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_crc_corrupt(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "CRC on, one FPDU per TCP segment; some FPDUs carry a wrong CRC (their "
			 "sender is faulty, TCP checksums are right): the 2nd segment of a Write "
			 "(CRC field damaged), a Send (a payload octet damaged after the CRC was "
			 "computed), the last Read Response segment and an Atomic Response. The "
			 "receiver does not terminate (CRC checking not strict).";
	k.req_c = k.rep_c = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 1000, t + 30 * US);
	c->d[I2R].corrupt_at = c->d[I2R].nfpdu + 2;
	c->d[I2R].corrupt_kind = 1;
	t = s_write(g, c, I2R, 6000, t + 30 * US);
	c->d[I2R].corrupt_at = c->d[I2R].nfpdu + 1;
	c->d[I2R].corrupt_kind = 2;
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	c->d[R2I].corrupt_at = c->d[R2I].nfpdu + 3;
	c->d[R2I].corrupt_kind = 2;
	t = s_read(g, c, I2R, 4000, t + 30 * US);
	t = s_imm(g, c, R2I, 0, 12345, t + 30 * US);
	c->d[R2I].corrupt_at = c->d[R2I].nfpdu + 1;
	c->d[R2I].corrupt_kind = 1;
	t = s_atomic(g, c, I2R, OP_FADD, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 64, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_gap(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct segplan s[MAXSEG];
	uint32_t fault[MAXSEG];
	struct conn *a, *b;
	uint64_t t = T_BASE;
	int n, op;

	g->description = "True capture gaps: segments that reached the receiver (its ACKs cover "
			 "them) but are not in the capture. qp 0: one FPDU per segment, CRC on; "
			 "the 4th of 7 Write segments and the 3rd Read Response segment are "
			 "missing (whole FPDUs). qp 1: markers both ways, CRC on, FPDUs straddle "
			 "segments; a missing i2r segment and a missing r2i segment cut FPDUs "
			 "(headers before the gap: listed, CRC unverifiable; headers inside: not "
			 "listed).";
	k.req_c = k.rep_c = 1;
	a = conn_new(g, &k);
	t = s_open(g, a, t);
	post_write(g, a, I2R, 7 * 1440);
	n = tcp_plan(a, I2R, s, MAXSEG);
	for (int i = 0; i < MAXSEG; i++)
		fault[i] = 0;
	fault[3] = FF_NOCAP;
	t = emit_plan(g, a, I2R, s, n, NULL, fault, t + 30 * US);
	tcp_settle(g, a, t + 6 * US);
	t += 30 * US;
	op = post_read(g, a, I2R, 6000, 0);
	t = tcp_flush(g, a, I2R, t);
	t += a->cfg.rtt + s_proc(g);
	rd_read_resp(g, a, op);
	n = tcp_plan(a, R2I, s, MAXSEG);
	fault[3] = 0;
	fault[2] = FF_NOCAP;
	t = emit_plan(g, a, R2I, s, n, NULL, fault, t);
	tcp_settle(g, a, t + 6 * US);
	t = s_send(g, a, I2R, OP_SEND, 100, t + 30 * US);
	t = s_send(g, a, R2I, OP_SEND, 100, t + 30 * US);
	s_close(g, a, I2R, t + 50 * US);

	k.req_m = k.rep_m = 1;
	k.mode[0] = k.mode[1] = SEG_STREAM;
	k.ddp_max[I2R] = 800;
	k.ddp_max[R2I] = 800;
	b = conn_new(g, &k);
	t = s_open(g, b, T_BASE + 2 * MS);
	post_write(g, b, I2R, 8000);
	n = tcp_plan(b, I2R, s, MAXSEG);
	fault[2] = FF_NOCAP;
	t = emit_plan(g, b, I2R, s, n, NULL, fault, t + 30 * US);
	tcp_settle(g, b, t + 6 * US);
	t += 30 * US;
	op = post_read(g, b, I2R, 5000, 0);
	t = tcp_flush(g, b, I2R, t);
	t += b->cfg.rtt + s_proc(g);
	rd_read_resp(g, b, op);
	n = tcp_plan(b, R2I, s, MAXSEG);
	fault[2] = 0;
	fault[1] = FF_NOCAP;
	t = emit_plan(g, b, R2I, s, n, NULL, fault, t);
	tcp_settle(g, b, t + 6 * US);
	t = s_send(g, b, I2R, OP_SEND, 300, t + 30 * US);
	s_close(g, b, I2R, t + 50 * US);
}

static void snaplen(struct gen *g, uint32_t snap)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->snaplen = snap;
	k.req_c = k.rep_c = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 4000, t + 30 * US);
	t = s_read(g, c, I2R, 3000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 12, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_INV, 1500, t + 30 * US);
	t = s_imm(g, c, I2R, 0, 0x1122334455667788ull, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_FADD, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_CSWAP, t + 30 * US);
	t = s_write(g, c, R2I, 64, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_snaplen_128(struct gen *g)
{
	g->description = "Snaplen 128 (like a hardware tracer): frames longer than 128 octets are "
			 "cut (caplen < len). One FPDU per TCP segment and no TCP options, so "
			 "74 octets of TCP payload are visible: every MPA, DDP and RDMAP header is "
			 "visible; payloads and CRCs of big FPDUs are not (CRC unverifiable, "
			 "operations incomplete).";
	snaplen(g, 128);
}

void scen_snaplen_96(struct gen *g)
{
	g->description = "Snaplen 96: 42 octets of TCP payload visible per frame; MPA and DDP "
			 "headers and the fields the truth reports are visible, the Read Request "
			 "source TO and the rest of the Atomic Request are not.";
	snaplen(g, 96);
}
