// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-ddp.c - the iwarp.ddp protocol: DDP segment headers
 * (RFC 5041 §4), version and reserved-bit checks, MSN gaps and MO/TO
 * discontinuities (from the core's tracker); the reassembly of untagged
 * messages is packet-iwarp-ddp-msg.c's.
 */
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>

#include "iwarpscope/names.h"
#include "packet-iwarp-ddp.h"
#include "packet-iwarp-ddp-msg.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-rdmap.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-prefs.h"

int proto_iwarp_ddp = -1;

static int hf_iwarp_ddp_control = -1;
static int hf_iwarp_ddp_tagged = -1;
static int hf_iwarp_ddp_last = -1;
static int hf_iwarp_ddp_rsvd = -1;
static int hf_iwarp_ddp_version = -1;
static int hf_iwarp_ddp_stag = -1;
static int hf_iwarp_ddp_to = -1;
static int hf_iwarp_ddp_rsvdulp = -1;
static int hf_iwarp_ddp_qn = -1;
static int hf_iwarp_ddp_msn = -1;
static int hf_iwarp_ddp_mo = -1;

static gint ett_iwarp_ddp = -1;
static gint ett_iwarp_ddp_control = -1;

static expert_field ei_iwarp_ddp_version = EI_INIT;
static expert_field ei_iwarp_ddp_rsvd = EI_INIT;
static expert_field ei_iwarp_ddp_msn_gap = EI_INIT;
static expert_field ei_iwarp_ddp_mo_gap = EI_INIT;
static expert_field ei_iwarp_ddp_to_gap = EI_INIT;
static expert_field ei_iwarp_ddp_short = EI_INIT;

#define IWS_VS_ENTRY(v, s) { (v), (s) },
static const value_string iwarp_ddp_qn_vals[] = { IWS_DDP_QN_NAMES(IWS_VS_ENTRY) { 0, NULL } };

static int *const iwarp_ddp_control_fields[] = {
	&hf_iwarp_ddp_tagged, &hf_iwarp_ddp_last, &hf_iwarp_ddp_rsvd, &hf_iwarp_ddp_version, NULL
};

/* The control field: its bits, the version and reserved-bit checks. */
static void show_control(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *dt, proto_item *ti,
			 const struct iws_ddp_hdr *h)
{
	proto_item *ci = proto_tree_add_bitmask(dt, ulpdu, h->f_ctrl.off, hf_iwarp_ddp_control, ett_iwarp_ddp_control,
						iwarp_ddp_control_fields, ENC_BIG_ENDIAN);
	if (h->dv != IWS_DDP_VERSION)
		expert_add_info_format(pinfo, ci, &ei_iwarp_ddp_version, "DDP version %u (expected 1)", h->dv);
	if (h->rsvd)
		expert_add_info(pinfo, ci, &ei_iwarp_ddp_rsvd);
	proto_item_append_text(ti, ", %s%s", h->tagged ? "tagged" : "untagged", h->last ? ", last" : "");
}

/* The buffer model's fields at the offsets of the header's decode, with
 * the tracker's MSN and MO/TO discontinuities. */
static void show_fields(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *dt, proto_item *ti,
			const struct iws_ddp_hdr *h, const struct iws_seg_note *note)
{
	proto_item *pi;
	if (h->tagged) {
		proto_tree_add_item(dt, hf_iwarp_ddp_stag, ulpdu, h->f_stag.off, h->f_stag.len, ENC_BIG_ENDIAN);
		pi = proto_tree_add_item(dt, hf_iwarp_ddp_to, ulpdu, h->f_to.off, h->f_to.len, ENC_BIG_ENDIAN);
		if (note->flags & IWS_SEGF_OFFSET_GAP)
			expert_add_info(pinfo, pi, &ei_iwarp_ddp_to_gap);
		proto_item_append_text(ti, ", STag 0x%08x, TO 0x%" PRIx64, h->stag, h->to);
		return;
	}
	proto_tree_add_item(dt, hf_iwarp_ddp_rsvdulp, ulpdu, h->f_rsvdulp.off, h->f_rsvdulp.len, ENC_BIG_ENDIAN);
	proto_tree_add_item(dt, hf_iwarp_ddp_qn, ulpdu, h->f_qn.off, h->f_qn.len, ENC_BIG_ENDIAN);
	pi = proto_tree_add_item(dt, hf_iwarp_ddp_msn, ulpdu, h->f_msn.off, h->f_msn.len, ENC_BIG_ENDIAN);
	if (note->flags & IWS_SEGF_MSN_GAP)
		expert_add_info(pinfo, pi, &ei_iwarp_ddp_msn_gap);
	pi = proto_tree_add_item(dt, hf_iwarp_ddp_mo, ulpdu, h->f_mo.off, h->f_mo.len, ENC_BIG_ENDIAN);
	if (note->flags & IWS_SEGF_OFFSET_GAP)
		expert_add_info(pinfo, pi, &ei_iwarp_ddp_mo_gap);
	proto_item_append_text(ti, ", QN %u, MSN %u, MO %u", h->qn, h->msn, h->mo);
}

void iwarp_ddp_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
		       iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res)
{
	guint32 avail = tvb_captured_length(ulpdu);
	/* msg has no decode (captured 0) when a snapshot length cut the
	 * header before the core could read it */
	struct iws_ddp_hdr h;
	iwarp_ddp_header_view(ulpdu, 0, msg->captured ? &msg->ddp : NULL, &h);

	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_ddp, ulpdu, 0, MIN(h.hdr_len, avail), ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_ddp);
	proto_tree *dt = proto_item_add_subtree(ti, ett_iwarp_ddp);
	show_control(ulpdu, pinfo, dt, ti, &h);
	if (avail < h.hdr_len)
		expert_add_info(pinfo, ti, &ei_iwarp_ddp_short);
	else
		show_fields(ulpdu, pinfo, dt, ti, &h, &rec->pdu.note);
	iwarp_rdmap_dissect(ulpdu, pinfo, tree, ic, rec, msg, res, &h);
}

void iwarp_ddp_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_iwarp_ddp_control, { "DDP control", "iwarp.ddp.control", FT_UINT8, BASE_HEX, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_ddp_tagged, { "Tagged (T)", "iwarp.ddp.tagged", FT_BOOLEAN, 8, NULL, IWS_DDP_FLAG_T,
			"Tagged buffer model", HFILL } },
		{ &hf_iwarp_ddp_last, { "Last (L)", "iwarp.ddp.last", FT_BOOLEAN, 8, NULL, IWS_DDP_FLAG_L,
			"Last segment of the DDP message", HFILL } },
		{ &hf_iwarp_ddp_rsvd, { "Reserved", "iwarp.ddp.rsvd", FT_UINT8, BASE_HEX, NULL, IWS_DDP_RSVD_MASK,
			NULL, HFILL } },
		{ &hf_iwarp_ddp_version, { "Version", "iwarp.ddp.version", FT_UINT8, BASE_DEC, NULL,
			IWS_DDP_DV_MASK, NULL, HFILL } },
		{ &hf_iwarp_ddp_stag, { "STag", "iwarp.ddp.stag", FT_UINT32, BASE_HEX, NULL, 0x0,
			"Steering tag", HFILL } },
		{ &hf_iwarp_ddp_to, { "TO", "iwarp.ddp.to", FT_UINT64, BASE_HEX, NULL, 0x0, "Tagged offset", HFILL } },
		{ &hf_iwarp_ddp_rsvdulp, { "RsvdULP", "iwarp.ddp.rsvdulp", FT_UINT32, BASE_HEX, NULL, 0x0,
			"Reserved for the ULP (RDMAP: Invalidate STag)", HFILL } },
		{ &hf_iwarp_ddp_qn, { "QN", "iwarp.ddp.qn", FT_UINT32, BASE_DEC, VALS(iwarp_ddp_qn_vals), 0x0,
			"Queue number", HFILL } },
		{ &hf_iwarp_ddp_msn, { "MSN", "iwarp.ddp.msn", FT_UINT32, BASE_DEC, NULL, 0x0,
			"Message sequence number", HFILL } },
		{ &hf_iwarp_ddp_mo, { "MO", "iwarp.ddp.mo", FT_UINT32, BASE_DEC, NULL, 0x0, "Message offset", HFILL } },
	};
	static gint *ett[] = {
		&ett_iwarp_ddp, &ett_iwarp_ddp_control,
	};
	static ei_register_info ei[] = {
		{ &ei_iwarp_ddp_version, { "iwarp.ddp.version.bad", PI_PROTOCOL, PI_ERROR,
			"DDP version is not 1", EXPFILL } },
		{ &ei_iwarp_ddp_rsvd, { "iwarp.ddp.rsvd_set", PI_PROTOCOL, PI_WARN,
			"DDP reserved bits set", EXPFILL } },
		{ &ei_iwarp_ddp_msn_gap, { "iwarp.ddp.msn.gap", PI_SEQUENCE, PI_WARN,
			"MSN does not follow the previous message of this queue", EXPFILL } },
		{ &ei_iwarp_ddp_mo_gap, { "iwarp.ddp.mo.gap", PI_SEQUENCE, PI_WARN,
			"MO does not continue the message", EXPFILL } },
		{ &ei_iwarp_ddp_to_gap, { "iwarp.ddp.to.gap", PI_SEQUENCE, PI_WARN,
			"TO does not continue the tagged message", EXPFILL } },
		{ &ei_iwarp_ddp_short, { "iwarp.ddp.short", PI_MALFORMED, PI_ERROR,
			"ULPDU shorter than its DDP header", EXPFILL } },
	};

	proto_iwarp_ddp = proto_register_protocol("iWARP DDP (iwarpscope)", "iWARP DDP", "iwarp.ddp");
	proto_register_field_array(proto_iwarp_ddp, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_module_t *em = expert_register_protocol(proto_iwarp_ddp);
	expert_register_field_array(em, ei, array_length(ei));
	iwarp_ddp_msg_register(proto_iwarp_ddp);
	module_t *m = prefs_register_protocol(proto_iwarp_ddp, NULL);
	prefs_register_bool_preference(m, "reassemble_untagged", "Reassemble untagged (Send) messages",
		"Put the segments of a Send message together by MSN and MO (whatever order they arrive "
		"in) and hand the whole message to upper-layer dissectors.", &iwarp_prefs.reassemble_untagged);
}

void iwarp_ddp_handoff(void)
{
}
