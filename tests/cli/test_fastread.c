// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fastread.c against libpcap, record by record (issue 34 item 1): every
 * record fastread hands out has the timestamp, lengths and octets libpcap
 * gives for it; where fastread says the file ends, libpcap says so too;
 * where it falls back, libpcap goes on (its own errors then). Run over the
 * capture files given on the command line (the samples) and over files
 * made here from them: big-endian and microsecond pcap, pcapng in both byte
 * orders with several resolutions, Simple Packet Blocks, two sections,
 * unknown blocks, two interfaces; every truncation point of the first
 * records; lengths around the snapshot length; and 20,000 random
 * corruptions of headers. Both sides read the same octets: libpcap from
 * fmemopen, fastread in place (and through a mapped temporary file once).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "../unit/check.h"
#include "fastread.h"

static unsigned fully_read, fell_back, not_here, unopened, records_compared;

/* deterministic test data */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
	return check_rnd(&rng_state);
}

/* Compare the two readers over buf; false on a difference (said). */
static bool compare(const uint8_t *buf, size_t len, const char *what)
{
	char err[PCAP_ERRBUF_SIZE];
	FILE *f = fmemopen((void *)(uintptr_t)buf, len, "rb");
	if (!f)
		return false;
	pcap_t *h = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, err);
	if (!h) {
		fclose(f);
		unopened++;
		return true;
	}
	struct fastread *fr = fastread_mem(buf, len, pcap_datalink(h), pcap_snapshot(h));
	bool ok = true;
	if (!fr) {
		not_here++;
		pcap_close(h);
		return true;
	}
	for (uint64_t n = 1;; n++) {
		struct fastread_rec r;
		struct pcap_pkthdr *ph;
		const u_char *pd;
		int rc = fastread_next(fr, &r);
		if (rc == FASTREAD_FALLBACK) {
			fell_back++;
			break;
		}
		int lrc = pcap_next_ex(h, &ph, &pd);
		if (rc == FASTREAD_END) {
			if (lrc != PCAP_ERROR_BREAK) {
				fprintf(stderr, "%s: fastread ends before record %llu, libpcap: %d\n", what,
					(unsigned long long)n, lrc);
				ok = false;
			} else {
				fully_read++;
			}
			break;
		}
		records_compared++;
		if (lrc != 1 || (int64_t)ph->ts.tv_sec != r.sec || (int64_t)ph->ts.tv_usec != r.frac ||
		    ph->caplen != r.caplen || ph->len != r.len || memcmp(pd, r.data, r.caplen) != 0) {
			fprintf(stderr, "%s: record %llu differs (libpcap rc %d: %s)\n", what,
				(unsigned long long)n, lrc, lrc == 1 ? "" : pcap_geterr(h));
			ok = false;
			break;
		}
	}
	fastread_close(fr);
	pcap_close(h);
	return ok;
}

static void check_buf(const uint8_t *buf, size_t len, const char *what)
{
	CHECK(compare(buf, len, what));
}

/* ---- a base file's records, re-encoded ---- */

struct rec {
	uint32_t sec, frac, caplen, len;
	const uint8_t *data;
};

struct base {
	uint8_t *file;
	size_t len;
	uint32_t linktype, snaplen;
	bool nano;
	struct rec *r;
	size_t n;
};

static bool load(const char *path, struct base *b)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	rewind(f);
	b->file = malloc((size_t)sz);
	b->len = (size_t)sz;
	if (!b->file || fread(b->file, 1, b->len, f) != b->len) {
		fclose(f);
		return false;
	}
	fclose(f);
	uint32_t m;
	memcpy(&m, b->file, 4);
	if (b->len < 24 || (m != 0xa1b2c3d4u && m != 0xa1b23c4du))
		return false; /* little-endian pcap only as a base */
	b->nano = m == 0xa1b23c4du;
	memcpy(&b->snaplen, b->file + 16, 4);
	memcpy(&b->linktype, b->file + 20, 4);
	b->r = calloc(b->len / 16 + 1, sizeof(*b->r));
	b->n = 0;
	for (size_t at = 24; at + 16 <= b->len;) {
		struct rec *r = &b->r[b->n];
		memcpy(&r->sec, b->file + at, 4);
		memcpy(&r->frac, b->file + at + 4, 4);
		memcpy(&r->caplen, b->file + at + 8, 4);
		memcpy(&r->len, b->file + at + 12, 4);
		if (r->caplen > b->len - at - 16)
			break;
		r->data = b->file + at + 16;
		at += 16 + r->caplen;
		b->n++;
	}
	return b->n > 0;
}

struct out {
	uint8_t *p;
	size_t len, cap;
	bool be;                    /* write big-endian */
};

static void put(struct out *o, const void *v, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->p = realloc(o->p, o->cap);
	}
	memcpy(o->p + o->len, v, n);
	o->len += n;
}

static void put32(struct out *o, uint32_t v)
{
	if (o->be)
		v = __builtin_bswap32(v);
	put(o, &v, 4);
}

static void put16(struct out *o, uint16_t v)
{
	if (o->be)
		v = __builtin_bswap16(v);
	put(o, &v, 2);
}

static void pad4(struct out *o)
{
	static const uint8_t z[4];
	put(o, z, (4 - o->len % 4) % 4);
}

/* pcap in either byte order, micro or nano */
static struct out to_pcap(const struct base *b, bool be, bool nano, size_t upto)
{
	struct out o = { NULL, 0, 0, be };
	put32(&o, nano ? 0xa1b23c4du : 0xa1b2c3d4u);
	put16(&o, 2);
	put16(&o, 4);
	put32(&o, 0);
	put32(&o, 0);
	put32(&o, b->snaplen);
	put32(&o, b->linktype);
	for (size_t i = 0; i < b->n && i < upto; i++) {
		const struct rec *r = &b->r[i];
		uint32_t frac = r->frac;
		if (b->nano && !nano)
			frac /= 1000;
		else if (!b->nano && nano)
			frac *= 1000;
		put32(&o, r->sec);
		put32(&o, frac);
		put32(&o, r->caplen);
		put32(&o, r->len);
		put(&o, r->data, r->caplen);
	}
	return o;
}

static size_t block_start(struct out *o, uint32_t type)
{
	size_t at = o->len;
	put32(o, type);
	put32(o, 0); /* length, set by block_end */
	return at;
}

static void block_end(struct out *o, size_t at)
{
	pad4(o);
	uint32_t n = (uint32_t)(o->len - at + 4);
	put32(o, n);
	if (o->be)
		n = __builtin_bswap32(n);
	memcpy(o->p + at + 4, &n, 4);
}

static void shb(struct out *o)
{
	size_t at = block_start(o, 0x0a0d0d0au);
	put32(o, 0x1a2b3c4du);
	put16(o, 1);
	put16(o, 0);
	put32(o, 0xffffffffu);
	put32(o, 0xffffffffu);
	block_end(o, at);
}

/* tsres: the if_tsresol octet, or -1 for none; off: add an if_tsoffset */
static void idb(struct out *o, uint32_t linktype, uint32_t snaplen, int tsres, bool off)
{
	size_t at = block_start(o, 1);
	put16(o, (uint16_t)linktype);
	put16(o, 0);
	put32(o, snaplen);
	if (tsres >= 0) {
		uint8_t v = (uint8_t)tsres;
		put16(o, 9);
		put16(o, 1);
		put(o, &v, 1);
		pad4(o);
	}
	if (off) {
		uint64_t z = 0;
		put16(o, 14);
		put16(o, 8);
		put(o, &z, 8);
	}
	put16(o, 0);
	put16(o, 0);
	block_end(o, at);
}

/* pcapng: sections of up to per_section records; tsres as idb(); spb:
 * every third record a Simple Packet Block; odd: an unknown block and a
 * second interface the packets alternate on. */
static struct out to_pcapng(const struct base *b, bool be, int tsres, bool spb, bool odd,
			    size_t per_section)
{
	struct out o = { NULL, 0, 0, be };
	uint64_t per_sec = 1000000;
	if (tsres >= 0) {
		per_sec = 1;
		for (int k = 0; k < tsres; k++)
			per_sec *= 10;
	}
	for (size_t i = 0; i < b->n; i++) {
		if (i % per_section == 0) {
			shb(&o);
			idb(&o, b->linktype, b->snaplen, tsres, odd);
			if (odd) {
				idb(&o, b->linktype, b->snaplen, tsres, false);
				size_t at = block_start(&o, 0xBAD);
				put32(&o, 12345);
				block_end(&o, at);
			}
		}
		const struct rec *r = &b->r[i];
		if (spb && i % 3 == 2) {
			size_t at = block_start(&o, 3);
			put32(&o, r->len);
			put(&o, r->data, r->caplen < r->len ? r->caplen : r->len);
			block_end(&o, at);
			continue;
		}
		uint64_t ns = (uint64_t)r->frac * (b->nano ? 1 : 1000);
		uint64_t t = (uint64_t)r->sec * per_sec + ns * per_sec / 1000000000u;
		size_t at = block_start(&o, 6);
		put32(&o, odd ? (uint32_t)(i & 1) : 0);
		put32(&o, (uint32_t)(t >> 32));
		put32(&o, (uint32_t)t);
		put32(&o, r->caplen);
		put32(&o, r->len);
		put(&o, r->data, r->caplen);
		block_end(&o, at);
	}
	return o;
}

static void variants(const struct base *b, const char *name)
{
	char what[256];
	for (int be = 0; be < 2; be++)
		for (int nano = 0; nano < 2; nano++) {
			struct out o = to_pcap(b, be, nano, SIZE_MAX);
			snprintf(what, sizeof(what), "%s as pcap be=%d nano=%d", name, be, nano);
			check_buf(o.p, o.len, what);
			free(o.p);
		}
	static const int res[] = { -1, 9, 6, 3, 0, 10, 0x80 | 20 };
	for (int be = 0; be < 2; be++)
		for (size_t k = 0; k < sizeof(res) / sizeof(res[0]); k++)
			for (int shape = 0; shape < 3; shape++) {
				struct out o = to_pcapng(b, be, res[k], shape == 1, shape == 2,
							 shape == 2 ? 7 : SIZE_MAX);
				snprintf(what, sizeof(what), "%s as pcapng be=%d tsresol=%d shape=%d", name,
					 be, res[k], shape);
				check_buf(o.p, o.len, what);
				free(o.p);
			}
	/* every truncation point of the first five records, both formats */
	struct out p = to_pcap(b, false, b->nano, 5);
	struct out g = to_pcapng(b, true, 9, true, true, 2);
	for (size_t cut = 0; cut <= p.len; cut++) {
		snprintf(what, sizeof(what), "%s pcap cut at %zu", name, cut);
		check_buf(p.p, cut, what);
	}
	for (size_t cut = 0; cut <= g.len && cut < 6000; cut++) {
		snprintf(what, sizeof(what), "%s pcapng cut at %zu", name, cut);
		check_buf(g.p, cut, what);
	}
	free(p.p);
	free(g.p);
}

/* Lengths around the snapshot length and MAXIMUM_SNAPLEN, odd timestamps. */
static void lengths(const struct base *b, const char *name)
{
	static const uint32_t snaps[] = { 64, 96, 262144, 0, 300000 };
	char what[256];
	for (size_t s = 0; s < sizeof(snaps) / sizeof(snaps[0]); s++) {
		struct out o = to_pcap(b, false, false, 4);
		memcpy(o.p + 16, &snaps[s], 4);
		snprintf(what, sizeof(what), "%s snaplen %u", name, snaps[s]);
		check_buf(o.p, o.len, what);
		/* the first record's caplen and timestamp fields */
		static const uint32_t vals[] = { 0, 1, 63, 64, 65, 96, 262144, 262145, 0x7FFFFFFF,
						 0x80000000u, 0xFFFFFFFFu, 999999, 1000000 };
		for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++)
			for (int field = 0; field < 4; field++) {
				struct out m = { NULL, 0, 0, false };
				put(&m, o.p, o.len);
				memcpy(m.p + 24 + 4 * field, &vals[v], 4);
				snprintf(what, sizeof(what), "%s snaplen %u field %d = %u", name,
					 snaps[s], field, vals[v]);
				check_buf(m.p, m.len, what);
				free(m.p);
			}
		free(o.p);
	}
}

/* Random corruption of octets in the first 2 KiB (headers, blocks). */
static void corrupt(const struct base *b, const char *name, int rounds)
{
	struct out p = to_pcap(b, false, true, 20);
	struct out g = to_pcapng(b, false, 9, true, true, 3);
	char what[256];
	for (int i = 0; i < rounds; i++) {
		struct out *src = i & 1 ? &g : &p;
		uint8_t *m = malloc(src->len);
		memcpy(m, src->p, src->len);
		int flips = 1 + (int)(rnd() % 4);
		size_t span = src->len < 2048 ? src->len : 2048;
		for (int k = 0; k < flips; k++)
			m[8 + rnd() % (span - 8)] ^= (uint8_t)(1u << (rnd() % 8));
		snprintf(what, sizeof(what), "%s corruption %d", name, i);
		check_buf(m, src->len, what);
		free(m);
	}
	free(p.p);
	free(g.p);
}

/* Through a mapped file, as the source reads. */
static void mapped(const char *path)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *h = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	CHECK(h != NULL);
	if (!h)
		return;
	FILE *f = fopen(path, "rb");
	struct fastread *fr = fastread_map(fileno(f), pcap_datalink(h), pcap_snapshot(h));
	fclose(f); /* the mapping stays */
	CHECK(fr != NULL);
	uint64_t n = 0;
	struct fastread_rec r;
	struct pcap_pkthdr *ph;
	const u_char *pd;
	while (fr && fastread_next(fr, &r) == FASTREAD_RECORD) {
		n++;
		CHECK(pcap_next_ex(h, &ph, &pd) == 1 && ph->caplen == r.caplen &&
		      memcmp(pd, r.data, r.caplen) == 0);
	}
	CHECK(pcap_next_ex(h, &ph, &pd) == PCAP_ERROR_BREAK);
	CHECK(n > 0);
	CHECK_EQ(fr ? fastread_pos(fr) : 0, fr ? fastread_size(fr) : 1);
	fastread_close(fr);
	pcap_close(h);
}

/* A copy of the file cut shorter while it is mapped: the records before the
 * cut come out, then FASTREAD_FALLBACK (libpcap reports the cut), never a
 * SIGBUS, whichever page the cut falls in. */
static void shrunk(const char *path, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	if (len < 3 * (size_t)page)
		return;
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *h = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	CHECK(h != NULL);
	if (!h)
		return;
	char tmpl[] = "/tmp/iws-fastread-XXXXXX";
	int fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	FILE *in = fopen(path, "rb");
	uint8_t buf[65536];
	size_t n;
	while (in && fd >= 0 && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK(write(fd, buf, n) == (ssize_t)n);
	if (in)
		fclose(in);
	struct fastread *fr = fd >= 0 ? fastread_map(fd, pcap_datalink(h), pcap_snapshot(h)) : NULL;
	CHECK(fr != NULL);
	/* cut at one page and a half: the page after it is wholly gone */
	size_t cut = (size_t)page + (size_t)page / 2;
	CHECK(ftruncate(fd, (off_t)cut) == 0);
	struct fastread_rec r;
	int rc;
	uint64_t before = 0, sum = 0;
	while (fr && (rc = fastread_next(fr, &r)) == FASTREAD_RECORD) {
		for (uint32_t i = 0; i < r.caplen; i++)
			sum += r.data[i];   /* touch every octet handed out */
		before++;
	}
	CHECK(fr == NULL || rc == FASTREAD_FALLBACK);
	CHECK(before > 0);
	/* octets past the cut in its own page read as zeros (no fault there):
	 * the fault comes at the first page wholly past it */
	CHECK(fr == NULL || fastread_pos(fr) <= 3 * (size_t)page);
	(void)sum;
	fastread_close(fr);
	pcap_close(h);
	if (fd >= 0)
		close(fd);
	unlink(tmpl);
}

int main(int argc, char **argv)
{
	bool first = true, cut = false;
	for (int i = 1; i < argc; i++) {
		struct base b = { 0 };
		FILE *f = fopen(argv[i], "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		size_t len = (size_t)ftell(f);
		rewind(f);
		uint8_t *buf = malloc(len);
		if (fread(buf, 1, len, f) == len)
			check_buf(buf, len, argv[i]);
		fclose(f);
		free(buf);
		/* one load per file (load allocates; a second would leak the first) */
		bool loaded = load(argv[i], &b);
		if (loaded && b.n >= 5 && b.r[0].caplen < 2000 && first) {
			/* the edge cases from one small sample */
			first = false;
			variants(&b, argv[i]);
			lengths(&b, argv[i]);
			corrupt(&b, argv[i], 20000);
			mapped(argv[i]);
		} else if (loaded && b.len < (4u << 20)) {
			struct out o = to_pcapng(&b, true, 6, false, false, SIZE_MAX);
			check_buf(o.p, o.len, "pcapng of a sample");
			free(o.p);
		}
		if (!cut && len >= 64 * 4096) {
			cut = true;
			shrunk(argv[i], len);
		}
		free(b.file);
		free(b.r);
	}
	printf("files read whole by fastread %u, fallen back %u, left to libpcap %u, not captures %u; "
	       "%u records compared\n", fully_read, fell_back, not_here, unopened, records_compared);
	CHECK(!first);
	CHECK(cut);
	CHECK(fully_read > 100 && fell_back > 100 && records_compared > 10000);
	return check_done("test_fastread");
}
