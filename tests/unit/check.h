// SPDX-License-Identifier: GPL-2.0-or-later
/* A minimal test harness: CHECK records a failure and continues; the
 * program's exit status is the number of failed checks (capped). */
#ifndef IWS_TEST_CHECK_H
#define IWS_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*: deterministic test data from the state *s (not 0). */
static inline uint64_t check_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		check_count++;                                                           \
		if (!(cond)) {                                                           \
			check_failures++;                                                \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                        \
	} while (0)

#define CHECK_EQ(a, b)                                                                   \
	do {                                                                             \
		check_count++;                                                           \
		unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
		if (va_ != vb_) {                                                        \
			check_failures++;                                                \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)\n", \
				__FILE__, __LINE__, #a, #b, va_, vb_);                   \
		}                                                                        \
	} while (0)

#define CHECK_STATUS(res, st) CHECK_EQ((res).status, (st))

static inline int check_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures > 100 ? 100 : check_failures;
}

/* Named cases, each run on fresh state: a failing case is named. */
struct check_case {
	const char *name;
	void (*fn)(void);
};

/* Run the n cases (reset, if not NULL, before each), then check_done(prog). */
static inline int check_cases(const char *prog, const struct check_case *cases, size_t n, void (*reset)(void))
{
	for (size_t i = 0; i < n; i++) {
		int before = check_failures;
		if (reset)
			reset();
		cases[i].fn();
		if (check_failures != before)
			fprintf(stderr, "%s: case %s failed (%d checks)\n", prog, cases[i].name,
				check_failures - before);
	}
	return check_done(prog);
}

/* Parse a hex string (spaces ignored) into buf; returns octets written. */
static inline size_t hex2bin(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	int hi = -1;
	for (const char *p = hex; *p; p++) {
		int v;
		if (*p >= '0' && *p <= '9')
			v = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			v = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			v = *p - 'A' + 10;
		else
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			if (n < cap)
				buf[n] = (uint8_t)(hi << 4 | v);
			n++;
			hi = -1;
		}
	}
	return n;
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

/* NVMe structures are little-endian. */
static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
