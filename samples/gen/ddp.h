// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DDP (RFC 5041) and RDMAP (RFC 5040, RFC 7306) header encoders.
 * All fields are big-endian. Byte 0 of every DDP header: T 0x80, L 0x40,
 * DV 0x01; byte 1: RV 0x40 | opcode.
 */
#ifndef IWSGEN_DDP_H
#define IWSGEN_DDP_H

#include <stddef.h>
#include <stdint.h>

#define DDP_TAGGED_LEN 14
#define DDP_UNTAGGED_LEN 18
#define RDMAP_READ_REQ_LEN 28
#define RDMAP_ATOMIC_REQ_LEN 52
#define RDMAP_ATOMIC_RESP_LEN 12
#define RDMAP_TERM_CTRL_LEN 4

/* RFC 7306 5.2.1 AOpCode */
#define AOP_FETCH_ADD 0x0
#define AOP_CMP_SWAP 0x2

size_t ddp_tagged(uint8_t *b, int last, uint8_t opcode, uint32_t stag, uint64_t to);
size_t ddp_untagged(uint8_t *b, int last, uint8_t opcode, uint32_t rsvdulp, uint32_t qn,
		    uint32_t msn, uint32_t mo);
size_t rdmap_read_req(uint8_t *b, uint32_t sink_stag, uint64_t sink_to, uint32_t size,
		      uint32_t src_stag, uint64_t src_to);
size_t rdmap_atomic_req(uint8_t *b, uint8_t aopcode, uint32_t req_id, uint32_t stag, uint64_t to,
			uint64_t add_swap, uint64_t add_swap_mask, uint64_t cmp, uint64_t cmp_mask);
size_t rdmap_atomic_resp(uint8_t *b, uint32_t req_id, uint64_t orig);
size_t rdmap_term_ctrl(uint8_t *b, uint8_t layer, uint8_t etype, uint8_t ecode, int m, int d, int r);
void put_be16(uint8_t *b, uint16_t v);
void put_be32(uint8_t *b, uint32_t v);
void put_be64(uint8_t *b, uint64_t v);

#endif
