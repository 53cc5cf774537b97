// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tseq.h - a QP's TCP segments around its losses, for the report's
 * time-sequence view (tcptrace's picture: each direction's sequence numbers
 * against time, retransmissions apart, and the peer's ACKs).
 *
 * Memory does not grow with the capture: the last TSEQ_RING segments are
 * kept in a ring; a loss (a retransmitted segment, or octets never
 * captured) keeps them and the TSEQ_AFTER segments that follow it (a later
 * loss extends that), up to TSEQ_MAX_KEPT segments per QP; what the limits
 * leave out is counted. A QP without a loss keeps nothing.
 */
#ifndef IWS_CLI_TSEQ_H
#define IWS_CLI_TSEQ_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/tcpopt.h"

#define TSEQ_RING 256
#define TSEQ_AFTER 512
#define TSEQ_MAX_KEPT 16384

enum {
	TSEQ_RETRANS = 1,           /* counted as a retransmission */
	TSEQ_ACK = 2,               /* the ACK flag: ack is meaningful */
	TSEQ_SYN = 4,
	TSEQ_FIN = 8,
	TSEQ_RST = 16,
	TSEQ_WIN = 32,              /* win is known: both SYNs were seen (RFC 7323 §2.2) */
	TSEQ_FLIGHT = 64,           /* flight is known: the peer's ACKs were seen */
};

struct tseq_rec {
	int64_t ts;
	uint64_t frame;
	uint32_t seq, ack, len;
	uint32_t win;               /* the receive window it advertises, scaled (TSEQ_WIN) */
	uint32_t flight;            /* data: its sender's octets in flight after it (TSEQ_FLIGHT) */
	uint32_t sack_l[IWS_TCP_SACK_MAX], sack_r[IWS_TCP_SACK_MAX];
	uint8_t nsack;              /* SACK blocks it carries (of the peer's octets) */
	int8_t wscale;              /* its window scale option (a SYN), -1: none */
	uint16_t raw_win;           /* its window field as carried */
	uint8_t dir;                /* IWS_DIR_* of its sender */
	uint8_t flags;              /* TSEQ_* */
};

struct tseq {
	struct tseq_rec *ring;      /* TSEQ_RING, allocated with the first segment */
	uint32_t ring_n, ring_at;   /* how many, where the next goes */
	struct tseq_rec *kept;
	uint32_t nkept, capkept;
	uint32_t after;             /* segments still to keep after the last loss */
	bool has_base[2];
	uint32_t base[2];           /* by dir: the first sequence number seen */
	/* the window scale by dir: each SYN's option (RFC 7323 §2.2: a window
	 * field is scaled by the shift its sender announced, when both SYNs
	 * carried the option; SYN windows are never scaled) */
	bool syn_seen[2];
	int8_t syn_wscale[2];
	/* bytes in flight by dir: the highest sequence number sent (end of its
	 * data) and the peer's latest cumulative ACK of it */
	bool has_end[2], has_acked[2];
	uint32_t end[2], acked[2];
	uint64_t losses;            /* loss events seen */
	uint64_t left_out;          /* segments after a loss not kept (the limits) */
	uint64_t oom;
};

/* A segment of the QP (in the order read); loss: it is a retransmission.
 * Its win and flight are filled here (from the SYNs and ACKs seen so far). */
void tseq_segment(struct tseq *t, struct tseq_rec *r, bool loss, uint64_t *budget);
/* Octets never captured (a gap) were found at this point. */
void tseq_loss(struct tseq *t, uint64_t *budget);
void tseq_free(struct tseq *t);

#endif
