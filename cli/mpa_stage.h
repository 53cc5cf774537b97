// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpa_stage.h - turns the two reassembled byte streams of a connection into
 * FPDUs, using the core for every decision about the bytes:
 *
 *   hunting   look for the MPA Request/Reply key (RFC 5044 §7.1.1; it need
 *             not be at offset 0) and, where the handshake was not captured
 *             or framing was lost, for the next FPDU boundary (iws_sync_find:
 *             markers when present, else a validated FPDU chain);
 *   waiting   the initiator's octets after its Request wait for the Reply,
 *             which says whether they carry markers (RFC 5044 §7.1.1);
 *   framing   FPDUs one after another (iws_mpa_fpdu_parse: markers removed,
 *             CRC checked), then the DDP/RDMAP headers (iws_rdmap_parse).
 *
 * An FPDU that lies inside one delivered chunk is decoded in place; only an
 * FPDU that straddles chunks is copied, into a per-direction carry buffer.
 * Every FPDU is attributed to the frame in which in-order reassembly
 * completes it (the running maximum of the frames its octets came from).
 */
#ifndef IWS_CLI_MPA_STAGE_H
#define IWS_CLI_MPA_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/mpa.h"
#include "iwarpscope/rdmap.h"
#include "iwarpscope/sync.h"
#include "sbuf.h"

struct fpdu_event {
	int side;                       /* flow side that sent it */
	uint8_t dir;                    /* IWS_DIR_I2R or IWS_DIR_R2I */
	const struct iws_fpdu *fpdu;    /* framing, markers, CRC */
	const struct iws_msg *msg;      /* NULL when the ULPDU did not decode */
	const char *why;                /* ... and why not */
	uint64_t first_frame, frame;
	int64_t ts_ns;                  /* capture time of `frame` */
	bool truncated;                 /* some of its octets were not captured */
	bool crc_configured;            /* CRC in use on this direction */
};

/* The stage's consumer; every call gets the stage's ctx (stage_init). */
struct stage_sink {
	/* A decoded FPDU, in stream order per direction. */
	void (*fpdu)(void *ctx, const struct fpdu_event *ev);
	/* Octets of side were lost (a gap, a capture that starts mid-stream,
	 * framing that could not be followed): FPDUs may be missing. */
	void (*lost)(void *ctx, int side);
	/* An MPA Request or Reply was decoded (frame: where it completed). */
	void (*mpa_frame)(void *ctx, int side, const struct iws_mpa_frame *f, uint64_t frame);
	/* The connection's parameters are now known (handshake or inference). */
	void (*params)(void *ctx);
};

/* The memory of every stage buffer (FPDUs being reassembled, the
 * initiator's octets waiting for the MPA Reply, octets searched for an FPDU
 * boundary), shared by all connections. Past max_bytes a direction that
 * needs more drops what it holds, as if those octets had not been captured,
 * and finds its framing again after them. Yet each direction may always hold
 * STAGE_FLOOR_BYTES (an MPA Request or Reply, an FPDU header), so that a
 * connection that begins once the limit is reached is still recognised. */
#define STAGE_FLOOR_BYTES 2048u

struct stage_limits {
	uint64_t max_bytes;             /* 0: no limit */
	uint64_t used, peak;
};

enum stage_hs {
	HS_NONE = 0,      /* nothing known yet */
	HS_REQUEST,       /* Request seen, Reply pending */
	HS_DONE,          /* full operation after a captured handshake */
	HS_REJECTED,      /* Reply with R set: no FPDUs follow */
	HS_INFERRED,      /* full operation found without the handshake */
	HS_NOT_IWARP,     /* both directions given up */
};

enum sd_mode { SD_OFF = 0, SD_HUNT, SD_WAIT, SD_FPDU, SD_DEAD };

struct stage_counts {
	uint64_t fpdus;
	uint64_t undecodable;           /* framed, but the ULPDU did not decode */
	uint64_t truncated;             /* FPDUs with octets missing */
	uint64_t marker_errors;
	uint64_t resyncs;               /* framing found again after a loss */
	uint64_t lost;                  /* times framing was lost */
	uint64_t skipped_bytes;         /* octets passed over while hunting */
	uint64_t partial_at_end;        /* FPDUs cut off by the end of the stream */
	uint64_t limit_hits;            /* octets dropped: stage_limits reached */
};

struct stage_dir {
	enum sd_mode mode;
	bool have_pos;
	uint32_t pos;                   /* TCP seq of the next octet to arrive */
	bool at_syn;                    /* the stream was seen from its first octet */
	struct sbuf buf;                /* carry, or octets being hunted through */
	uint64_t acct;                  /* its memory, as counted in stage_limits */
	uint32_t need;                  /* framing: wire length of the FPDU in buf */
	uint64_t run_frame;             /* completion frame so far */
	int64_t run_ts;
	uint32_t key_from;              /* hunting: next offset to look for a key at */
	uint32_t next_try;              /* hunting: buffer length for the next sync */
	uint64_t hunted;                /* octets arrived while hunting, since the last sync */
	bool ever_synced;
	bool lost_reported;             /* the sink knows framing is lost */
	bool damaged;                   /* octets of the stream were missing */
	struct iws_mpa_dir p;           /* framing parameters */
	bool p_known;
	enum iws_tristate crc_hint;     /* for inference when p is not known */
	struct stage_counts c;
};

struct stage {
	struct stage_dir d[2];          /* by flow side */
	struct iws_mpa_conn mpa;        /* negotiated (handshake) state */
	int init_side;                  /* flow side of the initiator */
	bool init_side_known;           /* from the Request (not a guess) */
	enum stage_hs hs;
	bool check_crc;
	uint64_t request_frame, reply_frame;
	const struct stage_sink *sink;
	void *ctx;
	struct stage_limits *lim;       /* may be NULL */
};

/* guess_init_side: the initiator when no Request says otherwise. */
void stage_init(struct stage *st, int guess_init_side, bool check_crc, const struct stage_sink *sink,
		void *ctx, struct stage_limits *lim);
void stage_free(struct stage *st);

/* Reassembly events for one side (see reasm.h). */
void stage_start(struct stage *st, int side, uint32_t seq, bool at_syn);
void stage_data(struct stage *st, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		uint64_t frame, int64_t ts_ns);
void stage_hole(struct stage *st, int side, uint32_t seq, uint32_t n);
/* The stream of side ended (FIN reached, reset, or end of capture). */
void stage_end(struct stage *st, int side);

static inline uint8_t stage_dir_of(const struct stage *st, int side)
{
	return side == st->init_side ? IWS_DIR_I2R : IWS_DIR_R2I;
}

/* Is the connection iWARP (handshake seen or FPDUs found)? */
bool stage_is_iwarp(const struct stage *st);

/* Oldest (frame, ts) whose FPDUs may still be reported (for output order);
 * false when nothing is buffered. */
bool stage_pending_min(const struct stage *st, uint64_t *frame, int64_t *ts);

#endif
