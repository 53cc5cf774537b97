// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-rpc.c - the iwarp.rpc protocol: each RPC carried by
 * RPC-over-RDMA version 1 (RFC 8166; NFS's binding, RFC 8267) with the
 * RDMA operations that moved its data, and where its time went.
 *
 * Wireshark's own rpcordma, RPC and NFS dissectors decode the transport
 * header and the RPC (the plugin offers them the Sends' payloads) but never
 * tie an RPC to the RDMA Writes into its write or reply chunk (RFC 8166
 * §3.5.4, §3.5.5) or the RDMA Reads of its read chunk (§3.5.3). The core's
 * RPC-over-RDMA stage (rpcrdma.h, the one `iwarpscope rpc` uses) does: on
 * the first pass every RPC it reports becomes a compact record
 * (iwarp_rpc_link) kept under the frames of its call and its reply and
 * under the ids of its RDMA operations; every pass renders from them
 * (generated items, links both ways), and -z iwarp,rpc (iwarp-stats.c)
 * counts them as `iwarpscope stats` does. Connections that carry no
 * RPC-over-RDMA get no record at all.
 */
#include <string.h>

#include <epan/packet.h>

#include "iwarpscope/rpcrdma.h"
#include "packet-iwarp-rpc.h"
#include "packet-iwarp-state.h"

int proto_iwarp_rpc = -1;

static int hf_rpc_xid = -1;
static int hf_rpc_role = -1;
static int hf_rpc_program = -1;
static int hf_rpc_version = -1;
static int hf_rpc_procedure = -1;
static int hf_rpc_reply_in = -1;
static int hf_rpc_call_in = -1;
static int hf_rpc_time = -1;
static int hf_rpc_think = -1;
static int hf_rpc_data = -1;
static int hf_rpc_tail = -1;
static int hf_rpc_rdma_bytes = -1;
static int hf_rpc_complete = -1;
static int hf_rpc_rdma_op = -1;
static int hf_rpc_rdma_chunk = -1;
static int hf_rpc_rdma_stag = -1;
static int hf_rpc_rdma_ops = -1;
static int hf_rpc_rdma_first = -1;
static int hf_rpc_rdma_last = -1;
static int hf_rpc_rdma_obytes = -1;

static gint ett_rpc = -1;
static gint ett_rpc_rdma = -1;

/* ---- first pass ---- */

/* Appends l to the list under key (a frame or an xid). */
static void keep_under(wmem_map_t *m, guint32 key, iwarp_rpc_link *l)
{
	wmem_array_t *a = (wmem_array_t *)wmem_map_lookup(m, GUINT_TO_POINTER(key));
	if (!a) {
		a = wmem_array_new(wmem_file_scope(), sizeof(iwarp_rpc_link *));
		wmem_map_insert(m, GUINT_TO_POINTER(key), a);
	}
	wmem_array_append_one(a, l);
}

/* Under the id of an operation the tracker reported (its link's key lives
 * as long as the file). */
static void keep_on_op(iwarp_conv *ic, guint64 id, guint8 type, iwarp_rpc_link *l)
{
	iwarp_op_link *o = id ? (iwarp_op_link *)wmem_map_lookup(ic->ops, &id) : NULL;
	if (o && o->op.type == type)
		wmem_map_insert(ic->rpc_ops, &o->op.id, l);
}

static void on_rpc(void *ctx, const struct iws_rpc *r)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	if (!ic->rpcs) {
		ic->rpcs = wmem_array_new(wmem_file_scope(), sizeof(iwarp_rpc_link *));
		ic->rpc_calls = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		ic->rpc_replies = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		ic->rpc_ops = wmem_map_new(wmem_file_scope(), g_int64_hash, g_int64_equal);
	}
	iwarp_rpc_link *l = wmem_new0(wmem_file_scope(), iwarp_rpc_link);
	l->qp = r->qp;
	l->xid = r->xid;
	l->prog = r->prog;
	l->vers = r->vers;
	l->proc = r->proc;
	l->proc_name = r->proc_name;
	l->call_frame = (guint32)r->call_frame;
	l->call_done_frame = (guint32)r->call_done_frame;
	l->reply_frame = r->has_reply ? (guint32)r->reply_frame : 0;
	l->data_first_frame = (guint32)r->data_first_frame;
	l->flags = r->flags;
	l->latency_ns = r->latency_ns;
	l->think_ns = r->think_ns;
	l->data_ns = r->data_ns;
	l->tail_ns = r->tail_ns;
	l->rdma_bytes = r->rdma_bytes;
	l->has_call = r->has_call;
	l->has_reply = r->has_reply;
	l->complete = r->complete;
	l->call_dir = r->call_dir;
	l->nrdma = (guint8)MIN(r->nrdma, IWS_RPC_MAX_RDMA);
	if (l->nrdma)
		l->rdma = wmem_alloc0_array(wmem_file_scope(), iwarp_rpc_rdma, l->nrdma);
	wmem_array_append_one(ic->rpcs, l);
	if (l->has_call)
		keep_under(ic->rpc_calls, l->xid, l);
	if (l->has_reply)
		keep_under(ic->rpc_replies, l->reply_frame, l);
	for (guint i = 0; i < l->nrdma; i++) {
		const struct iws_rpc_rdma *d = &r->rdma[i];
		iwarp_rpc_rdma *k = &l->rdma[i];
		k->first_op_id = d->first_op_id;
		k->last_op_id = d->last_op_id;
		k->bytes = d->bytes;
		k->first_frame = (guint32)d->first_frame;
		k->last_frame = (guint32)d->last_frame;
		k->ops = d->ops;
		k->stag = d->stag;
		k->type = (guint8)d->type;
		k->kind = (guint8)d->kind;
		/* The ids between the first and the last are this entry's only
		 * when there are as many of them as operations (other RPCs'
		 * operations may come in between). */
		if (d->last_op_id >= d->first_op_id && d->last_op_id - d->first_op_id + 1 == d->ops)
			for (guint64 id = d->first_op_id; id <= d->last_op_id; id++)
				keep_on_op(ic, id, k->type, l);
		else {
			keep_on_op(ic, d->first_op_id, k->type, l);
			keep_on_op(ic, d->last_op_id, k->type, l);
		}
	}
}

void iwarp_rpc_stage(iwarp_conv *ic)
{
	iws_stream_rpc_stage(ic->eng, ic->qp, on_rpc);
}

void iwarp_rpc_of_link(const iwarp_rpc_link *l, struct iws_rpc *r)
{
	memset(r, 0, sizeof(*r));
	r->qp = l->qp;
	r->xid = l->xid;
	r->has_call = l->has_call;
	r->prog = l->prog;
	r->vers = l->vers;
	r->proc = l->proc;
	r->proc_name = l->proc_name;
	r->call_frame = l->call_frame;
	r->has_reply = l->has_reply;
	r->reply_frame = l->reply_frame;
	r->latency_ns = l->latency_ns;
	r->rdma_bytes = l->rdma_bytes;
	r->data_first_frame = l->data_first_frame;
	r->think_ns = l->think_ns;
	r->data_ns = l->data_ns;
	r->tail_ns = l->tail_ns;
	r->complete = l->complete;
	r->flags = l->flags;
}

/* ---- rendering (every pass) ---- */

static void add_frame(proto_tree *t, int hf, tvbuff_t *tvb, guint32 frame)
{
	proto_item_set_generated(proto_tree_add_uint(t, hf, tvb, 0, 0, frame));
}

static void add_time(proto_tree *t, int hf, tvbuff_t *tvb, gint64 ns)
{
	nstime_t v;
	v.secs = (time_t)(ns / 1000000000);
	v.nsecs = (int)(ns % 1000000000);
	proto_item_set_generated(proto_tree_add_time(t, hf, tvb, 0, 0, &v));
}

/* "NFSv3 read", "program 100005 v3 proc 1" */
static void rpc_title(const iwarp_rpc_link *l, char *buf, size_t size)
{
	if (!l->has_call)
		snprintf(buf, size, "(call not captured)");
	else if (l->prog == IWS_RPC_PROG_NFS && l->proc_name)
		snprintf(buf, size, "NFSv%u %s", l->vers, l->proc_name);
	else if (l->proc_name)
		snprintf(buf, size, "program %u v%u %s", l->prog, l->vers, l->proc_name);
	else
		snprintf(buf, size, "program %u v%u proc %u", l->prog, l->vers, l->proc);
}

enum rpc_role { ROLE_CALL, ROLE_REPLY, ROLE_DATA };
static const char *const role_names[] = { "call", "reply", "data" };

static void show_rpc(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, const iwarp_rpc_link *l, enum rpc_role role)
{
	char title[96];
	rpc_title(l, title, sizeof(title));
	proto_item *ti = proto_tree_add_item(rt, proto_iwarp_rpc, tvb, 0, 0, ENC_NA);
	proto_item_set_generated(ti);
	proto_item_append_text(ti, ": %s of xid 0x%08x, %s", role_names[role], l->xid, title);
	proto_tree *t = proto_item_add_subtree(ti, ett_rpc);
	proto_item_set_generated(proto_tree_add_uint(t, hf_rpc_xid, tvb, 0, 0, l->xid));
	proto_item_set_generated(proto_tree_add_string(t, hf_rpc_role, tvb, 0, 0, role_names[role]));
	if (l->has_call) {
		proto_item_set_generated(proto_tree_add_uint(t, hf_rpc_program, tvb, 0, 0, l->prog));
		proto_item_set_generated(proto_tree_add_uint(t, hf_rpc_version, tvb, 0, 0, l->vers));
		if (l->proc_name)
			proto_item_set_generated(proto_tree_add_string(t, hf_rpc_procedure, tvb, 0, 0, l->proc_name));
	}
	if (role != ROLE_CALL && l->has_call)
		add_frame(t, hf_rpc_call_in, tvb, l->call_frame);
	if (role != ROLE_REPLY && l->has_reply && l->reply_frame != pinfo->num) {
		add_frame(t, hf_rpc_reply_in, tvb, l->reply_frame);
		proto_item_append_text(ti, ", reply in frame %u", l->reply_frame);
	}
	if (l->has_reply && l->has_call) {
		add_time(t, hf_rpc_time, tvb, l->latency_ns);
		proto_item_append_text(ti, ", %.6f ms", (double)l->latency_ns / 1e6);
	}
	if (l->data_first_frame && l->has_reply && l->has_call) {
		/* the phases (docs/semantics.md, "RPC over RDMA") */
		add_time(t, hf_rpc_think, tvb, l->think_ns);
		add_time(t, hf_rpc_data, tvb, l->data_ns);
		add_time(t, hf_rpc_tail, tvb, l->tail_ns);
		if (role == ROLE_CALL)
			proto_item_append_text(ti, " (think %.6f, data %.6f, reply %.6f ms)", (double)l->think_ns / 1e6,
					       (double)l->data_ns / 1e6, (double)l->tail_ns / 1e6);
	}
	if (role == ROLE_DATA)
		return;
	proto_item_set_generated(proto_tree_add_uint64(t, hf_rpc_rdma_bytes, tvb, 0, 0, l->rdma_bytes));
	proto_item_set_generated(proto_tree_add_boolean(t, hf_rpc_complete, tvb, 0, 0, l->complete));
	for (guint i = 0; i < l->nrdma; i++) {
		const iwarp_rpc_rdma *d = &l->rdma[i];
		proto_item *di;
		proto_tree *dt = proto_tree_add_subtree_format(t, tvb, 0, 0, ett_rpc_rdma, &di,
							       "RDMA %s into %s chunk 0x%08x: %u operation%s, %" PRIu64
							       " octets, frames %u-%u",
							       iws_op_type_name((enum iws_op_type)d->type),
							       iws_rpc_chunk_name((enum iws_rpc_chunk)d->kind), d->stag, d->ops,
							       d->ops == 1 ? "" : "s", d->bytes, d->first_frame, d->last_frame);
		proto_item_set_generated(di);
		proto_item_set_generated(proto_tree_add_string(dt, hf_rpc_rdma_op, tvb, 0, 0,
							       iws_op_type_name((enum iws_op_type)d->type)));
		proto_item_set_generated(proto_tree_add_string(dt, hf_rpc_rdma_chunk, tvb, 0, 0,
							       iws_rpc_chunk_name((enum iws_rpc_chunk)d->kind)));
		proto_item_set_generated(proto_tree_add_uint(dt, hf_rpc_rdma_stag, tvb, 0, 0, d->stag));
		proto_item_set_generated(proto_tree_add_uint(dt, hf_rpc_rdma_ops, tvb, 0, 0, d->ops));
		proto_item_set_generated(proto_tree_add_uint64(dt, hf_rpc_rdma_obytes, tvb, 0, 0, d->bytes));
		add_frame(dt, hf_rpc_rdma_first, tvb, d->first_frame);
		add_frame(dt, hf_rpc_rdma_last, tvb, d->last_frame);
	}
}

static void show_list(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, wmem_array_t *a, const iwarp_pdu_rec *rec,
		      gboolean by_xid, guint32 xid, enum rpc_role role)
{
	for (guint i = 0; a && i < wmem_array_get_count(a); i++) {
		const iwarp_rpc_link *l = *(const iwarp_rpc_link **)wmem_array_index(a, i);
		if (by_xid && l->xid != xid)
			continue;
		if (role == ROLE_CALL ? rec->pdu.dir != l->call_dir || rec->pdu.frame < l->call_frame ||
						rec->pdu.frame > l->call_done_frame
				      : rec->pdu.dir == l->call_dir)
			continue;
		show_rpc(ulpdu, pinfo, rt, l, role);
	}
}

/* An untagged Send: the call or the reply of an RPC. The call is shown on
 * its message's first segment, which names its xid (the transport header's
 * first word, RFC 8166 §4.2.1) and completes between the call's first frame
 * and the one its Send completed in; the reply on its message's last
 * segment, in the frame the core says the reply completed in (matched by
 * xid when that segment is the whole message). */
static void show_send(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, const iwarp_conv *ic,
		      const iwarp_pdu_rec *rec, const struct iws_msg *msg)
{
	gboolean first = msg->ddp.mo == 0;
	guint32 xid = 0;
	if (first) {
		if (tvb_captured_length(ulpdu) < msg->payload_off + 4)
			return;
		xid = tvb_get_ntohl(ulpdu, (gint)msg->payload_off);
		show_list(ulpdu, pinfo, rt, (wmem_array_t *)wmem_map_lookup(ic->rpc_calls, GUINT_TO_POINTER(xid)), rec,
			  TRUE, xid, ROLE_CALL);
	}
	if (msg->ddp.last)
		show_list(ulpdu, pinfo, rt,
			  (wmem_array_t *)wmem_map_lookup(ic->rpc_replies, GUINT_TO_POINTER(rec->pdu.frame)), rec, first,
			  xid, ROLE_REPLY);
}

void iwarp_rpc_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, const iwarp_conv *ic,
		       const iwarp_pdu_rec *rec, const struct iws_msg *msg)
{
	if (!ic->rpcs || !rec)
		return;
	const struct iws_ddp_hdr *h = &msg->ddp;
	if (h->tagged || h->opcode == IWS_OP_CODE_READ_REQ) {
		const iwarp_rpc_link *l = rec->op ? (const iwarp_rpc_link *)wmem_map_lookup(ic->rpc_ops, &rec->op->op.id)
						  : NULL;
		if (l)
			show_rpc(ulpdu, pinfo, rt, l, ROLE_DATA);
	} else if (h->qn == IWS_QN_SEND && iws_rdmap_is_send(h->opcode) && msg->payload_len) {
		show_send(ulpdu, pinfo, rt, ic, rec, msg);
	}
}

void iwarp_rpc_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_rpc_xid, { "XID", "iwarp.rpc.xid", FT_UINT32, BASE_HEX, NULL, 0x0,
			"The RPC's transaction id (RFC 5531 §9)", HFILL } },
		{ &hf_rpc_role, { "Role", "iwarp.rpc.role", FT_STRING, BASE_NONE, NULL, 0x0,
			"What this frame is to the RPC: call, reply or data (an RDMA operation into or from its chunk)",
			HFILL } },
		{ &hf_rpc_program, { "Program", "iwarp.rpc.program", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_rpc_version, { "Version", "iwarp.rpc.version", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_rpc_procedure, { "Procedure", "iwarp.rpc.procedure", FT_STRING, BASE_NONE, NULL, 0x0,
			"The procedure's name (NFSv3: RFC 1813 §3.3; NFSv4: compound)", HFILL } },
		{ &hf_rpc_reply_in, { "Reply in", "iwarp.rpc.reply_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, "The frame where the reply's Send completed", HFILL } },
		{ &hf_rpc_call_in, { "Call in", "iwarp.rpc.call_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0, "The call's first frame", HFILL } },
		{ &hf_rpc_time, { "Response time", "iwarp.rpc.time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the call's first frame to the frame where the reply completed", HFILL } },
		{ &hf_rpc_think, { "Think", "iwarp.rpc.phase.think", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the call to the first RDMA data", HFILL } },
		{ &hf_rpc_data, { "Data", "iwarp.rpc.phase.data", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the first to the last RDMA data", HFILL } },
		{ &hf_rpc_tail, { "Reply", "iwarp.rpc.phase.reply", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the last RDMA data to the reply", HFILL } },
		{ &hf_rpc_rdma_bytes, { "RDMA octets", "iwarp.rpc.rdma_bytes", FT_UINT64, BASE_DEC, NULL, 0x0,
			"Octets the RPC's RDMA operations moved through its chunks", HFILL } },
		{ &hf_rpc_complete, { "Complete", "iwarp.rpc.complete", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			"Call, reply and data all captured", HFILL } },
		{ &hf_rpc_rdma_op, { "Operation", "iwarp.rpc.rdma.op", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_rpc_rdma_chunk, { "Chunk", "iwarp.rpc.rdma.chunk", FT_STRING, BASE_NONE, NULL, 0x0,
			"read, write or reply (RFC 8166 §3.4.5)", HFILL } },
		{ &hf_rpc_rdma_stag, { "Handle", "iwarp.rpc.rdma.handle", FT_UINT32, BASE_HEX, NULL, 0x0,
			"The chunk's handle: the STag the operations addressed", HFILL } },
		{ &hf_rpc_rdma_ops, { "Operations", "iwarp.rpc.rdma.ops", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_rpc_rdma_obytes, { "Octets", "iwarp.rpc.rdma.bytes", FT_UINT64, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_rpc_rdma_first, { "First frame", "iwarp.rpc.rdma.first_frame", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"The first frame of these RDMA operations", HFILL } },
		{ &hf_rpc_rdma_last, { "Last frame", "iwarp.rpc.rdma.last_frame", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"The last frame of these RDMA operations", HFILL } },
	};
	static gint *ett[] = { &ett_rpc, &ett_rpc_rdma };
	proto_iwarp_rpc = proto_register_protocol("RPC-over-RDMA anatomy (iwarpscope)", "iWARP RPC", "iwarp.rpc");
	proto_register_field_array(proto_iwarp_rpc, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
}
