// SPDX-License-Identifier: GPL-2.0-or-later
/* One connection through the core (see conn.h). */
#include "conn.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/nvme.h"
#include "iwarpscope/rpcrdma.h"
#include "order.h"

/* ---- teardown records ---- */

/* The engine's close record (the sink's close): kept with a copy of its
 * ids; with a time window, only those sent inside it (docs/semantics.md,
 * "Time window"). */
static void on_close(void *ctx, const struct iws_close *r)
{
	struct conn *c = ctx;
	if ((c->env->in_window && !c->env->in_window(c->env->ctx, r->ts)) || c->ncloses >= IWS_STREAM_MAX_CLOSES)
		return;
	if (!c->closes && !(c->closes = calloc(IWS_STREAM_MAX_CLOSES, sizeof(*c->closes))))
		return;
	struct iws_close k = *r;
	uint64_t *ids = k.nids ? malloc(k.nids * sizeof(*ids)) : NULL;
	if (ids)
		memcpy(ids, r->ids, k.nids * sizeof(*ids));
	else
		k.nids = 0;
	k.ids = ids;
	c->closes[c->ncloses++] = k;
}

/* ---- a time window: what counts inside it ---- */

/* The engine's counters (struct iws_stream_counts) a window counts. */
#define WSUM_FIELDS(X)                                                                              \
	X(segments) X(bytes) X(retrans) X(keepalives) X(late) X(overlaps) X(out_of_order) X(gaps)  \
	X(gap_bytes) X(snap_bytes) X(ooo_limit_hits) X(fpdus) X(undecodable) X(truncated)            \
	X(marker_errors) X(resyncs) X(lost) X(skipped_bytes) X(partial_at_end) X(segment_resyncs)    \
	X(buf_limit_hits) X(order_forced) X(fast_retransmits) X(timeouts) X(other_retransmits)      \
	X(reordered) X(duplicate_acks) X(zero_windows)

/* The operation tracker's counters (struct iws_tracker_counts) it counts;
 * the rest (the deviations found, operations in flight) are the tracker's. */
#define WTRK_FIELDS(X)                                                                              \
	X(segments) X(ops_started) X(ops_reported) X(ops_incomplete) X(rtr_messages) X(msn_gaps)    \
	X(offset_gaps) X(orphan_responses) X(ird_exceeded) X(stag_mismatches) X(evicted)             \
	X(hidden_requests) X(responses_unknown) X(crc_errors) X(ack_wait_forced)

struct wsnap {
	struct iws_stream_counts s;
	struct iws_tracker_counts t;
};

/* Both directions' counters and the tracker's now (into *w). */
static void wsum_now(const struct conn *c, struct wsnap *w)
{
#define WSUM_NOW(f) w->s.f = CONN_SUM_ALL(c, f);
	WSUM_FIELDS(WSUM_NOW)
#undef WSUM_NOW
	w->t = *iws_stream_tracker_counts(c->eng);
}

/* What the engine counted since *before, while a frame inside the window
 * was fed (or the connection ended inside it). */
static void wsum_add(struct conn *c, const struct wsnap *before)
{
	struct wsnap now;
	wsum_now(c, &now);
#define WSUM_ADD(f) c->wsum->f += now.s.f - before->s.f;
	WSUM_FIELDS(WSUM_ADD)
#undef WSUM_ADD
	struct iws_tracker_counts t = now.t;
#define WTRK_ADD(f) t.f = c->wtrk->f + (now.t.f - before->t.f);
	WTRK_FIELDS(WTRK_ADD)
#undef WTRK_ADD
	*c->wtrk = t;
}

/* The frame is one of the connection's inside the window. */
static void wrun_add(struct conn *c, uint64_t frame)
{
	if (c->wprev_in && c->nwruns) {
		c->wruns[c->nwruns - 1].last = frame;
		return;
	}
	if (c->nwruns == c->capwruns) {
		uint32_t cap = c->capwruns ? c->capwruns * 2 : 2;
		struct frame_run *r = realloc(c->wruns, cap * sizeof(*r));
		if (!r)
			return;
		c->wruns = r;
		c->capwruns = cap;
	}
	c->wruns[c->nwruns++] = (struct frame_run){ frame, frame };
	c->wprev_in = true;
}

/* The doctor's filter (iws_stream_doctor_stage's keep): a finding counts
 * when the frame that shows it is inside the window (one of the
 * connection's frames: a binary search of its runs, in rising frame
 * order). */
static bool frame_inside(void *ctx, uint64_t frame)
{
	const struct conn *c = ctx;
	uint32_t lo = 0, hi = c->nwruns;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->wruns[mid].last < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nwruns && c->wruns[lo].first <= frame;
}

/* ---- the engine's callbacks ---- */

/* The QP's statistics, allocated with its first operation (NULL: out of
 * memory). */
static struct iws_qp_stats *qp_stats(struct conn *c)
{
	if (!c->stats && (c->stats = malloc(sizeof(*c->stats))) != NULL) {
		iws_qp_stats_init(c->stats);
		c->stats->include_rtr = c->env->include_rtr;
	}
	return c->stats;
}

static void on_op(void *ctx, const struct iws_op *op)
{
	struct conn *c = ctx;
	const struct conn_env *env = c->env;
	/* with a time window, the Terminates sent inside it */
	if (op->type == IWS_OPT_TERMINATE && (!env->in_window || env->in_window(env->ctx, op->start_ns))) {
		c->c.terminates++;
		if (!c->terms)
			c->terms = malloc(CONN_MAX_TERM_RECS * sizeof(*c->terms));
		if (c->terms && c->nterms < CONN_MAX_TERM_RECS)
			c->terms[c->nterms++] = (struct term_rec){ op->dir, op->term_layer,
								   op->term_etype, op->term_errcode,
								   op->first_frame };
	}
	if (env->selected && !env->selected(env->ctx, c, (int)op->type, op->start_ns, op->end_ns))
		return;
	c->c.ops++;
	if (!op->complete)
		c->c.ops_incomplete++;
	struct iws_qp_stats *st = qp_stats(c);
	if (env->in_window) {
		/* Counted here as an operation of the window; its octets, segments
		 * and CRC errors are those of its FPDUs inside the window (on_pdu);
		 * its latency, delivery, retransmissions, reordering and stall only
		 * when it ends inside; its span clipped to the window
		 * (docs/semantics.md, "Time window"). */
		const struct iws_op *whole = op;
		struct iws_op w = *op;
		w.bytes = 0;
		w.segments = 0;
		w.crc_errors = 0;
		bool ends_inside = env->in_window(env->ctx, op->end_ns > op->start_ns ? op->end_ns
										    : op->start_ns);
		if (!ends_inside) {
			w.retransmissions = 0;
			w.reordered = 0;
			w.stall_ns = 0;
		}
		w.has_latency = op->has_latency && ends_inside;
		w.has_ack = op->has_ack && ends_inside;
		if (env->win && env->win->resolved) {
			if (w.start_ns && w.start_ns < env->win->since_ns)
				w.start_ns = env->win->since_ns;
			/* the window is half-open: its end is its last nanosecond */
			if (w.end_ns >= env->win->until_ns)
				w.end_ns = env->win->until_ns - 1;
		}
		if (st)
			iws_qp_stats_add(st, &w);
		if (env->total)
			iws_qp_stats_add(env->total, &w);
		/* the lists show the operation whole */
		if (env->op)
			env->op(env->ctx, c, whole);
		return;
	}
	c->c.op_bytes += op->bytes;
	if (st)
		iws_qp_stats_add(st, op);
	if (env->total)
		iws_qp_stats_add(env->total, op);
	if (env->op)
		env->op(env->ctx, c, op);
}

/* With a time window: what an FPDU inside it adds to its operation's type
 * (the part of the operation inside the window). */
static void window_fpdu(struct conn *c, const struct iws_pdu *pdu)
{
	const struct conn_env *env = c->env;
	const struct iws_seg_note *note = pdu->note;
	if (!note->op_id || (unsigned)note->op_type >= IWS_OPT_COUNT)
		return;
	if (env->selected &&
	    !env->selected(env->ctx, c, (int)note->op_type, pdu->ts, pdu->ts))
		return;
	c->c.op_bytes += note->payload;
	if (note->rtr && !env->include_rtr)
		return;
	struct iws_qp_stats *sts[2] = { qp_stats(c), env->total };
	for (int k = 0; k < 2; k++) {
		if (!sts[k])
			continue;
		struct iws_op_stats *o = &sts[k]->op[note->op_type];
		o->bytes += note->payload;
		o->segments++;
		if (pdu->fpdu->crc_status == IWS_CRC_BAD)
			o->crc_errors++;
	}
}

static void on_pdu(void *ctx, const struct iws_pdu *pdu)
{
	struct conn *c = ctx;
	if (pdu->kind != IWS_PDU_FPDU)
		return;
	const struct conn_env *env = c->env;
	if (env->in_window && !env->in_window(env->ctx, pdu->ts)) {
		if (env->nvme_outside && pdu->msg)
			env->nvme_outside(c, pdu);
		if (env->fpdu)
			env->fpdu(env->ctx, c, pdu);
		return;
	}
	c->c.fpdus++;
	if (!c->any_fpdu || pdu->ts < c->first_fpdu_ns)
		c->first_fpdu_ns = pdu->ts;
	if (!c->any_fpdu || pdu->ts > c->last_fpdu_ns)
		c->last_fpdu_ns = pdu->ts;
	c->any_fpdu = true;
	if (pdu->fpdu->crc_status == IWS_CRC_OK || pdu->fpdu->crc_status == IWS_CRC_BAD)
		c->c.crc_checked++;
	if (pdu->fpdu->crc_status == IWS_CRC_BAD)
		c->c.crc_errors++;
	if (pdu->msg && pdu->note) {
		const struct iws_seg_note *note = pdu->note;
		c->c.segments++;
		if (note->rtr)
			c->c.rtr++;
		if (env->in_window)
			window_fpdu(c, pdu);
	}
	if (c->env->fpdu)
		c->env->fpdu(c->env->ctx, c, pdu);
}

static void record_gap(struct conn *c, const struct iws_stream_event *ev)
{
	if (c->ngaps >= CONN_MAX_GAP_RECS)
		return;
	if (c->ngaps == c->capgaps) {
		uint32_t cap = c->capgaps ? c->capgaps * 2 : 4;
		struct gap_rec *g = realloc(c->gaps, cap * sizeof(*g));
		if (!g)
			return;
		c->gaps = g;
		c->capgaps = cap;
	}
	c->gaps[c->ngaps++] = (struct gap_rec){ ev->dir, ev->seq, ev->len, ev->prev_frame, ev->frame };
}

/* With a time window: the engine's TCP counters (iws_stream_counts), one
 * event each, counted inside it (CONN_TCP). */
static void window_event(struct conn *c, const struct iws_stream_event *ev)
{
	struct conn_tcp_counts *w = &c->wtcp;
	switch (ev->kind) {
	case IWS_SEV_GAP:
		w->gaps++;
		w->gap_bytes += ev->len;
		break;
	case IWS_SEV_FAST_RETRANSMIT:
		w->fast_retransmits++;
		break;
	case IWS_SEV_TIMEOUT:
		w->timeouts++;
		break;
	case IWS_SEV_OTHER_RETRANSMIT:
		w->other_retransmits++;
		break;
	case IWS_SEV_REORDERED:
		w->reordered++;
		break;
	case IWS_SEV_ZERO_WINDOW:
		w->zero_windows++;
		break;
	case IWS_SEV_DUPLICATE_ACK:
		w->duplicate_acks++;
		break;
	case IWS_SEV_KEEPALIVE:
		w->keepalives++;
		break;
	default:
		break;
	}
}

static void on_event(void *ctx, const struct iws_stream_event *ev)
{
	struct conn *c = ctx;
	if (c->env->in_window && c->env->in_window(c->env->ctx, ev->ts))
		window_event(c, ev);
	if (ev->kind == IWS_SEV_GAP &&
	    (!c->env->in_window || c->env->in_window(c->env->ctx, ev->ts)))
		record_gap(c, ev);
	if (ev->kind == IWS_SEV_GAP) {
		if (c->env->mark) {
			struct conn_mark m = { IWS_SEV_GAP, ev->dir, ev->frame, ev->ts, ev->seq, ev->len };
			c->env->mark(c->env->ctx, c, &m);
		}
	}
	else if (ev->kind == IWS_SEV_FAST_RETRANSMIT || ev->kind == IWS_SEV_TIMEOUT ||
		 ev->kind == IWS_SEV_OTHER_RETRANSMIT || ev->kind == IWS_SEV_ZERO_WINDOW) {
		if (ev->kind != IWS_SEV_ZERO_WINDOW)
			c->seg_retrans = true;
		if (c->env->mark) {
			struct conn_mark m = { ev->kind, ev->dir, ev->frame, ev->ts, 0, 0 };
			c->env->mark(c->env->ctx, c, &m);
		}
	}
}

/* The engine's NVMe stage found a command (env->nvme). */
static void on_nvme_cmd(void *ctx, const struct iws_nvme_cmd *cmd)
{
	struct conn *c = ctx;
	if (c->env->nvme_keep)
		c->env->nvme_keep(c, cmd);
}

/* The engine's RPC-over-RDMA stage found an RPC (env->rpc). */
static void on_rpc(void *ctx, const struct iws_rpc *r)
{
	struct conn *c = ctx;
	const struct conn_env *env = c->env;
	/* the statistics: of the QPs and time window selected, as NVMe's */
	if (env->rpc_total &&
	    (!env->selected || env->selected(env->ctx, c, -1, r->call_ns,
					     r->has_reply ? r->reply_ns : r->call_ns)))
		iws_rpc_stats_add(env->rpc_total, r);
	if (env->rpc_call)
		env->rpc_call(env->ctx, c, r);
}

/* The engine's SMB Direct stage found an SMB2 request (env->smb). */
static void on_smb(void *ctx, const struct iws_smb *m)
{
	struct conn *c = ctx;
	if (c->env->smb_call)
		c->env->smb_call(c->env->ctx, c, m);
}

static const struct iws_stream_sink engine_sink = { on_pdu, on_op, NULL, on_event, on_close };

/* ---- public ---- */

struct conn *conn_new(struct conn_env *env, const struct flow *f)
{
	struct conn *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->env = env;
	c->stream = f->stream;
	c->ep[0] = f->ep[0];
	c->ep[1] = f->ep[1];
	/* Without a handshake the initiator is the side that sent the SYN, or
	 * else the engine's decision from the first segment it is fed. */
	struct iws_stream_opts o = { env->check_crc, false, IWS_INIT_SIDE_AUTO, { f->ep[0].port, f->ep[1].port } };
	c->eng = iws_stream_new(&o, &env->lim, &engine_sink, c);
	if (c->eng && env->nvme)
		iws_stream_nvme_stage(c->eng, c->stream, on_nvme_cmd);
	if (c->eng && env->rpc)
		iws_stream_rpc_stage(c->eng, c->stream, on_rpc);
	if (c->eng && env->smb)
		iws_stream_smb_stage(c->eng, c->stream, on_smb);
	/* the engine feeds its doctor; with a time window, it counts the
	 * findings of the frames inside */
	bool doctor_ok = !env->doctor ||
			 (c->eng && iws_stream_doctor_stage(c->eng, NULL, NULL, env->in_window ? frame_inside : NULL, c));
	if (env->in_window) {
		c->wsum = calloc(1, sizeof(*c->wsum));
		c->wtrk = calloc(1, sizeof(*c->wtrk));
	}
	if (!c->eng || !doctor_ok || (env->in_window && (!c->wsum || !c->wtrk))) {
		iws_stream_free(c->eng);
		free(c->wsum);
		free(c->wtrk);
		free(c);
		return NULL;
	}
	return c;
}

void conn_packet(struct conn *c, int side, const struct tcp_pkt *p, uint64_t frame, int64_t ts)
{
	if (!c->any_packet) {
		c->first_frame = frame;
		c->first_ns = ts;
		c->last_ns = ts;
	}
	c->any_packet = true;
	c->last_frame = frame;
	if (ts > c->last_ns)
		c->last_ns = ts;
	/* with a time window, the frames inside it (docs/semantics.md) */
	bool inside = !c->env->in_window || c->env->in_window(c->env->ctx, ts);
	if (c->env->in_window) {
		if (inside)
			wrun_add(c, frame);
		else
			c->wprev_in = false;
	}
	if (inside) {
		if (!c->c.packets) {
			c->win_first_frame = frame;
			c->win_first_ns = ts;
		}
		c->win_last_frame = frame;
		if (ts > c->win_last_ns || !c->c.packets)
			c->win_last_ns = ts;
		c->c.packets++;
		c->c.payload_bytes[side] += p->wire_len;
		c->c.captured_bytes[side] += p->cap_len;
	}
	if (p->wire_len && !c->c.data_frame)
		c->c.data_frame = frame;
	if (p->flags & IWS_TCP_FIN)
		c->c.fin++;
	if (p->flags & IWS_TCP_RST)
		c->c.rst++;
	struct conn_seg cs = { side, frame, ts, p->seq, p->ack, p->wire_len, p->flags, false, p->win, -1, 0,
			       { 0 }, { 0 } };
	if (c->env->segment) {
		/* only for a consumer of segments (the report's time-sequence
		 * view): the engine parses them for itself */
		struct iws_tcp_opts o;
		iws_tcp_opts_parse(p->opts, p->opts_len, &o);
		cs.wscale = o.wscale;
		cs.nsack = o.nsack;
		memcpy(cs.sack_l, o.sack_l, sizeof(cs.sack_l));
		memcpy(cs.sack_r, o.sack_r, sizeof(cs.sack_r));
	}
	if (c->state != CONN_ACTIVE) {
		if (c->env->segment)
			c->env->segment(c->env->ctx, c, &cs);
		return;
	}
	struct iws_tcp_seg seg = { p->seq, p->ack, p->win, p->flags, p->payload, p->cap_len,
				   p->wire_len, frame, ts, p->has_ip_id, p->ip_id, p->opts, p->opts_len };
	uint64_t lost = conn_counts_of(c, side)->lost;
	/* The engine's TCP events mark this frame (on_event). */
	c->seg_retrans = false;
	struct wsnap before;
	if (c->wsum && inside)
		wsum_now(c, &before);
	iws_stream_segment(c->eng, side, &seg);
	if (c->wsum && inside)
		wsum_add(c, &before);
	cs.retransmission = c->seg_retrans;
	if (c->env->segment)
		c->env->segment(c->env->ctx, c, &cs);
	if (conn_counts_of(c, side)->lost != lost)
		c->c.chain_lost_frame = frame;
	if (!c->c.gave_up_frame && iws_stream_state(c->eng) == IWS_SST_NOT_IWARP)
		c->c.gave_up_frame = frame;
	/* Both streams ended, or neither carries iWARP: nothing more to learn. */
	if (iws_stream_done(c->eng))
		conn_finish(c, IWS_OPF_ABORTED);
}

void conn_finish(struct conn *c, uint32_t flag)
{
	if (c->state != CONN_ACTIVE)
		return;
	/* what the end finds (FPDUs cut off, the last gaps) counts at the
	 * connection's last frame */
	bool inside = c->wsum && c->any_packet && c->env->in_window(c->env->ctx, c->last_ns);
	struct wsnap before;
	if (inside)
		wsum_now(c, &before);
	iws_stream_finish(c->eng, flag);
	if (inside)
		wsum_add(c, &before);
	c->state = CONN_CLOSED;
}

void conn_free(struct conn *c)
{
	if (!c)
		return;
	iws_stream_free(c->eng);
	if (c->nvme && c->env->nvme_release)
		c->env->nvme_release(c);
	if (c->stats)
		iws_qp_stats_free(c->stats);
	free(c->stats);
	free(c->gaps);
	free(c->terms);
	free(c->wsum);
	free(c->wtrk);
	free(c->wruns);
	for (uint32_t i = 0; i < c->ncloses; i++)
		free((void *)(uintptr_t)c->closes[i].ids);
	free(c->closes);
	free(c);
}

const struct iws_doctor *conn_doctor(const struct conn *c)
{
	return iws_stream_doctor(c->eng);
}

const struct iws_qp_stats *conn_stats(const struct conn *c)
{
	static const struct iws_qp_stats none;
	return c->stats ? c->stats : &none;
}

const struct iws_tracker_counts *conn_tracker_counts(const struct conn *c)
{
	return c->wtrk ? c->wtrk : iws_stream_tracker_counts(c->eng);
}

const char *close_kind_name(uint8_t kind)
{
	static const char *const names[] = { "?", "fin", "rst", "terminate" };
	return names[kind <= IWS_CLOSE_TERMINATE ? kind : 0];
}

const char *close_kind_title(uint8_t kind)
{
	static const char *const titles[] = { "?", "FIN", "RST", "Terminate" };
	return titles[kind <= IWS_CLOSE_TERMINATE ? kind : 0];
}

const char *conn_dir_name(uint8_t dir)
{
	return dir == IWS_DIR_I2R ? "i2r" : "r2i";
}

bool conn_is_iwarp(const struct conn *c)
{
	return iws_stream_is_iwarp(c->eng);
}

bool conn_is_confirmed(const struct conn *c)
{
	return conn_is_iwarp(c) &&
	       (iws_stream_state(c->eng) != IWS_SST_REQUEST || CONN_SUM_ALL(c, fpdus) > 0);
}

void conn_brief(const struct conn *c, struct conn_brief *b)
{
	memset(b, 0, sizeof(*b));
	b->stream = c->stream;
	b->ep[0] = c->ep[0];
	b->ep[1] = c->ep[1];
	b->first_frame = c->first_frame;
	b->last_frame = c->last_frame;
	b->payload_bytes = c->c.payload_bytes[0] + c->c.payload_bytes[1];
	b->captured_bytes = c->c.captured_bytes[0] + c->c.captured_bytes[1];
	b->data_frame = c->c.data_frame;
	b->gave_up_frame = c->c.gave_up_frame;
	b->chain_lost_frame = c->c.chain_lost_frame;
	if (!b->payload_bytes)
		b->why = CONN_WHY_NO_DATA;
	else if (b->captured_bytes * 10 < b->payload_bytes)
		b->why = CONN_WHY_SLICED;
	else
		b->why = b->gave_up_frame ? CONN_WHY_GAVE_UP : CONN_WHY_NO_CHAIN;
}

bool conn_pending_key(const struct conn *c, int64_t *ts, uint64_t *frame)
{
	bool any = false;
	int64_t t;
	uint64_t f;
	if (c->state != CONN_ACTIVE)
		return false;
	/* operations started and not reported: the engine's */
	if (c->env->track_order && iws_stream_oldest_unreported(c->eng, &t, &f))
		order_take_min(&any, ts, frame, t, f);
	if (iws_stream_pending(c->eng, &t, &f))
		order_take_min(&any, ts, frame, t, f);
	const struct iws_nvme_conn *nc = iws_stream_nvme(c->eng);
	if (c->env->track_nvme_order && nc && iws_nvme_conn_pending(nc, &t, &f))
		order_take_min(&any, ts, frame, t, f);
	const struct iws_rpc_conn *rc = iws_stream_rpc(c->eng);
	if (c->env->rpc && rc && iws_rpc_conn_pending(rc, &t, &f))
		order_take_min(&any, ts, frame, t, f);
	const struct iws_smb_conn *sc = iws_stream_smb(c->eng);
	if (c->env->smb_call && sc && iws_smb_conn_pending(sc, &t, &f))
		order_take_min(&any, ts, frame, t, f);
	return any;
}
