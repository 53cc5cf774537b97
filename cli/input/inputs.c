// SPDX-License-Identifier: GPL-2.0-or-later
/* Capture operands to capture files (see inputs.h). */
#include "inputs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "decomp.h"
#include "textsafe.h"

/* More files than this in one operand is a mistake (or an attack on memory). */
#define MAX_FILES 100000

int inputs_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			int c = strncmp(a, b, (size_t)(ea - a));
			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int cmp_names(const void *x, const void *y)
{
	return inputs_natcmp(*(const char *const *)x, *(const char *const *)y);
}

__attribute__((format(printf, 2, 3))) static void note(struct inputs *in, const char *fmt, ...)
{
	if (in->nnotes >= INPUTS_MAX_NOTES)
		return;
	va_list ap;
	char raw[sizeof(in->notes[0])];
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* the names in it come from the file system: shown escaped */
	text_safe(in->notes[in->nnotes++], sizeof(in->notes[0]), raw);
}

static bool add(struct inputs *in, const char *name, bool copy)
{
	if (in->nfiles >= MAX_FILES)
		return false;
	const char **f = realloc(in->files, (size_t)(in->nfiles + 1) * sizeof(*f));
	if (!f)
		return false;
	in->files = f;
	if (copy) {
		char **o = realloc(in->owned, (size_t)(in->nowned + 1) * sizeof(*o));
		char *dup = strdup(name);
		if (o)
			in->owned = o;
		if (!o || !dup) {
			free(dup);
			return false;
		}
		in->owned[in->nowned++] = dup;
		name = dup;
	}
	in->files[in->nfiles++] = name;
	return true;
}

/* Does the file start like a capture (pcap, pcapng) or a compressed one?
 * -1: it cannot be read (errno says why). */
static int looks_like_capture(const char *path)
{
	uint8_t m[4];
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t n = fread(m, 1, 4, f);
	int rd_err = ferror(f) ? errno : 0;
	fclose(f);
	if (rd_err) {
		errno = rd_err;
		return -1;
	}
	if (n < 4)
		return 0;
	uint32_t be = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
	/* pcap (µs and ns, either byte order), pcapng Section Header Block */
	return be == 0xa1b2c3d4 || be == 0xd4c3b2a1 || be == 0xa1b23c4d || be == 0x4d3cb2a1 ||
	       be == 0x0a0d0d0a || decomp_sniff(m, n) != DECOMP_NONE;
}

static int add_dir(struct inputs *in, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	int first = in->nfiles, skipped = 0;
	struct dirent *e;
	char path[4096];
	bool ok = true;
	while (ok && (e = readdir(d)) != NULL) {
		struct stat sb;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		int cap = looks_like_capture(path);
		if (cap < 0) {
			/* unreadable is not "not a capture": the user must know */
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			closedir(d);
			return -1;
		}
		if (!cap) {
			skipped++;
			continue;
		}
		ok = add(in, path, true);
	}
	closedir(d);
	if (!ok) {
		snprintf(err, errlen, "%s: too many files, or out of memory", dir);
		return -1;
	}
	if (in->nfiles == first) {
		snprintf(err, errlen, "%s: a directory without capture files", dir);
		return -1;
	}
	qsort(in->files + first, (size_t)(in->nfiles - first), sizeof(*in->files), cmp_names);
	if (skipped)
		note(in, "%s: %d file%s that are not captures skipped", dir, skipped,
		     skipped == 1 ? "" : "s");
	return 0;
}

static int add_glob(struct inputs *in, const char *pat, char *err, size_t errlen)
{
	glob_t g;
	int rc = glob(pat, 0, NULL, &g);
	if (rc == GLOB_NOMATCH) {
		snprintf(err, errlen, "%s: no file matches", pat);
		return -1;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: cannot expand the pattern", pat);
		return -1;
	}
	int first = in->nfiles, other = 0;
	bool ok = true;
	for (size_t i = 0; ok && i < g.gl_pathc; i++) {
		/* A pattern names files: a FIFO, socket or device it matches would
		 * block or never end (a FIFO is still read when named alone). */
		struct stat sb;
		if (stat(g.gl_pathv[i], &sb) == 0 && !S_ISREG(sb.st_mode)) {
			other++;
			continue;
		}
		ok = add(in, g.gl_pathv[i], true);
	}
	globfree(&g);
	if (!ok) {
		snprintf(err, errlen, "%s: too many files, or out of memory", pat);
		return -1;
	}
	if (in->nfiles == first) {
		snprintf(err, errlen, "%s: no regular file matches", pat);
		return -1;
	}
	if (other)
		note(in, "%s: %d match%s that %s not a regular file (a FIFO, a device, a directory) "
			 "skipped", pat, other, other == 1 ? "" : "es", other == 1 ? "is" : "are");
	qsort(in->files + first, (size_t)(in->nfiles - first), sizeof(*in->files), cmp_names);
	return 0;
}

/* ---- holes in rotated sets ---- */

/* The name with every digit run replaced by '#', and the value of its
 * k-th digit run (k < 0: count them). */
static void skeleton(const char *s, char *out, size_t n)
{
	size_t j = 0;
	while (*s && j + 1 < n) {
		if (isdigit((unsigned char)*s)) {
			out[j++] = '#';
			while (isdigit((unsigned char)*s))
				s++;
		} else {
			out[j++] = *s++;
		}
	}
	out[j] = 0;
}

static bool digit_run(const char *s, int k, uint64_t *v, int *width)
{
	for (int i = 0; *s; i++) {
		while (*s && !isdigit((unsigned char)*s))
			s++;
		if (!*s)
			return false;
		const char *b = s;
		uint64_t x = 0;
		while (isdigit((unsigned char)*s)) {
			x = x < UINT64_MAX / 10 ? x * 10 + (uint64_t)(*s - '0') : UINT64_MAX;
			s++;
		}
		if (i == k) {
			*v = x;
			*width = (int)(s - b);
			return true;
		}
	}
	return false;
}

/*
 * Files [b, e) share a skeleton (plus, maybe, base: the same name without
 * the last counter, tcpdump -C's first file, number 0). The counter is the
 * first digit run whose value differs between them; if its values sorted
 * skip one, that file is missing.
 */
static void check_set(struct inputs *in, const char **v, int n, const char *base)
{
	int runs = 0;
	for (const char *s = v[0]; *s; s++)
		if (isdigit((unsigned char)*s) && (s == v[0] || !isdigit((unsigned char)s[-1])))
			runs++;
	for (int k = 0; k < runs; k++) {
		uint64_t first, x;
		int w;
		bool varies = false;
		if (!digit_run(v[0], k, &first, &w))
			return;
		for (int i = 1; i < n && !varies; i++)
			varies = digit_run(v[i], k, &x, &w) && x != first;
		if (!varies)
			continue;
		/* A counter counts: values spread far wider than the number of
		 * files are times (tcpdump -G names), not a counter with holes. */
		uint64_t lo = UINT64_MAX, hi = 0;
		for (int i = 0; i < n; i++)
			if (digit_run(v[i], k, &x, &w)) {
				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
			}
		if (hi - lo > 2 * (uint64_t)n + 2)
			return;
		/* The names are in natural order, so the counter ascends when it is
		 * the first run that varies. */
		uint64_t prev = 0;
		bool have_prev = base != NULL;
		for (int i = 0; i < n; i++) {
			if (!digit_run(v[i], k, &x, &w))
				return;
			if (have_prev && x > prev + 1) {
				note(in, "rotated set: %llu file%s missing before %s (the counter skips "
					 "from %llu to %llu): its connections continue across a capture gap",
				     (unsigned long long)(x - prev - 1), x - prev - 1 == 1 ? "" : "s", v[i],
				     (unsigned long long)prev, (unsigned long long)x);
				return;
			}
			prev = x;
			have_prev = true;
		}
		return;
	}
}

struct skel {
	char *sk;                   /* the name's skeleton */
	const char *name;
};

static int cmp_skel(const void *x, const void *y)
{
	const struct skel *a = x, *b = y;
	int c = strcmp(a->sk, b->sk);
	return c ? c : inputs_natcmp(a->name, b->name);
}

/* Sets are the files with one skeleton: sorted by skeleton, each set is a
 * run (time n log n in the files, not quadratic: 100,000 names are fine). */
static void check_rotation(struct inputs *in)
{
	char sk[512];
	struct skel *v = calloc((size_t)in->nfiles + 1, sizeof(*v));
	const char **set = malloc(((size_t)in->nfiles + 1) * sizeof(*set));
	int n = 0;
	if (!v || !set)
		goto out;
	for (int i = 0; i < in->nfiles; i++) {
		if (strcmp(in->files[i], "-") == 0)
			continue;
		skeleton(in->files[i], sk, sizeof(sk));
		if (!(v[n].sk = strdup(sk)))
			goto out;
		v[n++].name = in->files[i];
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_skel);
	for (int i = 0, j; i < n; i = j) {
		int m = 0;
		for (j = i; j < n && strcmp(v[j].sk, v[i].sk) == 0; j++)
			set[m++] = v[j].name;
		if (m < 2)
			continue;
		/* tcpdump -C: the first file has no counter ("f.pcap" then "f.pcap1"):
		 * its skeleton is the set's without the last '#'. */
		const char *base = NULL;
		size_t len = strlen(v[i].sk);
		if (len > 1 && v[i].sk[len - 1] == '#') {
			snprintf(sk, sizeof(sk), "%.*s", (int)(len - 1), v[i].sk);
			struct skel key = { sk, "" };
			/* the first file of that skeleton, if any */
			size_t lo = 0, hi = (size_t)n;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (cmp_skel(&v[mid], &key) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < (size_t)n && strcmp(v[lo].sk, sk) == 0)
				base = v[lo].name;
		}
		check_set(in, set, m, base);
	}
out:
	for (int i = 0; v && i < n; i++)
		free(v[i].sk);
	free(v);
	free(set);
}

int inputs_expand(const char *const *operands, int n, struct inputs *in, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	for (int i = 0; i < n; i++) {
		const char *op = operands[i];
		struct stat sb;
		int rc = 0;
		if (strcmp(op, "-") != 0 && stat(op, &sb) == 0 && S_ISDIR(sb.st_mode))
			rc = add_dir(in, op, err, errlen);
		else if (strcmp(op, "-") != 0 && stat(op, &sb) != 0 && strpbrk(op, "*?["))
			rc = add_glob(in, op, err, errlen);
		else if (!add(in, op, false)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		if (rc) {
			inputs_free(in);
			return -1;
		}
	}
	check_rotation(in);
	return 0;
}

void inputs_free(struct inputs *in)
{
	for (int i = 0; i < in->nowned; i++)
		free(in->owned[i]);
	free(in->owned);
	free(in->files);
	in->files = NULL;
	in->owned = NULL;
	in->nfiles = in->nowned = 0;
}
