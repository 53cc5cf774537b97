// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The generator's model: a capture under construction (struct gen), its TCP
 * connections (struct conn, two directions each), every frame put on the
 * wire (struct frame), every FPDU framed (struct fpdu_rec) and every RDMA
 * operation started (struct op_rec). Scenarios drive it through tcpsim.h,
 * mpa.h and rdma.h; capture.h turns it into a capture file and a truth file.
 *
 * Stream offsets: in each direction, offset 0 is the SYN, offset 1 the first
 * data octet; the TCP sequence number of offset o is (isn + o) mod 2^32.
 * All bookkeeping uses 64-bit offsets so sequence wrap never matters here.
 */
#ifndef IWSGEN_GEN_H
#define IWSGEN_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "pcapw.h"
#include "prng.h"

enum { I2R = 0, R2I = 1 };

enum seg_mode {
	SEG_ALIGNED,	/* one FPDU per TCP segment, FPDUs sized to the MSS (RFC 5044 4.5) */
	SEG_STREAM,	/* DDP segment size independent of MSS: FPDUs straddle and pack */
	SEG_SUPER,	/* like SEG_STREAM, but TCP segments up to super_max (GRO/TSO) */
};

enum frame_fault {
	FF_LOST = 1u,	/* lost before the capture point and the receiver */
	FF_NOCAP = 2u,	/* reached the receiver but never captured (true gap) */
	FF_DROP = 4u,	/* captured, then lost before the receiver (the capture
			 * point is on the sender's side of the loss) */
};

enum op_kind {
	OP_WRITE, OP_READ, OP_SEND, OP_SEND_INV, OP_SEND_SE, OP_SEND_SE_INV,
	OP_IMM, OP_IMM_SE, OP_FADD, OP_CSWAP, OP_TERM, OP_NKINDS
};

enum rtr_type { RTR_NONE, RTR_SEND, RTR_WRITE, RTR_READ };

/*
 * Ways a sender can break RFC 5044's marker rules (flags of a direction,
 * combinable; 0 = RFC 5044 4.2/4.3). The grid of FPDU number k of a
 * direction (k = 0 for the first FPDU after SeqStart) has its markers at
 * every S with (S - base_k) mod 512 == 0, where
 * base_k = SeqStart + (MKDEV_OFFSET ? mk_off : 0) + (MKDEV_SKIPCRC ? 4k : 0).
 */
enum {
	MKDEV_FPDUPTR_LE = 1u,	/* FPDUPTR least significant octet first */
	MKDEV_SKIPCRC = 2u,	/* the marker counter does not count CRC octets */
	MKDEV_OFFSET = 4u,	/* grid measured from SeqStart + mk_off */
};

/* RDMAP opcodes (RFC 5040 4.1, RFC 7306 4.1) */
enum {
	RD_WRITE = 0x0, RD_READ_REQ = 0x1, RD_READ_RESP = 0x2, RD_SEND = 0x3,
	RD_SEND_INV = 0x4, RD_SEND_SE = 0x5, RD_SEND_SE_INV = 0x6, RD_TERMINATE = 0x7,
	RD_IMM = 0x8, RD_IMM_SE = 0x9, RD_ATOMIC_REQ = 0xA, RD_ATOMIC_RESP = 0xB
};

struct frame {
	uint64_t ts;		/* ns since the epoch */
	uint32_t order;		/* creation order, ties in ts */
	uint32_t fault;		/* FF_* */
	int conn, dir;		/* dir = sending side */
	size_t data_off;	/* frame bytes in gen.arena */
	uint32_t len, payoff;
	uint64_t soff;		/* stream offset of the first payload octet */
	uint32_t paylen;
	uint32_t no;		/* 1-based frame number; 0 = not in the file */
	/* TCP header fields the truth needs (the octets are in the arena) */
	uint8_t flags;		/* TCPF_* */
	uint16_t win;		/* advertised window field */
	uint64_t ack_off;	/* acknowledgement as a stream offset of the peer's direction */
};

struct marker_rec {
	uint64_t off;
	uint16_t fpduptr;
};

struct fpdu_rec {
	int conn, dir;
	uint64_t off;		/* first octet, a leading marker included */
	uint32_t wire_len;	/* markers, pad and CRC included */
	uint64_t hdr_end;	/* offset past MPA length + DDP header */
	uint16_t ulpdu_len;
	uint8_t pad;
	size_t mk_first, mk_count;
	int crc_on, crc_bad;
	int tagged, last;
	uint8_t opcode;
	uint32_t stag;
	uint64_t to;
	uint32_t qn, msn, mo;
	int op;			/* op_rec index (RTR messages are operations too) */
	int op_seq;		/* 0 = first message of the op */
	int rtr;
	uint32_t payload;	/* ULP payload octets counted in op bytes */
	/* filled by capture.c */
	int listed, full, shown;
	int head16;		/* its first 16 ULPDU octets after the DDP header captured
				 * (a whole NVMe CQE) */
	uint32_t first_frame, frame;
	uint32_t arrived;	/* first capture of the last of its octets to arrive */
	int out_op;		/* index in the truth operations array, -1 */
};

struct op_rec {
	int conn, dir;		/* dir = initiator side of the operation */
	enum op_kind kind;
	uint8_t opcode;
	uint32_t stag;		/* write: sink STag; read: sink STag; atomic: remote STag */
	uint64_t to;
	uint32_t qn, msn;	/* untagged ops and read/atomic request */
	uint32_t inval_stag;
	uint64_t immediate;
	uint32_t atomic_req_id;
	uint64_t atomic_orig;
	uint8_t term_layer, term_etype, term_errcode;
	int rtr;		/* the RTR message of a peer-to-peer set-up (RFC 6581 7) */
	int nfpdu;		/* FPDUs generated so far */
	int finished;		/* last message generated */
	/* read/atomic bookkeeping */
	uint32_t rd_size, rd_src_stag;
	uint64_t rd_src_to;
	uint8_t req_hdr[64];	/* request ULPDU (for Terminate embedding) */
	uint16_t req_ulen;
	/* What a decoder can prove of a read's or atomic's pairing (proof.c,
	 * docs/semantics.md "Which request a response answers") */
	int part;		/* PART_*: what the truth lists of it */
	int pairing;		/* PAIR_*: how its request and response were paired */
	int resp_part;		/* RESP_*: where its responses go */
	int resp_of;		/* RESP_MOVED: the op whose request they answer */
	uint32_t hid_frame;	/* RESP_HIDDEN / PART_HIDDEN: the frame of its request */
};

enum {
	PART_WHOLE = 0,
	PART_RESPONSE_UNKNOWN,	/* its request alone: perhaps answered by a response not proven */
	PART_AMBIGUOUS,		/* answered by a response proven to its frame only */
	PART_REQUEST_MISSING,	/* responses alone: their request not proven */
	PART_HIDDEN,		/* responses to a request hidden in the frame hid_frame */
	PART_BEFORE_CAPTURE,	/* responses alone, their request proven to precede the capture */
};

enum { RESP_OWN = 0, RESP_MISSING, RESP_MOVED, RESP_HIDDEN, RESP_BEFORE };

/* How a pairing is proven (the decoder's enum iws_pairing, docs/semantics.md). */
enum { PAIR_NONE = 0, PAIR_ORDER, PAIR_KEY, PAIR_FRAME, PAIR_CLOSE, PAIR_BEFORE_CAPTURE };

struct dir {
	uint32_t isn;
	/* send side: stream bytes [base, base + len); nxt = base + len */
	uint8_t *buf;
	uint64_t base;
	size_t len, cap;
	uint64_t sent;		/* next offset not yet transmitted */
	uint64_t *bounds;	/* unit ends not yet transmitted (SEG_ALIGNED) */
	size_t nbounds, capbounds;
	int fin;		/* FIN transmitted */
	int reset;		/* this side sent an RST: it sends nothing more, ACKs included */
	uint16_t ip_id;
	uint32_t tsval;
	uint16_t mss;		/* max TCP payload per segment */
	enum seg_mode mode;
	uint32_t ddp_max;	/* max DDP payload per segment (SEG_STREAM/SUPER) */
	uint32_t aligned_ddp;	/* SEG_ALIGNED: DDP payload per FPDU, not from the MSS (0: from
				 * it): an FPDU longer than a segment goes on in the next ones
				 * (siw: 1444 + 4 octets; with GSO, several segments) */
	uint32_t super_max;
	/* receive side (the peer receiving this direction) */
	uint64_t rcv_nxt;
	uint64_t ooo_s[32], ooo_e[32];
	int nooo;
	int unacked;
	int ack_now;
	/* the window the receiver of this direction advertises (in its
	 * segments' window field): EST_WIN unless win_set */
	int win_set;
	uint16_t win;
	/* MPA / DDP */
	int full_op;
	uint64_t seqstart;
	int markers, crc;
	unsigned mk_dev;	/* MKDEV_*: how this sender breaks the marker rules */
	uint32_t mk_off;	/* MKDEV_OFFSET: grid shift, a multiple of 4 */
	uint32_t msn[4];	/* next MSN per queue, starting at 1 */
	uint64_t nfpdu;		/* FPDUs posted in this direction */
	uint64_t corrupt_at;	/* 1-based FPDU ordinal to corrupt, 0 none */
	int corrupt_kind;	/* 1: CRC field, 2: a payload octet */
};

struct conn_cfg {
	int ipver, vlan;
	int host[2];		/* host numbers (addresses) of initiator, responder */
	uint16_t port[2];	/* 0: pick an ephemeral port (initiator) */
	int tcp_ts;
	int fixed_isn;
	uint32_t isn[2];
	enum seg_mode mode[2];
	uint32_t ddp_max[2];
	uint32_t super_max[2];
	uint32_t aligned_ddp[2];
	int rdreq_le[2];	/* this sender writes Read Request fields least significant
				 * octet first (a deviant stack, issue 22) */
	uint16_t mss;		/* 0: derive from MTU 1500 */
	/* MPA */
	int rev;		/* 1 or 2 */
	int enhanced;		/* S flag (rev 2) */
	int req_m, req_c, rep_m, rep_c;
	unsigned mk_dev[2];	/* MKDEV_* of the i2r / r2i sender (needs markers) */
	uint32_t mk_off[2];
	int reject;
	int p2p;
	unsigned rtr_offer;	/* bit mask of (1 << RTR_x) offered in the Request */
	enum rtr_type rtr;	/* RTR chosen in the Reply */
	uint16_t ird, ord;
	const char *req_pd, *rep_pd;	/* extra private data (after the enhanced word) */
	const uint8_t *req_pdb, *rep_pdb;	/* ... or binary, when its length is set */
	uint16_t req_pdb_len, rep_pdb_len;
	uint64_t rtt;		/* ns */
};

struct conn {
	int idx;
	struct conn_cfg cfg;
	uint8_t mac[2][6];
	uint8_t ip[2][16];
	uint16_t port[2];
	struct dir d[2];
	uint64_t req_off, req_end, rep_off, rep_end;	/* MPA frames, 0 if none */
	int mpa_started;
	int rtr_fpdu[2];	/* RTR FPDU indices, -1 */
	int rtr_op;		/* the RTR operation (op_rec index), -1 */
	int pending_rd[64];	/* outstanding read/atomic ops awaiting responses */
	int npending_rd;
	/* filled by capture.c */
	int qp;			/* tcp.stream index, -1 if no frame captured */
	uint32_t first_frame_no;
};

/*
 * An NVMe over Fabrics command (scen_nvme.c): the RDMA operations that carry
 * it, for the truth file's `nvme` list. Names and status names are the
 * generator's own (NVMe Base 2.0, NVM Command Set 1.0, NVMe-oF 1.1).
 */
#define NVME_REC_MAX_DATA 4

struct nvme_rec {
	int conn;
	int qid;
	uint16_t cid;
	uint8_t opcode;
	int fabrics;
	uint8_t fctype;
	const char *op;
	int has_nsid, has_lba;
	uint32_t nsid;
	uint64_t slba;
	uint32_t blocks;	/* logical blocks: the wire's 0's based NLB + 1 */
	uint32_t icd;		/* in-capsule data octets */
	int cmd_op;		/* op_rec of the command capsule (Send) */
	int resp_op;		/* op_rec of the response capsule, -1: never answered */
	int data_op[NVME_REC_MAX_DATA];	/* RDMA Writes or Reads of its data */
	int ndata;
	uint16_t status;	/* 15-bit status field */
	const char *status_name;
};

/*
 * An RPC over RDMA (scen_ulp.c, RFC 8166): its call and reply Sends and the
 * RDMA operations that moved its chunks, for the truth file's `rpc` list.
 * Names are the generator's own (RFC 1813 §3.3, RFC 8881 §18).
 */
#define RPC_REC_MAX_DATA 4
#define RPC_REC_MAX_OPS 8

struct rpc_rec {
	int conn;
	uint32_t xid, prog, vers, proc;
	const char *proc_name;
	const char *ops[RPC_REC_MAX_OPS];	/* NFSv4 COMPOUND operations */
	int nops;
	int has_io;
	uint64_t offset;
	uint32_t count;
	const char *chunk;	/* "read", "write", "reply", NULL: inline */
	int call_op, reply_op;	/* op_rec of the Sends */
	int data_op[RPC_REC_MAX_DATA];
	int ndata;
};

/*
 * The interop doctor's truth (scen_doctor.c): each occurrence of a rule of
 * iwarpscope's catalogue a doctor scenario puts on the wire, by the
 * catalogue's id, and where it shows: an FPDU's frame, a TCP frame, the MPA
 * Request's or Reply's frame, an operation's last FPDU's frame, or (for what
 * a decoder finds from many FPDUs, the marker deviations) somewhere among
 * the direction's FPDUs.
 */
enum doctor_ref { DR_FPDU, DR_FRAME, DR_REQ, DR_REP, DR_OPLAST };

struct doctor_rec {
	const char *rule;
	int conn, dir;		/* dir: the side whose sender broke the rule */
	enum doctor_ref ref;
	size_t idx;		/* g->fpdus, g->frames or g->ops index */
	int cause;		/* a Terminate: the g->fpdus index it names, -1 none */
};

struct gen_counts {
	uint64_t ops[OP_NKINDS];
	uint64_t bytes[OP_NKINDS];
	uint64_t fpdus;
	uint64_t frames;
};

#define GEN_MAX_CONNS 64

struct gen {
	const char *scenario;
	uint64_t seed;
	const char *description;
	struct prng rng;
	enum pcap_fmt fmt;
	uint32_t snaplen;
	uint64_t ts_quantum;	/* 1000 for microsecond captures */
	uint64_t capture_start;	/* frames before this time are not captured */
	uint64_t capture_end;	/* nor frames from this time on (0: none): the capture
				 * stopped while traffic went on (a ring buffer's file) */
	int ipver, vlan;	/* for the truth file */

	struct conn *conns[GEN_MAX_CONNS];
	int nconns;

	struct frame *frames;
	size_t nframes, capframes;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	struct fpdu_rec *fpdus;
	size_t nfpdus, capfpdus;
	struct marker_rec *markers;
	size_t nmarkers, capmarkers;
	struct op_rec *ops;
	size_t nops, capops;
	struct nvme_rec *nvme;
	size_t nnvme, capnvme;
	struct rpc_rec *rpc;
	size_t nrpc, caprpc;
	uint32_t order;
	/* doctor scenarios: the occurrences injected, and whether the truth
	 * also lists where FPDUs sit in TCP segments (split, unaligned, packed,
	 * longer than the MSS) */
	struct doctor_rec *doctor;
	size_t ndoctor, capdoctor;
	int doctor_framing;

	/* streaming (bench): frames go straight to the writer */
	int streaming;
	struct pcapw *w;
	uint64_t last_ts;
	struct gen_counts counts;
	uint8_t *scratch;	/* one frame */
};

#if defined(__GNUC__) || defined(__clang__)
#define GEN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GEN_PRINTF(f, a)
#endif

/* gen.c */
void gen_init(struct gen *g, const char *scenario, uint64_t seed);
void gen_free(struct gen *g);
void *xrealloc(void *p, size_t n);
_Noreturn void gen_die(const char *fmt, ...) GEN_PRINTF(1, 2);
struct conn *conn_new(struct gen *g, const struct conn_cfg *cfg);
struct fpdu_rec *gen_new_fpdu(struct gen *g);
int gen_new_op(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint8_t opcode);
struct nvme_rec *gen_new_nvme(struct gen *g);
struct rpc_rec *gen_new_rpc(struct gen *g);
void gen_add_marker(struct gen *g, uint64_t off, uint16_t fpduptr);
uint32_t dir_seq(const struct dir *d, uint64_t off);
const char *op_kind_name(enum op_kind k);

#endif
