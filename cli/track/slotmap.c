// SPDX-License-Identifier: GPL-2.0-or-later
/* Connection slot -> a consumer's index (see slotmap.h). */
#include "slotmap.h"

#include <stdlib.h>
#include <string.h>

bool slotmap_set(struct slotmap *m, uint32_t slot, int32_t index)
{
	if (slot >= m->n) {
		uint32_t n = m->n ? m->n : 64;
		while (n <= slot)
			n *= 2;
		int32_t *v = realloc(m->idx, n * sizeof(*v));
		if (!v)
			return false;
		for (uint32_t i = m->n; i < n; i++)
			v[i] = -1;
		m->idx = v;
		m->n = n;
	}
	m->idx[slot] = index;
	return true;
}

void slotmap_clear(struct slotmap *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		m->idx[i] = -1;
}

void slotmap_free(struct slotmap *m)
{
	free(m->idx);
	memset(m, 0, sizeof(*m));
}
