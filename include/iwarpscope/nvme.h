// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme.h - NVMe over Fabrics on iWARP (NVMe/RDMA, TCP port 4420).
 *
 * The RDMA transport binding (NVMe-oF 1.1, "RDMA Transport"; NVMe RDMA
 * Transport Specification 1.0) carries:
 *   command capsules   host -> controller in an RDMA Send: the 64-octet
 *                      Submission Queue Entry, then optional in-capsule data;
 *   response capsules  controller -> host in an RDMA Send or Send with
 *                      Invalidate: the 16-octet Completion Queue Entry;
 *   data               the controller moves it: RDMA Write into the host's
 *                      buffer (controller-to-host, e.g. Read) or RDMA Read
 *                      Request/Response from it (host-to-controller, e.g.
 *                      Write), addressed by the Keyed SGL Data Block
 *                      descriptor's key (the STag) and address (the TO).
 * On iWARP the host is the MPA initiator (it connects to the target's port),
 * and the rdma_cm private data of the MPA Request/Reply carries the queue id.
 *
 * Every NVMe structure is little-endian (NVMe Base 2.0, "Conventions"),
 * unlike the big-endian DDP/RDMAP headers around it.
 *
 * Two layers, like the rest of the core:
 *   parsers  (const uint8_t *, size_t) -> struct iws_result + a struct with
 *            every field's value and offset (struct iws_field);
 *   tracker  per connection: fed every DDP segment in capture order, it ties
 *            each command to its data (by STag) and its completion (by CID)
 *            and reports it once through a callback.
 */
#ifndef IWARPSCOPE_NVME_H
#define IWARPSCOPE_NVME_H

#include "mpa.h"   /* IWS_DIR_I2R, IWS_DIR_R2I */
#include "rdmap.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_NVME_RDMA_PORT 4420        /* NVMe-oF 1.1: the IANA port for NVMe/RDMA */
#define IWS_NVME_SQE_LEN 64
#define IWS_NVME_CQE_LEN 16
#define IWS_NVME_CONNECT_DATA_LEN 1024
#define IWS_NVME_NQN_FIELD_LEN 256
#define IWS_NVME_CM_REQ_LEN 32         /* rdma_cm private data, NVMe RDMA transport */
#define IWS_NVME_CM_REP_LEN 32

enum iws_nvme_queue {
	IWS_NVME_QUEUE_UNKNOWN = 0,    /* no Connect, CM data or CQE said which */
	IWS_NVME_QUEUE_ADMIN,          /* qid 0 */
	IWS_NVME_QUEUE_IO,             /* qid >= 1 */
};

/* Opcodes the decoder looks into (names for all of them: names.h). */
#define IWS_NVME_OPC_FABRICS 0x7F
#define IWS_NVME_IO_FLUSH 0x00
#define IWS_NVME_IO_WRITE 0x01
#define IWS_NVME_IO_READ 0x02
#define IWS_NVME_IO_WRITE_UNCOR 0x04
#define IWS_NVME_IO_COMPARE 0x05
#define IWS_NVME_IO_WRITE_ZEROES 0x08
#define IWS_NVME_IO_DSM 0x09
#define IWS_NVME_IO_VERIFY 0x0C
#define IWS_NVME_ADM_GET_LOG_PAGE 0x02
#define IWS_NVME_ADM_IDENTIFY 0x06
#define IWS_NVME_ADM_ABORT 0x08
#define IWS_NVME_ADM_SET_FEATURES 0x09
#define IWS_NVME_ADM_GET_FEATURES 0x0A
#define IWS_NVME_ADM_ASYNC_EVENT 0x0C
#define IWS_NVME_ADM_KEEP_ALIVE 0x18
#define IWS_NVME_FCT_PROPERTY_SET 0x00
#define IWS_NVME_FCT_CONNECT 0x01
#define IWS_NVME_FCT_PROPERTY_GET 0x04
#define IWS_NVME_FCT_AUTH_SEND 0x05
#define IWS_NVME_FCT_AUTH_RECV 0x06
#define IWS_NVME_FCT_DISCONNECT 0x08

/* SGL descriptor types and sub types (NVMe Base 2.0, "SGL Descriptor Type"). */
#define IWS_NVME_SGL_DATA_BLOCK 0x0
#define IWS_NVME_SGL_BIT_BUCKET 0x1
#define IWS_NVME_SGL_SEGMENT 0x2
#define IWS_NVME_SGL_LAST_SEGMENT 0x3
#define IWS_NVME_SGL_KEYED_DATA_BLOCK 0x4
#define IWS_NVME_SGL_TRANSPORT_DATA_BLOCK 0x5
#define IWS_NVME_SGL_VENDOR 0xF
#define IWS_NVME_SGL_SUB_ADDRESS 0x0
#define IWS_NVME_SGL_SUB_OFFSET 0x1
#define IWS_NVME_SGL_SUB_INVALIDATE 0xF   /* RDMA: Keyed, please Send with Invalidate */

/* The SGL descriptor in DPTR (SQE octets 24-39). */
struct iws_nvme_sgl {
	uint8_t id;                 /* SGL Identifier octet: type << 4 | sub type */
	uint8_t type, subtype;
	bool keyed;                 /* Keyed SGL Data Block: length is 3 octets, then a key */
	bool invalidate;            /* keyed, sub type Fh: the host asks for remote invalidation */
	bool in_capsule;            /* Data Block, sub type Offset: the data is in the capsule */
	uint64_t addr;              /* address, or offset into the in-capsule data */
	uint32_t length;
	uint32_t key;               /* keyed: the STag of the host buffer */
	struct iws_field f_addr, f_length, f_key, f_id;
};

/* Read, Write, Compare, Write Zeroes, Write Uncorrectable, Verify
 * (NVM Command Set 1.0: CDW10-11 SLBA, CDW12 bits 15:0 NLB, 0's based). */
struct iws_nvme_rw {
	bool valid;
	uint64_t slba;
	uint16_t nlb;               /* as on the wire: number of LBAs - 1 */
	uint16_t control;           /* CDW12 bits 31:16 (LR, FUA, PRINFO, DTYPE) */
	uint32_t dsmgmt;            /* CDW13 */
	struct iws_field f_slba, f_nlb, f_control, f_dsmgmt;
};

/* Dataset Management (NVM Command Set 1.0): CDW10 NR (0's based), CDW11 attributes. */
struct iws_nvme_dsm {
	bool valid;
	uint8_t nr;
	uint32_t attributes;
	struct iws_field f_nr, f_attributes;
};

/* Admin command fields (NVMe Base 2.0, each command's CDW10-15). */
struct iws_nvme_admin {
	bool identify, features, log_page, abort;
	uint8_t cns;                /* Identify: CDW10 bits 7:0 */
	uint16_t cntid;             /* Identify: CDW10 bits 31:16 */
	uint8_t fid;                /* Get/Set Features: CDW10 bits 7:0 */
	uint8_t sel;                /* Get Features: CDW10 bits 10:8 */
	bool sv;                    /* Set Features: CDW10 bit 31 */
	uint32_t dw11;              /* Features: CDW11 (value) */
	uint8_t lid, lsp;           /* Get Log Page: CDW10 bits 7:0, 14:8 */
	bool rae;                   /* Get Log Page: CDW10 bit 15 */
	uint32_t numd;              /* Get Log Page: NUMDU:NUMDL, 0's based dwords */
	uint64_t lpo;               /* Get Log Page: CDW12-13 */
	uint16_t abort_sqid, abort_cid; /* Abort: CDW10 */
	struct iws_field f_cns, f_cntid, f_fid, f_dw11, f_lid, f_numdl, f_numdu, f_lpo, f_abort;
};

/* Fabrics commands (NVMe-oF 1.1 "Fabrics Command Set": Connect, Property
 * Get/Set, Authentication Send/Receive): FCTYPE at octet 4. */
struct iws_nvme_fabrics {
	uint8_t fctype;
	/* Connect: CDW10 RECFMT, QID; CDW11 SQSIZE (0's based), CATTR; CDW12 KATO (ms) */
	uint16_t recfmt, qid, sqsize;
	uint8_t cattr;
	uint32_t kato;
	/* Property Get/Set: CDW10 ATTRIB (bits 2:0: 0 = 4 octets, 1 = 8), CDW11 OFST, CDW12-13 VALUE */
	uint8_t attrib;
	uint32_t prop_offset;
	uint64_t prop_value;
	/* Authentication Send/Receive: SECP, SPSP0/1, CDW11 TL or AL */
	uint8_t secp, spsp0, spsp1;
	uint32_t auth_len;
	struct iws_field f_fctype, f_recfmt, f_qid, f_sqsize, f_cattr, f_kato, f_attrib,
		f_prop_offset, f_prop_value, f_secp, f_auth_len;
};

/* Warnings of the capsule parsers: decodable, but not as the specs say. */
#define IWS_NVME_W_PSDT_PRP      0x01 /* PSDT 00b: PRPs, which no fabric carries */
#define IWS_NVME_W_FUSE          0x02 /* FUSE 11b (reserved) */
#define IWS_NVME_W_ICD_SHORT     0x04 /* the offset descriptor reaches past the capsule */
#define IWS_NVME_W_ICD_UNUSED    0x08 /* in-capsule octets the descriptor does not describe */
#define IWS_NVME_W_SGL_SUBTYPE   0x10 /* sub type not defined for its descriptor type */
#define IWS_NVME_W_TRAILING      0x20 /* response capsule longer than a CQE */

/* A command capsule: the SQE (NVMe Base 2.0 "Common Command Format";
 * NVMe-oF 1.1 "Capsules") and what follows it. */
struct iws_nvme_command {
	uint8_t opcode;
	uint8_t flags;              /* octet 1: FUSE bits 1:0, PSDT bits 7:6 */
	uint8_t fuse, psdt;
	uint16_t cid;
	uint32_t nsid;              /* not a field of Fabrics commands (octet 4 is FCTYPE) */
	uint64_t mptr;
	uint32_t cdw[6];            /* CDW10..CDW15 as read */
	struct iws_nvme_sgl sgl;
	enum iws_nvme_queue queue;  /* the queue the decode assumed */
	bool fabrics;
	struct iws_nvme_fabrics fab;   /* fabrics */
	struct iws_nvme_rw rw;         /* I/O (or unknown queue): LBA commands */
	struct iws_nvme_dsm dsm;
	struct iws_nvme_admin adm;     /* admin (or unknown queue) */
	uint32_t icd_len;           /* octets after the SQE: in-capsule data */
	uint32_t warnings;          /* IWS_NVME_W_* */
	uint32_t captured;          /* octets of the SQE captured (64: all; fewer when a
				     * snapshot length cut it: iws_nvme_parse_command_cut) */
	struct iws_field f_opcode, f_flags, f_cid, f_nsid, f_mptr, f_dptr, f_cdw10, f_icd;
};

/* The Connect command's data (NVMe-oF 1.1 "Connect Command Data"). */
struct iws_nvme_connect_data {
	uint8_t hostid[16];
	uint16_t cntlid;            /* FFFFh: any (dynamic controller model) */
	char subnqn[IWS_NVME_NQN_FIELD_LEN + 1];
	char hostnqn[IWS_NVME_NQN_FIELD_LEN + 1];
	struct iws_field f_hostid, f_cntlid, f_subnqn, f_hostnqn;
};

/* A response capsule: the CQE (NVMe Base 2.0 "Completion Queue Entry"). */
struct iws_nvme_completion {
	uint32_t dw0, dw1;          /* command specific (Connect: CNTLID; Property Get: value) */
	uint16_t sqhd, sqid, cid;
	bool phase;
	uint16_t status;            /* the 15-bit Status Field (DW3 bits 31:17) */
	uint8_t sc, sct, crd;
	bool more, dnr;
	uint32_t warnings;
	struct iws_field f_dw0, f_dw1, f_sqhd, f_sqid, f_cid, f_status;
};

/* rdma_cm private data of the MPA Request (after the MPA v2 enhanced
 * word) and Reply (NVMe RDMA transport, "RDMA_CM_REQUEST"/"_ACCEPT"). */
struct iws_nvme_cm_req {
	uint16_t recfmt, qid, hrqsize, hsqsize;
	struct iws_field f_recfmt, f_qid, f_hrqsize, f_hsqsize;
};

struct iws_nvme_cm_rep {
	uint16_t recfmt, crqsize;
	struct iws_field f_recfmt, f_crqsize;
};

/*
 * Parse a command capsule (the whole RDMA Send payload as captured). queue
 * says how to read the opcode: admin and I/O opcodes overlap (02h is Get Log
 * Page on the admin queue, Read on an I/O queue); with IWS_NVME_QUEUE_UNKNOWN
 * both readings are decoded (adm and rw/dsm). NEED_MORE below 64 octets;
 * MALFORMED for PSDT 11b or a reserved SGL descriptor type.
 */
struct iws_result iws_nvme_parse_command(const uint8_t *buf, size_t len, enum iws_nvme_queue queue,
					 struct iws_nvme_command *out);
/* The first `have` octets of an SQE a snapshot length cut (4 <= have < 64):
 * opcode, flags and CID always; NSID (Fabrics: FCTYPE) from 8 octets; the
 * SGL from 40; CDW10-15 from 64 (their fields otherwise zero, unknown).
 * c->captured says how many octets were there. */
struct iws_result iws_nvme_parse_command_cut(const uint8_t *buf, size_t have, enum iws_nvme_queue queue,
					     struct iws_nvme_command *c);

/* A caller that holds only the head of a longer capsule (the SQE and what it
 * needs of the data) sets the capsule's real length: icd_len and the
 * in-capsule warnings follow it. */
void iws_nvme_command_capsule_len(struct iws_nvme_command *c, uint32_t capsule_len);

/* Parse 1024 octets of Connect data. MALFORMED when an NQN field is not
 * NUL-terminated within its 256 octets. */
struct iws_result iws_nvme_parse_connect_data(const uint8_t *buf, size_t len,
					      struct iws_nvme_connect_data *out);

/* Parse a response capsule. NEED_MORE below 16 octets; MALFORMED for a
 * reserved Status Code Type (4h-6h). */
struct iws_result iws_nvme_parse_completion(const uint8_t *buf, size_t len,
					    struct iws_nvme_completion *out);

/* rdma_cm private data; MALFORMED when RECFMT is not 0 (the only format). */
struct iws_result iws_nvme_parse_cm_req(const uint8_t *buf, size_t len, struct iws_nvme_cm_req *out);
struct iws_result iws_nvme_parse_cm_rep(const uint8_t *buf, size_t len, struct iws_nvme_cm_rep *out);

/* The contract name of a command ("read", "get_log_page", "connect", ...) and
 * its title; "unknown" / "Unknown" when the opcode has no name on that queue
 * or the queue is unknown and the opcode means different things on each. */
const char *iws_nvme_op_key(enum iws_nvme_queue q, uint8_t opcode, bool fabrics, uint8_t fctype);
const char *iws_nvme_op_title(enum iws_nvme_queue q, uint8_t opcode, bool fabrics, uint8_t fctype);

/* ---- the command tracker ---- */

/* One DDP segment of the connection, in capture order. */
struct iws_nvme_seg {
	uint8_t dir;                /* IWS_DIR_I2R (MPA initiator = host) or IWS_DIR_R2I */
	uint64_t first_frame;       /* earliest frame carrying an octet of this FPDU */
	int64_t first_ts_ns;
	uint64_t frame;             /* frame where the FPDU became complete in order */
	int64_t ts_ns;
	const struct iws_msg *msg;  /* decoded DDP/RDMAP header (rdmap.h) */
	const uint8_t *payload;     /* ULP payload octets (msg->payload_len on the wire) */
	uint32_t payload_cap;       /* how many of them were captured (snaplen may cut) */
};

/* How a command's data moves (NVMe-oF RDMA transport). */
enum iws_nvme_xfer {
	IWS_NVME_XFER_NONE = 0,
	IWS_NVME_XFER_IN_CAPSULE,   /* after the SQE in the command capsule */
	IWS_NVME_XFER_C2H,          /* controller RDMA Writes into the host's keyed buffer */
	IWS_NVME_XFER_H2C,          /* controller RDMA Reads the host's keyed buffer */
};
const char *iws_nvme_xfer_name(enum iws_nvme_xfer x);

/* Why a command is not complete, or what is odd about it. */
#define IWS_NVMEF_UNFINISHED     0x0001 /* the capture ended first */
#define IWS_NVMEF_ABORTED        0x0002 /* the connection ended first */
#define IWS_NVMEF_GAP            0x0004 /* octets never captured may hold its completion or data */
#define IWS_NVMEF_EVICTED        0x0008 /* given up: in-flight limit */
#define IWS_NVMEF_REPLACED       0x0010 /* the host reused its CID before a completion was seen */
#define IWS_NVMEF_NO_COMMAND     0x0020 /* a completion whose command is not in the capture */
#define IWS_NVMEF_CID_REUSE      0x0040 /* issued while a command with its CID was outstanding */
#define IWS_NVMEF_SQID_MISMATCH  0x0080 /* the CQE's SQ Identifier is not the queue's id */
#define IWS_NVMEF_INVAL_MISMATCH 0x0100 /* Send with Invalidate of a STag that is not its key */
#define IWS_NVMEF_DATA_MISMATCH  0x0200 /* successful, but data moved != the SGL length */
#define IWS_NVMEF_QUEUE_UNKNOWN  0x0400 /* no Connect, CM data or CQE told its queue */
#define IWS_NVMEF_DATA_TRUNCATED 0x0800 /* in-capsule data cut by the snapshot length */
#define IWS_NVMEF_SQE_TRUNCATED  0x1000 /* its SQE cut by the snapshot length: the fields
					 * beyond the cut (SGL, CDW10-15) are not known;
					 * SLBA and NLB are kept when CDW10-12 were captured */
/* An Asynchronous Event Request still outstanding when the connection or the
 * capture ended (instead of aborted/unfinished): outstanding by design, the
 * controller completes it only when an event occurs (NVMe Base 2.0 §5.2). */
#define IWS_NVMEF_AWAITS_EVENT   0x2000
/* Still outstanding at the end after a response capsule the snapshot length
 * cut short of its Command Identifier (a 96-octet slice keeps 10 of the CQE's
 * 16 octets): that completion may be its own (instead of aborted/unfinished). */
#define IWS_NVMEF_COMPLETION_CUT 0x4000
#define IWS_NVMEF_INCOMPLETE_MASK \
	(IWS_NVMEF_UNFINISHED | IWS_NVMEF_ABORTED | IWS_NVMEF_GAP | IWS_NVMEF_EVICTED | \
	 IWS_NVMEF_REPLACED | IWS_NVMEF_NO_COMMAND | IWS_NVMEF_COMPLETION_CUT)

/* One NVMe command, reported once. */
struct iws_nvme_cmd {
	uint32_t qp;                /* the caller's connection number (iws_nvme_tracker_new) */
	uint64_t id;                /* 1, 2, ... per tracker, in the order capsules completed
				     * (a completion without its command gets the next one) */
	int32_t qid;                /* -1: unknown */
	enum iws_nvme_queue queue;
	uint16_t cid;
	uint8_t opcode;
	bool fabrics;
	uint8_t fctype;
	const char *op;             /* iws_nvme_op_key(): "read", "connect", ... "unknown" */
	const char *title;          /* iws_nvme_op_title() */
	bool has_nsid;              /* not for Fabrics commands */
	uint32_t nsid;
	bool has_lba;               /* read, write, compare, write_zeroes, ... */
	uint64_t slba;
	uint16_t nlb;               /* NLB as on the wire (CDW12 bits 15:00): 0's based,
				     * the number nvme-cli shows */
	uint32_t blocks;            /* logical blocks: nlb + 1 */
	struct iws_nvme_command sqe; /* everything the capsule said (offsets: its Send payload) */
	/* An SQE a snapshot length cut (IWS_NVMEF_SQE_TRUNCATED): its octets as
	 * captured, for a front end to show where the capsule's first segment
	 * is not the frame it is shown in. */
	uint8_t sqe_cut[IWS_NVME_SQE_LEN];
	uint8_t sqe_cut_len;
	enum iws_nvme_xfer xfer;
	uint64_t bytes;             /* data moved: in-capsule octets or RDMA payload */
	uint32_t data_segments;     /* DDP segments of its RDMA data (Read Request included) */
	uint64_t first_frame;       /* the command capsule's first frame */
	uint64_t last_frame;        /* the completion's frame (else its last segment's) */
	int64_t start_ns, end_ns;   /* times of those two frames */
	bool has_completion;
	int64_t latency_ns;         /* end - start; 0 without a completion */
	int64_t data_ns;            /* first to last RDMA data message; 0 for none / in-capsule */
	uint64_t capsule_frame;     /* where the command capsule completed */
	uint64_t data_first_frame, data_last_frame; /* 0: no RDMA data */
	struct iws_nvme_completion cqe;
	uint16_t status;            /* cqe.status, 0 without a completion */
	const char *status_name;    /* NULL without a completion or for an unnamed code */
	bool send_inv;              /* the response came in a Send with Invalidate */
	uint32_t inval_stag;
	bool complete;
	uint32_t flags;             /* IWS_NVMEF_* */
};

/*
 * An NVMe command's numbers in a compact record, for a front end that keeps
 * one per command of a whole capture (struct iws_nvme_cmd is ~860 octets,
 * most of it the SQE and CQE): what the command lists, the statistics
 * (iws_nvme_stats_add) and the links between its frames read. The SQE and
 * CQE themselves are left out (a front end shows them from the capsule and
 * the response). Frames are 32-bit, as in struct iws_op_brief.
 */
struct iws_nvme_brief {
	uint64_t id;
	uint32_t qp;
	int32_t qid;                /* -1: unknown */
	uint16_t cid;
	uint16_t status;
	uint8_t xfer;               /* enum iws_nvme_xfer */
	bool fabrics, has_completion, complete, send_inv;
	const char *op, *title;     /* static strings (iws_nvme_op_key/title) */
	uint32_t first_frame, capsule_frame, last_frame, data_first_frame, data_last_frame;
	int64_t start_ns, end_ns, latency_ns, data_ns;
	uint64_t bytes;
	uint32_t flags;             /* IWS_NVMEF_* */
	uint32_t capsule_len;       /* the capsule's length on the wire: SQE + in-capsule data */
};

/* The brief of c. */
void iws_nvme_brief_of(const struct iws_nvme_cmd *c, struct iws_nvme_brief *b);
/* A command with the brief's numbers, every other field zero: what
 * iws_nvme_stats_add needs. */
void iws_nvme_cmd_of_brief(const struct iws_nvme_brief *b, struct iws_nvme_cmd *c);

typedef void (*iws_nvme_cmd_cb)(void *ctx, const struct iws_nvme_cmd *cmd);

struct iws_nvme_limits {
	uint32_t max_inflight;      /* outstanding commands per connection; 0: default (1024) */
};

enum iws_nvme_qid_src {
	IWS_NVME_QID_NONE = 0,
	IWS_NVME_QID_CONNECT,       /* the Fabrics Connect on this connection */
	IWS_NVME_QID_CM,            /* the rdma_cm private data of the MPA Request */
	IWS_NVME_QID_CQE,           /* a completion's SQ Identifier */
};

/* What the connection said about itself, for the report. */
struct iws_nvme_qp_info {
	int32_t qid;                /* -1: unknown */
	enum iws_nvme_qid_src qid_src;
	bool has_connect;
	uint16_t sqsize;            /* Connect SQSIZE (0's based) */
	uint32_t kato;              /* Connect KATO, ms */
	bool has_connect_data;      /* in the capsule or pulled by RDMA Read */
	struct iws_nvme_connect_data cdata;
	bool has_cntlid;            /* the controller the Connect's completion named */
	uint16_t cntlid;
	uint16_t connect_status;
	bool has_cm;
	struct iws_nvme_cm_req cm;
};

struct iws_nvme_counts {
	uint64_t segments;          /* DDP segments fed */
	uint64_t capsules;          /* command capsules decoded */
	uint64_t responses;         /* response capsules decoded */
	uint64_t reported, incomplete, errors;  /* errors: completed with a non-zero status */
	uint64_t orphan_responses;  /* completions without a command */
	uint64_t cid_reuse, evicted;
	uint64_t undecodable;       /* Sends that were no capsule (short, cut, malformed) */
	uint64_t unmatched_data;    /* RDMA data messages no command's key names */
	uint64_t bytes_in_capsule, bytes_c2h, bytes_h2c;
	uint32_t inflight, max_inflight_seen;
};

struct iws_nvme_tracker;

/* NULL on allocation failure. cb receives every command exactly once. */
struct iws_nvme_tracker *iws_nvme_tracker_new(const struct iws_nvme_limits *lim, uint32_t qp,
					      iws_nvme_cmd_cb cb, void *ctx);
void iws_nvme_tracker_free(struct iws_nvme_tracker *t);

/* The queue id from the MPA Request's rdma_cm private data, if the front end
 * decoded it: used until a Connect on the connection says otherwise. */
void iws_nvme_tracker_set_cm(struct iws_nvme_tracker *t, const struct iws_nvme_cm_req *req);

/* Feed one DDP segment (every opcode; what is not NVMe is counted and skipped). */
void iws_nvme_tracker_segment(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s);

/* Octets of direction dir were never captured: partial capsules are dropped,
 * and commands outstanding now are marked IWS_NVMEF_GAP if they never complete. */
void iws_nvme_tracker_gap(struct iws_nvme_tracker *t, uint8_t dir);

/* The capture (IWS_NVMEF_UNFINISHED) or the connection (IWS_NVMEF_ABORTED)
 * ended: report every outstanding command as incomplete, oldest first. */
void iws_nvme_tracker_finish(struct iws_nvme_tracker *t, uint32_t flag);

/* For output in start order: the (start_ns, first_frame) of the earliest
 * command still to be reported - outstanding, or a capsule still arriving in
 * several segments. False when there is none: everything this tracker will
 * report from now on starts at a later segment. */
bool iws_nvme_tracker_pending(const struct iws_nvme_tracker *t, int64_t *start_ns,
			      uint64_t *first_frame);

const struct iws_nvme_qp_info *iws_nvme_tracker_info(const struct iws_nvme_tracker *t);
const struct iws_nvme_counts *iws_nvme_tracker_counts(const struct iws_nvme_tracker *t);

/* What the tracker made of the last segment fed, for a front end that shows
 * each segment with its command (the plugin): the command's id is the one
 * its report will carry. */
enum iws_nvme_role {
	IWS_NVME_ROLE_NONE = 0,     /* not NVMe, or nothing it could be tied to */
	IWS_NVME_ROLE_COMMAND,      /* completed a command capsule */
	IWS_NVME_ROLE_COMMAND_PART, /* a segment of a capsule still arriving */
	IWS_NVME_ROLE_RESPONSE,     /* a response capsule (cmd_id: its command, or an orphan) */
	IWS_NVME_ROLE_DATA,         /* RDMA data (Write, Read Request or Response) of cmd_id */
};

struct iws_nvme_note {
	enum iws_nvme_role role;
	uint64_t cmd_id;            /* 0: none */
};

const struct iws_nvme_note *iws_nvme_tracker_note(const struct iws_nvme_tracker *t);

/* ---- one connection, for a front end: recognition, then the tracker ---- */

/*
 * Both front ends see a connection as the stream engine's PDUs and events
 * (stream.h); this object decides from them, by content, whether the
 * connection carries NVMe/RDMA, on any port:
 *   - the MPA Request's private data is the NVMe RDMA transport's rdma_cm
 *     request (RECFMT 0, 32 octets, reserved octets zero), or
 *   - a Send parses as a command capsule (an SQE with an SGL, NVMe-oF 1.1
 *     "Capsules": fabrics use SGLs only): a Fabrics Connect settles it; any
 *     other command makes the connection a candidate whose commands are held
 *     until one of them is answered by a 16-octet response capsule with its
 *     CID (then all are reported), and it is given up after
 *     IWS_NVME_PROBE_CAPSULES capsules without such an answer.
 * The direction of the first capsule is the host's (on iWARP the host is
 * the MPA initiator; without the handshake the engine may have guessed the
 * other way). Sends that are no capsule are looked at IWS_NVME_PROBE_SENDS
 * times (and IWS_NVME_PROBE_SEGMENTS other segments before any capsule), then
 * the connection is taken for something else and costs nothing.
 */
#define IWS_NVME_PROBE_SENDS 32
#define IWS_NVME_PROBE_SEGMENTS 65536
#define IWS_NVME_PROBE_CAPSULES 64

enum iws_nvme_conn_state {
	IWS_NVME_PROBING = 0,       /* nothing decided yet */
	IWS_NVME_CANDIDATE,         /* capsules parse; commands held until one is answered */
	IWS_NVME_YES,               /* NVMe/RDMA: commands reported */
	IWS_NVME_NO,                /* not NVMe (given up) */
};

struct iws_pdu;
struct iws_stream_event;
struct iws_nvme_conn;

/* NULL on allocation failure. cb receives the commands of the connection
 * once it is recognised (those held before, then each as it is reported). */
struct iws_nvme_conn *iws_nvme_conn_new(const struct iws_nvme_limits *lim, uint32_t qp,
					iws_nvme_cmd_cb cb, void *ctx);
void iws_nvme_conn_free(struct iws_nvme_conn *n);
/* Every PDU (MPA Request/Reply and FPDUs) and event of the connection, as
 * the engine reports them. */
void iws_nvme_conn_pdu(struct iws_nvme_conn *n, const struct iws_pdu *pdu);
void iws_nvme_conn_event(struct iws_nvme_conn *n, const struct iws_stream_event *ev);
/* The capture (capture_end) or the connection ended: outstanding commands are
 * reported UNFINISHED or ABORTED; a candidate never answered is given up. */
void iws_nvme_conn_finish(struct iws_nvme_conn *n, bool capture_end);
enum iws_nvme_conn_state iws_nvme_conn_state(const struct iws_nvme_conn *n);
/* The tracker (NULL while probing or once given up). */
const struct iws_nvme_tracker *iws_nvme_conn_tracker(const struct iws_nvme_conn *n);
/* The tracker's note on the last PDU fed (NULL: none). */
const struct iws_nvme_note *iws_nvme_conn_note(const struct iws_nvme_conn *n);
/* As iws_nvme_tracker_pending, held commands included. */
bool iws_nvme_conn_pending(const struct iws_nvme_conn *n, int64_t *start_ns, uint64_t *first_frame);

/* ---- statistics per (qid, op), shared by the CLI and the plugin ---- */

#define IWS_NVME_STATUS_SLOTS 8

struct iws_nvme_status_count {
	uint16_t status;            /* the 15-bit Status Field, non-zero */
	uint64_t count;
};

/* The qid of an "all" row (iws_nvme_stats_merge_all): every queue. */
#define IWS_NVME_QID_ALL (-2)

struct iws_nvme_op_stats {
	int32_t qid;                /* -1: unknown; IWS_NVME_QID_ALL: every queue */
	const char *op;             /* iws_nvme_op_key() */
	bool fabrics;               /* a Fabrics command: its status names differ */
	uint64_t count, complete, errors, bytes;
	int64_t first_start_ns, last_end_ns;   /* over the complete commands */
	struct iws_latency latency;            /* complete commands: latency_ns */
	struct iws_latency data;               /* complete commands with RDMA data: data_ns */
	struct iws_nvme_status_count status[IWS_NVME_STATUS_SLOTS]; /* errors, by status */
	uint32_t nstatus;
	uint64_t status_other;      /* errors of statuses past the slots */
};

struct iws_nvme_stats {
	struct iws_nvme_op_stats *e;   /* sorted by qid, then op */
	uint32_t n, cap;
};

void iws_nvme_stats_init(struct iws_nvme_stats *s);
void iws_nvme_stats_free(struct iws_nvme_stats *s);
/* false on allocation failure (the command is then not counted). */
bool iws_nvme_stats_add(struct iws_nvme_stats *s, const struct iws_nvme_cmd *c);
/* The same; with timed false a complete command counts (complete, span)
 * without its latency and data time: a front end counting a time window
 * keeps those for the window the command ends in. */
bool iws_nvme_stats_add_timed(struct iws_nvme_stats *s, const struct iws_nvme_cmd *c, bool timed);
/* The "all" rows: adds every group of s into all's group (IWS_NVME_QID_ALL,
 * op), so that, called on each QP's statistics, all holds one row per command
 * type over every queue: counts, bytes, statuses and distributions summed
 * (distributions stay exact as long as the union fits IWS_LAT_EXACT_MAX),
 * the span from the type's earliest start to its latest end, as the ops
 * "all" rows (docs/semantics.md). With one queue having the type, its row
 * equals that queue's. false on allocation failure. */
bool iws_nvme_stats_merge_all(struct iws_nvme_stats *all, const struct iws_nvme_stats *s);
/* IOPS is shown only over at least this many complete commands. */
#define IWS_NVME_IOPS_MIN 10
/* Whether the group has an IOPS: IWS_NVME_IOPS_MIN complete commands or
 * more, over a span that is not 0 (else the IOPS is shown empty). */
bool iws_nvme_op_has_iops(const struct iws_nvme_op_stats *o);
/* Complete commands per second over the span from the first one's start to
 * the last one's end, rounded; 0 when iws_nvme_op_has_iops is false. */
uint64_t iws_nvme_op_iops(const struct iws_nvme_op_stats *o);

/* What an admin command asks for, from its CDW10 bits 7:0 (NVMe Base 2.0:
 * Identify CNS, Get Log Page LID, Get/Set Features FID), as the CLI's nvme
 * table and the plugin's Info column both show it: "cns=0x01 (Identify
 * Controller)", "lid=0x02 (SMART / Health Information)", "fid=0x07 (Number of
 * Queues)", the value alone when the tables have no name for it; "" for any
 * other command. */
const char *iws_nvme_admin_detail(char *buf, size_t len, const struct iws_nvme_admin *a);

#ifdef __cplusplus
}
#endif
#endif
