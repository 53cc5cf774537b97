// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.h - where packets come from: capture files (pcap or pcapng, several
 * merged by time the way mergecap does it), stdin ("-"), or a live interface,
 * all opened by libpcap with nanosecond timestamps; the records of a plain
 * (uncompressed, regular) pcap or pcapng file are read in place from a
 * mapping while fastread.h can read them as libpcap does, then by libpcap.
 *
 * Frame numbers are 1-based record indices in the (merged) input, as
 * Wireshark shows them. A BPF filter is applied with pcap_offline_filter so a
 * filtered-out record still takes its frame number.
 */
#ifndef IWS_CLI_SOURCE_H
#define IWS_CLI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fileid.h"

struct fastread;

struct source_opts {
	const char *const *files;   /* capture files; "-" is stdin */
	int nfiles;
	/* Optional: already open streams to read instead of opening files[i]
	 * (files[i] is then only the name shown in messages; a memory stream
	 * from fmemopen works). The source owns them: source_close closes
	 * them, and so does source_open when it fails. */
	FILE *const *streams;
	const char *iface;          /* live capture instead of files */
	const char *const *notes;   /* warnings found before reading (inputs.h) */
	int nnotes;
	const char *bpf;            /* filter expression, or NULL */
	int snaplen;                /* live capture only; 0: 262144 */
	bool progress;              /* a progress bar if stderr is a terminal */
	const char *save;           /* live only: save every packet captured here (pcap) */
	uint64_t max_window;        /* zstd: largest window accepted (decomp.h; 0: 128 MiB) */
	/* Optional, nfiles entries: each file's identity, recorded when not
	 * known yet, else compared (a change is a warning of the report). */
	struct file_id *ids;
};

struct src_packet {
	uint64_t frame;
	int64_t ts_ns;
	uint32_t caplen, wirelen;
	const uint8_t *data;
	int dlt;                    /* pcap DLT_* of the file the record came from */
	int file;                   /* index in opts->files */
	bool matched;               /* passed the filter (false: seen only so
				     * conversations keep Wireshark's numbers) */
	/* source_hold: data is in this file's mapping (fastread.h), valid
	 * until source_close, its pages kept as fastread_keep says; NULL:
	 * data is valid until the next source_next only */
	struct fastread *mapped;
};

/* Something the source noticed that the report must mention. */
struct source_warning {
	int file;                   /* -1: not tied to a file */
	uint64_t after_frame;       /* last frame read before the problem */
	char text[256];
};

#define SOURCE_MAX_WARNINGS 16

struct source_stats {
	uint64_t records;           /* records read (frames numbered) */
	uint64_t filtered_out;      /* records the BPF filter rejected */
	uint64_t bytes;             /* captured octets of every record */
	uint64_t truncated_files;   /* files that ended inside a record */
	uint64_t read_errors;       /* other read errors that ended a file */
	uint64_t ts_backwards;      /* records older than the one before them */
	uint64_t ts_clamped;        /* timestamps outside 1970..2116, clamped */
	uint64_t live_dropped;      /* live: packets libpcap or the kernel dropped */
	int64_t first_ns, last_ns;  /* timestamps of the first and last record */
	uint32_t n_warnings;
	struct source_warning warnings[SOURCE_MAX_WARNINGS];
};

struct source;

/*
 * Open every input. Each file is opened once at the start, to report an
 * unreadable one before the analysis starts and to read its first record's
 * time; then, with several files, a regular file is closed again until the
 * merge reaches that time (a rotated set is read one file after another,
 * however many files it has), and every file is closed as soon as it ends
 * (its buffers and decompressor freed). An open regular file holds a file
 * descriptor only while it is read (fdpool.h), so files that overlap in
 * time are read whole whatever the descriptor limit. At most
 * SOURCE_MAX_OPEN files are open at once (memory: their buffers and
 * libpcap's): more files that overlap in time end the input with an error
 * (source_error) that says how many frames were not read. Pipes and stdin
 * stay open from the start. On failure returns NULL with a one-line
 * message in err.
 */
#define SOURCE_MAX_OPEN 4096
struct source *source_open(const struct source_opts *o, char *err, size_t errlen);

/* The input ended early on an error that makes the analysis incomplete (too
 * many files open at once): its message, else NULL. */
const char *source_error(const struct source *s);

/* Next record: 1 a packet (p->matched says whether it passed the filter),
 * 0 the end of the input, 2 (live only) a read timeout with no packet. */
int source_next(struct source *s, struct src_packet *p);

/* -j N (cli/cmd/jobs.c): records read in place stay mapped after
 * source_next (src_packet.mapped), for threads that read them later.
 * Only for one file read offline (several are merged record by record, so
 * no one position in a file says what is done with); false: not held,
 * every record's data is valid until the next source_next only. Call
 * before the first source_next. */
bool source_hold(struct source *s);

/* Live capture: make source_next return 0 as soon as possible (signal-safe). */
void source_stop(struct source *s);

const struct source_stats *source_stats(const struct source *s);
/* A file's name as shown (escaped: textsafe.h; "stdin" for "-"). */
const char *source_name(const struct source *s, int file);
int source_nfiles(const struct source *s);
/* Files open now (the one of the record just read among them). */
int source_open_files(const struct source *s);
bool source_is_live(const struct source *s);
/* Live with a save file (source_opts.save): octets written to it so far. */
uint64_t source_saved_bytes(const struct source *s);
/* Live with a save file: write out and close it. false when packets were
 * lost (msg says why and how many); true without a save file. */
bool source_close_save(struct source *s, char *msg, size_t msglen);
/* -D: the interfaces a live capture can use, one a line ("1. lo (Loopback)"). */
bool source_list_interfaces(FILE *f, char *err, size_t errlen);
void source_close(struct source *s);

#endif
