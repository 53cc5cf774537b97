// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opsample.h - which operations a picture draws when it cannot draw them
 * all: at most `cap` of a capture's operations, chosen as they stream by,
 * in memory bounded by the cap:
 *   - the troubled ones (incomplete, sent after a close, a Terminate, CRC
 *     errors, then TCP retransmissions and stalls, most time lost first):
 *     30 % of the cap;
 *   - the slowest (rank.h): 5 % by latency (Reads, Atomics), 5 % by
 *     delivery time (the others, the receiver's delayed ACKs left out), so
 *     the slowest lists' operations are drawn;
 *   - a uniform sample of all of them: the rest. It is the operations with
 *     the smallest hash of (qp, id) ("bottom-k"): the same capture always
 *     gives the same sample, and with fewer operations than its share every
 *     operation is drawn.
 * An operation may be in more than one; opsample_collect returns each once.
 */
#ifndef IWS_CLI_OPSAMPLE_H
#define IWS_CLI_OPSAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "opheap.h"
#include "rank.h"

struct opsample {
	uint32_t cap, cap_uniform, cap_troubled, cap_slow;
	struct opheap uniform;      /* the largest hash kept at the root */
	struct opheap troubled;     /* the least troubled kept at the root */
	struct rank slow_wait, slow_delivery;
	uint64_t seen;              /* operations offered */
	uint64_t troubled_seen;
	uint64_t dropped;           /* not considered: out of memory */
};

void opsample_init(struct opsample *s, uint32_t cap);
void opsample_add(struct opsample *s, const struct conn *c, const struct iws_op *op);
/* Every kept operation once, in start order, into a new array (*n of them;
 * free it); NULL when there are none or no memory. */
struct op_item *opsample_collect(struct opsample *s, uint32_t *n);
void opsample_free(struct opsample *s);

#endif
