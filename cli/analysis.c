// SPDX-License-Identifier: GPL-2.0-or-later
/* The pipeline driver (see analysis.h). */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "netdecode.h"

#define DEFAULT_OOO_DIR (16ull << 20)
#define DEFAULT_OOO_TOTAL (64ull << 20)

bool analysis_init(struct analysis *a, const struct analysis_opts *o)
{
	memset(a, 0, sizeof(*a));
	if (!flow_table_init(&a->flows))
		return false;
	iws_qp_stats_init(&a->total);
	a->env.lim.max_dir_bytes = o->max_ooo_dir ? o->max_ooo_dir : DEFAULT_OOO_DIR;
	a->env.lim.max_total_bytes = o->max_ooo_total ? o->max_ooo_total : DEFAULT_OOO_TOTAL;
	a->env.tlim.max_inflight = o->max_inflight;
	a->env.check_crc = o->check_crc;
	a->env.track_order = o->track_order;
	a->env.ctx = o->ctx;
	a->env.op = o->op;
	a->env.fpdu = o->fpdu;
	a->env.total = &a->total;
	return true;
}

static bool push(struct conn ***v, uint32_t *n, uint32_t *cap, struct conn *c)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 64;
		struct conn **nv = realloc(*v, nc * sizeof(**v));
		if (!nv)
			return false;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = c;
	return true;
}

static void active_remove(struct analysis *a, struct conn *c)
{
	uint32_t i = c->index;
	if (i >= a->nactive || a->active[i] != c)
		return;
	a->active[i] = a->active[--a->nactive];
	a->active[i]->index = i;
}

/* A connection ended: keep it for the report if it carried iWARP. */
static void closed(struct analysis *a, struct conn *c, struct flow *f)
{
	active_remove(a, c);
	if (conn_is_iwarp(c)) {
		a->c.iwarp_conns++;
		return;
	}
	for (uint32_t i = a->nconns; i-- > 0;) {
		if (a->conns[i] == c) {
			a->conns[i] = NULL;
			break;
		}
	}
	if (f) {
		f->user = NULL;
		f->done = true;
	}
	conn_free(c);
}

/* Find (or create) the conversation of a TCP packet; a SYN that reuses
 * the ports of a finished conversation ends that one first. Every packet,
 * analysed or filtered out, goes through here so QP numbers stay
 * Wireshark's tcp.stream. */
static struct flow *conversation_of(struct analysis *a, const struct tcp_pkt *t, int *side,
				    enum flow_event *ev)
{
	struct flow *old;
	struct flow *f = flow_lookup(&a->flows, t, side, ev, &old);
	if (!f)
		return NULL;
	if (old) {
		/* Ports reused: the previous connection is over. */
		struct conn *oc = old->user;
		if (oc) {
			conn_finish(oc, IWS_OPF_ABORTED);
			closed(a, oc, NULL);
		}
		flow_release(old);
	}
	if (*ev != FLOW_EXISTING)
		a->c.tcp_conns++;
	return f;
}

static void damaged(struct analysis *a, const char *why, uint64_t frame)
{
	if (!a->c.first_damage) {
		a->c.first_damage = why;
		a->c.first_damage_frame = frame;
	}
}

void analysis_packet(struct analysis *a, const struct src_packet *p)
{
	struct tcp_pkt t;
	const char *why = NULL;
	enum net_result r = net_decode(p->dlt, p->data, p->caplen, p->wirelen, &t, &why);
	if (!p->matched) {
		/* Filtered out: only numbered, so tcp.stream stays Wireshark's. */
		if (r == NET_TCP) {
			int side;
			enum flow_event ev;
			conversation_of(a, &t, &side, &ev);
		}
		return;
	}
	a->c.frames++;
	a->cur_frame = p->frame;
	a->cur_ts = p->ts_ns;
	switch (r) {
	case NET_TCP:
		break;
	case NET_NOT_TCP:
		a->c.not_tcp++;
		return;
	case NET_FRAGMENT:
		a->c.fragments++;
		return;
	case NET_TRUNCATED:
		a->c.truncated++;
		damaged(a, why, p->frame);
		return;
	case NET_MALFORMED:
		a->c.malformed++;
		damaged(a, why, p->frame);
		return;
	case NET_UNKNOWN_LINK:
		if (!a->c.unknown_link)
			a->c.unknown_dlt = p->dlt;
		a->c.unknown_link++;
		return;
	}
	a->c.tcp++;
	if (t.cap_len < t.wire_len) {
		a->c.snap_cut++;
		a->c.snap_cut_bytes += t.wire_len - t.cap_len;
	}

	int side;
	enum flow_event ev;
	struct flow *f = conversation_of(a, &t, &side, &ev);
	if (!f)
		return;
	if (!f->user && !f->done) {
		bool synack = (t.flags & (TCPF_SYN | TCPF_ACK)) == (TCPF_SYN | TCPF_ACK);
		struct conn *c = conn_new(&a->env, f, synack);
		if (c && push(&a->conns, &a->nconns, &a->capconns, c)) {
			c->index = a->nactive;
			if (!push(&a->active, &a->nactive, &a->capactive, c)) {
				a->conns[--a->nconns] = NULL;
				conn_free(c);
				c = NULL;
			}
		} else {
			conn_free(c);
			c = NULL;
		}
		f->user = c;
	}
	struct conn *c = f->user;
	if (!c)
		return;
	conn_packet(c, side, &t, p->frame, p->ts_ns);
	if (c->state != CONN_ACTIVE && c->index < a->nactive && a->active[c->index] == c)
		closed(a, c, f);
}

void analysis_finish(struct analysis *a)
{
	if (a->finished)
		return;
	a->finished = true;
	while (a->nactive) {
		struct conn *c = a->active[a->nactive - 1];
		conn_finish(c, c->c.rst ? IWS_OPF_ABORTED : IWS_OPF_UNFINISHED);
		/* The flow table entry no longer matters: no more packets come. */
		a->nactive--;
		if (conn_is_iwarp(c)) {
			a->c.iwarp_conns++;
		} else {
			for (uint32_t i = a->nconns; i-- > 0;) {
				if (a->conns[i] == c) {
					a->conns[i] = NULL;
					break;
				}
			}
			conn_free(c);
		}
	}
}

void analysis_free(struct analysis *a)
{
	for (uint32_t i = 0; i < a->nconns; i++)
		conn_free(a->conns[i]);
	free(a->conns);
	free(a->active);
	flow_table_free(&a->flows);
	iws_qp_stats_free(&a->total);
	memset(a, 0, sizeof(*a));
}

void analysis_watermark(const struct analysis *a, int64_t *ts, uint64_t *frame)
{
	/* Nothing not yet read can complete an FPDU before the next frame. */
	*ts = a->cur_ts;
	*frame = a->cur_frame + 1;
	if (a->finished)
		*ts = INT64_MAX;
	for (uint32_t i = 0; i < a->nactive; i++) {
		int64_t t;
		uint64_t f;
		if (conn_pending_key(a->active[i], &t, &f) &&
		    (t < *ts || (t == *ts && f < *frame))) {
			*ts = t;
			*frame = f;
		}
	}
}
