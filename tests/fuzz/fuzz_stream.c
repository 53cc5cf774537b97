// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the stream engine alone (stream.h): one connection fed TCP segments
 * of both directions decoded from the input. Each side has a byte stream the
 * records write to (raw octets, or MPA frames and FPDUs the harness builds
 * with valid lengths, markers and CRCs, so that the engine gets past its
 * first checks) and a cursor (the next octet never sent); each record then
 * sends a segment that covers some of that stream, anywhere around the
 * cursor: in order, ahead of a hole, back over sent octets (retransmissions,
 * overlaps), cut by the snapshot length, across the sequence wrap.
 *
 *   header  [opts:1][lim:1][isn:4]
 *     opts   bit 0 check CRCs, bit 1 want spans, bit 2 guess_init_side,
 *            bit 3 small limits (from lim), bit 4 a mirror engine: the
 *            same segments with the sides swapped (and the guess), sharing
 *            the limits; with large limits its reports must equal the
 *            first engine's, sides swapped; bit 5 the engines are freed
 *            without iws_stream_finish (what they hold is dropped, quietly);
 *            bit 7 finish with IWS_OPF_ABORTED
 *     lim    bits 0-1 max_buf 1, 4 kB, 64 kB, 1 MB; bits 2-3 max_ooo_dir
 *            64 B, 1 kB, 16 kB, 1 MB (total: twice that); bits 4-5
 *            max_held 1, 4, 64, 4096; bits 6-7 max_ooo_segs 1, 8, 64, 4096
 *            (max_inflight 16)
 *     isn    side 0's ISN; side 1's is isn ^ 0x80000000 (one of them is
 *            near a wrap whenever isn is)
 *   record  [f:1][c:1][delta:2][len:1][ack:1 if f.ACK][bytes:len]
 *     f      bit 0 side; bits 1-4 SYN, FIN, RST, ACK; bits 5-7 what the
 *            bytes become at the end of the side's stream:
 *              0 raw octets      1 MPA Request    2 MPA Reply
 *              3 FPDU, CRC good  4 FPDU, CRC zero 5 FPDU, CRC bad
 *              6 raw octets repeated to len * 256
 *              7 nothing: the segment carries the bytes raw at
 *                ISN + 1 + delta * 64, outside the stream
 *            (MPA frame bytes: [flags][rev: bit 0 (1/2), bit 7 lie about
 *            PD_Length][private data...]; FPDU bytes: [sel][a][b][payload...]
 *            where sel's low nibble is the RDMAP opcode, 0x10 L, 0x20 the
 *            payload repeated 64 times, 0xE0 all set: the bytes are the
 *            ULPDU as they are)
 *     c      bits 0-1 how much of the stream from the start point the
 *            segment takes: all, half, a quarter; 3: no segment at all
 *            (the record only writes to the stream); bits 2-3
 *            captured: all, half, none, all but 3; bits 4-5 time step
 *            (+1 us, 0, -1 ms, +1 s); bit 6 toggles markers in the side's
 *            FPDUs (on the grid from the side's last MPA frame); bit 7 a
 *            segment with nothing captured has a NULL payload
 *     delta  signed start of the segment relative to the cursor
 *     ack    signed acknowledgement offset from the peer's cursor, * 16
 *
 * Invariants: a PDU's frames are ordered (first <= arrived <= frame), they
 * are frames of its side that carried its octets, and PDUs reach the sink
 * in frame order unless counts.order_forced grew; msg implies note; spans
 * lie within the segment of the frame they name; usage stays within the
 * limits (plus each direction's floor); pending implies buffered; after
 * iws_stream_finish nothing is buffered or pending, feeding is ignored,
 * every operation started was reported once; after iws_stream_free the
 * usage counters are back to zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/doctor.h"
#include "iwarpscope/stream.h"
#include "../unit/stream_builder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant: say which, then stop. */
#define FAIL_IF(cond)                                                          \
	do {                                                                   \
		if (cond) {                                                    \
			fprintf(stderr, "fuzz_stream.c:%d: %s\n", __LINE__, #cond); \
			__builtin_trap();                                      \
		}                                                              \
	} while (0)

#define STREAM_MAX (1u << 20)
#define MAX_FRAMES 65536u
#define GEN_BUDGET (2u << 20)

struct side_state {
	uint32_t isn;
	uint32_t len, cursor;       /* stream octets written, sent */
	uint32_t seqstart;          /* marker grid of the side's FPDUs */
	int markers;
	uint8_t buf[STREAM_MAX];
};

struct frame_rec {
	int side;
	uint32_t seq, wire;
};

/* One engine under test and what it reported. */
struct eng {
	struct iws_stream *s;
	const struct iws_doctor *doc; /* its doctor stage, as the front ends run it */
	int mirror;                 /* its side k is the input's side k ^ mirror */
	uint64_t last_frame;
	uint64_t last_forced;
	uint64_t pdus, ops, spans, events;
	uint64_t hash;              /* of the PDUs and operations, in order, in input sides */
	uint64_t bag;               /* of the spans and events, in any order (they are
				     * reported as found, the two sides one after the
				     * other at the end) */
	bool after_finish;
};

static struct side_state sides[2];
static struct frame_rec frames[MAX_FRAMES + 1];
static uint64_t cur_frame;
static bool want_spans;
static uint8_t seg_buf[STREAM_MAX];
static uint8_t ulpdu[70000];
static uint8_t tmp[70000 + 1024];

static bool trace;   /* FUZZ_STREAM_TRACE set: print every report */

static void mix(struct eng *e, uint64_t v)
{
	e->hash = (e->hash ^ v) * 0x100000001b3ull;
	if (trace)
		fprintf(stderr, "engine %d frame %llu: %016llx\n", e->mirror, (unsigned long long)cur_frame,
			(unsigned long long)v);
}

static uint64_t scramble(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void add_to_bag(struct eng *e, const char *what, uint64_t a, uint64_t b)
{
	e->bag += scramble(a ^ scramble(b));
	if (trace)
		fprintf(stderr, "engine %d frame %llu: %s %016llx %016llx\n", e->mirror,
			(unsigned long long)cur_frame, what, (unsigned long long)a, (unsigned long long)b);
}

static uint64_t forced(const struct iws_stream *s)
{
	return iws_stream_counts(s, 0)->order_forced + iws_stream_counts(s, 1)->order_forced;
}

/* [seq, seq+len) of side's stream lies within what frame f carried. */
static bool within(uint64_t f, int side, uint32_t seq, uint32_t len)
{
	if (f == 0 || f > cur_frame || f > MAX_FRAMES)
		return false;
	const struct frame_rec *r = &frames[f];
	return r->side == side && (uint64_t)(uint32_t)(seq - r->seq) + len <= r->wire;
}

/* ... or shares an octet with it. */
static bool touches(uint64_t f, int side, uint32_t seq, uint32_t len)
{
	if (f == 0 || f > cur_frame || f > MAX_FRAMES)
		return false;
	const struct frame_rec *r = &frames[f];
	if (r->side != side)
		return false;
	uint32_t a = seq - r->seq, b = r->seq - seq;
	return (a < r->wire) || (b < len);
}

static void on_pdu(void *ctx, const struct iws_pdu *p)
{
	struct eng *e = ctx;
	int side = p->side ^ e->mirror;
	FAIL_IF(e->after_finish || (p->kind != IWS_PDU_MPA_FRAME && p->kind != IWS_PDU_FPDU) ||
	    p->side < 0 || p->side > 1 || p->dir > 1 || p->len == 0 || p->first_hole > p->len || !p->wire);
	FAIL_IF(p->first_frame > p->arrived_frame || p->arrived_frame > p->frame || p->frame > cur_frame ||
	    p->frame == 0);
	FAIL_IF(!touches(p->first_frame, side, p->seq, p->len) ||
	    !touches(p->arrived_frame, side, p->seq, p->len) || frames[p->frame].side != side);
	/* The cross-direction order promise: PDUs in the order the engine could
	 * report them (settle_frame: never before their own frame, never after
	 * the frame being read), but for those it released out of order
	 * (max_held, memory): counted in order_forced as they go, and left out
	 * of the comparison. */
	FAIL_IF(p->settle_frame < p->frame || p->settle_frame > cur_frame);
	uint64_t fo = forced(e->s);
	if (trace)
		fprintf(stderr, "engine %d pdu side %d seq %u len %u frames %llu/%llu/%llu hole %u\n", e->mirror,
			side, p->seq, p->len, (unsigned long long)p->first_frame,
			(unsigned long long)p->arrived_frame, (unsigned long long)p->frame, p->first_hole);
	if (fo == e->last_forced) {
		FAIL_IF(p->settle_frame < e->last_frame);
		e->last_frame = p->settle_frame;
	}
	e->last_forced = fo;
	if (p->kind == IWS_PDU_MPA_FRAME) {
		FAIL_IF(!p->mpa || p->mpa->total_len != p->len);
	} else {
		FAIL_IF(!p->fpdu || !p->mdir || p->fpdu->wire_len != p->len || (p->msg && !p->note) ||
		    (!p->msg && !p->why) || p->fpdu->ulpdu_len < IWS_DDP_MIN_HDR_LEN);
		FAIL_IF(p->truncated != (p->first_hole < p->len));
	}
	/* Touch every octet (ASan checks the pointer's extent). */
	uint32_t sum = 0;
	for (uint32_t i = 0; i < p->len; i++)
		sum += p->wire[i];
	e->pdus++;
	mix(e, (uint64_t)p->kind << 56 ^ (uint64_t)side << 48 ^ (uint64_t)p->dir << 40 ^ p->seq);
	mix(e, (uint64_t)p->len << 32 ^ p->first_hole ^ (uint64_t)p->gap_before << 63);
	mix(e, p->first_frame << 40 ^ p->arrived_frame << 20 ^ p->frame);
	mix(e, sum);
	if (p->kind == IWS_PDU_FPDU)
		mix(e, (uint64_t)p->fpdu->crc_status << 32 ^ (p->msg ? p->msg->ddp.opcode : 0xFF));
}

static void on_op(void *ctx, const struct iws_op *op)
{
	struct eng *e = ctx;
	FAIL_IF(e->after_finish);
	FAIL_IF(op->type >= IWS_OPT_COUNT || op->dir > 1 || op->last_frame > cur_frame);
	FAIL_IF(op->has_latency && op->latency_ns != op->end_ns - op->start_ns);
	/* Its segments reached the tracker in frame order, unless forced. */
	FAIL_IF(op->last_frame < op->first_frame && forced(e->s) == 0);
	e->ops++;
	mix(e, (uint64_t)op->type << 56 ^ (uint64_t)op->dir << 48 ^ op->flags);
	mix(e, op->first_frame << 32 ^ op->last_frame ^ op->bytes << 20);
}

static void on_span(void *ctx, const struct iws_span *sp)
{
	struct eng *e = ctx;
	int side = sp->side ^ e->mirror;
	FAIL_IF(!want_spans || e->after_finish || sp->kind < IWS_SPAN_PART || sp->kind > IWS_SPAN_LIMIT ||
	    sp->len == 0 || sp->side < 0 || sp->side > 1 || sp->dir > 1);
	FAIL_IF(!within(sp->frame, side, sp->seq, sp->len));
	FAIL_IF(sp->kind == IWS_SPAN_PART && (sp->pdu_frame < sp->frame || sp->pdu_frame > cur_frame));
	e->spans++;
	add_to_bag(e, "span", (uint64_t)sp->kind << 56 ^ (uint64_t)side << 48 ^ sp->seq,
		   (uint64_t)sp->len << 32 ^ sp->frame ^ sp->pdu_frame << 20);
}

static void on_event(void *ctx, const struct iws_stream_event *ev)
{
	struct eng *e = ctx;
	FAIL_IF(e->after_finish);
	FAIL_IF(ev->kind < IWS_SEV_HANDSHAKE || ev->kind > IWS_SEV_DUPLICATE_ACK || ev->side < 0 || ev->side > 1 ||
	    ev->dir > 1 || ev->frame > cur_frame || ev->prev_frame > cur_frame);
	e->events++;
	add_to_bag(e, "event", (uint64_t)ev->kind << 56 ^ (uint64_t)(ev->side ^ e->mirror) << 48 ^ ev->seq,
		   (uint64_t)ev->len << 32 ^ ev->frame ^ (uint64_t)ev->detail << 24);
}

static void on_close(void *ctx, const struct iws_close *c)
{
	struct eng *e = ctx;
	FAIL_IF(e->after_finish);
	FAIL_IF(c->kind < IWS_CLOSE_FIN || c->kind > IWS_CLOSE_TERMINATE || c->dir > 1 || c->frame > cur_frame ||
	    c->nids > c->outstanding || c->nids > IWS_STREAM_CLOSE_IDS || (c->nids && !c->ids));
	/* every id readable (ASan), none 0 (ids count from 1) */
	for (uint32_t i = 0; i < c->nids; i++)
		FAIL_IF(c->ids[i] == 0);
}

static const struct iws_stream_sink sink = { on_pdu, on_op, on_span, on_event, on_close };

/* ---- building the streams ---- */

/* A ULPDU from [sel][a][b][payload...]: a DDP/RDMAP header the opcode
 * wants (RFC 5040, 5041, 7306), then the payload. */
static uint32_t make_ulpdu(const uint8_t *in, uint32_t n)
{
	uint8_t sel = n ? in[0] : 0x13;
	uint8_t a = n > 1 ? in[1] : 1, b = n > 2 ? in[2] : 0;
	const uint8_t *pl = n > 3 ? in + 3 : NULL;
	uint32_t pn = n > 3 ? n - 3 : 0;
	if ((sel & 0xE0) == 0xE0) {
		uint32_t k = n - 1 < sizeof(ulpdu) ? n - 1 : 0;
		memcpy(ulpdu, in + 1, k);
		return k;
	}
	uint8_t op = sel & 0x0F;
	int last = (sel & 0x10) != 0;
	uint32_t h;
	uint32_t fixed = 0;             /* exact message length, 0: any */
	memset(ulpdu, 0, 18 + 52);
	if (op == 0 || op == 2 || op > 0xB) {
		h = sb_tagged_ulpdu(ulpdu, op > 0xB ? 0 : op, 0x100u + (a & 7), (uint64_t)b << 8, last, 0);
	} else {
		static const uint8_t qn[12] = { 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 1, 3 };
		static const uint8_t flen[12] = { 0, 28, 0, 0, 0, 0, 0, 0, 8, 8, 52, 12 };
		ulpdu[0] = (uint8_t)(0x01 | (last || flen[op] ? 0x40 : 0));
		ulpdu[1] = (uint8_t)(0x40 | op);
		put_be32(ulpdu + 6, qn[op]);
		put_be32(ulpdu + 10, a & 15);
		put_be32(ulpdu + 14, op == 3 ? (uint32_t)(b & 3) << 8 : 0);
		h = 18;
		if (op == IWS_OP_CODE_READ_REQ) {
			put_be32(ulpdu + 18, 0x100u + (b & 7));
			put_be32(ulpdu + 30, (uint32_t)a << 6);
		}
		if (flen[op])
			fixed = 18 + flen[op];
		else if (op == IWS_OP_CODE_TERMINATE)
			fixed = 18 + 4 + (pn > 60 ? 60 : pn);
	}
	uint32_t total = h;
	if (pl) {
		uint32_t rep = (sel & 0x20) ? 64 : 1;
		for (uint32_t r = 0; r < rep && total + pn <= 65535; r++) {
			memcpy(ulpdu + total, pl, pn);
			total += pn;
		}
	}
	if (fixed) {
		if (total < fixed)
			memset(ulpdu + total, 0, fixed - total);
		if (op == IWS_OP_CODE_READ_REQ || op >= 0xA)
			memset(ulpdu + h, 0, 4);  /* reserved words the decoder may check */
		if (op == IWS_OP_CODE_READ_REQ)
			put_be32(ulpdu + 18, 0x100u + (b & 7));
		total = fixed;
	}
	return total > 65535 ? 65535 : total;
}

/* Append what record kind makes of in[0..n) to side's stream. */
static void generate(struct side_state *sd, unsigned kind, const uint8_t *in, uint32_t n,
		     uint32_t *budget)
{
	uint32_t k = 0;
	uint32_t at = sd->isn + 1 + sd->len;
	switch (kind) {
	case 0:
		memcpy(tmp, in, n);
		k = n;
		break;
	case 6:
		for (uint32_t r = 0; r < 256 && n && k + n <= 65536; r++, k += n)
			memcpy(tmp + k, in, n);
		break;
	case 1:
	case 2: {
		struct sb b = { tmp, sizeof(tmp), 0, 0, 0, 0, 0, 0 };
		uint8_t flags = n ? in[0] : 0;
		uint8_t rv = n > 1 ? in[1] : 0;
		uint8_t x = n > 2 ? in[2] : 0, y = n > 3 ? in[3] : 0;
		sb_mpa_frame(&b, kind == 2, flags, (uint16_t)(x << 8 | y), (uint16_t)(y << 8 | x));
		tmp[17] = (uint8_t)(1 + (rv & 1));
		/* private data: the enhanced word as built, then the rest */
		uint32_t pd = (flags & 0x10) ? 4 : 0;
		for (uint32_t i = 4; i < n && pd < 512; i++)
			tmp[20 + pd++] = in[i];
		put_be16(tmp + 18, (rv & 0x80) ? (uint16_t)(0x200 + (rv & 0x7F)) : (uint16_t)pd);
		k = 20 + pd;
		sd->seqstart = at + k;
		break;
	}
	case 3:
	case 4:
	case 5: {
		uint32_t ul = make_ulpdu(in, n);
		if (ul < IWS_DDP_MIN_HDR_LEN)
			break;
		struct sb b = { tmp, sizeof(tmp), 0, at, sd->markers, sd->seqstart, 0, 0 };
		sb_fpdu(&b, ulpdu, (uint16_t)ul, kind == 3 ? 1 : kind == 4 ? 0 : 2);
		k = (uint32_t)b.len;
		break;
	}
	default:
		break;
	}
	if (k > *budget || sd->len + k > STREAM_MAX)
		return;
	*budget -= k;
	memcpy(sd->buf + sd->len, tmp, k);
	sd->len += k;
}

static void feed(struct eng *e, int side, const struct iws_tcp_seg *g)
{
	/* a SYN's options: MSS 536 (RFC 9293's default), after a NOP */
	static const uint8_t syn_opts[5] = { 1, 2, 4, 0x02, 0x18 };
	if (!e->s)
		return;
	struct iws_tcp_seg s = *g;
	if (s.flags & IWS_TCP_SYN) {
		s.opts = syn_opts;
		s.opts_len = sizeof(syn_opts);
	}
	iws_stream_segment(e->s, side ^ e->mirror, &s);
}

/* The doctor's sums hold together: catalogue order, counts and frames, a
 * fraction never above its whole. */
static void check_doctor(const struct eng *e)
{
	uint32_t n;
	const struct iws_finding_sum *s = iws_doctor_sums(e->doc, &n);
	for (uint32_t i = 0; i < n; i++) {
		const struct iws_rule_info *ri = iws_rule_info(s[i].rule);
		FAIL_IF(!ri || s[i].dir > 1 || !s[i].count || s[i].nsamples > IWS_DOCTOR_SAMPLES);
		FAIL_IF(s[i].nsamples > s[i].count || s[i].first_frame > s[i].last_frame || s[i].last_frame > cur_frame);
		FAIL_IF(ri->measure != IWS_MEASURE_NONE && s[i].count > s[i].of);
		FAIL_IF(i && (s[i - 1].rule > s[i].rule || (s[i - 1].rule == s[i].rule && s[i - 1].dir >= s[i].dir)));
		for (uint32_t k = 0; k < s[i].nsamples; k++)
			FAIL_IF(s[i].samples[k] < s[i].first_frame || s[i].samples[k] > s[i].last_frame);
		char buf[256];
		(void)iws_finding_text(buf, sizeof(buf), &s[i].first);
	}
}

/* ... and do not depend on which side the front end calls 0. */
static bool same_doctor(const struct eng *a, const struct eng *b)
{
	uint32_t na, nb;
	const struct iws_finding_sum *x = iws_doctor_sums(a->doc, &na), *y = iws_doctor_sums(b->doc, &nb);
	if (na != nb)
		return false;
	for (uint32_t i = 0; i < na; i++)
		if (x[i].rule != y[i].rule || x[i].dir != y[i].dir || x[i].count != y[i].count ||
		    x[i].first_frame != y[i].first_frame || x[i].last_frame != y[i].last_frame || x[i].of != y[i].of)
			return false;
	return true;
}

static void check_after(const struct eng *e, const struct iws_stream_limits *lim, unsigned nengines)
{
	if (!e->s)
		return;
	FAIL_IF(lim->ooo_used > lim->max_ooo_total);
	FAIL_IF(lim->buf_used > lim->max_buf + 2ull * IWS_STREAM_FLOOR * nengines);
	int64_t ts;
	uint64_t fr;
	bool pend = iws_stream_pending(e->s, &ts, &fr);
	uint64_t buffered = iws_stream_buffered(e->s);
	FAIL_IF(pend && (!buffered || fr > cur_frame || fr == 0));
}

static void finish_and_free(struct eng *e, const uint8_t *opts_byte, const struct iws_tcp_seg *last)
{
	if (!e->s)
		return;
	if (*opts_byte & 0x20) {
		e->after_finish = true;   /* no report may come from free */
		uint64_t before = e->ops + e->spans + e->events;
		iws_stream_free(e->s);
		e->s = NULL;
		e->doc = NULL;
		FAIL_IF(e->ops + e->spans + e->events != before);
		return;
	}
	iws_stream_finish(e->s, (*opts_byte & 0x80) ? IWS_OPF_ABORTED : IWS_OPF_UNFINISHED);
	check_doctor(e);
	int64_t ts;
	uint64_t fr;
	FAIL_IF(iws_stream_buffered(e->s) || iws_stream_pending(e->s, &ts, &fr));
	const struct iws_tracker_counts *tc = iws_stream_tracker_counts(e->s);
	FAIL_IF(tc->inflight || tc->ops_started != tc->ops_reported || tc->ops_reported != e->ops);
	/* Feeding after the end is ignored. */
	e->after_finish = true;
	if (last)
		iws_stream_segment(e->s, 0, last);
	/* The getters, once more after the end. */
	(void)iws_stream_state(e->s);
	(void)iws_stream_is_iwarp(e->s);
	(void)iws_stream_done(e->s);
	(void)iws_stream_mpa(e->s);
	(void)iws_stream_init_side(e->s);
	(void)iws_stream_request(e->s);
	(void)iws_stream_reply(e->s);
	(void)iws_stream_request_frame(e->s);
	(void)iws_stream_reply_frame(e->s);
	for (int k = 0; k < 2; k++) {
		(void)iws_stream_framing(e->s, k);
		(void)iws_stream_counts(e->s, k);
		(void)iws_stream_marker_deviation(e->s, k);
	}
	iws_stream_free(e->s);
	e->s = NULL;
	e->doc = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 6)
		return 0;
	trace = getenv("FUZZ_STREAM_TRACE") != NULL;
	uint8_t opts = data[0], lb = data[1];
	uint32_t isn = (uint32_t)data[2] << 24 | (uint32_t)data[3] << 16 | (uint32_t)data[4] << 8 | data[5];
	size_t off = 6;

	struct iws_stream_limits lim;
	memset(&lim, 0, sizeof(lim));
	bool small = opts & 0x08;
	if (small) {
		static const uint64_t bufs[4] = { 1, 4096, 65536, 1u << 20 };
		static const uint64_t ooo[4] = { 64, 1024, 16384, 1u << 20 };
		static const uint32_t held[4] = { 1, 4, 64, 4096 };
		static const uint32_t segs[4] = { 1, 8, 64, 4096 };
		lim.max_buf = bufs[lb & 3];
		lim.max_ooo_dir = ooo[(lb >> 2) & 3];
		lim.max_ooo_total = 2 * lim.max_ooo_dir;
		lim.max_held = held[(lb >> 4) & 3];
		lim.max_ooo_segs = segs[lb >> 6];
		lim.max_inflight = 16;
	}
	struct iws_stream_opts o = { (opts & 1) != 0, (opts & 2) != 0, (opts >> 2) & 1, { 0, 0 } };
	want_spans = o.want_spans;
	struct eng e[2];
	memset(e, 0, sizeof(e));
	e[0].s = iws_stream_new(&o, &lim, &sink, &e[0]);
	if (e[0].s && iws_stream_doctor_stage(e[0].s, NULL, NULL, NULL, NULL))
		e[0].doc = iws_stream_doctor(e[0].s);
	if (opts & 0x10) {
		struct iws_stream_opts om = o;
		om.guess_init_side = !o.guess_init_side;
		e[1].mirror = 1;
		e[1].s = iws_stream_new(&om, &lim, &sink, &e[1]);
		if (e[1].s && iws_stream_doctor_stage(e[1].s, NULL, NULL, NULL, NULL))
			e[1].doc = iws_stream_doctor(e[1].s);
	}
	unsigned nengines = (opts & 0x10) ? 2 : 1;

	for (int k = 0; k < 2; k++) {
		struct side_state *sd = &sides[k];
		sd->isn = k ? isn ^ 0x80000000u : isn;
		sd->len = sd->cursor = 0;
		sd->seqstart = sd->isn + 1;
		sd->markers = 0;
	}
	cur_frame = 0;
	int64_t ts = 1700000000000000000;
	uint32_t budget = GEN_BUDGET;
	struct iws_tcp_seg g;
	memset(&g, 0, sizeof(g));
	bool fed = false;
	while (off + 5 <= size && cur_frame < MAX_FRAMES) {
		uint8_t f = data[off], c = data[off + 1];
		int32_t delta = (int16_t)(data[off + 2] << 8 | data[off + 3]);
		uint32_t len = data[off + 4];
		off += 5;
		int8_t ackd = 0;
		if (f & 0x10) {
			if (off >= size)
				break;
			ackd = (int8_t)data[off++];
		}
		if (len > size - off)
			len = (uint32_t)(size - off);
		const uint8_t *in = data + off;
		off += len;

		int side = f & 1;
		unsigned kind = f >> 5;
		struct side_state *me = &sides[side], *peer = &sides[!side];
		if (c & 0x40)
			me->markers = !me->markers;
		generate(me, kind, in, len, &budget);

		memset(&g, 0, sizeof(g));
		if (f & 0x02)
			g.flags |= IWS_TCP_SYN;
		if (f & 0x04)
			g.flags |= IWS_TCP_FIN;
		if (f & 0x08)
			g.flags |= IWS_TCP_RST;
		if (f & 0x10) {
			g.flags |= IWS_TCP_ACK;
			g.ack = peer->isn + 1 + peer->cursor + (uint32_t)((int32_t)ackd * 16);
		}
		uint32_t wire = 0;
		const uint8_t *payload;
		uint32_t data_seq;
		if (kind == 7) {
			/* Outside the stream: anywhere in sequence space. */
			data_seq = me->isn + 1 + (uint32_t)(delta * 64);
			wire = len;
			payload = in;
		} else {
			int64_t start = (int64_t)me->cursor + delta;
			if (start < 0)
				start = 0;
			if (start > me->len)
				start = me->len;
			uint32_t avail = me->len - (uint32_t)start;
			if ((c & 3) == 3)
				continue;   /* only written to the stream */
			wire = (c & 3) == 0 ? avail : (c & 3) == 1 ? avail / 2 : avail / 4;
			if (wire > 65535 * 4)
				wire = 65535 * 4;
			data_seq = me->isn + 1 + (uint32_t)start;
			payload = me->buf + start;
			if (wire && (uint32_t)start + wire > me->cursor)
				me->cursor = (uint32_t)start + wire;
		}
		/* a SYN takes the number before its data */
		g.seq = (g.flags & IWS_TCP_SYN) ? data_seq - 1 : data_seq;
		g.wire_len = wire;
		switch ((c >> 2) & 3) {
		case 0: g.cap_len = wire; break;
		case 1: g.cap_len = wire / 2; break;
		case 2: g.cap_len = 0; break;
		default: g.cap_len = wire > 3 ? wire - 3 : 0; break;
		}
		memcpy(seg_buf, payload, g.cap_len);
		g.payload = (g.cap_len == 0 && (c & 0x80)) ? NULL : seg_buf;
		switch ((c >> 4) & 3) {
		case 0: ts += 1000; break;
		case 1: break;
		case 2: ts -= 1000000; break;
		default: ts += 1000000000; break;
		}
		g.ts_ns = ts;
		g.win = 65535;
		g.frame = ++cur_frame;
		frames[cur_frame] = (struct frame_rec){ side, data_seq, wire };
		fed = true;
		for (unsigned i = 0; i < nengines; i++) {
			feed(&e[i], side, &g);
			check_after(&e[i], &lim, nengines);
		}
	}
	/* With limits too large to bind, the engine does not care which side
	 * the front end calls 0: the mirror saw the same. (Up to the end:
	 * iws_stream_finish flushes side 0, then side 1, and what one side's
	 * octets stuck behind holes turn out to be may depend on what the other
	 * side's reveal first, e.g. a rejected Reply.) */
	FAIL_IF(nengines == 2 && !small &&
		(e[0].hash != e[1].hash || e[0].bag != e[1].bag || e[0].pdus != e[1].pdus ||
		 e[0].ops != e[1].ops || e[0].spans != e[1].spans || e[0].events != e[1].events ||
		 !same_doctor(&e[0], &e[1])));
	for (unsigned i = 0; i < nengines; i++)
		check_doctor(&e[i]);
	for (unsigned i = 0; i < nengines; i++)
		finish_and_free(&e[i], &opts, fed ? &g : NULL);
	FAIL_IF(lim.buf_used || lim.ooo_used);
	return 0;
}
