// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the RPC-over-RDMA parsers and one connection's RPC tracker
 * (rpcrdma.h). The input is a list of records [flags:1][len:2, big-endian]
 * [ulpdu:len], the ULPDUs of one connection as the engine would report them;
 * flags bit 0 is the direction, bit 1 a gap event before the segment, bit 2
 * a ULPDU the snapshot length cut in half, bits 4-7 the operation tracker's
 * op id of the segment (0: none). Every Send payload also goes through each
 * parser. Every RPC reported must be consistent (latency, phases and RDMA
 * octets add up; complete only with its call and reply) and start no earlier
 * than iws_rpc_conn_pending() said before the segment, and the tracker must
 * end empty with every call reported once.
 */
#include <string.h>

#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/stream.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_rpc_conn *n = iws_rpc_conn_new(&(struct iws_rpc_limits){ 8 }, 1, on_rpc, NULL);
	if (!n)
		return 0;
	reported = 0;
	uint64_t frame = 1;
	size_t off = 0;
	static uint8_t wire[65536 + 8];
	while (off + 3 <= size) {
		uint8_t fl = data[off];
		uint32_t len = (uint32_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = (uint32_t)(size - off);
		const uint8_t *u = data + off;
		off += len;
		watermark(n, frame);
		if (fl & 2) {
			struct iws_stream_event ev = { IWS_SEV_GAP, fl & 1, (uint8_t)(fl & 1), 0, 1, frame, 0, 0, 0 };
			iws_rpc_conn_event(n, &ev);
		}
		memcpy(wire + 2, u, len);
		struct iws_msg msg;
		if (iws_rdmap_parse(wire + 2, len, &msg).status != IWS_OK) {
			frame++;
			continue;
		}
		uint32_t cap = fl & 4 ? len / 2 : len;
		msg.captured = cap;
		if (!msg.ddp.tagged && msg.payload_off <= len)
			parsers(wire + 2 + msg.payload_off, cap > msg.payload_off ? cap - msg.payload_off : 0);
		struct iws_fpdu f = { 0 };
		f.ulpdu_len = (uint16_t)len;
		f.ulpdu_off = 2;
		f.wire_len = len + 6;
		f.ulpdu = wire + 2;
		struct iws_seg_note note = { 0 };
		note.op_id = fl >> 4;
		note.payload = msg.payload_len;
		struct iws_pdu p = { 0 };
		p.kind = IWS_PDU_FPDU;
		p.side = fl & 1;
		p.dir = fl & 1;
		p.len = f.wire_len;
		p.wire = wire;
		p.first_hole = 2 + cap;
		p.first_frame = p.arrived_frame = p.frame = p.settle_frame = frame;
		p.first_ts = p.arrived_ts = p.ts = (int64_t)frame * 1000;
		p.fpdu = &f;
		p.msg = &msg;
		p.note = note.op_id ? &note : NULL;
		iws_rpc_conn_pdu(n, &p);
		frame++;
	}
	iws_rpc_conn_finish(n, true);
	const struct iws_rpc_counts *c = iws_rpc_conn_counts(n);
	if (c->inflight || reported != c->calls + c->orphan_replies || c->reported != reported)
		__builtin_trap();
	iws_rpc_conn_free(n);
	return 0;
}
