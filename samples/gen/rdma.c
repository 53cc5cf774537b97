// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMAP message builder (see rdma.h). */
#include "rdma.h"

#include <string.h>

#include "ddp.h"
#include "mpa.h"

static uint8_t ubuf[65536 + 128];

static uint32_t payload_max(const struct conn *c, int dir, uint32_t hdrlen)
{
	const struct dir *d = &c->d[dir];
	uint32_t m;

	if (d->mode == SEG_ALIGNED && d->aligned_ddp)
		return d->aligned_ddp;
	if (d->mode == SEG_ALIGNED) {
		uint32_t u = mpa_max_ulpdu(c, dir);

		return u > hdrlen ? u - hdrlen : 1;
	}
	m = d->ddp_max;
	if (m + hdrlen > 65535)
		m = 65535 - hdrlen;
	return m;
}

static void keep_first(struct op_rec *o, const uint8_t *ulpdu, uint32_t ulen)
{
	if (o->nfpdu)
		return;
	memcpy(o->req_hdr, ulpdu, ulen < sizeof(o->req_hdr) ? ulen : sizeof(o->req_hdr));
	o->req_ulen = (uint16_t)ulen;
}

static void put(struct gen *g, struct conn *c, int dir, int op, uint32_t ulen, struct fpdu_meta *m)
{
	if (op >= 0) {
		struct op_rec *o = &g->ops[op];

		keep_first(o, ubuf, ulen);
		m->op = op;
		m->op_seq = o->nfpdu++;
		g->counts.bytes[o->kind] += m->payload;
	} else {
		m->op = -1;
	}
	mpa_put_fpdu(g, c, dir, ubuf, ulen, m);
}

int rd_write(struct gen *g, struct conn *c, int dir, uint32_t stag, uint64_t to, uint32_t len)
{
	return rd_write_data(g, c, dir, stag, to, NULL, len);
}

int rd_write_data(struct gen *g, struct conn *c, int dir, uint32_t stag, uint64_t to,
		  const uint8_t *data, uint32_t len)
{
	int op = gen_new_op(g, c, dir, OP_WRITE, RD_WRITE);
	uint32_t mo = 0;

	g->ops[op].stag = stag;
	g->ops[op].to = to;
	do {
		uint32_t n = len - mo, max = payload_max(c, dir, DDP_TAGGED_LEN);
		struct fpdu_meta m = { 0 };

		if (n > max)
			n = max;
		m.tagged = 1;
		m.last = mo + n == len;
		m.opcode = RD_WRITE;
		m.stag = stag;
		m.to = to + mo;
		m.payload = n;
		m.hdrlen = DDP_TAGGED_LEN;
		ddp_tagged(ubuf, m.last, RD_WRITE, stag, to + mo);
		if (data)
			memcpy(ubuf + DDP_TAGGED_LEN, data + mo, n);
		else
			prng_fill(&g->rng, ubuf + DDP_TAGGED_LEN, n);
		put(g, c, dir, op, DDP_TAGGED_LEN + n, &m);
		mo += n;
	} while (mo < len);
	g->ops[op].finished = 1;
	return op;
}

static int untagged_msg(struct gen *g, struct conn *c, int dir, int op, uint8_t opcode,
			uint32_t rsvdulp, uint32_t qn, const uint8_t *data, uint32_t len)
{
	struct dir *d = &c->d[dir];
	uint32_t msn = d->msn[qn]++, mo = 0;

	if (op >= 0) {
		g->ops[op].qn = qn;
		g->ops[op].msn = msn;
	}
	do {
		uint32_t n = len - mo, max = payload_max(c, dir, DDP_UNTAGGED_LEN);
		struct fpdu_meta m = { 0 };

		if (n > max)
			n = max;
		m.last = mo + n == len;
		m.opcode = opcode;
		m.qn = qn;
		m.msn = msn;
		m.mo = mo;
		m.payload = n;
		m.hdrlen = DDP_UNTAGGED_LEN;
		ddp_untagged(ubuf, m.last, opcode, rsvdulp, qn, msn, mo);
		if (data)
			memcpy(ubuf + DDP_UNTAGGED_LEN, data + mo, n);
		else
			prng_fill(&g->rng, ubuf + DDP_UNTAGGED_LEN, n);
		put(g, c, dir, op, DDP_UNTAGGED_LEN + n, &m);
		mo += n;
	} while (mo < len);
	return (int)msn;
}

int rd_send(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t inval_stag,
	    uint32_t len)
{
	return rd_send_data(g, c, dir, kind, inval_stag, NULL, len);
}

int rd_send_data(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t inval_stag,
		 const uint8_t *data, uint32_t len)
{
	static const uint8_t opc[] = { [OP_SEND] = RD_SEND, [OP_SEND_INV] = RD_SEND_INV,
				       [OP_SEND_SE] = RD_SEND_SE, [OP_SEND_SE_INV] = RD_SEND_SE_INV };
	int inv = kind == OP_SEND_INV || kind == OP_SEND_SE_INV;
	int op = gen_new_op(g, c, dir, kind, opc[kind]);

	g->ops[op].inval_stag = inv ? inval_stag : 0;
	untagged_msg(g, c, dir, op, opc[kind], inv ? inval_stag : 0, 0, data, len);
	g->ops[op].finished = 1;
	return op;
}

int rd_immediate(struct gen *g, struct conn *c, int dir, int se, uint64_t value)
{
	uint8_t v[8];
	int op = gen_new_op(g, c, dir, se ? OP_IMM_SE : OP_IMM, se ? RD_IMM_SE : RD_IMM);

	put_be64(v, value);
	g->ops[op].immediate = value;
	untagged_msg(g, c, dir, op, se ? RD_IMM_SE : RD_IMM, 0, 0, v, 8);
	g->ops[op].finished = 1;
	return op;
}

int rd_read_req(struct gen *g, struct conn *c, int dir, uint32_t sink_stag, uint64_t sink_to,
		uint32_t size, uint32_t src_stag, uint64_t src_to)
{
	uint8_t rr[RDMAP_READ_REQ_LEN];
	int op = gen_new_op(g, c, dir, OP_READ, RD_READ_REQ);
	struct op_rec *o = &g->ops[op];

	o->stag = sink_stag;
	o->to = sink_to;
	o->rd_size = size;
	o->rd_src_stag = src_stag;
	o->rd_src_to = src_to;
	rdmap_read_req(rr, sink_stag, sink_to, size, src_stag, src_to);
	if (c->cfg.rdreq_le[dir]) {
		/* a deviant sender: each field least significant octet first */
		for (int k = 0; k < 4; k++) {
			rr[k] = (uint8_t)(sink_stag >> (8 * k));
			rr[12 + k] = (uint8_t)(size >> (8 * k));
			rr[16 + k] = (uint8_t)(src_stag >> (8 * k));
		}
		for (int k = 0; k < 8; k++) {
			rr[4 + k] = (uint8_t)(sink_to >> (8 * k));
			rr[20 + k] = (uint8_t)(src_to >> (8 * k));
		}
	}
	/* the RDMAP header is not ULP payload: count 0 bytes for the request */
	{
		struct dir *d = &c->d[dir];
		uint32_t msn = d->msn[1]++;
		struct fpdu_meta m = { 0 };

		o->qn = 1;
		o->msn = msn;
		m.last = 1;
		m.opcode = RD_READ_REQ;
		m.qn = 1;
		m.msn = msn;
		m.hdrlen = DDP_UNTAGGED_LEN;
		ddp_untagged(ubuf, 1, RD_READ_REQ, 0, 1, msn, 0);
		memcpy(ubuf + DDP_UNTAGGED_LEN, rr, sizeof(rr));
		put(g, c, dir, op, DDP_UNTAGGED_LEN + RDMAP_READ_REQ_LEN, &m);
	}
	return op;
}

void rd_read_resp(struct gen *g, struct conn *c, int op)
{
	rd_read_resp_data(g, c, op, NULL);
}

void rd_read_resp_data(struct gen *g, struct conn *c, int op, const uint8_t *data)
{
	struct op_rec *o = &g->ops[op];
	int dir = 1 - o->dir;
	uint32_t size = o->rd_size, mo = 0;

	do {
		uint32_t n = size - mo, max = payload_max(c, dir, DDP_TAGGED_LEN);
		struct fpdu_meta m = { 0 };

		if (n > max)
			n = max;
		m.tagged = 1;
		m.last = mo + n == size;
		m.opcode = RD_READ_RESP;
		m.stag = o->stag;
		m.to = o->to + mo;
		m.payload = n;
		m.hdrlen = DDP_TAGGED_LEN;
		ddp_tagged(ubuf, m.last, RD_READ_RESP, o->stag, o->to + mo);
		if (data)
			memcpy(ubuf + DDP_TAGGED_LEN, data + mo, n);
		else
			prng_fill(&g->rng, ubuf + DDP_TAGGED_LEN, n);
		put(g, c, dir, op, DDP_TAGGED_LEN + n, &m);
		o = &g->ops[op];
		mo += n;
	} while (mo < size);
	o->finished = 1;
}

int rd_atomic_req(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t req_id,
		  uint32_t stag, uint64_t to, uint64_t add_swap, uint64_t add_swap_mask,
		  uint64_t cmp, uint64_t cmp_mask)
{
	int op = gen_new_op(g, c, dir, kind, RD_ATOMIC_REQ);
	struct op_rec *o = &g->ops[op];
	struct dir *d = &c->d[dir];
	uint32_t msn = d->msn[1]++;
	struct fpdu_meta m = { 0 };

	o->stag = stag;
	o->to = to;
	o->qn = 1;
	o->msn = msn;
	o->atomic_req_id = req_id;
	m.last = 1;
	m.opcode = RD_ATOMIC_REQ;
	m.qn = 1;
	m.msn = msn;
	m.hdrlen = DDP_UNTAGGED_LEN;
	ddp_untagged(ubuf, 1, RD_ATOMIC_REQ, 0, 1, msn, 0);
	rdmap_atomic_req(ubuf + DDP_UNTAGGED_LEN, kind == OP_CSWAP ? AOP_CMP_SWAP : AOP_FETCH_ADD,
			 req_id, stag, to, add_swap, add_swap_mask, cmp, cmp_mask);
	put(g, c, dir, op, DDP_UNTAGGED_LEN + RDMAP_ATOMIC_REQ_LEN, &m);
	return op;
}

void rd_atomic_resp(struct gen *g, struct conn *c, int op, uint64_t orig)
{
	struct op_rec *o = &g->ops[op];
	int dir = 1 - o->dir;
	struct dir *d = &c->d[dir];
	uint32_t msn = d->msn[3]++;
	struct fpdu_meta m = { 0 };

	o->atomic_orig = orig;
	m.last = 1;
	m.opcode = RD_ATOMIC_RESP;
	m.qn = 3;
	m.msn = msn;
	m.payload = 8;		/* the original remote value */
	m.hdrlen = DDP_UNTAGGED_LEN;
	ddp_untagged(ubuf, 1, RD_ATOMIC_RESP, 0, 3, msn, 0);
	rdmap_atomic_resp(ubuf + DDP_UNTAGGED_LEN, o->atomic_req_id, orig);
	put(g, c, dir, op, DDP_UNTAGGED_LEN + RDMAP_ATOMIC_RESP_LEN, &m);
	g->ops[op].finished = 1;
}

int rd_terminate(struct gen *g, struct conn *c, int dir, uint8_t layer, uint8_t etype,
		 uint8_t ecode, int hdrs, int culprit)
{
	uint8_t body[4 + 2 + DDP_UNTAGGED_LEN + RDMAP_READ_REQ_LEN];
	size_t n = 4;
	int r = 0, op;

	if (hdrs && culprit >= 0) {
		const struct op_rec *x = &g->ops[culprit];
		int tagged = x->req_hdr[0] & 0x80;
		size_t hl = tagged ? DDP_TAGGED_LEN : DDP_UNTAGGED_LEN;

		/* DDP Segment Length: the terminated segment's ULPDU_Length */
		put_be16(body + 4, x->req_ulen);
		memcpy(body + 6, x->req_hdr, hl);
		n = 6 + hl;
		if ((x->req_hdr[1] & 0x0f) == RD_READ_REQ) {
			memcpy(body + n, x->req_hdr + DDP_UNTAGGED_LEN, RDMAP_READ_REQ_LEN);
			n += RDMAP_READ_REQ_LEN;
			r = 1;
		}
	}
	rdmap_term_ctrl(body, layer, etype, ecode, hdrs, hdrs, r);
	op = gen_new_op(g, c, dir, OP_TERM, RD_TERMINATE);
	g->ops[op].term_layer = layer;
	g->ops[op].term_etype = etype;
	g->ops[op].term_errcode = ecode;
	{
		struct dir *d = &c->d[dir];
		uint32_t msn = d->msn[2]++;
		struct fpdu_meta m = { 0 };

		g->ops[op].qn = 2;
		g->ops[op].msn = msn;
		m.last = 1;
		m.opcode = RD_TERMINATE;
		m.qn = 2;
		m.msn = msn;
		m.hdrlen = DDP_UNTAGGED_LEN;
		ddp_untagged(ubuf, 1, RD_TERMINATE, 0, 2, msn, 0);
		memcpy(ubuf + DDP_UNTAGGED_LEN, body, n);
		put(g, c, dir, op, (uint32_t)(DDP_UNTAGGED_LEN + n), &m);
	}
	g->ops[op].finished = 1;
	return op;
}

void rd_rtr(struct gen *g, struct conn *c)
{
	struct dir *d = &c->d[I2R];
	struct fpdu_meta m = { 0 };
	uint32_t ulen;
	int op;

	m.last = 1;
	m.rtr = 1;
	/* The RTR is an operation of its own, flagged (docs/semantics.md): a
	 * Send or Write of 0 octets, or a Read of 0 octets with its response. */
	switch (c->cfg.rtr) {
	case RTR_SEND:
		m.opcode = RD_SEND;
		m.qn = 0;
		m.msn = d->msn[0]++;
		m.hdrlen = DDP_UNTAGGED_LEN;
		ulen = (uint32_t)ddp_untagged(ubuf, 1, RD_SEND, 0, 0, m.msn, 0);
		op = gen_new_op(g, c, I2R, OP_SEND, RD_SEND);
		g->ops[op].qn = 0;
		g->ops[op].msn = m.msn;
		break;
	case RTR_WRITE:
		m.tagged = 1;
		m.opcode = RD_WRITE;
		m.hdrlen = DDP_TAGGED_LEN;
		ulen = (uint32_t)ddp_tagged(ubuf, 1, RD_WRITE, 0, 0);
		op = gen_new_op(g, c, I2R, OP_WRITE, RD_WRITE);
		break;
	case RTR_READ:
		m.opcode = RD_READ_REQ;
		m.qn = 1;
		m.msn = d->msn[1]++;
		m.hdrlen = DDP_UNTAGGED_LEN;
		ulen = (uint32_t)ddp_untagged(ubuf, 1, RD_READ_REQ, 0, 1, m.msn, 0);
		ulen += (uint32_t)rdmap_read_req(ubuf + ulen, 0, 0, 0, 0, 0);
		op = gen_new_op(g, c, I2R, OP_READ, RD_READ_REQ);
		g->ops[op].qn = 1;
		g->ops[op].msn = m.msn;
		break;
	default:
		return;
	}
	g->ops[op].rtr = 1;
	c->rtr_op = op;
	c->rtr_fpdu[0] = g->streaming ? -1 : (int)g->nfpdus;
	put(g, c, I2R, op, ulen, &m);
	/* a Read RTR finishes with its response (rd_rtr_reply) */
	g->ops[op].finished = c->cfg.rtr != RTR_READ;
}

void rd_rtr_reply(struct gen *g, struct conn *c)
{
	struct fpdu_meta m = { 0 };
	uint32_t ulen;

	if (c->cfg.rtr != RTR_READ)
		return;
	m.tagged = 1;
	m.last = 1;
	m.rtr = 1;
	m.opcode = RD_READ_RESP;
	m.hdrlen = DDP_TAGGED_LEN;
	ulen = (uint32_t)ddp_tagged(ubuf, 1, RD_READ_RESP, 0, 0);
	c->rtr_fpdu[1] = g->streaming ? -1 : (int)g->nfpdus;
	put(g, c, R2I, c->rtr_op, ulen, &m);
	if (c->rtr_op >= 0)
		g->ops[c->rtr_op].finished = 1;
}
