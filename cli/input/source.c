// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet input (see source.h): libpcap's pull loop (pcap_next_ex) over one or
 * more offline captures, merged chronologically like mergecap (the earliest
 * record first; on equal times the file named first), or over a live
 * interface. Files wait closed until the merge reaches their first record
 * and are closed when they end, so only the files that overlap in time are
 * open (one at a time for a rotated set). An uncompressed regular file's
 * records come from fastread (mapped, in place, no copies) until it falls
 * back to libpcap (fastread.h); IWARPSCOPE_READER=libpcap reads every
 * record through libpcap.
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
#include "fastread.h"
#include "fdpool.h"
#include "headheap.h"
#include "iwarpscope/stream.h"
#include "progress.h"
#include "savefile.h"
#include "textsafe.h"

#define LIVE_SNAPLEN 262144
#define LIVE_TIMEOUT_MS 200
#define PROGRESS_EVERY 4096
/* libpcap reads a record header, then the record, with fread; with the
 * default (4 KiB) stdio buffer every record larger than the buffer costs a
 * read system call of its own. A large buffer turns that into one read per
 * MiB: about three times faster on big captures. */
#define READ_BUFFER (1u << 20)
/* Files that overlap in time are open at once: the first BIG_BUFFERS of
 * them get READ_BUFFER, up to MID_BUFFERS of them MID_BUFFER, the others
 * (and a first look, which reads one record) SMALL_BUFFER, so memory stays
 * bounded by SOURCE_MAX_OPEN. */
#define BIG_BUFFERS 16
#define MID_BUFFERS 128
#define MID_BUFFER (64u * 1024)
#define SMALL_BUFFER (16u * 1024)
/* fastread: the file's size checked again every this many octets read. */
#define SHRINK_CHECK (256u * 1024)

struct input {
	const char *name;
	char *shown;                /* the name as shown (escaped; "stdin") */
	pcap_t *h;                  /* NULL while closed */
	int dlt;
	bool have_filter;
	struct bpf_program filter;
	/* the next record, read ahead for the merge */
	bool has_head, needs_read, done;
	struct pcap_pkthdr *hdr;
	const uint8_t *data;
	int64_t head_ns;
	int64_t first_ns;           /* its first record's time (while it waits closed) */
	bool waits;                 /* closed until the merge reaches first_ns */
	bool first_look;            /* opened to read its first record, then closed */
	bool regular;               /* a regular file: may be closed and opened again */
	uint64_t size;              /* file size, for the progress bar (0: unknown) */
	uint64_t read_done;         /* octets of it read before it was closed */
	char *iobuf;                /* the FILE's buffer (freed after pcap_close) */
	/* An uncompressed regular file read in place (fastread.h) while
	 * fastread can; h then only gave the link type and snapshot, and
	 * takes over after a fallback. */
	struct fastread *fr;
	struct pcap_pkthdr fr_hdr;  /* the header of fastread's record */
	uint64_t fr_check;          /* fastread's position of the next size check */
	/* source_hold: fastread ended (fell back to libpcap, or the input
	 * ended) while records it handed out may still be read elsewhere: it
	 * stays mapped until source_close */
	struct fastread *fr_ended;
	struct decomp *dc;          /* compressed (decomp.h): the decompressor; else NULL */
	struct pooled_file *pf;     /* a regular file (fdpool.h) while open; else NULL */
	int poll_fd;                /* live, non-blocking: wait here; else -1 */
	bool ts_micro;              /* live on a device without nanosecond stamps */
	struct file_id id;          /* when first opened */
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
	struct savefile *save;      /* live: where every captured packet is saved */
	const char *bpf;
	uint64_t max_window;
	bool fast;                  /* plain files read by fastread (not IWARPSCOPE_READER=libpcap) */
	bool hold;                  /* source_hold */
	struct decomp_budget *decoders; /* what the decoders of the open files share */
	bool decoders_said;         /* the warning that they hold more was given */
	struct file_id *ids;        /* source_opts.ids */
	int *open;                  /* the inputs open now (indices), nopen of them */
	int nopen;
	/* Each open input is in one of these two: */
	struct headheap heads;      /* its next record read: in the merge's order */
	int *unread;                /* its next record not read yet (it was just
				     * taken, or the input was opened; live: none
				     * came yet), nunread of them */
	int nunread;
	int *waiting;               /* the inputs waiting closed, by first record time */
	int nwaiting, next_waiting;
	char error[256];            /* source_error */
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
	char raw[sizeof(w->text)];
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* names are escaped already; libpcap's and zlib's words need not be */
	text_safe(w->text, sizeof(w->text), raw);
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
	/* compiled once, kept while the file waits closed */
	if (!bpf || in->have_filter)
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
		     in->shown, snap);
}

/* Is in to be read by fastread (an uncompressed regular file among the
 * first BIG_BUFFERS open)? The pages of a mapping count in the resident
 * size (fastread gives back those behind it, keeping about 512 KiB): as
 * many files as would get the large buffer are mapped, and the others
 * read with libpcap and a small buffer, so memory stays bounded however
 * many files overlap. */
static bool fast_candidate(const struct source *s, const struct input *in)
{
	return !in->dc && in->pf && s->fast && s->nopen < BIG_BUFFERS && !in->first_look;
}

/* Hand fp (plain or compressed, told by its first octets) to libpcap. On
 * failure fp is closed (unless it is stdin). */
static bool open_stream(struct source *s, struct input *in, FILE *fp, bool is_stdin, char *err,
			size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	enum decomp_kind kind;
	FILE *rd = decomp_open(fp, in->shown, !is_stdin, s->max_window, s->decoders, &kind,
				&in->dc, err, errlen);
	if (!rd) {
		if (!is_stdin)
			fclose(fp);
		in->pf = NULL;
		return false;
	}
	if (is_stdin && !in->dc) {
		/* stdin outlives pcap_close (libpcap does not close it). */
		static char stdin_buf[READ_BUFFER];
		setvbuf(rd, stdin_buf, _IOFBF, sizeof(stdin_buf));
	} else {
		/* a first look (several files: its first record only) needs little;
		 * nor does a file fastread is to read (libpcap reads its header,
		 * and its records only if fastread declines or falls back) */
		size_t len = in->first_look ? SMALL_BUFFER
			     : s->nopen >= MID_BUFFERS ? SMALL_BUFFER
			     : s->nopen >= BIG_BUFFERS || fast_candidate(s, in) ? MID_BUFFER
			     : READ_BUFFER;
		in->iobuf = malloc(len);
		if (in->iobuf)
			setvbuf(rd, in->iobuf, _IOFBF, len);
	}
	/* On success libpcap owns rd and closes it in pcap_close (a
	 * decompressing stream then closes the file under it). */
	in->h = pcap_fopen_offline_with_tstamp_precision(rd, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!in->h) {
		const char *why = decomp_error(in->dc, NULL);
		if (why)
			snprintf(err, errlen, "%s: %s", in->shown, why);
		else if (kind != DECOMP_NONE)
			snprintf(err, errlen, "%s: %s-compressed, but what it holds is not a pcap or "
					      "pcapng capture", in->shown, decomp_name(kind));
		else
			open_error(in->shown, ebuf, err, errlen);
		if (rd != stdin)
			fclose(rd);
		in->dc = NULL;
		in->pf = NULL;
		free(in->iobuf);
		in->iobuf = NULL;
		return false;
	}
	in->dlt = pcap_datalink(in->h);
	/* A plain file is read in place; libpcap stays for the rest. */
	if (fast_candidate(s, in)) {
		in->fr = fastread_map(fdpool_fd(in->pf), in->dlt, pcap_snapshot(in->h));
		in->fr_check = 0;
		if (in->fr && s->hold)
			fastread_hold(in->fr);
	}
	in->needs_read = true;
	s->open[s->nopen++] = (int)(in - s->in);
	s->unread[s->nunread++] = (int)(in - s->in);
	return compile_filter(in, s->bpf, err, errlen);
}

/* Open a file (again: again true), checking it is the file it was. */
static bool open_file(struct source *s, struct input *in, FILE *given, bool again, char *err,
		      size_t errlen)
{
	struct stat sb;
	int idx = (int)(in - s->in);

	if (given)
		return open_stream(s, in, given, false, err, errlen);
	bool is_stdin = strcmp(in->name, "-") == 0;
	if (!is_stdin) {
		if (stat(in->name, &sb) != 0) {
			snprintf(err, errlen, "%s: %s", in->shown, strerror(errno));
			return false;
		}
		if (S_ISDIR(sb.st_mode)) {
			snprintf(err, errlen, "%s: is a directory, not a capture file", in->shown);
			return false;
		}
	}
	/* A regular file holds a descriptor only while it is read (fdpool.h):
	 * any number of files can be open at once. */
	FILE *fp = is_stdin ? stdin : fdpool_open(in->name, &sb, &in->pf);
	if (!fp) {
		snprintf(err, errlen, "%s: %s", in->shown, strerror(errno));
		return false;
	}
	/* The identity of what was opened (not of the name: a rotation may
	 * move names meanwhile). */
	if (in->pf) {
		struct file_id now;
		char what[96];
		file_id_of(&sb, &now);
		in->regular = true;
		in->size = now.size;
		if (again && in->id.known && !file_id_same(&in->id, &now))
			warn(s, idx, "%s changed while it was read (%s): its records may be missing or "
			     "read twice", in->shown, file_id_change(&in->id, &now, what, sizeof(what)));
		else if (!again && s->ids && s->ids[idx].known && !file_id_same(&s->ids[idx], &now))
			warn(s, idx, "%s changed since the first pass over the inputs (%s): the capture "
			     "points were matched on what it held then", in->shown,
			     file_id_change(&s->ids[idx], &now, what, sizeof(what)));
		if (!again) {
			in->id = now;
			if (s->ids && !s->ids[idx].known)
				s->ids[idx] = now;
		}
	}
	return open_stream(s, in, fp, is_stdin, err, errlen);
}

static bool open_live(struct source *s, struct input *in, const struct source_opts *o, char *err,
		      size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	in->h = pcap_create(o->iface, ebuf);
	if (!in->h) {
		snprintf(err, errlen, "%s: %s", in->shown, ebuf);
		return false;
	}
	s->open[s->nopen++] = 0;
	s->unread[s->nunread++] = 0;
	/* These fail only on an activated handle (this one is not); a device
	 * without nanosecond time stamps keeps microseconds, scaled below. */
	if (pcap_set_snaplen(in->h, o->snaplen > 0 ? o->snaplen : LIVE_SNAPLEN) != 0 ||
	    pcap_set_promisc(in->h, 1) != 0 || pcap_set_timeout(in->h, LIVE_TIMEOUT_MS) != 0) {
		snprintf(err, errlen, "%s: cannot set the capture parameters", in->shown);
		return false;
	}
	in->ts_micro = pcap_set_tstamp_precision(in->h, PCAP_TSTAMP_PRECISION_NANO) != 0;
	int rc = pcap_activate(in->h);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", in->shown,
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
	if (in->have_filter)
		pcap_freecode(&in->filter);
	in->have_filter = false;
	return true;
}

/* Octets of in read so far. */
static uint64_t input_pos(const struct input *in)
{
	FILE *f = in->h ? pcap_file(in->h) : NULL;
	if (in->fr)
		return fastread_pos(in->fr);
	if (in->dc)
		return decomp_raw_pos(in->dc);
	long p = f ? ftell(f) : -1;
	return p > 0 ? (uint64_t)p : 0;
}

/* Take idx out of the n indices of set (their order does not matter). */
static void remove_index(int *set, int *n, int idx)
{
	for (int k = 0; k < *n; k++)
		if (set[k] == idx) {
			set[k] = set[--*n];
			return;
		}
}

/* fastread is done with in: unmapped, or (source_hold) kept until
 * source_close. An input ends once, or falls back once and then ends with
 * no fastread: a held one is only ever replaced by the next of a file
 * opened again, which source_hold (one file) never does. */
static void fastread_end(struct input *in)
{
	if (in->fr && fastread_held(in->fr)) {
		fastread_close(in->fr_ended);
		in->fr_ended = in->fr;
	} else {
		fastread_close(in->fr);
	}
	in->fr = NULL;
}

/* Close an input (it ended, or waits for its time): its buffers and
 * decompressor are freed. */
static void close_input(struct source *s, struct input *in)
{
	if (!in->h)
		return;
	in->read_done += input_pos(in);
	fastread_end(in);
	pcap_close(in->h);
	in->h = NULL;
	in->dc = NULL; /* freed with the stream */
	in->pf = NULL;
	free(in->iobuf);
	in->iobuf = NULL;
	int idx = (int)(in - s->in);
	remove_index(s->open, &s->nopen, idx);
	remove_index(s->unread, &s->nunread, idx);
	headheap_remove(&s->heads, idx);
}

/* A file ended: was it still the file it was when it was opened? */
static void check_unchanged(struct source *s, struct input *in)
{
	struct stat sb;
	struct file_id now;
	char what[96];
	/* (a compressed file's pooled stream is the one under the decompressor) */
	if (!in->regular || !in->id.known || !in->pf || fdpool_stat(in->pf, &sb) != 0)
		return;
	file_id_of(&sb, &now);
	if (file_id_same(&in->id, &now))
		return;
	if (in->dc)
		warn(s, (int)(in - s->in), "%s changed while it was read (%s): its records may be "
		     "missing", in->shown, file_id_change(&in->id, &now, what, sizeof(what)));
	else
		warn(s, (int)(in - s->in), "%s changed while it was read (%s): a capture still being "
		     "written, or rewritten (its records may be missing)", in->shown,
		     file_id_change(&in->id, &now, what, sizeof(what)));
}

static void close_streams(const struct source_opts *o, int from)
{
	for (int j = from; !o->iface && o->streams && j < o->nfiles; j++)
		if (o->streams[j])
			fclose(o->streams[j]);
}

static void read_head(struct source *s, struct input *in, int idx);

static const struct source *sort_src;

static int cmp_first(const void *x, const void *y)
{
	const struct input *a = &sort_src->in[*(const int *)x], *b = &sort_src->in[*(const int *)y];
	if (a->first_ns != b->first_ns)
		return a->first_ns < b->first_ns ? -1 : 1;
	return *(const int *)x - *(const int *)y;
}

/* The source and its per-input arrays, with the options it keeps; NULL if
 * memory is short. */
static struct source *source_alloc(const struct source_opts *o)
{
	struct source *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->live = o->iface != NULL;
	s->n = s->live ? 1 : o->nfiles;
	s->bpf = o->bpf;
	s->max_window = o->max_window;
	s->ids = o->ids;
	/* IWARPSCOPE_READER=libpcap: every record through libpcap, as before
	 * fastread (to compare the two, and a way out should fastread fail). */
	const char *reader = getenv("IWARPSCOPE_READER");
	s->fast = !reader || strcmp(reader, "libpcap") != 0;
	size_t n1 = (size_t)(s->n > 0 ? s->n : 1);
	s->in = calloc(n1, sizeof(*s->in));
	s->open = calloc(n1, sizeof(*s->open));
	s->unread = calloc(n1, sizeof(*s->unread));
	s->waiting = calloc(n1, sizeof(*s->waiting));
	s->decoders = decomp_budget_new(decomp_budget_for(o->max_window));
	if (!s->in || !s->open || !s->unread || !s->waiting || !s->decoders ||
	    !headheap_init(&s->heads, (int)n1)) {
		decomp_budget_free(s->decoders);
		free(s->in);
		free(s->open);
		free(s->unread);
		free(s->waiting);
		free(s);
		return NULL;
	}
	return s;
}

/* Several files: a regular one waits closed for its first record's time
 * (pipes and stdin cannot be opened twice). */
static void wait_for_turn(struct source *s, struct input *in, int idx)
{
	read_head(s, in, idx);
	in->first_look = false;
	if (in->has_head) {
		in->first_ns = in->head_ns;
		in->has_head = false;
		in->waits = true;
		s->waiting[s->nwaiting++] = idx;
		close_input(s, in);
	}
}

/* Open the capture file (or stream, or "-" for stdin) of input idx;
 * *stdin_uses counts the inputs that read stdin so far. */
static bool open_capture(struct source *s, struct input *in, const struct source_opts *o, int idx,
			 int *stdin_uses, char *err, size_t errlen)
{
	FILE *given = o->streams ? o->streams[idx] : NULL;
	bool ok;
	if (!given && strcmp(in->name, "-") == 0 && ++*stdin_uses > 1) {
		snprintf(err, errlen, "stdin ('-') can be read only once");
		ok = false;
	} else {
		in->first_look = s->n > 1 && !given;
		ok = open_file(s, in, given, false, err, errlen);
	}
	if (ok) {
		s->total_size += in->size;
		note_snaplen(s, in, idx);
	}
	if (ok && s->n > 1 && in->regular && !given)
		wait_for_turn(s, in, idx);
	return ok;
}

/* Open input idx: the interface when live, else a capture file. */
static bool open_input(struct source *s, const struct source_opts *o, int idx, int *stdin_uses,
		       char *err, size_t errlen)
{
	struct input *in = &s->in[idx];
	in->poll_fd = -1;
	in->name = s->live ? o->iface : o->files[idx];
	in->shown = text_safe_dup(strcmp(in->name, "-") == 0 ? "stdin" : in->name);
	if (!in->shown) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	if (s->live)
		return open_live(s, in, o, err, errlen);
	return open_capture(s, in, o, idx, stdin_uses, err, errlen);
}

struct source *source_open(const struct source_opts *o, char *err, size_t errlen)
{
	struct source *s = source_alloc(o);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		close_streams(o, 0);
		return NULL;
	}
	int stdin_uses = 0;
	for (int i = 0; i < s->n; i++) {
		if (!open_input(s, o, i, &stdin_uses, err, errlen)) {
			/* The streams not reached yet are ours to close too. */
			close_streams(o, i + 1);
			s->n = i + 1;
			source_close(s);
			return NULL;
		}
	}
	sort_src = s;
	qsort(s->waiting, (size_t)s->nwaiting, sizeof(*s->waiting), cmp_first);
	sort_src = NULL;
	if (s->live && o->save && !(s->save = savefile_open(s->in[0].h, o->save, err, errlen))) {
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
 * asked for; microseconds from a live device that has none), kept within the
 * core's range (iws_ts_ns). */
static int64_t record_ns(struct source *s, int idx, const struct pcap_pkthdr *h)
{
	bool clamped;
	int64_t frac = (int64_t)h->ts.tv_usec * (s->in[idx].ts_micro ? 1000 : 1);
	int64_t ns = iws_ts_ns((int64_t)h->ts.tv_sec, frac, &clamped);
	if (clamped && !s->st.ts_clamped++)
		warn(s, idx, "%s: timestamps out of range (before 1970 or after 2116) clamped",
		     source_name(s, idx));
	return ns;
}

/* The input is over: said why if it broke, and closed (offline). */
static void input_done(struct source *s, struct input *in)
{
	in->done = true;
	if (!s->live) {
		check_unchanged(s, in);
		close_input(s, in);
	}
}

/* fastread ended: libpcap goes on after the records it handed out (it
 * reads them again, from the start of the file). */
static int fall_back(struct input *in, struct pcap_pkthdr **hdr, const uint8_t **data)
{
	uint64_t skip = fastread_records(in->fr);
	fastread_end(in);
	for (uint64_t k = 0; k < skip; k++) {
		int rc = pcap_next_ex(in->h, hdr, data);
		if (rc != 1)
			return rc;
	}
	return pcap_next_ex(in->h, hdr, data);
}

/* The next record of an offline input as pcap_next_ex gives it (1, or
 * PCAP_ERROR_BREAK at the end, or PCAP_ERROR), from fastread while it can. */
static int next_record(struct input *in, struct pcap_pkthdr **hdr, const uint8_t **data)
{
	if (!in->fr)
		return pcap_next_ex(in->h, hdr, data);
	struct stat sb;
	/* A mapped file cut shorter would end the process (SIGBUS) at the
	 * first touch past its new end: its size is checked every
	 * SHRINK_CHECK octets read, and libpcap reads a file that shrank
	 * (what it finds is then reported as for any file rewritten while it
	 * was read). A cut within the last SHRINK_CHECK octets read before it
	 * is touched is not caught. */
	if (fastread_pos(in->fr) >= in->fr_check && in->pf) {
		in->fr_check = fastread_pos(in->fr) + SHRINK_CHECK;
		if (fdpool_stat(in->pf, &sb) == 0 && (uint64_t)sb.st_size < fastread_size(in->fr))
			return fall_back(in, hdr, data);
	}
	struct fastread_rec r;
	int rc = fastread_next(in->fr, &r);
	if (rc == FASTREAD_RECORD) {
		in->fr_hdr.ts.tv_sec = (time_t)r.sec;
		in->fr_hdr.ts.tv_usec = (suseconds_t)r.frac;
		in->fr_hdr.caplen = r.caplen;
		in->fr_hdr.len = r.len;
		*hdr = &in->fr_hdr;
		*data = r.data;
		return 1;
	}
	/* The end of what was mapped: the end of the file unless it grew
	 * meanwhile (a capture still being written: libpcap reads on). */
	if (rc == FASTREAD_END && !(in->pf && fdpool_stat(in->pf, &sb) == 0 &&
				    (uint64_t)sb.st_size > fastread_size(in->fr)))
		return PCAP_ERROR_BREAK;
	return fall_back(in, hdr, data);
}

/* Read the next record of in into its head slot. */
static void read_head(struct source *s, struct input *in, int idx)
{
	in->needs_read = false;
	in->has_head = false;
	if (in->done || !in->h)
		return;
	for (;;) {
		int rc = next_record(in, &in->hdr, &in->data);
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
				warn(s, idx, "%s: %s", in->shown, note);
			input_done(s, in);
			return;
		}
		/* PCAP_ERROR: a damaged or truncated file; keep what was read. */
		const char *msg = pcap_geterr(in->h);
		const char *zmsg = decomp_error(in->dc, NULL);
		const char *lost = fdpool_error(in->pf);
		if (lost) {
			/* its descriptor went to another file, and it could not
			 * have it back */
			s->st.read_errors++;
			warn(s, idx, "%s %s: the rest of its records are missing", in->shown, lost);
		} else if (zmsg) {
			/* The compressed data broke: say how, not libpcap's "I/O error". */
			if (strstr(zmsg, "truncated"))
				s->st.truncated_files++;
			else
				s->st.read_errors++;
			warn(s, idx, "%s: %s; the records before it are analysed", in->shown, zmsg);
		} else if (strstr(msg, "truncated")) {
			s->st.truncated_files++;
			warn(s, idx, "%s: file ends inside a record (%s)", in->shown, msg);
		} else {
			s->st.read_errors++;
			warn(s, idx, "%s: read error, rest of the file skipped (%s)", in->shown, msg);
		}
		input_done(s, in);
		return;
	}
}

/* Records of in from where it is to its end (none is analysed). */
static uint64_t count_rest(struct input *in)
{
	uint64_t n = in->h && in->has_head;
	struct pcap_pkthdr *hdr;
	const uint8_t *data;
	while (in->h && !in->done && next_record(in, &hdr, &data) == 1)
		n++;
	return n;
}

/* More files overlap in time than may be open at once: the input ends
 * with an error saying how many frames were not read (every record of the
 * files open and of those still waiting, counted one file at a time). */
static void too_many_open(struct source *s, struct input *in)
{
	uint64_t unread = 0;
	char err[512];
	for (int k = 0; k < s->nopen; k++)
		unread += count_rest(&s->in[s->open[k]]);
	for (int w = s->next_waiting - 1; w < s->nwaiting; w++) {
		struct input *other = &s->in[s->waiting[w]];
		other->waits = false;
		if (!open_file(s, other, NULL, true, err, sizeof(err)))
			continue;
		unread += count_rest(other);
		close_input(s, other);
	}
	snprintf(s->error, sizeof(s->error),
		 "more than %d input files overlap in time (%s is one of them): %llu of %llu frames "
		 "were not read; merge some of them first (mergecap), or analyse them in groups",
		 SOURCE_MAX_OPEN, in->shown, (unsigned long long)unread,
		 (unsigned long long)(unread + s->st.records));
	s->stop = 1;
}

/* A waiting file's time has come: open it again. false when it cannot be
 * (said in a warning, or a fatal error when too many files are open). */
static bool reopen(struct source *s, int idx)
{
	struct input *in = &s->in[idx];
	char err[512];
	in->waits = false;
	if (s->nopen >= SOURCE_MAX_OPEN) {
		too_many_open(s, in);
		return false;
	}
	if (!open_file(s, in, NULL, true, err, sizeof(err))) {
		s->st.read_errors++;
		warn(s, idx, "%s: cannot be opened again (%s): its records are missing", in->shown,
		     err);
		in->done = true;
		return false;
	}
	read_head(s, in, idx);
	if (in->has_head && in->head_ns != in->first_ns)
		warn(s, idx, "%s changed while it was read (its first record is another): its "
		     "records may be missing", in->shown);
	return true;
}

static uint64_t position(const struct source *s)
{
	uint64_t pos = 0;
	for (int i = 0; i < s->n; i++)
		pos += s->in[i].read_done;
	for (int k = 0; k < s->nopen; k++)
		pos += input_pos(&s->in[s->open[k]]);
	return pos;
}

/* Does input a's head come before b's (the earlier time; on equal times the
 * file named first)? */
static bool before(const struct source *s, int a, int64_t a_ns, int b)
{
	return b < 0 || a_ns < s->in[b].head_ns || (a_ns == s->in[b].head_ns && a < b);
}

/* Read the next record of the open inputs that have none read: each goes
 * into the heap of heads, or ends (and is closed), or (live) has none yet. */
static void read_heads(struct source *s)
{
	int k = 0;
	while (k < s->nunread) {
		int i = s->unread[k];
		struct input *in = &s->in[i];
		if (in->needs_read)
			read_head(s, in, i);
		if (k >= s->nunread || s->unread[k] != i)
			continue; /* it ended and was closed: another took its place */
		if (in->has_head) {
			s->unread[k] = s->unread[--s->nunread];
			headheap_push(&s->heads, in->head_ns, i);
		} else {
			k++;
		}
	}
}

int source_next(struct source *s, struct src_packet *p)
{
	for (;;) {
		if (s->stop)
			return 0;
		read_heads(s);
		int best = headheap_top(&s->heads);
		/* Files whose first record comes before the best head join now. */
		while (s->next_waiting < s->nwaiting) {
			int i = s->waiting[s->next_waiting];
			if (!before(s, i, s->in[i].first_ns, best))
				break;
			s->next_waiting++;
			if (!reopen(s, i)) {
				if (s->stop)
					return 0;
				continue;
			}
			read_heads(s);
			best = headheap_top(&s->heads);
		}
		if (best < 0) {
			if (s->live && !s->in[0].done)
				return s->stop ? 0 : 2;
			progress_done(&s->prog);
			return 0;
		}
		headheap_pop(&s->heads);
		s->unread[s->nunread++] = best;
		if (!s->decoders_said && decomp_budget_error(s->decoders)) {
			s->decoders_said = true;
			warn(s, -1, "the decompressors hold more than %llu MiB (files that overlap in "
			     "time were to be decompressed into a temporary file: %s)",
			     (unsigned long long)(decomp_budget_for(s->max_window) >> 20),
			     decomp_budget_error(s->decoders));
		}
		struct input *in = &s->in[best];
		in->has_head = false;
		in->needs_read = true;   /* the record's buffer stays valid until then */
		s->st.records++;
		s->st.bytes += in->hdr->caplen;
		if ((s->st.records & (PROGRESS_EVERY - 1)) == 0 && s->prog.active)
			progress_update(&s->prog, position(s));
		if (s->save)
			savefile_write(s->save, in->hdr, in->data);
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
		p->mapped = in->fr && s->hold ? in->fr : NULL;
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

bool source_hold(struct source *s)
{
	if (s->live || s->n != 1 || !s->fast)
		return false;
	s->hold = true;
	for (int i = 0; i < s->n; i++)
		if (s->in[i].fr)
			fastread_hold(s->in[i].fr);
	return true;
}

void source_stop(struct source *s)
{
	s->stop = 1;
	if (s->live && s->in[0].h)
		pcap_breakloop(s->in[0].h);
}

const char *source_error(const struct source *s)
{
	return s->error[0] ? s->error : NULL;
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
	if (file < 0 || file >= s->n || !s->in[file].shown)
		return "?";
	return s->in[file].shown;
}

int source_nfiles(const struct source *s)
{
	return s->n;
}

int source_open_files(const struct source *s)
{
	return s->nopen;
}

bool source_is_live(const struct source *s)
{
	return s->live;
}

uint64_t source_saved_bytes(const struct source *s)
{
	return savefile_bytes(s->save);
}

bool source_close_save(struct source *s, char *msg, size_t msglen)
{
	if (!s->save)
		return true;
	bool ok = savefile_close(s->save, msg, msglen);
	s->save = NULL;
	return ok;
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
	char msg[8];
	source_close_save(s, msg, sizeof(msg)); /* the caller asked first, if it cared */
	for (int i = 0; i < s->n; i++) {
		if (s->in[i].have_filter)
			pcap_freecode(&s->in[i].filter);
		fastread_close(s->in[i].fr);
		fastread_close(s->in[i].fr_ended);
		if (s->in[i].h)
			pcap_close(s->in[i].h);
		free(s->in[i].iobuf);
		free(s->in[i].shown);
	}
	free(s->in);
	free(s->open);
	free(s->unread);
	free(s->waiting);
	headheap_free(&s->heads);
	decomp_budget_free(s->decoders);
	free(s);
}
