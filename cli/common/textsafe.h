// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * textsafe.h - strings that come from outside (an NVMe NQN in a capture, a
 * file name, a string in another host's statistics) made safe to print.
 * A capture can carry any octets: an ESC or a CSI would drive the reader's
 * terminal, a CR or LF would forge a line of the report (a fake "! ..."
 * finding), an invalid UTF-8 octet would make JSON unreadable. The rules
 * (docs/semantics.md, "Strings from the capture"):
 *
 *   - valid UTF-8 printable text passes unchanged;
 *   - C0 controls (including TAB, LF, CR), DEL and the C1 controls
 *     (U+0080..U+009F, which some terminals obey as ESC sequences) are shown
 *     as visible escapes of their octets: \x1b, \x0a, \xc2\x9b;
 *   - an octet that is not part of valid UTF-8 is shown as \xNN.
 *
 * The result is valid UTF-8 without control characters, so the JSON writer
 * (jsonw.h) uses the same rule for invalid octets and stays valid.
 */
#ifndef IWS_CLI_TEXTSAFE_H
#define IWS_CLI_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at s (at most n octets), 0 when
 * it is not one (overlong forms, surrogates, past U+10FFFF refused). */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* Does the UTF-8 sequence at s (of len octets, valid) need an escape in
 * text: a C0 or C1 control or DEL? */
bool text_is_control(const unsigned char *s, size_t len);

/* s made safe into buf (len octets with the NUL; a longer result is cut at
 * a character boundary). Returns buf. */
const char *text_safe(char *buf, size_t len, const char *s);

/* s made safe, in a new allocation (NULL: out of memory). */
char *text_safe_dup(const char *s);

/* s made safe, written to f. */
void text_safe_put(FILE *f, const char *s);

#endif
