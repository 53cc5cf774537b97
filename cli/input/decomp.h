// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decomp.h - compressed capture files read transparently. A capture is
 * recognised by its first octets (its magic number), never by its name:
 * gzip (RFC 1952: 1f 8b) and, when built with libzstd, Zstandard
 * (RFC 8878: 28 b5 2f fd). The result is a stdio stream of the
 * decompressed octets that libpcap reads with pcap_fopen_offline like any
 * other file, so pcap and pcapng inside either work.
 *
 * Memory is bounded: a zstd window up to max_window per file, and what the
 * decoders of all open files hold together by their budget: past it, a
 * decoder is spilled (the rest of its file decompressed into a temporary
 * file, read from there, and the decoder freed). libpcap bounds records.
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
 * What the decoders of one source hold together, at most limit octets
 * (each charged its input buffer and state, gzip's window, zstd's window
 * as its frame header asks, before the library allocates it). A decoder
 * that needs more than is left makes room: the others, the largest first,
 * are spilled: each decompresses the rest of its file into one unlinked
 * temporary file ($TMPDIR, else /tmp) and is freed, and its stream goes on
 * from there. The limit must hold the largest single decoder (a window of
 * max_window and 1 MiB). When the temporary file cannot be made or
 * written, the decoders stay (nothing is lost) and
 * decomp_budget_error says why the budget was exceeded.
 */
struct decomp_budget;
/* The budget of a source: two decoders at the largest window,
 * 2 x (max_window + 1 MiB) (258 MiB for the default 128 MiB). */
uint64_t decomp_budget_for(uint64_t max_window);
struct decomp_budget *decomp_budget_new(uint64_t limit);
/* After every stream of the budget is closed. */
void decomp_budget_free(struct decomp_budget *b);
const char *decomp_budget_error(const struct decomp_budget *b);
/* The most the decoders held at once; files spilled and octets written. */
void decomp_budget_figures(const struct decomp_budget *b, uint64_t *peak, uint32_t *files,
			   uint64_t *octets);

/*
 * Look at raw's first octets and return the stream to read: raw itself
 * (rewound) when it is not compressed and can seek; otherwise a new stream
 * (*dc set) that owns raw and closes it when it is closed (close_raw false:
 * raw is left open, for stdin); closing it frees the decoder and its window.
 * max_window: the largest zstd window accepted, in octets (0: libzstd's
 * default, 128 MiB); a frame asking for more ends the stream with a read
 * error whose message names the window and --max-window. budget: shared
 * with the other streams open at once (NULL: none). NULL on failure,
 * with a one-line message in err (raw is then untouched: the caller closes
 * it).
 */
FILE *decomp_open(FILE *raw, const char *name, bool close_raw, uint64_t max_window,
		  struct decomp_budget *budget, enum decomp_kind *kind, struct decomp **dc, char *err,
		  size_t errlen);


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
