// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the RPC-over-RDMA parsers and one connection's RPC tracker
 * (rpcrdma.h). The input is fuzz_feed.h's: the ULPDUs of one connection.
 * Every Send payload also goes through each
 * parser. Every RPC reported must be consistent (latency, phases and RDMA
 * octets add up; complete only with its call and reply) and start no earlier
 * than iws_rpc_conn_pending() said before the segment, and the tracker must
 * end empty with every call reported once.
 */
#include <string.h>

#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/stream.h"
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t reported;
static int64_t wm_ns;
static uint64_t wm_frame;

static void watermark(const struct iws_rpc_conn *n, uint64_t next_frame)
{
	if (!iws_rpc_conn_pending(n, &wm_ns, &wm_frame)) {
		wm_frame = next_frame;
		wm_ns = (int64_t)next_frame * 1000;
	}
}

static void on_rpc(void *ctx, const struct iws_rpc *r)
{
	(void)ctx;
	if (r->has_reply && r->has_call && r->latency_ns != r->reply_ns - r->call_ns)
		__builtin_trap();
	if (r->complete && (!r->has_reply || !r->has_call || (r->flags & IWS_RPCF_INCOMPLETE_MASK)))
		__builtin_trap();
	if (r->nrdma > IWS_RPC_MAX_RDMA)
		__builtin_trap();
	uint64_t sum = 0;
	for (uint32_t i = 0; i < r->nrdma; i++) {
		sum += r->rdma[i].bytes;
		if (!r->rdma[i].ops || r->rdma[i].last_frame < r->rdma[i].first_frame)
			__builtin_trap();
	}
	if (!(r->flags & IWS_RPCF_RDMA_MORE) && sum != r->rdma_bytes)
		__builtin_trap();
	if (r->data_first_frame && r->has_reply && r->has_call &&
	    r->think_ns + r->data_ns + r->tail_ns != r->latency_ns)
		__builtin_trap();
	if (!(r->flags & IWS_RPCF_NO_CALL) &&
	    (r->call_ns < wm_ns || (r->call_ns == wm_ns && r->call_frame < wm_frame)))
		__builtin_trap();
	if (r->compound.nknown > IWS_NFS4_MAX_OPS || r->compound.nknown > r->compound.numops)
		__builtin_trap();
	reported++;
}

static void parsers(const uint8_t *p, size_t n)
{
	struct iws_rpcrdma_hdr h;
	struct iws_rpc_msg m;
	struct iws_nfs_io io;
	struct iws_nfs4_compound k;
	size_t off = 0;
	if (iws_rpcrdma_parse_hdr(p, n, &h).status == IWS_OK) {
		if (h.hdr_len > n)
			__builtin_trap();
		off = h.hdr_len;
	}
	if (iws_rpc_parse(p + off, n - off, &m).status == IWS_OK) {
		if (m.body_off > n - off)
			__builtin_trap();
		off += m.body_off;
	}
	for (uint32_t proc = 0; proc < 22; proc++)
		iws_nfs3_parse_args(proc, p + off, n - off, &io);
	iws_nfs4_parse_compound(p + off, n - off, SIZE_MAX, &k);
	iws_nfs4_parse_compound(p + off, n - off, (n - off) / 2, &k);
	if (k.nknown > IWS_NFS4_MAX_OPS)
		__builtin_trap();
}

static void rpc_before(void *ctx, uint64_t frame)
{
	watermark(ctx, frame);
}

static void rpc_event(void *ctx, const struct iws_stream_event *ev)
{
	iws_rpc_conn_event(ctx, ev);
}

static void rpc_pdu(void *ctx, const struct iws_pdu *p)
{
	iws_rpc_conn_pdu(ctx, p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_rpc_conn *n = iws_rpc_conn_new(&(struct iws_rpc_limits){ 8 }, 1, on_rpc, NULL);
	if (!n)
		return 0;
	reported = 0;
	fuzz_feed(&(struct fuzz_feed){ rpc_before, rpc_event, parsers, rpc_pdu }, n, data, size);
	iws_rpc_conn_finish(n, true);
	const struct iws_rpc_counts *c = iws_rpc_conn_counts(n);
	if (c->inflight || reported != c->calls + c->orphan_replies || c->reported != reported)
		__builtin_trap();
	iws_rpc_conn_free(n);
	return 0;
}
