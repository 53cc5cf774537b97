// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC32c (Castagnoli, reflected polynomial 0x82F63B78), as MPA uses it
 * (RFC 5044 §4.4, which takes the iSCSI CRC of RFC 3385).
 *
 * Implementations that must agree bit for bit: slicing-by-8 tables, and the
 * SSE4.2 crc32 instruction in three interleaved streams (one stream too, the
 * baseline of bench/), chosen at run time from CPUID.
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

/* One stream of crc32 instructions: the register carries the CRC state
 * (not inverted: the instruction neither inverts nor reflects). */
__attribute__((target("sse4.2"))) static uint64_t crc32c_sse42_raw(uint64_t c, const uint8_t *p,
								   size_t len)
{
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
	return c;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *buf,
							       size_t len)
{
	return ~(uint32_t)crc32c_sse42_raw(~crc, buf, len);
}

/*
 * Three streams. The crc32 instruction takes 3 cycles but a new one can
 * start every cycle, so one stream leaves two thirds of the unit idle (the
 * Linux kernel's crc32c-intel and Intel's white paper "Fast CRC Computation
 * for iSCSI Polynomial Using CRC32 Instruction" interleave the same way).
 * A buffer is cut into rounds of three blocks A, B, C of BLK octets; B and
 * C start from a zero state and the states are joined afterwards. The CRC
 * state is linear over GF(2): the state after A then B is the state after
 * B from zero XOR the state after A moved over |B| zero octets, and moving
 * a state over a fixed number of zero octets is a linear map of its 32
 * bits, kept as four 256-entry tables (one per octet of the state).
 * state(A B C) = shift(shift(a) ^ b) ^ c, shift over one block.
 */
#define CRC_ROUNDS 3
static const size_t crc_blk[CRC_ROUNDS] = { 4096, 512, 64 };
static uint32_t crc_shift[CRC_ROUNDS][4][256];
static int crc_shift_ready;

/* The state s moved over n zero octets, by the table path (init time). */
static uint32_t crc_zeros(uint32_t s, size_t n)
{
	while (n--)
		s = crc_table[0][s & 0xFF] ^ (s >> 8);
	return s;
}

static void crc_shift_build(void)
{
	if (!crc_table_ready)
		crc_table_build();
	for (int r = 0; r < CRC_ROUNDS; r++) {
		uint32_t bit[32];
		for (int k = 0; k < 32; k++)
			bit[k] = crc_zeros(1u << k, crc_blk[r]);
		for (int oct = 0; oct < 4; oct++)
			for (uint32_t v = 0; v < 256; v++) {
				uint32_t m = 0;
				for (int k = 0; k < 8; k++)
					if (v & (1u << k))
						m ^= bit[oct * 8 + k];
				crc_shift[r][oct][v] = m;
			}
	}
	crc_shift_ready = 1;
}

static inline uint32_t crc_shift_apply(int r, uint32_t s)
{
	return crc_shift[r][0][s & 0xFF] ^ crc_shift[r][1][(s >> 8) & 0xFF] ^
	       crc_shift[r][2][(s >> 16) & 0xFF] ^ crc_shift[r][3][s >> 24];
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42x3(uint32_t crc, const void *buf,
								 size_t len)
{
	const uint8_t *p = buf;
	uint64_t a = ~crc;
	if (!crc_shift_ready)
		crc_shift_build();
	for (int r = 0; r < CRC_ROUNDS; r++) {
		const size_t blk = crc_blk[r];
		while (len >= 3 * blk) {
			uint64_t b = 0, c = 0;
			for (size_t i = 0; i < blk; i += 8) {
				uint64_t wa, wb, wc;
				memcpy(&wa, p + i, 8);
				memcpy(&wb, p + blk + i, 8);
				memcpy(&wc, p + 2 * blk + i, 8);
				a = _mm_crc32_u64(a, wa);
				b = _mm_crc32_u64(b, wb);
				c = _mm_crc32_u64(c, wc);
			}
			a = crc_shift_apply(r, crc_shift_apply(r, (uint32_t)a) ^ (uint32_t)b) ^
			    (uint32_t)c;
			p += 3 * blk;
			len -= 3 * blk;
		}
	}
	return ~(uint32_t)crc32c_sse42_raw(a, p, len);
}

bool iws_crc32c_hw_available(void)
{
	return __builtin_cpu_supports("sse4.2");
}

uint32_t iws_crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	if (iws_crc32c_hw_available())
		return crc32c_sse42x3(crc, buf, len);
	return iws_crc32c_sw(crc, buf, len);
}

uint32_t iws_crc32c_hw1(uint32_t crc, const void *buf, size_t len)
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

uint32_t iws_crc32c_hw1(uint32_t crc, const void *buf, size_t len)
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
		return crc32c_sse42x3;
#endif
	return iws_crc32c_sw;
}

__attribute__((constructor)) static void crc_impl_init(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	crc_shift_build();
#endif
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
	return crc_choose() == iws_crc32c_sw ? "table" : "sse4.2 (3 streams)";
}
