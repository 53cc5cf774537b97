// SPDX-License-Identifier: GPL-2.0-or-later
/* Frame builder: Ethernet II / 802.1Q, IPv4 / IPv6, TCP with options. */
#include "netpkt.h"

#include <string.h>

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ones' complement sum of 16-bit big-endian words (odd tail padded with 0) */
static uint32_t sum16(uint32_t acc, const uint8_t *p, size_t n)
{
	while (n > 1) {
		acc += (uint32_t)p[0] << 8 | p[1];
		p += 2;
		n -= 2;
	}
	if (n)
		acc += (uint32_t)p[0] << 8;
	return acc;
}

static uint16_t fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)~acc;
}

static size_t tcp_opt_len(const struct net_hdr *h)
{
	size_t n = 0;

	if (h->syn_opts)
		n += 4 + 4;	/* MSS, NOP + window scale */
	if (h->ts)
		n += 12;	/* NOP NOP timestamps */
	return n;
}

size_t net_hdr_len(const struct net_hdr *h)
{
	return 14 + (h->vlan >= 0 ? 4 : 0) + (h->ipver == 6 ? 40 : 20) + 20 + tcp_opt_len(h);
}

size_t net_build(uint8_t *out, const struct net_hdr *h, const uint8_t *pay, size_t plen)
{
	size_t l2 = 14 + (h->vlan >= 0 ? 4 : 0);
	size_t l3 = h->ipver == 6 ? 40 : 20;
	size_t optl = tcp_opt_len(h);
	size_t l4 = 20 + optl;
	uint8_t *ip = out + l2, *tcp = ip + l3, *o;
	size_t tcplen = l4 + plen;
	uint32_t acc;

	/* Ethernet */
	memcpy(out, h->dst_mac, 6);
	memcpy(out + 6, h->src_mac, 6);
	if (h->vlan >= 0) {
		be16(out + 12, 0x8100);
		be16(out + 14, (uint16_t)(h->vlan & 0x0fff));	/* PCP 0, DEI 0 */
		be16(out + 16, h->ipver == 6 ? 0x86DD : 0x0800);
	} else {
		be16(out + 12, h->ipver == 6 ? 0x86DD : 0x0800);
	}

	/* IP */
	if (h->ipver == 6) {
		be32(ip, 0x60000000u | (h->flow & 0xFFFFFu));
		be16(ip + 4, (uint16_t)tcplen);
		ip[6] = 6;	/* next header TCP */
		ip[7] = 64;	/* hop limit */
		memcpy(ip + 8, h->src_ip, 16);
		memcpy(ip + 24, h->dst_ip, 16);
	} else {
		ip[0] = 0x45;
		ip[1] = 0;
		be16(ip + 2, (uint16_t)(20 + tcplen));
		be16(ip + 4, h->ip_id);
		be16(ip + 6, 0x4000);	/* DF */
		ip[8] = 64;
		ip[9] = 6;
		be16(ip + 10, 0);
		memcpy(ip + 12, h->src_ip, 4);
		memcpy(ip + 16, h->dst_ip, 4);
		be16(ip + 10, fold(sum16(0, ip, 20)));
	}

	/* TCP */
	be16(tcp, h->sport);
	be16(tcp + 2, h->dport);
	be32(tcp + 4, h->seq);
	be32(tcp + 8, (h->flags & TCPF_ACK) ? h->ack : 0);
	tcp[12] = (uint8_t)((l4 / 4) << 4);
	tcp[13] = h->flags;
	be16(tcp + 14, h->win);
	be16(tcp + 16, 0);
	be16(tcp + 18, 0);	/* urgent pointer */
	o = tcp + 20;
	if (h->syn_opts) {
		o[0] = 2;	/* MSS */
		o[1] = 4;
		be16(o + 2, h->mss);
		o[4] = 1;	/* NOP */
		o[5] = 3;	/* window scale */
		o[6] = 3;
		o[7] = h->wscale;
		o += 8;
	}
	if (h->ts) {
		o[0] = 1;
		o[1] = 1;
		o[2] = 8;	/* timestamps */
		o[3] = 10;
		be32(o + 4, h->tsval);
		be32(o + 8, h->tsecr);
		o += 12;
	}
	if (plen)
		memcpy(tcp + l4, pay, plen);

	/* TCP checksum over the pseudo-header, header and payload */
	if (h->ipver == 6) {
		uint8_t ph[40];

		memcpy(ph, h->src_ip, 16);
		memcpy(ph + 16, h->dst_ip, 16);
		be32(ph + 32, (uint32_t)tcplen);
		ph[36] = ph[37] = ph[38] = 0;
		ph[39] = 6;
		acc = sum16(0, ph, 40);
	} else {
		uint8_t ph[12];

		memcpy(ph, h->src_ip, 4);
		memcpy(ph + 4, h->dst_ip, 4);
		ph[8] = 0;
		ph[9] = 6;
		be16(ph + 10, (uint16_t)tcplen);
		acc = sum16(0, ph, 12);
	}
	acc = sum16(acc, tcp, tcplen);
	be16(tcp + 16, fold(acc));
	return l2 + l3 + tcplen;
}
