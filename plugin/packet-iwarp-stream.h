// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-stream.h - the driver of the plugin (packet-iwarp-stream.c).
 *
 * Protocols: iwarp.mpa (framing), iwarp.ddp, iwarp.rdmap, iwarp.nvme (NVMe
 * over Fabrics) and iwarp (the interop doctor). Every decision
 * about the octets is the core's stream engine's (iwarpscope/stream.h), the
 * same one the iwarpscope CLI runs:
 *
 *   first pass   a postdissector hands every TCP segment of the capture
 *                (read from the TCP layer's own fields, so whatever TCP's
 *                reassembly preferences) to the engine of its connection,
 *                and stores what the engine reports, per frame, in file
 *                scope: the PDUs completed in that frame, what became of
 *                the frame's other octets (spans), the operations finished,
 *                the events (gaps, lost framing, ...);
 *   every pass   the same postdissector renders the frame from those
 *                records, reading the octets through tvb accessors at the
 *                offsets the core recorded.
 *
 * The records live in the state store (packet-iwarp-state.h): one struct
 * per TCP connection (iwarp_conv), found by its tcp.stream, and one per
 * frame (iwarp_frame_rec), found by its number.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_STREAM_H
#define IWARPSCOPE_PACKET_IWARP_STREAM_H

#include <epan/packet.h>
#include <epan/tap.h>

#include "packet-iwarp-state.h"
#include "ws-compat.h"


void iwarp_stream_register(void);
void iwarp_stream_handoff(void);
/* A text statistic that reads what the analysis reports at the capture's
 * end (operations still in flight, end-of-capture findings) calls this once
 * it has registered its listener: the pass is then ended before any
 * statistic is drawn, in tshark's single pass too, and the statistic's draw
 * only reads. */
void iwarp_end_pass_before_draws(void);
/* A tap listener's packet callback for what is read from the connections'
 * records at draw time (the doctor's findings, the RPCs, the end of pass). */
tap_packet_status iwarp_tap_no_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				      tap_flags_t flags);
/* Keep the TCP conversation handing its payloads to us (an upper layer such
 * as RPC may claim it). */
void iwarp_keep_conversation(packet_info *pinfo, iwarp_conv *ic);

/* The "iwarp" tap (registered here, read by iwarp-stats.c): each frame's
 * finished operations and NVMe commands (iwarp_frame_rec), and
 * iwarp_capture_end on the last frame of the second pass. */
extern int iwarp_tap;

#endif
