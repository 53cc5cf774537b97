// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-state.h - the records of the capture being read
 * (packet-iwarp-state.c): per connection (iwarp_conv), per frame
 * (iwarp_frame_rec) and what they point to (PDUs, spans, operation links,
 * FIN/RST, NVMe commands), and the store that finds them. The driver
 * (packet-iwarp-stream.h) fills them on the first pass; every pass renders
 * from them.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_STATE_H
#define IWARPSCOPE_PACKET_IWARP_STATE_H

#include <epan/packet.h>
#include <epan/address.h>

#include "iwarpscope/doctor.h"
#include "iwarpscope/mpa.h"
#include "iwarpscope/nvme.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/rdmap.h"
#include "iwarpscope/stream.h"

/* One RDMA operation as seen from its segments: the core's compact record
 * of it (filled when the tracker reports the operation; before that, the id,
 * type and first frame its segments showed), so request frames can point
 * forward. */
typedef struct iwarp_op_link {
	struct iws_op_brief op;
	gboolean done;               /* reported by the tracker */
	/* the records of its first and last FPDU (the last one reported so
	 * far): the frames that show its numbers */
	struct iwarp_pdu_rec *first_pdu, *last_pdu;
} iwarp_op_link;

struct iwarp_conv;

/* One PDU (MPA Request/Reply or FPDU) that became complete in a frame:
 * the core's compact record of it, where its octets are, and what the
 * plugin linked it to. */
typedef struct iwarp_pdu_rec {
	struct iws_pdu_brief pdu;    /* its frame (pdu.frame) is its record's */
	guint8 in_place : 1;         /* see off */
	guint8 nvme_role;            /* enum iws_nvme_role: what the NVMe tracker made of it */
	guint16 peer_ird;            /* IRD of the receiver of requests, 0 unknown */
	/* Its octets: at `off` in this frame's TCP payload, or a copy of the
	 * first pdu.captured octets (an FPDU put together from several frames,
	 * or partly lost). */
	guint32 off;
	const guint8 *bytes;
	iwarp_op_link *op;
	guint64 nvme_id;             /* the NVMe command it belongs to (nvme_role) */
} iwarp_pdu_rec;

/* What became of octets of this frame that are not a PDU completed in it. */
typedef struct iwarp_span_rec {
	guint8 kind;                 /* enum iws_span_kind */
	guint32 seq, len;
	guint32 pdu_frame;           /* IWS_SPAN_PART: where its PDU was completed */
} iwarp_span_rec;

/* Everything known about one frame of an iWARP-carrying connection. */
typedef struct iwarp_frame_rec {
	struct iwarp_conv *ic;
	/* The frame's TCP payload, found on the first pass (later passes may
	 * have no protocol tree to find it in): where it sits in the frame's
	 * octets, its first sequence number, its length on the wire and
	 * captured. in_frame is false when it is not in the frame's own octets
	 * (an IP datagram reassembled from fragments): its PDUs are copies. */
	gboolean in_frame;
	guint32 payload_off, payload_seq, payload_len, payload_cap;
	guint8 tcp_events;           /* IWS_SEV_BIT(IWS_SEV_*): what the engine counted for this segment
				      * (here, before the pointers: one record per frame, no padding) */
	wmem_array_t *pdus;          /* iwarp_pdu_rec *, in stream order */
	/* PDUs of earlier frames reported while this one was fed (they waited
	 * for cross-direction order): a first pass, which has shown their own
	 * frames already, shows them here instead. */
	wmem_array_t *late;          /* iwarp_pdu_rec * */
	wmem_array_t *spans;         /* iwarp_span_rec */
	wmem_array_t *ops;           /* iwarp_op_link * reported while this frame was fed */
	wmem_array_t *events;        /* struct iws_stream_event */
	wmem_array_t *nvme;          /* iwarp_nvme_link * reported while this frame was fed */
	wmem_array_t *acked;         /* iwarp_op_link * whose covering ACK is this frame */
	wmem_array_t *closes;        /* struct iws_close: FIN, RST sent in this frame (ids: wmem) */
	wmem_array_t *findings;      /* struct iws_finding: the doctor's occurrences shown here */
} iwarp_frame_rec;

/* One NVMe command as the tracker reported it: the core's compact record
 * of it, and an SQE a snapshot length cut (its captured octets, shown from
 * the link when the capsule's segments were not reassembled). */
typedef struct iwarp_nvme_link {
	struct iws_nvme_brief cmd;
	const guint8 *sqe_cut;
	guint8 sqe_cut_len;
} iwarp_nvme_link;

/* One RDMA entry of an RPC (iws_rpc_rdma): the operations that moved its
 * data through one chunk handle. */
typedef struct iwarp_rpc_rdma {
	guint64 first_op_id, last_op_id;
	guint64 bytes;
	guint32 first_frame, last_frame, ops, stag;
	guint8 type, kind;           /* enum iws_op_type, enum iws_rpc_chunk */
} iwarp_rpc_rdma;

/* One RPC as the RPC-over-RDMA stage reported it (iws_rpc): what the
 * frames of its call, its reply and its RDMA operations show
 * (packet-iwarp-rpc.c), and what -z iwarp,rpc counts. */
typedef struct iwarp_rpc_link {
	guint32 qp, xid, prog, vers, proc;
	const char *proc_name;       /* the core's static name, NULL: unnamed */
	guint32 call_frame, call_done_frame, reply_frame, data_first_frame;
	guint32 flags;               /* IWS_RPCF_* */
	gint64 latency_ns, think_ns, data_ns, tail_ns;
	guint64 rdma_bytes;
	guint8 has_call, has_reply, complete, nrdma;
	guint8 call_dir;             /* IWS_DIR_* the call went in */
	iwarp_rpc_rdma *rdma;        /* nrdma of them */
} iwarp_rpc_link;

/* One SMB2 request over SMB Direct as the SMB stage reported it (iws_smb):
 * what the frames of its request, its response and its RDMA operations
 * show (packet-iwarp-smb.c). */
typedef struct iwarp_smb_link {
	guint64 message_id, rdma_bytes;
	gint64 latency_ns;
	guint32 req_frame, req_done_frame, resp_frame, req_msn, resp_msn;
	guint32 status, inline_bytes, desc_bytes, rdma_ops, channel, flags;
	guint16 command;
	guint8 has_request, has_response, complete, req_dir, io;
} iwarp_smb_link;

typedef struct iwarp_conv {
	guint32 qp;                  /* tcp.stream */
	address addr[2];             /* by side: side 0 sent the first packet seen */
	guint32 port[2];
	struct iws_stream *eng;      /* NULL once finished and not iWARP */
	gboolean iwarp;              /* the engine found iWARP */
	gboolean claimed;            /* TCP hands us its payloads (conversation dissector) */
	gboolean finished;
	/* kept from the engine when it is freed */
	enum iws_stream_state state;
	int init_side;
	struct iws_mpa_conn mpa;
	wmem_map_t *ops;             /* guint64 id -> iwarp_op_link */
	guint32 close_frame[2];      /* by IWS_DIR_*: that side's first FIN or RST (0: none) */
	guint8 close_kind[2];        /* ... IWS_SEV_FIN or IWS_SEV_RST */
	wmem_array_t *closes;        /* struct iws_close of every FIN, RST, in order (NULL: none) */
	wmem_array_t *leftover;      /* iwarp_op_link * reported by iws_stream_finish */
	/* NVMe over Fabrics (packet-iwarp-nvme.c) */
	wmem_map_t *nvme_cmds;       /* guint64 id -> iwarp_nvme_link */
	wmem_array_t *nvme_leftover; /* iwarp_nvme_link * reported at the end of the capture */
	/* RPC over RDMA (packet-iwarp-rpc.c): NULL until its first RPC */
	wmem_array_t *rpcs;          /* iwarp_rpc_link *, in report order */
	wmem_map_t *rpc_calls;       /* guint32 xid -> wmem_array_t of iwarp_rpc_link * with their call */
	wmem_map_t *rpc_replies;     /* guint32 reply frame -> wmem_array_t of iwarp_rpc_link * */
	wmem_map_t *rpc_ops;         /* guint64 op id (its iwarp_op_link's key) -> iwarp_rpc_link */
	const struct iws_doctor *doc; /* the engine's doctor stage (packet-iwarp-doctor.c), NULL once it is freed */
	/* SMB Direct (packet-iwarp-smb.c): NULL until its first SMB2 request */
	wmem_array_t *smbs;          /* iwarp_smb_link *, in report order */
	wmem_map_t *smb_frames;      /* guint32 frame -> wmem_array_t of iwarp_smb_link * (request done, response) */
	wmem_map_t *smb_ops;         /* guint64 op id -> iwarp_smb_link */
	/* first pass: the frame whose segment the engine is being fed (0: none,
	 * e.g. at the end of the capture), for what its stages report */
	guint32 feeding_frame;
} iwarp_conv;

/* Appends val (of type) to the file-scoped array arr, made when NULL. */
#define IWARP_APPEND(arr, type, val)                                            \
	do {                                                                    \
		if (!(arr))                                                     \
			(arr) = wmem_array_new(wmem_file_scope(), sizeof(type)); \
		wmem_array_append_one((arr), (val));                            \
	} while (0)

/* ---- the store ---- */
/* File life cycle: made empty at the file's init, forgotten at its cleanup
 * (the driver frees what the connections hold first). */
void iwarp_state_init(void);
void iwarp_state_reset(void);
gboolean iwarp_state_started(void);
void iwarp_state_foreach_conv(GHFunc fn, gpointer user_data);
/* The sequential (first) pass over the file is over. */
gboolean iwarp_state_finished(void);
void iwarp_state_set_finished(void);
/* The first pass saw frame num; the last frame it saw. */
void iwarp_state_saw_frame(guint32 num);
guint32 iwarp_state_last_frame(void);
/* The connection of a tcp.stream (NULL: none yet); a new one, side 0 the
 * sender of its first packet seen. */
iwarp_conv *iwarp_conv_lookup(guint32 stream);
iwarp_conv *iwarp_conv_add(guint32 stream, const address *src, const address *dst, guint32 sport, guint32 dport);
/* The connection carries iWARP: it joins iwarp_conversations() (once). */
void iwarp_conv_found_iwarp(iwarp_conv *ic);
/* All connections of the file that carry iWARP, in tcp.stream order (for statistics). */
wmem_list_t *iwarp_conversations(void);
/* The address:port of the QP's initiator (IWS_DIR_I2R) or responder, in scope. */
char *iwarp_endpoint_str(wmem_allocator_t *scope, const iwarp_conv *ic, guint8 dir);
/* The negotiated (or inferred) MPA parameters of the connection. */
const struct iws_mpa_conn *iwarp_conv_mpa(const iwarp_conv *ic);
/* The record of frame num (NULL: none); the record of frame num, made for
 * connection ic when new. */
iwarp_frame_rec *iwarp_frame_lookup(guint32 num);
iwarp_frame_rec *iwarp_frame_get(guint32 num, iwarp_conv *ic);
/* The link of operation id of the connection, made when new. */
iwarp_op_link *iwarp_op_link_get(iwarp_conv *ic, guint64 id);
/* What the tap gets for the capture's last frame once the sequential pass
 * is over (no connection, ic NULL): the operations and commands still in
 * flight at the end (each connection's leftover) are known. */
extern const iwarp_frame_rec iwarp_capture_end;

#endif
