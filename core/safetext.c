// SPDX-License-Identifier: GPL-2.0-or-later
/* Strings from outside made safe to show (see iwarpscope/safetext.h). */
#include "iwarpscope/safetext.h"

#include <stdint.h>

size_t iws_utf8_seq_len(const unsigned char *s, size_t n)
{
	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t k;
	uint32_t c, min;
	if ((s[0] & 0xe0) == 0xc0)
		k = 2, c = s[0] & 0x1fu, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		k = 3, c = s[0] & 0x0fu, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		k = 4, c = s[0] & 0x07u, min = 0x10000;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	/* RFC 3629 §3: no overlong forms, no surrogates, nothing past U+10FFFF */
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return k;
}

bool iws_text_is_control(const unsigned char *s, size_t len)
{
	if (len == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	/* U+0080..U+009F are encoded C2 80 .. C2 9F */
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

void iws_text_safe(const char *s, size_t n, iws_text_put put, void *ctx)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	while (n) {
		size_t k = iws_utf8_seq_len(p, n);
		if (k && !iws_text_is_control(p, k)) {
			if (!put(ctx, (const char *)p, k))
				return;
		} else {
			/* a control: each of its octets; invalid: this octet */
			size_t m = k ? k : 1;
			for (size_t i = 0; i < m; i++) {
				char e[4] = { '\\', 'x', hex[p[i] >> 4], hex[p[i] & 15] };
				if (!put(ctx, e, 4))
					return;
			}
			k = m;
		}
		p += k;
		n -= k;
	}
}
