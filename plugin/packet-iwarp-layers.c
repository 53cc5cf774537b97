// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-layers.c - how the plugin's protocols appear in Wireshark's
 * protocol machinery: frame.protocols ("Protocols in frame"), the shape of
 * the top level of the protocol tree, and so `-z io,phs` and the GUI's
 * Protocol Hierarchy.
 *
 * Two facts of Wireshark 4.0 (epan/dissectors/packet-frame.c, packet.c,
 * ui/cli/tap-protohierstat.c) shape this file:
 *
 *   - frame.protocols is the list pinfo->layers (every dissector called
 *     through a handle or a heuristic list appends its protocol) joined with
 *     ':', and it is put in the tree BEFORE the postdissectors run. The
 *     plugin renders every frame from its postdissector (so that what it
 *     shows does not depend on TCP's preferences, packet-iwarp-stream.c), so
 *     it records the layers it shows here and rewrites the value of the
 *     frame.protocols field once the frame is rendered, where the field is
 *     in the tree: display filters, -T fields and the GUI read the value
 *     after the postdissectors. The plugin does not ask for the field
 *     itself: whoever reads it has it primed (a filter, a custom column,
 *     -T fields' output fields) or has a full tree, and a field primed in
 *     every frame would cost `tshark -q -z iwarp,ops` the frame dissector's
 *     string of every frame's protocols for nobody.
 *   - the protocol hierarchy statistics nest each top-level item of a frame
 *     under the previous one (text items included). So the top level of a
 *     frame carries each iWARP protocol at most once, in stack order: a
 *     frame with one PDU shows it flat (iwarp.mpa, iwarp.ddp, iwarp.rdmap,
 *     iwarp.nvme, upper layers); a frame with several PDUs, octets of PDUs
 *     of other frames or stream events shows one iwarp.mpa item holding
 *     each PDU's stack, followed by one zero-length summary item per further
 *     protocol found in it. What concerns TCP and operations (ACKs,
 *     retransmissions, FIN, RST) goes in TCP's own subtree.
 */
#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/ftypes/ftypes.h>
#include <wsutil/str_util.h>

#include <string.h>

#include "packet-iwarp-layers.h"
#include "ws-compat.h"

static int hf_frame_protocols = -1;
/* The iWARP stack bottom up (iwarp_layers_register): MPA, DDP, RDMAP. */
static int stack[IWARP_LAYERS_STACK] = { -1, -1, -1 };
#define proto_mpa stack[0]
static int proto_tcp = -1;
static gint ett_iwarp_layers = -1;

/* The iWARP part of the frame being rendered: where pinfo->layers stood
 * before it, and where each PDU's stack goes. */
static struct {
	guint mark;
	proto_tree *top;             /* the frame's top level */
	proto_tree *stack;           /* where PDU stacks go: top, or the container's subtree */
	proto_item *container;
} cur;

void iwarp_layers_handoff(void)
{
	hf_frame_protocols = proto_registrar_get_id_byname("frame.protocols");
	proto_tcp = proto_get_id_by_filter_name("tcp");
}

void iwarp_layers_register(const int protos[IWARP_LAYERS_STACK])
{
	memcpy(stack, protos, sizeof(stack));
	static gint *ett[] = { &ett_iwarp_layers };
	proto_register_subtree_array(ett, array_length(ett));
}

/* The number of layers of `proto` so far in this frame (packet.c keeps it
 * in pinfo->proto_layers, and asserts that the tail layer has one). */
static int *proto_layer_count(packet_info *pinfo, int proto, gboolean create)
{
	if (!pinfo->proto_layers) {
		if (!create)
			return NULL;
		pinfo->proto_layers = wmem_map_new(pinfo->pool, g_direct_hash, g_direct_equal);
	}
	int *n = (int *)wmem_map_lookup(pinfo->proto_layers, GINT_TO_POINTER(proto));
	if (!n && create) {
		n = wmem_new0(pinfo->pool, int);
		wmem_map_insert(pinfo->proto_layers, GINT_TO_POINTER(proto), n);
	}
	return n;
}

void iwarp_layer(packet_info *pinfo, int proto)
{
	/* as packet.c does for a dissector called through a handle: the layer
	 * numbers upper layers key their per-packet data with */
	pinfo->curr_layer_num++;
	wmem_list_append(pinfo->layers, GINT_TO_POINTER(proto));
	int *n = proto_layer_count(pinfo, proto, TRUE);
	(*n)++;
	pinfo->curr_proto_layer_num = *n;
}

void iwarp_layers_trim(packet_info *pinfo, guint count)
{
	while (wmem_list_count(pinfo->layers) > count) {
		wmem_list_frame_t *f = wmem_list_tail(pinfo->layers);
		int *n = proto_layer_count(pinfo, GPOINTER_TO_INT(wmem_list_frame_data(f)), FALSE);
		if (n && *n > 0)
			(*n)--;
		wmem_list_remove_frame(pinfo->layers, f);
		pinfo->curr_layer_num--;
	}
	wmem_list_frame_t *t = wmem_list_tail(pinfo->layers);
	int *n = t ? proto_layer_count(pinfo, GPOINTER_TO_INT(wmem_list_frame_data(t)), FALSE) : NULL;
	if (n)
		pinfo->curr_proto_layer_num = *n;
}

proto_tree *iwarp_layers_begin(packet_info *pinfo, proto_tree *tree, tvbuff_t *tvb, guint pdus, guint spans,
			       guint events)
{
	guint units = pdus + spans + (events ? 1 : 0);
	memset(&cur, 0, sizeof(cur));
	cur.mark = wmem_list_count(pinfo->layers);
	cur.top = tree;
	cur.stack = tree;
	/* Events are text items (expert info): alone at the top level they
	 * would be a "text" layer of the hierarchy; they go in the container. */
	if (units > 1 || events) {
		cur.container = proto_tree_add_item(tree, proto_mpa, tvb, 0, -1, ENC_NA);
		wmem_strbuf_t *sb = wmem_strbuf_new(pinfo->pool, "");
		if (pdus)
			wmem_strbuf_append_printf(sb, ", %u PDU%s", pdus, plurality(pdus, "", "s"));
		if (spans)
			wmem_strbuf_append_printf(sb, ", %u run%s of other octets", spans, plurality(spans, "", "s"));
		if (events)
			wmem_strbuf_append_printf(sb, ", %u stream note%s", events, plurality(events, "", "s"));
		proto_item_append_text(cur.container, "%s", wmem_strbuf_get_str(sb));
		cur.stack = proto_item_add_subtree(cur.container, ett_iwarp_layers);
		iwarp_layer(pinfo, proto_mpa);
	}
	return cur.stack;
}

/* The frame.protocols field of this frame. Where it is primed (a display
 * filter, a custom column, -T fields), the tree indexes it. Where the tree
 * is a full one (-V, -T fields, -T pdml, the GUI's detail pane, tshark's
 * second pass) the field sits in the frame item's subtree, where it is found
 * by walking. Elsewhere nobody reads it and the frame dissector left it out. */
static field_info *protocols_field(proto_tree *tree)
{
	if (!tree || hf_frame_protocols <= 0)
		return NULL;
	GPtrArray *a = proto_get_finfo_ptr_array(tree, hf_frame_protocols);
	if (a && a->len)
		return (field_info *)g_ptr_array_index(a, 0);
	for (proto_node *top = tree->first_child; top; top = top->next) {
		for (proto_node *n = top->first_child; n; n = n->next)
			if (PNODE_FINFO(n) && PNODE_FINFO(n)->hfinfo->id == hf_frame_protocols)
				return PNODE_FINFO(n);
		break;   /* only the frame item, the first of the top level, holds it */
	}
	return NULL;
}

/* A protocol's place in the iWARP stack: MPA, DDP, RDMAP, then the upper
 * layers in the order they were shown. */
static int layer_rank(int proto)
{
	for (int k = 0; k < IWARP_LAYERS_STACK; k++)
		if (proto == stack[k])
			return k;
	return IWARP_LAYERS_STACK;
}

void iwarp_layers_end(packet_info *pinfo, tvbuff_t *tvb)
{
	/* The protocols shown, each once, in the order first shown. */
	int ids[32];
	guint counts[32];
	guint n = 0, i = 0;
	for (wmem_list_frame_t *f = wmem_list_head(pinfo->layers); f; f = wmem_list_frame_next(f), i++) {
		if (i < cur.mark)
			continue;
		int id = GPOINTER_TO_INT(wmem_list_frame_data(f));
		guint k = 0;
		while (k < n && ids[k] != id)
			k++;
		if (k == n) {
			if (n == G_N_ELEMENTS(ids))
				continue;
			ids[n] = id;
			counts[n++] = 0;
		}
		counts[k]++;
	}
	if (!n)
		return;
	/* In stack order, whatever order the parts came in: a frame holding an
	 * MPA Request with NVMe's private data and then an FPDU (a reordered
	 * capture) shows mpa, ddp, rdmap, nvme, never nvme under ddp. */
	for (guint a = 1; a < n; a++)
		for (guint b = a; b > 0 && layer_rank(ids[b]) < layer_rank(ids[b - 1]); b--) {
			int ti = ids[b];
			guint tc = counts[b];
			ids[b] = ids[b - 1];
			counts[b] = counts[b - 1];
			ids[b - 1] = ti;
			counts[b - 1] = tc;
		}
	/* Several parts: one summary item per protocol after iwarp.mpa, so the
	 * top level reads as the stack (the details are in the container). */
	if (cur.container) {
		/* Not for "data": PDML writes that protocol as a hex field and
		 * leaves a childless one of no octets unclosed (print.c), which
		 * breaks every XML reader of -T pdml; the frame lists it anyway. */
		int proto_data = proto_get_id_by_filter_name("data");
		for (guint k = 0; k < n; k++) {
			if (ids[k] == proto_mpa || ids[k] == proto_data)
				continue;
			proto_item *ti = proto_tree_add_protocol_format(cur.top, ids[k], tvb, 0, 0,
				"%s: %u in the %s above", proto_get_protocol_name(ids[k]), counts[k],
				proto_get_protocol_short_name(find_protocol_by_id(proto_mpa)));
			proto_item_set_generated(ti);
		}
	}
	field_info *fi = protocols_field(cur.top);
	if (!fi || fvalue_type_ftenum(IWARP_FI_VALUE(fi)) != FT_STRING)
		return;
	/* What the frame dissector listed, without its iwarp.mpa (TCP handed the
	 * payload to the plugin's conversation dissector, which shows nothing),
	 * then what the plugin showed. */
	const char *was = wmem_strbuf_get_str(fvalue_get_strbuf(IWARP_FI_VALUE(fi)));
	wmem_strbuf_t *sb = wmem_strbuf_new(pinfo->pool, was ? was : "");
	const char *own = proto_get_protocol_filter_name(proto_mpa);
	size_t ol = strlen(own);
	for (;;) {
		const char *s = wmem_strbuf_get_str(sb);
		size_t l = wmem_strbuf_get_len(sb);
		if (l > ol && s[l - ol - 1] == ':' && strcmp(s + l - ol, own) == 0)
			wmem_strbuf_truncate(sb, l - ol - 1);
		else
			break;
	}
	for (guint k = 0; k < n; k++) {
		if (wmem_strbuf_get_len(sb))
			wmem_strbuf_append_c(sb, ':');
		wmem_strbuf_append(sb, proto_get_protocol_filter_name(ids[k]));
	}
	iwarp_fi_set_string(fi, wmem_strbuf_get_str(sb));
}

proto_tree *iwarp_tcp_tree(proto_tree *tree, tvbuff_t *tvb)
{
	/* The last TCP item of the top level (IP in IP carries more than one). */
	proto_node *tcp = NULL;
	if (tree && proto_tcp > 0)
		for (proto_node *n = tree->first_child; n; n = n->next)
			if (PNODE_FINFO(n) && PNODE_FINFO(n)->hfinfo->id == proto_tcp)
				tcp = n;
	(void)tvb;
	proto_tree *t = tcp ? proto_item_get_subtree((proto_item *)tcp) : NULL;
	return t ? t : tree;
}

proto_tree *iwarp_layers_mpa_tree(proto_tree *tree)
{
	if (!tree)
		return NULL;
	for (proto_node *n = tree->first_child; n; n = n->next)
		if (PNODE_FINFO(n) && PNODE_FINFO(n)->hfinfo->id == proto_mpa) {
			proto_tree *t = proto_item_get_subtree((proto_item *)n);
			return t ? t : proto_item_add_subtree((proto_item *)n, ett_iwarp_layers);
		}
	return iwarp_tcp_tree(tree, NULL);
}
