// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-smb.h - the iwarp.smb protocol (packet-iwarp-smb.c): each
 * SMB2 request carried by SMB Direct (MS-SMBD) with its response and the
 * RDMA operations that moved its data through its buffer descriptors.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_SMB_H
#define IWARPSCOPE_PACKET_IWARP_SMB_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_smb;

void iwarp_smb_register(void);
/* First pass: the engine's SMB Direct stage for a new connection (its
 * requests become iwarp_smb_link records; nothing before the first). */
void iwarp_smb_stage(iwarp_conv *ic);
/* Every pass: the SMB2 requests of the PDU's Send or RDMA operation. */
void iwarp_smb_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, const iwarp_conv *ic,
		       const iwarp_pdu_rec *rec, const struct iws_msg *msg);

#endif
