// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-text.c - text every file of the plugin writes the same way:
 * the Info column's separator, durations.
 */
#include <epan/packet.h>

#include <inttypes.h>

#include "packet-iwarp-text.h"

void iwarp_col_append(packet_info *pinfo, const char *text)
{
	col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", text);
}

const char *iwarp_fmt_ns(wmem_allocator_t *scope, gint64 ns)
{
	if (ns < 1000 && ns > -1000)
		return wmem_strdup_printf(scope, "%" PRId64 " ns", ns);
	if (ns < 10000000 && ns > -10000000)
		return wmem_strdup_printf(scope, "%" PRId64 " \xc2\xb5s", (ns + (ns >= 0 ? 500 : -500)) / 1000);
	return wmem_strdup_printf(scope, "%.3f ms", (double)ns / 1e6);
}
