// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcp_reasm.h - TCP reassembly of one direction of a connection: the byte
 * stream delivered in order, exactly once (core-private: the first stage of
 * the stream engine, stream.h).
 *
 * In-order data goes straight from the packet buffer to the sink (no copy).
 * Segments ahead of the expected sequence number are copied into a bounded
 * out-of-order list and delivered once the hole before them fills.
 * Retransmissions and duplicates are dropped (the first captured copy of an
 * octet wins), overlaps counted, sequence numbers compared modulo 2^32.
 *
 * A hole becomes a gap (octets never captured) when the peer acknowledges
 * past it (the receiver had them, so the capture missed them), when the
 * out-of-order limit is reached, or when the connection or capture ends.
 * The sink then receives the hole's position and size and decoding goes on
 * after it. Octets cut by the snapshot length are a hole of another kind:
 * their position is known but not their content.
 */
#ifndef IWS_CORE_TCP_REASM_H
#define IWS_CORE_TCP_REASM_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/stage.h"
#include "avl.h"

/* How a segment's octets came (docs/semantics.md, "Where the time went"):
 * their first transmission, sent again (a retransmission), or a first
 * transmission that arrived after later octets (reordered on the way). */
enum seg_how {
	HOW_FIRST = 0,
	HOW_RESENT = 1,
	HOW_REORDERED = 2,
	HOW_KEEPALIVE = 3,  /* a keep-alive probe: not data (RFC 9293 §3.8.4) */
};

enum hole_kind {
	HOLE_GAP = 0,   /* never captured */
	HOLE_SNAP = 1,  /* captured, but cut by the snapshot length */
};

/* What a direction's byte stream turns into. side is the flow side (0/1). */
struct reasm_sink {
	void *ctx;
	/* The first stream octet is seq (at_syn: right after a captured SYN). */
	void (*start)(void *ctx, int side, uint32_t seq, bool at_syn);
	/* In-order octets [seq, seq+n), first captured in `frame`; how: that
	 * segment's (enum seg_how): a retransmission (repeated octets already
	 * captured, or filled a hole behind later octets and was sent after
	 * them) or a reordered first transmission. */
	void (*data)(void *ctx, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		     uint64_t frame, int64_t ts_ns, uint8_t how);
	/* In-order octets [seq, seq+n) that are missing. */
	void (*hole)(void *ctx, int side, uint32_t seq, uint32_t n, enum hole_kind kind);
	/* The stream reached its FIN. */
	void (*fin)(void *ctx, int side);
	/* Octets [seq, seq+n) of `frame` were delivered before (a retransmission
	 * or a duplicate): dropped. May be NULL. */
	void (*dup)(void *ctx, int side, uint32_t seq, uint32_t n, uint64_t frame);
};


/* Out-of-order memory is limited by iws_stream_limits (max_ooo_*), whose
 * ooo_used is shared by every direction of every engine using it. A buffered
 * segment counts its octets plus a few dozen of bookkeeping. */

struct ooo_seg;

struct reasm_dir {
	bool started;               /* next_seq is known */
	bool syn_seen, fin_seen, fin_done, rst_seen;
	uint32_t isn;
	uint32_t next_seq;
	uint32_t fin_seq;
	/* Segments ahead of next_seq, non-overlapping, in a balanced tree by
	 * their distance from next_seq (struct ooo_seg, tcp_reasm.c): placing
	 * a segment or finding its neighbours costs O(log n) whatever order
	 * they come in (a sorted list would cost a walk of every buffered
	 * segment per segment) */
	struct avl_tree ooo;
	uint32_t ooo_n;
	struct ooo_seg *oldest, *newest; /* the first and the last buffered of them */
	uint64_t ooo_bytes;
	uint64_t ooo_min_frame;     /* oldest frame buffered (for output ordering) */
	int64_t ooo_min_ts;
	struct iws_stream_counts *c; /* the TCP half of the direction's counters */
};

void reasm_init(struct reasm_dir *d, struct iws_stream_counts *c);

/* What the segment that filled a hole is told apart by: the buffered one
 * closest after it (captured before it, its octets later in the stream). */
struct reasm_later {
	uint64_t frame;
	int64_t ts;
	bool has_ip_id, has_ts;
	uint16_t ip_id;
	uint32_t tsval;
};

/* Would segment [seq, seq+n) fill a hole behind later octets already
 * captured (new octets of it, buffered octets after its start)? *out: the
 * closest of those. */
bool reasm_later(const struct reasm_dir *d, uint32_t seq, uint32_t n, struct reasm_later *out);

/* One captured segment of this direction (TSval: its TCP timestamp, if it
 * had one). late_how: what a segment that fills a hole behind later octets
 * is, HOW_RESENT or HOW_REORDERED (the caller tells them apart). Returns
 * HOW_RESENT when some of its octets had been captured before (or it was a
 * late one so told), HOW_REORDERED, or HOW_FIRST. */
uint8_t reasm_segment(struct reasm_dir *d, int side, const struct iws_tcp_seg *in, uint8_t late_how,
		      bool has_ts, uint32_t tsval, const struct reasm_sink *sink,
		      struct iws_stream_limits *lim);

/* The peer acknowledged up to ack: octets before it that were never
 * captured are a gap. */
void reasm_ack(struct reasm_dir *d, int side, uint32_t ack, const struct reasm_sink *sink,
	       struct iws_stream_limits *lim);

/* Deliver everything buffered, with gaps for the holes between (the
 * connection or the capture ended). */
void reasm_flush(struct reasm_dir *d, int side, const struct reasm_sink *sink,
		 struct iws_stream_limits *lim);

/* Release buffered segments. */
void reasm_free(struct reasm_dir *d, struct iws_stream_limits *lim);

#endif
