// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fdpool.h - regular files read as stdio streams that hold a file descriptor
 * only while they are read. Capture files that overlap in time are all open
 * at once, one stream each, however many there are; the descriptors are a
 * pool as large as the process may open (its RLIMIT_NOFILE, less those in
 * use when the first file was opened, less a reserve for outputs). A stream
 * whose descriptor was given to another opens its file again at its next
 * read, checks it is the same file (device and inode), and goes on where it
 * was: with `ulimit -n 256` a thousand overlapping files are read whole.
 */
#ifndef IWS_CLI_FDPOOL_H
#define IWS_CLI_FDPOOL_H

#include <stdio.h>
#include <sys/stat.h>

struct pooled_file;

/*
 * Open path for reading. A regular file: a stream of the pool (*pf set;
 * fclose frees it). Anything else (a FIFO, a device, /dev/fd/N of a pipe):
 * an ordinary stream that keeps its descriptor (*pf NULL). *sb: what was
 * opened. NULL with errno set when it cannot be opened (no descriptor even
 * after the pool gave back all of its own: EMFILE).
 */
FILE *fdpool_open(const char *path, struct stat *sb, struct pooled_file **pf);

/* What the file is now: fstat of its descriptor while it holds one, else
 * stat of its name. 0 or -1 (errno). */
int fdpool_stat(const struct pooled_file *pf, struct stat *sb);

/* The stream's descriptor now (opened again if it had given it back), to
 * map the file; -1 when it cannot be had. */
int fdpool_fd(struct pooled_file *pf);

/* Why a read failed when the file could not be opened again or another
 * file had taken its name meanwhile (a rotation), else NULL. */
const char *fdpool_error(const struct pooled_file *pf);

/* Descriptors the pool may hold (computed at its first use), and held now. */
int fdpool_limit(void);
int fdpool_held(void);

#endif
