// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flow_record.h - one TCP conversation as the conversation table (flows.h)
 * and its store of retired conversations (flows_retired.h) both hold it:
 * its two endpoints, Wireshark's base sequence numbers, the analysis state.
 */
#ifndef IWS_CLI_FLOW_RECORD_H
#define IWS_CLI_FLOW_RECORD_H

#include <stdbool.h>
#include <stdint.h>

struct endpoint {
	uint8_t af;
	uint8_t addr[16];
	uint16_t port;
};

struct flow {
	uint32_t stream;            /* tcp.stream */
	struct endpoint ep[2];      /* ep[0]: source of the first packet */
	bool base_set[2];           /* Wireshark's base_seq per direction */
	uint32_t base_seq[2];
	void *user;                 /* the analysis state of the connection */
	bool done;                  /* analysed and finished: ignore the rest */
	bool limit_skipped;         /* not analysed (any more): --max-flows */
	struct flow *hnext;         /* hash chain */
	uint32_t hash;
};

#endif
