// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor_int.h - what the doctor's files share (doctor.h is the interface):
 *
 *   doctor.c        the state, the sums, the entry points, the words;
 *   doctor_mpa.c    the connection set-up: keys, MPA Request/Reply fields,
 *                   peer-to-peer and IRD/ORD negotiation, markers and CRC
 *                   negotiated against what the octets show;
 *   doctor_frame.c  where FPDUs sit in TCP segments (size, split, aligned,
 *                   packed), CRC, markers, pad;
 *   doctor_rdma.c   DDP and RDMAP headers, queues, the tracker's notes and
 *                   operations, Terminate and its cause, the connection.
 */
#ifndef IWS_DOCTOR_INT_H
#define IWS_DOCTOR_INT_H

#include "iwarpscope/doctor.h"

/* TCP segments remembered per side, to place FPDUs in them: at most
 * DOC_RING, in an array that grows from DOC_RING_FIRST as more are waiting
 * for their FPDUs (usually one or two: a QP costs what it uses). */
#define DOC_RING 256
#define DOC_RING_FIRST 4

struct doc_seg {
	uint32_t seq, len;
	bool began_fpdu;            /* an FPDU (or MPA frame) starts at its first octet */
};

/* Octets of a side's stream wanted at a sequence number (the segment
 * carrying them may come before or after we know we want them). */
#define DOC_PEEK_MAX 20

struct doc_peek {
	bool want, done;
	uint32_t seq;
	uint8_t len, have;          /* octets wanted; contiguous octets got from seq */
	uint8_t buf[DOC_PEEK_MAX];
	uint64_t frame;             /* the frame that brought the last of them */
};

struct doc_side {
	bool syn;
	uint32_t isn;               /* its SYN's sequence number (syn) */
	uint16_t mss;               /* the MSS its SYN advertised (0: unknown) */
	struct doc_seg *ring;       /* cap entries, oldest at (head - n) mod cap */
	uint32_t head, n, cap;
	struct doc_peek start;      /* its stream's first octets (an MPA key?) */
	struct doc_peek seqstart;   /* 4 octets at its SeqStart (a marker?) */
	int key;                    /* 0 not known, IWS_MPA_REQUEST/REPLY, -1 a damaged key */
	uint64_t key_frame;
	bool have_seqstart;         /* its MPA frame was captured: seqstart_seq is known */
	uint32_t seqstart_seq;      /* SeqStart (RFC 5044 §4.3): the octet after its MPA frame */
};

/* FPDUs with markers off the RFC 5044 grid, found before the engine named
 * how the sender's grid deviates (doc_frame.c): at most DOC_PENDING, in an
 * array grown from DOC_RING_FIRST. */
#define DOC_PENDING 64

struct doc_pending {
	uint64_t frame;
	uint32_t markers;           /* markers of the FPDU off the grid */
	uint32_t delta;             /* the first one's distance past a grid point */
};

/* An untagged queue of one direction (RFC 5041 §5.3). */
struct doc_queue {
	bool have;                  /* last: the MSN of the last message begun */
	uint32_t last;
	bool open;                  /* a message without its L=1 segment yet */
	uint32_t open_msn;
	bool closed;                /* closed_msn: the last message ended by L=1 */
	uint32_t closed_msn;
};

/* Recent FPDUs of a direction: what a Terminate from the other side may
 * name; at most DOC_RECENT, in an array grown from DOC_RING_FIRST. */
#define DOC_RECENT 64

struct doc_recent {
	uint64_t frame;
	uint8_t hdr[18];            /* its DDP header (14 or 18 octets) */
	uint8_t hlen;
	bool bad_crc;
};

struct doc_dir {
	uint64_t fpdus;             /* FPDUs reported */
	uint64_t measured;          /* ... placed in their TCP segments */
	uint64_t measured_mss;      /* ... with the receiver's MSS known */
	bool have_prev;             /* the previous PDU (FPDU or MPA frame) of the direction */
	uint32_t prev_start, prev_end;
	struct doc_queue q[4];
	bool terminated;            /* it sent a Terminate (term_frame) */
	uint64_t term_frame;
	bool loss;                  /* octets of it were lost or not framed: continuity
				     * across them is not the sender's fault */
	uint32_t marker_devs;       /* IWS_MARKER_DEV_* named once, SeqStart not known */
	struct doc_pending *pend;   /* pcap entries, the newest before phead */
	uint32_t phead, pn, pcap;
	bool markers_checked;       /* the octets at SeqStart were held against M */
	bool garbled;               /* ... and contradict it: its FPDUs are misframed,
				     * what they seem to say is not the sender's */
	struct doc_recent *recent;  /* rcap entries, the newest before rhead */
	uint32_t rhead, rn, rcap;
};

struct iws_doctor {
	struct iws_doctor_sink sink;
	void *ctx;
	bool (*keep)(void *ctx, uint64_t frame); /* iws_doctor_keep, NULL: every frame */
	void *keep_ctx;
	struct doc_side side[2];
	struct doc_dir dir[2];
	/* the segment being fed: its octets stay valid until the engine returns */
	bool cur;
	int cur_side;
	uint32_t cur_seq, cur_cap;
	const uint8_t *cur_payload;
	uint64_t cur_frame;
	/* the handshake as the engine reported it */
	bool have_req, have_rep;
	struct iws_mpa_frame req, rep;
	uint64_t req_frame, rep_frame;
	bool rtr_due;               /* peer-to-peer: the initiator's RTR is still due */
	bool rtr_checked;
	uint64_t reads_out;         /* Read Requests whose Read is not reported yet */
	bool sliced;                /* a segment's payload was cut by the snapshot length */
	bool finished;
	/* the findings: sums in catalogue order, and where each is */
	struct iws_finding_sum *sums;
	uint32_t nsums, capsums;
	uint8_t at[IWS_RULE_COUNT][2];  /* index + 1 in sums, 0: none */
	/* the RPC-over-RDMA rules' own tracker (doctor_rpc.c) */
	struct iws_rpc_conn *rpc;
	bool rpc_tried;
	bool rpc_seen;              /* it carried RPC over RDMA: the rpc.* rules apply */
};

/* doctor_record.c: below the checks, which call it */
/* An occurrence of rule (to the sink, and counted in its sum). */
void doc_fire(struct iws_doctor *d, enum iws_rule rule, uint8_t dir, uint64_t frame, uint64_t v0,
	      uint64_t v1, uint64_t v2);
/* The same, at_least: what it measures is a lower bound (iws_finding). */
void doc_fire_bound(struct iws_doctor *d, enum iws_rule rule, uint8_t dir, uint64_t frame, uint64_t v0,
		    uint64_t v1, uint64_t v2, bool at_least);
/* What the capture has not shown so far of what the rule needs
 * (IWS_DOC_UNSEEN_*, doctor.h); 0: it may be judged. */
uint32_t doc_unseen(const struct iws_doctor *d, enum iws_rule rule);
/* Does frame count (iws_doctor_keep)? */
bool doc_keeps(const struct iws_doctor *d, uint64_t frame);
/* A fraction rule's direction measured one more FPDU. */
void doc_measured(struct iws_doctor *d, uint8_t dir);
uint8_t doc_dir_of(const struct iws_doctor_facts *fa, int side);
/* Room for one more entry in a ring of *n entries of size sz, the newest
 * before *head, the oldest dropped once it holds max: grown (doubled, from
 * DOC_RING_FIRST) while it is full and below max, its entries moved in
 * order to the start. false if memory is short (the ring is unchanged). */
bool doc_ring_room(void **ring, size_t sz, uint32_t *head, uint32_t *n, uint32_t *cap,
		   uint32_t max);
/* Free the checks' rings (iws_doctor_free). */
void doc_free_rings(struct iws_doctor *d);

/* doctor_mpa.c */
void doc_mpa_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side,
		     const struct iws_tcp_seg *seg);
void doc_mpa_frame(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p);
void doc_mpa_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p);
void doc_mpa_finish(struct iws_doctor *d, const struct iws_doctor_facts *fa);

/* doctor_frame.c */
void doc_frame_segment(struct iws_doctor *d, int side, const struct iws_tcp_seg *seg);
void doc_frame_mpa(struct iws_doctor *d, const struct iws_pdu *p);
void doc_frame_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p);
void doc_frame_event(struct iws_doctor *d, const struct iws_stream_event *ev);

/* doctor_rdma.c */
void doc_rdma_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side,
		      const struct iws_tcp_seg *seg);
void doc_rdma_fpdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p);
void doc_rdma_op(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_op *op);
void doc_rdma_event(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_stream_event *ev);

/* doctor_rpc.c */
void doc_rpc_pdu(struct iws_doctor *d, const struct iws_pdu *p);
void doc_rpc_event(struct iws_doctor *d, const struct iws_stream_event *ev);
void doc_rpc_free(struct iws_doctor *d);

#endif
