// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin.c - registration of the iwarpscope Wireshark plugin: it calls every
 * file's register and hand-off function (the protocols iwarp.mpa, iwarp.ddp,
 * iwarp.rdmap, iwarp.nvme and iwarp, the tap and its statistics), and holds
 * the symbols Wireshark looks for in an epan plugin.
 */
#define WS_BUILD_DLL
#include <ws_symbol_export.h>
#include <ws_version.h>
#include <epan/packet.h>
#include <epan/proto.h>
#if __has_include(<wsutil/plugins.h>)
#include <wsutil/plugins.h>
#endif

#include "iwarp-stats.h"
#include "iwarp-stats-doctor.h"
#include "iwarp-stats-gui.h"
#include "packet-iwarp-ddp.h"
#include "packet-iwarp-doctor.h"
#include "packet-iwarp-layers.h"
#include "packet-iwarp-mpa.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-rdmap.h"
#include "packet-iwarp-rpc.h"
#include "packet-iwarp-smb.h"
#include "packet-iwarp-stream.h"
#include "packet-iwarp-timing.h"

#ifndef IWARPSCOPE_PLUGIN_VERSION
#define IWARPSCOPE_PLUGIN_VERSION IWS_VERSION_STRING
#endif

/* Wireshark loads a plugin built for its own major.minor only: each line
 * (4.0, 4.2, 4.4, 4.6) gets its own build of this one source. */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = IWARPSCOPE_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

/* From 4.2 on Wireshark also asks what kind of plugin this is (About >
 * Plugins, tshark -G plugins): a dissector. Older lines have no such
 * symbol to look up, nor the header that defines the flags. */
#ifdef WS_PLUGIN_DESC_DISSECTOR
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t plugin_describe(void)
{
	return WS_PLUGIN_DESC_DISSECTOR;
}
#endif

void proto_register_iwarp(void);
void proto_reg_handoff_iwarp(void);

/* iwarp.rdmap's preference module also holds the timing preferences. */
static void register_rdmap_timing(void)
{
	module_t *rdmap_prefs = iwarp_rdmap_register();
	iwarp_timing_register(proto_iwarp_rdmap, rdmap_prefs);
}

/* The protocol hierarchy's order of the iWARP stack, bottom up. */
static void register_layers(void)
{
	const int stack[IWARP_LAYERS_STACK] = { proto_iwarp_mpa, proto_iwarp_ddp, proto_iwarp_rdmap };
	iwarp_layers_register(stack);
}

/* Every file registers its own protocol, fields, preferences and taps, in
 * this order: a protocol before what registers under it (its preferences
 * module, its tap, its place in the hierarchy). */
static void (*const registration[])(void) = {
	iwarp_mpa_register,
	iwarp_stream_register,       /* iwarp.mpa's preferences, the postdissector, the "iwarp" tap */
	iwarp_ddp_register,
	register_rdmap_timing,
	iwarp_stats_register,        /* the text statistics of the "iwarp" tap */
	iwarp_stats_gui_register,
	iwarp_nvme_register,
	iwarp_rpc_register,
	iwarp_smb_register,
	register_layers,
	iwarp_doctor_register,
	iwarp_stats_doctor_register, /* tshark -z iwarp,doctor */
};

static void (*const handoff[])(void) = {
	iwarp_stream_handoff,
	iwarp_ddp_handoff,
	iwarp_rdmap_handoff,
};

void proto_register_iwarp(void)
{
	for (size_t k = 0; k < G_N_ELEMENTS(registration); k++)
		registration[k]();
}

void proto_reg_handoff_iwarp(void)
{
	for (size_t k = 0; k < G_N_ELEMENTS(handoff); k++)
		handoff[k]();
}

void plugin_register(void)
{
	static proto_plugin plug;
	plug.register_protoinfo = proto_register_iwarp;
	plug.register_handoff = proto_reg_handoff_iwarp;
	proto_register_plugin(&plug);
}
