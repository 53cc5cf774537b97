// SPDX-License-Identifier: GPL-2.0-or-later
/* What the writers say in words, shared by all of them (see words.h). */
#include "words.h"

#include <inttypes.h>
#include <stdio.h>

#include "conn.h"
#include "rank.h"
#include "units.h"

const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf)
{
	int side = dir == IWS_DIR_I2R ? conn_init_side(c) : !conn_init_side(c);
	return endpoint_str(&c->ep[side], buf);
}

const char *hs_name(enum iws_stream_state st)
{
	switch (st) {
	case IWS_SST_REQUEST:
		return "request_only";
	case IWS_SST_FULL:
		return "full";
	case IWS_SST_REJECTED:
		return "rejected";
	case IWS_SST_INFERRED:
		return "inferred";
	default:
		return "none";
	}
}

uint64_t conn_gap_count(const struct conn *c)
{
	return CONN_TCP(c, gaps);
}

uint64_t conn_gap_bytes(const struct conn *c)
{
	return CONN_TCP(c, gap_bytes);
}

void words_join(char *buf, size_t n, size_t *len, const char *clause)
{
	if (*len >= n)
		return;
	int k = snprintf(buf + *len, n - *len, "%s%s", *len ? "; " : "", clause);
	if (k > 0)
		*len += (size_t)k;
}

const char *op_why(char *buf, size_t n, const struct iws_op *op)
{
	char d[32], c[128];
	size_t len = 0;
	buf[0] = 0;
	if (op->retransmissions) {
		snprintf(c, sizeof(c), "%u TCP retransmission%s", op->retransmissions,
			 op->retransmissions == 1 ? "" : "s");
		words_join(buf, n, &len, c);
	}
	if (op->stall_ns) {
		snprintf(c, sizeof(c), "stalled %s behind lost octets",
			 fmt_dur(d, sizeof(d), op->stall_ns));
		words_join(buf, n, &len, c);
	}
	if (op->queued_ns) {
		snprintf(c, sizeof(c), "queued %s behind earlier responses",
			 fmt_dur(d, sizeof(d), op->queued_ns));
		words_join(buf, n, &len, c);
	}
	if (op->has_latency) {
		if (!len)
			words_join(buf, n, &len, "no loss, no queue: the network or the responder");
	} else if (op->has_ack) {
		/* After its last octet: the receiver's ACK policy (RFC 9293
		 * §3.8.6.3: an ACK may wait for data to ride on, or a timer). */
		int64_t wait = op->ack_ns - (op->end_ns - op->start_ns);
		bool delayed = op_delayed_ack(op, NULL);
		snprintf(c, sizeof(c), "%s%s %s after the last octet",
			 delayed ? "the receiver's delayed ACK: " : "",
			 op->ack_with_data ? "the ACK rode on the peer's data" : "a bare ACK",
			 fmt_dur(d, sizeof(d), wait < 0 ? 0 : wait));
		words_join(buf, n, &len, c);
	}
	if (op->flags & IWS_OPF_AFTER_CLOSE)
		words_join(buf, n, &len, "sent after the peer closed");
	return buf;
}

const char *nvme_why(char *buf, size_t n, const struct iws_nvme_cmd *m)
{
	char d[32];
	int k;
	if (m->data_first_frame && m->xfer != IWS_NVME_XFER_IN_CAPSULE)
		k = snprintf(buf, n, "data by the controller's RDMA %s: %s of it, frames %" PRIu64 "-%" PRIu64,
			     m->xfer == IWS_NVME_XFER_C2H ? "Writes" : "Reads", fmt_dur(d, sizeof(d), m->data_ns),
			     m->data_first_frame, m->data_last_frame);
	else if (m->xfer == IWS_NVME_XFER_IN_CAPSULE)
		k = snprintf(buf, n, "data in the command capsule: no RDMA transfer");
	else
		k = snprintf(buf, n, "no data transfer");
	if (m->has_completion && m->status && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "; status 0x%04x %s", m->status,
			 m->status_name ? m->status_name : "");
	return buf;
}
