// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine's delivery (stream_int.h, st_*): what framing.c reports
 * goes through here, below it, to the stages above the framing:
 *
 *   order     one queue per direction keeps the two directions' PDUs in the
 *             order of the frames that completed them (why: stream.c's
 *             opening comment); a direction still framing holds the other's
 *             back, as its state says (framing_blocks);
 *   stages    each PDU to the operation tracker (created at the first one,
 *             the ACKs seen before it replayed), the NVMe and RPC-over-RDMA
 *             stages, the doctor stage (stream_doctor.c), the front end's
 *             sink; losses and hidden FPDUs to the tracker; spans to the
 *             sink, events to the doctor, the sink and the NVMe and RPC
 *             stages; the close records (FIN, RST, Terminate).
 *
 * It calls the tracker, the NVMe, RPC and doctor stages and the sink, never
 * the framing or the engine's entry points (stream.c), which call it.
 */
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "iwarpscope/nvme.h"
#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/smbd.h"
#include "stream_int.h"

/* The oldest frame whose PDUs side's framing may still complete (0: none):
 * read from the framing's state (struct fr_dir), which the framing keeps and
 * this stage only reads. */
static uint64_t framing_blocks(const struct iws_stream *s, int side)
{
	const struct fr_dir *fd = &s->d[side];
	uint32_t from;
	if (fd->mode == FR_HUNT || fd->mode == FR_WAIT)
		from = 0;
	else if (fd->mode == FR_FPDU && fd->reporting)
		/* Framing found (after a hunt, or the Reply ended a wait) and the
		 * buffer's FPDUs are being reported one by one: those not reported
		 * yet block too, or the other direction's held PDUs would be
		 * released in between, out of frame order. */
		from = fd->report_next;
	else
		/* An FPDU being put together holds nothing back: should a hole
		 * (a gap the peer acknowledged, a limit) or the FIN cut it, it
		 * belongs to the frame of its last captured octet but is settled
		 * only then (docs/semantics.md). */
		return 0;
	uint64_t b = 0;
	if (from < fd->buf.len && fd->buf.nmarks)
		b = sbuf_mark_at(&fd->buf, from)->run_frame;
	/* A chunk being delivered (fr_data) may still make PDUs from what is
	 * left of it, completed in the direction's run so far. That is the
	 * newest frame for a segment that arrived in order, but an older one
	 * for octets TCP reassembly drains from behind a hole. */
	if (fd->delivering && fd->run_frame && (!b || fd->run_frame < b))
		b = fd->run_frame;
	return b;
}

/* ---- close records ---- */

/* A FIN, RST or Terminate, with the operations in flight now: the sink's
 * close record (the first IWS_STREAM_MAX_CLOSES of them). */
void st_record_close(struct iws_stream *s, enum iws_close_kind kind, uint8_t dir, uint64_t frame,
			 int64_t ts)
{
	if (s->ncloses >= IWS_STREAM_MAX_CLOSES || !s->sink->close)
		return;
	s->ncloses++;
	struct iws_close r = { .kind = (uint8_t)kind, .dir = dir, .frame = frame, .ts = ts };
	/* outstanding as the capture shows it: not the operations whose state
	 * it does not show yet (qp.h iws_tracker_outstanding_ids) */
	uint32_t n = s->tr ? iws_tracker_outstanding_ids(s->tr, NULL, 0) : 0;
	r.outstanding = n;
	if (n > IWS_STREAM_CLOSE_IDS)
		n = IWS_STREAM_CLOSE_IDS;
	uint64_t *ids = n ? malloc(n * sizeof(*ids)) : NULL;
	if (ids && iws_tracker_outstanding_ids(s->tr, ids, n) >= n) {
		r.ids = ids;
		r.nids = n;
	}
	s->sink->close(s->ctx, &r);
	free(ids);
}

/* ---- the NVMe stage (iws_stream_nvme_stage) ---- */

static void on_nvme_cmd(void *ctx, const struct iws_nvme_cmd *cmd)
{
	struct iws_stream *s = ctx;
	if (s->nvme_cmd)
		s->nvme_cmd(s->ctx, cmd);
}

/* The view, created with the first PDU; NULL when the stage is off or the
 * connection is not NVMe. */
static struct iws_nvme_conn *nvme_view(struct iws_stream *s)
{
	if (s->nvme && !s->nvme_tried) {
		s->nvme_tried = true;
		s->nc = iws_nvme_conn_new(NULL, s->nvme_qp, on_nvme_cmd, s);
	}
	return s->nc;
}

/* Found not to be NVMe: its view costs nothing more. */
static void nvme_settle(struct iws_stream *s)
{
	if (s->nc && iws_nvme_conn_state(s->nc) == IWS_NVME_NO) {
		iws_nvme_conn_free(s->nc);
		s->nc = NULL;
	}
}

/* ---- the RPC-over-RDMA stage (iws_stream_rpc_stage) ---- */

static void on_rpc(void *ctx, const struct iws_rpc *r)
{
	struct iws_stream *s = ctx;
	if (s->rpc_cb)
		s->rpc_cb(s->ctx, r);
}

static struct iws_rpc_conn *rpc_view(struct iws_stream *s)
{
	if (s->rpc && !s->rpc_tried) {
		s->rpc_tried = true;
		s->rc = iws_rpc_conn_new(NULL, s->rpc_qp, on_rpc, s);
	}
	return s->rc;
}

static void rpc_settle(struct iws_stream *s)
{
	if (s->rc && iws_rpc_conn_state(s->rc) == IWS_RPC_NO) {
		iws_rpc_conn_free(s->rc);
		s->rc = NULL;
	}
}

/* ---- the SMB Direct stage (iws_stream_smb_stage) ---- */

static void on_smb(void *ctx, const struct iws_smb *m)
{
	struct iws_stream *s = ctx;
	if (s->smb_cb)
		s->smb_cb(s->ctx, m);
}

static struct iws_smb_conn *smb_view(struct iws_stream *s)
{
	if (s->smb && !s->smb_tried) {
		s->smb_tried = true;
		s->sc = iws_smb_conn_new(s->smb_qp, on_smb, s);
	}
	return s->sc;
}

static void smb_settle(struct iws_stream *s)
{
	if (s->sc && iws_smb_conn_state(s->sc) == IWS_SMB_NO) {
		iws_smb_conn_free(s->sc);
		s->sc = NULL;
	}
}

/* ---- tracker and sink ---- */

static void on_op(void *ctx, const struct iws_op *op)
{
	struct iws_stream *s = ctx;
	if (op->type == IWS_OPT_TERMINATE)
		st_record_close(s, IWS_CLOSE_TERMINATE, op->dir, op->last_frame, op->end_ns);
	st_doctor_op(s, op);
	if (s->sink->op)
		s->sink->op(s->ctx, op);
}

void st_early_free(struct iws_stream *s, struct fr_dir *fd)
{
	s->lim->buf_used -= (uint64_t)fd->capearly * sizeof(*fd->early);
	free(fd->early);
	fd->early = NULL;
	fd->nearly = fd->capearly = 0;
}

/* The sequence number of side's first octet not yet reported to the
 * tracker (held for order, being framed, or still to come); false when none
 * was seen. */
bool st_pending_from(const struct iws_stream *s, int side, uint32_t *seq)
{
	const struct fr_dir *fd = &s->d[side];
	if (!fd->have_pos)
		return false;
	uint32_t lo = fd->buf.len ? fd->buf.seq : fd->pos;
	for (const struct held *h = s->q[side].head; h; h = h->next)
		if (h->kind == H_PDU && (int32_t)(h->pdu.seq - lo) < 0)
			lo = h->pdu.seq;
	*seq = lo;
	return true;
}

/* side acknowledged the peer's octets up to ack, before the tracker exists:
 * kept while it may cover an FPDU still to come. */
void st_early_ack(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	struct fr_dir *fd = &s->d[side];
	if (s->d[!side].mode == FR_DEAD)
		return;  /* no FPDU of the peer is to come (st_no_fpdus) */
	uint32_t from;
	if (st_pending_from(s, !side, &from)) {
		uint32_t k = 0;
		while (k < fd->nearly && (int32_t)(fd->early[k].ack - from) <= 0)
			k++;
		if (k) {  /* (fd->early is NULL until the first ACK is kept) */
			memmove(fd->early, fd->early + k, (fd->nearly - k) * sizeof(*fd->early));
			fd->nearly -= k;
		}
	}
	if (fd->nearly == fd->capearly) {
		uint32_t cap = fd->capearly ? 2 * fd->capearly : 4;
		struct early_ack *e = cap <= ACKS_EARLY_MAX ? realloc(fd->early, cap * sizeof(*e)) : NULL;
		if (e) {
			s->lim->buf_used += (uint64_t)(cap - fd->capearly) * sizeof(*e);
			if (s->lim->buf_used > s->lim->buf_peak)
				s->lim->buf_peak = s->lim->buf_used;
			fd->early = e;
			fd->capearly = cap;
		} else if (fd->nearly) {
			/* the limit: the oldest goes (its operations' ACK unknown) */
			fd->early_lost = true;
			fd->early_lost_hi = fd->early[0].ack;
			memmove(fd->early, fd->early + 1, (fd->nearly - 1) * sizeof(*fd->early));
			fd->nearly--;
		} else {
			fd->early_lost = true;
			fd->early_lost_hi = seg->ack;
			return;
		}
	}
	fd->early[fd->nearly++] = (struct early_ack){ .frame = seg->frame, .ts = seg->ts_ns, .ack = seg->ack, .with_data = seg->wire_len > 0 };
}

static bool ensure_tracker(struct iws_stream *s)
{
	if (!s->tr) {
		struct iws_tracker_limits tl = {
			.max_inflight = s->lim->max_inflight,
			.shared_ack_wait_used = &s->lim->ack_wait_used,
			.shared_ack_wait_peak = &s->lim->ack_wait_peak,
			.shared_max_ack_wait = s->lim->max_ack_wait,
			.ack_unseen_wait = !s->d[0].at_syn && !s->d[1].at_syn,
		};
		s->tr = iws_tracker_new(&tl, on_op, s);
		/* The ACKs seen before the first operation (those that may
		 * cover an FPDU still to come): the tracker waits for ACKs of a
		 * direction only once it has seen one. */
		for (int side = 0; s->tr && side < 2; side++) {
			struct fr_dir *fd = &s->d[side];
			uint8_t dir = fr_dir_of(s, !side);
			if (fd->early_lost)
				iws_tracker_acks_forgotten(s->tr, dir, fd->early_lost_hi);
			for (uint32_t i = 0; i < fd->nearly; i++)
				iws_tracker_ack(s->tr, dir, fd->early[i].ack, fd->early[i].frame, fd->early[i].ts,
						fd->early[i].with_data);
			st_early_free(s, fd);
		}
	}
	return s->tr != NULL;
}

/* The PDU's turn has come: the tracker, then the front end. */
static void deliver(struct iws_stream *s, struct iws_pdu *pdu)
{
	struct iws_seg_note note;
	memset(&note, 0, sizeof(note));
	/* Reported while this frame is read (the end: after the last). */
	pdu->settle_frame = s->cur_frame > pdu->frame ? s->cur_frame : pdu->frame;
	if (pdu->kind == IWS_PDU_MPA_FRAME) {
		/* IRD/ORD and the peer-to-peer RTR apply from the Reply on. */
		if (pdu->mpa->type == IWS_MPA_REPLY && !pdu->mpa->reject && ensure_tracker(s))
			iws_tracker_set_mpa(s->tr, &s->mpa);
	} else if (pdu->msg && ensure_tracker(s)) {
		struct iws_seg seg = {
			.dir = pdu->dir,
			.frame = pdu->frame,
			.ts_ns = pdu->ts,
			.msg = pdu->msg,
			.crc = pdu->fpdu->crc_status,
			.truncated = pdu->truncated,
			.unfinished = pdu->unfinished,
			.first_frame = pdu->first_frame,
			.first_ts = pdu->first_ts,
			.arrived_frame = pdu->arrived_frame,
			.arrived_ts = pdu->arrived_ts,
			.has_seq = true,
			.seq = pdu->seq,
			.len = pdu->len,
			.retrans = pdu->retrans,
			.retrans_first_frame = pdu->retrans_first_frame,
			.retrans_last_frame = pdu->retrans_last_frame,
			.reordered = pdu->reordered,
			.reord_first_frame = pdu->reord_first_frame,
			.reord_last_frame = pdu->reord_last_frame,
		};
		iws_tracker_segment(s->tr, &seg, &note);
		pdu->note = &note;
	}
	struct iws_nvme_conn *nc = nvme_view(s);
	if (nc) {
		iws_nvme_conn_pdu(nc, pdu);
		/* the note is about this PDU only when it was fed one */
		if (pdu->kind == IWS_PDU_FPDU && pdu->msg)
			s->nvme_note = iws_nvme_conn_note(nc);
	}
	struct iws_rpc_conn *rc = rpc_view(s);
	if (rc)
		iws_rpc_conn_pdu(rc, pdu);
	/* created with the first FPDU (a connection that never gets one, e.g.
	 * an MPA Request left unanswered, costs nothing) */
	struct iws_smb_conn *sc = pdu->kind == IWS_PDU_FPDU && pdu->msg ? smb_view(s) : s->sc;
	if (sc)
		iws_smb_conn_pdu(sc, pdu);
	st_doctor_pdu(s, pdu);
	if (s->sink->pdu)
		s->sink->pdu(s->ctx, pdu);
	pdu->note = NULL;
	s->nvme_note = NULL;
	nvme_settle(s);
	rpc_settle(s);
	smb_settle(s);
}

static void deliver_lost(struct iws_stream *s, int side)
{
	if (ensure_tracker(s))
		iws_tracker_gap(s->tr, fr_dir_of(s, side));
}

static void deliver_hidden(struct iws_stream *s, int side, uint64_t frame, int64_t ts)
{
	if (ensure_tracker(s))
		iws_tracker_hidden(s->tr, fr_dir_of(s, side), frame, ts);
}

/* ---- the two queues ---- */

static void q_push(struct held_q *q, struct held *h)
{
	h->next = NULL;
	if (q->tail)
		q->tail->next = h;
	else
		q->head = h;
	q->tail = h;
	q->n++;
}

/* Copies of PDUs held for order share the reassembly buffers' budget
 * (max_buf, all engines), without a floor: past it they go, out of order
 * (counted), rather than hold memory no limit bounds. */

static void held_account(struct iws_stream *s, const struct held *h, bool add)
{
	struct iws_stream_limits *l = s->lim;
	if (add) {
		s->held_bytes += h->size;
		l->buf_used += h->size;
		if (l->buf_used > l->buf_peak)
			l->buf_peak = l->buf_used;
	} else {
		s->held_bytes -= h->size;
		l->buf_used -= h->size;
	}
}

static bool held_over_budget(const struct iws_stream *s)
{
	return s->held_bytes && s->lim->buf_used > s->lim->max_buf;
}

static struct held *q_pop(struct held_q *q)
{
	struct held *h = q->head;
	q->head = h->next;
	if (!q->head)
		q->tail = NULL;
	q->n--;
	return h;
}

static void release_one(struct iws_stream *s, struct held *h)
{
	held_account(s, h, false);
	if (h->kind == H_LOST) {
		deliver_lost(s, h->side);
	} else if (h->kind == H_HIDDEN) {
		deliver_hidden(s, h->side, h->pdu.frame, h->pdu.ts);
	} else {
		/* Point the report at the copies. */
		struct iws_pdu *p = &h->pdu;
		p->wire = h->data;
		if (p->kind == IWS_PDU_MPA_FRAME) {
			p->mpa = &h->mpa;
		} else {
			p->mdir = &h->mdir;
			h->fpdu.ulpdu = h->data + h->ulpdu_at;
			p->fpdu = &h->fpdu;
			if (p->msg)
				p->msg = &h->msg;
		}
		deliver(s, p);
	}
	free(h);
}

/* The earliest frame a PDU of `side` not reported yet may complete in (0:
 * none), for the PDUs that must wait for it: octets framing holds while
 * it hunts for boundaries (framing_blocks). Octets TCP reassembly holds
 * behind a hole hold nothing back: a retransmission that fills the hole
 * completes them in a frame still to come; should the hole prove a capture
 * gap (the receiver's ACK passes it), they belong to the frames that
 * carried them but are settled only in that ACK's frame - and TCP's
 * cumulative ACK rides on the receiver's every segment, so nothing it sent
 * in answer to them comes before (docs/semantics.md). */
static uint64_t blocking_frame(const struct iws_stream *s, int side)
{
	return framing_blocks(s, side);
}

/* May an entry of `side` that completed in `frame` go now? Not while the
 * other direction holds octets, delivered in order in an earlier frame,
 * whose PDUs are not known yet. */
static bool may_go(const struct iws_stream *s, int side, uint64_t frame)
{
	uint64_t b = blocking_frame(s, !side);
	return !b || b >= frame;
}

/* Release, in frame order, whatever may go; force: everything. */
void st_release(struct iws_stream *s, bool force)
{
	for (;;) {
		struct held *a = s->q[0].head, *b = s->q[1].head;
		if (!a && !b)
			return;
		int side;
		if (a && b)
			side = (b->frame < a->frame || (b->frame == a->frame && b->order < a->order)) ? 1 : 0;
		else
			side = a ? 0 : 1;
		struct held *h = s->q[side].head;
		if (!force && !may_go(s, side, h->frame)) {
			/* Bounded: past max_held, or the memory budget, the
			 * oldest go regardless. */
			if (s->q[0].n + s->q[1].n <= s->lim->max_held && !held_over_budget(s))
				return;
			s->d[side].c.order_forced++;
		}
		release_one(s, q_pop(&s->q[side]));
	}
}

static struct held *held_new(size_t extra)
{
	struct held *h = malloc(sizeof(*h) + extra);
	if (h) {
		memset(h, 0, sizeof(*h));
		h->size = sizeof(*h) + extra;
	}
	return h;
}

/* Copy a PDU report so it can wait. NULL when memory is short. */
static struct held *hold_pdu(const struct iws_pdu *p)
{
	bool separate = p->kind == IWS_PDU_FPDU &&
			(p->fpdu->ulpdu < p->wire || p->fpdu->ulpdu >= p->wire + p->len);
	size_t extra = p->len + (separate ? p->fpdu->ulpdu_len : 0);
	struct held *h = held_new(extra);
	if (!h)
		return NULL;
	h->kind = H_PDU;
	h->side = p->side;
	h->frame = p->frame;
	h->pdu = *p;
	memcpy(h->data, p->wire, p->len);
	if (p->kind == IWS_PDU_MPA_FRAME) {
		h->mpa = *p->mpa;
	} else {
		h->mdir = *p->mdir;
		h->fpdu = *p->fpdu;
		if (p->msg)
			h->msg = *p->msg;
		if (separate) {
			h->ulpdu_at = p->len;
			memcpy(h->data + p->len, p->fpdu->ulpdu, p->fpdu->ulpdu_len);
		} else {
			h->ulpdu_at = (uint32_t)(p->fpdu->ulpdu - p->wire);
		}
	}
	return h;
}

void st_pdu(struct iws_stream *s, struct iws_pdu *pdu)
{
	int side = pdu->side;
	if (!s->finishing && !s->q[0].head && !s->q[1].head && may_go(s, side, pdu->frame)) {
		deliver(s, pdu);
		return;
	}
	struct held *h = hold_pdu(pdu);
	if (!h) {
		/* No memory to wait: out of order rather than lost. */
		s->d[side].c.order_forced++;
		deliver(s, pdu);
		return;
	}
	h->order = ++s->order;
	held_account(s, h, true);
	q_push(&s->q[side], h);
	if (!s->finishing)
		st_release(s, false);
}

/* side was given up (not iWARP) or rejected: the peer's ACKs kept for its
 * FPDUs to come cover none, they go (and their budget with them). */
void st_no_fpdus(struct iws_stream *s, int side)
{
	st_early_free(s, &s->d[!side]);
}

void st_lost(struct iws_stream *s, int side)
{
	if (!s->q[side].head) {
		deliver_lost(s, side);
		return;
	}
	/* After this direction's PDUs that wait. */
	struct held *h = held_new(0);
	if (!h) {
		deliver_lost(s, side);
		return;
	}
	h->kind = H_LOST;
	h->side = side;
	h->frame = s->q[side].tail->frame;
	h->order = ++s->order;
	held_account(s, h, true);
	q_push(&s->q[side], h);
}

void st_hidden(struct iws_stream *s, int side, uint64_t frame, int64_t ts)
{
	if (!s->q[side].head) {
		deliver_hidden(s, side, frame, ts);
		return;
	}
	/* After this direction's PDUs that wait, like a loss. */
	struct held *h = held_new(0);
	if (!h) {
		deliver_hidden(s, side, frame, ts);
		return;
	}
	h->kind = H_HIDDEN;
	h->side = side;
	h->frame = s->q[side].tail->frame;
	h->pdu.ts = ts;
	h->pdu.frame = frame;
	h->order = ++s->order;
	held_account(s, h, true);
	q_push(&s->q[side], h);
}

void st_event(struct iws_stream *s, enum iws_stream_event_kind kind, int side, uint32_t seq,
	      uint32_t len, uint32_t detail)
{
	struct iws_stream_event ev = { kind, side, fr_dir_of(s, side), seq, len, s->cur_frame,
				       s->cur_ts, s->d[side].run_frame, detail };
	st_doctor_event(s, &ev);
	if (s->sink->event)
		s->sink->event(s->ctx, &ev);
	if (s->nc)
		iws_nvme_conn_event(s->nc, &ev);
	if (s->rc)
		iws_rpc_conn_event(s->rc, &ev);
	if (s->sc)
		iws_smb_conn_event(s->sc, &ev);
}

void st_span(struct iws_stream *s, enum iws_span_kind kind, int side, uint32_t seq, uint32_t len,
	     uint64_t frame, uint64_t pdu_frame, uint32_t pdu_seq)
{
	if (!s->o.want_spans || !s->sink->span || !len)
		return;
	struct iws_span sp = { kind, side, fr_dir_of(s, side), seq, len, frame, pdu_frame, pdu_seq };
	s->sink->span(s->ctx, &sp);
}

/* The end (iws_stream_finish): the tracker and the stages above it finish
 * (what is still in flight is reported), then the tracker's state goes and
 * its counters stay. */
void st_finish(struct iws_stream *s, uint32_t flag)
{
	if (s->tr)
		iws_tracker_finish(s->tr, flag);
	if (s->nc) {
		iws_nvme_conn_finish(s->nc, flag == IWS_OPF_UNFINISHED);
		nvme_settle(s);
	}
	if (s->rc)
		iws_rpc_conn_finish(s->rc, flag == IWS_OPF_UNFINISHED);
	if (s->sc)
		iws_smb_conn_finish(s->sc, flag == IWS_OPF_UNFINISHED);
}

/* Everything this stage holds (iws_stream_free). */
void st_free(struct iws_stream *s)
{
	for (int side = 0; side < 2; side++) {
		st_early_free(s, &s->d[side]);
		while (s->q[side].head) {
			struct held *h = q_pop(&s->q[side]);
			held_account(s, h, false);
			free(h);
		}
	}
	iws_tracker_free(s->tr);
	iws_nvme_conn_free(s->nc);
	iws_rpc_conn_free(s->rc);
	iws_smb_conn_free(s->sc);
}
