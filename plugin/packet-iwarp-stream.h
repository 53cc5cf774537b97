// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-stream.h - the driver of the plugin (packet-iwarp-stream.c)
 * and the preferences it keeps.
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

#include "packet-iwarp-state.h"
#include "ws-compat.h"

/* Preferences of iwarp.mpa, iwarp.ddp and iwarp.rdmap (registered by
 * their files, kept here). */
struct iwarp_prefs {
	iwarp_pref_bool check_crc;          /* verify negotiated CRCs */
	iwarp_pref_bool keep_builtin;       /* leave Wireshark's iwarp_mpa heuristic enabled */
	iwarp_pref_bool reassemble_untagged;/* reassemble Send messages by MSN and MO */
	iwarp_pref_bool offer_builtin_ulp;  /* hand payloads to the iwarp_ddp_rdmap heuristic list */
	iwarp_pref_bool legacy_ird_ord;     /* decode Rev 1 8-octet private data as SMB Direct IRD/ORD */
};
extern struct iwarp_prefs iwarp_prefs;

void iwarp_stream_register(void);
void iwarp_stream_handoff(void);
/* The sequential (first) pass over the file is over: finish every engine
 * (once). */
void iwarp_sequential_pass_over(void);
/* Keep the TCP conversation handing its payloads to us (an upper layer such
 * as RPC may claim it). */
void iwarp_keep_conversation(packet_info *pinfo, iwarp_conv *ic);

/* The frame being fed on the first pass (NULL at the end of the capture). */
iwarp_frame_rec *iwarp_feeding_frame(void);
/* The record of frame num, made for the connection being fed if it has none
 * (first pass). */
iwarp_frame_rec *iwarp_frame_record(guint32 num);

#endif
