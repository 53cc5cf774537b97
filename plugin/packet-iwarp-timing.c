// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-timing.c - where an operation's time went, as the core's
 * tracker measured it (docs/semantics.md, "Where the time went"): the
 * frame of its first transmission, the peer's TCP ACK that covered its last
 * octet and how long that took, its retransmitted segments, how long its
 * octets stalled in the receiver's reassembly and (reads, atomics) queued
 * behind earlier responses; FPDUs sent after the peer closed; on an ACK
 * frame the operations it acknowledged; on a FIN or RST the operations it
 * left outstanding; on a segment the TCP events the engine counted there
 * (fast retransmission, timeout, zero window, duplicate ACK). The numbers
 * are the iwarpscope CLI's (`ops --format jsonl`, the teardown list and the
 * tcp counts of `stats --format json`).
 *
 * The measured values (ack_time, stall, queued, retransmissions) are shown
 * once per operation, on the FPDU that ended it (where response_time is),
 * so that I/O Graphs and -T fields count each operation once. They are known
 * once the operation is reported, which for a complete operation is at its
 * covering ACK, after its last FPDU: a single pass (tshark without -2) does
 * not have them yet when it shows that FPDU.
 */
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>

#include "packet-iwarp-timing.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-text.h"

static int hf_iwarp_rdmap_first_transmission = -1;
static int hf_iwarp_rdmap_ack_in = -1;
static int hf_iwarp_rdmap_ack_time = -1;
static int hf_iwarp_rdmap_ack_with_data = -1;
static int hf_iwarp_rdmap_retransmissions = -1;
static int hf_iwarp_rdmap_reordered = -1;
static int hf_iwarp_rdmap_stall = -1;
static int hf_iwarp_rdmap_queued = -1;
static int hf_iwarp_rdmap_after_close = -1;
static int hf_iwarp_rdmap_acked_op = -1;
static int hf_iwarp_rdmap_acked_frame = -1;
static int hf_iwarp_rdmap_teardown_kind = -1;
static int hf_iwarp_rdmap_teardown_side = -1;
static int hf_iwarp_rdmap_teardown_outstanding = -1;
static int hf_iwarp_rdmap_teardown_op_id = -1;
static int hf_iwarp_rdmap_teardown_op_frame = -1;
static int hf_iwarp_rdmap_tcp_event = -1;

static gint ett_iwarp_rdmap_acked = -1;
static gint ett_iwarp_rdmap_acked_op = -1;
static gint ett_iwarp_rdmap_teardown = -1;
static gint ett_iwarp_rdmap_teardown_op = -1;
static gint ett_iwarp_rdmap_tcp_event = -1;

static expert_field ei_iwarp_rdmap_stalled = EI_INIT;
static expert_field ei_iwarp_rdmap_retransmitted = EI_INIT;
static expert_field ei_iwarp_rdmap_after_close = EI_INIT;
static expert_field ei_iwarp_rdmap_teardown = EI_INIT;
static expert_field ei_iwarp_rdmap_tcp_event = EI_INIT;
static expert_field ei_iwarp_rdmap_dup_ack = EI_INIT;

/* Expert info thresholds (preferences of iwarp.rdmap). */
static guint stall_threshold_us = 1000;
static guint retrans_threshold = 1;

static const value_string teardown_kind_vals[] = {
	{ IWS_SEV_FIN, "FIN" },
	{ IWS_SEV_RST, "RST" },
	{ 0, NULL }
};

static const value_string tcp_event_vals[] = {
	{ IWS_SEV_BIT(IWS_SEV_FAST_RETRANSMIT), "fast retransmission (after duplicate ACKs)" },
	{ IWS_SEV_BIT(IWS_SEV_TIMEOUT), "retransmission after a timeout" },
	{ IWS_SEV_BIT(IWS_SEV_ZERO_WINDOW), "zero window" },
	{ IWS_SEV_BIT(IWS_SEV_DUPLICATE_ACK), "duplicate ACK" },
	{ IWS_SEV_BIT(IWS_SEV_OTHER_RETRANSMIT), "retransmission (neither after duplicate ACKs nor a timeout)" },
	{ IWS_SEV_BIT(IWS_SEV_REORDERED), "reordered on the way (its first transmission, not lost)" },
	{ IWS_SEV_BIT(IWS_SEV_KEEPALIVE), "keep-alive probe (not data, not a retransmission)" },
	{ 0, NULL }
};

static const value_string side_vals[] = {
	{ IWS_DIR_I2R, "initiator" },
	{ IWS_DIR_R2I, "responder" },
	{ 0, NULL }
};

static proto_item *add_time(proto_tree *t, int hf, tvbuff_t *tvb, gint64 ns)
{
	nstime_t v;
	v.secs = (time_t)(ns / 1000000000);
	v.nsecs = (int)(ns % 1000000000);
	proto_item *pi = proto_tree_add_time(t, hf, tvb, 0, 0, &v);
	proto_item_set_generated(pi);
	return pi;
}

static proto_item *add_frame(proto_tree *t, int hf, tvbuff_t *tvb, guint32 frame)
{
	proto_item *pi = proto_tree_add_uint(t, hf, tvb, 0, 0, frame);
	proto_item_set_generated(pi);
	return pi;
}

static const char *close_name(guint8 kind)
{
	return kind == IWS_SEV_RST ? "reset (RST" : "closed (FIN";
}

void iwarp_timing_segment(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, iwarp_conv *ic,
			  const iwarp_pdu_rec *rec)
{
	const iwarp_op_link *link = rec->op;
	proto_item *pi;
	/* An FPDU sent after its receiver closed or reset the connection: the
	 * RDMAP Stream is being torn down, nothing of it is placed. */
	if (rec->pdu.note.flags & IWS_SEGF_AFTER_CLOSE) {
		pi = proto_tree_add_boolean(rt, hf_iwarp_rdmap_after_close, tvb, 0, 0, TRUE);
		proto_item_set_generated(pi);
		guint8 peer = !rec->pdu.dir;
		if (ic->close_frame[peer])
			expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_after_close,
					       "Sent after the peer %s in frame %u): not placed", close_name(ic->close_kind[peer]),
					       ic->close_frame[peer]);
		else
			expert_add_info(pinfo, pi, &ei_iwarp_rdmap_after_close);
	}
	if (!link || !link->done)
		return;
	const struct iws_op_brief *op = &link->op;
	if (link->last_pdu != rec) {
		/* the request (or any earlier FPDU) links to the ACK that ended it */
		if (link->first_pdu == rec && op->has_ack)
			add_frame(rt, hf_iwarp_rdmap_ack_in, tvb, op->ack_frame);
		return;
	}
	/* The FPDU that ended the operation: its numbers. */
	add_frame(rt, hf_iwarp_rdmap_first_transmission, tvb, op->first_frame);
	if (op->has_ack) {
		add_frame(rt, hf_iwarp_rdmap_ack_in, tvb, op->ack_frame);
		add_time(rt, hf_iwarp_rdmap_ack_time, tvb, op->ack_ns);
		pi = proto_tree_add_boolean(rt, hf_iwarp_rdmap_ack_with_data, tvb, 0, 0, op->ack_with_data);
		proto_item_set_generated(pi);
	}
	pi = proto_tree_add_uint(rt, hf_iwarp_rdmap_retransmissions, tvb, 0, 0, op->retransmissions);
	proto_item_set_generated(pi);
	proto_item *ri = proto_tree_add_uint(rt, hf_iwarp_rdmap_reordered, tvb, 0, 0, op->reordered);
	proto_item_set_generated(ri);
	if (retrans_threshold && op->retransmissions >= retrans_threshold)
		expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_retransmitted,
				       "Operation %" PRIu64 ": %u TCP segment%s of it sent again", op->id,
				       op->retransmissions, op->retransmissions == 1 ? "" : "s");
	pi = add_time(rt, hf_iwarp_rdmap_stall, tvb, op->stall_ns);
	if (stall_threshold_us && op->stall_ns >= (gint64)stall_threshold_us * 1000)
		expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_stalled,
				       "Operation %" PRIu64 " waited %s in TCP reassembly for earlier missing octets",
				       op->id, iwarp_fmt_ns(pinfo->pool, op->stall_ns));
	if (iws_op_type_has_response((enum iws_op_type)op->type))
		add_time(rt, hf_iwarp_rdmap_queued, tvb, op->queued_ns);
}

void iwarp_timing_add_acked(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, wmem_array_t *acked)
{
	guint n = wmem_array_get_count(acked);
	proto_item *ti;
	proto_tree *at = proto_tree_add_subtree_format(tree, tvb, 0, 0, ett_iwarp_rdmap_acked, &ti,
		"iWARP: this ACK covers the last octet of %u operation%s", n, n == 1 ? "" : "s");
	proto_item_set_generated(ti);
	for (guint i = 0; i < n; i++) {
		const struct iws_op_brief *op = &(*(iwarp_op_link **)wmem_array_index(acked, i))->op;
		proto_item *pi = proto_tree_add_uint64_format_value(at, hf_iwarp_rdmap_acked_op, tvb, 0, 0, op->id,
			"%" PRIu64 " (%s, frames %u-%u), %s after its start", op->id,
			iws_op_type_title((enum iws_op_type)op->type), op->first_frame, op->last_frame,
			iwarp_fmt_ns(pinfo->pool, op->ack_ns));
		proto_item_set_generated(pi);
		add_frame(proto_item_add_subtree(pi, ett_iwarp_rdmap_acked_op), hf_iwarp_rdmap_acked_frame, tvb,
			  op->last_frame);
	}
}

void iwarp_timing_add_tcp_events(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint8 events)
{
	proto_item *ti;
	proto_tree *et = proto_tree_add_subtree(tree, tvb, 0, 0, ett_iwarp_rdmap_tcp_event, &ti,
						"iWARP: TCP event of this connection");
	proto_item_set_generated(ti);
	/* in the order of the field's values (tcp_event_vals) */
	for (const value_string *e = tcp_event_vals; e->strptr; e++) {
		guint8 bit = (guint8)e->value;
		if (!(events & bit))
			continue;
		proto_item *pi = proto_tree_add_uint(et, hf_iwarp_rdmap_tcp_event, tvb, 0, 0, bit);
		proto_item_set_generated(pi);
		/* One expert item per event the engine counted, so that `tshark -z
		 * expert` counts what `iwarpscope stats` does:
		 * duplicate ACKs as Chat under their own name (many, and no loss
		 * by themselves); a keep-alive is not counted as anything. */
		if (bit == IWS_SEV_BIT(IWS_SEV_DUPLICATE_ACK))
			expert_add_info(pinfo, pi, &ei_iwarp_rdmap_dup_ack);
		else if (bit != IWS_SEV_BIT(IWS_SEV_KEEPALIVE))
			expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_tcp_event, "TCP %s on an iWARP connection",
					       e->strptr);
	}
}

void iwarp_timing_add_close(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			    const struct iws_close *c)
{
	const char *what = c->kind == IWS_CLOSE_RST ? "RST" : "FIN";
	char *who = iwarp_endpoint_str(pinfo->pool, ic, c->dir);
	proto_item *ti;
	proto_tree *tt = proto_tree_add_subtree_format(tree, tvb, 0, 0, ett_iwarp_rdmap_teardown, &ti,
		"iWARP teardown: %s from the %s %s, %u operation%s outstanding", what,
		c->dir == IWS_DIR_I2R ? "initiator" : "responder", who, c->outstanding,
		c->outstanding == 1 ? "" : "s");
	proto_item_set_generated(ti);
	proto_item *pi = proto_tree_add_uint(tt, hf_iwarp_rdmap_teardown_kind, tvb, 0, 0,
						c->kind == IWS_CLOSE_RST ? IWS_SEV_RST : IWS_SEV_FIN);
	proto_item_set_generated(pi);
	pi = proto_tree_add_uint(tt, hf_iwarp_rdmap_teardown_side, tvb, 0, 0, c->dir);
	proto_item_set_generated(pi);
	pi = proto_tree_add_uint(tt, hf_iwarp_rdmap_teardown_outstanding, tvb, 0, 0, c->outstanding);
	proto_item_set_generated(pi);
	if (!c->outstanding)
		return;
	expert_add_info_format(pinfo, pi, &ei_iwarp_rdmap_teardown, "%s with %u operation%s outstanding", what,
			       c->outstanding, c->outstanding == 1 ? "" : "s");
	iwarp_col_append_printf(pinfo, "%s with %u iWARP operation%s outstanding", what, c->outstanding,
				c->outstanding == 1 ? "" : "s");
	for (guint32 i = 0; i < c->nids; i++) {
		guint64 id = c->ids[i];
		const iwarp_op_link *link = (const iwarp_op_link *)wmem_map_lookup(ic->ops, &id);
		const struct iws_op_brief *op = link ? &link->op : NULL;
		if (!op) {
			pi = proto_tree_add_uint64(tt, hf_iwarp_rdmap_teardown_op_id, tvb, 0, 0, id);
			proto_item_set_generated(pi);
			continue;
		}
		pi = proto_tree_add_uint64_format_value(tt, hf_iwarp_rdmap_teardown_op_id, tvb, 0, 0, id,
			"%" PRIu64 " (%s, first frame %u)", id, iws_op_type_title((enum iws_op_type)op->type),
			op->first_frame);
		proto_item_set_generated(pi);
		if (op->first_frame)
			add_frame(proto_item_add_subtree(pi, ett_iwarp_rdmap_teardown_op), hf_iwarp_rdmap_teardown_op_frame,
				  tvb, op->first_frame);
	}
	if (c->nids < c->outstanding)
		proto_tree_add_expert_format(tt, pinfo, &ei_iwarp_rdmap_teardown, tvb, 0, 0,
					     "%u more operations outstanding (not listed)", c->outstanding - c->nids);
}

void iwarp_timing_register(int proto, module_t *m)
{
	static hf_register_info hf[] = {
		{ &hf_iwarp_rdmap_first_transmission, { "First transmission", "iwarp.rdmap.first_transmission",
			FT_FRAMENUM, BASE_NONE, NULL, 0x0,
			"The earliest frame that carried an octet of the operation's first FPDU (its start)", HFILL } },
		{ &hf_iwarp_rdmap_ack_in, { "Acknowledged in", "iwarp.rdmap.ack_in", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0,
			"The receiver's first TCP ACK that covers the operation's last octet", HFILL } },
		{ &hf_iwarp_rdmap_ack_time, { "ACK time", "iwarp.rdmap.ack_time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"From the operation's first transmission to the TCP ACK of its last octet (delivery latency)",
			HFILL } },
		{ &hf_iwarp_rdmap_ack_with_data, { "ACK carried by data", "iwarp.rdmap.ack_with_data", FT_BOOLEAN,
			BASE_NONE, NULL, 0x0, "The covering ACK rode on a segment with data (a delayed ACK)", HFILL } },
		{ &hf_iwarp_rdmap_retransmissions, { "Retransmissions", "iwarp.rdmap.retransmissions", FT_UINT32,
			BASE_DEC, NULL, 0x0, "TCP segments that carried octets of the operation again", HFILL } },
		{ &hf_iwarp_rdmap_reordered, { "Reordered", "iwarp.rdmap.reordered", FT_UINT32, BASE_DEC, NULL,
			0x0, "TCP segments of the operation overtaken on the way (first transmissions that came "
			"after later octets: not retransmissions)", HFILL } },
		{ &hf_iwarp_rdmap_stall, { "Stall", "iwarp.rdmap.stall", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"Time the operation's octets waited in TCP reassembly for earlier missing octets", HFILL } },
		{ &hf_iwarp_rdmap_queued, { "Queued", "iwarp.rdmap.queued", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
			"Read/Atomic: time the responder's answer waited behind earlier responses", HFILL } },
		{ &hf_iwarp_rdmap_after_close, { "Sent after the peer closed", "iwarp.rdmap.after_close", FT_BOOLEAN,
			BASE_NONE, NULL, 0x0, "This FPDU was first sent after its receiver's FIN or RST", HFILL } },
		{ &hf_iwarp_rdmap_acked_op, { "Acknowledged operation", "iwarp.rdmap.acked_op", FT_UINT64, BASE_DEC,
			NULL, 0x0, "An operation whose last octet this frame's TCP ACK covers first", HFILL } },
		{ &hf_iwarp_rdmap_acked_frame, { "Its last FPDU", "iwarp.rdmap.acked_frame", FT_FRAMENUM, BASE_NONE,
			FRAMENUM_TYPE(FT_FRAMENUM_ACK), 0x0, "The frame of the acknowledged operation's last FPDU", HFILL } },
		{ &hf_iwarp_rdmap_teardown_kind, { "Teardown", "iwarp.rdmap.teardown.kind", FT_UINT8, BASE_DEC,
			VALS(teardown_kind_vals), 0x0, "The side's first FIN or RST", HFILL } },
		{ &hf_iwarp_rdmap_teardown_side, { "Side", "iwarp.rdmap.teardown.side", FT_UINT8, BASE_DEC,
			VALS(side_vals), 0x0, "Who closed: the MPA initiator or responder", HFILL } },
		{ &hf_iwarp_rdmap_teardown_outstanding, { "Operations outstanding", "iwarp.rdmap.teardown.outstanding",
			FT_UINT32, BASE_DEC, NULL, 0x0, "Operations begun and not finished at this FIN or RST", HFILL } },
		{ &hf_iwarp_rdmap_teardown_op_id, { "Outstanding operation", "iwarp.rdmap.teardown.op_id", FT_UINT64,
			BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_iwarp_rdmap_tcp_event, { "TCP event", "iwarp.rdmap.tcp_event", FT_UINT8, BASE_HEX,
			VALS(tcp_event_vals), 0x0,
			"What the stream engine counted for this segment (the CLI's tcp fast_retransmits, timeouts, "
			"zero_windows, duplicate_acks, other_retransmits, reordered, keepalives)", HFILL } },
		{ &hf_iwarp_rdmap_teardown_op_frame, { "Its first frame", "iwarp.rdmap.teardown.op_frame", FT_FRAMENUM,
			BASE_NONE, NULL, 0x0, "The first transmission of the outstanding operation", HFILL } },
	};
	static gint *ett[] = {
		&ett_iwarp_rdmap_acked, &ett_iwarp_rdmap_acked_op, &ett_iwarp_rdmap_teardown, &ett_iwarp_rdmap_teardown_op,
		&ett_iwarp_rdmap_tcp_event,
	};
	static ei_register_info ei[] = {
		{ &ei_iwarp_rdmap_stalled, { "iwarp.rdmap.stalled", PI_SEQUENCE, PI_WARN,
			"Operation stalled in TCP reassembly", EXPFILL } },
		{ &ei_iwarp_rdmap_retransmitted, { "iwarp.rdmap.retransmitted", PI_SEQUENCE, PI_WARN,
			"Operation's octets retransmitted", EXPFILL } },
		{ &ei_iwarp_rdmap_after_close, { "iwarp.rdmap.sent_after_close", PI_SEQUENCE, PI_WARN,
			"Sent after the peer closed the connection: not placed", EXPFILL } },
		{ &ei_iwarp_rdmap_tcp_event, { "iwarp.rdmap.tcp_event.loss", PI_SEQUENCE, PI_NOTE,
			"TCP retransmission or zero window on an iWARP connection", EXPFILL } },
		{ &ei_iwarp_rdmap_dup_ack, { "iwarp.rdmap.tcp_event.dup_ack", PI_SEQUENCE, PI_CHAT,
			"TCP duplicate ACK on an iWARP connection", EXPFILL } },
		{ &ei_iwarp_rdmap_teardown, { "iwarp.rdmap.teardown.unfinished", PI_SEQUENCE, PI_WARN,
			"Connection closed with operations outstanding", EXPFILL } },
	};
	proto_register_field_array(proto, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_register_field_array(expert_register_protocol(proto), ei, array_length(ei));
	prefs_register_uint_preference(m, "stall_threshold",
		"Stall expert threshold (microseconds)",
		"Flag an operation whose octets waited at least this long in TCP reassembly for earlier "
		"missing octets (0: never).", 10, &stall_threshold_us);
	prefs_register_uint_preference(m, "retrans_threshold",
		"Retransmission expert threshold (segments)",
		"Flag an operation with at least this many retransmitted TCP segments (0: never).", 10,
		&retrans_threshold);
}
