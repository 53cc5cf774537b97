// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-rdmap.h - the iwarp.rdmap protocol (packet-iwarp-rdmap.c):
 * RDMAP messages, their operations, and the hand-off of payloads to upper
 * layers.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_RDMAP_H
#define IWARPSCOPE_PACKET_IWARP_RDMAP_H

#include <epan/packet.h>
#include <epan/prefs.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_rdmap;

/* Registers iwarp.rdmap; its preferences module (the timing fields' too). */
module_t *iwarp_rdmap_register(void);
void iwarp_rdmap_handoff(void);
/* Show the RDMAP message of a marker-free ULPDU (msg, res: the core's decode
 * of it; h: its DDP header as iwarp_ddp_header_view gives it, which holds
 * the RDMAP control octet) and hand its payload on. */
void iwarp_rdmap_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			 iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res,
			 const struct iws_ddp_hdr *h);

#endif
