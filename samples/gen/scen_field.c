// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Field cases of issue 31 (item 9): captures cut the way real ones are - a
 * latency test captured from its middle, the first file of a ring buffer,
 * NVMe-oF through a mirror port that slices to 96 octets - so that the
 * truth says what such a file proves and what it cannot.
 */
#include "scenarios.h"

#include <string.h>

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

/*
 * perftest's ib_read_lat: one 64-octet Read at a time, every Read with the
 * same sink STag and TO (and source STag and TO), the next posted when the
 * last completed. The capture starts between Read 41's request and its
 * response and lasts to a clean close, so only the count at the close
 * (docs/semantics.md "The count at a clean close") proves which request
 * each response answers.
 */
void scen_cut_read_lat(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;
	const uint32_t sink = 0x1e4a00, src = 0x2f5b00;
	const uint64_t sink_to = 0x000055d0c0de0000ull, src_to = 0x00005610beef0000ull;
	const int before = 40, total = 100;

	g->description = "perftest ib_read_lat captured from the middle of its run: 100 Reads of 64 "
			 "octets, one at a time, every one with the same sink STag and TO and source "
			 "STag and TO, CRC off. The capture starts after Read 41's request, before its "
			 "response (no handshake; its first data segment is that response) and ends "
			 "with a clean close (a FIN each way). Reads 42-100 have request and response "
			 "captured: each is one operation, paired at the close (pairing close), "
			 "counted once; Read 41's response is listed alone, its request proven to "
			 "precede the capture (pairing before_capture, started_before).";
	k.ird = k.ord = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	for (int i = 0; i < total; i++) {
		int op = rd_read_req(g, c, I2R, sink, sink_to, 64, src, src_to);

		t = tcp_flush(g, c, I2R, t) + c->cfg.rtt / 2 + s_proc(g);
		/* ib_read_lat's Reads are the whole run: the capture (started
		 * by hand) begins while Read 41 is on the wire */
		if (i == before)
			g->capture_start = t - 1 * US;
		rd_read_resp(g, c, op);
		t = tcp_flush(g, c, R2I, t) + c->cfg.rtt / 2;
		tcp_settle(g, c, t);
		t += 2 * US;
	}
	s_close(g, c, I2R, t + 30 * US);
}

/*
 * The first file of a ring buffer (tcpdump -C/-W): the capture was started
 * on a connection already busy and the file filled up while traffic went
 * on. It starts inside an i2r Write with a Read's request before it and
 * ends inside an i2r Write, an r2i Send and an i2r Read: no FIN, no RST.
 */
void scen_ring_first_file(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	struct segplan sw[64], ss[64];
	uint64_t t = T_BASE;
	int nw, ns, rd0, rd1;

	g->description = "The first file of a ring-buffer capture set (tcpdump -C/-W): it starts "
			 "mid-connection, inside a 12000-octet i2r Write (3000-octet DDP segments, CRC "
			 "on) whose first FPDUs were sent before, with a Read's request (4000 octets) "
			 "sent before it and its response after; then Writes, Sends and Reads both ways; "
			 "the file ends mid-connection (no FIN, no RST) inside a 20000-octet i2r Write, "
			 "a 6000-octet r2i Send and a Read whose response the file does not hold. The "
			 "operations begun before the file are started_before (the Read's response "
			 "request_missing), the ones still going at its end unfinished, none aborted.";
	k.req_c = k.rep_c = 1;
	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 3000;
	k.mode[R2I] = SEG_STREAM;
	k.ddp_max[R2I] = 1400;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 8000, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 300, t + 30 * US);
	t = s_read(g, c, I2R, 2000, t + 30 * US);

	/* the file starts: a Read's request, then a Write already on the wire */
	rd0 = post_read(g, c, I2R, 4000, 0);
	t = flush_settle(g, c, I2R, t + 30 * US);
	post_write(g, c, I2R, 12000);
	nw = tcp_plan(c, I2R, sw, 64);
	/* the first captured segment begins inside the Write's first FPDU */
	g->capture_start = t + (tcp_wire_ns(sw[0].len + 54) + 700);
	t = emit_plan(g, c, I2R, sw, nw, NULL, NULL, t);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;
	rd_read_resp(g, c, rd0);
	t = flush_settle(g, c, R2I, t + s_proc(g));

	/* the file's middle: r2i's first captured messages are no Writes (a
	 * direction's first Write segment may not begin its message,
	 * docs/semantics.md), Writes come after */
	t = s_send(g, c, R2I, OP_SEND, 2000, t + 30 * US);
	t = s_write(g, c, I2R, 9000, t + 30 * US);
	t = s_read(g, c, I2R, 5000, t + 30 * US);
	t = s_write(g, c, R2I, 4000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_SE, 800, t + 30 * US);
	t = s_read(g, c, R2I, 3000, t + 30 * US);

	/* the file ends: a Read's request, then a Send and a Write half sent */
	rd1 = post_read(g, c, I2R, 6000, 0);
	t = flush_settle(g, c, I2R, t + 30 * US);
	post_write(g, c, I2R, 20000);
	nw = tcp_plan(c, I2R, sw, 64);
	rd_send(g, c, R2I, OP_SEND, 0, 6000);
	ns = tcp_plan(c, R2I, ss, 64);
	t = emit_plan(g, c, I2R, sw, 3, NULL, NULL, t + 10 * US) + 3 * US;
	t = emit_plan(g, c, R2I, ss, 2, NULL, NULL, t) + 3 * US;
	g->capture_end = t + 2 * US;
	/* traffic goes on into the set's next file */
	t = emit_plan(g, c, I2R, sw + 3, nw - 3, NULL, NULL, t + 5 * US);
	t = emit_plan(g, c, R2I, ss + 2, ns - 2, NULL, NULL, t + 5 * US);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;
	rd_read_resp(g, c, rd1);
	t = flush_settle(g, c, R2I, t + s_proc(g));
	s_close(g, c, I2R, t + 50 * US);
}
