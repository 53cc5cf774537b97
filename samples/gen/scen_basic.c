// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenarios: handshake variants (MPA v1/v2, peer-to-peer RTR, rejects) and
 * the file-format samples. */
#include "scenarios.h"

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

void scen_basic_v2_crc(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "IPv4, MPA v2 (enhanced, IRD/ORD 16), CRC on, no markers, TCP timestamps, "
			 "one FPDU per TCP segment; every RDMAP operation at least once in both "
			 "directions, including zero-length Write and Send and multi-segment "
			 "Write, Send and Read Responses.";
	k.req_c = k.rep_c = 1;
	k.tcp_ts = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 5000, t + 40 * US);
	t = s_read(g, c, I2R, 9000, t + 35 * US);
	t = s_send(g, c, I2R, OP_SEND, 300, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_INV, 64, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_SE, 2900, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_SE_INV, 128, t + 30 * US);
	t = s_imm(g, c, I2R, 0, 0x0000000012345678ull, t + 30 * US);
	t = s_imm(g, c, I2R, 1, 0x00ABCDEF00000001ull, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_FADD, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_CSWAP, t + 30 * US);
	t = s_write(g, c, I2R, 0, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 0, t + 30 * US);
	t = s_write(g, c, R2I, 2000, t + 50 * US);
	t = s_send(g, c, R2I, OP_SEND, 4000, t + 30 * US);
	t = s_read(g, c, R2I, 100, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_FADD, t + 30 * US);
	s_close(g, c, I2R, t + 100 * US);
}

void scen_v1_ipv6_vlan(struct gen *g)
{
	struct conn_cfg k = cfg_default(6);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "IPv6 over 802.1Q VLAN 100, MPA v1 (no enhanced word) with private data in "
			 "Request and Reply, CRC off (CRC fields present and zero), no markers.";
	g->ipver = 6;
	g->vlan = 100;
	k.vlan = 100;
	k.rev = 1;
	k.enhanced = 0;
	k.req_pd = "iwarpscope-gen: MPA v1 request private data";
	k.rep_pd = "v1 reply";
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 3000, t + 40 * US);
	t = s_read(g, c, I2R, 5000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 100, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND_SE, 2000, t + 30 * US);
	t = s_read(g, c, R2I, 700, t + 30 * US);
	s_close(g, c, R2I, t + 80 * US);
}

static void p2p(struct gen *g, enum rtr_type rtr, unsigned offer, int crc)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	k.p2p = 1;
	k.rtr = rtr;
	k.rtr_offer = offer;
	k.req_c = k.rep_c = crc;
	k.ird = 4;
	k.ord = 4;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	t = s_read(g, c, I2R, 3000, t + 30 * US);
	t = s_write(g, c, R2I, 1800, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 64, t + 30 * US);
	s_close(g, c, I2R, t + 60 * US);
}

void scen_p2p_rtr_send(struct gen *g)
{
	g->description = "MPA v2 peer-to-peer: the Request offers all three RTR types, the Reply "
			 "selects zero-length Send; the initiator's zero-length Send (QN 0, MSN 1) "
			 "is the RTR, so the first real Send has MSN 2. CRC off.";
	p2p(g, RTR_SEND, 1u << RTR_SEND | 1u << RTR_WRITE | 1u << RTR_READ, 0);
}

void scen_p2p_rtr_write(struct gen *g)
{
	g->description = "MPA v2 peer-to-peer: the Request offers Write and Read RTR (as Linux siw "
			 "does), the Reply selects zero-length RDMA Write, sent by the initiator. "
			 "CRC on.";
	p2p(g, RTR_WRITE, 1u << RTR_WRITE | 1u << RTR_READ, 1);
}

void scen_p2p_rtr_read(struct gen *g)
{
	g->description = "MPA v2 peer-to-peer with zero-length RDMA Read RTR: the initiator's "
			 "zero-length Read Request (QN 1, MSN 1) and the responder's zero-length "
			 "Read Response; the first real Read Request has MSN 2. CRC off.";
	p2p(g, RTR_READ, 1u << RTR_READ, 0);
}

void scen_reject_v1(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "MPA v1 connection rejected: the Reply has the R flag and private data "
			 "with a reason; the responder closes the TCP connection.";
	k.rev = 1;
	k.enhanced = 0;
	k.reject = 1;
	k.req_pd = "connect: service 42";
	k.rep_pd = "rejected: no listener for service 42";
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	s_close(g, c, R2I, t);
}

void scen_reject_v2(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "MPA v2 connection rejected: the Request asks for peer-to-peer with a Write "
			 "RTR and CRC; the Reply has R and S set, IRD/ORD and a reason; the "
			 "responder closes the TCP connection.";
	k.reject = 1;
	k.p2p = 1;
	k.rtr_offer = 1u << RTR_WRITE;
	k.rtr = RTR_WRITE;
	k.req_c = 1;
	k.ird = 8;
	k.ord = 8;
	k.rep_pd = "insufficient resources";
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	s_close(g, c, R2I, t);
}

void scen_pcapng(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "The basic exchange written as pcapng (SHB, one IDB with if_tsresol=9, "
			 "EPBs): MPA v2, CRC on.";
	g->fmt = FMT_PCAPNG;
	k.req_c = k.rep_c = 1;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 4000, t + 30 * US);
	t = s_read(g, c, I2R, 2500, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 500, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_usec_pcap(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "Classic microsecond pcap (magic 0xa1b2c3d4): every timestamp is a whole "
			 "microsecond, so start_ns/end_ns/latency_ns are multiples of 1000. MPA v2, "
			 "CRC off.";
	g->fmt = FMT_PCAP_US;
	g->ts_quantum = 1000;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 3000, t + 30 * US);
	t = s_read(g, c, I2R, 6000, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_CSWAP, t + 30 * US);
	t = s_imm(g, c, R2I, 0, 77, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}
