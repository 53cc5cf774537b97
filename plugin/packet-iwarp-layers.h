// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-layers.h - the frame's protocol stack
 * (packet-iwarp-layers.c): which of the plugin's protocols a frame shows
 * (frame.protocols), the tree they go in.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_LAYERS_H
#define IWARPSCOPE_PACKET_IWARP_LAYERS_H

#include <epan/packet.h>

/* The protocols of the iWARP stack, bottom up (MPA, DDP, RDMAP: the
 * plugin's registration order, plugin.c); the upper layers follow them. */
#define IWARP_LAYERS_STACK 3
void iwarp_layers_register(const int protos[IWARP_LAYERS_STACK]);
/* Finds frame.protocols and TCP (the fields this file reads). */
void iwarp_layers_handoff(void);
/* This frame shows protocol `proto` (frame.protocols lists it). */
void iwarp_layer(packet_info *pinfo, int proto);
/* Forget the layers past the first `count` (an upper layer that threw). */
void iwarp_layers_trim(packet_info *pinfo, guint count);
/* Rendering a frame with PDUs, spans (octets of other frames' PDUs,
 * retransmissions...) and stream notes (events, a PDU shown late): the tree
 * their stacks go in (tree, or one iwarp.mpa container when there is more
 * than one PDU or span, or any note). */
proto_tree *iwarp_layers_begin(packet_info *pinfo, proto_tree *tree, tvbuff_t *tvb, guint pdus, guint spans,
			       guint events);
/* The frame is rendered: summary items, frame.protocols. */
void iwarp_layers_end(packet_info *pinfo, tvbuff_t *tvb);
/* Where what concerns TCP goes: TCP's own subtree (else tree). */
proto_tree *iwarp_tcp_tree(proto_tree *tree, tvbuff_t *tvb);
/* The subtree of the frame's first top-level iwarp.mpa item (else TCP's):
 * where what concerns the whole frame's iWARP octets goes without becoming
 * a layer of its own (the interop doctor's findings). */
proto_tree *iwarp_layers_mpa_tree(proto_tree *tree);

#endif
