// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-nvme.h - the iwarp.nvme protocol (packet-iwarp-nvme.c): NVMe
 * over Fabrics on iWARP, fed on the first pass, rendered on every pass.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_NVME_H
#define IWARPSCOPE_PACKET_IWARP_NVME_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

extern int proto_iwarp_nvme;

void iwarp_nvme_register(void);
/* First pass: the engine's NVMe stage asked for a new connection (its
 * commands become iwarp_nvme_link records), and a PDU's note from it, from
 * the stream's pdu callback (rec: the PDU's record, NULL for an MPA frame). */
void iwarp_nvme_stage(iwarp_conv *ic);
void iwarp_nvme_pdu(iwarp_conv *ic, const struct iws_pdu *p, iwarp_pdu_rec *rec);
/* The connection carries NVMe/RDMA (its payloads are the NVMe layer's). */
gboolean iwarp_nvme_is_nvme(const iwarp_conv *ic);
/* Render the NVMe view of a segment (ulpdu: its marker-free ULPDU): msg_tvb
 * is the whole Send message (a capsule) when this segment completes one,
 * else NULL. */
void iwarp_nvme_dissect(tvbuff_t *ulpdu, tvbuff_t *msg_tvb, packet_info *pinfo, proto_tree *tree,
			iwarp_conv *ic, const iwarp_pdu_rec *rec, const struct iws_msg *msg);
/* The MPA Request's or Reply's private data after the enhanced word, on a
 * connection that carries NVMe: the NVMe RDMA transport's rdma_cm data. */
void iwarp_nvme_private_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic, int type,
			     guint32 off, guint32 len);

#endif
