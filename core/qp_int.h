// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qp_int.h - the operation tracker's insides (core-private), shared by its
 * files, which call each other one way, top down:
 *
 *   qp.c         the public API of qp.h: each segment dispatched (Writes,
 *                the Send family, Terminate here), ACKs, gaps, the end;
 *   qp_match.c   Read and Atomic Requests and the responses that answer
 *                them (RFC 5040 §5.2.1, RFC 7306), hidden requests;
 *   qp_ops.c     an operation in flight: started, its segments, its MSNs;
 *   qp_report.c  finished operations reported (the covering ACK, the
 *                waits for it), and responses held until the capture
 *                proves their requests (a capture that started mid-stream:
 *                the count at a clean close).
 */
#ifndef IWS_CORE_QP_INT_H
#define IWS_CORE_QP_INT_H

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
/* Complete operations that wait for an ACK of a direction none of whose
 * ACKs was seen yet (the receiver's first segment may follow: a capture cut
 * mid-stream), before taking that direction for one not captured. */
#define UNSEEN_ACK_WAIT 64u
/* Acknowledgements kept per direction, to find the first that covered an
 * operation completed after it was read (FPDUs held for order, or framed
 * only once a direction's framing was found): those that may still cover
 * an FPDU to come (iws_tracker_acks_settled lets the others go), at most
 * this many. */
#define ACK_HIST_MAX 1024u
/* STag/TO of responses whose request was not found, remembered per
 * requester direction (qp_match.c). */
#define SEEN_MAX 16u
/* Operations searched for the owners of retransmitted octets. */
#define RESENT_SCAN 512u
/* Responses held per requester direction until the capture proves which
 * requests they answer (qp_report.c); past it they are given up unpaired,
 * as if never held. */
#define HELD_MAX 4096u

enum op_kind {
	K_WRITE, K_READ, K_UNTAGGED, K_ATOMIC, K_ORPHAN_READ,
	K_SLOTS,    /* not an operation: requests known only by number (qp_match.c) */
};

struct list {
	struct node *head, *tail;
	uint32_t n;
};

struct node {
	/* Fields in order of size, as struct iws_op's: one per operation in
	 * flight, so padding is memory. */
	struct iws_op op;
	struct node *all_prev, *all_next;   /* every in-flight op, in start order */
	struct node *prev, *next;           /* its matching list */
	struct list *in;
	uint64_t expect_to;                 /* tagged: next TO */
	/* loss attribution (docs/semantics.md) */
	int64_t prev_done_ts;               /* in-order completion of its previous FPDU */
	uint64_t reord_last[2];             /* ... the reordered segment (as retrans_last) */
	uint64_t retrans_last[2];           /* the retransmission that carried the last octet
					     * of its latest FPDU per direction, 0 */
	int64_t req_done_ts;                /* read, atomic: the request deliverable in order */
	int64_t held_busy_ts;               /* see held_any_resp */

	enum op_kind kind;
	uint32_t expect_mo;                 /* untagged: next MO */
	uint32_t gap_gen;                   /* gaps of data_dir before it started */
	uint32_t lo[2], hi[2];              /* TCP octets [lo, hi) of its FPDUs, per direction (rng) */
	uint32_t cnt_lo, cnt_hi;            /* K_SLOTS: how many requests (UINT32_MAX: unknown) */
	uint32_t ack_seq;                   /* see ack_dir */
	uint32_t resp_index;                /* held: responses to its requester since the capture
					     * began, it included */
	uint32_t held_req_ack;              /* see held_req_acked */

	uint8_t data_dir;                   /* the direction its data (or response) takes */
	bool resp_started;
	bool any_fpdu;
	bool rng[2];                        /* lo/hi are set, per direction */
	bool can_wait;                      /* its last FPDU's end is known: wait for the ACK */
	bool sink_unknown;                  /* read: its Sink STag/TO were not captured ... */
	bool from_hidden;                   /* read: its request was in a hidden span */
	bool id_unknown;                    /* atomic: its Request Identifier was not */
	bool counted;                       /* read, atomic: counted as outstanding */
	uint8_t ack_dir;
	/* a response held for pairing (qp_report.c) */
	bool held;                          /* in hold[].held */
	bool held_done;                     /* its last segment came */
	bool held_any_resp;                 /* for queued_ns: the responder's earlier responses */
	bool held_req_acked;                /* the responder had acknowledged the requester's
					     * octets up to held_req_ack when it sent it */
	bool held_id_known;                 /* atomic: its Original Request Identifier was captured */
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
	uint32_t head, n, cap;              /* r: cap entries (a power of two), n used */
	bool evicted;                       /* older acknowledgements were let go: */
	uint32_t evicted_hi;                /* the newest of them */
	struct ack_rec *r;
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
	bool rtr_legacy_pending;     /* ... may be a revision 1 stack's zero-length Read RTR */
	bool rtr_read_resp_pending;  /* a zero-length Read RTR awaits its response */
	struct node *all_head, *all_tail;
	struct list tagged[2];       /* open Writes / orphan Read Responses by data direction */
	struct list untagged[2];     /* open Sends by direction */
	struct list requests[2];     /* Read/Atomic Requests not yet answered, by the direction
				      * they were sent in, and requests known only by number */
	bool have_msn[2][N_QUEUES];
	uint32_t last_msn[2][N_QUEUES];
	bool tagged_unsure[2];       /* the next new tagged message may have begun in a gap */
	uint32_t gap_gen[2];         /* capture gaps per direction so far */
	bool rtr_next;               /* the segment being dispatched is an RTR message */
	uint32_t max_ack_wait;
	bool ack_unseen_wait;        /* iws_tracker_limits.ack_unseen_wait */
	bool ack_unseen_given_up[2]; /* UNSEEN_ACK_WAIT passed, no ACK of the direction */
	uint64_t *shared_used, *shared_peak, shared_max;
	uint64_t own_shared;         /* this tracker's part of *shared_used */
	/* The positions of the Read and Atomic Requests each direction sent
	 * (requests[dir]) and the responses that answer them (qp_match.c). */
	struct order {
		uint32_t skip_lo, skip_hi;  /* positions of requests[dir] already answered */
		bool have_msn;
		uint32_t last_msn;          /* the newest captured request's MSN */
		uint32_t tail_taken;        /* requests not seen, answered since it */
		uint32_t early;             /* responses before anything of dir was seen */
		uint32_t outstanding;       /* captured requests not answered in full */
		struct node *open;          /* the response message being received */
		bool hidden_just;           /* a hidden span was the last thing told */
		uint32_t nseen;
		uint32_t seen_stag[SEEN_MAX];
		uint64_t seen_to[SEEN_MAX];
	} ord[2];
	bool any_resp[2];
	int64_t resp_sent_ts[2];     /* dir's last read/atomic response: its last FPDU sent */
	struct list waiting[2];      /* complete operations waiting for the ACK of dir's octets */
	struct ack_ring acks[2];
	bool closed[2];              /* the sender of dir sent a FIN or an RST ... */
	uint64_t closed_frame[2];    /* ... in this frame */
	uint64_t hidden_frame[2];    /* the newest frame whose FPDUs of dir a snapshot length hid */
	bool reset_seen;             /* an RST, either way */
	bool term_seen;              /* a Terminate, either way */
	/* Responses to the requests of each direction held until the capture
	 * proves which requests they answer, and the count that proves it
	 * (qp_report.c). */
	struct hold {
		bool broken;            /* evidence lost: no more holding */
		struct list held;       /* the held responses, in order */
		struct node *ack_next;  /* the first whose covering ACK is still to come */
		uint32_t responses;     /* response messages since the capture began */
		bool first_msn_known, have_last_msn;
		uint32_t first_msn, last_msn; /* of the captured requests */
		bool tail_unsure;       /* requests after the last captured one may be hidden or lost */
		uint64_t last_orphan;   /* first frame of the newest response not proven */
		uint32_t anchors;       /* responses matched to a request of known MSN, and */
		uint32_t anchor_lo, anchor_hi; /* ... MSN - their index: the responses before */
	} hold[2];
};

static inline int32_t sdiff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

/* A capture gap may hide part of n: one happened in the direction of its
 * data since it started. (A counter, not a mark on every operation in
 * flight: a capture can have as many gaps as packets.) */
static inline bool gap_seen(const struct iws_tracker *t, const struct node *n)
{
	return t->gap_gen[n->data_dir] != n->gap_gen;
}

/* ---- lists ---- */

static inline void list_push(struct list *l, struct node *n)
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

static inline void list_unlink(struct node *n)
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
/* qp_ops.c: an operation in flight (calls qp_report.c) */
void trk_started(struct iws_tracker *t, struct node *n);
struct node *trk_start(struct iws_tracker *t, const struct iws_seg *s, enum iws_op_type type,
		       enum op_kind kind, struct iws_seg_note *note);
void trk_push_open(struct iws_tracker *t, struct list *l, struct node *n, struct iws_seg_note *note);
void trk_add_segment(struct iws_tracker *t, struct node *n, const struct iws_seg *s, uint32_t payload,
		     struct iws_seg_note *note);
void trk_check_msn(struct iws_tracker *t, uint8_t dir, uint32_t qn, uint32_t msn, struct node *n,
		   struct iws_seg_note *note);

/* qp_match.c: requests and their responses */
void trk_read_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);
void trk_read_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);
void trk_atomic_req(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);
void trk_atomic_resp(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);
/* Octets of dir were never captured: requests, or responses, lost. */
void trk_order_gap(struct iws_tracker *t, uint8_t dir);
/* The end: requests perhaps answered by a response not matched are flagged. */
void trk_order_finish(struct iws_tracker *t);

/* qp_report.c: the bottom, reporting finished operations (and holding
 * responses until the capture proves their requests, below) */
void trk_report(struct iws_tracker *t, struct node *n);
/* The in-flight limit gave an operation up: what is held loses its proof. */
void trk_evicting(struct iws_tracker *t);
/* Out of the list of operations waiting for their ACK ... */
void trk_unwait(struct iws_tracker *t, struct node *n);
/* ... and handed over, once and for all (freed). */
void trk_deliver(struct iws_tracker *t, struct node *n);
/* Whether an ACK already covered n's last FPDU (sets its ack fields). */
bool trk_ack_known(struct iws_tracker *t, struct node *n);
/* n is no operation after all (a held response merged into its
 * request): out of the in-flight list, freed, not reported. */
void trk_forget(struct iws_tracker *t, struct node *n);

/* qp_report.c: responses held until the capture proves their requests */
/* May the next response to d's requests, not proven, be held? */
bool trk_hold_possible(const struct iws_tracker *t, uint8_t d);
/* Hold n, the operation just started for such a response, the
 * resp_index-th since the capture began. */
void trk_hold(struct iws_tracker *t, uint8_t d, struct node *n, uint32_t resp_index);
/* n, held, is reported all the same (its stream broke): the others go too. */
void trk_hold_release(struct iws_tracker *t, struct node *n);
/* Its last segment came: kept, its covering ACK noted when seen. */
void trk_held_done(struct iws_tracker *t, struct node *n);
/* Octets of dir were never captured (a gap), or FPDUs of dir hidden by a
 * snapshot length. */
void trk_hold_lost(struct iws_tracker *t, uint8_t dir);
/* A captured request of d with this MSN, and a response matched by the
 * capture's proof (msn_known: the MSN of its request, the index-th response). */
void trk_hold_request(struct iws_tracker *t, uint8_t d, uint32_t msn);
uint32_t trk_hold_response(struct iws_tracker *t, uint8_t d);
void trk_hold_matched(struct iws_tracker *t, uint8_t d, uint32_t index, uint32_t msn);
/* Evidence for d's pairing was lost: the held responses go unpaired. */
void trk_hold_abandon(struct iws_tracker *t, uint8_t d);
/* An acknowledgement of dir's octets: held responses it covers note it. */
void trk_hold_ack(struct iws_tracker *t, uint8_t dir, uint32_t ack, uint64_t frame, int64_t ts, bool with_data);
/* The end: pair what the capture proves, give up the rest. */
void trk_hold_finish(struct iws_tracker *t);
/* Is n's state unknown to the capture (a held response, a request one may
 * answer, an operation whose data may have been hidden by a snapshot
 * length)? Not counted outstanding at a FIN or RST. */
bool trk_hold_uncertain(const struct iws_tracker *t, const struct node *n);
/* Did a snapshot length hide FPDUs of n's data direction since it began? */
bool trk_hold_sliced(const struct iws_tracker *t, const struct node *n);

#endif
