// SPDX-License-Identifier: GPL-2.0-or-later
/* What the writers read of the capture points (see points.h). */
#include "points_int.h"

int points_count(const struct points *pts)
{
	return pts->npoints;
}

const char *points_name(const struct points *pts, int point)
{
	return pts->pts[point].name;
}

int points_point_files(const struct points *pts, int point)
{
	return pts->pts[point].nfiles;
}

uint32_t points_multi_count(const struct points *pts)
{
	return pts->nmulti;
}

uint64_t points_unindexed(const struct points *pts)
{
	return pts->segs_unindexed;
}

int points_file_count(const struct points *pts)
{
	return pts->nfiles;
}

const char *points_file_name(const struct points *pts, int file)
{
	return pts->files[file].name;
}

int points_file_point(const struct points *pts, int file)
{
	return pts->files[file].point;
}

bool points_qp_get(const struct points *pts, uint32_t stream, struct points_qp *qp)
{
	const struct pconn *c = pts ? points_conn(pts, stream) : NULL;
	if (!c)
		return false;
	*qp = (struct points_qp){
		.p = c->p,
		.q = c->q,
		.ref = c->ref,
		.agreed = c->agreed,
		.disputed = c->disputed,
		.has_offset = c->has_offset,
		.off = c->off,
		.off_lo = c->off_lo,
		.off_hi = c->off_hi,
		.dropped = c->dropped,
		.filled = c->filled,
		.dir = c->dir,
	};
	return true;
}
