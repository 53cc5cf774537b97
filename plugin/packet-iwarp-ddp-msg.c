// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-ddp-msg.c - what the DDP layer gives the layers above it
 * (packet-iwarp-ddp-msg.h): a DDP header as the plugin shows it (also the
 * one a Terminate message quotes, RFC 5040 §4.8), and the reassembly of an
 * untagged message by MSN and MO, whatever order its segments arrive in
 * (RFC 5041 §5.3). Its fields are iwarp.ddp's (iwarp.ddp.fragment...).
 */
#include <epan/packet.h>
#include <epan/reassemble.h>

#include "packet-iwarp-ddp-msg.h"

static int hf_iwarp_ddp_fragments = -1;
static int hf_iwarp_ddp_fragment = -1;
static int hf_iwarp_ddp_fragment_overlap = -1;
static int hf_iwarp_ddp_fragment_overlap_conflicts = -1;
static int hf_iwarp_ddp_fragment_multiple_tails = -1;
static int hf_iwarp_ddp_fragment_too_long = -1;
static int hf_iwarp_ddp_fragment_error = -1;
static int hf_iwarp_ddp_fragment_count = -1;
static int hf_iwarp_ddp_reassembled_in = -1;
static int hf_iwarp_ddp_reassembled_length = -1;
static int hf_iwarp_ddp_reassembled_data = -1;

static gint ett_iwarp_ddp_fragment = -1;
static gint ett_iwarp_ddp_fragments = -1;

static reassembly_table iwarp_ddp_reassembly_table;

static const fragment_items iwarp_ddp_frag_items = {
	&ett_iwarp_ddp_fragment, &ett_iwarp_ddp_fragments,
	&hf_iwarp_ddp_fragments, &hf_iwarp_ddp_fragment, &hf_iwarp_ddp_fragment_overlap,
	&hf_iwarp_ddp_fragment_overlap_conflicts, &hf_iwarp_ddp_fragment_multiple_tails,
	&hf_iwarp_ddp_fragment_too_long, &hf_iwarp_ddp_fragment_error, &hf_iwarp_ddp_fragment_count,
	&hf_iwarp_ddp_reassembled_in, &hf_iwarp_ddp_reassembled_length, &hf_iwarp_ddp_reassembled_data,
	"DDP segments"
};

/* Did the decode h give the fields of its buffer model (the core decodes
 * none of a header whose DDP or RDMAP version is not 1)? */
static gboolean fields_decoded(const struct iws_ddp_hdr *h)
{
	return h->f_ctrl.len && (h->tagged ? h->f_stag.len : h->f_qn.len);
}

void iwarp_ddp_header_view(tvbuff_t *tvb, guint32 off, const struct iws_ddp_hdr *core, struct iws_ddp_hdr *h)
{
	if (core && fields_decoded(core)) {
		*h = *core;
		return;
	}
	/* The control octets as captured, then the fields where a version 1
	 * header of the same T flag has them (octets not captured read as
	 * zero: a field is shown only if captured). */
	guint8 oct[IWS_DDP_UNTAGGED_HDR_LEN] = { 0 };
	gint have = tvb_captured_length_remaining(tvb, (gint)off);
	guint32 n = have > 0 ? MIN((guint32)have, (guint32)sizeof(oct)) : 0;
	if (n)
		tvb_memcpy(tvb, oct, (gint)off, n);
	struct iws_ddp_hdr ctl;
	iws_ddp_parse(oct, sizeof(oct), off, &ctl);
	oct[0] = (guint8)((oct[0] & ~IWS_DDP_DV_MASK) | IWS_DDP_VERSION);
	oct[1] = (guint8)((oct[1] & ~IWS_RDMAP_RV_MASK) | (IWS_RDMAP_VERSION << 6));
	iws_ddp_parse(oct, sizeof(oct), off, h);
	/* only the version bits differ: they are the captured ones */
	h->ctrl = ctl.ctrl;
	h->rdmap_ctrl = ctl.rdmap_ctrl;
	h->dv = ctl.dv;
	h->rv = ctl.rv;
	h->warnings = ctl.warnings;
}

tvbuff_t *iwarp_ddp_reassemble(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
			       const struct iws_msg *msg)
{
	guint32 len = tvb_reported_length(payload);
	if (tvb_captured_length(payload) != len)
		return NULL;
	gboolean save = pinfo->fragmented;
	pinfo->fragmented = TRUE;
	fragment_head *fh = fragment_add_check(&iwarp_ddp_reassembly_table, payload, 0, pinfo,
					       msg->ddp.msn, NULL, msg->ddp.mo, len, !msg->ddp.last);
	tvbuff_t *whole = process_reassembled_data(payload, 0, pinfo, "Reassembled DDP message", fh,
						   &iwarp_ddp_frag_items, NULL, tree);
	pinfo->fragmented = save;
	return whole;
}

void iwarp_ddp_msg_register(int proto_ddp)
{
	static hf_register_info hf[] = {
		{ &hf_iwarp_ddp_fragments, { "DDP segments", "iwarp.ddp.fragments", FT_NONE, BASE_NONE, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment, { "DDP segment", "iwarp.ddp.fragment", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_overlap, { "Overlap", "iwarp.ddp.fragment.overlap", FT_BOOLEAN, BASE_NONE,
			NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_overlap_conflicts, { "Overlapping data conflict",
			"iwarp.ddp.fragment.overlap.conflicts", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_multiple_tails, { "Multiple last segments",
			"iwarp.ddp.fragment.multiple_tails", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_too_long, { "Segment beyond the message end",
			"iwarp.ddp.fragment.too_long", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_error, { "Reassembly error", "iwarp.ddp.fragment.error", FT_FRAMENUM,
			BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_fragment_count, { "Segment count", "iwarp.ddp.fragment.count", FT_UINT32, BASE_DEC,
			NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_reassembled_in, { "Reassembled in", "iwarp.ddp.reassembled.in", FT_FRAMENUM,
			BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_reassembled_length, { "Reassembled length", "iwarp.ddp.reassembled.length",
			FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_ddp_reassembled_data, { "Reassembled data", "iwarp.ddp.reassembled.data", FT_BYTES,
			BASE_NONE, NULL, 0x0, NULL, HFILL } },
	};
	static gint *ett[] = { &ett_iwarp_ddp_fragment, &ett_iwarp_ddp_fragments };
	proto_register_field_array(proto_ddp, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	reassembly_table_register(&iwarp_ddp_reassembly_table, &addresses_ports_reassembly_table_functions);
}
