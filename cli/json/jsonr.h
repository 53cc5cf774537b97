// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonr.h - a small, bounded, checked JSON reader for `iwarpscope merge`:
 * RFC 8259 text to a tree of nodes in one array. Strings are decoded (UTF-8
 * checked, \u escapes and surrogate pairs; \u0000 refused) into the reader's
 * own copy of the text; numbers keep their text, and integers also their
 * value. Limits: JR_MAX_BYTES of text, JR_MAX_DEPTH levels, JR_MAX_NODES
 * values; past one the document is refused with a message, never cut.
 */
#ifndef IWS_CLI_JSONR_H
#define IWS_CLI_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JR_MAX_BYTES (512u << 20)
#define JR_MAX_DEPTH 14             /* the writer (jsonw.h) nests up to 16 */
#define JR_MAX_NODES (64u << 20)

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

/* 32 octets a value: the memory of a document is its text plus this per
 * value (docs/robustness.md). */
struct jr_node {
	uint8_t type;
	bool b;                     /* JR_BOOL */
	bool has_i64, has_u64;      /* JR_NUMBER: an integer that fits (value in v) */
	uint32_t key;               /* object members: offset of the decoded key */
	uint32_t off, len;          /* string: decoded text; number: its text */
	uint32_t next;              /* next sibling (0: none); the first child is the
				     * node after its container */
	uint32_t n;                 /* arrays and objects: number of children */
	uint64_t v;                 /* the integer's bits (as u64, or two's complement) */
};

struct jr_doc {
	char *text;                 /* the reader's copy, strings decoded in place */
	size_t len;
	struct jr_node *nodes;      /* nodes[0] is the root */
	uint32_t nnodes, cap;
};

/* What `iwarpscope merge` holds of its inputs together: their text plus 32
 * octets a value (jr_load's budget). */
#define JR_MERGE_BUDGET (768u << 20)

/*
 * Parse len bytes (copied). The text is read twice: a first pass checks it
 * and counts its values without storing anything, then the nodes are
 * allocated once, to the count. 0, or -1 with a message "at byte N: ..." in
 * err.
 */
int jr_parse(struct jr_doc *d, const char *buf, size_t len, char *err, size_t errlen);
/* The same on text that d takes over (malloc'ed, with room for a NUL after
 * its len octets; freed by jr_free, also when parsing fails). */
int jr_adopt(struct jr_doc *d, char *text, size_t len, char *err, size_t errlen);
/* Read a whole file ("-": stdin) and parse it (its text is not copied
 * again); messages name it as shown. budget (NULL: none): memory left, in
 * octets, for text plus nodes: a document that needs more is refused after
 * the first pass, before any node is allocated, and what it takes is
 * subtracted. */
int jr_load(struct jr_doc *d, const char *path, const char *shown, uint64_t *budget, char *err,
	    size_t errlen);
void jr_free(struct jr_doc *d);

static inline const struct jr_node *jr_root(const struct jr_doc *d)
{
	return &d->nodes[0];
}
/* Children of an array or object, in order; NULL after the last. */
const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n);
const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n);
/* The first member named key of an object (NULL: none, or n is no object). */
const struct jr_node *jr_get(const struct jr_doc *d, const struct jr_node *n, const char *key);
/* A member's key ("" for none), a string's text (NUL-terminated; NULL when
 * n is no string). Every accessor takes NULL, so lookups chain: a merged
 * file is input, and a missing member must not be a crash. */
const char *jr_key(const struct jr_doc *d, const struct jr_node *n);
const char *jr_str(const struct jr_doc *d, const struct jr_node *n);
/* Integers: false when n is no integer or it does not fit. */
bool jr_u64(const struct jr_node *n, uint64_t *v);
bool jr_i64(const struct jr_node *n, int64_t *v);

#endif
