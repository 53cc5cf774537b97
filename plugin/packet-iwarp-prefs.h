// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-prefs.h - the plugin's preferences, one struct every layer
 * reads (packet-iwarp-prefs.c keeps it; the layers' register functions
 * register each preference with its own protocol's module).
 */
#ifndef IWARPSCOPE_PACKET_IWARP_PREFS_H
#define IWARPSCOPE_PACKET_IWARP_PREFS_H

#include "ws-compat.h"

/* Preferences of iwarp.mpa, iwarp.ddp and iwarp.rdmap: each file registers
 * its own, all are kept here, below every layer that reads them. */
struct iwarp_prefs {
	iwarp_pref_bool check_crc;          /* verify negotiated CRCs */
	iwarp_pref_bool keep_builtin;       /* leave Wireshark's iwarp_mpa heuristic enabled */
	iwarp_pref_bool reassemble_untagged;/* reassemble Send messages by MSN and MO */
	iwarp_pref_bool offer_builtin_ulp;  /* hand payloads to the iwarp_ddp_rdmap heuristic list */
	iwarp_pref_bool legacy_ird_ord;     /* decode Rev 1 8-octet private data as SMB Direct IRD/ORD */
};
extern struct iwarp_prefs iwarp_prefs;

#endif
