// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMAP messages (RFC 5040 §4, RFC 7306 §4-§5): opcode/queue rules and the
 * opcode-specific headers that follow the DDP header. */
#include "iwarpscope/rdmap.h"

#include <string.h>

#include "bytes.h"

int iws_rdmap_opcode_queue(uint8_t opcode)
{
	switch (opcode) {
	case IWS_OP_CODE_WRITE:
	case IWS_OP_CODE_READ_RESP:
		return -1;
	case IWS_OP_CODE_READ_REQ:
	case IWS_OP_CODE_ATOMIC_REQ:
		return IWS_QN_READ_REQ;
	case IWS_OP_CODE_SEND:
	case IWS_OP_CODE_SEND_INV:
	case IWS_OP_CODE_SEND_SE:
	case IWS_OP_CODE_SEND_SE_INV:
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		return IWS_QN_SEND;
	case IWS_OP_CODE_TERMINATE:
		return IWS_QN_TERMINATE;
	case IWS_OP_CODE_ATOMIC_RESP:
		return IWS_QN_ATOMIC_RESP;
	default:
		return -2;
	}
}

static void parse_read_req(const uint8_t *p, uint32_t base, struct iws_rdmap_read_req *rr)
{
	rr->sink_stag = iws_be32(p);
	rr->sink_to = iws_be64(p + 4);
	rr->size = iws_be32(p + 12);
	rr->src_stag = iws_be32(p + 16);
	rr->src_to = iws_be64(p + 20);
	rr->f_sink_stag = iws_fld(base, 4);
	rr->f_sink_to = iws_fld(base + 4, 8);
	rr->f_size = iws_fld(base + 12, 4);
	rr->f_src_stag = iws_fld(base + 16, 4);
	rr->f_src_to = iws_fld(base + 20, 8);
}

/*
 * RFC 5040 §4.8: Terminate Control (layer 4 | etype 4 | code 8 | M D R |
 * reserved 13), then - when any of M/D/R is set - the 16-bit DDP Segment
 * Length of the terminated segment (valid when M), the terminated DDP header
 * (D; tagged or untagged by its own T bit) and the terminated RDMAP header
 * (R; only a Read Request has one, 28 octets).
 */
struct iws_result iws_rdmap_parse_terminate(const uint8_t *buf, size_t len, uint32_t base,
					    struct iws_rdmap_terminate *t)
{
	memset(t, 0, sizeof(*t));
	if (len < IWS_RDMAP_TERM_CTRL_LEN)
		return iws_need(IWS_RDMAP_TERM_CTRL_LEN);
	uint32_t w = iws_be32(buf);
	t->layer = (uint8_t)(w >> 28);
	t->etype = (uint8_t)((w >> 24) & 0xF);
	t->errcode = (uint8_t)((w >> 16) & 0xFF);
	t->m = (w & IWS_TERM_HDRCT_M) != 0;
	t->d = (w & IWS_TERM_HDRCT_D) != 0;
	t->r = (w & IWS_TERM_HDRCT_R) != 0;
	t->rsvd = (uint16_t)(w & 0x1FFF);
	t->f_ctrl = iws_fld(base, 4);
	size_t off = IWS_RDMAP_TERM_CTRL_LEN;
	if (!(t->m || t->d || t->r))
		return iws_ok();

	if (len < off + 2)
		return iws_need(off + 2);
	t->has_seg_len = true;
	t->ddp_seg_len = iws_be16(buf + off);
	t->f_seg_len = iws_fld(base + (uint32_t)off, 2);
	off += 2;

	if (t->d) {
		if (len < off + 2)
			return iws_need(off + IWS_DDP_TAGGED_HDR_LEN);
		uint32_t hl = (buf[off] & IWS_DDP_FLAG_T) ? IWS_DDP_TAGGED_HDR_LEN : IWS_DDP_UNTAGGED_HDR_LEN;
		if (len < off + hl)
			return iws_need(off + hl);
		t->has_ddp = true;
		t->f_ddp = iws_fld(base + (uint32_t)off, hl);
		/* The terminated header may itself be the bad one (that can be the
		 * reason for the Terminate): record its status, do not fail. */
		t->ddp_status = iws_ddp_parse(buf + off, hl, base + (uint32_t)off, &t->ddp);
		off += hl;
	}
	if (t->r) {
		if (len < off + IWS_RDMAP_READ_REQ_LEN)
			return iws_need(off + IWS_RDMAP_READ_REQ_LEN);
		t->has_rdmap = true;
		t->f_rdmap = iws_fld(base + (uint32_t)off, IWS_RDMAP_READ_REQ_LEN);
		parse_read_req(buf + off, base + (uint32_t)off, &t->rdmap);
	}
	return iws_ok();
}

/* The opcode's rules that the DDP header must meet (RFC 5040 §4.2, RFC 7306
 * §4-§5): a defined opcode, on a tagged or untagged segment as the opcode
 * says, on its own queue; RsvdULP reserved where no STag is invalidated;
 * and, for a message that is never split (all but Send), one segment with
 * MO 0 and L set (RFC 5041 §4.2, §5.3). */
static struct iws_result check_opcode(struct iws_msg *out)
{
	const struct iws_ddp_hdr *h = &out->ddp;
	int q = iws_rdmap_opcode_queue(h->opcode);
	if (q == -2)
		return iws_malformed("RDMAP opcode not defined by RFC 5040/7306", 1, 1);
	if (q == -1 && !h->tagged)
		return iws_malformed("tagged RDMAP opcode in an untagged DDP segment", 0, 2);
	if (q >= 0 && h->tagged)
		return iws_malformed("untagged RDMAP opcode in a tagged DDP segment", 0, 2);
	if (q >= 0 && h->qn != (uint32_t)q)
		return iws_malformed("RDMAP opcode on the wrong DDP queue", h->f_qn.off, 4);

	bool rsvdulp_reserved = !h->tagged && !iws_rdmap_is_send_inv(h->opcode);
	if (rsvdulp_reserved && h->rsvdulp)
		out->warnings |= IWS_DDP_W_RSVDULP;
	if (!h->tagged && !iws_rdmap_is_send(h->opcode) && (h->mo != 0 || !h->last))
		return iws_malformed("single-segment RDMAP message with MO != 0 or L == 0", h->f_mo.off, 4);
	return iws_ok();
}

/* The Atomic Request header (RFC 7306 §5) at p, buffer offset base. */
static void parse_atomic_req(const uint8_t *p, uint32_t base, struct iws_msg *out)
{
	struct iws_rdmap_atomic_req *a = &out->u.atomic_req;
	uint32_t w = iws_be32(p);
	a->rsvd = w >> 4;
	a->aopcode = (uint8_t)(w & 0xF);
	a->req_id = iws_be32(p + 4);
	a->stag = iws_be32(p + 8);
	a->to = iws_be64(p + 12);
	a->add_swap = iws_be64(p + 20);
	a->add_swap_mask = iws_be64(p + 28);
	a->compare = iws_be64(p + 36);
	a->compare_mask = iws_be64(p + 44);
	a->f_aopcode = iws_fld(base, 4);
	a->f_req_id = iws_fld(base + 4, 4);
	a->f_stag = iws_fld(base + 8, 4);
	a->f_to = iws_fld(base + 12, 8);
	a->f_add_swap = iws_fld(base + 20, 8);
	a->f_add_swap_mask = iws_fld(base + 28, 8);
	a->f_compare = iws_fld(base + 36, 8);
	a->f_compare_mask = iws_fld(base + 44, 8);
	if (a->aopcode > IWS_AOP_CMP_SWAP)
		out->warnings |= IWS_RDMAP_W_AOP_UNKNOWN;
}

/* The Atomic Response header (RFC 7306 §5) at p, buffer offset base. */
static void parse_atomic_resp(const uint8_t *p, uint32_t base, struct iws_rdmap_atomic_resp *ar)
{
	ar->req_id = iws_be32(p);
	ar->orig_value = iws_be64(p + 4);
	ar->f_req_id = iws_fld(base, 4);
	ar->f_orig_value = iws_fld(base + 4, 8);
}

/* The Terminate header (RFC 5040 §4.8) after the DDP header (hl octets). */
static struct iws_result parse_terminate_msg(const uint8_t *p, size_t rest, uint32_t hl,
					     struct iws_msg *out)
{
	struct iws_result tr = iws_rdmap_parse_terminate(p, rest, hl, &out->u.term);
	if (tr.status == IWS_NEED_MORE)
		return iws_need(hl + tr.need);
	if (out->u.term.rsvd)
		out->warnings |= IWS_RDMAP_W_TERM_RSVD;
	return iws_ok();
}

/* The fixed RDMAP header that the opcode puts after the DDP header, 0 if
 * none (Write, Read Response, the Send family: the rest is ULP payload;
 * Terminate: its length depends on its control field). */
static size_t fixed_hdr_len(uint8_t opcode)
{
	switch (opcode) {
	case IWS_OP_CODE_READ_REQ:
		return IWS_RDMAP_READ_REQ_LEN;
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		return IWS_RDMAP_IMMEDIATE_LEN;
	case IWS_OP_CODE_ATOMIC_REQ:
		return IWS_RDMAP_ATOMIC_REQ_LEN;
	case IWS_OP_CODE_ATOMIC_RESP:
		return IWS_RDMAP_ATOMIC_RESP_LEN;
	default:
		return 0;
	}
}

struct iws_result iws_rdmap_parse(const uint8_t *buf, size_t len, struct iws_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->captured = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	struct iws_ddp_hdr *h = &out->ddp;
	struct iws_result r = iws_ddp_parse(buf, len, 0, h);
	out->warnings = h->warnings;
	if (r.status != IWS_OK)
		return r;
	r = check_opcode(out);
	if (r.status != IWS_OK)
		return r;

	uint32_t hl = h->hdr_len;
	size_t rest = len - hl;
	const uint8_t *p = buf + hl;
	if (h->opcode == IWS_OP_CODE_TERMINATE)
		return parse_terminate_msg(p, rest, hl, out);
	size_t fixed = fixed_hdr_len(h->opcode);
	if (!fixed) {
		/* Write, Read Response, Send family: the rest is ULP payload. */
		out->payload_off = hl;
		out->payload_len = (uint32_t)rest;
		return iws_ok();
	}
	if (rest < fixed)
		return iws_need(hl + fixed);

	switch (h->opcode) {
	case IWS_OP_CODE_READ_REQ:
		parse_read_req(p, hl, &out->u.read_req);  /* RFC 5040 §4.4 */
		break;
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		out->u.immediate = iws_be64(p);  /* RFC 7306 §4.3 */
		out->f_immediate = iws_fld(hl, 8);
		break;
	case IWS_OP_CODE_ATOMIC_REQ:
		parse_atomic_req(p, hl, out);
		break;
	case IWS_OP_CODE_ATOMIC_RESP:
		parse_atomic_resp(p, hl, &out->u.atomic_resp);
		break;
	}
	if (rest > fixed)
		out->warnings |= IWS_RDMAP_W_TRAILING;
	return iws_ok();
}
