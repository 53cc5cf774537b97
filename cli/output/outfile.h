// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outfile.h - a report written to a named file (report -o, merge -o)
 * without ever destroying what was there: it is written beside the target
 * under a temporary name and renamed over it only once complete and
 * flushed, so a run that fails leaves the old file as it was (or none). A
 * target that is one of the inputs (the same file: device and inode, links
 * followed) is refused before anything is written. A target that exists
 * and is not a regular file (/dev/null, /dev/stdout, a FIFO) is written in
 * place: it cannot be replaced.
 */
#ifndef IWS_CLI_OUTFILE_H
#define IWS_CLI_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;                    /* write here */
	char *target;               /* the file replaced (links resolved) */
	char *tmp;                  /* the temporary file (NULL: written in place) */
	const char *shown;          /* the name as given, for messages */
};

/* 0, or -1 with a one-line message in err. inputs: the files the run reads
 * ("-" and names that do not exist are skipped). */
int outfile_open(struct outfile *o, const char *path, const char *const *inputs, int ninputs,
		 char *err, size_t errlen);
/* Flush, check and put the file in place. 0, or -1 with a message (the
 * temporary file is removed, the target untouched). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Give up: the temporary file is removed, the target untouched. */
void outfile_abort(struct outfile *o);

#endif
