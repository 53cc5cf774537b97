// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-text.c - text every file of the plugin writes the same way:
 * the Info column's separator and its text, durations.
 */
#include <epan/packet.h>

#include <inttypes.h>
#include <stdarg.h>

#include "packet-iwarp-text.h"

void iwarp_col_append(packet_info *pinfo, const char *text)
{
	col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", text);
}

/* col_append_sep_str() writes where col_get_writable() says Info is there
 * and writable: without columns (tshark -q, -V, a statistics pass) the text
 * would be made for nothing. */
wmem_strbuf_t *iwarp_info_new(packet_info *pinfo, const char *start)
{
	return col_get_writable(pinfo->cinfo, COL_INFO) ? wmem_strbuf_new(pinfo->pool, start) : NULL;
}

void iwarp_info_add(wmem_strbuf_t *info, const char *s)
{
	if (info)
		wmem_strbuf_append(info, s);
}

void iwarp_info_printf(wmem_strbuf_t *info, const char *fmt, ...)
{
	if (!info)
		return;
	va_list ap;
	va_start(ap, fmt);
	wmem_strbuf_append_vprintf(info, fmt, ap);
	va_end(ap);
}

void iwarp_col_append_printf(packet_info *pinfo, const char *fmt, ...)
{
	if (!col_get_writable(pinfo->cinfo, COL_INFO))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = wmem_strdup_vprintf(pinfo->pool, fmt, ap);
	va_end(ap);
	iwarp_col_append(pinfo, s);
}

void iwarp_info_col(packet_info *pinfo, wmem_strbuf_t *info)
{
	if (info)
		iwarp_col_append(pinfo, wmem_strbuf_get_str(info));
}

const char *iwarp_fmt_ns(wmem_allocator_t *scope, gint64 ns)
{
	if (ns < 1000 && ns > -1000)
		return wmem_strdup_printf(scope, "%" PRId64 " ns", ns);
	if (ns < 10000000 && ns > -10000000)
		return wmem_strdup_printf(scope, "%" PRId64 " \xc2\xb5s", (ns + (ns >= 0 ? 500 : -500)) / 1000);
	return wmem_strdup_printf(scope, "%.3f ms", (double)ns / 1e6);
}
