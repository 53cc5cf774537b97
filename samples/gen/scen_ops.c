// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenarios: RFC 7306 atomics and immediate data, Terminate at each layer,
 * several interleaved connections. */
#include "scenarios.h"

#include "ddp.h"
#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

void scen_atomics(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;
	int a, b, r;

	g->description = "RFC 7306 atomics, CRC on: FetchAdd and CmpSwap in both directions; two "
			 "pipelined requests (QN 1, consecutive MSNs) answered in order by Atomic "
			 "Responses (QN 3); a Read Request and an Atomic Request outstanding "
			 "together (shared QN 1 MSN space).";
	k.req_c = k.rep_c = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_atomic(g, c, I2R, OP_FADD, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_CSWAP, t + 30 * US);

	/* two atomics in flight */
	a = rd_atomic_req(g, c, I2R, OP_FADD, 0x1001, 0x00C0FFEE, 0x00007f00000a0000ull, 5, 0, 0, 0);
	b = rd_atomic_req(g, c, I2R, OP_CSWAP, 0x1002, 0x00C0FFEE, 0x00007f00000a0008ull,
			  0xFFFFFFFFFFFFFFFFull, ~0ull, 0x8000000000000000ull, ~0ull);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	t += c->cfg.rtt + s_proc(g);
	rd_atomic_resp(g, c, a, 41);
	rd_atomic_resp(g, c, b, 0x8000000000000000ull);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;

	/* a read and an atomic outstanding together, answered in request order */
	r = post_read(g, c, I2R, 3000, 0);
	a = rd_atomic_req(g, c, I2R, OP_FADD, 0x1003, 0x00C0FFEE, 0x00007f00000a0010ull, 1, 0, 0, 0);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	t += c->cfg.rtt + s_proc(g);
	rd_read_resp(g, c, r);
	rd_atomic_resp(g, c, a, 999);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;

	t = s_atomic(g, c, R2I, OP_FADD, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_CSWAP, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_immediate(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "RFC 7306 Immediate Data (QN 0, 8 octets) and Immediate Data with SE, "
			 "values up to 2^64-1 (big-endian on the wire), and Write-with-Immediate as "
			 "an RDMA Write followed by Immediate Data in the same flush. CRC on.";
	k.req_c = k.rep_c = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_imm(g, c, I2R, 0, 1, t + 30 * US);
	t = s_imm(g, c, I2R, 1, 0xFEDCBA9876543210ull, t + 30 * US);
	post_write(g, c, I2R, 2500);
	rd_immediate(g, c, I2R, 0, 0x0102030405060708ull);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;
	t = s_send(g, c, I2R, OP_SEND, 100, t + 30 * US);
	t = s_imm(g, c, R2I, 0, 0, t + 30 * US);
	t = s_imm(g, c, R2I, 1, 0xFFFFFFFFFFFFFFFFull, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_terminate(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *a, *b, *c;
	uint64_t ta = T_BASE, tb, tc;
	int op;

	g->description = "Three connections, each ended by a Terminate from the responder: RDMAP "
			 "layer (Read Request with an invalid source STag; M, D, R set: DDP "
			 "Segment Length, the untagged DDP header and the 28-octet Read Request "
			 "header embedded), DDP layer (RDMA Write to an invalid STag; M, D set: "
			 "the tagged DDP header embedded), MPA layer (CRC error on a Send; no "
			 "headers). Then FIN, RST and FIN.";
	/* RDMAP layer */
	a = conn_new(g, &k);
	ta = s_open(g, a, ta);
	ta = s_write(g, a, I2R, 1000, ta + 30 * US);
	op = post_read(g, a, I2R, 4096, 0x00DEAD00);
	ta = tcp_flush(g, a, I2R, ta + 30 * US);
	ta += a->cfg.rtt / 2 + s_proc(g);
	rd_terminate(g, a, R2I, 0, 1, 0x00, 1, op);	/* remote protection, invalid STag */
	ta = tcp_flush(g, a, R2I, ta);
	tcp_settle(g, a, ta + 5 * US);
	s_close(g, a, R2I, ta + 30 * US);

	/* DDP layer */
	k.req_c = k.rep_c = 1;
	b = conn_new(g, &k);
	tb = s_open(g, b, T_BASE + 700 * US);
	tb = s_send(g, b, I2R, OP_SEND, 256, tb + 30 * US);
	op = rd_write(g, b, I2R, 0x00BAD100, rnd_to(g), 3000);
	tb = tcp_flush(g, b, I2R, tb + 30 * US);
	tb += b->cfg.rtt / 2 + s_proc(g);
	rd_terminate(g, b, R2I, 1, 1, 0x00, 1, op);	/* tagged buffer error, invalid STag */
	tb = tcp_flush(g, b, R2I, tb);
	tcp_rst(g, b, R2I, tb + 15 * US);

	/* MPA layer */
	c = conn_new(g, &k);
	tc = s_open(g, c, T_BASE + 1400 * US);
	tc = s_write(g, c, I2R, 2000, tc + 30 * US);
	c->d[I2R].corrupt_at = c->d[I2R].nfpdu + 1;
	c->d[I2R].corrupt_kind = 1;
	tc = s_send(g, c, I2R, OP_SEND, 500, tc + 30 * US);
	tc += c->cfg.rtt / 2 + 2 * US;
	rd_terminate(g, c, R2I, 2, 0, 0x02, 0, -1);	/* MPA CRC error */
	tc = tcp_flush(g, c, R2I, tc);
	tcp_settle(g, c, tc + 5 * US);
	s_close(g, c, R2I, tc + 30 * US);
}

void scen_multi_qp(struct gen *g)
{
	static const int start_order[5] = { 3, 0, 4, 1, 2 };
	struct conn *c[5];
	uint64_t t[5];

	g->description = "Five TCP connections between five hosts, opened in an order different "
			 "from their creation and interleaved in time (qp = order of first packet, "
			 "like tcp.stream); MPA v1 and v2, CRC on and off, one peer-to-peer, one "
			 "with DDP segments independent of the MSS.";
	for (int i = 0; i < 5; i++) {
		struct conn_cfg k = cfg_default(4);

		k.host[0] = 1 + 2 * (i % 3);
		k.host[1] = 2 + 2 * (i % 2);
		k.port[1] = i % 2 ? 18515 : 7174;
		switch (i) {
		case 0:
			k.req_c = k.rep_c = 1;
			break;
		case 1:
			k.rev = 1;
			k.enhanced = 0;
			break;
		case 2:
			k.p2p = 1;
			k.rtr = RTR_WRITE;
			k.rtr_offer = 1u << RTR_WRITE | 1u << RTR_READ;
			break;
		case 3:
			k.req_c = 1;
			k.ird = 32;
			k.ord = 32;
			break;
		default:
			k.req_c = k.rep_c = 1;
			k.mode[0] = k.mode[1] = SEG_STREAM;
			k.ddp_max[0] = 2000;
			k.ddp_max[1] = 500;
			break;
		}
		c[i] = conn_new(g, &k);
	}
	for (int j = 0; j < 5; j++) {
		int i = start_order[j];

		t[i] = s_open(g, c[i], T_BASE + (uint64_t)j * 13 * US);
	}
	for (int r = 0; r < 5; r++) {
		uint64_t round = T_BASE + 1 * MS + (uint64_t)r * 180 * US;

		for (int i = 0; i < 5; i++) {
			uint64_t s = round + (uint64_t)i * 9 * US;

			if (s < t[i])
				s = t[i];
			switch ((i + r) % 5) {
			case 0:
				t[i] = s_write(g, c[i], I2R, 1000 + 700 * (uint32_t)r, s);
				break;
			case 1:
				t[i] = s_read(g, c[i], I2R, 2000 + 300 * (uint32_t)i, s);
				break;
			case 2:
				t[i] = s_send(g, c[i], I2R, OP_SEND, 64 + 100 * (uint32_t)i, s);
				break;
			case 3:
				t[i] = s_send(g, c[i], R2I, OP_SEND_SE, 900, s);
				break;
			default:
				t[i] = s_write(g, c[i], R2I, 3000, s);
				break;
			}
		}
	}
	for (int i = 0; i < 5; i++)
		s_close(g, c[i], i % 2 ? R2I : I2R, t[i] + 40 * US + (uint64_t)i * 5 * US);
}
