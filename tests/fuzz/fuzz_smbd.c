// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the SMB Direct parsers and one connection's SMB tracker (smbd.h).
 * The input is fuzz_feed.h's: the ULPDUs of one connection. Every Send payload also goes through each
 * parser. Every request reported must be consistent (latency, RDMA octets
 * add up; complete only with its request and response) and start no
 * earlier than iws_smb_conn_pending() said before the segment, and every
 * request must be reported once.
 */
#include <string.h>

#include "iwarpscope/smbd.h"
#include "iwarpscope/stream.h"
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t reported;
static int64_t wm_ns;
static uint64_t wm_frame;

static void watermark(const struct iws_smb_conn *n, uint64_t next_frame)
{
	if (!iws_smb_conn_pending(n, &wm_ns, &wm_frame)) {
		wm_frame = next_frame;
		wm_ns = (int64_t)next_frame * 1000;
	}
}

static void on_smb(void *ctx, const struct iws_smb *m)
{
	(void)ctx;
	if (m->has_response && m->has_request && m->latency_ns != m->resp_ns - m->req_ns)
		__builtin_trap();
	if (m->complete && (!m->has_response || !m->has_request || (m->flags & IWS_SMBF_INCOMPLETE_MASK)))
		__builtin_trap();
	if (m->nrdma > IWS_SMB_MAX_RDMA)
		__builtin_trap();
	uint64_t sum = 0;
	for (uint32_t i = 0; i < m->nrdma; i++) {
		sum += m->rdma[i].bytes;
		if (!m->rdma[i].ops || m->rdma[i].last_frame < m->rdma[i].first_frame)
			__builtin_trap();
	}
	if (!(m->flags & IWS_SMBF_DESC_MORE) && sum != m->rdma_bytes)
		__builtin_trap();
	if (m->has_request && (m->req_ns < wm_ns || (m->req_ns == wm_ns && m->req_frame < wm_frame)))
		__builtin_trap();
	reported++;
}

static void parsers(const uint8_t *p, size_t n)
{
	struct iws_smbd_negotiate g;
	struct iws_smbd_data d;
	struct iws_smb2_msg m;
	iws_smbd_parse_negotiate(p, n, &g);
	if (iws_smbd_parse_data(p, n, &d).status == IWS_OK && d.data_length) {
		if ((uint64_t)d.data_offset + d.data_length > n)
			__builtin_trap();
		p += d.data_offset;
		n = d.data_length;
	}
	if (iws_smb2_parse(p, n, &m).status == IWS_OK && m.ndesc && m.channel == IWS_SMB2_CHANNEL_NONE)
		__builtin_trap();
}

static void smb_before(void *ctx, uint64_t frame)
{
	watermark(ctx, frame);
}

static void smb_event(void *ctx, const struct iws_stream_event *ev)
{
	iws_smb_conn_event(ctx, ev);
}

static void smb_pdu(void *ctx, const struct iws_pdu *p)
{
	iws_smb_conn_pdu(ctx, p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_smb_conn *n = iws_smb_conn_new(1, on_smb, NULL);
	if (!n)
		return 0;
	reported = 0;
	fuzz_feed(&(struct fuzz_feed){ smb_before, smb_event, parsers, smb_pdu }, n, data, size);
	iws_smb_conn_finish(n, true);
	const struct iws_smb_counts *c = iws_smb_conn_counts(n);
	if (c->reported != reported || c->incomplete > c->reported)
		__builtin_trap();
	iws_smb_conn_free(n);
	return 0;
}
