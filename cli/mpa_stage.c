// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The MPA stage (see mpa_stage.h): per direction, a small state machine
 * (hunt -> [wait] -> framing, back to hunting when framing is lost) over the
 * reassembled stream, with a buffer that records, for every octet, the frame
 * it came from and the holes (octets never captured) inside it.
 */
#include "mpa_stage.h"

#include <stdlib.h>
#include <string.h>

/* Hunting: first sync attempt once this much is buffered, then every STEP. */
#define HUNT_FIRST 1024u
#define HUNT_STEP 4096u
#define HUNT_STEP_MAX (64u << 10)
/* Hunting buffer bound: past it the oldest octets are passed over. */
#define HUNT_MAX (3u * IWS_FPDU_MAX_WIRE)
/* A stream hunted this far without a key or an FPDU chain is not iWARP. */
#define HUNT_GIVE_UP (512u << 10)
/* A stream seen from its SYN carries the MPA Request or Reply first (RFC 5044
 * §7.1: at most a few streaming-mode octets before it): without a key this far
 * in, and nothing missing, it is not iWARP. */
#define KEY_ONLY_LIMIT (16u << 10)
/* The initiator's octets waiting for the Reply. */
#define WAIT_MAX (4u * IWS_FPDU_MAX_WIRE)
/* Longest MPA key prefix looked for ("MPA ID Re", RFC 5044 §7.1.1). */
static const char key_prefix[] = "MPA ID Re";
#define KEY_PREFIX_LEN 9

/* A marker-split ULPDU is reassembled here (single-threaded program). */
static uint8_t ulpdu_scratch[65536];

/* ---- the direction's buffer (sbuf) at the stream position ---- */

/* Bring the shared count up to date with the direction's buffer. */
static void account(struct stage *st, struct stage_dir *sd)
{
	uint64_t now = sbuf_footprint(&sd->buf);
	if (st->lim) {
		st->lim->used = st->lim->used - sd->acct + now;
		if (st->lim->used > st->lim->peak)
			st->lim->peak = st->lim->used;
	}
	sd->acct = now;
}

/* May the buffer grow by n octets? */
static bool room_for(struct stage *st, struct stage_dir *sd, uint32_t n)
{
	account(st, sd);
	if (!st->lim || !st->lim->max_bytes)
		return true;
	const struct sbuf *b = &sd->buf;
	uint64_t grow = 0;
	if (b->len + (uint64_t)n > b->cap) {
		/* sbuf doubles its capacity (from 256) */
		uint64_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + (uint64_t)n)
			cap *= 2;
		grow = cap - b->cap;
	}
	/* ... and its mark array; a hole may need a hole record */
	if (b->nmarks == b->capmarks)
		grow += (b->capmarks ? b->capmarks : 8) * sizeof(struct smark);
	if (b->nholes == b->capholes)
		grow += (b->capholes ? b->capholes : 4) * sizeof(struct shole);
	/* Every direction may always hold a little, whatever the others hold:
	 * enough for an MPA Request or Reply (at most 20 + 512 octets, RFC 5044
	 * §7.1) and an FPDU header, so that a connection that starts once the
	 * limit is reached is still recognised and reported. (Bounded by
	 * --max-flows.) */
	if (sbuf_footprint(b) + grow <= STAGE_FLOOR_BYTES)
		return true;
	return st->lim->used + grow <= st->lim->max_bytes;
}

static bool buf_add(struct stage *st, struct stage_dir *sd, const uint8_t *p, uint32_t n,
		    uint64_t frame)
{
	if (!room_for(st, sd, n) ||
	    !sbuf_append(&sd->buf, sd->pos, p, n, frame, sd->run_frame, sd->run_ts))
		return false;
	account(st, sd);
	sd->pos += n;
	return true;
}

static bool buf_add_hole(struct stage *st, struct stage_dir *sd, uint32_t n)
{
	if (!room_for(st, sd, n) || !sbuf_append_hole(&sd->buf, sd->pos, n))
		return false;
	account(st, sd);
	sd->pos += n;
	return true;
}

/* ---- emitting FPDUs ---- */

static void lose_sync(struct stage *st, int side)
{
	struct stage_dir *sd = &st->d[side];
	sd->mode = SD_HUNT;
	sd->need = 0;
	sd->key_from = 0;
	sd->next_try = 0;
	sd->c.lost++;
	sd->lost_reported = true;
	st->sink->lost(st->ctx, side);
}

/* Octets of the ULPDU (markers removed) that precede wire offset h0. */
static uint32_t ulpdu_captured(const struct iws_fpdu *f, uint32_t h0)
{
	if (h0 <= f->ulpdu_off)
		return 0;
	uint32_t n = h0 - f->ulpdu_off;
	for (uint32_t i = 0; i < f->n_markers; i++)
		if (f->markers[i].off >= f->ulpdu_off && f->markers[i].off < h0)
			n = n >= IWS_MPA_MARKER_LEN ? n - IWS_MPA_MARKER_LEN : 0;
	return n < f->ulpdu_len ? n : f->ulpdu_len;
}

/*
 * A marker that was never captured reads as zeros: report the FPDUPTR its
 * position implies (RFC 5044 §4.2) rather than an error nobody made.
 */
static void fix_uncaptured_markers(struct iws_fpdu *f, const struct sbuf *b, uint32_t base)
{
	for (uint32_t i = 0; i < f->n_markers; i++) {
		struct iws_mpa_marker *m = &f->markers[i];
		if (!sbuf_in_hole(b, base + m->off, IWS_MPA_MARKER_LEN))
			continue;
		if (!m->ok && f->marker_errors)
			f->marker_errors--;
		m->fpduptr = (uint16_t)iws_mpa_fpduptr_expected(f->len_off, m->off);
		m->rsvd = 0;
		m->ok = true;
	}
}

/*
 * Decode and report the FPDU at wire[0, w) (TCP seq `seq`). first_hole is
 * the wire offset of its first missing octet (w when all were captured);
 * holes (b, from buffer offset base) says which octets were never captured.
 */
static void emit(struct stage *st, int side, const uint8_t *wire, uint32_t w, uint32_t seq,
		 uint64_t first_frame, uint64_t frame, int64_t ts, uint32_t first_hole,
		 const struct sbuf *b, uint32_t base)
{
	struct stage_dir *sd = &st->d[side];
	struct iws_fpdu f;
	struct iws_msg msg;
	bool trunc = first_hole < w;
	struct iws_result r = iws_mpa_fpdu_parse(wire, w, seq, &sd->p, st->check_crc && !trunc,
						 ulpdu_scratch, sizeof(ulpdu_scratch), &f);
	if (r.status != IWS_OK) {
		/* Cannot happen for a length we computed ourselves; stay safe. */
		sd->c.undecodable++;
		return;
	}
	sd->c.fpdus++;
	if (trunc) {
		sd->c.truncated++;
		if (sd->p.crc)
			f.crc_status = IWS_CRC_UNVERIFIABLE;
		fix_uncaptured_markers(&f, b, base);
	}
	sd->c.marker_errors += f.marker_errors;

	struct fpdu_event ev = {
		.side = side,
		.dir = stage_dir_of(st, side),
		.fpdu = &f,
		.msg = NULL,
		.why = NULL,
		.first_frame = first_frame,
		.frame = frame,
		.ts_ns = ts,
		.truncated = trunc,
		.crc_configured = sd->p.crc,
	};
	if (trunc) {
		/* With the DDP header captured the segment is known (which message,
		 * which offset); octets after it that were not captured read as
		 * zeros, and the segment is marked truncated. */
		struct iws_ddp_hdr h;
		uint32_t have = ulpdu_captured(&f, first_hole);
		r = iws_ddp_parse(f.ulpdu, have, 0, &h);
		if (r.status == IWS_OK)
			r = iws_rdmap_parse(f.ulpdu, f.ulpdu_len, &msg);
	} else {
		r = iws_rdmap_parse(f.ulpdu, f.ulpdu_len, &msg);
	}
	if (r.status == IWS_OK) {
		ev.msg = &msg;
	} else {
		sd->c.undecodable++;
		ev.why = r.status == IWS_NEED_MORE ? "headers not captured" : r.reason;
	}
	st->sink->fpdu(st->ctx, &ev);
}

/*
 * Framing over the buffer: emit every complete FPDU it holds. Returns true
 * when the mode changed (the caller runs the new mode over the buffer).
 */
static bool frame_buffer(struct stage *st, int side)
{
	struct stage_dir *sd = &st->d[side];
	struct sbuf *b = &sd->buf;
	uint32_t o = 0;
	bool changed = false;
	sd->need = 0;
	while (o < b->len) {
		uint32_t seq = b->seq + o;
		uint32_t avail = b->len - o;
		uint32_t lo = iws_mpa_len_field_off(&sd->p, seq);
		if (avail < lo + IWS_MPA_ULPDU_LEN_LEN)
			break;
		uint16_t ulen = (uint16_t)(b->data[o + lo] << 8 | b->data[o + lo + 1]);
		if (ulen < IWS_DDP_MIN_HDR_LEN || sbuf_first_hole(b, o, lo + 2) < lo + 2) {
			sbuf_consume(b, o);
			lose_sync(st, side);
			return true;
		}
		uint32_t w = iws_mpa_fpdu_wire_len(&sd->p, seq, ulen);
		if (w > avail) {
			sd->need = w;
			break;
		}
		const struct smark *fm = sbuf_mark_at(b, o), *lm = sbuf_mark_at(b, o + w - 1);
		emit(st, side, b->data + o, w, seq, fm ? fm->frame : 0, lm ? lm->run_frame : 0,
		     lm ? lm->run_ts : 0, sbuf_first_hole(b, o, w), b, o);
		o += w;
		if (sd->mode != SD_FPDU) {
			changed = true;
			break;
		}
	}
	sbuf_consume(b, o);
	return changed;
}

/* ---- the handshake ---- */

static void set_dir_params(struct stage *st)
{
	for (int s = 0; s < 2; s++) {
		struct stage_dir *sd = &st->d[s];
		sd->p = st->mpa.dir[stage_dir_of(st, s)];
		sd->p_known = true;
	}
}

/* An MPA Request or Reply decoded at buffer offset k of side. Returns true
 * if hunting on this side is over. */
static bool mpa_frame(struct stage *st, int side, const struct iws_mpa_frame *fr, uint32_t k)
{
	struct stage_dir *sd = &st->d[side];
	struct sbuf *b = &sd->buf;
	uint32_t end = k + fr->total_len;
	uint32_t seq_end = b->seq + end;
	const struct smark *m = sbuf_mark_at(b, end - 1);
	uint64_t frame = m ? m->run_frame : 0;

	if (fr->type == IWS_MPA_REQUEST) {
		if (st->hs != HS_NONE)
			return false;  /* a second Request: not a connection set-up */
		st->init_side = side;
		st->init_side_known = true;
		iws_mpa_conn_request(&st->mpa, fr, seq_end);
		st->hs = HS_REQUEST;
		st->request_frame = frame;
		sd->c.skipped_bytes += k;
		sbuf_consume(b, end);
		sd->mode = SD_WAIT;
		st->sink->mpa_frame(st->ctx, side, fr, frame);
		return true;
	}
	/* Reply */
	if (st->hs == HS_REQUEST && side == st->init_side)
		return false;  /* a Reply from the initiator makes no sense */
	if (st->hs != HS_REQUEST && st->hs != HS_NONE)
		return false;
	if (st->hs == HS_NONE) {
		/* The Request was not captured: the Reply still names the
		 * responder and its flags; the initiator's side is inferred. */
		st->init_side = !side;
		st->init_side_known = true;
		st->mpa.rev = fr->rev;
	}
	bool had_request = st->hs == HS_REQUEST;
	iws_mpa_conn_reply(&st->mpa, fr, seq_end);
	st->reply_frame = frame;
	sd->c.skipped_bytes += k;
	sbuf_consume(b, end);
	st->sink->mpa_frame(st->ctx, side, fr, frame);
	if (fr->reject) {
		st->hs = HS_REJECTED;
		for (int s = 0; s < 2; s++) {
			st->d[s].mode = SD_DEAD;
			sbuf_free(&st->d[s].buf);
		}
		return true;
	}
	st->hs = HS_DONE;
	set_dir_params(st);
	if (!had_request) {
		/* Markers towards the responder and their base are known from the
		 * Reply; what the initiator's Request asked for is not. */
		struct stage_dir *id = &st->d[st->init_side];
		id->p_known = false;
		id->crc_hint = fr->crc ? IWS_YES : IWS_UNKNOWN;
		if (id->mode == SD_WAIT || id->mode == SD_OFF)
			id->mode = SD_HUNT;
	}
	st->sink->params(st->ctx);
	sd->mode = SD_FPDU;
	struct stage_dir *id = &st->d[st->init_side];
	if (id->mode == SD_WAIT) {
		id->mode = SD_FPDU;
		frame_buffer(st, st->init_side);
	}
	return true;
}

/* ---- hunting ---- */

static void infer_params(struct stage *st, int side, const struct iws_sync *sy)
{
	struct stage_dir *sd = &st->d[side];
	if (!sd->p_known) {
		sd->p.markers = sy->markers;
		sd->p.marker_base = sy->marker_base;
		sd->p.crc = sy->crc == IWS_YES;
		sd->p_known = true;
		/* RFC 5044 §7.1.1: CRC is on in both directions or in neither. */
		if (sd->p.crc && !st->d[!side].p_known)
			st->d[!side].crc_hint = IWS_YES;
	}
	if (st->hs == HS_NONE || st->hs == HS_REQUEST) {
		bool first = st->hs == HS_NONE;
		st->hs = HS_INFERRED;
		st->mpa.state = IWS_MPA_ST_INFERRED;
		st->mpa.crc = st->mpa.crc || sd->p.crc;
		st->mpa.dir[stage_dir_of(st, side)] = sd->p;
		if (first)
			st->sink->params(st->ctx);
	} else if (st->hs == HS_INFERRED) {
		st->mpa.crc = st->mpa.crc || sd->p.crc;
		st->mpa.dir[stage_dir_of(st, side)] = sd->p;
	}
}

static void sync_opts(const struct stage *st, int side, struct iws_sync_opts *o)
{
	const struct stage_dir *sd = &st->d[side];
	memset(o, 0, sizeof(*o));
	if (sd->p_known) {
		o->markers = sd->p.markers ? IWS_YES : IWS_NO;
		o->marker_base = sd->p.marker_base;
		o->crc = sd->p.crc ? IWS_YES : IWS_NO;
	} else {
		o->markers = IWS_UNKNOWN;
		o->crc = sd->crc_hint;
	}
}

/* Look for an MPA key in the hunting buffer; true if the mode changed. */
static bool hunt_key(struct stage *st, int side)
{
	struct stage_dir *sd = &st->d[side];
	struct sbuf *b = &sd->buf;
	while (sd->key_from + KEY_PREFIX_LEN <= b->len) {
		const uint8_t *hit = memchr(b->data + sd->key_from, 'M', b->len - sd->key_from);
		if (!hit)
			break;
		uint32_t k = (uint32_t)(hit - b->data);
		if (k + KEY_PREFIX_LEN > b->len) {
			sd->key_from = k;
			return false;
		}
		if (memcmp(hit, key_prefix, KEY_PREFIX_LEN) != 0 || !iws_mpa_key_type(hit, b->len - k)) {
			sd->key_from = k + 1;
			continue;
		}
		if (b->len - k < IWS_MPA_KEY_LEN) {
			sd->key_from = k;
			return false;
		}
		struct iws_mpa_frame fr;
		struct iws_result r = iws_mpa_parse_frame(hit, b->len - k, &fr);
		if (r.status == IWS_NEED_MORE) {
			sd->key_from = k;
			return false;
		}
		if (r.status == IWS_OK && mpa_frame(st, side, &fr, k))
			return true;
		sd->key_from = k + 1;
	}
	if (b->len > KEY_PREFIX_LEN && sd->key_from < b->len - KEY_PREFIX_LEN)
		sd->key_from = b->len - KEY_PREFIX_LEN;
	return false;
}

static void give_up(struct stage *st, int side)
{
	struct stage_dir *sd = &st->d[side];
	sd->c.skipped_bytes += sd->buf.len;
	sd->mode = SD_DEAD;
	sbuf_free(&sd->buf);
	if (st->hs == HS_NONE && st->d[!side].mode == SD_DEAD)
		st->hs = HS_NOT_IWARP;
}

/* Try to find the next FPDU boundary; true if the mode changed. */
static bool hunt_sync(struct stage *st, int side, bool final)
{
	struct stage_dir *sd = &st->d[side];
	struct sbuf *b = &sd->buf;
	if (!b->len || (!final && b->len < sd->next_try))
		return false;
	struct iws_sync_opts o;
	struct iws_sync sy;
	sync_opts(st, side, &o);
	struct iws_result r = iws_sync_find(b->data, b->len, b->seq, &o, &sy);
	if (r.status == IWS_NEED_MORE && final) {
		/* The stream ends here: a chain that runs exactly to its end is
		 * as good as it will get. */
		o.min_chain = 1;
		r = iws_sync_find(b->data, b->len, b->seq, &o, &sy);
		if (r.status == IWS_OK && !sy.chain_to_end)
			r.status = IWS_NEED_MORE;
	}
	if (r.status == IWS_OK) {
		sd->c.skipped_bytes += sy.off;
		sd->hunted = 0;
		sbuf_consume(b, sy.off);
		infer_params(st, side, &sy);
		sd->c.resyncs++;
		/* Whatever came before (a gap, the capture start) was missed. */
		if (!sd->lost_reported)
			st->sink->lost(st->ctx, side);
		sd->lost_reported = false;
		sd->ever_synced = true;
		sd->mode = SD_FPDU;
		return true;
	}
	/* The range iws_sync_find scanned (its default max_scan). */
	uint32_t scanned = b->len < IWS_FPDU_MAX_WIRE ? b->len : IWS_FPDU_MAX_WIRE;
	uint32_t drop = 0;
	if (r.status == IWS_MALFORMED) {
		/* No chain starts anywhere in the scanned range. */
		drop = scanned;
		sd->next_try = b->len - drop + HUNT_FIRST;
	} else {
		/* A candidate chain runs to the end of the data. One that a full
		 * HUNT_MAX (three of the largest FPDUs) after it did not settle is
		 * not pending: the candidates before that point all failed. */
		if (b->len > HUNT_MAX)
			drop = b->len - HUNT_MAX < scanned ? b->len - HUNT_MAX : scanned;
		/* Try again when the data has doubled (each attempt rescans). */
		uint32_t left = b->len - drop;
		uint32_t grow = left < HUNT_STEP ? HUNT_STEP : left;
		sd->next_try = left + (grow < HUNT_STEP_MAX ? grow : HUNT_STEP_MAX);
	}
	if (drop) {
		sd->c.skipped_bytes += drop;
		sbuf_consume(b, drop);
		sd->key_from = sd->key_from > drop ? sd->key_from - drop : 0;
	}
	if (sd->hunted >= HUNT_GIVE_UP && st->hs == HS_NONE)
		give_up(st, side);
	return false;
}

static bool hunt(struct stage *st, int side, bool final)
{
	bool key = st->hs == HS_NONE || (st->hs == HS_REQUEST && side != st->init_side);
	if (key && hunt_key(st, side))
		return true;
	/* Before the Reply a responder sends no FPDUs (RFC 5044 §7.1.1), and a
	 * stream that starts at its SYN begins with the handshake: only look for
	 * FPDUs where the handshake may have been missed. */
	struct stage_dir *sd = &st->d[side];
	if (key && sd->at_syn && !sd->damaged && st->hs == HS_REQUEST)
		return false;
	if (key && sd->at_syn && !sd->damaged && st->hs == HS_NONE) {
		if (sd->buf.len + sd->c.skipped_bytes >= KEY_ONLY_LIMIT) {
			give_up(st, side);
			return false;
		}
		return false;
	}
	return hunt_sync(st, side, final);
}

/* Run the current mode over the buffer until nothing more happens. */
static void process(struct stage *st, int side, bool final)
{
	struct stage_dir *sd = &st->d[side];
	for (int guard = 0; guard < 64; guard++) {
		switch (sd->mode) {
		case SD_FPDU:
			if (!frame_buffer(st, side))
				return;
			break;
		case SD_HUNT:
			if (!hunt(st, side, final))
				return;
			break;
		case SD_WAIT:
			if (sd->buf.len > WAIT_MAX) {
				/* No Reply: find the FPDUs without it. */
				sd->mode = SD_HUNT;
				break;
			}
			return;
		default:
			return;
		}
	}
}

/* ---- public ---- */

void stage_init(struct stage *st, int guess_init_side, bool check_crc, const struct stage_sink *sink,
		void *ctx, struct stage_limits *lim)
{
	memset(st, 0, sizeof(*st));
	iws_mpa_conn_init(&st->mpa);
	st->init_side = guess_init_side;
	st->check_crc = check_crc;
	st->sink = sink;
	st->ctx = ctx;
	st->lim = lim;
	for (int s = 0; s < 2; s++)
		st->d[s].crc_hint = IWS_UNKNOWN;
}

void stage_free(struct stage *st)
{
	for (int s = 0; s < 2; s++) {
		sbuf_free(&st->d[s].buf);
		account(st, &st->d[s]);
	}
}

void stage_start(struct stage *st, int side, uint32_t seq, bool at_syn)
{
	struct stage_dir *sd = &st->d[side];
	if (sd->have_pos)
		return;
	sd->have_pos = true;
	sd->pos = seq;
	sd->buf.seq = seq;
	sd->at_syn = at_syn;
	if (sd->mode == SD_OFF)
		sd->mode = SD_HUNT;
	sd->next_try = HUNT_FIRST;
}

static void update_run(struct stage_dir *sd, uint64_t frame, int64_t ts)
{
	if (frame > sd->run_frame) {
		sd->run_frame = frame;
		sd->run_ts = ts;
	}
}

static void overflow(struct stage *st, int side, uint32_t n);

static void data_in(struct stage *st, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		    uint64_t frame, int64_t ts)
{
	struct stage_dir *sd = &st->d[side];
	if (!sd->have_pos)
		stage_start(st, side, seq, false);
	update_run(sd, frame, ts);
	if (sd->mode == SD_DEAD || sd->mode == SD_OFF) {
		sd->pos = seq + n;
		return;
	}
	sd->pos = seq;
	/* Complete an FPDU carried over from earlier chunks. */
	while (n && sd->mode == SD_FPDU && sd->buf.len) {
		uint32_t want;
		uint32_t lo = iws_mpa_len_field_off(&sd->p, sd->buf.seq);
		if (sd->need)
			want = sd->need - sd->buf.len;
		else if (sd->buf.len < lo + IWS_MPA_ULPDU_LEN_LEN)
			want = lo + IWS_MPA_ULPDU_LEN_LEN - sd->buf.len;
		else
			break; /* frame_buffer has already decided about it */
		uint32_t k = want < n ? want : n;
		if (!buf_add(st, sd, p, k, frame)) {
			overflow(st, side, n);
			return;
		}
		p += k;
		n -= k;
		if (frame_buffer(st, side))
			break;
	}
	/* FPDUs that lie inside the chunk: decoded in place. */
	while (n && sd->mode == SD_FPDU && !sd->buf.len) {
		uint32_t lo = iws_mpa_len_field_off(&sd->p, sd->pos);
		if (n < lo + IWS_MPA_ULPDU_LEN_LEN)
			break;
		uint16_t ulen = (uint16_t)(p[lo] << 8 | p[lo + 1]);
		if (ulen < IWS_DDP_MIN_HDR_LEN) {
			lose_sync(st, side);
			break;
		}
		uint32_t w = iws_mpa_fpdu_wire_len(&sd->p, sd->pos, ulen);
		if (w > n) {
			sd->need = w;
			break;
		}
		emit(st, side, p, w, sd->pos, frame, sd->run_frame, sd->run_ts, w, NULL, 0);
		p += w;
		n -= w;
		sd->pos += w;
	}
	if (!n)
		return;
	/* The rest waits in the buffer: a straddling FPDU, or hunting. */
	if (sd->mode == SD_HUNT)
		sd->hunted += n;
	/* A straddling FPDU of known length: one allocation for all of it. */
	if (sd->mode == SD_FPDU && sd->need && !sd->buf.len && room_for(st, sd, sd->need))
		sbuf_reserve(&sd->buf, sd->need);
	if (!buf_add(st, sd, p, n, frame)) {
		overflow(st, side, n);
		return;
	}
	if (sd->mode != SD_FPDU || sd->buf.len != n || !sd->need)
		process(st, side, false);
}

void stage_data(struct stage *st, int side, uint32_t seq, const uint8_t *p, uint32_t n,
		uint64_t frame, int64_t ts)
{
	data_in(st, side, seq, p, n, frame, ts);
	/* Framing one side can consume the other's buffer (the MPA Reply
	 * releases the initiator's waiting octets). */
	account(st, &st->d[0]);
	account(st, &st->d[1]);
}

/* n octets at the stream position, and whatever the direction buffers, are
 * given up: as if never captured (framing is found again after them). */
static void drop_all(struct stage *st, int side, uint32_t n)
{
	struct stage_dir *sd = &st->d[side];
	sd->damaged = true;
	sd->c.skipped_bytes += sd->buf.len;
	sbuf_clear(&sd->buf);
	account(st, sd);
	sd->need = 0;
	sd->pos += n;
	sd->buf.seq = sd->pos;
	if (sd->mode == SD_FPDU)
		lose_sync(st, side);
	else if (sd->mode == SD_WAIT)
		sd->mode = SD_HUNT;
	sd->key_from = 0;
	sd->next_try = HUNT_FIRST;
}

/* The buffer could not take n more octets (stage_limits, or no memory). */
static void overflow(struct stage *st, int side, uint32_t n)
{
	struct stage_dir *sd = &st->d[side];
	sd->c.limit_hits++;
	sd->c.skipped_bytes += n;
	drop_all(st, side, n);
}

static void hole_in(struct stage *st, int side, uint32_t seq, uint32_t n)
{
	struct stage_dir *sd = &st->d[side];
	if (!sd->have_pos)
		stage_start(st, side, seq, false);
	sd->pos = seq;
	if (sd->mode == SD_DEAD || sd->mode == SD_OFF) {
		sd->pos = seq + n;
		return;
	}
	if (sd->mode == SD_FPDU && sd->buf.len && sd->need) {
		/* The hole lies inside an FPDU whose length is known: keep framing. */
		uint32_t k = sd->need - sd->buf.len;
		if (k > n)
			k = n;
		if (!buf_add_hole(st, sd, k)) {
			sd->c.limit_hits++;
			drop_all(st, side, n);
			return;
		}
		n -= k;
		frame_buffer(st, side);
	}
	if (!n && (sd->mode != SD_FPDU || !sd->buf.len || sd->need))
		return;
	/* A length field fell into the hole (or we were hunting): framing lost. */
	drop_all(st, side, n);
}

void stage_hole(struct stage *st, int side, uint32_t seq, uint32_t n)
{
	hole_in(st, side, seq, n);
	account(st, &st->d[0]);
	account(st, &st->d[1]);
}

void stage_end(struct stage *st, int side)
{
	struct stage_dir *sd = &st->d[side];
	if (sd->mode == SD_HUNT || sd->mode == SD_WAIT) {
		if (sd->mode == SD_WAIT)
			sd->mode = SD_HUNT;
		process(st, side, true);
	}
	if (sd->mode == SD_FPDU && sd->buf.len && sd->need) {
		/* The stream stops inside an FPDU: report what was captured. */
		sd->c.partial_at_end++;
		if (buf_add_hole(st, sd, sd->need - sd->buf.len))
			frame_buffer(st, side);
		else
			sd->c.limit_hits++;
	}
	sd->c.skipped_bytes += sd->buf.len;
	sbuf_free(&sd->buf);
	account(st, sd);
	sd->need = 0;
	if (sd->mode != SD_FPDU)
		sd->mode = SD_DEAD;
	account(st, &st->d[!side]);
}

bool stage_is_iwarp(const struct stage *st)
{
	return st->hs == HS_REQUEST || st->hs == HS_DONE || st->hs == HS_REJECTED ||
	       st->hs == HS_INFERRED;
}

bool stage_pending_min(const struct stage *st, uint64_t *frame, int64_t *ts)
{
	bool any = false;
	for (int s = 0; s < 2; s++) {
		const struct sbuf *b = &st->d[s].buf;
		if (!b->len || !b->nmarks)
			continue;
		const struct smark *m = &b->marks[0];
		if (!any || m->run_frame < *frame) {
			*frame = m->run_frame;
			*ts = m->run_ts;
			any = true;
		}
	}
	return any;
}
