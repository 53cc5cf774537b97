// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpa.h - MPA (RFC 5044, enhanced by RFC 6581): the connection set-up frames
 * (MPA Request / Reply), FPDU framing with markers and CRC32c, and the
 * per-connection negotiated state both front ends keep.
 *
 * Sequence numbers are TCP sequence numbers of the direction concerned and
 * all arithmetic on them is modulo 2^32.
 */
#ifndef IWARPSCOPE_MPA_H
#define IWARPSCOPE_MPA_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPA Request / Reply frames (RFC 5044 §7.1.1, RFC 6581 §5) ---- */

#define IWS_MPA_KEY_LEN 16
#define IWS_MPA_HDR_LEN 20         /* key, flags, rev, PD_Length */
#define IWS_MPA_MAX_PD_LEN 512     /* RFC 5044 §7.1.1: larger is an error */
#define IWS_MPA_ENHANCED_LEN 4     /* RFC 6581 §5: IRD/ORD word */

#define IWS_MPA_FLAG_M 0x80        /* markers wanted */
#define IWS_MPA_FLAG_C 0x40        /* CRC wanted */
#define IWS_MPA_FLAG_R 0x20        /* rejected (Reply only) */
#define IWS_MPA_FLAG_S 0x10        /* enhanced connection set-up (RFC 6581) */
#define IWS_MPA_FLAG_RSVD 0x0F

/* RFC 6581 §5 enhanced word: first half-word carries the IRD, second the ORD. */
#define IWS_MPA_ENH_P2P 0x8000        /* A: peer-to-peer (in the IRD half) */
#define IWS_MPA_ENH_RTR_SEND 0x4000   /* B: zero-length Send RTR (IRD half) */
#define IWS_MPA_ENH_RTR_WRITE 0x8000  /* C: zero-length RDMA Write RTR (ORD half) */
#define IWS_MPA_ENH_RTR_READ 0x4000   /* D: zero-length RDMA Read RTR (ORD half) */
#define IWS_MPA_ENH_VALUE 0x3FFF

/* RTR message types, as a bit mask (a Request may offer several). */
#define IWS_RTR_SEND 0x1
#define IWS_RTR_WRITE 0x2
#define IWS_RTR_READ 0x4

enum iws_mpa_frame_type {
	IWS_MPA_REQUEST = 1,
	IWS_MPA_REPLY = 2,
};

/* Warnings: decodable but not as the RFCs say. */
#define IWS_MPA_W_RSVD_FLAGS 0x01     /* reserved flag bits set */
#define IWS_MPA_W_UNKNOWN_REV 0x02    /* Rev is neither 1 nor 2 */
#define IWS_MPA_W_S_NOT_REV2 0x04     /* S flag without Rev 2 */
#define IWS_MPA_W_ENH_SHORT 0x08      /* S flag but PD_Length < 4 */
#define IWS_MPA_W_R_IN_REQUEST 0x10   /* R flag in a Request */

struct iws_mpa_frame {
	enum iws_mpa_frame_type type;
	uint8_t flags;               /* raw flags octet */
	bool markers, crc, reject, enhanced_flag;
	uint8_t rev;
	uint16_t pd_len;
	uint32_t total_len;          /* 20 + PD_Length */
	/* RFC 6581 enhanced word, valid when has_enhanced */
	bool has_enhanced;
	bool p2p;
	uint8_t rtr;                 /* IWS_RTR_* mask */
	uint16_t ird, ord;           /* 14-bit values */
	uint16_t ird_word, ord_word; /* raw half-words */
	uint32_t warnings;           /* IWS_MPA_W_* */
	struct iws_field f_key, f_flags, f_rev, f_pd_len, f_pd;
	struct iws_field f_ird, f_ord;  /* enhanced half-words */
	struct iws_field f_ulp_pd;      /* private data after the enhanced word */
};

/*
 * Is buf the start of an MPA Request or Reply key? Returns the type, or 0.
 * With fewer than 16 octets it answers for the prefix it has (a caller that
 * wants certainty checks len >= IWS_MPA_KEY_LEN).
 */
int iws_mpa_key_type(const uint8_t *buf, size_t len);

/* Decode a Request/Reply starting at buf[0]. MALFORMED when the key is not an
 * MPA key or PD_Length > 512; NEED_MORE until the private data is complete. */
struct iws_result iws_mpa_parse_frame(const uint8_t *buf, size_t len, struct iws_mpa_frame *out);

/* ---- FPDU framing (RFC 5044 §4) ---- */

#define IWS_MPA_MARKER_INTERVAL 512
#define IWS_MPA_MARKER_LEN 4
#define IWS_MPA_CRC_LEN 4
#define IWS_MPA_ULPDU_LEN_LEN 2
#define IWS_DDP_MIN_HDR_LEN 14       /* smallest legal ULPDU: a tagged DDP header */
/* The largest FPDU on the wire: 2 + 65535 + 3 pad + 4 CRC, plus its markers. */
#define IWS_FPDU_MAX_WIRE (2u + 65535u + 3u + 4u + 4u * 130u)
#define IWS_FPDU_MAX_MARKERS 130

/* What one direction of a connection does in full-operation phase. */
struct iws_mpa_dir {
	bool markers;          /* markers are inserted in this direction */
	bool crc;              /* CRC is in use (the field is always present) */
	uint32_t marker_base;  /* SeqStart: TCP seq of the first full-operation octet
				* (skip_crc: the grid of the FPDU being framed) */
	/* Senders that break RFC 5044 §4.2-4.3, as found in the data: */
	bool fpduptr_le;       /* FPDUPTR carried least significant octet first */
	bool skip_crc;         /* the grid moves 4 octets on after each FPDU: the
				* sender's marker count leaves CRC fields out */
};

/* Octets of padding after an ULPDU of this length (RFC 5044 §4.1). */
static inline unsigned iws_mpa_pad_len(uint32_t ulpdu_len)
{
	return (4u - ((2u + ulpdu_len) & 3u)) & 3u;
}

/* Does a marker sit at TCP sequence number seq in direction d? */
bool iws_mpa_marker_at(const struct iws_mpa_dir *d, uint32_t seq);

/* Offset from seq to the next marker position at or after seq (0..511). */
uint32_t iws_mpa_next_marker_dist(const struct iws_mpa_dir *d, uint32_t seq);

/*
 * Octets the FPDU starting at TCP sequence number seq occupies on the wire,
 * markers included, given its ULPDU_Length. A marker at seq itself belongs
 * to this FPDU (it precedes ULPDU_Length; its FPDUPTR is 0), one just after
 * the CRC to the next.
 */
uint32_t iws_mpa_fpdu_wire_len(const struct iws_mpa_dir *d, uint32_t seq, uint16_t ulpdu_len);

/*
 * Offset, within an FPDU starting at seq, of the ULPDU_Length field:
 * 4 when a marker sits at seq, else 0. (FPDUs and markers are both 4-aligned
 * relative to SeqStart, so a marker never splits ULPDU_Length or the CRC.)
 */
static inline uint32_t iws_mpa_len_field_off(const struct iws_mpa_dir *d, uint32_t seq)
{
	return iws_mpa_marker_at(d, seq) ? IWS_MPA_MARKER_LEN : 0;
}

/* A marker as found on the wire (RFC 5044 §4.2). */
struct iws_mpa_marker {
	uint32_t off;       /* offset of the marker within the FPDU */
	uint16_t rsvd;      /* must be zero */
	uint16_t fpduptr;   /* distance back to this FPDU's ULPDU_Length field */
	bool ok;            /* FPDUPTR equals the expected distance and rsvd is 0 */
};

/*
 * The FPDUPTR a marker at offset `off` of an FPDU must carry (RFC 5044 §4.2:
 * the octets from the start of the ULPDU_Length field to the marker). len_off
 * is where ULPDU_Length sits (4 behind a leading marker, else 0); the leading
 * marker itself, just before ULPDU_Length, carries 0.
 */
static inline uint32_t iws_mpa_fpduptr_expected(uint32_t len_off, uint32_t off)
{
	return off < len_off ? 0 : off - len_off;
}

/*
 * Decode the 4 octets of a marker and check its FPDUPTR against `expected`
 * (see iws_mpa_fpduptr_expected); le: FPDUPTR carried least significant
 * octet first (a sender that breaks §4.2). MALFORMED when FPDUPTR is not a
 * multiple of 4 or differs from expected; the fields are filled in all the
 * same.
 */
struct iws_result iws_mpa_marker_parse(const uint8_t *buf, size_t len, uint32_t expected, bool le,
				       struct iws_mpa_marker *out);

enum iws_crc_status {
	IWS_CRC_NOT_CHECKED = 0,  /* CRC not negotiated, or checking was turned off */
	IWS_CRC_OK = 1,
	IWS_CRC_BAD = 2,
	IWS_CRC_UNVERIFIABLE = 3, /* octets missing (snaplen) */
};

/* Read the CRC field (carried least significant octet first). */
static inline uint32_t iws_mpa_crc_read(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

struct iws_fpdu {
	uint32_t seq;            /* TCP seq of the first octet (a leading marker included) */
	uint32_t wire_len;       /* octets on the wire, markers included */
	uint16_t ulpdu_len;
	uint8_t pad;
	uint32_t len_off;        /* wire offset of ULPDU_Length */
	uint32_t ulpdu_off;      /* wire offset of the first ULPDU octet (len_off + 2) */
	uint32_t pad_off;        /* wire offset of the pad (markers taken into account) */
	uint32_t crc_off;        /* wire offset of the CRC field */
	uint32_t crc_wire;       /* as carried */
	uint32_t crc_calc;       /* computed, when checked */
	enum iws_crc_status crc_status;
	uint16_t n_markers;
	uint16_t marker_errors;  /* markers whose FPDUPTR or reserved field is wrong */
	struct iws_mpa_marker markers[IWS_FPDU_MAX_MARKERS];
	/* The ULPDU without markers: points into the caller's wire buffer when no
	 * marker falls inside the ULPDU, else into the caller's scratch buffer. */
	const uint8_t *ulpdu;
};

/*
 * Frame the FPDU that starts at wire[0], which is TCP sequence number seq of
 * direction d. When check_crc is true and d->crc, the CRC is computed over
 * ULPDU_Length..PAD including markers before the CRC field.
 * scratch must hold 65535 octets when the direction has markers (it may be
 * NULL otherwise). NEED_MORE until the whole FPDU is in wire[0..len);
 * MALFORMED when ULPDU_Length is smaller than a DDP header.
 */
struct iws_result iws_mpa_fpdu_parse(const uint8_t *wire, size_t len, uint32_t seq,
				     const struct iws_mpa_dir *d, bool check_crc,
				     uint8_t *scratch, size_t scratch_len, struct iws_fpdu *out);

/*
 * Copy the wire octets [0, wire_len) of the FPDU at seq to out without its
 * markers (the marker-free FPDU: ULPDU_Length, ULPDU, PAD, CRC). Returns the
 * octets written; out must hold wire_len octets.
 */
size_t iws_mpa_strip_markers(const uint8_t *wire, size_t wire_len, uint32_t seq,
			     const struct iws_mpa_dir *d, uint8_t *out);

/* ---- per-connection negotiated state (RFC 5044 §7.1, RFC 6581) ---- */

enum iws_mpa_state {
	IWS_MPA_ST_NONE = 0,         /* nothing seen */
	IWS_MPA_ST_REQUEST_SEEN,     /* Request seen, Reply pending */
	IWS_MPA_ST_FULL,             /* full operation (handshake seen) */
	IWS_MPA_ST_REJECTED,         /* Reply with R set */
	IWS_MPA_ST_INFERRED,         /* full operation inferred without handshake */
};

enum { IWS_DIR_I2R = 0, IWS_DIR_R2I = 1 };  /* initiator->responder, back */

struct iws_mpa_conn {
	enum iws_mpa_state state;
	uint8_t rev;
	bool crc;
	bool enhanced;
	bool p2p;
	uint8_t rtr;                 /* negotiated RTR type (IWS_RTR_*), 0 if none */
	uint16_t ird[2], ord[2];     /* per sender side: [IWS_DIR_I2R] = initiator's */
	bool has_ird_ord;
	struct iws_mpa_dir dir[2];   /* [IWS_DIR_I2R], [IWS_DIR_R2I] */
	uint8_t req_flags, rep_flags;
};

void iws_mpa_conn_init(struct iws_mpa_conn *c);

/* Record the Request; seq_end is the TCP seq just after it (and its private
 * data): the initiator's SeqStart. */
void iws_mpa_conn_request(struct iws_mpa_conn *c, const struct iws_mpa_frame *req, uint32_t seq_end);

/* Record the Reply; seq_end is the responder's SeqStart. Negotiates CRC
 * (either side asking turns it on), markers per direction (M in the Request:
 * responder->initiator; M in the Reply: initiator->responder), IRD/ORD, RTR. */
void iws_mpa_conn_reply(struct iws_mpa_conn *c, const struct iws_mpa_frame *rep, uint32_t seq_end);

/* Octets of the FPDU's ULPDU (markers removed) before wire offset first_hole. */
uint32_t iws_fpdu_ulpdu_captured(const struct iws_fpdu *f, uint32_t first_hole);

#ifdef __cplusplus
}
#endif
#endif
