// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-mpa.c - the iwarp.mpa protocol: MPA Request/Reply frames
 * (RFC 5044 §7.1, RFC 6581 enhanced set-up, RTR), FPDU framing with markers
 * removed per direction, FPDUPTR validation, and CRC32c verification.
 * Framing, marker positions and CRC come from the core (core/mpa.c).
 */
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>

#include <string.h>

#include "iwarpscope/names.h"
#include "packet-iwarp-mpa.h"
#include "packet-iwarp-ddp.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-prefs.h"
#include "packet-iwarp-text.h"

int proto_iwarp_mpa = -1;

static int hf_iwarp_mpa_key = -1;
static int hf_iwarp_mpa_type = -1;
static int hf_iwarp_mpa_flags = -1;
static int hf_iwarp_mpa_flags_markers = -1;
static int hf_iwarp_mpa_flags_crc = -1;
static int hf_iwarp_mpa_flags_reject = -1;
static int hf_iwarp_mpa_flags_enhanced = -1;
static int hf_iwarp_mpa_flags_rsvd = -1;
static int hf_iwarp_mpa_rev = -1;
static int hf_iwarp_mpa_pd_len = -1;
static int hf_iwarp_mpa_ird_word = -1;
static int hf_iwarp_mpa_p2p = -1;
static int hf_iwarp_mpa_rtr_send = -1;
static int hf_iwarp_mpa_ird = -1;
static int hf_iwarp_mpa_ord_word = -1;
static int hf_iwarp_mpa_rtr_write = -1;
static int hf_iwarp_mpa_rtr_read = -1;
static int hf_iwarp_mpa_ord = -1;
static int hf_iwarp_mpa_rtr = -1;
static int hf_iwarp_mpa_private_data = -1;
static int hf_iwarp_mpa_legacy_ird = -1;
static int hf_iwarp_mpa_legacy_ord = -1;
static int hf_iwarp_mpa_neg_crc = -1;
static int hf_iwarp_mpa_neg_markers_i2r = -1;
static int hf_iwarp_mpa_neg_markers_r2i = -1;
static int hf_iwarp_mpa_dir = -1;
static int hf_iwarp_mpa_ulpdu_len = -1;
static int hf_iwarp_mpa_pad = -1;
static int hf_iwarp_mpa_crc = -1;
static int hf_iwarp_mpa_crc_status = -1;
static int hf_iwarp_mpa_marker = -1;
static int hf_iwarp_mpa_marker_rsvd = -1;
static int hf_iwarp_mpa_marker_fpduptr = -1;
static int hf_iwarp_mpa_skipped = -1;
static int hf_iwarp_mpa_reassembled_in = -1;
static int hf_iwarp_mpa_first_frame = -1;
static int hf_iwarp_mpa_completed_in = -1;

static gint ett_iwarp_mpa = -1;
static gint ett_iwarp_mpa_flags = -1;
static gint ett_iwarp_mpa_ird = -1;
static gint ett_iwarp_mpa_ord = -1;
static gint ett_iwarp_mpa_marker = -1;

static expert_field ei_iwarp_mpa_bad_crc = EI_INIT;
static expert_field ei_iwarp_mpa_bad_fpduptr = EI_INIT;
static expert_field ei_iwarp_mpa_marker_rsvd = EI_INIT;
static expert_field ei_iwarp_mpa_pd_len = EI_INIT;
static expert_field ei_iwarp_mpa_rsvd_flags = EI_INIT;
static expert_field ei_iwarp_mpa_unknown_rev = EI_INIT;
static expert_field ei_iwarp_mpa_s_not_rev2 = EI_INIT;
static expert_field ei_iwarp_mpa_enh_short = EI_INIT;
static expert_field ei_iwarp_mpa_r_in_request = EI_INIT;
static expert_field ei_iwarp_mpa_rejected = EI_INIT;
static expert_field ei_iwarp_mpa_not_mpa = EI_INIT;
static expert_field ei_iwarp_mpa_ulpdu_len = EI_INIT;
static expert_field ei_iwarp_mpa_truncated = EI_INIT;
static expert_field ei_iwarp_mpa_presync = EI_INIT;
static expert_field ei_iwarp_mpa_retrans = EI_INIT;
static expert_field ei_iwarp_mpa_gap = EI_INIT;
static expert_field ei_iwarp_mpa_after_reject = EI_INIT;
static expert_field ei_iwarp_mpa_midstream = EI_INIT;
static expert_field ei_iwarp_mpa_framing_lost = EI_INIT;
static expert_field ei_iwarp_mpa_markers_nonstandard = EI_INIT;
static expert_field ei_iwarp_mpa_limit = EI_INIT;
static expert_field ei_iwarp_mpa_late = EI_INIT;

#define IWS_VS_ENTRY(v, s) { (v), (s) },
static const value_string iwarp_mpa_frame_vals[] = { IWS_MPA_FRAME_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string iwarp_mpa_rtr_vals[] = { IWS_RTR_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string iwarp_mpa_dir_vals[] = {
	{ IWS_DIR_I2R, "initiator to responder" },
	{ IWS_DIR_R2I, "responder to initiator" },
	{ 0, NULL }
};

static int *const iwarp_mpa_flag_fields[] = {
	&hf_iwarp_mpa_flags_markers, &hf_iwarp_mpa_flags_crc, &hf_iwarp_mpa_flags_reject,
	&hf_iwarp_mpa_flags_enhanced, &hf_iwarp_mpa_flags_rsvd, NULL
};
static int *const iwarp_mpa_ird_fields[] = {
	&hf_iwarp_mpa_p2p, &hf_iwarp_mpa_rtr_send, &hf_iwarp_mpa_ird, NULL
};
static int *const iwarp_mpa_ord_fields[] = {
	&hf_iwarp_mpa_rtr_write, &hf_iwarp_mpa_rtr_read, &hf_iwarp_mpa_ord, NULL
};

/* The fixed header of an MPA Request or Reply after its key: flags,
 * revision, PD_Length, at the offsets of the core's decode. */
static void show_frame_header(tvbuff_t *tvb, packet_info *pinfo, proto_tree *mt, const struct iws_mpa_frame *f,
			      const struct iws_result *r)
{
	proto_item *pi = proto_tree_add_bitmask(mt, tvb, f->f_flags.off, hf_iwarp_mpa_flags, ett_iwarp_mpa_flags,
						iwarp_mpa_flag_fields, ENC_BIG_ENDIAN);
	if (f->warnings & IWS_MPA_W_RSVD_FLAGS)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_rsvd_flags);
	if (f->warnings & IWS_MPA_W_R_IN_REQUEST)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_r_in_request);
	if (f->reject && f->type == IWS_MPA_REPLY)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_rejected);
	pi = proto_tree_add_item(mt, hf_iwarp_mpa_rev, tvb, f->f_rev.off, f->f_rev.len, ENC_BIG_ENDIAN);
	if (f->warnings & IWS_MPA_W_UNKNOWN_REV)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_unknown_rev);
	if (f->warnings & IWS_MPA_W_S_NOT_REV2)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_s_not_rev2);
	pi = proto_tree_add_item(mt, hf_iwarp_mpa_pd_len, tvb, f->f_pd_len.off, f->f_pd_len.len, ENC_BIG_ENDIAN);
	if (r->status == IWS_MALFORMED)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_pd_len);
	if (f->warnings & IWS_MPA_W_ENH_SHORT)
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_enh_short);
}

/* The private data: the enhanced IRD/ORD word (MPA Rev 2), or a Rev 1
 * SMB Direct IRD/ORD pair, then the ULP's own (NVMe/RDMA's rdma_cm data). */
static void show_private_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, proto_tree *mt, iwarp_conv *ic,
			      const struct iws_mpa_frame *f, const struct iws_result *r)
{
	guint32 pd_off = IWS_MPA_HDR_LEN, pd_len = r->status == IWS_OK ? f->pd_len : 0;
	if (f->has_enhanced) {
		proto_tree_add_bitmask(mt, tvb, f->f_ird.off, hf_iwarp_mpa_ird_word, ett_iwarp_mpa_ird,
				       iwarp_mpa_ird_fields, ENC_BIG_ENDIAN);
		proto_tree_add_bitmask(mt, tvb, f->f_ord.off, hf_iwarp_mpa_ord_word, ett_iwarp_mpa_ord,
				       iwarp_mpa_ord_fields, ENC_BIG_ENDIAN);
		proto_item *pi = proto_tree_add_uint(mt, hf_iwarp_mpa_rtr, tvb, f->f_ird.off, IWS_MPA_ENHANCED_LEN, f->rtr);
		proto_item_set_generated(pi);
		pd_off = f->f_ulp_pd.off;
		pd_len = f->f_ulp_pd.len;
	} else if (f->rev == 1 && !f->enhanced_flag && pd_len == 8 && iwarp_prefs.legacy_ird_ord) {
		proto_tree_add_item(mt, hf_iwarp_mpa_legacy_ird, tvb, pd_off, 4, ENC_BIG_ENDIAN);
		proto_tree_add_item(mt, hf_iwarp_mpa_legacy_ord, tvb, pd_off + 4, 4, ENC_BIG_ENDIAN);
		pd_len = 0;
	}
	if (pd_len) {
		proto_tree_add_item(mt, hf_iwarp_mpa_private_data, tvb, pd_off, pd_len, ENC_NA);
		iwarp_nvme_private_data(tvb, pinfo, tree, ic, f->type, pd_off, pd_len);
	}
}

/* On the Reply of a complete handshake: what the two sides negotiated. */
static void show_negotiated(tvbuff_t *tvb, proto_tree *mt, iwarp_conv *ic, const struct iws_mpa_frame *f)
{
	const struct iws_mpa_conn *neg = iwarp_conv_mpa(ic);
	if (f->type != IWS_MPA_REPLY || neg->state != IWS_MPA_ST_FULL)
		return;
	proto_item *pi = proto_tree_add_boolean(mt, hf_iwarp_mpa_neg_crc, tvb, 0, 0, neg->crc);
	proto_item_set_generated(pi);
	pi = proto_tree_add_boolean(mt, hf_iwarp_mpa_neg_markers_i2r, tvb, 0, 0, neg->dir[IWS_DIR_I2R].markers);
	proto_item_set_generated(pi);
	pi = proto_tree_add_boolean(mt, hf_iwarp_mpa_neg_markers_r2i, tvb, 0, 0, neg->dir[IWS_DIR_R2I].markers);
	proto_item_set_generated(pi);
}

/* The Info column of an MPA Request or Reply. */
static void frame_info(packet_info *pinfo, const struct iws_mpa_frame *f)
{
	wmem_strbuf_t *sb = wmem_strbuf_new(pinfo->pool, "");
	wmem_strbuf_append_printf(sb, "%s Rev %u", val_to_str_const(f->type, iwarp_mpa_frame_vals, "MPA"), f->rev);
	if (f->crc)
		wmem_strbuf_append(sb, " CRC");
	if (f->markers)
		wmem_strbuf_append(sb, " markers");
	if (f->reject)
		wmem_strbuf_append(sb, " REJECT");
	if (f->has_enhanced)
		wmem_strbuf_append_printf(sb, " IRD %u ORD %u", f->ird, f->ord);
	if (f->p2p)
		wmem_strbuf_append_printf(sb, " P2P RTR %s", val_to_str_const(f->rtr, iwarp_mpa_rtr_vals, "mixed"));
	iwarp_col_append(pinfo, wmem_strbuf_get_str(sb));
}

void iwarp_mpa_dissect_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			     const iwarp_pdu_rec *rec)
{
	guint32 cap = tvb_captured_length(tvb);
	const guint8 *p = tvb_get_ptr(tvb, 0, cap);
	struct iws_mpa_frame f;
	struct iws_result r = iws_mpa_parse_frame(p, cap, &f);

	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_mpa, tvb, 0, -1, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_mpa);
	proto_tree *mt = proto_item_add_subtree(ti, ett_iwarp_mpa);
	proto_item *pi = proto_tree_add_uint(mt, hf_iwarp_mpa_dir, tvb, 0, 0, rec->pdu.dir);
	proto_item_set_generated(pi);
	if (!f.type) {
		/* Cannot happen: the core found the key here. */
		expert_add_info(pinfo, ti, &ei_iwarp_mpa_not_mpa);
		return;
	}

	proto_item_append_text(ti, ", %s", val_to_str_const(f.type, iwarp_mpa_frame_vals, "?"));
	proto_tree_add_item(mt, hf_iwarp_mpa_key, tvb, 0, IWS_MPA_KEY_LEN, ENC_ASCII);
	pi = proto_tree_add_uint(mt, hf_iwarp_mpa_type, tvb, 0, IWS_MPA_KEY_LEN, f.type);
	proto_item_set_generated(pi);
	if (cap < IWS_MPA_HDR_LEN) {
		expert_add_info(pinfo, ti, &ei_iwarp_mpa_truncated);
		return;
	}
	show_frame_header(tvb, pinfo, mt, &f, &r);
	show_private_data(tvb, pinfo, tree, mt, ic, &f, &r);
	show_negotiated(tvb, mt, ic, &f);
	frame_info(pinfo, &f);
}

void iwarp_mpa_add_span(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 len,
			const iwarp_span_rec *sp)
{
	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_mpa, tvb, off, len, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_mpa);
	proto_tree *mt = proto_item_add_subtree(ti, ett_iwarp_mpa);
	if (sp->kind == IWS_SPAN_PART) {
		/* Octets of a PDU that became complete in another frame. */
		proto_item_append_text(ti, ", %u octets of an FPDU reassembled in frame %u", len, sp->pdu_frame);
		proto_item *pi = proto_tree_add_uint(mt, hf_iwarp_mpa_reassembled_in, tvb, off, len, sp->pdu_frame);
		proto_item_set_generated(pi);
		iwarp_col_append_printf(pinfo, "[FPDU segment, reassembled in frame %u]", sp->pdu_frame);
		return;
	}
	proto_item *pi = proto_tree_add_item(mt, hf_iwarp_mpa_skipped, tvb, off, len, ENC_NA);
	switch (sp->kind) {
	case IWS_SPAN_RETRANS:
		proto_item_append_text(ti, ", retransmitted data (already decoded)");
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_retrans);
		iwarp_col_append(pinfo, "[retransmitted iWARP data]");
		break;
	case IWS_SPAN_AFTER_GAP:
		proto_item_append_text(ti, ", data after a capture gap (FPDU boundary not yet found)");
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_gap);
		iwarp_col_append(pinfo, "[iWARP data after a gap]");
		break;
	case IWS_SPAN_AFTER_REJECT:
		proto_item_append_text(ti, ", data after a rejected MPA Reply");
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_after_reject);
		iwarp_col_append(pinfo, "[data after MPA reject]");
		break;
	case IWS_SPAN_LIMIT:
		proto_item_append_text(ti, ", dropped: reassembly memory limit reached");
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_limit);
		iwarp_col_append(pinfo, "[iWARP data dropped: memory limit]");
		break;
	case IWS_SPAN_NOT_IWARP:
		proto_item_append_text(ti, ", not iWARP");
		break;
	default:
		proto_item_append_text(ti, ", data before the first FPDU boundary");
		expert_add_info(pinfo, pi, &ei_iwarp_mpa_presync);
		iwarp_col_append(pinfo, "[iWARP data before the first FPDU]");
		break;
	}
}

void iwarp_mpa_add_late(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 frame)
{
	proto_item *pi = proto_tree_add_uint(tree, hf_iwarp_mpa_completed_in, tvb, 0, 0, frame);
	proto_item_set_generated(pi);
	expert_add_info_format(pinfo, pi, &ei_iwarp_mpa_late,
			       "The next PDU completed in frame %u; its report waited for the other "
			       "direction (cross-direction order) until this frame, so a single pass "
			       "shows it here (two passes show it in frame %u)", frame, frame);
}

void iwarp_mpa_add_event(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const struct iws_stream_event *ev)
{
	const char *dir = ev->dir == IWS_DIR_I2R ? "initiator to responder" : "responder to initiator";
	switch (ev->kind) {
	case IWS_SEV_GAP:
		proto_tree_add_expert_format(tree, pinfo, &ei_iwarp_mpa_gap, tvb, 0, 0,
			"%u octets %s (sequence number %u) were never captured", ev->len, dir, ev->seq);
		break;
	case IWS_SEV_FRAMING_LOST:
		proto_tree_add_expert_format(tree, pinfo, &ei_iwarp_mpa_framing_lost, tvb, 0, 0,
			"FPDU boundaries %s lost; looking for them again", dir);
		break;
	case IWS_SEV_FRAMING_FOUND:
		proto_tree_add_expert_format(tree, pinfo, &ei_iwarp_mpa_midstream, tvb, 0, 0,
			"FPDU boundaries %s found from the data (no handshake, or after a loss), at sequence number %u",
			dir, ev->seq);
		break;
	case IWS_SEV_MARKERS_NONSTANDARD:
		proto_tree_add_expert_format(tree, pinfo, &ei_iwarp_mpa_markers_nonstandard, tvb, 0, 0,
			"The sender's markers %s do not follow RFC 5044 section 4.2:%s%s%s", dir,
			(ev->detail & IWS_MARKER_DEV_LE_FPDUPTR) ? " FPDUPTR appears little-endian;" : "",
			(ev->detail & IWS_MARKER_DEV_SKIP_CRC) ? " the marker grid does not count CRC octets;" : "",
			(ev->detail & IWS_MARKER_DEV_OFFSET) ? " the marker grid is offset from SeqStart;" : "");
		break;
	case IWS_SEV_LIMIT:
		proto_tree_add_expert_format(tree, pinfo, &ei_iwarp_mpa_limit, tvb, 0, 0,
			"Reassembly memory limit reached: %u octets %s dropped", ev->len, dir);
		break;
	default:
		break;
	}
}

/* Markers of one FPDU (those captured), each FPDUPTR as checked by the core. */
static void show_markers(tvbuff_t *tvb, packet_info *pinfo, proto_tree *mt, const struct iws_fpdu *fp,
			 const struct iws_mpa_dir *d)
{
	/* a sender that writes FPDUPTR least significant octet first */
	const guint enc = d->fpduptr_le ? ENC_LITTLE_ENDIAN : ENC_BIG_ENDIAN;
	guint32 cap = tvb_captured_length(tvb);
	for (guint32 i = 0; i < fp->n_markers; i++) {
		const struct iws_mpa_marker *m = &fp->markers[i];
		if (m->off + IWS_MPA_MARKER_LEN > cap)
			break;
		guint32 want = iws_mpa_fpduptr_expected(fp->len_off, m->off);
		proto_item *mi = proto_tree_add_item(mt, hf_iwarp_mpa_marker, tvb, m->off, IWS_MPA_MARKER_LEN, ENC_NA);
		proto_tree *kt = proto_item_add_subtree(mi, ett_iwarp_mpa_marker);
		proto_item *ri = proto_tree_add_item(kt, hf_iwarp_mpa_marker_rsvd, tvb, m->off, 2, ENC_BIG_ENDIAN);
		proto_item *pi = proto_tree_add_item(kt, hf_iwarp_mpa_marker_fpduptr, tvb, m->off + 2, 2, enc);
		proto_item_append_text(mi, " at offset %u, FPDUPTR %u", m->off, m->fpduptr);
		if (m->fpduptr != want)
			expert_add_info_format(pinfo, pi, &ei_iwarp_mpa_bad_fpduptr,
					       "FPDUPTR %u does not point back to the ULPDU_Length of its FPDU (expected %u)",
					       m->fpduptr, want);
		if (m->rsvd)
			expert_add_info(pinfo, ri, &ei_iwarp_mpa_marker_rsvd);
	}
}

/* The FPDU's octets as the core reads them: in place, or, when the capture
 * cut it, a copy in which the octets not captured read as zero, as in the
 * engine. */
static const guint8 *fpdu_wire(tvbuff_t *tvb, packet_info *pinfo, guint32 wlen, guint32 cap)
{
	if (cap < wlen) {
		guint8 *z = (guint8 *)wmem_alloc0(pinfo->pool, wlen);
		tvb_memcpy(tvb, z, 0, cap);
		return z;
	}
	return tvb_get_ptr(tvb, 0, wlen);
}

/* The MPA item of an FPDU (*ti) and its subtree: direction, the frame the
 * FPDU began in, a capture gap before it. */
static proto_tree *fpdu_tree(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			     const iwarp_pdu_rec *rec, proto_item **ti)
{
	*ti = proto_tree_add_item(tree, proto_iwarp_mpa, tvb, 0, -1, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_mpa);
	proto_tree *mt = proto_item_add_subtree(*ti, ett_iwarp_mpa);
	proto_item *pi = proto_tree_add_uint(mt, hf_iwarp_mpa_dir, tvb, 0, 0, rec->pdu.dir);
	proto_item_set_generated(pi);
	if (rec->pdu.gap_before)
		expert_add_info(pinfo, *ti, &ei_iwarp_mpa_gap);
	if (rec->pdu.first_frame != pinfo->num) {
		pi = proto_tree_add_uint(mt, hf_iwarp_mpa_first_frame, tvb, 0, 0, rec->pdu.first_frame);
		proto_item_set_generated(pi);
	}
	return mt;
}

/* The FPDU's CRC field (RFC 5044 §4.4: always there, zero when CRC is not
 * used) as the core checked it: verified, not verifiable (octets missing),
 * or not checked (not negotiated, or checking turned off). */
static void show_crc(tvbuff_t *tvb, packet_info *pinfo, proto_tree *mt, proto_item *ti,
		     const struct iws_fpdu *fp, const iwarp_pdu_rec *rec, guint32 cap)
{
	switch (rec->pdu.crc_status) {
	case IWS_CRC_OK:
	case IWS_CRC_BAD:
		proto_tree_add_checksum(mt, tvb, fp->crc_off, hf_iwarp_mpa_crc, hf_iwarp_mpa_crc_status,
					&ei_iwarp_mpa_bad_crc, pinfo, rec->pdu.crc_calc, ENC_LITTLE_ENDIAN,
					PROTO_CHECKSUM_VERIFY);
		if (rec->pdu.crc_status == IWS_CRC_BAD) {
			proto_item_append_text(ti, " [BAD CRC]");
			iwarp_col_append(pinfo, "[BAD CRC]");
		}
		break;
	case IWS_CRC_UNVERIFIABLE:
		proto_tree_add_checksum(mt, tvb, 0, hf_iwarp_mpa_crc, hf_iwarp_mpa_crc_status, NULL, pinfo, 0,
					ENC_LITTLE_ENDIAN, PROTO_CHECKSUM_NOT_PRESENT);
		break;
	default:
		if (fp->crc_off + IWS_MPA_CRC_LEN <= cap) {
			proto_item *ci = proto_tree_add_checksum(mt, tvb, fp->crc_off, hf_iwarp_mpa_crc,
								 hf_iwarp_mpa_crc_status, NULL, pinfo, 0,
								 ENC_LITTLE_ENDIAN, PROTO_CHECKSUM_NO_FLAGS);
			/* The field is always there (RFC 5044 §7.1); say why it was
			 * not checked, not just "unverified". */
			proto_item_append_text(ci, rec->pdu.mdir.crc ? " (not checked: CRC checking is off)"
								 : " (CRC not in use: not negotiated)");
		}
		break;
	}
}

/* The ULPDU: in place when no marker splits it and all of it was captured,
 * else the core's marker-free copy as its own data source. */
static tvbuff_t *ulpdu_tvb_of(tvbuff_t *tvb, packet_info *pinfo, const struct iws_fpdu *fp,
			      const guint8 *wire, guint32 wlen, guint32 cap)
{
	gboolean truncated = cap < wlen;
	gboolean split = fp->ulpdu < wire || fp->ulpdu >= wire + wlen;
	if (!split && !truncated)
		return tvb_new_subset_length(tvb, (gint)fp->ulpdu_off, fp->ulpdu_len);
	guint32 ucap = truncated ? iws_fpdu_ulpdu_captured(fp, cap) : fp->ulpdu_len;
	guint8 *u = (guint8 *)wmem_memdup(pinfo->pool, fp->ulpdu, fp->ulpdu_len);
	tvbuff_t *ulpdu_tvb = tvb_new_child_real_data(tvb, u, ucap, fp->ulpdu_len);
	if (split)
		add_new_data_source(pinfo, ulpdu_tvb, "Marker-free ULPDU");
	return ulpdu_tvb;
}

void iwarp_mpa_dissect_fpdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic, iwarp_pdu_rec *rec)
{
	guint32 wlen = tvb_reported_length(tvb);
	guint32 cap = MIN(tvb_captured_length(tvb), wlen);
	gboolean truncated = cap < wlen;
	const guint8 *wire = fpdu_wire(tvb, pinfo, wlen, cap);
	guint8 *scratch = rec->pdu.mdir.markers ? (guint8 *)wmem_alloc(pinfo->pool, 65536) : NULL;
	struct iws_fpdu *fp = wmem_new(pinfo->pool, struct iws_fpdu);
	struct iws_msg *msg = wmem_new0(pinfo->pool, struct iws_msg);  /* no decode: captured 0 */
	struct iws_result mr;
	struct iws_result r = iws_fpdu_decode(wire, wlen, cap, rec->pdu.seq, &rec->pdu.mdir, FALSE, scratch, fp, msg, &mr);

	proto_item *ti;
	proto_tree *mt = fpdu_tree(tvb, pinfo, tree, rec, &ti);
	if (r.status != IWS_OK) {
		/* Cannot happen: the core framed it with this length. */
		proto_item_append_text(ti, ", FPDU framing lost");
		expert_add_info_format(pinfo, ti, &ei_iwarp_mpa_ulpdu_len, "%s", r.reason ? r.reason : "FPDU cannot be framed");
		iwarp_col_append(pinfo, "[FPDU framing lost]");
		return;
	}

	proto_item_append_text(ti, ", FPDU, ULPDU %u octets", fp->ulpdu_len);
	proto_tree_add_item(mt, hf_iwarp_mpa_ulpdu_len, tvb, fp->len_off, 2, ENC_BIG_ENDIAN);
	if (fp->pad && fp->pad_off + fp->pad <= cap)
		proto_tree_add_item(mt, hf_iwarp_mpa_pad, tvb, fp->pad_off, fp->pad, ENC_NA);
	show_crc(tvb, pinfo, mt, ti, fp, rec, cap);
	if (truncated)
		expert_add_info(pinfo, ti, &ei_iwarp_mpa_truncated);
	show_markers(tvb, pinfo, mt, fp, &rec->pdu.mdir);
	iwarp_ddp_dissect(ulpdu_tvb_of(tvb, pinfo, fp, wire, wlen, cap), pinfo, tree, ic, rec, msg, &mr);
}

void iwarp_mpa_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_iwarp_mpa_key, { "Key", "iwarp.mpa.key", FT_STRING, BASE_NONE, NULL, 0x0,
			"MPA Request/Reply key", HFILL } },
		{ &hf_iwarp_mpa_type, { "Frame", "iwarp.mpa.type", FT_UINT8, BASE_DEC,
			VALS(iwarp_mpa_frame_vals), 0x0, "MPA Request or Reply", HFILL } },
		{ &hf_iwarp_mpa_flags, { "Flags", "iwarp.mpa.flags", FT_UINT8, BASE_HEX, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_mpa_flags_markers, { "Markers (M)", "iwarp.mpa.flags.markers", FT_BOOLEAN, 8,
			NULL, IWS_MPA_FLAG_M, "Request: markers wanted on responder FPDUs; Reply: on initiator FPDUs", HFILL } },
		{ &hf_iwarp_mpa_flags_crc, { "CRC (C)", "iwarp.mpa.flags.crc", FT_BOOLEAN, 8, NULL,
			IWS_MPA_FLAG_C, NULL, HFILL } },
		{ &hf_iwarp_mpa_flags_reject, { "Reject (R)", "iwarp.mpa.flags.reject", FT_BOOLEAN, 8, NULL,
			IWS_MPA_FLAG_R, NULL, HFILL } },
		{ &hf_iwarp_mpa_flags_enhanced, { "Enhanced set-up (S)", "iwarp.mpa.flags.enhanced", FT_BOOLEAN, 8,
			NULL, IWS_MPA_FLAG_S, "RFC 6581 enhanced connection establishment", HFILL } },
		{ &hf_iwarp_mpa_flags_rsvd, { "Reserved", "iwarp.mpa.flags.rsvd", FT_UINT8, BASE_HEX, NULL,
			IWS_MPA_FLAG_RSVD, NULL, HFILL } },
		{ &hf_iwarp_mpa_rev, { "Revision", "iwarp.mpa.rev", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_pd_len, { "Private data length", "iwarp.mpa.pd_len", FT_UINT16, BASE_DEC, NULL,
			0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_ird_word, { "IRD word", "iwarp.mpa.ird_word", FT_UINT16, BASE_HEX, NULL, 0x0,
			"RFC 6581 enhanced word, first half", HFILL } },
		{ &hf_iwarp_mpa_p2p, { "Peer-to-peer (A)", "iwarp.mpa.p2p", FT_BOOLEAN, 16, NULL,
			IWS_MPA_ENH_P2P, NULL, HFILL } },
		{ &hf_iwarp_mpa_rtr_send, { "Zero-length Send RTR (B)", "iwarp.mpa.rtr.send", FT_BOOLEAN, 16,
			NULL, IWS_MPA_ENH_RTR_SEND, NULL, HFILL } },
		{ &hf_iwarp_mpa_ird, { "IRD", "iwarp.mpa.ird", FT_UINT16, BASE_DEC, NULL, IWS_MPA_ENH_VALUE,
			"Inbound RDMA Read queue depth", HFILL } },
		{ &hf_iwarp_mpa_ord_word, { "ORD word", "iwarp.mpa.ord_word", FT_UINT16, BASE_HEX, NULL, 0x0,
			"RFC 6581 enhanced word, second half", HFILL } },
		{ &hf_iwarp_mpa_rtr_write, { "Zero-length Write RTR (C)", "iwarp.mpa.rtr.write", FT_BOOLEAN, 16,
			NULL, IWS_MPA_ENH_RTR_WRITE, NULL, HFILL } },
		{ &hf_iwarp_mpa_rtr_read, { "Zero-length Read RTR (D)", "iwarp.mpa.rtr.read", FT_BOOLEAN, 16,
			NULL, IWS_MPA_ENH_RTR_READ, NULL, HFILL } },
		{ &hf_iwarp_mpa_ord, { "ORD", "iwarp.mpa.ord", FT_UINT16, BASE_DEC, NULL, IWS_MPA_ENH_VALUE,
			"Outbound RDMA Read queue depth", HFILL } },
		{ &hf_iwarp_mpa_rtr, { "RTR type", "iwarp.mpa.rtr", FT_UINT8, BASE_HEX, VALS(iwarp_mpa_rtr_vals),
			0x0, "Ready-to-receive message types offered/chosen", HFILL } },
		{ &hf_iwarp_mpa_private_data, { "Private data", "iwarp.mpa.private_data", FT_BYTES, BASE_NONE,
			NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_legacy_ird, { "IRD (legacy SMB Direct layout)", "iwarp.mpa.legacy.ird", FT_UINT32,
			BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_legacy_ord, { "ORD (legacy SMB Direct layout)", "iwarp.mpa.legacy.ord", FT_UINT32,
			BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_neg_crc, { "Negotiated CRC", "iwarp.mpa.negotiated.crc", FT_BOOLEAN, BASE_NONE,
			NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_neg_markers_i2r, { "Negotiated markers, initiator to responder",
			"iwarp.mpa.negotiated.markers_i2r", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_neg_markers_r2i, { "Negotiated markers, responder to initiator",
			"iwarp.mpa.negotiated.markers_r2i", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_dir, { "Direction", "iwarp.mpa.dir", FT_UINT8, BASE_DEC, VALS(iwarp_mpa_dir_vals),
			0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_ulpdu_len, { "ULPDU length", "iwarp.mpa.ulpdu_len", FT_UINT16, BASE_DEC, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_mpa_pad, { "Pad", "iwarp.mpa.pad", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_crc, { "CRC", "iwarp.mpa.crc", FT_UINT32, BASE_HEX, NULL, 0x0,
			"CRC32c, carried least significant octet first", HFILL } },
		{ &hf_iwarp_mpa_crc_status, { "CRC status", "iwarp.mpa.crc.status", FT_UINT8, BASE_NONE,
			VALS(proto_checksum_vals), 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_marker, { "Marker", "iwarp.mpa.marker", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_mpa_marker_rsvd, { "Reserved", "iwarp.mpa.marker.rsvd", FT_UINT16, BASE_HEX, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_mpa_marker_fpduptr, { "FPDUPTR", "iwarp.mpa.marker.fpduptr", FT_UINT16, BASE_DEC, NULL,
			0x0, "Distance back to the start of the FPDU", HFILL } },
		{ &hf_iwarp_mpa_skipped, { "Data not decoded", "iwarp.mpa.skipped", FT_BYTES, BASE_NONE, NULL, 0x0,
			NULL, HFILL } },
		{ &hf_iwarp_mpa_reassembled_in, { "Reassembled in", "iwarp.mpa.reassembled_in", FT_FRAMENUM, BASE_NONE,
			NULL, 0x0, "The frame in which the FPDU these octets belong to became complete", HFILL } },
		{ &hf_iwarp_mpa_completed_in, { "Completed in", "iwarp.mpa.completed_in", FT_FRAMENUM, BASE_NONE,
			NULL, 0x0, "The frame this PDU belongs to, when a single pass shows it in a later one", HFILL } },
		{ &hf_iwarp_mpa_first_frame, { "First transmission in", "iwarp.mpa.first_frame", FT_FRAMENUM, BASE_NONE,
			NULL, 0x0, "The earliest frame that carried octets of this FPDU", HFILL } },
	};
	static gint *ett[] = {
		&ett_iwarp_mpa, &ett_iwarp_mpa_flags, &ett_iwarp_mpa_ird, &ett_iwarp_mpa_ord, &ett_iwarp_mpa_marker,
	};
	static ei_register_info ei[] = {
		{ &ei_iwarp_mpa_bad_crc, { "iwarp.mpa.crc.bad", PI_CHECKSUM, PI_ERROR, "Bad CRC32c", EXPFILL } },
		{ &ei_iwarp_mpa_bad_fpduptr, { "iwarp.mpa.marker.bad_fpduptr", PI_MALFORMED, PI_ERROR,
			"FPDUPTR does not point back to the ULPDU_Length of its FPDU", EXPFILL } },
		{ &ei_iwarp_mpa_marker_rsvd, { "iwarp.mpa.marker.rsvd_set", PI_PROTOCOL, PI_WARN,
			"Marker reserved field is not zero", EXPFILL } },
		{ &ei_iwarp_mpa_pd_len, { "iwarp.mpa.pd_len.too_big", PI_MALFORMED, PI_ERROR,
			"PD_Length larger than 512", EXPFILL } },
		{ &ei_iwarp_mpa_rsvd_flags, { "iwarp.mpa.flags.rsvd_set", PI_PROTOCOL, PI_WARN,
			"Reserved MPA flag bits set", EXPFILL } },
		{ &ei_iwarp_mpa_unknown_rev, { "iwarp.mpa.rev.unknown", PI_PROTOCOL, PI_WARN,
			"MPA revision is neither 1 nor 2", EXPFILL } },
		{ &ei_iwarp_mpa_s_not_rev2, { "iwarp.mpa.flags.enhanced_not_rev2", PI_PROTOCOL, PI_WARN,
			"Enhanced set-up flag without Rev 2", EXPFILL } },
		{ &ei_iwarp_mpa_enh_short, { "iwarp.mpa.pd_len.enhanced_short", PI_MALFORMED, PI_WARN,
			"Enhanced set-up flag but private data shorter than the IRD/ORD word", EXPFILL } },
		{ &ei_iwarp_mpa_r_in_request, { "iwarp.mpa.flags.reject_in_request", PI_PROTOCOL, PI_WARN,
			"Reject flag set in a Request", EXPFILL } },
		{ &ei_iwarp_mpa_rejected, { "iwarp.mpa.rejected", PI_SEQUENCE, PI_WARN,
			"Connection rejected by the responder", EXPFILL } },
		{ &ei_iwarp_mpa_not_mpa, { "iwarp.mpa.key.missing", PI_MALFORMED, PI_ERROR,
			"An MPA Request/Reply was expected here", EXPFILL } },
		{ &ei_iwarp_mpa_ulpdu_len, { "iwarp.mpa.ulpdu_len.bad", PI_MALFORMED, PI_ERROR,
			"FPDU framing lost", EXPFILL } },
		{ &ei_iwarp_mpa_truncated, { "iwarp.mpa.truncated", PI_UNDECODED, PI_NOTE,
			"FPDU not completely captured (snapshot length or capture gap); CRC not verifiable", EXPFILL } },
		{ &ei_iwarp_mpa_presync, { "iwarp.mpa.presync", PI_UNDECODED, PI_NOTE,
			"Octets before the first FPDU boundary found (capture started mid-stream)", EXPFILL } },
		{ &ei_iwarp_mpa_retrans, { "iwarp.mpa.retransmission", PI_SEQUENCE, PI_NOTE,
			"Retransmitted octets, already decoded", EXPFILL } },
		{ &ei_iwarp_mpa_gap, { "iwarp.mpa.gap", PI_SEQUENCE, PI_WARN,
			"Octets of this direction were not captured before this point; FPDU boundaries resynchronised",
			EXPFILL } },
		{ &ei_iwarp_mpa_after_reject, { "iwarp.mpa.after_reject", PI_SEQUENCE, PI_NOTE,
			"Data after a rejected MPA Reply", EXPFILL } },
		{ &ei_iwarp_mpa_midstream, { "iwarp.mpa.midstream", PI_SEQUENCE, PI_CHAT,
			"FPDU boundaries found without the MPA handshake", EXPFILL } },
		{ &ei_iwarp_mpa_framing_lost, { "iwarp.mpa.framing_lost", PI_SEQUENCE, PI_WARN,
			"FPDU boundaries lost", EXPFILL } },
		{ &ei_iwarp_mpa_markers_nonstandard, { "iwarp.mpa.marker.nonstandard", PI_PROTOCOL, PI_WARN,
			"The sender's markers do not follow RFC 5044", EXPFILL } },
		{ &ei_iwarp_mpa_limit, { "iwarp.mpa.limit", PI_UNDECODED, PI_WARN,
			"Reassembly memory limit reached: octets dropped", EXPFILL } },
		{ &ei_iwarp_mpa_late, { "iwarp.mpa.late", PI_SEQUENCE, PI_NOTE,
			"PDU of an earlier frame, shown here on a single pass", EXPFILL } },
	};

	proto_iwarp_mpa = proto_register_protocol("iWARP MPA (iwarpscope)", "iWARP MPA", "iwarp.mpa");
	proto_register_field_array(proto_iwarp_mpa, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_module_t *em = expert_register_protocol(proto_iwarp_mpa);
	expert_register_field_array(em, ei, array_length(ei));
}
