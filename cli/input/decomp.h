// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decomp.h - compressed capture files read transparently. A capture is
 * recognised by its first octets (its magic number), never by its name:
 * gzip (RFC 1952: 1f 8b) and, when built with libzstd, Zstandard
 * (RFC 8878: 28 b5 2f fd). The result is a stdio stream of the
 * decompressed octets that libpcap reads with pcap_fopen_offline like any
 * other file, so pcap and pcapng inside either work.
 *
 * Memory is bounded: one input buffer per open file, a zstd window up to
 * max_window (libpcap bounds records).
 * Damaged compressed data (a corrupt block, a file cut short) ends the
 * stream with a read error; everything decompressed before it has been
 * delivered, and decomp_error() says what went wrong, for the report.
 */
#ifndef IWS_CLI_DECOMP_H
#define IWS_CLI_DECOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum decomp_kind { DECOMP_NONE = 0, DECOMP_GZIP, DECOMP_ZSTD };

struct decomp;

/*
 * Look at raw's first octets and return the stream to read: raw itself
 * (rewound) when it is not compressed and can seek; otherwise a new stream
 * (*dc set) that owns raw and closes it when it is closed (close_raw false:
 * raw is left open, for stdin); closing it frees the decoder and its window.
 * max_window: the largest zstd window accepted, in octets (0: libzstd's
 * default, 128 MiB); a frame asking for more ends the stream with a read
 * error whose message names the window and --max-window. NULL on failure,
 * with a one-line message in err (raw is then untouched: the caller closes
 * it).
 */
FILE *decomp_open(FILE *raw, const char *name, bool close_raw, uint64_t max_window,
		  enum decomp_kind *kind, struct decomp **dc, char *err, size_t errlen);

/* The stream ended because a zstd window was above max_window. */
bool decomp_window_refused(const struct decomp *dc);

/* What ended the stream early, NULL if nothing: *fatal (may be NULL) true
 * for damage (corrupt or truncated data: a read error), false for a note
 * (data after the end of the compressed stream, ignored). */
const char *decomp_error(const struct decomp *dc, bool *fatal);

/* Compressed octets read so far, the magic's included (for a progress bar;
 * error messages count the same way). */
uint64_t decomp_raw_pos(const struct decomp *dc);

const char *decomp_name(enum decomp_kind k);

/* The kind a buffer's first n octets announce (n >= 4 to tell them all). */
enum decomp_kind decomp_sniff(const uint8_t *p, size_t n);

#endif
