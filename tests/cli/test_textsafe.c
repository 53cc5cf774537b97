// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strings from outside on byte vectors (the core's rule, core/safetext.c,
 * as cli/common/textsafe.c writes it): what text shows of controls (C0,
 * DEL, C1), invalid UTF-8 (stray continuation octets, overlong forms,
 * surrogates, past U+10FFFF, sequences cut short) and valid text; cutting
 * at a character boundary; and the JSON writer's strings (jsonw.c):
 * valid UTF-8 out whatever comes in, controls as \u escapes, an invalid octet
 * as the text \xNN.
 */
#include <string.h>

#include "../unit/check.h"
#include "jsonw.h"
#include "textsafe.h"

static void text(const char *in, const char *want)
{
	char buf[256];
	text_safe(buf, sizeof(buf), in);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "text_safe(%s): got '%s', want '%s'\n", in, buf, want);
	CHECK(strcmp(buf, want) == 0);
}

static void json(const char *in, const char *want)
{
	struct jsonw j;
	jw_init(&j, false);
	jw_str(&j, in);
	bool ok = !j.oom && j.len == strlen(want) && memcmp(j.buf, want, j.len) == 0;
	if (!ok)
		fprintf(stderr, "jw_str: got '%.*s', want '%s'\n", (int)j.len, j.buf, want);
	CHECK(ok);
	jw_free(&j);
}

int main(void)
{
	/* controls: C0 (CR, LF, TAB, ESC, BEL), DEL, C1 (U+009B, a CSI) */
	text("a\x1b[31mb", "a\\x1b[31mb");
	text("x\r\n! FAKE", "x\\x0d\\x0a! FAKE");
	text("t\tb\x07\x7f", "t\\x09b\\x07\\x7f");
	text("c1 \xc2\x9b" "2J", "c1 \\xc2\\x9b2J");
	/* valid UTF-8 passes: 2, 3 and 4 octets, U+00A0 (not C1) */
	text("\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* invalid: stray continuation, 0xff, overlong '/', a surrogate, past
	 * U+10FFFF, a sequence cut short by the end and by an ASCII octet */
	text("\x80", "\\x80");
	text("a\xff" "b", "a\\xffb");
	text("\xc0\xaf", "\\xc0\\xaf");
	text("\xed\xa0\x80", "\\xed\\xa0\\x80");
	text("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	text("\xe2\x82", "\\xe2\\x82");
	text("\xe2" "A", "\\xe2A");
	/* cut at a piece boundary: never half an escape or half a character */
	char small[8];
	text_safe(small, sizeof(small), "ab\x1b" "cd");
	CHECK(strcmp(small, "ab\\x1bc") == 0);
	text_safe(small, 5, "abc\xe2\x82\xac");
	CHECK(strcmp(small, "abc") == 0);
	text_safe(small, 1, "abc");
	CHECK(small[0] == 0);
	/* text_safe_dup has room for the worst case: every octet escaped */
	char *d = text_safe_dup("\x1b\x1b\x1b");
	CHECK(d && strcmp(d, "\\x1b\\x1b\\x1b") == 0);
	free(d);
	CHECK_EQ(iws_utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	CHECK_EQ(iws_utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 3), 0);

	/* JSON: quote and backslash escaped, controls as \u, C1 too, invalid
	 * octets as the text \xNN (the string stays valid UTF-8) */
	json("q\"b\\", "\"q\\\"b\\\\\"");
	json("a\x1b\r\n", "\"a\\u001b\\u000d\\u000a\"");
	json("\x7f\xc2\x9b", "\"\\u007f\\u009b\"");
	json("x\xffy", "\"x\\\\xffy\"");
	json("\xc3\xa9\xe2\x82", "\"\xc3\xa9\\\\xe2\\\\x82\"");
	return check_done("test_textsafe");
}
