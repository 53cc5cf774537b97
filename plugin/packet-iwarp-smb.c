// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-smb.c - the iwarp.smb protocol: each SMB2 request carried by
 * SMB Direct (MS-SMBD; MS-SMB2) with its response and the RDMA operations
 * that moved its data through its buffer descriptors (MS-SMB2 3.3.5.12,
 * 3.3.5.13).
 *
 * Wireshark's own smb_direct and smb2 dissectors decode the Sends but never
 * tie a READ or WRITE to the server's RDMA Writes into, or RDMA Reads of,
 * the buffers its descriptors name. The core's SMB stage (smbd.h, the one
 * `iwarpscope smb` uses) does: on the first pass every request it reports
 * becomes a compact record (iwarp_smb_link) kept under the frames where its
 * request and response messages completed and under the ids of its RDMA
 * operations; every pass renders from them, and -z iwarp,smb
 * (iwarp-stats.c) prints the engine's verdict per connection as
 * `iwarpscope stats` does. Connections without SMB Direct get no record.
 */
#include <string.h>

#include <epan/packet.h>

#include "iwarpscope/smbd.h"
#include "packet-iwarp-smb.h"
#include "packet-iwarp-state.h"

int proto_iwarp_smb = -1;

static int hf_smb_message_id = -1;
static int hf_smb_command = -1;
static int hf_smb_role = -1;
static int hf_smb_request_in = -1;
static int hf_smb_response_in = -1;
static int hf_smb_time = -1;
static int hf_smb_status = -1;
static int hf_smb_channel = -1;
static int hf_smb_desc_bytes = -1;
static int hf_smb_rdma_ops = -1;
static int hf_smb_rdma_bytes = -1;
static int hf_smb_inline_bytes = -1;
static int hf_smb_complete = -1;

static gint ett_smb = -1;

/* ---- first pass ---- */

static void keep_under(wmem_map_t *m, guint32 frame, iwarp_smb_link *l)
{
	wmem_array_t *a = (wmem_array_t *)wmem_map_lookup(m, GUINT_TO_POINTER(frame));
	if (!a) {
		a = wmem_array_new(wmem_file_scope(), sizeof(iwarp_smb_link *));
		wmem_map_insert(m, GUINT_TO_POINTER(frame), a);
	}
	wmem_array_append_one(a, l);
}

static void keep_on_op(iwarp_conv *ic, guint64 id, iwarp_smb_link *l)
{
	iwarp_op_link *o = id ? (iwarp_op_link *)wmem_map_lookup(ic->ops, &id) : NULL;
	if (o)
		wmem_map_insert(ic->smb_ops, &o->op.id, l);
}

static void on_smb(void *ctx, const struct iws_smb *m)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	if (!ic->smbs) {
		ic->smbs = wmem_array_new(wmem_file_scope(), sizeof(iwarp_smb_link *));
		ic->smb_frames = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		ic->smb_ops = wmem_map_new(wmem_file_scope(), g_int64_hash, g_int64_equal);
	}
	iwarp_smb_link *l = wmem_new0(wmem_file_scope(), iwarp_smb_link);
	l->message_id = m->message_id;
	l->command = m->command;
	l->rdma_bytes = m->rdma_bytes;
	l->latency_ns = m->latency_ns;
	l->req_frame = (guint32)m->req_frame;
	l->req_done_frame = (guint32)m->req_done_frame;
	l->resp_frame = (guint32)m->resp_frame;
	l->req_msn = m->req_msn;
	l->resp_msn = m->resp_msn;
	l->status = m->status;
	l->inline_bytes = m->inline_bytes;
	l->desc_bytes = m->desc_bytes;
	l->rdma_ops = m->rdma_ops;
	l->channel = m->req.channel;
	l->flags = m->flags;
	l->has_request = m->has_request;
	l->has_response = m->has_response;
	l->complete = m->complete;
	l->req_dir = m->req_dir;
	l->io = m->has_request && m->req.io;
	wmem_array_append_one(ic->smbs, l);
	if (l->has_request)
		keep_under(ic->smb_frames, l->req_done_frame, l);
	if (l->has_response && l->resp_frame != l->req_done_frame)
		keep_under(ic->smb_frames, l->resp_frame, l);
	/* its RDMA operations: the first and the last of each descriptor's
	 * (and those in between when the ids run without a gap) */
	for (guint32 i = 0; i < m->nrdma && i < IWS_SMB_MAX_RDMA; i++) {
		const struct iws_smb_rdma *d = &m->rdma[i];
		if (d->last_op_id >= d->first_op_id && d->last_op_id - d->first_op_id + 1 == d->ops)
			for (guint64 id = d->first_op_id; id <= d->last_op_id; id++)
				keep_on_op(ic, id, l);
		else {
			keep_on_op(ic, d->first_op_id, l);
			keep_on_op(ic, d->last_op_id, l);
		}
	}
}

void iwarp_smb_stage(iwarp_conv *ic)
{
	iws_stream_smb_stage(ic->eng, ic->qp, on_smb);
}

/* ---- rendering (every pass) ---- */

static const char *channel_name(guint32 ch)
{
	static const char *const n[] = { "none", "rdma_v1", "rdma_v1_invalidate", "rdma_transform" };
	return ch < 4 ? n[ch] : "?";
}

enum smb_role { ROLE_REQUEST, ROLE_RESPONSE, ROLE_DATA };
static const char *const role_names[] = { "request", "response", "data" };

static void gen_frame(proto_tree *t, int hf, tvbuff_t *tvb, guint32 frame)
{
	proto_item_set_generated(proto_tree_add_uint(t, hf, tvb, 0, 0, frame));
}

static void show_smb(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, const iwarp_smb_link *l, enum smb_role role)
{
	const char *cmd = iws_smb2_cmd_name(l->command);
	proto_item *ti = proto_tree_add_item(rt, proto_iwarp_smb, tvb, 0, 0, ENC_NA);
	proto_item_set_generated(ti);
	proto_item_append_text(ti, ": %s of SMB2 %s, MessageId %" PRIu64, role_names[role], cmd ? cmd : "?",
			       l->message_id);
	proto_tree *t = proto_item_add_subtree(ti, ett_smb);
	proto_item_set_generated(proto_tree_add_uint64(t, hf_smb_message_id, tvb, 0, 0, l->message_id));
	proto_item_set_generated(proto_tree_add_string(t, hf_smb_command, tvb, 0, 0, cmd ? cmd : "?"));
	proto_item_set_generated(proto_tree_add_string(t, hf_smb_role, tvb, 0, 0, role_names[role]));
	if (role != ROLE_REQUEST && l->has_request)
		gen_frame(t, hf_smb_request_in, tvb, l->req_frame);
	if (role != ROLE_RESPONSE && l->has_response && l->resp_frame != pinfo->num) {
		gen_frame(t, hf_smb_response_in, tvb, l->resp_frame);
		proto_item_append_text(ti, ", response in frame %u", l->resp_frame);
	}
	if (l->has_request && l->has_response) {
		nstime_t v;
		v.secs = (time_t)(l->latency_ns / 1000000000);
		v.nsecs = (int)(l->latency_ns % 1000000000);
		proto_item_set_generated(proto_tree_add_time(t, hf_smb_time, tvb, 0, 0, &v));
	}
	if (role == ROLE_DATA)
		return;
	if (l->has_response)
		proto_item_set_generated(proto_tree_add_uint(t, hf_smb_status, tvb, 0, 0, l->status));
	if (l->io) {
		proto_item_set_generated(proto_tree_add_string(t, hf_smb_channel, tvb, 0, 0, channel_name(l->channel)));
		proto_item_set_generated(proto_tree_add_uint(t, hf_smb_desc_bytes, tvb, 0, 0, l->desc_bytes));
		proto_item_set_generated(proto_tree_add_uint(t, hf_smb_rdma_ops, tvb, 0, 0, l->rdma_ops));
		proto_item_set_generated(proto_tree_add_uint64(t, hf_smb_rdma_bytes, tvb, 0, 0, l->rdma_bytes));
		proto_item_set_generated(proto_tree_add_uint(t, hf_smb_inline_bytes, tvb, 0, 0, l->inline_bytes));
		proto_item_append_text(ti, ", channel %s, %" PRIu64 " octets by RDMA, %u inline",
				       channel_name(l->channel), l->rdma_bytes, l->inline_bytes);
	}
	proto_item_set_generated(proto_tree_add_boolean(t, hf_smb_complete, tvb, 0, 0, l->complete));
}

void iwarp_smb_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, const iwarp_conv *ic,
		       const iwarp_pdu_rec *rec, const struct iws_msg *msg)
{
	if (!ic->smbs || !rec)
		return;
	const struct iws_ddp_hdr *h = &msg->ddp;
	if (h->tagged || h->opcode == IWS_OP_CODE_READ_REQ) {
		const iwarp_smb_link *l = rec->op ? (const iwarp_smb_link *)wmem_map_lookup(ic->smb_ops, &rec->op->op.id)
						  : NULL;
		if (l)
			show_smb(ulpdu, pinfo, rt, l, ROLE_DATA);
		return;
	}
	if (h->qn != IWS_QN_SEND || !iws_rdmap_is_send(h->opcode) || !h->last)
		return;
	/* the Send that completed a request's or a response's SMBD message:
	 * its frame, direction and MSN */
	wmem_array_t *a = (wmem_array_t *)wmem_map_lookup(ic->smb_frames, GUINT_TO_POINTER(rec->pdu.frame));
	for (guint i = 0; a && i < wmem_array_get_count(a); i++) {
		const iwarp_smb_link *l = *(const iwarp_smb_link **)wmem_array_index(a, i);
		if (l->has_request && rec->pdu.dir == l->req_dir && rec->pdu.frame == l->req_done_frame && h->msn == l->req_msn)
			show_smb(ulpdu, pinfo, rt, l, ROLE_REQUEST);
		else if (l->has_response && rec->pdu.dir != l->req_dir && rec->pdu.frame == l->resp_frame &&
			 h->msn == l->resp_msn)
			show_smb(ulpdu, pinfo, rt, l, ROLE_RESPONSE);
	}
}

void iwarp_smb_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_smb_message_id, { "MessageId", "iwarp.smb.message_id", FT_UINT64, BASE_DEC, NULL, 0x0,
			"The SMB2 request's MessageId (MS-SMB2 2.2.1)", HFILL } },
		{ &hf_smb_command, { "Command", "iwarp.smb.command", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_smb_role, { "Role", "iwarp.smb.role", FT_STRING, BASE_NONE, NULL, 0x0,
			"What this frame is to the request: request, response or data (an RDMA operation of its "
			"buffer descriptors)", HFILL } },
		{ &hf_smb_request_in, { "Request in", "iwarp.smb.request_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0, "The first frame of the request's SMBD message", HFILL } },
		{ &hf_smb_response_in, { "Response in", "iwarp.smb.response_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, "The frame where the response's SMBD message completed",
			HFILL } },
		{ &hf_smb_time, { "Response time", "iwarp.smb.time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the request's first frame to the frame where its response completed", HFILL } },
		{ &hf_smb_status, { "Status", "iwarp.smb.status", FT_UINT32, BASE_HEX, NULL, 0x0,
			"The final response's NTSTATUS", HFILL } },
		{ &hf_smb_channel, { "Channel", "iwarp.smb.channel", FT_STRING, BASE_NONE, NULL, 0x0,
			"READ/WRITE Channel (MS-SMB2 2.2.19, 2.2.21): none, rdma_v1, rdma_v1_invalidate", HFILL } },
		{ &hf_smb_desc_bytes, { "Descriptor octets", "iwarp.smb.desc_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
			"The buffer descriptors' Lengths (MS-SMBD 2.2.3.1)", HFILL } },
		{ &hf_smb_rdma_ops, { "RDMA operations", "iwarp.smb.rdma_ops", FT_UINT32, BASE_DEC, NULL, 0x0, NULL,
			HFILL } },
		{ &hf_smb_rdma_bytes, { "RDMA octets", "iwarp.smb.rdma_bytes", FT_UINT64, BASE_DEC, NULL, 0x0,
			"Octets the server's RDMA operations moved through the request's descriptors", HFILL } },
		{ &hf_smb_inline_bytes, { "Inline octets", "iwarp.smb.inline_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
			"An inline WRITE's Length, a READ response's DataLength", HFILL } },
		{ &hf_smb_complete, { "Complete", "iwarp.smb.complete", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			"Request and response both captured", HFILL } },
	};
	static gint *ett[] = { &ett_smb };
	proto_iwarp_smb = proto_register_protocol("SMB Direct anatomy (iwarpscope)", "iWARP SMB", "iwarp.smb");
	proto_register_field_array(proto_iwarp_smb, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
}
