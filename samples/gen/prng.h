// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deterministic pseudo-random numbers for the capture generator:
 * splitmix64 seeding + xoshiro256**. No libc rand(), no time().
 */
#ifndef IWSGEN_PRNG_H
#define IWSGEN_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct prng {
	uint64_t s[4];
};

void prng_seed(struct prng *p, uint64_t seed);
uint64_t prng_u64(struct prng *p);
uint32_t prng_u32(struct prng *p);
/* uniform in [lo, hi] (inclusive); lo <= hi */
uint32_t prng_range(struct prng *p, uint32_t lo, uint32_t hi);
void prng_fill(struct prng *p, uint8_t *buf, size_t n);

#endif
