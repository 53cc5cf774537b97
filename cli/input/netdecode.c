// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Link, IP and TCP header decoding (see netdecode.h). Every read goes through
 * struct rd, which knows how many octets were captured, in the spirit of
 * tcpdump's ND_TCHECK/GET_ macros: a header that runs past the capture is
 * NET_TRUNCATED, never an out-of-bounds read.
 */
#include "netdecode.h"

#include <string.h>

#include <pcap/dlt.h>

/* Link types libpcap may hand out under more than one number. */
#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif
#define LINKTYPE_RAW 101  /* what a file says; libpcap maps it to DLT_RAW */

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86DD
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88A8
#define ETH_P_QINQ_OLD 0x9100
#define MAX_VLAN_TAGS 8

struct rd {
	const uint8_t *p;
	uint32_t len;  /* captured octets from p */
	uint32_t off;
};

static inline bool rd_has(const struct rd *r, uint32_t n)
{
	return r->off <= r->len && r->len - r->off >= n;
}

static inline uint8_t rd_u8(const struct rd *r, uint32_t at)
{
	return r->p[r->off + at];
}

static inline uint16_t rd_be16(const struct rd *r, uint32_t at)
{
	const uint8_t *q = r->p + r->off + at;
	return (uint16_t)(q[0] << 8 | q[1]);
}

static inline uint32_t rd_be32(const struct rd *r, uint32_t at)
{
	const uint8_t *q = r->p + r->off + at;
	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

/* TCP header at r->off; ip_payload is the IP payload length on the wire. */
static enum net_result tcp_decode(struct rd *r, uint32_t ip_payload, struct tcp_pkt *out,
				  const char **why)
{
	if (!rd_has(r, 20)) {
		*why = "TCP header cut by the snapshot length";
		return NET_TRUNCATED;
	}
	uint32_t hl = (uint32_t)(rd_u8(r, 12) >> 4) * 4;
	if (hl < 20 || hl > ip_payload) {
		*why = "bad TCP header length";
		return NET_MALFORMED;
	}
	out->sport = rd_be16(r, 0);
	out->dport = rd_be16(r, 2);
	out->seq = rd_be32(r, 4);
	out->ack = rd_be32(r, 8);
	out->flags = rd_u8(r, 13);
	out->win = rd_be16(r, 14);
	out->wire_len = ip_payload - hl;
	out->opts = NULL;
	out->opts_len = 0;
	if (!rd_has(r, hl)) {
		/* A short snapshot length (a mirror port's 64-octet slices) cut
		 * the options: the fixed header still says where the segment
		 * lies and how long it is; none of its payload was captured. */
		out->cap_len = 0;
		out->payload = r->p + r->len;
		return NET_TCP;
	}
	out->opts = r->p + r->off + 20;
	out->opts_len = hl - 20;
	r->off += hl;
	uint32_t avail = r->len - r->off;
	out->cap_len = avail < out->wire_len ? avail : out->wire_len;
	out->payload = r->p + r->off;
	return NET_TCP;
}

static enum net_result ipv4_decode(struct rd *r, uint32_t wirelen_left, struct tcp_pkt *out,
				   const char **why)
{
	if (!rd_has(r, 20)) {
		*why = "IPv4 header cut by the snapshot length";
		return NET_TRUNCATED;
	}
	uint8_t vihl = rd_u8(r, 0);
	uint32_t ihl = (uint32_t)(vihl & 0x0F) * 4;
	if ((vihl >> 4) != 4 || ihl < 20) {
		*why = "bad IPv4 version or header length";
		return NET_MALFORMED;
	}
	uint32_t total = rd_be16(r, 2);
	/* TSO captures may carry total length 0; trust the frame then. */
	if (total == 0)
		total = wirelen_left;
	if (total < ihl) {
		*why = "IPv4 total length shorter than its header";
		return NET_MALFORMED;
	}
	if (!rd_has(r, ihl)) {
		*why = "IPv4 options cut by the snapshot length";
		return NET_TRUNCATED;
	}
	uint16_t frag = rd_be16(r, 6);
	uint8_t proto = rd_u8(r, 9);
	if (proto != 6)
		return NET_NOT_TCP;
	/* MF set or a non-zero fragment offset (RFC 791 §3.1). */
	if (frag & 0x3FFF)
		return NET_FRAGMENT;
	out->af = 4;
	out->has_ip_id = true;
	out->ip_id = rd_be16(r, 4);
	memset(out->src, 0, sizeof(out->src));
	memset(out->dst, 0, sizeof(out->dst));
	memcpy(out->src, r->p + r->off + 12, 4);
	memcpy(out->dst, r->p + r->off + 16, 4);
	/* Ethernet pads short frames: the IP length, not the frame, bounds the data. */
	uint32_t captured_ip = r->len - r->off;
	if (captured_ip > total)
		r->len = r->off + total;
	r->off += ihl;
	return tcp_decode(r, total - ihl, out, why);
}

/* RFC 8200 §4: walk the extension header chain to the upper layer. */
static enum net_result ipv6_decode(struct rd *r, uint32_t wirelen_left, struct tcp_pkt *out,
				   const char **why)
{
	if (!rd_has(r, 40)) {
		*why = "IPv6 header cut by the snapshot length";
		return NET_TRUNCATED;
	}
	if ((rd_u8(r, 0) >> 4) != 6) {
		*why = "bad IPv6 version";
		return NET_MALFORMED;
	}
	uint32_t plen = rd_be16(r, 4);
	uint8_t next = rd_u8(r, 6);
	if (plen == 0) /* a jumbogram or a TSO capture: use what the frame says */
		plen = wirelen_left > 40 ? wirelen_left - 40 : 0;
	out->af = 6;
	out->has_ip_id = false;  /* IPv6 has none outside a fragment header */
	memcpy(out->src, r->p + r->off + 8, 16);
	memcpy(out->dst, r->p + r->off + 24, 16);
	uint32_t captured_ip = r->len - r->off;
	if (captured_ip > 40 + plen)
		r->len = r->off + 40 + plen;
	r->off += 40;
	uint32_t left = plen;
	for (int hops = 0; hops < 16; hops++) {
		uint32_t hl;
		switch (next) {
		case 6:
			return tcp_decode(r, left, out, why);
		case 0:   /* hop-by-hop options */
		case 43:  /* routing */
		case 60:  /* destination options */
		case 135: /* mobility */
			if (!rd_has(r, 2)) {
				*why = "IPv6 extension header cut by the snapshot length";
				return NET_TRUNCATED;
			}
			hl = ((uint32_t)rd_u8(r, 1) + 1) * 8;
			break;
		case 51:  /* AH: length in 4-octet units, minus 2 (RFC 4302 §2.2) */
			if (!rd_has(r, 2)) {
				*why = "IPv6 extension header cut by the snapshot length";
				return NET_TRUNCATED;
			}
			hl = ((uint32_t)rd_u8(r, 1) + 2) * 4;
			break;
		case 44:  /* fragment */
			if (!rd_has(r, 8)) {
				*why = "IPv6 fragment header cut by the snapshot length";
				return NET_TRUNCATED;
			}
			/* An atomic fragment (offset 0, M 0) is a whole datagram. */
			if ((rd_be16(r, 2) & 0xFFF9) != 0)
				return NET_FRAGMENT;
			hl = 8;
			break;
		default:  /* ESP, ICMPv6, UDP, no next header, ... */
			return NET_NOT_TCP;
		}
		if (hl > left) {
			*why = "IPv6 extension header longer than the payload";
			return NET_MALFORMED;
		}
		if (!rd_has(r, hl)) {
			*why = "IPv6 extension header cut by the snapshot length";
			return NET_TRUNCATED;
		}
		next = rd_u8(r, 0);
		r->off += hl;
		left -= hl;
	}
	*why = "too many IPv6 extension headers";
	return NET_MALFORMED;
}

static enum net_result ip_by_version(struct rd *r, uint32_t wl, struct tcp_pkt *out, const char **why)
{
	if (!rd_has(r, 1)) {
		*why = "IP header cut by the snapshot length";
		return NET_TRUNCATED;
	}
	switch (rd_u8(r, 0) >> 4) {
	case 4:
		return ipv4_decode(r, wl, out, why);
	case 6:
		return ipv6_decode(r, wl, out, why);
	default:
		return NET_NOT_TCP;
	}
}

static enum net_result by_ethertype(struct rd *r, uint16_t type, uint32_t wl, struct tcp_pkt *out,
				    const char **why)
{
	switch (type) {
	case ETH_P_IPV4:
		return ipv4_decode(r, wl, out, why);
	case ETH_P_IPV6:
		return ipv6_decode(r, wl, out, why);
	default:
		return NET_NOT_TCP;
	}
}

enum net_result net_decode(int dlt, const uint8_t *data, uint32_t caplen, uint32_t wirelen,
			   struct tcp_pkt *out, const char **why)
{
	struct rd r = { data, caplen, 0 };
	uint16_t type;
	uint32_t af;
	*why = NULL;

	switch (dlt) {
	case DLT_EN10MB:
		if (!rd_has(&r, 14)) {
			*why = "Ethernet header cut by the snapshot length";
			return NET_TRUNCATED;
		}
		type = rd_be16(&r, 12);
		r.off = 14;
		/* 802.1Q and 802.1ad (QinQ) tags: 2 octets TCI, then the next type. */
		for (int i = 0; i < MAX_VLAN_TAGS &&
				(type == ETH_P_8021Q || type == ETH_P_8021AD || type == ETH_P_QINQ_OLD);
		     i++) {
			if (!rd_has(&r, 4)) {
				*why = "VLAN tag cut by the snapshot length";
				return NET_TRUNCATED;
			}
			type = rd_be16(&r, 2);
			r.off += 4;
		}
		break;
	case DLT_LINUX_SLL:
		/* packet type, ARPHRD, address length, address (8), protocol */
		if (!rd_has(&r, 16)) {
			*why = "Linux cooked header cut by the snapshot length";
			return NET_TRUNCATED;
		}
		type = rd_be16(&r, 14);
		r.off = 16;
		break;
	case DLT_LINUX_SLL2:
		/* protocol, reserved, ifindex, ARPHRD, packet type, address length, address (8) */
		if (!rd_has(&r, 20)) {
			*why = "Linux cooked v2 header cut by the snapshot length";
			return NET_TRUNCATED;
		}
		type = rd_be16(&r, 0);
		r.off = 20;
		break;
	case DLT_RAW:
	case LINKTYPE_RAW:
		return ip_by_version(&r, wirelen, out, why);
	case DLT_IPV4:
		return ipv4_decode(&r, wirelen, out, why);
	case DLT_IPV6:
		return ipv6_decode(&r, wirelen, out, why);
	case DLT_NULL:
	case DLT_LOOP:
		/* A 4-octet address family: host order for DLT_NULL (so either
		 * order, depending on the capturing machine), network order for
		 * DLT_LOOP. 2 is AF_INET everywhere; AF_INET6 is 24, 28 or 30 on
		 * the BSDs and 10 on Linux. */
		if (!rd_has(&r, 4)) {
			*why = "loopback header cut by the snapshot length";
			return NET_TRUNCATED;
		}
		af = rd_be32(&r, 0);
		if (dlt == DLT_NULL && (af & 0xFFFF) == 0)
			af >>= 24; /* little-endian host wrote it */
		r.off = 4;
		if (af == 2)
			return ipv4_decode(&r, wirelen - 4, out, why);
		if (af == 24 || af == 28 || af == 30 || af == 10)
			return ipv6_decode(&r, wirelen - 4, out, why);
		return NET_NOT_TCP;
	default:
		return NET_UNKNOWN_LINK;
	}
	uint32_t wl = wirelen > r.off ? wirelen - r.off : 0;
	return by_ethertype(&r, type, wl, out, why);
}
