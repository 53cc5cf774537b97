// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-stream.c - how the plugin finds and follows iWARP streams on
 * TCP: the two heuristics (MPA handshake; an FPDU chain without handshake),
 * "Decode As", the per-connection state, the first-pass plan of every TCP
 * payload handed to us (in order, retransmitted, after a gap, before the
 * first FPDU boundary), and tcp_dissect_pdus with a length callback built on
 * the core's marker arithmetic.
 *
 * First-pass-only state: the per-direction stream state below evolves only
 * while frames are dissected for the first time; everything a later pass
 * needs is stored per frame (iwarp_chunk_rec keyed by the TCP sequence
 * number of the payload, iwarp_pdu_rec keyed by that of the PDU).
 */
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>

#include <string.h>

#include "packet-iwarp.h"

struct iwarp_prefs iwarp_prefs = {
	.check_crc = TRUE,
	.assume_crc = IWARP_ASSUME_INFER,
	.assume_markers_i2r = IWARP_ASSUME_INFER,
	.assume_markers_r2i = IWARP_ASSUME_INFER,
	.keep_builtin = FALSE,
	.reassemble_untagged = TRUE,
	.offer_builtin_ulp = TRUE,
	.midstream_min_chain = 3,
	.legacy_ird_ord = TRUE,
};

static const enum_val_t assume_vals[] = {
	{ "infer", "Infer from the data", IWARP_ASSUME_INFER },
	{ "no", "No", IWARP_ASSUME_NO },
	{ "yes", "Yes", IWARP_ASSUME_YES },
	{ NULL, NULL, 0 }
};

#define HOLD_MAX (3u * IWS_FPDU_MAX_WIRE)
#define SYNC_MAX_TRIES 16

static dissector_handle_t iwarp_stream_handle;
static wmem_list_t *all_convs;
static gboolean finished_all;

/* What tcp_dissect_pdus' callbacks share for one payload. */
struct stream_ctx {
	iwarp_conv *ic;
	guint8 dir;
	guint32 seq0;      /* TCP sequence number of offset 0 of the tvb given to tcp_dissect_pdus */
	guint32 pdu_seq;   /* of the PDU the length callback was last asked about */
	gboolean gap;      /* the first PDU follows a gap */
};

wmem_list_t *iwarp_conversations(void)
{
	return all_convs;
}

/* ---- connections ---- */

static void op_reported(void *ctx, const struct iws_op *op)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	iwarp_op_link *l = iwarp_op_link_get(ic, op->id);
	l->type = (guint8)op->type;
	l->done = TRUE;
	l->complete = op->complete;
	l->first_frame = (guint32)op->first_frame;
	l->last_frame = (guint32)op->last_frame;
	l->response_frame = (guint32)op->response_frame;
	l->has_latency = op->has_latency;
	l->latency_ns = op->latency_ns;
	l->bytes = op->bytes;
	l->segments = op->segments;
	l->flags = op->flags;
	if (ic->cur_rec) {
		if (!ic->cur_rec->ops_done)
			ic->cur_rec->ops_done = wmem_array_new(wmem_file_scope(), sizeof(struct iws_op));
		wmem_array_append_one(ic->cur_rec->ops_done, *op);
	} else {
		wmem_array_append_one(ic->leftover, *op);
	}
}

iwarp_op_link *iwarp_op_link_get(iwarp_conv *ic, guint64 id)
{
	iwarp_op_link *l = (iwarp_op_link *)wmem_map_lookup(ic->ops, &id);
	if (!l) {
		l = wmem_new0(wmem_file_scope(), iwarp_op_link);
		l->id = id;
		wmem_map_insert(ic->ops, &l->id, l);
	}
	return l;
}

/* Did the sender of this packet open the TCP connection? Without a SYN in
 * the capture, the side that sent the conversation's first packet counts as
 * the initiator (docs/semantics.md). */
static gboolean src_opened(packet_info *pinfo, conversation_t *conv)
{
	struct tcp_analysis *tcpd = get_tcp_conversation_data(conv, pinfo);
	if (tcpd && tcpd->fwd && tcpd->rev) {
		if (tcpd->fwd->static_flags & 0x02)
			return TRUE;
		if (tcpd->rev->static_flags & 0x02)
			return FALSE;
		if (tcpd->fwd->static_flags & 0x04)
			return FALSE;
		if (tcpd->rev->static_flags & 0x04)
			return TRUE;
	}
	if (conv->key_ptr) {
		const address *a1 = conversation_key_addr1(conv->key_ptr);
		guint32 p1 = conversation_key_port1(conv->key_ptr);
		if (a1)
			return addresses_equal(a1, &pinfo->src) && p1 == pinfo->srcport;
	}
	return TRUE;
}

static iwarp_conv *conv_new(packet_info *pinfo, conversation_t *conv, gboolean src_is_initiator)
{
	iwarp_conv *ic = wmem_new0(wmem_file_scope(), iwarp_conv);
	struct tcp_analysis *tcpd = get_tcp_conversation_data(conv, pinfo);
	ic->qp = tcpd ? tcpd->stream : conv->conv_index;
	if (src_is_initiator) {
		copy_address_wmem(wmem_file_scope(), &ic->init_addr, &pinfo->src);
		copy_address_wmem(wmem_file_scope(), &ic->resp_addr, &pinfo->dst);
		ic->init_port = pinfo->srcport;
		ic->resp_port = pinfo->destport;
	} else {
		copy_address_wmem(wmem_file_scope(), &ic->init_addr, &pinfo->dst);
		copy_address_wmem(wmem_file_scope(), &ic->resp_addr, &pinfo->src);
		ic->init_port = pinfo->destport;
		ic->resp_port = pinfo->srcport;
	}
	iws_mpa_conn_init(&ic->mpa);
	ic->ops = wmem_map_new(wmem_file_scope(), g_int64_hash, g_int64_equal);
	ic->leftover = wmem_array_new(wmem_file_scope(), sizeof(struct iws_op));
	ic->partials = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	return ic;
}

/* Make a candidate connection ours: conversation data, tracker, list. */
static void conv_adopt(conversation_t *conv, iwarp_conv *ic)
{
	ic->tracker = iws_tracker_new(NULL, op_reported, ic);
	conversation_add_proto_data(conv, proto_iwarp_mpa, ic);
	conversation_set_dissector(conv, iwarp_stream_handle);
	wmem_list_append(all_convs, ic);
}

static guint8 dir_of(const iwarp_conv *ic, const packet_info *pinfo)
{
	return addresses_equal(&pinfo->src, &ic->init_addr) && pinfo->srcport == ic->init_port
		       ? IWS_DIR_I2R : IWS_DIR_R2I;
}

void iwarp_finish_all(void)
{
	if (finished_all || !all_convs)
		return;
	finished_all = TRUE;
	for (wmem_list_frame_t *f = wmem_list_head(all_convs); f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		if (ic->tracker && !ic->finished) {
			ic->cur_rec = NULL;
			iws_tracker_finish(ic->tracker, IWS_OPF_UNFINISHED);
			ic->finished = TRUE;
		}
	}
}

static void apply_builtin_pref(void);

static void iwarp_init(void)
{
	all_convs = wmem_list_new(wmem_file_scope());
	finished_all = FALSE;
	/* Enabled protocols are known by now: give the built-in heuristic back
	 * when this plugin's protocol is disabled. */
	apply_builtin_pref();
}

static void iwarp_cleanup(void)
{
	/* The trackers are malloc-based; everything else lives in file scope. */
	if (!all_convs)
		return;
	for (wmem_list_frame_t *f = wmem_list_head(all_convs); f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		iws_tracker_free(ic->tracker);
		ic->tracker = NULL;
	}
	all_convs = NULL;
}

/* ---- finding FPDU boundaries ---- */

static enum iws_tristate assume(gint pref)
{
	return pref == IWARP_ASSUME_YES ? IWS_YES : pref == IWARP_ASSUME_NO ? IWS_NO : IWS_UNKNOWN;
}

/* Does a chain of complete FPDUs tile buf exactly (at least one)? */
static gboolean exact_tiling(const guint8 *buf, guint32 len, guint32 seq, const struct iws_mpa_dir *d)
{
	guint32 off = 0;
	unsigned n = 0;
	while (off < len) {
		bool clean;
		if (iws_sync_chain(buf + off, len - off, seq + off, d, 1, &clean, NULL, NULL) != 1)
			return FALSE;
		guint32 lo = iws_mpa_len_field_off(d, seq + off);
		guint16 ulen = (guint16)(buf[off + lo] << 8 | buf[off + lo + 1]);
		off += iws_mpa_fpdu_wire_len(d, seq + off, ulen);
		n++;
	}
	return n > 0 && off == len;
}

static void hold_append(iwarp_dir_state *ds, const guint8 *p, guint32 len, guint32 seq)
{
	if (ds->hold_len && ds->hold_seq + ds->hold_len != seq)
		ds->hold_len = 0;
	if (ds->hold_len + len > HOLD_MAX)
		ds->hold_len = 0;
	if (!ds->hold_len)
		ds->hold_seq = seq;
	if (len > HOLD_MAX)
		len = HOLD_MAX;
	if (ds->hold_len + len > ds->hold_cap) {
		guint32 cap = ds->hold_cap ? ds->hold_cap : 4096;
		while (cap < ds->hold_len + len)
			cap *= 2;
		ds->hold = (guint8 *)wmem_realloc(wmem_file_scope(), ds->hold, cap);
		ds->hold_cap = cap;
	}
	memcpy(ds->hold + ds->hold_len, p, len);
	ds->hold_len += len;
}

static void hold_drop(iwarp_dir_state *ds)
{
	wmem_free(wmem_file_scope(), ds->hold);
	ds->hold = NULL;
	ds->hold_len = ds->hold_cap = 0;
}

/*
 * Look for the first FPDU boundary in the octets held for this direction
 * plus this payload (seq .. seq+len). strict: the connection is not yet
 * known to be iWARP (heuristic), so demand a stronger proof. On success the
 * direction is synchronised and cr says where decoding starts: skip octets
 * into this payload, or prefix_len held octets before it (the first FPDU
 * that ends in this payload began in an earlier frame).
 */
static gboolean try_sync(iwarp_conv *ic, guint8 dir, tvbuff_t *tvb, guint32 seq, gboolean strict,
			 iwarp_chunk_rec *cr)
{
	iwarp_dir_state *ds = &ic->d[dir];
	guint32 len = tvb_captured_length(tvb);
	if (ds->sync_given_up || len == 0 || len != tvb_reported_length(tvb))
		return FALSE;
	hold_append(ds, tvb_get_ptr(tvb, 0, len), len, seq);
	ds->sync_tries++;

	struct iws_sync_opts o;
	memset(&o, 0, sizeof(o));
	gboolean known = ds->mdir.markers || ic->handshake || ds->have_next;
	gboolean force_markers = !known && (dir == IWS_DIR_I2R ? iwarp_prefs.assume_markers_i2r
							       : iwarp_prefs.assume_markers_r2i) == IWARP_ASSUME_YES;
	if (known) {
		o.markers = ds->mdir.markers ? IWS_YES : IWS_NO;
		o.marker_base = ds->mdir.marker_base;
		o.crc = ic->handshake ? (ic->mpa.crc ? IWS_YES : IWS_NO) : assume(iwarp_prefs.assume_crc);
	} else {
		o.markers = assume(dir == IWS_DIR_I2R ? iwarp_prefs.assume_markers_i2r
						      : iwarp_prefs.assume_markers_r2i);
		if (o.markers == IWS_YES)
			o.markers = IWS_UNKNOWN;  /* the grid still has to be found */
		o.crc = assume(iwarp_prefs.assume_crc);
	}
	o.min_chain = strict ? MAX(iwarp_prefs.midstream_min_chain, 1u) : 2;

	struct iws_sync sy;
	memset(&sy, 0, sizeof(sy));
	/* Markers unknown: the common case, no markers, is tried for an exact
	 * tiling first; the core's search infers a marker grid otherwise. */
	struct iws_mpa_dir plain = { o.markers == IWS_YES, o.crc == IWS_YES, o.marker_base };
	gboolean ok = FALSE;
	if (!force_markers && exact_tiling(ds->hold, ds->hold_len, ds->hold_seq, &plain)) {
		ok = TRUE;
		sy.off = 0;
		sy.markers = plain.markers;
		sy.marker_base = plain.marker_base;
		sy.crc = o.crc == IWS_UNKNOWN ? IWS_NO : o.crc;
		/* A CRC that matches settles whether CRCs are in use. */
		if (o.crc == IWS_UNKNOWN) {
			bool clean;
			unsigned crc_ok = 0;
			iws_sync_chain(ds->hold, ds->hold_len, ds->hold_seq, &plain, 64, &clean, &crc_ok, NULL);
			if (crc_ok)
				sy.crc = IWS_YES;
		}
	} else {
		struct iws_result r = iws_sync_find(ds->hold, ds->hold_len, ds->hold_seq, &o, &sy);
		ok = r.status == IWS_OK;
		if (!ok && (r.status == IWS_MALFORMED || ds->sync_tries >= SYNC_MAX_TRIES)) {
			ds->hold_len = 0;
			if (strict && ds->sync_tries >= SYNC_MAX_TRIES) {
				/* Not iWARP, as far as we can tell: stop looking. */
				ds->sync_given_up = TRUE;
				hold_drop(ds);
			}
		}
		if (ok && force_markers && !sy.markers)
			ok = FALSE;
	}
	if (!ok)
		return FALSE;

	/* Walk from the boundary found to the first one inside this payload. */
	struct iws_mpa_dir d = { sy.markers, sy.crc == IWS_YES, sy.marker_base };
	if (known) {
		d = ds->mdir;
		d.crc = o.crc == IWS_YES || (o.crc == IWS_UNKNOWN && sy.crc == IWS_YES);
	}
	guint32 b = ds->hold_seq + sy.off;
	guint32 end = seq + len;
	cr->skip = 0;
	cr->prefix_len = 0;
	while ((gint32)(b - seq) < 0) {
		guint32 idx = b - ds->hold_seq;
		guint32 lo = iws_mpa_len_field_off(&d, b);
		if (idx + lo + 2 > ds->hold_len)
			break;
		guint16 ulen = (guint16)(ds->hold[idx + lo] << 8 | ds->hold[idx + lo + 1]);
		guint32 w = iws_mpa_fpdu_wire_len(&d, b, ulen);
		if ((gint32)(b + w - seq) > 0 && (gint32)(b + w - end) <= 0) {
			/* This FPDU ends in this payload: decode it here, from
			 * the octets held. */
			cr->prefix_len = seq - b;
			cr->prefix = (guint8 *)wmem_memdup(wmem_file_scope(), ds->hold + idx, cr->prefix_len);
			break;
		}
		b += w;
	}
	if (!cr->prefix_len)
		cr->skip = b - seq;
	else
		b = seq - cr->prefix_len;
	if (!ic->handshake && !ds->have_next)
		ds->unconfirmed = TRUE;  /* see iwarp_rdmap_feed */
	ds->synced = TRUE;
	ds->have_next = TRUE;
	ds->next_seq = b;
	ds->mdir = d;
	hold_drop(ds);
	if (!ic->handshake) {
		ic->inferred = TRUE;
		ic->mpa.state = IWS_MPA_ST_INFERRED;
		ic->mpa.dir[dir] = d;
		ic->mpa.crc = ic->mpa.crc || d.crc;
	}
	return TRUE;
}

/* First pass: what to do with a payload of this direction at seq. */
/* A gap follows an FPDU whose beginning was captured: decode what there is,
 * in the frame that carried it (shown there on later passes). */
static void flush_partial(iwarp_conv *ic, guint8 dir, packet_info *pinfo)
{
	iwarp_dir_state *ds = &ic->d[dir];
	if (!ds->pend_valid || ds->pend_seq != ds->next_seq || !ds->pend_len)
		return;
	ds->pend_valid = FALSE;
	if (wmem_map_lookup(ic->partials, GUINT_TO_POINTER(ds->pend_frame)))
		return;
	iwarp_pdu_rec *rec = wmem_new0(wmem_file_scope(), iwarp_pdu_rec);
	rec->kind = IWARP_PDU_FPDU;
	rec->dir = dir;
	rec->qp = ic->qp;
	rec->mdir = ds->mdir;
	rec->frame = ds->pend_frame;
	rec->ts_ns = ds->pend_ts;
	if (ic->mpa.has_ird_ord)
		rec->peer_ird = ic->mpa.ird[!dir];
	iwarp_partial *pp = wmem_new0(wmem_file_scope(), iwarp_partial);
	pp->seq = ds->pend_seq;
	pp->dir = dir;
	pp->len = ds->pend_len;
	pp->bytes = (guint8 *)wmem_memdup(wmem_file_scope(), ds->pend, ds->pend_len);
	pp->rec = rec;
	wmem_map_insert(ic->partials, GUINT_TO_POINTER(ds->pend_frame), pp);
	iwarp_mpa_feed_partial(ic, rec, pinfo, pp->bytes, pp->len, pp->seq);
}

static iwarp_chunk_rec *plan_chunk(iwarp_conv *ic, guint8 dir, packet_info *pinfo, tvbuff_t *tvb, guint32 seq)
{
	iwarp_dir_state *ds = &ic->d[dir];
	guint32 len = tvb_reported_length(tvb);
	iwarp_chunk_rec *cr = wmem_new0(wmem_file_scope(), iwarp_chunk_rec);

	if (ds->rejected) {
		cr->skip = len;
		cr->reason = IWARP_SKIP_REJECTED;
		return cr;
	}
	if (ds->mpa_expected && !ds->mpa_seen) {
		if (tvb_captured_length(tvb) >= 1 &&
		    iws_mpa_key_type(tvb_get_ptr(tvb, 0, MIN(tvb_captured_length(tvb), IWS_MPA_KEY_LEN)),
				     MIN(tvb_captured_length(tvb), IWS_MPA_KEY_LEN)))
			return cr;
		ds->mpa_expected = FALSE;  /* no handshake in this direction after all */
	}
	if (ds->synced) {
		gint32 d = (gint32)(seq - ds->next_seq);
		if (d == 0)
			return cr;
		if (d < 0) {
			guint32 old = (guint32)(-(gint64)d);
			cr->skip = MIN(old, len);
			cr->reason = IWARP_SKIP_RETRANS;
			return cr;
		}
		/* Octets were lost: every operation they could belong to is marked. */
		cr->gap = TRUE;
		flush_partial(ic, dir, pinfo);
		if (ic->tracker)
			iws_tracker_gap(ic->tracker, dir);
		bool clean = false;
		guint32 cap = tvb_captured_length(tvb);
		if (cap >= 2 && iws_sync_chain(tvb_get_ptr(tvb, 0, cap), cap, seq, &ds->mdir, 2, &clean, NULL, NULL) >= 1) {
			ds->next_seq = seq;
			return cr;
		}
		ds->synced = FALSE;
		ds->hold_len = 0;
		ds->sync_tries = 0;
	}
	cr->reason = cr->gap ? IWARP_SKIP_GAP : IWARP_SKIP_PRESYNC;
	if (try_sync(ic, dir, tvb, seq, FALSE, cr)) {
		/* Without the handshake, what came before is unseen: a gap. */
		if (!cr->gap && !ic->handshake && ic->tracker)
			iws_tracker_gap(ic->tracker, dir);
		cr->sync_start = cr->skip < len;
		cr->skip = MIN(cr->skip, len);
	} else {
		cr->skip = len;
	}
	if (cr->skip == 0)
		cr->reason = IWARP_SKIP_NONE;
	return cr;
}

/* ---- tcp_dissect_pdus callbacks ---- */

static gboolean pdu_is_mpa_frame(const iwarp_dir_state *ds, guint32 seq, gboolean visited)
{
	if (ds->mpa_seen)
		return seq == ds->mpa_seq;
	return !visited && ds->mpa_expected;
}

static guint get_iwarp_pdu_len(packet_info *pinfo, tvbuff_t *tvb, int offset, void *data)
{
	struct stream_ctx *ctx = (struct stream_ctx *)data;
	iwarp_dir_state *ds = &ctx->ic->d[ctx->dir];
	guint32 seq = ctx->seq0 + (guint32)offset;
	guint32 avail = (guint32)tvb_reported_length_remaining(tvb, offset);
	ctx->pdu_seq = seq;

	if (pdu_is_mpa_frame(ds, seq, PINFO_FD_VISITED(pinfo))) {
		guint32 l = iwarp_mpa_frame_len(tvb, offset);
		return l ? l : IWS_MPA_HDR_LEN;
	}
	guint32 lo = iws_mpa_len_field_off(&ds->mdir, seq);
	if (avail < lo + IWS_MPA_ULPDU_LEN_LEN)
		return lo + IWS_MPA_ULPDU_LEN_LEN + IWS_DDP_MIN_HDR_LEN;
	guint16 ulen = tvb_get_ntohs(tvb, offset + (int)lo);
	if (ulen < IWS_DDP_MIN_HDR_LEN)
		return MAX(avail, 1u);  /* framing lost: take the rest, resynchronise after */
	return iws_mpa_fpdu_wire_len(&ds->mdir, seq, ulen);
}

static int dissect_iwarp_pdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	struct stream_ctx *ctx = (struct stream_ctx *)data;
	iwarp_conv *ic = ctx->ic;
	iwarp_dir_state *ds = &ic->d[ctx->dir];
	guint32 seq = ctx->pdu_seq;
	gboolean visited = PINFO_FD_VISITED(pinfo);

	iwarp_pdu_rec *rec = (iwarp_pdu_rec *)p_get_proto_data(wmem_file_scope(), pinfo, proto_iwarp_mpa, seq);
	if (!rec) {
		rec = wmem_new0(visited ? pinfo->pool : wmem_file_scope(), iwarp_pdu_rec);
		rec->dir = ctx->dir;
		rec->qp = ic->qp;
		rec->kind = pdu_is_mpa_frame(ds, seq, visited) ? IWARP_PDU_MPA_FRAME : IWARP_PDU_FPDU;
		rec->mdir = ds->mdir;
		rec->verify_crc = ds->mdir.crc && iwarp_prefs.check_crc;
		rec->gap_before = ctx->gap;
		rec->frame = pinfo->num;
		rec->ts_ns = iwarp_ts_ns(pinfo);
		if (ic->mpa.has_ird_ord)
			rec->peer_ird = ic->mpa.ird[!ctx->dir];
		if (!visited)
			p_add_proto_data(wmem_file_scope(), pinfo, proto_iwarp_mpa, seq, rec);
		else
			rec->fed = TRUE;  /* never feed the tracker on a later pass */
	}
	ctx->gap = FALSE;

	if (rec->kind == IWARP_PDU_MPA_FRAME)
		return iwarp_mpa_dissect_frame(tvb, pinfo, tree, ic, rec, seq);

	int ok = iwarp_mpa_dissect_fpdu(tvb, pinfo, tree, ic, rec, seq);
	if (!visited) {
		if (ds->pend_valid && ds->pend_seq == seq)
			ds->pend_valid = FALSE;
		ds->next_seq = seq + tvb_reported_length(tvb);
		if (!ok) {
			/* The length field made no sense: find the boundaries again. */
			ds->synced = FALSE;
			ds->hold_len = 0;
			ds->sync_tries = 0;
		}
	}
	return tvb_reported_length(tvb);
}

/* ---- the stream dissector (conversation, Decode As, heuristic hand-off) ---- */

static int dissect_iwarp_stream(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	struct tcpinfo *tcpinfo = (struct tcpinfo *)data;
	if (!tcpinfo)
		return 0;
	conversation_t *conv = find_or_create_conversation(pinfo);
	iwarp_conv *ic = (iwarp_conv *)conversation_get_proto_data(conv, proto_iwarp_mpa);
	guint32 len = tvb_reported_length(tvb);
	if (!ic) {
		/* Decode As: a handshake if the payload starts with a key, else a
		 * stream whose boundaries are found from the data. */
		if (PINFO_FD_VISITED(pinfo))
			return 0;
		guint32 cap = MIN(tvb_captured_length(tvb), IWS_MPA_KEY_LEN);
		int key = cap ? iws_mpa_key_type(tvb_get_ptr(tvb, 0, cap), cap) : 0;
		gboolean init = key == IWS_MPA_REQUEST ? TRUE : key == IWS_MPA_REPLY ? FALSE
								     : src_opened(pinfo, conv);
		ic = conv_new(pinfo, conv, init);
		if (key) {
			ic->handshake = TRUE;
			ic->d[IWS_DIR_I2R].mpa_expected = ic->d[IWS_DIR_R2I].mpa_expected = TRUE;
		}
		conv_adopt(conv, ic);
	}
	guint8 dir = dir_of(ic, pinfo);
	guint32 seq = tcpinfo->seq;

	iwarp_chunk_rec *cr = (iwarp_chunk_rec *)p_get_proto_data(wmem_file_scope(), pinfo, proto_iwarp_ddp, seq);
	if (!cr) {
		if (PINFO_FD_VISITED(pinfo))
			return 0;  /* not ours on the first pass either */
		cr = plan_chunk(ic, dir, pinfo, tvb, seq);
		p_add_proto_data(wmem_file_scope(), pinfo, proto_iwarp_ddp, seq, cr);
	}

	col_set_str(pinfo->cinfo, COL_PROTOCOL, "iWARP");
	if (!p_get_proto_data(pinfo->pool, pinfo, proto_iwarp_mpa, 0)) {
		col_clear(pinfo->cinfo, COL_INFO);
		p_add_proto_data(pinfo->pool, pinfo, proto_iwarp_mpa, 0, GINT_TO_POINTER(1));
	}

	guint32 skip = MIN(cr->skip, len);
	if (skip)
		iwarp_mpa_add_skipped(tvb, pinfo, tree, 0, skip, cr);
	if (skip >= len)
		return (int)len;

	struct stream_ctx ctx = { ic, dir, seq + skip, seq + skip, cr->gap };
	tvbuff_t *sub = skip ? tvb_new_subset_remaining(tvb, (gint)skip) : tvb;
	gint shift = (gint)skip;
	if (cr->prefix_len && tvb_captured_length(tvb) == len) {
		/* The first FPDU began in frames held before synchronisation. */
		guint32 total = cr->prefix_len + len;
		guint8 *buf = (guint8 *)wmem_alloc(pinfo->pool, total);
		memcpy(buf, cr->prefix, cr->prefix_len);
		tvb_memcpy(tvb, buf + cr->prefix_len, 0, len);
		sub = tvb_new_child_real_data(tvb, buf, total, total);
		add_new_data_source(pinfo, sub, "iWARP octets from earlier frames");
		ctx.seq0 = ctx.pdu_seq = seq - cr->prefix_len;
		shift = -(gint)cr->prefix_len;
	}
	tcp_dissect_pdus(sub, pinfo, tree, TRUE, IWS_MPA_ULPDU_LEN_LEN, get_iwarp_pdu_len,
			 dissect_iwarp_pdu, &ctx);
	/* An upper layer may claim the TCP conversation: RPC (over RDMA) sets
	 * its record-marking dissector as it does for RPC over TCP, and TCP
	 * would hand it the next segments. The stream stays ours. */
	if (conversation_get_dissector(conv, pinfo->num) != iwarp_stream_handle)
		conversation_set_dissector(conv, iwarp_stream_handle);
	iwarp_dir_state *ds = &ic->d[dir];
	if (!PINFO_FD_VISITED(pinfo) && pinfo->desegment_len && ds->synced) {
		/* Keep the first octets of the FPDU that waits for more, in case
		 * the rest is never captured. */
		guint32 o = (guint32)pinfo->desegment_offset;
		guint32 n = tvb_captured_length(sub) > o ? tvb_captured_length(sub) - o : 0;
		if (n > ds->pend_cap) {
			ds->pend = (guint8 *)wmem_realloc(wmem_file_scope(), ds->pend, n);
			ds->pend_cap = n;
		}
		if (n)
			tvb_memcpy(sub, ds->pend, o, n);
		ds->pend_len = n;
		ds->pend_seq = ctx.seq0 + o;
		ds->pend_frame = pinfo->num;
		ds->pend_ts = iwarp_ts_ns(pinfo);
		ds->pend_valid = TRUE;
	}
	if (PINFO_FD_VISITED(pinfo) && pinfo->desegment_len) {
		iwarp_partial *pp = (iwarp_partial *)wmem_map_lookup(ic->partials, GUINT_TO_POINTER(pinfo->num));
		if (pp && pp->dir == dir && pp->rec->fed && pp->seq == ctx.seq0 + (guint32)pinfo->desegment_offset) {
			guint32 lo = iws_mpa_len_field_off(&pp->rec->mdir, pp->seq);
			guint16 ulen = pp->len >= lo + 2 ? (guint16)(pp->bytes[lo] << 8 | pp->bytes[lo + 1]) : 0;
			guint32 wl = MAX(iws_mpa_fpdu_wire_len(&pp->rec->mdir, pp->seq, ulen), pp->len);
			tvbuff_t *pt = tvb_new_child_real_data(tvb, pp->bytes, pp->len, wl);
			iwarp_mpa_dissect_fpdu(pt, pinfo, tree, ic, pp->rec, pp->seq);
		}
	}
	if (shift && pinfo->desegment_len)
		pinfo->desegment_offset = MAX(pinfo->desegment_offset + shift, 0);
	return (int)len;
}

/* ---- heuristics ---- */

static gboolean dissect_iwarp_heur_mpa(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	if (!data || PINFO_FD_VISITED(pinfo) || tvb_captured_length(tvb) < IWS_MPA_KEY_LEN)
		return FALSE;
	int key = iws_mpa_key_type(tvb_get_ptr(tvb, 0, IWS_MPA_KEY_LEN), IWS_MPA_KEY_LEN);
	if (!key)
		return FALSE;
	conversation_t *conv = find_or_create_conversation(pinfo);
	if (conversation_get_proto_data(conv, proto_iwarp_mpa))
		return FALSE;
	iwarp_conv *ic = conv_new(pinfo, conv, key == IWS_MPA_REQUEST);
	ic->handshake = TRUE;
	ic->d[IWS_DIR_I2R].mpa_expected = ic->d[IWS_DIR_R2I].mpa_expected = TRUE;
	conv_adopt(conv, ic);
	dissect_iwarp_stream(tvb, pinfo, tree, data);
	return TRUE;
}

/* A stream without its handshake: accept it when a chain of FPDUs validates
 * (see try_sync); octets of a pending candidate are held per direction. */
static gboolean dissect_iwarp_heur_fpdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	struct tcpinfo *tcpinfo = (struct tcpinfo *)data;
	if (!tcpinfo || PINFO_FD_VISITED(pinfo))
		return FALSE;
	guint32 cap = tvb_captured_length(tvb);
	if (cap < IWS_MPA_ULPDU_LEN_LEN + IWS_DDP_MIN_HDR_LEN + IWS_MPA_CRC_LEN || cap != tvb_reported_length(tvb))
		return FALSE;
	conversation_t *conv = find_or_create_conversation(pinfo);
	if (conversation_get_proto_data(conv, proto_iwarp_mpa))
		return FALSE;
	iwarp_conv *cand = (iwarp_conv *)conversation_get_proto_data(conv, proto_iwarp_rdmap);
	if (!cand) {
		cand = conv_new(pinfo, conv, src_opened(pinfo, conv));
		conversation_add_proto_data(conv, proto_iwarp_rdmap, cand);
	}
	guint8 dir = dir_of(cand, pinfo);
	iwarp_chunk_rec *cr = wmem_new0(wmem_file_scope(), iwarp_chunk_rec);
	if (!try_sync(cand, dir, tvb, tcpinfo->seq, TRUE, cr))
		return FALSE;
	conversation_delete_proto_data(conv, proto_iwarp_rdmap);
	hold_drop(&cand->d[!dir]);
	cand->d[!dir].sync_tries = 0;
	cand->d[!dir].sync_given_up = FALSE;
	conv_adopt(conv, cand);
	iws_tracker_gap(cand->tracker, dir);  /* the capture began mid-stream */
	/* Plan this payload from the boundary just found. */
	guint32 len = tvb_reported_length(tvb);
	cr->sync_start = cr->skip < len;
	cr->skip = MIN(cr->skip, len);
	cr->reason = cr->skip ? IWARP_SKIP_PRESYNC : IWARP_SKIP_NONE;
	p_add_proto_data(wmem_file_scope(), pinfo, proto_iwarp_ddp, tcpinfo->seq, cr);
	dissect_iwarp_stream(tvb, pinfo, tree, data);
	return TRUE;
}

/* ---- registration ---- */

static void builtin_heur_set(const char *table, struct heur_dtbl_entry *e, gpointer user_data)
{
	(void)table;
	int proto = GPOINTER_TO_INT(user_data);
	if (e && e->protocol && proto_get_id(e->protocol) == proto)
		e->enabled = iwarp_prefs.keep_builtin || proto_iwarp_mpa < 0 ||
			     !proto_is_protocol_enabled(find_protocol_by_id(proto_iwarp_mpa));
}

static void apply_builtin_pref(void)
{
	int builtin = proto_get_id_by_filter_name("iwarp_mpa");
	if (builtin > 0)
		heur_dissector_table_foreach("tcp", builtin_heur_set, GINT_TO_POINTER(builtin));
}

static void prefs_changed(void)
{
	apply_builtin_pref();
}

void iwarp_stream_register(void)
{
	module_t *m = prefs_register_protocol(proto_iwarp_mpa, prefs_changed);
	prefs_register_bool_preference(m, "check_crc", "Verify the CRC when it is negotiated",
		"Compute the CRC32c of every FPDU of a connection that negotiated CRCs "
		"(or whose CRCs were found in use) and flag mismatches.", &iwarp_prefs.check_crc);
	prefs_register_enum_preference(m, "assume_crc", "Streams without a handshake: CRC in use",
		"What to assume about CRCs on a stream whose MPA Request/Reply is not in the capture.",
		&iwarp_prefs.assume_crc, assume_vals, FALSE);
	prefs_register_enum_preference(m, "assume_markers_i2r",
		"Streams without a handshake: markers initiator to responder",
		"Markers in the direction of the side that opened the TCP connection.",
		&iwarp_prefs.assume_markers_i2r, assume_vals, FALSE);
	prefs_register_enum_preference(m, "assume_markers_r2i",
		"Streams without a handshake: markers responder to initiator",
		"Markers in the direction of the side that accepted the TCP connection.",
		&iwarp_prefs.assume_markers_r2i, assume_vals, FALSE);
	prefs_register_uint_preference(m, "midstream_min_chain",
		"FPDUs that must chain to recognise a stream mid-way",
		"A TCP stream with no MPA handshake is taken for iWARP when this many consecutive "
		"FPDUs validate (a matching CRC, or one segment exactly filled by valid FPDUs, is "
		"proof enough).", 10, &iwarp_prefs.midstream_min_chain);
	prefs_register_bool_preference(m, "keep_builtin",
		"Keep Wireshark's built-in iwarp_mpa heuristic",
		"By default this plugin disables the built-in IWARP_MPA heuristic so every frame is "
		"decoded once. Enable to keep it (frames may then be decoded by either).",
		&iwarp_prefs.keep_builtin);
	prefs_register_bool_preference(m, "legacy_ird_ord",
		"Show Rev 1 8-octet private data as IRD/ORD",
		"Older SMB Direct stacks carry IRD and ORD as two 32-bit words in Rev 1 private data.",
		&iwarp_prefs.legacy_ird_ord);

	iwarp_stream_handle = register_dissector("iwarp.mpa", dissect_iwarp_stream, proto_iwarp_mpa);
	register_init_routine(iwarp_init);
	register_cleanup_routine(iwarp_cleanup);
}

void iwarp_stream_handoff(void)
{
	heur_dissector_add("tcp", dissect_iwarp_heur_mpa, "iWARP MPA handshake over TCP",
			   "iwarp.mpa_tcp", proto_iwarp_mpa, HEURISTIC_ENABLE);
	heur_dissector_add("tcp", dissect_iwarp_heur_fpdu, "iWARP FPDU stream without handshake",
			   "iwarp.fpdu_tcp", proto_iwarp_mpa, HEURISTIC_ENABLE);
	dissector_add_for_decode_as_with_preference("tcp.port", iwarp_stream_handle);
	apply_builtin_pref();
}
