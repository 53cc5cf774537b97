// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-ddp.h - the iwarp.ddp protocol (packet-iwarp-ddp.c): DDP
 * segment headers (what the layers above use of DDP: packet-iwarp-ddp-msg.h).
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

#endif
