// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenarios: MPA markers per direction, sequence-number wrap, DDP segment
 * size independent of the MSS, GRO/TSO super-segments. */
#include "scenarios.h"

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

/* markers in direction mdir only */
static void markers_one_way(struct gen *g, int mdir)
{
	struct conn_cfg k = cfg_default(4);
	int odir = 1 - mdir;
	struct conn *c;
	uint64_t t = T_BASE;

	if (mdir == I2R)
		k.rep_m = 1;	/* M in the Reply: the initiator adds markers */
	else
		k.req_m = 1;	/* M in the Request: the responder adds markers */
	k.req_c = k.rep_c = 1;
	k.mode[mdir] = SEG_STREAM;
	k.ddp_max[mdir] = mdir == I2R ? 1000 : 700;
	k.mode[odir] = SEG_ALIGNED;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, mdir, 5000, t + 30 * US);
	t = s_send(g, c, mdir, OP_SEND, 50, t + 30 * US);
	t = s_read(g, c, odir, 3000, t + 30 * US);	/* Read Responses carry markers */
	send_to_marker(g, c, mdir, 0);
	post_write(g, c, mdir, 2200);	/* leading marker, FPDUPTR 0 */
	t = flush_settle(g, c, mdir, t + 30 * US);
	send_crc_marker(g, c, mdir);
	t = flush_settle(g, c, mdir, t + 30 * US);
	t = s_send(g, c, odir, OP_SEND, 700, t + 30 * US);
	t = s_imm(g, c, mdir, 0, 0x5555AAAA5555AAAAull, t + 30 * US);
	t = s_read(g, c, mdir, 1500, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_markers_i2r(struct gen *g)
{
	g->description = "Markers on initiator-to-responder FPDUs only (M in the Reply), CRC on; "
			 "i2r DDP segments of up to 1000 octets straddle 1460-octet TCP segments; "
			 "one FPDU starts exactly on a marker position (leading marker, FPDUPTR 0, "
			 "later markers in it point at its ULPDU_Length, 4 octets after the "
			 "FPDU's first octet) and one has a marker right before its CRC.";
	markers_one_way(g, I2R);
}

void scen_markers_r2i(struct gen *g)
{
	g->description = "Markers on responder-to-initiator FPDUs only (M in the Request), CRC on; "
			 "r2i DDP segments of up to 700 octets; a leading marker and a marker "
			 "before a CRC as in markers-i2r.";
	markers_one_way(g, R2I);
}

void scen_markers_both_wrap(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "Markers in both directions, CRC on, MSS 1200, DDP segments of 600 (i2r) "
			 "and 900 (r2i) octets straddling TCP segments; both initial sequence "
			 "numbers just below 2^32 so that both streams wrap inside an FPDU, after "
			 "SeqStart (marker positions are computed modulo 2^32).";
	k.req_m = k.rep_m = 1;
	k.req_c = k.rep_c = 1;
	k.mss = 1200;
	k.mode[0] = k.mode[1] = SEG_STREAM;
	k.ddp_max[I2R] = 600;
	k.ddp_max[R2I] = 900;
	k.fixed_isn = 1;
	/* the MPA frames (24 octets) take stream offsets 1..24: SeqStart is offset 25 */
	k.isn[I2R] = (uint32_t)(0x100000000ull - 25 - 150);
	k.isn[R2I] = (uint32_t)(0x100000000ull - 25 - 700);
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 3000, t + 30 * US);
	t = s_read(g, c, I2R, 4000, t + 30 * US);
	rd_send(g, c, I2R, OP_SEND, 0, 40);
	rd_send(g, c, I2R, OP_SEND_SE, 0, 10);
	rd_send(g, c, I2R, OP_SEND, 0, 333);
	t = flush_settle(g, c, I2R, t + 30 * US);
	t = s_write(g, c, R2I, 2500, t + 30 * US);
	send_to_marker(g, c, I2R, 0);
	post_write(g, c, I2R, 1500);
	t = flush_settle(g, c, I2R, t + 30 * US);
	send_to_marker(g, c, R2I, 0);
	rd_send(g, c, R2I, OP_SEND_INV, rnd_stag(g), 1700);
	t = flush_settle(g, c, R2I, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_segmentation(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *a, *b;
	uint64_t ta = T_BASE, tb;

	g->description = "DDP segment size independent of the MSS, CRC on, no markers. qp 0: "
			 "2000-octet DDP segments i2r (every FPDU straddles TCP segments), "
			 "500-octet ones r2i (several FPDUs per TCP segment), six Sends queued "
			 "together share one TCP segment. qp 1: GRO/TSO super-segments: i2r FPDUs "
			 "sized to a 1460 MSS aggregated 43 to a 62780-octet TCP segment, r2i "
			 "16000-octet DDP segments in TCP segments of up to 65000 octets (one "
			 "FPDU straddles two super-segments).";
	k.req_c = k.rep_c = 1;
	k.mode[0] = k.mode[1] = SEG_STREAM;
	k.ddp_max[I2R] = 2000;
	k.ddp_max[R2I] = 500;
	a = conn_new(g, &k);
	ta = s_open(g, a, ta);
	ta = s_write(g, a, I2R, 10000, ta + 30 * US);
	for (int i = 0; i < 6; i++)
		rd_send(g, a, I2R, i & 1 ? OP_SEND_SE : OP_SEND, 0, 20 + 37 * (uint32_t)i);
	ta = flush_settle(g, a, I2R, ta + 30 * US);
	ta = s_read(g, a, I2R, 8000, ta + 30 * US);
	ta = s_send(g, a, R2I, OP_SEND, 3000, ta + 30 * US);
	s_close(g, a, I2R, ta + 50 * US);

	k.mode[0] = k.mode[1] = SEG_SUPER;
	k.ddp_max[I2R] = 1440;		/* ULPDU 1454: FPDU of exactly 1460 octets */
	k.super_max[I2R] = 43 * 1460;
	k.ddp_max[R2I] = 16000;
	k.super_max[R2I] = 65000;
	b = conn_new(g, &k);
	tb = s_open(g, b, T_BASE + 2 * MS);
	tb = s_write(g, b, I2R, 100000, tb + 30 * US);
	tb = s_read(g, b, I2R, 100000, tb + 30 * US);
	tb = s_send(g, b, I2R, OP_SEND, 5000, tb + 30 * US);
	s_close(g, b, I2R, tb + 50 * US);
}
