// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-rdmap.c - the iwarp.rdmap protocol: every RDMAP opcode
 * (RFC 5040, RFC 7306), Read Request, Terminate with its embedded headers,
 * Atomic Request/Response, Immediate Data; the operation each segment
 * belongs to, Read/Atomic request-response links and response times from
 * the core's tracker; the Info column; and the hand-off of payloads to
 * upper layers (our "iwarp.rdmap" heuristic list, then Wireshark's
 * "iwarp_ddp_rdmap" list so SMB Direct and RPC-over-RDMA still decode).
 */
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/exceptions.h>
#include <epan/tap.h>
#include <epan/prefs.h>
#include <epan/dissectors/packet-iwarp-ddp-rdmap.h>

#include "iwarpscope/names.h"
#include "packet-iwarp-rdmap.h"
#include "packet-iwarp-ddp-msg.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-rpc.h"
#include "packet-iwarp-smb.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-prefs.h"
#include "packet-iwarp-text.h"
#include "packet-iwarp-timing.h"

int proto_iwarp_rdmap = -1;

static int hf_iwarp_rdmap_control = -1;
static int hf_iwarp_rdmap_version = -1;
static int hf_iwarp_rdmap_rsvd = -1;
static int hf_iwarp_rdmap_opcode = -1;
static int hf_iwarp_rdmap_qp = -1;
static int hf_iwarp_rdmap_inval_stag = -1;
static int hf_iwarp_rdmap_payload = -1;
static int hf_iwarp_rdmap_read_sink_stag = -1;
static int hf_iwarp_rdmap_read_sink_to = -1;
static int hf_iwarp_rdmap_read_size = -1;
static int hf_iwarp_rdmap_read_src_stag = -1;
static int hf_iwarp_rdmap_read_src_to = -1;
static int hf_iwarp_rdmap_immediate = -1;
static int hf_iwarp_rdmap_atomic_rsvd = -1;
static int hf_iwarp_rdmap_atomic_opcode = -1;
static int hf_iwarp_rdmap_atomic_req_id = -1;
static int hf_iwarp_rdmap_atomic_stag = -1;
static int hf_iwarp_rdmap_atomic_to = -1;
static int hf_iwarp_rdmap_atomic_add_swap = -1;
static int hf_iwarp_rdmap_atomic_add_swap_mask = -1;
static int hf_iwarp_rdmap_atomic_compare = -1;
static int hf_iwarp_rdmap_atomic_compare_mask = -1;
static int hf_iwarp_rdmap_atomic_orig_value = -1;
static int hf_iwarp_rdmap_term_ctrl = -1;
static int hf_iwarp_rdmap_term_layer = -1;
static int hf_iwarp_rdmap_term_etype = -1;
static int hf_iwarp_rdmap_term_errcode = -1;
static int hf_iwarp_rdmap_term_m = -1;
static int hf_iwarp_rdmap_term_d = -1;
static int hf_iwarp_rdmap_term_r = -1;
static int hf_iwarp_rdmap_term_rsvd = -1;
static int hf_iwarp_rdmap_term_seg_len = -1;
static int hf_iwarp_rdmap_term_ddp_tagged = -1;
static int hf_iwarp_rdmap_term_ddp_last = -1;
static int hf_iwarp_rdmap_term_ddp_opcode = -1;
static int hf_iwarp_rdmap_term_ddp_stag = -1;
static int hf_iwarp_rdmap_term_ddp_to = -1;
static int hf_iwarp_rdmap_term_ddp_qn = -1;
static int hf_iwarp_rdmap_term_ddp_msn = -1;
static int hf_iwarp_rdmap_term_ddp_mo = -1;
static int hf_iwarp_rdmap_term_read_sink_stag = -1;
static int hf_iwarp_rdmap_term_read_sink_to = -1;
static int hf_iwarp_rdmap_term_read_size = -1;
static int hf_iwarp_rdmap_term_read_src_stag = -1;
static int hf_iwarp_rdmap_term_read_src_to = -1;
static int hf_iwarp_rdmap_rtr = -1;
static int hf_iwarp_rdmap_op_id = -1;
static int hf_iwarp_rdmap_op_type = -1;
static int hf_iwarp_rdmap_op_first = -1;
static int hf_iwarp_rdmap_op_last = -1;
static int hf_iwarp_rdmap_op_complete = -1;
static int hf_iwarp_rdmap_op_payload_captured = -1;
static int hf_iwarp_rdmap_op_first_inorder = -1;
static int hf_iwarp_rdmap_op_rtr = -1;
static int hf_iwarp_rdmap_op_pairing = -1;
static int hf_iwarp_rdmap_op_after_close = -1;
static int hf_iwarp_rdmap_response_in = -1;
static int hf_iwarp_rdmap_request_in = -1;
static int hf_iwarp_rdmap_response_time = -1;
static int hf_iwarp_rdmap_outstanding = -1;
static int hf_iwarp_rdmap_ulp_declined = -1;

static gint ett_iwarp_rdmap = -1;
static gint ett_iwarp_rdmap_control = -1;
static gint ett_iwarp_rdmap_term = -1;
static gint ett_iwarp_rdmap_term_ddp = -1;
static gint ett_iwarp_rdmap_term_rdmap = -1;
static gint ett_iwarp_rdmap_op = -1;

static expert_field ei_iwarp_rdmap_version = EI_INIT;
static expert_field ei_iwarp_rdmap_rsvd = EI_INIT;
static expert_field ei_iwarp_rdmap_unknown_opcode = EI_INIT;
static expert_field ei_iwarp_rdmap_malformed = EI_INIT;
static expert_field ei_iwarp_rdmap_rsvdulp = EI_INIT;
static expert_field ei_iwarp_rdmap_trailing = EI_INIT;
static expert_field ei_iwarp_rdmap_aop_unknown = EI_INIT;
static expert_field ei_iwarp_rdmap_term = EI_INIT;
static expert_field ei_iwarp_rdmap_term_rsvd = EI_INIT;
static expert_field ei_iwarp_rdmap_orphan = EI_INIT;
static expert_field ei_iwarp_rdmap_ird_exceeded = EI_INIT;
static expert_field ei_iwarp_rdmap_stag_mismatch = EI_INIT;
static expert_field ei_iwarp_rdmap_overrun = EI_INIT;
static expert_field ei_iwarp_rdmap_evicted = EI_INIT;
static expert_field ei_iwarp_rdmap_rtr = EI_INIT;

static heur_dissector_list_t iwarp_rdmap_heur_list;
static heur_dissector_list_t builtin_rdmap_heur_list;

#define IWS_VS_ENTRY(v, s) { (v), (s) },
static const value_string iwarp_rdmap_opcode_vals[] = { IWS_RDMAP_OPCODE_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string iwarp_rdmap_layer_vals[] = { IWS_TERM_LAYER_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string iwarp_rdmap_aop_vals[] = { IWS_AOPCODE_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string iwarp_ddp_qn_names[] = { IWS_DDP_QN_NAMES(IWS_VS_ENTRY) { 0, NULL } };

static value_string iwarp_rdmap_op_type_vals[IWS_OPT_COUNT + 1];

static int *const iwarp_rdmap_control_fields[] = {
	&hf_iwarp_rdmap_version, &hf_iwarp_rdmap_rsvd, &hf_iwarp_rdmap_opcode, NULL
};
static int *const iwarp_rdmap_term_flag_fields[] = {
	&hf_iwarp_rdmap_term_m, &hf_iwarp_rdmap_term_d, &hf_iwarp_rdmap_term_r, &hf_iwarp_rdmap_term_rsvd, NULL
};

/* A header field at the offset the core's decode gives, if it was
 * captured (it may lie past the snapshot length). */
static proto_item *add_field(proto_tree *t, int hf, tvbuff_t *tvb, struct iws_field f)
{
	if (f.off + f.len > tvb_captured_length(tvb))
		return NULL;
	return proto_tree_add_item(t, hf, tvb, f.off, f.len, ENC_BIG_ENDIAN);
}

/* A subtree over [off, off+len), cut to the octets captured (a snapshot
 * length may have cut a Terminate's embedded headers); NULL if none were. */
static proto_tree *add_captured_subtree(proto_tree *t, tvbuff_t *tvb, guint32 off, guint32 len, int ett,
					const char *text)
{
	guint32 cap = tvb_captured_length(tvb);
	if (off >= cap)
		return NULL;
	return proto_tree_add_subtree(t, tvb, off, MIN(len, cap - off), ett, NULL, text);
}

/* The Terminate Control word: layer, error type and code (names by
 * layer, RFC 5040 §4.8), the M, D, R bits. */
static void show_terminate_control(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, proto_item *ti,
				   const struct iws_rdmap_terminate *t, wmem_strbuf_t *info)
{
	const char *layer = iws_term_layer_name(t->layer);
	const char *etype = iws_term_etype_name(t->layer, t->etype);
	const char *code = iws_term_errcode_name(t->layer, t->etype, t->errcode);
	guint32 off = t->f_ctrl.off, len = t->f_ctrl.len;
	proto_item *ci = proto_tree_add_item(rt, hf_iwarp_rdmap_term_ctrl, tvb, off, len, ENC_BIG_ENDIAN);
	proto_tree *ct = proto_item_add_subtree(ci, ett_iwarp_rdmap_term);
	guint32 word = tvb_get_ntohl(tvb, off);
	/* The names of the error type and code depend on the layer (RFC 5040
	 * §4.8), so they are put in by hand rather than by a value_string. */
	proto_tree_add_item(ct, hf_iwarp_rdmap_term_layer, tvb, off, len, ENC_BIG_ENDIAN);
	proto_tree_add_uint_format_value(ct, hf_iwarp_rdmap_term_etype, tvb, off, len, word, "%s (0x%x)",
					 etype ? etype : "Unknown", t->etype);
	proto_tree_add_uint_format_value(ct, hf_iwarp_rdmap_term_errcode, tvb, off, len, word, "%s (0x%02x)",
					 code ? code : "Unknown", t->errcode);
	for (int *const *f = iwarp_rdmap_term_flag_fields; *f; f++)
		proto_tree_add_item(ct, **f, tvb, off, len, ENC_BIG_ENDIAN);
	proto_item_append_text(ci, ": %s, %s, %s", layer ? layer : "unknown layer", etype ? etype : "unknown type",
			       code ? code : "unknown code");
	expert_add_info_format(pinfo, ti, &ei_iwarp_rdmap_term, "Terminate: %s / %s / %s (0x%x/0x%x/0x%02x)",
			       layer ? layer : "?", etype ? etype : "?", code ? code : "?", t->layer, t->etype,
			       t->errcode);
	iwarp_info_printf(info, ": %s / %s / %s", layer ? layer : "?", etype ? etype : "?", code ? code : "?");
	if (t->rsvd)
		expert_add_info(pinfo, ci, &ei_iwarp_rdmap_term_rsvd);
}

/* The terminated DDP header (the core's decode of it, or, when it is the bad
 * one, where RFC 5041 puts its fields). */
static void show_terminated_ddp(tvbuff_t *tvb, proto_tree *rt, const struct iws_rdmap_terminate *t)
{
	proto_tree *dt = add_captured_subtree(rt, tvb, t->f_ddp.off, t->f_ddp.len, ett_iwarp_rdmap_term_ddp,
					      "Terminated DDP header");
	if (!dt)
		return;
	struct iws_ddp_hdr h;
	iwarp_ddp_header_view(tvb, t->f_ddp.off, &t->ddp, &h);
	add_field(dt, hf_iwarp_rdmap_term_ddp_tagged, tvb, h.f_ctrl);
	add_field(dt, hf_iwarp_rdmap_term_ddp_last, tvb, h.f_ctrl);
	add_field(dt, hf_iwarp_rdmap_term_ddp_opcode, tvb, h.f_rdmap_ctrl);
	if (h.tagged) {
		add_field(dt, hf_iwarp_rdmap_term_ddp_stag, tvb, h.f_stag);
		add_field(dt, hf_iwarp_rdmap_term_ddp_to, tvb, h.f_to);
	} else {
		add_field(dt, hf_iwarp_rdmap_term_ddp_qn, tvb, h.f_qn);
		add_field(dt, hf_iwarp_rdmap_term_ddp_msn, tvb, h.f_msn);
		add_field(dt, hf_iwarp_rdmap_term_ddp_mo, tvb, h.f_mo);
	}
}

/* The terminated RDMAP header (a Read Request's). */
static void show_terminated_rdmap(tvbuff_t *tvb, proto_tree *rt, const struct iws_rdmap_terminate *t)
{
	proto_tree *dt = add_captured_subtree(rt, tvb, t->f_rdmap.off, t->f_rdmap.len, ett_iwarp_rdmap_term_rdmap,
					      "Terminated RDMAP header (Read Request)");
	if (!dt)
		return;
	const struct iws_rdmap_read_req *rr = &t->rdmap;
	add_field(dt, hf_iwarp_rdmap_term_read_sink_stag, tvb, rr->f_sink_stag);
	add_field(dt, hf_iwarp_rdmap_term_read_sink_to, tvb, rr->f_sink_to);
	add_field(dt, hf_iwarp_rdmap_term_read_size, tvb, rr->f_size);
	add_field(dt, hf_iwarp_rdmap_term_read_src_stag, tvb, rr->f_src_stag);
	add_field(dt, hf_iwarp_rdmap_term_read_src_to, tvb, rr->f_src_to);
}

static void show_terminate(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, proto_item *ti,
			   const struct iws_msg *msg, wmem_strbuf_t *info)
{
	const struct iws_rdmap_terminate *t = &msg->u.term;
	show_terminate_control(tvb, pinfo, rt, ti, t, info);
	if (t->has_seg_len)
		add_field(rt, hf_iwarp_rdmap_term_seg_len, tvb, t->f_seg_len);
	if (t->has_ddp)
		show_terminated_ddp(tvb, rt, t);
	if (t->has_rdmap)
		show_terminated_rdmap(tvb, rt, t);
}

/* The operation the segment belongs to, as the tracker reported it. */
static void show_operation(tvbuff_t *tvb, proto_tree *rt, const iwarp_op_link *link)
{
	const struct iws_op_brief *op = &link->op;
	proto_item *pi;
	proto_tree *ot = proto_tree_add_subtree_format(rt, tvb, 0, 0, ett_iwarp_rdmap_op, &pi,
		"Operation %" PRIu64 ": %s", op->id, iws_op_type_title((enum iws_op_type)op->type));
	proto_item_set_generated(pi);
	pi = proto_tree_add_uint64(ot, hf_iwarp_rdmap_op_id, tvb, 0, 0, op->id);
	proto_item_set_generated(pi);
	pi = proto_tree_add_uint(ot, hf_iwarp_rdmap_op_type, tvb, 0, 0, op->type);
	proto_item_set_generated(pi);
	if (op->first_frame) {
		pi = proto_tree_add_uint(ot, hf_iwarp_rdmap_op_first, tvb, 0, 0, op->first_frame);
		proto_item_set_generated(pi);
	}
	if (link->done) {
		pi = proto_tree_add_uint(ot, hf_iwarp_rdmap_op_last, tvb, 0, 0, op->last_frame);
		proto_item_set_generated(pi);
		pi = proto_tree_add_boolean(ot, hf_iwarp_rdmap_op_complete, tvb, 0, 0, op->complete);
		proto_item_set_generated(pi);
		pi = proto_tree_add_boolean(ot, hf_iwarp_rdmap_op_payload_captured, tvb, 0, 0,
					    op->complete && !(op->flags & IWS_OPF_TRUNCATED));
		proto_item_set_generated(pi);
		if (op->first_inorder_frame) {
			pi = proto_tree_add_uint(ot, hf_iwarp_rdmap_op_first_inorder, tvb, 0, 0,
						 op->first_inorder_frame);
			proto_item_set_generated(pi);
		}
		pi = proto_tree_add_boolean(ot, hf_iwarp_rdmap_op_rtr, tvb, 0, 0, op->rtr);
		proto_item_set_generated(pi);
		const char *pairing = iws_pairing_name((enum iws_pairing)op->pairing);
		if (pairing) {
			pi = proto_tree_add_string(ot, hf_iwarp_rdmap_op_pairing, tvb, 0, 0, pairing);
			proto_item_set_generated(pi);
		}
		pi = proto_tree_add_boolean(ot, hf_iwarp_rdmap_op_after_close, tvb, 0, 0,
					    (op->flags & IWS_OPF_AFTER_CLOSE) != 0);
		proto_item_set_generated(pi);
	}
}

/* Request/response links, response time, operation grouping. */
static void show_matching(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, proto_item *ti, iwarp_conv *ic,
			  iwarp_pdu_rec *rec, wmem_strbuf_t *info)
{
	const struct iws_seg_note *n = &rec->pdu.note;
	proto_item *pi;
	if (n->rtr) {
		pi = proto_tree_add_boolean(rt, hf_iwarp_rdmap_rtr, tvb, 0, 0, TRUE);
		proto_item_set_generated(pi);
		expert_add_info(pinfo, pi, &ei_iwarp_rdmap_rtr);
		iwarp_info_add(info, " [RTR]");
	}
	const iwarp_op_link *link = rec->op;
	if (link) {
		const struct iws_op_brief *op = &link->op;
		gboolean reqresp = iws_op_type_has_response((enum iws_op_type)op->type);
		if (reqresp && n->op_first && !n->request_frame && op->response_frame && op->response_frame != pinfo->num) {
			pi = proto_tree_add_uint_format_value(rt, hf_iwarp_rdmap_response_in, tvb, 0, 0,
							      op->response_frame, "%u", op->response_frame);
			proto_item_set_generated(pi);
		}
		if (n->request_frame) {
			pi = proto_tree_add_uint(rt, hf_iwarp_rdmap_request_in, tvb, 0, 0, (guint32)n->request_frame);
			proto_item_set_generated(pi);
			iwarp_info_printf(info, " \xe2\x86\x92 frame %u", (guint32)n->request_frame);
		}
		if (n->has_response_time) {
			nstime_t rt_ns;
			rt_ns.secs = (time_t)(n->response_time_ns / 1000000000);
			rt_ns.nsecs = (int)(n->response_time_ns % 1000000000);
			pi = proto_tree_add_time(rt, hf_iwarp_rdmap_response_time, tvb, 0, 0, &rt_ns);
			proto_item_set_generated(pi);
			if (info)
				iwarp_info_printf(info, ", %s", iwarp_fmt_ns(pinfo->pool, n->response_time_ns));
		}
		show_operation(tvb, rt, link);
	}
	if (n->outstanding) {
		pi = proto_tree_add_uint(rt, hf_iwarp_rdmap_outstanding, tvb, 0, 0, n->outstanding);
		proto_item_set_generated(pi);
		if (n->flags & IWS_SEGF_IRD_EXCEEDED)
			expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_ird_exceeded,
					       "%u requests outstanding, more than the peer's IRD %u",
					       n->outstanding, rec->peer_ird);
	}
	if (n->flags & IWS_SEGF_ORPHAN_RESPONSE) {
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_orphan);
		iwarp_info_add(info, " [no request in capture]");
	}
	if (n->flags & IWS_SEGF_STAG_MISMATCH)
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_stag_mismatch);
	if (n->flags & IWS_SEGF_OVERRUN)
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_overrun);
	if (n->flags & IWS_SEGF_EVICTED)
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_evicted);
	iwarp_timing_segment(tvb, pinfo, rt, ic, rec);
}

/*
 * Hand a payload to the upper layers: our "iwarp.rdmap" list first, then the
 * built-in "iwarp_ddp_rdmap" list (SMB Direct, RPC-over-RDMA), with the
 * rdmap_info_t those heuristics expect: the untagged fields for a Send, the
 * STag/TO for Write and Read Response data, the request for a Read Request.
 * RPC-over-RDMA needs all three: it records the Read Request that maps a
 * sink STag to the chunk's source STag, then reassembles read and write
 * chunks from the tagged segments (RFC 8166 3.4.5).
 */
static void offer_ulp(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree, proto_tree *rt,
		      const struct iws_msg *msg, gboolean whole, rdmap_request_t *read_request)
{
	const struct iws_ddp_hdr *h = &msg->ddp;
	rdmap_info_t info;
	memset(&info, 0, sizeof(info));
	info.opcode = h->opcode;
	info.last_flag = whole ? TRUE : h->last;
	info.is_tagged = h->tagged;
	if (h->tagged) {
		info.steering_tag = h->stag;
		info.tagged_offset = h->to;
	} else {
		info.queue_number = h->qn;
		info.message_seq_num = h->msn;
		info.message_offset = whole ? 0 : h->mo;
	}
	info.read_request = read_request;

	heur_dtbl_entry_t *hd = NULL;
	if (dissector_try_heuristic(iwarp_rdmap_heur_list, payload, pinfo, tree, &hd, &info))
		return;
	if (!iwarp_prefs.offer_builtin_ulp || !builtin_rdmap_heur_list)
		return;
	const char *saved_proto = pinfo->current_proto;
	guint saved_layers = wmem_list_count(pinfo->layers);
	TRY {
		dissector_try_heuristic(builtin_rdmap_heur_list, payload, pinfo, tree, &hd, &info);
	}
	CATCH_NONFATAL_ERRORS {
		/* A weak upper-layer heuristic (RPC-over-RDMA takes almost any
		 * Send) took a payload that is not its protocol and threw. That is
		 * the heuristic's guess failing, not a fault of the capture: no
		 * expert item, the frame is not malformed, and the protocol is not
		 * one of the frame's (frame.protocols); a generated field says
		 * which heuristic failed. */
		const char *who = pinfo->current_proto;
		pinfo->current_proto = saved_proto;
		iwarp_layers_trim(pinfo, saved_layers);
		proto_item *pi = proto_tree_add_string(rt, hf_iwarp_rdmap_ulp_declined, payload, 0, 0, who ? who : "?");
		proto_item_set_generated(pi);
	}
	ENDTRY;
}

/* The whole Send message this segment completes (its own payload when it is
 * the whole message, else the reassembly by MSN and MO), or NULL. *whole
 * says whether it was reassembled. */
static tvbuff_t *send_message(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, const struct iws_msg *msg,
			      gboolean *whole)
{
	const struct iws_ddp_hdr *h = &msg->ddp;
	tvbuff_t *payload = tvb_new_subset_remaining(ulpdu, (gint)msg->payload_off);
	*whole = FALSE;
	if (h->mo == 0 && h->last)
		return payload;
	if (!iwarp_prefs.reassemble_untagged)
		return NULL;
	*whole = TRUE;
	return iwarp_ddp_reassemble(payload, pinfo, tree, msg);
}

/* The RDMAP control octet (h: the DDP header's decode, which holds it): the
 * protocol item, its version and reserved-bit checks. The Info text starts
 * with the opcode's name. */
static proto_item *show_control(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
				const struct iws_ddp_hdr *h, proto_tree **rt, proto_item **ci, wmem_strbuf_t **info)
{
	guint32 off = h->f_rdmap_ctrl.off;
	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_rdmap, ulpdu, off, -1, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_rdmap);
	*rt = proto_item_add_subtree(ti, ett_iwarp_rdmap);
	*ci = proto_tree_add_bitmask(*rt, ulpdu, off, hf_iwarp_rdmap_control, ett_iwarp_rdmap_control,
				     iwarp_rdmap_control_fields, ENC_BIG_ENDIAN);
	proto_item *pi = proto_tree_add_uint(*rt, hf_iwarp_rdmap_qp, ulpdu, 0, 0, ic->qp);
	proto_item_set_generated(pi);
	const char *oname = val_to_str_const(h->opcode, iwarp_rdmap_opcode_vals, "Unknown opcode");
	proto_item_append_text(ti, ", %s", oname);
	if (g_str_has_prefix(oname, "RDMA "))
		oname += 5;  /* "Read Request" reads better in the Info column */
	if (h->rv != IWS_RDMAP_VERSION)
		expert_add_info_format(pinfo, *ci, &ei_iwarp_rdmap_version, "RDMAP version %u (expected 1)", h->rv);
	if (h->rdmap_rsvd)
		expert_add_info(pinfo, *ci, &ei_iwarp_rdmap_rsvd);
	*info = iwarp_info_new(pinfo, oname);
	return ti;
}

/* A message the core could not decode (malformed, or cut short): its
 * expert item and Info text. TRUE when that is all there is to show. */
static gboolean show_undecoded(packet_info *pinfo, proto_item *ti, proto_item *ci, const struct iws_ddp_hdr *h,
			       const struct iws_msg *msg, const struct iws_result *res, wmem_strbuf_t *info)
{
	if (res->status == IWS_MALFORMED) {
		if (iws_rdmap_opcode_queue(h->opcode) == -2)
			expert_add_info_format(pinfo, ci, &ei_iwarp_rdmap_unknown_opcode,
					       "RDMAP opcode 0x%x is not defined by RFC 5040/7306", h->opcode);
		else if (res->reason && msg->ddp.dv == IWS_DDP_VERSION && msg->ddp.rv == IWS_RDMAP_VERSION)
			expert_add_info_format(pinfo, ti, &ei_iwarp_rdmap_malformed, "%s", res->reason);
		iwarp_info_add(info, " [malformed]");
	} else if (res->status != IWS_OK) {
		iwarp_info_add(info, " [truncated]");
	} else {
		return FALSE;
	}
	iwarp_info_col(pinfo, info);
	return TRUE;
}

/* The opcode's own header (Read Request, Immediate Data, Atomic Request
 * and Response, Terminate, the STag a Send invalidates) at the offsets of
 * the core's decode. */
static void show_opcode_header(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, proto_item *ti,
			       const struct iws_msg *msg, wmem_strbuf_t *info)
{
	proto_item *pi;
	switch (msg->ddp.opcode) {
	case IWS_OP_CODE_READ_REQ: {
		const struct iws_rdmap_read_req *rr = &msg->u.read_req;
		add_field(rt, hf_iwarp_rdmap_read_sink_stag, ulpdu, rr->f_sink_stag);
		add_field(rt, hf_iwarp_rdmap_read_sink_to, ulpdu, rr->f_sink_to);
		add_field(rt, hf_iwarp_rdmap_read_size, ulpdu, rr->f_size);
		add_field(rt, hf_iwarp_rdmap_read_src_stag, ulpdu, rr->f_src_stag);
		add_field(rt, hf_iwarp_rdmap_read_src_to, ulpdu, rr->f_src_to);
		iwarp_info_printf(info, " sink 0x%08x len %u", rr->sink_stag, rr->size);
		break;
	}
	case IWS_OP_CODE_IMMEDIATE:
	case IWS_OP_CODE_IMMEDIATE_SE:
		add_field(rt, hf_iwarp_rdmap_immediate, ulpdu, msg->f_immediate);
		iwarp_info_printf(info, " 0x%016" PRIx64, msg->u.immediate);
		break;
	case IWS_OP_CODE_ATOMIC_REQ: {
		const struct iws_rdmap_atomic_req *a = &msg->u.atomic_req;
		/* the reserved bits share the word of the Atomic opcode */
		add_field(rt, hf_iwarp_rdmap_atomic_rsvd, ulpdu, a->f_aopcode);
		pi = add_field(rt, hf_iwarp_rdmap_atomic_opcode, ulpdu, a->f_aopcode);
		if (msg->warnings & IWS_RDMAP_W_AOP_UNKNOWN)
			expert_add_info(pinfo, pi, &ei_iwarp_rdmap_aop_unknown);
		add_field(rt, hf_iwarp_rdmap_atomic_req_id, ulpdu, a->f_req_id);
		add_field(rt, hf_iwarp_rdmap_atomic_stag, ulpdu, a->f_stag);
		add_field(rt, hf_iwarp_rdmap_atomic_to, ulpdu, a->f_to);
		add_field(rt, hf_iwarp_rdmap_atomic_add_swap, ulpdu, a->f_add_swap);
		add_field(rt, hf_iwarp_rdmap_atomic_add_swap_mask, ulpdu, a->f_add_swap_mask);
		add_field(rt, hf_iwarp_rdmap_atomic_compare, ulpdu, a->f_compare);
		add_field(rt, hf_iwarp_rdmap_atomic_compare_mask, ulpdu, a->f_compare_mask);
		iwarp_info_printf(info, " %s id %u STag 0x%08x TO 0x%" PRIx64,
					  val_to_str_const(a->aopcode, iwarp_rdmap_aop_vals, "?"), a->req_id, a->stag, a->to);
		break;
	}
	case IWS_OP_CODE_ATOMIC_RESP:
		add_field(rt, hf_iwarp_rdmap_atomic_req_id, ulpdu, msg->u.atomic_resp.f_req_id);
		add_field(rt, hf_iwarp_rdmap_atomic_orig_value, ulpdu, msg->u.atomic_resp.f_orig_value);
		iwarp_info_printf(info, " id %u", msg->u.atomic_resp.req_id);
		break;
	case IWS_OP_CODE_TERMINATE:
		show_terminate(ulpdu, pinfo, rt, ti, msg, info);
		break;
	case IWS_OP_CODE_SEND_INV:
	case IWS_OP_CODE_SEND_SE_INV:
		add_field(rt, hf_iwarp_rdmap_inval_stag, ulpdu, msg->ddp.f_rsvdulp);
		break;
	default:
		break;
	}
}

/* Is the message a Send on the Send queue (a capsule, an upper layer's
 * message)? */
static gboolean is_untagged_send(const struct iws_msg *msg)
{
	const struct iws_ddp_hdr *h = &msg->ddp;
	return !h->tagged && h->qn == IWS_QN_SEND && iws_rdmap_is_send(h->opcode);
}

/* The payload of a Write, Read Response or Send, and where it goes in its
 * message (Info). */
static void show_payload(tvbuff_t *ulpdu, proto_tree *rt, const struct iws_msg *msg, wmem_strbuf_t *info)
{
	const struct iws_ddp_hdr *h = &msg->ddp;
	guint32 avail = tvb_captured_length(ulpdu);
	if (!h->tagged && !is_untagged_send(msg))
		return;
	if (msg->payload_len && avail > msg->payload_off)
		proto_tree_add_item(rt, hf_iwarp_rdmap_payload, ulpdu, msg->payload_off, avail - msg->payload_off,
				    ENC_NA);
	if (h->tagged)
		iwarp_info_printf(info, " STag 0x%08x TO 0x%" PRIx64, h->stag, h->to);
	else
		iwarp_info_printf(info, " MSN %u MO %u", h->msn, h->mo);
	iwarp_info_printf(info, " len %u", tvb_reported_length(ulpdu) - msg->payload_off);
	if (h->last)
		iwarp_info_add(info, " (last)");
}

/* The payload to the layer above: NVMe/RDMA's capsules and data are the
 * NVMe layer's; anything else is offered to the upper-layer heuristics. */
static void hand_off(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, proto_tree *rt, iwarp_conv *ic,
		     iwarp_pdu_rec *rec, const struct iws_msg *msg)
{
	const struct iws_ddp_hdr *h = &msg->ddp;
	gboolean untagged_send = is_untagged_send(msg);
	gboolean whole;
	if (iwarp_nvme_is_nvme(ic)) {
		/* NVMe/RDMA: capsules and data are the NVMe layer's. The built-in
		 * upper layers' heuristics (RPC-over-RDMA claims almost any Send)
		 * would misread them, so nothing of this connection is offered. A
		 * capsule cut by the snapshot length is still shown as far as it
		 * was captured (one segment; a cut segment is not reassembled). */
		tvbuff_t *m = NULL;
		if (untagged_send && msg->payload_len && !rec->pdu.note.rtr &&
		    (!rec->pdu.truncated || (h->mo == 0 && h->last)))
			m = send_message(ulpdu, pinfo, rt, msg, &whole);
		iwarp_nvme_dissect(ulpdu, m, pinfo, tree, ic, rec, msg);
		return;
	}
	if (rec->pdu.truncated || rec->pdu.note.rtr)
		return;
	if (untagged_send && msg->payload_len) {
		tvbuff_t *m = send_message(ulpdu, pinfo, rt, msg, &whole);
		if (m)
			offer_ulp(m, pinfo, tree, rt, msg, whole, NULL);
	} else if (h->tagged && msg->payload_len &&
		   (h->opcode == IWS_OP_CODE_WRITE || h->opcode == IWS_OP_CODE_READ_RESP)) {
		offer_ulp(tvb_new_subset_remaining(ulpdu, (gint)msg->payload_off), pinfo, tree, rt, msg, FALSE, NULL);
	} else if (h->opcode == IWS_OP_CODE_READ_REQ) {
		/* no payload: the request itself is what RPC-over-RDMA keeps */
		const struct iws_rdmap_read_req *rr = &msg->u.read_req;
		rdmap_request_t req = { rr->sink_stag, rr->sink_to, rr->src_stag, rr->src_to, rr->size };
		offer_ulp(tvb_new_subset_remaining(ulpdu, (gint)(rr->f_src_to.off + rr->f_src_to.len)), pinfo, tree,
			  rt, msg, FALSE, &req);
	}
}

void iwarp_rdmap_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			 iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res,
			 const struct iws_ddp_hdr *h)
{
	if (tvb_captured_length(ulpdu) < h->f_rdmap_ctrl.off + h->f_rdmap_ctrl.len)
		return;
	proto_tree *rt;
	proto_item *ci;
	wmem_strbuf_t *info;
	proto_item *ti = show_control(ulpdu, pinfo, tree, ic, h, &rt, &ci, &info);
	if (show_undecoded(pinfo, ti, ci, h, msg, res, info))
		return;
	if (msg->warnings & IWS_DDP_W_RSVDULP)
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_rsvdulp);
	if (msg->warnings & IWS_RDMAP_W_TRAILING)
		expert_add_info(pinfo, ti, &ei_iwarp_rdmap_trailing);
	show_opcode_header(ulpdu, pinfo, rt, ti, msg, info);
	show_payload(ulpdu, rt, msg, info);
	show_matching(ulpdu, pinfo, rt, ti, ic, rec, info);
	iwarp_rpc_dissect(ulpdu, pinfo, rt, ic, rec, msg);
	iwarp_smb_dissect(ulpdu, pinfo, rt, ic, rec, msg);
	iwarp_info_col(pinfo, info);
	hand_off(ulpdu, pinfo, tree, rt, ic, rec, msg);
}

module_t *iwarp_rdmap_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_iwarp_rdmap_control, { "RDMAP control", "iwarp.rdmap.control", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_version, { "Version", "iwarp.rdmap.version", FT_UINT8, BASE_DEC, NULL, IWS_RDMAP_RV_MASK, NULL, HFILL } },
		{ &hf_iwarp_rdmap_rsvd, { "Reserved", "iwarp.rdmap.rsvd", FT_UINT8, BASE_HEX, NULL, IWS_RDMAP_RSVD_MASK, NULL, HFILL } },
		{ &hf_iwarp_rdmap_opcode, { "OpCode", "iwarp.rdmap.opcode", FT_UINT8, BASE_HEX, VALS(iwarp_rdmap_opcode_vals),
			IWS_RDMAP_OPCODE_MASK, NULL, HFILL } },
		{ &hf_iwarp_rdmap_qp, { "QP", "iwarp.rdmap.qp", FT_UINT32, BASE_DEC, NULL, 0x0,
			"Connection (queue pair) number: the TCP stream index", HFILL } },
		{ &hf_iwarp_rdmap_inval_stag, { "Invalidate STag", "iwarp.rdmap.inval_stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_payload, { "Payload", "iwarp.rdmap.payload", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_read_sink_stag, { "Data sink STag", "iwarp.rdmap.read.sink_stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_read_sink_to, { "Data sink TO", "iwarp.rdmap.read.sink_to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_read_size, { "RDMA Read message size", "iwarp.rdmap.read.size", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_read_src_stag, { "Data source STag", "iwarp.rdmap.read.src_stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_read_src_to, { "Data source TO", "iwarp.rdmap.read.src_to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_immediate, { "Immediate data", "iwarp.rdmap.immediate", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_rsvd, { "Reserved", "iwarp.rdmap.atomic.rsvd", FT_UINT32, BASE_HEX, NULL, 0xFFFFFFF0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_opcode, { "Atomic opcode", "iwarp.rdmap.atomic.opcode", FT_UINT32, BASE_HEX,
			VALS(iwarp_rdmap_aop_vals), 0x0000000F, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_req_id, { "Request identifier", "iwarp.rdmap.atomic.req_id", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_stag, { "Remote STag", "iwarp.rdmap.atomic.stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_to, { "Remote TO", "iwarp.rdmap.atomic.to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_add_swap, { "Add or swap data", "iwarp.rdmap.atomic.add_swap", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_add_swap_mask, { "Add or swap mask", "iwarp.rdmap.atomic.add_swap_mask", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_compare, { "Compare data", "iwarp.rdmap.atomic.compare", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_compare_mask, { "Compare mask", "iwarp.rdmap.atomic.compare_mask", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_atomic_orig_value, { "Original remote value", "iwarp.rdmap.atomic.orig_value", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ctrl, { "Terminate control", "iwarp.rdmap.term.ctrl", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_layer, { "Layer", "iwarp.rdmap.term.layer", FT_UINT32, BASE_HEX, VALS(iwarp_rdmap_layer_vals),
			0xF0000000, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_etype, { "Error type", "iwarp.rdmap.term.etype", FT_UINT32, BASE_HEX, NULL, 0x0F000000,
			"Named by layer in the control item", HFILL } },
		{ &hf_iwarp_rdmap_term_errcode, { "Error code", "iwarp.rdmap.term.errcode", FT_UINT32, BASE_HEX, NULL, 0x00FF0000,
			"Named by layer and type in the control item", HFILL } },
		{ &hf_iwarp_rdmap_term_m, { "DDP segment length valid (M)", "iwarp.rdmap.term.m", FT_BOOLEAN, 32, NULL, IWS_TERM_HDRCT_M, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_d, { "DDP header included (D)", "iwarp.rdmap.term.d", FT_BOOLEAN, 32, NULL, IWS_TERM_HDRCT_D, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_r, { "RDMAP header included (R)", "iwarp.rdmap.term.r", FT_BOOLEAN, 32, NULL, IWS_TERM_HDRCT_R, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_rsvd, { "Reserved", "iwarp.rdmap.term.rsvd", FT_UINT32, BASE_HEX, NULL, 0x00001FFF, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_seg_len, { "DDP segment length", "iwarp.rdmap.term.ddp_seg_len", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_tagged, { "Tagged", "iwarp.rdmap.term.ddp.tagged", FT_BOOLEAN, 8, NULL, IWS_DDP_FLAG_T, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_last, { "Last", "iwarp.rdmap.term.ddp.last", FT_BOOLEAN, 8, NULL, IWS_DDP_FLAG_L, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_opcode, { "OpCode", "iwarp.rdmap.term.ddp.opcode", FT_UINT8, BASE_HEX,
			VALS(iwarp_rdmap_opcode_vals), IWS_RDMAP_OPCODE_MASK, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_stag, { "STag", "iwarp.rdmap.term.ddp.stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_to, { "TO", "iwarp.rdmap.term.ddp.to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_qn, { "QN", "iwarp.rdmap.term.ddp.qn", FT_UINT32, BASE_DEC, VALS(iwarp_ddp_qn_names), 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_msn, { "MSN", "iwarp.rdmap.term.ddp.msn", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_ddp_mo, { "MO", "iwarp.rdmap.term.ddp.mo", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_read_sink_stag, { "Data sink STag", "iwarp.rdmap.term.read.sink_stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_read_sink_to, { "Data sink TO", "iwarp.rdmap.term.read.sink_to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_read_size, { "RDMA Read message size", "iwarp.rdmap.term.read.size", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_read_src_stag, { "Data source STag", "iwarp.rdmap.term.read.src_stag", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_term_read_src_to, { "Data source TO", "iwarp.rdmap.term.read.src_to", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_rtr, { "RTR message", "iwarp.rdmap.rtr", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			"The ready-to-receive message of a peer-to-peer set-up (RFC 6581)", HFILL } },
		{ &hf_iwarp_rdmap_op_id, { "Operation", "iwarp.rdmap.op.id", FT_UINT64, BASE_DEC, NULL, 0x0,
			"Operation number within the connection", HFILL } },
		{ &hf_iwarp_rdmap_op_type, { "Operation type", "iwarp.rdmap.op.type", FT_UINT8, BASE_DEC,
			VALS(iwarp_rdmap_op_type_vals), 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_op_first, { "First frame", "iwarp.rdmap.op.first_frame", FT_FRAMENUM, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_op_last, { "Last frame", "iwarp.rdmap.op.last_frame", FT_FRAMENUM, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_op_complete, { "Complete", "iwarp.rdmap.op.complete", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_op_payload_captured, { "Payload captured", "iwarp.rdmap.op.payload_captured", FT_BOOLEAN,
			BASE_NONE, NULL, 0x0, "Complete, and every octet of it captured (the CLI's payload_captured)", HFILL } },
		{ &hf_iwarp_rdmap_op_first_inorder, { "First FPDU in order in", "iwarp.rdmap.op.first_inorder_frame",
			FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"The frame where the operation's first FPDU became deliverable in order (the CLI's first_inorder_frame)",
			HFILL } },
		{ &hf_iwarp_rdmap_op_rtr, { "RTR", "iwarp.rdmap.op.rtr", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			"The operation is the RTR message of a peer-to-peer set-up (left out of the statistics)", HFILL } },
		{ &hf_iwarp_rdmap_op_pairing, { "Paired by", "iwarp.rdmap.op.pairing", FT_STRING, BASE_NONE, NULL, 0x0,
			"How the capture proves which request a Read's or Atomic's response answers: order, key, frame, "
			"close (the count at a clean close) or before_capture (the CLI's pairing, docs/semantics.md)",
			HFILL } },
		{ &hf_iwarp_rdmap_op_after_close, { "After close", "iwarp.rdmap.op.after_close", FT_BOOLEAN, BASE_NONE,
			NULL, 0x0, "Octets of the operation were sent after its receiver closed or reset the connection",
			HFILL } },
		{ &hf_iwarp_rdmap_response_in, { "Response in", "iwarp.rdmap.response_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, "The first response to this request", HFILL } },
		{ &hf_iwarp_rdmap_request_in, { "Request in", "iwarp.rdmap.request_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0, "The request this responds to", HFILL } },
		{ &hf_iwarp_rdmap_response_time, { "Response time", "iwarp.rdmap.response_time", FT_RELATIVE_TIME, BASE_NONE,
			NULL, 0x0, "From the request frame to the frame of the last response", HFILL } },
		{ &hf_iwarp_rdmap_ulp_declined, { "Upper-layer heuristic failed", "iwarp.rdmap.ulp_declined", FT_STRING, BASE_NONE,
			NULL, 0x0, "An upper-layer heuristic took this payload and could not decode it: it is not that "
			"protocol (no expert item: the capture is not at fault)", HFILL } },
		{ &hf_iwarp_rdmap_outstanding, { "Requests outstanding", "iwarp.rdmap.outstanding", FT_UINT32, BASE_DEC, NULL, 0x0,
			"Read/Atomic Requests this side has outstanding", HFILL } },
	};
	static gint *ett[] = {
		&ett_iwarp_rdmap, &ett_iwarp_rdmap_control, &ett_iwarp_rdmap_term, &ett_iwarp_rdmap_term_ddp,
		&ett_iwarp_rdmap_term_rdmap, &ett_iwarp_rdmap_op,
	};
	static ei_register_info ei[] = {
		{ &ei_iwarp_rdmap_version, { "iwarp.rdmap.version.bad", PI_PROTOCOL, PI_ERROR, "RDMAP version is not 1", EXPFILL } },
		{ &ei_iwarp_rdmap_rsvd, { "iwarp.rdmap.rsvd_set", PI_PROTOCOL, PI_WARN, "RDMAP reserved bits set", EXPFILL } },
		{ &ei_iwarp_rdmap_unknown_opcode, { "iwarp.rdmap.opcode.unknown", PI_PROTOCOL, PI_ERROR, "Unknown RDMAP opcode", EXPFILL } },
		{ &ei_iwarp_rdmap_malformed, { "iwarp.rdmap.malformed", PI_MALFORMED, PI_ERROR, "RDMAP message malformed", EXPFILL } },
		{ &ei_iwarp_rdmap_rsvdulp, { "iwarp.rdmap.rsvdulp_set", PI_PROTOCOL, PI_WARN, "RsvdULP is not zero", EXPFILL } },
		{ &ei_iwarp_rdmap_trailing, { "iwarp.rdmap.trailing", PI_PROTOCOL, PI_WARN, "Octets after a fixed-size RDMAP message", EXPFILL } },
		{ &ei_iwarp_rdmap_aop_unknown, { "iwarp.rdmap.atomic.opcode.unknown", PI_PROTOCOL, PI_WARN, "Atomic opcode not defined by RFC 7306", EXPFILL } },
		{ &ei_iwarp_rdmap_term, { "iwarp.rdmap.terminate", PI_SEQUENCE, PI_WARN, "Terminate", EXPFILL } },
		{ &ei_iwarp_rdmap_term_rsvd, { "iwarp.rdmap.term.rsvd_set", PI_PROTOCOL, PI_WARN, "Terminate reserved bits set", EXPFILL } },
		{ &ei_iwarp_rdmap_orphan, { "iwarp.rdmap.orphan_response", PI_SEQUENCE, PI_WARN, "Response without a request in the capture", EXPFILL } },
		{ &ei_iwarp_rdmap_ird_exceeded, { "iwarp.rdmap.ird_exceeded", PI_SEQUENCE, PI_WARN, "More requests outstanding than the peer's IRD", EXPFILL } },
		{ &ei_iwarp_rdmap_stag_mismatch, { "iwarp.rdmap.stag_mismatch", PI_SEQUENCE, PI_WARN,
			"Read Response does not continue the oldest outstanding Read Request", EXPFILL } },
		{ &ei_iwarp_rdmap_overrun, { "iwarp.rdmap.overrun", PI_PROTOCOL, PI_WARN, "More Read Response data than requested", EXPFILL } },
		{ &ei_iwarp_rdmap_evicted, { "iwarp.rdmap.evicted", PI_SEQUENCE, PI_NOTE, "In-flight limit reached: the oldest operation was given up", EXPFILL } },
		{ &ei_iwarp_rdmap_rtr, { "iwarp.rdmap.rtr.message", PI_SEQUENCE, PI_CHAT, "RTR message of a peer-to-peer set-up", EXPFILL } },
	};

	for (int i = 0; i < IWS_OPT_COUNT; i++) {
		iwarp_rdmap_op_type_vals[i].value = (guint32)i;
		iwarp_rdmap_op_type_vals[i].strptr = iws_op_type_name((enum iws_op_type)i);
	}
	proto_iwarp_rdmap = proto_register_protocol("iWARP RDMAP (iwarpscope)", "iWARP RDMAP", "iwarp.rdmap");
	proto_register_field_array(proto_iwarp_rdmap, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_module_t *em = expert_register_protocol(proto_iwarp_rdmap);
	expert_register_field_array(em, ei, array_length(ei));
	iwarp_rdmap_heur_list = register_heur_dissector_list("iwarp.rdmap", proto_iwarp_rdmap);
	module_t *m = prefs_register_protocol(proto_iwarp_rdmap, NULL);
	prefs_register_bool_preference(m, "offer_builtin_ulp",
		"Offer payloads to the iwarp_ddp_rdmap heuristic list",
		"Hand Send, Write and Read Response payloads and Read Requests (after this plugin's "
		"own \"iwarp.rdmap\" list) to the upper-layer heuristics registered with Wireshark's "
		"built-in iWARP dissector: SMB Direct, RPC over RDMA.", &iwarp_prefs.offer_builtin_ulp);
	return m;
}

void iwarp_rdmap_handoff(void)
{
	builtin_rdmap_heur_list = find_heur_dissector_list("iwarp_ddp_rdmap");
}
