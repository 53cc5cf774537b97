// SPDX-License-Identifier: GPL-2.0-or-later
/* DDP / RDMAP header encoders (see ddp.h). */
#include "ddp.h"

void put_be16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

void put_be32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (24 - 8 * i));
}

void put_be64(uint8_t *b, uint64_t v)
{
	put_be32(b, (uint32_t)(v >> 32));
	put_be32(b + 4, (uint32_t)v);
}

static void ctrl(uint8_t *b, int tagged, int last, uint8_t opcode)
{
	b[0] = (uint8_t)((tagged ? 0x80 : 0) | (last ? 0x40 : 0) | 0x01);	/* DV = 1 */
	b[1] = (uint8_t)(0x40 | (opcode & 0x0f));				/* RV = 1 */
}

size_t ddp_tagged(uint8_t *b, int last, uint8_t opcode, uint32_t stag, uint64_t to)
{
	ctrl(b, 1, last, opcode);
	put_be32(b + 2, stag);
	put_be64(b + 6, to);
	return DDP_TAGGED_LEN;
}

size_t ddp_untagged(uint8_t *b, int last, uint8_t opcode, uint32_t rsvdulp, uint32_t qn,
		    uint32_t msn, uint32_t mo)
{
	ctrl(b, 0, last, opcode);
	put_be32(b + 2, rsvdulp);
	put_be32(b + 6, qn);
	put_be32(b + 10, msn);
	put_be32(b + 14, mo);
	return DDP_UNTAGGED_LEN;
}

size_t rdmap_read_req(uint8_t *b, uint32_t sink_stag, uint64_t sink_to, uint32_t size,
		      uint32_t src_stag, uint64_t src_to)
{
	put_be32(b, sink_stag);
	put_be64(b + 4, sink_to);
	put_be32(b + 12, size);
	put_be32(b + 16, src_stag);
	put_be64(b + 20, src_to);
	return RDMAP_READ_REQ_LEN;
}

/* RFC 7306 5.2.1: Reserved (28 bits) | AOpCode (4) | Request Identifier |
 * Remote STag | Remote Tagged Offset (64) | Add or Swap Data (64) |
 * Add or Swap Mask (64) | Compare Data (64) | Compare Mask (64) */
size_t rdmap_atomic_req(uint8_t *b, uint8_t aopcode, uint32_t req_id, uint32_t stag, uint64_t to,
			uint64_t add_swap, uint64_t add_swap_mask, uint64_t cmp, uint64_t cmp_mask)
{
	put_be32(b, aopcode & 0x0fu);
	put_be32(b + 4, req_id);
	put_be32(b + 8, stag);
	put_be64(b + 12, to);
	put_be64(b + 20, add_swap);
	put_be64(b + 28, add_swap_mask);
	put_be64(b + 36, cmp);
	put_be64(b + 44, cmp_mask);
	return RDMAP_ATOMIC_REQ_LEN;
}

/* RFC 7306 5.2.2: Original Request Identifier | Original Remote Data Value (64) */
size_t rdmap_atomic_resp(uint8_t *b, uint32_t req_id, uint64_t orig)
{
	put_be32(b, req_id);
	put_be64(b + 4, orig);
	return RDMAP_ATOMIC_RESP_LEN;
}

/* RFC 5040 4.8: Layer (4) | EType (4) | Error Code (8) | M D R | Reserved (13) */
size_t rdmap_term_ctrl(uint8_t *b, uint8_t layer, uint8_t etype, uint8_t ecode, int m, int d, int r)
{
	b[0] = (uint8_t)((layer & 0x0f) << 4 | (etype & 0x0f));
	b[1] = ecode;
	b[2] = (uint8_t)((m ? 0x80 : 0) | (d ? 0x40 : 0) | (r ? 0x20 : 0));
	b[3] = 0;
	return RDMAP_TERM_CTRL_LEN;
}
