// SPDX-License-Identifier: GPL-2.0-or-later
/* The plugin's preferences and their defaults (packet-iwarp-prefs.h). */
#include "packet-iwarp-prefs.h"

struct iwarp_prefs iwarp_prefs = {
	.check_crc = TRUE,
	.keep_builtin = FALSE,
	.reassemble_untagged = TRUE,
	.offer_builtin_ulp = TRUE,
	.legacy_ird_ord = TRUE,
};
