// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-rpc.h - the iwarp.rpc protocol (packet-iwarp-rpc.c): the
 * anatomy of each RPC carried by RPC-over-RDMA (RFC 8166): its call, its
 * reply and the RDMA operations that moved its data, linked both ways.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_RPC_H
#define IWARPSCOPE_PACKET_IWARP_RPC_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_rpc;

void iwarp_rpc_register(void);
/* First pass: the engine's RPC stage for a new connection (its RPCs become
 * iwarp_rpc_link records, kept on the frames of the call, the reply and the
 * RDMA operations; nothing is allocated until the first RPC). */
void iwarp_rpc_stage(iwarp_conv *ic);
/* Every pass: what the RPCs of the PDU's frame or operation are (rt: the
 * PDU's RDMAP tree, ulpdu its marker-free ULPDU). */
void iwarp_rpc_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *rt, const iwarp_conv *ic,
		       const iwarp_pdu_rec *rec, const struct iws_msg *msg);
/* The RPC of a record (the core's struct iws_rpc with the numbers the
 * statistics use: iws_rpc_stats_add). */
void iwarp_rpc_of_link(const iwarp_rpc_link *l, struct iws_rpc *r);

#endif
