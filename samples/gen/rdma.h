// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMAP messages (RFC 5040, RFC 7306) carried in DDP segments (RFC 5041):
 * each function splits a message into DDP segments (sized by the
 * direction's segmentation mode), frames them as FPDUs and queues them; it
 * records the operation (struct op_rec). Nothing is transmitted here: call
 * tcp_flush() afterwards (several messages may be queued before a flush so
 * that they share TCP segments).
 */
#ifndef IWSGEN_RDMA_H
#define IWSGEN_RDMA_H

#include "gen.h"

int rd_write(struct gen *g, struct conn *c, int dir, uint32_t stag, uint64_t to, uint32_t len);
/* The same with the given payload (data, len) instead of random octets. */
int rd_write_data(struct gen *g, struct conn *c, int dir, uint32_t stag, uint64_t to,
		  const uint8_t *data, uint32_t len);
/* kind: OP_SEND, OP_SEND_INV, OP_SEND_SE, OP_SEND_SE_INV */
int rd_send(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t inval_stag,
	    uint32_t len);
/* The same with the given payload (data, len) instead of random octets. */
int rd_send_data(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t inval_stag,
		 const uint8_t *data, uint32_t len);
int rd_immediate(struct gen *g, struct conn *c, int dir, int se, uint64_t value);
int rd_read_req(struct gen *g, struct conn *c, int dir, uint32_t sink_stag, uint64_t sink_to,
		uint32_t size, uint32_t src_stag, uint64_t src_to);
/* Read Responses for op, in the opposite direction. */
void rd_read_resp(struct gen *g, struct conn *c, int op);
/* The same with the given octets (the source buffer's contents) instead of
 * random ones. */
void rd_read_resp_data(struct gen *g, struct conn *c, int op, const uint8_t *data);
/* kind: OP_FADD or OP_CSWAP */
int rd_atomic_req(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint32_t req_id,
		  uint32_t stag, uint64_t to, uint64_t add_swap, uint64_t add_swap_mask,
		  uint64_t cmp, uint64_t cmp_mask);
void rd_atomic_resp(struct gen *g, struct conn *c, int op, uint64_t orig);
/*
 * Terminate (RFC 5040 4.8) from side dir. With hdrs set, the Terminate
 * carries the DDP Segment Length and DDP header of culprit's first message
 * (M = D = 1), and for a culprit Read Request also its 28-octet RDMAP header
 * (R = 1).
 */
int rd_terminate(struct gen *g, struct conn *c, int dir, uint8_t layer, uint8_t etype,
		 uint8_t ecode, int hdrs, int culprit);
/* Peer-to-peer RTR (RFC 6581): the initiator's zero-length message, and for
 * a Read RTR the responder's zero-length Read Response: one operation,
 * flagged rtr (docs/semantics.md). */
void rd_rtr(struct gen *g, struct conn *c);
void rd_rtr_reply(struct gen *g, struct conn *c);

#endif
