// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The operation tracker (see qp.h). Segments of one connection come in capture
 * order; each belongs to at most one in-flight operation, found by:
 *   RDMA Write             open tagged messages of its direction, by STag and
 *                          the next expected TO (RFC 5041 §5.2);
 *   Read Response          the oldest outstanding Read Request of the other
 *                          direction (RFC 5040 §5.2.1: responses come in
 *                          request order), checked by sink STag and TO;
 *   Send family, Immediate open untagged messages of queue 0 by MSN, placed
 *                          by MO (RFC 5041 §5.3);
 *   Atomic Response        the outstanding Atomic Request with the same
 *                          request identifier (RFC 7306 §5.2.2).
 * Read Request, Immediate Data, Atomic Request and Terminate are single
 * segment messages.
 */
#include "iwarpscope/qp.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_INFLIGHT 65536u
#define N_QUEUES 4
/* Multi-segment messages open at once per direction and buffer model
 * (Writes and orphan Read Responses; Sends): real streams have one or two
 * (RFC 5041 does not interleave them in practice). Beyond it the oldest is
 * given up, so that finding a segment's message stays cheap. */
#define OPEN_MSG_MAX 256u
/* Outstanding requests searched for the one a response answers: responses
 * come in request order (RFC 5040 §5.2.1), so the answer is near the head;
 * one further down means everything before it went unanswered. */
#define SEARCH_MAX 1024u
/* Complete operations waiting for the ACK of their last FPDU, per
 * direction: past it the oldest is reported without (ack_wait_forced). */
#define DEFAULT_ACK_WAIT 4096u
/* Recent acknowledgements kept per direction, to find the first that
 * covered an operation completed after it was read (FPDUs held for order). */
#define ACK_RING 16u
/* Hidden spans remembered per direction (iws_tracker_hidden). */
#define HIDDEN_MAX 64u
/* Operations searched for the owners of retransmitted octets. */
#define RESENT_SCAN 512u

enum op_kind { K_WRITE, K_READ, K_UNTAGGED, K_ATOMIC, K_ORPHAN_READ };

struct list {
	struct node *head, *tail;
	uint32_t n;
};

struct node {
	struct iws_op op;
	enum op_kind kind;
	struct node *all_prev, *all_next;   /* every in-flight op, in start order */
	struct node *prev, *next;           /* its matching list */
	struct list *in;
	uint64_t expect_to;                 /* tagged: next TO */
	uint32_t expect_mo;                 /* untagged: next MO */
	uint32_t gap_gen;                   /* gaps of data_dir before it started */
	uint8_t data_dir;                   /* the direction its data (or response) takes */
	bool resp_started;
	/* loss attribution (docs/semantics.md) */
	bool any_fpdu;
	int64_t prev_done_ts;               /* in-order completion of its previous FPDU */
	bool rng[2];                        /* TCP octets [lo, hi) of its FPDUs, per direction */
	uint32_t lo[2], hi[2];
	uint64_t retrans_last[2];           /* the retransmission that carried the last octet
					     * of its latest FPDU per direction, 0 */
	bool can_wait;                      /* its last FPDU's end is known: wait for the ACK */
	int64_t req_done_ts;                /* read, atomic: the request deliverable in order */
	bool sink_unknown;                  /* read: its Sink STag/TO were not captured ... */
	bool from_hidden;                   /* read: its request was in a hidden span */
	bool id_unknown;                    /* atomic: its Request Identifier was not */
	uint8_t ack_dir;
	uint32_t ack_seq;
};

struct ack_rec {
	uint32_t ack;
	uint64_t frame;
	int64_t ts;
	bool with_data;                     /* carried by a segment with data */
};

/* The acknowledgements of one direction's octets, as they advanced. */
struct ack_ring {
	bool any;
	uint32_t hi;                        /* the highest so far */
	uint32_t head, n;
	bool evicted;                       /* older acknowledgements were let go: */
	uint32_t evicted_hi;                /* the newest of them */
	struct ack_rec r[ACK_RING];
};

struct iws_tracker {
	iws_op_cb cb;
	void *ctx;
	uint32_t max_inflight;
	uint64_t next_id;
	struct iws_tracker_counts counts;
	struct iws_mpa_conn mpa;
	bool have_mpa;
	bool rtr_pending;            /* the initiator's first FPDU is the RTR */
	bool rtr_read_resp_pending;  /* a zero-length Read RTR awaits its response */
	struct node *all_head, *all_tail;
	struct list tagged[2];       /* open Writes / orphan Read Responses by data direction */
	struct list untagged[2];     /* open Sends by direction */
	struct list requests[2];     /* Read/Atomic Requests by the direction they were sent in */
	bool have_msn[2][N_QUEUES];
	uint32_t last_msn[2][N_QUEUES];
	bool tagged_unsure[2];       /* the next new tagged message may have begun in a gap */
	uint32_t gap_gen[2];         /* capture gaps per direction so far */
	bool rtr_next;               /* the segment being dispatched is an RTR message */
	uint32_t max_ack_wait;
	uint64_t *shared_used, *shared_peak, shared_max;
	uint64_t own_shared;         /* this tracker's part of *shared_used */
	/* FPDUs a snapshot length hid (their headers cut), per direction that
	 * sent them, oldest first: Read Requests among them are inferred from
	 * the responses that answer nothing captured. */
	struct hidden_span {
		uint64_t frame;
		int64_t ts;
		uint64_t after_id;       /* operations started before it: ids <= this */
	} hidden[2][HIDDEN_MAX];
	uint32_t nhidden[2];
	bool hidden_spoiled[2];      /* octets of unknown frames were hidden since */
	bool any_resp[2];
	int64_t resp_sent_ts[2];     /* dir's last read/atomic response: its last FPDU sent */
	struct list waiting[2];      /* complete operations waiting for the ACK of dir's octets */
	struct ack_ring acks[2];
	bool closed[2];              /* the sender of dir sent a FIN or an RST ... */
	uint64_t closed_frame[2];    /* ... in this frame */
};

static inline int32_t sdiff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

/* A capture gap may hide part of n: one happened in the direction of its
 * data since it started. (A counter, not a mark on every operation in
 * flight: a capture can have as many gaps as packets.) */
static bool gap_seen(const struct iws_tracker *t, const struct node *n)
{
	return t->gap_gen[n->data_dir] != n->gap_gen;
}

/* ---- lists ---- */

static void list_push(struct list *l, struct node *n)
{
	n->in = l;
	n->next = NULL;
	n->prev = l->tail;
	if (l->tail)
		l->tail->next = n;
	else
		l->head = n;
	l->tail = n;
	l->n++;
}

static void list_unlink(struct node *n)
{
	struct list *l = n->in;
	if (!l)
		return;
	if (n->prev)
		n->prev->next = n->next;
	else
		l->head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		l->tail = n->prev;
	l->n--;
	n->in = NULL;
	n->prev = n->next = NULL;
}

/* ---- life cycle of an operation ---- */

/* Hand the operation over, once and for all. */
static void deliver(struct iws_tracker *t, struct node *n)
{
	if (!n->op.complete)
		t->counts.ops_incomplete++;
	t->counts.ops_reported++;
	if (t->cb)
		t->cb(t->ctx, &n->op);
	free(n);
}

/* Did an acknowledgement already cover the operation's last FPDU? The first
 * that did is its ACK. */
static bool ack_known(struct iws_tracker *t, struct node *n)
{
	const struct ack_ring *a = &t->acks[n->ack_dir];
	if (!a->any || sdiff(a->hi, n->ack_seq) < 0)
		return false;
	const struct ack_rec *e = NULL;
	for (uint32_t i = 0; i < a->n && !e; i++) {
		const struct ack_rec *x = &a->r[(a->head + i) % ACK_RING];
		if (sdiff(x->ack, n->ack_seq) >= 0)
			e = x;
	}
	if (!e)
		return false;
	if (e == &a->r[a->head] && a->evicted && sdiff(a->evicted_hi, n->ack_seq) >= 0)
		return true;  /* one the ring let go covered it first: which is not known */
	n->op.has_ack = true;
	n->op.ack_frame = e->frame;
	n->op.ack_ns = e->ts - n->op.start_ns;
	n->op.ack_with_data = e->with_data;
	return true;
}

static void unwait(struct iws_tracker *t, struct node *n)
{
	list_unlink(n);
	t->counts.ack_waiting--;
	if (t->shared_used) {
		(*t->shared_used)--;
		t->own_shared--;
	}
}

/* Is it worth waiting for an ACK of dir's octets? Only once the receiver
 * has been seen acknowledging some of them (with one direction captured,
 * or a receiver that never answers, no ACK will come), and while the
 * waiting operations of all trackers stay within bounds. */
static bool acks_data(const struct iws_tracker *t, uint8_t dir)
{
	return t->acks[dir].any;
}

/* The operation is over: report it now, or once the ACK of its last FPDU
 * is seen (complete operations whose last FPDU's octets are known). */
static void report(struct iws_tracker *t, struct node *n)
{
	list_unlink(n);
	if (n->all_prev)
		n->all_prev->all_next = n->all_next;
	else
		t->all_head = n->all_next;
	if (n->all_next)
		n->all_next->all_prev = n->all_prev;
	else
		t->all_tail = n->all_prev;
	t->counts.inflight--;

	n->op.complete = (n->op.flags & IWS_OPF_INCOMPLETE_MASK) == 0;
	if (!n->op.complete || !n->can_wait || ack_known(t, n)) {
		deliver(t, n);
		return;
	}
	if (!acks_data(t, n->ack_dir)) {
		deliver(t, n);
		return;
	}
	if (t->shared_used && *t->shared_used >= t->shared_max) {
		t->counts.ack_wait_forced++;
		deliver(t, n);
		return;
	}
	list_push(&t->waiting[n->ack_dir], n);
	t->counts.ack_waiting++;
	if (t->shared_used) {
		(*t->shared_used)++;
		t->own_shared++;
		if (t->shared_peak && *t->shared_used > *t->shared_peak)
			*t->shared_peak = *t->shared_used;
	}
	/* Bounded: no ACK in sight (one direction captured) must not hold
	 * everything. */
	struct list *w = &t->waiting[n->ack_dir];
	if (w->n > t->max_ack_wait) {
		struct node *o = w->head;
		unwait(t, o);
		t->counts.ack_wait_forced++;
		deliver(t, o);
	}
}

/* A new operation joins the list of all, oldest first. */
static void started(struct iws_tracker *t, struct node *n)
{
	n->all_prev = t->all_tail;
	if (t->all_tail)
		t->all_tail->all_next = n;
	else
		t->all_head = n;
	t->all_tail = n;
	t->counts.inflight++;
	t->counts.ops_started++;
	if (t->counts.inflight > t->counts.max_inflight_seen)
		t->counts.max_inflight_seen = t->counts.inflight;
}
static struct node *start(struct iws_tracker *t, const struct iws_seg *s, enum iws_op_type type,
			  enum op_kind kind, struct iws_seg_note *note)
{
	/* Bounded memory: past the limit the oldest operation is given up. */
	if (t->counts.inflight >= t->max_inflight && t->all_head) {
		t->all_head->op.flags |= IWS_OPF_EVICTED;
		t->counts.evicted++;
		note->flags |= IWS_SEGF_EVICTED;
		report(t, t->all_head);
	}
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	n->kind = kind;
	n->data_dir = (kind == K_READ || kind == K_ATOMIC) ? !s->dir : s->dir;
	n->gap_gen = t->gap_gen[n->data_dir];
	n->op.id = ++t->next_id;
	n->op.type = type;
	n->op.opcode = h->opcode;
	n->op.dir = s->dir;
	n->op.rtr = t->rtr_next;
	/* It starts with the first transmission of its first FPDU. */
	n->op.first_frame = s->first_frame ? s->first_frame : s->frame;
	n->op.start_ns = s->first_frame ? s->first_ts : s->ts_ns;
	n->op.first_inorder_frame = n->op.last_frame = s->frame;
	n->op.end_ns = s->ts_ns;
	started(t, n);
	note->op_first = true;
	return n;
}

/* A new multi-segment message joins the open ones of its direction; past
 * OPEN_MSG_MAX the oldest is given up (in-flight limit). */
static void push_open(struct iws_tracker *t, struct list *l, struct node *n,
		      struct iws_seg_note *note)
{
	if (l->n >= OPEN_MSG_MAX && l->head) {
		struct node *o = l->head;
		o->op.flags |= IWS_OPF_EVICTED;
		t->counts.evicted++;
		note->flags |= IWS_SEGF_EVICTED;
		report(t, o);
	}
	list_push(l, n);
}

/* Account one segment to an operation. */
static void add_segment(struct iws_tracker *t, struct node *n, const struct iws_seg *s,
			uint32_t payload, struct iws_seg_note *note)
{
	/* Sent after the receiver closed or reset the connection: its TCP
	 * octets perhaps, the operation cannot have been placed whole. */
	uint64_t sent = s->first_frame ? s->first_frame : s->frame;
	if (t->closed[!s->dir] && sent > t->closed_frame[!s->dir]) {
		n->op.flags |= IWS_OPF_AFTER_CLOSE;
		note->flags |= IWS_SEGF_AFTER_CLOSE;
	}
	n->op.segments++;
	n->op.bytes += payload;
	n->op.last_frame = s->frame;
	n->op.end_ns = s->ts_ns;
	/* Stall: from the later of its last octet's arrival and the previous
	 * FPDU's completion, to its own completion (docs/semantics.md). */
	int64_t from = s->arrived_frame ? s->arrived_ts : s->ts_ns;
	if (n->any_fpdu && n->prev_done_ts > from)
		from = n->prev_done_ts;
	if (s->ts_ns > from)
		n->op.stall_ns += s->ts_ns - from;
	n->prev_done_ts = s->ts_ns;
	n->any_fpdu = true;
	uint32_t retrans = s->retrans;
	if (s->has_seq) {
		uint8_t d = s->dir;
		uint32_t e = s->seq + s->len;
		/* Each segment counts once per operation (docs/semantics.md): one
		 * that carried the end of its previous FPDU and the start of this
		 * one was counted already. */
		if (retrans && s->retrans_first_frame && n->rng[d] && s->seq == n->hi[d] &&
		    s->retrans_first_frame == n->retrans_last[d])
			retrans--;
		n->retrans_last[d] = s->retrans_last_frame;
		if (!n->rng[d] || sdiff(s->seq, n->lo[d]) < 0)
			n->lo[d] = s->seq;
		if (!n->rng[d] || sdiff(e, n->hi[d]) > 0)
			n->hi[d] = e;
		n->rng[d] = true;
		n->ack_dir = d;
		n->ack_seq = e;
		n->can_wait = true;
	} else {
		n->can_wait = false;
	}
	n->op.retransmissions += retrans;
	if (s->crc == IWS_CRC_BAD)
		n->op.crc_errors++;
	if (s->truncated)
		n->op.flags |= IWS_OPF_TRUNCATED;
	if (s->unfinished)
		n->op.flags |= IWS_OPF_UNFINISHED;
	note->op_id = n->op.id;
	note->op_type = n->op.type;
}

/* MSN bookkeeping for a message's first segment (RFC 5041 §5.3: MSNs of a
 * queue increase by one per message). */
static void check_msn(struct iws_tracker *t, uint8_t dir, uint32_t qn, uint32_t msn,
		      struct node *n, struct iws_seg_note *note)
{
	if (qn >= N_QUEUES)
		return;
	if (t->have_msn[dir][qn] && msn != t->last_msn[dir][qn] + 1) {
		note->flags |= IWS_SEGF_MSN_GAP;
		t->counts.msn_gaps++;
		if (n)
			n->op.flags |= IWS_OPF_MSN_GAP;
	}
	t->have_msn[dir][qn] = true;
	t->last_msn[dir][qn] = msn;
}

static enum iws_op_type untagged_type(uint8_t opcode)
{
	switch (opcode) {
	case IWS_OP_CODE_SEND_INV:
		return IWS_OPT_SEND_INV;
	case IWS_OP_CODE_SEND_SE:
		return IWS_OPT_SEND_SE;
	case IWS_OP_CODE_SEND_SE_INV:
		return IWS_OPT_SEND_SE_INV;
	case IWS_OP_CODE_IMMEDIATE:
		return IWS_OPT_IMMEDIATE;
	case IWS_OP_CODE_IMMEDIATE_SE:
		return IWS_OPT_IMMEDIATE_SE;
	default:
		return IWS_OPT_SEND;
	}
}

static enum iws_op_type atomic_type(uint8_t aop)
{
	switch (aop) {
	case IWS_AOP_CMP_SWAP:
		return IWS_OPT_ATOMIC_CMP_SWAP;
	case IWS_AOP_SWAP:
		return IWS_OPT_ATOMIC_SWAP;
	default:
		return IWS_OPT_ATOMIC_FETCH_ADD;
	}
}

/* Is this the RTR message of a peer-to-peer set-up (RFC 6581 §7), or the
 * zero-length Read Response to a Read RTR? */
static bool is_rtr(struct iws_tracker *t, const struct iws_seg *s)
{
	const struct iws_msg *m = s->msg;
	const struct iws_ddp_hdr *h = &m->ddp;
	if (t->rtr_read_resp_pending && s->dir == IWS_DIR_R2I) {
		t->rtr_read_resp_pending = false;
		if (h->opcode == IWS_OP_CODE_READ_RESP && m->payload_len == 0 && h->last)
			return true;
	}
	if (!t->rtr_pending || s->dir != IWS_DIR_I2R)
		return false;
	t->rtr_pending = false;
	if ((t->mpa.rtr & IWS_RTR_WRITE) && h->opcode == IWS_OP_CODE_WRITE && m->payload_len == 0)
		return true;
	if ((t->mpa.rtr & IWS_RTR_SEND) && h->opcode == IWS_OP_CODE_SEND && m->payload_len == 0)
		return true;
	if ((t->mpa.rtr & IWS_RTR_READ) && h->opcode == IWS_OP_CODE_READ_REQ && m->u.read_req.size == 0) {
		t->rtr_read_resp_pending = true;
		return true;
	}
	return false;
}

/* ---- per opcode ---- */

static void seg_write(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t pl = s->msg->payload_len;
	struct node *n;
	for (n = t->tagged[s->dir].head; n; n = n->next) {
		if (n->kind != K_WRITE || n->op.stag != h->stag)
			continue;
		if (n->expect_to == h->to)
			break;
		if (gap_seen(t, n) && h->to > n->expect_to) {
			n->op.flags |= IWS_OPF_GAP;
			break;
		}
	}
	if (!n) {
		/* A new message while another Write of this STag is open: the old
		 * one lost its end (tagged messages of one stream do not interleave
		 * in practice). */
		for (struct node *o = t->tagged[s->dir].head, *nx; o; o = nx) {
			nx = o->next;
			if (o->kind == K_WRITE && o->op.stag == h->stag) {
				o->op.flags |= IWS_OPF_OFFSET_GAP | IWS_OPF_GAP;
				t->counts.offset_gaps++;
				report(t, o);
			}
		}
		n = start(t, s, IWS_OPT_WRITE, K_WRITE, note);
		if (!n)
			return;
		n->op.has_stag = true;
		n->op.stag = h->stag;
		n->op.to = h->to;
		/* Nothing in a tagged segment says it is a message's first, so the
		 * first Write after a gap (or the capture start) may be partial. */
		if (t->tagged_unsure[s->dir])
			n->op.flags |= IWS_OPF_STARTED_BEFORE;
		push_open(t, &t->tagged[s->dir], n, note);
	}
	add_segment(t, n, s, pl, note);
	n->expect_to = h->to + pl;
	if (h->last) {
		note->op_last = true;
		report(t, n);
	}
}

/* A responder answers Reads and Atomics in the order of their requests
 * (RFC 5040 §5.2.1, RFC 7306 §8): a request that arrived while it was still
 * sending earlier responses waited for them. queued_ns: from the request's
 * arrival (deliverable in order) to the end of the earlier responses, or to
 * its own first response if that came sooner. */
static void queued(struct iws_tracker *t, struct node *n, const struct iws_seg *s)
{
	int64_t begin = s->first_frame ? s->first_ts : s->ts_ns;
	int64_t busy = t->resp_sent_ts[s->dir];
	if (!t->any_resp[s->dir] || busy <= n->req_done_ts || n->op.flags & IWS_OPF_STARTED_BEFORE)
		return;
	n->op.queued_ns = (busy < begin ? busy : begin) - n->req_done_ts;
	if (n->op.queued_ns < 0)
		n->op.queued_ns = 0;
}

/* The responder in dir sent the last FPDU of a response. */
static void responded(struct iws_tracker *t, const struct iws_seg *s)
{
	t->any_resp[s->dir] = true;
	t->resp_sent_ts[s->dir] = s->first_frame ? s->first_ts : s->ts_ns;
}

/* The oldest hidden span of the requests sent in dir, or NULL. */
static struct hidden_span *hidden_head(struct iws_tracker *t, uint8_t dir)
{
	return t->nhidden[dir] ? &t->hidden[dir][0] : NULL;
}

static void hidden_pop(struct iws_tracker *t, uint8_t dir)
{
	memmove(&t->hidden[dir][0], &t->hidden[dir][1], (t->nhidden[dir] - 1) * sizeof(t->hidden[0][0]));
	t->nhidden[dir]--;
}

/* A Read Response that answers no captured request while FPDUs a snapshot
 * length hid came before the oldest Read outstanding: it answers a Read
 * Request among them (responses come in request order, RFC 5040 §5.2.1).
 * The Read starts in the frame that carried the hidden span; its request's
 * fields (MSN, sizes, source STag) are not known. */
static struct node *hidden_read(struct iws_tracker *t, const struct hidden_span *sp,
				const struct iws_seg *s, struct node *before)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	n->kind = K_READ;
	n->from_hidden = true;
	n->data_dir = s->dir;
	n->gap_gen = t->gap_gen[s->dir];
	n->op.id = ++t->next_id;
	n->op.type = IWS_OPT_READ;
	n->op.opcode = IWS_OP_CODE_READ_REQ;
	n->op.dir = !s->dir;
	n->op.first_frame = n->op.first_inorder_frame = n->op.last_frame = sp->frame;
	n->op.start_ns = n->op.end_ns = sp->ts;
	n->req_done_ts = sp->ts;
	n->op.segments = 1;  /* its request */
	n->op.flags |= IWS_OPF_TRUNCATED;
	n->op.has_stag = true;
	n->op.stag = h->stag;
	n->op.to = h->to;
	n->expect_to = h->to;
	started(t, n);
	t->counts.hidden_requests++;
	/* in request order: before the oldest captured Read outstanding */
	struct list *l = &t->requests[!s->dir];
	n->in = l;
	n->next = before;
	n->prev = before ? before->prev : l->tail;
	if (n->prev)
		n->prev->next = n;
	else
		l->head = n;
	if (before)
		before->prev = n;
	else
		l->tail = n;
	l->n++;
	return n;
}

static struct node *find_read(struct list *l, uint32_t stag, uint64_t to)
{
	uint32_t k = 0;
	for (struct node *n = l->head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_READ && n->op.stag == stag && n->expect_to == to)
			return n;
	return NULL;
}

static void seg_read_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t pl = s->msg->payload_len;
	struct list *req = &t->requests[!s->dir];
	struct node *head = NULL;
	uint32_t k = 0;
	for (struct node *n = req->head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_READ) {
			head = n;
			break;
		}

	/* A response complete before the oldest Read outstanding was sent
	 * answers none of them (an FPDU the end of the capture cut, reported
	 * late, may come after later requests): an orphan. */
	bool too_early = head && s->frame < head->op.first_frame;
	if (too_early)
		head = NULL;
	struct node *n = NULL;
	struct hidden_span *sp = hidden_head(t, !s->dir);
	bool head_matches = head && !head->sink_unknown && head->op.stag == h->stag &&
			    head->expect_to == h->to;
	/* A captured Read answered after a hidden span: the span held no Read
	 * (or no more) still to answer. */
	while (sp && head_matches && !head->from_hidden && head->op.id > sp->after_id) {
		hidden_pop(t, !s->dir);
		sp = hidden_head(t, !s->dir);
	}
	if (!sp)
		t->hidden_spoiled[!s->dir] = false;
	if (t->hidden_spoiled[!s->dir])
		sp = NULL;
	if (sp && sp->frame <= s->frame && !head_matches &&
	    (!head || (!head->from_hidden && head->op.id > sp->after_id)) &&
	    !find_read(req, h->stag, h->to)) {
		n = hidden_read(t, sp, s, head);
	} else if (head && head->sink_unknown) {
		/* Its Sink STag and TO were cut by the snapshot length: the
		 * responses come in request order (RFC 5040 §5.2.1), so this
		 * one is its first. */
		n = head;
		n->sink_unknown = false;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->expect_to = h->to;
	} else if (head && head->op.stag == h->stag && head->expect_to == h->to) {
		n = head;
	} else if (head && gap_seen(t, head) && head->op.stag == h->stag && h->to > head->expect_to) {
		n = head;
		n->op.flags |= IWS_OPF_GAP;
	} else if (!too_early && (n = find_read(req, h->stag, h->to)) != NULL) {
		/* Responses come in request order (RFC 5040 §5.2.1): the reads
		 * before this one never got (all of) theirs in the capture. */
		bool any_gap = false;
		for (struct node *o = req->head, *nx; o && o != n; o = nx) {
			nx = o->next;
			if (o->kind != K_READ)
				continue;
			any_gap |= gap_seen(t, o);
			o->op.flags |= IWS_OPF_GAP;
			report(t, o);
		}
		if (!any_gap) {
			note->flags |= IWS_SEGF_STAG_MISMATCH;
			t->counts.stag_mismatches++;
		}
	}

	if (n) {
		if (!n->resp_started) {
			n->resp_started = true;
			n->op.response_frame = s->frame;
			queued(t, n, s);
		}
		note->request_frame = n->op.first_frame;
		add_segment(t, n, s, pl, note);
		n->expect_to = h->to + pl;
		if (n->op.has_read_size && n->op.bytes > n->op.read_size)
			note->flags |= IWS_SEGF_OVERRUN;
		if (h->last) {
			note->op_last = true;
			note->has_response_time = true;
			note->response_time_ns = s->ts_ns - n->op.start_ns;
			n->op.has_latency = true;
			n->op.latency_ns = note->response_time_ns;
			responded(t, s);
			report(t, n);
		}
		return;
	}

	/* A zero-length Read Response without its request: the response to a
	 * Read RTR whose request was not captured (RFC 6581 §7), not an
	 * operation. */
	if (pl == 0 && h->last) {
		note->rtr = true;
		return;
	}
	/* No request for it in the capture: group the orphan responses like a
	 * Write, by STag and TO, up to the last one. */
	note->flags |= IWS_SEGF_ORPHAN_RESPONSE;
	for (n = t->tagged[s->dir].head; n; n = n->next)
		if (n->kind == K_ORPHAN_READ && n->op.stag == h->stag &&
		    (n->expect_to == h->to || (gap_seen(t, n) && h->to > n->expect_to)))
			break;
	if (!n) {
		n = start(t, s, IWS_OPT_READ, K_ORPHAN_READ, note);
		if (!n)
			return;
		t->counts.orphan_responses++;
		/* The Read's initiator is the requester: the responses' peer. */
		n->op.dir = !s->dir;
		n->op.flags |= IWS_OPF_STARTED_BEFORE;
		n->op.has_stag = true;
		n->op.stag = h->stag;
		n->op.to = h->to;
		n->op.segments = 0;
		n->op.response_frame = s->frame;
		push_open(t, &t->tagged[s->dir], n, note);
	}
	add_segment(t, n, s, pl, note);
	n->expect_to = h->to + pl;
	if (h->last) {
		note->op_last = true;
		report(t, n);
	}
}

static void count_outstanding(struct iws_tracker *t, struct node *n, uint8_t dir, struct iws_seg_note *note)
{
	uint32_t out = t->requests[dir].n;
	note->outstanding = out;
	/* RFC 6581 §5: the peer's IRD bounds the Read (and Atomic) Requests
	 * outstanding towards it. */
	uint16_t ird = t->have_mpa && t->mpa.has_ird_ord ? t->mpa.ird[!dir] : 0;
	if (ird && out > ird) {
		note->flags |= IWS_SEGF_IRD_EXCEEDED;
		n->op.flags |= IWS_OPF_IRD_EXCEEDED;
		t->counts.ird_exceeded++;
	}
}

static void seg_read_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	struct node *n = start(t, s, IWS_OPT_READ, K_READ, note);
	check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	const struct iws_rdmap_read_req *rr = &m->u.read_req;
	n->op.has_stag = true;
	n->op.stag = rr->sink_stag;
	n->op.to = rr->sink_to;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	/* RFC 5040 §4.4, Read Request header after the 18-octet DDP header:
	 * Sink STag 18..22, Sink TO 22..30, size 30..34, Source STag and TO
	 * 34..46. With a snapshot length some may not have been captured. */
	n->sink_unknown = !iws_msg_has(m, 30);
	n->op.has_read_size = iws_msg_has(m, 34);
	n->op.read_size = n->op.has_read_size ? rr->size : 0;
	n->op.has_src = iws_msg_has(m, 46);
	n->op.src_stag = n->op.has_src ? rr->src_stag : 0;
	n->op.src_to = n->op.has_src ? rr->src_to : 0;
	n->expect_to = rr->sink_to;
	n->req_done_ts = s->ts_ns;
	add_segment(t, n, s, 0, note);
	list_push(&t->requests[s->dir], n);
	count_outstanding(t, n, s->dir, note);
}

static void seg_atomic_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	const struct iws_rdmap_atomic_req *a = &m->u.atomic_req;
	struct node *n = start(t, s, atomic_type(a->aopcode), K_ATOMIC, note);
	check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	n->op.has_stag = true;
	n->op.stag = a->stag;
	n->op.to = a->to;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	n->op.atomic_req_id = a->req_id;
	/* RFC 7306 §4.1: the Request Identifier at 22..26 */
	n->id_unknown = !iws_msg_has(m, 26);
	n->req_done_ts = s->ts_ns;
	add_segment(t, n, s, 8, note);
	list_push(&t->requests[s->dir], n);
	count_outstanding(t, n, s->dir, note);
}

static void seg_atomic_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, NULL, note);
	struct node *n;
	uint32_t k = 0;
	/* RFC 7306 §4.2: the response's Request Identifier at 18..22. Either
	 * side's identifier cut by the snapshot length: responses come in
	 * request order (RFC 7306 §8), so it answers the oldest Atomic. */
	bool by_order = !iws_msg_has(m, 22);
	for (n = t->requests[!s->dir].head; n && k < SEARCH_MAX; n = n->next, k++)
		if (n->kind == K_ATOMIC && (by_order || n->id_unknown ||
					    n->op.atomic_req_id == m->u.atomic_resp.req_id))
			break;
	if (k == SEARCH_MAX)
		n = NULL;
	if (n && s->frame < n->op.first_frame)
		n = NULL;  /* complete before it was sent (as for Read Responses) */
	if (n && n->id_unknown && !by_order) {
		n->op.atomic_req_id = m->u.atomic_resp.req_id;
		n->id_unknown = false;
	}
	if (!n) {
		note->flags |= IWS_SEGF_ORPHAN_RESPONSE;
		t->counts.orphan_responses++;
		n = start(t, s, IWS_OPT_ATOMIC_FETCH_ADD, K_ATOMIC, note);
		if (!n)
			return;
		n->op.flags |= IWS_OPF_STARTED_BEFORE;
		n->op.dir = !s->dir;
		n->op.opcode = IWS_OP_CODE_ATOMIC_REQ;
		n->op.atomic_req_id = m->u.atomic_resp.req_id;
		n->op.bytes = 8;
	} else {
		note->request_frame = n->op.first_frame;
		note->has_response_time = true;
		note->response_time_ns = s->ts_ns - n->op.start_ns;
		n->op.has_latency = true;
		n->op.latency_ns = note->response_time_ns;
		queued(t, n, s);
	}
	responded(t, s);
	n->op.response_frame = s->frame;
	/* the Original Remote Data Value at 22..30 (RFC 7306 §4.2) */
	n->op.has_atomic_orig = iws_msg_has(m, 30);
	n->op.atomic_orig_value = n->op.has_atomic_orig ? m->u.atomic_resp.orig_value : 0;
	add_segment(t, n, s, 0, note);
	note->op_last = true;
	report(t, n);
}

static void seg_untagged(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	const struct iws_ddp_hdr *h = &m->ddp;
	bool immediate = h->opcode == IWS_OP_CODE_IMMEDIATE || h->opcode == IWS_OP_CODE_IMMEDIATE_SE;
	uint32_t pl = immediate ? 8 : m->payload_len;
	struct node *n;
	for (n = t->untagged[s->dir].head; n; n = n->next)
		if (n->op.msn == h->msn)
			break;
	if (n) {
		if (h->mo != n->expect_mo) {
			n->op.flags |= gap_seen(t, n) ? IWS_OPF_GAP : IWS_OPF_OFFSET_GAP;
			note->flags |= IWS_SEGF_OFFSET_GAP;
			t->counts.offset_gaps++;
		}
	} else {
		n = start(t, s, untagged_type(h->opcode), K_UNTAGGED, note);
		if (h->mo == 0)
			check_msn(t, s->dir, h->qn, h->msn, n, note);
		if (!n)
			return;
		n->op.has_qn = true;
		n->op.qn = h->qn;
		n->op.msn = h->msn;
		if (iws_rdmap_is_send_inv(h->opcode)) {
			n->op.has_inval = true;
			n->op.inval_stag = h->rsvdulp;
		}
		if (immediate && iws_msg_has(m, 26)) {  /* RFC 7306 §5: 18..26 */
			n->op.has_immediate = true;
			n->op.immediate = m->u.immediate;
		}
		/* MO tells exactly whether we saw the message's start (RFC 5041 §5.3). */
		if (h->mo != 0)
			n->op.flags |= IWS_OPF_STARTED_BEFORE;
		push_open(t, &t->untagged[s->dir], n, note);
	}
	add_segment(t, n, s, pl, note);
	n->expect_mo = h->mo + pl;
	if (h->last) {
		note->op_last = true;
		report(t, n);
	}
}

static void seg_terminate(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	const struct iws_msg *m = s->msg;
	struct node *n = start(t, s, IWS_OPT_TERMINATE, K_UNTAGGED, note);
	check_msn(t, s->dir, m->ddp.qn, m->ddp.msn, n, note);
	if (!n)
		return;
	n->op.has_qn = true;
	n->op.qn = m->ddp.qn;
	n->op.msn = m->ddp.msn;
	n->op.term_layer = m->u.term.layer;
	n->op.term_etype = m->u.term.etype;
	n->op.term_errcode = m->u.term.errcode;
	add_segment(t, n, s, 0, note);
	note->op_last = true;
	report(t, n);
}

/* ---- public ---- */

static void dispatch(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);

struct iws_tracker *iws_tracker_new(const struct iws_tracker_limits *lim, iws_op_cb cb, void *ctx)
{
	struct iws_tracker *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cb = cb;
	t->ctx = ctx;
	t->max_inflight = lim && lim->max_inflight ? lim->max_inflight : DEFAULT_MAX_INFLIGHT;
	t->max_ack_wait = lim && lim->max_ack_wait ? lim->max_ack_wait : DEFAULT_ACK_WAIT;
	if (lim && lim->shared_ack_wait_used) {
		t->shared_used = lim->shared_ack_wait_used;
		t->shared_peak = lim->shared_ack_wait_peak;
		t->shared_max = lim->shared_max_ack_wait ? lim->shared_max_ack_wait : UINT64_MAX;
	}
	return t;
}

void iws_tracker_free(struct iws_tracker *t)
{
	if (!t)
		return;
	for (struct node *n = t->all_head, *nx; n; n = nx) {
		nx = n->all_next;
		free(n);
	}
	for (int d = 0; d < 2; d++)
		while (t->waiting[d].head) {
			struct node *n = t->waiting[d].head;
			list_unlink(n);
			free(n);
		}
	if (t->shared_used)
		*t->shared_used -= t->own_shared;
	free(t);
}

void iws_tracker_set_mpa(struct iws_tracker *t, const struct iws_mpa_conn *c)
{
	t->mpa = *c;
	t->have_mpa = true;
	t->rtr_pending = c->p2p && c->rtr != 0;
}

void iws_tracker_segment(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	struct iws_seg_note scratch;
	if (!note)
		note = &scratch;
	memset(note, 0, sizeof(*note));
	t->counts.segments++;
	if (s->crc == IWS_CRC_BAD)
		t->counts.crc_errors++;
	if (s->dir > 1 || !s->msg)
		return;
	/* The RTR message of a peer-to-peer set-up is an operation of its own,
	 * flagged (docs/semantics.md). */
	t->rtr_next = is_rtr(t, s);
	if (t->rtr_next)
		t->counts.rtr_messages++;
	dispatch(t, s, note);
	note->rtr |= t->rtr_next;
	t->rtr_next = false;
	/* Only the first segment after a gap can be the unseen middle of a
	 * Write; everything after it starts after the resynchronisation. */
	t->tagged_unsure[s->dir] = false;
}

static void dispatch(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note)
{
	switch (s->msg->ddp.opcode) {
	case IWS_OP_CODE_WRITE:
		seg_write(t, s, note);
		break;
	case IWS_OP_CODE_READ_REQ:
		seg_read_req(t, s, note);
		break;
	case IWS_OP_CODE_READ_RESP:
		seg_read_resp(t, s, note);
		break;
	case IWS_OP_CODE_SEND:
	case IWS_OP_CODE_SEND_INV:
	case IWS_OP_CODE_SEND_SE:
	case IWS_OP_CODE_SEND_SE_INV:
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		seg_untagged(t, s, note);
		break;
	case IWS_OP_CODE_TERMINATE:
		seg_terminate(t, s, note);
		break;
	case IWS_OP_CODE_ATOMIC_REQ:
		seg_atomic_req(t, s, note);
		break;
	case IWS_OP_CODE_ATOMIC_RESP:
		seg_atomic_resp(t, s, note);
		break;
	default:
		break;
	}
}

void iws_tracker_gap(struct iws_tracker *t, uint8_t dir)
{
	if (dir > 1)
		return;
	/* Every operation whose data (or responses) flow in dir and that is in
	 * flight now may lose part of it: see gap_seen. */
	t->gap_gen[dir]++;
	for (int q = 0; q < N_QUEUES; q++)
		t->have_msn[dir][q] = false;
	t->tagged_unsure[dir] = true;
	/* Whatever the RTR was, it is behind us or lost. */
	if (dir == IWS_DIR_I2R)
		t->rtr_pending = false;
}

void iws_tracker_finish(struct iws_tracker *t, uint32_t flag)
{
	while (t->all_head) {
		struct node *n = t->all_head;
		n->op.flags |= flag;
		if (gap_seen(t, n) && n->kind != K_READ)
			n->op.flags |= IWS_OPF_GAP;
		report(t, n);
	}
	/* Complete operations whose ACK never came (or was not captured). */
	for (int d = 0; d < 2; d++)
		while (t->waiting[d].head) {
			struct node *n = t->waiting[d].head;
			unwait(t, n);
			deliver(t, n);
		}
}

void iws_tracker_acks_forgotten(struct iws_tracker *t, uint8_t dir, uint32_t ack)
{
	if (dir > 1)
		return;
	struct ack_ring *a = &t->acks[dir];
	if (!a->evicted || sdiff(ack, a->evicted_hi) > 0) {
		a->evicted = true;
		a->evicted_hi = ack;
	}
}

void iws_tracker_ack(struct iws_tracker *t, uint8_t dir, uint32_t ack, uint64_t frame, int64_t ts,
		     bool with_data)
{
	if (dir > 1)
		return;
	struct ack_ring *a = &t->acks[dir];
	if (a->any && sdiff(ack, a->hi) <= 0)
		return;  /* nothing new acknowledged */
	a->any = true;
	a->hi = ack;
	if (a->n == ACK_RING) {
		a->evicted = true;
		a->evicted_hi = a->r[a->head].ack;
		a->head = (a->head + 1) % ACK_RING;
		a->n--;
	}
	a->r[(a->head + a->n++) % ACK_RING] = (struct ack_rec){ ack, frame, ts, with_data };
	/* Operations complete in the order of their octets: the ones waiting
	 * first are covered first. */
	struct list *w = &t->waiting[dir];
	while (w->head && sdiff(ack, w->head->ack_seq) >= 0) {
		struct node *n = w->head;
		unwait(t, n);
		n->op.has_ack = true;
		n->op.ack_frame = frame;
		n->op.ack_ns = ts - n->op.start_ns;
		n->op.ack_with_data = with_data;
		deliver(t, n);
	}
}

/* Do octets [seq, e) of dir belong to the operation's FPDUs? */
static bool owns(const struct node *n, uint8_t dir, uint32_t seq, uint32_t e)
{
	return n->rng[dir] && sdiff(seq, n->hi[dir]) < 0 && sdiff(e, n->lo[dir]) > 0;
}

void iws_tracker_resent(struct iws_tracker *t, uint8_t dir, uint32_t seq, uint32_t len)
{
	if (dir > 1 || !len)
		return;
	uint32_t e = seq + len;
	/* The newest operations first: a retransmission is of recent octets. */
	uint32_t k = 0;
	for (struct node *n = t->all_tail; n && k < RESENT_SCAN; n = n->all_prev, k++)
		if (owns(n, dir, seq, e))
			n->op.retransmissions++;
	for (int d = 0; d < 2; d++) {
		k = 0;
		for (struct node *n = t->waiting[d].tail; n && k < RESENT_SCAN; n = n->prev, k++)
			if (owns(n, dir, seq, e))
				n->op.retransmissions++;
	}
}

void iws_tracker_hidden(struct iws_tracker *t, uint8_t dir, uint64_t frame, int64_t ts)
{
	if (dir > 1)
		return;
	if (!frame) {
		/* More octets were hidden, in frames not known: which hidden span
		 * a response answers cannot be told any more. */
		if (t->nhidden[dir])
			t->hidden_spoiled[dir] = true;
		return;
	}
	if (t->nhidden[dir] == HIDDEN_MAX)
		hidden_pop(t, dir);
	t->hidden[dir][t->nhidden[dir]++] = (struct hidden_span){ frame, ts, t->next_id };
}

void iws_tracker_closed(struct iws_tracker *t, uint8_t dir, uint64_t frame)
{
	if (dir > 1 || t->closed[dir])
		return;
	t->closed[dir] = true;
	t->closed_frame[dir] = frame;
}

uint32_t iws_tracker_inflight_ids(const struct iws_tracker *t, uint64_t *ids, uint32_t max)
{
	uint32_t n = 0;
	for (const struct node *x = t->all_head; x; x = x->all_next, n++)
		if (n < max)
			ids[n] = x->op.id;
	return n;
}

const struct iws_tracker_counts *iws_tracker_counts(const struct iws_tracker *t)
{
	return &t->counts;
}
