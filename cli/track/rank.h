// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rank.h - the slowest operations and NVMe commands.
 *
 * A rank keeps operations ordered by the time they took, by one of three
 * rules:
 *   RANK_ANY       latency_ns (reads, atomics), else ack_ns (the delivery of
 *                  Writes, Sends, Immediate Data): `ops --sort latency`;
 *   RANK_WAIT      latency_ns only: what the application waited for;
 *   RANK_DELIVERY  ack_ns of the operations without a latency, the
 *                  receiver's delayed ACKs left out (counted).
 * Operations the rule does not rank are counted, not kept. With a limit only
 * the slowest `limit` are kept (a min-heap: memory bounded by the limit);
 * without one, every ranked operation is kept until the end.
 *
 * The summary and the report rank the application's wait (RDMA latency and
 * NVMe command latency, one list) apart from deliveries (struct slowest,
 * docs/semantics.md "The slowest").
 */
#ifndef IWS_CLI_RANK_H
#define IWS_CLI_RANK_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/nvme.h"
#include "opheap.h"

enum rank_by { RANK_ANY = 0, RANK_WAIT, RANK_DELIVERY };

struct rank {
	struct opheap h;            /* while collecting: the fastest kept at the root */
	enum rank_by by;
	bool sorted;                /* rank_sort ran: h.items is slowest first, no heap */
	uint32_t limit;             /* 0: keep all */
	int64_t min_ns;             /* rank only operations that took at least this */
	uint64_t unranked;          /* operations the rule does not rank */
	uint64_t delayed_ack;       /* RANK_DELIVERY: the receiver's delayed ACKs, left out */
	uint64_t below;             /* faster than min_ns */
	uint64_t dropped;           /* no memory left to keep them */
};

/* The time an operation took by RANK_ANY's rule; false if it has none. */
bool rank_time(const struct iws_op *op, int64_t *ns);

/* The receiver's delayed ACK (docs/semantics.md): a delivery whose octets
 * neither were retransmitted nor waited, acknowledged by a bare ACK at
 * least DELAYED_ACK_MIN_NS after its last octet, that wait being at least
 * half its ack_ns. *wait_ns: the time from its last octet to that ACK. */
#define DELAYED_ACK_MIN_NS 40000000
bool op_delayed_ack(const struct iws_op *op, int64_t *wait_ns);

void rank_init(struct rank *r, uint32_t limit, int64_t min_ns);
void rank_init_by(struct rank *r, enum rank_by by, uint32_t limit);
void rank_add(struct rank *r, const struct conn *c, const struct iws_op *op);
/* Sort what was kept, slowest first (then by start, frame, qp, id), into
 * r->h.items[0 .. r->h.n); nothing may be added after. */
void rank_sort(struct rank *r);
void rank_free(struct rank *r);

/* The slowest complete NVMe commands with a latency, slowest first (then
 * in start order), at most limit of them. */
struct nvme_item {
	struct iws_nvme_cmd cmd;
	const struct conn *c;
};
struct nvme_rank {
	struct nvme_item *v;
	uint32_t n, limit;
	uint64_t ranked;            /* commands offered with a latency */
};
void nvme_rank_init(struct nvme_rank *r, uint32_t limit);
void nvme_rank_add(struct nvme_rank *r, const struct conn *c, const struct iws_nvme_cmd *m);
void nvme_rank_free(struct nvme_rank *r);

/* What the summary and the report call the slowest. */
struct slowest {
	struct rank wait;           /* Reads and Atomics by latency */
	struct nvme_rank nvme;      /* NVMe commands by latency */
	struct rank delivery;       /* the other operations by delivery time */
};
/* One entry of the wait list: an operation or an NVMe command. */
struct wait_item {
	const struct op_item *op;   /* NULL: nvme */
	const struct nvme_item *nvme;
	int64_t ns;
};

void slowest_init(struct slowest *s, uint32_t limit);
void slowest_op(struct slowest *s, const struct conn *c, const struct iws_op *op);
void slowest_nvme(struct slowest *s, const struct conn *c, const struct iws_nvme_cmd *m);
/* The wait list, operations and commands merged, slowest first: up to max
 * entries into v; how many. Sorts the ranks: call after the last add. */
uint32_t slowest_waits(struct slowest *s, struct wait_item *v, uint32_t max);
/* The deliveries, slowest first (sorts: call after the last add). */
const struct op_item *slowest_deliveries(struct slowest *s, uint32_t *n);
void slowest_free(struct slowest *s);

#endif
