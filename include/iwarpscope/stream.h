// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream.h - the stream engine: everything between captured TCP segments
 * and the operation tracker, for one TCP connection, in one place, so that
 * every front end (the CLI, the Wireshark plugin) makes the same decisions.
 *
 * A front end creates one engine per TCP connection and feeds it, in
 * capture order, every captured segment of both directions: sequence and
 * acknowledgement numbers, flags, window, the captured payload octets and
 * how many octets the segment carried on the wire, the frame number and
 * the capture time. Nothing else: the engine owns
 *
 *   TCP       in-order delivery per direction, retransmissions, overlaps,
 *             out-of-order segments, holes that become gaps (the peer
 *             acknowledged past them, a memory limit, the end), octets cut
 *             by the snapshot length;
 *   MPA       the Request/Reply handshake (RFC 5044 §7.1, RFC 6581), or
 *             parameters inferred without it (capture started mid-stream,
 *             one direction only), FPDU framing with markers and CRC
 *             (RFC 5044 §4), FPDU hunting and resynchronisation after a
 *             loss (one policy, one set of thresholds), senders that break
 *             the marker rules;
 *   order     the two directions' FPDUs reach the tracker in the order of
 *             the frames that completed them, even while one direction is
 *             still searching for its FPDU boundaries;
 *   RDMAP     the operation tracker (qp.h) fed with every DDP segment;
 *   NVMe      optionally (iws_stream_nvme_stage), NVMe over Fabrics: the engine feeds
 *             its NVMe view of the connection (nvme.h, iws_nvme_conn) every
 *             PDU and event and the end, and reports its commands;
 *   doctor    optionally (iws_stream_doctor_stage), the interop doctor
 *             (doctor.h): the engine feeds it every segment, PDU, operation,
 *             event and the end, and keeps its findings.
 *
 * Results come back through the callbacks of struct iws_stream_sink, during
 * the call that fed the segment which made them known (or during
 * iws_stream_finish). Memory is bounded by struct iws_stream_limits.
 *
 * Sides: the front end names the two endpoints side 0 and side 1 (its own
 * convention, e.g. the first packet's source is side 0); directions are
 * IWS_DIR_I2R / IWS_DIR_R2I, decided by the engine (the MPA Request's
 * sender is the initiator; without one, the side that sent the SYN, else
 * the guess given at creation, see struct iws_stream_opts).
 */
#ifndef IWARPSCOPE_STREAM_H
#define IWARPSCOPE_STREAM_H

#include "mpa.h"
#include "qp.h"
#include "rdmap.h"
#include "stage.h"

#ifdef __cplusplus
extern "C" {
#endif

struct iws_nvme_cmd;
struct iws_nvme_note;
struct iws_nvme_conn;
struct iws_rpc;
struct iws_rpc_conn;
struct iws_doctor;
struct iws_doctor_sink;
struct iws_smb;
struct iws_smb_conn;

struct iws_stream_opts {
	bool check_crc;             /* verify negotiated (or inferred) CRCs */
	bool want_spans;            /* report iws_span for every captured octet (plugin) */
	/* Initiator when neither a Request nor a SYN says: 0 or 1, or
	 * IWS_INIT_SIDE_AUTO: the engine decides (iws_stream_init_evidence). */
	int guess_init_side;
	/* The TCP port each side sends from (0: not known): without a
	 * handshake or a SYN, the side listening on a well-known iWARP or
	 * upper-layer port (names.h IWS_LISTEN_PORTS), else the side whose port
	 * is not ephemeral, was connected to. */
	uint16_t port[2];
};

#define IWS_INIT_SIDE_AUTO (-1)

/* What decided the initiator (docs/semantics.md), best evidence first. */
enum iws_init_evidence {
	IWS_INIT_BY_MPA = 0,        /* the MPA Request's sender (or the Reply's peer) */
	IWS_INIT_BY_SYN,            /* the SYN's sender (or the SYN+ACK's peer) */
	IWS_INIT_BY_LISTEN_PORT,    /* the peer of the side on a well-known listening port */
	IWS_INIT_BY_EPHEMERAL_PORT, /* the side on an ephemeral port, its peer's is not */
	IWS_INIT_BY_FIRST_SEGMENT,  /* the sender of the first segment captured */
	IWS_INIT_BY_CALLER,         /* the front end said (guess_init_side) */
	IWS_INIT_BY_COUNT
};
/* Its contract name ("mpa", "syn", "listen_port", "ephemeral_port",
 * "first_segment", "given"): iws_init_evidence_name, names.h. */

/* ---- what the engine reports ---- */

enum iws_pdu_kind {
	IWS_PDU_MPA_FRAME = 1,      /* MPA Request or Reply */
	IWS_PDU_FPDU = 2,
};

/*
 * One complete PDU, in stream order per direction and, across the two
 * directions, in the order the engine could report them (settle_frame):
 * the order of the frames that completed them, but for a PDU cut by a hole
 * that proved a capture gap, or by its sender's FIN, and the PDUs behind
 * such a hole, which belong to the frames that carried them and are
 * reported when the hole is settled (docs/semantics.md).
 */
struct iws_pdu {
	enum iws_pdu_kind kind;
	int side;                   /* sender's side */
	uint8_t dir;                /* IWS_DIR_* of the sender */
	uint32_t seq;               /* TCP sequence number of its first octet */
	uint32_t len;               /* octets on the wire (markers included) */
	const uint8_t *wire;        /* its len octets (uncaptured ones read as zero);
				     * valid during the callback only */
	uint32_t first_hole;        /* offset of the first uncaptured octet (len: none) */
	/* Frames (docs/semantics.md): the earliest frame that carried any of its
	 * octets (its first transmission as captured), the frame in which its
	 * last octet was first captured, and the frame in which in-order
	 * reassembly completed it (its last missing octet arrived). */
	uint64_t first_frame, arrived_frame, frame;
	int64_t first_ts, arrived_ts, ts;
	/* The frame being read when the engine reported it: frame, or later
	 * when the PDU waited (the other direction hunted for boundaries) or
	 * was settled late (a hole in it or before it proved a capture gap;
	 * a FIN cut it). PDUs reach the sink in settle_frame order. */
	uint64_t settle_frame;
	bool gap_before;            /* octets of this direction were lost just before it */
	uint32_t retrans;           /* retransmitted segments that carried its octets */
	uint64_t retrans_first_frame, retrans_last_frame; /* those that carried its first /
						       * last octet, if any (else 0) */
	uint32_t reordered;         /* reordered segments (first transmissions that came
				     * after later octets) that carried its octets */
	uint64_t reord_first_frame, reord_last_frame;     /* ... its first / last octet */
	/* kind == IWS_PDU_MPA_FRAME */
	const struct iws_mpa_frame *mpa;
	/* kind == IWS_PDU_FPDU */
	const struct iws_mpa_dir *mdir;     /* framing in force (markers, CRC) */
	const struct iws_fpdu *fpdu;        /* framing, markers, CRC */
	const struct iws_msg *msg;          /* NULL when the ULPDU did not decode */
	const char *why;                    /* ... and why */
	bool truncated;                     /* some of its octets were not captured */
	bool unfinished;                    /* ... because the stream ended inside it */
	const struct iws_seg_note *note;    /* the tracker's conclusions (msg != NULL) */
	/* (the NVMe stage's note on it: iws_stream_nvme_note, during the callback) */
};

/*
 * A PDU's numbers in a compact record (core/brief.c), for a front end that
 * keeps one per PDU of a whole capture (the plugin: each frame shows its
 * PDUs again on every pass): what framing and the tracker concluded about
 * it, without its octets (a front end keeps those where it can show them
 * from) or the retransmission detail (its frames' own). Frames are 32-bit,
 * as in struct iws_op_brief.
 */
struct iws_pdu_brief {
	uint8_t kind;               /* enum iws_pdu_kind */
	uint8_t side, dir;
	bool gap_before;            /* octets of this direction were lost just before it */
	bool truncated;             /* FPDU: octets of it were not captured */
	bool has_msg;               /* FPDU: the ULPDU decoded (and went to the tracker) */
	uint8_t crc_status;         /* FPDU: enum iws_crc_status */
	uint32_t seq, len;          /* TCP sequence number of its first octet, wire length */
	uint32_t captured;          /* its first octets that were captured (first_hole) */
	uint32_t frame;             /* the frame in-order reassembly completed it in */
	uint32_t first_frame;       /* earliest frame that carried any of its octets */
	uint32_t arrived_frame;     /* frame in which its last octet was first captured */
	uint32_t crc_calc;          /* FPDU: the CRC32c computed */
	struct iws_mpa_dir mdir;    /* FPDU: framing in force */
	struct iws_seg_note note;   /* FPDU with has_msg: the tracker's conclusions */
};

/* The brief of p. */
void iws_pdu_brief_of(const struct iws_pdu *p, struct iws_pdu_brief *b);

/*
 * What became of captured octets that are not (only) the PDU of the frame
 * that carried them. Reported only with opts.want_spans, one span per frame
 * and kind, so a front end can show every frame's octets.
 */
enum iws_span_kind {
	IWS_SPAN_PART = 1,          /* part of a PDU completed in pdu_frame */
	IWS_SPAN_RETRANS,           /* already delivered: a retransmission or duplicate */
	IWS_SPAN_PRESYNC,           /* passed over before the first PDU boundary was found */
	IWS_SPAN_AFTER_GAP,         /* passed over after a loss, before framing was found again */
	IWS_SPAN_AFTER_REJECT,      /* after a rejected MPA Reply */
	IWS_SPAN_NOT_IWARP,         /* the stream was found not to be iWARP */
	IWS_SPAN_LIMIT,             /* dropped: a memory limit */
};

struct iws_span {
	enum iws_span_kind kind;
	int side;
	uint8_t dir;
	uint32_t seq, len;
	uint64_t frame;             /* the frame that carried these octets */
	uint64_t pdu_frame;         /* IWS_SPAN_PART: where its PDU was completed */
	uint32_t pdu_seq;           /* IWS_SPAN_PART: the PDU's first octet */
};

/* Things a post-mortem wants to know about, with where they happened. */
enum iws_stream_event_kind {
	IWS_SEV_HANDSHAKE = 1,      /* full operation after a captured handshake */
	IWS_SEV_REJECTED,           /* Reply with R set */
	IWS_SEV_INFERRED,           /* full operation found without (part of) the handshake */
	IWS_SEV_GAP,                /* octets never captured: seq, len */
	IWS_SEV_FRAMING_LOST,       /* FPDU boundaries lost (a length field fell into a gap,
				     * or made no sense) */
	IWS_SEV_FRAMING_FOUND,      /* boundaries found again (or for the first time) */
	IWS_SEV_NOT_IWARP,          /* a direction was given up as not iWARP */
	IWS_SEV_MARKERS_NONSTANDARD,/* the sender's markers do not follow RFC 5044 §4.2 */
	IWS_SEV_LIMIT,              /* a memory limit dropped octets */
	IWS_SEV_FIN,                /* the side closed its direction */
	IWS_SEV_RST,                /* the side reset the connection */
	/* TCP behaviour (docs/semantics.md), one event per segment and kind,
	 * as the counters of struct iws_stream_counts move: reported at the end
	 * of the iws_stream_segment call that fed the segment (after the PDUs,
	 * operations and other events it made known), in this order; side, dir:
	 * the segment's sender; seq, len: the segment's (wire_len). */
	IWS_SEV_FAST_RETRANSMIT,    /* a retransmission after 3 duplicate ACKs (fast_retransmits) */
	IWS_SEV_TIMEOUT,            /* a retransmission after a silence of the RTO (timeouts) */
	IWS_SEV_OTHER_RETRANSMIT,   /* another retransmission (other_retransmits) */
	IWS_SEV_REORDERED,          /* a first transmission after later octets (reordered) */
	IWS_SEV_ZERO_WINDOW,        /* the segment advertised a window of 0 (zero_windows) */
	IWS_SEV_DUPLICATE_ACK,      /* the segment is a duplicate ACK (duplicate_acks) */
	IWS_SEV_KEEPALIVE,          /* the segment is a keep-alive probe (keepalives) */
};

/* A segment's TCP behaviour events as one mask: the bit of each kind above
 * from IWS_SEV_FAST_RETRANSMIT on, 0 for the other kinds. The values are the
 * plugin's iwarp.rdmap.tcp_event (a field contract, docs/plugin.md). */
#define IWS_SEV_BIT(kind)                                                  \
	((kind) == IWS_SEV_FAST_RETRANSMIT ? 0x01u :                           \
	 (kind) == IWS_SEV_TIMEOUT ? 0x02u :                                   \
	 (kind) == IWS_SEV_ZERO_WINDOW ? 0x04u :                               \
	 (kind) == IWS_SEV_DUPLICATE_ACK ? 0x08u :                             \
	 (kind) == IWS_SEV_OTHER_RETRANSMIT ? 0x10u :                          \
	 (kind) == IWS_SEV_REORDERED ? 0x20u :                                 \
	 (kind) == IWS_SEV_KEEPALIVE ? 0x40u : 0u)

/* IWS_SEV_MARKERS_NONSTANDARD details (a mask). */
#define IWS_MARKER_DEV_LE_FPDUPTR 0x1   /* FPDUPTR carried least significant octet first */
#define IWS_MARKER_DEV_SKIP_CRC   0x2   /* the marker grid does not count CRC octets */
#define IWS_MARKER_DEV_OFFSET     0x4   /* the grid is offset from SeqStart */

struct iws_stream_event {
	enum iws_stream_event_kind kind;
	int side;
	uint8_t dir;
	uint32_t seq, len;
	uint64_t frame;             /* the frame that revealed it */
	int64_t ts;
	uint64_t prev_frame;        /* IWS_SEV_GAP: the frame of the octets just before it */
	uint32_t detail;            /* IWS_MARKER_DEV_*; FIN, RST: operations outstanding */
};

/*
 * How the connection ended (docs/semantics.md, teardown): each side's first
 * FIN and first RST (as IWS_SEV_FIN / IWS_SEV_RST report them) and every
 * Terminate (its operation's dir, last_frame and end_ns), in the order they
 * became known, the first IWS_STREAM_MAX_CLOSES of them, each with the
 * operations in flight (not complete) at that moment: how many, and the
 * ids of the first IWS_STREAM_CLOSE_IDS of them, oldest first (nids 0
 * when memory was short). The sink's close callback gets each record as it
 * is made (a FIN's or RST's before its event, a Terminate's before its
 * operation); ids are valid during the callback only. The engine keeps none.
 */
enum iws_close_kind { IWS_CLOSE_FIN = 1, IWS_CLOSE_RST, IWS_CLOSE_TERMINATE };

#define IWS_STREAM_MAX_CLOSES 8
#define IWS_STREAM_CLOSE_IDS 1024

struct iws_close {
	uint8_t kind;               /* enum iws_close_kind */
	uint8_t dir;                /* IWS_DIR_* of its sender */
	uint64_t frame;
	int64_t ts;
	uint32_t outstanding;       /* operations in flight then */
	uint32_t nids;              /* ids[0, nids): the first of them, oldest first */
	const uint64_t *ids;
};

struct iws_stream_sink {
	void (*pdu)(void *ctx, const struct iws_pdu *pdu);
	void (*op)(void *ctx, const struct iws_op *op);
	void (*span)(void *ctx, const struct iws_span *span);           /* may be NULL */
	void (*event)(void *ctx, const struct iws_stream_event *ev);    /* may be NULL */
	void (*close)(void *ctx, const struct iws_close *c);            /* may be NULL */
};

/*
 * Frame and decode one FPDU as the engine does, for a front end that shows
 * it again from the octets: wire[0, len) is the FPDU at TCP sequence number
 * seq, of which the octets from first_hole on were not captured and read as
 * zero (first_hole == len: all captured). Then the CRC is unverifiable, a
 * marker that was not captured is taken to be what its position implies,
 * and the segment is decoded from its DDP header if that was captured.
 * scratch: 65535 octets when d->markers (the marker-free ULPDU), else NULL.
 * Returns the framing's result (OK when len is the FPDU's length);
 * *msg_res says whether msg was decoded.
 */
struct iws_result iws_fpdu_decode(const uint8_t *wire, uint32_t len, uint32_t first_hole, uint32_t seq,
				  const struct iws_mpa_dir *d, bool check_crc, uint8_t *scratch,
				  struct iws_fpdu *f, struct iws_msg *msg, struct iws_result *msg_res);


/* ---- state and counters, for reports ---- */

enum iws_stream_state {
	IWS_SST_NONE = 0,           /* nothing known yet */
	IWS_SST_REQUEST,            /* Request seen, Reply pending */
	IWS_SST_FULL,               /* full operation after a captured handshake */
	IWS_SST_REJECTED,           /* Reply with R set: no FPDUs follow */
	IWS_SST_INFERRED,           /* full operation found without the handshake */
	IWS_SST_NOT_IWARP,          /* both directions given up */
};


struct iws_stream;

/* NULL on allocation failure. lim may be shared by many engines; sink and
 * lim must outlive the engine. */
struct iws_stream *iws_stream_new(const struct iws_stream_opts *o, struct iws_stream_limits *lim,
				  const struct iws_stream_sink *sink, void *ctx);

/* Feed one segment sent by `side`. */
void iws_stream_segment(struct iws_stream *s, int side, const struct iws_tcp_seg *seg);

/*
 * The connection or the capture ended: deliver what is buffered (holes
 * become gaps), then report every operation still in flight with flag
 * (IWS_OPF_UNFINISHED or IWS_OPF_ABORTED). Buffers are released; state and
 * counters stay readable. Feeding after this is ignored.
 */
void iws_stream_finish(struct iws_stream *s, uint32_t flag);

/* Both directions have ended (FIN reached in order, or not iWARP): nothing
 * more can be learnt, the front end may finish the engine. */
bool iws_stream_done(const struct iws_stream *s);

void iws_stream_free(struct iws_stream *s);

enum iws_stream_state iws_stream_state(const struct iws_stream *s);
bool iws_stream_is_iwarp(const struct iws_stream *s);
/* Negotiated (or inferred) parameters; dir[] indexed by IWS_DIR_*. */
const struct iws_mpa_conn *iws_stream_mpa(const struct iws_stream *s);
/* Side of the initiator, and what decided it. */
int iws_stream_init_side(const struct iws_stream *s);
enum iws_init_evidence iws_stream_init_evidence(const struct iws_stream *s);
/* The framing side's FPDUs follow (markers, their base, CRC), NULL while
 * it is not known. */
const struct iws_mpa_dir *iws_stream_framing(const struct iws_stream *s, int side);
const struct iws_stream_counts *iws_stream_counts(const struct iws_stream *s, int side);
/* The tracker's counters (zeros before the first FPDU). */
/* Ids of the operations in flight (not complete), oldest first: up to max
 * of them in ids (may be NULL with max 0); returns how many there are. */
uint32_t iws_stream_inflight_ids(const struct iws_stream *s, uint64_t *ids, uint32_t max);
/* iws_tracker_outstanding_begun of the connection's tracker (0 without one). */
uint32_t iws_stream_outstanding_begun(const struct iws_stream *s);

const struct iws_tracker_counts *iws_stream_tracker_counts(const struct iws_stream *s);
/* The MPA Request / Reply as decoded (NULL if not seen). */
const struct iws_mpa_frame *iws_stream_request(const struct iws_stream *s);
const struct iws_mpa_frame *iws_stream_reply(const struct iws_stream *s);
/* Frames of the Request / Reply (0: not seen). */
uint64_t iws_stream_request_frame(const struct iws_stream *s);
uint64_t iws_stream_reply_frame(const struct iws_stream *s);
/* IWS_MARKER_DEV_* found on side's markers (0: as RFC 5044 says). */
uint32_t iws_stream_marker_deviation(const struct iws_stream *s, int side);
/* IWS_RDMAP_DEV_* found on side's RDMAP messages (qp.h; 0: as RFC 5040 says):
 * a sender that writes its Read Request fields little-endian. */
uint32_t iws_stream_rdmap_deviation(const struct iws_stream *s, int side);


/*
 * The NVMe stage (nvme.h, "one connection"), off unless this is called
 * before the first segment: every PDU (before the sink sees it), event
 * (after the sink) and the end go to an iws_nvme_conn created with the
 * first PDU (default limits, qp as its qp); its commands reach cmd(ctx,
 * ...) with the sink's ctx (cmd may be NULL), each FPDU's note
 * iws_stream_nvme_note. A connection found not to be NVMe costs nothing
 * more.
 */
void iws_stream_nvme_stage(struct iws_stream *s, uint32_t qp,
			   void (*cmd)(void *ctx, const struct iws_nvme_cmd *cmd));

/* During sink.pdu: the NVMe stage's note on that PDU when it is an FPDU
 * that decoded (msg != NULL), as iws_nvme_conn_note says right after it
 * was fed; NULL otherwise (no stage, not NVMe, outside the callback). */
const struct iws_nvme_note *iws_stream_nvme_note(const struct iws_stream *s);

/* The NVMe stage's view of the connection: NULL when the stage
 * is off, before the first PDU, or once the connection was found not to
 * be NVMe (iws_nvme_conn_state IWS_NVME_NO). Its state, tracker and
 * pending commands are read with the iws_nvme_conn_* functions; it stays
 * readable after iws_stream_finish, until iws_stream_free. */
const struct iws_nvme_conn *iws_stream_nvme(const struct iws_stream *s);

/*
 * The RPC-over-RDMA stage (rpcrdma.h, "one connection"), off unless this
 * is called before the first segment: as the NVMe stage, every PDU (with
 * the operation tracker's note), event and the end go to an iws_rpc_conn
 * created with the first PDU; its RPCs reach rpc(ctx, ...) with the sink's
 * ctx. A connection found not to carry RPC-over-RDMA costs nothing more.
 */
void iws_stream_rpc_stage(struct iws_stream *s, uint32_t qp,
			  void (*rpc)(void *ctx, const struct iws_rpc *r));
/* Its view (NULL: stage off, before the first PDU, or not RPC-over-RDMA);
 * readable until iws_stream_free. */
const struct iws_rpc_conn *iws_stream_rpc(const struct iws_stream *s);

/*
 * The doctor stage (doctor.h), off unless this is called before the first
 * segment: the engine creates the doctor and feeds it itself (each segment
 * before reading it; each PDU, operation and event just before the sink is
 * given it; the end once finished); sink (may be NULL) is told each
 * occurrence with ctx; keep (may be NULL) is iws_doctor_keep's filter, with
 * keep_ctx. false when memory is short (the stage stays off) or too late.
 */
bool iws_stream_doctor_stage(struct iws_stream *s, const struct iws_doctor_sink *sink, void *ctx,
			     bool (*keep)(void *keep_ctx, uint64_t frame), void *keep_ctx);
/* Its doctor, for the findings (iws_doctor_sums, iws_doctor_unchecked);
 * NULL when the stage is off. Readable until iws_stream_free. */
const struct iws_doctor *iws_stream_doctor(const struct iws_stream *s);

/*
 * The SMB Direct stage (smbd.h, "the SMB Direct tracker"), off unless this
 * is called before the first segment: as the RPC stage, every PDU, event
 * and the end go to an iws_smb_conn created with the first PDU; its SMB2
 * requests reach smb(ctx, ...) with the sink's ctx. A connection found not
 * to carry SMB Direct costs nothing more.
 */
void iws_stream_smb_stage(struct iws_stream *s, uint32_t qp, void (*smb)(void *ctx, const struct iws_smb *m));
/* Its view (NULL: stage off, before the first PDU, or not SMB Direct);
 * readable until iws_stream_free. */
const struct iws_smb_conn *iws_stream_smb(const struct iws_stream *s);

/* Octets the engine holds (out of order, being framed or hunted through,
 * PDUs held for order); 0 once finished. */
uint64_t iws_stream_buffered(const struct iws_stream *s);

/*
 * The earliest (first_ts, first_frame) at which an operation not yet
 * started in the tracker may turn out to have started: octets buffered
 * (out of order, being hunted through, an FPDU not yet complete, FPDUs held
 * for order). false when nothing is buffered. For output in start order.
 */
bool iws_stream_pending(const struct iws_stream *s, int64_t *ts, uint64_t *frame);
/* As iws_tracker_oldest_unreported, for the stream's tracker (false before
 * it exists and once the stream is finished). */
bool iws_stream_oldest_unreported(const struct iws_stream *s, int64_t *start_ns, uint64_t *first_frame);

#ifdef __cplusplus
}
#endif
#endif
