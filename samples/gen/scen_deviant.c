// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenarios with senders that break RFC 5044's marker rules (gen.h, MKDEV_*):
 * FPDUPTR written little-endian, a marker grid that does not count the CRC
 * octets (it falls 4 octets behind per FPDU), a grid measured from the wrong
 * starting point. The receivers accept what they get; every CRC is right
 * (computed over the octets as sent, markers included).
 */
#include "scenarios.h"

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

/* Markers both ways, CRC on; the initiator's sender writes FPDUPTR
 * little-endian and its grid skips the CRC octets. */
static struct conn *le_skipcrc_conn(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);

	k.req_m = k.rep_m = 1;
	k.req_c = k.rep_c = 1;
	k.mk_dev[I2R] = MKDEV_FPDUPTR_LE | MKDEV_SKIPCRC;
	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 1400;
	k.mode[R2I] = SEG_ALIGNED;
	return conn_new(g, &k);
}

void scen_markers_le_skipcrc(struct gen *g)
{
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "Markers both ways, CRC on. The initiator's sender breaks RFC 5044: its "
			 "marker counter does not count the 4 CRC octets of each FPDU (the i2r "
			 "grid of the k-th FPDU after SeqStart is SeqStart + 4k + 512n; a marker "
			 "due where a CRC field starts sits right before it) and it writes "
			 "FPDUPTR least significant octet first. The responder follows the RFC. "
			 "i2r DDP segments of up to 1400 octets straddle 1460-octet TCP segments, "
			 "r2i FPDUs are sized to the MSS; Writes, Sends, Reads both ways, an "
			 "Immediate and atomics; an i2r FPDU with a marker right before its CRC "
			 "and one that starts where an RFC sender would put a leading marker.";
	c = le_skipcrc_conn(g);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 6000, t + 30 * US);	/* the first FPDU has a leading marker */
	t = s_send(g, c, I2R, OP_SEND, 64, t + 30 * US);
	t = s_read(g, c, I2R, 4000, t + 30 * US);
	t = s_read(g, c, R2I, 5000, t + 30 * US);	/* Read Responses i2r */
	t = s_write(g, c, R2I, 3000, t + 30 * US);
	for (int i = 0; i < 9; i++) {
		uint32_t wlen = prng_range(&g->rng, 1500, 7000);
		uint32_t slen = prng_range(&g->rng, 1, 1300);
		uint32_t rlen = prng_range(&g->rng, 600, 4500);
		uint32_t qlen = prng_range(&g->rng, 100, 3000);
		uint32_t rslen = prng_range(&g->rng, 8, 700);

		t = s_write(g, c, I2R, wlen, t + 30 * US);
		t = s_send(g, c, I2R, i & 1 ? OP_SEND_SE : OP_SEND, slen, t + 30 * US);
		t = s_send(g, c, R2I, OP_SEND, rslen, t + 30 * US);
		t = s_read(g, c, R2I, rlen, t + 30 * US);
		t = s_read(g, c, I2R, qlen, t + 30 * US);
		if (i % 3 == 2)
			t = s_write(g, c, R2I, wlen / 2, t + 30 * US);
	}
	send_crc_marker(g, c, I2R);
	t = flush_settle(g, c, I2R, t + 30 * US);
	send_to_marker(g, c, I2R, 1);	/* the next FPDU starts on an RFC marker position */
	post_write(g, c, I2R, 2500);
	t = flush_settle(g, c, I2R, t + 30 * US);
	t = s_imm(g, c, I2R, 0, 0x0123456789ABCDEFull, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_FADD, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_CSWAP, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND_SE, 900, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_markers_le_skipcrc_midstream(struct gen *g)
{
	struct conn *c;
	uint64_t t = T_BASE;
	size_t f0;
	int seen = 0;

	g->description = "The sender of markers-le-skipcrc (i2r markers on a grid that skips the "
			 "CRC octets, FPDUPTR little-endian; r2i markers as the RFC says), "
			 "captured from the middle of the connection: no TCP or MPA handshake, "
			 "SeqStart unknown. 27 i2r FPDUs were sent before the cut RDMA Write, so "
			 "in its first FPDU the i2r grid is 108 octets (4 per FPDU) behind the RFC "
			 "grid. The first frame is the Write's second TCP segment, which starts "
			 "inside its second FPDU: that FPDU is not listed and the Write is "
			 "incomplete. After the capture start the responder sends no Write (the "
			 "first Write segment seen in a direction is never claimed complete).";
	c = le_skipcrc_conn(g);
	t = s_open(g, c, t);
	t = s_write(g, c, I2R, 5000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	t = s_read(g, c, R2I, 6000, t + 30 * US);
	t = s_read(g, c, I2R, 3000, t + 30 * US);
	t = s_write(g, c, R2I, 2000, t + 30 * US);
	t = s_write(g, c, I2R, 9000, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 400, t + 30 * US);
	t = s_read(g, c, R2I, 11000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND_SE, 33, t + 30 * US);
	if (c->d[I2R].nfpdu != 27)
		gen_die("internal: %u i2r FPDUs before the cut Write, the description says 27",
			(unsigned)c->d[I2R].nfpdu);

	/* the capture starts with the second TCP segment of this Write */
	post_write(g, c, I2R, 12000);
	f0 = g->nframes;
	t = tcp_flush(g, c, I2R, t + 200 * US);
	for (size_t i = f0; i < g->nframes; i++) {
		const struct frame *fr = &g->frames[i];

		if (fr->conn == c->idx && fr->dir == I2R && fr->paylen && ++seen == 2) {
			g->capture_start = fr->ts;
			break;
		}
	}
	if (seen != 2)
		gen_die("internal: the cut Write has fewer than 2 segments");
	tcp_settle(g, c, t + 6 * US);
	t += 10 * US;

	for (int i = 0; i < 4; i++) {
		uint32_t wlen = prng_range(&g->rng, 2000, 6000);
		uint32_t slen = prng_range(&g->rng, 1, 1300);
		uint32_t rlen = prng_range(&g->rng, 600, 4500);
		uint32_t qlen = prng_range(&g->rng, 100, 3000);
		uint32_t rslen = prng_range(&g->rng, 8, 1700);

		t = s_send(g, c, I2R, i & 1 ? OP_SEND_SE : OP_SEND, slen, t + 30 * US);
		t = s_read(g, c, R2I, rlen, t + 30 * US);
		t = s_write(g, c, I2R, wlen, t + 30 * US);
		t = s_send(g, c, R2I, OP_SEND, rslen, t + 30 * US);
		t = s_read(g, c, I2R, qlen, t + 30 * US);
	}
	send_crc_marker(g, c, I2R);
	t = flush_settle(g, c, I2R, t + 30 * US);
	t = s_imm(g, c, I2R, 1, 0xFEDCBA9876543210ull, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_FADD, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_markers_offset(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "Markers responder-to-initiator only (M in the Request), CRC on. The "
			 "responder's sender measures its marker grid from SeqStart + 8 instead of "
			 "SeqStart (markers at SeqStart + 8 + 512n, FPDUPTR in network order as "
			 "the RFC says): the first FPDU has no leading marker but a marker 8 "
			 "octets in, inside its DDP header (FPDUPTR 8). r2i DDP segments of up to "
			 "700 octets straddle TCP segments; an r2i FPDU that starts on the "
			 "shifted grid (leading marker, FPDUPTR 0), one that starts where an RFC "
			 "sender would put a leading marker, and one with a marker right before "
			 "its CRC.";
	k.req_m = 1;
	k.req_c = k.rep_c = 1;
	k.mk_dev[R2I] = MKDEV_OFFSET;
	k.mk_off[R2I] = 8;
	k.mode[R2I] = SEG_STREAM;
	k.ddp_max[R2I] = 700;
	k.mode[I2R] = SEG_ALIGNED;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_send(g, c, R2I, OP_SEND, 100, t + 30 * US);
	t = s_write(g, c, R2I, 5000, t + 30 * US);
	t = s_read(g, c, I2R, 4000, t + 30 * US);	/* Read Responses r2i */
	t = s_read(g, c, R2I, 3000, t + 30 * US);
	send_to_marker(g, c, R2I, 0);
	post_write(g, c, R2I, 2200);		/* leading marker on the shifted grid */
	t = flush_settle(g, c, R2I, t + 30 * US);
	send_to_marker(g, c, R2I, 1);
	rd_send(g, c, R2I, OP_SEND_INV, rnd_stag(g), 1500);	/* starts on an RFC position */
	t = flush_settle(g, c, R2I, t + 30 * US);
	send_crc_marker(g, c, R2I);
	t = flush_settle(g, c, R2I, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 800, t + 30 * US);
	t = s_imm(g, c, R2I, 0, 0x00000000000000FFull, t + 30 * US);
	t = s_atomic(g, c, I2R, OP_CSWAP, t + 30 * US);
	t = s_read(g, c, I2R, 2600, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_markers_le(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	uint64_t t = T_BASE;

	g->description = "Markers both ways, CRC on. The responder's sender writes every "
			 "FPDUPTR least significant octet first (reserved half zero, positions "
			 "as the RFC says); the initiator follows the RFC. r2i DDP segments of up "
			 "to 900 octets straddle TCP segments, i2r FPDUs are sized to the MSS; an "
			 "r2i FPDU that starts on a marker position (FPDUPTR 0, then 508, written "
			 "fc 01, inside it) and one with a marker right before its CRC.";
	k.req_m = k.rep_m = 1;
	k.req_c = k.rep_c = 1;
	k.mk_dev[R2I] = MKDEV_FPDUPTR_LE;
	k.mode[R2I] = SEG_STREAM;
	k.ddp_max[R2I] = 900;
	k.mode[I2R] = SEG_ALIGNED;
	c = conn_new(g, &k);
	t = s_open(g, c, t);
	t = s_write(g, c, R2I, 6000, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 300, t + 30 * US);
	t = s_read(g, c, I2R, 5000, t + 30 * US);	/* Read Responses r2i */
	t = s_read(g, c, R2I, 3000, t + 30 * US);
	send_to_marker(g, c, R2I, 0);
	post_write(g, c, R2I, 2000);
	t = flush_settle(g, c, R2I, t + 30 * US);
	send_crc_marker(g, c, R2I);
	t = flush_settle(g, c, R2I, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 800, t + 30 * US);
	t = s_atomic(g, c, R2I, OP_FADD, t + 30 * US);
	t = s_imm(g, c, I2R, 1, 42, t + 30 * US);
	t = s_write(g, c, I2R, 3000, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}
