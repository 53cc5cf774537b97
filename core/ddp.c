// SPDX-License-Identifier: GPL-2.0-or-later
/* DDP segment headers (RFC 5041 §4.2-§4.4) and the RDMAP control octet
 * (RFC 5040 §4.2) that shares the DDP control field. */
#include "iwarpscope/ddp.h"

#include <string.h>

#include "bytes.h"

struct iws_result iws_ddp_parse(const uint8_t *buf, size_t len, uint32_t base, struct iws_ddp_hdr *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 2)
		return iws_need(IWS_DDP_TAGGED_HDR_LEN);
	out->ctrl = buf[0];
	out->rdmap_ctrl = buf[1];
	out->tagged = (out->ctrl & IWS_DDP_FLAG_T) != 0;
	out->last = (out->ctrl & IWS_DDP_FLAG_L) != 0;
	out->rsvd = (uint8_t)((out->ctrl & IWS_DDP_RSVD_MASK) >> 2);
	out->dv = out->ctrl & IWS_DDP_DV_MASK;
	out->rv = (uint8_t)((out->rdmap_ctrl & IWS_RDMAP_RV_MASK) >> 6);
	out->rdmap_rsvd = (uint8_t)((out->rdmap_ctrl & IWS_RDMAP_RSVD_MASK) >> 4);
	out->opcode = out->rdmap_ctrl & IWS_RDMAP_OPCODE_MASK;
	out->hdr_len = out->tagged ? IWS_DDP_TAGGED_HDR_LEN : IWS_DDP_UNTAGGED_HDR_LEN;
	out->f_ctrl = iws_fld(base, 1);
	out->f_rdmap_ctrl = iws_fld(base + 1, 1);

	/* RFC 5041 §4.2: reserved bits are set to zero and not checked on
	 * receive, so they are only a warning; a different version means the
	 * rest of the header cannot be interpreted. */
	if (out->rsvd)
		out->warnings |= IWS_DDP_W_RSVD;
	if (out->rdmap_rsvd)
		out->warnings |= IWS_DDP_W_RDMAP_RSVD;
	if (out->dv != IWS_DDP_VERSION)
		return iws_malformed("DDP version is not 1", 0, 1);
	if (out->rv != IWS_RDMAP_VERSION)
		return iws_malformed("RDMAP version is not 1", 1, 1);
	if (len < out->hdr_len)
		return iws_need(out->hdr_len);

	if (out->tagged) {
		out->stag = iws_be32(buf + 2);
		out->to = iws_be64(buf + 6);
		out->f_stag = iws_fld(base + 2, 4);
		out->f_to = iws_fld(base + 6, 8);
	} else {
		out->rsvdulp = iws_be32(buf + 2);
		out->qn = iws_be32(buf + 6);
		out->msn = iws_be32(buf + 10);
		out->mo = iws_be32(buf + 14);
		out->f_rsvdulp = iws_fld(base + 2, 4);
		out->f_qn = iws_fld(base + 6, 4);
		out->f_msn = iws_fld(base + 10, 4);
		out->f_mo = iws_fld(base + 14, 4);
	}
	return iws_ok();
}
