// SPDX-License-Identifier: GPL-2.0-or-later
/* Test helper: writes an MPA byte stream octet by octet, inserting markers at
 * every (seq - base) % 512 == 0 and computing CRCs over what it emitted -
 * an implementation independent of core/mpa.c, written from RFC 5044 §4. */
#ifndef IWS_TEST_STREAM_BUILDER_H
#define IWS_TEST_STREAM_BUILDER_H

#include "check.h"
#include "iwarpscope/crc32c.h"

struct sb {
	uint8_t *buf;
	size_t cap, len;
	uint32_t seq0;        /* seq of buf[0] */
	int markers;
	uint32_t base;
	uint32_t fpdu_start;  /* seq where the current FPDU began */
	uint32_t len_field;   /* seq of its ULPDU_Length field */
};

static inline uint32_t sb_seq(const struct sb *s)
{
	return s->seq0 + (uint32_t)s->len;
}

static inline void sb_raw(struct sb *s, uint8_t b)
{
	if (s->len < s->cap)
		s->buf[s->len] = b;
	s->len++;
}

static inline void sb_maybe_marker(struct sb *s)
{
	uint32_t q = sb_seq(s);
	if (s->markers && ((q - s->base) % 512u) == 0) {
		/* RFC 5044 §4.2: octets from the ULPDU_Length field to the marker;
		 * a marker just before ULPDU_Length carries 0. */
		uint32_t ptr = q == s->fpdu_start ? 0 : q - s->len_field;
		sb_raw(s, 0);
		sb_raw(s, 0);
		sb_raw(s, (uint8_t)(ptr >> 8));
		sb_raw(s, (uint8_t)ptr);
	}
}

static inline void sb_byte(struct sb *s, uint8_t b)
{
	sb_maybe_marker(s);
	sb_raw(s, b);
}

/* Emit one FPDU carrying ulpdu[0..len). crc_mode: 0 zeros, 1 good, 2 bad. */
static inline void sb_fpdu(struct sb *s, const uint8_t *ulpdu, uint16_t len, int crc_mode)
{
	s->fpdu_start = sb_seq(s);
	sb_maybe_marker(s);
	s->len_field = sb_seq(s);
	sb_byte(s, (uint8_t)(len >> 8));
	sb_byte(s, (uint8_t)len);
	for (uint16_t i = 0; i < len; i++)
		sb_byte(s, ulpdu[i]);
	/* pad so that the marker-free 2 + len + pad is a multiple of 4 */
	unsigned pad = (4u - ((2u + len) & 3u)) & 3u;
	for (unsigned i = 0; i < pad; i++)
		sb_byte(s, 0);
	sb_maybe_marker(s);
	size_t from = s->fpdu_start - s->seq0;
	uint32_t c = iws_crc32c_sw(0, s->buf + from, s->len - from);
	if (crc_mode == 0)
		c = 0;
	if (crc_mode == 2)
		c ^= 0x1;
	for (int i = 0; i < 4; i++)
		sb_raw(s, (uint8_t)(c >> (8 * i)));
}

/* A Send (QN 0) ULPDU with the given MSN/MO/L and payload length. */
static inline uint16_t sb_send_ulpdu(uint8_t *u, uint32_t msn, uint32_t mo, int last, uint16_t plen)
{
	memset(u, 0, 18);
	u[0] = (uint8_t)(0x01 | (last ? 0x40 : 0));
	u[1] = 0x43;
	put_be32(u + 10, msn);
	put_be32(u + 14, mo);
	for (uint16_t i = 0; i < plen; i++)
		u[18 + i] = (uint8_t)(i ^ 0x5A);
	return (uint16_t)(18 + plen);
}

/* A tagged ULPDU (RDMA Write 0x0, Read Response 0x2). */
static inline uint16_t sb_tagged_ulpdu(uint8_t *u, uint8_t opcode, uint32_t stag, uint64_t to, int last,
				       uint16_t plen)
{
	u[0] = (uint8_t)(0x81 | (last ? 0x40 : 0));
	u[1] = (uint8_t)(0x40 | opcode);
	put_be32(u + 2, stag);
	put_be64(u + 6, to);
	for (uint16_t i = 0; i < plen; i++)
		u[14 + i] = (uint8_t)(i * 13);
	return (uint16_t)(14 + plen);
}

/* An RDMA Write ULPDU. */
static inline uint16_t sb_write_ulpdu(uint8_t *u, uint32_t stag, uint64_t to, int last, uint16_t plen)
{
	return sb_tagged_ulpdu(u, 0x0, stag, to, last, plen);
}

/* An RDMA Read Request ULPDU (QN 1, RFC 5040 §4.4): 18 + 28 octets. */
static inline uint16_t sb_read_req_ulpdu(uint8_t *u, uint32_t msn, uint32_t sink_stag, uint64_t sink_to,
					 uint32_t size, uint32_t src_stag, uint64_t src_to)
{
	memset(u, 0, 46);
	u[0] = 0x41;
	u[1] = 0x41;
	put_be32(u + 6, 1);
	put_be32(u + 10, msn);
	put_be32(u + 18, sink_stag);
	put_be64(u + 22, sink_to);
	put_be32(u + 30, size);
	put_be32(u + 34, src_stag);
	put_be64(u + 38, src_to);
	return 46;
}

/* An MPA Request or Reply (RFC 5044 §7.1.1), outside the FPDU stream (no
 * markers): flags as on the wire; with S (RFC 6581) the enhanced word. */
static inline void sb_mpa_frame(struct sb *s, int reply, uint8_t flags, uint16_t ird_word, uint16_t ord_word)
{
	const char *key = reply ? "MPA ID Rep Frame" : "MPA ID Req Frame";
	for (int i = 0; i < 16; i++)
		sb_raw(s, (uint8_t)key[i]);
	sb_raw(s, flags);
	sb_raw(s, (flags & 0x10) ? 2 : 1);
	uint16_t pd = (flags & 0x10) ? 4 : 0;
	sb_raw(s, (uint8_t)(pd >> 8));
	sb_raw(s, (uint8_t)pd);
	if (pd) {
		sb_raw(s, (uint8_t)(ird_word >> 8));
		sb_raw(s, (uint8_t)ird_word);
		sb_raw(s, (uint8_t)(ord_word >> 8));
		sb_raw(s, (uint8_t)ord_word);
	}
}

#endif
