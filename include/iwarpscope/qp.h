// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qp.h - the operation tracker: one per connection (queue pair).
 *
 * A front end feeds it every DDP segment of the connection, both directions,
 * in capture order (each FPDU at the frame where its last octet arrived, as
 * TCP reassembly delivers it). The tracker groups segments into RDMA
 * operations (RFC 5040 §5): Write (first to last segment), Read (Read Request
 * to the last Read Response segment), the Send family, Immediate Data, Atomic
 * (request to response, RFC 7306), Terminate. It reports each operation once,
 * when it completes or is given up, through a callback; and for every segment
 * a note the plugin turns into per-frame fields (request/response links,
 * response time, expert info).
 *
 * The CLI and the plugin both use it, which is why their numbers agree.
 */
#ifndef IWARPSCOPE_QP_H
#define IWARPSCOPE_QP_H

#include "mpa.h"
#include "rdmap.h"

#ifdef __cplusplus
extern "C" {
#endif

enum iws_op_type {
	IWS_OPT_WRITE = 0,
	IWS_OPT_READ,
	IWS_OPT_SEND,
	IWS_OPT_SEND_INV,
	IWS_OPT_SEND_SE,
	IWS_OPT_SEND_SE_INV,
	IWS_OPT_IMMEDIATE,
	IWS_OPT_IMMEDIATE_SE,
	IWS_OPT_ATOMIC_FETCH_ADD,
	IWS_OPT_ATOMIC_CMP_SWAP,
	IWS_OPT_ATOMIC_SWAP,
	IWS_OPT_TERMINATE,
	IWS_OPT_COUNT
};

/* The CLI contract's name ("write", "read", "send_inv", ...), from the
 * table in names.h (core/names.c). */
const char *iws_op_type_name(enum iws_op_type t);
/* Parse a contract name; -1 when unknown. */
int iws_op_type_from_name(const char *name);
/* A human title ("RDMA Write", "Atomic CmpSwap", ...). */
const char *iws_op_type_title(enum iws_op_type t);
/* Whether the type is a request answered by a response: RDMA Read (RFC 5040
 * §5.2) and the Atomics (RFC 7306 §5); the rest complete one way. */
bool iws_op_type_has_response(enum iws_op_type t);

/* A sender's deviations from RFC 5040's formats (iws_tracker_counts.rdmap_dev). */
#define IWS_RDMAP_DEV_READ_REQ_LE 0x1 /* Read Request fields least significant octet first:
				       * the Read Responses carry the byte-swapped sink STag/TO */

/* Why an operation is not complete, or what is odd about it. */
#define IWS_OPF_GAP            0x0001 /* data of it was never captured */
#define IWS_OPF_STARTED_BEFORE 0x0002 /* it began before the capture (or a gap) */
#define IWS_OPF_UNFINISHED     0x0004 /* the capture ended before it finished */
#define IWS_OPF_TRUNCATED      0x0008 /* payload octets not captured (snapshot length, a
					* hole): complete all the same if its headers were */
#define IWS_OPF_EVICTED        0x0010 /* given up: in-flight limit reached */
#define IWS_OPF_MSN_GAP        0x0020 /* its MSN did not follow the previous one */
#define IWS_OPF_OFFSET_GAP     0x0040 /* MO / TO discontinuity inside it */
#define IWS_OPF_IRD_EXCEEDED   0x0080 /* more reads outstanding than the peer's IRD */
#define IWS_OPF_ABORTED        0x0100 /* the connection ended (FIN/RST/Terminate) while the
					* capture shows it going */
#define IWS_OPF_AFTER_CLOSE    0x0200 /* (partly) sent after its receiver closed or reset */
#define IWS_OPF_REQUEST_MISSING 0x0400 /* read, atomic: the capture does not prove which
					* request its responses answer (docs/semantics.md) */
#define IWS_OPF_RESPONSE_UNKNOWN 0x0800 /* read, atomic request: its response cannot be told
					 * from responses whose request was not proven */
#define IWS_OPF_SLICED         0x1000 /* its end may lie in FPDUs a snapshot length hid (it
					* was still going at the end, as far as the capture shows) */
/* How a Read's or Atomic's response was paired with its request: what the
 * capture proves (docs/semantics.md, "Which request a response answers"). */
enum iws_pairing {
	IWS_PAIR_NONE = 0,          /* not paired (or not a read/atomic) */
	IWS_PAIR_ORDER,             /* its position in request order, every earlier one known */
	IWS_PAIR_KEY,               /* a key only its request has: the sink STag/TO, the
				     * Atomic Request Identifier */
	IWS_PAIR_FRAME,             /* the frame that carried its request, not which request
				     * of that frame (MSN, size and source unknown) */
	IWS_PAIR_CLOSE,             /* the count at a clean close: the connection closed with
				     * FINs after every request was answered, which fixes how
				     * many were outstanding when the capture started */
	IWS_PAIR_BEFORE_CAPTURE,    /* a response whose request preceded the capture, proven
				     * by that count (the request itself is not in the file) */
	IWS_PAIR_COUNT
};
/* The contract name ("order", "key", "frame", "close", "before_capture");
 * NULL for IWS_PAIR_NONE. */
const char *iws_pairing_name(enum iws_pairing p);

#define IWS_OPF_INCOMPLETE_MASK \
	(IWS_OPF_GAP | IWS_OPF_STARTED_BEFORE | IWS_OPF_UNFINISHED | \
	 IWS_OPF_EVICTED | IWS_OPF_ABORTED | IWS_OPF_AFTER_CLOSE | \
	 IWS_OPF_REQUEST_MISSING | IWS_OPF_RESPONSE_UNKNOWN | IWS_OPF_SLICED)

struct iws_op {
	/* Fields in order of size (64-, 32-, then 8-bit): a tracker holds one
	 * per operation in flight and the plugin one per unanswered request, so
	 * padding is memory (tests/hostile/plugin-memory.py). */
	uint64_t id;                /* 1, 2, ... in order of start, per tracker */
	/* first_frame/start_ns: the first transmission of its first FPDU;
	 * first_inorder_frame: where that FPDU became deliverable in order;
	 * last_frame/end_ns: where its last FPDU did (docs/semantics.md). */
	uint64_t first_frame, last_frame, first_inorder_frame;
	int64_t start_ns, end_ns;
	uint64_t bytes;             /* ULP payload octets (immediate, atomic: 8) */
	uint64_t to;                /* see has_stag */
	int64_t latency_ns;         /* see has_latency */
	/* where the time went (docs/semantics.md) */
	int64_t stall_ns;           /* waiting in reassembly for earlier missing octets */
	uint64_t ack_frame;         /* see has_ack */
	int64_t ack_ns;             /* from start_ns to that ACK */
	int64_t queued_ns;          /* read, atomic: waiting for earlier responses */
	/* per type */
	uint64_t src_to;            /* read: see has_src */
	uint64_t response_frame;    /* read: first Read Response frame; atomic: the response frame */
	uint64_t response_op_id;    /* paired late (IWS_PAIR_CLOSE): the id its response was
				     * tracked under until then (the CLI's fpdus op_id, the
				     * plugin's per-frame records), else 0 */
	uint64_t immediate;         /* see has_immediate */
	uint64_t atomic_orig_value; /* see has_atomic_orig */

	enum iws_op_type type;
	uint32_t segments;          /* DDP segments (read: 1 + responses; atomic: 2) */
	uint32_t stag;              /* see has_stag */
	uint32_t qn, msn;           /* see has_qn */
	uint32_t crc_errors;
	uint32_t flags;             /* IWS_OPF_* */
	uint32_t retransmissions;   /* segments that carried its octets again */
	uint32_t reordered;         /* first transmissions of its octets that came after later
				     * octets (reordered on the way, not lost) */
	uint32_t read_size;         /* read: see has_read_size */
	uint32_t src_stag;          /* read: see has_src */
	uint32_t inval_stag;        /* see has_inval */
	uint32_t atomic_req_id;

	uint8_t opcode;             /* RDMAP opcode of its first message */
	uint8_t dir;                /* IWS_DIR_* the initiator sends in */
	bool rtr;                   /* the RTR message of a peer-to-peer set-up (RFC 6581 §7) */
	bool has_stag;              /* write: STag/TO of the first segment; read: sink; atomic: remote */
	bool has_qn;                /* untagged: QN/MSN of the (request) message */
	bool has_latency;           /* read, atomic: first request frame to last response frame */
	bool complete;
	bool has_ack;               /* the covering ACK of its last FPDU was seen */
	bool ack_with_data;         /* ... carried by the receiver's data (a delayed ACK) */
	bool has_read_size;         /* read: its Read Request's size was captured */
	bool has_src;               /* ... and its Source STag and TO */
	uint8_t pairing;            /* read, atomic: enum iws_pairing */
	bool has_inval;
	bool has_immediate;         /* its 8 octets were captured */
	bool has_atomic_orig;
	uint8_t term_layer, term_etype, term_errcode;
};

/*
 * An operation's numbers in a compact record, for a front end that keeps one
 * per operation of a whole capture (struct iws_op is 216 octets; the
 * plugin keeps every one): what the operation lists, the statistics
 * (iws_qp_stats_add) and "where the time went" read. It leaves out the
 * per-type fields (STags, offsets, QN/MSN, immediate data, atomic values,
 * Terminate codes): a front end shows those from the segments. Frames are
 * 32-bit (Wireshark's frame numbers are; a larger one is kept as
 * UINT32_MAX).
 */
struct iws_op_brief {
	uint64_t id;
	int64_t start_ns, end_ns;
	int64_t latency_ns, stall_ns, queued_ns, ack_ns;
	uint64_t bytes;
	uint32_t first_frame, last_frame, first_inorder_frame, response_frame, ack_frame;
	uint32_t segments, flags, crc_errors, retransmissions, reordered;
	uint8_t type;               /* enum iws_op_type */
	uint8_t pairing;            /* enum iws_pairing */
	bool rtr, complete, has_latency, has_ack, ack_with_data;
};

/* The brief of op. */
void iws_op_brief_of(const struct iws_op *op, struct iws_op_brief *b);
/* An operation with the brief's numbers, every other field zero: what
 * iws_qp_stats_add needs. */
void iws_op_of_brief(const struct iws_op_brief *b, struct iws_op *op);

/* One DDP segment handed to the tracker. */
struct iws_seg {
	uint8_t dir;                /* IWS_DIR_* */
	uint64_t frame;             /* frame in which the FPDU completed in order */
	int64_t ts_ns;              /* that frame's capture time */
	const struct iws_msg *msg;  /* decoded by iws_rdmap_parse (status OK) */
	enum iws_crc_status crc;
	bool truncated;             /* payload not fully captured (msg->captured says what was) */
	bool unfinished;            /* ... because the stream ended inside the FPDU */
	/* Where the FPDU's octets came from (a front end without them leaves
	 * zeros: first and arrived then default to frame/ts_ns). */
	uint64_t first_frame;       /* earliest frame that carried any of its octets */
	int64_t first_ts;
	uint64_t arrived_frame;     /* frame in which its last octet was first captured */
	int64_t arrived_ts;
	bool has_seq;               /* its TCP sequence range is known */
	uint32_t seq, len;
	uint32_t retrans;           /* segments that carried its octets again (seen so far) */
	/* of those, the ones that carried its first / last octet (0: none): one
	 * segment across the boundary of two FPDUs of an operation counts once */
	uint64_t retrans_first_frame, retrans_last_frame;
	uint32_t reordered;         /* reordered segments that carried its octets (seen so far) */
	uint64_t reord_first_frame, reord_last_frame;
};

/* Per-segment conclusions. */
#define IWS_SEGF_MSN_GAP         0x01 /* MSN did not follow the previous message */
#define IWS_SEGF_OFFSET_GAP      0x02 /* MO/TO does not continue its message */
#define IWS_SEGF_ORPHAN_RESPONSE 0x04 /* response with no request in the capture */
#define IWS_SEGF_IRD_EXCEEDED    0x08 /* read/atomic requests outstanding > peer's IRD */
#define IWS_SEGF_STAG_MISMATCH   0x10 /* Read Response STag/TO not the next request's */
#define IWS_SEGF_OVERRUN         0x20 /* more Read Response data than requested */
#define IWS_SEGF_EVICTED         0x40 /* in-flight limit hit: the oldest op was given up */
#define IWS_SEGF_AFTER_CLOSE     0x80 /* sent after the sender's peer closed or reset */

struct iws_seg_note {
	/* In order of size: the plugin keeps one per PDU. */
	uint64_t op_id;             /* 0: not part of an operation (RTR message) */
	uint64_t request_frame;     /* responses: the request's frame (0: unknown) */
	int64_t response_time_ns;   /* see has_response_time */
	enum iws_op_type op_type;
	uint32_t outstanding;       /* read/atomic requests outstanding from this sender */
	uint32_t flags;             /* IWS_SEGF_* */
	/* The octets this segment added to its operation's bytes: a front end
	 * that counts the part of an operation inside a time window sums them
	 * over the segments there. */
	uint32_t payload;
	bool rtr;                   /* the RTR message of a peer-to-peer set-up (RFC 6581 §7) */
	bool op_first, op_last;     /* first / last segment of its operation */
	bool has_response_time;     /* set on the segment that completes a read/atomic */
};

struct iws_tracker_limits {
	uint32_t max_inflight;      /* operations in flight per connection; 0: default (65536) */
	uint32_t max_ack_wait;      /* complete operations waiting for their ACK; 0: 4096 */
	/* optional, shared by trackers: a bound on all of them together */
	uint64_t *shared_ack_wait_used, *shared_ack_wait_peak;
	uint64_t shared_max_ack_wait;
	/* The connection was captured from past its start (no SYN): before
	 * the first ACK of a direction, a few complete operations wait for one
	 * (its receiver's first segment may follow); else they are reported
	 * unacknowledged at once. */
	bool ack_unseen_wait;
};

struct iws_tracker_counts {
	uint64_t segments;
	uint64_t ops_started, ops_reported, ops_incomplete;
	uint64_t rtr_messages;
	uint64_t msn_gaps, offset_gaps, orphan_responses, ird_exceeded, stag_mismatches;
	uint64_t evicted;
	uint64_t hidden_requests;   /* Reads inferred from a span a snapshot length hid */
	uint64_t responses_unknown; /* captured requests whose response could not be told */
	/* how each direction's sender breaks RFC 5040's formats (IWS_RDMAP_DEV_*),
	 * by IWS_DIR_*: detected from the responses, then used to match */
	uint32_t rdmap_dev[2];
	uint64_t rdmap_dev_frame[2]; /* the frame whose response first showed it */
	uint64_t crc_errors;
	uint32_t inflight, max_inflight_seen;
	uint32_t ack_waiting;       /* complete operations waiting for their covering ACK */
	uint64_t ack_wait_forced;   /* reported without it: the wait limit */
};

typedef void (*iws_op_cb)(void *ctx, const struct iws_op *op);

struct iws_tracker;

/* NULL on allocation failure. cb receives every operation exactly once. */
struct iws_tracker *iws_tracker_new(const struct iws_tracker_limits *lim, iws_op_cb cb, void *ctx);
void iws_tracker_free(struct iws_tracker *t);

/* Negotiated parameters (IRD/ORD, peer-to-peer RTR); call after the Reply. */
void iws_tracker_set_mpa(struct iws_tracker *t, const struct iws_mpa_conn *c);

/* Feed one segment; note (may be NULL) receives the conclusions. */
void iws_tracker_segment(struct iws_tracker *t, const struct iws_seg *s, struct iws_seg_note *note);

/* Octets of direction dir were never captured: every operation whose data
 * could lie in the hole is marked IWS_OPF_GAP and MSN expectations reset. */
void iws_tracker_gap(struct iws_tracker *t, uint8_t dir);

/*
 * TCP around the segments (the stream engine tells these in capture order):
 * - ack: the receiver of dir's octets acknowledged everything before `ack`
 *   (a TCP sequence number of dir) in `frame`. A complete operation is
 *   reported once the ACK covering its last FPDU is seen (ack_ns), or when
 *   it cannot be any more (the wait limit, the end). with_data: the ACK
 *   rode on a segment carrying data.
 * - resent: octets [seq, seq+len) of dir, already delivered, were captured
 *   again (a retransmission): the operations they belong to count it.
 * - closed: the sender of dir closed (FIN) or reset (RST: reset) its side in
 *   frame; operations with FPDUs its peer sends after that are flagged
 *   IWS_OPF_AFTER_CLOSE.
 */
void iws_tracker_ack(struct iws_tracker *t, uint8_t dir, uint32_t ack, uint64_t frame, int64_t ts,
		     bool with_data);
void iws_tracker_resent(struct iws_tracker *t, uint8_t dir, uint32_t seq, uint32_t len);
void iws_tracker_closed(struct iws_tracker *t, uint8_t dir, uint64_t frame, bool reset);
/* No FPDU of dir before sequence number seq will be given any more: the
 * acknowledgements kept to find an operation's first covering one that
 * cannot be that let go (memory stays bounded by what is still to come). */
void iws_tracker_acks_settled(struct iws_tracker *t, uint8_t dir, uint32_t seq);
/* ACKs of dir's octets up to ack were seen but not given to the tracker
 * (before it existed): an operation whose last octet they covered has no
 * known first ACK (ack_ns unknown rather than a later ACK's). */
void iws_tracker_acks_forgotten(struct iws_tracker *t, uint8_t dir, uint32_t ack);

/* FPDUs of dir that frame carried were hidden: a snapshot length cut their
 * headers. Read Responses that answer no captured request then answer Read
 * Requests among them (in request order), which start in that frame.
 * frame 0: more octets of dir were hidden, in frames not known (framing was
 * not found again at once): no more inference until a captured Read is
 * answered. */
void iws_tracker_hidden(struct iws_tracker *t, uint8_t dir, uint64_t frame, int64_t ts);

/* Ids of the operations in flight (not yet complete), oldest first: up to
 * max of them in ids; returns how many there are. */
uint32_t iws_tracker_inflight_ids(const struct iws_tracker *t, uint64_t *ids, uint32_t max);
/* The same, leaving out the operations whose state the capture does not show
 * yet (docs/semantics.md): a Read Response held until its request is proven,
 * and a request such a response may answer. What a FIN or RST is recorded
 * with as outstanding. */
uint32_t iws_tracker_outstanding_ids(const struct iws_tracker *t, uint64_t *ids, uint32_t max);
/* Of those, the Writes and Sends whose start the capture holds: outstanding
 * even when the connection's start was not captured. */
uint32_t iws_tracker_outstanding_begun(const struct iws_tracker *t);

/*
 * For output in start order: the (start_ns, first_frame) of the oldest
 * operation the tracker has not reported yet - the oldest in flight (they
 * are numbered in start order: the first of them), or a complete one
 * waiting for its covering ACK. false when it holds none: what it reports
 * from now on starts at a later segment (but for an operation inferred from
 * a request a snapshot length hid, which starts in the frame that hid it).
 */
bool iws_tracker_oldest_unreported(const struct iws_tracker *t, int64_t *start_ns, uint64_t *first_frame);

/* The capture (or the connection) ended: report everything still in flight
 * as incomplete, oldest first, then the complete operations still waiting
 * for their ACK. flag is IWS_OPF_UNFINISHED or IWS_OPF_ABORTED. */
void iws_tracker_finish(struct iws_tracker *t, uint32_t flag);

const struct iws_tracker_counts *iws_tracker_counts(const struct iws_tracker *t);

#ifdef __cplusplus
}
#endif
#endif
