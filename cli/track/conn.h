// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * conn.h - what the CLI keeps about one TCP connection (one QP when it
 * carries iWARP). Every decision about its octets is the core stream
 * engine's (iwarpscope/stream.h: TCP reassembly, MPA framing, the operation
 * tracker); this file feeds it and keeps what the reports need:
 *
 *   segments -> iws_stream -> pdu / op / event callbacks -> env->op / env->fpdu,
 *                                                           statistics, records
 *
 * The engine's buffers are released when the connection ends; its state and
 * counters, and the statistics, stay for the report.
 */
#ifndef IWS_CLI_CONN_H
#define IWS_CLI_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "flows.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stats.h"
#include "iwarpscope/stream.h"
#include "iwarpscope/tcpopt.h"
#include "netdecode.h"
#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/smbd.h"
#include "select.h"

struct conn;
struct conn_nvme;               /* nvme_track.h */

/* A TCP event a consumer may want to place in time (the report's
 * timeline), as the engine reported it. */
struct conn_mark {
	/* IWS_SEV_FAST_RETRANSMIT, IWS_SEV_TIMEOUT, IWS_SEV_OTHER_RETRANSMIT,
	 * IWS_SEV_ZERO_WINDOW or IWS_SEV_GAP */
	enum iws_stream_event_kind kind;
	uint8_t dir;                /* IWS_DIR_* of the segment's sender (gap: the lost octets') */
	uint64_t frame;
	int64_t ts;
	uint32_t seq, len;          /* IWS_SEV_GAP */
};

/* One TCP segment of a connection as it was read, for consumers that count
 * what crossed the wire (the report's and the time series' throughput). */
struct conn_seg {
	int side;                   /* flow side of its sender (conn_init_side: the initiator's) */
	uint64_t frame;
	int64_t ts;
	uint32_t seq, ack;
	uint32_t wire_len;          /* TCP payload octets on the wire (tcp.len) */
	uint8_t flags;              /* IWS_TCP_* */
	bool retransmission;        /* the engine counted it as one (fast or after a timeout) */
	/* from its header and options, for the report's time-sequence view */
	uint16_t win;               /* the window field as carried (not scaled) */
	int8_t wscale;              /* a window scale option's shift count, -1: none (RFC 7323 §2) */
	uint8_t nsack;              /* SACK blocks [sack_l, sack_r) (RFC 2018 §3) */
	uint32_t sack_l[IWS_TCP_SACK_MAX], sack_r[IWS_TCP_SACK_MAX];
};

/* What every connection shares: limits, options and the consumers. */
struct conn_env {
	struct iws_stream_limits lim;
	bool check_crc;
	bool track_order;           /* pending keys count the operations not yet reported */
	void *ctx;
	void (*op)(void *ctx, struct conn *c, const struct iws_op *op);
	void (*fpdu)(void *ctx, struct conn *c, const struct iws_pdu *pdu);
	void (*mark)(void *ctx, struct conn *c, const struct conn_mark *m); /* may be NULL */
	/* Every TCP segment, after the engine saw it (also once the connection
	 * ended, and before it is known to carry iWARP); may be NULL. */
	void (*segment)(void *ctx, struct conn *c, const struct conn_seg *s);
	/* Does the report cover this operation (op_type: enum iws_op_type) or
	 * NVMe command (op_type -1) starting at start_ns (select.h)? Those it
	 * does not are neither counted nor passed on. NULL: all of them. */
	bool (*selected)(void *ctx, const struct conn *c, int op_type, int64_t start_ns,
			 int64_t end_ns);
	/* A time window (--since, --until; select.h): is ts inside it? NULL:
	 * no window. With one, the counters (conn_counts but rst and fin, the
	 * statistics) count only the frames and FPDUs inside it, and win holds
	 * its resolved bounds once the first frame asked (docs/semantics.md,
	 * "Time window"). */
	bool (*in_window)(void *ctx, int64_t ts);
	const struct select *win;
	struct iws_qp_stats *total; /* statistics over every QP */
	bool include_rtr;           /* statistics count RTR messages */
	/* NVMe over Fabrics: the engine's NVMe stage (stream.h, iws_stream_nvme_stage) */
	bool nvme;                  /* recognise NVMe/RDMA and track its commands */
	/* What is kept of each of its commands, and freeing it (analysis.c
	 * sets nvme_track.h's conn_nvme_cmd and conn_nvme_free): conn.c does
	 * not call into nvme_track.c, which reads the connection. */
	void (*nvme_keep)(struct conn *c, const struct iws_nvme_cmd *cmd);
	void (*nvme_release)(struct conn *c);
	/* with a time window (and nvme), an FPDU outside it: its command's
	 * octets it carries do not count (nvme_track.h, conn_nvme_outside) */
	void (*nvme_outside)(struct conn *c, const struct iws_pdu *pdu);
	bool track_nvme_order;      /* keep what nvme output in start order needs */
	void (*nvme_cmd)(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd);
	struct iws_nvme_stats *nvme_total; /* over every QP */
	/* RPC over RDMA: the engine's RPC stage (stream.h, iws_stream_rpc_stage),
	 * its RPCs in call order through the pending keys */
	bool rpc;
	void (*rpc_call)(void *ctx, struct conn *c, const struct iws_rpc *r);
	struct iws_rpc_stats *rpc_total; /* per procedure over every QP (NULL: not kept) */
	/* SMB Direct: the engine's SMB stage (iws_stream_smb_stage), its SMB2
	 * requests in request order through the pending keys */
	bool smb;
	void (*smb_call)(void *ctx, struct conn *c, const struct iws_smb *m);
	bool doctor;                /* run the interop doctor (iwarpscope/doctor.h) */
};

struct gap_rec {
	uint8_t dir;                /* IWS_DIR_* */
	uint32_t seq, len;
	uint64_t prev_frame;        /* frame of the octets just before it */
	uint64_t seen_frame;        /* frame being read when it was declared */
};

#define CONN_MAX_GAP_RECS 64

/* A Terminate (RFC 5040 §4.8), kept for the report. */
struct term_rec {
	uint8_t dir;                /* IWS_DIR_* of its sender */
	uint8_t layer, etype, errcode;
	uint64_t frame;
};

#define CONN_MAX_TERM_RECS 4

/* How the QP ended (docs/semantics.md, teardown) is the engine's close
 * records (the sink's close, struct iws_close: enum iws_close_kind).
 * Their kinds as "fin", "rst", "terminate" (JSON) and "FIN", "RST",
 * "Terminate" (text); "?" for anything else. */
const char *close_kind_name(uint8_t kind);
const char *close_kind_title(uint8_t kind);
/* A direction's name: "i2r" (IWS_DIR_I2R) or "r2i". */
const char *conn_dir_name(uint8_t dir);

struct conn_counts {
	uint64_t packets;
	uint64_t payload_bytes[2];  /* TCP payload on the wire, by side */
	uint64_t captured_bytes[2]; /* ... of it captured (the rest cut by the snapshot length) */
	uint64_t data_frame;        /* the first frame with payload (0: none) */
	uint64_t gave_up_frame;     /* the frame at which the engine found no iWARP (0: it did not) */
	uint64_t chain_lost_frame;  /* the last frame at which a chain of FPDUs broke (0: none) */
	uint64_t rst, fin;
	uint64_t ops, ops_incomplete, op_bytes;
	uint64_t terminates;
	uint64_t crc_errors;        /* FPDUs with a bad CRC */
	uint64_t crc_checked;
	uint64_t rtr;
	uint64_t segments;          /* DDP segments fed to the tracker */
	uint64_t fpdus;             /* FPDUs (inside the window: conn_fpdus) */
};

/* The engine's TCP counters of both directions counted inside a time
 * window (from its events; CONN_TCP). */
struct conn_tcp_counts {
	uint64_t fast_retransmits, timeouts, other_retransmits, reordered;
	uint64_t duplicate_acks, zero_windows, keepalives;
	uint64_t gaps, gap_bytes;
};

/* With a time window: a run of the connection's frames inside it, first to
 * last in frame numbers (one run while the capture's times rise). */
struct frame_run {
	uint64_t first, last;
};

enum conn_state { CONN_ACTIVE = 0, CONN_CLOSED };

/*
 * Kept small: a capture can hold many connections at once (--max-flows).
 * What only some connections need (Terminate records, gap records, the
 * statistics) is allocated when needed.
 */
struct conn {
	struct conn_env *env;
	uint32_t stream;            /* tcp.stream: the CLI's qp */
	uint32_t index;             /* position in the analysis' active list */
	uint32_t slot;              /* position in the analysis' list of all */
	uint8_t state;              /* enum conn_state */
	bool any_fpdu;
	bool any_packet;
	bool evicted;               /* given up by the connection limit */
	uint8_t lru_list;           /* which recency list it is on (analysis.c) */
	struct endpoint ep[2];
	struct flow *flow;          /* its conversation (NULL once that is replaced) */
	struct iws_stream *eng;     /* the core's stream engine */
	struct iws_qp_stats *stats; /* allocated with the first operation */
	struct conn_counts c;
	struct conn_tcp_counts wtcp; /* with a time window (conn_env) */
	uint64_t first_frame, last_frame;
	int64_t first_ns, last_ns;
	/* with a time window: its first and last frame inside it (c.packets
	 * of them; conn_frames) */
	uint64_t win_first_frame, win_last_frame;
	int64_t win_first_ns, win_last_ns;
	/* with a time window: its frames inside it (the doctor counts the
	 * findings shown in them), the engine's counters changed while a frame
	 * inside was fed (CONN_SUM) */
	struct frame_run *wruns;
	uint32_t nwruns, capwruns;
	bool wprev_in;              /* its previous frame was inside */
	struct iws_stream_counts *wsum;
	struct iws_tracker_counts *wtrk; /* its counts, its state the tracker's (conn_tracker_counts) */
	int64_t first_fpdu_ns, last_fpdu_ns;
	struct gap_rec *gaps;       /* the first CONN_MAX_GAP_RECS gaps */
	uint32_t ngaps, capgaps;
	struct term_rec *terms;     /* the first CONN_MAX_TERM_RECS Terminates */
	uint32_t nterms;
	struct iws_close *closes;   /* the engine's close records (sink close), ids copied */
	uint32_t ncloses;
	bool seg_retrans;           /* the segment being fed was a retransmission */
	struct conn_nvme *nvme;     /* NVMe view (nvme_track.h), from the first command (env->nvme) */
	struct conn *lru_prev, *lru_next; /* the analysis' recency lists */
};

/* The engine decides the initiator (IWS_INIT_SIDE_AUTO: a first packet
 * that is a SYN+ACK was sent by the responder). NULL on allocation failure. */
struct conn *conn_new(struct conn_env *env, const struct flow *f);

/* One TCP segment of the connection travelling from ep[side]. */
void conn_packet(struct conn *c, int side, const struct tcp_pkt *p, uint64_t frame, int64_t ts_ns);

/* The connection ended (flag IWS_OPF_ABORTED) or the capture did
 * (IWS_OPF_UNFINISHED): flush, report in-flight operations, free buffers. */
void conn_finish(struct conn *c, uint32_t flag);

void conn_free(struct conn *c);

bool conn_is_iwarp(const struct conn *c);
/* iWARP and confirmed: more than an MPA Request (a Reply, or an FPDU
 * framed). A flood of Requests never answered must not take the place of
 * confirmed QPs at --max-flows (analysis.c). */
bool conn_is_confirmed(const struct conn *c);

/* What is kept of a connection that carried no iWARP once it is freed, for
 * the "no iWARP found" report (out_silence.c), and why it is not iWARP. */
enum conn_why {
	CONN_WHY_NO_DATA = 0,       /* no payload at all */
	CONN_WHY_SLICED,            /* under a tenth of its payload captured (snapshot length) */
	CONN_WHY_GAVE_UP,           /* the engine found no handshake and no FPDU chain: gave up */
	CONN_WHY_NO_CHAIN,          /* ... still looking when the connection or capture ended */
	CONN_WHY_N
};
struct conn_brief {
	uint32_t stream;
	struct endpoint ep[2];      /* ep[0]: the first packet's source */
	uint64_t first_frame, last_frame;
	uint64_t payload_bytes, captured_bytes;
	uint64_t data_frame, gave_up_frame, chain_lost_frame;
	enum conn_why why;
};
void conn_brief(const struct conn *c, struct conn_brief *b);

/* Earliest (ts, frame) an operation of this connection still to be
 * reported can start at; false if none is pending. */
bool conn_pending_key(const struct conn *c, int64_t *ts, uint64_t *frame);

/* The QP's statistics (empty ones if it had no operation). */
const struct iws_qp_stats *conn_stats(const struct conn *c);
/* The engine's doctor stage (env->doctor), else NULL. */
const struct iws_doctor *conn_doctor(const struct conn *c);

/* The tracker's counters (zeros if there never was a tracker); with a time
 * window, those counted while its frames were fed. */
const struct iws_tracker_counts *conn_tracker_counts(const struct conn *c);

/* Flow side of the initiator. */
static inline int conn_init_side(const struct conn *c)
{
	return iws_stream_init_side(c->eng);
}

/* The engine's counters of one flow side. */
static inline const struct iws_stream_counts *conn_counts_of(const struct conn *c, int side)
{
	return iws_stream_counts(c->eng, side);
}

/* Does side's framing use markers / CRC (as negotiated or inferred)? */
static inline bool conn_markers(const struct conn *c, int side)
{
	const struct iws_mpa_dir *d = iws_stream_framing(c->eng, side);
	return d && d->markers;
}

static inline bool conn_crc(const struct conn *c)
{
	const struct iws_mpa_dir *a = iws_stream_framing(c->eng, 0), *b = iws_stream_framing(c->eng, 1);
	return (a && a->crc) || (b && b->crc);
}

/* Sum of an engine counter over both directions (of the whole capture). */
#define CONN_SUM_ALL(cn, field) (conn_counts_of((cn), 0)->field + conn_counts_of((cn), 1)->field)
/* The same, or with a time window what it counted while the frames inside
 * it were fed (docs/semantics.md, "Time window"). */
#define CONN_SUM(cn, field) ((cn)->wsum ? (cn)->wsum->field : CONN_SUM_ALL((cn), field))

/* A TCP counter (a field of conn_tcp_counts): the engine's over both
 * directions, or with a time window the count inside it. */
#define CONN_TCP(cn, field) ((cn)->env->in_window ? (cn)->wtcp.field : CONN_SUM_ALL((cn), field))

/* Its first and last frame (and their times): the connection's, or with a
 * time window those inside it (all 0 when none is). */
static inline void conn_frames(const struct conn *c, uint64_t *first, uint64_t *last,
			       int64_t *first_ns, int64_t *last_ns)
{
	bool w = c->env->in_window != NULL;
	*first = w ? c->win_first_frame : c->first_frame;
	*last = w ? c->win_last_frame : c->last_frame;
	*first_ns = w ? c->win_first_ns : c->first_ns;
	*last_ns = w ? c->win_last_ns : c->last_ns;
}

/* Its FPDUs: the engine's count, or with a time window those inside it. */
static inline uint64_t conn_fpdus(const struct conn *c)
{
	return c->env->in_window ? c->c.fpdus : CONN_SUM_ALL(c, fpdus);
}

#endif
