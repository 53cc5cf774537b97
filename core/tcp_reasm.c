// SPDX-License-Identifier: GPL-2.0-or-later
/* TCP reassembly of one direction (see tcp_reasm.h). Sequence arithmetic is
 * modulo 2^32 (RFC 9293 §3.4): "a before b" is (int32_t)(a - b) < 0. */
#include "tcp_reasm.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Acknowledgements further ahead than this are not believed. */
#define MAX_ACK_JUMP (1u << 30)
/* What one buffered segment costs besides its octets (the header and the
 * allocator's own): counted against the limits, so that a flood of tiny
 * segments cannot hold far more memory than the limits say. */
#define SEG_COST ((uint64_t)sizeof(struct ooo_seg) + 16)

struct ooo_seg {
	struct avl_node node;       /* in reasm_dir.ooo, by seq - next_seq */
	struct ooo_seg *older, *newer; /* in the order they were buffered */
	uint32_t seq, len;
	uint32_t tsval;             /* its segment's TSval ... */
	uint16_t ip_id;             /* ... and IP ID */
	uint8_t how;                /* enum seg_how of its segment */
	bool hole : 1;              /* octets cut by the snapshot length */
	bool has_ip_id : 1, has_ts : 1;
	uint64_t frame;
	int64_t ts_ns;
	uint8_t data[];
};

static inline int32_t sdiff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

/* ---- the buffered segments ----
 *
 * Every buffered segment lies ahead of next_seq, so its distance from
 * next_seq (seq - next_seq, modulo 2^32) orders them; next_seq only moves
 * forward and never past a buffered segment's start without taking it
 * out (drain), so that order never changes as it moves. */

static struct ooo_seg *seg_of(struct avl_node *n)
{
	return n ? (struct ooo_seg *)((char *)n - offsetof(struct ooo_seg, node)) : NULL;
}

static struct ooo_seg *first_seg(const struct reasm_dir *d)
{
	return seg_of(avl_first(&d->ooo));
}

static struct ooo_seg *last_seg(const struct reasm_dir *d)
{
	return seg_of(avl_last(&d->ooo));
}

static struct ooo_seg *next_seg(const struct ooo_seg *x)
{
	return seg_of(avl_step(&x->node, AVL_RIGHT));
}

/* The oldest frame still buffered (output order): frames increase as they
 * are fed (stream.h), so it is the first one buffered of those left. */
static void note_oldest(struct reasm_dir *d)
{
	const struct ooo_seg *x = d->oldest;
	d->ooo_min_frame = x ? x->frame : 0;
	d->ooo_min_ts = x ? x->ts_ns : 0;
}

/* Does x end after cur (both at or ahead of base, the next_seq)? */
static bool ends_after(const struct ooo_seg *x, uint32_t base, uint32_t cur)
{
	return x->seq + x->len - base > cur - base;
}

/* The first buffered segment that ends after cur (at or ahead of base):
 * the one holding cur or the closest after it. Segments mostly land near
 * the end, so the search starts at the last one: up the tree's right edge
 * while the segments there still end after cur (every one above is
 * before it), then down from the highest of them. As long as the distance
 * from the end, and 2 log n at most. */
static struct ooo_seg *seg_from(const struct reasm_dir *d, uint32_t base, uint32_t cur)
{
	struct avl_node *n = avl_last(&d->ooo);
	if (!n || !ends_after(seg_of(n), base, cur))
		return NULL;
	while (n->parent && ends_after(seg_of(n->parent), base, cur))
		n = n->parent;
	/* n ends after cur, what is before its subtree does not */
	struct ooo_seg *found = seg_of(n);
	for (struct avl_node *m = n->child[AVL_LEFT]; m;) {
		bool after = ends_after(seg_of(m), base, cur);
		if (after)
			found = seg_of(m);
		m = m->child[after ? AVL_LEFT : AVL_RIGHT];
	}
	return found;
}

/* Place x in the tree right before `next` (NULL: after everything), where
 * its octets go: as next's left child, or else as the right child of the
 * one before next (which has none), with no walk from the root; and last
 * in the order of buffering. */
static void seg_link(struct reasm_dir *d, struct ooo_seg *x, struct ooo_seg *next)
{
	if (!next)
		avl_link(&d->ooo, &x->node, avl_last(&d->ooo), AVL_RIGHT);
	else if (!next->node.child[AVL_LEFT])
		avl_link(&d->ooo, &x->node, &next->node, AVL_LEFT);
	else
		avl_link(&d->ooo, &x->node, avl_step(&next->node, AVL_LEFT), AVL_RIGHT);
	x->older = d->newest;
	x->newer = NULL;
	*(d->newest ? &d->newest->newer : &d->oldest) = x;
	d->newest = x;
}

void reasm_init(struct reasm_dir *d, struct iws_stream_counts *c)
{
	memset(d, 0, sizeof(*d));
	d->c = c;
}

/* Take s out of the tree and the order of buffering. */
static void seg_unlink(struct reasm_dir *d, struct ooo_seg *s)
{
	avl_remove(&d->ooo, &s->node);
	*(s->older ? &s->older->newer : &d->oldest) = s->newer;
	*(s->newer ? &s->newer->older : &d->newest) = s->older;
}

/* Free s, taken out of the tree. */
static void seg_free(struct reasm_dir *d, struct ooo_seg *s, struct iws_stream_limits *lim)
{
	uint64_t sz = (s->hole ? 0 : s->len) + SEG_COST;
	d->ooo_bytes -= sz;
	lim->ooo_used -= sz;
	d->ooo_n--;
	free(s);
}

/* Deliver [seq, seq+n) of which the first cap octets are at p (in order). */
static void deliver(struct reasm_dir *d, int side, uint32_t seq, const uint8_t *p, uint32_t cap,
		    uint32_t n, uint64_t frame, int64_t ts, uint8_t how, const struct reasm_sink *sink)
{
	if (cap > n)
		cap = n;
	if (cap)
		sink->data(sink->ctx, side, seq, p, cap, frame, ts, how);
	if (n > cap) {
		d->c->snap_bytes += n - cap;
		sink->hole(sink->ctx, side, seq + cap, n - cap, HOLE_SNAP);
	}
	d->c->bytes += n;
	d->next_seq = seq + n;
}

static void check_fin(struct reasm_dir *d, int side, const struct reasm_sink *sink)
{
	if (d->fin_seen && !d->fin_done && d->next_seq == d->fin_seq && !d->ooo_n) {
		d->fin_done = true;
		sink->fin(sink->ctx, side);
	}
}

/* Deliver buffered segments the stream has reached. */
static void drain(struct reasm_dir *d, int side, const struct reasm_sink *sink,
		  struct iws_stream_limits *lim)
{
	struct ooo_seg *s;
	while ((s = first_seg(d)) && sdiff(s->seq, d->next_seq) <= 0) {
		/* out of the tree before its octets go: next_seq moves past it */
		seg_unlink(d, s);
		uint32_t end = s->seq + s->len;
		if (sdiff(end, d->next_seq) > 0) {
			uint32_t skip = d->next_seq - s->seq;
			if (s->hole) {
				d->c->snap_bytes += end - d->next_seq;
				d->c->bytes += end - d->next_seq;
				sink->hole(sink->ctx, side, d->next_seq, end - d->next_seq, HOLE_SNAP);
				d->next_seq = end;
			} else {
				deliver(d, side, d->next_seq, s->data + skip, s->len - skip, s->len - skip,
					s->frame, s->ts_ns, s->how, sink);
			}
		}
		seg_free(d, s, lim);
	}
	note_oldest(d);
	check_fin(d, side, sink);
}

/* Declare the octets before the first buffered segment (or before `upto`,
 * whichever comes first) a gap and move on. */
static void gap_to(struct reasm_dir *d, int side, uint32_t upto, const struct reasm_sink *sink,
		   struct iws_stream_limits *lim)
{
	uint32_t end = upto;
	const struct ooo_seg *first = first_seg(d);
	if (first && sdiff(first->seq, end) < 0)
		end = first->seq;
	if (sdiff(end, d->next_seq) > 0) {
		uint32_t n = end - d->next_seq;
		d->c->gaps++;
		d->c->gap_bytes += n;
		d->c->bytes += n;
		sink->hole(sink->ctx, side, d->next_seq, n, HOLE_GAP);
		d->next_seq = end;
	}
	drain(d, side, sink, lim);
}

/* What buffering a segment keeps of it besides its octets. */
struct seg_info {
	uint8_t how;
	bool has_ts;
	uint32_t tsval;
};

static struct ooo_seg *piece(uint32_t seq, uint32_t len, bool hole, const uint8_t *p,
			     const struct iws_tcp_seg *in, const struct seg_info *si)
{
	struct ooo_seg *s = malloc(sizeof(*s) + (hole ? 0 : len));
	if (!s)
		return NULL;
	s->seq = seq;
	s->len = len;
	s->hole = hole;
	s->how = si->how;
	s->has_ip_id = in->has_ip_id;
	s->ip_id = in->ip_id;
	s->has_ts = si->has_ts;
	s->tsval = si->tsval;
	s->frame = in->frame;
	s->ts_ns = in->ts_ns;
	if (!hole)
		memcpy(s->data, p, len);
	return s;
}

/* Buffer [a, b) (ahead of next_seq, right before the buffered segment
 * `next`, NULL: after everything) of a segment that starts at s0 with cap
 * captured octets: up to two pieces, data then snaplen hole. */
static void insert_range(struct reasm_dir *d, struct ooo_seg *next, uint32_t a, uint32_t b, uint32_t s0,
			 uint32_t cap, const uint8_t *p, const struct iws_tcp_seg *in,
			 const struct seg_info *si, struct iws_stream_limits *lim)
{
	uint32_t cap_end = s0 + cap;
	uint32_t mid = sdiff(cap_end, a) <= 0 ? a : (sdiff(cap_end, b) >= 0 ? b : cap_end);
	struct ooo_seg *parts[2] = { NULL, NULL };
	if (mid != a)
		parts[0] = piece(a, mid - a, false, p + (a - s0), in, si);
	if (mid != b)
		parts[1] = piece(mid, b - mid, true, NULL, in, si);
	for (int i = 0; i < 2; i++) {
		struct ooo_seg *s = parts[i];
		if (!s)
			continue;
		seg_link(d, s, next);
		d->ooo_n++;
		uint64_t sz = (s->hole ? 0 : s->len) + SEG_COST;
		d->ooo_bytes += sz;
		lim->ooo_used += sz;
		if (lim->ooo_used > lim->ooo_peak)
			lim->ooo_peak = lim->ooo_used;
	}
	note_oldest(d);
}

/* Buffer [s, e) (ahead of next_seq), keeping octets already buffered (the
 * first captured copy wins; the others are reported as duplicates). Returns
 * HOW_RESENT when some of its octets were buffered already, late_how when it
 * lands behind later octets (it fills part of the hole; the pieces keep that
 * for when they are delivered), else HOW_FIRST. */
static uint8_t buffer_ooo(struct reasm_dir *d, int side, uint32_t s, uint32_t e, uint32_t cap,
			  const uint8_t *p, const struct iws_tcp_seg *in, const struct seg_info *si0,
			  const struct reasm_sink *sink, struct iws_stream_limits *lim)
{
	uint32_t base = d->next_seq;
	uint32_t cur = s;
	bool overlapped = false;
	struct seg_info si = *si0;
	/* Past everything buffered (the usual case behind a hole): append. */
	const struct ooo_seg *last = last_seg(d);
	if (last && !ends_after(last, base, s)) {
		si.how = HOW_FIRST;
		insert_range(d, NULL, s, e, s, cap, p, in, &si, lim);
		return HOW_FIRST;
	}
	bool behind = last != NULL;
	if (!behind)
		si.how = HOW_FIRST;
	/* Offsets from next_seq order everything buffered (all of it is
	 * ahead). x: the first buffered segment ending after cur; the walk
	 * goes on only through the segments this one overlaps. */
	struct ooo_seg *x = seg_from(d, base, cur);
	while (cur - base < e - base) {
		if (!x || x->seq - base >= e - base) {
			insert_range(d, x, cur, e, s, cap, p, in, &si, lim);
			break;
		}
		if (x->seq - base > cur - base) {
			insert_range(d, x, cur, x->seq, s, cap, p, in, &si, lim);
			cur = x->seq;
			continue;
		}
		overlapped = true;
		uint32_t xe = x->seq + x->len;
		uint32_t oe = xe - base < e - base ? xe : e;
		if (sink->dup)
			sink->dup(sink->ctx, side, cur, oe - cur, in->frame);
		cur = xe;
		x = next_seg(x);
	}
	if (overlapped)
		d->c->overlaps++;
	return overlapped ? HOW_RESENT : behind ? si.how : HOW_FIRST;
}

bool reasm_later(const struct reasm_dir *d, uint32_t seq, uint32_t n, struct reasm_later *out)
{
	if (!d->started || !n || !d->ooo_n)
		return false;
	uint32_t e = seq + n;
	if (sdiff(e, d->next_seq) <= 0)
		return false;  /* nothing new in it */
	/* the closest buffered octets after its start (all of them when it
	 * starts before next_seq; none when it starts after them all, the
	 * usual case behind a hole) */
	uint32_t base = d->next_seq;
	const struct ooo_seg *x = seg_from(d, base, sdiff(seq, base) > 0 ? seq : base);
	if (!x)
		return false;  /* appended past everything: a new segment */
	out->frame = x->frame;
	out->ts = x->ts_ns;
	out->has_ip_id = x->has_ip_id;
	out->ip_id = x->ip_id;
	out->has_ts = x->has_ts;
	out->tsval = x->tsval;
	return true;
}

/* A SYN starts the direction at its ISN. Returns where the segment's octets
 * begin: a SYN takes a sequence number of its own, and data on it follows
 * (RFC 9293 §3.4). */
static uint32_t take_syn(struct reasm_dir *d, int side, const struct iws_tcp_seg *p,
			 const struct reasm_sink *sink)
{
	if (!(p->flags & IWS_TCP_SYN))
		return p->seq;
	if (!d->started) {
		d->started = true;
		d->syn_seen = true;
		d->isn = p->seq;
		d->next_seq = p->seq + 1;
		sink->start(sink->ctx, side, d->next_seq, true);
	}
	return p->seq + 1;
}

/* [seq, e) starts at or before next_seq and reaches past it: deliver what
 * is new. si->how is still the caller's late_how. Returns how the delivered
 * octets came (HOW_RESENT if some of it was delivered before). */
static uint8_t take_in_order(struct reasm_dir *d, int side, const struct iws_tcp_seg *p,
			     uint32_t seq, uint32_t e, struct seg_info *si,
			     const struct reasm_sink *sink, struct iws_stream_limits *lim)
{
	uint8_t how = HOW_FIRST;
	uint32_t skip = d->next_seq - seq;
	if (skip) {
		d->c->overlaps++;
		how = HOW_RESENT;
		if (sink->dup)
			sink->dup(sink->ctx, side, seq, skip, p->frame);
	}
	/* Later octets were seen first: a retransmission, or a reordered
	 * original, filling the hole (the caller told them apart). */
	const struct ooo_seg *first = first_seg(d);
	if (first) {
		d->c->late++;
		if (how == HOW_FIRST)
			how = si->how;
	}
	si->how = how;
	/* Octets of it already buffered out of order were captured first and
	 * keep their frame (the first captured copy wins): deliver only what
	 * lies before them, and place the rest around them (the overlap is
	 * reported as duplicates); the drain then delivers everything in
	 * sequence order. */
	uint32_t upto = e;
	if (first && sdiff(first->seq, e) < 0) {
		upto = first->seq;
		uint32_t r = skip + (upto - d->next_seq);
		uint32_t rcap = p->cap_len > r ? p->cap_len - r : 0;
		buffer_ooo(d, side, upto, e, rcap, rcap ? p->payload + r : NULL, p, si, sink, lim);
	}
	uint32_t cap = p->cap_len > skip ? p->cap_len - skip : 0;
	deliver(d, side, d->next_seq, cap ? p->payload + skip : NULL, cap, upto - d->next_seq,
		p->frame, p->ts_ns, how, sink);
	drain(d, side, sink, lim);
	return how;
}

/* [seq, e) lies ahead of next_seq, behind a hole: buffer it. Returns how
 * its octets came (see buffer_ooo). */
static uint8_t take_ahead(struct reasm_dir *d, int side, const struct iws_tcp_seg *p,
			  uint32_t seq, uint32_t e, const struct seg_info *si,
			  const struct reasm_sink *sink, struct iws_stream_limits *lim)
{
	d->c->out_of_order++;
	uint8_t how = buffer_ooo(d, side, seq, e, p->cap_len, p->payload, p, si, sink, lim);
	/* Bounded memory: past a limit the hole is given up as a gap. */
	const struct ooo_seg *first;
	while ((first = first_seg(d)) && (d->ooo_bytes > lim->max_ooo_dir ||
					  lim->ooo_used > lim->max_ooo_total ||
					  d->ooo_n > lim->max_ooo_segs)) {
		d->c->ooo_limit_hits++;
		gap_to(d, side, first->seq, sink, lim);
	}
	return how;
}

/* The segment's n > 0 octets, starting at seq. Returns how they came. */
static uint8_t take_data(struct reasm_dir *d, int side, const struct iws_tcp_seg *p,
			 uint32_t seq, uint32_t n, struct seg_info *si,
			 const struct reasm_sink *sink, struct iws_stream_limits *lim)
{
	if (!d->started) {
		/* Mid-stream: the capture starts with this segment. */
		d->started = true;
		d->next_seq = seq;
		sink->start(sink->ctx, side, seq, false);
	}
	d->c->segments++;
	uint32_t e = seq + n;
	if (sdiff(seq, d->next_seq) > 0)
		return take_ahead(d, side, p, seq, e, si, sink, lim);
	if (sdiff(e, d->next_seq) > 0)
		return take_in_order(d, side, p, seq, e, si, sink, lim);
	/* One octet, the last one delivered, and nothing after it: a
	 * keep-alive probe (RFC 9293 §3.8.4: SEG.SEQ = SND.NXT - 1 with at most
	 * one garbage octet, so old TCPs answer), not a retransmission; tshark
	 * calls it the same. */
	if (n == 1 && e == d->next_seq && !(p->flags & (IWS_TCP_SYN | IWS_TCP_FIN | IWS_TCP_RST))) {
		d->c->keepalives++;
		return HOW_KEEPALIVE;
	}
	/* Every octet of it was delivered before: a retransmission. */
	d->c->retrans++;
	if (sink->dup)
		sink->dup(sink->ctx, side, seq, n, p->frame);
	return HOW_RESENT;
}

uint8_t reasm_segment(struct reasm_dir *d, int side, const struct iws_tcp_seg *in, uint8_t late_how,
		      bool has_ts, uint32_t tsval, const struct reasm_sink *sink,
		      struct iws_stream_limits *lim)
{
	uint8_t how = HOW_FIRST;
	struct seg_info si = { late_how, has_ts, tsval };
	uint32_t seq = take_syn(d, side, in, sink);
	if (in->flags & IWS_TCP_RST)
		d->rst_seen = true;
	uint32_t n = in->wire_len;
	/* A reset's octets, if any, are diagnostic text, not stream data
	 * (RFC 9293 §3.5.3). */
	if (n && !(in->flags & IWS_TCP_RST))
		how = take_data(d, side, in, seq, n, &si, sink, lim);
	/* A FIN takes the sequence number after the segment's octets
	 * (RFC 9293 §3.4). */
	if ((in->flags & IWS_TCP_FIN) && !d->fin_seen && d->started) {
		d->fin_seen = true;
		d->fin_seq = seq + n;
	}
	if (d->started)
		check_fin(d, side, sink);
	return how;
}

void reasm_ack(struct reasm_dir *d, int side, uint32_t ack, const struct reasm_sink *sink,
	       struct iws_stream_limits *lim)
{
	if (!d->started || d->fin_done)
		return;
	uint32_t end = ack;
	/* A FIN takes a sequence number but carries no octet. */
	if (d->fin_seen && sdiff(end, d->fin_seq) > 0)
		end = d->fin_seq;
	if (sdiff(end, d->next_seq) <= 0 || end - d->next_seq > MAX_ACK_JUMP)
		return;
	gap_to(d, side, end, sink, lim);
}

void reasm_flush(struct reasm_dir *d, int side, const struct reasm_sink *sink,
		 struct iws_stream_limits *lim)
{
	const struct ooo_seg *first;
	while ((first = first_seg(d)))
		gap_to(d, side, first->seq, sink, lim);
}

void reasm_free(struct reasm_dir *d, struct iws_stream_limits *lim)
{
	struct ooo_seg *s;
	while ((s = first_seg(d))) {
		seg_unlink(d, s);
		seg_free(d, s, lim);
	}
	note_oldest(d);
}
