// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stage.h - what every stage of the stream engine (stream.h) shares and
 * nothing more: the captured TCP segment a front end feeds, capture times,
 * the memory limits all engines of a capture share, and the per-direction
 * counters each stage adds to. TCP reassembly (core/tcp_reasm.h) sits below
 * the engine and needs these without the engine's own API.
 */
#ifndef IWARPSCOPE_STAGE_H
#define IWARPSCOPE_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TCP flags as the front end hands them over (RFC 9293 §3.1 bit values). */
#define IWS_TCP_FIN 0x01
#define IWS_TCP_SYN 0x02
#define IWS_TCP_RST 0x04
#define IWS_TCP_PSH 0x08
#define IWS_TCP_ACK 0x10

/*
 * Capture times are kept between the epoch and 2^62 ns (the year 2116): a
 * record can claim any time (pcapng has 64-bit stamps and its own
 * resolution), and the difference of any two kept times must fit in 64
 * bits. *clamped (may be NULL) says whether secs/nsecs were out of range.
 */
#define IWS_TS_MAX_NS ((int64_t)1 << 62)
static inline int64_t iws_ts_ns(int64_t secs, int64_t nsecs, bool *clamped)
{
	int64_t ns;
	if (secs < 0 || nsecs < 0)
		ns = -1;
	else if (secs >= IWS_TS_MAX_NS / 1000000000)
		ns = IWS_TS_MAX_NS + 1;
	else
		ns = secs * 1000000000 + nsecs;
	bool out = ns < 0 || ns > IWS_TS_MAX_NS;
	if (clamped)
		*clamped = out;
	return ns < 0 ? 0 : out ? IWS_TS_MAX_NS : ns;
}

/* One captured TCP segment. */
struct iws_tcp_seg {
	uint32_t seq, ack;          /* raw (absolute) sequence numbers */
	uint32_t win;               /* the window field as carried (not scaled) */
	uint8_t flags;              /* IWS_TCP_* */
	const uint8_t *payload;     /* cap_len octets (may be NULL when cap_len is 0) */
	uint32_t cap_len;           /* payload octets captured */
	uint32_t wire_len;          /* payload octets on the wire (>= cap_len) */
	uint64_t frame;             /* 1-based, increasing */
	int64_t ts_ns;              /* capture time, ns since the epoch */
	/* optional: front ends that have them give them (zeros: not known) */
	bool has_ip_id;             /* IPv4: its Identification field (RFC 791) */
	uint16_t ip_id;
	const uint8_t *opts;        /* the TCP options as captured (after the 20-octet header) */
	uint32_t opts_len;
};

/*
 * Memory limits. One struct may be shared by every engine of a capture (the
 * CLI does): the usage fields then count them all. Zero means the default.
 */
struct iws_stream_limits {
	uint64_t max_ooo_dir;       /* out-of-order octets buffered per direction (16 MiB) */
	uint32_t max_ooo_segs;      /* ... segments per direction (4096) */
	uint64_t max_ooo_total;     /* ... over all engines sharing the struct (64 MiB) */
	uint64_t max_buf;           /* FPDU reassembly and hunting buffers, all engines (64 MiB);
				     * each direction may always hold IWS_STREAM_FLOOR octets */
	uint32_t max_inflight;      /* RDMA operations in flight per connection (65536) */
	uint32_t max_held;          /* FPDUs held for cross-direction order per connection (4096) */
	uint64_t max_ack_wait;      /* complete operations waiting for their ACK, all engines (16384) */
	/* usage, kept up to date by the engines */
	uint64_t ooo_used, ooo_peak;
	uint64_t buf_used, buf_peak;
	uint64_t ack_wait_used, ack_wait_peak;
};

#define IWS_STREAM_FLOOR 2048u

/* Per direction (indexed by side). */
struct iws_stream_counts {
	/* TCP */
	uint64_t segments;          /* segments carrying payload */
	uint64_t bytes;             /* stream octets delivered in order (captured or not) */
	uint64_t retrans;           /* segments whose payload was all delivered already */
	uint64_t keepalives;        /* keep-alive probes: one old octet at SND.NXT - 1 */
	uint64_t late;              /* segments that filled a hole behind later data */
	uint64_t overlaps;
	uint64_t out_of_order;      /* segments that arrived ahead of a hole */
	uint64_t gaps, gap_bytes;   /* holes never filled */
	uint64_t snap_bytes;        /* octets cut by the snapshot length */
	uint64_t ooo_limit_hits;    /* out-of-order limit forced a gap */
	/* MPA */
	uint64_t fpdus;
	uint64_t undecodable;       /* framed, but the ULPDU did not decode */
	uint64_t truncated;         /* FPDUs with octets missing */
	uint64_t marker_errors;
	uint64_t resyncs;           /* framing found after a loss or mid-stream */
	uint64_t lost;              /* times framing was lost */
	uint64_t skipped_bytes;     /* octets passed over while hunting */
	uint64_t partial_at_end;    /* FPDUs cut off by the end of the stream */
	uint64_t segment_resyncs;   /* of resyncs: at a sliced segment's start (FPDUs aligned
				     * with segments), after a header the slice cut */
	uint64_t buf_limit_hits;    /* octets dropped: max_buf reached */
	uint64_t order_forced;      /* FPDUs released out of cross-direction order (max_held) */
	/* TCP behaviour (docs/semantics.md) */
	uint64_t fast_retransmits;  /* retransmissions after 3 duplicate ACKs (RFC 5681 §3.2) */
	uint64_t timeouts;          /* retransmissions after a silence of at least the RTO
				     * estimate (RFC 6298) */
	uint64_t other_retransmits; /* the other retransmissions (SACK recovery, probes) */
	uint64_t reordered;         /* first transmissions that came after later octets:
				     * reordered on the way, not retransmissions */
	uint64_t duplicate_acks;    /* sent by this side (RFC 5681 §2) */
	uint64_t zero_windows;      /* segments of this side advertising a window of 0 */
	bool fin, rst;
	uint64_t fin_frame, rst_frame;
};

#ifdef __cplusplus
}
#endif

#endif
