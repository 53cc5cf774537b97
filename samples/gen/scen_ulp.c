// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenarios: an upper layer on iWARP. NFSv3 over RPC-over-RDMA version 1
 * (RFC 8166, RFC 8267): a WRITE whose data travels in a Read chunk (the
 * server pulls it with an RDMA Read) and a READ whose data comes back in a
 * Write chunk (the server pushes it with an RDMA Write before its reply);
 * NFSv4.2 (RFC 8881, RFC 7862) the same, plus a Reply chunk, an inline
 * READ and a lost segment. Each RPC is listed in the truth file's `rpc`.
 * The messages are built here from the RFCs' XDR; decoders must hand the
 * Sends, the Read Request and the tagged segments to Wireshark's
 * RPC-over-RDMA dissector for it to rebuild the chunks.
 */
#include "scenarios.h"

#include <string.h>

#include "ddp.h"
#include "scen_doctor.h"
#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

enum { NFS_PROGRAM = 100003, NFS_V3 = 3, NFSPROC3_READ = 6, NFSPROC3_WRITE = 7 };
enum { RPCRDMA_VERSION = 1, RDMA_MSG = 0, RDMA_NOMSG = 1 };
/* NFSv4 (RFC 8881 §16.2, §18): COMPOUND and the operations used here */
enum { NFS_V4 = 4, NFSPROC4_COMPOUND = 1, NFS4_GETATTR = 9, NFS4_PUTFH = 22, NFS4_READ = 25,
       NFS4_WRITE = 38, NFS4_SEQUENCE = 53 };

/* An XDR stream under construction (RFC 4506: big-endian, 4-octet units). */
struct xdr {
	uint8_t b[2048];
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

/* RPC-over-RDMA header (RFC 8166 4.2): xid, version, credits, procedure. */
static void rpcrdma_hdr_cr(struct xdr *x, uint32_t xid, uint32_t credits, uint32_t proc)
{
	x32(x, xid);
	x32(x, RPCRDMA_VERSION);
	x32(x, credits);
	x32(x, proc);
}

/* ... with 32 credits, RDMA_MSG. */
static void rpcrdma_hdr(struct xdr *x, uint32_t xid)
{
	rpcrdma_hdr_cr(x, xid, 32, RDMA_MSG);
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

/* A transport header whose Read list has one chunk of one segment (RFC 8166
 * 4.2.1), empty Write list, no Reply chunk, from x's start; returns where
 * the segment's XDR position is (patched once the call is built). */
static uint32_t read_chunk_hdr(struct xdr *x, uint32_t xid, uint32_t stag, uint32_t len, uint64_t to)
{
	uint32_t pos;

	x->n = 0;
	rpcrdma_hdr(x, xid);
	x32(x, 1);		/* read list: one segment follows */
	pos = x->n;
	x32(x, 0);
	x32(x, stag);
	x32(x, len);
	x64(x, to);
	x32(x, 0);		/* end of read list */
	x32(x, 0);		/* write list: empty */
	x32(x, 0);		/* no reply chunk */
	return pos;
}

/* The truth file's record of an RPC (gen.h, struct rpc_rec). */
static struct rpc_rec *rpc_truth(struct gen *g, struct conn *c, uint32_t xid, uint32_t vers,
				 uint32_t proc, const char *name, uint64_t off, uint32_t count,
				 const char *chunk, int call_op)
{
	struct rpc_rec *r = gen_new_rpc(g);

	r->conn = c->idx;
	r->xid = xid;
	r->prog = NFS_PROGRAM;
	r->vers = vers;
	r->proc = proc;
	r->proc_name = name;
	r->has_io = count != 0;
	r->offset = off;
	r->count = count;
	r->chunk = chunk;
	r->call_op = call_op;
	return r;
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
	int op, call;
	struct rpc_rec *r;

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
	pos = read_chunk_hdr(&x, xid, chunk_stag, wlen, chunk_to);
	rpc_start = x.n;
	rpc_call(&x, xid, NFSPROC3_WRITE);
	xopaque(&x, file_handle, sizeof(file_handle));
	x64(&x, file_off);
	x32(&x, wlen);		/* count */
	x32(&x, 2);		/* FILE_SYNC */
	x32(&x, wlen);		/* data<>: the length stays inline, the octets are the chunk */
	put_be32(x.b + pos, x.n - rpc_start);
	call = rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
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
	r = rpc_truth(g, c, xid, NFS_V3, NFSPROC3_WRITE, "write", file_off, wlen, "read", call);
	r->data_op[r->ndata++] = op;
	r->reply_op = rd_send_data(g, c, R2I, OP_SEND_INV, sink_stag, x.b, x.n);
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
	call = rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, I2R, t);

	/* the server pushes the data, then replies with the chunk as written */
	t += c->cfg.rtt / 2 + s_proc(g);
	r = rpc_truth(g, c, xid, NFS_V3, NFSPROC3_READ, "read", file_off, rlen, "write", call);
	r->data_op[r->ndata++] = rd_write(g, c, R2I, chunk_stag, chunk_to, rlen);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, chunk_stag, rlen, chunk_to);
	rpc_reply(&x, xid);
	x32(&x, 0);		/* NFS3_OK */
	x32(&x, 0);		/* post_op_attr: none */
	x32(&x, rlen);		/* count */
	x32(&x, 1);		/* eof */
	x32(&x, rlen);		/* data<>: the length stays inline, the octets went by RDMA Write */
	g->rpc[g->nrpc - 1].reply_op = rd_send_data(g, c, R2I, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	s_close(g, c, I2R, t + 50 * US);
}

/* ---- NFSv4.2 over RPC-over-RDMA ---- */

static const uint8_t session_id[16] = { 0x5e, 0x55, 0x10, 0x42, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7 };

/* RPC call header for NFSv4 COMPOUND (RFC 5531 §9, RFC 8881 §16.2), then
 * the COMPOUND4args head: empty tag, minor version 2, numops; then SEQUENCE
 * (RFC 8881 §18.46) and PUTFH (§18.19). */
static void v4_call_head(struct xdr *x, uint32_t xid, uint32_t numops, uint32_t slot_seq)
{
	x32(x, xid);
	x32(x, 0);		/* CALL */
	x32(x, 2);
	x32(x, NFS_PROGRAM);
	x32(x, NFS_V4);
	x32(x, NFSPROC4_COMPOUND);
	x32(x, 0);		/* cred: AUTH_NONE */
	x32(x, 0);
	x32(x, 0);		/* verf */
	x32(x, 0);
	x32(x, 0);		/* tag: empty */
	x32(x, 2);		/* minorversion: NFSv4.2 */
	x32(x, numops);
	x32(x, NFS4_SEQUENCE);
	memcpy(x->b + x->n, session_id, 16);
	x->n += 16;
	x32(x, slot_seq);	/* sequenceid */
	x32(x, 0);		/* slotid */
	x32(x, 0);		/* highest_slotid */
	x32(x, 0);		/* cachethis */
	x32(x, NFS4_PUTFH);
	xopaque(x, file_handle, sizeof(file_handle));
}

/* The accepted RPC reply, then COMPOUND4res's head: NFS4_OK, empty tag,
 * numres; SEQUENCE4resok and PUTFH's status. */
static void v4_reply_head(struct xdr *x, uint32_t xid, uint32_t numres, uint32_t slot_seq)
{
	rpc_reply(x, xid);
	x32(x, 0);		/* NFS4_OK */
	x32(x, 0);		/* tag */
	x32(x, numres);
	x32(x, NFS4_SEQUENCE);
	x32(x, 0);
	memcpy(x->b + x->n, session_id, 16);
	x->n += 16;
	x32(x, slot_seq);
	x32(x, 0);		/* slotid */
	x32(x, 0);		/* highest_slotid */
	x32(x, 0);		/* target_highest_slotid */
	x32(x, 0);		/* status_flags */
	x32(x, NFS4_PUTFH);
	x32(x, 0);
}

static void stateid(struct xdr *x)
{
	x32(x, 1);		/* seqid */
	for (int i = 0; i < 3; i++)
		x32(x, 0x0a0b0c00u + (uint32_t)i);
}

static struct rpc_rec *v4_truth(struct gen *g, struct conn *c, uint32_t xid, uint32_t op,
				uint64_t off, uint32_t count, const char *chunk, int call)
{
	static const char *const names[] = { [NFS4_GETATTR] = "getattr", [NFS4_READ] = "read",
					     [NFS4_WRITE] = "write" };
	struct rpc_rec *r = rpc_truth(g, c, xid, NFS_V4, NFSPROC4_COMPOUND, "compound", off, count,
				      chunk, call);

	r->has_io = op != NFS4_GETATTR;
	r->ops[r->nops++] = "sequence";
	r->ops[r->nops++] = "putfh";
	r->ops[r->nops++] = names[op];
	return r;
}

/* The server's reply Send for r; the delayed ACKs; a pause. */
static uint64_t v4_reply(struct gen *g, struct conn *c, struct rpc_rec *r, const struct xdr *x, uint64_t t)
{
	r->reply_op = rd_send_data(g, c, R2I, OP_SEND, 0, x->b, x->n);
	t = tcp_flush(g, c, R2I, t);
	tcp_settle(g, c, t + 6 * US);
	return t + 40 * US;
}

/* The client's call Send; *t: when it went. */
static int v4_call(struct gen *g, struct conn *c, const struct xdr *x, uint64_t *t)
{
	int call = rd_send_data(g, c, I2R, OP_SEND, 0, x->b, x->n);

	*t = tcp_flush(g, c, I2R, *t);
	return call;
}

/* READ4args (RFC 8881 §18.22): stateid, offset, count. */
static void v4_read_args(struct xdr *x, uint64_t off, uint32_t count)
{
	x32(x, NFS4_READ);
	stateid(x);
	x64(x, off);
	x32(x, count);
}

void scen_rpc_rdma_v4(struct gen *g)
{
	struct conn_cfg k = cfg_default(4);
	struct segplan s[64];
	uint32_t fault[64] = { 0 };
	struct conn *c;
	struct xdr x, y;
	struct rpc_rec *r;
	uint64_t t = T_BASE, to, sink_to, off = 0x10000;
	const uint32_t wlen = 9000, rlen = 8192, slen = 100;
	uint32_t xid = 0x7a4e0001, pos, rpc_start, stag, sink;
	int call, op, n;

	g->description = "NFSv4.2 over RPC-over-RDMA v1 (RFC 8166, RFC 8881) to port 20049, CRC off: "
			 "COMPOUND SEQUENCE+PUTFH+WRITE of 9000 octets in a Read chunk (a Read "
			 "Response segment lost before the capture point and retransmitted), "
			 "SEQUENCE+PUTFH+READ of 8192 octets into a Write chunk the server fills "
			 "with two RDMA Writes, SEQUENCE+PUTFH+GETATTR answered through a Reply "
			 "chunk (RDMA Write of the reply, then RDMA_NOMSG), and a small READ of 100 "
			 "octets answered inline (no chunk).";
	k.port[1] = 20049;
	k.ddp_max[I2R] = 1400;
	c = conn_new(g, &k);
	t = s_open(g, c, t);

	/* 1. WRITE through a Read chunk at the data's XDR position (RFC 8166 §3.5.3) */
	stag = rnd_stag(g);
	to = rnd_to(g);
	pos = read_chunk_hdr(&x, xid, stag, wlen, to);
	rpc_start = x.n;
	v4_call_head(&x, xid, 3, 1);
	x32(&x, NFS4_WRITE);
	stateid(&x);
	x64(&x, off);
	x32(&x, 2);		/* FILE_SYNC4 */
	x32(&x, wlen);		/* data<>: the length inline, the octets in the chunk */
	put_be32(x.b + pos, x.n - rpc_start);
	t += 30 * US;
	call = v4_call(g, c, &x, &t);
	r = v4_truth(g, c, xid, NFS4_WRITE, off, wlen, "read", call);
	t += c->cfg.rtt / 2 + s_proc(g);
	sink = rnd_stag(g);
	sink_to = rnd_to(g);
	op = rd_read_req(g, c, R2I, sink, sink_to, wlen, stag, to);
	r->data_op[r->ndata++] = op;
	t = tcp_flush(g, c, R2I, t);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	n = tcp_plan(c, I2R, s, 64);
	fault[1] = FF_LOST;
	t = emit_plan(g, c, I2R, s, n, NULL, fault, t);
	t += 60 * US;
	tcp_emit_seg(g, c, I2R, s[1].off, s[1].len, t, 0);
	tcp_ack_if_due(g, c, I2R, t + 3 * US);
	t += c->cfg.rtt / 2 + s_proc(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, 0, 0, 0);
	v4_reply_head(&x, xid, 3, 1);
	x32(&x, NFS4_WRITE);
	x32(&x, 0);
	x32(&x, wlen);		/* count */
	x32(&x, 2);		/* committed: FILE_SYNC4 */
	x64(&x, 0x5eedf00dcafe0004ull);
	t = v4_reply(g, c, r, &x, t);

	/* 2. READ into a Write chunk of one segment, filled by two RDMA Writes */
	xid++;
	stag = rnd_stag(g);
	to = rnd_to(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, stag, rlen, to);
	v4_call_head(&x, xid, 3, 2);
	v4_read_args(&x, off, rlen);
	call = v4_call(g, c, &x, &t);
	r = v4_truth(g, c, xid, NFS4_READ, off, rlen, "write", call);
	t += c->cfg.rtt / 2 + s_proc(g);
	r->data_op[r->ndata++] = rd_write(g, c, R2I, stag, to, rlen / 2);
	t = tcp_flush(g, c, R2I, t);
	t += 20 * US;
	r->data_op[r->ndata++] = rd_write(g, c, R2I, stag, to + rlen / 2, rlen / 2);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, stag, rlen, to);
	v4_reply_head(&x, xid, 3, 2);
	x32(&x, NFS4_READ);
	x32(&x, 0);
	x32(&x, 1);		/* eof */
	x32(&x, rlen);		/* data<>: the length inline, the octets went by RDMA Write */
	t = v4_reply(g, c, r, &x, t);

	/* 3. GETATTR with a Reply chunk: the long reply goes by RDMA Write,
	 * then RDMA_NOMSG with the chunk as written (RFC 8166 §3.5.4) */
	xid++;
	stag = rnd_stag(g);
	to = rnd_to(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	x32(&x, 0);		/* read list */
	x32(&x, 0);		/* write list */
	x32(&x, 1);		/* reply chunk: one segment */
	x32(&x, 1);
	x32(&x, stag);
	x32(&x, 2048);
	x64(&x, to);
	v4_call_head(&x, xid, 3, 3);
	x32(&x, NFS4_GETATTR);
	x32(&x, 2);		/* attr_request: bitmap4 of two words */
	x32(&x, 0x0010011a);
	x32(&x, 0x00b0a23a);
	call = v4_call(g, c, &x, &t);
	r = v4_truth(g, c, xid, NFS4_GETATTR, 0, 0, "reply", call);
	t += c->cfg.rtt / 2 + s_proc(g);
	y.n = 0;
	v4_reply_head(&y, xid, 3, 3);
	x32(&y, NFS4_GETATTR);
	x32(&y, 0);
	x32(&y, 2);		/* fattr4: the bitmap returned, then attrlist4 */
	x32(&y, 0x0010011a);
	x32(&y, 0x00b0a23a);
	x32(&y, 1200);
	for (uint32_t i = 0; i < 1200 / 4; i++)
		x32(&y, 0x00010000u + i);
	r->data_op[r->ndata++] = rd_write_data(g, c, R2I, stag, to, y.b, y.n);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	put_be32(x.b + 12, RDMA_NOMSG);
	x32(&x, 0);
	x32(&x, 0);
	x32(&x, 1);
	x32(&x, 1);
	x32(&x, stag);
	x32(&x, y.n);		/* as written */
	x64(&x, to);
	t = v4_reply(g, c, r, &x, t);

	/* 4. a small READ answered inline: no chunk at all */
	xid++;
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, 0, 0, 0);
	v4_call_head(&x, xid, 3, 4);
	v4_read_args(&x, 0, slen);
	call = v4_call(g, c, &x, &t);
	r = v4_truth(g, c, xid, NFS4_READ, 0, slen, NULL, call);
	t += c->cfg.rtt / 2 + s_proc(g);
	x.n = 0;
	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, 0, 0, 0);
	v4_reply_head(&x, xid, 3, 4);
	x32(&x, NFS4_READ);
	x32(&x, 0);
	x32(&x, 1);		/* eof */
	x32(&x, slen);
	for (uint32_t i = 0; i < slen; i++)
		x.b[x.n++] = (uint8_t)('a' + i % 26);
	while (x.n % 4)		/* XDR pad (RFC 4506 §4.10) */
		x.b[x.n++] = 0;
	t = v4_reply(g, c, r, &x, t);
	s_close(g, c, I2R, t + 10 * US);
}

/* ---- the doctor's RPC-over-RDMA rules (rules.h rpc.*, scen_doctor.h) ---- */

enum { NFSPROC3_NULL = 0, NFSPROC3_GETATTR = 1 };

/* A connection to port 20049, set up. */
static struct conn *rpc_conn(struct gen *g, uint64_t *t)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.port[1] = 20049;
	c = conn_new(g, &k);
	*t = open_with(g, c, *t, NULL, NULL, 0);
	return c;
}

/* The client sends an NFSv3 READ of len octets offering one write chunk
 * (stag, len, to); returns the time after it. */
static uint64_t read_call(struct gen *g, struct conn *c, uint32_t xid, uint32_t stag, uint64_t to,
			  uint32_t len, uint64_t t)
{
	struct xdr x = { .n = 0 };

	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, stag, len, to);
	rpc_call(&x, xid, NFSPROC3_READ);
	xopaque(&x, file_handle, sizeof(file_handle));
	x64(&x, 0);
	x32(&x, len);
	rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	return tcp_flush(g, c, I2R, t + 30 * US);
}

/* The server's READ reply, its write list stating `said` octets written
 * into (stag, to); the reply's op index. */
static int read_reply(struct gen *g, struct conn *c, uint32_t xid, uint32_t stag, uint64_t to,
		      uint32_t said, uint64_t *t)
{
	struct xdr x = { .n = 0 };
	int op;

	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, stag, said, to);
	rpc_reply(&x, xid);
	x32(&x, 0);		/* NFS3_OK */
	x32(&x, 0);		/* post_op_attr: none */
	x32(&x, said);		/* count */
	x32(&x, 1);		/* eof */
	x32(&x, said);		/* data<>: the octets went by RDMA Write */
	op = rd_send_data(g, c, R2I, OP_SEND, 0, x.b, x.n);
	*t = tcp_flush(g, c, R2I, *t + 20 * US);
	return op;
}

/* A call with no chunks (RFC 8166 4.2.1: three empty lists), NFSv3 proc
 * (NULL: no arguments; else a file handle); the call's op index. */
static int plain_call(struct gen *g, struct conn *c, uint32_t xid, uint32_t proc, uint64_t *t)
{
	struct xdr x = { .n = 0 };
	int op;

	rpcrdma_hdr(&x, xid);
	chunks_no_read(&x, 0, 0, 0);
	rpc_call(&x, xid, proc);
	if (proc != NFSPROC3_NULL)
		xopaque(&x, file_handle, sizeof(file_handle));
	op = rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	*t = tcp_flush(g, c, I2R, *t + 30 * US);
	return op;
}

/* An inline reply, no chunks, granting `credits`. */
static int plain_reply(struct gen *g, struct conn *c, uint32_t xid, uint32_t credits, uint64_t *t)
{
	struct xdr x = { .n = 0 };
	int op;

	rpcrdma_hdr_cr(&x, xid, credits, RDMA_MSG);
	chunks_no_read(&x, 0, 0, 0);
	rpc_reply(&x, xid);
	x32(&x, 0);		/* NFS3_OK / void */
	op = rd_send_data(g, c, R2I, OP_SEND, 0, x.b, x.n);
	*t = tcp_flush(g, c, R2I, *t + 20 * US);
	return op;
}

uint64_t d_rpc_chunk_length(struct gen *g, uint64_t t)
{
	/* RFC 8166 3.4.5: a READ's write chunk offers 4000 octets, the server
	 * writes 4096 into it (and says so); then a READ whose 4000 octets are
	 * written whole, the reply's write list stating 2000 (3.4.6) */
	struct conn *c = rpc_conn(g, &t);
	uint32_t xid = 0x4c454e01, stag = rnd_stag(g);
	uint64_t to = rnd_to(g);
	int op;

	t = read_call(g, c, xid, stag, to, 4000, t);
	rd_write(g, c, R2I, stag, to, 4096);
	t = tcp_flush(g, c, R2I, t + 40 * US);
	op = read_reply(g, c, xid, stag, to, 4096, &t);
	doc(g, "rpc.chunk_length", c, R2I, DR_OPLAST, (size_t)op);

	xid++;
	stag = rnd_stag(g);
	to = rnd_to(g);
	t = read_call(g, c, xid, stag, to, 4000, t);
	rd_write(g, c, R2I, stag, to, 4000);
	t = tcp_flush(g, c, R2I, t + 40 * US);
	op = read_reply(g, c, xid, stag, to, 2000, &t);
	doc(g, "rpc.chunk_length", c, R2I, DR_OPLAST, (size_t)op);
	return closing(g, c, t + 20 * US);
}

uint64_t d_rpc_reply_chunk(struct gen *g, uint64_t t)
{
	/* RFC 8166 3.5.4, 4.2.4: a GETATTR offering a reply chunk of 1024
	 * octets, the server writes 300 into it and still replies inline
	 * (RDMA_MSG); then a GETATTR offering none, answered RDMA_NOMSG (the
	 * body should be in a reply chunk there is not) */
	struct conn *c = rpc_conn(g, &t);
	uint32_t xid = 0x52434801, stag = rnd_stag(g);
	uint64_t to = rnd_to(g);
	struct xdr x = { .n = 0 };
	int op;

	rpcrdma_hdr(&x, xid);
	x32(&x, 0);		/* read list: empty */
	x32(&x, 0);		/* write list: empty */
	x32(&x, 1);		/* a reply chunk of one segment */
	x32(&x, 1);
	x32(&x, stag);
	x32(&x, 1024);
	x64(&x, to);
	rpc_call(&x, xid, NFSPROC3_GETATTR);
	xopaque(&x, file_handle, sizeof(file_handle));
	rd_send_data(g, c, I2R, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	rd_write(g, c, R2I, stag, to, 300);
	t = tcp_flush(g, c, R2I, t + 40 * US);
	op = plain_reply(g, c, xid, 32, &t);
	doc(g, "rpc.reply_chunk", c, R2I, DR_OPLAST, (size_t)op);

	xid++;
	plain_call(g, c, xid, NFSPROC3_GETATTR, &t);
	x.n = 0;
	rpcrdma_hdr_cr(&x, xid, 32, RDMA_NOMSG);
	x32(&x, 0);
	x32(&x, 0);
	x32(&x, 0);
	op = rd_send_data(g, c, R2I, OP_SEND, 0, x.b, x.n);
	t = tcp_flush(g, c, R2I, t + 40 * US);
	doc(g, "rpc.reply_chunk", c, R2I, DR_OPLAST, (size_t)op);
	return closing(g, c, t + 20 * US);
}

uint64_t d_rpc_credits_exceeded(struct gen *g, uint64_t t)
{
	/* RFC 8166 3.3.1: the server grants 2 credits in its first reply, the
	 * client then has 3 calls outstanding */
	struct conn *c = rpc_conn(g, &t);
	uint32_t xid = 0x43524401;
	int op = 0;

	plain_call(g, c, xid, NFSPROC3_NULL, &t);
	plain_reply(g, c, xid, 2, &t);
	for (int i = 1; i <= 3; i++)
		op = plain_call(g, c, xid + (uint32_t)i, NFSPROC3_GETATTR, &t);
	doc(g, "rpc.credits_exceeded", c, I2R, DR_OPLAST, (size_t)op);
	for (int i = 1; i <= 3; i++)
		plain_reply(g, c, xid + (uint32_t)i, 2, &t);
	return closing(g, c, t + 20 * US);
}

uint64_t d_rpc_unannounced_chunk(struct gen *g, uint64_t t)
{
	/* RFC 8166 3.4.1: a READ's write chunk is written, then the server
	 * writes 500 octets to a handle no call listed, then replies */
	struct conn *c = rpc_conn(g, &t);
	uint32_t xid = 0x554e4101, stag = rnd_stag(g), other = rnd_stag(g);
	uint64_t to = rnd_to(g);
	int op;

	t = read_call(g, c, xid, stag, to, 2000, t);
	rd_write(g, c, R2I, stag, to, 2000);
	t = tcp_flush(g, c, R2I, t + 40 * US);
	op = rd_write(g, c, R2I, other, rnd_to(g), 500);
	t = tcp_flush(g, c, R2I, t + 10 * US);
	doc(g, "rpc.unannounced_chunk", c, R2I, DR_OPLAST, (size_t)op);
	read_reply(g, c, xid, stag, to, 2000, &t);
	return closing(g, c, t + 20 * US);
}

uint64_t d_rpc_credit_stall(struct gen *g, uint64_t t)
{
	/* RFC 8166 3.3.1: the server grants 2 credits; the client has 2 calls
	 * outstanding for 300 us and sends its third 5 us after the first
	 * reply frees a credit, before the second reply */
	struct conn *c = rpc_conn(g, &t);
	uint32_t xid = 0x53544c01;
	int op;

	plain_call(g, c, xid, NFSPROC3_NULL, &t);
	plain_reply(g, c, xid, 2, &t);
	plain_call(g, c, xid + 1, NFSPROC3_GETATTR, &t);
	plain_call(g, c, xid + 2, NFSPROC3_GETATTR, &t);
	t += 300 * US;
	plain_reply(g, c, xid + 1, 2, &t);
	t += 5 * US;
	op = plain_call(g, c, xid + 3, NFSPROC3_GETATTR, &t);
	doc(g, "rpc.credit_stall", c, I2R, DR_OPLAST, (size_t)op);
	plain_reply(g, c, xid + 2, 2, &t);
	plain_reply(g, c, xid + 3, 2, &t);
	return closing(g, c, t + 20 * US);
}
