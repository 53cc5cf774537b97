// SPDX-License-Identifier: GPL-2.0-or-later
/* A file's identity and how it changed (see fileid.h). */
#include "fileid.h"

#include <stdio.h>

void file_id_of(const struct stat *sb, struct file_id *id)
{
	id->known = true;
	id->dev = (uint64_t)sb->st_dev;
	id->ino = (uint64_t)sb->st_ino;
	id->size = (uint64_t)sb->st_size;
	id->mtime_ns = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
}

bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

const char *file_id_change(const struct file_id *was, const struct file_id *now, char *buf,
			   size_t len)
{
	if (was->dev != now->dev || was->ino != now->ino)
		snprintf(buf, len, "another file now has its name");
	else if (was->size != now->size)
		snprintf(buf, len, "%llu octets, then %llu", (unsigned long long)was->size,
			 (unsigned long long)now->size);
	else
		snprintf(buf, len, "modified, same size");
	return buf;
}
