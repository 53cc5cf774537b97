// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MPA: Request/Reply frames (RFC 5044 §7.1.1, RFC 6581 §5), FPDU framing
 * (§4.1), markers (§4.2, §4.3), CRC (§4.4) and the negotiation of CRC,
 * markers and IRD/ORD per connection.
 */
#include "iwarpscope/mpa.h"

#include <string.h>

#include "bytes.h"
#include "iwarpscope/crc32c.h"

/* The 16-octet keys of RFC 5044 §7.1.1. The arrays have room for the
 * literals' NUL, which is never compared (only IWS_MPA_KEY_LEN octets are). */
static const char mpa_key_req[IWS_MPA_KEY_LEN + 1] = "MPA ID Req Frame";
static const char mpa_key_rep[IWS_MPA_KEY_LEN + 1] = "MPA ID Rep Frame";

int iws_mpa_key_type(const uint8_t *buf, size_t len)
{
	size_t n = len < IWS_MPA_KEY_LEN ? len : IWS_MPA_KEY_LEN;
	if (n == 0)
		return 0;
	if (memcmp(buf, mpa_key_req, n) == 0)
		return IWS_MPA_REQUEST;
	if (memcmp(buf, mpa_key_rep, n) == 0)
		return IWS_MPA_REPLY;
	return 0;
}

struct iws_result iws_mpa_parse_frame(const uint8_t *buf, size_t len, struct iws_mpa_frame *out)
{
	memset(out, 0, sizeof(*out));
	int type = iws_mpa_key_type(buf, len);
	if (!type)
		return iws_malformed("not an MPA Request/Reply key", 0, IWS_MPA_KEY_LEN);
	if (len < IWS_MPA_HDR_LEN)
		return iws_need(IWS_MPA_HDR_LEN);

	out->type = (enum iws_mpa_frame_type)type;
	out->flags = buf[16];
	out->markers = (out->flags & IWS_MPA_FLAG_M) != 0;
	out->crc = (out->flags & IWS_MPA_FLAG_C) != 0;
	out->reject = (out->flags & IWS_MPA_FLAG_R) != 0;
	out->enhanced_flag = (out->flags & IWS_MPA_FLAG_S) != 0;
	out->rev = buf[17];
	out->pd_len = iws_be16(buf + 18);
	out->f_key = iws_fld(0, IWS_MPA_KEY_LEN);
	out->f_flags = iws_fld(16, 1);
	out->f_rev = iws_fld(17, 1);
	out->f_pd_len = iws_fld(18, 2);
	out->total_len = IWS_MPA_HDR_LEN + (uint32_t)out->pd_len;

	/* RFC 5044 §7.1.1: PD_Length larger than 512 is a protocol error. */
	if (out->pd_len > IWS_MPA_MAX_PD_LEN)
		return iws_malformed("PD_Length larger than 512", 18, 2);
	if (len < out->total_len)
		return iws_need(out->total_len);
	out->f_pd = iws_fld(IWS_MPA_HDR_LEN, out->pd_len);
	out->f_ulp_pd = out->f_pd;

	if (out->flags & IWS_MPA_FLAG_RSVD)
		out->warnings |= IWS_MPA_W_RSVD_FLAGS;
	if (out->rev != 1 && out->rev != 2)
		out->warnings |= IWS_MPA_W_UNKNOWN_REV;
	if (out->reject && out->type == IWS_MPA_REQUEST)
		out->warnings |= IWS_MPA_W_R_IN_REQUEST;

	if (out->enhanced_flag) {
		if (out->rev != 2)
			out->warnings |= IWS_MPA_W_S_NOT_REV2;
		if (out->pd_len < IWS_MPA_ENHANCED_LEN) {
			out->warnings |= IWS_MPA_W_ENH_SHORT;
		} else {
			/* RFC 6581 §5: A, B and IRD in the first half-word; C, D and
			 * ORD in the second. */
			const uint8_t *e = buf + IWS_MPA_HDR_LEN;
			out->has_enhanced = true;
			out->ird_word = iws_be16(e);
			out->ord_word = iws_be16(e + 2);
			out->ird = out->ird_word & IWS_MPA_ENH_VALUE;
			out->ord = out->ord_word & IWS_MPA_ENH_VALUE;
			out->p2p = (out->ird_word & IWS_MPA_ENH_P2P) != 0;
			if (out->ird_word & IWS_MPA_ENH_RTR_SEND)
				out->rtr |= IWS_RTR_SEND;
			if (out->ord_word & IWS_MPA_ENH_RTR_WRITE)
				out->rtr |= IWS_RTR_WRITE;
			if (out->ord_word & IWS_MPA_ENH_RTR_READ)
				out->rtr |= IWS_RTR_READ;
			out->f_ird = iws_fld(IWS_MPA_HDR_LEN, 2);
			out->f_ord = iws_fld(IWS_MPA_HDR_LEN + 2, 2);
			out->f_ulp_pd = iws_fld(IWS_MPA_HDR_LEN + IWS_MPA_ENHANCED_LEN,
						out->pd_len - IWS_MPA_ENHANCED_LEN);
		}
	}
	return iws_ok();
}

/* ---- markers ---- */

static inline uint32_t marker_phase(const struct iws_mpa_dir *d, uint32_t seq)
{
	/* Unsigned subtraction wraps modulo 2^32, as TCP sequence space does. */
	return (seq - d->marker_base) & (IWS_MPA_MARKER_INTERVAL - 1);
}

bool iws_mpa_marker_at(const struct iws_mpa_dir *d, uint32_t seq)
{
	return d->markers && marker_phase(d, seq) == 0;
}

uint32_t iws_mpa_next_marker_dist(const struct iws_mpa_dir *d, uint32_t seq)
{
	return (IWS_MPA_MARKER_INTERVAL - marker_phase(d, seq)) & (IWS_MPA_MARKER_INTERVAL - 1);
}

uint32_t iws_mpa_fpdu_wire_len(const struct iws_mpa_dir *d, uint32_t seq, uint16_t ulpdu_len)
{
	uint32_t body = IWS_MPA_ULPDU_LEN_LEN + ulpdu_len + iws_mpa_pad_len(ulpdu_len) + IWS_MPA_CRC_LEN;
	if (!d->markers)
		return body;
	/* Markers sit at fixed sequence positions q, q+512, ...; each one that
	 * falls before the FPDU's end lengthens it by 4 (RFC 5044 §4.3). */
	uint32_t q = iws_mpa_next_marker_dist(d, seq);
	uint32_t n = 0;
	while (q + IWS_MPA_MARKER_INTERVAL * n < body + IWS_MPA_MARKER_LEN * n)
		n++;
	return body + IWS_MPA_MARKER_LEN * n;
}

struct iws_result iws_mpa_marker_parse(const uint8_t *buf, size_t len, uint32_t expected, bool le,
				       struct iws_mpa_marker *out)
{
	memset(out, 0, sizeof(*out));
	if (len < IWS_MPA_MARKER_LEN)
		return iws_need(IWS_MPA_MARKER_LEN);
	out->rsvd = iws_be16(buf);
	out->fpduptr = le ? (uint16_t)(buf[2] | buf[3] << 8) : iws_be16(buf + 2);
	/* FPDUs and markers are both 4-aligned to SeqStart, so a correct FPDUPTR
	 * is always a multiple of 4 (RFC 5044 §4.2). */
	if (out->fpduptr & 3)
		return iws_malformed("FPDUPTR is not a multiple of 4", 2, 2);
	if (out->fpduptr != expected)
		return iws_malformed("FPDUPTR does not point back to its FPDU's ULPDU_Length", 2, 2);
	out->ok = out->rsvd == 0;
	return iws_ok();
}

/* Wire offset of the marker-free octet k of an FPDU whose markers are at the
 * wire offsets in m[0..n). */
static uint32_t wire_offset(uint32_t k, const struct iws_mpa_marker *m, uint32_t n)
{
	uint32_t w = k;
	for (uint32_t i = 0; i < n && m[i].off <= w; i++)
		w += IWS_MPA_MARKER_LEN;
	return w;
}

/* The markers inside an FPDU of out->wire_len octets (RFC 5044 §4.2-4.3),
 * each checked against its position: its FPDUPTR points back at the
 * FPDU's ULPDU_Length field (at len_off). */
static void parse_fpdu_markers(const uint8_t *wire, size_t len, uint32_t seq,
			       const struct iws_mpa_dir *d, uint32_t len_off, struct iws_fpdu *out)
{
	for (uint32_t o = iws_mpa_next_marker_dist(d, seq);
	     o < out->wire_len && out->n_markers < IWS_FPDU_MAX_MARKERS;
	     o += IWS_MPA_MARKER_INTERVAL) {
		struct iws_mpa_marker *m = &out->markers[out->n_markers++];
		struct iws_result r = iws_mpa_marker_parse(wire + o, len - o,
							   iws_mpa_fpduptr_expected(len_off, o),
							   d->fpduptr_le, m);
		m->off = o;
		if (r.status != IWS_OK || !m->ok)
			out->marker_errors++;
	}
}

/* Where the ULPDU, PAD and CRC lie on the wire (RFC 5044 §4.1), past the
 * markers found in it, and the CRC as sent. Returns one past the last
 * ULPDU octet (a marker right after it is not part of the ULPDU's span). */
static uint32_t place_fpdu_fields(const uint8_t *wire, struct iws_fpdu *out)
{
	uint32_t body_ulpdu = IWS_MPA_ULPDU_LEN_LEN;  /* marker-free offsets */
	uint32_t body_pad = body_ulpdu + out->ulpdu_len;
	uint32_t body_crc = body_pad + out->pad;
	out->ulpdu_off = wire_offset(body_ulpdu, out->markers, out->n_markers);
	uint32_t ulpdu_end = wire_offset(body_pad - 1, out->markers, out->n_markers) + 1;
	out->pad_off = out->pad ? wire_offset(body_pad, out->markers, out->n_markers) : ulpdu_end;
	out->crc_off = wire_offset(body_crc, out->markers, out->n_markers);
	out->crc_wire = iws_mpa_crc_read(wire + out->crc_off);
	return ulpdu_end;
}

/* Copy the ULPDU, [out->ulpdu_off, ulpdu_end) on the wire, to scratch
 * without the markers that fall inside it. */
static void copy_ulpdu_unmarked(const uint8_t *wire, uint32_t ulpdu_end, uint8_t *scratch,
				const struct iws_fpdu *out)
{
	uint32_t k = 0, mi = 0;
	for (uint32_t w = out->ulpdu_off; w < ulpdu_end && k < out->ulpdu_len;) {
		while (mi < out->n_markers && out->markers[mi].off < w)
			mi++;
		if (mi < out->n_markers && out->markers[mi].off == w) {
			w += IWS_MPA_MARKER_LEN;
			mi++;
			continue;
		}
		uint32_t stop = mi < out->n_markers ? out->markers[mi].off : ulpdu_end;
		if (stop > ulpdu_end)
			stop = ulpdu_end;
		uint32_t n = stop - w;
		if (n > out->ulpdu_len - k)
			n = out->ulpdu_len - k;
		memcpy(scratch + k, wire + w, n);
		k += n;
		w += n;
	}
}

struct iws_result iws_mpa_fpdu_parse(const uint8_t *wire, size_t len, uint32_t seq,
				     const struct iws_mpa_dir *d, bool check_crc,
				     uint8_t *scratch, size_t scratch_len, struct iws_fpdu *out)
{
	out->seq = seq;
	out->n_markers = 0;
	out->marker_errors = 0;
	out->crc_status = IWS_CRC_NOT_CHECKED;
	out->crc_calc = 0;
	out->ulpdu = NULL;

	if (d->markers && ((seq - d->marker_base) & 3) != 0)
		return iws_malformed("FPDU start not aligned with the marker grid", 0, 0);

	uint32_t len_off = iws_mpa_len_field_off(d, seq);
	if (len < len_off + IWS_MPA_ULPDU_LEN_LEN)
		return iws_need(len_off + IWS_MPA_ULPDU_LEN_LEN);
	out->len_off = len_off;
	out->ulpdu_off = len_off + IWS_MPA_ULPDU_LEN_LEN;
	out->ulpdu_len = iws_be16(wire + len_off);
	out->pad = (uint8_t)iws_mpa_pad_len(out->ulpdu_len);
	out->wire_len = iws_mpa_fpdu_wire_len(d, seq, out->ulpdu_len);
	if (out->ulpdu_len < IWS_DDP_MIN_HDR_LEN)
		return iws_malformed("ULPDU_Length smaller than a DDP header", len_off, 2);
	if (len < out->wire_len)
		return iws_need(out->wire_len);

	if (d->markers)
		parse_fpdu_markers(wire, len, seq, d, len_off, out);
	uint32_t ulpdu_end = place_fpdu_fields(wire, out);

	/* Does a marker fall inside the ULPDU? Then hand out a marker-free copy. */
	if (ulpdu_end - out->ulpdu_off == out->ulpdu_len) {
		out->ulpdu = wire + out->ulpdu_off;
	} else {
		if (!scratch || scratch_len < out->ulpdu_len)
			return iws_malformed("no scratch buffer for a marker-split ULPDU", 0, 0);
		copy_ulpdu_unmarked(wire, ulpdu_end, scratch, out);
		out->ulpdu = scratch;
	}

	if (d->crc && check_crc) {
		/* RFC 5044 §4.4: the CRC covers ULPDU_Length through PAD, with any
		 * markers before the CRC field (a leading marker included). */
		out->crc_calc = iws_crc32c_extend(0, wire, out->crc_off);
		out->crc_status = out->crc_calc == out->crc_wire ? IWS_CRC_OK : IWS_CRC_BAD;
	}
	return iws_ok();
}

size_t iws_mpa_strip_markers(const uint8_t *wire, size_t wire_len, uint32_t seq,
			     const struct iws_mpa_dir *d, uint8_t *out)
{
	if (!d->markers) {
		memcpy(out, wire, wire_len);
		return wire_len;
	}
	size_t n = 0, w = 0;
	size_t next = iws_mpa_next_marker_dist(d, seq);
	while (w < wire_len) {
		if (w == next) {
			w += IWS_MPA_MARKER_LEN;
			next += IWS_MPA_MARKER_INTERVAL;
			continue;
		}
		size_t stop = next < wire_len ? next : wire_len;
		memcpy(out + n, wire + w, stop - w);
		n += stop - w;
		w = stop;
	}
	return n;
}

/* ---- negotiation ---- */

void iws_mpa_conn_init(struct iws_mpa_conn *c)
{
	memset(c, 0, sizeof(*c));
}

void iws_mpa_conn_request(struct iws_mpa_conn *c, const struct iws_mpa_frame *req, uint32_t seq_end)
{
	c->state = IWS_MPA_ST_REQUEST_SEEN;
	c->rev = req->rev;
	c->req_flags = req->flags;
	c->crc = req->crc;
	/* M in the Request asks for markers on the responder's FPDUs. */
	c->dir[IWS_DIR_R2I].markers = req->markers;
	c->dir[IWS_DIR_I2R].marker_base = seq_end;
	c->enhanced = req->has_enhanced;
	c->p2p = req->p2p;
	c->rtr = req->rtr;
	c->ird[IWS_DIR_I2R] = req->ird;
	c->ord[IWS_DIR_I2R] = req->ord;
	c->dir[IWS_DIR_I2R].crc = c->dir[IWS_DIR_R2I].crc = c->crc;
}

void iws_mpa_conn_reply(struct iws_mpa_conn *c, const struct iws_mpa_frame *rep, uint32_t seq_end)
{
	c->rep_flags = rep->flags;
	c->rev = rep->rev;
	c->state = rep->reject ? IWS_MPA_ST_REJECTED : IWS_MPA_ST_FULL;
	/* RFC 5044 §7.1.1: CRC is used in both directions when either side
	 * asks; M in the Reply asks for markers on the initiator's FPDUs. */
	c->crc = c->crc || rep->crc;
	c->dir[IWS_DIR_I2R].markers = rep->markers;
	c->dir[IWS_DIR_R2I].marker_base = seq_end;
	c->dir[IWS_DIR_I2R].crc = c->dir[IWS_DIR_R2I].crc = c->crc;
	c->has_ird_ord = c->enhanced && rep->has_enhanced;
	c->enhanced = c->has_ird_ord;
	c->ird[IWS_DIR_R2I] = rep->ird;
	c->ord[IWS_DIR_R2I] = rep->ord;
	/* RFC 6581 §7: peer-to-peer only when both ask; the Reply names the RTR
	 * type the initiator must send. */
	c->p2p = c->p2p && rep->p2p;
	c->rtr = c->p2p ? rep->rtr : 0;
}

/* Markers inside the ULPDU before first_hole do not count (RFC 5044 §4.3:
 * they are not part of it). */
uint32_t iws_fpdu_ulpdu_captured(const struct iws_fpdu *f, uint32_t first_hole)
{
	if (first_hole <= f->ulpdu_off)
		return 0;
	uint32_t n = first_hole - f->ulpdu_off;
	for (uint32_t i = 0; i < f->n_markers; i++)
		if (f->markers[i].off >= f->ulpdu_off && f->markers[i].off < first_hole)
			n = n >= IWS_MPA_MARKER_LEN ? n - IWS_MPA_MARKER_LEN : 0;
	return n < f->ulpdu_len ? n : f->ulpdu_len;
}
