// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-mpa.h - the iwarp.mpa protocol (packet-iwarp-mpa.c): MPA
 * Request/Reply frames, FPDUs, and what the stream engine says of a frame's
 * other octets.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_MPA_H
#define IWARPSCOPE_PACKET_IWARP_MPA_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_mpa;

void iwarp_mpa_register(void);
void iwarp_mpa_dissect_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			     const iwarp_pdu_rec *rec);
void iwarp_mpa_dissect_fpdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			    iwarp_pdu_rec *rec);
/* Octets of this frame that are not a PDU of it (tvb: the TCP payload). */
void iwarp_mpa_add_span(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 len,
			const iwarp_span_rec *sp);
/* A PDU of frame `frame` shown in a later one (a single pass). */
void iwarp_mpa_add_late(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 frame);
/* A gap, lost framing, nonstandard markers, ... */
void iwarp_mpa_add_event(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			 const struct iws_stream_event *ev);

#endif
