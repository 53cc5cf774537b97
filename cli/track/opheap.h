// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opheap.h - a binary heap of finished operations, ordered by a comparison
 * the user gives: the timeline's (earliest start first) and the ranking's
 * (the fastest of the slowest kept first) share it.
 */
#ifndef IWS_CLI_OPHEAP_H
#define IWS_CLI_OPHEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "conn.h"
#include "iwarpscope/qp.h"

struct op_item {
	struct iws_op op;
	const struct conn *c;
};

struct opheap {
	struct op_item *items;
	uint32_t n, cap;
	bool (*first)(const struct op_item *a, const struct op_item *b); /* a before b */
};

/* Start order (docs/semantics.md): by start_ns, then first_frame, then
 * qp; within a QP the tracker's start order. */
bool op_starts_before(const struct op_item *a, const struct op_item *b);

/* Room for one more; false when out of memory (cap: never beyond it). */
bool opheap_reserve(struct opheap *h, uint32_t cap_max);
void opheap_push(struct opheap *h, const struct op_item *it);
/* Keep the cap items the order puts last (cap 0: no bound): it is pushed
 * while there is room, else it takes the root's place if the root comes
 * before it. false only when out of memory (it was not kept). */
bool opheap_offer(struct opheap *h, const struct op_item *it, uint32_t cap);
void opheap_free(struct opheap *h);

#endif
