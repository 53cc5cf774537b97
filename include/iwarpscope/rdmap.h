// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmap.h - RDMAP messages (RFC 5040, RFC 7306): the complete decode of one
 * DDP segment (a ULPDU): DDP header, RDMAP header and the opcode-specific
 * header (Read Request, Terminate, Atomic Request/Response, Immediate Data).
 */
#ifndef IWARPSCOPE_RDMAP_H
#define IWARPSCOPE_RDMAP_H

#include "ddp.h"

#ifdef __cplusplus
extern "C" {
#endif

enum iws_rdmap_opcode {
	IWS_OP_CODE_WRITE = 0x0,
	IWS_OP_CODE_READ_REQ = 0x1,
	IWS_OP_CODE_READ_RESP = 0x2,
	IWS_OP_CODE_SEND = 0x3,
	IWS_OP_CODE_SEND_INV = 0x4,
	IWS_OP_CODE_SEND_SE = 0x5,
	IWS_OP_CODE_SEND_SE_INV = 0x6,
	IWS_OP_CODE_TERMINATE = 0x7,
	IWS_OP_CODE_IMMEDIATE = 0x8,     /* RFC 7306 §4.3 */
	IWS_OP_CODE_IMMEDIATE_SE = 0x9,
	IWS_OP_CODE_ATOMIC_REQ = 0xA,    /* RFC 7306 §5 */
	IWS_OP_CODE_ATOMIC_RESP = 0xB,
};

#define IWS_RDMAP_READ_REQ_LEN 28
#define IWS_RDMAP_IMMEDIATE_LEN 8
#define IWS_RDMAP_ATOMIC_REQ_LEN 52
#define IWS_RDMAP_ATOMIC_RESP_LEN 12
#define IWS_RDMAP_TERM_CTRL_LEN 4

/* Atomic operation codes (RFC 7306 §5.2.1). */
#define IWS_AOP_FETCH_ADD 0x0
#define IWS_AOP_SWAP 0x1
#define IWS_AOP_CMP_SWAP 0x2

/* Terminate layers (RFC 5040 §4.8). */
#define IWS_TERM_LAYER_RDMAP 0x0
#define IWS_TERM_LAYER_DDP 0x1
#define IWS_TERM_LAYER_LLP 0x2
#define IWS_TERM_HDRCT_M 0x8000  /* DDP segment length valid */
#define IWS_TERM_HDRCT_D 0x4000  /* terminated DDP header included */
#define IWS_TERM_HDRCT_R 0x2000  /* terminated RDMAP header included */

struct iws_rdmap_read_req {
	uint32_t sink_stag;
	uint64_t sink_to;
	uint32_t size;
	uint32_t src_stag;
	uint64_t src_to;
	struct iws_field f_sink_stag, f_sink_to, f_size, f_src_stag, f_src_to;
};

struct iws_rdmap_terminate {
	uint8_t layer, etype, errcode;
	bool m, d, r;
	uint16_t rsvd;
	struct iws_field f_ctrl;
	bool has_seg_len;
	uint16_t ddp_seg_len;
	struct iws_field f_seg_len;
	bool has_ddp;
	struct iws_result ddp_status;   /* decode of the terminated DDP header */
	struct iws_ddp_hdr ddp;         /* offsets relative to the Terminate's ULPDU */
	bool has_rdmap;
	struct iws_rdmap_read_req rdmap;/* the terminated RDMAP (Read Request) header */
	struct iws_field f_ddp, f_rdmap;
};

struct iws_rdmap_atomic_req {
	uint32_t rsvd;                  /* the 28 reserved bits */
	uint8_t aopcode;
	uint32_t req_id;
	uint32_t stag;
	uint64_t to;
	uint64_t add_swap, add_swap_mask, compare, compare_mask;
	struct iws_field f_aopcode, f_req_id, f_stag, f_to, f_add_swap, f_add_swap_mask,
		f_compare, f_compare_mask;
};

struct iws_rdmap_atomic_resp {
	uint32_t req_id;
	uint64_t orig_value;
	struct iws_field f_req_id, f_orig_value;
};

/* Warnings beyond the DDP ones. */
#define IWS_RDMAP_W_TRAILING 0x100     /* octets after a fixed-size message */
#define IWS_RDMAP_W_AOP_UNKNOWN 0x200  /* Atomic opcode not defined by RFC 7306 */
#define IWS_RDMAP_W_TERM_RSVD 0x400    /* Terminate reserved bits set */
#define IWS_RDMAP_W_TERM_SHORT 0x800   /* Terminate shorter than its M/D/R bits say */

struct iws_msg {
	struct iws_ddp_hdr ddp;
	union {
		struct iws_rdmap_read_req read_req;
		struct iws_rdmap_terminate term;
		struct iws_rdmap_atomic_req atomic_req;
		struct iws_rdmap_atomic_resp atomic_resp;
		uint64_t immediate;
	} u;
	struct iws_field f_immediate;
	uint32_t payload_off;   /* ULP payload (Write, Send, Read Response data) */
	uint32_t payload_len;
	uint32_t warnings;      /* IWS_DDP_W_* | IWS_RDMAP_W_* */
	/* ULPDU octets that were captured (all of them, len, unless the
	 * caller says otherwise: a snapshot length or a hole cut the rest,
	 * which read as zeros). A field is known only if it lies in them. */
	uint32_t captured;
};

/* Were the ULPDU octets [0, end) of the message captured? */
static inline bool iws_msg_has(const struct iws_msg *m, uint32_t end)
{
	return m->captured >= end;
}

/* Is the opcode one of the Send family (RFC 5040 §4.4: Send, Send with
 * Invalidate, with Solicited Event, with both)? */
static inline bool iws_rdmap_is_send(uint8_t opcode)
{
	return opcode >= IWS_OP_CODE_SEND && opcode <= IWS_OP_CODE_SEND_SE_INV;
}

/* Does the Send carry an STag to invalidate in RsvdULP (RFC 5040 §6.4)? */
static inline bool iws_rdmap_is_send_inv(uint8_t opcode)
{
	return opcode == IWS_OP_CODE_SEND_INV || opcode == IWS_OP_CODE_SEND_SE_INV;
}

/* The queue an untagged opcode must use, or -1 for a tagged one, -2 for an
 * opcode RFC 5040/7306 do not define (0xC..0xF). */
int iws_rdmap_opcode_queue(uint8_t opcode);

/*
 * Decode one ULPDU (DDP segment without MPA framing, markers removed).
 * MALFORMED: wrong DDP/RDMAP version, undefined opcode, opcode on the wrong
 * buffer model or queue, a fixed-size message of the wrong length. NEED_MORE
 * when buf ends inside the headers (a truncated capture).
 */
struct iws_result iws_rdmap_parse(const uint8_t *buf, size_t len, struct iws_msg *out);

/* The Terminate header alone (buf points at the Terminate Control word). */
struct iws_result iws_rdmap_parse_terminate(const uint8_t *buf, size_t len, uint32_t base,
					    struct iws_rdmap_terminate *out);

#ifdef __cplusplus
}
#endif
#endif
