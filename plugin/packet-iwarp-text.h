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
void iwarp_col_append_printf(packet_info *pinfo, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* A PDU's Info text built piece by piece: made only where the Info column
 * is filled in, NULL elsewhere; the calls below do nothing with NULL. */
wmem_strbuf_t *iwarp_info_new(packet_info *pinfo, const char *start);
void iwarp_info_add(wmem_strbuf_t *info, const char *s);
void iwarp_info_printf(wmem_strbuf_t *info, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Appends the text to the Info column. */
void iwarp_info_col(packet_info *pinfo, wmem_strbuf_t *info);
/* A duration for the Info column: "41 µs", "812 ns", "12.345 ms". */
const char *iwarp_fmt_ns(wmem_allocator_t *scope, gint64 ns);

#endif
