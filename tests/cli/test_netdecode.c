// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netdecode.c on byte vectors: every link type it reads (Ethernet with
 * VLAN tags, Linux cooked v1/v2, raw IPv4/IPv6, BSD loopback in both
 * octet orders), IPv4 options, IPv6 extension headers, fragments, Ethernet
 * padding, TSO's zero IP length, and for each layer a frame cut inside its
 * header (NET_TRUNCATED) and a header that cannot be right (NET_MALFORMED).
 */
#include <pcap/dlt.h>

#include "../unit/check.h"
#include "netdecode.h"

/* A TCP segment: ports 1000 -> 7174, seq 0x01020304, ack 0x0A0B0C0D,
 * flags PSH|ACK, window 0x1234, data offset 5 (or 8 with 12 octets of
 * options), then the payload "iwarp". */
static size_t tcp_hdr(uint8_t *b, bool options)
{
	static const uint8_t h[20] = { 0x03, 0xE8, 0x1C, 0x06, 0x01, 0x02, 0x03, 0x04,
				       0x0A, 0x0B, 0x0C, 0x0D, 0x50, 0x18, 0x12, 0x34,
				       0x00, 0x00, 0x00, 0x00 };
	memcpy(b, h, 20);
	if (!options) {
		memcpy(b + 20, "iwarp", 5);
		return 25;
	}
	b[12] = 0x80;
	static const uint8_t opt[12] = { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2 };
	memcpy(b + 20, opt, 12);
	memcpy(b + 32, "iwarp", 5);
	return 37;
}

/* IPv4 header (20 octets + ihl_extra option octets) for a TCP payload of
 * tcp_len octets; total: the total length field (0: computed). */
static size_t ipv4_hdr(uint8_t *b, size_t tcp_len, int ihl_extra, unsigned total, uint16_t frag)
{
	size_t hl = 20 + (size_t)ihl_extra;
	unsigned tl = total ? total : (unsigned)(hl + tcp_len);
	uint8_t h[20] = { (uint8_t)(0x40 | (hl / 4)), 0, (uint8_t)(tl >> 8), (uint8_t)tl,
			  0, 1, (uint8_t)(frag >> 8), (uint8_t)frag, 64, 6, 0, 0,
			  192, 0, 2, 1, 192, 0, 2, 2 };
	memcpy(b, h, 20);
	memset(b + 20, 1, (size_t)ihl_extra); /* NOP options */
	return hl;
}

static size_t ipv6_hdr(uint8_t *b, size_t plen, uint8_t next)
{
	memset(b, 0, 40);
	b[0] = 0x60;
	b[4] = (uint8_t)(plen >> 8);
	b[5] = (uint8_t)plen;
	b[6] = next;
	b[7] = 64;
	b[8] = 0x20;
	b[9] = 0x01;
	b[23] = 1;                             /* 2001::1 */
	b[24] = 0x20;
	b[25] = 0x01;
	b[39] = 2;                             /* 2001::2 */
	return 40;
}

static size_t ether(uint8_t *b, uint16_t type)
{
	static const uint8_t mac[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
	memcpy(b, mac, 12);
	b[12] = (uint8_t)(type >> 8);
	b[13] = (uint8_t)type;
	return 14;
}

/* Ethernet + IPv4 + TCP; returns the frame length. */
static size_t frame_v4(uint8_t *b, bool options)
{
	size_t n = ether(b, 0x0800);
	uint8_t tcp[64];
	size_t tl = tcp_hdr(tcp, options);
	n += ipv4_hdr(b + n, tl, 0, 0, 0x4000);
	memcpy(b + n, tcp, tl);
	return n + tl;
}

static void check_tcp(const struct tcp_pkt *t, uint8_t af)
{
	CHECK_EQ(t->af, af);
	CHECK_EQ(t->sport, 1000);
	CHECK_EQ(t->dport, 7174);
	CHECK_EQ(t->seq, 0x01020304);
	CHECK_EQ(t->ack, 0x0A0B0C0D);
	CHECK_EQ(t->flags, IWS_TCP_PSH | IWS_TCP_ACK);
	CHECK_EQ(t->win, 0x1234);
	CHECK_EQ(t->wire_len, 5);
	CHECK_EQ(t->cap_len, 5);
	CHECK(t->payload && memcmp(t->payload, "iwarp", 5) == 0);
	if (af == 4) {
		CHECK(t->src[0] == 192 && t->src[3] == 1 && t->dst[3] == 2 && t->src[4] == 0);
	} else {
		CHECK(t->src[0] == 0x20 && t->src[15] == 1 && t->dst[15] == 2);
	}
}

static enum net_result dec(int dlt, const uint8_t *b, size_t caplen, size_t wirelen,
			   struct tcp_pkt *t, const char **why)
{
	memset(t, 0xAA, sizeof(*t));
	return net_decode(dlt, b, (uint32_t)caplen, (uint32_t)wirelen, t, why);
}

static void test_links(void)
{
	uint8_t b[256], ip[128];
	struct tcp_pkt t;
	const char *why;
	size_t n;

	/* Ethernet, with and without TCP options. */
	n = frame_v4(b, false);
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	CHECK(why == NULL);
	n = frame_v4(b, true);
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_TCP);
	check_tcp(&t, 4);

	/* Ethernet padding (a 60-octet minimum frame) is not payload. */
	n = frame_v4(b, false);
	memset(b + n, 0xEE, 10);
	CHECK_EQ(dec(DLT_EN10MB, b, n + 10, n + 10, &t, &why), NET_TCP);
	check_tcp(&t, 4);

	/* 802.1ad + 802.1Q + an old QinQ tag. */
	uint8_t tagged[256];
	size_t k = ether(tagged, 0x88A8);
	static const uint8_t tags[] = { 0x00, 0x07, 0x81, 0x00, 0x00, 0x2A, 0x91, 0x00, 0x00, 0x01, 0x08, 0x00 };
	memcpy(tagged + k, tags, sizeof(tags));
	k += sizeof(tags);
	n = frame_v4(b, false);
	memcpy(tagged + k, b + 14, n - 14);
	k += n - 14;
	CHECK_EQ(dec(DLT_EN10MB, tagged, k, k, &t, &why), NET_TCP);
	check_tcp(&t, 4);

	/* The IP packet alone, under each other link type. */
	uint8_t tcp[64];
	size_t tl = tcp_hdr(tcp, false);
	size_t il = ipv4_hdr(ip, tl, 0, 0, 0);
	memcpy(ip + il, tcp, tl);
	il += tl;
	CHECK_EQ(dec(DLT_RAW, ip, il, il, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	CHECK_EQ(dec(101 /* LINKTYPE_RAW */, ip, il, il, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	/* Linux cooked v1: type, ARPHRD, address length, address(8), protocol. */
	static const uint8_t sll[16] = { 0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00 };
	memcpy(b, sll, 16);
	memcpy(b + 16, ip, il);
	CHECK_EQ(dec(DLT_LINUX_SLL, b, il + 16, il + 16, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	/* Linux cooked v2: protocol first. */
	static const uint8_t sll2[20] = { 0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6,
					  2, 0, 0, 0, 0, 1, 0, 0 };
	memcpy(b, sll2, 20);
	memcpy(b + 20, ip, il);
	CHECK_EQ(dec(276, b, il + 20, il + 20, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	/* BSD loopback: DLT_NULL in either host order, DLT_LOOP in network order. */
	static const uint8_t null_le[4] = { 2, 0, 0, 0 }, null_be[4] = { 0, 0, 0, 2 };
	memcpy(b, null_le, 4);
	memcpy(b + 4, ip, il);
	CHECK_EQ(dec(DLT_NULL, b, il + 4, il + 4, &t, &why), NET_TCP);
	check_tcp(&t, 4);
	memcpy(b, null_be, 4);
	CHECK_EQ(dec(DLT_NULL, b, il + 4, il + 4, &t, &why), NET_TCP);
	CHECK_EQ(dec(DLT_LOOP, b, il + 4, il + 4, &t, &why), NET_TCP);
	b[3] = 7;                               /* neither AF_INET nor AF_INET6 */
	CHECK_EQ(dec(DLT_LOOP, b, il + 4, il + 4, &t, &why), NET_NOT_TCP);

	/* IPv6 on Ethernet, raw, and loopback (AF_INET6 = 30 on macOS). */
	n = ether(b, 0x86DD);
	n += ipv6_hdr(b + n, tl, 6);
	memcpy(b + n, tcp, tl);
	n += tl;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_TCP);
	check_tcp(&t, 6);
	CHECK_EQ(dec(DLT_RAW, b + 14, n - 14, n - 14, &t, &why), NET_TCP);
	check_tcp(&t, 6);
	uint8_t lo6[128] = { 0, 0, 0, 30 };
	memcpy(lo6 + 4, b + 14, n - 14);
	CHECK_EQ(dec(DLT_LOOP, lo6, n - 10, n - 10, &t, &why), NET_TCP);
	check_tcp(&t, 6);

	CHECK_EQ(dec(147 /* DLT_USER0 */, b, n, n, &t, &why), NET_UNKNOWN_LINK);
	/* ARP on Ethernet, UDP in IPv4, ICMPv6: not TCP. */
	n = ether(b, 0x0806);
	CHECK_EQ(dec(DLT_EN10MB, b, 42, 42, &t, &why), NET_NOT_TCP);
	n = frame_v4(b, false);
	b[14 + 9] = 17;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_NOT_TCP);
	n = ether(b, 0x86DD);
	n += ipv6_hdr(b + n, 8, 58);
	memset(b + n, 0, 8);
	CHECK_EQ(dec(DLT_EN10MB, b, n + 8, n + 8, &t, &why), NET_NOT_TCP);
}

static void test_ip_variants(void)
{
	uint8_t b[256], tcp[64];
	struct tcp_pkt t;
	const char *why;
	size_t tl = tcp_hdr(tcp, false);

	/* IPv4 options (ihl 8). */
	size_t n = ether(b, 0x0800);
	n += ipv4_hdr(b + n, tl, 12, 0, 0);
	memcpy(b + n, tcp, tl);
	n += tl;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_TCP);
	check_tcp(&t, 4);

	/* A TSO capture: total length 0, the frame says how long it is. */
	n = ether(b, 0x0800);
	n += ipv4_hdr(b + n, tl, 0, 0, 0);
	b[16] = b[17] = 0;
	memcpy(b + n, tcp, tl);
	n += tl;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_TCP);
	check_tcp(&t, 4);

	/* Fragments: MF set, or an offset. DF alone is not a fragment. */
	n = frame_v4(b, false);
	b[20] = 0x20;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_FRAGMENT);
	b[20] = 0x00;
	b[21] = 0x10;
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_FRAGMENT);

	/* IPv6 extension headers: hop-by-hop (8), destination options (16),
	 * an atomic fragment header (a whole datagram), then TCP. */
	n = ether(b, 0x86DD);
	size_t ext = 8 + 16 + 8;
	n += ipv6_hdr(b + n, ext + tl, 0);
	uint8_t hbh[8] = { 60, 0, 1, 4, 0, 0, 0, 0 };
	uint8_t dst[16] = { 44, 1, 1, 12 };
	uint8_t frag[8] = { 6, 0, 0, 0, 0, 0, 0, 9 };
	memcpy(b + n, hbh, 8);
	memcpy(b + n + 8, dst, 16);
	memcpy(b + n + 24, frag, 8);
	memcpy(b + n + ext, tcp, tl);
	size_t full = n + ext + tl;
	CHECK_EQ(dec(DLT_EN10MB, b, full, full, &t, &why), NET_TCP);
	check_tcp(&t, 6);
	/* ... a real fragment (offset 0, M set) is not decoded. */
	b[n + 24 + 3] = 1;
	CHECK_EQ(dec(DLT_EN10MB, b, full, full, &t, &why), NET_FRAGMENT);
	b[n + 24 + 3] = 0;
	/* ... an extension header longer than the payload. */
	b[n + 1] = 200;
	CHECK_EQ(dec(DLT_EN10MB, b, full, full, &t, &why), NET_MALFORMED);
	CHECK(why != NULL);
	b[n + 1] = 0;
	/* ... cut by the snapshot length inside the destination options. */
	CHECK_EQ(dec(DLT_EN10MB, b, n + 12, full, &t, &why), NET_TRUNCATED);
}

static void test_damage(void)
{
	uint8_t b[256];
	struct tcp_pkt t;
	const char *why;
	size_t n = frame_v4(b, true);   /* 14 + 20 + 32 + 5 */

	/* Cut at every octet: each layer's header, then the options, then the payload. */
	for (size_t cut = 0; cut < n; cut++) {
		enum net_result r = dec(DLT_EN10MB, b, cut, n, &t, &why);
		if (cut < 14 + 20 + 20) {
			CHECK_EQ(r, NET_TRUNCATED);
			CHECK(why != NULL);
		} else if (cut < 14 + 20 + 32) {
			/* The fixed TCP header is there, the options are not: the
			 * segment is placed, none of its payload counts as captured. */
			CHECK_EQ(r, NET_TCP);
			CHECK_EQ(t.cap_len, 0);
			CHECK_EQ(t.wire_len, 5);
		} else {
			CHECK_EQ(r, NET_TCP);
			CHECK_EQ(t.cap_len, cut - (14 + 20 + 32));
			CHECK_EQ(t.wire_len, 5);
		}
	}
	/* Cut inside a VLAN tag, a cooked header, a loopback header. */
	uint8_t v[18] = { 0 };
	ether(v, 0x8100);
	CHECK_EQ(dec(DLT_EN10MB, v, 16, 60, &t, &why), NET_TRUNCATED);
	CHECK_EQ(dec(DLT_LINUX_SLL, v, 15, 60, &t, &why), NET_TRUNCATED);
	CHECK_EQ(dec(276, v, 19, 60, &t, &why), NET_TRUNCATED);
	CHECK_EQ(dec(DLT_NULL, v, 3, 60, &t, &why), NET_TRUNCATED);
	CHECK_EQ(dec(DLT_RAW, v, 0, 60, &t, &why), NET_TRUNCATED);

	/* Headers that cannot be right. */
	n = frame_v4(b, false);
	b[14] = 0x44;                   /* IHL 4 (16 octets) */
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_MALFORMED);
	b[14] = 0x45;
	b[16] = 0;
	b[17] = 10;                     /* total length below the header */
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_MALFORMED);
	n = frame_v4(b, false);
	b[14 + 20 + 12] = 0x40;         /* TCP data offset 4 */
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_MALFORMED);
	b[14 + 20 + 12] = 0xF0;         /* 60 octets: longer than the IP payload */
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_MALFORMED);
	n = frame_v4(b, false);
	b[14] = 0x65;                   /* IPv6 version under an IPv4 ethertype */
	CHECK_EQ(dec(DLT_EN10MB, b, n, n, &t, &why), NET_MALFORMED);

	/* The IP length, not the frame, bounds the payload: a frame claiming
	 * more on the wire than the IP header does changes nothing. */
	n = frame_v4(b, false);
	CHECK_EQ(dec(DLT_EN10MB, b, n, n + 1000, &t, &why), NET_TCP);
	check_tcp(&t, 4);
}

int main(void)
{
	test_links();
	test_ip_variants();
	test_damage();
	return check_done("test_netdecode");
}
