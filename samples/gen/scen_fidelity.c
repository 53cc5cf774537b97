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
