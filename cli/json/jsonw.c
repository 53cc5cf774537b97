// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON writer (see jsonw.h). */
#include "jsonw.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/safetext.h"

void jw_init(struct jsonw *j, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->pretty = pretty;
}

void jw_free(struct jsonw *j)
{
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

void jw_reset(struct jsonw *j)
{
	j->len = 0;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

static bool room(struct jsonw *j, size_t n)
{
	if (j->cap - j->len >= n + 1)
		return true;
	size_t cap = j->cap ? j->cap : 1024;
	while (cap - j->len < n + 1)
		cap *= 2;
	char *b = realloc(j->buf, cap);
	if (!b) {
		j->oom = true;
		return false;
	}
	j->buf = b;
	j->cap = cap;
	return true;
}

static void put(struct jsonw *j, const char *s, size_t n)
{
	if (!room(j, n))
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static void putc_(struct jsonw *j, char c)
{
	if (!room(j, 1))
		return;
	j->buf[j->len++] = c;
}

static void newline(struct jsonw *j)
{
	if (!j->pretty || j->compact)
		return;
	putc_(j, '\n');
	for (int i = 0; i < j->depth; i++)
		put(j, "  ", 2);
}

/* Before a value (or a key) at the current level. */
static void sep(struct jsonw *j)
{
	if (j->need_comma[j->depth])
		put(j, j->pretty && !j->compact ? "," : ", ", j->pretty && !j->compact ? 1 : 2);
	if (j->depth > 0)
		newline(j);
	j->need_comma[j->depth] = true;
}

static void value_start(struct jsonw *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	sep(j);
}

static void open_(struct jsonw *j, char c)
{
	value_start(j);
	putc_(j, c);
	if (j->depth + 1 < JSONW_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct jsonw *j, char c)
{
	bool had = j->need_comma[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had)
		newline(j);
	if (j->compact && j->depth < j->compact)
		j->compact = 0;
	putc_(j, c);
}

void jw_obj(struct jsonw *j)
{
	open_(j, '{');
}

void jw_obj_end(struct jsonw *j)
{
	close_(j, '}');
}

void jw_arr(struct jsonw *j)
{
	open_(j, '[');
}

void jw_arr_end(struct jsonw *j)
{
	close_(j, ']');
}

void jw_arr_compact(struct jsonw *j)
{
	open_(j, '[');
	if (!j->compact)
		j->compact = j->depth;
}

void jw_raw(struct jsonw *j, const char *text, size_t n)
{
	value_start(j);
	put(j, text, n);
}

/*
 * A string as JSON (RFC 8259 §7): '"' and '\' escaped, controls (C0, DEL and
 * C1) as \u escapes, valid UTF-8 as it is. An octet that is not valid UTF-8
 * (a capture can hold any: an NQN, a file name) becomes the four visible
 * characters \xNN, as in text (iwarpscope/safetext.h): the output is
 * always valid UTF-8, and the octet's value is kept.
 */
static void put_escaped(struct jsonw *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	putc_(j, '"');
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	while (n) {
		size_t k = iws_utf8_seq_len(p, n);
		if (!k) {
			char e[5] = { '\\', '\\', 'x', hex[*p >> 4], hex[*p & 15] };
			put(j, e, 5);
			k = 1;
		} else if (*p == '"' || *p == '\\') {
			putc_(j, '\\');
			putc_(j, (char)*p);
		} else if (iws_text_is_control(p, k)) {
			uint32_t c = k == 1 ? *p : (uint32_t)(p[1] & 0x3f) | 0x80;
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			put(j, e, 6);
		} else {
			put(j, (const char *)p, k);
		}
		p += k;
		n -= k;
	}
	putc_(j, '"');
}

void jw_key(struct jsonw *j, const char *k)
{
	sep(j);
	put_escaped(j, k);
	put(j, ": ", 2);
	j->after_key = true;
}

static void put_u64(struct jsonw *j, uint64_t v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(j, tmp + i, sizeof(tmp) - (size_t)i);
}

void jw_u64(struct jsonw *j, uint64_t v)
{
	value_start(j);
	put_u64(j, v);
}

void jw_i64(struct jsonw *j, int64_t v)
{
	value_start(j);
	if (v < 0) {
		putc_(j, '-');
		put_u64(j, (uint64_t)(-(v + 1)) + 1);
	} else {
		put_u64(j, (uint64_t)v);
	}
}

void jw_str(struct jsonw *j, const char *s)
{
	value_start(j);
	put_escaped(j, s);
}

void jw_bool(struct jsonw *j, bool v)
{
	value_start(j);
	if (v)
		put(j, "true", 4);
	else
		put(j, "false", 5);
}

void jw_null(struct jsonw *j)
{
	value_start(j);
	put(j, "null", 4);
}

void jw_ku64(struct jsonw *j, const char *k, uint64_t v)
{
	jw_key(j, k);
	jw_u64(j, v);
}

void jw_ki64(struct jsonw *j, const char *k, int64_t v)
{
	jw_key(j, k);
	jw_i64(j, v);
}

void jw_kstr(struct jsonw *j, const char *k, const char *s)
{
	jw_key(j, k);
	jw_str(j, s);
}

void jw_kbool(struct jsonw *j, const char *k, bool v)
{
	jw_key(j, k);
	jw_bool(j, v);
}

void jw_knull(struct jsonw *j, const char *k)
{
	jw_key(j, k);
	jw_null(j);
}

void jw_kou64(struct jsonw *j, const char *k, bool has, uint64_t v)
{
	jw_key(j, k);
	if (has)
		jw_u64(j, v);
	else
		jw_null(j);
}

void jw_koi64(struct jsonw *j, const char *k, bool has, int64_t v)
{
	jw_key(j, k);
	if (has)
		jw_i64(j, v);
	else
		jw_null(j);
}

void jw_kostr(struct jsonw *j, const char *k, const char *s)
{
	jw_key(j, k);
	if (s)
		jw_str(j, s);
	else
		jw_null(j);
}

void jw_drain(struct jsonw *j, FILE *f)
{
	if (j->len)
		fwrite(j->buf, 1, j->len, f);
	j->len = 0;
}

void jw_drain_html(struct jsonw *j, FILE *f)
{
	size_t from = 0;
	for (size_t i = 0; i < j->len; i++)
		if (j->buf[i] == '<') {
			fwrite(j->buf + from, 1, i - from, f);
			fputs("\\u003c", f);
			from = i + 1;
		}
	fwrite(j->buf + from, 1, j->len - from, f);
	j->len = 0;
}

void jw_flush_line(struct jsonw *j, FILE *f)
{
	if (j->len)
		fwrite(j->buf, 1, j->len, f);
	fputc('\n', f);
	jw_reset(j);
}
