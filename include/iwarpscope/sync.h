// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sync.h - finding FPDU boundaries without the MPA handshake: a capture that
 * starts mid-stream, or decoding that resumes after octets were lost.
 *
 * A candidate start is accepted when a chain of consecutive FPDUs validates
 * from it: each ULPDU_Length leads exactly to the next FPDU, every DDP/RDMAP
 * header decodes (versions, reserved opcodes, opcode/queue consistency), and
 * a CRC, when one matches, settles the question at once. With markers the
 * FPDUPTR of each marker must point back to its FPDU.
 */
#ifndef IWARPSCOPE_SYNC_H
#define IWARPSCOPE_SYNC_H

#include "mpa.h"

#ifdef __cplusplus
extern "C" {
#endif

enum iws_tristate { IWS_NO = 0, IWS_YES = 1, IWS_UNKNOWN = 2 };

struct iws_sync_opts {
	enum iws_tristate markers;  /* UNKNOWN: try without, then infer the phase */
	uint32_t marker_base;       /* used when markers == IWS_YES, or marker_base_known */
	bool marker_base_known;     /* markers UNKNOWN, but if there are any they sit at
				     * marker_base + 512k (the MPA frame that ends at
				     * SeqStart was seen, RFC 5044 §4.3) */
	enum iws_tristate crc;      /* UNKNOWN: infer from the CRC fields */
	unsigned min_chain;         /* FPDUs that must validate (0: default 3) */
	uint32_t max_scan;          /* candidate offsets to try (0: 65544+marker room) */
	/* a sender known to break RFC 5044's marker rules (iws_mpa_dir) */
	bool fpduptr_le;
	bool skip_crc;
};

struct iws_sync {
	uint32_t off;               /* offset in buf of the first FPDU */
	unsigned chain;             /* FPDUs validated from there */
	bool chain_to_end;          /* the chain ran to the end of buf */
	unsigned crc_ok, crc_zero, crc_bad;
	enum iws_tristate crc;      /* conclusion about CRC use */
	bool markers;
	uint32_t marker_base;       /* when markers: the grid of the FPDU at off */
	bool fpduptr_le, skip_crc;  /* when markers: how the sender breaks RFC 5044 §4.2-4.3 */
	bool crc_budget_spent;      /* some candidates were judged without their CRC */
};

/* Validate one candidate: the FPDU chain starting at buf[0] (TCP seq seq).
 * Returns the number of FPDUs that validate, and in *ended_cleanly whether
 * the chain stopped only because buf ended. */
unsigned iws_sync_chain(const uint8_t *buf, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
			unsigned max_fpdus, bool *ended_cleanly, unsigned *crc_ok, unsigned *crc_zero);

/*
 * Could an FPDU start at wire[0] (TCP seq seq), by what its first `cap`
 * octets say (the rest was not captured)? Its length field, DDP and RDMAP
 * headers must be captured and valid under d's framing (markers, when on,
 * must fall where d puts them). *wire_len receives its length on the wire.
 * One candidate, no chain: the caller brings the other evidence (a sliced
 * capture's segment that starts with it and holds all of it).
 */
bool iws_sync_header_ok(const uint8_t *wire, uint32_t cap, uint32_t seq, const struct iws_mpa_dir *d,
			uint32_t *wire_len);

/*
 * Find the first FPDU boundary in buf (whose first octet is TCP seq seq).
 * OK: out->off is the boundary. NEED_MORE: no decision yet, more octets would
 * help (need is a suggestion). MALFORMED: no FPDU chain starts anywhere in
 * the scanned range.
 *
 * The work is bounded: about one cheap test per candidate offset, and at
 * most 16 maximum-size FPDUs' worth of CRC per call (a stream crafted to put
 * a plausible header at every few octets cannot make it quadratic). CRCs are
 * not computed at all when o->crc is IWS_NO. Once the CRC budget is spent, a
 * candidate that would need a CRC to be believed is not (out->crc_budget_spent).
 */
struct iws_result iws_sync_find(const uint8_t *buf, size_t len, uint32_t seq,
				const struct iws_sync_opts *o, struct iws_sync *out);

#ifdef __cplusplus
}
#endif
#endif
