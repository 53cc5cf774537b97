// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * textsafe.h - strings that come from outside (an NVMe NQN in a capture, a
 * file name, a string in another host's statistics) made safe to print, by
 * the core's rule (iwarpscope/safetext.h, the plugin's too): valid UTF-8
 * printable text unchanged; C0 controls (TAB, LF, CR too), DEL and the C1
 * controls U+0080..U+009F as visible escapes of their octets (\x1b, \x0a,
 * \xc2\x9b); an octet that is not part of valid UTF-8 as \xNN
 * (docs/semantics.md, "Strings from the capture").
 *
 * The result is valid UTF-8 without control characters, so the JSON writer
 * (jsonw.h) uses the same rule for invalid octets and stays valid.
 */
#ifndef IWS_CLI_TEXTSAFE_H
#define IWS_CLI_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "iwarpscope/safetext.h"

/* s made safe into buf (len octets with the NUL; a longer result is cut at
 * a character boundary). Returns buf. */
const char *text_safe(char *buf, size_t len, const char *s);

/* s made safe, in a new allocation (NULL: out of memory). */
char *text_safe_dup(const char *s);

/* s made safe, written to f. */
void text_safe_put(FILE *f, const char *s);

#endif
