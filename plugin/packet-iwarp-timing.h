// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-timing.h - fields of iwarp.rdmap about time and TCP
 * (packet-iwarp-timing.c): where an operation spent its time, the ACK that
 * covered it, TCP events, FIN and RST.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_TIMING_H
#define IWARPSCOPE_PACKET_IWARP_TIMING_H

#include <epan/packet.h>
#include <epan/prefs.h>

#include "packet-iwarp-state.h"

void iwarp_timing_register(int proto, module_t *m);
/* Where the operation of an RDMAP segment spent its time (on the FPDU that
 * ended it), and whether the segment was sent after the peer closed. */
void iwarp_timing_segment(tvbuff_t *tvb, packet_info *pinfo, proto_tree *rt, iwarp_conv *ic,
			  const iwarp_pdu_rec *rec);
/* A frame's TCP acknowledgement covered these operations (iwarp_op_link *). */
void iwarp_timing_add_acked(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, wmem_array_t *acked);
/* The TCP events of a segment (IWS_SEV_BIT()s). */
void iwarp_timing_add_tcp_events(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint8 events);
/* A FIN or RST of the connection and the operations it left outstanding. */
void iwarp_timing_add_close(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			    const struct iws_close *c);

#endif
