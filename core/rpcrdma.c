// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RPC-over-RDMA version 1 transport headers (RFC 8166 §4), ONC RPC call and
 * reply headers (RFC 5531 §9) and the NFS arguments that name an I/O
 * (RFC 1813 §3.3; RFC 7530 §16, RFC 8881 §18, RFC 7862 §15): see rpcrdma.h.
 *
 * Every read goes through a cursor that checks the octets are there first;
 * counts from the wire are compared with the octets left in 64 bits before
 * anything loops over them, so a hostile count costs one comparison.
 */
#include "iwarpscope/rpcrdma.h"

#include <string.h>

#include "bytes.h"

struct cur {
	const uint8_t *b;
	size_t len, off;
	bool short_;                /* a read ran past len */
};

static bool have(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->len - c->off) < n) {
		c->short_ = true;
		return false;
	}
	return true;
}

static uint32_t u32(struct cur *c)
{
	if (!have(c, 4))
		return 0;
	uint32_t v = iws_be32(c->b + c->off);
	c->off += 4;
	return v;
}

static uint64_t u64(struct cur *c)
{
	if (!have(c, 8))
		return 0;
	uint64_t v = iws_be64(c->b + c->off);
	c->off += 8;
	return v;
}

/* XDR pads opaque data to a multiple of 4 (RFC 4506 §4.10). */
static uint64_t xdr_pad(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

static bool skip(struct cur *c, uint64_t n)
{
	if (!have(c, n))
		return false;
	c->off += (size_t)n;
	return true;
}

/* opaque<max> (max 0: unbounded): false on a short buffer or a length past max */
static bool opaque(struct cur *c, uint32_t max, bool *too_long)
{
	uint32_t n = u32(c);
	if (c->short_)
		return false;
	if (max && n > max) {
		*too_long = true;
		return false;
	}
	return skip(c, xdr_pad(n));
}

static struct iws_result need_of(const struct cur *c)
{
	/* past the end: at least one more XDR unit */
	return iws_need(c->len + 4);
}

/* ---- the transport header (RFC 8166 §4.2, §4.3) ---- */

static void seg_of(struct cur *c, struct iws_rpcrdma_seg *s)
{
	s->handle = u32(c);
	s->length = u32(c);
	s->offset = u64(c);
}

/* RFC 8166 §4.2.1: the read list is an XDR optional-data list, one read
 * segment (position + segment) per entry. */
static struct iws_result read_list(struct cur *c, struct iws_rpcrdma_hdr *h)
{
	for (;;) {
		uint32_t more = u32(c);
		if (c->short_)
			return need_of(c);
		if (more > 1)
			return iws_malformed("read list discriminator is not 0 or 1", c->off - 4, 4);
		if (!more)
			return iws_ok();
		struct iws_rpcrdma_seg s = { 0 };
		s.position = u32(c);
		seg_of(c, &s);
		if (c->short_)
			return need_of(c);
		if (h->nread < IWS_RPCRDMA_MAX_SEGS)
			h->reads[h->nread] = s;
		h->nread++;
	}
}

/* A write chunk: a counted array of segments (RFC 8166 §4.2.1). */
static struct iws_result write_chunk(struct cur *c, struct iws_rpcrdma_seg *keep, uint32_t *nkept,
				     uint32_t chunk, uint32_t *count)
{
	uint32_t n = u32(c);
	if (c->short_)
		return need_of(c);
	if ((uint64_t)n * 16 > (uint64_t)(c->len - c->off))
		return iws_need((size_t)((uint64_t)c->off + (uint64_t)n * 16 > SIZE_MAX
						 ? SIZE_MAX
						 : c->off + (uint64_t)n * 16));
	*count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct iws_rpcrdma_seg s = { 0 };
		seg_of(c, &s);
		s.chunk = chunk;
		if (*nkept < IWS_RPCRDMA_MAX_SEGS)
			keep[(*nkept)++] = s;
	}
	return iws_ok();
}

static struct iws_result write_list(struct cur *c, struct iws_rpcrdma_hdr *h)
{
	uint32_t kept = 0;
	for (;;) {
		uint32_t more = u32(c);
		if (c->short_)
			return need_of(c);
		if (more > 1)
			return iws_malformed("write list discriminator is not 0 or 1", c->off - 4, 4);
		if (!more)
			return iws_ok();
		uint32_t n = 0;
		struct iws_result r = write_chunk(c, h->writes, &kept, h->nwrite_chunks, &n);
		if (r.status != IWS_OK)
			return r;
		h->nwrite_chunks++;
		h->nwrite += n;
	}
}

static struct iws_result reply_chunk(struct cur *c, struct iws_rpcrdma_hdr *h)
{
	uint32_t present = u32(c);
	if (c->short_)
		return need_of(c);
	if (present > 1)
		return iws_malformed("reply chunk discriminator is not 0 or 1", c->off - 4, 4);
	if (!present)
		return iws_ok();
	h->has_reply_chunk = true;
	uint32_t kept = 0;
	return write_chunk(c, h->reply, &kept, 0, &h->nreply);
}

struct iws_result iws_rpcrdma_parse_hdr(const uint8_t *buf, size_t len, struct iws_rpcrdma_hdr *h)
{
	memset(h, 0, sizeof(*h));
	struct cur c = { buf, buf ? len : 0, 0, false };
	h->f_xid = (struct iws_field){ 0, 4 };
	h->f_vers = (struct iws_field){ 4, 4 };
	h->f_credits = (struct iws_field){ 8, 4 };
	h->f_proc = (struct iws_field){ 12, 4 };
	h->xid = u32(&c);
	h->vers = u32(&c);
	h->credits = u32(&c);
	h->proc = u32(&c);
	if (c.short_)
		return iws_need(16);
	if (h->vers != IWS_RPCRDMA_VERS)
		return iws_malformed("RPC-over-RDMA version is not 1", 4, 4);
	struct iws_result r = iws_ok();
	if (h->proc == IWS_RDMA_MSGP) {
		/* alignment and threshold, then the chunk lists (RFC 5666 §4.3) */
		h->align = u32(&c);
		h->thresh = u32(&c);
		if (c.short_)
			return need_of(&c);
	}
	switch (h->proc) {
	case IWS_RDMA_MSGP:
	case IWS_RDMA_MSG:
	case IWS_RDMA_NOMSG:
		if ((r = read_list(&c, h)).status != IWS_OK || (r = write_list(&c, h)).status != IWS_OK ||
		    (r = reply_chunk(&c, h)).status != IWS_OK)
			return r;
		break;
	case IWS_RDMA_DONE:
		break;
	case IWS_RDMA_ERROR:
		h->err = u32(&c);
		if (c.short_)
			return need_of(&c);
		if (h->err == IWS_RPCRDMA_ERR_VERS) {
			h->vers_low = u32(&c);
			h->vers_high = u32(&c);
			if (c.short_)
				return need_of(&c);
		} else if (h->err != IWS_RPCRDMA_ERR_CHUNK) {
			return iws_malformed("RDMA_ERROR code is not ERR_VERS or ERR_CHUNK", 16, 4);
		}
		break;
	default:
		return iws_malformed("RPC-over-RDMA procedure not defined", 12, 4);
	}
	h->hdr_len = (uint32_t)c.off;
	return iws_ok();
}

const char *iws_rpcrdma_proc_name(uint32_t proc)
{
	static const char *const n[] = { "RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE", "RDMA_ERROR" };
	return proc < sizeof(n) / sizeof(n[0]) ? n[proc] : NULL;
}

/* ---- ONC RPC (RFC 5531 §9) ---- */

static bool auth(struct cur *c, uint32_t *flavor, uint32_t *blen, bool *too_long)
{
	*flavor = u32(c);
	uint32_t at = (uint32_t)c->off;
	bool ok = opaque(c, IWS_RPC_AUTH_MAX, too_long);
	if (!*too_long && c->off >= at + 4)
		*blen = iws_be32(c->b + at);
	return ok;
}

struct iws_result iws_rpc_parse(const uint8_t *buf, size_t len, struct iws_rpc_msg *m)
{
	memset(m, 0, sizeof(*m));
	struct cur c = { buf, buf ? len : 0, 0, false };
	bool too_long = false;
	m->xid = u32(&c);
	m->mtype = u32(&c);
	if (c.short_)
		return iws_need(8);
	if (m->mtype == IWS_RPC_CALL) {
		m->rpcvers = u32(&c);
		m->prog = u32(&c);
		m->vers = u32(&c);
		m->proc = u32(&c);
		if (c.short_)
			return need_of(&c);
		if (m->rpcvers != 2)
			return iws_malformed("RPC version is not 2", 8, 4);
		if (!auth(&c, &m->cred_flavor, &m->cred_len, &too_long) ||
		    !auth(&c, &m->verf_flavor, &m->verf_len, &too_long))
			return too_long ? iws_malformed("auth body longer than 400 octets", c.off, 4)
					: need_of(&c);
	} else if (m->mtype == IWS_RPC_REPLY) {
		m->reply_stat = u32(&c);
		if (c.short_)
			return need_of(&c);
		if (m->reply_stat == 0) {
			if (!auth(&c, &m->verf_flavor, &m->verf_len, &too_long))
				return too_long ? iws_malformed("auth body longer than 400 octets", c.off, 4)
						: need_of(&c);
			m->accept_stat = u32(&c);
			if (c.short_)
				return need_of(&c);
			if (m->accept_stat > 5)
				return iws_malformed("accept_stat not defined", c.off - 4, 4);
			if (m->accept_stat == 2) /* PROG_MISMATCH: low, high */
				skip(&c, 8);
		} else if (m->reply_stat == 1) {
			m->reject_stat = u32(&c);
			if (c.short_)
				return need_of(&c);
			if (m->reject_stat > 1)
				return iws_malformed("reject_stat not defined", c.off - 4, 4);
			skip(&c, m->reject_stat == 0 ? 8 : 4);
		} else {
			return iws_malformed("reply_stat not defined", 8, 4);
		}
		if (c.short_)
			return need_of(&c);
	} else {
		return iws_malformed("RPC message type is not CALL or REPLY", 4, 4);
	}
	m->body_off = (uint32_t)c.off;
	return iws_ok();
}

const char *iws_rpc_accept_name(uint32_t s)
{
	static const char *const n[] = { "success",	"prog_unavail", "prog_mismatch",
					 "proc_unavail", "garbage_args", "system_err" };
	return s < sizeof(n) / sizeof(n[0]) ? n[s] : NULL;
}

/* ---- NFSv3 (RFC 1813 §3.3) ---- */

#define NFS3_FHSIZE 64
#define NFS4_FHSIZE 128

struct iws_result iws_nfs3_parse_args(uint32_t proc, const uint8_t *buf, size_t len,
				      struct iws_nfs_io *io)
{
	memset(io, 0, sizeof(*io));
	if (proc != IWS_NFS3_READ && proc != IWS_NFS3_WRITE && proc != IWS_NFS3_COMMIT)
		return iws_ok();
	struct cur c = { buf, buf ? len : 0, 0, false };
	bool too_long = false;
	if (!opaque(&c, NFS3_FHSIZE, &too_long))
		return too_long ? iws_malformed("nfs_fh3 longer than 64 octets", 0, 4) : need_of(&c);
	io->offset = u64(&c);
	io->count = u32(&c);
	if (proc == IWS_NFS3_WRITE)
		io->stable = u32(&c);
	if (c.short_)
		return need_of(&c);
	io->valid = true;
	return iws_ok();
}

const char *iws_nfs3_proc_name(uint32_t proc)
{
	static const char *const n[] = {
		"null",	   "getattr", "setattr", "lookup",  "access",	   "readlink",
		"read",	   "write",   "create",	 "mkdir",   "symlink",	   "mknod",
		"remove",  "rmdir",   "rename",	 "link",    "readdir",	   "readdirplus",
		"fsstat",  "fsinfo",  "pathconf", "commit",
	};
	return proc < sizeof(n) / sizeof(n[0]) ? n[proc] : NULL;
}

/* ---- NFSv4 COMPOUND (RFC 7530 §16, RFC 8881 §18, RFC 7862 §15) ---- */

static const char *const nfs4_ops[] = {
	[3] = "access",	       [4] = "close",		[5] = "commit",	      [6] = "create",
	[7] = "delegpurge",    [8] = "delegreturn",	[9] = "getattr",      [10] = "getfh",
	[11] = "link",	       [12] = "lock",		[13] = "lockt",	      [14] = "locku",
	[15] = "lookup",       [16] = "lookupp",	[17] = "nverify",     [18] = "open",
	[19] = "openattr",     [20] = "open_confirm",	[21] = "open_downgrade", [22] = "putfh",
	[23] = "putpubfh",     [24] = "putrootfh",	[25] = "read",	      [26] = "readdir",
	[27] = "readlink",     [28] = "remove",		[29] = "rename",      [30] = "renew",
	[31] = "restorefh",    [32] = "savefh",		[33] = "secinfo",     [34] = "setattr",
	[35] = "setclientid",  [36] = "setclientid_confirm", [37] = "verify", [38] = "write",
	[39] = "release_lockowner", [40] = "backchannel_ctl", [41] = "bind_conn_to_session",
	[42] = "exchange_id",  [43] = "create_session", [44] = "destroy_session",
	[45] = "free_stateid", [46] = "get_dir_delegation", [47] = "getdeviceinfo",
	[48] = "getdevicelist", [49] = "layoutcommit",	[50] = "layoutget",   [51] = "layoutreturn",
	[52] = "secinfo_no_name", [53] = "sequence",	[54] = "set_ssv",     [55] = "test_stateid",
	[56] = "want_delegation", [57] = "destroy_clientid", [58] = "reclaim_complete",
	[59] = "allocate",     [60] = "copy",		[61] = "copy_notify", [62] = "deallocate",
	[63] = "io_advise",    [64] = "layouterror",	[65] = "layoutstats", [66] = "offload_cancel",
	[67] = "offload_status", [68] = "read_plus",	[69] = "seek",	      [70] = "write_same",
	[71] = "clone",	       [72] = "getxattr",	[73] = "setxattr",    [74] = "listxattrs",
	[75] = "removexattr",
};

const char *iws_nfs4_op_name(uint32_t op)
{
	if (op == 10044)
		return "illegal";
	return op < sizeof(nfs4_ops) / sizeof(nfs4_ops[0]) ? nfs4_ops[op] : NULL;
}

#define STATEID4 16                 /* seqid + other[12] (RFC 8881 §3.3.12) */

/* bitmap4: a counted array of words (RFC 8881 §3.3.7) */
static bool bitmap4(struct cur *c)
{
	uint32_t n = u32(c);
	return !c->short_ && skip(c, (uint64_t)n * 4);
}

/* Step over one operation's arguments; false when its layout is not one
 * this knows (or the buffer ends). */
static bool nfs4_args(struct cur *c, uint32_t op, size_t moved_at, struct iws_nfs4_compound *k,
		      bool *too_long)
{
	struct iws_nfs_io io = { 0 };
	switch (op) {
	case 10: case 16: case 23: case 24: case 27: case 31: case 32: /* void arguments */
		return true;
	case 3: /* ACCESS4args: access */
		return skip(c, 4);
	case 4: /* CLOSE4args: seqid, stateid */
		return skip(c, 4 + STATEID4);
	case 8: case 45: /* DELEGRETURN, FREE_STATEID: stateid */
		return skip(c, STATEID4);
	case 9: /* GETATTR4args: attr_request bitmap4 */
		return bitmap4(c);
	case 15: case 28: /* LOOKUP, REMOVE: component4 */
		return opaque(c, 0, too_long);
	case 22: /* PUTFH4args: nfs_fh4 opaque<NFS4_FHSIZE> */
		return opaque(c, NFS4_FHSIZE, too_long);
	case 30: /* RENEW4args: clientid4 */
		return skip(c, 8);
	case 53: /* SEQUENCE4args: sessionid, sequenceid, slotid, highest_slotid, cachethis */
		return skip(c, 16 + 4 + 4 + 4 + 4);
	case 58: /* RECLAIM_COMPLETE4args: one_fs */
		return skip(c, 4);
	case 5: /* COMMIT4args: offset, count */
		io.offset = u64(c);
		io.count = u32(c);
		break;
	case 25: case 68: /* READ4args, READ_PLUS4args: stateid, offset, count */
		skip(c, STATEID4);
		io.offset = u64(c);
		io.count = u32(c);
		break;
	case 38: { /* WRITE4args: stateid, offset, stable, data opaque<> */
		skip(c, STATEID4);
		io.offset = u64(c);
		io.stable = u32(c);
		io.count = u32(c);
		/* the data moved to a read chunk is not inline (RFC 8166 §3.5.3) */
		if (!c->short_ && c->off != moved_at)
			skip(c, xdr_pad(io.count));
		break;
	}
	default:
		return false;
	}
	if (c->short_)
		return false;
	if (!k->io_op) {
		io.valid = true;
		k->io_op = op;
		k->io = io;
	}
	return true;
}

struct iws_result iws_nfs4_parse_compound(const uint8_t *buf, size_t len, size_t moved_at,
					  struct iws_nfs4_compound *k)
{
	memset(k, 0, sizeof(*k));
	struct cur c = { buf, buf ? len : 0, 0, false };
	bool too_long = false;
	if (!opaque(&c, 0, &too_long)) /* tag: utf8str_cs */
		return need_of(&c);
	k->minorversion = u32(&c);
	k->numops = u32(&c);
	if (c.short_)
		return need_of(&c);
	/* every operation is at least its number: a hostile count stops here */
	if ((uint64_t)k->numops * 4 > (uint64_t)(c.len - c.off))
		return iws_malformed("COMPOUND numops larger than the message", c.off - 4, 4);
	for (uint32_t i = 0; i < k->numops && k->nknown < IWS_NFS4_MAX_OPS; i++) {
		uint32_t op = u32(&c);
		if (c.short_)
			break;
		k->op[k->nknown++] = op;
		if (!nfs4_args(&c, op, moved_at, k, &too_long))
			break;
	}
	if (too_long)
		return iws_malformed("file handle longer than NFS4_FHSIZE", c.off, 4);
	return iws_ok();
}
