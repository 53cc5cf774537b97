// SPDX-License-Identifier: GPL-2.0-or-later
/* pcap / pcapng writer (see pcapw.h). Formats: libpcap savefile, IETF pcapng draft. */
#include "pcapw.h"

#include <string.h>

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void out(struct pcapw *w, const void *buf, size_t n)
{
	if (w->err)
		return;
	if (n && fwrite(buf, 1, n, w->f) != n)
		w->err = 1;
	w->bytes += n;
}

const char *pcapw_ext(enum pcap_fmt fmt)
{
	return fmt == FMT_PCAPNG ? "pcapng" : "pcap";
}

static void write_pcap_header(struct pcapw *w)
{
	uint8_t h[24];

	le32(h, w->fmt == FMT_PCAP_NS ? 0xa1b23c4du : 0xa1b2c3d4u);
	le16(h + 4, 2);
	le16(h + 6, 4);
	le32(h + 8, 0);		/* thiszone */
	le32(h + 12, 0);	/* sigfigs */
	le32(h + 16, w->snaplen);
	le32(h + 20, 1);	/* LINKTYPE_ETHERNET */
	out(w, h, sizeof(h));
}

static void write_pcapng_header(struct pcapw *w)
{
	static const char appl[] = "iwarpscope-gen";
	uint8_t b[64];
	size_t alen = sizeof(appl) - 1, apad = (alen + 3) & ~(size_t)3;
	uint32_t shb_len = (uint32_t)(24 + 4 + apad + 4 + 4);

	/* Section Header Block */
	memset(b, 0, sizeof(b));
	le32(b, 0x0A0D0D0Au);
	le32(b + 4, shb_len);
	le32(b + 8, 0x1A2B3C4Du);
	le16(b + 12, 1);
	le16(b + 14, 0);
	le64(b + 16, 0xFFFFFFFFFFFFFFFFull);	/* section length unknown */
	le16(b + 24, 4);			/* shb_userappl */
	le16(b + 26, (uint16_t)alen);
	memcpy(b + 28, appl, alen);
	/* opt_endofopt (4 zero bytes) already zeroed */
	le32(b + 28 + apad + 4, shb_len);
	out(w, b, shb_len);

	/* Interface Description Block, if_tsresol = 9 (nanoseconds) */
	memset(b, 0, sizeof(b));
	le32(b, 1);
	le32(b + 4, 32);
	le16(b + 8, 1);		/* LINKTYPE_ETHERNET */
	le16(b + 10, 0);
	le32(b + 12, w->snaplen);
	le16(b + 16, 9);	/* if_tsresol */
	le16(b + 18, 1);
	b[20] = 9;
	/* b[21..23] padding, b[24..27] opt_endofopt */
	le32(b + 28, 32);
	out(w, b, 32);
}

int pcapw_open(struct pcapw *w, const char *path, enum pcap_fmt fmt, uint32_t snaplen)
{
	memset(w, 0, sizeof(*w));
	w->f = fopen(path, "wb");
	if (!w->f)
		return -1;
	w->fmt = fmt;
	w->snaplen = snaplen;
	if (fmt == FMT_PCAPNG)
		write_pcapng_header(w);
	else
		write_pcap_header(w);
	return w->err ? -1 : 0;
}

int pcapw_write(struct pcapw *w, uint64_t ts_ns, const uint8_t *data, uint32_t len)
{
	uint32_t cap = len < w->snaplen ? len : w->snaplen;
	uint8_t h[28];

	if (w->fmt == FMT_PCAPNG) {
		uint32_t pad = (4 - (cap & 3)) & 3;
		uint32_t blen = 32 + cap + pad;
		static const uint8_t zero[4];

		le32(h, 6);
		le32(h + 4, blen);
		le32(h + 8, 0);			/* interface 0 */
		le32(h + 12, (uint32_t)(ts_ns >> 32));
		le32(h + 16, (uint32_t)ts_ns);
		le32(h + 20, cap);
		le32(h + 24, len);
		out(w, h, 28);
		out(w, data, cap);
		out(w, zero, pad);
		le32(h, blen);
		out(w, h, 4);
	} else {
		uint64_t sec = ts_ns / 1000000000ull;
		uint32_t frac = (uint32_t)(ts_ns % 1000000000ull);

		if (w->fmt == FMT_PCAP_US)
			frac /= 1000;
		le32(h, (uint32_t)sec);
		le32(h + 4, frac);
		le32(h + 8, cap);
		le32(h + 12, len);
		out(w, h, 16);
		out(w, data, cap);
	}
	w->records++;
	return w->err ? -1 : 0;
}

int pcapw_close(struct pcapw *w)
{
	int rc = w->err ? -1 : 0;

	if (w->f && fclose(w->f) != 0)
		rc = -1;
	w->f = NULL;
	return rc;
}
