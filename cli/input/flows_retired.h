// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flows_retired.h - the conversations the analysis is done with
 * (finished, given up, or never analysed past --max-flows) kept in 28
 * octets (IPv4) or 52 (IPv6) each instead of a struct flow and its hash
 * chain: what a later packet needs to be known as that conversation (its
 * endpoints, Wireshark's base sequence numbers for port reuse, whether it
 * was left out at --max-flows), so tcp.stream numbers stay Wireshark's
 * however many connections a capture holds. An open-addressing table
 * (linear probing, at most 3/4 full) of references into one array per
 * address family: 28 octets a record, 8 a slot (about 45 octets an IPv4
 * connection, measured). Used by flows.c only.
 */
#ifndef IWS_CLI_FLOWS_RETIRED_H
#define IWS_CLI_FLOWS_RETIRED_H

#include <stdbool.h>
#include <stdint.h>

#include "flow_record.h"
#include "netdecode.h"

struct retired4 {
	uint32_t hash;              /* flows.c's hash of its endpoints */
	uint8_t addr[2][4];         /* ep[0], ep[1] */
	uint16_t port[2];
	uint32_t base_seq[2];
	uint8_t flags;              /* RETIRED_* */
};

struct retired6 {
	uint32_t hash;
	uint8_t addr[2][16];
	uint16_t port[2];
	uint32_t base_seq[2];
	uint8_t flags;
};

#define RETIRED_BASE0 0x01          /* base_seq[0] is set */
#define RETIRED_BASE1 0x02
#define RETIRED_SKIPPED 0x04        /* left out at --max-flows */

/* A slot: a reference (0: empty) and its record's hash, so a probe that
 * passes other conversations reads no record. */
struct retired_slot {
	uint32_t hash, ref;
};

struct retired_table {
	struct retired_slot *slots;
	uint32_t mask;              /* slots - 1 (a power of two less one) */
	uint32_t used;
	struct retired4 *v4;
	uint32_t n4, cap4;
	struct retired6 *v6;
	uint32_t n6, cap6;
};

void retired_free(struct retired_table *rt);
/* Keep f (hash, endpoints, base sequence numbers, limit_skipped); false
 * if memory is short (f is then to be kept as it is). */
bool retired_add(struct retired_table *rt, const struct flow *f);
/* The reference of p's retired conversation, 0 if none: *side 0 when p
 * goes ep[0] -> ep[1], else 1. */
uint32_t retired_find(const struct retired_table *rt, uint32_t hash, const struct tcp_pkt *p,
		      int *side);
/* What a reference holds, as a finished struct flow (no user state, done;
 * stream unknown: UINT32_MAX). */
void retired_view(const struct retired_table *rt, uint32_t ref, struct flow *f);
/* Record a side's base sequence number (its first segment came now). */
void retired_note_base(struct retired_table *rt, uint32_t ref, int side, uint32_t seq);
/* Forget a retired conversation (a new one took its ports). */
void retired_remove(struct retired_table *rt, uint32_t ref);

#endif
