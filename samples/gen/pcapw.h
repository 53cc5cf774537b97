// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Capture file writer: classic pcap with nanosecond (magic 0xa1b23c4d) or
 * microsecond (0xa1b2c3d4) timestamps, or pcapng (SHB + one IDB with
 * if_tsresol=9 + EPBs). Everything is written little-endian, whatever the
 * host, so the output is bit-for-bit reproducible. Link type 1 (Ethernet).
 */
#ifndef IWSGEN_PCAPW_H
#define IWSGEN_PCAPW_H

#include <stdint.h>
#include <stdio.h>

enum pcap_fmt { FMT_PCAP_NS, FMT_PCAP_US, FMT_PCAPNG };

struct pcapw {
	FILE *f;
	enum pcap_fmt fmt;
	uint32_t snaplen;
	uint64_t records;
	uint64_t bytes; /* bytes written to the file so far */
	int err;
};

int pcapw_open(struct pcapw *w, const char *path, enum pcap_fmt fmt, uint32_t snaplen);
/* Writes one record; the stored length is min(len, snaplen). */
int pcapw_write(struct pcapw *w, uint64_t ts_ns, const uint8_t *data, uint32_t len);
int pcapw_close(struct pcapw *w);
const char *pcapw_ext(enum pcap_fmt fmt);

#endif
