// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-ddp-msg.h - what the DDP layer gives the layers above it
 * (packet-iwarp-ddp-msg.c): the calls of the plugin's chain run one way,
 * mpa -> ddp -> rdmap -> nvme, and RDMAP reads DDP through this, not
 * through packet-iwarp-ddp.c, which calls it.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_DDP_MSG_H
#define IWARPSCOPE_PACKET_IWARP_DDP_MSG_H

#include <epan/packet.h>

#include "iwarpscope/ddp.h"
#include "iwarpscope/stream.h"

/* The fields of the reassembly, under iwarp.ddp (proto_ddp). */
void iwarp_ddp_msg_register(int proto_ddp);
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
