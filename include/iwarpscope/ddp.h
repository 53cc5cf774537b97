// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ddp.h - DDP segment headers (RFC 5041 §4), with the RDMAP control octet
 * (RFC 5040 §4.2) that shares the DDP control field.
 */
#ifndef IWARPSCOPE_DDP_H
#define IWARPSCOPE_DDP_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_DDP_TAGGED_HDR_LEN 14
#define IWS_DDP_UNTAGGED_HDR_LEN 18

#define IWS_DDP_FLAG_T 0x80
#define IWS_DDP_FLAG_L 0x40
#define IWS_DDP_RSVD_MASK 0x3C
#define IWS_DDP_DV_MASK 0x03
#define IWS_RDMAP_RV_MASK 0xC0
#define IWS_RDMAP_RSVD_MASK 0x30
#define IWS_RDMAP_OPCODE_MASK 0x0F

#define IWS_DDP_VERSION 1
#define IWS_RDMAP_VERSION 1

/* Untagged queues (RFC 5040 §5.1, RFC 7306 §5) */
#define IWS_QN_SEND 0
#define IWS_QN_READ_REQ 1   /* Read Requests and Atomic Requests */
#define IWS_QN_TERMINATE 2
#define IWS_QN_ATOMIC_RESP 3

/* Warnings: decodable but not as the RFCs say. */
#define IWS_DDP_W_RSVD 0x01        /* DDP reserved bits set */
#define IWS_DDP_W_RDMAP_RSVD 0x02  /* RDMAP reserved bits set */
#define IWS_DDP_W_RSVDULP 0x04     /* RsvdULP non-zero where RDMAP says reserved */

struct iws_ddp_hdr {
	bool tagged, last;
	uint8_t ctrl;          /* raw DDP control octet */
	uint8_t rdmap_ctrl;    /* raw RDMAP control octet */
	uint8_t rsvd;          /* DDP reserved bits (shifted down) */
	uint8_t dv;            /* DDP version */
	uint8_t rv;            /* RDMAP version */
	uint8_t rdmap_rsvd;
	uint8_t opcode;        /* RDMAP opcode */
	uint32_t hdr_len;      /* 14 (tagged) or 18 (untagged) */
	/* tagged buffer model */
	uint32_t stag;
	uint64_t to;
	/* untagged buffer model */
	uint32_t rsvdulp;      /* Invalidate STag for Send with Invalidate */
	uint32_t qn, msn, mo;
	uint32_t warnings;     /* IWS_DDP_W_* */
	struct iws_field f_ctrl, f_rdmap_ctrl, f_stag, f_to, f_rsvdulp, f_qn, f_msn, f_mo;
};

/*
 * Decode the DDP header at buf[0] (the first ULPDU octet). MALFORMED when the
 * DDP or RDMAP version is not 1; opcode/queue consistency is RDMAP's business
 * (iws_rdmap_parse). base is added to every field offset, so a header embedded
 * in a Terminate reports offsets relative to the enclosing ULPDU.
 */
struct iws_result iws_ddp_parse(const uint8_t *buf, size_t len, uint32_t base, struct iws_ddp_hdr *out);

#ifdef __cplusplus
}
#endif
#endif
