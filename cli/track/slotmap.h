// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * slotmap.h - from a connection to a consumer's own small table of the
 * connections it follows: indexed by conn->slot (the connection's place in
 * the analysis, unique for the run), grown as slots come.
 */
#ifndef IWS_CLI_SLOTMAP_H
#define IWS_CLI_SLOTMAP_H

#include <stdbool.h>
#include <stdint.h>

struct slotmap {
	int32_t *idx;               /* slot -> index, or -1 */
	uint32_t n;
};

/* The index of slot, or -1. */
static inline int32_t slotmap_get(const struct slotmap *m, uint32_t slot)
{
	return slot < m->n ? m->idx[slot] : -1;
}

/* false when out of memory. */
bool slotmap_set(struct slotmap *m, uint32_t slot, int32_t index);
/* Every slot back to -1 (the memory stays). */
void slotmap_clear(struct slotmap *m);
void slotmap_free(struct slotmap *m);

#endif
