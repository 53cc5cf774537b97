// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-doctor.h - the interop doctor in Wireshark
 * (packet-iwarp-doctor.c): a stage of each connection's engine on the first
 * pass, its occurrences rendered on their frames.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_DOCTOR_H
#define IWARPSCOPE_PACKET_IWARP_DOCTOR_H

#include <epan/packet.h>

#include "packet-iwarp-state.h"

void iwarp_doctor_register(void);
/* Turn on the doctor stage of the connection's engine (before its first
 * segment): its occurrences go to their frames' records; ic->doc is the
 * engine's doctor, NULL when memory is short. */
void iwarp_doctor_stage(iwarp_conv *ic);
/* The frame's occurrences: iwarp.rule fields and one expert item each. */
void iwarp_doctor_render(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const iwarp_frame_rec *fr);

#endif
