// SPDX-License-Identifier: GPL-2.0-or-later
/* Session helpers (see session.h). */
#include "session.h"

#include <string.h>

#include "ddp.h"
#include "mpa.h"
#include "rdma.h"
#include "tcpsim.h"

struct conn_cfg cfg_default(int ipver)
{
	struct conn_cfg k;

	memset(&k, 0, sizeof(k));
	k.ipver = ipver;
	k.vlan = -1;
	k.host[0] = 1;
	k.host[1] = 2;
	k.port[1] = 7174;
	k.mode[0] = k.mode[1] = SEG_ALIGNED;
	k.rev = 2;
	k.enhanced = 1;
	k.ird = 16;
	k.ord = 16;
	k.rtt = 24000;
	return k;
}

uint32_t rnd_stag(struct gen *g)
{
	uint32_t index = prng_range(&g->rng, 0x100, 0xFFFFF);
	uint32_t key = prng_range(&g->rng, 0, 255);

	return index << 8 | key;
}

uint64_t rnd_to(struct gen *g)
{
	return 0x00007f0000000000ull + ((prng_u64(&g->rng) & 0xFFFFFFFFFull) << 12);
}

int post_write(struct gen *g, struct conn *c, int dir, uint32_t len)
{
	uint32_t stag = rnd_stag(g);
	uint64_t to = rnd_to(g);

	return rd_write(g, c, dir, stag, to, len);
}

int post_read(struct gen *g, struct conn *c, int dir, uint32_t len, uint32_t src_stag)
{
	uint32_t sink = rnd_stag(g), src;
	uint64_t sink_to = rnd_to(g), src_to;

	src = rnd_stag(g);
	src_to = rnd_to(g);
	return rd_read_req(g, c, dir, sink, sink_to, len, src_stag ? src_stag : src, src_to);
}

uint64_t s_proc(struct gen *g)
{
	return 4 * US + prng_range(&g->rng, 0, 12000);
}

uint64_t s_open_tcp(struct gen *g, struct conn *c, uint64_t t)
{
	t = tcp_connect(g, c, t);
	t += 30 * US + prng_range(&g->rng, 0, 20000);
	mpa_request(g, c);
	return tcp_flush(g, c, I2R, t);
}

uint64_t s_open(struct gen *g, struct conn *c, uint64_t t)
{
	t = s_open_tcp(g, c, t);
	/* responder ACKs the Request, then answers after the ULP accepted it */
	t += c->cfg.rtt / 2;
	tcp_settle(g, c, t);
	t += 150 * US + prng_range(&g->rng, 0, 100000);
	mpa_reply(g, c);
	t = tcp_flush(g, c, R2I, t);
	if (c->cfg.reject)
		return t + 20 * US;
	t += c->cfg.rtt / 2 + 3 * US;
	if (c->cfg.p2p && c->cfg.rtr != RTR_NONE) {
		rd_rtr(g, c);		/* the initiator's RTR also ACKs the Reply */
		t = tcp_flush(g, c, I2R, t);
		if (c->cfg.rtr == RTR_READ) {
			t += c->cfg.rtt / 2 + s_proc(g);
			rd_rtr_reply(g, c);
			t = tcp_flush(g, c, R2I, t);
			t += 5 * US;
			tcp_settle(g, c, t);
		} else {
			t += c->cfg.rtt / 2;
			tcp_settle(g, c, t);
		}
	} else {
		tcp_settle(g, c, t);
	}
	return t + 10 * US;
}

uint64_t s_close(struct gen *g, struct conn *c, int who, uint64_t t)
{
	return tcp_close(g, c, who, t) + 10 * US;
}

uint64_t emit_plan(struct gen *g, struct conn *c, int dir, const struct segplan *s, int n,
		   const int *idx, const uint32_t *fault, uint64_t t)
{
	uint64_t last = t;

	for (int k = 0; k < n; k++) {
		int i = idx ? idx[k] : k;
		uint64_t gap = tcp_wire_ns(s[i].len + 54) + 700;

		tcp_emit_seg(g, c, dir, s[i].off, s[i].len, t, fault ? fault[i] : 0);
		tcp_ack_if_due(g, c, dir, t + gap / 2);
		last = t;
		t += gap;
	}
	return last;
}

uint64_t emit_swapped(struct gen *g, struct conn *c, int dir, int a, int b, uint64_t t)
{
	struct segplan s[128];
	int idx[128];
	int n = tcp_plan(c, dir, s, 128);
	uint16_t base = c->d[dir].ip_id;
	uint64_t last = t;

	for (int i = 0; i < n; i++)
		idx[i] = i;
	idx[a] = b;
	idx[b] = a;
	/* Reordered on the way: sent in sequence order - their IP IDs count up
	 * in that order (RFC 791) - and captured swapped. */
	for (int k = 0; k < n; k++) {
		int i = idx[k];
		uint64_t gap = tcp_wire_ns(s[i].len + 54) + 700;

		c->d[dir].ip_id = (uint16_t)(base + i);
		tcp_emit_seg(g, c, dir, s[i].off, s[i].len, t, 0);
		tcp_ack_if_due(g, c, dir, t + gap / 2);
		last = t;
		t += gap;
	}
	c->d[dir].ip_id = (uint16_t)(base + n);
	return last;
}

uint64_t flush_settle(struct gen *g, struct conn *c, int dir, uint64_t t)
{
	t = tcp_flush(g, c, dir, t);
	tcp_settle(g, c, t + 6 * US);
	return t + 10 * US;
}

static uint64_t finish(struct gen *g, struct conn *c, uint64_t te)
{
	te += 6 * US;
	tcp_settle(g, c, te);
	return te + 4 * US;
}

uint64_t s_write(struct gen *g, struct conn *c, int dir, uint32_t len, uint64_t t)
{
	post_write(g, c, dir, len);
	return finish(g, c, tcp_flush(g, c, dir, t));
}

uint64_t s_send(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t len, uint64_t t)
{
	rd_send(g, c, dir, kind, rnd_stag(g), len);
	return finish(g, c, tcp_flush(g, c, dir, t));
}

uint64_t s_imm(struct gen *g, struct conn *c, int dir, int se, uint64_t value, uint64_t t)
{
	rd_immediate(g, c, dir, se, value);
	return finish(g, c, tcp_flush(g, c, dir, t));
}

uint64_t s_read(struct gen *g, struct conn *c, int dir, uint32_t len, uint64_t t)
{
	int op = post_read(g, c, dir, len, 0);

	t = tcp_flush(g, c, dir, t);
	t += c->cfg.rtt + s_proc(g);
	rd_read_resp(g, c, op);
	return finish(g, c, tcp_flush(g, c, 1 - dir, t));
}

uint64_t s_atomic(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint64_t t)
{
	uint64_t orig = prng_u64(&g->rng) >> 20;
	uint64_t add = prng_range(&g->rng, 1, 1000);
	uint32_t req_id = prng_u32(&g->rng);
	uint32_t stag = rnd_stag(g);
	uint64_t to = rnd_to(g);
	int op;

	if (kind == OP_CSWAP)
		op = rd_atomic_req(g, c, dir, kind, req_id, stag, to, orig + add, ~0ull, orig, ~0ull);
	else
		op = rd_atomic_req(g, c, dir, kind, req_id, stag, to, add, 0, 0, 0);
	t = tcp_flush(g, c, dir, t);
	t += c->cfg.rtt + s_proc(g);
	rd_atomic_resp(g, c, op, orig);
	return finish(g, c, tcp_flush(g, c, 1 - dir, t));
}

void send_to_marker(struct gen *g, struct conn *c, int dir, int rfc_grid)
{
	struct dir *d = &c->d[dir];
	uint64_t pos = tcp_nxt(d);
	uint64_t base = rfc_grid ? d->seqstart : mpa_grid_base(d, d->nfpdu + 1);
	uint32_t max = d->mode == SEG_ALIGNED ? 1000 : d->ddp_max;

	for (uint32_t len = 0; len <= max; len++) {
		uint32_t w = mpa_wire_len(d, pos, DDP_UNTAGGED_LEN + len);

		if (((pos + w - base) & 511) == 0) {
			rd_send(g, c, dir, OP_SEND, 0, len);
			return;
		}
	}
	gen_die("internal: no Send length reaches a marker");
}

void send_crc_marker(struct gen *g, struct conn *c, int dir)
{
	struct dir *d = &c->d[dir];
	uint64_t pos = tcp_nxt(d);
	uint32_t max = d->mode == SEG_ALIGNED ? 1000 : d->ddp_max;

	for (uint32_t len = 1; len <= max; len++) {
		if (mpa_marker_before_crc(d, pos, DDP_UNTAGGED_LEN + len)) {
			rd_send(g, c, dir, OP_SEND_SE, 0, len);
			return;
		}
	}
	gen_die("internal: no Send length puts a marker before the CRC");
}
