/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ws-compat.h - the few places where Wireshark's plugin API differs between
 * the 4.x lines the plugin builds for (4.0, 4.2, 4.4, 4.6), each named by
 * what it is, not by a version. The macros IWS_WS_* come from
 * cmake/WiresharkFeatures.cmake, which tests the headers and the library
 * found at configure time for each feature (iwarp-ws-features.h in the build
 * tree). docs/plugin.md lists which line has which.
 *
 * Not here because every supported line has it: pinfo->pool (the packet
 * scope; wmem_packet_scope() is gone in 4.6), tap_flags_t, proto_item_set_*.
 */
#ifndef IWARP_WS_COMPAT_H
#define IWARP_WS_COMPAT_H

#include <stdbool.h>

#include <epan/proto.h>

#include "iwarp-ws-features.h"

/* A field's value: embedded in field_info in 4.0, a pointer to an opaque
 * fvalue_t from 4.2 on. IWARP_FI_VALUE(fi) is an fvalue_t * either way. */
#if IWS_WS_FIELD_VALUE_IS_POINTER
#define IWARP_FI_VALUE(fi) ((fi)->value)
#else
#define IWARP_FI_VALUE(fi) (&(fi)->value)
#endif

/* What prefs_register_bool_preference() stores into: a C99 bool from 4.4 on,
 * a gboolean (an int) before. */
#if IWS_WS_PREF_BOOL_IS_BOOL
typedef bool iwarp_pref_bool;
#else
typedef gboolean iwarp_pref_bool;
#endif

/* A text statistic's init callback (stat_tap_ui.tap_init_cb) returns whether
 * it succeeded from 4.6 on, nothing before: declare it as returning
 * iwarp_stat_init_result and end it with `return IWARP_STAT_INIT_OK;`. */
#if IWS_WS_STAT_INIT_RETURNS_BOOL
typedef bool iwarp_stat_init_result;
#define IWARP_STAT_INIT_OK true
#else
typedef void iwarp_stat_init_result;
#define IWARP_STAT_INIT_OK
#endif

/* Replace the value of a string field already in the tree (the frame's
 * frame.protocols). Returns false where this Wireshark offers no way to:
 * the value is then left as it was. */
static inline bool iwarp_fi_set_string(field_info *fi, const char *s)
{
#if IWS_WS_HAVE_FVALUE_SET_STRING
	fvalue_set_string(IWARP_FI_VALUE(fi), s);
	return true;
#elif !IWS_WS_FIELD_VALUE_IS_POINTER
	/* 4.0 exports no fvalue setter, but its fvalue_t is public
	 * (ftypes.h): an FT_STRING value is a string buffer the field owns,
	 * rewritten in place. */
	wmem_strbuf_t *val = fi->value.value.strbuf;
	if (!val)
		return false;
	wmem_strbuf_truncate(val, 0);
	wmem_strbuf_append(val, s);
	return true;
#else
	(void)fi;
	(void)s;
	return false;
#endif
}

#endif /* IWARP_WS_COMPAT_H */
