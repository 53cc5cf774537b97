// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * safetext.h - strings that come from outside (an NVMe NQN in a capture, a
 * file name, a string in another host's statistics) made safe to show. A
 * capture can carry any octets: an ESC or a CSI would drive the reader's
 * terminal, a CR or LF would forge a line of a report (a fake "! ..."
 * finding), an invalid UTF-8 octet would make JSON unreadable. One rule for
 * both front ends, the CLI's text (cli/common/textsafe.h) and the plugin's
 * field values (docs/semantics.md, "Strings from the capture";
 * docs/plugin.md, "Captured strings"):
 *
 *   - valid UTF-8 printable text passes unchanged;
 *   - C0 controls (including TAB, LF, CR), DEL and the C1 controls
 *     (U+0080..U+009F, which some terminals obey as ESC sequences) are shown
 *     as visible escapes of their octets: \x1b, \x0a, \xc2\x9b;
 *   - an octet that is not part of valid UTF-8 is shown as \xNN.
 *
 * The result is valid UTF-8 without control characters.
 */
#ifndef IWARPSCOPE_SAFETEXT_H
#define IWARPSCOPE_SAFETEXT_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length of the valid UTF-8 sequence at s (at most n octets), 0 when
 * it is not one (overlong forms, surrogates, past U+10FFFF refused). */
size_t iws_utf8_seq_len(const unsigned char *s, size_t n);

/* Does the UTF-8 sequence at s (of len octets, valid) need an escape in
 * text: a C0 or C1 control or DEL? */
bool iws_text_is_control(const unsigned char *s, size_t len);

/* Takes one piece of the safe form; false stops the walk (the piece did not
 * fit: the result is cut before it, at a character boundary). */
typedef bool (*iws_text_put)(void *ctx, const char *piece, size_t n);

/* The safe form of the n octets at s, handed to put piece by piece: a valid
 * character as it is, an escape (four octets "\xNN") per octet of a control
 * or of invalid UTF-8. At most four octets out per octet in. */
void iws_text_safe(const char *s, size_t n, iws_text_put put, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
