// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis.h - the tracking driver: each packet from the source is decoded
 * (netdecode), assigned to its TCP conversation (flows) and handed to that
 * connection's tracking (conn). Consumers receive operations and FPDUs
 * through the callbacks in analysis_opts.
 */
#ifndef IWS_CLI_ANALYSIS_H
#define IWS_CLI_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "conn.h"
#include "flows.h"
#include "nvme_track.h"
#include "select.h"
#include "source.h"

struct analysis_opts {
	bool check_crc;
	bool track_order;           /* ordered ops output needs pending keys */
	uint64_t max_ooo_dir;       /* out-of-order octets per direction */
	uint64_t max_ooo_total;     /* ... over all connections */
	uint32_t max_inflight;      /* operations in flight per QP */
	uint64_t max_reasm;         /* FPDU reassembly and hunting buffers, all connections */
	uint32_t max_flows;         /* connections analysed at once */
	bool include_rtr;           /* statistics count RTR messages */
	void *ctx;
	void (*op)(void *ctx, struct conn *c, const struct iws_op *op);
	void (*fpdu)(void *ctx, struct conn *c, const struct iws_pdu *pdu);
	bool nvme;                  /* recognise NVMe/RDMA, track its commands (nvme_track.h) */
	bool track_nvme_order;      /* nvme output in start order needs pending keys */
	void (*nvme_cmd)(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd);
	bool rpc;                   /* recognise RPC-over-RDMA, track its RPCs (rpcrdma.h) */
	bool rpc_stats;             /* ... and count them per procedure (rpc_total) */
	void (*rpc_call)(void *ctx, struct conn *c, const struct iws_rpc *r);
	bool smb;                   /* recognise SMB Direct, track its SMB2 requests (smbd.h) */
	void (*smb_call)(void *ctx, struct conn *c, const struct iws_smb *m);
	void (*mark)(void *ctx, struct conn *c, const struct conn_mark *m); /* may be NULL */
	void (*segment)(void *ctx, struct conn *c, const struct conn_seg *s); /* may be NULL */
	/* What the report covers (select.h; NULL: everything); see conn_env. */
	const struct select *sel;
	bool (*selected)(void *ctx, const struct conn *c, int op_type, int64_t start_ns,
			 int64_t end_ns);
	bool (*in_window)(void *ctx, int64_t ts); /* NULL: no time window (conn_env) */
	bool doctor;                /* run the interop doctor on every connection (conn.h) */
};

/* Connections without iWARP remembered one by one. */
#define ANALYSIS_BRIEFS 16

struct analysis_counts {
	uint64_t frames;            /* records analysed (after the filter) */
	uint64_t tcp;               /* TCP segments */
	uint64_t not_tcp;
	uint64_t fragments;         /* IP fragments (skipped) */
	uint64_t truncated;         /* headers cut by the snapshot length */
	uint64_t malformed;         /* headers that cannot be right */
	uint64_t unknown_link;      /* link types not decoded */
	int unknown_dlt;            /* the first such link type */
	uint64_t snap_cut;          /* TCP segments whose payload the snapshot length cut */
	uint64_t snap_cut_bytes;    /* ... octets of payload missing */
	uint64_t tcp_conns;         /* TCP conversations */
	uint64_t iwarp_conns;
	uint64_t limit_dropped;     /* --max-flows: connections without iWARP given up */
	uint64_t limit_finished;    /* ... ending iWARP connections finished early */
	uint64_t limit_skipped;     /* ... new connections not analysed */
	uint64_t limit_skipped_packets; /* packets of connections given up or not analysed */
	const char *first_damage;   /* reason of the first damaged packet */
	uint64_t first_damage_frame;
	/* With a time window (conn_env): the frames analysed inside it and
	 * their octets on the wire (what tshark's io,stat counts). */
	uint64_t win_frames, win_bytes;
};

/* Open connections by recency, per class (see make_room in analysis.c). */
enum { LRU_OTHER = 0, LRU_ENDING, LRU_IWARP, LRU_N };

struct conn_lru {
	struct conn *head, *tail;   /* most and least recently active */
	uint32_t n;
};

struct analysis {
	struct flow_table flows;
	struct conn_env env;
	struct iws_qp_stats total;
	struct iws_nvme_stats nvme_total;
	struct iws_rpc_stats rpc_total; /* RPCs per (program, version, procedure), opts.rpc_stats */
	struct conn **conns;        /* by creation (= stream) order; NULL once freed */
	uint32_t nconns, capconns;
	struct conn **active;       /* connections still open */
	uint32_t nactive, capactive;
	struct conn_lru lru[LRU_N];
	uint32_t max_flows;
	const struct select *sel;   /* the QPs reported (NULL: all) */
	struct analysis_counts c;
	/* Connections without iWARP (freed as they end): the first few, and
	 * how many for each reason (conn.h). */
	struct conn_brief briefs[ANALYSIS_BRIEFS];
	uint32_t nbriefs;
	uint64_t not_iwarp[CONN_WHY_N];
	uint64_t cur_frame;
	int64_t cur_ts;
	bool finished;
	/* -j N (cli/cmd/jobs.c): a worker sees only some conversations, so the
	 * reader, which sees them all, numbers them (tcp.stream) and the worker
	 * takes in_stream for the conversation a packet starts. */
	bool ext_stream;
	bool in_new;                /* the packet starts a conversation (the reader's word) */
	uint32_t in_stream;
	bool stream_mismatch;       /* ... but this analysis saw otherwise */
	/* -j N: the frames at which connections opened and closed (closing at
	 * the end of the input not included), for analysis_adopt to replay
	 * --max-flows over all workers; life_lost: memory ran out for them */
	struct life_event {
		uint64_t frame;
		uint8_t kind;           /* LIFE_* */
	} *life;
	uint32_t nlife, caplife;
	bool life_lost;
};

/* At one frame: a connection ended by port reuse (before the new one opens),
 * the new one opened, the new one ended with its first packet. */
enum { LIFE_CLOSE_OLD = 0, LIFE_OPEN, LIFE_CLOSE_NEW };

bool analysis_init(struct analysis *a, const struct analysis_opts *o);
void analysis_packet(struct analysis *a, const struct src_packet *p);
/* The same for a frame already decoded (net_decode of p's octets gave r, *t
 * and why): the reader of -j N decodes each frame once for both. */
void analysis_decoded(struct analysis *a, const struct src_packet *p, enum net_result r, const struct tcp_pkt *t,
		      const char *why);
/* A decoded TCP segment that passed the filter (analysis_packet after
 * net_decode; harnesses that build segments themselves call it directly). */
void analysis_tcp(struct analysis *a, const struct tcp_pkt *t, uint64_t frame, int64_t ts_ns);
/* End of input: every open connection is finished as "capture ended". */
void analysis_finish(struct analysis *a);
void analysis_free(struct analysis *a);

/*
 * -j N: take over what the n worker analyses w[] (each finished, over a
 * share of the conversations) found, as if dst had read every packet
 * itself: the connections in stream order, the counters summed, the
 * statistics over every QP merged. dst holds what the reader counted itself
 * (the frames that are not TCP). false when the result could differ from
 * one analysis reading them all (a limit shared by every connection was
 * near, statistics whose merge depends on order): the caller then reads the
 * input again in one analysis. The workers keep nothing dst needs.
 */
bool analysis_adopt(struct analysis *dst, struct analysis *const *w, uint32_t n);

/* The iWARP QPs the report covers (select.h), in QP order, from *i on:
 *   for (uint32_t i = 0; (c = analysis_next_qp(a, &i)) != NULL;) */
const struct conn *analysis_next_qp(const struct analysis *a, uint32_t *i);
/* The same over every iWARP QP, reported or not. */
const struct conn *analysis_next_iwarp(const struct analysis *a, uint32_t *i);
/* The same over every TCP connection seen, iWARP or not. */
const struct conn *analysis_next_conn(const struct analysis *a, uint32_t *i);
/* The stage's results, read-only, for the writers. */
static inline const struct analysis_counts *analysis_counts(const struct analysis *a)
{
	return &a->c;
}
/* Statistics over every QP reported. */
static inline const struct iws_qp_stats *analysis_total(const struct analysis *a)
{
	return &a->total;
}
/* The buffers' limits and peaks. */
static inline const struct iws_stream_limits *analysis_limits(const struct analysis *a)
{
	return &a->env.lim;
}

/* The first connections that turned out not to be iWARP (*n of them). */
const struct conn_brief *analysis_not_iwarp(const struct analysis *a, uint32_t *n);
/* How many connections were not iWARP for this reason. */
uint64_t analysis_not_iwarp_count(const struct analysis *a, enum conn_why why);
/* How many connections turned out to be iWARP. */
uint32_t analysis_iwarp_count(const struct analysis *a);

/* Everything that can still be reported starts at or after the returned
 * (ts, frame) key. */
void analysis_watermark(const struct analysis *a, int64_t *ts, uint64_t *frame);

#endif
