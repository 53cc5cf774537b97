// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The descriptor pool (see fdpool.h): each regular file is a glibc cookie
 * stream (fopencookie) that reads with pread at its own position, so its
 * descriptor can be closed between two reads and opened again. The streams
 * holding one are kept in order of their last read; when the pool is full
 * (or open() says EMFILE anyway), the one read longest ago gives its
 * descriptor back. The stdio buffer above the cookie stays, so a stream
 * without a descriptor costs an open() only when its buffer runs dry.
 */
#define _GNU_SOURCE /* fopencookie */
#include "fdpool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Descriptors left for what the program opens besides its inputs: an output
 * and its temporary file, a live save file, the decompressors' spill file,
 * the directory listings of patterns. */
#define RESERVE 16
/* The source never has more inputs open at once than this. */
#define MAX_POOL 4096

struct pooled_file {
	char *path;
	int fd;                          /* -1 while it has none */
	dev_t dev;
	ino_t ino;
	off_t pos;                       /* where the next read starts */
	struct pooled_file *newer, *older; /* the pool's list, while fd >= 0 */
	char err[192];
};

static struct {
	int limit;                       /* 0: not computed yet */
	int held;
	struct pooled_file *newest, *oldest;
} pool;

/* Descriptors open now, counted in /proc/self/fd (the listing's own
 * descriptor not counted); a guess when there is no /proc. */
static int fds_in_use(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 64;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n > 0 ? n - 1 : 0;
}

static void pool_init(void)
{
	if (pool.limit)
		return;
	struct rlimit rl;
	long soft = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
			    ? (long)rl.rlim_cur : MAX_POOL + RESERVE;
	long free_fds = soft - fds_in_use() - RESERVE;
	pool.limit = free_fds < 1 ? 1 : free_fds > MAX_POOL ? MAX_POOL : (int)free_fds;
}

int fdpool_limit(void)
{
	pool_init();
	return pool.limit;
}

int fdpool_held(void)
{
	return pool.held;
}

static void unlink_held(struct pooled_file *pf)
{
	if (pf->newer)
		pf->newer->older = pf->older;
	else
		pool.newest = pf->older;
	if (pf->older)
		pf->older->newer = pf->newer;
	else
		pool.oldest = pf->newer;
	pf->newer = pf->older = NULL;
}

static void link_newest(struct pooled_file *pf)
{
	pf->older = pool.newest;
	pf->newer = NULL;
	if (pool.newest)
		pool.newest->newer = pf;
	pool.newest = pf;
	if (!pool.oldest)
		pool.oldest = pf;
}

static void give_back(struct pooled_file *pf)
{
	if (pf->fd < 0)
		return;
	close(pf->fd);
	pf->fd = -1;
	unlink_held(pf);
	pool.held--;
}

/* open(path) for reading with room made in the pool first; on EMFILE or
 * ENFILE (descriptors opened elsewhere meanwhile) one more is given back
 * and the open tried again, while the pool has any. */
static int open_in_pool(const char *path)
{
	pool_init();
	while (pool.held >= pool.limit && pool.oldest)
		give_back(pool.oldest);
	for (;;) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 || (errno != EMFILE && errno != ENFILE) || !pool.oldest)
			return fd;
		give_back(pool.oldest);
	}
}

/* The stream is about to read: its descriptor, opened again if it gave it
 * back (and the same file: a rotation may have put another under its
 * name). */
static bool acquire(struct pooled_file *pf)
{
	if (pf->fd >= 0) {
		unlink_held(pf);
		link_newest(pf);
		return true;
	}
	int fd = open_in_pool(pf->path);
	if (fd < 0) {
		snprintf(pf->err, sizeof(pf->err), "cannot be opened again (%s)", strerror(errno));
		return false;
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0 || sb.st_dev != pf->dev || sb.st_ino != pf->ino) {
		close(fd);
		snprintf(pf->err, sizeof(pf->err), "another file took its name while it was read");
		errno = ESTALE;
		return false;
	}
	pf->fd = fd;
	link_newest(pf);
	pool.held++;
	return true;
}

static ssize_t pooled_read(void *c, char *buf, size_t n)
{
	struct pooled_file *pf = c;
	if (!acquire(pf)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	ssize_t got;
	do
		got = pread(pf->fd, buf, n, pf->pos);
	while (got < 0 && errno == EINTR);
	if (got > 0)
		pf->pos += got;
	return got;
}

static int pooled_seek(void *c, off64_t *off, int whence)
{
	struct pooled_file *pf = c;
	off64_t base = 0;
	if (whence == SEEK_CUR) {
		base = pf->pos;
	} else if (whence == SEEK_END) {
		struct stat sb;
		if (fdpool_stat(pf, &sb) != 0)
			return -1;
		base = sb.st_size;
	} else if (whence != SEEK_SET) {
		errno = EINVAL;
		return -1;
	}
	if (*off < -base) {
		errno = EINVAL;
		return -1;
	}
	pf->pos = base + *off;
	*off = pf->pos;
	return 0;
}

static int pooled_close(void *c)
{
	struct pooled_file *pf = c;
	give_back(pf);
	free(pf->path);
	free(pf);
	return 0;
}

FILE *fdpool_open(const char *path, struct stat *sb, struct pooled_file **pf)
{
	*pf = NULL;
	int fd = open_in_pool(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, sb) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(sb->st_mode)) {
		FILE *f = fdopen(fd, "rb");
		if (!f)
			close(fd);
		return f;
	}
	struct pooled_file *p = calloc(1, sizeof(*p));
	if (p)
		p->path = strdup(path);
	if (!p || !p->path) {
		free(p);
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	p->fd = fd;
	p->dev = sb->st_dev;
	p->ino = sb->st_ino;
	link_newest(p);
	pool.held++;
	cookie_io_functions_t fns = { .read = pooled_read, .seek = pooled_seek,
				      .close = pooled_close };
	FILE *f = fopencookie(p, "r", fns);
	if (!f) {
		int e = errno;
		pooled_close(p);
		errno = e;
		return NULL;
	}
	*pf = p;
	return f;
}

int fdpool_stat(const struct pooled_file *pf, struct stat *sb)
{
	return pf->fd >= 0 ? fstat(pf->fd, sb) : stat(pf->path, sb);
}

int fdpool_fd(struct pooled_file *pf)
{
	return acquire(pf) ? pf->fd : -1;
}

const char *fdpool_error(const struct pooled_file *pf)
{
	return pf && pf->err[0] ? pf->err : NULL;
}
