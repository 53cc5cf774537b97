// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live save file (see savefile.h). libpcap writes the file header
 * (pcap_dump_fopen knows the link type numbering and the time precision);
 * the records are ours: buffered, written with write(2), and each write's
 * result checked, so a packet is counted saved only once its record is
 * whole in the file.
 */
#include "savefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAVE_BUFFER (1u << 20)
#define RECORD_HEADER 16u

struct savefile {
	pcap_dumper_t *dumper;      /* owns the FILE, closed by pcap_dump_close */
	int fd;
	char *path;
	uint8_t *buf;
	size_t used;
	uint32_t *ends;             /* end offset in buf of each packet buffered */
	uint32_t nbuf;
	uint64_t offset;            /* octets in the file (whole records) */
	uint64_t packets, saved;
	int err;                    /* errno of the first failure (0: none) */
};

struct savefile *savefile_open(pcap_t *h, const char *path, char *err, size_t errlen)
{
	struct savefile *w = calloc(1, sizeof(*w));
	FILE *fp = NULL;
	if (!w || !(w->buf = malloc(SAVE_BUFFER)) ||
	    !(w->ends = malloc(SAVE_BUFFER / RECORD_HEADER * sizeof(*w->ends))) ||
	    !(w->path = strdup(path))) {
		snprintf(err, errlen, "-w %s: out of memory", path);
		goto bad;
	}
	if (!(fp = fopen(path, "wb"))) {
		snprintf(err, errlen, "-w %s: %s", path, strerror(errno));
		goto bad;
	}
	w->dumper = pcap_dump_fopen(h, fp);
	if (!w->dumper) {
		snprintf(err, errlen, "-w %s: %s", path, pcap_geterr(h));
		fclose(fp);
		goto bad;
	}
	/* The header goes out now, checked: nothing else passes through the
	 * FILE, which stays at the same position as the descriptor. */
	if (fflush(fp) != 0 || ferror(fp)) {
		snprintf(err, errlen, "-w %s: %s", path, strerror(errno ? errno : EIO));
		pcap_dump_close(w->dumper);
		goto bad;
	}
	w->fd = fileno(fp);
	long pos = ftell(fp);
	w->offset = pos > 0 ? (uint64_t)pos : 24;
	return w;
bad:
	if (w) {
		free(w->buf);
		free(w->ends);
		free(w->path);
		free(w);
	}
	return NULL;
}

/* Write the buffer out; on a failure keep the whole records that made it
 * and cut a partial one off. */
static void flush(struct savefile *w)
{
	size_t done = 0;
	while (!w->err && done < w->used) {
		ssize_t k = write(w->fd, w->buf + done, w->used - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			w->err = k < 0 ? errno : ENOSPC;
		else
			done += (size_t)k;
	}
	uint32_t whole = 0;
	while (whole < w->nbuf && w->ends[whole] <= done)
		whole++;
	size_t kept = whole ? w->ends[whole - 1] : 0;
	if (kept < done && ftruncate(w->fd, (off_t)(w->offset + kept)) != 0 && !w->err)
		w->err = errno;
	w->offset += kept;
	w->saved += whole;
	w->used = 0;
	w->nbuf = 0;
}

void savefile_write(struct savefile *w, const struct pcap_pkthdr *hdr, const uint8_t *data)
{
	w->packets++;
	if (w->err)
		return; /* the file failed: counted lost */
	size_t need = RECORD_HEADER + hdr->caplen;
	if (w->used + need > SAVE_BUFFER || w->nbuf == SAVE_BUFFER / RECORD_HEADER)
		flush(w);
	if (w->err)
		return;
	if (need > SAVE_BUFFER) { /* cannot happen with snaplen <= 262144 */
		w->err = EFBIG;
		return;
	}
	/* The record header (pcap file format, host byte order as libpcap
	 * writes it; the microsecond field holds nanoseconds in a nanosecond
	 * file, whose header pcap_dump_fopen wrote). */
	uint32_t rh[4] = { (uint32_t)hdr->ts.tv_sec, (uint32_t)hdr->ts.tv_usec, hdr->caplen, hdr->len };
	memcpy(w->buf + w->used, rh, sizeof(rh));
	memcpy(w->buf + w->used + RECORD_HEADER, data, hdr->caplen);
	w->used += need;
	w->ends[w->nbuf++] = (uint32_t)w->used;
}

uint64_t savefile_bytes(const struct savefile *w)
{
	return w ? w->offset + w->used : 0;
}

bool savefile_close(struct savefile *w, char *msg, size_t msglen)
{
	flush(w);
	/* A deferred write error (NFS, quotas) shows at fsync; devices and
	 * pipes cannot sync (EINVAL), which is no loss. */
	if (fsync(w->fd) != 0 && errno != EINVAL && errno != EROFS && !w->err)
		w->err = errno;
	pcap_dump_close(w->dumper);
	bool ok = !w->err && w->saved == w->packets;
	if (!ok)
		snprintf(msg, msglen, "-w %s: %s: %llu of %llu packets not saved", w->path,
			 strerror(w->err ? w->err : EIO),
			 (unsigned long long)(w->packets - w->saved), (unsigned long long)w->packets);
	free(w->buf);
	free(w->ends);
	free(w->path);
	free(w);
	return ok;
}
