// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream_int.h - the stream engine's insides (core-private), shared by its
 * three files, one stage each:
 *
 *   tcp_reasm.c   TCP: each direction's octets in order, exactly once;
 *   framing.c     MPA: per direction, hunt -> [wait] -> frame, back to
 *                 hunting when framing is lost; every decision about the
 *                 octets (handshake, markers, CRC, resynchronisation);
 *   stream.c      the connection: wires the stages, merges the two
 *                 directions' PDUs into frame order, feeds the tracker and
 *                 reports to the front end (the public API of stream.h).
 */
#ifndef IWS_CORE_STREAM_INT_H
#define IWS_CORE_STREAM_INT_H

#include "iwarpscope/stream.h"
#include "iwarpscope/tcpopt.h"
#include "iwarpscope/sync.h"
#include "sbuf.h"
#include "tcp_reasm.h"

/* ---- what TCP did (tcp_watch.c): one side as a sender ---- */

#define TW_OUT 64u          /* first transmissions awaiting their ACK (RTT samples) */
#define TW_SACK_MAX 4u      /* SACK blocks an option holds at most (RFC 2018 §3) */

struct tw_out {
	int64_t ts;         /* captured then */
	uint32_t end;       /* sequence number after it */
	bool resent;        /* octets of it were sent again: no sample (Karn) */
};

struct tcp_watch {
	bool ipid_any;
	uint16_t ipid_last;         /* the IP ID of its latest segment */
	uint32_t ipid_inc, ipid_other; /* segments whose ID counted up from the one before, or not */
	bool any_data;
	int64_t last_data_ts;       /* its latest segment carrying data */
	struct tw_out *out;         /* a ring of capout (at most TW_OUT), grown as
				     * transmissions wait: a connection that carries
				     * little data costs little */
	uint32_t out_head, nout, capout;
	bool have_rtt;              /* this half of the path: capture point to the peer and back */
	int64_t srtt, rttvar, min_rtt;
	/* the SACK blocks of its latest ACK (of the peer's octets) */
	uint32_t nsack;
	uint32_t sack_l[TW_SACK_MAX], sack_r[TW_SACK_MAX];
};


/* ---- framing: one direction's state ---- */

enum fr_mode {
	FR_OFF = 0,      /* nothing seen yet */
	FR_HUNT,         /* looking for the MPA key or an FPDU boundary */
	FR_WAIT,         /* initiator's octets after its Request, waiting for the Reply */
	FR_FPDU,         /* framing FPDUs */
	FR_DEAD,         /* nothing more to decode (not iWARP, rejected, ended) */
};

/* What is known of one direction's marker rule before framing it. */
struct fr_hint {
	enum iws_tristate markers;
	bool base_known;            /* markers, if any, sit at marker_base + 512k */
	uint32_t marker_base;
	enum iws_tristate crc;
};

struct fr_dir {
	enum fr_mode mode;
	bool have_pos;
	uint32_t pos;               /* TCP seq of the next octet to arrive */
	bool at_syn;                /* the stream was seen from its first octet */
	struct sbuf buf;            /* a straddling FPDU, or octets being hunted through */
	uint64_t acct;              /* its memory, as counted in the limits */
	uint32_t need;              /* framing: wire length of the FPDU in buf */
	bool reporting;             /* framing is reporting the FPDUs buf holds ... */
	uint32_t report_next;       /* ... and those from here on are not reported yet */
	bool delivering;            /* fr_data is working through a chunk */
	uint64_t run_frame;         /* in-order completion frame so far */
	int64_t run_ts;
	uint32_t key_from;          /* hunting: next offset to look for a key at */
	bool req_pending;           /* ... where an MPA Request waits for evidence */
	bool req_confirmed;         /* ... which the peer's Reply gave */
	bool req_by_fpdus;          /* ... or the FPDUs after it */
	uint32_t next_try;          /* hunting: buffer length for the next sync */
	uint64_t hunted;            /* octets arrived while hunting, since the last sync */
	bool ever_framed;           /* FPDU boundaries were known at some point */
	bool at_seqstart;           /* buf starts at SeqStart (after this side's MPA
				     * frame) and nothing was passed over since */
	bool lost_reported;         /* the tracker knows octets of this direction are lost */
	uint64_t skipped_at_loss;   /* c.skipped_bytes when it was told */
	bool gap_before;            /* the next PDU follows a loss */
	bool damaged;               /* octets of the stream were missing */
	bool rejected;              /* after a rejected Reply */
	bool not_iwarp;             /* given up as not iWARP */
	struct iws_mpa_dir p;       /* framing parameters */
	bool p_known;
	struct fr_hint hint;        /* for inference when p is not known */
	uint32_t marker_dev;        /* IWS_MARKER_DEV_* seen */
	uint64_t fpdu_index;        /* FPDUs framed so far */
	uint64_t last_fit;          /* fpdu_index of the last FPDU whose markers fit the grid */
	uint32_t realign_pending;   /* a grid shift not yet told apart (skip_crc or offset) */
	bool markers_open;          /* "no markers" was inferred from FPDUs that held no grid
				     * point: still to be checked on a longer one */
	uint8_t nogrid_hunts;       /* hunts in a row that found no marker grid (framing.c) */
	bool ending;                /* fr_end: the FPDU reported was cut by the end */
	bool hidden_open;           /* a hidden span was reported, framing not found since */
	uint64_t hidden_frame;      /* ... the frame that carried it */
	uint32_t sliced_chain;      /* sliced segments filled exactly by one FPDU so far */
	uint32_t sliced_next;       /* ... where the next one must start */
	uint32_t resent_pending;    /* retransmissions of octets of the FPDU being put together */
	/* TCP as its sender and receiver behave (RFC 5681, 9293) */
	bool have_ack;
	uint32_t last_ack;          /* this side's last acknowledgement number ... */
	uint32_t last_win;          /* ... and window */
	uint32_t dupacks;           /* duplicate ACKs in a row for last_ack */
	int64_t dupack3_ts;         /* ... the third of them captured then */
	/* this side's acknowledgements of the peer's octets that may still
	 * cover an FPDU to come, oldest first, for a tracker created later
	 * (docs/semantics.md: ack_ns kept whenever the covering ACK was
	 * captured); at most ACKS_EARLY_MAX */
	bool have_hi_ack;
	uint32_t hi_ack;            /* the highest so far */
	struct early_ack {
		uint64_t frame;
		int64_t ts;
		uint32_t ack;
		bool with_data;
	} *early;
	uint32_t nearly, capearly;
	bool early_lost;            /* older ones were let go (the limit) ... */
	uint32_t early_lost_hi;     /* ... the newest of them */
	bool have_hi;
	uint32_t hi_seq;            /* the highest sequence number this side sent, + 1 */
	struct iws_stream_counts c;
	struct reasm_dir r;         /* TCP */
	struct tcp_watch w;         /* TCP as this side sends (tcp_watch.c) */
};

#define ACKS_EARLY_MAX 1024u

/* ---- the connection ---- */

/* A PDU or a tracker gap waiting for its turn (cross-direction order). */
enum held_kind { H_PDU, H_LOST, H_HIDDEN };

/* A PDU (everything its report points at, copied) or a loss to tell the
 * tracker, waiting for its turn. */
struct held {
	struct held *next;
	size_t size;                /* of this allocation, for the memory account */
	enum held_kind kind;
	int side;
	uint64_t frame;             /* release order: completion frame ... */
	uint64_t order;             /* ... then arrival */
	struct iws_pdu pdu;
	struct iws_mpa_dir mdir;
	struct iws_mpa_frame mpa;
	struct iws_msg msg;
	struct iws_fpdu fpdu;       /* its ulpdu points into data */
	uint32_t ulpdu_at;          /* offset of the marker-free ULPDU in data */
	uint8_t data[];             /* the wire octets, then the ULPDU if separate */
};

struct held_q {
	struct held *head, *tail;
	uint32_t n;
};

struct iws_stream {
	struct iws_stream_opts o;
	struct iws_stream_limits *lim;
	const struct iws_stream_sink *sink;
	void *ctx;
	struct fr_dir d[2];                 /* by side */
	struct iws_mpa_conn mpa;
	int init_side;
	bool init_side_known;               /* from a Request, a Reply or a SYN */
	bool init_side_auto;                /* IWS_INIT_SIDE_AUTO: decide at the first segment */
	uint8_t init_by;                    /* enum iws_init_evidence */
	bool fed;                           /* a segment was fed */
	uint32_t tcp_ev;                    /* TCP_EV_* of the segment being read */
	bool nvme;                          /* the NVMe stage is on (iws_stream_nvme_stage) */
	uint32_t nvme_qp;
	void (*nvme_cmd)(void *ctx, const struct iws_nvme_cmd *cmd);
	struct iws_nvme_conn *nc;           /* the NVMe stage's view, from the first PDU */
	bool nvme_tried;                    /* ... it was created (or failed to be) */
	const struct iws_nvme_note *nvme_note; /* on the PDU being reported (sink.pdu) */
	bool rpc;                           /* the RPC-over-RDMA stage is on (iws_stream_rpc_stage) */
	bool rpc_tried;
	uint32_t rpc_qp;
	void (*rpc_cb)(void *ctx, const struct iws_rpc *r);
	struct iws_rpc_conn *rc;            /* its view, from the first PDU */
	struct iws_doctor *doc;             /* the doctor stage (iws_stream_doctor_stage), NULL: off */
	bool smb;                           /* the SMB Direct stage is on (iws_stream_smb_stage) */
	bool smb_tried;
	uint32_t smb_qp;
	void (*smb_cb)(void *ctx, const struct iws_smb *m);
	struct iws_smb_conn *sc;            /* its view, from the first PDU */
	uint32_t ncloses;                   /* close records made (at most IWS_STREAM_MAX_CLOSES) */
	enum iws_stream_state st;
	struct iws_mpa_frame req, rep;
	bool have_req, have_rep;
	uint64_t req_frame, rep_frame;
	struct iws_tracker *tr;
	struct iws_tracker_counts trc;      /* the tracker's counters once it is freed */
	struct held_q q[2];                 /* by side */
	uint64_t order;                     /* held entries so far (ties) */
	uint64_t held_bytes;                /* their copies, counted in lim->buf_used */
	uint64_t cur_frame;
	int64_t cur_ts;
	uint8_t *scratch;                   /* 65535 octets: ULPDUs split by markers */
	bool finishing;                     /* iws_stream_finish is flushing: hold every PDU */
	bool finished;
};

/* Does state say the connection carries iWARP (iws_stream_is_iwarp)? */
static inline bool st_is_iwarp(enum iws_stream_state st)
{
	return st == IWS_SST_REQUEST || st == IWS_SST_FULL || st == IWS_SST_REJECTED || st == IWS_SST_INFERRED;
}

static inline uint8_t fr_dir_of(const struct iws_stream *s, int side)
{
	return side == s->init_side ? IWS_DIR_I2R : IWS_DIR_R2I;
}

/* framing.c */
void fr_init(struct iws_stream *s);
void fr_start(struct iws_stream *s, int side, uint32_t seq, bool at_syn);
void fr_data(struct iws_stream *s, int side, uint32_t seq, const uint8_t *p, uint32_t n,
	     uint64_t frame, int64_t ts, uint8_t how);
/* Octets [seq, seq+n) of side were captured again: the FPDU that holds
 * them, if it is still being put together, counts one more retransmission. */
void fr_resent(struct iws_stream *s, int side, uint32_t seq, uint32_t n);
/* snap: the snapshot length cut the segment being read (its payload ends
 * here); else the octets were never captured. */
void fr_hole(struct iws_stream *s, int side, uint32_t seq, uint32_t n, bool snap);
void fr_end(struct iws_stream *s, int side);
void fr_free(struct iws_stream *s);
/* The earliest run_frame of octets that may still become PDUs reported
 * before later ones of the other direction (hunting or waiting), 0: none. */

/* tcp_watch.c */
void tw_free(struct tcp_watch *w);
void tw_parse_opts(const struct iws_tcp_seg *seg, struct iws_tcp_opts *o);
/* A segment of side that fills a hole behind later octets (later: the
 * closest of them): HOW_RESENT or HOW_REORDERED (docs/semantics.md). */
uint8_t tw_late_how(const struct iws_stream *s, int side, const struct iws_tcp_seg *seg,
		    const struct iws_tcp_opts *o, const struct reasm_later *later);
/* The retransmission timeout the capture's round trips give (RFC 6298). */
int64_t tw_rto(const struct iws_stream *s);
/* Had side's peer asked for an octet of [seq, seq+len) in at least three
 * duplicate ACKs in a row, its latest ACKs (RFC 5681 §3.2)? */
bool tw_dupacked(const struct iws_stream *s, int side, uint32_t seq, uint32_t len);
/* Did side send nothing for at least that long before this segment? */
bool tw_after_silence(const struct iws_stream *s, int side, const struct iws_tcp_seg *seg);
/* After each segment of side (how: enum seg_how of its octets). */
void tw_sent(struct iws_stream *s, int side, const struct iws_tcp_seg *seg, const struct iws_tcp_opts *o,
	     uint8_t how);
/* The peer of side acknowledged side's octets (ack, with its options). */
void tw_acked(struct iws_stream *s, int side, const struct iws_tcp_seg *ack, const struct iws_tcp_opts *o);

/* stream_deliver.c: what framing produces, to the stages above it */
void st_pdu(struct iws_stream *s, struct iws_pdu *pdu);
void st_lost(struct iws_stream *s, int side);       /* the tracker must know of a loss */
void st_no_fpdus(struct iws_stream *s, int side);   /* side carries no FPDU from now on */
/* FPDUs of side that frame carried were hidden (a snapshot length cut their headers). */
void st_hidden(struct iws_stream *s, int side, uint64_t frame, int64_t ts);
void st_event(struct iws_stream *s, enum iws_stream_event_kind kind, int side, uint32_t seq,
	      uint32_t len, uint32_t detail);
void st_span(struct iws_stream *s, enum iws_span_kind kind, int side, uint32_t seq, uint32_t len,
	     uint64_t frame, uint64_t pdu_frame, uint32_t pdu_seq);
/* stream_deliver.c: what the engine's entry points (stream.c) hand it */
/* An ACK of side's peer seen before the tracker exists (replayed to it). */
void st_early_ack(struct iws_stream *s, int side, const struct iws_tcp_seg *seg);
void st_early_free(struct iws_stream *s, struct fr_dir *fd);
/* A FIN, RST or Terminate, with the operations in flight now: the sink's
 * close record. */
void st_record_close(struct iws_stream *s, enum iws_close_kind kind, uint8_t dir, uint64_t frame,
		     int64_t ts);
/* The held PDUs whose turn came (all of them: force). */
void st_release(struct iws_stream *s, bool force);
/* The first octet of side not yet settled with the tracker (false: none). */
bool st_pending_from(const struct iws_stream *s, int side, uint32_t *seq);
void st_finish(struct iws_stream *s, uint32_t flag);
void st_free(struct iws_stream *s);

/* stream_doctor.c: the doctor stage, fed by the engine (a no-op while it is
 * off): a segment before the engine reads it, each report just before the
 * sink is given it, the end once the engine finished. */
void st_doctor_segment(struct iws_stream *s, int side, const struct iws_tcp_seg *seg);
void st_doctor_pdu(struct iws_stream *s, const struct iws_pdu *pdu);
void st_doctor_op(struct iws_stream *s, const struct iws_op *op);
void st_doctor_event(struct iws_stream *s, const struct iws_stream_event *ev);
void st_doctor_finish(struct iws_stream *s);
void st_doctor_free(struct iws_stream *s);

#endif
