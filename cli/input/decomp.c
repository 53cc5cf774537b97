// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compressed captures (see decomp.h): a glibc cookie stream (fopencookie)
 * whose read function pulls compressed octets from the raw file and hands
 * out decompressed ones. libpcap only ever calls fread on it, so it needs
 * no seek; the same wrapper serves a non-seekable plain input (stdin) whose
 * first octets were already read to look at the magic.
 */
#define _GNU_SOURCE /* fopencookie */
#include "decomp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	if (k < IN_SIZE) {
		size_t got = fread(d->in + k, 1, IN_SIZE - k, d->raw);
		if (got == 0 && ferror(d->raw)) {
			snprintf(d->err, sizeof(d->err), "read error: %s", strerror(errno ? errno : EIO));
			d->fatal = true;
		}
		if (got == 0 && k == 0)
			d->raw_eof = true;
		d->raw_pos += got;
		k += got;
	}
	d->in_len = k;
	d->in_pos = 0;
	return k > 0;
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
	static const uint8_t did_len[4] = { 0, 1, 2, 4 }, fcs_len[4] = { 1, 2, 4, 8 };
	size_t at = 5 + did_len[fhd & 3], len = fcs_len[fhd >> 6];
	if (n < at + len)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++)
		v |= (uint64_t)h[at + i] << (8 * i);
	return len == 2 ? v + 256 : v;
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
		if (!d->frame_open)
			d->frame_at = d->in_pos;
		/* A few KiB at a time: on an error the library does not say how
		 * far it read, so the message can only name where the call began. */
		size_t end = d->in_len - d->in_pos > ZSTD_STEP ? d->in_pos + ZSTD_STEP : d->in_len;
		ZSTD_inBuffer in = { d->in, end, d->in_pos };
		size_t rc = ZSTD_decompressStream(d->zd, &out, &in);
		d->in_pos = in.pos;
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

static ssize_t cookie_read(void *c, char *buf, size_t n)
{
	struct decomp *d = c;
	size_t got = 0;
	if (d->kind == DECOMP_NONE)
		return plain_read(d, buf, n);
#ifdef IWS_HAVE_ZLIB
	if (d->kind == DECOMP_GZIP)
		got = gz_step(d, buf, n);
#endif
#ifdef IWS_HAVE_ZSTD
	if (d->kind == DECOMP_ZSTD)
		got = zstd_step(d, buf, n);
#endif
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
#ifdef IWS_HAVE_ZLIB
	if (d->zs_init)
		inflateEnd(&d->zs);
#endif
#ifdef IWS_HAVE_ZSTD
	ZSTD_freeDStream(d->zd);
#endif
	free(d->in);
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

bool decomp_window_refused(const struct decomp *dc)
{
	return dc && dc->window;
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
		  enum decomp_kind *kind, struct decomp **dc, char *err, size_t errlen)
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
