// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp.h - what the files of the iwarpscope Wireshark plugin share:
 * the per-connection state kept in conversation data, the per-PDU records
 * kept in file-scoped per-frame data, and the entry points of each layer.
 *
 * Protocols: iwarp.mpa (framing, this plugin's TCP entry point), iwarp.ddp,
 * iwarp.rdmap. All logic (lengths, markers, CRC, header decoding, operation
 * tracking) comes from the iwarpscope core; this plugin shows its results.
 */
#ifndef IWARPSCOPE_PACKET_IWARP_H
#define IWARPSCOPE_PACKET_IWARP_H

#include <epan/packet.h>
#include <epan/conversation.h>
#include <epan/expert.h>

#include "iwarpscope/mpa.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/rdmap.h"
#include "iwarpscope/sync.h"

/* ---- protocol ids (registered in the layer files) ---- */
extern int proto_iwarp_mpa;
extern int proto_iwarp_ddp;
extern int proto_iwarp_rdmap;
extern int iwarp_tap;

/* ---- preferences (owned by packet-iwarp-stream.c) ---- */
enum iwarp_assume { IWARP_ASSUME_INFER = 0, IWARP_ASSUME_NO = 1, IWARP_ASSUME_YES = 2 };

struct iwarp_prefs {
	gboolean check_crc;          /* verify negotiated CRCs */
	gint assume_crc;             /* streams without a handshake */
	gint assume_markers_i2r;
	gint assume_markers_r2i;
	gboolean keep_builtin;       /* leave Wireshark's iwarp_mpa heuristic enabled */
	gboolean reassemble_untagged;/* reassemble Send messages by MSN and MO */
	gboolean offer_builtin_ulp;  /* hand Sends to the iwarp_ddp_rdmap heuristic list */
	guint midstream_min_chain;   /* FPDUs that must validate to accept a stream mid-way */
	gboolean legacy_ird_ord;     /* decode Rev 1 8-octet private data as SMB Direct IRD/ORD */
};
extern struct iwarp_prefs iwarp_prefs;

/* ---- records ---- */

/* One RDMA operation as seen from its segments; updated when the tracker
 * reports the operation, so request frames can point forward. */
typedef struct iwarp_op_link {
	guint64 id;
	guint8 type;                 /* enum iws_op_type */
	gboolean done;               /* reported by the tracker */
	gboolean complete;
	guint32 first_frame, last_frame;
	guint32 response_frame;      /* read: first response; atomic: the response */
	gboolean has_latency;
	gint64 latency_ns;
	guint64 bytes;
	guint32 segments;
	guint32 flags;               /* IWS_OPF_* */
} iwarp_op_link;

enum iwarp_pdu_kind {
	IWARP_PDU_FPDU = 0,
	IWARP_PDU_MPA_FRAME = 1,
};

/* What the first pass concluded about one FPDU (or MPA frame): stored in
 * file scope on the frame that completes it, keyed by its TCP sequence
 * number, so later passes show exactly the same thing. */
typedef struct iwarp_pdu_rec {
	guint8 kind;                 /* enum iwarp_pdu_kind */
	guint8 dir;                  /* IWS_DIR_* */
	gboolean gap_before;         /* octets of this direction were lost before it */
	struct iws_mpa_dir mdir;     /* framing in force for it */
	gboolean verify_crc;         /* CRC negotiated and checking wanted */
	guint8 crc_status;           /* enum iws_crc_status */
	guint32 crc_calc;
	gboolean fed;                /* given to the tracker */
	struct iws_seg_note note;
	iwarp_op_link *op;
	guint16 peer_ird;            /* IRD of the receiver of requests, 0 unknown */
	guint32 qp;
	guint32 frame;               /* frame in which its last captured octet arrived */
	gint64 ts_ns;
	wmem_array_t *ops_done;      /* struct iws_op reported while feeding it */
} iwarp_pdu_rec;

/* An FPDU whose remaining octets were never captured (a gap followed):
 * decoded from the octets of the frame that began it. */
typedef struct iwarp_partial {
	guint32 seq;
	guint8 dir;
	guint32 len;
	guint8 *bytes;
	iwarp_pdu_rec *rec;
} iwarp_partial;

/* How much of a TCP payload handed to us is skipped before FPDU framing. */
enum iwarp_skip_reason {
	IWARP_SKIP_NONE = 0,
	IWARP_SKIP_PRESYNC,          /* before the first FPDU boundary found */
	IWARP_SKIP_RETRANS,          /* octets already decoded (retransmission) */
	IWARP_SKIP_GAP,              /* after a capture gap, before resynchronisation */
	IWARP_SKIP_REJECTED,         /* after a rejected MPA Reply */
};

typedef struct iwarp_chunk_rec {
	guint32 skip;
	guint8 reason;               /* enum iwarp_skip_reason */
	gboolean gap;                /* a gap in the sequence space preceded it */
	gboolean sync_start;         /* decoding of this direction starts here */
	/* Octets of the first FPDU that arrived in earlier frames, held while the
	 * boundaries were searched for: decoded in front of this payload. */
	guint32 prefix_len;
	guint8 *prefix;
} iwarp_chunk_rec;

typedef struct iwarp_deferred {
	struct iwarp_pdu_rec *rec;
	struct iws_msg msg;
	gboolean truncated;
} iwarp_deferred;

/* One direction of a connection (first-pass state). */
typedef struct iwarp_dir_state {
	gboolean mpa_expected;       /* the next PDU is this side's Request/Reply */
	gboolean mpa_seen;
	guint32 mpa_seq;             /* where that frame starts */
	gboolean synced;             /* FPDU boundaries known */
	guint32 next_seq;            /* the next FPDU starts here */
	gboolean have_next;
	struct iws_mpa_dir mdir;
	gboolean rejected;           /* connection rejected: no FPDUs follow */
	/* octets held while looking for FPDU boundaries */
	guint8 *hold;
	guint32 hold_len, hold_seq, hold_cap;
	guint32 sync_tries;
	gboolean sync_given_up;
	/* Found without handshake on thin evidence (one segment exactly filled
	 * by FPDUs): decoded at once, but given to the tracker only once enough
	 * FPDUs chain (or a CRC matches), as the CLI's synchronisation demands. */
	gboolean unconfirmed;
	guint32 confirm_count;
	wmem_array_t *deferred;      /* struct iwarp_deferred */
	/* the first octets of an FPDU waiting for the rest of it */
	gboolean pend_valid;
	guint32 pend_seq, pend_len, pend_cap, pend_frame;
	gint64 pend_ts;
	guint8 *pend;
} iwarp_dir_state;

typedef struct iwarp_conv {
	guint32 qp;                  /* tcp.stream */
	address init_addr;
	guint32 init_port;
	address resp_addr;
	guint32 resp_port;
	gboolean handshake;          /* found through the MPA handshake */
	gboolean inferred;           /* found mid-stream */
	struct iws_mpa_conn mpa;
	iwarp_dir_state d[2];
	struct iws_tracker *tracker;
	gboolean finished;
	wmem_map_t *ops;             /* guint64 id -> iwarp_op_link */
	iwarp_pdu_rec *cur_rec;      /* the FPDU being fed (tracker callback target) */
	wmem_array_t *leftover;      /* struct iws_op reported by iws_tracker_finish */
	wmem_map_t *partials;        /* frame number -> iwarp_partial */
} iwarp_conv;

/* ---- packet-iwarp-stream.c ---- */
void iwarp_stream_register(void);
void iwarp_stream_handoff(void);
/* All connections of the file, in creation order (for statistics). */
wmem_list_t *iwarp_conversations(void);
/* Report what every tracker still holds (once per file). */
void iwarp_finish_all(void);
iwarp_op_link *iwarp_op_link_get(iwarp_conv *ic, guint64 id);

/* ---- packet-iwarp-mpa.c ---- */
void iwarp_mpa_register(void);
int iwarp_mpa_dissect_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			    iwarp_pdu_rec *rec, guint32 seq);
int iwarp_mpa_dissect_fpdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			   iwarp_pdu_rec *rec, guint32 seq);
void iwarp_mpa_add_skipped(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off,
			   guint32 len, const iwarp_chunk_rec *cr);
/* First pass: decode the captured beginning of an FPDU cut by a gap and
 * give it to the tracker (CRC unverifiable). */
void iwarp_mpa_feed_partial(iwarp_conv *ic, iwarp_pdu_rec *rec, packet_info *pinfo, const guint8 *bytes,
			    guint32 len, guint32 seq);
/* The MPA frame about to be parsed: its total length, or 0 if buf holds
 * fewer than 20 octets. */
guint32 iwarp_mpa_frame_len(tvbuff_t *tvb, int offset);

/* ---- packet-iwarp-ddp.c ---- */
void iwarp_ddp_register(void);
void iwarp_ddp_handoff(void);
/* Decode the DDP header of a marker-free ULPDU and hand on to RDMAP.
 * msg/res: the core's decode of the whole ULPDU. */
void iwarp_ddp_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
		       iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res,
		       gboolean truncated);
/* Reassemble an untagged (Send family) message; the complete message's tvb
 * when this segment completes it, else NULL. */
tvbuff_t *iwarp_ddp_reassemble(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
			       const struct iws_msg *msg);

/* ---- packet-iwarp-rdmap.c ---- */
void iwarp_rdmap_register(void);
void iwarp_rdmap_handoff(void);
/* First pass: give the segment to the connection's tracker (once). */
void iwarp_rdmap_feed(iwarp_conv *ic, iwarp_pdu_rec *rec, packet_info *pinfo, const struct iws_msg *msg,
		      const struct iws_result *res, gboolean truncated);
void iwarp_rdmap_dissect(tvbuff_t *ulpdu, packet_info *pinfo, proto_tree *tree, iwarp_conv *ic,
			 iwarp_pdu_rec *rec, const struct iws_msg *msg, const struct iws_result *res,
			 gboolean truncated);
/* Info column text for an MPA frame or skipped data. */
void iwarp_col_append(packet_info *pinfo, const char *text);

/* ---- iwarp-stats.c ---- */
void iwarp_stats_register(void);

/* Capture time of a frame in ns since the epoch, kept between 0 and 2^62 ns
 * (the year 2116) as the CLI keeps it (cli/source.c): a record can claim any
 * time (pcapng has 64-bit stamps and its own resolution), and the difference
 * of any two kept times must fit in 64 bits. */
#define IWARP_TS_MAX_NS ((gint64)1 << 62)
static inline gint64 iwarp_ts_ns(const packet_info *pinfo)
{
	gint64 secs = (gint64)pinfo->abs_ts.secs;
	if (secs < 0 || pinfo->abs_ts.nsecs < 0)
		return 0;
	if (secs >= IWARP_TS_MAX_NS / 1000000000)
		return IWARP_TS_MAX_NS;
	gint64 ns = secs * 1000000000 + pinfo->abs_ts.nsecs;
	return ns > IWARP_TS_MAX_NS ? IWARP_TS_MAX_NS : ns;
}

#endif
