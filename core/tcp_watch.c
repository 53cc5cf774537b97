// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What TCP did, told from the capture alone (docs/semantics.md, "TCP per
 * QP"): a segment that fills a hole behind later octets was either sent
 * again (a retransmission) or sent before them and overtaken on the way
 * (reordered, nothing lost); a retransmission came after duplicate ACKs
 * (fast, RFC 5681 §3.2), after a silence of at least the retransmission
 * timeout (RFC 6298), or otherwise (SACK-based recovery, a tail loss probe).
 *
 * The evidence (tw_late_how weighs it): the receiver's SACK blocks already
 * held the octets (RFC 2018: then they were sent again); the order the
 * sender sent them in, from the IP Identification of a sender whose IDs
 * increment (RFC 791, RFC 6864 §4.1: an atomic datagram's ID may be
 * anything, so only a sender seen counting up is believed) or else the TCP
 * timestamp value (RFC 7323 §3: TSval grows with the sender's clock),
 * against those of the later octets' segment; the signals that make a
 * sender send again, duplicate ACKs and its timer; and the time: no
 * retransmission can follow the segments that revealed a loss by less than
 * a round trip (the duplicate ACKs, or the timer, come later).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stream_int.h"
#include "bytes.h"

/* Linux's minimum RTO (TCP_RTO_MIN): RFC 6298 §2.4 asks for 1 s, and allows
 * a lower bound; 200 ms is what real stacks use. */
#define RTO_MIN_NS (200 * 1000000ll)
/* Linux's maximum RTO (TCP_RTO_MAX): RFC 6298 §2.5 allows a maximum of at
 * least 60 s. Also the longest round trip believed (tw_acked). */
#define RTO_MAX_NS (120 * 1000000000ll)
/* RFC 6298 §2.1: the RTO before any RTT sample. */
#define RTO_INITIAL_NS (1000 * 1000000ll)
/* IP IDs of a sender that count up by at most this from one segment to
 * the next (a few of its packets not captured). */
#define IPID_STEP_MAX 64u
/* ... in at least this many of its segments, and in 4 of 5 of them. */
#define IPID_MIN_SEEN 8u

static inline int32_t sdiff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

/* The time from `from` to `to`, saturated instead of overflowing: the
 * front ends keep capture times within [0, 2^62] ns (iws_ts_ns), but the
 * engine takes any int64 it is fed. */
static int64_t elapsed(int64_t from, int64_t to)
{
	if (from < 0 && to > INT64_MAX + from)
		return INT64_MAX;
	if (from > 0 && to < INT64_MIN + from)
		return INT64_MIN;
	return to - from;
}

void tw_parse_opts(const struct iws_tcp_seg *seg, struct iws_tcp_opts *o)
{
	iws_tcp_opts_parse(seg->opts, seg->opts ? seg->opts_len : 0, o);
}

/* Has `side` been seen counting its IP IDs up? */
static bool ipid_counts(const struct tcp_watch *w)
{
	return w->ipid_inc >= IPID_MIN_SEEN && w->ipid_other * 4 <= w->ipid_inc;
}

/* The smallest round trip seen, both halves (capture point to receiver and
 * back, each way); 0 if none. */
static int64_t min_rtt(const struct iws_stream *s)
{
	const struct tcp_watch *a = &s->d[0].w, *b = &s->d[1].w;
	return (a->have_rtt ? a->min_rtt : 0) + (b->have_rtt ? b->min_rtt : 0);
}

/* The longest round trip the capture's samples expect, both halves: RFC
 * 6298 §2.3's SRTT + max(G, 4 * RTTVAR) without the RTO's bounds; 0 if
 * there is no sample. */
static int64_t rtt_ceiling(const struct iws_stream *s)
{
	const struct tcp_watch *a = &s->d[0].w, *b = &s->d[1].w;
	int64_t srtt = (a->have_rtt ? a->srtt : 0) + (b->have_rtt ? b->srtt : 0);
	int64_t var = (a->have_rtt ? a->rttvar : 0) + (b->have_rtt ? b->rttvar : 0);
	/* each sample is at most RTO_MAX_NS (tw_acked), so are SRTT and RTTVAR:
	 * this sum stays below 2^41 */
	return srtt + 4 * var;
}

int64_t tw_rto(const struct iws_stream *s)
{
	if (!s->d[0].w.have_rtt && !s->d[1].w.have_rtt)
		return RTO_INITIAL_NS;
	int64_t rto = rtt_ceiling(s);
	return rto < RTO_MIN_NS ? RTO_MIN_NS : rto > RTO_MAX_NS ? RTO_MAX_NS : rto;
}

bool tw_dupacked(const struct iws_stream *s, int side, uint32_t seq, uint32_t len)
{
	const struct fr_dir *rcv = &s->d[!side];
	return rcv->have_ack && rcv->dupacks >= 3 && sdiff(rcv->last_ack, seq) >= 0 &&
	       sdiff(rcv->last_ack, seq + len) < 0;
}

/* Sent before (-1) or after (1) the later octets' segment, as its sender's
 * counters say; 0: they do not say. */
static int send_order(const struct tcp_watch *w, const struct iws_tcp_seg *seg, const struct iws_tcp_opts *o,
		      const struct reasm_later *later)
{
	if (seg->has_ip_id && later->has_ip_id && ipid_counts(w) && seg->ip_id != later->ip_id)
		return (int16_t)(seg->ip_id - later->ip_id) < 0 ? -1 : 1;
	if (o->has_ts && later->has_ts && o->tsval != later->tsval)
		return sdiff(o->tsval, later->tsval) < 0 ? -1 : 1;
	return 0;
}

uint8_t tw_late_how(const struct iws_stream *s, int side, const struct iws_tcp_seg *seg,
		    const struct iws_tcp_opts *o, const struct reasm_later *later)
{
	const struct tcp_watch *w = &s->d[side].w, *peer = &s->d[!side].w;
	uint32_t e = seg->seq + seg->wire_len;
	/* The receiver had reported these octets (SACK): sent again. */
	for (uint32_t i = 0; i < peer->nsack; i++)
		if (sdiff(seg->seq, peer->sack_l[i]) >= 0 && sdiff(e, peer->sack_r[i]) <= 0)
			return HOW_RESENT;
	/* Its sender sent it after the later octets: sent again (TCP sends
	 * new octets in order, RFC 9293 §3.10.1). */
	int order = send_order(w, seg, o, later);
	if (order > 0)
		return HOW_RESENT;
	/* The signals that make a sender send again outweigh an order that
	 * says "before" (a retransmission may carry its
	 * first IP ID or TSval, and an ID a sender reuses proves nothing,
	 * RFC 6864 §4.1). The sender's own copy would have come by then, had
	 * this been the original overtaken on the way: the hole is older than
	 * the retransmission timeout (RFC 6298 §5: the timer expired), or at
	 * least three duplicate ACKs asked for its octets (RFC 5681 §3.2: the
	 * sender sends again at once) and it came the longest round trip the
	 * samples expect, or more, after the third. */
	int64_t age = elapsed(later->ts, seg->ts_ns);
	if (age >= tw_rto(s))
		return HOW_RESENT;
	int64_t ceiling = rtt_ceiling(s);
	if (ceiling > 0 && tw_dupacked(s, side, seg->seq, seg->wire_len) &&
	    elapsed(s->d[!side].dupack3_ts, seg->ts_ns) >= ceiling)
		return HOW_RESENT;
	if (order < 0)
		return HOW_REORDERED;
	/* Sooner after them than any round trip: nothing can have told the
	 * sender of a loss yet. */
	int64_t rtt = min_rtt(s);
	if (rtt > 0 && age < rtt)
		return HOW_REORDERED;
	return HOW_RESENT;
}

bool tw_after_silence(const struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	const struct tcp_watch *w = &s->d[side].w;
	return w->any_data && elapsed(w->last_data_ts, seg->ts_ns) >= tw_rto(s);
}

void tw_free(struct tcp_watch *w)
{
	free(w->out);
	w->out = NULL;
	w->nout = w->out_head = w->capout = 0;
}

/* Double the ring (4 at first, TW_OUT at most), oldest first from 0. */
static bool tw_grow(struct tcp_watch *w)
{
	uint32_t cap = w->capout ? w->capout * 2 : 4;
	if (cap > TW_OUT)
		cap = TW_OUT;
	struct tw_out *n = malloc(cap * sizeof(*n));
	if (!n)
		return false;
	for (uint32_t i = 0; i < w->nout; i++)
		n[i] = w->out[(w->out_head + i) % w->capout];
	free(w->out);
	w->out = n;
	w->out_head = 0;
	w->capout = cap;
	return true;
}

void tw_sent(struct iws_stream *s, int side, const struct iws_tcp_seg *seg, const struct iws_tcp_opts *o,
	     uint8_t how)
{
	struct tcp_watch *w = &s->d[side].w;
	if (seg->has_ip_id) {
		if (w->ipid_any) {
			uint16_t step = (uint16_t)(seg->ip_id - w->ipid_last);
			if (step >= 1 && step <= IPID_STEP_MAX)
				w->ipid_inc++;
			else
				w->ipid_other++;
		}
		w->ipid_any = true;
		w->ipid_last = seg->ip_id;
	}
	(void)o;
	if (!seg->wire_len || (seg->flags & IWS_TCP_RST) || how == HOW_KEEPALIVE)
		return;
	w->any_data = true;
	w->last_data_ts = seg->ts_ns;
	/* A first transmission, for an RTT sample when its ACK comes (Karn:
	 * not one sent again). */
	uint32_t e = seg->seq + seg->wire_len + ((seg->flags & IWS_TCP_SYN) ? 1 : 0);
	if (how != HOW_FIRST) {
		/* the ring is in order of end: those ending after seq are its
		 * newest (a walk of those only) */
		for (uint32_t i = w->nout; i-- > 0;) {
			struct tw_out *x = &w->out[(w->out_head + i) % w->capout];
			if (sdiff(x->end, seg->seq) <= 0)
				break;
			x->resent = true;
		}
		return;
	}
	if (w->nout && sdiff(e, w->out[(w->out_head + w->nout - 1) % w->capout].end) <= 0)
		return;
	if (w->nout == w->capout && w->capout < TW_OUT && !tw_grow(w))
		return; /* no memory: fewer RTT samples (tw_rto falls back to its default) */
	if (w->nout == w->capout) {
		w->out_head = (w->out_head + 1) % w->capout;
		w->nout--;
	}
	w->out[(w->out_head + w->nout++) % w->capout] = (struct tw_out){ .ts = seg->ts_ns, .end = e, .resent = false };
}


void tw_acked(struct iws_stream *s, int side, const struct iws_tcp_seg *ack, const struct iws_tcp_opts *o)
{
	/* the peer of side acknowledged side's octets up to ack->ack */
	struct tcp_watch *w = &s->d[side].w;
	struct tcp_watch *rcv = &s->d[!side].w;
	rcv->nsack = o->nsack;
	memcpy(rcv->sack_l, o->sack_l, sizeof(rcv->sack_l));
	memcpy(rcv->sack_r, o->sack_r, sizeof(rcv->sack_r));
	const struct tw_out *hit = NULL;
	while (w->nout && sdiff(ack->ack, w->out[w->out_head].end) >= 0) {
		hit = &w->out[w->out_head];
		w->out_head = (w->out_head + 1) % w->capout;
		w->nout--;
	}
	if (!hit || hit->resent)
		return;
	/* A round trip longer than the longest RTO is not one: the sender's
	 * timer would have sent the octets again before the ACK came (RFC 6298
	 * §5), and Karn's rule would drop the sample. It is the capture's clock
	 * jumping (a record stamped 0xFFFFFFFF among ordinary ones gave a
	 * sample of 1.7e18 ns, and 7 * SRTT would overflow), as is
	 * a negative one. So SRTT, RTTVAR and the RTO stay below RTO_MAX_NS. */
	int64_t r = elapsed(hit->ts, ack->ts_ns);
	if (r < 0 || r > RTO_MAX_NS)
		return;
	/* RFC 6298 §2.2-2.3 (alpha 1/8, beta 1/4), on this half of the path */
	if (!w->have_rtt) {
		w->have_rtt = true;
		w->srtt = r;
		w->rttvar = r / 2;
		w->min_rtt = r;
		return;
	}
	int64_t dev = w->srtt > r ? w->srtt - r : r - w->srtt;
	w->rttvar = (3 * w->rttvar + dev) / 4;
	w->srtt = (7 * w->srtt + r) / 8;
	if (r < w->min_rtt)
		w->min_rtt = r;
}
