// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ethernet (optionally 802.1Q) + IPv4/IPv6 + TCP frame builder with correct
 * IPv4 header checksum and TCP checksum (RFC 791, RFC 8200, RFC 9293).
 */
#ifndef IWSGEN_NETPKT_H
#define IWSGEN_NETPKT_H

#include <stddef.h>
#include <stdint.h>

#define TCPF_FIN 0x01
#define TCPF_SYN 0x02
#define TCPF_RST 0x04
#define TCPF_PSH 0x08
#define TCPF_ACK 0x10

struct net_hdr {
	int ipver;		/* 4 or 6 */
	int vlan;		/* -1: none, else VLAN ID 0..4095 */
	uint8_t src_mac[6], dst_mac[6];
	uint8_t src_ip[16], dst_ip[16];	/* IPv4 uses the first 4 bytes */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;
	uint16_t ip_id;		/* IPv4 identification */
	uint32_t flow;		/* IPv6 flow label (20 bits) */
	/* options */
	int syn_opts;		/* put MSS + window scale (SYN segments) */
	uint16_t mss;
	uint8_t wscale;
	int ts;			/* put the timestamp option */
	uint32_t tsval, tsecr;
};

/* Largest header we build: 14 + 4 + 40 + 60. */
#define NET_MAX_HDR 128

/* Size of the headers for h (payload offset in the frame). */
size_t net_hdr_len(const struct net_hdr *h);
/*
 * Builds the whole frame into out (capacity net_hdr_len(h) + plen) and
 * returns its length. The payload is copied after the headers.
 */
size_t net_build(uint8_t *out, const struct net_hdr *h, const uint8_t *pay, size_t plen);

#endif
