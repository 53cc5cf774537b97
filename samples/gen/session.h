// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Session helpers for scenarios: open a connection (TCP + MPA handshake +
 * RTR), run one RDMA operation with realistic timing, close it. Times are
 * ns since the epoch; each helper returns the time at which the next action
 * may start.
 */
#ifndef IWSGEN_SESSION_H
#define IWSGEN_SESSION_H

#include "gen.h"
#include "tcpsim.h"

/* 2024-05-01 12:00:00 UTC */
#define T_BASE 1714564800000000000ull
#define US 1000ull
#define MS 1000000ull

struct conn_cfg cfg_default(int ipver);
uint32_t rnd_stag(struct gen *g);
uint64_t rnd_to(struct gen *g);
/*
 * Queue a Write / Read Request with random STags and TOs. (Draws happen in
 * a fixed order: never put two PRNG calls in one argument list, C leaves
 * their evaluation order to the compiler.) src_stag 0: random.
 */
int post_write(struct gen *g, struct conn *c, int dir, uint32_t len);
int post_read(struct gen *g, struct conn *c, int dir, uint32_t len, uint32_t src_stag);

/* TCP three-way handshake, MPA Request/Reply, RTR exchange. */
uint64_t s_open(struct gen *g, struct conn *c, uint64_t t);
/* TCP handshake and the MPA exchange only up to (and including) the Request. */
uint64_t s_open_tcp(struct gen *g, struct conn *c, uint64_t t);
uint64_t s_close(struct gen *g, struct conn *c, int who, uint64_t t);

uint64_t s_write(struct gen *g, struct conn *c, int dir, uint32_t len, uint64_t t);
uint64_t s_send(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t len, uint64_t t);
uint64_t s_imm(struct gen *g, struct conn *c, int dir, int se, uint64_t value, uint64_t t);
uint64_t s_read(struct gen *g, struct conn *c, int dir, uint32_t len, uint64_t t);
uint64_t s_atomic(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint64_t t);
/* Transmits planned segments in the order given by idx (NULL: as planned)
 * with per-segment fates (fault NULL: all captured), the receiver answering
 * as TCP would; returns the time of the last one. */
uint64_t emit_plan(struct gen *g, struct conn *c, int dir, const struct segplan *s, int n,
		   const int *idx, const uint32_t *fault, uint64_t t);
/* Transmits what is queued in direction dir (at most 128 segments) with
 * segments a and b swapped on the way to the capture point (their IP IDs
 * say they were sent in sequence order). */
uint64_t emit_swapped(struct gen *g, struct conn *c, int dir, int a, int b, uint64_t t);
/* Transmits what is queued in direction dir, then the delayed ACKs. */
uint64_t flush_settle(struct gen *g, struct conn *c, int dir, uint64_t t);
/*
 * Queue a Send of one FPDU sized so that the direction's next FPDU starts on
 * a marker position: of the sender's own grid (rfc_grid 0: that FPDU gets a
 * leading marker) or of the RFC 5044 grid (rfc_grid 1: where an RFC sender
 * would put a leading marker; the same for an RFC sender).
 */
void send_to_marker(struct gen *g, struct conn *c, int dir, int rfc_grid);
/* Queue a Send (with SE) of one FPDU that gets a marker right before its CRC. */
void send_crc_marker(struct gen *g, struct conn *c, int dir);
/* Responder think time before answering a request. */
uint64_t s_proc(struct gen *g);

#endif
