// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario: an upper layer on iWARP. NFSv3 over RPC-over-RDMA version 1
 * (RFC 8166, RFC 8267): a WRITE whose data travels in a Read chunk (the
 * server pulls it with an RDMA Read) and a READ whose data comes back in a
 * Write chunk (the server pushes it with an RDMA Write before its reply).
 * The messages are built here from the RFCs' XDR; decoders must hand the
 * Sends, the Read Request and the tagged segments to Wireshark's
 * RPC-over-RDMA dissector for it to rebuild the chunks.
 */
#include "scenarios.h"

#include <string.h>

#include "ddp.h"
#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

enum { NFS_PROGRAM = 100003, NFS_V3 = 3, NFSPROC3_READ = 6, NFSPROC3_WRITE = 7 };
enum { RPCRDMA_VERSION = 1, RDMA_MSG = 0 };

/* An XDR stream under construction (RFC 4506: big-endian, 4-octet units). */
struct xdr {
	uint8_t b[512];
	uint32_t n;
};

static void x32(struct xdr *x, uint32_t v)
{
	put_be32(x->b + x->n, v);
	x->n += 4;
}

static void x64(struct xdr *x, uint64_t v)
{
	put_be64(x->b + x->n, v);
	x->n += 8;
}

static void xopaque(struct xdr *x, const uint8_t *d, uint32_t len)
{
	x32(x, len);
	memcpy(x->b + x->n, d, len);
	x->n += len;
	while (x->n % 4)
		x->b[x->n++] = 0;
}

/*
 * The chunk lists of a message without a Read list (RFC 8166 4.2.1): an
 * empty Read list, a Write list of one single-segment chunk when len is
 * not 0 (else empty), no Reply chunk.
 */
static void chunks_no_read(struct xdr *x, uint32_t stag, uint32_t len, uint64_t to)
{
	x32(x, 0);		/* read list: empty */
	if (len) {
		x32(x, 1);	/* write list: one chunk follows */
		x32(x, 1);	/* of one segment */
		x32(x, stag);
		x32(x, len);
		x64(x, to);
	}
	x32(x, 0);		/* end of write list */
	x32(x, 0);		/* no reply chunk */
}

/* RPC-over-RDMA header (RFC 8166 4.2): xid, version, credits, RDMA_MSG. */
static void rpcrdma_hdr(struct xdr *x, uint32_t xid)
{
	x32(x, xid);
	x32(x, RPCRDMA_VERSION);
	x32(x, 32);
	x32(x, RDMA_MSG);
}

/* RPC call header (RFC 5531 9) with AUTH_NONE credentials and verifier. */
static void rpc_call(struct xdr *x, uint32_t xid, uint32_t proc)
{
	x32(x, xid);
	x32(x, 0);		/* CALL */
	x32(x, 2);		/* RPC version */
	x32(x, NFS_PROGRAM);
	x32(x, NFS_V3);
	x32(x, proc);
	x32(x, 0);		/* cred: AUTH_NONE, empty body */
	x32(x, 0);
	x32(x, 0);		/* verf */
	x32(x, 0);
}

/* RPC accepted reply header, SUCCESS. */
static void rpc_reply(struct xdr *x, uint32_t xid)
{
	x32(x, xid);
	x32(x, 1);		/* REPLY */
	x32(x, 0);		/* MSG_ACCEPTED */
	x32(x, 0);		/* verf: AUTH_NONE */
	x32(x, 0);
	x32(x, 0);		/* SUCCESS */
}

static const uint8_t file_handle[16] = { 0x01, 0x00, 0x07, 0x01, 0x8a, 0x2c, 0x10, 0x00,
					 0x00, 0x00, 0x00, 0x00, 0x3f, 0x41, 0x77, 0x12 };

void scen_rpc_rdma(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	struct xdr x;
	uint64_t t = T_BASE;
	const uint32_t wlen = 6000, rlen = 4000;
	uint32_t xid = 0x6e465301, pos, chunk_stag, sink_stag, rpc_start;
	uint64_t chunk_to, sink_to, file_off = 0x20000;
	int op;

	g->description = "NFSv3 over RPC-over-RDMA v1 (RFC 8166) to port 20049, CRC off: a WRITE "
			 "of 6000 octets whose data is a Read chunk (the server's RDMA Read Request "
			 "names the chunk's handle and offset as its source, the client's Read "
			 "Responses carry the data), then a READ of 4000 octets answered through a "
			 "Write chunk (an RDMA Write to the chunk's handle before the reply).";
	k.port[1] = 20049;
	c = conn_new(g, &k);
	t = s_open(g, c, t);

	/* WRITE: the call carries a Read list with one chunk at the XDR
	 * position where the data would follow its length (RFC 8267 4.1). */
	chunk_stag = rnd_stag(g);
	chunk_to = rnd_to(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	x32(&x, 1);		/* read list: one segment follows */
	pos = (uint32_t)x.n;	/* position: patched below */
	x32(&x, 0);
	x32(&x, chunk_stag);
	x32(&x, wlen);
	x64(&x, chunk_to);
	x32(&x, 0);		/* end of read list */
	x32(&x, 0);		/* write list: empty */
	x32(&x, 0);		/* no reply chunk */
	rpc_start = x.n;
	rpc_call(&x, xid, NFSPROC3_WRITE);
	xopaque(&x, file_handle, sizeof(file_handle));
	x64(&x, file_off);
	x32(&x, wlen);		/* count */
	x32(&x, 2);		/* FILE_SYNC */
	x32(&x, wlen);		/* data<>: the length stays inline, the octets are the chunk */
	put_be32(x.b + pos, x.n - rpc_start);
	rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, I2R, t + 30 * US);

	/* the server pulls the chunk into its own buffer */
	t += c->cfg.rtt / 2 + s_proc(g);
	sink_stag = rnd_stag(g);
	sink_to = rnd_to(g);
	op = rd_read_req(g, c, R2I, sink_stag, sink_to, wlen, chunk_stag, chunk_to);
	t = tcp_flush(g, c, R2I, t);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	t = tcp_flush(g, c, I2R, t);

	/* WRITE3resok: wcc_data without attributes, count, committed, verifier */
	t += c->cfg.rtt / 2 + s_proc(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, 0, 0, 0);
	rpc_reply(&x, xid);
	x32(&x, 0);		/* NFS3_OK */
	x32(&x, 0);		/* pre_op_attr: none */
	x32(&x, 0);		/* post_op_attr: none */
	x32(&x, wlen);
	x32(&x, 2);		/* FILE_SYNC */
	x64(&x, 0x5eedf00dcafe0001ull);
	rd_send_data(g, c, R2I, OP_SEND_INV, sink_stag, x.b, x.n);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	t += 40 * US;

	/* READ: the call offers a Write list with one chunk of one segment */
	xid++;
	chunk_stag = rnd_stag(g);
	chunk_to = rnd_to(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, chunk_stag, rlen, chunk_to);
	rpc_call(&x, xid, NFSPROC3_READ);
	xopaque(&x, file_handle, sizeof(file_handle));
	x64(&x, file_off);
	x32(&x, rlen);
	rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, I2R, t);

	/* the server pushes the data, then replies with the chunk as written */
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_write(g, c, R2I, chunk_stag, chunk_to, rlen);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, chunk_stag, rlen, chunk_to);
	rpc_reply(&x, xid);
	x32(&x, 0);		/* NFS3_OK */
	x32(&x, 0);		/* post_op_attr: none */
	x32(&x, rlen);		/* count */
	x32(&x, 1);		/* eof */
	x32(&x, rlen);		/* data<>: the length stays inline, the octets went by RDMA Write */
	rd_send_data(g, c, R2I, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	s_close(g, c, I2R, t + 50 * US);
}
