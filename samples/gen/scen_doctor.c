// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Doctor scenarios: one connection per rule of iwarpscope's interop doctor
 * (`iwarpscope doctor --rules`), each breaking that rule on purpose in an
 * otherwise clean exchange, and `doctor-all` with all of them in one
 * capture. The truth file's "doctor" member lists every occurrence put on
 * the wire, by rule id, with the frames that show it (see the end of this
 * file); where FPDUs sit in TCP segments (split, not aligned, packed,
 * longer than the receiver's MSS) is worked out here from the frames
 * themselves, for every connection of these scenarios.
 *
 * The rules are written from the RFCs (5040, 5041, 5044, 6581, 7306), not
 * from iwarpscope's code: a deviation is something this file does to the
 * octets, and the truth says what that is.
 */
#include "scen_doctor.h"
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ddp.h"
#include "mpa.h"
#include "netpkt.h"
#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

/* ---- recording what was broken ---- */

void doc_at(struct gen *g, const char *rule, const struct conn *c, int dir, enum doctor_ref ref,
		   size_t idx, int cause)
{
	if (g->ndoctor == g->capdoctor) {
		g->capdoctor = g->capdoctor ? 2 * g->capdoctor : 16;
		g->doctor = xrealloc(g->doctor, g->capdoctor * sizeof(*g->doctor));
	}
	g->doctor[g->ndoctor++] = (struct doctor_rec){ rule, c->idx, dir, ref, idx, cause };
}

void doc(struct gen *g, const char *rule, const struct conn *c, int dir, enum doctor_ref ref,
		size_t idx)
{
	doc_at(g, rule, c, dir, ref, idx, -1);
}

/* Every FPDU of (c, dir) from index first on. */
void doc_fpdus_since(struct gen *g, const char *rule, const struct conn *c, int dir, size_t first)
{
	for (size_t i = first; i < g->nfpdus; i++)
		if (g->fpdus[i].conn == c->idx && g->fpdus[i].dir == dir)
			doc(g, rule, c, dir, DR_FPDU, i);
}

/* The first frame from index from on that side `dir` of c sent and that
 * matches: payload (want_data), or carries all of flags. */
size_t frame_from(const struct gen *g, size_t from, const struct conn *c, int dir, int want_data,
			 uint8_t flags)
{
	for (size_t i = from; i < g->nframes; i++) {
		const struct frame *f = &g->frames[i];
		if (f->conn != c->idx || f->dir != dir)
			continue;
		if (want_data ? f->paylen > 0 : (f->flags & flags) == flags)
			return i;
	}
	gen_die("internal: no such frame");
}

/* ---- building blocks ---- */

/* Change a queued, not yet transmitted octet of direction dir. */
void patch(struct conn *c, int dir, uint64_t off, uint8_t keep, uint8_t set)
{
	struct dir *d = &c->d[dir];

	if (off < d->base || off >= tcp_nxt(d) || off < d->sent)
		gen_die("internal: patch outside the unsent queue");
	d->buf[off - d->base] = (uint8_t)((d->buf[off - d->base] & keep) | set);
}

/*
 * As s_open: TCP, the MPA Request, the Reply, the RTR of a peer-to-peer
 * set-up (unless no_rtr); req and rep (may be NULL) run on the queued
 * Request and Reply before they are transmitted.
 */
uint64_t open_with(struct gen *g, struct conn *c, uint64_t t, hook_fn req, hook_fn rep, int no_rtr)
{
	t = tcp_connect(g, c, t);
	t += 30 * US;
	mpa_request(g, c);
	if (req)
		req(g, c);
	t = tcp_flush(g, c, I2R, t);
	t += c->cfg.rtt / 2;
	tcp_settle(g, c, t);
	t += 150 * US;
	mpa_reply(g, c);
	if (rep)
		rep(g, c);
	t = tcp_flush(g, c, R2I, t);
	if (c->cfg.reject)
		return t + 20 * US;
	t += c->cfg.rtt / 2 + 3 * US;
	if (!no_rtr && c->cfg.p2p && c->cfg.rtr != RTR_NONE) {
		rd_rtr(g, c);
		t = tcp_flush(g, c, I2R, t);
		if (c->cfg.rtr == RTR_READ) {
			t += c->cfg.rtt / 2 + s_proc(g);
			rd_rtr_reply(g, c);
			t = tcp_flush(g, c, R2I, t);
		}
		t += c->cfg.rtt / 2;
	}
	tcp_settle(g, c, t);
	return t + 10 * US;
}

/* A clean exchange both ways: a Send each way, a Write, a Read. */
uint64_t traffic(struct gen *g, struct conn *c, uint64_t t)
{
	t = s_send(g, c, I2R, OP_SEND, 300, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 120, t + 30 * US);
	t = s_write(g, c, I2R, 3000, t + 30 * US);
	t = s_read(g, c, I2R, 2000, t + 30 * US);
	return t;
}

uint64_t closing(struct gen *g, struct conn *c, uint64_t t)
{
	return s_close(g, c, I2R, t + 50 * US);
}

/* One FPDU carrying the ULPDU u as given (a DDP/RDMAP header made by hand):
 * part of no operation; returns its index. */
size_t raw_fpdu(struct gen *g, struct conn *c, int dir, const uint8_t *u, uint32_t ulen)
{
	struct fpdu_meta m;
	size_t idx = g->nfpdus;

	memset(&m, 0, sizeof(m));
	m.tagged = (u[0] & 0x80) != 0;
	m.last = (u[0] & 0x40) != 0;
	m.opcode = u[1] & 0x0F;
	m.hdrlen = m.tagged ? DDP_TAGGED_LEN : DDP_UNTAGGED_LEN;
	if (m.tagged) {
		m.stag = (uint32_t)u[2] << 24 | (uint32_t)u[3] << 16 | (uint32_t)u[4] << 8 | u[5];
	} else {
		m.qn = (uint32_t)u[6] << 24 | (uint32_t)u[7] << 16 | (uint32_t)u[8] << 8 | u[9];
		m.msn = (uint32_t)u[10] << 24 | (uint32_t)u[11] << 16 | (uint32_t)u[12] << 8 | u[13];
		m.mo = (uint32_t)u[14] << 24 | (uint32_t)u[15] << 16 | (uint32_t)u[16] << 8 | u[17];
	}
	m.op = -1;
	mpa_put_fpdu(g, c, dir, u, ulen, &m);
	return idx;
}

/* An untagged segment (RFC 5041 §4.4) with a payload of len random octets. */
size_t raw_untagged(struct gen *g, struct conn *c, int dir, uint8_t ctrl, uint8_t rctrl, uint32_t qn,
			   uint32_t msn, uint32_t mo, uint32_t len)
{
	uint8_t u[DDP_UNTAGGED_LEN + 1024];

	if (len > 1024)
		gen_die("internal: raw segment too long");
	ddp_untagged(u, (ctrl & 0x40) != 0, rctrl & 0x0F, 0, qn, msn, mo);
	u[0] = ctrl;
	u[1] = rctrl;
	prng_fill(&g->rng, u + DDP_UNTAGGED_LEN, len);
	return raw_fpdu(g, c, dir, u, DDP_UNTAGGED_LEN + len);
}

uint64_t flush_now(struct gen *g, struct conn *c, int dir, uint64_t t)
{
	return flush_settle(g, c, dir, t + 30 * US);
}

/* ---- MPA set-up ---- */

uint64_t d_mpa_key(struct gen *g, uint64_t t)
{
	/* RFC 5044 §7.1.2: the responder waits for the Request and answers with
	 * a Reply; this one believes it initiates and sends a Request. */
	static const uint8_t req[20] = { 'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'q', ' ', 'F', 'r', 'a',
					 'm', 'e', 0x40, 1, 0, 0 };
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t f0;

	t = tcp_connect(g, c, t);
	t += 30 * US;
	mpa_request(g, c);
	t = tcp_flush(g, c, I2R, t);
	t += c->cfg.rtt / 2;
	tcp_settle(g, c, t);
	t += 150 * US;
	f0 = g->nframes;
	tcp_put(g, c, R2I, req, sizeof(req));
	tcp_unit_end(c, R2I);
	t = tcp_flush(g, c, R2I, t);
	doc(g, "mpa.key", c, R2I, DR_FRAME, frame_from(g, f0, c, R2I, 1, 0));
	tcp_settle(g, c, t + 10 * US);
	return s_close(g, c, I2R, t + 2 * MS);
}

static void rev2_reply(struct gen *g, struct conn *c)
{
	(void)g;
	/* the Request went out as Rev 1: the Reply comes back as Rev 2 with S */
	c->cfg.rev = 2;
	c->cfg.enhanced = 1;
}

uint64_t d_mpa_revision(struct gen *g, uint64_t t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.rev = 1;
	k.enhanced = 0;
	c = conn_new(g, &k);
	t = open_with(g, c, t, rev2_reply, NULL, 0);
	doc(g, "mpa.revision", c, R2I, DR_REP, 0);
	return closing(g, c, traffic(g, c, t));
}

static void req_rsvd_04(struct gen *g, struct conn *c)
{
	(void)g;
	patch(c, I2R, c->req_off + 16, 0xFF, 0x04);
}

uint64_t d_mpa_reserved_flags(struct gen *g, uint64_t t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.req_c = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, req_rsvd_04, NULL, 0);
	doc(g, "mpa.reserved_flags", c, I2R, DR_REQ, 0);
	return closing(g, c, traffic(g, c, t));
}

static void req_gso(struct gen *g, struct conn *c)
{
	(void)g;
	patch(c, I2R, c->req_off + 16, 0xFF, 0x08);
}

static void rep_gso(struct gen *g, struct conn *c)
{
	(void)g;
	patch(c, R2I, c->rep_off + 16, 0xFF, 0x08);
}

uint64_t d_mpa_siw_gso_flag(struct gen *g, uint64_t t)
{
	/* Linux siw with try_gso: MPA_RR_FLAG_GSO_EXP in both frames */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);

	t = open_with(g, c, t, req_gso, rep_gso, 0);
	doc(g, "mpa.siw_gso_flag", c, I2R, DR_REQ, 0);
	doc(g, "mpa.siw_gso_flag", c, R2I, DR_REP, 0);
	return closing(g, c, traffic(g, c, t));
}

static void req_s_flag(struct gen *g, struct conn *c)
{
	(void)g;
	patch(c, I2R, c->req_off + 16, 0xFF, MPA_FLAG_S);
}

uint64_t d_mpa_pd_len(struct gen *g, uint64_t t)
{
	/* RFC 6581 §5: S says the IRD/ORD word leads the private data; this
	 * Request sets S with no private data at all */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.enhanced = 0;
	c = conn_new(g, &k);
	t = open_with(g, c, t, req_s_flag, NULL, 0);
	doc(g, "mpa.pd_len", c, I2R, DR_REQ, 0);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_mpa_p2p_negotiation(struct gen *g, uint64_t t)
{
	/* RFC 6581 §7: the Reply selects one RTR type the Request offered; the
	 * Request offers Write and Read, the Reply selects Send (and the
	 * initiator then sends the Send RTR selected) */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.p2p = 1;
	k.rtr_offer = 1u << RTR_WRITE | 1u << RTR_READ;
	k.rtr = RTR_SEND;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	doc(g, "mpa.p2p_negotiation", c, R2I, DR_REP, 0);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_mpa_rtr_mismatch(struct gen *g, uint64_t t)
{
	/* The Reply selects the zero-length Write RTR; the initiator sends a
	 * zero-length Send instead */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	size_t f;

	k.p2p = 1;
	k.rtr_offer = 1u << RTR_WRITE | 1u << RTR_READ;
	k.rtr = RTR_WRITE;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 1);
	f = g->nfpdus;
	rd_send(g, c, I2R, OP_SEND, 0, 0);
	t = flush_now(g, c, I2R, t);
	doc(g, "mpa.rtr_mismatch", c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_mpa_ird_ord(struct gen *g, uint64_t t)
{
	/* Request IRD 4 ORD 16, Reply IRD 4 ORD 16: the responder's ORD 16
	 * exceeds what the initiator can take (RFC 6581 §5) */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.ird = 4;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	doc(g, "mpa.ird_ord", c, R2I, DR_REP, 0);
	return closing(g, c, traffic(g, c, t));
}

static void no_i2r_markers(struct gen *g, struct conn *c)
{
	(void)g;
	c->d[I2R].markers = 0;  /* the initiator's sender ignores the Reply's M */
}

uint64_t d_mpa_markers_negotiation(struct gen *g, uint64_t t)
{
	/* M in the Reply asks for markers on the initiator's FPDUs (RFC 5044
	 * §7.1.1); its sender puts none, not even at SeqStart (§4.3). No Read
	 * goes that way: whatever the initiator sends is lost to a receiver. */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	size_t f;

	k.rep_m = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, no_i2r_markers, 0);
	f = g->nfpdus;
	t = s_write(g, c, I2R, 2500, t + 30 * US);
	doc(g, "mpa.markers_negotiation", c, I2R, DR_FPDU, f);
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 150, t + 30 * US);
	t = s_write(g, c, R2I, 1800, t + 30 * US);
	return closing(g, c, t);
}

static void r2i_no_crc(struct gen *g, struct conn *c)
{
	(void)g;
	c->d[R2I].crc = 0;  /* CRC negotiated; the responder's CRC fields stay 0 */
}

uint64_t d_mpa_crc_not_sent(struct gen *g, uint64_t t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	size_t f;

	k.req_c = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, r2i_no_crc, 0);
	f = g->nfpdus;
	t = traffic(g, c, t);
	doc_fpdus_since(g, "mpa.crc_not_sent", c, R2I, f);
	return closing(g, c, t);
}

uint64_t d_mpa_reject(struct gen *g, uint64_t t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.reject = 1;
	k.rep_pd = "no matching listener";
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	doc(g, "mpa.reject", c, R2I, DR_REP, 0);
	return s_close(g, c, R2I, t + 100 * US);
}

/* ---- framing (where FPDUs sit in segments: the truth works it out) ---- */

uint64_t d_framing_fpdu_over_mss(struct gen *g, uint64_t t)
{
	/* siw with GSO: FPDUs sized to a 9000-octet super-segment, each in one
	 * TSO segment as the sender's capture shows it, towards an MSS of 1460 */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);

	t = open_with(g, c, t, NULL, NULL, 0);
	c->d[I2R].mss = 9000;
	t = s_write(g, c, I2R, 20000, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 5000, t + 30 * US);
	c->d[I2R].mss = 1460;
	t = s_send(g, c, R2I, OP_SEND, 100, t + 30 * US);
	return closing(g, c, t);
}

/* siw without CRC: each FPDU goes out as its body, then its 4-octet CRC
 * field in a segment of its own. */
static uint64_t flush_crc_apart(struct gen *g, struct conn *c, int dir, uint64_t t)
{
	struct dir *d = &c->d[dir];

	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		if (f->conn != c->idx || f->dir != dir || f->off < d->sent)
			continue;
		tcp_emit_seg(g, c, dir, f->off, f->wire_len - 4, t, 0);
		t += tcp_wire_ns(f->wire_len + 50) + 700;
		tcp_emit_seg(g, c, dir, f->off + f->wire_len - 4, 4, t, 0);
		tcp_ack_if_due(g, c, dir, t + 300);
		t += 2 * US;
	}
	tcp_settle(g, c, t + 6 * US);
	return t + 10 * US;
}

uint64_t d_framing_fpdu_split(struct gen *g, uint64_t t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	int op;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 64, t + 30 * US);
	op = post_read(g, c, I2R, 5000, 0);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	rd_read_resp(g, c, op);
	t = flush_crc_apart(g, c, R2I, t + c->cfg.rtt + 20 * US);
	return closing(g, c, t);
}

uint64_t d_framing_fpdu_unaligned(struct gen *g, uint64_t t)
{
	/* DDP segments of 2000 octets streamed into 1460-octet TCP segments */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.mode[I2R] = SEG_STREAM;
	k.ddp_max[I2R] = 2000;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_write(g, c, I2R, 7000, t + 30 * US);
	t = s_send(g, c, R2I, OP_SEND, 100, t + 30 * US);
	return closing(g, c, t);
}

uint64_t d_framing_fpdu_packed(struct gen *g, uint64_t t)
{
	/* six small Sends queued together share one TCP segment */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.mode[I2R] = SEG_STREAM;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	for (int i = 0; i < 6; i++)
		rd_send(g, c, I2R, OP_SEND, 0, 100 + 10 * (uint32_t)i);
	t = flush_now(g, c, I2R, t);
	t = s_send(g, c, R2I, OP_SEND, 100, t + 30 * US);
	return closing(g, c, t);
}

/* Markers both ways, CRC on, one FPDU per segment, the deviating sender's
 * direction carrying FPDUs long enough to hold markers: every marker of it
 * is an occurrence that shows the deviation (doctor_truth.c). */
static uint64_t marker_dev(struct gen *g, uint64_t t, int dir, unsigned dev, uint32_t off)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.req_m = k.rep_m = 1;
	k.req_c = 1;
	k.mk_dev[dir] = dev;
	k.mk_off[dir] = off;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_write(g, c, dir, 6000, t + 30 * US);
	t = s_send(g, c, dir, OP_SEND, 900, t + 30 * US);
	t = s_read(g, c, 1 - dir, 4000, t + 30 * US);
	t = s_write(g, c, dir, 3000, t + 30 * US);
	t = s_send(g, c, 1 - dir, OP_SEND, 700, t + 30 * US);
	return closing(g, c, t);
}

uint64_t d_framing_marker_fpduptr_le(struct gen *g, uint64_t t)
{
	return marker_dev(g, t, R2I, MKDEV_FPDUPTR_LE, 0);
}

uint64_t d_framing_marker_skip_crc(struct gen *g, uint64_t t)
{
	return marker_dev(g, t, I2R, MKDEV_SKIPCRC, 0);
}

uint64_t d_framing_marker_offset(struct gen *g, uint64_t t)
{
	return marker_dev(g, t, R2I, MKDEV_OFFSET, 8);
}

uint64_t d_framing_marker_error(struct gen *g, uint64_t t)
{
	/* markers on the initiator's FPDUs, CRC off; one marker inside a Write
	 * segment carries FPDUPTR 0 instead of its distance to the header */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	size_t f, m0;

	k.rep_m = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	f = g->nfpdus;
	m0 = g->nmarkers;
	post_write(g, c, I2R, 1200);
	for (size_t i = m0; i < g->nmarkers; i++) {
		if (g->markers[i].fpduptr == 0)
			continue;
		patch(c, I2R, g->markers[i].off + 2, 0, 0);
		patch(c, I2R, g->markers[i].off + 3, 0, 0);
		doc(g, "framing.marker_error", c, I2R, DR_FPDU, f);
		break;
	}
	if (g->ndoctor == 0 || g->doctor[g->ndoctor - 1].idx != f)
		gen_die("internal: the Write has no marker inside it");
	t = flush_now(g, c, I2R, t);
	t = s_send(g, c, R2I, OP_SEND, 100, t + 30 * US);
	return closing(g, c, t);
}

uint64_t d_framing_crc_error(struct gen *g, uint64_t t)
{
	/* the second FPDU of a Write damaged after its CRC was computed */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	size_t f;

	k.req_c = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	c->d[I2R].corrupt_at = c->d[I2R].nfpdu + 2;
	c->d[I2R].corrupt_kind = 2;
	f = g->nfpdus;
	t = s_write(g, c, I2R, 3000, t + 30 * US);
	doc(g, "framing.crc_error", c, I2R, DR_FPDU, f + 1);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_framing_pad_nonzero(struct gen *g, uint64_t t)
{
	/* CRC off: a Send of 13 octets (ULPDU 31, PAD 3) with stale PAD */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	const struct fpdu_rec *fr;
	size_t f;

	t = open_with(g, c, t, NULL, NULL, 0);
	f = g->nfpdus;
	rd_send(g, c, I2R, OP_SEND, 0, 13);
	fr = &g->fpdus[f];
	if (!fr->pad)
		gen_die("internal: no PAD to spoil");
	for (uint32_t i = 0; i < fr->pad; i++)
		patch(c, I2R, fr->off + fr->wire_len - 4 - fr->pad + i, 0, (uint8_t)(0xDE + i));
	t = flush_now(g, c, I2R, t);
	doc(g, "framing.pad_nonzero", c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

/* ---- the scenarios ---- */

#define BUILDER(name, seed, fn, what) { name, fn, what },
static const struct {
	const char *name;
	uint64_t (*build)(struct gen *g, uint64_t t);
	const char *what;
} builders[] = { DOCTOR_SCENARIOS(BUILDER) };
#undef BUILDER
#define NBUILDERS (sizeof(builders) / sizeof(builders[0]))

void scen_doctor(struct gen *g)
{
	static char desc[512];

	g->doctor_framing = 1;
	for (size_t i = 0; i < NBUILDERS; i++) {
		if (strcmp(g->scenario, builders[i].name) != 0)
			continue;
		snprintf(desc, sizeof(desc), "Interop doctor (`iwarpscope doctor`): %s; MPA v2, one connection, "
					      "an otherwise clean exchange. The \"doctor\" member lists every rule "
					      "broken, with its frames.", builders[i].what);
		g->description = desc;
		builders[i].build(g, T_BASE);
		return;
	}
	gen_die("internal: no doctor scenario %s", g->scenario);
}

void scen_doctor_all(struct gen *g)
{
	uint64_t t = T_BASE;

	g->doctor_framing = 1;
	g->description = "Interop doctor (`iwarpscope doctor`): every doctor-* scenario in turn, one "
			 "connection each (QP k is the k-th doctor-* scenario of iwarpscope-gen --list). "
			 "The \"doctor\" member lists every rule broken, with its frames.";
	for (size_t i = 0; i < NBUILDERS; i++)
		t = builders[i].build(g, t) + 1 * MS;
}
