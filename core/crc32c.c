// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC32c (Castagnoli, reflected polynomial 0x82F63B78), as MPA uses it
 * (RFC 5044 §4.4, which takes the iSCSI CRC of RFC 3385).
 *
 * Two implementations that must agree bit for bit: slicing-by-8 tables, and
 * the SSE4.2 crc32 instruction, chosen at run time from CPUID.
 */
#include "iwarpscope/crc32c.h"

#include <string.h>

#define CRC32C_POLY_REFLECTED 0x82F63B78u

static uint32_t crc_table[8][256];
static int crc_table_ready;

static void crc_table_build(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY_REFLECTED : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = crc_table[0][i];
		for (int t = 1; t < 8; t++) {
			c = crc_table[0][c & 0xFF] ^ (c >> 8);
			crc_table[t][i] = c;
		}
	}
	crc_table_ready = 1;
}

/* Built before main() so concurrent first use cannot race. */
__attribute__((constructor)) static void crc_table_init(void)
{
	crc_table_build();
}

uint32_t iws_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	if (!crc_table_ready)
		crc_table_build();
	crc = ~crc;
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		/* Little-endian assembly of the next 8 octets, independent of host order. */
		uint32_t lo = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			      (uint32_t)p[3] << 24;
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
			      (uint32_t)p[7] << 24;
		lo ^= crc;
		crc = crc_table[7][lo & 0xFF] ^ crc_table[6][(lo >> 8) & 0xFF] ^
		      crc_table[5][(lo >> 16) & 0xFF] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xFF] ^ crc_table[2][(hi >> 8) & 0xFF] ^
		      crc_table[1][(hi >> 16) & 0xFF] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *buf,
							       size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;
	while (len && ((uintptr_t)p & 7)) {
		c = _mm_crc32_u8((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, p, 8); /* x86 is little-endian: the instruction wants that order */
		c = _mm_crc32_u64(c, w);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

bool iws_crc32c_hw_available(void)
{
	return __builtin_cpu_supports("sse4.2");
}

uint32_t iws_crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	if (iws_crc32c_hw_available())
		return crc32c_sse42(crc, buf, len);
	return iws_crc32c_sw(crc, buf, len);
}
#else
bool iws_crc32c_hw_available(void)
{
	return false;
}

uint32_t iws_crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return iws_crc32c_sw(crc, buf, len);
}
#endif

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);
static crc_fn crc_impl;

static crc_fn crc_choose(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (iws_crc32c_hw_available())
		return crc32c_sse42;
#endif
	return iws_crc32c_sw;
}

__attribute__((constructor)) static void crc_impl_init(void)
{
	crc_impl = crc_choose();
}

uint32_t iws_crc32c_extend(uint32_t crc, const void *buf, size_t len)
{
	if (!crc_impl)
		crc_impl = crc_choose();
	return crc_impl(crc, buf, len);
}

const char *iws_crc32c_impl(void)
{
	return crc_choose() == iws_crc32c_sw ? "table" : "sse4.2";
}
