// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine's connection level (see stream.h): TCP reassembly per
 * direction -> framing per direction -> one queue per direction that keeps
 * the two directions' PDUs in the order of the frames that completed them
 * -> the operation tracker -> the NVMe, RPC-over-RDMA and doctor stages ->
 * the front end's sink.
 *
 * Why the queues: the tracker matches a Read Response to the oldest
 * outstanding Read Request of the other direction (RFC 5040 §5.2.1), so it
 * must see the request first. A direction that is still hunting for its FPDU
 * boundaries (a capture that starts mid-stream) holds octets whose FPDUs
 * will complete in frames that precede what the other direction is framing
 * meanwhile; the other direction's PDUs wait (copied) until the hunt is
 * decided. So do they while a direction holds an incomplete FPDU, or octets
 * behind a hole (a loss or the end may complete them in the frames that
 * carried them); with FPDUs that fit their segments and no loss, nothing
 * waits and nothing is copied.
 */
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "iwarpscope/nvme.h"
#include "iwarpscope/rpcrdma.h"
#include "stream_int.h"

#define DEFAULT_OOO_DIR (16ull << 20)
#define DEFAULT_OOO_SEGS 4096u
#define DEFAULT_OOO_TOTAL (64ull << 20)
#define DEFAULT_BUF (64ull << 20)
#define DEFAULT_ACK_WAIT 16384u
#define DEFAULT_HELD 4096u

/* ---- TCP events (IWS_SEV_FAST_RETRANSMIT ...), in the order of the kinds ---- */

#define TCP_EV_FIRST IWS_SEV_FAST_RETRANSMIT
#define TCP_EV_LAST IWS_SEV_KEEPALIVE
#define TCP_EV(kind) (1u << ((kind) - TCP_EV_FIRST))

static void tcp_events(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	if (!s->tcp_ev || (!s->sink->event && !s->doc))
		return;
	for (int k = TCP_EV_FIRST; k <= TCP_EV_LAST; k++) {
		if (!(s->tcp_ev & TCP_EV(k)))
			continue;
		struct iws_stream_event ev = { (enum iws_stream_event_kind)k, side, fr_dir_of(s, side),
					       seg->seq, seg->wire_len, seg->frame, seg->ts_ns, 0, 0 };
		st_doctor_event(s, &ev);
		if (s->sink->event)
			s->sink->event(s->ctx, &ev);
	}
}

/* ---- TCP reassembly's sink: into framing ---- */

static void rs_start(void *ctx, int side, uint32_t seq, bool at_syn)
{
	fr_start(ctx, side, seq, at_syn);
}

static void rs_data(void *ctx, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		    uint64_t frame, int64_t ts, uint8_t how)
{
	fr_data(ctx, side, seq, p, n, frame, ts, how);
}

static void rs_hole(void *ctx, int side, uint32_t seq, uint32_t n, enum hole_kind kind)
{
	struct iws_stream *s = ctx;
	if (kind == HOLE_GAP)
		st_event(s, IWS_SEV_GAP, side, seq, n, 0);
	fr_hole(s, side, seq, n, kind == HOLE_SNAP);
}

static void rs_fin(void *ctx, int side)
{
	fr_end(ctx, side);
}

static void rs_dup(void *ctx, int side, uint32_t seq, uint32_t n, uint64_t frame)
{
	struct iws_stream *s = ctx;
	st_span(s, IWS_SPAN_RETRANS, side, seq, n, frame, 0, 0);
	/* octets sent again: the FPDU being put together, or the operations
	 * they were delivered to, count a retransmission */
	fr_resent(s, side, seq, n);
	if (s->tr)
		iws_tracker_resent(s->tr, fr_dir_of(s, side), seq, n);
}

static const struct reasm_sink to_framing = { NULL, rs_start, rs_data, rs_hole, rs_fin, rs_dup };

static struct reasm_sink sink_for(struct iws_stream *s)
{
	struct reasm_sink k = to_framing;
	k.ctx = s;
	return k;
}

/* Duplicate ACKs (RFC 5681 §2: no data, no SYN/FIN/RST, the same ACK number
 * and window as this side's previous segment, while the peer has octets
 * outstanding) and zero windows, per side. */
static void tcp_behaviour(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	struct fr_dir *fd = &s->d[side];
	const struct fr_dir *peer = &s->d[!side];
	if (seg->wire_len && !(seg->flags & IWS_TCP_RST)) {
		uint32_t e = seg->seq + seg->wire_len + ((seg->flags & IWS_TCP_SYN) ? 1 : 0);
		if (!fd->have_hi || (int32_t)(e - fd->hi_seq) > 0)
			fd->hi_seq = e;
		fd->have_hi = true;
	}
	if (!(seg->flags & IWS_TCP_RST) && !(seg->flags & IWS_TCP_SYN) && seg->win == 0) {
		fd->c.zero_windows++;
		s->tcp_ev |= TCP_EV(IWS_SEV_ZERO_WINDOW);
	}
	if (!(seg->flags & IWS_TCP_ACK))
		return;
	bool dup = fd->have_ack && !seg->wire_len &&
		   !(seg->flags & (IWS_TCP_SYN | IWS_TCP_FIN | IWS_TCP_RST)) && seg->ack == fd->last_ack &&
		   seg->win == fd->last_win && peer->have_hi && (int32_t)(peer->hi_seq - seg->ack) > 0;
	if (dup) {
		fd->c.duplicate_acks++;
		if (++fd->dupacks == 3)
			fd->dupack3_ts = seg->ts_ns;
		s->tcp_ev |= TCP_EV(IWS_SEV_DUPLICATE_ACK);
	} else if (!fd->have_ack || seg->ack != fd->last_ack) {
		fd->dupacks = 0;
	}
	fd->have_ack = true;
	fd->last_ack = seg->ack;
	fd->last_win = seg->win;
	if (!fd->have_hi_ack || (int32_t)(seg->ack - fd->hi_ack) > 0) {
		fd->have_hi_ack = true;
		fd->hi_ack = seg->ack;
		if (!s->tr)
			st_early_ack(s, side, seg);
	}
}

/* ---- public ---- */

static void default_limits(struct iws_stream_limits *l)
{
	if (!l->max_ooo_dir)
		l->max_ooo_dir = DEFAULT_OOO_DIR;
	if (!l->max_ooo_segs)
		l->max_ooo_segs = DEFAULT_OOO_SEGS;
	if (!l->max_ooo_total)
		l->max_ooo_total = DEFAULT_OOO_TOTAL;
	if (!l->max_buf)
		l->max_buf = DEFAULT_BUF;
	if (!l->max_held)
		l->max_held = DEFAULT_HELD;
	if (!l->max_ack_wait)
		l->max_ack_wait = DEFAULT_ACK_WAIT;
}

struct iws_stream *iws_stream_new(const struct iws_stream_opts *o, struct iws_stream_limits *lim,
				  const struct iws_stream_sink *sink, void *ctx)
{
	struct iws_stream *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *o;
	s->lim = lim;
	default_limits(lim);
	s->sink = sink;
	s->ctx = ctx;
	s->init_side_auto = o->guess_init_side == IWS_INIT_SIDE_AUTO;
	s->init_side = o->guess_init_side && !s->init_side_auto ? 1 : 0;
	s->init_by = s->init_side_auto ? IWS_INIT_BY_FIRST_SEGMENT : IWS_INIT_BY_CALLER;
	for (int side = 0; side < 2; side++)
		reasm_init(&s->d[side].r, &s->d[side].c);
	fr_init(s);
	return s;
}

/* The first segment of a connection whose set-up was not captured: the
 * side it was connected to, as far as the ports tell (0, 1), else -1. A
 * well-known listening port names it; else a side whose port is ephemeral
 * (RFC 6335 §6: 49152-65535; Linux hands out 32768-60999) connected to one
 * whose port is not. The same for every cut of one capture. */
static int listener_by_port(const struct iws_stream *s, uint8_t *by)
{
	const uint16_t *p = s->o.port;
	if (!p[0] || !p[1] || p[0] == p[1])
		return -1;
	bool l0 = iws_listen_port_name(p[0]) != NULL, l1 = iws_listen_port_name(p[1]) != NULL;
	if (l0 != l1) {
		*by = IWS_INIT_BY_LISTEN_PORT;
		return l0 ? 0 : 1;
	}
	bool e0 = p[0] >= 32768, e1 = p[1] >= 32768;
	if (e0 != e1) {
		*by = IWS_INIT_BY_EPHEMERAL_PORT;
		return e0 ? 1 : 0;
	}
	return -1;
}

/* Who initiated the connection, as far as this segment tells. */
static void settle_init_side(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	/* IWS_INIT_SIDE_AUTO at the first segment: a SYN+ACK's sender answered
	 * (the SYN was not captured); else the ports; else its sender. */
	if (s->init_side_auto && !s->fed && !s->init_side_known) {
		uint8_t by = IWS_INIT_BY_FIRST_SEGMENT;
		int listener;
		if ((seg->flags & (IWS_TCP_SYN | IWS_TCP_ACK)) == (IWS_TCP_SYN | IWS_TCP_ACK)) {
			s->init_side = !side;
			by = IWS_INIT_BY_SYN;
		} else if ((listener = listener_by_port(s, &by)) >= 0) {
			s->init_side = !listener;
		} else {
			s->init_side = side;
		}
		s->init_by = by;
	}
	s->fed = true;
	/* A SYN settles who initiated (unless an MPA frame already did): a
	 * SYN opens, a SYN+ACK answers (RFC 9293 §3.5). */
	if ((seg->flags & IWS_TCP_SYN) && !s->init_side_known && s->st == IWS_SST_NONE) {
		s->init_side = (seg->flags & IWS_TCP_ACK) ? !side : side;
		s->init_side_known = true;
		s->init_by = IWS_INIT_BY_SYN;
	}
}

/* The segment's acknowledgement of the peer's direction. */
static void take_peer_ack(struct iws_stream *s, int side, const struct iws_tcp_seg *seg,
			  const struct iws_tcp_opts *opts, const struct reasm_sink *k)
{
	tw_acked(s, !side, seg, opts);
	reasm_ack(&s->d[!side].r, !side, seg->ack, k, s->lim);
	if (s->tr)
		iws_tracker_ack(s->tr, fr_dir_of(s, !side), seg->ack, seg->frame, seg->ts_ns,
				seg->wire_len > 0);
}

/* How a segment that fills a hole behind later octets came: sent again,
 * or overtaken on the way (tcp_watch.c)? */
static uint8_t late_how_of(struct iws_stream *s, int side, const struct iws_tcp_seg *seg,
			   const struct iws_tcp_opts *opts)
{
	struct reasm_later later;
	uint32_t data_seq = (seg->flags & IWS_TCP_SYN) ? seg->seq + 1 : seg->seq;
	if (seg->wire_len && !(seg->flags & IWS_TCP_RST) &&
	    reasm_later(&s->d[side].r, data_seq, seg->wire_len, &later))
		return tw_late_how(s, side, seg, opts, &later);
	return HOW_RESENT;
}

/* Count a segment sent again or reordered, by kind. */
static void count_resent(struct iws_stream *s, int side, const struct iws_tcp_seg *seg, uint8_t how)
{
	struct fr_dir *fd = &s->d[side];
	if (how == HOW_RESENT) {
		/* After three duplicate ACKs from the peer asking for its
		 * octets, a fast retransmit (RFC 5681 §3.2); after a silence of
		 * at least the RTO, a timeout (RFC 6298); else another kind. */
		if (tw_dupacked(s, side, seg->seq, seg->wire_len)) {
			fd->c.fast_retransmits++;
			s->tcp_ev |= TCP_EV(IWS_SEV_FAST_RETRANSMIT);
		} else if (tw_after_silence(s, side, seg)) {
			fd->c.timeouts++;
			s->tcp_ev |= TCP_EV(IWS_SEV_TIMEOUT);
		} else {
			fd->c.other_retransmits++;
			s->tcp_ev |= TCP_EV(IWS_SEV_OTHER_RETRANSMIT);
		}
	} else if (how == HOW_REORDERED) {
		fd->c.reordered++;
		s->tcp_ev |= TCP_EV(IWS_SEV_REORDERED);
	} else if (how == HOW_KEEPALIVE) {
		s->tcp_ev |= TCP_EV(IWS_SEV_KEEPALIVE);  /* (counted by tcp_reasm.c) */
	}
}

/* The direction's first FIN or RST: the tracker is told, and the close is
 * recorded with the operations still outstanding. */
static void note_close(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	struct fr_dir *fd = &s->d[side];
	if ((seg->flags & (IWS_TCP_FIN | IWS_TCP_RST)) && !fd->c.fin && !fd->c.rst && s->tr)
		iws_tracker_closed(s->tr, fr_dir_of(s, side), seg->frame, (seg->flags & IWS_TCP_RST) != 0);
	else if ((seg->flags & IWS_TCP_RST) && !fd->c.rst && s->tr)
		iws_tracker_closed(s->tr, fr_dir_of(s, side), seg->frame, true);
	bool fin = (seg->flags & IWS_TCP_FIN) && !fd->c.fin, rst = (seg->flags & IWS_TCP_RST) && !fd->c.rst;
	/* (a walk over the operations in flight: only for a first FIN or RST) */
	uint32_t outstanding = s->tr && (fin || rst) ? iws_tracker_outstanding_ids(s->tr, NULL, 0) : 0;
	if (fin) {
		fd->c.fin = true;
		fd->c.fin_frame = seg->frame;
		st_record_close(s, IWS_CLOSE_FIN, fr_dir_of(s, side), seg->frame, seg->ts_ns);
		st_event(s, IWS_SEV_FIN, side, seg->seq + seg->wire_len, 0, outstanding);
	}
	/* A reset does not end the analysis: the peer's segments already in
	 * flight are still on the wire; whatever is unfinished at the end was
	 * aborted by the reset. */
	if (rst) {
		fd->c.rst = true;
		fd->c.rst_frame = seg->frame;
		st_record_close(s, IWS_CLOSE_RST, fr_dir_of(s, side), seg->frame, seg->ts_ns);
		st_event(s, IWS_SEV_RST, side, seg->seq, 0, outstanding);
	}
}

void iws_stream_segment(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	if (s->finished || side < 0 || side > 1)
		return;
	/* the doctor judges the segment by what came before it */
	st_doctor_segment(s, side, seg);
	s->cur_frame = seg->frame;
	s->cur_ts = seg->ts_ns;
	struct fr_dir *fd = &s->d[side];
	s->tcp_ev = 0;
	settle_init_side(s, side, seg);
	struct reasm_sink k = sink_for(s);
	struct iws_tcp_opts opts;
	tw_parse_opts(seg, &opts);
	tcp_behaviour(s, side, seg);
	/* The peer's acknowledgement first: it may prove octets of the other
	 * direction lost before this segment's data is placed. */
	if (seg->flags & IWS_TCP_ACK)
		take_peer_ack(s, side, seg, &opts, &k);
	uint8_t late_how = late_how_of(s, side, seg, &opts);
	uint8_t how = reasm_segment(&fd->r, side, seg, late_how, opts.has_ts, opts.tsval, &k, s->lim);
	count_resent(s, side, seg, how);
	tw_sent(s, side, seg, &opts, how);
	note_close(s, side, seg);
	st_release(s, false);
	/* ACKs that can no longer be an operation's first covering one go */
	for (int x = 0; s->tr && x < 2; x++) {
		uint32_t from;
		if (st_pending_from(s, x, &from))
			iws_tracker_acks_settled(s->tr, fr_dir_of(s, x), from);
	}
	tcp_events(s, side, seg);
}

bool iws_stream_done(const struct iws_stream *s)
{
	return (s->d[0].r.fin_done && s->d[1].r.fin_done) || s->st == IWS_SST_NOT_IWARP;
}

void iws_stream_finish(struct iws_stream *s, uint32_t flag)
{
	if (s->finished)
		return;
	struct reasm_sink k = sink_for(s);
	/* The two directions are flushed one after the other, and what each
	 * holds (an incomplete FPDU, octets behind a hole) completes now with
	 * the frames that carried it, which may precede the other direction's:
	 * everything waits, then goes in frame order. */
	s->finishing = true;
	for (int side = 0; side < 2; side++) {
		reasm_flush(&s->d[side].r, side, &k, s->lim);
		if (!s->d[side].r.fin_done)
			fr_end(s, side);
		reasm_free(&s->d[side].r, s->lim);
	}
	st_release(s, true);
	st_finish(s, flag);
	s->finished = true;
	for (int side = 0; side < 2; side++)
		st_early_free(s, &s->d[side]);
	fr_free(s);
	free(s->scratch);
	s->scratch = NULL;
	if (s->tr) {
		/* Keep the counters, free the state. */
		s->trc = *iws_tracker_counts(s->tr);
		iws_tracker_free(s->tr);
		s->tr = NULL;
	}
	/* last: the checks that need the whole connection, on all it reported */
	st_doctor_finish(s);
}

void iws_stream_free(struct iws_stream *s)
{
	if (!s)
		return;
	for (int side = 0; side < 2; side++) {
		tw_free(&s->d[side].w);
		reasm_free(&s->d[side].r, s->lim);
	}
	st_free(s);
	st_doctor_free(s);
	fr_free(s);
	free(s->scratch);
	free(s);
}

enum iws_stream_state iws_stream_state(const struct iws_stream *s)
{
	return s->st;
}

bool iws_stream_is_iwarp(const struct iws_stream *s)
{
	return st_is_iwarp(s->st);
}

const struct iws_mpa_conn *iws_stream_mpa(const struct iws_stream *s)
{
	return &s->mpa;
}

enum iws_init_evidence iws_stream_init_evidence(const struct iws_stream *s)
{
	return (enum iws_init_evidence)s->init_by;
}

int iws_stream_init_side(const struct iws_stream *s)
{
	return s->init_side;
}

const struct iws_mpa_dir *iws_stream_framing(const struct iws_stream *s, int side)
{
	return s->d[side & 1].p_known ? &s->d[side & 1].p : NULL;
}

const struct iws_stream_counts *iws_stream_counts(const struct iws_stream *s, int side)
{
	return &s->d[side & 1].c;
}

void iws_stream_nvme_stage(struct iws_stream *s, uint32_t qp,
			   void (*cmd)(void *ctx, const struct iws_nvme_cmd *cmd))
{
	if (s->fed || s->finished)
		return;
	s->nvme = true;
	s->nvme_qp = qp;
	s->nvme_cmd = cmd;
}

const struct iws_nvme_note *iws_stream_nvme_note(const struct iws_stream *s)
{
	return s->nvme_note;
}

const struct iws_nvme_conn *iws_stream_nvme(const struct iws_stream *s)
{
	return s->nc;
}

void iws_stream_rpc_stage(struct iws_stream *s, uint32_t qp,
			  void (*rpc)(void *ctx, const struct iws_rpc *r))
{
	if (s->fed || s->finished)
		return;
	s->rpc = true;
	s->rpc_qp = qp;
	s->rpc_cb = rpc;
}

const struct iws_rpc_conn *iws_stream_rpc(const struct iws_stream *s)
{
	return s->rc;
}

void iws_stream_smb_stage(struct iws_stream *s, uint32_t qp, void (*smb)(void *ctx, const struct iws_smb *m))
{
	if (s->fed || s->finished)
		return;
	s->smb = true;
	s->smb_qp = qp;
	s->smb_cb = smb;
}

const struct iws_smb_conn *iws_stream_smb(const struct iws_stream *s)
{
	return s->sc;
}

uint32_t iws_stream_inflight_ids(const struct iws_stream *s, uint64_t *ids, uint32_t max)
{
	return s->tr ? iws_tracker_inflight_ids(s->tr, ids, max) : 0;
}

uint32_t iws_stream_outstanding_begun(const struct iws_stream *s)
{
	return s->tr ? iws_tracker_outstanding_begun(s->tr) : 0;
}

const struct iws_tracker_counts *iws_stream_tracker_counts(const struct iws_stream *s)
{
	return s->tr ? iws_tracker_counts(s->tr) : &s->trc;
}

const struct iws_mpa_frame *iws_stream_request(const struct iws_stream *s)
{
	return s->have_req ? &s->req : NULL;
}

const struct iws_mpa_frame *iws_stream_reply(const struct iws_stream *s)
{
	return s->have_rep ? &s->rep : NULL;
}

uint64_t iws_stream_request_frame(const struct iws_stream *s)
{
	return s->req_frame;
}

uint64_t iws_stream_reply_frame(const struct iws_stream *s)
{
	return s->rep_frame;
}

uint32_t iws_stream_marker_deviation(const struct iws_stream *s, int side)
{
	return s->d[side & 1].marker_dev;
}

uint32_t iws_stream_rdmap_deviation(const struct iws_stream *s, int side)
{
	return iws_stream_tracker_counts(s)->rdmap_dev[fr_dir_of(s, side & 1)];
}

uint64_t iws_stream_buffered(const struct iws_stream *s)
{
	uint64_t n = 0;
	for (int side = 0; side < 2; side++) {
		const struct fr_dir *fd = &s->d[side];
		n += fd->r.ooo_bytes + fd->buf.len;
		for (const struct held *h = s->q[side].head; h; h = h->next)
			n += h->kind == H_PDU ? h->pdu.len : 1;
	}
	return n;
}

static void take_min(bool *any, int64_t *ts, uint64_t *frame, int64_t t2, uint64_t f2)
{
	if (!*any || t2 < *ts || (t2 == *ts && f2 < *frame)) {
		*ts = t2;
		*frame = f2;
		*any = true;
	}
}

bool iws_stream_pending(const struct iws_stream *s, int64_t *ts, uint64_t *frame)
{
	bool any = false;
	if (s->finished)
		return false;
	for (int side = 0; side < 2; side++) {
		const struct fr_dir *fd = &s->d[side];
		/* Octets being framed or hunted through: an operation that starts
		 * with them started in the earliest frame that carried them. */
		for (uint32_t i = 0; i < fd->buf.nmarks && fd->buf.len; i++)
			take_min(&any, ts, frame, fd->buf.marks[i].ts, fd->buf.marks[i].frame);
		if (fd->r.ooo_n)
			take_min(&any, ts, frame, fd->r.ooo_min_ts, fd->r.ooo_min_frame);
		for (const struct held *h = s->q[side].head; h; h = h->next)
			if (h->kind == H_PDU)
				take_min(&any, ts, frame, h->pdu.first_ts, h->pdu.first_frame);
	}
	return any;
}

bool iws_stream_oldest_unreported(const struct iws_stream *s, int64_t *start_ns, uint64_t *first_frame)
{
	return !s->finished && s->tr && iws_tracker_oldest_unreported(s->tr, start_ns, first_frame);
}
