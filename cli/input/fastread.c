// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-place reading of pcap and pcapng files (see fastread.h). Every check
 * below mirrors one of libpcap 1.10's (sf-pcap.c, sf-pcapng.c); where
 * libpcap would report an error, cut a record, or do something this file
 * does not, the answer is FASTREAD_FALLBACK and libpcap itself goes on.
 */
#include "fastread.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* libpcap's largest sane captured length for the link types read here
 * (MAXIMUM_SNAPLEN, max_snaplen_for_dlt). */
#define MAX_SNAPLEN 262144u
/* Mapped octets behind the reading position are given back to the kernel
 * in steps of this much (they stay in the page cache), so the resident
 * size does not grow with the file. */
#define DROP_STEP (256u << 10)
/* Held for other threads (-j N), in larger steps: each give-back makes the
 * kernel flush the range from the TLBs of every processor running one of
 * the threads, an interrupt each (smp_call_function_many_cond, and in a
 * virtual machine an exit); 1 MiB steps took -j 2 from 1.3-1.45x to about
 * 1.5x of -j 1 on two cores (docs/performance.md) for about 0.75 MiB more
 * resident. */
#define DROP_STEP_HELD (1024u << 10)
/* A pcapng block longer than this is left to libpcap (its own limit grows
 * from 16 MiB; a packet block of this reader is at most a snapshot). */
#define MAX_BLOCK (16u << 20)
#define MAX_IFACES 256

enum fmt { FMT_PCAP, FMT_PCAPNG };

struct iface {
	uint64_t tsresol;           /* units a second */
	uint64_t scale;             /* to nanoseconds: frac * scale */
};

struct fastread {
	const uint8_t *base;
	size_t size, pos;
	bool mapped;
	size_t dropped;             /* mapped octets given back, from base */
	/* fastread_keep: records handed out from keep on are still in use
	 * elsewhere (another thread's), their pages are not given back */
	bool held;
	size_t keep;
	enum fmt fmt;
	bool swapped;
	uint32_t snapshot;
	int dlt;
	uint64_t records;
	/* pcap */
	bool nano;
	/* pcapng */
	struct iface ifaces[MAX_IFACES];
	uint32_t nifaces;
	bool seen_idb;              /* the file's first IDB read (libpcap read it at open) */
	volatile sig_atomic_t shrunk; /* a page past the file's end was touched (SIGBUS) */
};

/*
 * A mapped file cut shorter while it is read: touching a page wholly past
 * its new end raises SIGBUS (mmap(2)). The source checks the size every
 * SHRINK_CHECK octets, but a cut inside that stretch would end the process.
 * The handler puts a page of zeros in the place of the one touched (so the
 * access that faulted completes) and marks the reader: its next call hands
 * over to libpcap, which reports the cut. A fault outside every mapping of
 * a reader is not ours: the default action, as without the handler.
 */
#define MAX_GUARDED 64
static struct fastread *guarded[MAX_GUARDED];
static bool guard_installed;
static struct sigaction guard_prev;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	uintptr_t a = (uintptr_t)si->si_addr;
	for (int i = 0; i < MAX_GUARDED; i++) {
		struct fastread *fr = guarded[i];
		if (fr && a >= (uintptr_t)fr->base && a < (uintptr_t)fr->base + fr->size) {
			uintptr_t page = a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
			if (mmap((void *)page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
				 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
				fr->shrunk = 1;
				return;
			}
			break;
		}
	}
	/* not a reader's page (or no zero page): what SIGBUS did before */
	sigaction(sig, &guard_prev, NULL);
	raise(sig);
}

/* Guard fr's mapping; false if there is no room (it is then not mapped). */
static bool guard(struct fastread *fr)
{
	if (!guard_installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &guard_prev) != 0)
			return false;
		guard_installed = true;
	}
	for (int i = 0; i < MAX_GUARDED; i++)
		if (!guarded[i]) {
			guarded[i] = fr;
			return true;
		}
	return false;
}

static void unguard(struct fastread *fr)
{
	for (int i = 0; i < MAX_GUARDED; i++)
		if (guarded[i] == fr)
			guarded[i] = NULL;
}

static uint32_t rd32(const struct fastread *fr, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return fr->swapped ? __builtin_bswap32(v) : v;
}

static uint16_t rd16(const struct fastread *fr, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return fr->swapped ? __builtin_bswap16(v) : v;
}

/* Link types libpcap hands out as they are in the file (no pseudo-header
 * to swap or fix: pcap_post_process leaves them alone), with
 * MAXIMUM_SNAPLEN as their largest record. */
static bool plain_dlt(int dlt, bool swapped)
{
	switch (dlt) {
	case 0:     /* DLT_NULL */
	case 1:     /* DLT_EN10MB */
	case 12:    /* DLT_RAW (LINKTYPE_RAW) */
	case 108:   /* DLT_LOOP */
	case 228:   /* DLT_IPV4 */
	case 229:   /* DLT_IPV6 */
		return true;
	case 113:   /* DLT_LINUX_SLL, DLT_LINUX_SLL2: swapped files get a header fix */
	case 276:
		return !swapped;
	default:
		return false;
	}
}

/* The file's format from its first octets; false when not read here. */
static bool sniff(struct fastread *fr)
{
	if (fr->size < 24)
		return false;
	uint32_t m;
	memcpy(&m, fr->base, 4);
	switch (m) {
	case 0xa1b2c3d4u: case 0xa1b23c4du:
		fr->swapped = false;
		break;
	case 0xd4c3b2a1u: case 0x4d3cb2a1u:
		fr->swapped = true;
		break;
	case 0x0a0d0d0au: {
		/* pcapng: the byte order is the SHB's byte-order magic's */
		uint32_t bom;
		if (fr->size < 12)
			return false;
		memcpy(&bom, fr->base + 8, 4);
		if (bom != 0x1a2b3c4du && bom != 0x4d3c2b1au)
			return false;
		fr->fmt = FMT_PCAPNG;
		fr->swapped = bom != 0x1a2b3c4du;
		return true;
	}
	default:
		return false;
	}
	fr->fmt = FMT_PCAP;
	fr->nano = rd32(fr, fr->base) == 0xa1b23c4du;
	/* version 2.4 only: older ones may have caplen and len swapped */
	if (rd16(fr, fr->base + 4) != 2 || rd16(fr, fr->base + 6) != 4)
		return false;
	fr->pos = 24;
	return true;
}

struct fastread *fastread_mem(const uint8_t *base, size_t size, int dlt, int snapshot)
{
	if (snapshot <= 0)
		return NULL;
	struct fastread *fr = calloc(1, sizeof(*fr));
	if (!fr)
		return NULL;
	fr->base = base;
	fr->size = size;
	fr->dlt = dlt;
	fr->snapshot = (uint32_t)snapshot;
	if (!sniff(fr) || !plain_dlt(dlt, fr->swapped)) {
		free(fr);
		return NULL;
	}
	return fr;
}

struct fastread *fastread_map(int fd, int dlt, int snapshot)
{
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 24 ||
	    (uint64_t)sb.st_size > (uint64_t)SIZE_MAX)
		return NULL;
	size_t size = (size_t)sb.st_size;
	void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return NULL;
	madvise(m, size, MADV_SEQUENTIAL);
	struct fastread *fr = fastread_mem(m, size, dlt, snapshot);
	if (!fr) {
		munmap(m, size);
		return NULL;
	}
	fr->mapped = true;
	if (!guard(fr)) {
		fastread_close(fr);
		return NULL;
	}
	return fr;
}

/* Give back the mapped pages wholly behind pos (the records handed out
 * before it are no longer needed). */
static void drop_behind(struct fastread *fr)
{
	size_t step = fr->held ? DROP_STEP_HELD : DROP_STEP;
	if (!fr->mapped || fr->pos - fr->dropped < 2 * step)
		return;
	size_t upto = (fr->pos - step) & ~(step - 1);
	if (fr->held) {
		size_t keep = fr->keep & ~(step - 1);
		if (keep < upto)
			upto = keep;
	}
	if (upto <= fr->dropped)
		return;
	madvise((void *)(uintptr_t)(fr->base + fr->dropped), upto - fr->dropped, MADV_DONTNEED);
	fr->dropped = upto;
}

/* pcap-savefile(5): a 16-octet record header, then caplen octets. */
static int next_pcap(struct fastread *fr, struct fastread_rec *r)
{
	size_t left = fr->size - fr->pos;
	if (left == 0)
		return FASTREAD_END;
	if (left < 16)
		return FASTREAD_FALLBACK;      /* libpcap: truncated header */
	const uint8_t *h = fr->base + fr->pos;
	uint32_t caplen = rd32(fr, h + 8);
	if (caplen > fr->snapshot || caplen > MAX_SNAPLEN || caplen > left - 16)
		return FASTREAD_FALLBACK;      /* an error, or a record libpcap cuts */
	/* libpcap keeps the seconds and fraction as signed 32-bit values */
	r->sec = (int32_t)rd32(fr, h);
	r->frac = (int64_t)(int32_t)rd32(fr, h + 4) * (fr->nano ? 1 : 1000);
	r->caplen = caplen;
	r->len = rd32(fr, h + 12);
	r->data = h + 16;
	fr->pos += 16 + (size_t)caplen;
	return FASTREAD_RECORD;
}

/* An IDB's options (if_tsresol 9, if_tsoffset 14): false when libpcap is
 * to read it (a bad option, a resolution not 10^0..10^9, an offset). */
static bool idb_options(struct fastread *fr, const uint8_t *p, size_t n, struct iface *ifc)
{
	bool have_res = false, have_off = false;
	ifc->tsresol = 1000000;     /* the default: microseconds */
	while (n) {
		if (n < 4)
			return false;
		uint16_t code = rd16(fr, p), olen = rd16(fr, p + 2);
		size_t padded = ((size_t)olen + 3) & ~(size_t)3;
		if (padded > n - 4)
			return false;
		const uint8_t *v = p + 4;
		if (code == 0) {
			if (olen != 0)
				return false;
			break;
		}
		if (code == 9) {
			if (olen != 1 || have_res || (v[0] & 0x80) || v[0] > 9)
				return false;
			have_res = true;
			ifc->tsresol = 1;
			for (int k = 0; k < v[0]; k++)
				ifc->tsresol *= 10;
		} else if (code == 14) {
			uint64_t off;
			if (olen != 8 || have_off)
				return false;
			have_off = true;
			memcpy(&off, v, 8);
			if (off)
				return false;
		}
		p += 4 + padded;
		n -= 4 + padded;
	}
	ifc->scale = 1000000000u / ifc->tsresol;
	return true;
}

static void set_ts(struct fastread_rec *r, const struct iface *ifc, uint64_t t)
{
	r->sec = (int64_t)(t / ifc->tsresol);
	r->frac = (int64_t)(t % ifc->tsresol * ifc->scale);
}

/* One pcapng block at pos (its length checked): FASTREAD_RECORD with r
 * filled, FASTREAD_END for a block that holds no packet (go on), or
 * FASTREAD_FALLBACK. */
static int pcapng_block(struct fastread *fr, uint32_t type, const uint8_t *body, size_t n,
			struct fastread_rec *r)
{
	switch (type) {
	case 0x0a0d0d0au: {         /* SHB: a new section, its own interfaces */
		if (n < 16 || rd32(fr, body) != 0x1a2b3c4du || rd16(fr, body + 4) != 1)
			return FASTREAD_FALLBACK;
		fr->nifaces = 0;
		return FASTREAD_END;
	}
	case 1: {                   /* IDB */
		if (n < 8 || fr->nifaces >= MAX_IFACES)
			return FASTREAD_FALLBACK;
		/* libpcap takes the first IDB's link type and snapshot length;
		 * another that differs is an error (or the same adjusted: left
		 * to libpcap, whichever its version does) */
		if (fr->seen_idb && ((int)rd16(fr, body) != fr->dlt || rd32(fr, body + 4) != fr->snapshot))
			return FASTREAD_FALLBACK;
		if (!idb_options(fr, body + 8, n - 8, &fr->ifaces[fr->nifaces]))
			return FASTREAD_FALLBACK;
		fr->seen_idb = true;
		fr->nifaces++;
		return FASTREAD_END;
	}
	case 6: {                   /* EPB */
		if (n < 20)
			return FASTREAD_FALLBACK;
		uint32_t ifid = rd32(fr, body), caplen = rd32(fr, body + 12);
		if (ifid >= fr->nifaces || caplen > fr->snapshot || caplen > n - 20)
			return FASTREAD_FALLBACK;
		set_ts(r, &fr->ifaces[ifid],
		       (uint64_t)rd32(fr, body + 4) << 32 | rd32(fr, body + 8));
		r->caplen = caplen;
		r->len = rd32(fr, body + 16);
		r->data = body + 20;
		return FASTREAD_RECORD;
	}
	case 3: {                   /* SPB: interface 0, no timestamp */
		if (n < 4 || fr->nifaces == 0)
			return FASTREAD_FALLBACK;
		uint32_t len = rd32(fr, body);
		uint32_t caplen = len > fr->snapshot ? fr->snapshot : len;
		if (caplen > n - 4)
			return FASTREAD_FALLBACK;
		set_ts(r, &fr->ifaces[0], 0);
		r->caplen = caplen;
		r->len = len;
		r->data = body + 4;
		return FASTREAD_RECORD;
	}
	case 2:                     /* the obsolete Packet Block: libpcap's */
		return FASTREAD_FALLBACK;
	default:                    /* name resolution, statistics, ...: skipped */
		return FASTREAD_END;
	}
}

static int next_pcapng(struct fastread *fr, struct fastread_rec *r)
{
	for (;;) {
		size_t left = fr->size - fr->pos;
		if (left == 0)
			return FASTREAD_END;
		if (left < 12)
			return FASTREAD_FALLBACK;
		const uint8_t *b = fr->base + fr->pos;
		uint32_t type = rd32(fr, b), total = rd32(fr, b + 4);
		if (total < 12 || (total & 3) || total > left || total > MAX_BLOCK ||
		    rd32(fr, b + total - 4) != total)
			return FASTREAD_FALLBACK;
		int rc = pcapng_block(fr, type, b + 8, total - 12, r);
		if (rc == FASTREAD_FALLBACK)
			return rc;
		fr->pos += total;
		if (rc == FASTREAD_RECORD)
			return rc;
	}
}

/* Octets ahead of the record handed out that are asked into the cache:
 * nothing copies the file any more, so the first touch of each line would
 * wait for memory, and the hardware prefetcher stops at page boundaries. */
#define PREFETCH_AHEAD 4096u

int fastread_next(struct fastread *fr, struct fastread_rec *r)
{
	if (fr->shrunk)
		return FASTREAD_FALLBACK;
	drop_behind(fr);
	size_t from = fr->pos;
	int rc = fr->fmt == FMT_PCAP ? next_pcap(fr, r) : next_pcapng(fr, r);
	if (fr->shrunk)
		return FASTREAD_FALLBACK;   /* read from a page of zeros: not a record */
	if (rc == FASTREAD_RECORD) {
		fr->records++;
		/* the lines of the next record or so, ahead of the analysis */
		for (size_t a = from + PREFETCH_AHEAD; a < fr->pos + PREFETCH_AHEAD && a < fr->size;
		     a += 64)
			__builtin_prefetch(fr->base + a);
	}
	return rc;
}

void fastread_hold(struct fastread *fr)
{
	fr->held = true;
	fr->keep = 0;
}

bool fastread_held(const struct fastread *fr)
{
	return fr->held;
}

void fastread_keep(struct fastread *fr, const uint8_t *from)
{
	size_t off = from > fr->base ? (size_t)(from - fr->base) : 0;
	fr->keep = off;
	drop_behind(fr);
}

uint64_t fastread_records(const struct fastread *fr)
{
	return fr->records;
}

uint64_t fastread_pos(const struct fastread *fr)
{
	return fr->pos;
}

uint64_t fastread_size(const struct fastread *fr)
{
	return fr->size;
}

void fastread_close(struct fastread *fr)
{
	if (!fr)
		return;
	if (fr->mapped) {
		unguard(fr);
		munmap((void *)(uintptr_t)fr->base, fr->size);
	}
	free(fr);
}
