// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netdecode.h - link, IP and TCP headers of one captured frame, read with a
 * checked reader that never looks past the captured length.
 *
 * Link types: Ethernet (with any number of 802.1Q / 802.1ad tags), Linux
 * cooked capture v1 and v2, raw IPv4/IPv6, BSD loopback (DLT_NULL, DLT_LOOP).
 * IPv4 options and IPv6 extension headers are skipped; IP fragments are
 * reported (and not reassembled).
 */
#ifndef IWS_CLI_NETDECODE_H
#define IWS_CLI_NETDECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/stream.h" /* IWS_TCP_* flags */

enum net_result {
	NET_TCP = 0,          /* a TCP segment: *out is filled in */
	NET_NOT_TCP,          /* IP but another transport, or not IP at all */
	NET_FRAGMENT,         /* an IP fragment (counted and skipped) */
	NET_TRUNCATED,        /* the capture ends inside a header (snaplen) */
	NET_MALFORMED,        /* a header that cannot be what it claims */
	NET_UNKNOWN_LINK,     /* link type we do not decode */
};


struct tcp_pkt {
	uint8_t af;                  /* 4 or 6 */
	uint8_t src[16], dst[16];    /* IPv4 addresses in the first 4 octets */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint16_t win;                /* the window field as carried */
	uint8_t flags;               /* IWS_TCP_* */
	const uint8_t *payload;
	const uint8_t *opts;         /* TCP options (NULL when cut by the snapshot length) */
	uint32_t opts_len;
	uint32_t cap_len;            /* payload octets captured */
	uint32_t wire_len;           /* payload octets on the wire (from the IP length) */
	bool has_ip_id;              /* IPv4: the Identification field */
	uint16_t ip_id;
};

/* Decode one frame of link type dlt (a pcap DLT_* value). *why receives a
 * static reason for NET_MALFORMED and NET_TRUNCATED. */
enum net_result net_decode(int dlt, const uint8_t *data, uint32_t caplen, uint32_t wirelen,
			   struct tcp_pkt *out, const char **why);

#endif
