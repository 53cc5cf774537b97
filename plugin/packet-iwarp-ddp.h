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
/* Reassemble an untagged (Send family) message; the complete message's tvb
 * when this segment completes it, else NULL. */
tvbuff_t *iwarp_ddp_reassemble(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
			       const struct iws_msg *msg);

#endif
