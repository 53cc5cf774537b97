// SPDX-License-Identifier: GPL-2.0-or-later
/* RPC-over-RDMA v1 transport headers (RFC 8166 §4), ONC RPC headers
 * (RFC 5531 §9), NFSv3 I/O arguments (RFC 1813 §3.3) and NFSv4 COMPOUND
 * operation names (RFC 8881 §16.2): complete, incomplete and malformed.
 * The real vectors are RDMA Send payloads of samples/real/31-nfsrdma-v3.pcap
 * (after the 18-octet untagged DDP header); tshark's rpcordma dissector
 * reads them the same (values below). */
#include "check.h"
#include "iwarpscope/rpcrdma.h"

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* frame 61: NFSv3 WRITE of 512 KiB at 0, RDMA_MSG with one read chunk
 * (position 112, handle 0xdd8c3a01, length 524288) */
static const char write_call[] =
	"353a05b00000000100000080000000000000000100000070dd8c3a0100080000"
	"353a05b04e811000000000000000000000000000353a05b00000000000000002"
	"000186a30000000300000007000000010000001c0000000000000006286e6f6e"
	"6529000000000000000000000000000000000000000000000000001401000101"
	"01000000d5bbaa36020000000000000000000000000000000008000000000000"
	"00080000";

/* frame 2433: NFSv3 READ of 512 KiB at 0, one write chunk (0x66eb6e02) */
static const char read_call[] =
	"3e3a05b000000001000000800000000000000000000000010000000166eb6e02"
	"000800003e3a05b04942400000000000000000003e3a05b00000000000000002"
	"000186a30000000300000006000000010000001c0000000000000006286e6f6e"
	"6529000000000000000000000000000000000000000000000000001401000101"
	"01000000d5bbaa360200000000000000000000000000000000080000";

/* frame 56: the NFS_ACL GETACL reply as RDMA_NOMSG, 136 octets in the
 * first of three reply chunk segments */
static const char nomsg_reply[] =
	"333a05b000000001000000400000000100000000000000000000000100000003"
	"1f3d930100000088333a05b04b1db0007a1d7d0100000000333a05b04ac6c000"
	"bfed020100000000333a05b04b1db100";

/* frame 35: the NULL reply, RDMA_MSG, accepted, success */
static const char null_reply[] =
	"2a3a05b00000000100000040000000000000000000000000000000002a3a05b0"
	"0000000100000000000000000000000000000000";

static uint8_t b[512];

static void test_write_call(void)
{
	size_t n = hex2bin(write_call, b, sizeof(b));
	struct iws_rpcrdma_hdr h;
	CHECK_STATUS(iws_rpcrdma_parse_hdr(b, n, &h), IWS_OK);
	CHECK_EQ(h.xid, 0x353a05b0u);
	CHECK_EQ(h.vers, 1);
	CHECK_EQ(h.credits, 128);
	CHECK_EQ(h.proc, IWS_RDMA_MSG);
	CHECK_EQ(h.nread, 1);
	CHECK_EQ(h.reads[0].position, 112);
	CHECK_EQ(h.reads[0].handle, 0xdd8c3a01u);
	CHECK_EQ(h.reads[0].length, 524288);
	CHECK_EQ(h.nwrite_chunks, 0);
	CHECK(!h.has_reply_chunk);
	CHECK_EQ(h.hdr_len, 52);
	struct iws_rpc_msg m;
	CHECK_STATUS(iws_rpc_parse(b + h.hdr_len, n - h.hdr_len, &m), IWS_OK);
	CHECK_EQ(m.xid, h.xid);
	CHECK_EQ(m.mtype, IWS_RPC_CALL);
	CHECK_EQ(m.prog, IWS_RPC_PROG_NFS);
	CHECK_EQ(m.vers, 3);
	CHECK_EQ(m.proc, IWS_NFS3_WRITE);
	CHECK_EQ(m.cred_flavor, 1); /* AUTH_UNIX */
	CHECK_EQ(m.cred_len, 28);
	struct iws_nfs_io io;
	const uint8_t *body = b + h.hdr_len + m.body_off;
	size_t blen = n - h.hdr_len - m.body_off;
	CHECK_STATUS(iws_nfs3_parse_args(m.proc, body, blen, &io), IWS_OK);
	CHECK(io.valid);
	CHECK_EQ(io.offset, 0);
	CHECK_EQ(io.count, 524288);
	CHECK_EQ(io.stable, 0); /* UNSTABLE */
	/* the chunk's data starts at the read segment's XDR position */
	CHECK_EQ(h.hdr_len + h.reads[0].position, n);
	/* every shorter header asks for more, never reads past */
	for (size_t k = 0; k < h.hdr_len; k++)
		CHECK_STATUS(iws_rpcrdma_parse_hdr(b, k, &h), IWS_NEED_MORE);
	for (size_t k = 0; k < 20; k++)
		CHECK_STATUS(iws_nfs3_parse_args(IWS_NFS3_WRITE, body, k, &io), IWS_NEED_MORE);
}

static void test_read_call(void)
{
	size_t n = hex2bin(read_call, b, sizeof(b));
	struct iws_rpcrdma_hdr h;
	CHECK_STATUS(iws_rpcrdma_parse_hdr(b, n, &h), IWS_OK);
	CHECK_EQ(h.nread, 0);
	CHECK_EQ(h.nwrite_chunks, 1);
	CHECK_EQ(h.nwrite, 1);
	CHECK_EQ(h.writes[0].handle, 0x66eb6e02u);
	CHECK_EQ(h.writes[0].length, 524288);
	CHECK_EQ(h.writes[0].chunk, 0);
	struct iws_rpc_msg m;
	CHECK_STATUS(iws_rpc_parse(b + h.hdr_len, n - h.hdr_len, &m), IWS_OK);
	CHECK_EQ(m.proc, IWS_NFS3_READ);
	struct iws_nfs_io io;
	CHECK_STATUS(iws_nfs3_parse_args(m.proc, b + h.hdr_len + m.body_off, n - h.hdr_len - m.body_off, &io),
		     IWS_OK);
	CHECK_EQ(io.offset, 0);
	CHECK_EQ(io.count, 524288);
}

static void test_replies(void)
{
	size_t n = hex2bin(nomsg_reply, b, sizeof(b));
	struct iws_rpcrdma_hdr h;
	CHECK_STATUS(iws_rpcrdma_parse_hdr(b, n, &h), IWS_OK);
	CHECK_EQ(h.proc, IWS_RDMA_NOMSG);
	CHECK_EQ(h.credits, 64);
	CHECK(h.has_reply_chunk);
	CHECK_EQ(h.nreply, 3);
	CHECK_EQ(h.reply[0].handle, 0x1f3d9301u);
	CHECK_EQ(h.reply[0].length, 136);
	CHECK_EQ(h.reply[2].handle, 0xbfed0201u);
	CHECK_EQ(h.hdr_len, n);
	CHECK(streq(iws_rpcrdma_proc_name(h.proc), "RDMA_NOMSG"));
	n = hex2bin(null_reply, b, sizeof(b));
	CHECK_STATUS(iws_rpcrdma_parse_hdr(b, n, &h), IWS_OK);
	struct iws_rpc_msg m;
	CHECK_STATUS(iws_rpc_parse(b + h.hdr_len, n - h.hdr_len, &m), IWS_OK);
	CHECK_EQ(m.mtype, IWS_RPC_REPLY);
	CHECK_EQ(m.reply_stat, 0);
	CHECK_EQ(m.accept_stat, 0);
	CHECK_EQ(m.body_off, n - h.hdr_len);
	CHECK(streq(iws_rpc_accept_name(m.accept_stat), "success"));
	for (size_t k = 0; k < n - h.hdr_len; k++)
		CHECK_STATUS(iws_rpc_parse(b + h.hdr_len, k, &m), IWS_NEED_MORE);
}

static void test_error_done(void)
{
	struct iws_rpcrdma_hdr h;
	uint8_t e[28] = { 0 };
	put_be32(e, 7);
	put_be32(e + 4, 1);
	put_be32(e + 12, IWS_RDMA_ERROR);
	put_be32(e + 16, IWS_RPCRDMA_ERR_VERS);
	put_be32(e + 20, 1);
	put_be32(e + 24, 1);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(e, 28, &h), IWS_OK);
	CHECK_EQ(h.err, IWS_RPCRDMA_ERR_VERS);
	CHECK_EQ(h.vers_high, 1);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(e, 24, &h), IWS_NEED_MORE);
	put_be32(e + 16, 3);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(e, 28, &h), IWS_MALFORMED);
	put_be32(e + 12, IWS_RDMA_DONE);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(e, 16, &h), IWS_OK);
	CHECK_EQ(h.hdr_len, 16);
}

static void test_malformed(void)
{
	size_t n = hex2bin(read_call, b, sizeof(b));
	struct iws_rpcrdma_hdr h;
	uint8_t c[512];
	memcpy(c, b, n);
	put_be32(c + 4, 2); /* version 2 */
	CHECK_STATUS(iws_rpcrdma_parse_hdr(c, n, &h), IWS_MALFORMED);
	memcpy(c, b, n);
	put_be32(c + 12, 5); /* no such procedure */
	CHECK_STATUS(iws_rpcrdma_parse_hdr(c, n, &h), IWS_MALFORMED);
	memcpy(c, b, n);
	put_be32(c + 16, 2); /* read list discriminator */
	CHECK_STATUS(iws_rpcrdma_parse_hdr(c, n, &h), IWS_MALFORMED);
	/* a hostile write chunk count: asks for more than there is, at once */
	memcpy(c, b, n);
	put_be32(c + 24, 0xffffffffu);
	struct iws_result r = iws_rpcrdma_parse_hdr(c, n, &h);
	CHECK_STATUS(r, IWS_NEED_MORE);
	CHECK(r.need > n);
	/* a reply chunk of more segments than kept: counted, the rest skipped */
	uint8_t big[16 + 12 + 20 * 16];
	memset(big, 0, sizeof(big));
	put_be32(big + 4, 1);
	put_be32(big + 12, IWS_RDMA_NOMSG);
	put_be32(big + 24, 1);
	put_be32(big + 28, 20);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(big, sizeof(big) - 4, &h), IWS_NEED_MORE);
	memset(big, 0, sizeof(big));
	put_be32(big + 4, 1);
	put_be32(big + 12, IWS_RDMA_NOMSG);
	put_be32(big + 24, 1);
	put_be32(big + 28, 19);
	CHECK_STATUS(iws_rpcrdma_parse_hdr(big, 32 + 19 * 16, &h), IWS_OK);
	CHECK_EQ(h.nreply, 19);
	/* RPC: version 3, an auth body past 400 octets, a reply_stat 2 */
	struct iws_rpc_msg m;
	const uint8_t *rpc = b + 44;
	memcpy(c, rpc, n - 44);
	put_be32(c + 8, 3);
	CHECK_STATUS(iws_rpc_parse(c, n - 44, &m), IWS_MALFORMED);
	memcpy(c, rpc, n - 44);
	put_be32(c + 28, 401);
	CHECK_STATUS(iws_rpc_parse(c, n - 44, &m), IWS_MALFORMED);
	put_be32(c + 4, 1);
	put_be32(c + 8, 2);
	CHECK_STATUS(iws_rpc_parse(c, n - 44, &m), IWS_MALFORMED);
	put_be32(c + 4, 9);
	CHECK_STATUS(iws_rpc_parse(c, n - 44, &m), IWS_MALFORMED);
	/* NFSv3: a file handle longer than 64 octets */
	uint8_t fh[96] = { 0 };
	put_be32(fh, 65);
	struct iws_nfs_io io;
	CHECK_STATUS(iws_nfs3_parse_args(IWS_NFS3_READ, fh, sizeof(fh), &io), IWS_MALFORMED);
	CHECK_STATUS(iws_nfs3_parse_args(1, fh, 0, &io), IWS_OK); /* GETATTR: nothing to read */
	CHECK(!io.valid);
}

/* NFSv4.1 SEQUENCE, PUTFH, READ (RFC 8881 §18.46, §18.19, §18.22), built. */
static void test_compound(void)
{
	uint8_t c[128] = { 0 };
	size_t o = 0;
	put_be32(c + o, 0), o += 4;             /* tag "" */
	put_be32(c + o, 2), o += 4;             /* minorversion 2 */
	put_be32(c + o, 4), o += 4;             /* numops */
	put_be32(c + o, 53), o += 4 + 32;       /* SEQUENCE */
	put_be32(c + o, 22), o += 4;            /* PUTFH */
	put_be32(c + o, 8), o += 4 + 8;
	put_be32(c + o, 25), o += 4 + 16;       /* READ: stateid, offset, count */
	put_be64(c + o, 4096), o += 8;
	put_be32(c + o, 8192), o += 4;
	put_be32(c + o, 9), o += 4;             /* GETATTR: bitmap of 2 words */
	put_be32(c + o, 2), o += 4 + 8;
	struct iws_nfs4_compound k;
	CHECK_STATUS(iws_nfs4_parse_compound(c, o, SIZE_MAX, &k), IWS_OK);
	CHECK_EQ(k.minorversion, 2);
	CHECK_EQ(k.numops, 4);
	CHECK_EQ(k.nknown, 4);
	CHECK_EQ(k.op[0], 53);
	CHECK_EQ(k.op[2], IWS_NFS4_OP_READ);
	CHECK_EQ(k.io_op, IWS_NFS4_OP_READ);
	CHECK_EQ(k.io.offset, 4096);
	CHECK_EQ(k.io.count, 8192);
	CHECK(streq(iws_nfs4_op_name(k.op[0]), "sequence"));
	CHECK(streq(iws_nfs4_op_name(k.op[3]), "getattr"));
	/* cut anywhere: no read past the end, names as far as they go */
	for (size_t n = 0; n < o; n++)
		iws_nfs4_parse_compound(c, n, SIZE_MAX, &k);
	/* a hostile numops */
	put_be32(c + 8, 0x7fffffff);
	CHECK_STATUS(iws_nfs4_parse_compound(c, o, SIZE_MAX, &k), IWS_MALFORMED);
	/* an operation it cannot step over ends the names (OPEN, 18) */
	put_be32(c + 8, 4);
	put_be32(c + 12, 18);
	CHECK_STATUS(iws_nfs4_parse_compound(c, o, SIZE_MAX, &k), IWS_OK);
	CHECK_EQ(k.nknown, 1);
	CHECK_EQ(k.io_op, 0);
}

static void test_names(void)
{
	CHECK(streq(iws_nfs3_proc_name(0), "null"));
	CHECK(streq(iws_nfs3_proc_name(17), "readdirplus"));
	CHECK(streq(iws_nfs3_proc_name(21), "commit"));
	CHECK(iws_nfs3_proc_name(22) == NULL);
	CHECK(streq(iws_nfs4_op_name(38), "write"));
	CHECK(streq(iws_nfs4_op_name(71), "clone"));
	CHECK(streq(iws_nfs4_op_name(10044), "illegal"));
	CHECK(iws_nfs4_op_name(2) == NULL);
	CHECK(iws_nfs4_op_name(76) == NULL);
	CHECK(iws_rpcrdma_proc_name(5) == NULL);
	CHECK(streq(iws_rpc_chunk_name(IWS_RPC_CHUNK_REPLY), "reply"));
}

int main(void)
{
	test_write_call();
	test_read_call();
	test_replies();
	test_error_done();
	test_malformed();
	test_compound();
	test_names();
	return check_done("test_rpcrdma");
}
