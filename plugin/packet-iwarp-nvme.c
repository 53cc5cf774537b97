// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-nvme.c - the iwarp.nvme protocol: NVMe over Fabrics on
 * iWARP (NVMe/RDMA), on top of iwarp.rdmap. Wireshark's own nvme-rdma
 * dissector listens to InfiniBand only; on iWARP nothing decoded it.
 *
 * NVMe-oF 1.1 with its RDMA transport binding: the host sends command
 * capsules (a 64-octet SQE, NVMe Base 2.0 "Common Command Format", then
 * in-capsule data) in Sends; the controller moves the data by RDMA Write into
 * the host's buffer or RDMA Read from it (the SGL's key is the STag) and
 * answers with a 16-octet response capsule (the CQE, "Completion Queue
 * Entry") in a Send or a Send with Invalidate.
 *
 * First pass: every PDU of a connection goes to the core's NVMe view of it
 * (iws_nvme_conn, the one the CLI uses: recognition by content on any port,
 * then the command tracker); each segment's record keeps what the tracker
 * made of it (command, response or data, and of which command) and each
 * command, when reported, becomes a link (iwarp_nvme_link) that every pass
 * renders: request/response links and the response time, data frames tied
 * to their command, expert info. The same reports feed the iwarp tap, so
 * `tshark -z iwarp,nvme` (iwarp-stats.c) counts what `iwarpscope stats` does.
 */
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>

#include "iwarpscope/names.h"
#include "iwarpscope/safetext.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-text.h"

int proto_iwarp_nvme = -1;

static int hf_nvme_opcode = -1;
static int hf_nvme_op = -1;
static int hf_nvme_flags = -1;
static int hf_nvme_fuse = -1;
static int hf_nvme_psdt = -1;
static int hf_nvme_cid = -1;
static int hf_nvme_nsid = -1;
static int hf_nvme_fctype = -1;
static int hf_nvme_sgl = -1;
static int hf_nvme_sgl_addr = -1;
static int hf_nvme_sgl_length = -1;
static int hf_nvme_sgl_key = -1;
static int hf_nvme_sgl_type = -1;
static int hf_nvme_sgl_subtype = -1;
static int hf_nvme_sgl_invalidate = -1;
static int hf_nvme_slba = -1;
static int hf_nvme_nlb = -1;
static int hf_nvme_blocks = -1;
static int hf_nvme_dsm_nr = -1;
static int hf_nvme_cns = -1;
static int hf_nvme_cntid = -1;
static int hf_nvme_fid = -1;
static int hf_nvme_lid = -1;
static int hf_nvme_numd = -1;
static int hf_nvme_connect_recfmt = -1;
static int hf_nvme_connect_qid = -1;
static int hf_nvme_connect_sqsize = -1;
static int hf_nvme_connect_cattr = -1;
static int hf_nvme_connect_kato = -1;
static int hf_nvme_connect_hostid = -1;
static int hf_nvme_connect_cntlid = -1;
static int hf_nvme_connect_subnqn = -1;
static int hf_nvme_connect_hostnqn = -1;
static int hf_nvme_prop_attrib = -1;
static int hf_nvme_prop_offset = -1;
static int hf_nvme_prop_value = -1;
static int hf_nvme_icd_len = -1;
static int hf_nvme_icd = -1;
static int hf_nvme_cqe_dw0 = -1;
static int hf_nvme_cqe_dw1 = -1;
static int hf_nvme_sqhd = -1;
static int hf_nvme_sqid = -1;
static int hf_nvme_status = -1;
static int hf_nvme_status_sc = -1;
static int hf_nvme_status_sct = -1;
static int hf_nvme_status_crd = -1;
static int hf_nvme_status_more = -1;
static int hf_nvme_status_dnr = -1;
static int hf_nvme_phase = -1;
static int hf_nvme_qid = -1;
static int hf_nvme_bytes = -1;
static int hf_nvme_complete = -1;
static int hf_nvme_response_in = -1;
static int hf_nvme_request_in = -1;
static int hf_nvme_response_time = -1;
static int hf_nvme_data_in = -1;
static int hf_nvme_cmd_in = -1;
static int hf_nvme_data_time = -1;
static int hf_nvme_xfer = -1;
static int hf_nvme_cm_recfmt = -1;
static int hf_nvme_cm_qid = -1;
static int hf_nvme_cm_hrqsize = -1;
static int hf_nvme_cm_hsqsize = -1;
static int hf_nvme_cm_crqsize = -1;

static gint ett_nvme = -1;
static gint ett_nvme_flags = -1;
static gint ett_nvme_sgl = -1;
static gint ett_nvme_status = -1;
static gint ett_nvme_connect = -1;

static expert_field ei_nvme_status = EI_INIT;
static expert_field ei_nvme_orphan = EI_INIT;
static expert_field ei_nvme_cid_reuse = EI_INIT;
static expert_field ei_nvme_no_completion = EI_INIT;
static expert_field ei_nvme_sqid_mismatch = EI_INIT;
static expert_field ei_nvme_inval_mismatch = EI_INIT;
static expert_field ei_nvme_data_mismatch = EI_INIT;
static expert_field ei_nvme_unmatched_data = EI_INIT;
static expert_field ei_nvme_malformed = EI_INIT;
static expert_field ei_nvme_warning = EI_INIT;

#define IWS_VS_ENTRY(v, s) { (v), (s) },
static const value_string nvme_sgl_type_vals[] = { IWS_NVME_SGL_TYPE_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_sgl_subtype_vals[] = { IWS_NVME_SGL_SUBTYPE_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_sct_vals[] = { IWS_NVME_SCT_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_cns_vals[] = { IWS_NVME_CNS_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_fid_vals[] = { IWS_NVME_FID_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_lid_vals[] = { IWS_NVME_LID_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_property_vals[] = { IWS_NVME_PROPERTY_NAMES(IWS_VS_ENTRY) { 0, NULL } };
static const value_string nvme_psdt_vals[] = {
	{ 0, "PRPs" }, { 1, "SGL, metadata contiguous" }, { 2, "SGL, metadata SGL" }, { 3, "Reserved" }, { 0, NULL }
};
static const value_string nvme_xfer_vals[] = {
	{ IWS_NVME_XFER_NONE, "none" }, { IWS_NVME_XFER_IN_CAPSULE, "in_capsule" },
	{ IWS_NVME_XFER_C2H, "rdma_write" }, { IWS_NVME_XFER_H2C, "rdma_read" }, { 0, NULL }
};

static int *const nvme_flag_fields[] = { &hf_nvme_fuse, &hf_nvme_psdt, NULL };
/* DW3 bits 31:16 read as a little-endian 16-bit word: Phase Tag, then the
 * Status Field (SC, SCT, CRD, More, DNR). */
static int *const nvme_status_fields[] = {
	&hf_nvme_status_sc, &hf_nvme_status_sct, &hf_nvme_status_crd, &hf_nvme_status_more, &hf_nvme_status_dnr, NULL
};

/* ---- first pass: the core's NVMe view of the connection ---- */

static void on_cmd(void *ctx, const struct iws_nvme_cmd *c)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	iwarp_nvme_link *l = wmem_new0(wmem_file_scope(), iwarp_nvme_link);
	iws_nvme_brief_of(c, &l->cmd);
	if (c->sqe_cut_len) {
		l->sqe_cut = (const guint8 *)wmem_memdup(wmem_file_scope(), c->sqe_cut, c->sqe_cut_len);
		l->sqe_cut_len = c->sqe_cut_len;
	}
	wmem_map_insert(ic->nvme_cmds, &l->cmd.id, l);
	iwarp_frame_rec *fr = ic->feeding_frame ? iwarp_frame_get(ic->feeding_frame, ic) : NULL;
	if (fr) {
		if (!fr->nvme)
			fr->nvme = wmem_array_new(wmem_file_scope(), sizeof(iwarp_nvme_link *));
		wmem_array_append_one(fr->nvme, l);
	} else {
		wmem_array_append_one(ic->nvme_leftover, l);
	}
}

void iwarp_nvme_stage(iwarp_conv *ic)
{
	iws_stream_nvme_stage(ic->eng, ic->qp, on_cmd);
}

/* The core's NVMe view of the connection (NULL: not NVMe, or forgotten). */
static const struct iws_nvme_conn *nvme_view(const iwarp_conv *ic)
{
	return ic->eng ? iws_stream_nvme(ic->eng) : NULL;
}

void iwarp_nvme_pdu(iwarp_conv *ic, const struct iws_pdu *p, iwarp_pdu_rec *rec)
{
	/* The stage's note is about this PDU only when it was fed one. */
	const struct iws_nvme_note *n = p->kind == IWS_PDU_FPDU && p->msg ? iws_stream_nvme_note(ic->eng) : NULL;
	if (n && rec) {
		rec->nvme_role = (guint8)n->role;
		rec->nvme_id = n->cmd_id;
	}
}

gboolean iwarp_nvme_is_nvme(const iwarp_conv *ic)
{
	const struct iws_nvme_conn *n = nvme_view(ic);
	return n && iws_nvme_conn_state(n) == IWS_NVME_YES;
}

/* ---- rendering (every pass) ---- */

static const struct iws_nvme_qp_info *conv_info(const iwarp_conv *ic)
{
	const struct iws_nvme_conn *n = nvme_view(ic);
	const struct iws_nvme_tracker *t = n ? iws_nvme_conn_tracker(n) : NULL;
	return t ? iws_nvme_tracker_info(t) : NULL;
}

/* A completion with no command in the capture (IWS_NVMEF_NO_COMMAND). */
static gboolean no_command(const iwarp_nvme_link *l)
{
	return (l->cmd.flags & IWS_NVMEF_NO_COMMAND) != 0;
}

static iwarp_nvme_link *link_of(const iwarp_conv *ic, const iwarp_pdu_rec *rec)
{
	guint64 id = rec->nvme_id;
	return id ? (iwarp_nvme_link *)wmem_map_lookup(ic->nvme_cmds, &id) : NULL;
}

/* A little-endian field at the core's offset, if it was captured. */
static proto_item *le_field(proto_tree *t, int hf, tvbuff_t *tvb, struct iws_field f)
{
	if (!f.len || f.off + f.len > tvb_captured_length(tvb))
		return NULL;
	return proto_tree_add_item(t, hf, tvb, (gint)f.off, (gint)f.len, ENC_LITTLE_ENDIAN);
}

static void add_time(proto_tree *t, int hf, tvbuff_t *tvb, gint64 ns)
{
	nstime_t v;
	v.secs = (time_t)(ns / 1000000000);
	v.nsecs = (int)(ns % 1000000000);
	proto_item_set_generated(proto_tree_add_time(t, hf, tvb, 0, 0, &v));
}

static void add_frame(proto_tree *t, int hf, tvbuff_t *tvb, guint32 frame)
{
	proto_item_set_generated(proto_tree_add_uint(t, hf, tvb, 0, 0, frame));
}

/* The queue, the type and the outcome of a command (generated items). */
static void show_link(proto_tree *nt, tvbuff_t *tvb, const iwarp_nvme_link *l)
{
	if (l->cmd.qid >= 0)
		proto_item_set_generated(proto_tree_add_uint(nt, hf_nvme_qid, tvb, 0, 0, (guint32)l->cmd.qid));
	proto_item_set_generated(proto_tree_add_string(nt, hf_nvme_op, tvb, 0, 0, l->cmd.op));
}

static void show_sgl(proto_tree *nt, tvbuff_t *tvb, const struct iws_nvme_sgl *g)
{
	proto_item *si;
	proto_tree *st = proto_tree_add_subtree_format(nt, tvb, 24, 16, ett_nvme_sgl, &si, "SGL: %s",
						       val_to_str_const(g->type, nvme_sgl_type_vals, "Reserved"));
	le_field(st, hf_nvme_sgl_addr, tvb, g->f_addr);
	le_field(st, hf_nvme_sgl_length, tvb, g->f_length);
	if (g->keyed) {
		le_field(st, hf_nvme_sgl_key, tvb, g->f_key);
		proto_item_set_generated(proto_tree_add_boolean(st, hf_nvme_sgl_invalidate, tvb, 39, 1, g->invalidate));
		proto_item_append_text(si, ", key 0x%08x, %u octets", g->key, g->length);
	} else if (g->in_capsule) {
		proto_item_append_text(si, " (in capsule), offset %" PRIu64 ", %u octets", g->addr, g->length);
	}
	proto_tree_add_item(st, hf_nvme_sgl_type, tvb, 39, 1, ENC_NA);
	proto_tree_add_item(st, hf_nvme_sgl_subtype, tvb, 39, 1, ENC_NA);
}

static bool put_gstring(void *ctx, const char *piece, size_t n)
{
	g_string_append_len(ctx, piece, (gssize)n);
	return true;
}

/* An NQN as captured (NVMe Base 2.0, 4.5: UTF-8, NUL-padded) is the
 * sender's: it may hold any octet. The field's value itself is made safe,
 * as every output shows it (-T fields as it is, -T json, -V, the GUI), by
 * the CLI's rule (iwarpscope/safetext.h): control characters (C0, DEL, C1)
 * and octets that are not UTF-8 become visible escapes (\x1b, \xc2\x9b,
 * \xff), so a hostile host can neither break JSON nor write to the
 * reader's terminal. */
static proto_item *add_nqn(proto_tree *tree, int hf, tvbuff_t *tvb, gint off, gint len, const char *raw)
{
	/* A GString, freed here: the tree keeps its own copy of the value. */
	GString *sb = g_string_new(NULL);
	iws_text_safe(raw, strlen(raw), put_gstring, sb);
	proto_item *ti = proto_tree_add_string(tree, hf, tvb, off, len, sb->str);
	g_string_free(sb, TRUE);
	return ti;
}

static void show_connect_data(proto_tree *nt, tvbuff_t *tvb, const struct iws_nvme_command *q)
{
	guint32 base = IWS_NVME_SQE_LEN + (guint32)MIN(q->sgl.addr, G_MAXUINT32 / 2);
	if (!q->sgl.in_capsule || base + IWS_NVME_CONNECT_DATA_LEN > tvb_captured_length(tvb))
		return;
	struct iws_nvme_connect_data d;
	if (iws_nvme_parse_connect_data(tvb_get_ptr(tvb, (gint)base, IWS_NVME_CONNECT_DATA_LEN),
					IWS_NVME_CONNECT_DATA_LEN, &d).status != IWS_OK)
		return;
	proto_tree *ct = proto_tree_add_subtree(nt, tvb, (gint)base, IWS_NVME_CONNECT_DATA_LEN, ett_nvme_connect, NULL,
						"Connect data");
	proto_tree_add_item(ct, hf_nvme_connect_hostid, tvb, (gint)(base + d.f_hostid.off), 16, ENC_NA);
	proto_tree_add_item(ct, hf_nvme_connect_cntlid, tvb, (gint)(base + d.f_cntlid.off), 2, ENC_LITTLE_ENDIAN);
	add_nqn(ct, hf_nvme_connect_subnqn, tvb, (gint)(base + d.f_subnqn.off), IWS_NVME_NQN_FIELD_LEN, d.subnqn);
	add_nqn(ct, hf_nvme_connect_hostnqn, tvb, (gint)(base + d.f_hostnqn.off), IWS_NVME_NQN_FIELD_LEN, d.hostnqn);
}

/* A Fabrics command's own fields (Connect, Property Get/Set). */
static void show_fabrics_fields(proto_tree *nt, tvbuff_t *tvb, const struct iws_nvme_command *q,
				const struct iws_nvme_qp_info *info, wmem_strbuf_t *info_s)
{
	const struct iws_nvme_fabrics *f = &q->fab;
	switch (f->fctype) {
	case IWS_NVME_FCT_CONNECT:
		le_field(nt, hf_nvme_connect_recfmt, tvb, f->f_recfmt);
		le_field(nt, hf_nvme_connect_qid, tvb, f->f_qid);
		le_field(nt, hf_nvme_connect_sqsize, tvb, f->f_sqsize);
		le_field(nt, hf_nvme_connect_cattr, tvb, f->f_cattr);
		le_field(nt, hf_nvme_connect_kato, tvb, f->f_kato);
		iwarp_info_printf(info_s, " qid %u sqsize %u", f->qid, f->sqsize + 1u);
		show_connect_data(nt, tvb, q);
		if (info && info->has_connect_data && !q->sgl.in_capsule) {
			/* pulled by the controller's RDMA Read: shown here too */
			proto_item_set_generated(add_nqn(nt, hf_nvme_connect_subnqn, tvb, 0, 0, info->cdata.subnqn));
			proto_item_set_generated(add_nqn(nt, hf_nvme_connect_hostnqn, tvb, 0, 0, info->cdata.hostnqn));
		}
		break;
	case IWS_NVME_FCT_PROPERTY_GET:
	case IWS_NVME_FCT_PROPERTY_SET:
		le_field(nt, hf_nvme_prop_attrib, tvb, f->f_attrib);
		le_field(nt, hf_nvme_prop_offset, tvb, f->f_prop_offset);
		if (f->fctype == IWS_NVME_FCT_PROPERTY_SET)
			le_field(nt, hf_nvme_prop_value, tvb, f->f_prop_value);
		iwarp_info_printf(info_s, " %s", val_to_str_const(f->prop_offset, nvme_property_vals, "property"));
		break;
	default:
		break;
	}
}

/* An NVM or Admin command's own fields (Read/Write range, Dataset
 * Management, Identify, Features, Get Log Page). */
static void show_nvm_admin_fields(proto_tree *nt, tvbuff_t *tvb, const struct iws_nvme_command *q,
				  enum iws_nvme_queue queue, guint32 cap, wmem_strbuf_t *info_s)
{
	if (q->rw.valid && queue != IWS_NVME_QUEUE_ADMIN) {
		le_field(nt, hf_nvme_slba, tvb, q->rw.f_slba);
		/* NLB as on the wire and as nvme-cli shows it (0's based), the
		 * number of logical blocks beside it (the CLI's nlb and blocks) */
		if (q->rw.f_nlb.off + 2 <= cap) {
			le_field(nt, hf_nvme_nlb, tvb, q->rw.f_nlb);
			proto_item_set_generated(proto_tree_add_uint(nt, hf_nvme_blocks, tvb, (gint)q->rw.f_nlb.off, 2,
								     q->rw.nlb + 1u));
		}
		/* NSIDs in hex: 0xffffffff (every namespace) reads as what it is */
		iwarp_info_printf(info_s, " nsid 0x%x slba %" PRIu64 " nlb %u (%u block%s)", q->nsid, q->rw.slba,
					  q->rw.nlb, q->rw.nlb + 1u, q->rw.nlb ? "s" : "");
	}
	if (q->dsm.valid && queue != IWS_NVME_QUEUE_ADMIN)
		le_field(nt, hf_nvme_dsm_nr, tvb, q->dsm.f_nr);
	const struct iws_nvme_admin *a = &q->adm;
	if (a->identify) {
		le_field(nt, hf_nvme_cns, tvb, a->f_cns);
		le_field(nt, hf_nvme_cntid, tvb, a->f_cntid);
	}
	if (a->features)
		le_field(nt, hf_nvme_fid, tvb, a->f_fid);
	if (a->log_page) {
		le_field(nt, hf_nvme_lid, tvb, a->f_lid);
		proto_item_set_generated(proto_tree_add_uint(nt, hf_nvme_numd, tvb, (gint)a->f_numdl.off, 2, a->numd));
	}
	/* CNS / LID / FID with its name, as the CLI's nvme table shows it */
	char det[96];
	if (*iws_nvme_admin_detail(det, sizeof(det), a))
		iwarp_info_printf(info_s, " %s", det);
}

/* What the tracker made of the command: its response and data frames,
 * times, bytes, and what went wrong. */
static void show_command_link(proto_tree *nt, tvbuff_t *tvb, packet_info *pinfo, proto_item *ti,
			      const iwarp_nvme_link *l)
{
	if (l->cmd.has_completion && l->cmd.last_frame != pinfo->num)
		add_frame(nt, hf_nvme_response_in, tvb, l->cmd.last_frame);
	if (l->cmd.data_first_frame) {
		add_frame(nt, hf_nvme_data_in, tvb, l->cmd.data_first_frame);
		if (l->cmd.data_last_frame != l->cmd.data_first_frame)
			add_frame(nt, hf_nvme_data_in, tvb, l->cmd.data_last_frame);
		add_time(nt, hf_nvme_data_time, tvb, l->cmd.data_ns);
	}
	proto_item_set_generated(proto_tree_add_uint64(nt, hf_nvme_bytes, tvb, 0, 0, l->cmd.bytes));
	proto_item_set_generated(proto_tree_add_string(nt, hf_nvme_xfer, tvb, 0, 0,
						       val_to_str_const(l->cmd.xfer, nvme_xfer_vals, "?")));
	proto_item_set_generated(proto_tree_add_boolean(nt, hf_nvme_complete, tvb, 0, 0, l->cmd.complete));
	if (l->cmd.flags & IWS_NVMEF_CID_REUSE)
		expert_add_info(pinfo, ti, &ei_nvme_cid_reuse);
	if (!l->cmd.has_completion) {
		char fl[200];
		expert_add_info_format(pinfo, ti, &ei_nvme_no_completion, "No completion in the capture (%s)",
				       iws_nvme_flags_str(fl, sizeof(fl), l->cmd.flags));
	}
	if (l->cmd.flags & IWS_NVMEF_DATA_MISMATCH)
		expert_add_info(pinfo, ti, &ei_nvme_data_mismatch);
}

static void show_command(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic, const iwarp_nvme_link *l)
{
	const struct iws_nvme_qp_info *info = conv_info(ic);
	gint32 qid = l ? l->cmd.qid : info ? info->qid : -1;
	enum iws_nvme_queue queue = qid < 0 ? IWS_NVME_QUEUE_UNKNOWN : qid == 0 ? IWS_NVME_QUEUE_ADMIN : IWS_NVME_QUEUE_IO;
	guint32 cap = tvb_captured_length(tvb);
	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_nvme, tvb, 0, -1, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_nvme);
	proto_tree *nt = proto_item_add_subtree(ti, ett_nvme);
	struct iws_nvme_command q;
	/* A snapshot length that cut the SQE (a mirror port's slices): the
	 * command is named from what was captured, as the CLI does
	 * (docs/semantics.md); only a capsule shorter on the wire is malformed. */
	gboolean cut = cap < IWS_NVME_SQE_LEN && cap < tvb_reported_length(tvb);
	struct iws_result res = cut ? iws_nvme_parse_command_cut(tvb_get_ptr(tvb, 0, (gint)cap), cap, queue, &q)
				    : iws_nvme_parse_command(tvb_get_ptr(tvb, 0, (gint)cap), cap, queue, &q);
	if (res.status != IWS_OK) {
		expert_add_info_format(pinfo, ti, &ei_nvme_malformed, "Command capsule: %s",
				       res.status == IWS_NEED_MORE ? "shorter than a 64-octet SQE" : res.reason);
		iwarp_col_append(pinfo, "NVMe command [malformed]");
		return;
	}
	iws_nvme_command_capsule_len(&q, tvb_reported_length(tvb));
	const char *title = iws_nvme_op_title(queue, q.opcode, q.fabrics, q.fab.fctype);
	proto_item_append_text(ti, ", %s", title);
	if (cut)
		proto_item_append_text(ti, " [SQE cut at %u of 64 octets by the snapshot length]", cap);
	proto_tree_add_uint_format_value(nt, hf_nvme_opcode, tvb, 0, 1, q.opcode, "%s (0x%02x)",
					 q.fabrics ? "Fabrics Command" : title, q.opcode);
	if (l)
		show_link(nt, tvb, l);
	proto_tree_add_bitmask(nt, tvb, 1, hf_nvme_flags, ett_nvme_flags, nvme_flag_fields, ENC_NA);
	proto_tree_add_item(nt, hf_nvme_cid, tvb, 2, 2, ENC_LITTLE_ENDIAN);
	if (q.fabrics && cap > 4)
		proto_tree_add_uint_format_value(nt, hf_nvme_fctype, tvb, 4, 1, q.fab.fctype, "%s (0x%02x)", title,
						 q.fab.fctype);
	else if (!q.fabrics && cap >= 8)
		proto_tree_add_item(nt, hf_nvme_nsid, tvb, 4, 4, ENC_LITTLE_ENDIAN);
	if (cap >= 40)
		show_sgl(nt, tvb, &q.sgl);
	wmem_strbuf_t *info_s = iwarp_info_new(pinfo, "");
	iwarp_info_printf(info_s, "NVMe %s cid %u", title, q.cid);
	if (q.fabrics)
		show_fabrics_fields(nt, tvb, &q, info, info_s);
	else
		show_nvm_admin_fields(nt, tvb, &q, queue, cap, info_s);
	proto_item *pi = proto_tree_add_uint(nt, hf_nvme_icd_len, tvb, cut ? 0 : IWS_NVME_SQE_LEN, 0, q.icd_len);
	proto_item_set_generated(pi);
	if (q.icd_len && cap > IWS_NVME_SQE_LEN)
		proto_tree_add_item(nt, hf_nvme_icd, tvb, IWS_NVME_SQE_LEN, -1, ENC_NA);
	if (q.warnings)
		expert_add_info_format(pinfo, ti, &ei_nvme_warning, "Command capsule not as the specifications say (0x%x)",
				       q.warnings);
	if (l)
		show_command_link(nt, tvb, pinfo, ti, l);
	iwarp_info_col(pinfo, info_s);
}

static void show_response(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const iwarp_nvme_link *l)
{
	guint32 cap = tvb_captured_length(tvb);
	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_nvme, tvb, 0, -1, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_nvme);
	proto_tree *nt = proto_item_add_subtree(ti, ett_nvme);
	struct iws_nvme_completion e;
	struct iws_result res = iws_nvme_parse_completion(tvb_get_ptr(tvb, 0, (gint)cap), cap, &e);
	if (res.status != IWS_OK) {
		expert_add_info_format(pinfo, ti, &ei_nvme_malformed, "Response capsule: %s",
				       res.status == IWS_NEED_MORE ? "shorter than a 16-octet CQE" : res.reason);
		iwarp_col_append(pinfo, "NVMe completion [malformed]");
		return;
	}
	gboolean fabrics = l && l->cmd.fabrics;
	const char *sname = iws_nvme_status_name(e.status, fabrics);
	proto_item_append_text(ti, ", Completion%s%s", l && !no_command(l) ? " of " : "",
			       l && !no_command(l) ? l->cmd.title : "");
	if (l)
		show_link(nt, tvb, l);
	proto_tree_add_item(nt, hf_nvme_cqe_dw0, tvb, 0, 4, ENC_LITTLE_ENDIAN);
	proto_tree_add_item(nt, hf_nvme_cqe_dw1, tvb, 4, 4, ENC_LITTLE_ENDIAN);
	proto_tree_add_item(nt, hf_nvme_sqhd, tvb, 8, 2, ENC_LITTLE_ENDIAN);
	proto_item *qi = proto_tree_add_item(nt, hf_nvme_sqid, tvb, 10, 2, ENC_LITTLE_ENDIAN);
	proto_tree_add_item(nt, hf_nvme_cid, tvb, 12, 2, ENC_LITTLE_ENDIAN);
	proto_item *si = proto_tree_add_uint_format_value(nt, hf_nvme_status, tvb, 14, 2, e.status, "%s (0x%04x)",
							  sname ? sname : "Unknown", e.status);
	proto_tree *st = proto_item_add_subtree(si, ett_nvme_status);
	proto_tree_add_item(st, hf_nvme_phase, tvb, 14, 2, ENC_LITTLE_ENDIAN);
	for (int *const *f = nvme_status_fields; *f; f++)
		proto_tree_add_item(st, **f, tvb, 14, 2, ENC_LITTLE_ENDIAN);
	wmem_strbuf_t *info = iwarp_info_new(pinfo, "");
	iwarp_info_printf(info, "NVMe Completion cid %u", e.cid);
	if (l && !no_command(l))
		iwarp_info_printf(info, " %s", l->cmd.title);
	iwarp_info_printf(info, ": %s", sname ? sname : "status");
	if (e.status)
		expert_add_info_format(pinfo, si, &ei_nvme_status, "%s failed: %s (0x%04x)",
				       l && !no_command(l) ? l->cmd.title : "Command", sname ? sname : "unknown status",
				       e.status);
	if (l && no_command(l)) {
		expert_add_info(pinfo, ti, &ei_nvme_orphan);
		iwarp_info_add(info, " [no command in capture]");
	} else if (l) {
		add_frame(nt, hf_nvme_request_in, tvb, l->cmd.capsule_frame);
		add_time(nt, hf_nvme_response_time, tvb, l->cmd.latency_ns);
		if (l->cmd.data_first_frame)
			add_time(nt, hf_nvme_data_time, tvb, l->cmd.data_ns);
		if (info)
			iwarp_info_printf(info, " \xe2\x86\x92 frame %u, %s", l->cmd.capsule_frame,
					  iwarp_fmt_ns(pinfo->pool, l->cmd.latency_ns));
		if (l->cmd.flags & IWS_NVMEF_SQID_MISMATCH)
			expert_add_info(pinfo, qi, &ei_nvme_sqid_mismatch);
		if (l->cmd.flags & IWS_NVMEF_INVAL_MISMATCH)
			expert_add_info(pinfo, ti, &ei_nvme_inval_mismatch);
	}
	iwarp_info_col(pinfo, info);
}

static void show_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const iwarp_nvme_link *l)
{
	proto_item *ti = proto_tree_add_item(tree, proto_iwarp_nvme, tvb, 0, 0, ENC_NA);
	iwarp_layer(pinfo, proto_iwarp_nvme);
	proto_item_set_generated(ti);
	proto_tree *nt = proto_item_add_subtree(ti, ett_nvme);
	if (!l) {
		expert_add_info(pinfo, ti, &ei_nvme_unmatched_data);
		return;
	}
	proto_item_append_text(ti, ", data of %s cid %u", l->cmd.title, l->cmd.cid);
	show_link(nt, tvb, l);
	proto_item_set_generated(proto_tree_add_uint(nt, hf_nvme_cid, tvb, 0, 0, l->cmd.cid));
	if (!no_command(l))
		add_frame(nt, hf_nvme_cmd_in, tvb, l->cmd.capsule_frame);
	iwarp_col_append_printf(pinfo, "NVMe data of %s cid %u", l->cmd.title, l->cmd.cid);
}

/* NVMe RDMA Transport 1.0, "RDMA_CM_REQUEST" (RECFMT, QID, HRQSIZE, HSQSIZE,
 * CNTLID, reserved) and "RDMA_CM_ACCEPT" (RECFMT, CRQSIZE, reserved): the
 * queue a connection is for, before its Fabrics Connect. */
void iwarp_nvme_private_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic, int type,
			     guint32 off, guint32 len)
{
	(void)pinfo;
	if (!iwarp_nvme_is_nvme(ic) || off + len > tvb_captured_length(tvb))
		return;
	const guint8 *pd = tvb_get_ptr(tvb, (gint)off, (gint)len);
	proto_item *ti;
	proto_tree *nt;
	if (type == IWS_MPA_REQUEST) {
		struct iws_nvme_cm_req q;
		if (iws_nvme_parse_cm_req(pd, len, &q).status != IWS_OK)
			return;
		ti = proto_tree_add_item(tree, proto_iwarp_nvme, tvb, (gint)off, (gint)len, ENC_NA);
		iwarp_layer(pinfo, proto_iwarp_nvme);
		proto_item_append_text(ti, ", rdma_cm request: queue %u", q.qid);
		nt = proto_item_add_subtree(ti, ett_nvme);
		proto_tree_add_item(nt, hf_nvme_cm_recfmt, tvb, (gint)(off + q.f_recfmt.off), 2, ENC_LITTLE_ENDIAN);
		proto_tree_add_item(nt, hf_nvme_cm_qid, tvb, (gint)(off + q.f_qid.off), 2, ENC_LITTLE_ENDIAN);
		proto_tree_add_item(nt, hf_nvme_cm_hrqsize, tvb, (gint)(off + q.f_hrqsize.off), 2, ENC_LITTLE_ENDIAN);
		proto_tree_add_item(nt, hf_nvme_cm_hsqsize, tvb, (gint)(off + q.f_hsqsize.off), 2, ENC_LITTLE_ENDIAN);
	} else {
		struct iws_nvme_cm_rep q;
		if (iws_nvme_parse_cm_rep(pd, len, &q).status != IWS_OK)
			return;
		ti = proto_tree_add_item(tree, proto_iwarp_nvme, tvb, (gint)off, (gint)len, ENC_NA);
		iwarp_layer(pinfo, proto_iwarp_nvme);
		proto_item_append_text(ti, ", rdma_cm accept");
		nt = proto_item_add_subtree(ti, ett_nvme);
		proto_tree_add_item(nt, hf_nvme_cm_recfmt, tvb, (gint)(off + q.f_recfmt.off), 2, ENC_LITTLE_ENDIAN);
		proto_tree_add_item(nt, hf_nvme_cm_crqsize, tvb, (gint)(off + q.f_crqsize.off), 2, ENC_LITTLE_ENDIAN);
	}
}

void iwarp_nvme_dissect(tvbuff_t *ulpdu, tvbuff_t *msg_tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			const iwarp_pdu_rec *rec, const struct iws_msg *msg)
{
	iwarp_nvme_link *l = link_of(ic, rec);
	/* A capsule's frame is named by its top layer, as Wireshark's own
	 * dissectors name theirs; RDMA data stays iWARP's. */
	if (rec->nvme_role == IWS_NVME_ROLE_COMMAND || rec->nvme_role == IWS_NVME_ROLE_RESPONSE ||
	    rec->nvme_role == IWS_NVME_ROLE_COMMAND_PART)
		col_set_str(pinfo->cinfo, COL_PROTOCOL, "NVMe-oF");
	switch ((enum iws_nvme_role)rec->nvme_role) {
	case IWS_NVME_ROLE_COMMAND:
		if (msg_tvb) {
			show_command(msg_tvb, pinfo, tree, ic, l);
		} else if (l && l->sqe_cut) {
			/* A capsule of several segments that a snapshot length cut
			 * is not reassembled: its SQE as captured, from the first
			 * segment, shown where the capsule completed (the CLI's
			 * capsule frame). */
			tvbuff_t *head = tvb_new_child_real_data(ulpdu, l->sqe_cut, l->sqe_cut_len,
								 (gint)MAX(l->cmd.capsule_len, l->sqe_cut_len));
			add_new_data_source(pinfo, head, "NVMe SQE (as captured)");
			show_command(head, pinfo, tree, ic, l);
		}
		break;
	case IWS_NVME_ROLE_RESPONSE:
		if (msg_tvb)
			show_response(msg_tvb, pinfo, tree, l);
		break;
	case IWS_NVME_ROLE_DATA:
		show_data(ulpdu, pinfo, tree, l);
		break;
	case IWS_NVME_ROLE_COMMAND_PART:
		iwarp_col_append(pinfo, "NVMe capsule (part)");
		break;
	default:
		/* RDMA data that no outstanding command's key names */
		if (msg->ddp.tagged || msg->ddp.opcode == IWS_OP_CODE_READ_REQ)
			show_data(ulpdu, pinfo, tree, NULL);
		break;
	}
}

void iwarp_nvme_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_nvme_opcode, { "Opcode", "iwarp.nvme.opcode", FT_UINT8, BASE_HEX, NULL, 0x0,
			"Command opcode (named by its queue: admin, I/O or Fabrics)", HFILL } },
		{ &hf_nvme_op, { "Command type", "iwarp.nvme.op", FT_STRING, BASE_NONE, NULL, 0x0,
			"The CLI's op name: read, write, flush, connect, identify, ...", HFILL } },
		{ &hf_nvme_flags, { "Flags", "iwarp.nvme.flags", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_fuse, { "Fused operation", "iwarp.nvme.fuse", FT_UINT8, BASE_DEC, NULL, 0x03, NULL, HFILL } },
		{ &hf_nvme_psdt, { "PRP or SGL", "iwarp.nvme.psdt", FT_UINT8, BASE_DEC, VALS(nvme_psdt_vals), 0xC0, NULL, HFILL } },
		{ &hf_nvme_cid, { "Command identifier", "iwarp.nvme.cid", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_nsid, { "Namespace", "iwarp.nvme.nsid", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_fctype, { "Fabrics command type", "iwarp.nvme.fctype", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sgl, { "SGL", "iwarp.nvme.sgl", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sgl_addr, { "Address", "iwarp.nvme.sgl.addr", FT_UINT64, BASE_HEX, NULL, 0x0,
			"Host buffer address (keyed), or offset into the in-capsule data", HFILL } },
		{ &hf_nvme_sgl_length, { "Length", "iwarp.nvme.sgl.length", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sgl_key, { "Key (STag)", "iwarp.nvme.sgl.key", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sgl_type, { "Descriptor type", "iwarp.nvme.sgl.type", FT_UINT8, BASE_HEX, VALS(nvme_sgl_type_vals),
			0xF0, NULL, HFILL } },
		{ &hf_nvme_sgl_subtype, { "Descriptor sub type", "iwarp.nvme.sgl.subtype", FT_UINT8, BASE_HEX,
			VALS(nvme_sgl_subtype_vals), 0x0F, NULL, HFILL } },
		{ &hf_nvme_sgl_invalidate, { "Invalidate key", "iwarp.nvme.sgl.invalidate", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
			"The host asks for a Send with Invalidate of the key", HFILL } },
		{ &hf_nvme_slba, { "Starting LBA", "iwarp.nvme.slba", FT_UINT64, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_nlb, { "Number of logical blocks (0's based)", "iwarp.nvme.nlb", FT_UINT16, BASE_DEC, NULL, 0x0,
			"NLB as on the wire (CDW12 bits 15:00) and as nvme-cli shows it: the blocks - 1", HFILL } },
		{ &hf_nvme_blocks, { "Logical blocks", "iwarp.nvme.blocks", FT_UINT32, BASE_DEC, NULL, 0x0,
			"The number of logical blocks: NLB + 1", HFILL } },
		{ &hf_nvme_dsm_nr, { "Number of ranges (0's based)", "iwarp.nvme.dsm.nr", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cns, { "CNS", "iwarp.nvme.cns", FT_UINT8, BASE_HEX, VALS(nvme_cns_vals), 0x0, NULL, HFILL } },
		{ &hf_nvme_cntid, { "Controller identifier", "iwarp.nvme.cntid", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_fid, { "Feature", "iwarp.nvme.fid", FT_UINT8, BASE_HEX, VALS(nvme_fid_vals), 0x0, NULL, HFILL } },
		{ &hf_nvme_lid, { "Log page", "iwarp.nvme.lid", FT_UINT8, BASE_HEX, VALS(nvme_lid_vals), 0x0, NULL, HFILL } },
		{ &hf_nvme_numd, { "Dwords (0's based)", "iwarp.nvme.numd", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_recfmt, { "Record format", "iwarp.nvme.connect.recfmt", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_qid, { "Queue", "iwarp.nvme.connect.qid", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_sqsize, { "SQ size (0's based)", "iwarp.nvme.connect.sqsize", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_cattr, { "Connect attributes", "iwarp.nvme.connect.cattr", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_kato, { "Keep alive timeout (ms)", "iwarp.nvme.connect.kato", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_hostid, { "Host identifier", "iwarp.nvme.connect.hostid", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_cntlid, { "Controller", "iwarp.nvme.connect.cntlid", FT_UINT16, BASE_HEX, NULL, 0x0,
			"FFFFh: any (dynamic controller model)", HFILL } },
		{ &hf_nvme_connect_subnqn, { "Subsystem NQN", "iwarp.nvme.connect.subnqn", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_connect_hostnqn, { "Host NQN", "iwarp.nvme.connect.hostnqn", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_prop_attrib, { "Property size", "iwarp.nvme.property.attrib", FT_UINT8, BASE_HEX, NULL, 0x07,
			"0: 4 octets, 1: 8 octets", HFILL } },
		{ &hf_nvme_prop_offset, { "Property", "iwarp.nvme.property", FT_UINT32, BASE_HEX, VALS(nvme_property_vals), 0x0, NULL, HFILL } },
		{ &hf_nvme_prop_value, { "Property value", "iwarp.nvme.property.value", FT_UINT64, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_icd_len, { "In-capsule data length", "iwarp.nvme.icd_len", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_icd, { "In-capsule data", "iwarp.nvme.icd", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cqe_dw0, { "DW0 (command specific)", "iwarp.nvme.cqe.dw0", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cqe_dw1, { "DW1", "iwarp.nvme.cqe.dw1", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sqhd, { "SQ head", "iwarp.nvme.sqhd", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_sqid, { "SQ identifier", "iwarp.nvme.sqid", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_status, { "Status", "iwarp.nvme.status", FT_UINT16, BASE_HEX, NULL, 0x0,
			"The 15-bit Status Field (SC, SCT, CRD, More, DNR)", HFILL } },
		{ &hf_nvme_status_sc, { "Status code", "iwarp.nvme.status.sc", FT_UINT16, BASE_HEX, NULL, 0x01FE, NULL, HFILL } },
		{ &hf_nvme_status_sct, { "Status code type", "iwarp.nvme.status.sct", FT_UINT16, BASE_HEX, VALS(nvme_sct_vals),
			0x0E00, NULL, HFILL } },
		{ &hf_nvme_status_crd, { "Command retry delay", "iwarp.nvme.status.crd", FT_UINT16, BASE_DEC, NULL, 0x3000, NULL, HFILL } },
		{ &hf_nvme_status_more, { "More", "iwarp.nvme.status.more", FT_BOOLEAN, 16, NULL, 0x4000, NULL, HFILL } },
		{ &hf_nvme_status_dnr, { "Do not retry", "iwarp.nvme.status.dnr", FT_BOOLEAN, 16, NULL, 0x8000, NULL, HFILL } },
		{ &hf_nvme_phase, { "Phase tag", "iwarp.nvme.phase", FT_UINT16, BASE_DEC, NULL, 0x0001, NULL, HFILL } },
		{ &hf_nvme_qid, { "Queue", "iwarp.nvme.qid", FT_UINT16, BASE_DEC, NULL, 0x0,
			"The queue of the connection (0: admin), from its Connect, its rdma_cm data or a completion", HFILL } },
		{ &hf_nvme_bytes, { "Data octets", "iwarp.nvme.bytes", FT_UINT64, BASE_DEC, NULL, 0x0,
			"In-capsule data, or the RDMA payload moved for the command", HFILL } },
		{ &hf_nvme_complete, { "Complete", "iwarp.nvme.complete", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_response_in, { "Response in", "iwarp.nvme.response_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, "The frame of the command's completion", HFILL } },
		{ &hf_nvme_request_in, { "Request in", "iwarp.nvme.request_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0, "The frame of the command capsule", HFILL } },
		{ &hf_nvme_response_time, { "Response time", "iwarp.nvme.response_time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the command capsule's first frame to the completion's frame", HFILL } },
		{ &hf_nvme_data_in, { "Data in", "iwarp.nvme.data_in", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"First and last frame of the command's RDMA data", HFILL } },
		{ &hf_nvme_cmd_in, { "Command in", "iwarp.nvme.cmd_in", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"The frame of the command this data belongs to", HFILL } },
		{ &hf_nvme_data_time, { "Data transfer time", "iwarp.nvme.data_time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the first to the last RDMA message of the command's data", HFILL } },
		{ &hf_nvme_cm_recfmt, { "rdma_cm record format", "iwarp.nvme.cm.recfmt", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cm_qid, { "rdma_cm queue", "iwarp.nvme.cm.qid", FT_UINT16, BASE_DEC, NULL, 0x0,
			"The queue the connection is for (0: admin)", HFILL } },
		{ &hf_nvme_cm_hrqsize, { "Host receive queue size", "iwarp.nvme.cm.hrqsize", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cm_hsqsize, { "Host send queue size", "iwarp.nvme.cm.hsqsize", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_cm_crqsize, { "Controller receive queue size", "iwarp.nvme.cm.crqsize", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_nvme_xfer, { "Data transfer", "iwarp.nvme.xfer", FT_STRING, BASE_NONE, NULL, 0x0,
			"none, in_capsule, rdma_write (controller to host), rdma_read (host to controller)", HFILL } },
	};
	static gint *ett[] = { &ett_nvme, &ett_nvme_flags, &ett_nvme_sgl, &ett_nvme_status, &ett_nvme_connect };
	static ei_register_info ei[] = {
		{ &ei_nvme_status, { "iwarp.nvme.status.error", PI_RESPONSE_CODE, PI_WARN, "Command failed", EXPFILL } },
		{ &ei_nvme_orphan, { "iwarp.nvme.orphan_completion", PI_SEQUENCE, PI_WARN,
			"Completion without its command in the capture", EXPFILL } },
		{ &ei_nvme_cid_reuse, { "iwarp.nvme.cid_reuse", PI_SEQUENCE, PI_WARN,
			"Command identifier reused while a command with it was outstanding", EXPFILL } },
		{ &ei_nvme_no_completion, { "iwarp.nvme.no_completion", PI_SEQUENCE, PI_NOTE,
			"No completion in the capture", EXPFILL } },
		{ &ei_nvme_sqid_mismatch, { "iwarp.nvme.sqid_mismatch", PI_PROTOCOL, PI_WARN,
			"SQ identifier is not the connection's queue", EXPFILL } },
		{ &ei_nvme_inval_mismatch, { "iwarp.nvme.inval_mismatch", PI_PROTOCOL, PI_WARN,
			"Send with Invalidate of a STag that is not the command's key", EXPFILL } },
		{ &ei_nvme_data_mismatch, { "iwarp.nvme.data_mismatch", PI_PROTOCOL, PI_WARN,
			"Successful command whose data differs from its SGL length", EXPFILL } },
		{ &ei_nvme_unmatched_data, { "iwarp.nvme.unmatched_data", PI_SEQUENCE, PI_NOTE,
			"RDMA data that no outstanding command's key names", EXPFILL } },
		{ &ei_nvme_malformed, { "iwarp.nvme.malformed", PI_MALFORMED, PI_ERROR, "NVMe capsule malformed", EXPFILL } },
		{ &ei_nvme_warning, { "iwarp.nvme.capsule_warning", PI_PROTOCOL, PI_WARN,
			"Capsule not as the specifications say", EXPFILL } },
	};
	proto_iwarp_nvme = proto_register_protocol("NVMe over Fabrics on iWARP (iwarpscope)", "iWARP NVMe-oF", "iwarp.nvme");
	proto_register_field_array(proto_iwarp_nvme, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_module_t *em = expert_register_protocol(proto_iwarp_nvme);
	expert_register_field_array(em, ei, array_length(ei));
}
