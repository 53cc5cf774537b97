// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fastread.h - uncompressed pcap and pcapng capture files read in place,
 * without libpcap's copies: the file is mapped (mmap, sequential advice) and
 * each record handed out as a pointer into the mapping. A file cut shorter
 * while it is mapped hands over to libpcap, which reports the cut, at the
 * next record (its pages past the new end read as zeros, no SIGBUS).
 *
 * It is a shortcut in front of libpcap, never a second opinion: the source
 * opens every file with libpcap first (libpcap validates the file header and
 * gives the link type and snapshot length), and fastread reads only the
 * records it can read exactly as libpcap 1.10 would, with the same
 * timestamps, lengths and octets. At the first thing that is not plain (a
 * record or block cut by the end of the file, a captured length above the
 * snapshot length, a pcapng block with a bad length, an interface with
 * another link type or a resolution that is not a power of ten, a
 * timestamp offset, an obsolete Packet Block, ...) it stops with
 * FASTREAD_FALLBACK, and the source lets libpcap go on from that record
 * (libpcap skips the records read so far), so libpcap's own errors and
 * warnings are what the report shows, word for word.
 *
 * pcap (tcpdump's format, pcap-savefile(5)): both byte orders, micro- and
 * nanosecond magic, version 2.4. pcapng (RFC draft-ietf-opsawg-pcapng):
 * SHB, IDB (if_tsresol as a power of ten, if_tsoffset 0), EPB, SPB, other
 * blocks skipped, several sections of the same byte order.
 */
#ifndef IWS_CLI_FASTREAD_H
#define IWS_CLI_FASTREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fastread;

struct fastread_rec {
	int64_t sec;                /* as libpcap's ts.tv_sec */
	int64_t frac;               /* as libpcap's ts.tv_usec with nanosecond precision */
	uint32_t caplen, len;
	const uint8_t *data;        /* valid until the next fastread_next */
};

enum { FASTREAD_END = 0, FASTREAD_RECORD = 1, FASTREAD_FALLBACK = 2 };

/*
 * A reader over a whole file held in memory (base, size: its first octet
 * is the file's). dlt and snapshot are what libpcap reports for it
 * (pcap_datalink, pcap_snapshot). NULL when fastread does not read this
 * file (another format or version, a link type libpcap post-processes):
 * libpcap reads it all.
 */
struct fastread *fastread_mem(const uint8_t *base, size_t size, int dlt, int snapshot);

/* The same over a regular file's descriptor, mapped (the descriptor may be
 * closed afterwards). NULL when it cannot be mapped or is not read here. */
struct fastread *fastread_map(int fd, int dlt, int snapshot);

/* The next record: FASTREAD_RECORD (r filled), FASTREAD_END at the end of
 * the octets held, FASTREAD_FALLBACK when libpcap must go on from here. */
int fastread_next(struct fastread *fr, struct fastread_rec *r);

/*
 * -j N (cli/cmd/jobs.c): the records handed out are read by other threads
 * after the next fastread_next, so the pages behind the reading position
 * are given back only below what fastread_keep last said is still in use
 * (nothing, until it is first called). fastread_keep(fr, p): the records
 * before p (a pointer into the file's octets) are done with; it may be
 * called by the reading thread only, also after fastread_next ended.
 */
void fastread_hold(struct fastread *fr);
void fastread_keep(struct fastread *fr, const uint8_t *from);
bool fastread_held(const struct fastread *fr);

/* Records handed out so far (where libpcap resumes after a fallback). */
uint64_t fastread_records(const struct fastread *fr);
/* Octets of the file read so far (the progress bar), and held. */
uint64_t fastread_pos(const struct fastread *fr);
uint64_t fastread_size(const struct fastread *fr);

void fastread_close(struct fastread *fr);

#endif
