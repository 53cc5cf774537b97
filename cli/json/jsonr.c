// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON reader (see jsonr.h): recursive descent, every read checked
 * against the end of the text, every count against its limit. */
#include "jsonr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/safetext.h"

struct jp {
	struct jr_doc *d;
	size_t pos;
	int depth;
	char *err;
	size_t errlen;
	/* The first pass (false) only checks the text and counts its values:
	 * nothing is stored, the text is not changed. The second (true)
	 * decodes strings in place into nodes allocated to the count. */
	bool build;
	struct jr_node scratch;     /* the first pass's every node */
};

__attribute__((format(printf, 2, 3))) static int fail(struct jp *p, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "at byte %zu: %s", p->pos, msg);
	return -1;
}

/* A new node: its index (the first pass: the scratch node, index 0). */
static int new_node(struct jp *p, uint8_t type, uint32_t *idx)
{
	struct jr_doc *d = p->d;
	if (d->nnodes >= JR_MAX_NODES)
		return fail(p, "more than %u values", JR_MAX_NODES);
	if (p->build && d->nnodes >= d->cap)
		return fail(p, "the text changed between the passes"); /* cannot happen */
	*idx = p->build ? d->nnodes : 0;
	d->nnodes++;
	memset(&d->nodes[*idx], 0, sizeof(struct jr_node));
	d->nodes[*idx].type = type;
	return 0;
}

/* Decoded string octets go to t[w...] in the second pass only. */
static size_t put_str(struct jp *p, size_t w, const char *src, size_t n)
{
	if (p->build)
		memmove(p->d->text + w, src, n);
	return w + n;
}

static void skip_ws(struct jp *p)
{
	const char *t = p->d->text;
	while (p->pos < p->d->len &&
	       (t[p->pos] == ' ' || t[p->pos] == '\t' || t[p->pos] == '\n' || t[p->pos] == '\r'))
		p->pos++;
}

static int hex4(struct jp *p, uint32_t *v)
{
	if (p->d->len - p->pos < 4)
		return fail(p, "short \\u escape");
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->d->text[p->pos++];
		uint32_t x;
		if (c >= '0' && c <= '9')
			x = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			x = (uint32_t)(c - 'A' + 10);
		else
			return fail(p, "bad hex digit in \\u escape");
		*v = *v << 4 | x;
	}
	return 0;
}

static size_t put_utf8(char *w, uint32_t c)
{
	if (c < 0x80) {
		w[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		w[0] = (char)(0xc0 | c >> 6);
		w[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		w[0] = (char)(0xe0 | c >> 12);
		w[1] = (char)(0x80 | (c >> 6 & 0x3f));
		w[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	w[0] = (char)(0xf0 | c >> 18);
	w[1] = (char)(0x80 | (c >> 12 & 0x3f));
	w[2] = (char)(0x80 | (c >> 6 & 0x3f));
	w[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* A string at p->pos (the opening quote), decoded in place: its text starts
 * at *off, NUL-terminated (the decoded text never outgrows the encoded). */
static int parse_string(struct jp *p, uint32_t *off, uint32_t *len)
{
	char *t = p->d->text;
	p->pos++;
	size_t w = p->pos;
	*off = (uint32_t)w;
	for (;;) {
		if (p->pos >= p->d->len)
			return fail(p, "unterminated string");
		unsigned char c = (unsigned char)t[p->pos];
		if (c == '"') {
			p->pos++;
			if (p->build)
				t[w] = 0;
			*len = (uint32_t)(w - *off);
			return 0;
		}
		if (c < 0x20)
			return fail(p, "control character in a string");
		if (c != '\\') {
			size_t k = iws_utf8_seq_len((const unsigned char *)t + p->pos, p->d->len - p->pos);
			if (!k)
				return fail(p, "invalid UTF-8 in a string");
			w = put_str(p, w, t + p->pos, k);
			p->pos += k;
			continue;
		}
		if (++p->pos >= p->d->len)
			return fail(p, "unterminated escape");
		char e = t[p->pos++], ch;
		uint32_t cp;
		switch (e) {
		case '"':
		case '\\':
		case '/':
			w = put_str(p, w, &e, 1);
			continue;
		case 'b':
		case 'f':
		case 'n':
		case 'r':
		case 't':
			ch = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\t';
			w = put_str(p, w, &ch, 1);
			continue;
		case 'u':
			if (hex4(p, &cp))
				return -1;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(p, "lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				uint32_t lo;
				if (p->d->len - p->pos < 2 || t[p->pos] != '\\' || t[p->pos + 1] != 'u')
					return fail(p, "lone high surrogate");
				p->pos += 2;
				if (hex4(p, &lo))
					return -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(p, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (cp == 0)
				return fail(p, "\\u0000 in a string");
			/* at most 4 bytes for the 6 or 12 read */
			char u[4];
			w = put_str(p, w, u, put_utf8(u, cp));
			continue;
		default:
			return fail(p, "bad escape \\%c", e >= 0x20 && e < 0x7f ? e : '?');
		}
	}
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct jp *p, struct jr_node *n)
{
	const char *t = p->d->text;
	size_t s = p->pos, e = p->d->len;
	bool neg = false, integer = true;
	if (t[p->pos] == '-') {
		neg = true;
		p->pos++;
	}
	if (p->pos >= e || !digit(t[p->pos]))
		return fail(p, "bad number");
	if (t[p->pos] == '0')
		p->pos++;
	else
		while (p->pos < e && digit(t[p->pos]))
			p->pos++;
	if (p->pos < e && t[p->pos] == '.') {
		integer = false;
		p->pos++;
		if (p->pos >= e || !digit(t[p->pos]))
			return fail(p, "bad number");
		while (p->pos < e && digit(t[p->pos]))
			p->pos++;
	}
	if (p->pos < e && (t[p->pos] == 'e' || t[p->pos] == 'E')) {
		integer = false;
		p->pos++;
		if (p->pos < e && (t[p->pos] == '+' || t[p->pos] == '-'))
			p->pos++;
		if (p->pos >= e || !digit(t[p->pos]))
			return fail(p, "bad number");
		while (p->pos < e && digit(t[p->pos]))
			p->pos++;
	}
	n->off = (uint32_t)s;
	n->len = (uint32_t)(p->pos - s);
	if (!integer)
		return 0;
	/* the magnitude, as long as it fits 64 bits */
	uint64_t m = 0;
	bool fits = true;
	for (size_t i = s + neg; i < p->pos; i++) {
		uint64_t dgt = (uint64_t)(t[i] - '0');
		if (m > (UINT64_MAX - dgt) / 10) {
			fits = false;
			break;
		}
		m = m * 10 + dgt;
	}
	if (!fits)
		return 0;
	if (!neg) {
		n->has_u64 = true;
		n->has_i64 = m <= (uint64_t)INT64_MAX;
		n->v = m;
	} else if (m <= (uint64_t)INT64_MAX + 1) {
		/* -m in two's complement (the same bits an int64_t holds) */
		n->has_i64 = true;
		n->has_u64 = m == 0;
		n->v = 0 - m;
	}
	return 0;
}

static bool word(struct jp *p, const char *w)
{
	size_t n = strlen(w);
	if (p->d->len - p->pos < n || memcmp(p->d->text + p->pos, w, n))
		return false;
	p->pos += n;
	return true;
}

static int parse_value(struct jp *p, uint32_t *idx);

/* An array or object at p->pos (its opening bracket). */
static int parse_container(struct jp *p, uint32_t idx, bool obj)
{
	char close = obj ? '}' : ']';
	uint32_t last = 0;
	if (++p->depth > JR_MAX_DEPTH)
		return fail(p, "nested deeper than %d levels", JR_MAX_DEPTH);
	p->pos++;
	skip_ws(p);
	if (p->pos < p->d->len && p->d->text[p->pos] == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		uint32_t key = 0, klen, child;
		skip_ws(p);
		if (obj) {
			if (p->pos >= p->d->len || p->d->text[p->pos] != '"')
				return fail(p, "expected a key (a string)");
			if (parse_string(p, &key, &klen))
				return -1;
			skip_ws(p);
			if (p->pos >= p->d->len || p->d->text[p->pos] != ':')
				return fail(p, "expected ':' after a key");
			p->pos++;
		}
		if (parse_value(p, &child))
			return -1;
		/* (a container's first child is the node after it: idx + 1) */
		struct jr_node *nodes = p->d->nodes;
		nodes[child].key = key;
		if (last)
			nodes[last].next = child;
		last = child;
		nodes[idx].n++;
		skip_ws(p);
		if (p->pos >= p->d->len)
			return fail(p, "unterminated %s", obj ? "object" : "array");
		char c = p->d->text[p->pos++];
		if (c == close)
			break;
		if (c != ',')
			return fail(p, "expected ',' or '%c'", close);
	}
	p->depth--;
	return 0;
}

static int parse_value(struct jp *p, uint32_t *idx)
{
	skip_ws(p);
	if (p->pos >= p->d->len)
		return fail(p, "expected a value, found the end");
	char c = p->d->text[p->pos];
	switch (c) {
	case '{':
	case '[':
		if (new_node(p, c == '{' ? JR_OBJECT : JR_ARRAY, idx))
			return -1;
		return parse_container(p, *idx, c == '{');
	case '"': {
		uint32_t off, len;
		if (new_node(p, JR_STRING, idx) || parse_string(p, &off, &len))
			return -1;
		p->d->nodes[*idx].off = off;
		p->d->nodes[*idx].len = len;
		return 0;
	}
	case 't':
	case 'f':
	case 'n':
		if (word(p, "true") || word(p, "false")) {
			if (new_node(p, JR_BOOL, idx))
				return -1;
			p->d->nodes[*idx].b = c == 't';
			return 0;
		}
		if (word(p, "null"))
			return new_node(p, JR_NULL, idx);
		return fail(p, "unexpected word");
	default:
		if (c == '-' || digit(c)) {
			if (new_node(p, JR_NUMBER, idx))
				return -1;
			return parse_number(p, &p->d->nodes[*idx]);
		}
		return fail(p, "unexpected character 0x%02x", (unsigned char)c);
	}
}

/* One pass over d->text (see struct jp). */
static int parse_pass(struct jr_doc *d, bool build, char *err, size_t errlen)
{
	struct jp p = { .d = d, .err = err, .errlen = errlen, .build = build };
	d->nnodes = 0;
	if (!build)
		d->nodes = &p.scratch;
	/* the root is node 0: no child has index 0, which means "none" */
	uint32_t root;
	int rc = parse_value(&p, &root);
	if (!rc) {
		skip_ws(&p);
		if (p.pos != d->len)
			rc = fail(&p, "text after the end of the document");
	}
	if (!build)
		d->nodes = NULL;
	return rc;
}

/* Parse text (malloc'ed, len octets and room for a NUL), which d owns from
 * now on. A first pass checks it and counts its values in constant memory;
 * the nodes are allocated once, to the count (budget as in jr_load). */
static int parse_owned(struct jr_doc *d, char *text, size_t len, uint64_t *budget, char *err,
		       size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->text = text;
	d->len = len;
	text[len] = 0;
	if (parse_pass(d, false, err, errlen))
		goto bad;
	uint64_t need = (uint64_t)len + (uint64_t)d->nnodes * sizeof(struct jr_node);
	if (budget && need > *budget) {
		snprintf(err, errlen, "%u values in %zu bytes need %llu MiB, more than merge has left "
			 "(%u MiB for all inputs together)", d->nnodes, len,
			 (unsigned long long)(need >> 20), JR_MERGE_BUDGET >> 20);
		goto bad;
	}
	d->cap = d->nnodes;
	d->nodes = malloc((size_t)d->cap * sizeof(*d->nodes));
	if (!d->nodes) {
		snprintf(err, errlen, "out of memory");
		goto bad;
	}
	if (parse_pass(d, true, err, errlen))
		goto bad;
	if (budget)
		*budget -= need;
	return 0;
bad:
	jr_free(d);
	return -1;
}

int jr_adopt(struct jr_doc *d, char *text, size_t len, char *err, size_t errlen)
{
	return parse_owned(d, text, len, NULL, err, errlen);
}

int jr_parse(struct jr_doc *d, const char *buf, size_t len, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	if (len > JR_MAX_BYTES) {
		snprintf(err, errlen, "at byte 0: longer than %u bytes", JR_MAX_BYTES);
		return -1;
	}
	char *text = malloc(len + 1);
	if (!text) {
		snprintf(err, errlen, "at byte 0: out of memory");
		return -1;
	}
	memcpy(text, buf, len);
	return parse_owned(d, text, len, NULL, err, errlen);
}

int jr_load(struct jr_doc *d, const char *path, const char *shown, uint64_t *budget, char *err,
	    size_t errlen)
{
	memset(d, 0, sizeof(*d));
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		return -1;
	}
	uint64_t limit = budget && *budget < JR_MAX_BYTES ? *budget : JR_MAX_BYTES;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	int rc = -1;
	char msg[200];
	while (buf) {
		if (len == cap) {
			if (cap >= limit) {
				snprintf(err, errlen, "%s: longer than %llu bytes%s", shown,
					 (unsigned long long)limit,
					 limit < JR_MAX_BYTES ? " (what merge has left for its inputs)" : "");
				goto out;
			}
			char *b = realloc(buf, cap * 2 + 1);
			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", shown);
		goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", shown);
		goto out;
	}
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file (no JSON)", shown);
		goto out;
	}
	/* the text read is the document's: not copied again */
	rc = parse_owned(d, buf, len, budget, msg, sizeof(msg));
	buf = NULL;
	if (rc)
		snprintf(err, errlen, "%s: %s%s", shown, strncmp(msg, "at byte", 7) ? "" : "not valid JSON ",
			 msg);
out:
	free(buf);
	if (!std)
		fclose(f);
	return rc;
}

void jr_free(struct jr_doc *d)
{
	free(d->text);
	free(d->nodes);
	memset(d, 0, sizeof(*d));
}

const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n)
{
	(void)d;
	if (!n || (n->type != JR_ARRAY && n->type != JR_OBJECT) || !n->n)
		return NULL;
	return n + 1; /* a container's first child is the node after it */
}

const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n)
{
	return n && n->next ? &d->nodes[n->next] : NULL;
}

const struct jr_node *jr_get(const struct jr_doc *d, const struct jr_node *n, const char *key)
{
	if (!n || n->type != JR_OBJECT)
		return NULL;
	for (const struct jr_node *c = jr_first(d, n); c; c = jr_next(d, c))
		if (strcmp(d->text + c->key, key) == 0)
			return c;
	return NULL;
}

const char *jr_key(const struct jr_doc *d, const struct jr_node *n)
{
	return n && n->key ? d->text + n->key : "";
}

const char *jr_str(const struct jr_doc *d, const struct jr_node *n)
{
	return n && n->type == JR_STRING ? d->text + n->off : NULL;
}

bool jr_u64(const struct jr_node *n, uint64_t *v)
{
	if (!n || n->type != JR_NUMBER || !n->has_u64)
		return false;
	*v = n->v;
	return true;
}

bool jr_i64(const struct jr_node *n, int64_t *v)
{
	if (!n || n->type != JR_NUMBER || !n->has_i64)
		return false;
	int64_t x;
	memcpy(&x, &n->v, sizeof(x));
	*v = x;
	return true;
}
