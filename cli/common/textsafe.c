// SPDX-License-Identifier: GPL-2.0-or-later
/* Strings from outside made safe to print (see textsafe.h): the core's rule
 * into a buffer or a file. */
#include "textsafe.h"

#include <stdlib.h>
#include <string.h>

struct bufctx {
	char *buf;
	size_t len, used;
};

static bool put_buf(void *ctx, const char *p, size_t n)
{
	struct bufctx *b = ctx;
	if (b->used + n + 1 > b->len)
		return false; /* cut before a piece that does not fit whole */
	memcpy(b->buf + b->used, p, n);
	b->used += n;
	return true;
}

const char *text_safe(char *buf, size_t len, const char *s)
{
	struct bufctx b = { buf, len, 0 };
	if (!len)
		return buf;
	if (s)
		iws_text_safe(s, strlen(s), put_buf, &b);
	buf[b.used] = 0;
	return buf;
}

char *text_safe_dup(const char *s)
{
	/* at most four octets out per octet in */
	size_t len = strlen(s) * 4 + 1;
	char *buf = malloc(len);
	return buf ? (char *)text_safe(buf, len, s) : NULL;
}

static bool put_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, ctx);
	return true;
}

void text_safe_put(FILE *f, const char *s)
{
	if (s)
		iws_text_safe(s, strlen(s), put_file, f);
}
