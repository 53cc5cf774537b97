// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * conn.h - everything the CLI knows about one TCP connection (one QP when it
 * carries iWARP): both directions' reassembly, the MPA stage, the core's
 * operation tracker and the per-QP statistics. This is where the pipeline's
 * stages are wired together for one connection:
 *
 *   reasm (per direction) -> mpa_stage -> iws_tracker -> env->op / env->fpdu
 *
 * Heavy state (buffers, tracker) is released when the connection ends; the
 * counters and statistics stay for the report.
 */
#ifndef IWS_CLI_CONN_H
#define IWS_CLI_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "flows.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stats.h"
#include "mpa_stage.h"
#include "reasm.h"

struct conn;

/* What every connection shares: limits, options and the consumers. */
struct conn_env {
	struct reasm_limits lim;
	struct stage_limits slim;
	struct iws_tracker_limits tlim;
	bool check_crc;
	bool track_order;           /* keep what ordered output needs */
	void *ctx;
	void (*op)(void *ctx, struct conn *c, const struct iws_op *op);
	void (*fpdu)(void *ctx, struct conn *c, const struct fpdu_event *ev,
		     const struct iws_seg_note *note);
	struct iws_qp_stats *total; /* statistics over every QP */
	uint64_t order_limit_hits;
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

/* What the report needs of an MPA Request or Reply. */
struct mpa_brief {
	bool enhanced_flag;         /* the S flag (RFC 6581) */
	bool has_enhanced;          /* the enhanced word was there */
	uint16_t ird, ord;
};

struct conn_counts {
	uint64_t packets;
	uint64_t payload_bytes[2];  /* TCP payload on the wire, by side */
	uint64_t rst, fin;
	uint64_t ops, ops_incomplete, op_bytes;
	uint64_t terminates;
	uint64_t crc_errors;        /* FPDUs with a bad CRC */
	uint64_t crc_checked;
	uint64_t rtr;
	uint64_t segments;          /* DDP segments fed to the tracker */
};

/* In-flight operations, for output in start order. */
struct inflight_ent {
	int64_t start_ns;
	uint64_t frame;
	bool started, done;
};

struct inflight {
	uint64_t base_id;           /* op id of ents[head] */
	uint32_t head, n, cap;
	struct inflight_ent *ents;
};

enum conn_state { CONN_ACTIVE = 0, CONN_CLOSED };

/*
 * Kept small: a capture can hold many connections at once (--max-flows).
 * What only some connections need (Terminate records, gap records, the
 * statistics, the tracker's final counters) is allocated when needed.
 */
struct conn {
	struct conn_env *env;
	uint32_t stream;            /* tcp.stream: the CLI's qp */
	uint32_t index;             /* position in the analysis' active list */
	uint32_t slot;              /* position in the analysis' list of all */
	uint8_t state;              /* enum conn_state */
	bool have_req, have_rep;
	bool any_fpdu;
	bool evicted;               /* given up by the connection limit */
	uint8_t lru_list;           /* which recency list it is on (analysis.c) */
	struct endpoint ep[2];
	struct flow *flow;          /* its conversation (NULL once that is replaced) */
	struct reasm_dir rd[2];
	struct stage st;
	struct iws_tracker *tr;
	struct iws_tracker_counts *trc; /* the tracker's counters once it is freed */
	struct iws_qp_stats *stats;     /* allocated with the first operation */
	struct conn_counts c;
	struct mpa_brief req, rep;
	uint64_t first_frame, last_frame;
	int64_t first_ns, last_ns;
	int64_t first_fpdu_ns, last_fpdu_ns;
	uint64_t cur_frame;
	struct gap_rec *gaps;       /* the first CONN_MAX_GAP_RECS gaps */
	uint32_t ngaps, capgaps;
	struct term_rec *terms;     /* the first CONN_MAX_TERM_RECS Terminates */
	uint32_t nterms;
	struct inflight inflight;
	struct conn *lru_prev, *lru_next; /* the analysis' recency lists */
};

/* syn_ack: the first packet was a SYN+ACK (its sender is the responder). */
struct conn *conn_new(struct conn_env *env, const struct flow *f, bool first_is_synack);

/* One TCP segment of the connection travelling from ep[side]. */
void conn_packet(struct conn *c, int side, const struct tcp_pkt *p, uint64_t frame, int64_t ts_ns);

/* The connection ended (flag IWS_OPF_ABORTED) or the capture did
 * (IWS_OPF_UNFINISHED): flush, report in-flight operations, free buffers. */
void conn_finish(struct conn *c, uint32_t flag);

void conn_free(struct conn *c);

bool conn_is_iwarp(const struct conn *c);

/* Earliest (ts, frame) an operation of this connection still to be
 * reported can start at; false if none is pending. */
bool conn_pending_key(const struct conn *c, int64_t *ts, uint64_t *frame);

/* The QP's statistics (empty ones if it had no operation). */
const struct iws_qp_stats *conn_stats(const struct conn *c);

/* The tracker's counters (zeros if there never was a tracker). */
const struct iws_tracker_counts *conn_tracker_counts(const struct conn *c);

/* Flow side of the initiator. */
static inline int conn_init_side(const struct conn *c)
{
	return c->st.init_side;
}

/* Sum of a reassembly counter over both directions. */
#define CONN_RSUM(cn, field) ((cn)->rd[0].c.field + (cn)->rd[1].c.field)
#define CONN_SSUM(cn, field) ((cn)->st.d[0].c.field + (cn)->st.d[1].c.field)

#endif
