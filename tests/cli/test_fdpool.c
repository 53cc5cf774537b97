// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fdpool.c: many more files read at once than the process may open
 * (RLIMIT_NOFILE made small first), each read whole and in order, the
 * descriptors held never above the pool's limit; a file whose name another
 * file took while it had no descriptor is not read from the other file;
 * seeking; a non-regular file is an ordinary stream.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../unit/check.h"
#include "fdpool.h"

#define NFILES 40
#define FILE_LEN 3000
#define CHUNK 100

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3; /* ".", "..", the listing's own */
}

static uint8_t octet(int file, long at)
{
	return (uint8_t)(file * 7 + at * 13 + at / 251);
}

static void write_file(const char *path, int file)
{
	FILE *f = fopen(path, "wb");
	for (long at = 0; at < FILE_LEN; at++)
		fputc(octet(file, at), f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/iws-fdpool-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct rlimit rl = { 24, 24 };
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	char path[NFILES][128];
	FILE *f[NFILES];
	struct pooled_file *pf[NFILES];
	for (int i = 0; i < NFILES; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/f%d", dir, i);
		write_file(path[i], i);
	}
	for (int i = 0; i < NFILES; i++) {
		struct stat sb;
		f[i] = fdpool_open(path[i], &sb, &pf[i]);
		CHECK(f[i] != NULL && pf[i] != NULL && sb.st_size == FILE_LEN);
		/* a small buffer: each stream needs its file many times */
		setvbuf(f[i], NULL, _IOFBF, 256);
	}
	CHECK(fdpool_limit() >= 1 && fdpool_limit() <= 24 - 16);
	/* round robin, CHUNK octets each: every stream loses its descriptor
	 * between two of its reads */
	uint8_t buf[CHUNK];
	bool ok = true, bounded = true;
	for (long at = 0; at < FILE_LEN; at += CHUNK) {
		for (int i = 0; i < NFILES; i++) {
			size_t got = fread(buf, 1, CHUNK, f[i]);
			ok = ok && got == CHUNK;
			for (size_t k = 0; k < got; k++)
				ok = ok && buf[k] == octet(i, at + (long)k);
			bounded = bounded && fdpool_held() <= fdpool_limit() && open_fds() <= 24;
		}
	}
	CHECK(ok);
	CHECK(bounded);
	for (int i = 0; i < NFILES; i++)
		CHECK(fread(buf, 1, 1, f[i]) == 0 && feof(f[i]) && !fdpool_error(pf[i]));

	/* seek back into a file that has no descriptor now */
	CHECK(fseek(f[0], 1000, SEEK_SET) == 0 && ftell(f[0]) == 1000);
	CHECK(fread(buf, 1, 1, f[0]) == 1 && buf[0] == octet(0, 1000));
	CHECK(fseek(f[0], -10, SEEK_END) == 0 && fread(buf, 1, 1, f[0]) == 1 &&
	      buf[0] == octet(0, FILE_LEN - 10));

	/* another file takes the name of file 1 while it has no descriptor */
	CHECK(fseek(f[1], 0, SEEK_SET) == 0);
	for (int i = 2; i < NFILES; i++)
		CHECK(fseek(f[i], 0, SEEK_SET) == 0 && fread(buf, 1, 1, f[i]) == 1);
	char other[160];
	snprintf(other, sizeof(other), "%s/other", dir);
	write_file(other, 99);
	CHECK(rename(other, path[1]) == 0);
	CHECK(fread(buf, 1, 1, f[1]) == 0 && ferror(f[1]));
	CHECK(fdpool_error(pf[1]) && strstr(fdpool_error(pf[1]), "another file took its name"));

	for (int i = 0; i < NFILES; i++)
		fclose(f[i]);
	CHECK(fdpool_held() == 0);

	/* a character device: an ordinary stream */
	struct stat sb;
	struct pooled_file *dev;
	FILE *null = fdpool_open("/dev/null", &sb, &dev);
	CHECK(null != NULL && dev == NULL);
	if (null)
		fclose(null);
	errno = 0;
	CHECK(fdpool_open("/nonexistent/x", &sb, &dev) == NULL && errno == ENOENT);

	for (int i = 0; i < NFILES; i++)
		unlink(path[i]);
	rmdir(dir);
	return check_done("test_fdpool");
}
