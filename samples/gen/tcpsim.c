// SPDX-License-Identifier: GPL-2.0-or-later
/* TCP simulator (see tcpsim.h). RFC 9293 behaviour, simplified: no SACK, no
 * congestion window, constant advertised window, ACK every second segment,
 * immediate ACK on out-of-order or duplicate data. */
#include "tcpsim.h"

#include <stdlib.h>
#include <string.h>

#include "netpkt.h"

#define SYN_WIN 64240
#define EST_WIN 4096		/* x 128 (window scale 7) = 512 KiB */
#define WSCALE 7

uint64_t tcp_nxt(const struct dir *d)
{
	return d->base + d->len;
}

void tcp_put(struct gen *g, struct conn *c, int from, const uint8_t *p, size_t n)
{
	struct dir *d = &c->d[from];

	(void)g;
	if (d->len + n > d->cap) {
		size_t cap = d->cap ? d->cap : 4096;

		while (cap < d->len + n)
			cap *= 2;
		d->buf = xrealloc(d->buf, cap);
		d->cap = cap;
	}
	memcpy(d->buf + d->len, p, n);
	d->len += n;
}

void tcp_unit_end(struct conn *c, int from)
{
	struct dir *d = &c->d[from];

	if (d->nbounds == d->capbounds) {
		d->capbounds = d->capbounds ? 2 * d->capbounds : 64;
		d->bounds = xrealloc(d->bounds, d->capbounds * sizeof(*d->bounds));
	}
	d->bounds[d->nbounds++] = tcp_nxt(d);
}

uint64_t tcp_wire_ns(uint32_t len)
{
	uint64_t ns = ((uint64_t)len + 24) * 8 / 10;	/* preamble, FCS, IFG */

	return ns < 300 ? 300 : ns;
}

static uint64_t quantize(struct gen *g, uint64_t t)
{
	return t - t % g->ts_quantum;
}

/* Receiver of direction d gets [s, e). */
static void rcv_deliver(struct dir *d, uint64_t s, uint64_t e)
{
	if (e <= d->rcv_nxt) {		/* duplicate */
		d->ack_now = 1;
		return;
	}
	if (s > d->rcv_nxt) {		/* out of order: keep it, dup ACK */
		if (d->nooo < 32) {
			d->ooo_s[d->nooo] = s;
			d->ooo_e[d->nooo] = e;
			d->nooo++;
		}
		d->ack_now = 1;
		return;
	}
	d->rcv_nxt = e;
	if (d->nooo) {
		int merged = 1;

		while (merged) {
			merged = 0;
			for (int i = 0; i < d->nooo; i++) {
				if (d->ooo_s[i] <= d->rcv_nxt) {
					if (d->ooo_e[i] > d->rcv_nxt)
						d->rcv_nxt = d->ooo_e[i];
					d->ooo_s[i] = d->ooo_s[d->nooo - 1];
					d->ooo_e[i] = d->ooo_e[d->nooo - 1];
					d->nooo--;
					merged = 1;
					break;
				}
			}
		}
		d->ack_now = 1;		/* hole filled (or still holes) */
		return;
	}
	d->unacked++;
}

static void record_frame(struct gen *g, struct conn *c, int from, const uint8_t *buf,
			 uint32_t len, uint32_t payoff, uint64_t soff, uint32_t paylen,
			 uint64_t ts, uint32_t fault, const struct net_hdr *h, uint64_t ack_off)
{
	struct frame *f;

	g->counts.frames++;
	if (g->streaming) {
		if (fault)
			return;
		if (ts < g->last_ts)
			ts = g->last_ts;	/* never go back in time */
		g->last_ts = ts;
		if (pcapw_write(g->w, ts, buf, len))
			gen_die("write error");
		return;
	}
	if (g->nframes == g->capframes) {
		g->capframes = g->capframes ? 2 * g->capframes : 256;
		g->frames = xrealloc(g->frames, g->capframes * sizeof(*g->frames));
	}
	if (g->arena_len + len > g->arena_cap) {
		size_t cap = g->arena_cap ? g->arena_cap : 65536;

		while (cap < g->arena_len + len)
			cap *= 2;
		g->arena = xrealloc(g->arena, cap);
		g->arena_cap = cap;
	}
	memcpy(g->arena + g->arena_len, buf, len);
	f = &g->frames[g->nframes++];
	memset(f, 0, sizeof(*f));
	f->ts = ts;
	f->order = g->order++;
	f->fault = fault;
	f->conn = c->idx;
	f->dir = from;
	f->data_off = g->arena_len;
	f->len = len;
	f->payoff = payoff;
	f->soff = soff;
	f->paylen = paylen;
	f->flags = h->flags;
	f->win = h->win;
	f->ack_off = ack_off;
	g->arena_len += len;
}

/*
 * Builds and records one segment from side `from`. seq_off is the stream
 * offset of the segment's sequence number; consumes = octets of sequence
 * space it occupies (payload, +1 for SYN or FIN).
 */
static void emit(struct gen *g, struct conn *c, int from, uint8_t flags, uint64_t seq_off,
		 const uint8_t *pay, uint32_t plen, uint64_t ts, uint32_t fault)
{
	struct dir *d = &c->d[from], *peer = &c->d[1 - from];
	struct net_hdr h;
	size_t need;
	uint32_t len, payoff;

	ts = quantize(g, ts);
	memset(&h, 0, sizeof(h));
	h.ipver = c->cfg.ipver;
	h.vlan = c->cfg.vlan;
	memcpy(h.src_mac, c->mac[from], 6);
	memcpy(h.dst_mac, c->mac[1 - from], 6);
	memcpy(h.src_ip, c->ip[from], 16);
	memcpy(h.dst_ip, c->ip[1 - from], 16);
	h.sport = c->port[from];
	h.dport = c->port[1 - from];
	h.seq = dir_seq(d, seq_off);
	h.ack = dir_seq(peer, peer->rcv_nxt);
	h.flags = flags;
	/* the window this side advertises is for the peer's direction */
	h.win = (flags & TCPF_SYN) ? SYN_WIN : peer->win_set ? peer->win : EST_WIN;
	h.ip_id = d->ip_id++;
	h.flow = (uint32_t)c->port[0] << 4 ^ c->port[1];
	if (flags & TCPF_SYN) {
		h.syn_opts = 1;
		h.mss = (uint16_t)(d->mss + (c->cfg.tcp_ts ? 12 : 0));
		h.wscale = WSCALE;
	}
	if (c->cfg.tcp_ts) {
		h.ts = 1;
		h.tsval = d->tsval + (uint32_t)(ts / 1000000u);	/* 1 kHz clock */
		h.tsecr = (flags & TCPF_SYN) && !(flags & TCPF_ACK) ? 0 :
			  peer->tsval + (uint32_t)(ts / 1000000u);
	}
	need = net_hdr_len(&h) + plen;
	if (!g->scratch)
		g->scratch = xrealloc(NULL, 70000 + NET_MAX_HDR);
	if (need > 70000 + NET_MAX_HDR)
		gen_die("segment too large (%zu)", need);
	payoff = (uint32_t)net_hdr_len(&h);
	len = (uint32_t)net_build(g->scratch, &h, pay, plen);
	record_frame(g, c, from, g->scratch, len, payoff, seq_off, plen, ts, fault, &h, peer->rcv_nxt);

	/* this frame acknowledges the peer's stream */
	if (flags & TCPF_ACK) {
		peer->unacked = 0;
		peer->ack_now = 0;
	}
	if (!(fault & (FF_LOST | FF_DROP))) {
		uint32_t consumes = plen + ((flags & (TCPF_SYN | TCPF_FIN)) ? 1 : 0);

		if (flags & TCPF_SYN) {
			d->rcv_nxt = seq_off + 1;
		} else if (consumes) {
			rcv_deliver(d, seq_off, seq_off + consumes);
			if (flags & TCPF_FIN)
				d->ack_now = 1;
		}
	}
}

uint64_t tcp_connect(struct gen *g, struct conn *c, uint64_t t)
{
	uint64_t rtt = c->cfg.rtt;

	emit(g, c, I2R, TCPF_SYN, 0, NULL, 0, t, 0);
	c->d[I2R].sent = 1;
	t += rtt;
	emit(g, c, R2I, TCPF_SYN | TCPF_ACK, 0, NULL, 0, t, 0);
	c->d[R2I].sent = 1;
	t += 2000 + prng_range(&g->rng, 0, 999);
	emit(g, c, I2R, TCPF_ACK, 1, NULL, 0, t, 0);
	return t;
}

static uint64_t next_bound(struct dir *d, uint64_t after)
{
	for (size_t i = 0; i < d->nbounds; i++)
		if (d->bounds[i] > after)
			return d->bounds[i];
	return tcp_nxt(d);
}

int tcp_plan(struct conn *c, int from, struct segplan *out, int max)
{
	struct dir *d = &c->d[from];
	uint64_t off = d->sent, end = tcp_nxt(d);
	int n = 0;

	while (off < end && n < max) {
		uint64_t len;

		switch (d->mode) {
		case SEG_ALIGNED:
			len = next_bound(d, off) - off;
			if (len > d->mss)
				len = d->mss;
			break;
		case SEG_SUPER:
			len = end - off;
			if (len > d->super_max)
				len = d->super_max;
			break;
		default:
			len = end - off;
			if (len > d->mss)
				len = d->mss;
			break;
		}
		out[n].off = off;
		out[n].len = (uint32_t)len;
		off += len;
		n++;
	}
	return n;
}

static void drop_sent_bounds(struct dir *d)
{
	size_t k = 0;

	while (k < d->nbounds && d->bounds[k] <= d->sent)
		k++;
	if (k) {
		memmove(d->bounds, d->bounds + k, (d->nbounds - k) * sizeof(*d->bounds));
		d->nbounds -= k;
	}
}

void tcp_emit_seg(struct gen *g, struct conn *c, int from, uint64_t off, uint32_t len,
		  uint64_t t, uint32_t fault)
{
	struct dir *d = &c->d[from];
	uint8_t flags = TCPF_ACK;

	if (off < d->base || off + len > tcp_nxt(d))
		gen_die("segment outside the send buffer");
	if (off + len == tcp_nxt(d))
		flags |= TCPF_PSH;
	emit(g, c, from, flags, off, d->buf + (off - d->base), len, t, fault);
	if (off + len > d->sent) {
		d->sent = off + len;
		drop_sent_bounds(d);
	}
}

void tcp_pure_ack(struct gen *g, struct conn *c, int who, uint64_t t)
{
	emit(g, c, who, TCPF_ACK, c->d[who].sent, NULL, 0, t, 0);
}

void tcp_pure_ack_fault(struct gen *g, struct conn *c, int who, uint64_t t, uint32_t fault)
{
	emit(g, c, who, TCPF_ACK, c->d[who].sent, NULL, 0, t, fault);
}

void tcp_set_window(struct conn *c, int dir, int set, uint16_t win)
{
	c->d[dir].win_set = set;
	c->d[dir].win = win;
}

int tcp_ack_if_due(struct gen *g, struct conn *c, int from, uint64_t t)
{
	struct dir *d = &c->d[from];

	if (c->d[1 - from].reset)
		return 0;	/* a side that reset the connection acknowledges nothing */
	if (d->ack_now || d->unacked >= 2) {
		tcp_pure_ack(g, c, 1 - from, t);
		return 1;
	}
	return 0;
}

/* streaming mode keeps only untransmitted bytes */
static void compact(struct gen *g, struct dir *d)
{
	uint64_t drop;

	if (!g->streaming || d->sent <= d->base)
		return;
	drop = d->sent - d->base;
	memmove(d->buf, d->buf + drop, d->len - (size_t)drop);
	d->len -= (size_t)drop;
	d->base = d->sent;
}

uint64_t tcp_flush(struct gen *g, struct conn *c, int from, uint64_t t)
{
	struct segplan segs[64];
	uint64_t last = t;
	int n;

	while ((n = tcp_plan(c, from, segs, 64)) > 0) {
		for (int i = 0; i < n; i++) {
			uint64_t gap;

			tcp_emit_seg(g, c, from, segs[i].off, segs[i].len, t, 0);
			gap = tcp_wire_ns(segs[i].len + 66);
			tcp_ack_if_due(g, c, from, t + gap / 2);
			last = t;
			t += gap;
		}
	}
	compact(g, &c->d[from]);
	return last;
}

void tcp_settle(struct gen *g, struct conn *c, uint64_t t)
{
	for (int s = 0; s < 2; s++)
		if ((c->d[s].unacked || c->d[s].ack_now) && !c->d[1 - s].reset)
			tcp_pure_ack(g, c, 1 - s, t);
}

uint64_t tcp_close(struct gen *g, struct conn *c, int who, uint64_t t)
{
	struct dir *a = &c->d[who], *b = &c->d[1 - who];

	emit(g, c, who, TCPF_FIN | TCPF_ACK, a->sent, NULL, 0, t, 0);
	a->sent++;
	a->fin = 1;
	t += c->cfg.rtt / 2 + prng_range(&g->rng, 1000, 3000);
	emit(g, c, 1 - who, TCPF_FIN | TCPF_ACK, b->sent, NULL, 0, t, 0);
	b->sent++;
	b->fin = 1;
	t += c->cfg.rtt / 2 + prng_range(&g->rng, 1000, 3000);
	emit(g, c, who, TCPF_ACK, a->sent, NULL, 0, t, 0);
	return t;
}

void tcp_rst(struct gen *g, struct conn *c, int who, uint64_t t)
{
	emit(g, c, who, TCPF_RST | TCPF_ACK, c->d[who].sent, NULL, 0, t, 0);
	c->d[who].reset = 1;
}

void tcp_fin(struct gen *g, struct conn *c, int who, uint64_t t)
{
	struct dir *a = &c->d[who];

	emit(g, c, who, TCPF_FIN | TCPF_ACK, a->sent, NULL, 0, t, 0);
	a->sent++;
	a->fin = 1;
}

void tcp_rst_reply(struct gen *g, struct conn *c, int who, uint64_t t)
{
	/* RFC 9293 3.10.7.1: the segment that arrived had ACK set, so the
	 * reset takes its sequence number from that ACK field and has no ACK */
	emit(g, c, who, TCPF_RST, c->d[who].sent, NULL, 0, t, 0);
}
