// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP connection simulator: turns the byte streams queued by the MPA layer
 * into TCP segments (three-way handshake, data, delayed ACKs, FIN, RST),
 * models the receiver (in-order point, out-of-order data, duplicate ACKs)
 * and records every frame with its capture fate (struct frame).
 */
#ifndef IWSGEN_TCPSIM_H
#define IWSGEN_TCPSIM_H

#include "gen.h"

struct segplan {
	uint64_t off;
	uint32_t len;
};

/* Queue stream bytes in direction from (not yet transmitted). */
void tcp_put(struct gen *g, struct conn *c, int from, const uint8_t *p, size_t n);
/* Mark the end of a unit (MPA frame or FPDU) for SEG_ALIGNED segmentation. */
void tcp_unit_end(struct conn *c, int from);
uint64_t tcp_nxt(const struct dir *d);

/* SYN, SYN-ACK, ACK starting at t; returns the time of the last one. */
uint64_t tcp_connect(struct gen *g, struct conn *c, uint64_t t);
/* Cuts the queued bytes into segments (no transmission). */
int tcp_plan(struct conn *c, int from, struct segplan *out, int max);
/* Transmits one data segment [off, off + len) at t with the given fate. */
void tcp_emit_seg(struct gen *g, struct conn *c, int from, uint64_t off, uint32_t len,
		  uint64_t t, uint32_t fault);
/* Sends a pure ACK from the receiver of direction from if one is due. */
int tcp_ack_if_due(struct gen *g, struct conn *c, int from, uint64_t t);
/* Unconditional pure ACK sent by side who (with a fate: FF_LOST loses it
 * before the capture point, FF_DROP after it, and the data sender never
 * gets it). */
void tcp_pure_ack(struct gen *g, struct conn *c, int who, uint64_t t);
void tcp_pure_ack_fault(struct gen *g, struct conn *c, int who, uint64_t t, uint32_t fault);
/* The window advertised by the receiver of direction dir from now on:
 * win (0 = a zero window, RFC 9293 3.8.6.2) when set, else the default. */
void tcp_set_window(struct conn *c, int dir, int set, uint16_t win);
/* Transmits everything queued in direction from, starting at t; returns the
 * time of the last segment (t if nothing was queued). */
uint64_t tcp_flush(struct gen *g, struct conn *c, int from, uint64_t t);
/* Delayed ACKs: sends a pure ACK for every direction with unacknowledged data. */
void tcp_settle(struct gen *g, struct conn *c, uint64_t t);
/* FIN from who at t, FIN from the peer, last ACK; returns the time of the last. */
uint64_t tcp_close(struct gen *g, struct conn *c, int who, uint64_t t);
/* RST (with ACK) from who at t; who sends nothing afterwards but RST replies. */
void tcp_rst(struct gen *g, struct conn *c, int who, uint64_t t);
/* who's FIN alone (a half close: the peer may still send). */
void tcp_fin(struct gen *g, struct conn *c, int who, uint64_t t);
/* The RST a reset side answers a data segment with (RFC 9293 3.10.7.1). */
void tcp_rst_reply(struct gen *g, struct conn *c, int who, uint64_t t);
/* Wire time of a frame of len octets at 10 Gb/s, with a floor. */
uint64_t tcp_wire_ns(uint32_t len);

#endif
