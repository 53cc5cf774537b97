// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarpscope-gen: deterministic iWARP capture generator with ground truth.
 * An implementation written from the RFCs, independent of the decoder.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "capture.h"
#include "crc32c.h"
#include "gen.h"
#include "scenarios.h"

#define GEN_VERSION "1"

static void usage(FILE *f)
{
	fputs("usage: iwarpscope-gen --scenario NAME [--seed N] --out PREFIX [--size BYTES]\n"
	      "       iwarpscope-gen --list\n"
	      "Writes PREFIX.pcap (or PREFIX.pcapng) and PREFIX.truth.json.\n"
	      "  --scenario NAME  what to generate (see --list)\n"
	      "  --seed N         PRNG seed (default: the scenario's committed seed)\n"
	      "  --out PREFIX     output path without extension\n"
	      "  --size BYTES     bench only: stop once the capture reaches BYTES\n"
	      "                   (suffixes k, M, G: powers of 1024; default 64M)\n"
	      "  --qps N          bench only: N QPs (2 to 200; default 8)\n"
	      "  --list           print NAME SEED EXTENSION COMMITTED SUMMARY per scenario\n"
	      "  --version, --help\n", f);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x = strtoull(s, &end, 0);

	if (end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		x <<= 10;
		end++;
		break;
	case 'm': case 'M':
		x <<= 20;
		end++;
		break;
	case 'g': case 'G':
		x <<= 30;
		end++;
		break;
	default:
		break;
	}
	if (*end)
		return -1;
	*v = x;
	return 0;
}

static const char *ext_of(const struct scenario *s)
{
	struct gen g;
	const char *e;

	if (!s->run)
		return "pcap";
	/* the format is a property of the scenario: probe it on an empty model */
	gen_init(&g, s->name, s->seed);
	s->run(&g);
	e = pcapw_ext(g.fmt);
	gen_free(&g);
	return e;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *out = NULL;
	uint64_t seed = 0, size = 64ull << 20, qps = BENCH_QPS;
	int have_seed = 0;
	const struct scenario *sc;
	struct gen g;
	int rc;

	if (crc32c((const uint8_t *)"123456789", 9) != 0xE3069283u) {
		fputs("iwarpscope-gen: CRC32c self-test failed\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("iwarpscope-gen %s\n", GEN_VERSION);
			return 0;
		} else if (!strcmp(a, "--list")) {
			for (int k = 0; k < nscenarios; k++)
				printf("%s %" PRIu64 " %s %s %s\n", scenarios[k].name, scenarios[k].seed,
				       ext_of(&scenarios[k]), scenarios[k].committed ? "yes" : "no",
				       scenarios[k].summary);
			return 0;
		} else if (i + 1 < argc && !strcmp(a, "--scenario")) {
			name = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--out")) {
			out = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--seed")) {
			if (parse_u64(argv[++i], &seed)) {
				fprintf(stderr, "iwarpscope-gen: bad seed '%s'\n", argv[i]);
				return 2;
			}
			have_seed = 1;
		} else if (i + 1 < argc && !strcmp(a, "--qps")) {
			if (parse_u64(argv[++i], &qps) || qps < 2 || qps > BENCH_MAX_QPS) {
				fprintf(stderr, "iwarpscope-gen: bad QP count '%s' (2 to %d)\n", argv[i],
					BENCH_MAX_QPS);
				return 2;
			}
		} else if (i + 1 < argc && !strcmp(a, "--size")) {
			if (parse_u64(argv[++i], &size)) {
				fprintf(stderr, "iwarpscope-gen: bad size '%s'\n", argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "iwarpscope-gen: unknown or incomplete option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	if (!name || !out) {
		usage(stderr);
		return 2;
	}
	sc = scenario_find(name);
	if (!sc) {
		fprintf(stderr, "iwarpscope-gen: unknown scenario '%s' (see --list)\n", name);
		return 2;
	}
	gen_init(&g, sc->name, have_seed ? seed : sc->seed);
	if (!sc->run) {
		rc = bench_run(&g, out, size, (int)qps);
	} else {
		sc->run(&g);
		rc = capture_write(&g, out);
	}
	gen_free(&g);
	if (rc) {
		fprintf(stderr, "iwarpscope-gen: cannot write %s\n", out);
		return 2;
	}
	return 0;
}
