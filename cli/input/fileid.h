// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fileid.h - what a file was when it was first opened (regular files only),
 * to tell whether it changed since: between the two passes over the inputs
 * (points.h), or while it was read (source.c).
 */
#ifndef IWS_CLI_FILEID_H
#define IWS_CLI_FILEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct file_id {
	bool known;
	uint64_t dev, ino, size;
	int64_t mtime_ns;
};

void file_id_of(const struct stat *sb, struct file_id *id);
/* The same file, unchanged (device, inode, size, modification time). */
bool file_id_same(const struct file_id *a, const struct file_id *b);
/* What changed, in words for a warning (into buf). */
const char *file_id_change(const struct file_id *was, const struct file_id *now, char *buf,
			   size_t len);

#endif
