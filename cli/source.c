// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet input (see source.h): libpcap's pull loop (pcap_next_ex) over one or
 * more offline captures, merged chronologically like mergecap (the earliest
 * record first; on equal times the file named first), or over a live
 * interface.
 */
#include "source.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include "decomp.h"
#include "iwarpscope/stream.h"
#include "progress.h"

#define LIVE_SNAPLEN 262144
#define LIVE_TIMEOUT_MS 200
#define PROGRESS_EVERY 4096
/* libpcap reads a record header, then the record, with fread; with the
 * default (4 KiB) stdio buffer every record larger than the buffer costs a
 * read system call of its own. A large buffer turns that into one read per
 * MiB: about three times faster on big captures. */
#define READ_BUFFER (1u << 20)

struct input {
	const char *name;
	pcap_t *h;
	int dlt;
	bool have_filter;
	struct bpf_program filter;
	/* the next record, read ahead for the merge */
	bool has_head, needs_read, done;
	struct pcap_pkthdr *hdr;
	const uint8_t *data;
	int64_t head_ns;
	uint64_t size;              /* file size, for the progress bar (0: unknown) */
	char *iobuf;                /* the FILE's buffer (freed after pcap_close) */
	struct decomp *dc;          /* compressed (decomp.h): the decompressor; else NULL */
	int poll_fd;                /* live, non-blocking: wait here; else -1 */
};

struct source {
	struct input *in;
	int n;
	bool live;
	volatile int stop;
	struct source_stats st;
	struct progress prog;
	uint64_t total_size;
	int64_t prev_ns;
	pcap_dumper_t *save;        /* live: where every captured packet is saved */
};

__attribute__((format(printf, 3, 4))) static void warn(struct source *s, int file,
							const char *fmt, ...)
{
	if (s->st.n_warnings >= SOURCE_MAX_WARNINGS)
		return;
	struct source_warning *w = &s->st.warnings[s->st.n_warnings++];
	va_list ap;
	w->file = file;
	w->after_frame = s->st.records;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
}

/* A libpcap open error, reworded for the one-line message. */
static void open_error(const char *name, const char *pcap_msg, char *err, size_t errlen)
{
	if (strstr(pcap_msg, "unknown file format"))
		snprintf(err, errlen, "%s: not a pcap or pcapng capture file", name);
	else if (strstr(pcap_msg, "truncated dump file") || strstr(pcap_msg, "file header"))
		snprintf(err, errlen, "%s: not a capture file (empty or cut inside the file header)",
			 name);
	else
		snprintf(err, errlen, "%s: %s", name, pcap_msg);
}

static bool compile_filter(struct input *in, const char *bpf, char *err, size_t errlen)
{
	if (!bpf)
		return true;
	if (pcap_compile(in->h, &in->filter, bpf, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, errlen, "bad filter expression '%s': %s", bpf, pcap_geterr(in->h));
		return false;
	}
	in->have_filter = true;
	return true;
}

/* libpcap cuts every record to the snapshot length the file header
 * states, whatever the record claims: say so when that is too short for
 * the headers and an FPDU's. */
static void note_snaplen(struct source *s, struct input *in, int idx)
{
	int snap = pcap_snapshot(in->h);
	if (snap > 0 && snap < 96)
		warn(s, idx, "%s: the file's snapshot length is %d octets: every packet is cut to it",
		     in->name, snap);
}

/* Hand fp (plain or compressed, told by its first octets) to libpcap. On
 * failure fp is closed (unless it is stdin). */
static bool open_stream(struct source *s, struct input *in, FILE *fp, bool is_stdin,
			const char *bpf, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	const char *shown = is_stdin ? "stdin" : in->name;
	enum decomp_kind kind;
	FILE *rd = decomp_open(fp, shown, !is_stdin, &kind, &in->dc, err, errlen);
	if (!rd) {
		if (!is_stdin)
			fclose(fp);
		return false;
	}
	if (is_stdin && !in->dc) {
		/* stdin outlives pcap_close (libpcap does not close it). */
		static char stdin_buf[READ_BUFFER];
		setvbuf(rd, stdin_buf, _IOFBF, sizeof(stdin_buf));
	} else {
		in->iobuf = malloc(READ_BUFFER);
		if (in->iobuf)
			setvbuf(rd, in->iobuf, _IOFBF, READ_BUFFER);
	}
	/* On success libpcap owns rd and closes it in pcap_close (a
	 * decompressing stream then closes the file under it). */
	in->h = pcap_fopen_offline_with_tstamp_precision(rd, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!in->h) {
		const char *why = decomp_error(in->dc, NULL);
		if (why)
			snprintf(err, errlen, "%s: %s", shown, why);
		else if (kind != DECOMP_NONE)
			snprintf(err, errlen, "%s: %s-compressed, but what it holds is not a pcap or "
					      "pcapng capture", shown, decomp_name(kind));
		else
			open_error(shown, ebuf, err, errlen);
		if (rd != stdin)
			fclose(rd);
		in->dc = NULL;
		return false;
	}
	in->dlt = pcap_datalink(in->h);
	in->needs_read = true;
	s->total_size += in->size;
	note_snaplen(s, in, (int)(in - s->in));
	return compile_filter(in, bpf, err, errlen);
}

static bool open_file(struct source *s, struct input *in, FILE *given, const char *bpf, char *err,
		      size_t errlen)
{
	struct stat sb;

	if (given)
		return open_stream(s, in, given, false, bpf, err, errlen);
	bool is_stdin = strcmp(in->name, "-") == 0;
	if (!is_stdin) {
		if (stat(in->name, &sb) != 0) {
			snprintf(err, errlen, "%s: %s", in->name, strerror(errno));
			return false;
		}
		if (S_ISDIR(sb.st_mode)) {
			snprintf(err, errlen, "%s: is a directory, not a capture file", in->name);
			return false;
		}
		if (S_ISREG(sb.st_mode))
			in->size = (uint64_t)sb.st_size;
	}
	FILE *fp = is_stdin ? stdin : fopen(in->name, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", in->name, strerror(errno));
		return false;
	}
	return open_stream(s, in, fp, is_stdin, bpf, err, errlen);
}

static bool open_live(struct input *in, const struct source_opts *o, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	in->h = pcap_create(o->iface, ebuf);
	if (!in->h) {
		snprintf(err, errlen, "%s: %s", o->iface, ebuf);
		return false;
	}
	pcap_set_snaplen(in->h, o->snaplen > 0 ? o->snaplen : LIVE_SNAPLEN);
	pcap_set_promisc(in->h, 1);
	pcap_set_timeout(in->h, LIVE_TIMEOUT_MS);
	pcap_set_tstamp_precision(in->h, PCAP_TSTAMP_PRECISION_NANO);
	int rc = pcap_activate(in->h);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", o->iface,
			 rc == PCAP_ERROR ? pcap_geterr(in->h) : pcap_statustostr(rc));
		return false;
	}
	in->dlt = pcap_datalink(in->h);
	in->needs_read = true;
	/* Non-blocking reads plus our own poll(): with TPACKET_V3 a quiet
	 * interface would otherwise block past the timeout, and the periodic
	 * summary would stall. */
	if (pcap_setnonblock(in->h, 1, ebuf) == 0)
		in->poll_fd = pcap_get_selectable_fd(in->h);
	if (!compile_filter(in, o->bpf, err, errlen))
		return false;
	/* Live: let the kernel filter (frame numbers then count what matched). */
	if (in->have_filter && pcap_setfilter(in->h, &in->filter) != 0) {
		snprintf(err, errlen, "cannot set filter: %s", pcap_geterr(in->h));
		return false;
	}
	in->have_filter = false;
	return true;
}

static void close_streams(const struct source_opts *o, int from)
{
	for (int j = from; !o->iface && o->streams && j < o->nfiles; j++)
		if (o->streams[j])
			fclose(o->streams[j]);
}

struct source *source_open(const struct source_opts *o, char *err, size_t errlen)
{
	struct source *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		close_streams(o, 0);
		return NULL;
	}
	s->live = o->iface != NULL;
	s->n = s->live ? 1 : o->nfiles;
	s->in = calloc((size_t)(s->n > 0 ? s->n : 1), sizeof(*s->in));
	if (!s->in) {
		snprintf(err, errlen, "out of memory");
		free(s);
		close_streams(o, 0);
		return NULL;
	}
	int stdin_uses = 0;
	for (int i = 0; i < s->n; i++) {
		struct input *in = &s->in[i];
		bool ok;
		in->poll_fd = -1;
		if (s->live) {
			in->name = o->iface;
			ok = open_live(in, o, err, errlen);
		} else {
			in->name = o->files[i];
			FILE *given = o->streams ? o->streams[i] : NULL;
			if (!given && strcmp(in->name, "-") == 0 && ++stdin_uses > 1) {
				snprintf(err, errlen, "stdin ('-') can be read only once");
				ok = false;
			} else {
				ok = open_file(s, in, given, o->bpf, err, errlen);
			}
		}
		if (!ok) {
			/* The streams not reached yet are ours to close too. */
			close_streams(o, i + 1);
			s->n = i + 1;
			source_close(s);
			return NULL;
		}
	}
	if (s->live && o->save && !(s->save = pcap_dump_open(s->in[0].h, o->save))) {
		/* libpcap's message names the file */
		snprintf(err, errlen, "-w: %s", pcap_geterr(s->in[0].h));
		source_close(s);
		return NULL;
	}
	for (int i = 0; i < o->nnotes; i++)
		warn(s, -1, "%s", o->notes[i]);
	s->prev_ns = INT64_MIN;
	progress_init(&s->prog, s->total_size, o->progress && !s->live);
	return s;
}

/* The record's time (libpcap gives nanoseconds: nanosecond precision was
 * asked for), kept within the core's range (iws_ts_ns). */
static int64_t record_ns(struct source *s, int idx, const struct pcap_pkthdr *h)
{
	bool clamped;
	int64_t ns = iws_ts_ns((int64_t)h->ts.tv_sec, (int64_t)h->ts.tv_usec, &clamped);
	if (clamped && !s->st.ts_clamped++)
		warn(s, idx, "%s: timestamps out of range (before 1970 or after 2116) clamped",
		     source_name(s, idx));
	return ns;
}

/* Read the next record of in into its head slot. */
static void read_head(struct source *s, struct input *in, int idx)
{
	in->needs_read = false;
	in->has_head = false;
	if (in->done)
		return;
	for (;;) {
		int rc = pcap_next_ex(in->h, &in->hdr, &in->data);
		if (rc == 1) {
			in->has_head = true;
			in->head_ns = record_ns(s, idx, in->hdr);
			return;
		}
		if (rc == 0) {         /* live: timeout, or nothing yet (non-blocking) */
			if (in->poll_fd >= 0) {
				struct pollfd pfd = { in->poll_fd, POLLIN, 0 };
				poll(&pfd, 1, LIVE_TIMEOUT_MS);
			}
			in->needs_read = true;
			return;
		}
		if (rc == PCAP_ERROR_BREAK) {
			const char *note = decomp_error(in->dc, NULL);
			if (note)
				warn(s, idx, "%s: %s", in->name, note);
			in->done = true;
			return;
		}
		/* PCAP_ERROR: a damaged or truncated file; keep what was read. */
		const char *msg = pcap_geterr(in->h);
		const char *zmsg = decomp_error(in->dc, NULL);
		if (zmsg) {
			/* The compressed data broke: say how, not libpcap's "I/O error". */
			if (strstr(zmsg, "truncated"))
				s->st.truncated_files++;
			else
				s->st.read_errors++;
			warn(s, idx, "%s: %s; the records before it are analysed", in->name, zmsg);
		} else if (strstr(msg, "truncated")) {
			s->st.truncated_files++;
			warn(s, idx, "%s: file ends inside a record (%s)", in->name, msg);
		} else {
			s->st.read_errors++;
			warn(s, idx, "%s: read error, rest of the file skipped (%s)", in->name, msg);
		}
		in->done = true;
		return;
	}
}

static uint64_t position(const struct source *s)
{
	uint64_t pos = 0;
	for (int i = 0; i < s->n; i++) {
		FILE *f = s->in[i].h ? pcap_file(s->in[i].h) : NULL;
		if (s->in[i].dc) {
			pos += decomp_raw_pos(s->in[i].dc);
		} else if (f) {
			long p = ftell(f);
			if (p > 0)
				pos += (uint64_t)p;
		}
	}
	return pos;
}

int source_next(struct source *s, struct src_packet *p)
{
	for (;;) {
		if (s->stop)
			return 0;
		int best = -1;
		for (int i = 0; i < s->n; i++) {
			struct input *in = &s->in[i];
			if (in->needs_read)
				read_head(s, in, i);
			if (!in->has_head)
				continue;
			if (best < 0 || in->head_ns < s->in[best].head_ns)
				best = i;
		}
		if (best < 0) {
			if (s->live && !s->in[0].done)
				return s->stop ? 0 : 2;
			progress_done(&s->prog);
			return 0;
		}
		struct input *in = &s->in[best];
		in->has_head = false;
		in->needs_read = true;   /* the record's buffer stays valid until then */
		s->st.records++;
		s->st.bytes += in->hdr->caplen;
		if ((s->st.records & (PROGRESS_EVERY - 1)) == 0 && s->prog.active)
			progress_update(&s->prog, position(s));
		if (s->save)
			pcap_dump((u_char *)s->save, in->hdr, in->data);
		p->matched = !in->have_filter || pcap_offline_filter(&in->filter, in->hdr, in->data);
		if (!p->matched)
			s->st.filtered_out++;
		p->frame = s->st.records;
		p->ts_ns = in->head_ns;
		p->caplen = in->hdr->caplen;
		p->wirelen = in->hdr->len;
		p->data = in->data;
		p->dlt = in->dlt;
		p->file = best;
		if (s->st.records == 1 || p->ts_ns < s->st.first_ns)
			s->st.first_ns = p->ts_ns;
		if (p->ts_ns > s->st.last_ns || s->st.records == 1)
			s->st.last_ns = p->ts_ns;
		if (p->ts_ns < s->prev_ns)
			s->st.ts_backwards++;
		s->prev_ns = p->ts_ns;
		return 1;
	}
}

void source_stop(struct source *s)
{
	s->stop = 1;
	if (s->live && s->in[0].h)
		pcap_breakloop(s->in[0].h);
}

const struct source_stats *source_stats(const struct source *s)
{
	if (s->live && s->in[0].h) {
		struct pcap_stat ps;
		if (pcap_stats(s->in[0].h, &ps) == 0)
			((struct source *)s)->st.live_dropped = (uint64_t)ps.ps_drop + ps.ps_ifdrop;
	}
	return &s->st;
}

const char *source_name(const struct source *s, int file)
{
	if (file < 0 || file >= s->n)
		return "?";
	return strcmp(s->in[file].name, "-") == 0 ? "stdin" : s->in[file].name;
}

int source_nfiles(const struct source *s)
{
	return s->n;
}

bool source_is_live(const struct source *s)
{
	return s->live;
}

uint64_t source_saved_bytes(const struct source *s)
{
	if (!s->save)
		return 0;
	long pos = pcap_dump_ftell(s->save);
	return pos > 0 ? (uint64_t)pos : 0;
}

bool source_list_interfaces(FILE *f, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_if_t *all = NULL;
	if (pcap_findalldevs(&all, ebuf) != 0) {
		snprintf(err, errlen, "cannot list interfaces: %s", ebuf);
		return false;
	}
	int n = 0;
	for (pcap_if_t *d = all; d; d = d->next) {
		fprintf(f, "%d. %s", ++n, d->name);
		if (d->description)
			fprintf(f, " (%s)", d->description);
		else if (d->flags & PCAP_IF_LOOPBACK)
			fprintf(f, " (Loopback)");
		fputc('\n', f);
	}
	pcap_freealldevs(all);
	if (!n) {
		snprintf(err, errlen, "no interfaces to capture on (capture permission missing? "
			 "try as root or with CAP_NET_RAW)");
		return false;
	}
	return true;
}

void source_close(struct source *s)
{
	if (!s)
		return;
	progress_done(&s->prog);
	if (s->save)
		pcap_dump_close(s->save);
	for (int i = 0; i < s->n; i++) {
		if (s->in[i].have_filter)
			pcap_freecode(&s->in[i].filter);
		if (s->in[i].h)
			pcap_close(s->in[i].h);
		free(s->in[i].iobuf);
	}
	free(s->in);
	free(s);
}
