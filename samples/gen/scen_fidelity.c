// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenarios of issue 22 (field fidelity): captures the project had not
 * seen, where a decoder that guesses gets plausible wrong answers - Reads
 * given another Read's request, reordering taken for loss, framing that
 * real senders' segment patterns hide, NVMe commands cut by a slice, a
 * sender writing Read Request fields least significant octet first.
 */
#include "scenarios.h"

#include <string.h>

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

/*
 * A capture that starts inside a Read storm, perftest style: every Read uses
 * one sink STag and TO. Reads 1..10 go one per segment; while Read 1 is
 * being answered, the capture starts with Reads 11..30 sent together in
 * one segment; all are answered in order.
 */
void scen_midstream_read_storm(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;
	const uint32_t sink = 0x2a5f00, src = 0x3b6100;
	const uint64_t sink_to = 0x00007f1200000000ull, src_to = 0x00007f3400000000ull;
	int ops[30];

	g->description = "Capture started inside a Read storm whose Reads all use one sink STag and "
			 "TO (perftest's ib_read_bw): Reads 1-10 sent one per segment before the "
			 "capture, which starts while Read 1 is answered, with Reads 11-30 sent "
			 "together in one segment. Responses 1-10 answer requests the capture did not see "
			 "(request_missing); 11-29 answer requests of that one segment, which one "
			 "is not proven (first_frame and latency are, MSN null); 30 answers the "
			 "last one. CRC off, as siw.";
	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 1400;
	k.ird = k.ord = 64;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	for (int i = 0; i < 10; i++) {
		ops[i] = rd_read_req(g, c, I2R, sink, sink_to, 3000, src, src_to);
		t = tcp_flush(g, c, I2R, t + 2 * US) + 2 * US;
	}
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, ops[0]);
	{
		struct segplan s[8];
		int n = tcp_plan(c, R2I, s, 8);
		/* Read 1's first response segment, then the capture starts with
		 * the segment of Reads 11..30, then the rest of Read 1's */
		t = emit_plan(g, c, R2I, s, 1, NULL, NULL, t) + 3 * US;
		for (int i = 10; i < 30; i++)
			ops[i] = rd_read_req(g, c, I2R, sink, sink_to, 3000, src, src_to);
		g->capture_start = t;
		t = tcp_flush(g, c, I2R, t) + 3 * US;
		t = emit_plan(g, c, R2I, s + 1, n - 1, NULL, NULL, t) + 5 * US;
		tcp_settle(g, c, t);
		t += 5 * US;
	}
	for (int i = 1; i < 30; i++) {
		rd_read_resp(g, c, ops[i]);
		t = tcp_flush(g, c, R2I, t + s_proc(g));
		tcp_settle(g, c, t + 6 * US);
		t += 10 * US;
	}
	s_close(g, c, I2R, t + 30 * US);
}

/*
 * siw's segment patterns, captured mid-stream by a mirror port that slices
 * every frame to 96 octets: no lengths to chain, framing must be found from
 * the segments alone. The responder (siw) sends each FPDU aligned with TCP
 * segments but 4 octets longer than one: 1444 octets, then a 4-octet
 * segment with the CRC field; the requester packs its Read Requests several
 * to a segment.
 */
void scen_sliced_siw_midstream(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;
	int ops[8];

	g->description = "siw's segment patterns captured mid-stream and sliced to 96 octets, "
			 "TCP timestamps on (30 payload octets captured per frame). r2i: every FPDU "
			 "1448 octets, sent as a 1444-octet segment and a 4-octet one (its CRC "
			 "field), Read Responses, Writes and Sends alike; i2r: Read Requests packed "
			 "8 to a segment, Sends. Three rounds of 8 Reads of 8 kB (one sink STag and "
			 "TO), a 16 kB Write and Sends; the capture starts after the first. Framing "
			 "is found from the segment starts (FPDU headers where the previous FPDU "
			 "ends), every FPDU whose header was captured is decoded.";
	k.tcp_ts = 1;
	k.mss = 1444 + 12;
	k.mode[R2I] = SEG_ALIGNED;
	k.aligned_ddp[R2I] = 1428;
	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 1400;
	k.ird = k.ord = 64;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	for (int round = 0; round < 3; round++) {
		if (round == 1)
			g->capture_start = t;
		for (int i = 0; i < 8; i++)
			ops[i] = rd_read_req(g, c, I2R, 0x4c0100, 0x00007f5500000000ull, 8192, 0x4d0200,
					     0x00007f6600000000ull);
		t = flush_settle(g, c, I2R, t + 20 * US);
		t += c->cfg.rtt / 2 + s_proc(g);
		for (int i = 0; i < 8; i++)
			rd_read_resp(g, c, ops[i]);
		t = flush_settle(g, c, R2I, t);
		t = s_write(g, c, R2I, 16384, t + 20 * US);
		t = s_send(g, c, R2I, OP_SEND, 3000, t + 20 * US);
		t = s_send(g, c, I2R, OP_SEND, 64, t + 20 * US);
	}
	s_close(g, c, I2R, t + 30 * US);
	g->snaplen = 96;
}

/*
 * Segments unlike FPDUs, captured mid-stream and sliced: the responder's
 * FPDUs are longer than a segment (siw with GSO: each starts a segment and
 * goes on over six more), the requester's segments are TSO super-segments
 * of up to 16000 octets holding several FPDUs each.
 */
void scen_sliced_gso_tso(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "FPDUs longer than a segment and TSO super-segments, captured mid-stream "
			 "and sliced to 96 octets (42 payload octets captured per frame). r2i: "
			 "FPDUs of 8984 octets, each starting a segment and spanning 7 (siw with "
			 "GSO): Read Responses of 32 kB Reads, 24 kB Writes, Sends; i2r: "
			 "super-segments of up to 16000 octets packing FPDUs of 1400-octet DDP "
			 "segments: 48 kB Writes, Read Requests, Sends. The capture starts after "
			 "the first round, with three small Sends i2r (one FPDU to a segment). "
			 "Framing is found where FPDUs start segments; the FPDUs a super-segment "
			 "holds after its first are hidden by the slice, and the segments after "
			 "the first of a Write start inside an FPDU.";
	k.mode[R2I] = SEG_ALIGNED;
	k.aligned_ddp[R2I] = 8960;
	k.mode[I2R] = SEG_SUPER;
	k.ddp_max[I2R] = 1400;
	k.super_max[I2R] = 16000;
	k.ird = k.ord = 64;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	for (int round = 0; round < 3; round++) {
		if (round == 1)
			g->capture_start = t;
		/* small Sends, one FPDU to a segment: where framing is found (a
		 * super-segment's octets after its first FPDU start no FPDU) */
		for (int i = 0; i < 3; i++)
			t = s_send(g, c, I2R, OP_SEND, 100, t + 20 * US);
		t = s_write(g, c, I2R, 49152, t + 20 * US);
		t = s_read(g, c, I2R, 32768, t + 20 * US);
		t = s_write(g, c, R2I, 24576, t + 20 * US);
		t = s_send(g, c, R2I, OP_SEND, 2000, t + 20 * US);
		t = s_send(g, c, I2R, OP_SEND, 3000, t + 20 * US);
	}
	s_close(g, c, I2R, t + 30 * US);
	g->snaplen = 96;
}

/*
 * A sender that writes its Read Request fields least significant octet
 * first (an early software stack did; the same stack wrote FPDUPTR so).
 */
void scen_read_req_le(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "The initiator writes every Read Request field (sink STag and TO, size, "
			 "source STag and TO) least significant octet first, as an early software "
			 "iWARP stack did; its peer answers with the STags and TOs meant. 20 Reads of "
			 "1 kB, one at a time and four outstanding at once, and Sends. The first "
			 "response shows the byte order (its sink STag and TO are the request's "
			 "swapped); every Read is then complete with the fields meant "
			 "(rdmap_deviation_i2r: read_req_le).";
	k.rdreq_le[I2R] = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	for (int i = 0; i < 8; i++)
		t = s_read(g, c, I2R, 1024, t + 20 * US);
	for (int round = 0; round < 3; round++) {
		int ops[4];
		for (int i = 0; i < 4; i++)
			ops[i] = post_read(g, c, I2R, 1024, 0);
		t = flush_settle(g, c, I2R, t + 20 * US);
		t += c->cfg.rtt / 2 + s_proc(g);
		for (int i = 0; i < 4; i++)
			rd_read_resp(g, c, ops[i]);
		t = flush_settle(g, c, R2I, t);
	}
	t = s_send(g, c, R2I, OP_SEND, 300, t + 30 * US);
	s_close(g, c, I2R, t + 30 * US);
}
