// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One connection's RPC-over-RDMA view (see rpcrdma.h): the stream engine's
 * PDUs in, RPCs out. Per connection, in capture order (RFC 8166 §3):
 *   Send, requester -> responder     a call: transport header (+ the RPC
 *                                    call inline with RDMA_MSG); its chunk
 *                                    handles are registered here;
 *   RDMA Write, responder -> requester  into a write chunk (READ data) or
 *                                    the reply chunk (a long reply), by the
 *                                    handle = the Write's STag;
 *   Read Request, responder -> requester  pulls a read chunk (WRITE data):
 *                                    Source STag = the handle; its Read
 *                                    Responses belong to the same operation
 *                                    of the operation tracker (qp.h: the
 *                                    segment note's op_id);
 *   Send, responder -> requester     the reply (RDMA_MSG, or RDMA_NOMSG with
 *                                    the reply in the reply chunk; RDMA_ERROR):
 *                                    the RPC with its xid completes.
 * Each lookup walks a hash chain with a cap, and the RPCs outstanding are
 * bounded, so work per segment and memory stay bounded on any input.
 */
#include "iwarpscope/rpcrdma.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/stream.h"
#include "send_asm.h"

#define DEFAULT_MAX_INFLIGHT 1024u
#define NBUCKETS 256u
#define SEARCH_MAX 64u
#define NHANDLES (3 * IWS_RPCRDMA_MAX_SEGS)
/* What a Send is read from: the transport header, the RPC header and the
 * NFS arguments that name the I/O (inline thresholds are 1 to 4 KiB,
 * RFC 8267 §4 leaves them to the implementation). */
#define HEAD_MAX 8192u
/* Read Requests waiting for their responses (FIFO, RFC 5040 §5.2.1). */
#define READS_MAX 256u

struct rpc_ent;

struct hlink {
	uint32_t handle;
	enum iws_rpc_chunk kind;
	struct rpc_ent *e;
	struct hlink *next;
};

struct rpc_ent {
	struct iws_rpc r;
	struct rpc_ent *prev, *next;    /* outstanding, oldest first */
	struct rpc_ent *xid_next;
	struct hlink hl[NHANDLES];
	uint32_t nhl;
	uint32_t gap_gen;
};

struct pread {
	uint64_t op_id;
	struct rpc_ent *e;
	uint32_t idx;               /* its entry in e->r.rdma */
};

/* What a recognised connection keeps (allocated then: a connection being
 * probed costs a few dozen octets, tests/hostile: many connections). */
struct trk {
	struct iws_rpc_counts counts;
	struct rpc_ent *head, *tail;
	struct rpc_ent *by_xid[NBUCKETS];
	struct hlink *by_handle[NBUCKETS];
	struct pread reads[READS_MAX];
	uint32_t nreads;
	struct iws_rpc_credit credit_log[IWS_RPC_CREDIT_LOG];
	uint32_t ncredit_log;
	struct send_asm open[2];
	bool has_credit[2];
	uint32_t last_credit[2];
	uint32_t granted;           /* the responder's last grant (0: none seen) */
	/* a credit stall (iws_rpc_counts): the window filled at full_ns; a
	 * reply freed a credit at freed_frame after wait_ns */
	bool full, freed;
	int64_t full_ns, wait_ns;
	uint64_t freed_frame;
	uint8_t call_dirs;          /* 1 << dir: the directions calls were sent in */
	bool partial;               /* a call's handles were not all kept, or a call was
				     * given up: a handle unknown here may be announced */
	uint32_t gap_gen;
	uint64_t next_id;
};

struct iws_rpc_conn {
	enum iws_rpc_conn_state state;
	uint32_t qp, max_inflight;
	uint32_t probes;            /* Sends that were no RDMA_MSG with its RPC (probing) */
	iws_rpc_cb cb;
	void *ctx;
	struct trk *t;              /* once recognised */
	void (*watch)(void *ctx, const struct iws_rpc_anomaly *a);  /* iws_rpc_conn_watch */
	void *watch_ctx;
};

static void tell(struct iws_rpc_conn *n, enum iws_rpc_anomaly_kind k, uint8_t dir, uint64_t frame,
		 uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
	if (!n->watch)
		return;
	struct iws_rpc_anomaly a = { k, dir, frame, { v0, v1, v2, v3 } };
	n->watch(n->watch_ctx, &a);
}

static uint32_t hbucket(uint32_t v)
{
	return (v ^ v >> 8 ^ v >> 16 ^ v >> 24) % NBUCKETS;
}

/* ---- life cycle of an RPC ---- */

static void unlink_ent(struct iws_rpc_conn *n, struct rpc_ent *e)
{
	struct rpc_ent **pp;
	for (pp = &n->t->by_xid[hbucket(e->r.xid)]; *pp; pp = &(*pp)->xid_next)
		if (*pp == e) {
			*pp = e->xid_next;
			break;
		}
	for (uint32_t i = 0; i < e->nhl; i++)
		for (struct hlink **hp = &n->t->by_handle[hbucket(e->hl[i].handle)]; *hp; hp = &(*hp)->next)
			if (*hp == &e->hl[i]) {
				*hp = e->hl[i].next;
				break;
			}
	uint32_t k = 0;
	for (uint32_t i = 0; i < n->t->nreads; i++)
		if (n->t->reads[i].e != e)
			n->t->reads[k++] = n->t->reads[i];
	n->t->nreads = k;
	if (e->prev)
		e->prev->next = e->next;
	else
		n->t->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		n->t->tail = e->prev;
	n->t->counts.inflight--;
}

/* Report and forget. */
static void report(struct iws_rpc_conn *n, struct rpc_ent *e, uint32_t flags)
{
	struct iws_rpc *r = &e->r;
	r->flags |= flags;
	if (!r->has_reply && e->gap_gen != n->t->gap_gen)
		r->flags |= IWS_RPCF_GAP;
	r->id = ++n->t->next_id;
	if (r->has_reply)
		r->latency_ns = r->reply_ns - r->call_ns;
	if (r->data_first_frame) {
		r->think_ns = r->data_first_ns - r->call_ns;
		r->data_ns = r->data_last_ns - r->data_first_ns;
		if (r->has_reply)
			r->tail_ns = r->reply_ns - r->data_last_ns;
	}
	r->complete = r->has_reply && r->has_call && !(r->flags & IWS_RPCF_INCOMPLETE_MASK);
	n->t->counts.reported++;
	if (!r->complete)
		n->t->counts.incomplete++;
	n->cb(n->ctx, r);
}

static void retire(struct iws_rpc_conn *n, struct rpc_ent *e, uint32_t flags)
{
	unlink_ent(n, e);
	report(n, e, flags);
	free(e);
}

static struct rpc_ent *find_xid(struct iws_rpc_conn *n, uint32_t xid, uint8_t call_dir)
{
	uint32_t k = 0;
	for (struct rpc_ent *e = n->t->by_xid[hbucket(xid)]; e && k < SEARCH_MAX; e = e->xid_next, k++)
		if (e->r.xid == xid && e->r.call_dir == call_dir)
			return e;
	return NULL;
}

static void add_handle(struct iws_rpc_conn *n, struct rpc_ent *e, uint32_t handle, enum iws_rpc_chunk kind)
{
	if (e->nhl >= NHANDLES)
		return;
	struct hlink *h = &e->hl[e->nhl++];
	h->handle = handle;
	h->kind = kind;
	h->e = e;
	uint32_t b = hbucket(handle);
	h->next = n->t->by_handle[b];
	n->t->by_handle[b] = h;
}

static void log_credit(struct iws_rpc_conn *n, uint8_t dir, uint32_t credits, const struct iws_pdu *p)
{
	if (n->t->has_credit[dir] && n->t->last_credit[dir] == credits)
		return;
	n->t->has_credit[dir] = true;
	n->t->last_credit[dir] = credits;
	n->t->counts.credit_changes++;
	if (n->t->ncredit_log < IWS_RPC_CREDIT_LOG)
		n->t->credit_log[n->t->ncredit_log++] = (struct iws_rpc_credit){ p->frame, p->ts, dir, credits };
}

/* ---- messages ---- */

static void new_call(struct iws_rpc_conn *n, const struct iws_pdu *p, const struct send_asm *a,
		     const struct iws_rpcrdma_hdr *h, const struct iws_rpc_msg *m, const uint8_t *buf,
		     size_t len)
{
	struct rpc_ent *old = find_xid(n, h->xid, p->dir);
	if (h->nread > IWS_RPCRDMA_MAX_SEGS || h->nwrite > IWS_RPCRDMA_MAX_SEGS ||
	    h->nreply > IWS_RPCRDMA_MAX_SEGS)
		n->t->partial = true;
	if (old) {
		n->t->partial = true;
		n->t->counts.xid_reuse++;
		retire(n, old, IWS_RPCF_XID_REUSE);
	}
	if (n->t->counts.inflight >= n->max_inflight && n->t->head) {
		n->t->counts.evicted++;
		n->t->partial = true;
		retire(n, n->t->head, IWS_RPCF_EVICTED);
	}
	struct rpc_ent *e = calloc(1, sizeof(*e));
	if (!e)
		return;
	struct iws_rpc *r = &e->r;
	r->qp = n->qp;
	r->call_dir = p->dir;
	r->xid = h->xid;
	r->call_hdr = *h;
	r->call_proc = h->proc;
	r->call_credits = h->credits;
	r->call_frame = a->first_frame;
	r->call_ns = a->first_ts;
	r->call_done_frame = p->frame;
	e->gap_gen = n->t->gap_gen;
	if (m) {
		r->has_call = true;
		r->prog = m->prog;
		r->vers = m->vers;
		r->proc = m->proc;
		const uint8_t *body = buf + h->hdr_len + m->body_off;
		size_t blen = len - h->hdr_len - m->body_off;
		if (m->prog == IWS_RPC_PROG_NFS && m->vers == 3) {
			r->proc_name = iws_nfs3_proc_name(m->proc);
			iws_nfs3_parse_args(m->proc, body, blen, &r->io);
		} else if (m->prog == IWS_RPC_PROG_NFS && m->vers == 4) {
			r->proc_name = m->proc == 0 ? "null" : m->proc == IWS_NFS4_COMPOUND ? "compound" : NULL;
			if (m->proc == IWS_NFS4_COMPOUND) {
				/* a read chunk's position is an offset in the RPC message
				 * (RFC 8166 §3.5.3): where its data left the body */
				size_t moved = SIZE_MAX;
				for (uint32_t i = 0; i < h->nread && i < IWS_RPCRDMA_MAX_SEGS; i++)
					if (h->reads[i].position >= m->body_off &&
					    h->reads[i].position - m->body_off < moved)
						moved = h->reads[i].position - m->body_off;
				iws_nfs4_parse_compound(body, blen, moved, &r->compound);
				r->io = r->compound.io;
			}
		} else if (m->prog == IWS_RPC_PROG_NFS_ACL && m->proc <= 2) {
			/* NFS_ACL (Sun's, no RFC; Linux nfsacl.h): NULL, GETACL, SETACL */
			static const char *const acl[] = { "null", "getacl", "setacl" };
			r->proc_name = acl[m->proc];
		} else if (m->proc == 0) {
			r->proc_name = "null"; /* procedure 0 of every program (RFC 5531 §12) */
		}
	}
	for (uint32_t i = 0; i < h->nread && i < IWS_RPCRDMA_MAX_SEGS; i++)
		add_handle(n, e, h->reads[i].handle, IWS_RPC_CHUNK_READ);
	for (uint32_t i = 0; i < h->nwrite && i < IWS_RPCRDMA_MAX_SEGS; i++)
		add_handle(n, e, h->writes[i].handle, IWS_RPC_CHUNK_WRITE);
	for (uint32_t i = 0; h->has_reply_chunk && i < h->nreply && i < IWS_RPCRDMA_MAX_SEGS; i++)
		add_handle(n, e, h->reply[i].handle, IWS_RPC_CHUNK_REPLY);
	uint32_t b = hbucket(e->r.xid);
	e->xid_next = n->t->by_xid[b];
	n->t->by_xid[b] = e;
	e->prev = n->t->tail;
	if (n->t->tail)
		n->t->tail->next = e;
	else
		n->t->head = e;
	n->t->tail = e;
	n->t->counts.calls++;
	n->t->call_dirs |= (uint8_t)(1u << (p->dir & 1));
	if (++n->t->counts.inflight > n->t->counts.max_inflight)
		n->t->counts.max_inflight = n->t->counts.inflight;
	/* RFC 8166 §3.3.1: a requester may not have more calls outstanding
	 * than the responder granted */
	if (n->t->freed) {
		/* the first call after a reply freed a credit of a full window,
		 * before any other reply: it waited for that credit */
		struct iws_rpc_counts *k = &n->t->counts;
		k->credit_stalls++;
		k->stall_ns += n->t->wait_ns;
		if (n->t->wait_ns > k->stall_max_ns)
			k->stall_max_ns = n->t->wait_ns;
		tell(n, IWS_RPCA_CREDIT_STALL, p->dir, p->frame, n->t->granted, (uint64_t)n->t->wait_ns,
		     n->t->freed_frame, 0);
		n->t->freed = false;
	}
	if (n->t->granted && n->t->counts.inflight >= n->t->granted && !n->t->full) {
		n->t->full = true;
		n->t->full_ns = p->ts;
	}
	if (n->t->granted && n->t->counts.inflight > n->t->granted) {
		n->t->counts.credit_exceeded++;
		tell(n, IWS_RPCA_CREDITS, p->dir, p->frame, n->t->counts.inflight, n->t->granted, 0, 0);
	}
}

/* Octets segs[0..n) offer through handle. */
static uint64_t offered(const struct iws_rpcrdma_seg *segs, uint32_t n, uint32_t handle)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < n && i < IWS_RPCRDMA_MAX_SEGS; i++)
		if (segs[i].handle == handle)
			sum += segs[i].length;
	return sum;
}

/* Octets moved through handle: by RDMA Read (read) or RDMA Write of kind
 * (0: a write or the reply chunk). */
static uint64_t moved(const struct iws_rpc *r, uint32_t handle, bool read, enum iws_rpc_chunk kind)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < r->nrdma; i++)
		if (r->rdma[i].stag == handle && (r->rdma[i].kind == IWS_RPC_CHUNK_READ) == read &&
		    (!kind || r->rdma[i].kind == kind))
			sum += r->rdma[i].bytes;
	return sum;
}

/* Is segs[i] the first of segs with its handle? (a chunk may list a
 * handle in several segments: its lengths add up) */
static bool first_of(const struct iws_rpcrdma_seg *segs, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (segs[j].handle == segs[i].handle)
			return false;
	return true;
}

/*
 * The reply h of e's RPC, sent by the responder in p: do its chunks add
 * up (IWS_RPCA_CHUNK_LENGTH, IWS_RPCA_REPLY_CHUNK)? Only when every octet
 * since the call was captured and every segment of both headers was kept.
 *   RFC 8166 §3.4.5: the responder writes at most a write chunk's length;
 *   §3.4.6, §4.2.2: the reply's write list and reply chunk state the octets
 *   it wrote into each; §3.5.3: a read chunk is pulled whole, before the
 *   reply; §3.5.4: the reply chunk carries a reply that did not go inline
 *   (then RDMA_NOMSG, §4.2.4), so an inline reply leaves it empty and an
 *   RDMA_NOMSG reply needs one with the reply in it.
 */
static void check_chunks(struct iws_rpc_conn *n, const struct iws_pdu *p, const struct rpc_ent *e,
			 const struct iws_rpcrdma_hdr *h)
{
	const struct iws_rpc *r = &e->r;
	const struct iws_rpcrdma_hdr *c = &r->call_hdr;
	const uint32_t max = IWS_RPCRDMA_MAX_SEGS;
	if (e->gap_gen != n->t->gap_gen || (r->flags & IWS_RPCF_RDMA_MORE) || c->nread > max ||
	    c->nwrite > max || c->nreply > max || h->nwrite > max || h->nreply > max)
		return;
	uint8_t dir = p->dir;
	for (uint32_t i = 0; i < c->nread; i++) {
		if (!first_of(c->reads, i))
			continue;
		uint32_t hd = c->reads[i].handle;
		uint64_t want = offered(c->reads, c->nread, hd), got = moved(r, hd, true, 0);
		if (got != want)
			tell(n, IWS_RPCA_CHUNK_LENGTH, dir, p->frame, hd, want, got,
			     got > want ? IWS_RPC_LEN_OVER_CALL : IWS_RPC_LEN_READ_SHORT);
	}
	for (uint32_t i = 0; i < c->nwrite; i++) {
		uint32_t hd = c->writes[i].handle;
		uint64_t want = offered(c->writes, c->nwrite, hd), got = moved(r, hd, false, IWS_RPC_CHUNK_WRITE);
		if (first_of(c->writes, i) && got > want)
			tell(n, IWS_RPCA_CHUNK_LENGTH, dir, p->frame, hd, want, got, IWS_RPC_LEN_OVER_CALL);
	}
	for (uint32_t i = 0; c->has_reply_chunk && i < c->nreply; i++) {
		uint32_t hd = c->reply[i].handle;
		uint64_t want = offered(c->reply, c->nreply, hd), got = moved(r, hd, false, IWS_RPC_CHUNK_REPLY);
		if (first_of(c->reply, i) && got > want)
			tell(n, IWS_RPCA_CHUNK_LENGTH, dir, p->frame, hd, want, got, IWS_RPC_LEN_OVER_CALL);
	}
	if (h->proc != IWS_RDMA_MSG && h->proc != IWS_RDMA_NOMSG)
		return;
	/* the reply's lists, for the handles the call offered */
	for (uint32_t i = 0; i < h->nwrite; i++) {
		uint32_t hd = h->writes[i].handle;
		if (!first_of(h->writes, i) || !offered(c->writes, c->nwrite, hd))
			continue;
		uint64_t said = offered(h->writes, h->nwrite, hd), got = moved(r, hd, false, IWS_RPC_CHUNK_WRITE);
		if (said != got)
			tell(n, IWS_RPCA_CHUNK_LENGTH, dir, p->frame, hd, said, got, IWS_RPC_LEN_REPLY_LIST);
	}
	uint64_t rch = 0;
	for (uint32_t i = 0; i < r->nrdma; i++)
		if (r->rdma[i].kind == IWS_RPC_CHUNK_REPLY)
			rch += r->rdma[i].bytes;
	if (h->proc == IWS_RDMA_MSG && rch)
		tell(n, IWS_RPCA_REPLY_CHUNK, dir, p->frame, IWS_RPC_RCH_INLINE, rch, 0, 0);
	else if (h->proc == IWS_RDMA_NOMSG && (!c->has_reply_chunk || !c->nreply))
		tell(n, IWS_RPCA_REPLY_CHUNK, dir, p->frame, IWS_RPC_RCH_NONE, 0, 0, 0);
	else if (h->proc == IWS_RDMA_NOMSG && !rch)
		tell(n, IWS_RPCA_REPLY_CHUNK, dir, p->frame, IWS_RPC_RCH_EMPTY, 0, 0, 0);
}

static void reply(struct iws_rpc_conn *n, const struct iws_pdu *p, struct rpc_ent *e,
		  const struct iws_rpcrdma_hdr *h, const struct iws_rpc_msg *m)
{
	n->t->counts.replies++;
	n->t->freed = false;    /* a credit freed before this reply was not waited for */
	if (h->credits && h->proc != IWS_RDMA_ERROR)
		n->t->granted = h->credits;
	if (h->credits > n->t->counts.granted_max)
		n->t->counts.granted_max = h->credits;
	if (!e) {
		n->t->counts.orphan_replies++;
		struct rpc_ent o = { 0 };
		o.r.qp = n->qp;
		o.r.xid = h->xid;
		o.r.call_dir = p->dir ^ 1;
		o.r.has_reply = true;
		o.r.reply_proc = h->proc;
		o.r.reply_credits = h->credits;
		o.r.reply_frame = p->frame;
		o.r.reply_ns = p->ts;
		o.r.call_frame = p->first_frame;
		o.r.call_ns = p->first_ts;
		if (m) {
			o.r.reply_inline = true;
			o.r.reply_stat = m->reply_stat;
			o.r.accept_stat = m->accept_stat;
		}
		report(n, &o, IWS_RPCF_NO_CALL);
		return;
	}
	struct iws_rpc *r = &e->r;
	r->has_reply = true;
	r->reply_proc = h->proc;
	r->reply_credits = h->credits;
	r->reply_frame = p->frame;
	r->reply_ns = p->ts;
	if (m) {
		r->reply_inline = true;
		r->reply_stat = m->reply_stat;
		r->accept_stat = m->accept_stat;
	}
	if (h->proc != IWS_RDMA_ERROR)
		check_chunks(n, p, e, h);
	retire(n, e, 0);
	/* RFC 8166 §3.3.1: a reply returns its call's credit */
	if (n->t->full && n->t->counts.inflight < n->t->granted) {
		n->t->full = false;
		n->t->freed = true;
		n->t->freed_frame = p->frame;
		n->t->wait_ns = p->ts - n->t->full_ns;
	}
}

/* Recognised: the tracker's state. False (and given up) without memory. */
static bool recognised(struct iws_rpc_conn *n)
{
	if (!(n->t = calloc(1, sizeof(*n->t)))) {
		n->state = IWS_RPC_NO;
		return false;
	}
	n->t->counts.sends = n->t->counts.undecodable = n->probes;
	n->state = IWS_RPC_YES;
	return true;
}

/* A whole Send (or its first HEAD_MAX octets): buf, from the frame
 * a->first_frame at a->first_ts. */
static void message(struct iws_rpc_conn *n, const struct iws_pdu *p, const struct send_asm *a,
		    const uint8_t *buf, size_t len)
{
	struct iws_rpcrdma_hdr h;
	struct iws_rpc_msg m;
	bool has_m = false;
	bool hdr_ok = iws_rpcrdma_parse_hdr(buf, len, &h).status == IWS_OK;
	if (hdr_ok && (h.proc == IWS_RDMA_MSG || h.proc == IWS_RDMA_MSGP))
		has_m = iws_rpc_parse(buf + h.hdr_len, len - h.hdr_len, &m).status == IWS_OK &&
			m.xid == h.xid;
	if (n->state == IWS_RPC_PROBING) {
		/* RFC 8166 §4.2.1: rdma_xid is the RPC message's xid */
		if (!has_m) {
			if (++n->probes >= IWS_RPC_PROBE_SENDS)
				n->state = IWS_RPC_NO;
			return;
		}
		if (!recognised(n))
			return;
	}
	n->t->counts.sends++;
	if (!hdr_ok) {
		n->t->counts.undecodable++;
		return;
	}
	n->t->counts.headers++;
	log_credit(n, p->dir, h.credits, p);
	if (h.proc == IWS_RDMA_DONE)
		return;
	if (h.proc == IWS_RDMA_ERROR) {
		n->t->counts.rdma_errors++;
		reply(n, p, find_xid(n, h.xid, p->dir ^ 1), &h, NULL);
		return;
	}
	if (has_m) {
		if (m.mtype == IWS_RPC_CALL)
			new_call(n, p, a, &h, &m, buf, len);
		else
			reply(n, p, find_xid(n, h.xid, p->dir ^ 1), &h, &m);
		return;
	}
	/* RDMA_NOMSG (or an RPC message that did not parse): a reply when
	 * the other side has this xid outstanding, else a call whose message
	 * is in its read chunk (RFC 8166 §3.5.3, "Long Call") */
	struct rpc_ent *e = find_xid(n, h.xid, p->dir ^ 1);
	if (e)
		reply(n, p, e, &h, NULL);
	else
		new_call(n, p, a, &h, NULL, buf, len);
}

/* ---- data ---- */

static struct rpc_ent *find_handle(struct iws_rpc_conn *n, uint32_t stag, uint8_t responder_dir,
				   enum iws_rpc_chunk *kind)
{
	uint32_t k = 0;
	for (struct hlink *h = n->t->by_handle[hbucket(stag)]; h && k < SEARCH_MAX; h = h->next, k++)
		if (h->handle == stag && h->e->r.call_dir != responder_dir &&
		    (h->kind == IWS_RPC_CHUNK_READ) == (*kind == IWS_RPC_CHUNK_READ)) {
			*kind = h->kind;
			return h->e;
		}
	return NULL;
}

/* Add the segment to e's entry for its type and handle. */
static uint32_t add_data(struct rpc_ent *e, const struct iws_pdu *p, enum iws_op_type type,
			 enum iws_rpc_chunk kind, uint32_t stag, uint64_t bytes)
{
	struct iws_rpc *r = &e->r;
	uint64_t op_id = p->note ? p->note->op_id : 0;
	uint32_t i;
	for (i = 0; i < r->nrdma; i++)
		if (r->rdma[i].type == type && r->rdma[i].kind == kind && r->rdma[i].stag == stag)
			break;
	if (i == r->nrdma) {
		if (r->nrdma == IWS_RPC_MAX_RDMA) {
			r->flags |= IWS_RPCF_RDMA_MORE;
			i = UINT32_MAX;
		} else {
			r->rdma[r->nrdma++] = (struct iws_rpc_rdma){ op_id, op_id, 1, type, kind, stag, 0, 0,
								     p->first_frame, 0, p->first_ts, 0 };
		}
	} else if (op_id != r->rdma[i].last_op_id || !op_id) {
		/* (a read's responses carry its request's id: one operation) */
		r->rdma[i].ops++;
		r->rdma[i].last_op_id = op_id;
	}
	if (i != UINT32_MAX) {
		struct iws_rpc_rdma *d = &r->rdma[i];
		d->bytes += bytes;
		d->segments++;
		d->last_frame = p->frame;
		d->last_ns = p->ts;
	}
	r->rdma_bytes += bytes;
	if (!r->data_first_frame || p->first_ts < r->data_first_ns) {
		r->data_first_frame = p->first_frame;
		r->data_first_ns = p->first_ts;
	}
	if (p->frame >= r->data_last_frame) {
		r->data_last_frame = p->frame;
		r->data_last_ns = p->ts;
	}
	return i;
}

/* Is dir the responder's, with every handle of the calls known? (an
 * RDMA Write of the requester's own, RFC 8166 §3.4, is none of the
 * transport's business) */
static bool responder(const struct iws_rpc_conn *n, uint8_t dir)
{
	return !n->t->partial && (n->t->call_dirs & (1u << ((dir ^ 1) & 1))) &&
	       !(n->t->call_dirs & (1u << (dir & 1)));
}

static void data(struct iws_rpc_conn *n, const struct iws_pdu *p, const struct iws_msg *m)
{
	const struct iws_ddp_hdr *d = &m->ddp;
	uint64_t bytes = p->note ? p->note->payload : m->payload_len;
	enum iws_rpc_chunk kind;
	struct rpc_ent *e;
	if (d->tagged && d->opcode == IWS_OP_CODE_WRITE) {
		kind = IWS_RPC_CHUNK_WRITE;
		if ((e = find_handle(n, d->stag, p->dir, &kind))) {
			add_data(e, p, IWS_OPT_WRITE, kind, d->stag, bytes);
		} else {
			n->t->counts.unmatched_rdma++;
			/* once per Write: its first segment (RFC 5041 §5.2: TO) */
			if (responder(n, p->dir) && (!p->note || p->note->op_first))
				tell(n, IWS_RPCA_UNANNOUNCED, p->dir, p->frame, d->stag, 0, 0, 0);
		}
	} else if (!d->tagged && d->opcode == IWS_OP_CODE_READ_REQ && iws_msg_has(m, d->hdr_len + 28)) {
		kind = IWS_RPC_CHUNK_READ;
		uint32_t src = m->u.read_req.src_stag;
		if ((e = find_handle(n, src, p->dir, &kind))) {
			uint32_t i = add_data(e, p, IWS_OPT_READ, kind, src, 0);
			if (i != UINT32_MAX && p->note && p->note->op_id) {
				if (n->t->nreads == READS_MAX) {
					memmove(n->t->reads, n->t->reads + 1, (READS_MAX - 1) * sizeof(n->t->reads[0]));
					n->t->nreads--;
				}
				n->t->reads[n->t->nreads++] = (struct pread){ p->note->op_id, e, i };
			}
		} else {
			n->t->counts.unmatched_rdma++;
			if (responder(n, p->dir))
				tell(n, IWS_RPCA_UNANNOUNCED, p->dir, p->frame, src, 1, 0, 0);
		}
	} else if (d->tagged && d->opcode == IWS_OP_CODE_READ_RESP && p->note && p->note->op_id) {
		for (uint32_t i = 0; i < n->t->nreads; i++)
			if (n->t->reads[i].op_id == p->note->op_id) {
				struct rpc_ent *re = n->t->reads[i].e;
				add_data(re, p, IWS_OPT_READ, IWS_RPC_CHUNK_READ, re->r.rdma[n->t->reads[i].idx].stag,
					 bytes);
				return;
			}
		n->t->counts.unmatched_rdma++;
	}
}

/* ---- the connection ---- */

struct iws_rpc_conn *iws_rpc_conn_new(const struct iws_rpc_limits *lim, uint32_t qp, iws_rpc_cb cb,
				      void *ctx)
{
	struct iws_rpc_conn *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->qp = qp;
	n->cb = cb;
	n->ctx = ctx;
	n->max_inflight = lim && lim->max_inflight ? lim->max_inflight : DEFAULT_MAX_INFLIGHT;
	return n;
}

void iws_rpc_conn_free(struct iws_rpc_conn *n)
{
	if (!n)
		return;
	if (n->t) {
		while (n->t->head) {
			struct rpc_ent *e = n->t->head;
			n->t->head = e->next;
			free(e);
		}
		for (int d = 0; d < 2; d++)
			free(n->t->open[d].buf);
		free(n->t);
	}
	free(n);
}

/* A Send's segment: reassembled by MSN and MO (send_asm.h). While
 * probing, only a Send's first segment is looked at (the transport and RPC
 * headers lead it). */
static void send_seg(struct iws_rpc_conn *n, const struct iws_pdu *p, const struct iws_msg *m)
{
	struct send_asm probe = { 0 };
	struct send_asm *a = n->t ? &n->t->open[p->dir & 1] : &probe;
	const uint8_t *buf;
	size_t len;
	if (send_asm_seg(a, HEAD_MAX, p, m, n->state == IWS_RPC_PROBING, &buf, &len))
		message(n, p, a, buf, len);
}

void iws_rpc_conn_pdu(struct iws_rpc_conn *n, const struct iws_pdu *p)
{
	if (n->state == IWS_RPC_NO || p->kind != IWS_PDU_FPDU || !p->msg || !p->fpdu)
		return;
	const struct iws_msg *m = p->msg;
	const struct iws_ddp_hdr *d = &m->ddp;
	if (!d->tagged && d->qn == IWS_QN_SEND && iws_rdmap_is_send(d->opcode))
		send_seg(n, p, m);
	else if (n->state == IWS_RPC_YES)
		data(n, p, m);
}

void iws_rpc_conn_event(struct iws_rpc_conn *n, const struct iws_stream_event *ev)
{
	if (n->state == IWS_RPC_NO || (ev->kind != IWS_SEV_GAP && ev->kind != IWS_SEV_FRAMING_LOST))
		return;
	if (!n->t)
		return;
	n->t->open[ev->dir & 1].open = false;
	n->t->gap_gen++;
}

void iws_rpc_conn_finish(struct iws_rpc_conn *n, bool capture_end)
{
	while (n->t && n->t->head)
		retire(n, n->t->head, capture_end ? IWS_RPCF_UNFINISHED : IWS_RPCF_ABORTED);
}

void iws_rpc_conn_watch(struct iws_rpc_conn *n, void (*cb)(void *ctx, const struct iws_rpc_anomaly *a),
			void *ctx)
{
	n->watch = cb;
	n->watch_ctx = ctx;
}

enum iws_rpc_conn_state iws_rpc_conn_state(const struct iws_rpc_conn *n)
{
	return n->state;
}

const struct iws_rpc_counts *iws_rpc_conn_counts(const struct iws_rpc_conn *n)
{
	static const struct iws_rpc_counts none;
	return n->t ? &n->t->counts : &none;
}

const struct iws_rpc_credit *iws_rpc_conn_credits(const struct iws_rpc_conn *n, uint32_t *len)
{
	*len = n->t ? n->t->ncredit_log : 0;
	return n->t ? n->t->credit_log : NULL;
}

bool iws_rpc_conn_pending(const struct iws_rpc_conn *n, int64_t *start_ns, uint64_t *first_frame)
{
	bool any = false;
	if (!n->t)
		return false;
	if (n->t->head) {
		*start_ns = n->t->head->r.call_ns;
		*first_frame = n->t->head->r.call_frame;
		any = true;
	}
	for (int d = 0; d < 2; d++)
		if (n->t->open[d].open)
			send_asm_earliest(&any, start_ns, first_frame, n->t->open[d].first_ts,
					  n->t->open[d].first_frame);
	return any;
}

const char *iws_rpc_chunk_name(enum iws_rpc_chunk k)
{
	switch (k) {
	case IWS_RPC_CHUNK_READ:
		return "read";
	case IWS_RPC_CHUNK_WRITE:
		return "write";
	case IWS_RPC_CHUNK_REPLY:
		return "reply";
	default:
		return "?";
	}
}
