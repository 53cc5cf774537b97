// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc_bench: CRC32c throughput of each implementation in core/crc32c.c, in
 * GB/s (10^9 octets a second), over buffers of the sizes FPDUs have (1 KiB
 * to 9 KiB) and over one long buffer (1 MiB): the three-stream SSE4.2 path
 * iwarpscope uses, the single stream it replaced, and the portable tables.
 * Each figure is the best of five passes of about 50 ms over data in cache;
 * every pass's CRCs are summed and printed so none is optimised away.
 * Prints one line per implementation: NAME GBPS_FPDU GBPS_LONG.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iwarpscope/crc32c.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t sink;

/* Best GB/s of five passes of CRCs over `size`-octet pieces of buf. */
static double rate(crc_fn f, const uint8_t *buf, size_t total, size_t size)
{
	double best = 0;
	for (int pass = 0; pass < 5; pass++) {
		size_t done = 0;
		double t0 = now_s(), t;
		do {
			for (size_t off = 0; off + size <= total; off += size) {
				sink += f(0, buf + off, size);
				done += size;
			}
			t = now_s() - t0;
		} while (t < 0.05);
		double r = (double)done / t / 1e9;
		if (r > best)
			best = r;
	}
	return best;
}

int main(void)
{
	enum { TOTAL = 1 << 20 };
	uint8_t *buf = malloc(TOTAL);
	if (!buf)
		return 2;
	for (size_t i = 0; i < TOTAL; i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	static const struct {
		const char *name;
		crc_fn f;
	} impls[] = {
		{ "sse4.2-3way", iws_crc32c_hw },
		{ "sse4.2-1way", iws_crc32c_hw1 },
		{ "table", iws_crc32c_sw },
	};
	for (size_t k = 0; k < sizeof(impls) / sizeof(impls[0]); k++) {
		/* FPDU-sized pieces: 1 KiB, 4 KiB, 9 KiB, equally often. */
		double fpdu = (rate(impls[k].f, buf, TOTAL, 1024) + rate(impls[k].f, buf, TOTAL, 4096) +
			       rate(impls[k].f, buf, TOTAL, 9216)) / 3;
		printf("%s %.2f %.2f\n", impls[k].name, fpdu, rate(impls[k].f, buf, TOTAL, TOTAL));
	}
	fprintf(stderr, "(checksum %08x, hardware %s)\n", sink, iws_crc32c_hw_available() ? "yes" : "no");
	free(buf);
	return 0;
}
