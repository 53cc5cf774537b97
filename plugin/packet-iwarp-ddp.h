// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-ddp.h - the iwarp.ddp protocol (packet-iwarp-ddp.c): DDP
 * segment headers and the reassembly of untagged messages.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_DDP_H
#define IWARPSCOPE_PACKET_IWARP_DDP_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_ddp;

void iwarp_ddp_register(void);
void iwarp_ddp_handoff(void);
/* Show the DDP header of a marker-free ULPDU (msg: the core's decode of it)
 * and hand on to RDMAP. */
void iwarp_ddp_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
		       iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res);
/* The DDP header at off in tvb as the plugin shows it: the core's decode
 * (core) when it has the fields, else the control octets as captured and
 * the fields where RFC 5041 puts them for the header's T flag (a header of
 * another version, or one a snapshot length cut before the core read it),
 * offsets in tvb. */
void iwarp_ddp_header_view(tvbuff_t *tvb, guint32 off, const struct iws_ddp_hdr *core, struct iws_ddp_hdr *h);
/* Reassemble an untagged (Send family) message; the complete message's tvb
 * when this segment completes it, else NULL. */
tvbuff_t *iwarp_ddp_reassemble(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
			       const struct iws_msg *msg);

#endif
