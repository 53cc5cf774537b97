// SPDX-License-Identifier: GPL-2.0-or-later
/* MPA framing (see mpa.h). */
#include "mpa.h"

#include <string.h>

#include "crc32c.h"
#include "tcpsim.h"

static const char key_req[16] = { 'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e' };
static const char key_rep[16] = { 'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e' };

/* RFC 6581 enhanced word: |A|B| IRD (14) |C|D| ORD (14) | */
static void enh_word(uint8_t *p, int p2p, unsigned rtr_bits, uint16_t ird, uint16_t ord)
{
	uint16_t hi = (uint16_t)((p2p ? 0x8000 : 0) | ((rtr_bits & (1u << RTR_SEND)) ? 0x4000 : 0) |
				 (ird & 0x3fff));
	uint16_t lo = (uint16_t)(((rtr_bits & (1u << RTR_WRITE)) ? 0x8000 : 0) |
				 ((rtr_bits & (1u << RTR_READ)) ? 0x4000 : 0) | (ord & 0x3fff));

	p[0] = (uint8_t)(hi >> 8);
	p[1] = (uint8_t)hi;
	p[2] = (uint8_t)(lo >> 8);
	p[3] = (uint8_t)lo;
}

static void put_rr(struct gen *g, struct conn *c, int dir, const char *key, uint8_t flags,
		   int p2p, unsigned rtr_bits, const char *extra, const uint8_t *bin, size_t binlen)
{
	uint8_t b[20 + 4 + 512];
	size_t pd = 0, xl = bin ? binlen : extra ? strlen(extra) : 0;

	memcpy(b, key, 16);
	if (c->cfg.rev == 2 && c->cfg.enhanced) {
		flags |= MPA_FLAG_S;
		enh_word(b + 20, p2p, rtr_bits, c->cfg.ird, c->cfg.ord);
		pd = 4;
	}
	if (xl > 500)
		xl = 500;
	if (xl)
		memcpy(b + 20 + pd, bin ? (const void *)bin : (const void *)extra, xl);
	pd += xl;
	b[16] = flags;
	b[17] = (uint8_t)c->cfg.rev;
	b[18] = (uint8_t)(pd >> 8);
	b[19] = (uint8_t)pd;
	tcp_put(g, c, dir, b, 20 + pd);
	tcp_unit_end(c, dir);
}

void mpa_request(struct gen *g, struct conn *c)
{
	struct dir *d = &c->d[I2R];
	uint8_t flags = (uint8_t)((c->cfg.req_m ? MPA_FLAG_M : 0) | (c->cfg.req_c ? MPA_FLAG_C : 0));

	c->req_off = tcp_nxt(d);
	put_rr(g, c, I2R, key_req, flags, c->cfg.p2p, c->cfg.rtr_offer, c->cfg.req_pd,
	       c->cfg.req_pdb_len ? c->cfg.req_pdb : NULL, c->cfg.req_pdb_len);
	c->req_end = tcp_nxt(d);
	c->mpa_started = 1;
}

void mpa_reply(struct gen *g, struct conn *c)
{
	struct dir *di = &c->d[I2R], *dr = &c->d[R2I];
	uint8_t flags = (uint8_t)((c->cfg.rep_m ? MPA_FLAG_M : 0) | (c->cfg.rep_c ? MPA_FLAG_C : 0) |
				  (c->cfg.reject ? MPA_FLAG_R : 0));
	unsigned rtr_bits = c->cfg.rtr != RTR_NONE ? 1u << c->cfg.rtr : 0;

	c->rep_off = tcp_nxt(dr);
	put_rr(g, c, R2I, key_rep, flags, c->cfg.p2p && !c->cfg.reject,
	       c->cfg.reject ? 0 : rtr_bits, c->cfg.rep_pd,
	       c->cfg.rep_pdb_len ? c->cfg.rep_pdb : NULL, c->cfg.rep_pdb_len);
	c->rep_end = tcp_nxt(dr);
	if (c->cfg.reject)
		return;
	di->full_op = dr->full_op = 1;
	di->seqstart = c->req_end;
	dr->seqstart = c->rep_end;
	/* M in the Request: the responder must add markers (r2i); M in the Reply: i2r */
	dr->markers = c->cfg.req_m;
	di->markers = c->cfg.rep_m;
	di->mk_dev = c->cfg.mk_dev[I2R];
	di->mk_off = c->cfg.mk_off[I2R];
	dr->mk_dev = c->cfg.mk_dev[R2I];
	dr->mk_off = c->cfg.mk_off[R2I];
	di->crc = dr->crc = c->cfg.req_c || c->cfg.rep_c;
}

/*
 * The sender's marker grid for FPDU number k of the direction (gen.h): RFC
 * 5044 puts markers at SeqStart + 512n. A sender whose marker counter skips
 * the 4 CRC octets of every FPDU (MKDEV_SKIPCRC) is 4k octets behind by FPDU
 * k; the counter stands still over a CRC field, so a marker due where FPDU
 * k's CRC field starts (and equally "at FPDU k+1's first octet", the same
 * counter value) is put right before that CRC, inside FPDU k: with
 * MKDEV_SKIPCRC only the first FPDU (at SeqStart) can have a leading marker.
 */
uint64_t mpa_grid_base(const struct dir *d, uint64_t k)
{
	uint64_t b = d->seqstart;

	if (d->mk_dev & MKDEV_OFFSET)
		b += d->mk_off;
	if (d->mk_dev & MKDEV_SKIPCRC)
		b += 4 * k;
	return b;
}

static int due(const struct dir *d, uint64_t base, uint64_t p)
{
	return d->markers && ((p - base) & 511) == 0;
}

static uint64_t next_due(uint64_t base, uint64_t p)
{
	return p + ((512 - ((p - base) & 511)) & 511);
}

/* RESERVED (2 octets, zero) | FPDUPTR (16 bits, network order unless the
 * sender writes it little-endian) */
static void put_marker(uint8_t *b, const struct dir *d, uint16_t ptr)
{
	b[0] = b[1] = 0;
	if (d->mk_dev & MKDEV_FPDUPTR_LE) {
		b[2] = (uint8_t)ptr;
		b[3] = (uint8_t)(ptr >> 8);
	} else {
		b[2] = (uint8_t)(ptr >> 8);
		b[3] = (uint8_t)ptr;
	}
}

static uint32_t pad_of(uint32_t ulen)
{
	return (4 - ((2 + ulen) & 3)) & 3;
}

/* pos: start of the direction's next FPDU (number d->nfpdu) */
static uint32_t walk(const struct dir *d, uint64_t pos, uint32_t ulen, int *crc_marker)
{
	uint64_t p = pos, rem = 2 + (uint64_t)ulen + pad_of(ulen);
	uint64_t base = mpa_grid_base(d, d->nfpdu);

	if (due(d, base, p))
		p += 4;
	while (rem) {
		uint64_t step = rem;

		if (d->markers) {
			uint64_t nd = next_due(base, p);

			if (nd == p) {
				p += 4;
				continue;
			}
			if (nd - p < step)
				step = nd - p;
		}
		p += step;
		rem -= step;
	}
	*crc_marker = due(d, base, p);
	if (*crc_marker)
		p += 4;
	return (uint32_t)(p + 4 - pos);
}

uint32_t mpa_wire_len(const struct dir *d, uint64_t pos, uint32_t ulen)
{
	int cm;

	return walk(d, pos, ulen, &cm);
}

int mpa_marker_before_crc(const struct dir *d, uint64_t pos, uint32_t ulen)
{
	int cm;

	walk(d, pos, ulen, &cm);
	return cm;
}

uint32_t mpa_max_ulpdu(const struct conn *c, int dir)
{
	const struct dir *d = &c->d[dir];
	uint64_t pos = tcp_nxt(d);
	uint32_t u = d->mss > 6 ? d->mss - 6u : 0;

	if (u > 65535)
		u = 65535;
	while (u && mpa_wire_len(d, pos, u) > d->mss)
		u--;
	return u;
}

static uint8_t *wbuf;
static size_t wcap;

int mpa_put_fpdu(struct gen *g, struct conn *c, int dir, const uint8_t *ulpdu, uint32_t ulen,
		 const struct fpdu_meta *m)
{
	struct dir *d = &c->d[dir];
	struct fpdu_rec *f;
	uint64_t pos = tcp_nxt(d), p = pos, hdrpos = pos, base;
	uint32_t pad = pad_of(ulen), clen = 2 + ulen + pad, i = 0;
	uint32_t hdr_last = 2 + m->hdrlen - 1;	/* content index of the last header octet */
	uint32_t crc, payload_first = 0, expect;
	size_t w = 0, need = (size_t)clen + 4 + 4 * (clen / 508 + 3);
	int idx, corrupt;

	if (ulen > 65535)
		gen_die("ULPDU too long (%u)", ulen);
	if (!d->full_op)
		gen_die("FPDU before full operation");
	if (need > wcap) {
		wcap = need;
		wbuf = xrealloc(wbuf, wcap);
	}
	if (d->mk_dev && (!d->markers || (d->mk_off & 3)))
		gen_die("marker deviation without markers, or an offset not a multiple of 4");
	expect = mpa_wire_len(d, pos, ulen);
	base = mpa_grid_base(d, d->nfpdu);	/* before this FPDU is counted */
	f = gen_new_fpdu(g);
	idx = g->streaming ? 0 : (int)(f - g->fpdus);
	f->conn = c->idx;
	f->dir = dir;
	f->off = pos;
	f->mk_first = g->nmarkers;
	d->nfpdu++;
	corrupt = d->corrupt_at && d->nfpdu == d->corrupt_at ? d->corrupt_kind : 0;

	if (due(d, base, p)) {		/* leading marker: belongs to this FPDU */
		memset(wbuf + w, 0, 4);
		gen_add_marker(g, p, 0);
		w += 4;
		p += 4;
		hdrpos = p;
	}
	while (i < clen) {
		uint32_t step = clen - i;

		if (d->markers) {
			uint64_t nd = next_due(base, p);

			if (nd == p) {
				uint16_t ptr = (uint16_t)(p - hdrpos);

				put_marker(wbuf + w, d, ptr);
				gen_add_marker(g, p, ptr);
				w += 4;
				p += 4;
				continue;
			}
			if (nd - p < step)
				step = (uint32_t)(nd - p);
		}
		for (uint32_t k = 0; k < step; k++) {
			uint32_t ci = i + k;
			uint8_t v;

			if (ci == 0)
				v = (uint8_t)(ulen >> 8);
			else if (ci == 1)
				v = (uint8_t)ulen;
			else if (ci < 2 + ulen)
				v = ulpdu[ci - 2];
			else
				v = 0;
			if (ci == hdr_last)
				f->hdr_end = p + k + 1;
			if (ci == 2 + m->hdrlen && !payload_first)
				payload_first = (uint32_t)(w + k);
			wbuf[w + k] = v;
		}
		w += step;
		p += step;
		i += step;
	}
	if (due(d, base, p)) {		/* a marker just before the CRC is inside the FPDU */
		uint16_t ptr = (uint16_t)(p - hdrpos);

		put_marker(wbuf + w, d, ptr);
		gen_add_marker(g, p, ptr);
		w += 4;
		p += 4;
	}
	crc = d->crc ? crc32c(wbuf, w) : 0;
	if (corrupt == 2 && !payload_first)
		corrupt = 1;		/* no payload octet to damage */
	if (corrupt == 1)
		crc ^= 0x00A50000u;
	if (corrupt == 2)
		wbuf[payload_first] ^= 0x20;	/* after the CRC was computed */
	/* the CRC goes on the wire least significant octet first, as Linux siw does */
	wbuf[w] = (uint8_t)crc;
	wbuf[w + 1] = (uint8_t)(crc >> 8);
	wbuf[w + 2] = (uint8_t)(crc >> 16);
	wbuf[w + 3] = (uint8_t)(crc >> 24);
	w += 4;

	f->wire_len = (uint32_t)w;
	f->ulpdu_len = (uint16_t)ulen;
	f->pad = (uint8_t)pad;
	f->mk_count = g->nmarkers - f->mk_first;
	f->crc_on = d->crc;
	f->crc_bad = d->crc && corrupt;
	f->tagged = m->tagged;
	f->last = m->last;
	f->opcode = m->opcode;
	f->stag = m->stag;
	f->to = m->to;
	f->qn = m->qn;
	f->msn = m->msn;
	f->mo = m->mo;
	f->op = m->op;
	f->op_seq = m->op_seq;
	f->rtr = m->rtr;
	f->payload = m->payload;
	if (w != expect)
		gen_die("internal: FPDU length mismatch");
	tcp_put(g, c, dir, wbuf, w);
	tcp_unit_end(c, dir);
	return idx;
}
