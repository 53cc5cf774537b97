// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flows.h - the TCP conversation table. Numbers conversations the way
 * Wireshark's tcp.stream does (0, 1, 2... in order of their first packet;
 * every TCP conversation counts, iWARP or not), so a CLI `qp` is the
 * `tcp.stream` a Wireshark user filters on.
 *
 * Port reuse follows packet-tcp.c: a SYN without ACK whose sequence number
 * differs from the base sequence number already recorded for that direction
 * starts a new conversation on the same addresses and ports.
 */
#ifndef IWS_CLI_FLOWS_H
#define IWS_CLI_FLOWS_H

#include <stdbool.h>
#include <stdint.h>

#include "flow_record.h"
#include "netdecode.h"

struct retired_table;

struct flow_table {
	struct flow **buckets;
	uint32_t nbuckets;          /* power of two */
	uint32_t nflows;            /* flows in the table (the latest per 4-tuple) */
	uint32_t next_stream;
	uint32_t seed;              /* hash seed: crafted addresses cannot pile up in one chain */
	/* the conversations retired (flow_retire), and what a lookup that
	 * finds one of them returns */
	struct retired_table *retired;
	struct flow view;
};

bool flow_table_init(struct flow_table *t);
/* Frees the flows; their user state must have been released by the caller. */
void flow_table_free(struct flow_table *t);

enum flow_event {
	FLOW_EXISTING = 0,
	FLOW_NEW,                   /* first packet of a conversation */
	FLOW_REUSED,                /* new conversation replacing *old (ports reused) */
};

/*
 * Find the conversation of a TCP packet, creating it when needed. *side is
 * 0 when the packet travels ep[0] -> ep[1], else 1. On FLOW_REUSED, *old is
 * the conversation that was replaced (no longer in the table; the caller
 * finishes and frees it with flow_release), NULL when that one was retired.
 * A retired conversation is returned as the table's view (done, no user
 * state, stream unknown), valid until the next lookup. NULL on allocation
 * failure.
 */
struct flow *flow_lookup(struct flow_table *t, const struct tcp_pkt *p, int *side,
			 enum flow_event *ev, struct flow **old);

/* The conversation of p if the table has one (nothing is created or
 * recorded): *side as above; *reused is true when p starts a new
 * conversation on its ports (flow_lookup would replace the one returned).
 * NULL: no conversation on these addresses and ports. */
struct flow *flow_find(struct flow_table *t, const struct tcp_pkt *p, int *side, bool *reused);

void flow_release(struct flow *f);

/*
 * The caller is done with f for good (done, no user state): it is kept in
 * about 30 octets (IPv4; 55 IPv6) instead of a struct flow and its chain
 * (about 112), so that a capture's millions of connections past
 * --max-flows cost little while their later packets, and port reuse, are
 * still recognised (flows_retired.h). f is freed; a lookup returns the
 * table's view for it. Nothing happens to a flow not done, with user state,
 * or if memory is short.
 */
void flow_retire(struct flow_table *t, struct flow *f);

/* "a.b.c.d:port" or "[v6]:port"; buf must hold 64 octets. */
const char *endpoint_str(const struct endpoint *e, char *buf);

#endif
