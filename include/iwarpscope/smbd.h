// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smbd.h - SMB Direct (MS-SMBD: SMB 3 over RDMA, on iWARP TCP port 5445),
 * with the SMB2 messages it carries (MS-SMB2).
 *
 * What the transport does (MS-SMBD 1.3, 3.1.5):
 *   every SMBD message goes in an RDMA Send: first a Negotiate Request
 *   (2.2.1) and its Negotiate Response (2.2.2), then Data Transfer Messages
 *   (2.2.3) whose payload is an SMB2 message; one longer than the peer's
 *   receive size is split over several, each saying how many octets are
 *   still to come (RemainingDataLength);
 *   every Data Transfer Message costs its sender a send credit; the peer
 *   grants more in its own messages (CreditsGranted, 3.1.5.9);
 *   bulk data can leave the Send: an SMB2 READ or WRITE request (MS-SMB2
 *   2.2.19, 2.2.21) with Channel SMB2_CHANNEL_RDMA_V1(_INVALIDATE) lists
 *   buffer descriptors (MS-SMBD 2.2.3.1: Offset, Token = the STag, Length)
 *   of the client's registered memory; the server RDMA Writes a READ's data
 *   into them, RDMA Reads a WRITE's data from them (MS-SMB2 3.3.5.12, 3.3.5.13).
 *
 * Two layers, like rpcrdma.h:
 *   parsers  (const uint8_t *, size_t) -> struct iws_result: the SMBD
 *            messages, the SMB2 header (2.2.1) and READ/WRITE's channel;
 *   tracker  per connection, fed by the stream engine (stream.h,
 *            iws_stream_smb_stage): reassembles SMBD messages, matches SMB2
 *            requests and responses by MessageId, links the descriptors'
 *            tokens to the RDMA operations the operation tracker saw, and
 *            reports each request once.
 * Every integer is little-endian (MS-SMBD 2.2, MS-SMB2 2.2).
 */
#ifndef IWARPSCOPE_SMBD_H
#define IWARPSCOPE_SMBD_H

#include "mpa.h"   /* IWS_DIR_* */
#include "qp.h"
#include "rdmap.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_SMBD_PORT 5445           /* MS-SMBD 1.9: iWARP's port for SMB Direct */
#define IWS_SMBD_VERSION 0x0100      /* MS-SMBD 2.2.1: SMB_DIRECT_VERSION_1 */
#define IWS_SMBD_NEG_REQ_LEN 20      /* MS-SMBD 2.2.1 */
#define IWS_SMBD_NEG_RESP_LEN 32     /* MS-SMBD 2.2.2 */
#define IWS_SMBD_DATA_HDR_LEN 20     /* MS-SMBD 2.2.3: up to the padding */
#define IWS_SMBD_RESPONSE_REQUESTED 0x0001  /* MS-SMBD 2.2.3 Flags */

/* MS-SMBD 2.2.1 Negotiate Request and 2.2.2 Negotiate Response. */
struct iws_smbd_negotiate {
	bool response;
	uint16_t min_version, max_version;
	uint16_t negotiated_version;        /* response */
	uint16_t credits_requested;
	uint16_t credits_granted;           /* response */
	uint32_t status;                    /* response: NTSTATUS */
	uint32_t max_read_write_size;       /* response */
	uint32_t preferred_send_size, max_receive_size, max_fragmented_size;
};

/* MS-SMBD 2.2.3 Data Transfer Message. */
struct iws_smbd_data {
	uint16_t credits_requested, credits_granted, flags;
	uint32_t remaining, data_offset, data_length;
};

/* A Negotiate Request (len 20) or Response (len 32), by its length:
 * MALFORMED for another length or versions that do not include 1.0
 * (a request's MinVersion above its MaxVersion). */
struct iws_result iws_smbd_parse_negotiate(const uint8_t *buf, size_t len, struct iws_smbd_negotiate *n);
/* A Data Transfer Message: NEED_MORE inside the 20 octets of its header;
 * MALFORMED for a DataOffset neither 0 (no data) nor 8-aligned and past
 * the header, or DataOffset + DataLength past len (MS-SMBD 2.2.3). */
struct iws_result iws_smbd_parse_data(const uint8_t *buf, size_t len, struct iws_smbd_data *d);

/* ---- SMB2 (MS-SMB2 2.2.1) ---- */

#define IWS_SMB2_HDR_LEN 64
#define IWS_SMB2_FLAGS_RESPONSE 0x00000001  /* SMB2_FLAGS_SERVER_TO_REDIR */
#define IWS_SMB2_FLAGS_ASYNC 0x00000002
#define IWS_SMB2_FLAGS_RELATED 0x00000004
#define IWS_SMB2_STATUS_PENDING 0x00000103  /* an interim response (MS-SMB2 3.3.4.2) */

enum iws_smb2_cmd {
	IWS_SMB2_NEGOTIATE = 0,
	IWS_SMB2_SESSION_SETUP,
	IWS_SMB2_LOGOFF,
	IWS_SMB2_TREE_CONNECT,
	IWS_SMB2_TREE_DISCONNECT,
	IWS_SMB2_CREATE,
	IWS_SMB2_CLOSE,
	IWS_SMB2_FLUSH,
	IWS_SMB2_READ,
	IWS_SMB2_WRITE,
	IWS_SMB2_LOCK,
	IWS_SMB2_IOCTL,
	IWS_SMB2_CANCEL,
	IWS_SMB2_ECHO,
	IWS_SMB2_QUERY_DIRECTORY,
	IWS_SMB2_CHANGE_NOTIFY,
	IWS_SMB2_QUERY_INFO,
	IWS_SMB2_SET_INFO,
	IWS_SMB2_OPLOCK_BREAK,
};
const char *iws_smb2_cmd_name(uint16_t cmd);   /* "negotiate", "read", ... or NULL */

/* MS-SMB2 2.2.19 / 2.2.21 Channel */
#define IWS_SMB2_CHANNEL_NONE 0
#define IWS_SMB2_CHANNEL_RDMA_V1 1
#define IWS_SMB2_CHANNEL_RDMA_V1_INVALIDATE 2
#define IWS_SMB2_CHANNEL_RDMA_TRANSFORM 3

/* MS-SMBD 2.2.3.1 SMB_DIRECT_BUFFER_DESCRIPTOR_V1 */
struct iws_smbd_desc {
	uint64_t offset;
	uint32_t token;             /* the STag (RFC 5040 §2) */
	uint32_t length;
};

/* descriptors kept per request; more are counted (ndesc) but not kept */
#define IWS_SMBD_MAX_DESC 8

struct iws_smb2_msg {
	uint16_t command, credits;  /* credits: CreditRequest / CreditResponse */
	uint32_t status, flags, next_command;
	uint64_t message_id;
	/* READ and WRITE requests (2.2.19, 2.2.21) */
	bool io;
	uint32_t length;            /* Length: READ's asked for, WRITE's inline data */
	uint64_t offset;            /* Offset in the file */
	uint32_t remaining;         /* RemainingBytes (WRITE via RDMA: its data's length) */
	uint32_t channel;
	uint32_t ndesc;             /* descriptors in the channel info */
	struct iws_smbd_desc desc[IWS_SMBD_MAX_DESC];
	/* READ response (2.2.20): DataLength inline, DataRemaining (via RDMA);
	 * WRITE response (2.2.22): Count */
	uint32_t data_length, data_remaining, count;
};

/*
 * One SMB2 message at buf (a compound's element: len up to its
 * NextCommand, or to the end). NEED_MORE inside the header; MALFORMED for
 * a ProtocolId other than 0xFE 'SMB', a StructureSize other than 64, a
 * NextCommand not 8-aligned, or a READ/WRITE whose channel info lies
 * outside buf or is not a whole number of descriptors.
 */
struct iws_result iws_smb2_parse(const uint8_t *buf, size_t len, struct iws_smb2_msg *m);

/* ---- the SMB Direct tracker ---- */

/* How an RDMA operation served a request's descriptor. */
struct iws_smb_rdma {
	uint64_t first_op_id, last_op_id;
	uint32_t ops;
	enum iws_op_type type;      /* IWS_OPT_WRITE (READ's data) or IWS_OPT_READ (WRITE's) */
	uint32_t token;
	uint64_t bytes;
	uint32_t segments;
	uint64_t first_frame, last_frame;
	int64_t first_ns, last_ns;
};

#define IWS_SMBF_UNFINISHED 0x01    /* the capture ended first */
#define IWS_SMBF_ABORTED    0x02    /* the connection ended first */
#define IWS_SMBF_GAP        0x04    /* octets never captured may hold its response or data */
#define IWS_SMBF_EVICTED    0x08    /* given up: in-flight limit */
#define IWS_SMBF_NO_REQUEST 0x10    /* a response whose request is not in the capture */
#define IWS_SMBF_ID_REUSE   0x20    /* a request with its MessageId replaced it */
#define IWS_SMBF_DESC_MORE  0x40    /* more descriptors than IWS_SMBD_MAX_DESC: not all linked */
#define IWS_SMBF_INCOMPLETE_MASK \
	(IWS_SMBF_UNFINISHED | IWS_SMBF_ABORTED | IWS_SMBF_GAP | IWS_SMBF_EVICTED | IWS_SMBF_NO_REQUEST | \
	 IWS_SMBF_ID_REUSE)

#define IWS_SMB_MAX_RDMA 8

/* One SMB2 request with its response, reported once. */
struct iws_smb {
	uint32_t qp;
	uint64_t id;                /* 1, 2, ... per tracker, in report order */
	uint8_t req_dir;
	uint64_t message_id;
	uint16_t command;
	bool has_request, has_response;
	struct iws_smb2_msg req;    /* the request (READ/WRITE: its channel) */
	uint64_t req_frame;         /* the first frame of the SMBD message that carried it */
	int64_t req_ns;
	uint64_t req_done_frame;    /* its last Send's frame */
	uint32_t req_msn, resp_msn; /* the DDP MSN of the Send that completed each message
				     * (a frame may carry several Sends) */
	uint64_t resp_frame;        /* where the (final) response's message completed */
	int64_t resp_ns;
	uint32_t status;            /* the final response's NTSTATUS */
	uint32_t interim;           /* STATUS_PENDING interim responses before it */
	int64_t latency_ns;
	uint32_t inline_bytes;      /* WRITE: Length (Channel none); READ: the response's DataLength */
	uint32_t desc_bytes;        /* the descriptors' Lengths */
	struct iws_smb_rdma rdma[IWS_SMB_MAX_RDMA];
	uint32_t nrdma;
	uint64_t rdma_bytes;        /* octets moved by RDMA through its descriptors */
	uint32_t rdma_ops;
	bool complete;
	uint32_t flags;             /* IWS_SMBF_* */
};

typedef void (*iws_smb_cb)(void *ctx, const struct iws_smb *m);

/* Per connection (docs/semantics.md, "SMB Direct"). dir-indexed arrays by
 * the sender's IWS_DIR_*. */
struct iws_smb_counts {
	uint64_t sends;             /* Sends looked at since recognition */
	uint64_t undecodable;       /* Sends that were no SMBD message */
	uint64_t data_msgs;         /* Data Transfer Messages */
	uint64_t fragments;         /* ... that said more was to come (RemainingDataLength > 0) */
	uint64_t reassembly_errors; /* a continuation that did not fit what was announced */
	uint64_t smb2;              /* SMB2 messages (compound elements count one each) */
	uint64_t not_smb2;          /* SMBD payloads that were no SMB2 message (encrypted, ...) */
	uint64_t requests, responses, interim, reported, incomplete, orphans, evicted;
	/* the verdict: READ and WRITE requests, those with RDMA descriptors */
	uint64_t reads, writes, rdma_reads, rdma_writes;
	uint64_t inline_bytes, rdma_bytes, desc_bytes;
	uint64_t unmatched_rdma;    /* RDMA Writes / Read Requests no outstanding descriptor names */
	/* negotiation (MS-SMBD 2.2.1, 2.2.2) */
	bool has_neg_req, has_neg_resp;
	struct iws_smbd_negotiate neg_req, neg_resp;
	/* credits (MS-SMBD 3.1.5.9): per sender */
	uint64_t credits_granted[2];        /* granted to the other side, summed (negotiate response incl.) */
	uint32_t credits_requested_max[2];
	uint64_t credit_msgs[2];            /* Data Transfer Messages sent (a credit each) */
	uint32_t credits_max_held[2];       /* the most send credits this side held at once */
	uint32_t credits_min_left[2];       /* the fewest it had left after a send (its peak
					     * use: max_held - min_left) */
	uint64_t credits_exceeded[2];       /* messages sent with no credit left */
	uint8_t client_dir;                 /* the Negotiate Request's sender (or the first request's) */
};

/* The verdict (docs/semantics.md, "SMB Direct"). */
enum iws_smb_verdict {
	IWS_SMB_NO_IO = 0,          /* no SMB2 READ or WRITE request */
	IWS_SMB_INLINE_ONLY,        /* READs and WRITEs, none with RDMA descriptors */
	IWS_SMB_RDMA,               /* some READ or WRITE's data went by RDMA */
};
enum iws_smb_verdict iws_smb_verdict_of(const struct iws_smb_counts *k);
const char *iws_smb_verdict_name(enum iws_smb_verdict v);   /* "no-io", "inline-only", "rdma" */

#define IWS_SMB_PROBE_SENDS 8

enum iws_smb_conn_state {
	IWS_SMB_PROBING = 0,
	IWS_SMB_YES,
	IWS_SMB_NO,
};

struct iws_pdu;
struct iws_stream_event;
struct iws_smb_conn;

struct iws_smb_conn *iws_smb_conn_new(uint32_t qp, iws_smb_cb cb, void *ctx);
void iws_smb_conn_free(struct iws_smb_conn *n);
void iws_smb_conn_pdu(struct iws_smb_conn *n, const struct iws_pdu *pdu);
void iws_smb_conn_event(struct iws_smb_conn *n, const struct iws_stream_event *ev);
void iws_smb_conn_finish(struct iws_smb_conn *n, bool capture_end);
enum iws_smb_conn_state iws_smb_conn_state(const struct iws_smb_conn *n);
const struct iws_smb_counts *iws_smb_conn_counts(const struct iws_smb_conn *n);
bool iws_smb_conn_pending(const struct iws_smb_conn *n, int64_t *start_ns, uint64_t *first_frame);

#ifdef __cplusplus
}
#endif
#endif
