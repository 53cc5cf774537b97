// SPDX-License-Identifier: GPL-2.0-or-later
/* splitmix64 (seeding) and xoshiro256** (stream), both public-domain algorithms. */
#include "prng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void prng_seed(struct prng *p, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		p->s[i] = splitmix64(&x);
}

uint64_t prng_u64(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

uint32_t prng_u32(struct prng *p)
{
	return (uint32_t)(prng_u64(p) >> 32);
}

uint32_t prng_range(struct prng *p, uint32_t lo, uint32_t hi)
{
	uint64_t span = (uint64_t)hi - lo + 1;

	/* multiply-shift: deterministic and close enough to uniform */
	return lo + (uint32_t)(((uint64_t)prng_u32(p) * span) >> 32);
}

void prng_fill(struct prng *p, uint8_t *buf, size_t n)
{
	while (n >= 8) {
		uint64_t v = prng_u64(p);

		for (int i = 0; i < 8; i++)
			buf[i] = (uint8_t)(v >> (8 * i));
		buf += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = prng_u64(p);

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)(v >> (8 * i));
	}
}
