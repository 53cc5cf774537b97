// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compressed captures (see decomp.h): a glibc cookie stream (fopencookie)
 * whose read function pulls compressed octets from the raw file and hands
 * out decompressed ones. libpcap only ever calls fread on it, so it needs
 * no seek; the same wrapper serves a non-seekable plain input (stdin) whose
 * first octets were already read to look at the magic.
 *
 * The decoders of one source share a budget (decomp_budget): each is
 * charged what it holds (its input buffer, gzip's state and window, the
 * zstd decoder with the window its frame asks for, charged before the
 * library allocates it). One that needs more than is left makes room by
 * spilling others, the largest first: a spilled decoder decodes the rest of
 * its file into the budget's spill file (one unlinked temporary file in
 * $TMPDIR, else /tmp) and is freed; its stream then reads from there. Each
 * file is spilled at most once, so the spill file holds at most the
 * decompressed rest of the files spilled.
 */
#define _GNU_SOURCE /* fopencookie, O_TMPFILE */
#include "decomp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef IWS_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef IWS_HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

#define IN_SIZE (64u * 1024)
#define ZSTD_STEP 4096u
#define MAGIC_LEN 6
/* What a decoder is charged beyond its input buffer: zlib's inflate state
 * (about 7 KiB) and its 32 KiB window; a zstd decoder's context (94 KiB in
 * 1.5), its input block and the block beyond its window. */
#define GZIP_CHARGE (48u * 1024)
#define ZSTD_BASE_CHARGE (512u * 1024)
/* The largest zstd frame header (RFC 8878 §3.1.1.1): 4 magic, 1
 * descriptor, 1 window, 4 dictionary ID, 8 content size. */
#define ZSTD_HEADER_MAX 18
#define SPILL_CHUNK (256u * 1024)
/* libzstd's own window limit (2^27), and what a decoder holds besides its
 * window (at most IN_SIZE + ZSTD_BASE_CHARGE + a block: under 1 MiB). */
#define DEFAULT_WINDOW (128ull << 20)
#define DECODER_EXTRA (1ull << 20)

struct decomp_budget {
	uint64_t limit, used, peak;
	struct decomp *live;        /* the decoders charged, a list */
	int fd;                     /* the spill file, -1 until the first spill */
	uint64_t end;               /* octets in it */
	uint32_t spilled;           /* files spilled into it */
	char err[160];              /* a spill that failed: why (the decoder stayed) */
};

struct decomp {
	FILE *raw;
	bool close_raw;
	enum decomp_kind kind;
	/* octets read to look at the magic, given back first */
	uint8_t peek[MAGIC_LEN];
	size_t npeek, peek_pos;
	uint8_t *in;                /* compressed input buffer */
	size_t in_len, in_pos;
	bool raw_eof;
	bool at_end;                /* the last compressed frame ended with the input */
	bool frame_open;            /* inside a gzip member / zstd frame */
	uint64_t raw_pos;           /* octets read from the file (the magic's too) */
	uint64_t max_window;        /* zstd: largest window accepted (0: the library's) */
	bool fatal;                 /* err ends the stream as a read error */
	bool window;                /* ... because of --max-window */
	size_t frame_at;            /* zstd: where in `in` the current frame began */
	char err[160];
	/* the budget (NULL: none) and this decoder's place in it */
	struct decomp_budget *budget;
	uint64_t charged;
	struct decomp *next_live, *prev_live;
	bool spilling;              /* its rest is being written to the spill file */
	/* spilled: its decoded rest is in the spill file at spill_at, then
	 * (when writing failed) in pending, then from the decoder if it is
	 * still there */
	bool spilled, codec_gone;
	uint64_t spill_at, spill_len, spill_pos;
	struct extent {
		uint64_t at, len;
	} *ext;                     /* where in the spill file (another file's
				     * spill may come between two of them) */
	size_t next, ext_cap, ext_i;
	uint64_t ext_off;           /* read so far of ext[ext_i] */
	char *pending;
	size_t npending, pending_pos;
#ifdef IWS_HAVE_ZLIB
	z_stream zs;
	bool zs_init;
#endif
#ifdef IWS_HAVE_ZSTD
	ZSTD_DStream *zd;
#endif
};

const char *decomp_name(enum decomp_kind k)
{
	switch (k) {
	case DECOMP_GZIP:
		return "gzip";
	case DECOMP_ZSTD:
		return "zstd";
	default:
		return "none";
	}
}

enum decomp_kind decomp_sniff(const uint8_t *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return DECOMP_GZIP;                     /* RFC 1952 §2.3.1 ID1 ID2 */
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
		return DECOMP_ZSTD;                     /* RFC 8878 §3.1.1 magic 0xFD2FB528 LE */
	return DECOMP_NONE;
}

/* Compressors we recognise but do not read, so the message can say so. */
static const char *unsupported(const uint8_t *p, size_t n)
{
	if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return "xz";
	if (n >= 3 && memcmp(p, "BZh", 3) == 0)
		return "bzip2";
	if (n >= 4 && memcmp(p, "\x04\x22\x4d\x18", 4) == 0)
		return "lz4";
	return NULL;
}

/* Refill the compressed input buffer; false at the end of the raw file (or
 * on a read error, which is recorded). */
/* Fill the input buffer from octet k on with what the raw file has next;
 * the buffer's new length. */
static size_t read_raw(struct decomp *d, size_t k)
{
	if (k >= IN_SIZE)
		return k;
	size_t got = fread(d->in + k, 1, IN_SIZE - k, d->raw);
	if (got == 0 && ferror(d->raw)) {
		snprintf(d->err, sizeof(d->err), "read error: %s", strerror(errno ? errno : EIO));
		d->fatal = true;
	}
	if (got == 0 && k == 0)
		d->raw_eof = true;
	d->raw_pos += got;
	return k + got;
}

static bool refill(struct decomp *d)
{
	if (d->in_pos < d->in_len)
		return true;
	if (d->raw_eof)
		return false;
	size_t k = 0;
	/* The octets read for the magic come first. */
	while (d->peek_pos < d->npeek && k < IN_SIZE)
		d->in[k++] = d->peek[d->peek_pos++];
	d->in_len = read_raw(d, k);
	d->in_pos = 0;
	return d->in_len > 0;
}

/* At least want octets at in_pos unless the file ends first (a zstd frame
 * header is read whole before the decoder is charged for it): what is
 * left moves to the front and the buffer is filled after it. */
static void top_up(struct decomp *d, size_t want)
{
	size_t rest = d->in_len - d->in_pos;
	if (rest >= want || d->raw_eof)
		return;
	memmove(d->in, d->in + d->in_pos, rest);
	d->in_pos = 0;
	d->in_len = read_raw(d, rest);
}

/* The input ended inside a gzip member or zstd frame. */
static void cut_short(struct decomp *d, const char *what)
{
	if (d->frame_open && !d->err[0]) {
		snprintf(d->err, sizeof(d->err), "%s data ends early (the file is truncated)", what);
		d->fatal = true;
	}
	d->at_end = true;
}

/* ---- the budget: what the decoders hold, and the spill file ---- */

uint64_t decomp_budget_for(uint64_t max_window)
{
	return 2 * ((max_window ? max_window : DEFAULT_WINDOW) + DECODER_EXTRA);
}

struct decomp_budget *decomp_budget_new(uint64_t limit)
{
	struct decomp_budget *b = calloc(1, sizeof(*b));
	if (b) {
		b->limit = limit;
		b->fd = -1;
	}
	return b;
}

void decomp_budget_free(struct decomp_budget *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

const char *decomp_budget_error(const struct decomp_budget *b)
{
	return b && b->err[0] ? b->err : NULL;
}

void decomp_budget_figures(const struct decomp_budget *b, uint64_t *peak, uint32_t *files,
			   uint64_t *octets)
{
	*peak = b ? b->peak : 0;
	*files = b ? b->spilled : 0;
	*octets = b ? b->end : 0;
}

static size_t codec_step(struct decomp *d, char *buf, size_t n);
static void release_codec(struct decomp *d);

static void uncharge(struct decomp *d)
{
	struct decomp_budget *b = d->budget;
	if (!b || !d->charged)
		return;
	if (d->prev_live)
		d->prev_live->next_live = d->next_live;
	else
		b->live = d->next_live;
	if (d->next_live)
		d->next_live->prev_live = d->prev_live;
	d->next_live = d->prev_live = NULL;
	b->used -= d->charged;
	d->charged = 0;
}

/* The decoder holding the most, other than d and those being spilled. */
static struct decomp *largest_other(const struct decomp_budget *b, const struct decomp *d)
{
	struct decomp *best = NULL;
	for (struct decomp *v = b->live; v; v = v->next_live)
		if (v != d && !v->spilling && (!best || v->charged > best->charged))
			best = v;
	return best;
}

static bool spill_file(struct decomp_budget *b)
{
	if (b->fd >= 0)
		return true;
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	b->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (b->fd < 0) {
		/* a file system without O_TMPFILE: a named file, unlinked at once */
		char path[4096];
		snprintf(path, sizeof(path), "%s/iwarpscope-XXXXXX", dir);
		b->fd = mkostemp(path, O_CLOEXEC);
		if (b->fd >= 0)
			unlink(path);
	}
	if (b->fd < 0)
		snprintf(b->err, sizeof(b->err), "no temporary file in %s (%s)", dir, strerror(errno));
	return b->fd >= 0;
}

/* n decoded octets of v at the end of the spill file. */
static bool append_spilled(struct decomp *v, const char *p, size_t n)
{
	struct decomp_budget *b = v->budget;
	/* a new extent unless its last one ends where the file does */
	bool extends = v->next && v->ext[v->next - 1].at + v->ext[v->next - 1].len == b->end;
	if (!extends && v->next == v->ext_cap) {
		size_t cap = v->ext_cap ? 2 * v->ext_cap : 4;
		struct extent *e = realloc(v->ext, cap * sizeof(*e));
		if (!e)
			return false;
		v->ext = e;
		v->ext_cap = cap;
	}
	for (size_t done = 0; done < n;) {
		ssize_t w = pwrite(b->fd, p + done, n - done, (off_t)(b->end + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return false;
		}
		done += (size_t)w;
	}
	if (!extends)
		v->ext[v->next++] = (struct extent){ b->end, 0 };
	v->ext[v->next - 1].len += n;
	b->end += n;
	return true;
}

/* Decode the rest of v's file into the spill file and free its decoder.
 * On a write error the decoder stays (with what was decoded but not
 * written kept in memory): false, and the budget says why. */
static bool spill(struct decomp *v)
{
	struct decomp_budget *b = v->budget;
	char *chunk = spill_file(b) ? malloc(SPILL_CHUNK) : NULL;
	if (!chunk) {
		if (!b->err[0])
			snprintf(b->err, sizeof(b->err), "out of memory");
		return false;
	}
	bool written = true;
	v->spilling = true;
	for (;;) {
		size_t got = codec_step(v, chunk, SPILL_CHUNK);
		if (!got)
			break;
		if (!append_spilled(v, chunk, got)) {
			snprintf(b->err, sizeof(b->err), "cannot write a decompressed file to a "
				 "temporary file (%s)", strerror(errno));
			v->pending = chunk;
			v->npending = got;
			chunk = NULL;
			written = false;
			break;
		}
	}
	v->spilling = false;
	v->spilled = true;
	free(chunk);
	if (written) {
		release_codec(v);
		uncharge(v);
		b->spilled++;
	}
	return written;
}

/* d is to hold total octets: room is made by spilling the other decoders,
 * the largest first, while the budget is short; then d is charged. */
static void charge(struct decomp *d, uint64_t total)
{
	struct decomp_budget *b = d->budget;
	if (!b || total <= d->charged)
		return;
	uint64_t more = total - d->charged;
	while (b->used + more > b->limit && !b->err[0]) {
		struct decomp *v = largest_other(b, d);
		if (!v || !spill(v))
			break;
	}
	if (!d->charged) {
		d->next_live = b->live;
		if (b->live)
			b->live->prev_live = d;
		b->live = d;
	}
	d->charged = total;
	b->used += more;
	if (b->used > b->peak)
		b->peak = b->used;
}

/* What a spilled decoder hands out: its octets in the spill file, then
 * those kept when writing failed; 0 when they are all read, -1 on a read
 * error. */
static ssize_t read_spilled(struct decomp *d, char *buf, size_t n)
{
	while (d->ext_i < d->next) {
		const struct extent *e = &d->ext[d->ext_i];
		if (d->ext_off == e->len) {
			d->ext_i++;
			d->ext_off = 0;
			continue;
		}
		size_t want = e->len - d->ext_off < n ? (size_t)(e->len - d->ext_off) : n;
		ssize_t got = pread(d->budget->fd, buf, want, (off_t)(e->at + d->ext_off));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			snprintf(d->err, sizeof(d->err), "cannot read back its decompressed octets from "
				 "the temporary file (%s)", got ? strerror(errno) : "cut short");
			d->fatal = true;
			errno = EIO;
			return -1;
		}
		d->ext_off += (uint64_t)got;
		return got;
	}
	size_t k = d->npending - d->pending_pos < n ? d->npending - d->pending_pos : n;
	if (!k)
		return 0;
	memcpy(buf, d->pending + d->pending_pos, k);
	d->pending_pos += k;
	return (ssize_t)k;
}

/* ---- plain (non-seekable) input with its peeked octets given back ---- */
static ssize_t plain_read(struct decomp *d, char *buf, size_t n)
{
	size_t k = 0;
	while (d->peek_pos < d->npeek && k < n)
		buf[k++] = (char)d->peek[d->peek_pos++];
	if (k < n) {
		size_t got = fread(buf + k, 1, n - k, d->raw);
		if (got == 0 && k == 0 && ferror(d->raw)) {
			errno = EIO;
			return -1;
		}
		d->raw_pos += got;
		k += got;
	}
	return (ssize_t)k;
}

#ifdef IWS_HAVE_ZLIB
/* gzip: one or more members (gzip -c a b > c, pigz) one after another. */
static size_t gz_step(struct decomp *d, char *buf, size_t n)
{
	z_stream *z = &d->zs;
	z->next_out = (Bytef *)buf;
	z->avail_out = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	while (z->avail_out == n && !d->fatal && !d->at_end) {
		if (!refill(d)) {
			cut_short(d, "gzip");
			break;
		}
		if (!d->frame_open) {
			/* A new member must start with the gzip magic; anything else
			 * after a complete member is trailing garbage (gzip(1) ignores
			 * it with a warning, so do we, and say so). */
			if (d->in_len - d->in_pos >= 2 &&
			    decomp_sniff(d->in + d->in_pos, d->in_len - d->in_pos) != DECOMP_GZIP) {
				snprintf(d->err, sizeof(d->err),
					 "data after the end of the gzip stream ignored");
				d->at_end = true;
				break;
			}
			inflateReset(z);
			d->frame_open = true;
		}
		z->next_in = d->in + d->in_pos;
		z->avail_in = (uInt)(d->in_len - d->in_pos);
		int rc = inflate(z, Z_NO_FLUSH);
		d->in_pos = d->in_len - z->avail_in;
		if (rc == Z_STREAM_END) {
			d->frame_open = false;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(d->err, sizeof(d->err), "corrupt gzip data (%s) near compressed octet %llu",
				 z->msg ? z->msg : zError(rc),
				 (unsigned long long)(d->raw_pos - (d->in_len - d->in_pos)));
			d->fatal = true;
			break;
		}
	}
	return n - z->avail_out;
}
#endif

#ifdef IWS_HAVE_ZSTD
/* The frame at the input asks for a window above max_window: say how large,
 * and what to do. */
/* The Frame_Content_Size of the zstd frame header at h (RFC 8878
 * §3.1.1.1.4); *known false when it has none or the n octets at h do not
 * hold it. */
static uint64_t frame_content_size(const uint8_t *h, size_t n, bool *known)
{
	*known = false;
	if (n < 5 || decomp_sniff(h, n) != DECOMP_ZSTD)
		return 0;
	uint8_t fhd = h[4];
	bool single = fhd & 0x20;
	static const uint8_t did_len[4] = { 0, 1, 2, 4 }, fcs_len[4] = { 0, 2, 4, 8 };
	size_t len = fcs_len[fhd >> 6] ? fcs_len[fhd >> 6] : single;
	size_t at = 5 + !single + did_len[fhd & 3];
	if (!len || n < at + len)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++)
		v |= (uint64_t)h[at + i] << (8 * i);
	*known = true;
	return len == 2 ? v + 256 : v;
}

/* The window a zstd frame header asks for (RFC 8878 §3.1.1.1), 0 when the
 * n octets at h do not hold enough of one. */
static uint64_t frame_window(const uint8_t *h, size_t n)
{
	if (n < 6 || decomp_sniff(h, n) != DECOMP_ZSTD)
		return 0;
	uint8_t fhd = h[4];
	if (!(fhd & 0x20)) { /* Window_Descriptor: exponent and mantissa */
		uint64_t base = 1ull << (10 + (h[5] >> 3));
		return base + base / 8 * (h[5] & 7);
	}
	/* Single_Segment: the window is the Frame_Content_Size */
	bool known;
	uint64_t fcs = frame_content_size(h, n, &known);
	return known ? fcs : 0;
}

/* What a decoder holds for the frame whose header is at h: the window the
 * frame asks for (no more than its content when the header gives its size;
 * nothing for a window above max_window, refused, or for a skippable
 * frame), a block past it, and its base. */
static uint64_t zstd_frame_charge(const struct decomp *d, const uint8_t *h, size_t n)
{
	const uint64_t block = 128u * 1024;
	uint64_t base = IN_SIZE + ZSTD_BASE_CHARGE, window = frame_window(h, n);
	if (!window || (d->max_window && window > d->max_window))
		return base;
	bool known;
	uint64_t buffer = window + block + 64, fcs = frame_content_size(h, n, &known);
	return base + (known && fcs < buffer ? fcs : buffer);
}

static void window_refused(struct decomp *d)
{
	char need[40] = "a larger one";
	uint64_t w = d->frame_at <= d->in_len ? frame_window(d->in + d->frame_at, d->in_len - d->frame_at) : 0;
	if (w) {
		/* the limit is a power of two (the decoder's windowLogMax) */
		uint64_t p2 = 1u << 20;
		while (p2 < w && p2 < (1ull << 41))
			p2 <<= 1;
		snprintf(need, sizeof(need), "%lluM", (unsigned long long)(p2 >> 20));
	}
	snprintf(d->err, sizeof(d->err),
		 "zstd window of %s is above --max-window %lluM (zstd --long or --ultra make such "
		 "windows): give --max-window %s or more to read it",
		 need, (unsigned long long)(d->max_window >> 20), need);
	d->fatal = true;
	d->window = true;
}

/* zstd: one or more frames; skippable frames are handled by the library. */
static size_t zstd_step(struct decomp *d, char *buf, size_t n)
{
	ZSTD_outBuffer out = { buf, n, 0 };
	while (out.pos == 0 && !d->fatal && !d->at_end) {
		if (!refill(d)) {
			cut_short(d, "zstd");
			break;
		}
		if (!d->frame_open) {
			top_up(d, ZSTD_HEADER_MAX);
			d->frame_at = d->in_pos;
			charge(d, zstd_frame_charge(d, d->in + d->in_pos, d->in_len - d->in_pos));
		}
		/* A few KiB at a time: on an error the library does not say how
		 * far it read, so the message can only name where the call began. */
		size_t end = d->in_len - d->in_pos > ZSTD_STEP ? d->in_pos + ZSTD_STEP : d->in_len;
		ZSTD_inBuffer in = { d->in, end, d->in_pos };
		size_t rc = ZSTD_decompressStream(d->zd, &out, &in);
		d->in_pos = in.pos;
		/* what the library really holds (never more than charged above) */
		charge(d, IN_SIZE + ZSTD_sizeof_DStream(d->zd));
		if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge) {
			window_refused(d);
			break;
		}
		if (ZSTD_isError(rc)) {
			snprintf(d->err, sizeof(d->err), "corrupt zstd data (%s) near compressed octet %llu",
				 ZSTD_getErrorName(rc),
				 (unsigned long long)(d->raw_pos - (d->in_len - d->in_pos)));
			d->fatal = true;
			break;
		}
		/* 0: a frame is complete and fully flushed. */
		d->frame_open = rc != 0;
	}
	return out.pos;
}
#endif

/* Decompressed octets from the decoder (0: the end, or damage). */
static size_t codec_step(struct decomp *d, char *buf, size_t n)
{
#ifdef IWS_HAVE_ZLIB
	if (d->kind == DECOMP_GZIP)
		return gz_step(d, buf, n);
#endif
#ifdef IWS_HAVE_ZSTD
	if (d->kind == DECOMP_ZSTD)
		return zstd_step(d, buf, n);
#endif
	(void)d;
	(void)buf;
	(void)n;
	return 0;
}

/* The decoder and its input buffer freed (it ended, or was spilled). */
static void release_codec(struct decomp *d)
{
#ifdef IWS_HAVE_ZLIB
	if (d->zs_init)
		inflateEnd(&d->zs);
	d->zs_init = false;
#endif
#ifdef IWS_HAVE_ZSTD
	ZSTD_freeDStream(d->zd);
	d->zd = NULL;
#endif
	free(d->in);
	d->in = NULL;
	d->codec_gone = true;
}

static ssize_t cookie_read(void *c, char *buf, size_t n)
{
	struct decomp *d = c;
	if (d->kind == DECOMP_NONE)
		return plain_read(d, buf, n);
	if (d->spilled) {
		/* its spilled octets, then (if writing them failed) its decoder */
		ssize_t got = read_spilled(d, buf, n);
		if (got)
			return got;
	}
	size_t got = d->codec_gone ? 0 : codec_step(d, buf, n);
	/* What was decompressed before damage is delivered first; the next
	 * read reports the error (libpcap then stops with a read error). A
	 * note about trailing garbage is not an error: the end of the input. */
	if (!got && d->fatal) {
		errno = EIO;
		return -1;
	}
	return (ssize_t)got;
}

static void free_decomp(struct decomp *d)
{
	release_codec(d);
	uncharge(d);
	free(d->ext);
	free(d->pending);
	free(d);
}

static int cookie_close(void *c)
{
	struct decomp *d = c;
	int rc = 0;
	if (d->close_raw)
		rc = fclose(d->raw);
	free_decomp(d);
	return rc;
}

const char *decomp_error(const struct decomp *dc, bool *fatal)
{
	if (fatal)
		*fatal = dc && dc->fatal;
	return dc && dc->err[0] ? dc->err : NULL;
}

uint64_t decomp_raw_pos(const struct decomp *dc)
{
	return dc ? dc->raw_pos : 0;
}

static bool init_codec(struct decomp *d, const char *name, char *err, size_t errlen)
{
	switch (d->kind) {
	case DECOMP_GZIP:
#ifdef IWS_HAVE_ZLIB
		/* 15 + 16: a gzip wrapper (RFC 1952) around a deflate stream. */
		if (inflateInit2(&d->zs, 15 + 16) != Z_OK)
			break;
		d->zs_init = true;
		charge(d, IN_SIZE + GZIP_CHARGE);
		return true;
#else
		snprintf(err, errlen, "%s: gzip-compressed, but this iwarpscope was built without "
				      "zlib: decompress it first (gzip -dc)", name);
		return false;
#endif
	case DECOMP_ZSTD:
#ifdef IWS_HAVE_ZSTD
		d->zd = ZSTD_createDStream();
		if (!d->zd || ZSTD_isError(ZSTD_initDStream(d->zd)))
			break;
		/* A frame's window is the memory its decoder holds (RFC 8878
		 * §3.1.1.1.2): up to 2^31 with --long=31. Past the limit the
		 * library refuses the frame (zstd_step says so). */
		if (d->max_window) {
			int log = 10;
			while (log < 31 && (1ull << (log + 1)) <= d->max_window)
				log++;
			if (ZSTD_isError(ZSTD_DCtx_setParameter(d->zd, ZSTD_d_windowLogMax, log)))
				break;
		}
		charge(d, IN_SIZE + ZSTD_BASE_CHARGE);
		return true;
#else
		snprintf(err, errlen, "%s: zstd-compressed, but this iwarpscope was built without "
				      "libzstd: decompress it first (zstd -dc)", name);
		return false;
#endif
	default:
		return true;
	}
	snprintf(err, errlen, "%s: out of memory", name);
	return false;
}

FILE *decomp_open(FILE *raw, const char *name, bool close_raw, uint64_t max_window,
		  struct decomp_budget *budget, enum decomp_kind *kind, struct decomp **dc, char *err,
		  size_t errlen)
{
	uint8_t magic[MAGIC_LEN];
	size_t n = fread(magic, 1, sizeof(magic), raw);
	*dc = NULL;
	*kind = decomp_sniff(magic, n);
	const char *other = unsupported(magic, n);
	if (other) {
		snprintf(err, errlen, "%s: %s-compressed: decompress it first (only gzip and zstd "
				      "are read directly)", name, other);
		return NULL;
	}
	/* Plain and seekable: give the octets back by rewinding. */
	if (*kind == DECOMP_NONE && fseek(raw, 0, SEEK_SET) == 0)
		return raw;
	struct decomp *d = calloc(1, sizeof(*d));
	if (!d || (*kind != DECOMP_NONE && !(d->in = malloc(IN_SIZE)))) {
		free(d);
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	d->raw = raw;
	d->close_raw = close_raw;
	d->kind = *kind;
	d->max_window = max_window;
	d->budget = budget;
	memcpy(d->peek, magic, n);
	d->npeek = n;
	/* The magic's octets were read from the file: offsets count them. */
	d->raw_pos = n;
	if (!init_codec(d, name, err, errlen)) {
		free_decomp(d);
		return NULL;
	}
	cookie_io_functions_t fns = { .read = cookie_read, .close = cookie_close };
	FILE *f = fopencookie(d, "r", fns);
	if (!f) {
		free_decomp(d);
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return NULL;
	}
	*dc = d;
	return f;
}
