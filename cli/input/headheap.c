// SPDX-License-Identifier: GPL-2.0-or-later
/* The merge's heap of inputs by their next record (see headheap.h). */
#include "headheap.h"

#include <stdlib.h>

static bool earlier(const struct head *a, const struct head *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->input < b->input);
}

static void swap(struct head *a, struct head *b)
{
	struct head t = *a;
	*a = *b;
	*b = t;
}

static void sift_up(struct headheap *hh, int i)
{
	while (i > 0 && earlier(&hh->h[i], &hh->h[(i - 1) / 2])) {
		swap(&hh->h[i], &hh->h[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct headheap *hh, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < hh->n && earlier(&hh->h[l], &hh->h[m]))
			m = l;
		if (r < hh->n && earlier(&hh->h[r], &hh->h[m]))
			m = r;
		if (m == i)
			return;
		swap(&hh->h[i], &hh->h[m]);
		i = m;
	}
}

bool headheap_init(struct headheap *hh, int cap)
{
	hh->n = 0;
	hh->cap = cap > 0 ? cap : 1;
	hh->h = calloc((size_t)hh->cap, sizeof(*hh->h));
	return hh->h != NULL;
}

void headheap_free(struct headheap *hh)
{
	free(hh->h);
	hh->h = NULL;
	hh->n = hh->cap = 0;
}

void headheap_push(struct headheap *hh, int64_t ns, int input)
{
	if (hh->n >= hh->cap)
		return; /* cannot happen: each input is in it at most once */
	hh->h[hh->n] = (struct head){ ns, input };
	sift_up(hh, hh->n++);
}

int headheap_top(const struct headheap *hh)
{
	return hh->n ? hh->h[0].input : -1;
}

int headheap_pop(struct headheap *hh)
{
	int top = hh->h[0].input;
	hh->h[0] = hh->h[--hh->n];
	sift_down(hh, 0);
	return top;
}

void headheap_remove(struct headheap *hh, int input)
{
	for (int i = 0; i < hh->n; i++) {
		if (hh->h[i].input != input)
			continue;
		hh->h[i] = hh->h[--hh->n];
		if (i < hh->n) {
			sift_up(hh, i);
			sift_down(hh, i);
		}
		return;
	}
}
