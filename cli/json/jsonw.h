// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonw.h - a small JSON writer: values are appended to a growable buffer
 * with commas and nesting handled here, then written out in one call. Fast
 * enough for one line per FPDU; no floating point (every number iwarpscope
 * prints as JSON is an integer).
 */
#ifndef IWS_CLI_JSONW_H
#define IWS_CLI_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_DEPTH 16

struct jsonw {
	char *buf;
	size_t len, cap;
	int depth;
	bool need_comma[JSONW_DEPTH];
	bool after_key;             /* a key was written, its value comes next */
	bool oom;
	bool pretty;                /* newlines and indentation (stats) */
	int compact;                /* depth of an array written on one line (0: none) */
};

void jw_init(struct jsonw *j, bool pretty);
void jw_free(struct jsonw *j);
void jw_reset(struct jsonw *j);

void jw_obj(struct jsonw *j);          /* { */
void jw_obj_end(struct jsonw *j);      /* } */
void jw_arr(struct jsonw *j);          /* [ */
void jw_arr_end(struct jsonw *j);      /* ] */
/* [ an array of numbers kept on one line even when pretty; ends with
 * jw_arr_end. */
void jw_arr_compact(struct jsonw *j);
/* A value already encoded as JSON (a number's text, copied through). */
void jw_raw(struct jsonw *j, const char *text, size_t n);
void jw_key(struct jsonw *j, const char *k);
void jw_u64(struct jsonw *j, uint64_t v);
void jw_i64(struct jsonw *j, int64_t v);
void jw_str(struct jsonw *j, const char *s);
void jw_bool(struct jsonw *j, bool v);
void jw_null(struct jsonw *j);

/* key + value shorthands */
void jw_ku64(struct jsonw *j, const char *k, uint64_t v);
void jw_ki64(struct jsonw *j, const char *k, int64_t v);
void jw_kstr(struct jsonw *j, const char *k, const char *s);
void jw_kbool(struct jsonw *j, const char *k, bool v);
void jw_knull(struct jsonw *j, const char *k);
/* the value, or null when !has */
void jw_kou64(struct jsonw *j, const char *k, bool has, uint64_t v);
void jw_koi64(struct jsonw *j, const char *k, bool has, int64_t v);
void jw_kostr(struct jsonw *j, const char *k, const char *s);

/* Write the buffer (plus a newline) and empty it. */
void jw_flush_line(struct jsonw *j, FILE *f);
/* Write out what is buffered so far, inside an unfinished value (a large
 * document need not be held whole). */
void jw_drain(struct jsonw *j, FILE *f);

/* jw_drain for JSON inside an HTML <script> element: every '<' (only ever
 * inside a string) is written as \u003c, so no text can end the element. */
void jw_drain_html(struct jsonw *j, FILE *f);

#endif
