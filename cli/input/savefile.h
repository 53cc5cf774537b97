// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * savefile.h - the live capture's save file (-w FILE): every packet written
 * as a pcap record, and every write checked. libpcap's pcap_dump() returns
 * nothing, so a full file system (or -w /dev/full) would lose packets
 * without a word; here each packet is counted saved only once its octets
 * are in the file, the first failure stops the writing (the file is cut
 * back to the last whole record, so it stays readable), and the caller
 * learns how many packets were lost and why.
 */
#ifndef IWS_CLI_SAVEFILE_H
#define IWS_CLI_SAVEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pcap/pcap.h>

struct savefile;

/* Create (or truncate) path and write the file header for h's link type and
 * time precision. NULL with a one-line message in err. */
struct savefile *savefile_open(pcap_t *h, const char *path, char *err, size_t errlen);

/* One packet (buffered; written when the buffer fills). */
void savefile_write(struct savefile *w, const struct pcap_pkthdr *hdr, const uint8_t *data);

/* Octets of the file so far, buffered ones included (-a filesize). */
uint64_t savefile_bytes(const struct savefile *w);

/* Write what is buffered, and close. true when every packet was saved; else
 * msg says why and how many of how many packets were lost. */
bool savefile_close(struct savefile *w, char *msg, size_t msglen);

#endif
