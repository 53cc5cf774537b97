// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper for the stream engine (stream.h): each side's byte stream is
 * written first with the stream builder (MPA frames, FPDUs with markers and
 * CRCs), then fed to one engine as hand-cut TCP segments; everything the
 * sink receives is recorded, with the frame whose feeding produced it
 * (`during`, 0 inside iws_stream_finish), and every PDU's octets are
 * compared with the stream they were cut from.
 */
#ifndef IWS_TEST_STREAM_REC_H
#define IWS_TEST_STREAM_REC_H

#include "iwarpscope/nvme.h"
#include "iwarpscope/stream.h"
#include "stream_builder.h"

#define REC_MAX 1024
#define SIDE_CAP (1u << 18)
#define TS0 1700000000000000000ll
#define TS(f) (TS0 + (int64_t)(f) * 1000000)

/* One side's stream: the builder, its ISN, and where each element (MPA
 * frame or FPDU) starts. */
struct rside {
	struct sb sb;
	uint32_t isn;
	uint32_t el[256];
	unsigned n;
};

struct rpdu {
	struct iws_pdu p;           /* pointers cleared */
	int mpa_type;
	bool has_msg;
	uint8_t opcode;
	uint32_t msn, stag;
	enum iws_crc_status crc;
	uint16_t n_markers, marker_errors, ulpdu_len;
	struct iws_mpa_dir mdir;
	bool has_note;
	struct iws_seg_note note;
	bool has_nvme_note;         /* the NVMe stage's note (iws_stream_nvme_stage) */
	struct iws_nvme_note nvme_note;
	uint64_t during;
};

struct rop {
	struct iws_op op;
	uint64_t during;
};

struct rspan {
	struct iws_span sp;
	uint64_t during;
};

struct rev {
	struct iws_stream_event ev;
	uint64_t during;
};

/* A close record, with up to 4 of its ids (copied: the engine's are the
 * call's only) and how many events came before it. */
struct rclose {
	struct iws_close c;
	uint64_t ids[4];
	int nev_before;
};

/* MPA flags (RFC 5044 §7.1.1, RFC 6581 §5) */
#define F_C 0x40
#define F_M 0x80
#define F_R 0x20
#define F_S 0x10

static uint8_t rec_side_buf[2][SIDE_CAP];
static uint8_t rec_ub[70000];

static struct {
	struct iws_stream *s;
	struct iws_stream_limits lim;
	struct iws_stream_opts o;
	struct rside sd[2];
	uint64_t frame, during;
	struct rpdu pdu[REC_MAX];
	struct rop op[REC_MAX];
	struct rspan span[REC_MAX];
	struct rev ev[REC_MAX];
	struct rclose close[16];
	int npdu, nop, nspan, nev, nclose;
} T;

static void rec_pdu(void *ctx, const struct iws_pdu *p)
{
	(void)ctx;
	if (T.npdu >= REC_MAX)
		return;
	struct rpdu *r = &T.pdu[T.npdu++];
	memset(r, 0, sizeof(*r));
	r->p = *p;
	r->during = T.during;
	if (p->kind == IWS_PDU_MPA_FRAME) {
		r->mpa_type = p->mpa->type;
	} else {
		r->mdir = *p->mdir;
		r->crc = p->fpdu->crc_status;
		r->n_markers = p->fpdu->n_markers;
		r->marker_errors = p->fpdu->marker_errors;
		r->ulpdu_len = p->fpdu->ulpdu_len;
		r->has_msg = p->msg != NULL;
		if (p->msg) {
			r->opcode = p->msg->ddp.opcode;
			r->msn = p->msg->ddp.msn;
			r->stag = p->msg->ddp.stag;
		}
		r->has_note = p->note != NULL;
		if (p->note)
			r->note = *p->note;
		const struct iws_nvme_note *nn = iws_stream_nvme_note(T.s);
		r->has_nvme_note = nn != NULL;
		if (nn)
			r->nvme_note = *nn;
		/* msg implies note, and the framing it went through is sane */
		CHECK(!p->msg || p->note);
		CHECK_EQ(p->fpdu->wire_len, p->len);
	}
	/* Every PDU carries exactly the octets of its stream that were captured
	 * (the uncaptured ones read as zero). */
	const struct rside *sd = &T.sd[p->side & 1];
	uint32_t off = p->seq - sd->sb.seq0;
	CHECK(p->first_hole <= p->len);
	CHECK((uint64_t)off + p->len <= sd->sb.len);
	if ((uint64_t)off + p->len <= sd->sb.len) {
		CHECK(memcmp(p->wire, sd->sb.buf + off, p->first_hole) == 0);
		bool zeros = true;
		if (p->first_hole < p->len && p->wire[p->first_hole] != 0)
			zeros = false;
		CHECK(zeros);
	}
	CHECK(p->first_frame <= p->arrived_frame && p->arrived_frame <= p->frame);
	r->p.wire = NULL;
	r->p.mpa = NULL;
	r->p.mdir = NULL;
	r->p.fpdu = NULL;
	r->p.msg = NULL;
	r->p.note = NULL;
	r->p.why = NULL;
}

static void rec_op(void *ctx, const struct iws_op *op)
{
	(void)ctx;
	if (T.nop < REC_MAX)
		T.op[T.nop++] = (struct rop){ *op, T.during };
}

static void rec_span(void *ctx, const struct iws_span *sp)
{
	(void)ctx;
	if (T.nspan < REC_MAX)
		T.span[T.nspan++] = (struct rspan){ *sp, T.during };
}

static void rec_event(void *ctx, const struct iws_stream_event *ev)
{
	(void)ctx;
	if (T.nev < REC_MAX)
		T.ev[T.nev++] = (struct rev){ *ev, T.during };
}

static void rec_close(void *ctx, const struct iws_close *c)
{
	(void)ctx;
	if (T.nclose >= 16)
		return;
	struct rclose *r = &T.close[T.nclose++];
	r->c = *c;
	for (uint32_t i = 0; i < c->nids && i < 4; i++)
		r->ids[i] = c->ids[i];
	r->c.ids = r->ids;
	r->nev_before = T.nev;
}

static const struct iws_stream_sink rec_sink = { rec_pdu, rec_op, rec_span, rec_event, rec_close };

/* A new engine (the previous one is freed); limits as set in T.lim after. */
static inline void rec_begin(bool check_crc, bool want_spans, const struct iws_stream_limits *lim)
{
	if (T.s)
		iws_stream_free(T.s);
	memset(&T, 0, sizeof(T));
	if (lim)
		T.lim = *lim;
	T.o.check_crc = check_crc;
	T.o.want_spans = want_spans;
	T.s = iws_stream_new(&T.o, &T.lim, &rec_sink, NULL);
	CHECK(T.s != NULL);
}

static inline void rec_end(void)
{
	iws_stream_free(T.s);
	T.s = NULL;
	/* Every engine gives back what it counted against the limits. */
	CHECK_EQ(T.lim.buf_used, 0);
	CHECK_EQ(T.lim.ooo_used, 0);
}

/* Side k's stream: its first payload octet follows the SYN at isn. */
static inline void side_init(int k, uint32_t isn)
{
	struct rside *d = &T.sd[k];
	memset(d, 0, sizeof(*d));
	d->isn = isn;
	d->sb.buf = rec_side_buf[k];
	d->sb.cap = SIDE_CAP;
	d->sb.seq0 = isn + 1;
}

static inline uint32_t sq(int k, uint32_t off)
{
	return T.sd[k].sb.seq0 + off;
}

/* Offset of element i of side k, and of its end. */
static inline uint32_t at(int k, unsigned i)
{
	return i < T.sd[k].n ? T.sd[k].el[i] : (uint32_t)T.sd[k].sb.len;
}

static inline uint32_t len_of(int k, unsigned i)
{
	return at(k, i + 1) - at(k, i);
}

static inline unsigned add_mpa(int k, int reply, uint8_t flags, uint16_t ird_word, uint16_t ord_word)
{
	struct rside *d = &T.sd[k];
	d->el[d->n] = (uint32_t)d->sb.len;
	sb_mpa_frame(&d->sb, reply, flags, ird_word, ord_word);
	/* SeqStart: markers, if this side has them, count from here */
	d->sb.base = sb_seq(&d->sb);
	return d->n++;
}

static inline unsigned add_fpdu(int k, uint16_t ulen, int crc_mode)
{
	struct rside *d = &T.sd[k];
	d->el[d->n] = (uint32_t)d->sb.len;
	sb_fpdu(&d->sb, rec_ub, ulen, crc_mode);
	return d->n++;
}

static inline unsigned add_raw(int k, const uint8_t *p, uint32_t n)
{
	struct rside *d = &T.sd[k];
	d->el[d->n] = (uint32_t)d->sb.len;
	for (uint32_t i = 0; i < n; i++)
		sb_raw(&d->sb, p ? p[i] : 0);
	return d->n++;
}

/* Feed one segment (the next frame). */
static inline void seg_full(int side, uint32_t seq, uint32_t ack, uint8_t flags, const uint8_t *p, uint32_t cap,
		     uint32_t wire)
{
	struct iws_tcp_seg g = { .seq = seq, .ack = ack, .win = 65535, .flags = flags, .payload = p,
				 .cap_len = cap, .wire_len = wire, .frame = ++T.frame, .ts_ns = TS(T.frame + 0) };
	T.during = T.frame;
	iws_stream_segment(T.s, side, &g);
	T.during = 0;
}

static inline void syn(int side, bool with_ack)
{
	uint8_t f = IWS_TCP_SYN | (with_ack ? IWS_TCP_ACK : 0);
	seg_full(side, T.sd[side].isn, with_ack ? T.sd[!side].isn + 1 : 0, f, NULL, 0, 0);
}

/* Octets [off, off+len) of side's stream, cap of them captured. */
static inline void send_cap(int side, uint32_t off, uint32_t len, uint32_t cap, uint8_t flags)
{
	seg_full(side, sq(side, off), 0, flags, T.sd[side].sb.buf + off, cap, len);
}

static inline void send(int side, uint32_t off, uint32_t len)
{
	send_cap(side, off, len, len, IWS_TCP_PSH);
}

/* Elements i..j of side's stream in one segment. */
static inline void send_el(int side, unsigned i, unsigned j)
{
	send(side, at(side, i), at(side, j + 1) - at(side, i));
}

/* A pure acknowledgement from side of the peer's stream up to offset. */
static inline void ack_to(int side, uint32_t peer_off)
{
	seg_full(side, sq(side, (uint32_t)T.sd[side].sb.len), sq(!side, peer_off), IWS_TCP_ACK, NULL, 0, 0);
}

/* Operations reported, and complete ones the tracker holds until the ACK
 * of their last octet (docs/semantics.md): the ones found so far. */
static inline int nop_found(void)
{
	return T.nop + (int)iws_stream_tracker_counts(T.s)->ack_waiting;
}

static inline void finish(uint32_t flag)
{
	T.during = 0;
	iws_stream_finish(T.s, flag);
	CHECK_EQ(iws_stream_buffered(T.s), 0);
	int64_t ts;
	uint64_t fr;
	CHECK(!iws_stream_pending(T.s, &ts, &fr));
	CHECK_EQ(T.lim.buf_used, 0);
	CHECK_EQ(T.lim.ooo_used, 0);
}

/* SYN, SYN-ACK, then the Request and the Reply already in the streams
 * (elements 0 of each side): frames 1-4. */
static inline void handshake(uint8_t rep_flags)
{
	syn(0, false);
	syn(1, true);
	send_el(0, 0, 0);
	send_el(1, 0, 0);
	CHECK_EQ(iws_stream_state(T.s), (rep_flags & F_R) ? IWS_SST_REJECTED : IWS_SST_FULL);
}

/* ---- looking at what was recorded ---- */

static inline int count_ev(enum iws_stream_event_kind k)
{
	int n = 0;
	for (int i = 0; i < T.nev; i++)
		n += T.ev[i].ev.kind == k;
	return n;
}

static inline const struct iws_stream_event *find_ev(enum iws_stream_event_kind k, int nth)
{
	for (int i = 0; i < T.nev; i++)
		if (T.ev[i].ev.kind == k && nth-- == 0)
			return &T.ev[i].ev;
	return NULL;
}

static inline int count_span(enum iws_span_kind k)
{
	int n = 0;
	for (int i = 0; i < T.nspan; i++)
		n += T.span[i].sp.kind == k;
	return n;
}

static inline const struct iws_span *find_span(enum iws_span_kind k, int nth)
{
	for (int i = 0; i < T.nspan; i++)
		if (T.span[i].sp.kind == k && nth-- == 0)
			return &T.span[i].sp;
	return NULL;
}

/* The FPDU records only (MPA frames left out), nth of side (-1: any). */
static inline const struct rpdu *fpdu_rec(int side, int nth)
{
	for (int i = 0; i < T.npdu; i++)
		if (T.pdu[i].p.kind == IWS_PDU_FPDU && (side < 0 || T.pdu[i].p.side == side) && nth-- == 0)
			return &T.pdu[i];
	return NULL;
}

static inline int count_fpdus(int side)
{
	int n = 0;
	for (int i = 0; i < T.npdu; i++)
		n += T.pdu[i].p.kind == IWS_PDU_FPDU && (side < 0 || T.pdu[i].p.side == side);
	return n;
}

/* The cross-direction promise: PDUs reach the sink in completion-frame order. */
static inline bool frames_in_order(void)
{
	for (int i = 1; i < T.npdu; i++)
		if (T.pdu[i].p.frame < T.pdu[i - 1].p.frame)
			return false;
	return true;
}

/* PDUs come in the order the engine could report them, and none is
 * reported before the frame it belongs to. */
static inline bool settled_in_order(void)
{
	for (int i = 0; i < T.npdu; i++)
		if (T.pdu[i].p.settle_frame < T.pdu[i].p.frame ||
		    (i && T.pdu[i].p.settle_frame < T.pdu[i - 1].p.settle_frame))
			return false;
	return true;
}

/* An FPDU record is element el of side's stream, completed in frame `frame`. */
#define CHECK_FPDU_AT(r, side_, el_, frame_)                              \
	do {                                                             \
		const struct rpdu *r_ = (r);                             \
		CHECK(r_ != NULL);                                       \
		if (r_) {                                                \
			CHECK_EQ(r_->p.kind, IWS_PDU_FPDU);              \
			CHECK_EQ(r_->p.side, (side_));                   \
			CHECK_EQ(r_->p.seq, sq((side_), at((side_), (el_)))); \
			CHECK_EQ(r_->p.len, len_of((side_), (el_)));     \
			CHECK_EQ(r_->p.frame, (frame_));                 \
			CHECK_EQ(r_->p.ts, TS(frame_));                  \
		}                                                        \
	} while (0)

#endif
