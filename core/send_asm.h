// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * send_asm.h - a Send message out of its DDP segments (core-private), for
 * the upper-layer stages that read whole Sends (rpcrdma_conn.c,
 * smbd_conn.c): untagged segments of one MSN at consecutive MOs, the last
 * with L set (RFC 5041 §5.3, §6.4); the first cap octets are kept.
 */
#ifndef IWS_CORE_SEND_ASM_H
#define IWS_CORE_SEND_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iws_pdu;
struct iws_msg;

struct send_asm {
	bool open;
	uint32_t msn, next_mo, have;
	uint64_t first_frame;       /* the Send's first segment's */
	int64_t first_ts;
	uint8_t *buf;               /* cap octets once a Send spans segments */
};

/*
 * One untagged Send segment of pdu (msg its message). True when a message
 * is there to read: *buf, *len (the whole Send, its first cap octets, or
 * what was captured of it: a segment the snapshot length cut ends it).
 * A Send in one segment is read in place; head_only: a Send's first
 * segment alone is the message (probing reads only the headers). A segment
 * out of sequence drops the Send being assembled.
 */
bool send_asm_seg(struct send_asm *a, uint32_t cap, const struct iws_pdu *p, const struct iws_msg *m,
		  bool head_only, const uint8_t **buf, size_t *len);

/* (*ns, *frame) := (ns, frame) when earlier, or when !*any (pending keys). */
static inline void send_asm_earliest(bool *any, int64_t *ns, uint64_t *frame, int64_t t, uint64_t f)
{
	if (!*any || t < *ns || (t == *ns && f < *frame)) {
		*ns = t;
		*frame = f;
		*any = true;
	}
}

#endif
