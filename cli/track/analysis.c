// SPDX-License-Identifier: GPL-2.0-or-later
/* The tracking driver (see analysis.h). */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "netdecode.h"
#include "order.h"

/* Defaults of the limits (options.c documents them: --max-ooo and friends). */
#define DEFAULT_OOO_DIR (16ull << 20)
#define DEFAULT_OOO_TOTAL (64ull << 20)
#define DEFAULT_REASM (64ull << 20)
#define DEFAULT_FLOWS 32768u

bool analysis_init(struct analysis *a, const struct analysis_opts *o)
{
	memset(a, 0, sizeof(*a));
	if (!flow_table_init(&a->flows))
		return false;
	iws_qp_stats_init(&a->total);
	a->total.include_rtr = o->include_rtr;
	a->env.include_rtr = o->include_rtr;
	a->env.lim.max_ooo_dir = o->max_ooo_dir ? o->max_ooo_dir : DEFAULT_OOO_DIR;
	a->env.lim.max_ooo_total = o->max_ooo_total ? o->max_ooo_total : DEFAULT_OOO_TOTAL;
	/* One segment per 4 kB of the per-direction limit (4096 by default):
	 * tiny segments cost their bookkeeping, not their octets. */
	uint64_t segs = a->env.lim.max_ooo_dir >> 12;
	a->env.lim.max_ooo_segs = segs < 1024 ? 1024 : segs > 16384 ? 16384 : (uint32_t)segs;
	a->env.lim.max_buf = o->max_reasm ? o->max_reasm : DEFAULT_REASM;
	a->env.lim.max_inflight = o->max_inflight;
	a->env.check_crc = o->check_crc;
	a->env.track_order = o->track_order;
	a->env.ctx = o->ctx;
	a->env.op = o->op;
	a->env.fpdu = o->fpdu;
	a->env.mark = o->mark;
	a->env.segment = o->segment;
	a->env.selected = o->selected;
	a->env.in_window = o->in_window;
	a->env.win = o->in_window ? o->sel : NULL;
	a->sel = o->sel;
	a->env.total = &a->total;
	iws_nvme_stats_init(&a->nvme_total);
	a->env.nvme = o->nvme;
	a->env.track_nvme_order = o->track_nvme_order;
	a->env.nvme_cmd = o->nvme_cmd;
	a->env.rpc = o->rpc || o->rpc_stats;
	iws_rpc_stats_init(&a->rpc_total);
	a->env.rpc_total = o->rpc_stats ? &a->rpc_total : NULL;
	a->env.rpc_call = o->rpc_call;
	a->env.smb = o->smb || o->smb_call;
	a->env.smb_call = o->smb_call;
	a->env.nvme_keep = conn_nvme_cmd;
	a->env.nvme_release = conn_nvme_free;
	a->env.nvme_outside = o->nvme && o->in_window ? conn_nvme_outside : NULL;
	a->env.nvme_total = o->nvme ? &a->nvme_total : NULL;
	a->env.doctor = o->doctor;
	a->max_flows = o->max_flows ? o->max_flows : DEFAULT_FLOWS;
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

/* ---- recency lists of the open connections (for --max-flows) ---- */

static void lru_unlink(struct analysis *a, struct conn *c)
{
	struct conn_lru *l = &a->lru[c->lru_list];
	if (c->lru_prev)
		c->lru_prev->lru_next = c->lru_next;
	else
		l->head = c->lru_next;
	if (c->lru_next)
		c->lru_next->lru_prev = c->lru_prev;
	else
		l->tail = c->lru_prev;
	c->lru_prev = c->lru_next = NULL;
	l->n--;
}

static void lru_push(struct analysis *a, struct conn *c, uint8_t list)
{
	struct conn_lru *l = &a->lru[list];
	c->lru_list = list;
	c->lru_prev = NULL;
	c->lru_next = l->head;
	if (l->head)
		l->head->lru_prev = c;
	else
		l->tail = c;
	l->head = c;
	l->n++;
}

/* Which list a connection belongs on: not (yet) iWARP or only an MPA
 * Request never answered, iWARP and ending (a FIN or a reset was seen),
 * iWARP and open. */
static uint8_t lru_class(const struct conn *c)
{
	if (!conn_is_confirmed(c))
		return LRU_OTHER;
	return c->c.rst || c->c.fin ? LRU_ENDING : LRU_IWARP;
}

/* c just had a packet: most recent on its list. */
static void lru_touch(struct analysis *a, struct conn *c)
{
	lru_unlink(a, c);
	lru_push(a, c, lru_class(c));
}

/* -j N: a connection opened or closed at frame (analysis.h, life). */
static void life_push(struct analysis *a, uint64_t frame, uint8_t kind)
{
	if (!a->ext_stream)
		return;
	if (a->nlife == a->caplife) {
		uint32_t nc = a->caplife ? a->caplife * 2 : 256;
		struct life_event *nv = nc > a->caplife ? realloc(a->life, nc * sizeof(*nv)) : NULL;
		if (!nv) {
			a->life_lost = true;
			return;
		}
		a->life = nv;
		a->caplife = nc;
	}
	a->life[a->nlife++] = (struct life_event){ frame, kind };
}

static void active_remove(struct analysis *a, struct conn *c)
{
	uint32_t i = c->index;
	if (i >= a->nactive || a->active[i] != c)
		return;
	lru_unlink(a, c);
	a->active[i] = a->active[--a->nactive];
	a->active[i]->index = i;
}

/* A connection ended: keep it for the report if it carried iWARP (given
 * up at --max-flows with only an MPA Request: counted there, not kept). */
static void closed(struct analysis *a, struct conn *c, bool given_up)
{
	/* a connection is fed its first packet in the frame that opens it */
	if (!a->finished)
		life_push(a, a->cur_frame,
			  c->first_frame == a->cur_frame ? LIFE_CLOSE_NEW : LIFE_CLOSE_OLD);
	active_remove(a, c);
	if (conn_is_iwarp(c) && !(given_up && !conn_is_confirmed(c))) {
		a->c.iwarp_conns++;
		return;
	}
	struct conn_brief b;
	conn_brief(c, &b);
	if (!conn_is_iwarp(c)) {
		a->not_iwarp[b.why]++;
		if (a->nbriefs < ANALYSIS_BRIEFS)
			a->briefs[a->nbriefs++] = b;
	}
	if (c->slot < a->nconns && a->conns[c->slot] == c)
		a->conns[c->slot] = NULL;
	if (c->flow) {
		c->flow->user = NULL;
		c->flow->done = true;
		flow_retire(&a->flows, c->flow);
	}
	conn_free(c);
}

/*
 * --max-flows: room for one more connection. The least recently active
 * connection that has shown no iWARP, or no more than an MPA Request, is
 * given up (freed; its later packets are ignored); else the least recently active iWARP connection that is
 * ending (FIN or reset seen) is finished early, kept for the report. With
 * neither, the new connection is not analysed.
 */
static bool make_room(struct analysis *a)
{
	if (a->nactive < a->max_flows)
		return true;
	struct conn *v = a->lru[LRU_OTHER].tail;
	if (v) {
		a->c.limit_dropped++;
		if (v->flow)
			v->flow->limit_skipped = true;
		conn_finish(v, IWS_OPF_EVICTED);
		v->evicted = true;
		closed(a, v, true);
		return true;
	}
	v = a->lru[LRU_ENDING].tail;
	if (v) {
		a->c.limit_finished++;
		conn_finish(v, IWS_OPF_ABORTED);
		v->evicted = true;
		if (v->flow)
			v->flow->done = true;
		closed(a, v, false);
		return true;
	}
	return false;
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
	if (a->ext_stream) {
		/* -j N: the reader must have seen a conversation start here too */
		if ((*ev != FLOW_EXISTING) != a->in_new)
			a->stream_mismatch = true;
		if (*ev != FLOW_EXISTING)
			f->stream = a->in_stream;
	}
	if (old) {
		/* Ports reused: the previous connection is over. */
		struct conn *oc = old->user;
		if (oc) {
			oc->flow = NULL;
			if (oc->state == CONN_ACTIVE) {
				conn_finish(oc, IWS_OPF_ABORTED);
				closed(a, oc, false);
			}
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

/* A frame net_decode read (r, *tp, why), counted and analysed. */
static inline void decoded(struct analysis *a, const struct src_packet *p, enum net_result r,
			   const struct tcp_pkt *tp, const char *why)
{
	if (p->matched && a->env.in_window && a->env.in_window(a->env.ctx, p->ts_ns)) {
		a->c.win_frames++;
		a->c.win_bytes += p->wirelen;
	}
	if (!p->matched) {
		/* Filtered out: only numbered, so tcp.stream stays Wireshark's. */
		if (r == NET_TCP) {
			int side;
			enum flow_event ev;
			conversation_of(a, tp, &side, &ev);
		}
		return;
	}
	if (r != NET_TCP) {
		/* analysis_tcp counts TCP frames itself */
		a->c.frames++;
		a->cur_frame = p->frame;
		a->cur_ts = p->ts_ns;
	}
	switch (r) {
	case NET_TCP:
		analysis_tcp(a, tp, p->frame, p->ts_ns);
		break;
	case NET_NOT_TCP:
		a->c.not_tcp++;
		break;
	case NET_FRAGMENT:
		a->c.fragments++;
		break;
	case NET_TRUNCATED:
		a->c.truncated++;
		damaged(a, why, p->frame);
		break;
	case NET_MALFORMED:
		a->c.malformed++;
		damaged(a, why, p->frame);
		break;
	case NET_UNKNOWN_LINK:
		if (!a->c.unknown_link)
			a->c.unknown_dlt = p->dlt;
		a->c.unknown_link++;
		break;
	}
}

void analysis_packet(struct analysis *a, const struct src_packet *p)
{
	struct tcp_pkt t;
	const char *why = NULL;
	enum net_result r = net_decode(p->dlt, p->data, p->caplen, p->wirelen, &t, &why);
	decoded(a, p, r, &t, why);
}

void analysis_decoded(struct analysis *a, const struct src_packet *p, enum net_result r, const struct tcp_pkt *tp,
		      const char *why)
{
	decoded(a, p, r, tp, why);
}

void analysis_tcp(struct analysis *a, const struct tcp_pkt *t, uint64_t frame, int64_t ts_ns)
{
	a->c.frames++;
	a->cur_frame = frame;
	a->cur_ts = ts_ns;
	a->c.tcp++;
	if (t->cap_len < t->wire_len) {
		a->c.snap_cut++;
		a->c.snap_cut_bytes += t->wire_len - t->cap_len;
	}

	int side;
	enum flow_event ev;
	struct flow *f = conversation_of(a, t, &side, &ev);
	if (!f)
		return;
	if (!f->user && !f->done) {
		if (!make_room(a)) {
			/* Every open connection carries iWARP: this one is not analysed. */
			a->c.limit_skipped++;
			f->done = true;
			f->limit_skipped = true;
		}
	}
	if (!f->user && !f->done) {
		struct conn *c = conn_new(&a->env, f);
		if (c && push(&a->conns, &a->nconns, &a->capconns, c)) {
			c->slot = a->nconns - 1;
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
		if (c) {
			c->flow = f;
			lru_push(a, c, LRU_OTHER);
			life_push(a, frame, LIFE_OPEN);
		}
		f->user = c;
	}
	struct conn *c = f->user;
	if (!c) {
		if (f->limit_skipped)
			a->c.limit_skipped_packets++;
		flow_retire(&a->flows, f); /* (when done with it) */
		return;
	}
	if (c->state != CONN_ACTIVE) {
		if (c->evicted)
			a->c.limit_skipped_packets++;
		conn_packet(c, side, t, frame, ts_ns);
		return;
	}
	conn_packet(c, side, t, frame, ts_ns);
	if (c->state != CONN_ACTIVE)
		closed(a, c, false);
	else
		lru_touch(a, c);
}

void analysis_finish(struct analysis *a)
{
	if (a->finished)
		return;
	a->finished = true;
	while (a->nactive) {
		struct conn *c = a->active[a->nactive - 1];
		conn_finish(c, c->c.rst ? IWS_OPF_ABORTED : IWS_OPF_UNFINISHED);
		closed(a, c, false);
	}
}

void analysis_free(struct analysis *a)
{
	for (uint32_t i = 0; i < a->nconns; i++)
		conn_free(a->conns[i]);
	free(a->conns);
	free(a->active);
	free(a->life);
	flow_table_free(&a->flows);
	iws_qp_stats_free(&a->total);
	iws_nvme_stats_free(&a->nvme_total);
	iws_rpc_stats_free(&a->rpc_total);
	memset(a, 0, sizeof(*a));
}

const struct conn *analysis_next_conn(const struct analysis *a, uint32_t *i)
{
	while (*i < a->nconns) {
		const struct conn *c = a->conns[(*i)++];
		if (c)
			return c;
	}
	return NULL;
}

const struct conn_brief *analysis_not_iwarp(const struct analysis *a, uint32_t *n)
{
	*n = a->nbriefs;
	return a->briefs;
}

uint64_t analysis_not_iwarp_count(const struct analysis *a, enum conn_why why)
{
	return (unsigned)why < CONN_WHY_N ? a->not_iwarp[why] : 0;
}

uint32_t analysis_iwarp_count(const struct analysis *a)
{
	uint32_t n = 0;
	for (uint32_t i = 0; analysis_next_iwarp(a, &i);)
		n++;
	return n;
}

const struct conn *analysis_next_iwarp(const struct analysis *a, uint32_t *i)
{
	while (*i < a->nconns) {
		const struct conn *c = a->conns[(*i)++];
		if (c && conn_is_iwarp(c))
			return c;
	}
	return NULL;
}

const struct conn *analysis_next_qp(const struct analysis *a, uint32_t *i)
{
	const struct conn *c;
	while ((c = analysis_next_iwarp(a, i)) != NULL)
		if (select_qp(a->sel, c->stream))
			return c;
	return NULL;
}

static bool active_pending(const void *ctx, uint32_t i, int64_t *ts, uint64_t *frame)
{
	const struct analysis *a = ctx;
	return conn_pending_key(a->active[i], ts, frame);
}

void analysis_watermark(const struct analysis *a, int64_t *ts, uint64_t *frame)
{
	order_watermark(a->nactive, a, active_pending, a->cur_ts, a->cur_frame, a->finished, ts,
			frame);
}

/* ---- -j N: the workers' analyses taken over (analysis.h) ---- */

/* d += s for every operation type: what iws_qp_stats_add would have made of
 * both sets of operations added one by one (sums, the span, the
 * distributions: iws_latency_merge keeps them exact while the union fits,
 * as adding does). */
static bool qp_stats_merge(struct iws_qp_stats *d, const struct iws_qp_stats *s)
{
	bool ok = true;
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		struct iws_op_stats *o = &d->op[t];
		const struct iws_op_stats *x = &s->op[t];
		o->count += x->count;
		o->complete += x->complete;
		o->bytes += x->bytes;
		o->segments += x->segments;
		o->crc_errors += x->crc_errors;
		o->retransmissions += x->retransmissions;
		o->reordered += x->reordered;
		o->stall_ns = x->stall_ns > INT64_MAX - o->stall_ns ? INT64_MAX : o->stall_ns + x->stall_ns;
		if (x->first_ns && (!o->first_ns || x->first_ns < o->first_ns))
			o->first_ns = x->first_ns;
		if (x->last_ns > o->last_ns)
			o->last_ns = x->last_ns;
		ok = iws_latency_merge(&o->latency, &x->latency) && ok;
		ok = iws_latency_merge(&o->delivery, &x->delivery) && ok;
	}
	return ok;
}

static int by_stream(const void *x, const void *y)
{
	const struct conn *a = *(const struct conn *const *)x, *b = *(const struct conn *const *)y;
	return a->stream < b->stream ? -1 : a->stream > b->stream;
}

static void counts_add(struct analysis_counts *d, const struct analysis_counts *s)
{
	d->frames += s->frames;
	d->tcp += s->tcp;
	d->snap_cut += s->snap_cut;
	d->snap_cut_bytes += s->snap_cut_bytes;
	d->tcp_conns += s->tcp_conns;
	d->iwarp_conns += s->iwarp_conns;
	d->limit_dropped += s->limit_dropped;
	d->limit_finished += s->limit_finished;
	d->limit_skipped += s->limit_skipped;
	d->limit_skipped_packets += s->limit_skipped_packets;
	d->win_frames += s->win_frames;
	d->win_bytes += s->win_bytes;
}

/* A limit every engine of an analysis shares (stage.h: max_ooo_total,
 * max_buf, max_ack_wait) decides on the sum of what the connections hold.
 * One analysis reading every packet never holds more than the workers' peaks
 * added up, so when those stay within the limit no decision of it could
 * have gone otherwise; past it, the workers may have decided differently. */
static bool shared_limits_clear(struct analysis *const *w, uint32_t n)
{
	uint64_t ooo = 0, buf = 0, ack = 0, max_ack = 0;
	for (uint32_t k = 0; k < n; k++) {
		ooo += w[k]->env.lim.ooo_peak;
		buf += w[k]->env.lim.buf_peak;
		ack += w[k]->env.lim.ack_wait_peak;
		/* the engines fill in the default when they start (stream.c) */
		if (w[k]->env.lim.max_ack_wait)
			max_ack = w[k]->env.lim.max_ack_wait;
	}
	const struct iws_stream_limits *l = &w[0]->env.lim;
	return ooo <= l->max_ooo_total && buf <= l->max_buf && ack <= max_ack;
}

static int by_frame_kind(const void *x, const void *y)
{
	const struct life_event *a = x, *b = y;
	if (a->frame != b->frame)
		return a->frame < b->frame ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

/* --max-flows: one analysis gives connections up (make_room) only when one
 * opens while max_flows are open. The workers' openings and closings,
 * replayed in frame order (at one frame: a connection ended by port reuse,
 * then the new one, then its end with its first packet, as analysis_tcp
 * does them), say whether that ever happened; while it did not, each worker
 * had no more open than all of them together, so none gave any up either. */
static bool max_flows_clear(uint32_t max_flows, struct analysis *const *w, uint32_t n)
{
	size_t total = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (w[k]->life_lost)
			return false;
		total += w[k]->nlife;
	}
	struct life_event *ev = malloc((total ? total : 1) * sizeof(*ev));
	if (!ev)
		return false;
	size_t m = 0;
	for (uint32_t k = 0; k < n; k++) {
		/* an analysis given no connection has no list at all */
		if (!w[k]->nlife)
			continue;
		memcpy(ev + m, w[k]->life, w[k]->nlife * sizeof(*ev));
		m += w[k]->nlife;
	}
	qsort(ev, m, sizeof(*ev), by_frame_kind);
	uint64_t open = 0;
	bool clear = true;
	for (size_t i = 0; i < m && clear; i++) {
		if (ev[i].kind != LIFE_OPEN)
			open--;
		else if (open++ >= max_flows)
			clear = false;
	}
	free(ev);
	return clear;
}

/* Statistics kept per group in the order groups first appear (NVMe status
 * slots, RPC groups past their limit) are taken whole from the one worker
 * that has any; with several, the merge could order them otherwise. */
static bool take_one(bool (*empty)(const struct analysis *), struct analysis *const *w, uint32_t n,
		     struct analysis **from)
{
	*from = NULL;
	for (uint32_t k = 0; k < n; k++) {
		if (empty(w[k]))
			continue;
		if (*from)
			return false;
		*from = w[k];
	}
	return true;
}

static bool nvme_empty(const struct analysis *a)
{
	return a->nvme_total.n == 0;
}

static bool rpc_empty(const struct analysis *a)
{
	return a->rpc_total.n == 0 && a->rpc_total.other == 0;
}

bool analysis_adopt(struct analysis *dst, struct analysis *const *w, uint32_t n)
{
	bool same = n > 0 && shared_limits_clear(w, n);
	uint64_t created = 0, not_iwarp = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (w[k]->stream_mismatch)
			same = false;
		created += w[k]->nconns;
		for (int y = 0; y < CONN_WHY_N; y++)
			not_iwarp += w[k]->not_iwarp[y];
	}
	if (created > dst->max_flows && !max_flows_clear(dst->max_flows, w, n))
		same = false;
	struct analysis *nv = NULL, *rp = NULL;
	if (!take_one(nvme_empty, w, n, &nv) || !take_one(rpc_empty, w, n, &rp))
		same = false;
	struct conn **all = calloc(created ? created : 1, sizeof(*all));
	if (!all)
		return false;
	uint32_t na = 0;
	for (uint32_t k = 0; k < n; k++) {
		struct analysis *x = w[k];
		counts_add(&dst->c, &x->c);
		for (int y = 0; y < CONN_WHY_N; y++)
			dst->not_iwarp[y] += x->not_iwarp[y];
		/* which connections without iWARP came first is a matter of
		 * every worker's order: all of them kept, or the input read again */
		for (uint32_t b = 0; b < x->nbriefs && dst->nbriefs < ANALYSIS_BRIEFS; b++)
			dst->briefs[dst->nbriefs++] = x->briefs[b];
		if (!qp_stats_merge(&dst->total, &x->total))
			same = false;
		if (x->cur_frame > dst->cur_frame) {
			dst->cur_frame = x->cur_frame;
			dst->cur_ts = x->cur_ts;
		}
		for (uint32_t i = 0; i < x->nconns; i++) {
			struct conn *c = x->conns[i];
			if (!c)
				continue;
			/* the worker's conversation table goes with it */
			c->flow = NULL;
			c->env = &dst->env;
			all[na++] = c;
		}
		free(x->conns);
		x->conns = NULL;
		x->nconns = x->capconns = 0;
	}
	if (nv) {
		struct iws_nvme_stats t = dst->nvme_total;
		dst->nvme_total = nv->nvme_total;
		nv->nvme_total = t;
	}
	if (rp) {
		struct iws_rpc_stats t = dst->rpc_total;
		dst->rpc_total = rp->rpc_total;
		rp->rpc_total = t;
	}
	qsort(all, na, sizeof(*all), by_stream);
	for (uint32_t i = 0; i < na; i++)
		all[i]->slot = i;
	free(dst->conns);
	dst->conns = all;
	dst->nconns = dst->capconns = na;
	dst->finished = true;
	if (not_iwarp > ANALYSIS_BRIEFS && analysis_iwarp_count(dst) == 0)
		same = false;
	return same;
}
