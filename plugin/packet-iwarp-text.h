// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-text.h - text the plugin's files write the same way
 * (packet-iwarp-text.c): the Info column, durations.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_TEXT_H
#define IWARPSCOPE_PACKET_IWARP_TEXT_H

#include <epan/packet.h>

/* Info column text for a PDU or for octets not decoded. */
void iwarp_col_append(packet_info *pinfo, const char *text);
/* A duration for the Info column: "41 µs", "812 ns", "12.345 ms". */
const char *iwarp_fmt_ns(wmem_allocator_t *scope, gint64 ns);

#endif
