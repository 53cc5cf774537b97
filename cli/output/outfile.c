// SPDX-License-Identifier: GPL-2.0-or-later
/* Reports written to a file by temporary file and rename (see outfile.h). */
#define _GNU_SOURCE /* realpath with NULL is POSIX.1-2008; mkostemp */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textsafe.h"

static void clear(struct outfile *o)
{
	free(o->target);
	free(o->tmp);
	o->target = o->tmp = NULL;
	o->f = NULL;
}

/* Is st the file of one of the inputs? */
static const char *input_of(const struct stat *st, const char *const *inputs, int n)
{
	for (int i = 0; i < n; i++) {
		struct stat in;
		if (strcmp(inputs[i], "-") != 0 && stat(inputs[i], &in) == 0 && in.st_dev == st->st_dev &&
		    in.st_ino == st->st_ino)
			return inputs[i];
	}
	return NULL;
}

int outfile_open(struct outfile *o, const char *path, const char *const *inputs, int ninputs,
		 char *err, size_t errlen)
{
	struct stat st;
	char shown[256];
	memset(o, 0, sizeof(*o));
	o->shown = path;
	text_safe(shown, sizeof(shown), path);
	bool exists = stat(path, &st) == 0;
	if (exists) {
		const char *in = input_of(&st, inputs, ninputs);
		if (in) {
			char a[256];
			snprintf(err, errlen, "%s: is an input of this run (%s): refusing to write over it",
				 shown, text_safe(a, sizeof(a), in));
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device or a FIFO: written in place, never replaced */
			if (!(o->f = fopen(path, "w"))) {
				snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
				return -1;
			}
			return 0;
		}
	}
	/* The file to replace: through a symbolic link, the file it names. */
	o->target = exists ? realpath(path, NULL) : strdup(path);
	size_t len = o->target ? strlen(o->target) : 0;
	o->tmp = o->target ? malloc(len + 16) : NULL;
	if (!o->tmp) {
		snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno ? errno : ENOMEM));
		clear(o);
		return -1;
	}
	/* beside the target (the same file system, so rename is atomic):
	 * DIR/.NAME.XXXXXX */
	const char *slash = strrchr(o->target, '/');
	size_t dirlen = slash ? (size_t)(slash - o->target + 1) : 0;
	snprintf(o->tmp, len + 16, "%.*s.%s.XXXXXX", (int)dirlen, o->target, o->target + dirlen);
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
		clear(o);
		return -1;
	}
	/* the mode fopen would have given (or the old file's) */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~um);
	if (!(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
		close(fd);
		unlink(o->tmp);
		clear(o);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	char shown[256];
	text_safe(shown, sizeof(shown), o->shown);
	int rc = 0, e = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fsync(fileno(o->f)) != 0)
		e = errno;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp && rename(o->tmp, o->target) != 0)
		e = errno;
	if (e) {
		snprintf(err, errlen, "error writing %s: %s%s", shown, strerror(e),
			 o->tmp ? " (the file was left as it was)" : "");
		if (o->tmp)
			unlink(o->tmp);
		rc = -1;
	}
	clear(o);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	clear(o);
}
