// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The MPA stage of the stream engine (see stream_int.h): per direction, a
 * small state machine over the in-order byte stream,
 *
 *   hunt   look for the MPA Request/Reply key (RFC 5044 §7.1.1; it need not
 *          be at offset 0) and, where the handshake was not captured or
 *          framing was lost, for the next FPDU boundary (iws_sync_find:
 *          markers when present, else a validated FPDU chain);
 *   wait   the initiator's octets after its Request wait for the Reply,
 *          which says whether they carry markers (RFC 5044 §7.1.1);
 *   frame  FPDUs one after another (iws_mpa_fpdu_parse: markers removed,
 *          CRC checked), then the DDP/RDMAP headers (iws_rdmap_parse);
 *
 * with a buffer that records, for every octet, the frame it came from and
 * the holes (octets never captured) inside it. An FPDU that lies inside one
 * delivered chunk is decoded in place; only an FPDU that straddles chunks
 * (or is found while hunting) is copied.
 */
#include <stdlib.h>
#include <string.h>

#include "stream_int.h"
#include "bytes.h"

/* Hunting: a sync attempt as soon as octets arrive, then whenever the
 * buffer has grown by as much again (at least STEP_MIN, at most STEP_MAX):
 * quick to lock on, linear work on a stream that never validates. */
#define HUNT_STEP_MIN 64u
#define HUNT_STEP_MAX (64u << 10)
/* Hunting buffer bound: past it the oldest octets are passed over. */
#define HUNT_MAX (3u * IWS_FPDU_MAX_WIRE)
/* A stream hunted this far without a key or an FPDU chain is not iWARP. */
#define HUNT_GIVE_UP (512u << 10)
/* A stream seen from its SYN carries the MPA Request or Reply first (RFC 5044
 * §7.1: at most a few streaming-mode octets before it): without a key this far
 * in, and nothing missing, it is not iWARP. */
#define KEY_ONLY_LIMIT (16u << 10)
/* Longest MPA key prefix looked for ("MPA ID Re", RFC 5044 §7.1.1). */
static const char key_prefix[] = "MPA ID Re";
#define KEY_PREFIX_LEN 9

/* ---- the direction's buffer and the shared memory limit ---- */

static void account(struct iws_stream *s, struct fr_dir *fd)
{
	uint64_t now = sbuf_footprint(&fd->buf);
	struct iws_stream_limits *lim = s->lim;
	lim->buf_used = lim->buf_used - fd->acct + now;
	if (lim->buf_used > lim->buf_peak)
		lim->buf_peak = lim->buf_used;
	fd->acct = now;
}

/* May the buffer grow by n octets? */
static bool room_for(struct iws_stream *s, struct fr_dir *fd, uint32_t n)
{
	account(s, fd);
	const struct sbuf *b = &fd->buf;
	uint64_t grow = sbuf_growth(b, n);
	/* ... and its mark array; a hole may need a hole record */
	if (b->nmarks == b->capmarks)
		grow += (b->capmarks ? b->capmarks : 8) * sizeof(struct smark);
	if (b->nholes == b->capholes)
		grow += (b->capholes ? b->capholes : 4) * sizeof(struct shole);
	/* Every direction may always hold a little, whatever the others hold:
	 * enough for an MPA Request or Reply (at most 20 + 512 octets, RFC 5044
	 * §7.1) and an FPDU header, so that a connection that starts once the
	 * limit is reached is still recognised. */
	if (sbuf_footprint(b) + grow <= IWS_STREAM_FLOOR)
		return true;
	return s->lim->buf_used + grow <= s->lim->max_buf;
}

static bool buf_add(struct iws_stream *s, struct fr_dir *fd, const uint8_t *p, uint32_t n,
		    uint64_t frame, int64_t ts, uint8_t how)
{
	if (!room_for(s, fd, n) ||
	    !sbuf_append(&fd->buf, fd->pos, p, n, frame, ts, how, fd->run_frame, fd->run_ts))
		return false;
	account(s, fd);
	fd->pos += n;
	return true;
}

static bool buf_add_hole(struct iws_stream *s, struct fr_dir *fd, uint32_t n, bool snap)
{
	if (!room_for(s, fd, n) || !sbuf_append_hole(&fd->buf, fd->pos, n, snap))
		return false;
	account(s, fd);
	fd->pos += n;
	return true;
}

/* ---- spans: what became of each frame's octets (front ends that show
 * every frame ask for them) ---- */

/* Buffer octets [from, to), all from one frame's chunk, less the holes in
 * them: a hole is octets no frame carried (a gap, or the end of the stream
 * inside an FPDU), which a front end must not look for in the frame. */
static void span_captured(struct iws_stream *s, int side, const struct sbuf *b, uint32_t from,
			  uint32_t to, enum iws_span_kind kind, uint64_t frame, uint64_t pdu_frame,
			  uint32_t pdu_seq)
{
	for (uint32_t i = 0; i < b->nholes && from < to; i++) {
		const struct shole *h = &b->holes[i];
		if (h->off + h->len <= from)
			continue;
		if (h->off >= to)
			break;
		if (h->off > from)
			st_span(s, kind, side, b->seq + from, h->off - from, frame, pdu_frame, pdu_seq);
		from = h->off + h->len;
	}
	if (from < to)
		st_span(s, kind, side, b->seq + from, to - from, frame, pdu_frame, pdu_seq);
}

static void spans_of(struct iws_stream *s, int side, const struct sbuf *b, uint32_t off,
		     uint32_t len, enum iws_span_kind kind, uint64_t pdu_frame, uint32_t pdu_seq)
{
	if (!s->o.want_spans || !len || !b->nmarks)
		return;
	uint32_t end = off + len;
	uint32_t i = sbuf_mark_index(b, off);
	uint32_t from = off;
	uint64_t frame = b->marks[i].frame;
	for (i++; i < b->nmarks && b->marks[i].off < end; i++) {
		if (b->marks[i].frame == frame)
			continue;
		span_captured(s, side, b, from, b->marks[i].off, kind, frame, pdu_frame, pdu_seq);
		from = b->marks[i].off;
		frame = b->marks[i].frame;
	}
	span_captured(s, side, b, from, end, kind, frame, pdu_frame, pdu_seq);
}

/* Why octets of a direction are passed over while it hunts. */
static enum iws_span_kind hunt_skip_kind(const struct fr_dir *fd)
{
	return fd->ever_framed || fd->damaged ? IWS_SPAN_AFTER_GAP : IWS_SPAN_PRESYNC;
}

/* Pass over the first k octets of the buffer. */
static void skip(struct iws_stream *s, int side, uint32_t k, enum iws_span_kind kind)
{
	struct fr_dir *fd = &s->d[side];
	if (!k)
		return;
	fd->at_seqstart = false;
	fd->c.skipped_bytes += k;
	spans_of(s, side, &fd->buf, 0, k, kind, 0, 0);
	sbuf_consume(&fd->buf, k);
}

/* ---- emitting PDUs ---- */

struct frames {
	uint64_t first, arrived, done;
	int64_t first_ts, arrived_ts, done_ts;
	/* retransmitted segments among them (index HOW_RESENT), reordered ones
	 * (HOW_REORDERED); the segments of the first / last octet, when such
	 * (0: not) */
	uint32_t n[3];
	uint64_t edge_first[3], edge_last[3];
};

/* The frames of buffer octets [o, o+w) (docs/semantics.md). */
static void frames_of(const struct sbuf *b, uint32_t o, uint32_t w, struct frames *fr)
{
	uint32_t i = sbuf_mark_index(b, o);
	const struct smark *m = &b->marks[i];
	memset(fr->n, 0, sizeof(fr->n));
	memset(fr->edge_first, 0, sizeof(fr->edge_first));
	memset(fr->edge_last, 0, sizeof(fr->edge_last));
	fr->first = fr->arrived = m->frame;
	fr->first_ts = fr->arrived_ts = m->ts;
	fr->n[m->how]++;
	fr->edge_first[m->how] = m->frame;
	for (i++; i < b->nmarks && b->marks[i].off < o + w; i++) {
		m = &b->marks[i];
		/* marks of one segment are adjacent: a new frame, a new segment */
		if (m->frame != b->marks[i - 1].frame)
			fr->n[m->how]++;
		if (m->frame < fr->first) {
			fr->first = m->frame;
			fr->first_ts = m->ts;
		}
		if (m->frame > fr->arrived) {
			fr->arrived = m->frame;
			fr->arrived_ts = m->ts;
		}
	}
	m = sbuf_mark_at(b, o + w - 1);
	fr->done = m->run_frame;
	fr->done_ts = m->run_ts;
	fr->edge_last[m->how] = m->frame;
}

static void pdu_frames(struct iws_pdu *ev, const struct frames *fr)
{
	ev->first_frame = fr->first;
	ev->first_ts = fr->first_ts;
	ev->arrived_frame = fr->arrived;
	ev->arrived_ts = fr->arrived_ts;
	ev->frame = fr->done;
	ev->ts = fr->done_ts;
}

/* Framing was found again after a loss (or at the capture start): the
 * tracker hears of the loss once, and once more when octets were passed
 * over since it did - their FPDUs (requests, responses) are lost too -
 * unless all of them were of the span a snapshot length hid, told already
 * (st_hidden). */
static void found_after_loss(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	bool passed = fd->c.skipped_bytes != fd->skipped_at_loss;
	if (!fd->lost_reported || (passed && !fd->hidden_open))
		st_lost(s, side);
}

static void lose_sync(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	fd->mode = FR_HUNT;
	fd->need = 0;
	fd->key_from = 0;
	fd->next_try = 0;
	fd->at_seqstart = false;
	fd->c.lost++;
	fd->gap_before = true;
	if (!fd->lost_reported)
		st_lost(s, side);
	fd->lost_reported = true;
	fd->skipped_at_loss = fd->c.skipped_bytes;
	st_event(s, IWS_SEV_FRAMING_LOST, side, fd->buf.len ? fd->buf.seq : fd->pos, 0, 0);
}

struct iws_result iws_fpdu_decode(const uint8_t *wire, uint32_t len, uint32_t first_hole, uint32_t seq,
				  const struct iws_mpa_dir *d, bool check_crc, uint8_t *scratch,
				  struct iws_fpdu *f, struct iws_msg *msg, struct iws_result *msg_res)
{
	bool trunc = first_hole < len;
	struct iws_result r = iws_mpa_fpdu_parse(wire, len, seq, d, check_crc && !trunc, scratch,
						 scratch ? 65536 : 0, f);
	*msg_res = r;
	if (r.status != IWS_OK)
		return r;
	if (trunc) {
		if (d->crc)
			f->crc_status = IWS_CRC_UNVERIFIABLE;
		/* A marker that was never captured reads as zeros: report the
		 * FPDUPTR its position implies (RFC 5044 §4.2) rather than an
		 * error nobody made. */
		for (uint32_t i = 0; i < f->n_markers; i++) {
			struct iws_mpa_marker *m = &f->markers[i];
			if (m->off + IWS_MPA_MARKER_LEN <= first_hole)
				continue;
			if (!m->ok && f->marker_errors)
				f->marker_errors--;
			m->fpduptr = (uint16_t)iws_mpa_fpduptr_expected(f->len_off, m->off);
			m->rsvd = 0;
			m->ok = true;
		}
		/* With the DDP header captured the segment is known (which
		 * message, which offset); octets after it that were not captured
		 * read as zeros, and the segment is marked truncated. */
		struct iws_ddp_hdr h;
		uint32_t cap = iws_fpdu_ulpdu_captured(f, first_hole);
		*msg_res = iws_ddp_parse(f->ulpdu, cap, 0, &h);
		if (msg_res->status != IWS_OK)
			return r;
		*msg_res = iws_rdmap_parse(f->ulpdu, f->ulpdu_len, msg);
		msg->captured = cap;
		return r;
	}
	*msg_res = iws_rdmap_parse(f->ulpdu, f->ulpdu_len, msg);
	return r;
}

/*
 * Decode and report the FPDU at wire[0, w) (TCP seq `seq`). first_hole is
 * the wire offset of its first missing octet (w when all were captured).
 */
static void emit(struct iws_stream *s, int side, const uint8_t *wire, uint32_t w, uint32_t seq,
		 const struct frames *fr, uint32_t first_hole)
{
	struct fr_dir *fd = &s->d[side];
	struct iws_fpdu f;
	struct iws_msg msg;
	struct iws_result mr;
	if (fd->p.markers && !s->scratch)
		s->scratch = malloc(65536);
	struct iws_result r = iws_fpdu_decode(wire, w, first_hole, seq, &fd->p, s->o.check_crc,
					      fd->p.markers ? s->scratch : NULL, &f, &msg, &mr);
	if (r.status != IWS_OK) {
		/* Cannot happen for a length we computed ourselves (but for a
		 * scratch buffer that could not be had); stay safe. */
		fd->c.undecodable++;
		return;
	}
	fd->c.fpdus++;
	bool trunc = first_hole < w;
	if (trunc)
		fd->c.truncated++;
	fd->c.marker_errors += f.marker_errors;

	struct iws_pdu ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = IWS_PDU_FPDU;
	ev.side = side;
	ev.dir = fr_dir_of(s, side);
	ev.seq = seq;
	ev.len = w;
	ev.wire = wire;
	ev.first_hole = first_hole;
	pdu_frames(&ev, fr);
	ev.retrans = fr->n[HOW_RESENT] + fd->resent_pending;
	ev.retrans_first_frame = fr->edge_first[HOW_RESENT];
	ev.retrans_last_frame = fr->edge_last[HOW_RESENT];
	ev.reordered = fr->n[HOW_REORDERED];
	ev.reord_first_frame = fr->edge_first[HOW_REORDERED];
	ev.reord_last_frame = fr->edge_last[HOW_REORDERED];
	fd->resent_pending = 0;
	ev.gap_before = fd->gap_before;
	ev.mdir = &fd->p;
	ev.fpdu = &f;
	ev.truncated = trunc;
	ev.unfinished = trunc && fd->ending;
	if (mr.status == IWS_OK) {
		ev.msg = &msg;
	} else {
		fd->c.undecodable++;
		ev.why = mr.status == IWS_NEED_MORE ? "headers not captured" : mr.reason;
	}
	fd->gap_before = false;
	st_pdu(s, &ev);
	fd->fpdu_index++;
	/* A sender that leaves CRC fields out of its marker count: the grid
	 * of the next FPDU is 4 octets on. */
	if (fd->p.skip_crc)
		fd->p.marker_base += IWS_MPA_CRC_LEN;
}

/* ---- senders that break the marker rules (RFC 5044 §4.2-4.3) ---- */

/* The marker words of the FPDU at wire[0, avail) (TCP seq `seq`) where d
 * places them: 1 all of them right (reserved zero, FPDUPTR back to the
 * FPDU's ULPDU_Length), 0 not, -1 none captured. */
static int grid_fit(const struct iws_mpa_dir *d, const uint8_t *wire, uint32_t avail, uint32_t seq)
{
	uint32_t lo = iws_mpa_len_field_off(d, seq);
	if (avail < lo + IWS_MPA_ULPDU_LEN_LEN)
		return -1;
	uint16_t ulen = iws_be16(wire + lo);
	if (ulen < IWS_DDP_MIN_HDR_LEN)
		return 0;
	uint32_t w = iws_mpa_fpdu_wire_len(d, seq, ulen);
	int seen = 0;
	for (uint32_t o = iws_mpa_next_marker_dist(d, seq); o < w && o + IWS_MPA_MARKER_LEN <= avail;
	     o += IWS_MPA_MARKER_INTERVAL) {
		const uint8_t *m = wire + o;
		uint16_t ptr = d->fpduptr_le ? (uint16_t)(m[2] | m[3] << 8) : iws_be16(m + 2);
		if (iws_be16(m) || ptr != iws_mpa_fpduptr_expected(lo, o))
			return 0;
		seen = 1;
	}
	return seen ? 1 : -1;
}

static void deviation(struct iws_stream *s, int side, uint32_t seq, uint32_t bits)
{
	struct fr_dir *fd = &s->d[side];
	if ((fd->marker_dev | bits) == fd->marker_dev)
		return;
	fd->marker_dev |= bits;
	st_event(s, IWS_SEV_MARKERS_NONSTANDARD, side, seq, 0, fd->marker_dev);
}

/*
 * Markers are in force: do this FPDU's sit where the grid says? When they
 * do not, find the grid (and FPDUPTR byte order) they fit, make it the
 * direction's, and tell the sender's fault apart: FPDUPTR least significant
 * octet first; a grid that moves 4 octets on with every FPDU (the sender's
 * marker count leaves CRC fields out: the shift found is 4 per FPDU since
 * the last one that fitted, twice); or a grid offset from SeqStart (a shift
 * after which FPDUs fit again without moving). Both front ends follow the
 * grid found, so they decide alike.
 */
static void fit_markers(struct iws_stream *s, int side, const uint8_t *wire, uint32_t avail, uint32_t seq)
{
	struct fr_dir *fd = &s->d[side];
	uint64_t since = fd->fpdu_index - fd->last_fit;
	int f = grid_fit(&fd->p, wire, avail, seq);
	if (f < 0)
		return;
	if (f == 1) {
		if (fd->realign_pending && since)
			deviation(s, side, seq, IWS_MARKER_DEV_OFFSET);
		fd->realign_pending = 0;
		fd->last_fit = fd->fpdu_index;
		return;
	}
	for (int le = 0; le < 2; le++) {
		for (uint32_t sh = 0; sh < IWS_MPA_MARKER_INTERVAL; sh += 4) {
			struct iws_mpa_dir t = fd->p;
			t.fpduptr_le = le ? !fd->p.fpduptr_le : fd->p.fpduptr_le;
			t.marker_base = fd->p.marker_base + sh;
			if ((!le && !sh) || grid_fit(&t, wire, avail, seq) != 1)
				continue;
			if (t.fpduptr_le != fd->p.fpduptr_le)
				deviation(s, side, seq, IWS_MARKER_DEV_LE_FPDUPTR);
			if (sh) {
				if (fd->realign_pending && since && sh == ((4u * since) & 511u)) {
					t.skip_crc = true;
					fd->realign_pending = 0;
					deviation(s, side, seq, IWS_MARKER_DEV_SKIP_CRC);
				} else {
					fd->realign_pending = sh;
				}
			}
			fd->p = t;
			fd->last_fit = fd->fpdu_index;
			return;
		}
	}
}

/*
 * "No markers" was inferred from FPDUs too short to hold a grid point (a
 * capture that starts mid-stream with small FPDUs): check it on the first
 * FPDU that reaches 512 octets. A marker points back to its FPDU's start
 * (RFC 5044 §4.2), so a word inside it with a zero reserved half and an
 * FPDUPTR equal to its own offset is one; the grid is then known.
 */
static void check_markers_open(struct iws_stream *s, int side, const uint8_t *wire, uint32_t avail,
			       uint32_t seq, uint32_t w)
{
	struct fr_dir *fd = &s->d[side];
	uint32_t n = avail < w ? avail : w;
	if (n < IWS_MPA_MARKER_INTERVAL + IWS_MPA_MARKER_LEN)
		return;  /* not yet a grid point's worth */
	for (uint32_t o = IWS_MPA_MARKER_LEN; o + IWS_MPA_MARKER_LEN <= n && o < IWS_MPA_MARKER_INTERVAL; o += 4) {
		const uint8_t *m = wire + o;
		if (iws_be16(m))
			continue;
		for (int le = 0; le < 2; le++) {
			uint16_t ptr = le ? (uint16_t)(m[2] | m[3] << 8) : iws_be16(m + 2);
			if (ptr != o)
				continue;
			struct iws_mpa_dir t = fd->p;
			t.markers = true;
			t.marker_base = seq + o;
			t.fpduptr_le = le;
			if (grid_fit(&t, wire, avail, seq) != 1)
				continue;
			fd->p = t;
			fd->markers_open = false;
			if (s->st == IWS_SST_INFERRED)
				s->mpa.dir[fr_dir_of(s, side)] = t;
			if (le)
				deviation(s, side, seq, IWS_MARKER_DEV_LE_FPDUPTR);
			return;
		}
	}
	fd->markers_open = false;  /* a grid point was inside: there are none */
}

/*
 * Framing over the buffer: emit every complete FPDU it holds. Returns true
 * when the mode changed (the caller runs the new mode over the buffer).
 */
static bool frame_buffer(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	uint32_t o = 0;
	bool changed = false;
	fd->need = 0;
	while (o < b->len) {
		uint32_t seq = b->seq + o;
		uint32_t avail = b->len - o;
		uint32_t lo = iws_mpa_len_field_off(&fd->p, seq);
		if (avail < lo + IWS_MPA_ULPDU_LEN_LEN)
			break;
		if (fd->p.markers) {
			fit_markers(s, side, b->data + o, sbuf_first_hole(b, o, avail), seq);
			lo = iws_mpa_len_field_off(&fd->p, seq);
			if (avail < lo + IWS_MPA_ULPDU_LEN_LEN)
				break;
		}
		uint16_t ulen = iws_be16(b->data + o + lo);
		if (fd->markers_open && !fd->p.markers && ulen >= IWS_DDP_MIN_HDR_LEN) {
			check_markers_open(s, side, b->data + o, sbuf_first_hole(b, o, avail), seq,
					   iws_mpa_fpdu_wire_len(&fd->p, seq, ulen));
			lo = iws_mpa_len_field_off(&fd->p, seq);
			ulen = iws_be16(b->data + o + lo);
		}
		uint32_t hole = sbuf_first_hole(b, o, lo + 2);
		if (ulen < IWS_DDP_MIN_HDR_LEN || hole < lo + 2) {
			/* A header a snapshot length cut: what that frame still
			 * carried is hidden FPDUs (Read Requests among them are
			 * found from their responses). */
			if (hole < lo + 2 && sbuf_snap_hole(b, o + hole)) {
				const struct smark *cut = sbuf_mark_at(b, o + hole);
				st_hidden(s, side, cut->frame, cut->ts);
				fd->hidden_open = true;
				fd->hidden_frame = cut->frame;
			}
			sbuf_consume(b, o);
			lose_sync(s, side);
			return true;
		}
		uint32_t w = iws_mpa_fpdu_wire_len(&fd->p, seq, ulen);
		if (w > avail) {
			fd->need = w;
			break;
		}
		struct frames fr;
		frames_of(b, o, w, &fr);
		spans_of(s, side, b, o, w, IWS_SPAN_PART, fr.done, seq);
		/* The FPDUs after this one may have completed in frames before
		 * PDUs the other direction holds for order (framing_blocks,
		 * stream_deliver.c). */
		fd->reporting = true;
		fd->report_next = o + w;
		emit(s, side, b->data + o, w, seq, &fr, sbuf_first_hole(b, o, w));
		fd->reporting = false;
		o += w;
		if (fd->mode != FR_FPDU) {
			changed = true;
			break;
		}
	}
	sbuf_consume(b, o);
	return changed;
}

/* ---- the handshake ---- */

static void set_dir_params(struct iws_stream *s)
{
	for (int side = 0; side < 2; side++) {
		struct fr_dir *fd = &s->d[side];
		fd->p = s->mpa.dir[fr_dir_of(s, side)];
		fd->p_known = true;
	}
}

/* Report the MPA Request or Reply at buffer offset k (end: just after it). */
static void emit_mpa(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	struct frames fs;
	frames_of(b, k, fr->total_len, &fs);
	spans_of(s, side, b, k, fr->total_len, IWS_SPAN_PART, fs.done, b->seq + k);
	struct iws_pdu ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = IWS_PDU_MPA_FRAME;
	ev.side = side;
	ev.dir = fr_dir_of(s, side);
	ev.seq = b->seq + k;
	ev.len = fr->total_len;
	ev.wire = b->data + k;
	ev.first_hole = sbuf_first_hole(b, k, fr->total_len);
	pdu_frames(&ev, &fs);
	ev.gap_before = fd->gap_before;
	ev.mpa = fr;
	fd->gap_before = false;
	if (fr->type == IWS_MPA_REQUEST) {
		s->req = *fr;
		s->have_req = true;
		s->req_frame = fs.done;
	} else {
		s->rep = *fr;
		s->have_rep = true;
		s->rep_frame = fs.done;
	}
	st_pdu(s, &ev);
}

/* What a direction knows of its framing once its side of the handshake was
 * seen but the peer's was not: markers, if any, start at the end of the key
 * frame (SeqStart), and CRC is on if this side asked for it (RFC 5044
 * §7.1.1: either side asking turns it on) and may be on otherwise. */
static void hint_from_key(struct fr_dir *fd, const struct iws_mpa_frame *fr, uint32_t seq_end)
{
	fd->hint.markers = IWS_UNKNOWN;
	fd->hint.base_known = true;
	fd->hint.marker_base = seq_end;
	fd->hint.crc = fr->crc ? IWS_YES : IWS_UNKNOWN;
	fd->at_seqstart = true;
	fd->next_try = 0;
}

/* The MPA Request at buffer offset k of side (seq_end: just after it).
 * Returns false if it is not a connection set-up. */
static bool mpa_request(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k,
			uint32_t seq_end)
{
	struct fr_dir *fd = &s->d[side];

	if (s->st != IWS_SST_NONE)
		return false;  /* a second Request: not a connection set-up */
	s->init_side = side;
	s->init_side_known = true;
	s->init_by = IWS_INIT_BY_MPA;
	iws_mpa_conn_request(&s->mpa, fr, seq_end);
	s->st = IWS_SST_REQUEST;
	skip(s, side, k, IWS_SPAN_PRESYNC);
	emit_mpa(s, side, fr, 0);
	sbuf_consume(&fd->buf, fr->total_len);
	/* Should the Reply never be captured (one direction only), this is
	 * what is known of the initiator's framing. */
	hint_from_key(fd, fr, seq_end);
	fd->mode = fd->req_by_fpdus ? FR_HUNT : FR_WAIT;
	fd->req_pending = fd->req_by_fpdus = false;
	return true;
}

/* A Reply that rejects the connection (the Rej bit, RFC 5044 §7.1.1): no
 * FPDUs follow in either direction (§7.1.2), so whatever is buffered is
 * reported as after the reject and both directions stop framing. */
static void mpa_rejected(struct iws_stream *s, int side, uint32_t seq_end)
{
	s->st = IWS_SST_REJECTED;
	st_event(s, IWS_SEV_REJECTED, side, seq_end, 0, 0);
	for (int x = 0; x < 2; x++) {
		struct fr_dir *d = &s->d[x];
		d->rejected = true;
		if (d->buf.len)
			skip(s, x, d->buf.len, IWS_SPAN_AFTER_REJECT);
		d->mode = FR_DEAD;
		sbuf_free(&d->buf);
		account(s, d);
		st_no_fpdus(s, x);
	}
}

/* A Reply whose Request was not captured (seq_end: the Reply's end). */
static void mpa_reply_inferred(struct iws_stream *s, int side, const struct iws_mpa_frame *fr,
			       uint32_t seq_end)
{
	struct fr_dir *fd = &s->d[side];
	struct fr_dir *id = &s->d[s->init_side];

	/* Without the Request, each direction knows half of its marker
	 * rule (RFC 5044 §7.1.1): the responder's markers were asked for
	 * by the Request (unknown) but start at the Reply's end; the
	 * initiator's were decided by this Reply (M) but start at the
	 * unseen Request's end. CRC is on if the Reply says so, and may be
	 * on if it does not. */
	s->st = IWS_SST_INFERRED;
	st_event(s, IWS_SEV_INFERRED, side, seq_end, 0, 0);
	fd->p_known = false;
	hint_from_key(fd, fr, seq_end);
	fd->mode = FR_HUNT;
	id->p_known = false;
	id->hint.markers = fr->markers ? IWS_UNKNOWN : IWS_NO;
	id->hint.base_known = false;
	id->hint.crc = fr->crc ? IWS_YES : IWS_UNKNOWN;
	if (id->mode == FR_WAIT || id->mode == FR_OFF)
		id->mode = FR_HUNT;
}

/* The MPA Reply at buffer offset k of side (seq_end: just after it).
 * Returns false if it does not fit the handshake seen so far. */
static bool mpa_reply(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k,
		      uint32_t seq_end)
{
	struct fr_dir *fd = &s->d[side];

	if (s->st == IWS_SST_REQUEST && side == s->init_side)
		return false;  /* a Reply from the initiator makes no sense */
	if (s->st != IWS_SST_REQUEST && s->st != IWS_SST_NONE)
		return false;
	bool had_request = s->st == IWS_SST_REQUEST;
	if (!had_request) {
		/* The Request was not captured: the Reply still names the
		 * responder and its flags; the initiator's side is inferred. */
		s->init_side = !side;
		s->init_side_known = true;
		s->init_by = IWS_INIT_BY_MPA;
		s->mpa.rev = fr->rev;
	}
	iws_mpa_conn_reply(&s->mpa, fr, seq_end);
	skip(s, side, k, IWS_SPAN_PRESYNC);
	emit_mpa(s, side, fr, 0);
	sbuf_consume(&fd->buf, fr->total_len);
	if (fr->reject) {
		mpa_rejected(s, side, seq_end);
		return true;
	}
	set_dir_params(s);
	fd->mode = FR_FPDU;
	fd->ever_framed = true;
	if (!had_request) {
		mpa_reply_inferred(s, side, fr, seq_end);
		return true;
	}
	s->st = IWS_SST_FULL;
	st_event(s, IWS_SEV_HANDSHAKE, side, seq_end, 0, 0);
	/* The initiator's octets after its Request waited for this Reply,
	 * which says whether they carry markers (RFC 5044 §7.1.1): frame
	 * them now. */
	struct fr_dir *id = &s->d[s->init_side];
	if (id->mode == FR_WAIT) {
		id->mode = FR_FPDU;
		id->ever_framed = true;
		frame_buffer(s, s->init_side);
	}
	return true;
}

/* An MPA Request or Reply decoded at buffer offset k of side. Returns true
 * if hunting on this side is over. */
static bool mpa_frame(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k)
{
	uint32_t seq_end = s->d[side].buf.seq + k + fr->total_len;

	if (fr->type == IWS_MPA_REQUEST)
		return mpa_request(s, side, fr, k, seq_end);
	return mpa_reply(s, side, fr, k, seq_end);
}

/* ---- hunting ---- */

static void infer_params(struct iws_stream *s, int side, const struct iws_sync *sy)
{
	struct fr_dir *fd = &s->d[side];
	if (!fd->p_known) {
		fd->p.markers = sy->markers;
		fd->p.marker_base = sy->marker_base;
		fd->p.fpduptr_le = sy->fpduptr_le;
		fd->p.skip_crc = sy->skip_crc;
		fd->p.crc = sy->crc == IWS_YES;
		fd->p_known = true;
		/* Markers are proven by the grid the chain crossed; their absence
		 * only once an FPDU long enough to hold a grid point is seen. */
		fd->markers_open = !sy->markers && fd->hint.markers != IWS_NO;
		deviation(s, side, fd->buf.seq, (sy->fpduptr_le ? IWS_MARKER_DEV_LE_FPDUPTR : 0) |
					       (sy->skip_crc ? IWS_MARKER_DEV_SKIP_CRC : 0));
		/* RFC 5044 §7.1.1: CRC is on in both directions or in neither. */
		if (fd->p.crc && !s->d[!side].p_known)
			s->d[!side].hint.crc = IWS_YES;
	}
	if (s->st == IWS_SST_NONE || s->st == IWS_SST_REQUEST) {
		s->st = IWS_SST_INFERRED;
		s->mpa.state = IWS_MPA_ST_INFERRED;
		st_event(s, IWS_SEV_INFERRED, side, fd->buf.seq, 0, 0);
	}
	if (s->st == IWS_SST_INFERRED) {
		s->mpa.crc = s->mpa.crc || fd->p.crc;
		s->mpa.dir[fr_dir_of(s, side)] = fd->p;
	}
}

/* Hunts in a row that found FPDUs and no marker grid, after which a
 * direction is hunted without looking for one. */
#define NOGRID_HUNTS 8u

static void sync_opts(const struct iws_stream *s, int side, struct iws_sync_opts *o)
{
	const struct fr_dir *fd = &s->d[side];
	memset(o, 0, sizeof(*o));
	if (fd->p_known) {
		o->markers = fd->p.markers ? IWS_YES : IWS_NO;
		o->marker_base = fd->p.marker_base;
		o->fpduptr_le = fd->p.fpduptr_le;
		o->skip_crc = fd->p.skip_crc;
		/* A grid that moves with every FPDU has moved by an unknown amount
		 * over the octets lost: look for it again; and "no markers" not yet
		 * checked may be wrong. */
		if (fd->p.skip_crc || fd->markers_open)
			o->markers = IWS_UNKNOWN;
		o->crc = fd->p.crc ? IWS_YES : IWS_NO;
	} else {
		o->markers = fd->hint.markers;
		o->marker_base = fd->hint.marker_base;
		o->marker_base_known = fd->hint.base_known;
		o->crc = fd->hint.crc;
	}
	/* Looking for a marker grid costs a scan per candidate grid; a
	 * direction whose last hunts all found FPDUs without one has none
	 * (RFC 5044 §4.2: the grid runs through the whole stream). Without
	 * this, a stream that loses its framing after every FPDU is hunted at
	 * thousands of times the cost of one without markers. */
	if (o->markers == IWS_UNKNOWN && !o->marker_base_known && fd->nogrid_hunts >= NOGRID_HUNTS)
		o->markers = IWS_NO;
}

static void process(struct iws_stream *s, int side, bool final);

/* Do FPDUs start right after the MPA frame at buffer offset k (full
 * operation follows the handshake, RFC 5044 §7.1.2)? 1 yes (a chain of
 * three, markers or not, CRC as the frame asks), 0 no, -1 not enough
 * octets yet. */
static int fpdus_follow(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k,
			bool final)
{
	const struct sbuf *b = &s->d[side].buf;
	uint32_t e = k + fr->total_len;
	if (e >= b->len)
		return -1;
	uint32_t avail = sbuf_first_hole(b, e, b->len - e);
	int verdict = 0;
	for (int mk = 0; mk < 2 && verdict < 1; mk++) {
		struct iws_mpa_dir d;
		memset(&d, 0, sizeof(d));
		d.crc = fr->crc;
		d.markers = mk;
		d.marker_base = b->seq + e;   /* markers start at SeqStart (RFC 5044 §4.3) */
		bool clean;
		unsigned n = iws_sync_chain(b->data + e, avail, b->seq + e, &d, 3, &clean, NULL, NULL);
		if (n >= 3 || (final && clean && n >= 1))
			verdict = 1;  /* (at the end: a chain that runs to it) */
		else if (clean && verdict == 0)
			verdict = -1;
	}
	return verdict;
}

/* The MPA frame at buffer offset k is the first octet of a stream seen
 * from its SYN, nothing missed before it: where the handshake is (RFC 5044
 * §7.1), not a key found inside some other protocol's data. */
static bool begins_stream(const struct fr_dir *fd, uint32_t k)
{
	return k == 0 && fd->at_syn && !fd->damaged && !fd->c.skipped_bytes;
}

/*
 * An MPA key in a stream is believed to set up a connection (a download
 * of a capture file carries keys too) only with evidence:
 * it begins its stream, or, found further in, a Request when FPDUs follow
 * it or when the peer's Reply comes (then the pair is consistent: the
 * Reply's revision is not above the Request's), a Reply when FPDUs follow
 * it. 1 believed, 0 not (look further), -1 not decided yet (a Request waits
 * for more octets or the Reply, hunting stops there).
 */
static int mpa_frame_believed(struct iws_stream *s, int side, const struct iws_mpa_frame *fr, uint32_t k,
			      bool final)
{
	struct fr_dir *fd = &s->d[side];
	if (s->st != IWS_SST_NONE)
		return 1;  /* the Reply to a Request believed (mpa_frame checks it) */
	if (begins_stream(fd, k))
		return 1;
	if (fr->type == IWS_MPA_REQUEST) {
		if (fd->req_confirmed)
			return 1;
		int f = fpdus_follow(s, side, fr, k, final);
		fd->req_pending = f < 0;
		/* FPDUs follow it: the Reply was not captured (mpa_frame frames
		 * them from what the Request says) */
		fd->req_by_fpdus = f > 0;
		return f;
	}
	/* a Reply: the Request the other side holds, undecided, is its pair */
	struct fr_dir *od = &s->d[!side];
	if (od->req_pending && od->mode == FR_HUNT) {
		/* (its buffer may be empty: no pointer into it before the length
		 * check) */
		struct iws_mpa_frame req;
		if (od->key_from + IWS_MPA_HDR_LEN <= od->buf.len &&
		    iws_mpa_parse_frame(od->buf.data + od->key_from, od->buf.len - od->key_from, &req).status ==
			    IWS_OK &&
		    req.type == IWS_MPA_REQUEST && fr->rev <= req.rev) {
			od->req_confirmed = true;
			process(s, !side, false);  /* the Request first */
			od->req_confirmed = false;
			return s->st == IWS_SST_REQUEST ? 1 : 0;
		}
	}
	return fpdus_follow(s, side, fr, k, final) > 0;
}

/* Look for an MPA key in the hunting buffer; true if the mode changed.
 * final: the stream ends here. */
static bool hunt_key(struct iws_stream *s, int side, bool final)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	while (fd->key_from + KEY_PREFIX_LEN <= b->len) {
		const uint8_t *hit = memchr(b->data + fd->key_from, 'M', b->len - fd->key_from);
		if (!hit)
			break;
		uint32_t k = (uint32_t)(hit - b->data);
		if (k + KEY_PREFIX_LEN > b->len) {
			fd->key_from = k;
			return false;
		}
		if (memcmp(hit, key_prefix, KEY_PREFIX_LEN) != 0 || !iws_mpa_key_type(hit, b->len - k)) {
			fd->key_from = k + 1;
			continue;
		}
		if (b->len - k < IWS_MPA_KEY_LEN) {
			fd->key_from = k;
			return false;
		}
		struct iws_mpa_frame fr;
		struct iws_result r = iws_mpa_parse_frame(hit, b->len - k, &fr);
		if (r.status == IWS_NEED_MORE) {
			fd->key_from = k;
			return false;
		}
		/* Private data a snapshot length cut (fr_hole) reads as zeros: the
		 * enhanced IRD/ORD word (RFC 6581 §5) is known only if captured. */
		uint32_t cap = sbuf_first_hole(b, k, b->len - k);
		if (r.status == IWS_OK && fr.has_enhanced && cap < IWS_MPA_HDR_LEN + 4)
			fr.has_enhanced = false;
		if (r.status == IWS_OK) {
			int ok = mpa_frame_believed(s, side, &fr, k, final);
			if (ok < 0) {
				fd->key_from = k;  /* decided when more comes */
				return false;
			}
			if (ok && mpa_frame(s, side, &fr, k))
				return true;
		}
		fd->key_from = k + 1;
	}
	if (b->len > KEY_PREFIX_LEN && fd->key_from < b->len - KEY_PREFIX_LEN)
		fd->key_from = b->len - KEY_PREFIX_LEN;
	return false;
}

static void give_up_direction(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	/* What it holds, and all it carries from now on, is reported as not
	 * iWARP (a front end that shows every frame's octets says why). */
	skip(s, side, fd->buf.len, IWS_SPAN_NOT_IWARP);
	fd->not_iwarp = true;
	fd->mode = FR_DEAD;
	sbuf_free(&fd->buf);
	account(s, fd);
	st_no_fpdus(s, side);
	st_event(s, IWS_SEV_NOT_IWARP, side, fd->pos, 0, 0);
	if (s->st == IWS_SST_NONE && s->d[!side].mode == FR_DEAD)
		s->st = IWS_SST_NOT_IWARP;
}

/* Framing found at sy.off of the buffer: skip what came before, take the
 * parameters and the marker grid it showed, and frame FPDUs from there. */
static void sync_found(struct iws_stream *s, int side, const struct iws_sync *sy)
{
	struct fr_dir *fd = &s->d[side];
	/* Whatever came before (a gap, the capture start) was missed -
	 * unless the FPDU starts right at SeqStart, where full operation
	 * begins (RFC 5044 §7.1.2: the first FPDU follows the MPA frame),
	 * with nothing passed over: a Reply that was not captured, or a
	 * Request that was not, leaves only the parameters to find. */
	bool missed = !(fd->at_seqstart && sy->off == 0);
	fd->hunted = 0;
	skip(s, side, sy->off, hunt_skip_kind(fd));
	infer_params(s, side, sy);
	if (sy->markers) {
		/* the grid of the FPDU found (it may have moved, or been wrong) */
		fd->p.marker_base = sy->marker_base;
		fd->p.fpduptr_le = sy->fpduptr_le;
		fd->p.skip_crc = sy->skip_crc;
		fd->last_fit = fd->fpdu_index;
	}
	if (missed) {
		fd->c.resyncs++;
		found_after_loss(s, side);
		fd->gap_before = true;
	}
	if (fd->hidden_open && sy->off) {
		/* octets passed over while hunting may hide requests too */
		st_hidden(s, side, 0, 0);
	}
	fd->lost_reported = false;
	fd->hidden_open = false;
	fd->ever_framed = true;
	fd->mode = FR_FPDU;
	st_event(s, IWS_SEV_FRAMING_FOUND, side, fd->buf.seq, 0, 0);
}

/* No framing yet (r: iws_sync_find's answer): drop what no chain can start
 * in, and try again once the data has grown; give up after enough. */
static void sync_not_found(struct iws_stream *s, int side, const struct iws_result *r)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	/* The range iws_sync_find scanned (its default max_scan). */
	uint32_t scanned = b->len < IWS_FPDU_MAX_WIRE ? b->len : IWS_FPDU_MAX_WIRE;
	uint32_t drop = 0;
	if (r->status == IWS_MALFORMED) {
		/* No chain starts anywhere in the scanned range. */
		drop = scanned;
	} else if (b->len > HUNT_MAX) {
		/* A candidate chain runs to the end of the data. One that a full
		 * HUNT_MAX (three of the largest FPDUs) after it did not settle is
		 * not pending: the candidates before that point all failed. */
		drop = b->len - HUNT_MAX < scanned ? b->len - HUNT_MAX : scanned;
	}
	/* Try again when the data has grown by as much again (each attempt
	 * rescans what is left). */
	uint32_t left = b->len - drop;
	uint32_t grow = left < HUNT_STEP_MIN ? HUNT_STEP_MIN : left > HUNT_STEP_MAX ? HUNT_STEP_MAX : left;
	fd->next_try = left + grow;
	if (drop) {
		skip(s, side, drop, hunt_skip_kind(fd));
		fd->key_from = fd->key_from > drop ? fd->key_from - drop : 0;
	}
	if (fd->hunted >= HUNT_GIVE_UP && s->st == IWS_SST_NONE)
		give_up_direction(s, side);
}

/* Try to find the next FPDU boundary; true if the mode changed. */
static bool hunt_sync(struct iws_stream *s, int side, bool final)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	if (!b->len || (!final && b->len < fd->next_try))
		return false;
	struct iws_sync_opts o;
	struct iws_sync sy;
	sync_opts(s, side, &o);
	struct iws_result r = iws_sync_find(b->data, b->len, b->seq, &o, &sy);
	if (r.status == IWS_NEED_MORE && final) {
		/* The stream ends here: a chain that runs exactly to its end is
		 * as good as it will get. */
		o.min_chain = 1;
		r = iws_sync_find(b->data, b->len, b->seq, &o, &sy);
		if (r.status == IWS_OK && !sy.chain_to_end)
			r.status = IWS_NEED_MORE;
	}
	if (r.status == IWS_OK && o.markers == IWS_UNKNOWN && !o.marker_base_known) {
		if (sy.markers)
			fd->nogrid_hunts = 0;
		else if (fd->nogrid_hunts < NOGRID_HUNTS)
			fd->nogrid_hunts++;
	}
	if (r.status != IWS_OK) {
		sync_not_found(s, side, &r);
		return false;
	}
	sync_found(s, side, &sy);
	return true;
}

/* Framing found again at buffer offset o, a segment's start (docs/semantics.md:
 * stacks that align FPDUs with segments start every segment with one). */
static void found_at_segment(struct iws_stream *s, int side, uint32_t o)
{
	struct fr_dir *fd = &s->d[side];
	fd->sliced_chain = 0;
	skip(s, side, o, IWS_SPAN_AFTER_GAP);
	fd->hunted = 0;
	fd->c.resyncs++;
	fd->c.segment_resyncs++;
	/* Whatever came before (a header the slice cut, the capture start)
	 * was missed. */
	found_after_loss(s, side);
	fd->gap_before = true;
	fd->lost_reported = false;
	fd->hidden_open = false;
	fd->ever_framed = true;
	fd->mode = FR_FPDU;
	st_event(s, IWS_SEV_FRAMING_FOUND, side, fd->buf.seq, 0, 0);
}

/* Framing was lost at an FPDU header a snapshot length cut: the segments
 * already in the buffer after it start with FPDU headers too (the links of
 * a chain that found the framing, a super-segment's successors): the first
 * whose header was captured and is valid is where framing goes on. */
static bool resync_in_buffer(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	const struct sbuf *b = &fd->buf;
	if (!fd->p_known || fd->p.markers || !fd->hidden_open)
		return false;
	for (uint32_t i = 1; i < b->nmarks; i++) {
		if (b->marks[i].frame == b->marks[i - 1].frame)
			continue;  /* the same segment */
		uint32_t o = b->marks[i].off, w;
		uint32_t cap = sbuf_first_hole(b, o, b->len - o);
		if (cap && iws_sync_header_ok(b->data + o, cap, b->seq + o, &fd->p, &w)) {
			found_at_segment(s, side, o);
			return true;
		}
	}
	return false;
}

static bool hunt(struct iws_stream *s, int side, bool final)
{
	struct fr_dir *fd = &s->d[side];
	bool key = s->st == IWS_SST_NONE || (s->st == IWS_SST_REQUEST && side != s->init_side);
	if (key && hunt_key(s, side, final))
		return true;
	/* Before the Reply a responder sends no FPDUs (RFC 5044 §7.1.1), and a
	 * stream that starts at its SYN begins with the handshake: only look for
	 * FPDUs where the handshake may have been missed. */
	if (key && fd->at_syn && !fd->damaged && s->st == IWS_SST_REQUEST)
		return false;
	if (key && fd->at_syn && !fd->damaged && s->st == IWS_SST_NONE) {
		if (fd->buf.len + fd->c.skipped_bytes >= KEY_ONLY_LIMIT)
			give_up_direction(s, side);
		return false;
	}
	if (resync_in_buffer(s, side))
		return true;
	return hunt_sync(s, side, final);
}

/* Run the current mode over the buffer until nothing more happens. */
static void process(struct iws_stream *s, int side, bool final)
{
	struct fr_dir *fd = &s->d[side];
	for (int guard = 0; guard < 64; guard++) {
		switch (fd->mode) {
		case FR_FPDU:
			if (!frame_buffer(s, side))
				return;
			break;
		case FR_HUNT:
			if (!hunt(s, side, final))
				return;
			break;
		default:
			return;
		}
	}
}

/* ---- from TCP reassembly ---- */

void fr_init(struct iws_stream *s)
{
	iws_mpa_conn_init(&s->mpa);
	for (int side = 0; side < 2; side++) {
		s->d[side].hint.markers = IWS_UNKNOWN;
		s->d[side].hint.crc = IWS_UNKNOWN;
	}
}

void fr_free(struct iws_stream *s)
{
	for (int side = 0; side < 2; side++) {
		sbuf_free(&s->d[side].buf);
		account(s, &s->d[side]);
	}
}

void fr_start(struct iws_stream *s, int side, uint32_t seq, bool at_syn)
{
	struct fr_dir *fd = &s->d[side];
	if (fd->have_pos)
		return;
	fd->have_pos = true;
	fd->pos = seq;
	fd->buf.seq = seq;
	fd->at_syn = at_syn;
	if (fd->mode == FR_OFF)
		fd->mode = FR_HUNT;
	fd->next_try = 0;
}

static void update_run(struct fr_dir *fd, uint64_t frame, int64_t ts)
{
	if (frame > fd->run_frame) {
		fd->run_frame = frame;
		fd->run_ts = ts;
	}
}

/* n octets at the stream position, and whatever the direction buffers, are
 * given up: as if never captured (framing is found again after them). */
static void drop_all(struct iws_stream *s, int side, uint32_t n, uint64_t frame,
		     enum iws_span_kind kind)
{
	struct fr_dir *fd = &s->d[side];
	fd->damaged = true;
	fd->at_seqstart = false;
	skip(s, side, fd->buf.len, kind);
	sbuf_clear(&fd->buf);
	account(s, fd);
	if (n && frame)
		st_span(s, kind, side, fd->pos, n, frame, 0, 0);
	fd->need = 0;
	fd->pos += n;
	fd->buf.seq = fd->pos;
	if (fd->mode == FR_FPDU)
		lose_sync(s, side);
	else if (fd->mode == FR_WAIT)
		fd->mode = FR_HUNT;
	fd->gap_before = true;
	fd->key_from = 0;
	fd->next_try = 0;
}

/* The buffer could not take n more octets (the memory limit, or none left). */
static void overflow(struct iws_stream *s, int side, uint32_t n, uint64_t frame)
{
	struct fr_dir *fd = &s->d[side];
	fd->c.buf_limit_hits++;
	fd->c.skipped_bytes += n;
	st_event(s, IWS_SEV_LIMIT, side, fd->pos, n, 0);
	drop_all(s, side, n, frame, IWS_SPAN_LIMIT);
}

/* A direction no longer framed (rejected, not iWARP, off): its octets are
 * passed over, with what became of them. true when that was the case. */
static bool pass_over(struct iws_stream *s, int side, uint32_t seq, uint32_t n, uint64_t frame)
{
	struct fr_dir *fd = &s->d[side];
	if (fd->mode != FR_DEAD && fd->mode != FR_OFF)
		return false;
	if (fd->rejected)
		st_span(s, IWS_SPAN_AFTER_REJECT, side, seq, n, frame, 0, 0);
	else if (fd->not_iwarp)
		st_span(s, IWS_SPAN_NOT_IWARP, side, seq, n, frame, 0, 0);
	fd->pos = seq + n;
	return true;
}

/* Complete an FPDU carried over from earlier chunks with the chunk's first
 * octets (*p, *n advance past them). false: the buffer overflowed (the
 * chunk was dropped). */
static bool complete_carried(struct iws_stream *s, int side, const uint8_t **p, uint32_t *n,
			     uint64_t frame, int64_t ts, uint8_t how)
{
	struct fr_dir *fd = &s->d[side];
	while (*n && fd->mode == FR_FPDU && fd->buf.len) {
		uint32_t want;
		uint32_t lo = iws_mpa_len_field_off(&fd->p, fd->buf.seq);
		if (fd->need)
			want = fd->need - fd->buf.len;
		else if (fd->buf.len < lo + IWS_MPA_ULPDU_LEN_LEN)
			want = lo + IWS_MPA_ULPDU_LEN_LEN - fd->buf.len;
		else
			break; /* frame_buffer has already decided about it */
		uint32_t k = want < *n ? want : *n;
		if (!buf_add(s, fd, *p, k, frame, ts, how)) {
			overflow(s, side, *n, frame);
			return false;
		}
		*p += k;
		*n -= k;
		if (frame_buffer(s, side))
			break;
	}
	return true;
}

/* FPDUs that lie whole inside the chunk: decoded in place (*p, *n advance
 * past them); stops at one that straddles its end (fd->need) or a loss. */
static void frame_in_place(struct iws_stream *s, int side, const uint8_t **p, uint32_t *n,
			   uint64_t frame, int64_t ts, uint8_t how)
{
	struct fr_dir *fd = &s->d[side];
	while (*n && fd->mode == FR_FPDU && !fd->buf.len) {
		const uint8_t *q = *p;
		uint32_t lo = iws_mpa_len_field_off(&fd->p, fd->pos);
		if (*n < lo + IWS_MPA_ULPDU_LEN_LEN)
			break;
		if (fd->p.markers) {
			fit_markers(s, side, q, *n, fd->pos);
			lo = iws_mpa_len_field_off(&fd->p, fd->pos);
			if (*n < lo + IWS_MPA_ULPDU_LEN_LEN)
				break;
		}
		uint16_t ulen = iws_be16(q + lo);
		if (fd->markers_open && !fd->p.markers && ulen >= IWS_DDP_MIN_HDR_LEN) {
			check_markers_open(s, side, q, *n, fd->pos, iws_mpa_fpdu_wire_len(&fd->p, fd->pos, ulen));
			lo = iws_mpa_len_field_off(&fd->p, fd->pos);
			ulen = iws_be16(q + lo);
		}
		if (ulen < IWS_DDP_MIN_HDR_LEN) {
			lose_sync(s, side);
			break;
		}
		uint32_t w = iws_mpa_fpdu_wire_len(&fd->p, fd->pos, ulen);
		if (w > *n) {
			fd->need = w;
			break;
		}
		struct frames fr = { frame, frame, fd->run_frame, ts, ts, fd->run_ts, { 0 }, { 0 }, { 0 } };
		fr.n[how] = 1;
		fr.edge_first[how] = fr.edge_last[how] = frame;
		if (frame != fd->run_frame)
			/* octets buffered out of order, delivered now */
			st_span(s, IWS_SPAN_PART, side, fd->pos, w, frame, fd->run_frame, fd->pos);
		emit(s, side, q, w, fd->pos, &fr, w);
		*p += w;
		*n -= w;
		fd->pos += w;
	}
}

/* The rest of the chunk waits in the buffer: a straddling FPDU, or octets
 * to hunt through. */
static void buffer_rest(struct iws_stream *s, int side, const uint8_t *p, uint32_t n, uint64_t frame,
			int64_t ts, uint8_t how)
{
	struct fr_dir *fd = &s->d[side];
	if (fd->mode == FR_HUNT)
		fd->hunted += n;
	/* A straddling FPDU of known length: one allocation for all of it. */
	if (fd->mode == FR_FPDU && fd->need && !fd->buf.len && room_for(s, fd, fd->need))
		sbuf_reserve(&fd->buf, fd->need);
	if (!buf_add(s, fd, p, n, frame, ts, how)) {
		overflow(s, side, n, frame);
		return;
	}
	if (fd->mode != FR_FPDU || fd->buf.len != n || !fd->need)
		process(s, side, false);
}

/* A chunk of side's stream, in order: passed over, or framed (an FPDU
 * carried over completed, those inside framed in place, the rest buffered). */
static void data_in(struct iws_stream *s, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		    uint64_t frame, int64_t ts, uint8_t how)
{
	struct fr_dir *fd = &s->d[side];
	if (!fd->have_pos)
		fr_start(s, side, seq, false);
	update_run(fd, frame, ts);
	if (pass_over(s, side, seq, n, frame))
		return;
	fd->pos = seq;
	if (fd->mode == FR_WAIT && s->st == IWS_SST_REQUEST) {
		/* The initiator sends FPDUs only once it has the Reply (RFC 5044
		 * §7.1.2): octets after its Request with no Reply in the capture
		 * mean the Reply was not captured (one direction only). Frame
		 * them from what the Request says. */
		fd->mode = FR_HUNT;
		fd->next_try = 0;
	}
	if (!complete_carried(s, side, &p, &n, frame, ts, how))
		return;
	frame_in_place(s, side, &p, &n, frame, ts, how);
	if (n)
		buffer_rest(s, side, p, n, frame, ts, how);
}

void fr_data(struct iws_stream *s, int side, uint32_t seq, const uint8_t *p, uint32_t n,
	     uint64_t frame, int64_t ts, uint8_t how)
{
	/* While the chunk is worked through, what is left of it is not in the
	 * buffer yet: framing_blocks (stream_deliver.c) must still count it. */
	s->d[side].delivering = true;
	data_in(s, side, seq, p, n, frame, ts, how);
	s->d[side].delivering = false;
}

/* A key hunt stopped at an MPA frame whose header (key, flags, revision,
 * PD_Length) is in the buffer but not all of its private data: how many
 * octets of it are still to come (0: none pending). */
static uint32_t mpa_frame_rest(const struct iws_stream *s, int side)
{
	const struct fr_dir *fd = &s->d[side];
	const struct sbuf *b = &fd->buf;
	uint32_t k = fd->key_from;
	bool key = s->st == IWS_SST_NONE || (s->st == IWS_SST_REQUEST && side != s->init_side);
	if (!key || b->len < k + IWS_MPA_HDR_LEN || sbuf_first_hole(b, k, IWS_MPA_HDR_LEN) < IWS_MPA_HDR_LEN ||
	    !iws_mpa_key_type(b->data + k, b->len - k))
		return 0;
	uint32_t total = IWS_MPA_HDR_LEN + iws_be16(b->data + k + 18);
	if (total - IWS_MPA_HDR_LEN > IWS_MPA_MAX_PD_LEN || b->len >= k + total)
		return 0;
	return k + total - b->len;
}

/* Links of a chain of sliced segments that start with an FPDU header, needed
 * to find the framing of a capture that starts mid-stream (like sync's chain). */
#define SLICED_CHAIN 3u

/* The whole FPDUs that tile the captured octets [from, to) of the buffer
 * exactly, each header valid: links a sliced chain may count between two
 * segments the slice cut (a direction whose small FPDUs fit the snapshot
 * length and larger ones do not: rping at 128 octets). 0 when they do not. */
static uint32_t whole_links(const struct sbuf *b, uint32_t from, uint32_t to, const struct iws_mpa_dir *d)
{
	uint32_t off = from - b->seq, end = to - b->seq, links = 0, w;
	if ((int32_t)(from - b->seq) < 0 || (int32_t)(to - from) <= 0 || end > b->len ||
	    sbuf_first_hole(b, off, end - off) < end - off)
		return 0;
	while (off < end && links < SLICED_CHAIN) {
		if (!iws_sync_header_ok(b->data + off, end - off, b->seq + off, d, &w) || w > end - off)
			return 0;
		off += w;
		links++;
	}
	return off == end ? links : 0;
}

/*
 * A sliced capture: the segment being read starts in the buffer at the
 * last chunk and the snapshot length cut it n octets before its end. While
 * a direction hunts for FPDU boundaries, a valid FPDU header at the start
 * of the segment is taken as a boundary: stacks that slice their stream
 * into FPDUs aligned with TCP segments (RFC 5044 §8: siw and the hardware
 * RNICs do) start every segment with one. The patterns real senders use:
 * one FPDU that fills the segment; an FPDU and its CRC in two segments
 * (siw: 1444 octets, then 4); an FPDU over several segments (siw with GSO);
 * several FPDUs in one segment (packed Read Requests, TSO super-segments).
 * - framing known (it was lost at a header the slice cut): an FPDU at the
 *   segment's start is enough;
 * - framing not known (the capture starts mid-stream): SLICED_CHAIN links,
 *   each an FPDU header at a segment's start (markers off, as sync's chain
 *   would want) where the previous link ends - the end of its FPDU when
 *   that reaches past its segment (the segments between are its octets),
 *   else the end of its segment (the FPDUs after the first are hidden) -
 *   kept in the buffer with their cut octets as holes until the chain is
 *   long enough; whole FPDUs the slice did not cut, captured between two
 *   links and leading exactly from one to the next, are links too.
 * Returns 1 if framing is found, 0 if the segment was kept as a candidate
 * (its hole is in the buffer), -1 if it is no candidate.
 */
static int resync_at_segment(struct iws_stream *s, int side, uint32_t n)
{
	struct fr_dir *fd = &s->d[side];
	struct sbuf *b = &fd->buf;
	/* (with markers, a segment may start at a marker: FPDUPTR is the
	 * evidence there, not the segment) */
	if (fd->mode != FR_HUNT || !b->nmarks || (fd->p_known && fd->p.markers) ||
	    (!fd->p_known && fd->hint.markers == IWS_YES))
		return -1;
	const struct smark *m = &b->marks[b->nmarks - 1];
	uint32_t o = m->off, w;
	uint32_t at = b->seq + o, seg_len = b->len - o + n;
	struct iws_mpa_dir guess = fd->p;
	if (!fd->p_known) {
		memset(&guess, 0, sizeof(guess));
		guess.crc = fd->hint.crc == IWS_YES;
	}
	if (m->frame != s->cur_frame || o >= b->len || sbuf_first_hole(b, o, b->len - o) < b->len - o) {
		fd->sliced_chain = 0;
		return -1;
	}
	if (!fd->p_known && fd->sliced_chain && (int32_t)(at - fd->sliced_next) < 0) {
		/* octets of the last link's FPDU (it spans segments): keep them,
		 * if it ends where a segment does */
		if ((int32_t)(at + seg_len - fd->sliced_next) > 0 || !buf_add_hole(s, fd, n, true)) {
			fd->sliced_chain = 0;
			return -1;
		}
		return 0;
	}
	if (!iws_sync_header_ok(b->data + o, b->len - o, at, &guess, &w)) {
		fd->sliced_chain = 0;
		return -1;
	}
	if (!fd->p_known) {
		/* a chain goes on only from the end of the previous link, or
		 * over whole FPDUs from there to this segment */
		uint32_t between = fd->sliced_chain && at != fd->sliced_next
					   ? whole_links(b, fd->sliced_next, at, &guess) : 0;
		fd->sliced_chain += between;
		if (!fd->sliced_chain || (at != fd->sliced_next && !between)) {
			skip(s, side, o, IWS_SPAN_PRESYNC);  /* (consumes them) */
			o = 0;
			fd->sliced_chain = 0;
		}
		fd->sliced_chain++;
		fd->sliced_next = at + (w > seg_len ? w : seg_len);
		if (fd->sliced_chain < SLICED_CHAIN) {
			if (!buf_add_hole(s, fd, n, true)) {
				fd->sliced_chain = 0;
				return -1;
			}
			return 0;
		}
		struct iws_sync sy;
		memset(&sy, 0, sizeof(sy));
		sy.crc = guess.crc ? IWS_YES : IWS_UNKNOWN;
		infer_params(s, side, &sy);
		/* the chain starts at the buffer's start */
		o = 0;
	}
	found_at_segment(s, side, o);
	return 1;
}

/* The first k of the hole's *n octets belong to a frame whose length is
 * known: kept in the buffer as a hole. False if a memory limit dropped them
 * all (the whole hole). */
static bool hole_in_frame(struct iws_stream *s, int side, uint32_t k, uint32_t *n, bool snap)
{
	struct fr_dir *fd = &s->d[side];
	if (k > *n)
		k = *n;
	if (!buf_add_hole(s, fd, k, snap)) {
		fd->c.buf_limit_hits++;
		drop_all(s, side, *n, 0, IWS_SPAN_LIMIT);
		return false;
	}
	*n -= k;
	return true;
}

void fr_hole(struct iws_stream *s, int side, uint32_t seq, uint32_t n, bool snap)
{
	struct fr_dir *fd = &s->d[side];
	uint32_t k;
	if (!fd->have_pos)
		fr_start(s, side, seq, false);
	fd->pos = seq;
	if (fd->mode == FR_DEAD || fd->mode == FR_OFF) {
		fd->pos = seq + n;
		return;
	}
	if (fd->mode == FR_HUNT && (k = mpa_frame_rest(s, side)) != 0) {
		/* The hole lies inside an MPA Request or Reply whose header was
		 * captured (a snapshot length cut its private data): the frame is
		 * known all the same. */
		if (!hole_in_frame(s, side, k, &n, snap))
			return;
		process(s, side, false);
		if (!n)
			return;
	}
	int rs = snap ? resync_at_segment(s, side, n) : -1;
	if (rs == 0)
		return;  /* kept: a link of a chain being checked */
	if (rs == 1) {
		/* (framing may be lost again at a header the slice cut in one
		 * link, and found at the next link's start) */
		process(s, side, false);
	} else if (snap && fd->mode == FR_HUNT && fd->hidden_open && s->cur_frame != fd->hidden_frame) {
		/* another segment whose FPDUs cannot be seen: which span the
		 * responses answer is no longer known */
		st_hidden(s, side, 0, 0);
		fd->hidden_open = false;
	}
	if (fd->mode == FR_FPDU && fd->buf.len && fd->need) {
		/* The hole lies inside an FPDU whose length is known: keep framing. */
		k = fd->need - fd->buf.len;
		if (!hole_in_frame(s, side, k, &n, snap))
			return;
		frame_buffer(s, side);
	}
	if (!n && (fd->mode != FR_FPDU || !fd->buf.len || fd->need))
		return;
	/* A length field fell into the hole (or we were hunting): framing lost.
	 * A snapshot length hid the FPDUs the rest of the segment carried. */
	if (snap && fd->mode == FR_FPDU && !fd->need)
	{
		st_hidden(s, side, s->cur_frame, s->cur_ts);
		fd->hidden_open = true;
		fd->hidden_frame = s->cur_frame;
	}
	drop_all(s, side, n, 0, IWS_SPAN_AFTER_GAP);
}

void fr_end(struct iws_stream *s, int side)
{
	struct fr_dir *fd = &s->d[side];
	if (fd->mode == FR_HUNT || fd->mode == FR_WAIT) {
		if (fd->mode == FR_WAIT)
			fd->mode = FR_HUNT;
		process(s, side, true);
	}
	if (fd->mode == FR_FPDU && fd->buf.len && fd->need) {
		/* The stream stops inside an FPDU: report what was captured. Its
		 * other octets may never have been sent (unlike octets a
		 * snapshot length cut, or a hole the peer acknowledged). */
		fd->c.partial_at_end++;
		fd->ending = true;
		if (buf_add_hole(s, fd, fd->need - fd->buf.len, false))
			frame_buffer(s, side);
		else
			fd->c.buf_limit_hits++;
		fd->ending = false;
	}
	skip(s, side, fd->buf.len, fd->mode == FR_FPDU ? IWS_SPAN_AFTER_GAP : hunt_skip_kind(fd));
	sbuf_free(&fd->buf);
	account(s, fd);
	fd->need = 0;
	if (fd->mode != FR_FPDU)
		fd->mode = FR_DEAD;
	account(s, &s->d[!side]);
}

void fr_resent(struct iws_stream *s, int side, uint32_t seq, uint32_t n)
{
	struct fr_dir *fd = &s->d[side];
	const struct sbuf *b = &fd->buf;
	if (fd->mode == FR_FPDU && b->len && (int32_t)(seq - (b->seq + b->len)) < 0 &&
	    (int32_t)(seq + n - b->seq) > 0)
		fd->resent_pending++;
}

