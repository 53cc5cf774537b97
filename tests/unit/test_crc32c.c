// SPDX-License-Identifier: GPL-2.0-or-later
/* CRC32c: published vectors, chaining, and the hardware path against the
 * table path on many random buffers. */
#include "check.h"
#include "iwarpscope/crc32c.h"

/* deterministic test data */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
	return check_rnd(&rng_state);
}

int main(void)
{
	/* The check value of CRC-32C (RFC 3720 B.4 / the "123456789" vector). */
	CHECK_EQ(iws_crc32c_extend(0, "123456789", 9), 0xE3069283u);
	CHECK_EQ(iws_crc32c_sw(0, "123456789", 9), 0xE3069283u);
	CHECK_EQ(iws_crc32c_hw(0, "123456789", 9), 0xE3069283u);
	CHECK_EQ(iws_crc32c_extend(0, "", 0), 0u);

	/* RFC 3720 B.4 test patterns: 32 octets of zeros, of 0xFF, ascending,
	 * descending. */
	uint8_t b[64];
	memset(b, 0, 32);
	CHECK_EQ(iws_crc32c_extend(0, b, 32), 0x8A9136AAu);
	memset(b, 0xFF, 32);
	CHECK_EQ(iws_crc32c_extend(0, b, 32), 0x62A8AB43u);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	CHECK_EQ(iws_crc32c_extend(0, b, 32), 0x46DD794Eu);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)(31 - i);
	CHECK_EQ(iws_crc32c_extend(0, b, 32), 0x113FDB5Cu);

	/* A real FPDU from Linux siw (samples/real/13-crc-rping.pcap frame 8):
	 * the CRC field carries the value least significant octet first. */
	uint8_t fpdu[64];
	size_t n = hex2bin("00224143000000000000000000000001000000000000557c372584c005ff810000000fa0", fpdu, sizeof(fpdu));
	CHECK_EQ(n, 36);
	CHECK_EQ(iws_crc32c_extend(0, fpdu, n), 0x0FD9025Bu);

	/* Chaining over pieces equals one pass. */
	uint32_t c = iws_crc32c_extend(0, "1234", 4);
	c = iws_crc32c_extend(c, "56789", 5);
	CHECK_EQ(c, 0xE3069283u);

	/* Hardware and table paths agree on 100,000 random buffers of random
	 * lengths and alignments, including chained continuation. */
	static uint8_t buf[4096 + 16];
	unsigned mismatches = 0;
	for (int i = 0; i < 100000; i++) {
		size_t len = (size_t)(rnd() % 4096);
		size_t align = (size_t)(rnd() % 16);
		for (size_t k = 0; k < len; k += 8) {
			uint64_t r = rnd();
			memcpy(buf + align + k, &r, len - k < 8 ? len - k : 8);
		}
		uint32_t seed = (uint32_t)rnd();
		uint32_t sw = iws_crc32c_sw(seed, buf + align, len);
		uint32_t hw = iws_crc32c_hw(seed, buf + align, len);
		if (sw != hw)
			mismatches++;
	}
	CHECK_EQ(mismatches, 0);

	/* The three-stream path cuts a buffer into rounds of 3 x 4096, 3 x 512
	 * and 3 x 64 octets and a single-stream tail: every length around and
	 * between those edges, at every alignment of 8, from a random state,
	 * equals the table path and the single stream. */
	static uint8_t big[3 * 4096 * 2 + 256 + 8];
	for (size_t k = 0; k < sizeof(big); k++)
		big[k] = (uint8_t)rnd();
	unsigned checked = 0;
	mismatches = 0;
	for (size_t len = 0; len + 8 <= sizeof(big); len += len < 1700 ? 1 : 13) {
		size_t align = len % 8;
		uint32_t seed = (uint32_t)rnd();
		uint32_t sw = iws_crc32c_sw(seed, big + align, len);
		if (iws_crc32c_hw(seed, big + align, len) != sw ||
		    iws_crc32c_hw1(seed, big + align, len) != sw ||
		    iws_crc32c_extend(seed, big + align, len) != sw)
			mismatches++;
		checked++;
	}
	CHECK_EQ(mismatches, 0);
	CHECK(checked > 3000);
	/* Chained over uneven pieces equals one pass over the whole. */
	c = 0;
	for (size_t off = 0, step = 1; off < sizeof(big) - 8; off += step, step = step * 3 + 1) {
		size_t piece = step < sizeof(big) - 8 - off ? step : sizeof(big) - 8 - off;
		c = iws_crc32c_extend(c, big + off, piece);
	}
	CHECK_EQ(c, iws_crc32c_sw(0, big, sizeof(big) - 8));
	printf("crc32c implementation in use: %s (hardware available: %s)\n", iws_crc32c_impl(),
	       iws_crc32c_hw_available() ? "yes" : "no");
	return check_done("test_crc32c");
}
