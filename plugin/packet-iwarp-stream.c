// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-stream.c - how the plugin follows TCP connections: one core
 * stream engine per connection, fed on the first pass by a postdissector
 * with every TCP segment of the capture as the TCP layer dissected it (its
 * connection, segment length and header: tcp_view_get), so what the plugin
 * shows does not depend on TCP's reassembly preferences
 * (tcp.desegment_tcp_streams, tcp.reassemble_out_of_order,
 * tcp.no_subdissector_on_error) nor on which dissector TCP handed the
 * payload to. The engine's reports are stored per
 * frame in the state store (packet-iwarp-state.h); every pass renders from
 * them.
 *
 * Claiming the payload: so that no other dissector decodes iWARP octets
 * (NVMe/TCP on 4420, Artemis on 5445, iSCSI on 3260...), the plugin becomes
 * the conversation dissector of every TCP connection whose SYN it sees
 * (TCP asks a conversation dissector before port dissectors and
 * heuristics). It takes a payload only when the connection is iWARP (or
 * the payload starts with an MPA key, RFC 5044 §7.1.1) and gives everything
 * else back, so NVMe/TCP and the others still decode their own traffic on
 * those ports. A connection found to be iWARP without its SYN is claimed
 * from then on.
 *
 * First-pass-only state: the engines evolve only while frames are dissected
 * for the first time (PINFO_FD_VISITED false); later passes read records.
 */
#include <epan/packet.h>
#include <epan/exceptions.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/conversation.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-tcp.h>

#include <string.h>

#include "packet-iwarp-stream.h"
#include "packet-iwarp-doctor.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-mpa.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-rpc.h"
#include "packet-iwarp-smb.h"
#include "packet-iwarp-prefs.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-timing.h"
#include "ws-compat.h"

int iwarp_tap = -1;

/* The TCP fields the postdissector reads. */
static int hf_tcp_stream = -1;
static int hf_tcp_srcport = -1;
static int hf_tcp_len = -1;
static int hf_ip_id = -1;
static int proto_icmp = -1;
static int proto_icmpv6 = -1;

static dissector_handle_t iwarp_post_handle;   /* the postdissector */
static dissector_handle_t iwarp_conv_handle;   /* conversation dissector: claims iWARP payloads */
static dissector_handle_t iwarp_decode_as_handle;

/* The segment being fed to its connection's engine (first pass): the
 * engine's reports of PDUs, spans and operations go to its frame, or, at the
 * end of the capture (num 0), to no frame. The records themselves are the
 * state store's (packet-iwarp-state.c). */
static struct {
	struct iws_stream_limits lim;
	iwarp_conv *conv;
	guint32 num;                 /* 0: none (the end of the capture) */
	const guint8 *payload;       /* its TCP payload, when in the frame's own octets */
	guint32 cap;
} feeding;

/* ---- the TCP segment of this frame, from TCP's fields ---- */

/*
 * What TCP itself decided comes from its fields: which connection the
 * segment is (tcp.stream), its length (tcp.len: from IP's length, so an
 * Ethernet trailer is not payload) and where its header sits (tcp.srcport's
 * data source and offset: in the frame, or in an IP datagram Wireshark
 * reassembled). The header's other words are read where TCP read them
 * (RFC 9293 §3.1): the raw sequence and acknowledgement numbers, the data
 * offset, the flags and the window are the values of tcp.seq_raw,
 * tcp.ack_raw, tcp.hdr_len, tcp.flags and tcp.window_size_value. Each field
 * a postdissector wants is primed in every frame's tree, and Wireshark makes
 * and frees an array per primed field and frame: asking for 4 fields of a
 * TCP frame (tcp.srcport, tcp.stream, tcp.len, ip.id) instead of 10 took
 * `tshark -q -z iwarp,ops` on a 50 MB capture from 0.74 to 0.67 s of CPU
 * (bench/plugin-bench.sh -m tap).
 */
struct tcp_view {
	guint32 stream, seq, ack, win, len, hdr_len, flags, sport, dport;
	gboolean has_ip_id;
	guint32 ip_id;               /* IPv4's Identification (the IP header nearest TCP) */
	tvbuff_t *ds_tvb;            /* the data source holding the TCP header */
	gint hdr_off;                /* where the header starts in it */
};

#define TCP_FIXED_WORDS 16     /* ports, seq, ack, offset and flags, window */
#define TCP_FLAGS_MASK 0x0FFF  /* tcp.flags: the 12 bits after the data offset */

/* Capture time of a frame in ns since the epoch, kept in the core's range
 * as the CLI keeps it. */
static gint64 iwarp_ts_ns(const packet_info *pinfo)
{
	return iws_ts_ns((gint64)pinfo->abs_ts.secs, pinfo->abs_ts.nsecs, NULL);
}

static gboolean field_u32(proto_tree *tree, int hf, guint32 *v, field_info **out)
{
	if (hf < 0)
		return FALSE;
	GPtrArray *a = proto_get_finfo_ptr_array(tree, hf);
	if (!a || !a->len)
		return FALSE;
	field_info *fi = (field_info *)g_ptr_array_index(a, 0);
	*v = fvalue_get_uinteger(IWARP_FI_VALUE(fi));
	if (out)
		*out = fi;
	return TRUE;
}

static gboolean tcp_view_get(proto_tree *tree, struct tcp_view *v)
{
	field_info *port;
	if (!tree || !field_u32(tree, hf_tcp_srcport, &v->sport, &port) || !port->ds_tvb)
		return FALSE;
	/* The TCP header quoted in an ICMP error is not a segment of the
	 * connection (the CLI does not read it either). */
	if ((proto_icmp > 0 && proto_get_finfo_ptr_array(tree, proto_icmp)) ||
	    (proto_icmpv6 > 0 && proto_get_finfo_ptr_array(tree, proto_icmpv6)))
		return FALSE;
	v->ds_tvb = port->ds_tvb;
	v->hdr_off = port->start;
	GPtrArray *ids = hf_ip_id > 0 ? proto_get_finfo_ptr_array(tree, hf_ip_id) : NULL;
	v->has_ip_id = ids && ids->len;
	v->ip_id = v->has_ip_id ? fvalue_get_uinteger(IWARP_FI_VALUE((field_info *)g_ptr_array_index(ids, ids->len - 1)))
				: 0;
	/* TCP adds tcp.len once it has read the fixed header and found its
	 * data offset valid (not for a header cut short or shorter than 20
	 * octets): then the words below were captured. */
	if (!field_u32(tree, hf_tcp_stream, &v->stream, NULL) || !field_u32(tree, hf_tcp_len, &v->len, NULL) ||
	    tvb_captured_length_remaining(v->ds_tvb, v->hdr_off) < TCP_FIXED_WORDS)
		return FALSE;
	v->dport = tvb_get_ntohs(v->ds_tvb, v->hdr_off + 2);
	v->seq = tvb_get_ntohl(v->ds_tvb, v->hdr_off + 4);
	v->ack = tvb_get_ntohl(v->ds_tvb, v->hdr_off + 8);
	guint32 off_flags = tvb_get_ntohs(v->ds_tvb, v->hdr_off + 12);
	v->hdr_len = (off_flags >> 12) * 4;      /* data offset, in 32-bit words */
	v->flags = off_flags & TCP_FLAGS_MASK;
	v->win = tvb_get_ntohs(v->ds_tvb, v->hdr_off + 14);
	return TRUE;
}

/* Captured payload octets of the segment. */
static guint32 tcp_view_cap(const struct tcp_view *v)
{
	gint off = v->hdr_off + (gint)v->hdr_len;
	gint have = tvb_captured_length_remaining(v->ds_tvb, off);
	if (have <= 0)
		return 0;
	return MIN((guint32)have, v->len);
}

static int side_of(const iwarp_conv *ic, packet_info *pinfo, const struct tcp_view *v)
{
	if (v->sport == ic->port[0] && v->dport == ic->port[1] && v->sport != v->dport)
		return 0;
	if (v->sport == ic->port[1] && v->dport == ic->port[0] && v->sport != v->dport)
		return 1;
	return addresses_equal(&pinfo->net_src, &ic->addr[0]) ? 0 : 1;
}

/* ---- records ---- */

/* The record of frame num, made (for the connection being fed) if new. */
static iwarp_frame_rec *frame_rec(guint32 num)
{
	return iwarp_frame_get(num, feeding.conv);
}


/* ---- the engine's reports (first pass) ---- */

static void on_pdu(void *ctx, const struct iws_pdu *p)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	iwarp_frame_rec *fr = frame_rec((guint32)p->frame);
	iwarp_pdu_rec *r = wmem_new0(wmem_file_scope(), iwarp_pdu_rec);
	iws_pdu_brief_of(p, &r->pdu);
	if (p->frame == feeding.num && feeding.payload && p->wire >= feeding.payload &&
	    p->wire + p->len <= feeding.payload + feeding.cap && p->first_hole == p->len) {
		r->in_place = TRUE;
		r->off = (guint32)(p->wire - feeding.payload);
	} else {
		r->bytes = (const guint8 *)wmem_memdup(wmem_file_scope(), p->wire, r->pdu.captured);
	}
	if (p->kind == IWS_PDU_FPDU) {
		if (r->pdu.note.op_id) {
			r->op = iwarp_op_link_get(ic, r->pdu.note.op_id);
			r->op->op.type = (guint8)r->pdu.note.op_type;
			if (r->pdu.note.op_first && !r->op->op.first_frame)
				r->op->op.first_frame = (guint32)p->frame;
			if (r->pdu.note.op_first && !r->op->first_pdu)
				r->op->first_pdu = r;
			/* FPDUs come in order: the last one is its end */
			r->op->last_pdu = r;
		}
		const struct iws_mpa_conn *m = ic->eng ? iws_stream_mpa(ic->eng) : NULL;
		if (m && m->has_ird_ord)
			r->peer_ird = m->ird[!p->dir];
	}
	IWARP_APPEND(fr->pdus, iwarp_pdu_rec *, r);
	if (feeding.num && p->frame < feeding.num)
		IWARP_APPEND(frame_rec(feeding.num)->late, iwarp_pdu_rec *, r);
	iwarp_nvme_pdu(ic, p, r);
}

/*
 * A Read or Atomic paired at the close (qp.h response_op_id): its response's
 * FPDUs were recorded under the id it was held under. They show the one
 * operation now, as a pair proven on the way would: the first links to the
 * request, the last carries the response time and the operation's numbers.
 */
static void merge_response(iwarp_conv *ic, iwarp_op_link *l, const struct iws_op *op)
{
	iwarp_op_link *r = iwarp_op_link_get(ic, op->response_op_id);
	/* every response FPDU names the request (its frames: from the first
	 * response to the operation's last; responses of one direction follow
	 * each other, so each frame is walked about once) */
	for (guint64 f = op->response_frame; f && f <= op->last_frame; f++) {
		iwarp_frame_rec *fr = iwarp_frame_lookup((guint32)f);
		for (guint i = 0; fr && fr->pdus && i < wmem_array_get_count(fr->pdus); i++) {
			iwarp_pdu_rec *p = *(iwarp_pdu_rec **)wmem_array_index(fr->pdus, i);
			if (p->op == r) {
				p->pdu.note.request_frame = op->first_frame;
				p->pdu.note.flags &= ~IWS_SEGF_ORPHAN_RESPONSE;
			}
		}
	}
	if (r->last_pdu && op->has_latency) {
		r->last_pdu->pdu.note.has_response_time = TRUE;
		r->last_pdu->pdu.note.response_time_ns = op->latency_ns;
	}
	l->last_pdu = r->last_pdu ? r->last_pdu : l->last_pdu;
	r->op = l->op;
	r->done = TRUE;
	r->first_pdu = l->first_pdu;
	r->last_pdu = l->last_pdu;
}

static void on_op(void *ctx, const struct iws_op *op)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	iwarp_op_link *l = iwarp_op_link_get(ic, op->id);
	iws_op_brief_of(op, &l->op);
	l->done = TRUE;
	if (op->response_op_id)
		merge_response(ic, l, op);
	/* the ACK frame names the operations it acknowledges */
	if (op->has_ack && op->ack_frame)
		IWARP_APPEND(frame_rec((guint32)op->ack_frame)->acked, iwarp_op_link *, l);
	if (feeding.num)
		IWARP_APPEND(frame_rec(feeding.num)->ops, iwarp_op_link *, l);
	else
		wmem_array_append_one(ic->leftover, l);
}

static void on_span(void *ctx, const struct iws_span *sp)
{
	(void)ctx;
	/* The part of a PDU in the frame that completed it is that PDU. */
	if (sp->kind == IWS_SPAN_PART && sp->frame == sp->pdu_frame)
		return;
	iwarp_frame_rec *fr = frame_rec((guint32)sp->frame);
	iwarp_span_rec r = { (guint8)sp->kind, sp->seq, sp->len, (guint32)sp->pdu_frame };
	IWARP_APPEND(fr->spans, iwarp_span_rec, r);
}

/* The engine's close record (the sink's close) of a side's first FIN or
 * RST, with the operations outstanding then: kept for the file, ids copied
 * (the engine's are valid during the call only). A Terminate's shows with
 * its operation. */
static void on_close(void *ctx, const struct iws_close *r)
{
	iwarp_conv *ic = (iwarp_conv *)ctx;
	if (r->kind != IWS_CLOSE_FIN && r->kind != IWS_CLOSE_RST)
		return;
	struct iws_close c = *r;
	if (c.nids)
		c.ids = (const guint64 *)wmem_memdup(wmem_file_scope(), r->ids, c.nids * sizeof(guint64));
	IWARP_APPEND(frame_rec((guint32)c.frame)->closes, struct iws_close, c);
	IWARP_APPEND(ic->closes, struct iws_close, c);
}

/* A side's first FIN or RST: where the side closed (its close record came
 * just before, on_close). */
static void record_close(iwarp_conv *ic, const struct iws_stream_event *ev)
{
	if (ev->dir < 2 && !ic->close_frame[ev->dir]) {
		ic->close_frame[ev->dir] = (guint32)ev->frame;
		ic->close_kind[ev->dir] = (guint8)ev->kind;
	}
}

/* What TCP did in a segment (the engine's events of the frame that sent
 * it: the CLI's per-QP `tcp` numbers, frame by frame), as IWS_SEV_BIT()s. */
static void record_tcp_event(const struct iws_stream_event *ev)
{
	guint8 bit = (guint8)IWS_SEV_BIT(ev->kind);
	if (bit)
		frame_rec((guint32)ev->frame)->tcp_events |= bit;
}

static void on_event(void *ctx, const struct iws_stream_event *ev)
{
	switch (ev->kind) {
	case IWS_SEV_FAST_RETRANSMIT:
	case IWS_SEV_TIMEOUT:
	case IWS_SEV_OTHER_RETRANSMIT:
	case IWS_SEV_REORDERED:
	case IWS_SEV_ZERO_WINDOW:
	case IWS_SEV_DUPLICATE_ACK:
	case IWS_SEV_KEEPALIVE:
		record_tcp_event(ev);
		break;
	case IWS_SEV_FIN:
	case IWS_SEV_RST:
		record_close((iwarp_conv *)ctx, ev);
		break;
	case IWS_SEV_GAP:
	case IWS_SEV_FRAMING_LOST:
	case IWS_SEV_FRAMING_FOUND:
	case IWS_SEV_MARKERS_NONSTANDARD:
	case IWS_SEV_LIMIT:
	case IWS_SEV_NOT_IWARP: {
		iwarp_frame_rec *fr = frame_rec((guint32)ev->frame);
		IWARP_APPEND(fr->events, struct iws_stream_event, *ev);
		break;
	}
	default:
		break;
	}
}

static const struct iws_stream_sink engine_sink = { on_pdu, on_op, on_span, on_event, on_close };

/* ---- connections ---- */

/* The connection of the segment, with a new engine when it is new. */
static iwarp_conv *conv_get(packet_info *pinfo, const struct tcp_view *v)
{
	iwarp_conv *ic = iwarp_conv_lookup(v->stream);
	if (ic)
		return ic;
	ic = iwarp_conv_add(v->stream, &pinfo->net_src, &pinfo->net_dst, v->sport, v->dport);
	/* The engine decides the initiator (the MPA Request's sender, else the
	 * SYN's, else the first segment's: docs/semantics.md), as in the CLI. */
	struct iws_stream_opts o = { iwarp_prefs.check_crc, TRUE, IWS_INIT_SIDE_AUTO,
				     { (guint16)v->sport, (guint16)v->dport } };
	ic->eng = iws_stream_new(&o, &feeding.lim, &engine_sink, ic);
	if (ic->eng) {
		iwarp_nvme_stage(ic);
		iwarp_rpc_stage(ic);
		iwarp_doctor_stage(ic);
		iwarp_smb_stage(ic);
	}
	return ic;
}

static conversation_t *tcp_conversation(packet_info *pinfo, const struct tcp_view *v)
{
	return find_conversation(pinfo->num, &pinfo->net_src, &pinfo->net_dst, CONVERSATION_TCP, v->sport,
				 v->dport, 0);
}

void iwarp_keep_conversation(packet_info *pinfo, iwarp_conv *ic)
{
	if (!ic->claimed)
		return;
	conversation_t *conv = find_conversation_pinfo(pinfo, 0);
	if (conv && conversation_get_dissector(conv, pinfo->num) != iwarp_conv_handle)
		conversation_set_dissector(conv, iwarp_conv_handle);
}

/* Keep what the reports need of an engine that is done. */
static void conv_keep_state(iwarp_conv *ic)
{
	ic->state = iws_stream_state(ic->eng);
	ic->init_side = iws_stream_init_side(ic->eng);
	ic->mpa = *iws_stream_mpa(ic->eng);
	ic->iwarp = iws_stream_is_iwarp(ic->eng);
}

static void conv_finish(iwarp_conv *ic, guint32 flag)
{
	if (ic->finished || !ic->eng)
		return;
	ic->finished = TRUE;
	/* What the engine reports now belongs to the frames it names; the
	 * operations still in flight to no frame (ic->leftover). */
	feeding.conv = ic;
	feeding.num = 0;
	feeding.payload = NULL;
	ic->feeding_frame = 0;
	iws_stream_finish(ic->eng, flag);
	conv_keep_state(ic);
	if (!ic->iwarp) {
		/* Most TCP connections are not iWARP: keep nothing of them. */
		iws_stream_free(ic->eng);
		ic->eng = NULL;
		ic->doc = NULL;
	}
}

static void feed(tvbuff_t *frame, packet_info *pinfo, iwarp_conv *ic, int side, const struct tcp_view *v)
{
	guint32 capl = tcp_view_cap(v);
	const guint8 *payload = capl ? tvb_get_ptr(v->ds_tvb, v->hdr_off + (gint)v->hdr_len, (gint)capl) : NULL;
	feeding.conv = ic;
	if (v->len) {
		iwarp_frame_rec *fr = frame_rec(pinfo->num);
		fr->in_frame = v->ds_tvb == frame;
		fr->payload_off = (guint32)v->hdr_off + v->hdr_len;
		/* data on a SYN follows the SYN's own sequence number */
		fr->payload_seq = (v->flags & IWS_TCP_SYN) ? v->seq + 1 : v->seq;
		fr->payload_len = v->len;
		fr->payload_cap = capl;
	}
	/* the TCP options as captured (the CLI hands the engine the same) */
	gint optoff = v->hdr_off + 20, optcap = tvb_captured_length_remaining(v->ds_tvb, optoff);
	guint32 optlen = v->hdr_len > 20 && optcap > 0 ? MIN((guint32)optcap, v->hdr_len - 20) : 0;
	struct iws_tcp_seg seg = { v->seq, v->ack, v->win, (guint8)v->flags, payload, capl, v->len,
				   pinfo->num, iwarp_ts_ns(pinfo), v->has_ip_id, (guint16)v->ip_id,
				   optlen ? tvb_get_ptr(v->ds_tvb, optoff, (gint)optlen) : NULL, optlen };
	feeding.conv = ic;
	feeding.num = pinfo->num;
	feeding.payload = v->ds_tvb == frame ? payload : NULL;
	feeding.cap = capl;
	ic->feeding_frame = pinfo->num;
	iws_stream_segment(ic->eng, side, &seg);
	ic->feeding_frame = 0;
	feeding.num = 0;
	feeding.payload = NULL;
	if (iws_stream_is_iwarp(ic->eng))
		iwarp_conv_found_iwarp(ic);
	ic->init_side = iws_stream_init_side(ic->eng);
	if (iws_stream_done(ic->eng))
		conv_finish(ic, IWS_OPF_ABORTED);
}

/* First pass: TCP should hand this connection's payloads to us, so that no
 * other dissector decodes iWARP octets. */
static void claim(packet_info *pinfo, iwarp_conv *ic, const struct tcp_view *v)
{
	if (ic->claimed)
		return;
	conversation_t *conv = tcp_conversation(pinfo, v);
	if (!conv)
		return;
	dissector_handle_t h = conversation_get_dissector(conv, pinfo->num);
	if (h == iwarp_conv_handle) {
		ic->claimed = TRUE;
		return;
	}
	/* At the SYN: only if nobody else expects this connection (an FTP data
	 * channel, say). Once it is iWARP: always. */
	if (h && !ic->iwarp)
		return;
	conversation_set_dissector(conv, iwarp_conv_handle);
	ic->claimed = TRUE;
}

/* ---- rendering (every pass) ---- */

static gint cmp_seq(guint32 a, guint32 b)
{
	gint32 d = (gint32)(a - b);
	return d < 0 ? -1 : d > 0 ? 1 : 0;
}

static void render_pdu(tvbuff_t *frame, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
		       tvbuff_t *payload, iwarp_pdu_rec *r)
{
	tvbuff_t *tvb;
	if (r->in_place && payload) {
		tvb = tvb_new_subset_length(payload, (gint)r->off, (gint)r->pdu.len);
	} else {
		if (!r->bytes)
			return;
		tvb = tvb_new_child_real_data(frame, r->bytes, r->pdu.captured, r->pdu.len);
		add_new_data_source(pinfo, tvb, r->pdu.kind == IWS_PDU_MPA_FRAME ? "Reassembled MPA frame"
									: "Reassembled FPDU");
	}
	if (r->pdu.kind == IWS_PDU_MPA_FRAME)
		iwarp_mpa_dissect_frame(tvb, pinfo, tree, ic, r);
	else
		iwarp_mpa_dissect_fpdu(tvb, pinfo, tree, ic, r);
}

/* The frame's stream notes, then its PDUs and spans of other octets in
 * stream order, then the PDUs it completed that a later frame reported. */
static void render_units(tvbuff_t *frame, packet_info *pinfo, proto_tree *st, iwarp_conv *ic, tvbuff_t *payload,
			 guint32 seq, iwarp_frame_rec *fr, guint ne, guint np, guint ns, guint nl)
{
	tvbuff_t *any = payload ? payload : frame;
	for (guint i = 0; i < ne; i++)
		iwarp_mpa_add_event(any, pinfo, st, (const struct iws_stream_event *)wmem_array_index(fr->events, i));
	/* PDUs and spans in stream order. */
	guint ip = 0, is = 0;
	while (ip < np || is < ns) {
		iwarp_pdu_rec *r = ip < np ? *(iwarp_pdu_rec **)wmem_array_index(fr->pdus, ip) : NULL;
		const iwarp_span_rec *sp = is < ns ? (const iwarp_span_rec *)wmem_array_index(fr->spans, is)
						   : NULL;
		if (r && (!sp || cmp_seq(r->pdu.seq, sp->seq) <= 0)) {
			render_pdu(frame, pinfo, st, ic, payload, r);
			ip++;
		} else {
			guint32 off = sp->seq - seq;
			if (payload && off < tvb_reported_length(payload))
				iwarp_mpa_add_span(payload, pinfo, st, off,
						   MIN(sp->len, tvb_reported_length(payload) - off), sp);
			is++;
		}
	}
	for (guint i = 0; i < nl; i++) {
		iwarp_pdu_rec *r = *(iwarp_pdu_rec **)wmem_array_index(fr->late, i);
		iwarp_mpa_add_late(any, pinfo, st, r->pdu.frame);
		render_pdu(frame, pinfo, st, ic, NULL, r);
	}
}

/* payload: the frame's TCP payload (NULL without one), starting at TCP
 * sequence number seq. */
static void render(tvbuff_t *frame, tvbuff_t *payload, guint32 seq, packet_info *pinfo, proto_tree *tree,
		   iwarp_frame_rec *fr)
{
	iwarp_conv *ic = fr->ic;
	/* A frame without iWARP octets (a pure ACK, a FIN) keeps TCP's columns:
	 * what it tells about operations is in its tree. */
	if (fr->pdus || fr->spans || (fr->late && !PINFO_FD_VISITED(pinfo))) {
		col_set_str(pinfo->cinfo, COL_PROTOCOL, "iWARP");
		col_clear(pinfo->cinfo, COL_INFO);
	}
	/* First what does not depend on the frame's octets (a frame cut by the
	 * snapshot length throws when its octets are shown): the taps, and TCP
	 * around the operations: the ones this frame acknowledges, the TCP
	 * events the engine counted in it, a FIN or RST and what it left
	 * outstanding. */
	if (iwarp_tap >= 0 && (fr->ops || fr->nvme))
		tap_queue_packet(iwarp_tap, pinfo, fr);
	/* What concerns TCP goes in TCP's subtree, so the top level of the
	 * tree is the protocol stack (packet-iwarp-layers.c). */
	tvbuff_t *any = payload ? payload : frame;
	proto_tree *tcp_tree = fr->acked || fr->tcp_events || fr->closes ? iwarp_tcp_tree(tree, any) : tree;
	if (fr->acked)
		iwarp_timing_add_acked(any, pinfo, tcp_tree, fr->acked);
	if (fr->tcp_events)
		iwarp_timing_add_tcp_events(any, pinfo, tcp_tree, fr->tcp_events);
	guint nc = fr->closes ? wmem_array_get_count(fr->closes) : 0;
	for (guint i = 0; i < nc; i++)
		iwarp_timing_add_close(any, pinfo, tcp_tree, ic, (const struct iws_close *)wmem_array_index(fr->closes, i));
	guint np = fr->pdus ? wmem_array_get_count(fr->pdus) : 0;
	guint ns = fr->spans ? wmem_array_get_count(fr->spans) : 0;
	guint ne = fr->events ? wmem_array_get_count(fr->events) : 0;
	/* A first pass has shown the frames of PDUs reported late already. */
	guint nl = fr->late && !PINFO_FD_VISITED(pinfo) ? wmem_array_get_count(fr->late) : 0;
	if (!np && !ns && !ne && !nl) {
		iwarp_doctor_render(any, pinfo, iwarp_tcp_tree(tree, any), fr);
		iwarp_keep_conversation(pinfo, ic);
		return;
	}
	proto_tree *st = iwarp_layers_begin(pinfo, tree, any, np, ns, ne + nl);
	/* A frame cut by the snapshot length throws when a PDU's octets are
	 * shown; what was shown still goes in frame.protocols (the frame
	 * dissector then marks the frame as cut). */
	TRY {
		render_units(frame, pinfo, st, ic, payload, seq, fr, ne, np, ns, nl);
	}
	FINALLY {
		iwarp_layers_end(pinfo, any);
		/* The doctor's findings go in the frame's first MPA item: a
		 * top-level item of their own would be a layer of the protocol
		 * hierarchy above MPA (it nests every top-level item under the
		 * one before). Its items are of no octets: nothing here throws. */
		iwarp_doctor_render(any, pinfo, iwarp_layers_mpa_tree(tree), fr);
		/* after the upper layers (RPC takes the TCP conversation) */
		iwarp_keep_conversation(pinfo, ic);
	}
	ENDTRY;
}

/* The postdissector: feed (first pass), then render. */
static int dissect_iwarp_post(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)data;
	if (!proto_is_protocol_enabled(find_protocol_by_id(proto_iwarp_mpa)))
		return 0;
	struct tcp_view v;
	gboolean have_tcp = tcp_view_get(tree, &v);
	if (!PINFO_FD_VISITED(pinfo) && have_tcp && !iwarp_state_finished()) {
		iwarp_conv *ic = conv_get(pinfo, &v);
		if (ic->eng && !ic->finished)
			feed(tvb, pinfo, ic, side_of(ic, pinfo, &v), &v);
		if ((v.flags & IWS_TCP_SYN) || ic->iwarp)
			claim(pinfo, ic, &v);
	}
	if (!PINFO_FD_VISITED(pinfo))
		iwarp_state_saw_frame(pinfo->num);
	/* The capture's last frame, once the sequential pass is over, tells the
	 * taps that the operations still in flight at the end were reported
	 * (the GUI's table counts them then, as tshark's text statistics do). */
	if (iwarp_tap >= 0 && iwarp_state_finished() && pinfo->num == iwarp_state_last_frame())
		tap_queue_packet(iwarp_tap, pinfo, &iwarp_capture_end);
	iwarp_frame_rec *fr = iwarp_frame_lookup(pinfo->num);
	if (!fr || !fr->ic || !fr->ic->iwarp ||
	    (!fr->pdus && !fr->spans && !fr->events && !fr->ops && !fr->nvme && !fr->late && !fr->acked &&
	     !fr->closes && !fr->tcp_events && !fr->findings))
		return 0;
	tvbuff_t *payload = NULL;
	if (fr->in_frame && fr->payload_len)
		payload = tvb_new_subset_length_caplen(tvb, (gint)fr->payload_off, (gint)fr->payload_cap,
						       (gint)fr->payload_len);
	render(tvb, payload, fr->payload_seq, pinfo, tree, fr);
	return 0;
}

/* TCP's conversation dissector for connections whose SYN was seen, or that
 * were found to carry iWARP: the payload is ours when the connection is
 * iWARP, else TCP goes on with ports and heuristics (0). Nothing is added
 * to the tree here: the postdissector renders every frame. */
static int dissect_iwarp_conv(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)tree;
	struct tcpinfo *ti = (struct tcpinfo *)data;
	conversation_t *conv = find_conversation_pinfo(pinfo, 0);
	struct tcp_analysis *tcpd = conv ? get_tcp_conversation_data(conv, pinfo) : NULL;
	if (!ti || !tcpd)
		return 0;
	iwarp_conv *ic = iwarp_conv_lookup(tcpd->stream);
	if (ic && ic->iwarp)
		return (int)tvb_captured_length(tvb);
	/* First pass, the connection's first payload: an MPA Request or Reply
	 * (RFC 5044 §7.1.1) is ours before any port dissector sees it. */
	guint32 n = MIN(tvb_captured_length(tvb), IWS_MPA_KEY_LEN);
	if (n >= 9 && !PINFO_FD_VISITED(pinfo) && (!ic || !ic->eng || iws_stream_state(ic->eng) == IWS_SST_NONE) &&
	    iws_mpa_key_type(tvb_get_ptr(tvb, 0, (gint)n), n))
		return (int)tvb_captured_length(tvb);
	return 0;
}

/* "Decode As iwarp.mpa": every payload of the port is ours. */
static int dissect_iwarp_decode_as(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)pinfo;
	(void)tree;
	(void)data;
	return (int)tvb_captured_length(tvb);
}

/* ---- file life cycle ---- */

static void iwarp_init(void)
{
	memset(&feeding, 0, sizeof(feeding));
	iwarp_state_init();
}

static void free_engine(gpointer key, gpointer value, gpointer user_data)
{
	(void)key;
	(void)user_data;
	iwarp_conv *ic = (iwarp_conv *)value;
	iws_stream_free(ic->eng);
	ic->eng = NULL;
	ic->doc = NULL;
}

static void iwarp_cleanup(void)
{
	iwarp_state_foreach_conv(free_engine, NULL);
	iwarp_state_reset();
	memset(&feeding, 0, sizeof(feeding));
}

static void finish_one(gpointer key, gpointer value, gpointer user_data)
{
	(void)key;
	(void)user_data;
	iwarp_conv *ic = (iwarp_conv *)value;
	conv_finish(ic, IWS_OPF_UNFINISHED);
}

/* After the sequential pass over the file: what is still buffered is
 * decoded, and operations still in flight are reported (incomplete). Once;
 * only this file calls it (the postseq routine, end_of_pass_draw). */
static void iwarp_sequential_pass_over(void)
{
	if (!iwarp_state_started() || iwarp_state_finished())
		return;
	iwarp_state_foreach_conv(finish_one, NULL);
	iwarp_state_set_finished();
}

/* tshark reads a file in one pass unless told -2, and then runs no postseq
 * routine: the first sign that the pass is over is the drawing of the tap
 * listeners, once, at the very end, newest listener first (tap.c keeps them
 * as a list it prepends to). A listener of our own, put at the head of that
 * list after every statistic that reads end results has registered, ends
 * the pass before any of them is drawn; the statistics only read. */
static int end_of_pass_listener;   /* its identity: it keeps nothing */

tap_packet_status iwarp_tap_no_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				      tap_flags_t flags)
{
	(void)p;
	(void)pinfo;
	(void)edt;
	(void)data;
	(void)flags;
	return TAP_PACKET_DONT_REDRAW;
}

static void end_of_pass_draw(void *p)
{
	(void)p;
	iwarp_sequential_pass_over();
}

void iwarp_end_pass_before_draws(void)
{
	remove_tap_listener(&end_of_pass_listener);
	/* a dissector's helper: it makes tshark dissect nothing it would not */
	GString *err = register_tap_listener("iwarp", &end_of_pass_listener, NULL, TL_IS_DISSECTOR_HELPER, NULL,
					     iwarp_tap_no_packet, end_of_pass_draw, NULL);
	if (err) {
		/* only a missing "iwarp" tap, which iwarp_stream_register made */
		g_warning("iwarpscope: %s", err->str);
		g_string_free(err, TRUE);
	}
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
	iwarp_tap = register_tap("iwarp");
	module_t *m = prefs_register_protocol(proto_iwarp_mpa, prefs_changed);
	prefs_register_bool_preference(m, "check_crc", "Verify the CRC when it is negotiated",
		"Compute the CRC32c of every FPDU of a connection that negotiated CRCs "
		"(or whose CRCs were found in use) and flag mismatches.", &iwarp_prefs.check_crc);
	prefs_register_bool_preference(m, "keep_builtin",
		"Keep Wireshark's built-in iwarp_mpa heuristic",
		"By default this plugin disables the built-in IWARP_MPA heuristic so every frame is "
		"decoded once. Enable to keep it (frames may then be decoded by either).",
		&iwarp_prefs.keep_builtin);
	prefs_register_bool_preference(m, "legacy_ird_ord",
		"Show Rev 1 8-octet private data as IRD/ORD",
		"Older SMB Direct stacks carry IRD and ORD as two 32-bit words in Rev 1 private data.",
		&iwarp_prefs.legacy_ird_ord);
	/* Preferences a saved preferences file may still name: streams without a
	 * handshake are found by the core's one policy (the iwarpscope CLI's
	 * too), which takes no such hints. */
	prefs_register_obsolete_preference(m, "assume_crc");
	prefs_register_obsolete_preference(m, "assume_markers_i2r");
	prefs_register_obsolete_preference(m, "assume_markers_r2i");
	prefs_register_obsolete_preference(m, "midstream_min_chain");

	iwarp_post_handle = create_dissector_handle(dissect_iwarp_post, proto_iwarp_mpa);
	iwarp_conv_handle = create_dissector_handle(dissect_iwarp_conv, proto_iwarp_mpa);
	iwarp_decode_as_handle = register_dissector("iwarp.mpa", dissect_iwarp_decode_as, proto_iwarp_mpa);
	register_init_routine(iwarp_init);
	register_cleanup_routine(iwarp_cleanup);
	register_postseq_cleanup_routine(iwarp_sequential_pass_over);
}

static int hf_id(const char *name)
{
	return proto_registrar_get_id_byname(name);
}

void iwarp_stream_handoff(void)
{
	hf_tcp_stream = hf_id("tcp.stream");
	hf_tcp_srcport = hf_id("tcp.srcport");
	hf_tcp_len = hf_id("tcp.len");
	hf_ip_id = hf_id("ip.id");
	proto_icmp = proto_get_id_by_filter_name("icmp");
	proto_icmpv6 = proto_get_id_by_filter_name("icmpv6");

	register_postdissector(iwarp_post_handle);
	GArray *wanted = g_array_new(FALSE, FALSE, (guint)sizeof(int));
	int ids[] = { hf_tcp_stream, hf_tcp_srcport, hf_tcp_len, hf_ip_id, proto_icmp, proto_icmpv6 };
	for (guint i = 0; i < G_N_ELEMENTS(ids); i++)
		if (ids[i] > 0)
			g_array_append_val(wanted, ids[i]);
	iwarp_layers_handoff();
	set_postdissector_wanted_hfids(iwarp_post_handle, wanted);

	dissector_add_for_decode_as_with_preference("tcp.port", iwarp_decode_as_handle);
	apply_builtin_pref();
}
