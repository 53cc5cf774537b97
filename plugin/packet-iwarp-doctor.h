// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-doctor.h - the interop doctor in Wireshark
 * (packet-iwarp-doctor.c): fed per connection on the first pass, its
 * occurrences rendered on their frames.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_DOCTOR_H
#define IWARPSCOPE_PACKET_IWARP_DOCTOR_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

void iwarp_doctor_register(void);
/* A connection's doctor (NULL on allocation failure): its occurrences go to
 * their frames' records. */
struct iws_doctor *iwarp_doctor_new(iwarp_conv *ic);
/* Feed the doctor a segment just before the engine: seg, and the TCP header
 * at hdr_off (hdr_len octets) in ds for its options. */
void iwarp_doctor_segment(iwarp_conv *ic, int side, const struct iws_tcp_seg *seg, tvbuff_t *ds,
			  gint hdr_off, guint32 hdr_len);
/* The frame's occurrences: iwarp.rule fields and one expert item each. */
void iwarp_doctor_render(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const iwarp_frame_rec *fr);

#endif
