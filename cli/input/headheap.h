// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * headheap.h - the inputs whose next record is read, in the order the merge
 * takes them (source.c): the earliest record first, on equal times the file
 * named first (mergecap's order). A binary heap: a record costs log(n)
 * whatever the number of files open at once.
 */
#ifndef IWS_CLI_HEADHEAP_H
#define IWS_CLI_HEADHEAP_H

#include <stdbool.h>
#include <stdint.h>

struct head {
	int64_t ns;                 /* the record's time */
	int input;                  /* the file's index */
};

struct headheap {
	struct head *h;
	int n, cap;
};

/* Room for cap inputs (each is in the heap at most once). */
bool headheap_init(struct headheap *hh, int cap);
void headheap_free(struct headheap *hh);

void headheap_push(struct headheap *hh, int64_t ns, int input);
/* The first input, or -1 when the heap is empty. */
int headheap_top(const struct headheap *hh);
/* Take the first input out (the heap is not empty). */
int headheap_pop(struct headheap *hh);
/* Take input out wherever it is (no-op if it is not in the heap). */
void headheap_remove(struct headheap *hh, int input);

#endif
