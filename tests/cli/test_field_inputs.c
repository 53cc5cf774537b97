// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CLI's field-input stages on small synthetic inputs: decomp.c (gzip in
 * one or several members, cut short, corrupt; plain streams given back) and
 * inputs.c (natural order, holes in rotated sets, time-named sets that are
 * not counters). The end-to-end checks are tests/golden/field_inputs.py.
 */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "../unit/check.h"
#include "decomp.h"
#include "inputs.h"

/* A gzip member (RFC 1952) of n octets of src into out; its length. */
static size_t gz(const uint8_t *src, size_t n, uint8_t *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	size_t len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

/* Decompress buf through decomp_open; returns octets read, *fatal whether a
 * read error ended it. */
static size_t drain(uint8_t *buf, size_t n, uint8_t *out, size_t cap, bool *fatal, const char **why)
{
	FILE *raw = fmemopen(buf, n, "rb");
	enum decomp_kind k;
	struct decomp *dc;
	char err[256];
	FILE *f = decomp_open(raw, "mem", true, 0, NULL, &k, &dc, err, sizeof(err));
	if (!f) {
		fclose(raw);
		*fatal = true;
		*why = "open failed";
		return 0;
	}
	size_t got = fread(out, 1, cap, f);
	*fatal = ferror(f) != 0;
	static char msg[256];
	const char *w = decomp_error(dc, NULL);
	snprintf(msg, sizeof(msg), "%s", w ? w : "");
	*why = msg;
	fclose(f);
	return got;
}

static void test_decomp(void)
{
	static uint8_t src[200000], z[300000], out[300000];
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + (i >> 9));
	size_t zn = gz(src, sizeof(src), z, sizeof(z));
	bool fatal;
	const char *why;
	CHECK_EQ(decomp_sniff(z, zn), DECOMP_GZIP);
	CHECK_EQ(drain(z, zn, out, sizeof(out), &fatal, &why), sizeof(src));
	CHECK(!fatal && memcmp(out, src, sizeof(src)) == 0);
	/* two members one after the other */
	size_t z1 = gz(src, 1000, z, sizeof(z));
	size_t z2 = gz(src + 1000, sizeof(src) - 1000, z + z1, sizeof(z) - z1);
	CHECK_EQ(drain(z, z1 + z2, out, sizeof(out), &fatal, &why), sizeof(src));
	CHECK(!fatal && memcmp(out, src, sizeof(src)) == 0);
	/* cut short: what came before, then a read error that says so */
	zn = gz(src, sizeof(src), z, sizeof(z));
	size_t got = drain(z, zn / 2, out, sizeof(out), &fatal, &why);
	CHECK(fatal && got > 0 && got < sizeof(src) && memcmp(out, src, got) == 0);
	CHECK(strstr(why, "truncated") != NULL);
	/* corrupt: a read error naming it */
	for (size_t i = zn / 2; i < zn / 2 + 32; i++)
		z[i] ^= 0xA5;
	drain(z, zn, out, sizeof(out), &fatal, &why);
	CHECK(fatal && strstr(why, "corrupt gzip") != NULL);
	/* trailing garbage after a complete member: all data, a note, no error */
	zn = gz(src, 5000, z, sizeof(z));
	memcpy(z + zn, "garbage", 7);
	CHECK_EQ(drain(z, zn + 7, out, sizeof(out), &fatal, &why), 5000);
	CHECK(!fatal && strstr(why, "after the end") != NULL);
	/* plain data through a seekable stream: the stream itself, rewound */
	uint8_t plain[] = { 0xd4, 0xc3, 0xb2, 0xa1, 1, 2, 3, 4, 5, 6 };
	CHECK_EQ(drain(plain, sizeof(plain), out, sizeof(out), &fatal, &why), sizeof(plain));
	CHECK(!fatal && memcmp(out, plain, sizeof(plain)) == 0);
	/* xz is named and refused */
	uint8_t xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0, 1, 2 };
	drain(xz, sizeof(xz), out, sizeof(out), &fatal, &why);
	CHECK(fatal);
}

/* A gzip stream of buf through decomp_open with budget b. */
static FILE *open_budget(uint8_t *buf, size_t n, struct decomp_budget *b, struct decomp **dc)
{
	enum decomp_kind k;
	char err[256];
	return decomp_open(fmemopen(buf, n, "rb"), "mem", true, 0, b, &k, dc, err, sizeof(err));
}

/* Two gzip streams read at once under a budget that holds one decoder:
 * opening the second spills the first (the rest of it decompressed into
 * the temporary file, its decoder freed), both still read whole and in
 * order; damage found while spilling comes after the octets before it;
 * without a temporary directory the decoders stay and the budget says so. */
static void test_budget(void)
{
	static uint8_t src[200000], za[300000], zb[300000], out[300000];
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + (i >> 9));
	size_t na = gz(src, sizeof(src), za, sizeof(za)), nb = gz(src, sizeof(src), zb, sizeof(zb));
	for (int cut = 0; cut < 2; cut++) {
		struct decomp_budget *b = decomp_budget_new(150 * 1024);
		struct decomp *da, *db;
		FILE *a = open_budget(za, cut ? na / 2 : na, b, &da);
		CHECK(a && fread(out, 1, 1000, a) == 1000 && memcmp(out, src, 1000) == 0);
		FILE *fb = open_budget(zb, nb, b, &db);
		uint64_t peak, octets;
		uint32_t files;
		decomp_budget_figures(b, &peak, &files, &octets);
		CHECK(files == 1 && octets > 0 && peak <= 150 * 1024 && !decomp_budget_error(b));
		size_t got = 1000 + fread(out + 1000, 1, sizeof(out) - 1000, a);
		if (cut) {
			CHECK(got > 1000 && got < sizeof(src) && ferror(a) &&
			      memcmp(out, src, got) == 0);
			CHECK(decomp_error(da, NULL) && strstr(decomp_error(da, NULL), "truncated"));
		} else {
			CHECK(got == sizeof(src) && memcmp(out, src, sizeof(src)) == 0 && !ferror(a));
		}
		CHECK(fread(out, 1, sizeof(out), fb) == sizeof(src) && memcmp(out, src, sizeof(src)) == 0);
		fclose(a);
		fclose(fb);
		decomp_budget_free(b);
	}
	/* no temporary file can be made: nothing spilled, nothing lost, said */
	const char *tmp = getenv("TMPDIR");
	char *was = tmp ? strdup(tmp) : NULL;
	setenv("TMPDIR", "/nonexistent/iws", 1);
	struct decomp_budget *b = decomp_budget_new(150 * 1024);
	struct decomp *da, *db;
	FILE *a = open_budget(za, na, b, &da), *fb = open_budget(zb, nb, b, &db);
	CHECK(decomp_budget_error(b) && strstr(decomp_budget_error(b), "/nonexistent/iws"));
	CHECK(fread(out, 1, sizeof(out), a) == sizeof(src) && memcmp(out, src, sizeof(src)) == 0);
	CHECK(fread(out, 1, sizeof(out), fb) == sizeof(src) && memcmp(out, src, sizeof(src)) == 0);
	fclose(a);
	fclose(fb);
	decomp_budget_free(b);
	if (was)
		setenv("TMPDIR", was, 1);
	else
		unsetenv("TMPDIR");
	free(was);
}

static int notes_with(const struct inputs *in, const char *s)
{
	int n = 0;
	for (int i = 0; i < in->nnotes; i++)
		n += strstr(in->notes[i], s) != NULL;
	return n;
}

static void expand(const char *dir, const char *const *names, int n, struct inputs *in)
{
	const char *ops[16];
	char paths[16][512];
	for (int i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, names[i]);
		FILE *f = fopen(paths[i], "wb");
		if (f)
			fclose(f);
		ops[i] = paths[i];
	}
	char err[256];
	CHECK(inputs_expand(ops, n, in, err, sizeof(err)) == 0);
}

static void test_inputs(void)
{
	CHECK(inputs_natcmp("f.pcap2", "f.pcap10") < 0);
	CHECK(inputs_natcmp("f.pcap10", "f.pcap2") > 0);
	CHECK(inputs_natcmp("a_00001_x", "a_00001_x") == 0);
	CHECK(inputs_natcmp("f.pcap", "f.pcap1") < 0);
	char dir[] = "/tmp/iws-inputs-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	struct inputs in;
	static const char *const w[] = { "w.pcap0", "w.pcap1", "w.pcap3", "w.pcap4" };
	expand(dir, w, 4, &in);
	CHECK_EQ(notes_with(&in, "w.pcap3"), 1);  /* -W set: w.pcap2 missing */
	inputs_free(&in);
	static const char *const c[] = { "c.pcap", "c.pcap1", "c.pcap2", "c.pcap4" };
	expand(dir, c, 4, &in);
	CHECK_EQ(notes_with(&in, "c.pcap4"), 1);  /* -C set: c.pcap3 missing */
	inputs_free(&in);
	static const char *const ok[] = { "k.pcap", "k.pcap1", "k.pcap2" };
	expand(dir, ok, 3, &in);
	CHECK_EQ(in.nnotes, 0);
	inputs_free(&in);
	static const char *const g[] = { "g-100723.pcap", "g-100823.pcap", "g-100923.pcap" };
	expand(dir, g, 3, &in);
	CHECK_EQ(in.nnotes, 0);                    /* -G time names: not a counter */
	inputs_free(&in);
	/* a pattern and a directory (the empty files above are not captures) */
	char pat[600], err[256];
	snprintf(pat, sizeof(pat), "%s/w.pcap*", dir);
	const char *ops[] = { pat };
	CHECK(inputs_expand(ops, 1, &in, err, sizeof(err)) == 0 && in.nfiles == 4);
	inputs_free(&in);
	const char *dops[] = { dir };
	CHECK(inputs_expand(dops, 1, &in, err, sizeof(err)) == -1 &&
	      strstr(err, "without capture files") != NULL);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_decomp();
	test_budget();
	test_inputs();
	return check_done("test_field_inputs");
}
