// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma.h - ONC RPC over RDMA (RPC-over-RDMA version 1, RFC 8166), with
 * NFS on top (RFC 8267: NFS's binding; NFS on port 20049).
 *
 * What the transport does (RFC 8166 §3):
 *   every RPC message goes in an RDMA Send, behind a transport header
 *   (xid, version 1, credits, procedure, then three chunk lists);
 *   bulk data is moved out of the Send into chunks the requester registered:
 *     read list    (position, handle, length, offset) segments the responder
 *                  pulls with RDMA Read (the NFS WRITE's data, a long call);
 *     write list   arrays of (handle, length, offset) the responder fills
 *                  with RDMA Writes before its reply (the NFS READ's data);
 *     reply chunk  one array the responder writes a long reply into (the
 *                  reply then goes as RDMA_NOMSG: the header alone);
 *   credits in every header say how many calls the requester may have in
 *   flight (RFC 8166 §3.3).
 * A handle is the STag of a registered buffer (RFC 5040 §2: on iWARP the
 * RDMA Write's and Read Request's STag).
 *
 * Two layers, like the NVMe code (nvme.h):
 *   parsers  (const uint8_t *, size_t) -> struct iws_result: the transport
 *            header, the ONC RPC call/reply (RFC 5531 §9), NFSv3 READ/WRITE/
 *            COMMIT arguments (RFC 1813 §3.3) and NFSv4 COMPOUND operation
 *            names (RFC 7530 §16, RFC 8881 §18, RFC 7862 §15);
 *   tracker  per connection, fed by the stream engine (stream.h,
 *            iws_stream_rpc_stage): matches call and reply by xid, links the
 *            chunks' handles to the RDMA operations the operation tracker
 *            saw (qp.h: the segment notes' op ids) and reports each RPC once.
 * Every XDR item is big-endian, 4-octet aligned (RFC 4506 §3).
 */
#ifndef IWARPSCOPE_RPCRDMA_H
#define IWARPSCOPE_RPCRDMA_H

#include "mpa.h"   /* IWS_DIR_* */
#include "qp.h"
#include "rdmap.h"
#include "stats.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_RPCRDMA_PORT 20049       /* RFC 8267 §6: NFS over RPC-over-RDMA */
#define IWS_RPCRDMA_VERS 1

/* rdma_proc (RFC 8166 §4.2.4; MSGP and DONE from RFC 5666 §4.3, reserved in v1) */
enum iws_rpcrdma_proc {
	IWS_RDMA_MSG = 0,
	IWS_RDMA_NOMSG = 1,
	IWS_RDMA_MSGP = 2,
	IWS_RDMA_DONE = 3,
	IWS_RDMA_ERROR = 4,
};

/* segments kept per list; more are counted (nread etc.) but not kept */
#define IWS_RPCRDMA_MAX_SEGS 16

/* One RDMA segment (RFC 8166 §4.1.1: handle, length, offset), with the
 * read segment's XDR position and, in the write list, its chunk's index. */
struct iws_rpcrdma_seg {
	uint32_t handle;
	uint32_t length;
	uint64_t offset;
	uint32_t position;          /* read list only */
	uint32_t chunk;             /* write list: which chunk (0, 1, ...) */
};

struct iws_rpcrdma_hdr {
	uint32_t xid, vers, credits, proc;
	/* RDMA_MSG, RDMA_NOMSG, RDMA_MSGP: the chunk lists */
	uint32_t nread;             /* read segments on the wire */
	uint32_t nwrite_chunks;     /* write chunks */
	uint32_t nwrite;            /* write segments, over every chunk */
	bool has_reply_chunk;
	uint32_t nreply;            /* reply chunk segments */
	struct iws_rpcrdma_seg reads[IWS_RPCRDMA_MAX_SEGS];
	struct iws_rpcrdma_seg writes[IWS_RPCRDMA_MAX_SEGS];
	struct iws_rpcrdma_seg reply[IWS_RPCRDMA_MAX_SEGS];
	uint32_t align, thresh;     /* RDMA_MSGP (RFC 5666 §4.3) */
	/* RDMA_ERROR (RFC 8166 §4.3.1): ERR_VERS (1, with the versions the
	 * responder supports) or ERR_CHUNK (2) */
	uint32_t err, vers_low, vers_high;
	uint32_t hdr_len;           /* octets of the header: the RPC message (RDMA_MSG) follows */
	struct iws_field f_xid, f_vers, f_credits, f_proc;
};

#define IWS_RPCRDMA_ERR_VERS 1
#define IWS_RPCRDMA_ERR_CHUNK 2

/*
 * Parse a transport header. NEED_MORE when buf ends inside it (need: octets
 * wanted from buf[0]; a hostile count asks for more than any Send holds);
 * MALFORMED for a version other than 1, an unknown procedure, a list
 * discriminator other than 0 or 1, or an RDMA_ERROR code not defined.
 */
struct iws_result iws_rpcrdma_parse_hdr(const uint8_t *buf, size_t len, struct iws_rpcrdma_hdr *h);
const char *iws_rpcrdma_proc_name(uint32_t proc);   /* "RDMA_MSG", ... or NULL */

/* ---- ONC RPC (RFC 5531 §9) ---- */

#define IWS_RPC_CALL 0
#define IWS_RPC_REPLY 1
#define IWS_RPC_AUTH_MAX 400        /* opaque_auth body<400> (RFC 5531 §8.2) */
#define IWS_RPC_PROG_NFS 100003
#define IWS_RPC_PROG_NFS_ACL 100227
#define IWS_RPC_PROG_MOUNT 100005
#define IWS_RPC_PROG_NLM 100021

struct iws_rpc_msg {
	uint32_t xid, mtype;
	/* call */
	uint32_t rpcvers, prog, vers, proc;
	uint32_t cred_flavor, cred_len, verf_flavor, verf_len;
	/* reply: reply_stat 0 MSG_ACCEPTED (accept_stat), 1 MSG_DENIED (reject_stat) */
	uint32_t reply_stat, accept_stat, reject_stat;
	uint32_t body_off;          /* call: the procedure's arguments; accepted SUCCESS: results */
};

/* NEED_MORE when buf ends inside the header; MALFORMED for a message type
 * other than CALL/REPLY, an RPC version other than 2, an auth body past 400
 * octets, a reply or accept status not defined. */
struct iws_result iws_rpc_parse(const uint8_t *buf, size_t len, struct iws_rpc_msg *m);
const char *iws_rpc_accept_name(uint32_t accept_stat);  /* "success", ... or NULL */

/* ---- NFS ---- */

#define IWS_NFS3_READ 6
#define IWS_NFS3_WRITE 7
#define IWS_NFS3_COMMIT 21
#define IWS_NFS4_COMPOUND 1
#define IWS_NFS4_OP_COMMIT 5
#define IWS_NFS4_OP_READ 25
#define IWS_NFS4_OP_WRITE 38
#define IWS_NFS4_OP_READ_PLUS 68

/* The I/O a call asks for: NFSv3 READ/WRITE/COMMIT, NFSv4 READ/WRITE/COMMIT. */
struct iws_nfs_io {
	bool valid;
	uint64_t offset;
	uint32_t count;
	uint32_t stable;            /* WRITE: stable_how (RFC 1813 §3.3.7) */
};

/* NFSv3 arguments of READ, WRITE and COMMIT (RFC 1813 §3.3.6, .7, .21:
 * nfs_fh3 (opaque<64>), offset3, count3). Other procedures: OK with
 * io->valid false. MALFORMED for a file handle longer than 64 octets. */
struct iws_result iws_nfs3_parse_args(uint32_t proc, const uint8_t *buf, size_t len,
				      struct iws_nfs_io *io);
/* "getattr", "read", ... (RFC 1813 §3.3) or NULL. */
const char *iws_nfs3_proc_name(uint32_t proc);

#define IWS_NFS4_MAX_OPS 16

/* A COMPOUND's operations (RFC 7530 §16.2, RFC 8881 §16.2): tag,
 * minorversion, then numops operations. The names of those whose argument
 * lengths the decoder knows come one after the other; at the first one it
 * cannot step over, nknown stops (the rest are counted in numops only). */
struct iws_nfs4_compound {
	uint32_t minorversion;
	uint32_t numops;
	uint32_t nknown;            /* operations named in op[] */
	uint32_t op[IWS_NFS4_MAX_OPS];
	uint32_t io_op;             /* the first READ/WRITE/COMMIT/READ_PLUS, else 0 */
	struct iws_nfs_io io;
};

/* Parse COMPOUND4args from buf (the RPC call's body). moved_at: an offset
 * in buf where a read chunk took data out of the inline message (RFC 8166
 * §3.5.3: an opaque's octets that start there are not inline), else
 * SIZE_MAX. OK as far as the names go; MALFORMED for a hostile length. */
struct iws_result iws_nfs4_parse_compound(const uint8_t *buf, size_t len, size_t moved_at,
					  struct iws_nfs4_compound *c);
/* "sequence", "putfh", "read", ... or NULL. */
const char *iws_nfs4_op_name(uint32_t op);

/* ---- the RPC tracker ---- */

/* How an RDMA operation served an RPC's chunk. */
enum iws_rpc_chunk {
	IWS_RPC_CHUNK_READ = 1,     /* read list: pulled by the responder's RDMA Read */
	IWS_RPC_CHUNK_WRITE,        /* write list: placed by the responder's RDMA Write */
	IWS_RPC_CHUNK_REPLY,        /* reply chunk: the long reply, by RDMA Write */
};
const char *iws_rpc_chunk_name(enum iws_rpc_chunk k);   /* "read", "write", "reply" */

#define IWS_RPC_MAX_RDMA 16

/* The RDMA operations (the operation tracker's, qp.h) of one type that
 * moved an RPC's data through one chunk handle: a responder may split a
 * chunk into many RDMA Writes or Reads (Linux's svcrdma writes a 512 KiB
 * write chunk in page-list sized pieces), listed as one entry with their
 * count. */
struct iws_rpc_rdma {
	uint64_t first_op_id, last_op_id; /* the operations' ids (iws_op.id; 0: unknown) */
	uint32_t ops;               /* RDMA operations */
	enum iws_op_type type;      /* IWS_OPT_WRITE or IWS_OPT_READ */
	enum iws_rpc_chunk kind;
	uint32_t stag;              /* the chunk handle they addressed */
	uint64_t bytes;             /* their octets */
	uint32_t segments;          /* DDP segments (a read: its Read Requests too) */
	uint64_t first_frame, last_frame;
	int64_t first_ns, last_ns;
};

/* Why an RPC is not complete, or what is odd about it. */
#define IWS_RPCF_UNFINISHED   0x01  /* the capture ended first */
#define IWS_RPCF_ABORTED      0x02  /* the connection ended first */
#define IWS_RPCF_GAP          0x04  /* octets never captured may hold its reply or data */
#define IWS_RPCF_EVICTED      0x08  /* given up: in-flight limit */
#define IWS_RPCF_NO_CALL      0x10  /* a reply whose call is not in the capture */
#define IWS_RPCF_XID_REUSE    0x20  /* a call with its xid replaced it before a reply */
#define IWS_RPCF_RDMA_MORE    0x40  /* more chunk handles than IWS_RPC_MAX_RDMA: not all listed */
#define IWS_RPCF_INCOMPLETE_MASK \
	(IWS_RPCF_UNFINISHED | IWS_RPCF_ABORTED | IWS_RPCF_GAP | IWS_RPCF_EVICTED | IWS_RPCF_NO_CALL | \
	 IWS_RPCF_XID_REUSE)

/* One RPC, reported once. */
struct iws_rpc {
	uint32_t qp;
	uint64_t id;                /* 1, 2, ... per tracker, in report order */
	uint8_t call_dir;           /* IWS_DIR_* the call was sent in */
	uint32_t xid;
	bool has_call;
	uint32_t prog, vers, proc;
	const char *proc_name;      /* NFSv3 procedure or NFSv4 "compound"/"null"; NULL: unnamed */
	struct iws_nfs4_compound compound;  /* NFSv4 COMPOUND: its operations */
	struct iws_nfs_io io;       /* READ/WRITE/COMMIT offset and count */
	struct iws_rpcrdma_hdr call_hdr;     /* the call's transport header */
	uint32_t call_proc, reply_proc;      /* rdma_proc of each */
	uint32_t call_credits, reply_credits;
	uint64_t call_frame;        /* the call's first frame */
	int64_t call_ns;
	uint64_t call_done_frame;   /* where the call's Send completed */
	bool has_reply;
	uint64_t reply_frame;       /* where the reply's Send completed */
	int64_t reply_ns;
	uint32_t reply_stat, accept_stat;   /* reply (RDMA_MSG, inline) */
	bool reply_inline;          /* its status was read (RDMA_MSG) */
	int64_t latency_ns;         /* reply_ns - call_ns; 0 without a reply */
	/* the data (RDMA operations into or from its chunks) */
	struct iws_rpc_rdma rdma[IWS_RPC_MAX_RDMA];
	uint32_t nrdma;
	uint64_t rdma_bytes;
	uint64_t data_first_frame, data_last_frame;   /* 0: no RDMA data */
	int64_t data_first_ns, data_last_ns;
	/* phases (docs/semantics.md, "RPC over RDMA"): with data, call ->
	 * first data, first -> last data, last data -> reply */
	int64_t think_ns, data_ns, tail_ns;
	bool complete;
	uint32_t flags;             /* IWS_RPCF_* */
};

typedef void (*iws_rpc_cb)(void *ctx, const struct iws_rpc *r);

/* A credit value a header carried when it changed (RFC 8166 §3.3.1). */
struct iws_rpc_credit {
	uint64_t frame;
	int64_t ts_ns;
	uint8_t dir;
	uint32_t credits;
};

#define IWS_RPC_CREDIT_LOG 256

struct iws_rpc_counts {
	uint64_t sends;             /* Sends of the connection looked at */
	uint64_t headers;           /* transport headers decoded */
	uint64_t undecodable;       /* Sends that were no transport header */
	uint64_t calls, replies, reported, incomplete;
	uint64_t orphan_replies, xid_reuse, evicted;
	uint64_t unmatched_rdma;    /* tagged data or Read Requests no outstanding chunk names */
	uint64_t rdma_errors;       /* RDMA_ERROR messages */
	uint32_t inflight, max_inflight;
	uint32_t granted_max;       /* the largest credit value the responder granted */
	uint64_t credit_exceeded;   /* calls sent with more in flight than granted */
	uint64_t credit_changes;    /* headers whose credit value changed (iws_rpc_conn_credits) */
	/* credit stalls (docs/semantics.md, "Credit stall"): the calls
	 * outstanding reached the grant, and the requester's next call came
	 * after a reply freed a credit and before any further reply */
	uint64_t credit_stalls;
	int64_t stall_ns, stall_max_ns;     /* the window full: summed, the longest */
};

struct iws_rpc_limits {
	uint32_t max_inflight;      /* outstanding RPCs per connection; 0: default (1024) */
};

/* One connection: recognition by content (an RDMA_MSG whose transport
 * header's xid is its RPC message's, RFC 8166 §4.2.1; RPC version 2), then
 * the tracker. Sends that are no transport header are looked at
 * IWS_RPC_PROBE_SENDS times before the connection is given up. */
#define IWS_RPC_PROBE_SENDS 32

enum iws_rpc_conn_state {
	IWS_RPC_PROBING = 0,
	IWS_RPC_YES,
	IWS_RPC_NO,
};

struct iws_pdu;
struct iws_stream_event;
struct iws_rpc_conn;

struct iws_rpc_conn *iws_rpc_conn_new(const struct iws_rpc_limits *lim, uint32_t qp, iws_rpc_cb cb,
				      void *ctx);
void iws_rpc_conn_free(struct iws_rpc_conn *n);
/* Every PDU (with the operation tracker's note, pdu->note) and event of the
 * connection, as the engine reports them. */
void iws_rpc_conn_pdu(struct iws_rpc_conn *n, const struct iws_pdu *pdu);
void iws_rpc_conn_event(struct iws_rpc_conn *n, const struct iws_stream_event *ev);
/* The capture (capture_end) or the connection ended: outstanding RPCs are
 * reported UNFINISHED or ABORTED. */
void iws_rpc_conn_finish(struct iws_rpc_conn *n, bool capture_end);
enum iws_rpc_conn_state iws_rpc_conn_state(const struct iws_rpc_conn *n);
const struct iws_rpc_counts *iws_rpc_conn_counts(const struct iws_rpc_conn *n);
/* The credit values as they changed, per direction, the first
 * IWS_RPC_CREDIT_LOG changes (*len of them; NULL before recognition). */
const struct iws_rpc_credit *iws_rpc_conn_credits(const struct iws_rpc_conn *n, uint32_t *len);
/*
 * What the tracker sees break RFC 8166, for the interop doctor's rpc.*
 * rules (rules.h; core/doctor_rpc.c words and gates them). Told as it is
 * found, in capture order; values by kind:
 *   CREDITS      a call made the calls outstanding exceed the responder's
 *                last grant (§3.3.1): v0 outstanding, v1 granted;
 *   CHUNK_LENGTH the octets moved through a chunk handle do not add up
 *                (§3.4.5, §3.4.6, §3.5.3): v0 handle, v1 the length a header
 *                states (the call's, or the reply's updated write list),
 *                v2 the octets moved; v3 which check (IWS_RPC_LEN_*);
 *   REPLY_CHUNK  the reply and its reply chunk disagree (§3.4.6, §3.5.4,
 *                §4.2.2): v0 IWS_RPC_RCH_*, v1 octets written into the reply
 *                chunk;
 *   UNANNOUNCED  an RDMA Write or Read Request by the responder names a
 *                handle no call outstanding listed (§3.4.1): v0 the STag,
 *                v1 0 Write, 1 Read Request;
 *   CREDIT_STALL the call that ends a credit stall (rpcrdma_counts): v0 the
 *                credits granted (= the calls that were outstanding), v1
 *                nanoseconds the window was full (from the call that filled
 *                it to the reply that freed a credit), v2 the frame of that
 *                reply.
 * dir is the sender at fault, frame where it shows.
 */
enum iws_rpc_anomaly_kind {
	IWS_RPCA_CREDITS = 1,
	IWS_RPCA_CHUNK_LENGTH,
	IWS_RPCA_REPLY_CHUNK,
	IWS_RPCA_UNANNOUNCED,
	IWS_RPCA_CREDIT_STALL,
};
#define IWS_RPC_LEN_OVER_CALL 1     /* more octets than the call's segments offered */
#define IWS_RPC_LEN_REPLY_LIST 2    /* the reply's write list states other lengths than were written */
#define IWS_RPC_LEN_READ_SHORT 3    /* a read chunk not pulled whole before the reply */
#define IWS_RPC_RCH_INLINE 1        /* RDMA_MSG reply (inline) with octets in its reply chunk */
#define IWS_RPC_RCH_NONE 2          /* RDMA_NOMSG reply to a call that offered no reply chunk */
#define IWS_RPC_RCH_EMPTY 3         /* RDMA_NOMSG reply, nothing written into the reply chunk */

struct iws_rpc_anomaly {
	enum iws_rpc_anomaly_kind kind;
	uint8_t dir;
	uint64_t frame;
	uint64_t v[4];
};

/* Be told each anomaly (NULL: not told, the default). */
void iws_rpc_conn_watch(struct iws_rpc_conn *n, void (*cb)(void *ctx, const struct iws_rpc_anomaly *a),
			void *ctx);

/* For output in call order: the (call_ns, call_frame) of the earliest RPC
 * still to be reported. */
bool iws_rpc_conn_pending(const struct iws_rpc_conn *n, int64_t *start_ns, uint64_t *first_frame);

/* ---- statistics per (program, version, procedure), for the CLI and the plugin ---- */

/* Groups kept; RPCs of further (program, version, procedure) triples (a
 * hostile peer can name 2^96) are counted in iws_rpc_stats.other. */
#define IWS_RPC_STATS_MAX_GROUPS 1024

struct iws_rpc_proc_stats {
	bool has_call;              /* false: replies whose call is not in the capture */
	uint32_t prog, vers, proc;
	const char *name;           /* iws_rpc.proc_name (may be NULL) */
	uint64_t count, complete, rdma_bytes;
	struct iws_latency latency; /* complete RPCs: latency_ns */
	struct iws_latency think;   /* complete RPCs with RDMA data: think_ns */
	struct iws_latency data;    /* ... data_ns */
};

struct iws_rpc_stats {
	struct iws_rpc_proc_stats *e;  /* sorted by (has_call, prog, vers, proc) */
	uint32_t n, cap;
	uint64_t other;
};

void iws_rpc_stats_init(struct iws_rpc_stats *s);
void iws_rpc_stats_free(struct iws_rpc_stats *s);
/* false when the RPC was not counted in a group (allocation, group limit). */
bool iws_rpc_stats_add(struct iws_rpc_stats *s, const struct iws_rpc *r);

#ifdef __cplusplus
}
#endif
#endif
