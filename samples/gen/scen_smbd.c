// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario: SMB Direct (MS-SMBD) on port 5445. The SMBD negotiation
 * (2.2.1, 2.2.2), then SMB2 READ and WRITE requests (MS-SMB2 2.2.19,
 * 2.2.21) in Data Transfer Messages (MS-SMBD 2.2.3):
 *   a WRITE whose data the server pulls by RDMA Read from the client's
 *   buffer descriptor (Channel SMB2_CHANNEL_RDMA_V1, MS-SMB2 3.3.5.13);
 *   a READ whose data the server RDMA Writes into two descriptors
 *   (SMB2_CHANNEL_RDMA_V1_INVALIDATE, 3.3.5.12), its response sent with
 *   Send with Invalidate of the first;
 *   an inline WRITE and an inline READ whose response is longer than one
 *   Send: two Data Transfer Messages joined by RemainingDataLength.
 * The messages are built here from the specifications' layouts;
 * tests/smb checks iwarpscope against tshark's smb_direct and smb2
 * dissectors on these bytes.
 */
#include "scenarios.h"

#include <string.h>

#include "ddp.h"
#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

enum { SMB2_READ = 8, SMB2_WRITE = 9 };
enum { CH_NONE = 0, CH_RDMA_V1 = 1, CH_RDMA_V1_INV = 2 };
#define SMBD_CREDITS 16

struct msg {
	uint8_t b[4096];
	uint32_t n;
};

static void le(uint8_t *p, uint64_t v, int octets)
{
	for (int i = 0; i < octets; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put(struct msg *m, uint64_t v, int octets)
{
	le(m->b + m->n, v, octets);
	m->n += (uint32_t)octets;
}

/* MS-SMB2 2.2.1: the 64-octet header (sync), a response's Status */
static void smb2_hdr(struct msg *m, uint16_t cmd, uint64_t mid, int response, uint32_t status)
{
	static const uint8_t proto[4] = { 0xFE, 'S', 'M', 'B' };
	memcpy(m->b + m->n, proto, 4);
	m->n += 4;
	put(m, 64, 2);			/* StructureSize */
	put(m, 1, 2);			/* CreditCharge */
	put(m, status, 4);
	put(m, cmd, 2);
	put(m, 8, 2);			/* CreditRequest / CreditResponse */
	put(m, response ? 1 : 0, 4);	/* Flags: SMB2_FLAGS_SERVER_TO_REDIR */
	put(m, 0, 4);			/* NextCommand */
	put(m, mid, 8);
	put(m, 0, 4);			/* Reserved */
	put(m, 1, 4);			/* TreeId */
	put(m, 0x0000400000000011ull, 8); /* SessionId */
	memset(m->b + m->n, 0, 16);	/* Signature */
	m->n += 16;
}

/* MS-SMB2 2.2.19 READ request; 2.2.21 WRITE request (inline data follows
 * when len is not 0). The channel info (descriptors) at offset 0x70. */
static void smb2_io(struct msg *m, uint16_t cmd, uint64_t mid, uint32_t len, uint64_t off, uint32_t channel,
		    const uint32_t *tok, const uint32_t *dlen, int ndesc, uint32_t remaining)
{
	uint16_t ci_len = (uint16_t)(16 * ndesc);
	smb2_hdr(m, cmd, mid, 0, 0);
	put(m, 49, 2);
	if (cmd == SMB2_READ) {
		put(m, 0, 1);		/* Padding */
		put(m, 0, 1);		/* Flags */
		put(m, len, 4);
		put(m, off, 8);
		put(m, 0x11, 8), put(m, 0x22, 8); /* FileId */
		put(m, 1, 4);		/* MinimumCount */
		put(m, channel, 4);
		put(m, remaining, 4);
		put(m, ndesc ? 0x70 : 0, 2);
		put(m, ci_len, 2);
	} else {
		put(m, 0x70, 2);	/* DataOffset */
		put(m, len, 4);
		put(m, off, 8);
		put(m, 0x11, 8), put(m, 0x22, 8);
		put(m, channel, 4);
		put(m, remaining, 4);
		put(m, ndesc ? 0x70 : 0, 2);
		put(m, ci_len, 2);
		put(m, 0, 4);		/* Flags */
	}
	/* 2.2.19 / 2.2.21: Buffer, at 0x70 from the header */
	for (int i = 0; i < ndesc; i++) {
		put(m, 0x7f0000001000ull * (uint64_t)(i + 1), 8); /* MS-SMBD 2.2.3.1 Offset */
		put(m, tok[i], 4);
		put(m, dlen[i], 4);
	}
	if (!ndesc)
		put(m, 0, 1);		/* one octet of Buffer */
	for (uint32_t i = 0; cmd == SMB2_WRITE && i < len; i++)
		put(m, (uint8_t)(i * 7 + 1), 1);
}

/* MS-SMB2 2.2.20 READ response (DataLength inline, DataRemaining by RDMA),
 * 2.2.22 WRITE response (Count). */
static void smb2_io_resp(struct msg *m, uint16_t cmd, uint64_t mid, uint32_t inline_len, uint32_t rdma_len)
{
	smb2_hdr(m, cmd, mid, 1, 0);
	put(m, 17, 2);
	if (cmd == SMB2_READ) {
		put(m, 0x50, 1);	/* DataOffset */
		put(m, 0, 1);
		put(m, inline_len, 4);
		put(m, rdma_len, 4);
		put(m, 0, 4);
		for (uint32_t i = 0; i < inline_len; i++)
			put(m, (uint8_t)(i * 3 + 5), 1);
		if (!inline_len)
			put(m, 0, 1);
	} else {
		put(m, 0, 2);
		put(m, rdma_len, 4);	/* Count */
		put(m, 0, 4);		/* Remaining */
		put(m, 0, 2), put(m, 0, 2);
	}
}

/* MS-SMBD 2.2.3: a Data Transfer Message of data[0..len) with remaining
 * octets still to come, sent as one RDMA Send (kind, inval for Send with
 * Invalidate). */
static int dtm(struct gen *g, struct conn *c, int dir, const uint8_t *data, uint32_t len, uint32_t remaining,
	       enum op_kind kind, uint32_t inval)
{
	static struct msg s;
	s.n = 0;
	put(&s, SMBD_CREDITS, 2);	/* CreditsRequested */
	put(&s, dir == I2R ? 4 : 1, 2); /* CreditsGranted: the client reposts more receives */
	put(&s, 0, 2);			/* Flags */
	put(&s, 0, 2);
	put(&s, remaining, 4);
	put(&s, 24, 4);			/* DataOffset */
	put(&s, len, 4);
	put(&s, 0, 4);			/* Padding to 8 */
	memcpy(s.b + s.n, data, len);
	s.n += len;
	return rd_send_data(g, c, dir, kind, inval, s.b, s.n);
}

static uint64_t step(struct gen *g, struct conn *c, int dir, uint64_t t)
{
	t += c->cfg.rtt / 2 + s_proc(g);
	return tcp_flush(g, c, dir, t);
}

/* An SMB2 READ or WRITE request with Channel none (the client's), sent */
static uint64_t inline_request(struct gen *g, struct conn *c, struct msg *m, uint16_t cmd, uint64_t mid,
			       uint32_t len, uint64_t off, uint64_t t)
{
	m->n = 0;
	smb2_io(m, cmd, mid, len, off, CH_NONE, NULL, NULL, 0, 0);
	dtm(g, c, I2R, m->b, m->n, 0, OP_SEND, 0);
	return step(g, c, I2R, t);
}

void scen_smb_direct(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	struct msg m;
	uint64_t t = T_BASE;
	const uint32_t wlen = 8192, r1 = 8000, r2 = 4000, iw = 500, ir = 1500;

	g->description = "SMB Direct (MS-SMBD) on port 5445: negotiation, an SMB2 WRITE of 8192 "
			 "octets the server pulls by RDMA Read (Channel RDMA_V1, one descriptor), "
			 "a READ of 12000 octets the server RDMA Writes into two descriptors "
			 "(RDMA_V1_INVALIDATE), an inline WRITE of 500 octets and an inline READ "
			 "of 1500 whose response spans two Data Transfer Messages.";
	k.port[1] = 5445;
	c = conn_new(g, &k);
	t = s_open(g, c, t);

	/* MS-SMBD 2.2.1 Negotiate Request, 2.2.2 Negotiate Response */
	m.n = 0;
	put(&m, 0x0100, 2), put(&m, 0x0100, 2), put(&m, 0, 2), put(&m, SMBD_CREDITS, 2);
	put(&m, 1364, 4), put(&m, 8192, 4), put(&m, 1048576, 4);
	rd_send_data(g, c, I2R, OP_SEND, 0, m.b, m.n);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	m.n = 0;
	put(&m, 0x0100, 2), put(&m, 0x0100, 2), put(&m, 0x0100, 2), put(&m, 0, 2);
	put(&m, SMBD_CREDITS, 2), put(&m, SMBD_CREDITS, 2), put(&m, 0, 4);
	put(&m, 1048576, 4), put(&m, 1364, 4), put(&m, 8192, 4), put(&m, 1048576, 4);
	rd_send_data(g, c, R2I, OP_SEND, 0, m.b, m.n);
	t = step(g, c, R2I, t);

	/* WRITE via RDMA: the server reads the client's buffer */
	uint32_t tok = rnd_stag(g), dl = wlen;
	m.n = 0;
	smb2_io(&m, SMB2_WRITE, 1, 0, 0x10000, CH_RDMA_V1, &tok, &dl, 1, wlen);
	dtm(g, c, I2R, m.b, m.n, 0, OP_SEND, 0);
	t = step(g, c, I2R, t);
	int op = rd_read_req(g, c, R2I, rnd_stag(g), rnd_to(g), wlen, tok, 0x7f0000001000ull);
	t = step(g, c, R2I, t);
	rd_read_resp(g, c, op);
	t = step(g, c, I2R, t);
	m.n = 0;
	smb2_io_resp(&m, SMB2_WRITE, 1, 0, wlen);
	dtm(g, c, R2I, m.b, m.n, 0, OP_SEND, 0);
	t = step(g, c, R2I, t);

	/* READ via RDMA into two descriptors */
	uint32_t toks[2] = { rnd_stag(g), rnd_stag(g) }, dls[2] = { r1, r2 };
	m.n = 0;
	smb2_io(&m, SMB2_READ, 2, r1 + r2, 0x20000, CH_RDMA_V1_INV, toks, dls, 2, 0);
	dtm(g, c, I2R, m.b, m.n, 0, OP_SEND, 0);
	t = step(g, c, I2R, t);
	rd_write(g, c, R2I, toks[0], 0x7f0000001000ull, r1);
	rd_write(g, c, R2I, toks[1], 0xfe0000002000ull, r2);
	m.n = 0;
	smb2_io_resp(&m, SMB2_READ, 2, 0, r1 + r2);
	dtm(g, c, R2I, m.b, m.n, 0, OP_SEND_INV, toks[0]);
	t = step(g, c, R2I, t);

	/* inline WRITE */
	t = inline_request(g, c, &m, SMB2_WRITE, 3, iw, 0x30000, t);
	m.n = 0;
	smb2_io_resp(&m, SMB2_WRITE, 3, 0, iw);
	dtm(g, c, R2I, m.b, m.n, 0, OP_SEND, 0);
	t = step(g, c, R2I, t);

	/* inline READ, its response over two Data Transfer Messages */
	t = inline_request(g, c, &m, SMB2_READ, 4, ir, 0x40000, t);
	m.n = 0;
	smb2_io_resp(&m, SMB2_READ, 4, ir, 0);
	uint32_t first = 1000;
	dtm(g, c, R2I, m.b, first, m.n - first, OP_SEND, 0);
	dtm(g, c, R2I, m.b + first, m.n - first, 0, OP_SEND, 0);
	t = step(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	s_close(g, c, I2R, t + 50 * US);
}
