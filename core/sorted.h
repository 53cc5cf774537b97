// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sorted.h - a slot opened inside a growing array (core-private): the
 * statistics keep their groups sorted by key, found by binary search and
 * inserted where the search ended (nvme_stats.c, rpcrdma_stats.c).
 */
#ifndef IWS_CORE_SORTED_H
#define IWS_CORE_SORTED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Open a zeroed slot at index at (<= *n) of *base (*n elements of size
 * octets, room for *cap), doubling the room when full (first 8). NULL on
 * allocation failure, nothing changed. */
static inline void *iws_array_insert(void **base, uint32_t *n, uint32_t *cap, size_t size, uint32_t at)
{
	if (*n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 8;
		void *e = realloc(*base, (size_t)c * size);
		if (!e)
			return NULL;
		*base = e;
		*cap = c;
	}
	uint8_t *b = *base;
	memmove(b + (size_t)(at + 1) * size, b + (size_t)at * size, (size_t)(*n - at) * size);
	(*n)++;
	memset(b + (size_t)at * size, 0, size);
	return b + (size_t)at * size;
}

#endif
