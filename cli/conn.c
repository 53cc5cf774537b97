// SPDX-License-Identifier: GPL-2.0-or-later
/* One connection's pipeline (see conn.h). */
#include "conn.h"

#include <stdlib.h>
#include <string.h>

/* Past this many operations between the oldest in flight and the newest,
 * output order is given up for the oldest (it is reported when it ends). */
#define INFLIGHT_MAX (1u << 20)

/* ---- in-flight bookkeeping for ordered output ---- */

static struct inflight_ent *inflight_slot(struct conn *c, uint64_t id)
{
	struct inflight *f = &c->inflight;
	if (f->n == 0) {
		f->base_id = id;
		f->head = 0;
	}
	if (id < f->base_id)
		return NULL; /* already given up */
	uint64_t rel = id - f->base_id;
	while (rel >= f->n) {
		if (f->n == f->cap) {
			uint32_t cap = f->cap ? f->cap * 2 : 64;
			struct inflight_ent *e = calloc(cap, sizeof(*e));
			if (!e)
				return NULL;
			for (uint32_t i = 0; i < f->n; i++)
				e[i] = f->ents[(f->head + i) % f->cap];
			free(f->ents);
			f->ents = e;
			f->cap = cap;
			f->head = 0;
		}
		memset(&f->ents[(f->head + f->n) % f->cap], 0, sizeof(struct inflight_ent));
		f->n++;
	}
	return &f->ents[(f->head + rel) % f->cap];
}

static void inflight_pop(struct conn *c)
{
	struct inflight *f = &c->inflight;
	while (f->n && (f->ents[f->head].done || f->n > INFLIGHT_MAX)) {
		if (!f->ents[f->head].done)
			c->env->order_limit_hits++;
		f->head = (f->head + 1) % f->cap;
		f->n--;
		f->base_id++;
	}
}

/* ---- tracker and stage callbacks ---- */

static void on_op(void *ctx, const struct iws_op *op)
{
	struct conn *c = ctx;
	c->c.ops++;
	c->c.op_bytes += op->bytes;
	if (!op->complete)
		c->c.ops_incomplete++;
	if (op->type == IWS_OPT_TERMINATE) {
		c->c.terminates++;
		if (!c->terms)
			c->terms = malloc(CONN_MAX_TERM_RECS * sizeof(*c->terms));
		if (c->terms && c->nterms < CONN_MAX_TERM_RECS)
			c->terms[c->nterms++] = (struct term_rec){ op->dir, op->term_layer,
								   op->term_etype, op->term_errcode,
								   op->first_frame };
	}
	if (!c->stats && (c->stats = malloc(sizeof(*c->stats))) != NULL)
		iws_qp_stats_init(c->stats);
	if (c->stats)
		iws_qp_stats_add(c->stats, op);
	if (c->env->total)
		iws_qp_stats_add(c->env->total, op);
	if (c->env->track_order) {
		struct inflight_ent *e = inflight_slot(c, op->id);
		if (e)
			e->done = true;
	}
	if (c->env->op)
		c->env->op(c->env->ctx, c, op);
}

static void ensure_tracker(struct conn *c)
{
	if (c->tr)
		return;
	c->tr = iws_tracker_new(&c->env->tlim, on_op, c);
}

static void on_params(void *ctx)
{
	struct conn *c = ctx;
	ensure_tracker(c);
	/* IRD/ORD and the peer-to-peer RTR come from a captured handshake. */
	if (c->tr && c->st.hs == HS_DONE)
		iws_tracker_set_mpa(c->tr, &c->st.mpa);
}

static void on_mpa_frame(void *ctx, int side, const struct iws_mpa_frame *f, uint64_t frame)
{
	struct conn *c = ctx;
	(void)side;
	(void)frame;
	struct mpa_brief b = { f->enhanced_flag, f->has_enhanced, f->ird, f->ord };
	if (f->type == IWS_MPA_REQUEST) {
		c->req = b;
		c->have_req = true;
	} else {
		c->rep = b;
		c->have_rep = true;
	}
}

static void on_lost(void *ctx, int side)
{
	struct conn *c = ctx;
	ensure_tracker(c);
	if (c->tr)
		iws_tracker_gap(c->tr, stage_dir_of(&c->st, side));
}

static void on_fpdu(void *ctx, const struct fpdu_event *ev)
{
	struct conn *c = ctx;
	struct iws_seg_note note;
	memset(&note, 0, sizeof(note));
	ensure_tracker(c);
	if (!c->any_fpdu || ev->ts_ns < c->first_fpdu_ns)
		c->first_fpdu_ns = ev->ts_ns;
	if (!c->any_fpdu || ev->ts_ns > c->last_fpdu_ns)
		c->last_fpdu_ns = ev->ts_ns;
	c->any_fpdu = true;
	if (ev->fpdu->crc_status == IWS_CRC_OK || ev->fpdu->crc_status == IWS_CRC_BAD)
		c->c.crc_checked++;
	if (ev->fpdu->crc_status == IWS_CRC_BAD)
		c->c.crc_errors++;
	if (ev->msg && c->tr) {
		struct iws_seg s = {
			.dir = ev->dir,
			.frame = ev->frame,
			.ts_ns = ev->ts_ns,
			.msg = ev->msg,
			.crc = ev->fpdu->crc_status,
			.truncated = ev->truncated,
		};
		iws_tracker_segment(c->tr, &s, &note);
		c->c.segments++;
		if (note.rtr)
			c->c.rtr++;
		if (c->env->track_order && note.op_first && note.op_id) {
			struct inflight_ent *e = inflight_slot(c, note.op_id);
			if (e && !e->started) {
				e->started = true;
				e->start_ns = ev->ts_ns;
				e->frame = ev->frame;
			}
		}
		if (c->env->track_order)
			inflight_pop(c);
	}
	if (c->env->fpdu)
		c->env->fpdu(c->env->ctx, c, ev, &note);
}

/* ---- reassembly sink: into the MPA stage ---- */

static void rs_start(void *ctx, int side, uint32_t seq, bool at_syn)
{
	struct conn *c = ctx;
	stage_start(&c->st, side, seq, at_syn);
}

static void rs_data(void *ctx, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		    uint64_t frame, int64_t ts)
{
	struct conn *c = ctx;
	stage_data(&c->st, side, seq, p, n, frame, ts);
}

static void rs_hole(void *ctx, int side, uint32_t seq, uint32_t n, enum hole_kind kind)
{
	struct conn *c = ctx;
	if (kind == HOLE_GAP && c->ngaps < CONN_MAX_GAP_RECS) {
		if (c->ngaps == c->capgaps) {
			uint32_t cap = c->capgaps ? c->capgaps * 2 : 4;
			struct gap_rec *g = realloc(c->gaps, cap * sizeof(*g));
			if (!g) {
				stage_hole(&c->st, side, seq, n);
				return;
			}
			c->gaps = g;
			c->capgaps = cap;
		}
		struct gap_rec *g = &c->gaps[c->ngaps++];
		g->dir = stage_dir_of(&c->st, side);
		g->seq = seq;
		g->len = n;
		g->prev_frame = c->st.d[side].run_frame;
		g->seen_frame = c->cur_frame;
	}
	stage_hole(&c->st, side, seq, n);
}

static void rs_fin(void *ctx, int side)
{
	struct conn *c = ctx;
	stage_end(&c->st, side);
}

static const struct reasm_sink reasm_to_stage = { NULL, rs_start, rs_data, rs_hole, rs_fin };

static const struct stage_sink stage_to_tracker = { on_fpdu, on_lost, on_mpa_frame, on_params };

/* ---- public ---- */

struct conn *conn_new(struct conn_env *env, const struct flow *f, bool first_is_synack)
{
	struct conn *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->env = env;
	c->stream = f->stream;
	c->ep[0] = f->ep[0];
	c->ep[1] = f->ep[1];
	reasm_init(&c->rd[0]);
	reasm_init(&c->rd[1]);
	/* Without a handshake the initiator is the side that sent the SYN, or
	 * else the side that sent the first captured segment. */
	stage_init(&c->st, first_is_synack ? 1 : 0, env->check_crc, &stage_to_tracker, c, &env->slim);
	return c;
}

void conn_packet(struct conn *c, int side, const struct tcp_pkt *p, uint64_t frame, int64_t ts)
{
	if (c->c.packets == 0) {
		c->first_frame = frame;
		c->first_ns = ts;
	}
	c->c.packets++;
	c->last_frame = frame;
	if (ts > c->last_ns || c->c.packets == 1)
		c->last_ns = ts;
	c->c.payload_bytes[side] += p->wire_len;
	if (c->state != CONN_ACTIVE)
		return;
	c->cur_frame = frame;
	/* A SYN from the side we took for the responder settles who initiated. */
	if ((p->flags & (TCPF_SYN | TCPF_ACK)) == TCPF_SYN && !c->st.init_side_known &&
	    c->st.hs == HS_NONE)
		c->st.init_side = side;

	struct reasm_sink sink = reasm_to_stage;
	sink.ctx = c;
	struct reasm_in in = { p, frame, ts };
	/* The peer's acknowledgement first: it may prove octets of the other
	 * direction lost before this segment's data is placed. */
	if (p->flags & TCPF_ACK)
		reasm_ack(&c->rd[!side], !side, p->ack, &sink, &c->env->lim);
	reasm_segment(&c->rd[side], side, &in, &sink, &c->env->lim);
	if (p->flags & TCPF_FIN)
		c->c.fin++;
	/* A reset does not end the analysis: the peer's segments already in
	 * flight are still on the wire (Wireshark keeps dissecting them too);
	 * whatever is unfinished at the end was aborted by the reset. */
	if (p->flags & TCPF_RST)
		c->c.rst++;
	/* Both streams ended, or neither carries iWARP: nothing more to learn. */
	if ((c->rd[0].fin_done && c->rd[1].fin_done) || c->st.hs == HS_NOT_IWARP)
		conn_finish(c, IWS_OPF_ABORTED);
}

void conn_finish(struct conn *c, uint32_t flag)
{
	if (c->state != CONN_ACTIVE)
		return;
	struct reasm_sink sink = reasm_to_stage;
	sink.ctx = c;
	for (int s = 0; s < 2; s++) {
		reasm_flush(&c->rd[s], s, &sink, &c->env->lim);
		if (!c->rd[s].fin_done)
			stage_end(&c->st, s);
		reasm_free(&c->rd[s], &c->env->lim);
	}
	if (c->tr)
		iws_tracker_finish(c->tr, flag);
	c->state = CONN_CLOSED;
	stage_free(&c->st);
	if (c->tr) {
		/* Keep the tracker's counters, free its state. */
		struct iws_tracker *t = c->tr;
		c->trc = malloc(sizeof(*c->trc));
		if (c->trc)
			*c->trc = *iws_tracker_counts(t);
		iws_tracker_free(t);
		c->tr = NULL;
	}
	free(c->inflight.ents);
	memset(&c->inflight, 0, sizeof(c->inflight));
}

void conn_free(struct conn *c)
{
	if (!c)
		return;
	for (int s = 0; s < 2; s++)
		reasm_free(&c->rd[s], &c->env->lim);
	stage_free(&c->st);
	iws_tracker_free(c->tr);
	if (c->stats)
		iws_qp_stats_free(c->stats);
	free(c->stats);
	free(c->inflight.ents);
	free(c->gaps);
	free(c->terms);
	free(c->trc);
	free(c);
}

const struct iws_qp_stats *conn_stats(const struct conn *c)
{
	static const struct iws_qp_stats none;
	return c->stats ? c->stats : &none;
}

const struct iws_tracker_counts *conn_tracker_counts(const struct conn *c)
{
	static const struct iws_tracker_counts none;
	return c->tr ? iws_tracker_counts(c->tr) : c->trc ? c->trc : &none;
}

bool conn_is_iwarp(const struct conn *c)
{
	return stage_is_iwarp(&c->st);
}

static void take_min(bool *any, int64_t *ts, uint64_t *frame, int64_t t2, uint64_t f2)
{
	if (!*any || t2 < *ts || (t2 == *ts && f2 < *frame)) {
		*ts = t2;
		*frame = f2;
		*any = true;
	}
}

bool conn_pending_key(const struct conn *c, int64_t *ts, uint64_t *frame)
{
	bool any = false;
	if (c->state != CONN_ACTIVE)
		return false;
	const struct inflight *f = &c->inflight;
	for (uint32_t i = 0; i < f->n; i++) {
		/* The oldest started and unreported op; later ones start later
		 * except when timestamps go backwards, which the timeline counts. */
		const struct inflight_ent *e = &f->ents[(f->head + i) % f->cap];
		if (e->started && !e->done) {
			take_min(&any, ts, frame, e->start_ns, e->frame);
			break;
		}
	}
	uint64_t sf;
	int64_t st;
	if (stage_pending_min(&c->st, &sf, &st))
		take_min(&any, ts, frame, st, sf);
	for (int s = 0; s < 2; s++)
		if (c->rd[s].ooo)
			take_min(&any, ts, frame, c->rd[s].ooo_min_ts, c->rd[s].ooo_min_frame);
	return any;
}
