// SPDX-License-Identifier: GPL-2.0-or-later
/* The pieces of `iwarpscope merge` on byte vectors (issue 17 item 6): the
 * sketch written and read back, the JSON reader on valid and invalid text,
 * sketches that lie, and a fuzz-like run of mutated statistics through the
 * reader and the merge (run it under ASan/UBSan: nothing may crash). */
#include "../unit/check.h"
#include "jsonr.h"
#include "merge.h"
#include "dists.h"
#include "sketch.h"

static bool collect(void *ctx, uint32_t b, uint64_t n)
{
	uint64_t *acc = ctx;
	acc[0] = acc[0] * 31 + b;
	acc[1] = acc[1] * 31 + n;
	return true;
}

static void round_trip(void)
{
	struct iws_latency l;
	struct jsonw jw;
	iws_latency_init(&l);
	static const int64_t v[] = { 600, 3, 0, 1000000, 3 };
	for (unsigned i = 0; i < 5; i++)
		iws_latency_add(&l, v[i]);
	jw_init(&jw, false);
	jw_obj(&jw);
	latency_json_sketch(&jw, "lat", &l);
	jw_obj_end(&jw);
	static const char want[] =
		"{\"lat\": {\"count\": 5, \"min\": 0, \"mean\": 200121, \"p50\": 3, \"p90\": 1000000, "
		"\"p99\": 1000000, \"p999\": 1000000, \"max\": 1000000, \"exact\": true, "
		"\"sketch\": {\"v\": 1, \"sub_bits\": 9, \"sum\": 1000606, "
		"\"buckets\": [0, 1, 3, 2, 553, 1, 2748, 1]}}}";
	CHECK(jw.len == strlen(want) && memcmp(jw.buf, want, jw.len) == 0);
	if (jw.len != strlen(want) || memcmp(jw.buf, want, jw.len))
		fprintf(stderr, "got  %.*s\nwant %s\n", (int)jw.len, jw.buf, want);

	struct jr_doc d;
	char err[200];
	struct iws_latency r;
	CHECK(jr_parse(&d, jw.buf, jw.len, err, sizeof(err)) == 0);
	CHECK(sketch_read(&d, jr_get(&d, jr_root(&d), "lat"), &r, err, sizeof(err)) == 0);
	CHECK_EQ(r.count, 5);
	CHECK_EQ(r.min, 0);
	CHECK_EQ(r.max, 1000000);
	CHECK_EQ(r.sum, 1000606);
	uint64_t a[2] = { 0, 0 }, b[2] = { 0, 0 };
	iws_latency_buckets(&l, collect, a);
	iws_latency_buckets(&r, collect, b);
	CHECK(a[0] == b[0] && a[1] == b[1]);
	CHECK_EQ(iws_latency_quantile(&r, 0.5), 3);
	CHECK_EQ(iws_latency_quantile(&r, 0.99), 1000000);
	/* the 600 comes back as its bucket's middle: 600..601 -> 600 */
	CHECK_EQ(iws_latency_quantile(&r, 0.8), 600);
	iws_latency_free(&r);
	jr_free(&d);

	/* Pretty: the bucket list stays on one line. */
	jw_free(&jw);
	jw_init(&jw, true);
	jw_obj(&jw);
	latency_json_sketch(&jw, "lat", &l);
	jw_obj_end(&jw);
	CHECK(strstr(jw.buf, "\"buckets\": [0, 1, 3, 2, 553, 1, 2748, 1]\n") != NULL);
	jw_free(&jw);
	iws_latency_free(&l);
}

static int parses(const char *text)
{
	struct jr_doc d;
	char err[200];
	int rc = jr_parse(&d, text, strlen(text), err, sizeof(err));
	if (!rc)
		jr_free(&d);
	return rc == 0;
}

static void reader(void)
{
	static const char *const good[] = {
		"{}", "[]", " [1, -2, 0, 1.5e3, -0.25, 18446744073709551615] ", "\"a\\u00e9\\ud83d\\ude00\\n\"",
		"{\"a\": {\"b\": [true, false, null]}}", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
		"[[[[[[[[[[[[[[]]]]]]]]]]]]]]", /* 14 levels */
	};
	static const char *const bad[] = {
		"", " ", "{", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "[01]", "[-]", "[1.]", "[1e]", "[.5]",
		"\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
		"\"\\u0000\"", "\"a\tb\"", "\"\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
		"[1] x", "tru", "nul", "[NaN]", "{1: 2}", "[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]", /* 15 */
		"\xef\xbb\xbf{}",
	};
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(parses(good[i]));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!parses(bad[i]));
		if (parses(bad[i]))
			fprintf(stderr, "bad[%u] parsed\n", i);
	}
	/* An embedded NUL is no JSON. */
	struct jr_doc d;
	char err[200];
	CHECK(jr_parse(&d, "[1]\0", 4, err, sizeof(err)) != 0);
	/* Values and keys. */
	const char *t = "{\"k\": \"v\\\"w\", \"n\": -9223372036854775808, \"u\": 18446744073709551615,"
			" \"big\": 18446744073709551616, \"f\": 2.5}";
	CHECK(jr_parse(&d, t, strlen(t), err, sizeof(err)) == 0);
	int64_t i64;
	uint64_t u64;
	CHECK(strcmp(jr_str(&d, jr_get(&d, jr_root(&d), "k")), "v\"w") == 0);
	CHECK(jr_i64(jr_get(&d, jr_root(&d), "n"), &i64) && i64 == INT64_MIN);
	CHECK(!jr_u64(jr_get(&d, jr_root(&d), "n"), &u64));
	CHECK(jr_u64(jr_get(&d, jr_root(&d), "u"), &u64) && u64 == UINT64_MAX);
	CHECK(!jr_i64(jr_get(&d, jr_root(&d), "u"), &i64));
	CHECK(!jr_u64(jr_get(&d, jr_root(&d), "big"), &u64));
	CHECK(!jr_u64(jr_get(&d, jr_root(&d), "f"), &u64));
	CHECK(jr_get(&d, jr_root(&d), "none") == NULL);
	/* A missing member chains through every accessor (a merged file is input). */
	CHECK(jr_str(&d, jr_get(&d, jr_root(&d), "none")) == NULL);
	CHECK(strcmp(jr_key(&d, jr_get(&d, jr_root(&d), "none")), "") == 0);
	CHECK(jr_str(&d, jr_get(&d, jr_root(&d), "n")) == NULL);
	jr_free(&d);
}

/* Distributions that lie about themselves are refused. */
static void lying_sketches(void)
{
#define LAT(cnt, mn, mx, sk) "{\"count\": " cnt ", \"min\": " mn ", \"max\": " mx ", \"sketch\": " sk "}"
#define SK(v, sub, sum, b) "{\"v\": " v ", \"sub_bits\": " sub ", \"sum\": " sum ", \"buckets\": " b "}"
	static const char *const good = LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]"));
	static const char *const bad[] = {
		LAT("3", "3", "600", SK("2", "9", "606", "[3, 2, 553, 1]")),     /* version */
		LAT("3", "3", "600", SK("1", "8", "606", "[3, 2, 553, 1]")),     /* layout */
		LAT("4", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]")),     /* count */
		LAT("2", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]")),     /* count */
		LAT("3", "4", "600", SK("1", "9", "606", "[3, 2, 553, 1]")),     /* min */
		LAT("3", "3", "9000", SK("1", "9", "606", "[3, 2, 553, 1]")),    /* max */
		LAT("3", "600", "3", SK("1", "9", "606", "[3, 2, 553, 1]")),     /* min > max */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 553]")),        /* odd */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 0, 1]")),       /* no step */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 3, 553, 0]")),     /* empty bucket */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, -553, 1]")),    /* backwards */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 99999999, 1]")),/* out of range */
		LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 18446744073709551615, 1]")),
		LAT("3", "3", "600", SK("1", "9", "1.5", "[3, 2, 553, 1]")),     /* sum */
		LAT("3", "3", "600", SK("1", "9", "606", "[]")),
		LAT("3", "3", "600", SK("1", "9", "606", "{}")),
		LAT("3", "3", "600", "null"),
		LAT("0", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]")),
		LAT("8589934592", "3", "3", SK("1", "9", "3", "[3, 8589934592]")), /* 2^33 in a bucket */
		"[]", "null",
	};
	struct jr_doc d;
	struct iws_latency l;
	char err[200];
	CHECK(jr_parse(&d, good, strlen(good), err, sizeof(err)) == 0);
	CHECK(sketch_read(&d, jr_root(&d), &l, err, sizeof(err)) == 0);
	CHECK_EQ(iws_latency_quantile(&l, 0.5), 3);
	iws_latency_free(&l);
	jr_free(&d);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(jr_parse(&d, bad[i], strlen(bad[i]), err, sizeof(err)) == 0);
		int rc = sketch_read(&d, jr_root(&d), &l, err, sizeof(err));
		CHECK(rc != 0);
		if (rc == 0) {
			fprintf(stderr, "lying sketch %u accepted\n", i);
			iws_latency_free(&l);
		}
		jr_free(&d);
	}
}

/* A small statistics document: two QPs, a total, an NVMe group. */
static const char stats_doc[] =
	"{\"capture\": {\"files\": [\"a.pcap\"], \"frames\": 10, \"first_ns\": 5, \"last_ns\": 9,"
	" \"reasm_peak_bytes\": 7, \"warnings\": []},"
	" \"qps\": [{\"qp\": 0, \"initiator\": \"1.1.1.1:1\", \"ops\": {\"read\": {\"count\": 3,"
	" \"bytes\": 30, \"latency_ns\": " LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]"))
	", \"delivery_ns\": null}}},"
	" {\"qp\": 1, \"ops\": {}}],"
	" \"total\": {\"qps\": 2, \"bytes\": 30, \"throughput_bps\": 5, \"ops\": {\"read\": {\"count\": 3,"
	" \"bytes\": 30, \"latency_ns\": " LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]"))
	"}}, \"nvme\": {\"qps\": 1, \"ops\": [{\"qid\": 1, \"op\": \"read\", \"count\": 3, \"iops\": 9,"
	" \"latency_ns\": " LAT("3", "3", "600", SK("1", "9", "606", "[3, 2, 553, 1]")) "}]}}}";

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fuzz_like(void)
{
	FILE *null = fopen("/dev/null", "w");
	struct merge_in in[2] = { { .label = "a.json" }, { .label = "b.json" } };
	char err[600];
	size_t n = strlen(stats_doc);
	CHECK(jr_parse(&in[0].doc, stats_doc, n, err, sizeof(err)) == 0);
	CHECK(jr_parse(&in[1].doc, stats_doc, n, err, sizeof(err)) == 0);
	CHECK(merge_write(null, in, 2, false, err, sizeof(err)) == 0);
	CHECK(merge_write(null, in, 2, true, err, sizeof(err)) == 0);
	jr_free(&in[1].doc);

	static const char specials[] = "{}[]\",:0123456789-.eE\\u \xff\x80";
	char *buf = malloc(2 * n + 64);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned parsed = 0, merged = 0;
	for (int it = 0; it < 20000; it++) {
		size_t len = n;
		memcpy(buf, stats_doc, n);
		int edits = 1 + (int)(rnd(&seed) % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = (size_t)(rnd(&seed) % len), span = 1 + (size_t)(rnd(&seed) % 16);
			switch (rnd(&seed) % 4) {
			case 0: /* a byte changed */
				buf[at] = specials[rnd(&seed) % (sizeof(specials) - 1)];
				break;
			case 1: /* a span removed */
				if (at + span > len)
					span = len - at;
				memmove(buf + at, buf + at + span, len - at - span);
				len -= span;
				break;
			case 2: /* a span repeated */
				if (at + span > len)
					span = len - at;
				if (len + span < 2 * n) {
					memmove(buf + at + span, buf + at, len - at);
					len += span;
				}
				break;
			default: /* cut short */
				len = at;
				break;
			}
			if (!len)
				break;
		}
		if (jr_parse(&in[1].doc, buf, len, err, sizeof(err)))
			continue;
		parsed++;
		merged += merge_write(null, in, 2, it % 2, err, sizeof(err)) == 0;
		jr_free(&in[1].doc);
	}
	printf("fuzz-like: 20000 mutations, %u parsed, %u merged\n", parsed, merged);
	CHECK(parsed > 100);
	free(buf);
	jr_free(&in[0].doc);
	fclose(null);
}

int main(void)
{
	round_trip();
	reader();
	lying_sketches();
	fuzz_like();
	return check_done("merge_json");
}
