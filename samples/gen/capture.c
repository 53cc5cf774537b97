// SPDX-License-Identifier: GPL-2.0-or-later
/* Capture finalisation and ground-truth computation (see capture.h). */
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netpkt.h"
#include "tcpsim.h"

static const struct frame *sort_frames;

static int cmp_frame(const void *a, const void *b)
{
	const struct frame *x = &sort_frames[*(const size_t *)a];
	const struct frame *y = &sort_frames[*(const size_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int captured(const struct gen *g, const struct frame *f)
{
	return !(f->fault & (FF_LOST | FF_NOCAP)) && f->ts >= g->capture_start &&
	       (!g->capture_end || f->ts < g->capture_end);
}

/* per connection and direction: first-capture frame of every stream octet */
struct streammap {
	uint32_t *fc;		/* 0 = never captured */
	uint32_t *comp;		/* in-order completion frame (running max of fc) */
	uint64_t n;
	/* how far the capture shows the stream went: the end of the furthest
	 * captured segment (its payload captured or cut by the snapshot
	 * length), or the receiver's furthest captured ACK */
	uint64_t shown;
};

static void build_maps(struct gen *g, struct streammap (*maps)[2], const size_t *order, size_t n)
{
	for (int c = 0; c < g->nconns; c++) {
		for (int s = 0; s < 2; s++) {
			struct streammap *m = &maps[c][s];

			m->n = g->conns[c]->d[s].sent + 1;
			m->fc = calloc(m->n, sizeof(uint32_t));
			m->comp = calloc(m->n, sizeof(uint32_t));
			if (!m->fc || !m->comp)
				gen_die("out of memory");
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &g->frames[order[i]];
		struct streammap *m = &maps[f->conn][f->dir];
		uint32_t caplen = f->len < g->snaplen ? f->len : g->snaplen;
		uint32_t got = caplen > f->payoff ? caplen - f->payoff : 0;

		if (got > f->paylen)
			got = f->paylen;
		for (uint32_t k = 0; k < got; k++)
			if (!m->fc[f->soff + k])
				m->fc[f->soff + k] = f->no;
		if (f->paylen && f->soff + f->paylen > m->shown)
			m->shown = f->soff + f->paylen;
		if (f->flags & TCPF_ACK) {
			struct streammap *pm = &maps[f->conn][1 - f->dir];
			if (f->ack_off > pm->shown)
				pm->shown = f->ack_off;
		}
	}
	for (int c = 0; c < g->nconns; c++) {
		for (int s = 0; s < 2; s++) {
			struct streammap *m = &maps[c][s];
			uint32_t run = 0;

			for (uint64_t o = 0; o < m->n; o++) {
				if (m->fc[o] > run)
					run = m->fc[o];
				m->comp[o] = run;
			}
		}
	}
}

static int all_captured(const struct streammap *m, uint64_t s, uint64_t e)
{
	for (uint64_t o = s; o < e; o++)
		if (o >= m->n || !m->fc[o])
			return 0;
	return 1;
}

/* Was frame f's payload sent before (any octet of it, by a frame created
 * earlier, captured or not)? The generator knows: creation order is send
 * order. */
static int sent_before(const struct gen *g, const struct frame *f)
{
	for (size_t i = 0; i < g->nframes; i++) {
		const struct frame *y = &g->frames[i];

		if (y->order < f->order && y->conn == f->conn && y->dir == f->dir && y->paylen &&
		    y->soff < f->soff + f->paylen && f->soff < y->soff + y->paylen)
			return 1;
	}
	return 0;
}

/*
 * The TCP side of the truth, from the segments as captured
 * (docs/semantics.md, "TCP per QP"), per connection:
 * - a segment with payload that starts below the highest sequence number
 *   captured so far in its direction is a retransmission when some of its
 *   octets were sent before (the generator knows: it sent them), else a
 *   reordered first transmission (overtaken on the way, nothing lost);
 * - a duplicate ACK (RFC 5681 2): no payload, no SYN, FIN or RST, the same
 *   acknowledgement number and window as the previous segment of its side,
 *   while the peer has captured octets beyond that acknowledgement;
 * - a fast retransmit (RFC 5681 3.2): a retransmission starting at the
 *   sequence number the peer acknowledged in three or more duplicate ACKs;
 *   a timeout: one that follows a silence of its sender (no segment with
 *   data) of at least the RTO estimate, 200 ms (every scenario's round
 *   trips are microseconds, so RFC 6298's SRTT + 4 RTTVAR stays below
 *   Linux's minimum); the others are other_retransmits;
 * - zero windows: segments other than SYN and RST advertising a window of 0;
 * - each side's first FIN and first RST.
 */
#define TRUTH_RTO_NS (200 * 1000000ull)

static void compute_tcp(struct gen *g, struct truth *t)
{
	struct side_state {
		uint64_t hi;		/* end of the highest captured payload */
		int have_prev;
		uint64_t prev_ack;
		uint16_t prev_win;
		int prev_ackf;
		uint64_t dup_ack;	/* acknowledgement of its latest duplicate ACKs ... */
		uint32_t dups;		/* ... and how many there were */
		int any_data;
		uint64_t last_data_ts;	/* its latest captured segment with data */
	} (*st)[2] = calloc((size_t)g->nconns + 1, sizeof(*st));

	t->tcp = calloc((size_t)g->nconns + 1, sizeof(*t->tcp));
	t->retrans = calloc((size_t)t->nframes + 1, 1);
	if (!st || !t->tcp || !t->retrans)
		gen_die("out of memory");
	for (uint32_t no = 1; no <= t->nframes; no++) {
		const struct frame *f = t->byno[no];
		struct side_state *me = &st[f->conn][f->dir], *peer = &st[f->conn][1 - f->dir];
		struct conn_tcp *ct = &t->tcp[f->conn];
		int ackf = (f->flags & TCPF_ACK) != 0;

		if (f->paylen) {
			if (f->soff < me->hi) {
				if (!sent_before(g, f)) {
					t->retrans[no] = 2;
					ct->reordered++;
				} else {
					t->retrans[no] = 1;
					ct->retransmissions++;
					if (peer->dups >= 3 && peer->dup_ack == f->soff)
						ct->fast_retransmits++;
					else if (me->any_data && f->ts - me->last_data_ts >= TRUTH_RTO_NS)
						ct->timeouts++;
				}
			}
			if (f->soff + f->paylen > me->hi)
				me->hi = f->soff + f->paylen;
			me->any_data = 1;
			me->last_data_ts = f->ts;
		}
		if (ackf && !f->paylen && !(f->flags & (TCPF_SYN | TCPF_FIN | TCPF_RST)) &&
		    me->have_prev && me->prev_ackf && me->prev_ack == f->ack_off &&
		    me->prev_win == f->win && peer->hi > f->ack_off) {
			ct->duplicate_acks++;
			if (me->dups && me->dup_ack == f->ack_off) {
				me->dups++;
			} else {
				me->dup_ack = f->ack_off;
				me->dups = 1;
			}
		}
		if (!(f->flags & (TCPF_SYN | TCPF_RST)) && f->win == 0)
			ct->zero_windows++;
		if ((f->flags & TCPF_FIN) && !ct->fin[f->dir])
			ct->fin[f->dir] = no;
		if ((f->flags & TCPF_RST) && !ct->rst[f->dir])
			ct->rst[f->dir] = no;
		me->have_prev = 1;
		me->prev_ackf = ackf;
		me->prev_ack = f->ack_off;
		me->prev_win = f->win;
	}
	free(st);
}

/* The first frame in which side `side` of connection conn closed (FIN) or
 * reset (RST) it; 0 if it never did. */
static uint32_t closed_at(const struct truth *t, int conn, int side)
{
	const struct conn_tcp *ct = &t->tcp[conn];
	uint32_t a = ct->fin[side], b = ct->rst[side];

	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

/* The first captured acknowledgement from the receiver of direction dir that
 * covers stream offset end (a segment with ACK set, an RST with ACK too);
 * 0 if none. */
static uint32_t first_ack(const struct truth *t, int conn, int dir, uint64_t end)
{
	for (uint32_t no = 1; no <= t->nframes; no++) {
		const struct frame *f = t->byno[no];

		if (f->conn == conn && f->dir == 1 - dir && (f->flags & TCPF_ACK) &&
		    f->ack_off >= end)
			return no;
	}
	return 0;
}

static const struct gen *sort_gen;

static int cmp_fpdu_out(const void *a, const void *b)
{
	const struct fpdu_rec *x = &sort_gen->fpdus[*(const size_t *)a];
	const struct fpdu_rec *y = &sort_gen->fpdus[*(const size_t *)b];
	int qx = sort_gen->conns[x->conn]->qp, qy = sort_gen->conns[y->conn]->qp;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (qx != qy)
		return qx < qy ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_op_out(const void *a, const void *b)
{
	const struct op_out *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->first_frame != y->first_frame)
		return x->first_frame < y->first_frame ? -1 : 1;
	return x->key_off < y->key_off ? -1 : x->key_off > y->key_off;
}

static int is_final(const struct op_rec *o, const struct fpdu_rec *f)
{
	switch (o->kind) {
	case OP_READ:
		return f->op_seq > 0 && f->last;
	case OP_FADD:
	case OP_CSWAP:
		return f->op_seq == 1;
	default:
		return f->last;
	}
}

/*
 * Where operation op's time went (docs/semantics.md): its FPDUs in protocol
 * order (the order in which they become deliverable) give the stall, the
 * receivers' first FIN or RST before an FPDU's first transmission makes it
 * after_close.
 */
static void op_loss(const struct gen *g, const struct truth *t, struct op_out *x, int op)
{
	uint64_t prev = 0;
	int any = 0;

	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		uint32_t closed;
		uint64_t from;

		if (f->op != op || !f->listed)
			continue;
		/* waiting for earlier missing octets: from when all of it was
		 * there (and its predecessor was delivered) to its delivery */
		from = t->ts[f->arrived];
		if (any && prev > from)
			from = prev;
		if (t->ts[f->frame] > from)
			x->stall_ns += t->ts[f->frame] - from;
		prev = t->ts[f->frame];
		any = 1;
		closed = closed_at(t, f->conn, 1 - f->dir);
		if (closed && f->first_frame > closed)
			x->after_close = 1;
	}
}

/* Does frame f carry octets of one of operation op's listed FPDUs? */
static int carries(const struct gen *g, const struct frame *f, int op)
{
	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *p = &g->fpdus[i];

		if (p->op == op && p->listed && p->conn == f->conn && p->dir == f->dir &&
		    f->soff < p->off + p->wire_len && p->off < f->soff + f->paylen)
			return 1;
	}
	return 0;
}

/*
 * The covering ACK of a complete operation's last FPDU, and the
 * retransmissions of its octets until the operation was over: its covering
 * ACK when there is one (a segment sent again after that cost it nothing),
 * else, for an incomplete operation that ended, its last FPDU, else the end
 * of the capture (docs/semantics.md).
 */
static void op_ack(const struct gen *g, const struct truth *t, struct op_out *x,
		   const struct fpdu_rec *lf)
{
	uint32_t limit = UINT32_MAX;

	if (x->complete) {
		x->ack_frame = first_ack(t, lf->conn, lf->dir, lf->off + lf->wire_len);
		x->has_ack = x->ack_frame != 0;
		if (x->has_ack)
			x->ack_ns = t->ts[x->ack_frame] - x->start_ns;
	}
	if (x->has_ack)
		limit = x->ack_frame;
	else if (!x->complete && x->done_frame)
		limit = x->done_frame + 1;
	for (uint32_t no = 1; no <= t->nframes && no < limit; no++)
		if (t->retrans[no] == 1 && carries(g, t->byno[no], x->op))
			x->retransmissions++;
	/* reordered segments that carried its octets: they came with them */
	for (uint32_t no = 1; no <= t->nframes; no++)
		if (t->retrans[no] == 2 && carries(g, t->byno[no], x->op))
			x->reordered++;
}

/*
 * The operations as the truth lists them: a read or atomic whose pairing the
 * capture does not prove (proof.c) is split into its request alone and its
 * responses alone; responses proven to answer another request of the same
 * frame join that request; responses to a request hidden by the snapshot
 * length make an operation of their own that starts in its frame.
 */
static void split_ops(struct gen *g)
{
	size_t base = g->nops;
	int *to = malloc((base + 1) * sizeof(int));

	if (!to)
		gen_die("out of memory");
	for (size_t i = 0; i < base; i++) {
		to[i] = (int)i;
		switch (g->ops[i].resp_part) {
		case RESP_MISSING:
		case RESP_BEFORE:
		case RESP_HIDDEN: {
			int n = gen_new_op(g, g->conns[g->ops[i].conn], g->ops[i].dir, g->ops[i].kind,
					   g->ops[i].opcode);
			struct op_rec *o = &g->ops[i], *x = &g->ops[n];

			*x = *o;
			g->counts.ops[o->kind]--;  /* one operation, listed in two parts */
			x->part = o->resp_part == RESP_MISSING ? PART_REQUEST_MISSING
				  : o->resp_part == RESP_BEFORE ? PART_BEFORE_CAPTURE : PART_HIDDEN;
			x->pairing = x->part == PART_HIDDEN ? PAIR_FRAME
				     : x->part == PART_BEFORE_CAPTURE ? PAIR_BEFORE_CAPTURE : PAIR_NONE;
			/* the RDMAP opcode of its first message: a response's, or
			 * the hidden request's */
			if (x->part != PART_HIDDEN && x->kind == OP_READ)
				x->opcode = RD_READ_RESP;
			x->resp_part = RESP_OWN;
			to[i] = n;
			break;
		}
		case RESP_MOVED:
			to[i] = g->ops[i].resp_of;
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < g->nfpdus; i++) {
		struct fpdu_rec *f = &g->fpdus[i];
		if (f->op >= 0 && (size_t)f->op < base && f->op_seq > 0 &&
		    (g->ops[f->op].kind == OP_READ || g->ops[f->op].kind == OP_FADD ||
		     g->ops[f->op].kind == OP_CSWAP))
			f->op = to[f->op];
	}
	free(to);
}

static void compute_ops(struct gen *g, struct truth *t)
{
	split_ops(g);
	size_t nops = g->nops;
	int *first = malloc(nops * sizeof(int)), *lastv = malloc(nops * sizeof(int));
	int *nlisted = calloc(nops, sizeof(int)), *bad = calloc(nops, sizeof(int));
	int *req = calloc(nops, sizeof(int)), *fin = calloc(nops, sizeof(int));
	int *incomplete = calloc(nops, sizeof(int)), *resp = calloc(nops, sizeof(int));
	int *cut = calloc(nops, sizeof(int));
	uint64_t *bytes = calloc(nops, sizeof(uint64_t));

	if (!first || !lastv || !nlisted || !bad || !req || !fin || !incomplete || !bytes || !resp ||
	    !cut)
		gen_die("out of memory");
	for (size_t i = 0; i < nops; i++)
		first[i] = lastv[i] = -1;
	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		int o = f->op;

		if (o < 0)
			continue;
		if (!f->listed || !f->shown)
			incomplete[o] = 1;
		if (!f->full)
			cut[o] = 1;
		if (!f->listed)
			continue;
		nlisted[o]++;
		bytes[o] += f->payload;
		if (f->crc_bad && f->full)
			bad[o]++;
		if (first[o] < 0 || g->fpdus[first[o]].op_seq > f->op_seq)
			first[o] = (int)i;
		if (lastv[o] < 0 || g->fpdus[lastv[o]].op_seq < f->op_seq)
			lastv[o] = (int)i;
		if (f->op_seq == 0)
			req[o] = 1;
		if (f->op_seq > 0)
			resp[o] = 1;
		if (is_final(&g->ops[o], f))
			fin[o] = (int)f->frame;
	}
	t->ops = calloc(nops ? nops : 1, sizeof(*t->ops));
	t->nops = 0;
	for (size_t i = 0; i < nops; i++) {
		const struct op_rec *o = &g->ops[i];
		const struct fpdu_rec *ff, *lf;
		struct op_out *x;

		if (!nlisted[i])
			continue;
		ff = &g->fpdus[first[i]];
		lf = &g->fpdus[lastv[i]];
		x = &t->ops[t->nops++];
		x->op = (int)i;
		x->qp = g->conns[o->conn]->qp;
		/* From the first transmission of its first FPDU to the in-order
		 * completion of its last one (docs/semantics.md). */
		x->first_frame = ff->first_frame;
		x->first_inorder_frame = ff->frame;
		x->last_frame = lf->frame;
		x->start_ns = t->ts[x->first_frame];
		x->end_ns = t->ts[lf->frame];
		x->bytes = bytes[i];
		x->segments = (uint32_t)nlisted[i];
		x->crc_errors = (uint32_t)bad[i];
		x->key_off = ff->off;
		x->rtr = o->rtr;
		x->done_frame = fin[i] ? (uint32_t)fin[i] : 0;
		if (o->part == PART_HIDDEN) {
			/* its request, hidden in frame hid_frame, is where it starts */
			x->first_frame = x->first_inorder_frame = o->hid_frame;
			x->start_ns = t->ts[o->hid_frame];
			x->segments++;
			cut[i] = 1;
		}
		op_loss(g, t, x, (int)i);
		if (o->kind == OP_READ || o->kind == OP_FADD || o->kind == OP_CSWAP)
			/* its request (or the hidden one) and its last response */
			x->complete = (req[i] || o->part == PART_HIDDEN) && fin[i] && !incomplete[i] &&
				      o->part != PART_RESPONSE_UNKNOWN && o->part != PART_REQUEST_MISSING &&
				      o->part != PART_BEFORE_CAPTURE && !x->after_close;
		else
			x->complete = o->finished && !incomplete[i] && !x->after_close;
		x->payload_captured = x->complete && !cut[i];
		op_ack(g, t, x, lf);
		switch (o->kind) {
		case OP_WRITE:
			x->has_stag = 1;
			x->stag = ff->stag;
			x->to = ff->to;
			break;
		case OP_READ:
			if (req[i]) {
				x->has_stag = 1;
				x->stag = o->stag;
				x->to = o->to;
				x->has_qn = o->part != PART_AMBIGUOUS;
				x->qn = 1;
				x->msn = o->msn;
			} else {
				x->has_stag = 1;
				x->stag = ff->stag;
				x->to = ff->to;
			}
			break;
		case OP_FADD:
		case OP_CSWAP:
			if (req[i]) {
				x->has_stag = 1;
				x->stag = o->stag;
				x->to = o->to;
				x->has_qn = o->part != PART_AMBIGUOUS;
				x->qn = 1;
				x->msn = o->msn;
			}
			x->has_req_id = 1;
			x->has_orig = resp[i];
			break;
		default:
			x->has_qn = 1;
			x->qn = o->qn;
			x->msn = o->msn;
			break;
		}
		if ((o->kind == OP_READ || o->kind == OP_FADD || o->kind == OP_CSWAP) &&
		    (req[i] || o->part == PART_HIDDEN) && fin[i] && o->part != PART_REQUEST_MISSING &&
		    o->part != PART_BEFORE_CAPTURE) {
			x->has_latency = 1;
			x->latency = x->end_ns - x->start_ns;
		}
		/* how its request and response were paired: only a whole pair
		 * (or the responses alone, when that is proven) says */
		if ((o->kind == OP_READ || o->kind == OP_FADD || o->kind == OP_CSWAP) && (resp[i] || req[i]))
			x->pairing = o->part == PART_AMBIGUOUS ? PAIR_FRAME
				     : o->part == PART_RESPONSE_UNKNOWN || o->part == PART_REQUEST_MISSING ? PAIR_NONE
				     : o->rtr && req[i] && resp[i] ? PAIR_ORDER  /* the set-up's first Read */
				     : resp[i] ? o->pairing : PAIR_NONE;
	}
	qsort(t->ops, t->nops, sizeof(*t->ops), cmp_op_out);
	for (size_t k = 0; k < t->nops; k++)
		for (size_t i = 0; i < g->nfpdus; i++)
			if (g->fpdus[i].op == t->ops[k].op && g->fpdus[i].listed)
				g->fpdus[i].out_op = (int)k;
	free(first);
	free(lastv);
	free(nlisted);
	free(bad);
	free(req);
	free(fin);
	free(incomplete);
	free(cut);
	free(bytes);
	free(resp);
}

static const struct gen *sort_nvme_gen;

static int cmp_nvme_out(const void *a, const void *b)
{
	const struct nvme_out *x = a, *y = b;
	uint16_t cx = sort_nvme_gen->nvme[x->rec].cid, cy = sort_nvme_gen->nvme[y->rec].cid;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->first_frame != y->first_frame)
		return x->first_frame < y->first_frame ? -1 : 1;
	if (x->qp != y->qp)
		return x->qp < y->qp ? -1 : 1;
	return cx < cy ? -1 : cx > cy;
}

/* Of the FPDUs of operation op: the first listed one's index (-1: none) and
 * the extremes of their frames; *whole stays 1 if all are listed and went by
 * (octets a snapshot length cut count: docs/semantics.md, an NVMe command is
 * complete when its completion was seen). */
static int op_frames(const struct gen *g, int op, uint32_t *lo, uint32_t *hi, uint64_t *pay,
		     int *whole)
{
	int first = -1;

	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];

		if (f->op != op)
			continue;
		if (!f->listed || !(f->full || f->shown))
			*whole = 0;
		if (!f->listed)
			continue;
		if (first < 0 || g->fpdus[first].op_seq > f->op_seq)
			first = (int)i;
		if (!*lo || f->frame < *lo)
			*lo = f->frame;
		if (f->frame > *hi)
			*hi = f->frame;
		*pay += f->payload;
	}
	return first;
}

/*
 * The NVMe commands as a decoder that sees the capture knows them: from the
 * first capture of the command capsule's first octet to the frame that
 * completes the response capsule (or, unanswered, the command's last FPDU);
 * bytes of in-capsule data or of the RDMA data FPDUs listed.
 */
static void compute_nvme(struct gen *g, struct truth *t)
{
	t->nvme = calloc(g->nnvme ? g->nnvme : 1, sizeof(*t->nvme));
	if (!t->nvme)
		gen_die("out of memory");
	for (size_t i = 0; i < g->nnvme; i++) {
		const struct nvme_rec *r = &g->nvme[i];
		struct nvme_out *x = &t->nvme[t->nnvme];
		uint32_t lo = 0, hi = 0, dlo = 0, dhi = 0, rlo = 0, rhi = 0;
		uint64_t pay = 0, dpay = 0, rpay = 0;
		int whole = 1, first, resp = -1;

		first = op_frames(g, r->cmd_op, &lo, &hi, &pay, &whole);
		if (first < 0 || g->fpdus[first].op_seq != 0)
			continue;	/* a decoder never sees the SQE */
		for (int k = 0; k < r->ndata; k++)
			op_frames(g, r->data_op[k], &dlo, &dhi, &dpay, &whole);
		if (r->resp_op >= 0) {
			resp = op_frames(g, r->resp_op, &rlo, &rhi, &rpay, &whole);
			/* a completion is seen only whole (its CID, octets 12-13, and status) */
			if (resp >= 0 && !g->fpdus[resp].head16)
				resp = -1;
		}
		x->rec = (int)i;
		x->qp = g->conns[r->conn]->qp;
		x->first_frame = g->fpdus[first].first_frame;
		x->start_ns = t->ts[x->first_frame];
		x->bytes = r->icd + dpay;
		if (dhi)
			x->data_ns = t->ts[dhi] - t->ts[dlo];
		if (resp >= 0) {
			x->last_frame = rhi;
			x->has_latency = x->has_status = 1;
		} else {
			x->last_frame = hi > dhi ? hi : dhi;
		}
		x->end_ns = t->ts[x->last_frame];
		if (x->has_latency)
			x->latency = x->end_ns - x->start_ns;
		x->complete = resp >= 0 && whole;
		t->nnvme++;
	}
	sort_nvme_gen = g;
	qsort(t->nvme, t->nnvme, sizeof(*t->nvme), cmp_nvme_out);
}

/*
 * The RPCs as a decoder that sees the capture knows them (docs/semantics.md,
 * "RPC over RDMA"): the call from the first capture of its Send's first
 * octet, the reply where its Send completed; the data from the first capture
 * of its first FPDU to the completion of its last, its payload octets.
 */
static void compute_rpc(struct gen *g, struct truth *t)
{
	t->rpc = calloc(g->nrpc ? g->nrpc : 1, sizeof(*t->rpc));
	if (!t->rpc)
		gen_die("out of memory");
	for (size_t i = 0; i < g->nrpc; i++) {
		const struct rpc_rec *r = &g->rpc[i];
		struct rpc_out *x = &t->rpc[t->nrpc];
		uint32_t lo = 0, hi = 0, rlo = 0, rhi = 0, dhi = 0, dfirst = 0;
		uint64_t pay = 0, rpay = 0, dpay = 0;
		int whole = 1, first;

		first = op_frames(g, r->call_op, &lo, &hi, &pay, &whole);
		if (first < 0)
			continue;
		for (int k = 0; k < r->ndata; k++) {
			uint32_t dlo = 0;
			op_frames(g, r->data_op[k], &dlo, &dhi, &dpay, &whole);
			for (size_t f = 0; f < g->nfpdus; f++)
				if (g->fpdus[f].op == r->data_op[k] && g->fpdus[f].listed &&
				    (!dfirst || g->fpdus[f].first_frame < dfirst))
					dfirst = g->fpdus[f].first_frame;
		}
		x->rec = (int)i;
		x->qp = g->conns[r->conn]->qp;
		x->call_frame = g->fpdus[first].first_frame;
		if (r->reply_op >= 0 && op_frames(g, r->reply_op, &rlo, &rhi, &rpay, &whole) >= 0) {
			x->reply_frame = rhi;
			x->has_reply = 1;
			x->latency = t->ts[rhi] - t->ts[x->call_frame];
		}
		x->data_first_frame = dfirst;
		x->data_last_frame = dhi;
		x->rdma_bytes = dpay;
		x->complete = x->has_reply && whole;
		t->nrpc++;
	}
}

static int cmp_gap(const void *a, const void *b)
{
	const struct gap_out *x = a, *y = b;

	if (x->conn != y->conn)
		return x->conn < y->conn ? -1 : 1;
	if (x->after_frame != y->after_frame)
		return x->after_frame < y->after_frame ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void compute_gaps(struct gen *g, struct truth *t, struct streammap (*maps)[2],
			 const size_t *order, size_t ncap)
{
	for (size_t i = 0; i < g->nframes; i++) {
		const struct frame *f = &g->frames[i];
		const struct streammap *m = &maps[f->conn][f->dir];
		struct gap_out *x;
		size_t lo = 0, hi = ncap;

		if (!(f->fault & FF_NOCAP) || !f->paylen || f->ts < g->capture_start ||
		    (g->capture_end && f->ts >= g->capture_end))
			continue;
		for (uint32_t k = 0; k < f->paylen; k++)
			if (m->fc[f->soff + k])
				gen_die("internal: gap data captured later");
		/* frames captured before this one would have been */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			const struct frame *y = &g->frames[order[mid]];

			if (y->ts < f->ts || (y->ts == f->ts && y->order < f->order))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (t->ngaps && t->gaps[t->ngaps - 1].conn == f->conn &&
		    t->gaps[t->ngaps - 1].dir == f->dir &&
		    t->gaps[t->ngaps - 1].off + t->gaps[t->ngaps - 1].len == f->soff &&
		    t->gaps[t->ngaps - 1].after_frame == lo) {
			t->gaps[t->ngaps - 1].len += f->paylen;
			continue;
		}
		t->gaps = xrealloc(t->gaps, (t->ngaps + 1) * sizeof(*t->gaps));
		x = &t->gaps[t->ngaps++];
		x->conn = f->conn;
		x->dir = f->dir;
		x->off = f->soff;
		x->len = f->paylen;
		x->after_frame = (uint32_t)lo;
	}
	if (t->ngaps)
		qsort(t->gaps, t->ngaps, sizeof(*t->gaps), cmp_gap);
}

static void compute_conns(struct gen *g, struct truth *t, struct streammap (*maps)[2])
{
	t->conns = calloc((size_t)g->nconns + 1, sizeof(*t->conns));
	for (int q = 0;; q++) {
		int found = -1;

		for (int c = 0; c < g->nconns; c++)
			if (g->conns[c]->qp == q)
				found = c;
		if (found < 0)
			break;
		{
			struct conn *c = g->conns[found];
			struct conn_out *x = &t->conns[t->nconns++];
			const struct streammap *mi = &maps[found][I2R], *mr = &maps[found][R2I];

			x->conn = found;
			if (c->req_end && mi->fc[c->req_off])
				x->req_frame = mi->comp[c->req_end - 1];
			if (c->rep_end && mr->fc[c->rep_off])
				x->rep_frame = mr->comp[c->rep_end - 1];
			x->handshake = x->req_frame && x->rep_frame;
			for (int s = 0; s < 2; s++) {
				int fi = c->rtr_fpdu[s];

				if (fi >= 0 && g->fpdus[fi].listed)
					x->rtr_frames[x->nrtr++] = g->fpdus[fi].frame;
			}
			x->retransmissions = t->tcp[found].retransmissions;
			x->fast_retransmits = t->tcp[found].fast_retransmits;
			x->timeouts = t->tcp[found].timeouts;
			x->reordered = t->tcp[found].reordered;
			x->duplicate_acks = t->tcp[found].duplicate_acks;
			x->zero_windows = t->tcp[found].zero_windows;
		}
	}
}

static void add_td(struct gen *g, struct truth *t, struct conn_out *x, enum td_kind kind,
		   int side, uint32_t frame)
{
	struct td_out *d;
	int qp = g->conns[x->conn]->qp;

	if (x->ntd == TD_MAX)
		gen_die("too many teardown events");
	d = &x->td[x->ntd++];
	d->kind = kind;
	d->side = side;
	d->frame = frame;
	d->ops = malloc((t->nops + 1) * sizeof(size_t));
	if (!d->ops)
		gen_die("out of memory");
	d->nops = 0;
	/* Outstanding: begun (its first FPDU deliverable in order) and not yet
	 * finished (its final FPDU not yet deliverable, or never) - as the
	 * capture shows it then: not a response whose request was not proven,
	 * nor a request such a response, begun after it, may have answered. */
	for (size_t k = 0; k < t->nops; k++) {
		const struct op_out *o = &t->ops[k];
		const struct op_rec *r = &g->ops[o->op];

		if (o->qp != qp || o->first_inorder_frame > frame || (o->done_frame && o->done_frame <= frame))
			continue;
		if (r->part == PART_REQUEST_MISSING || r->part == PART_BEFORE_CAPTURE)
			continue;
		{
			/* its data (a read's, an atomic's: the responses) may have
			 * come in FPDUs a snapshot length hid since it began */
			int data_dir = r->kind == OP_READ || r->kind == OP_FADD || r->kind == OP_CSWAP ? !r->dir : r->dir;
			int hid = 0;
			for (size_t j = 0; j < t->nhidden && !hid; j++)
				hid = t->hidden[j].conn == r->conn && t->hidden[j].dir == data_dir &&
				      t->hidden[j].frame >= o->first_frame && t->hidden[j].frame <= frame;
			if (hid)
				continue;
		}
		if (r->kind == OP_READ || r->kind == OP_FADD || r->kind == OP_CSWAP) {
			int uncertain = 0;
			for (size_t j = 0; j < t->norphans && !uncertain; j++) {
				const struct orphan_rec *or = &t->orphans[j];
				uncertain = or->conn == r->conn && or->req_dir == r->dir && or->frame <= frame &&
					    or->first_frame > o->first_frame;
			}
			if (uncertain)
				continue;
		}
		d->ops[d->nops++] = k;
	}
}

static int cmp_td(const void *a, const void *b)
{
	const struct td_out *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/* Each side's first FIN and first RST, and every Terminate, with the
 * operations outstanding then (docs/semantics.md, teardown). */
static void compute_teardown(struct gen *g, struct truth *t)
{
	for (int i = 0; i < t->nconns; i++) {
		struct conn_out *x = &t->conns[i];
		const struct conn_tcp *ct = &t->tcp[x->conn];

		for (int s = 0; s < 2; s++) {
			if (ct->fin[s])
				add_td(g, t, x, TD_FIN, s, ct->fin[s]);
			if (ct->rst[s])
				add_td(g, t, x, TD_RST, s, ct->rst[s]);
		}
		for (size_t k = 0; k < t->nops; k++) {
			const struct op_rec *o = &g->ops[t->ops[k].op];

			if (o->conn == x->conn && o->kind == OP_TERM)
				add_td(g, t, x, TD_TERMINATE, o->dir, t->ops[k].last_frame);
		}
		qsort(x->td, (size_t)x->ntd, sizeof(x->td[0]), cmp_td);
	}
}

int capture_write(struct gen *g, const char *prefix)
{
	size_t *order = malloc((g->nframes + 1) * sizeof(size_t)), ncap = 0;
	struct streammap (*maps)[2] = calloc((size_t)g->nconns + 1, sizeof(*maps));
	struct truth t;
	struct pcapw w;
	char path[4096];
	int q = 0, rc = 0;

	if (!order || !maps)
		gen_die("out of memory");
	memset(&t, 0, sizeof(t));
	t.g = g;
	for (size_t i = 0; i < g->nframes; i++)
		if (captured(g, &g->frames[i]))
			order[ncap++] = i;
	sort_frames = g->frames;
	qsort(order, ncap, sizeof(*order), cmp_frame);
	t.nframes = (uint32_t)ncap;
	t.ts = calloc(ncap + 1, sizeof(uint64_t));
	t.byno = calloc(ncap + 1, sizeof(*t.byno));
	if (!t.ts || !t.byno)
		gen_die("out of memory");

	snprintf(path, sizeof(path), "%s.%s", prefix, pcapw_ext(g->fmt));
	if (pcapw_open(&w, path, g->fmt, g->snaplen))
		gen_die("cannot write %s", path);
	for (size_t i = 0; i < ncap; i++) {
		struct frame *f = &g->frames[order[i]];

		f->no = (uint32_t)(i + 1);
		t.ts[i + 1] = f->ts;
		t.byno[i + 1] = f;
		pcapw_write(&w, f->ts, g->arena + f->data_off, f->len);
		if (g->conns[f->conn]->qp < 0)
			g->conns[f->conn]->qp = q++;
	}
	if (pcapw_close(&w))
		gen_die("write error on %s", path);

	build_maps(g, maps, order, ncap);
	for (size_t i = 0; i < g->nfpdus; i++) {
		struct fpdu_rec *f = &g->fpdus[i];
		const struct streammap *m = &maps[f->conn][f->dir];

		f->listed = all_captured(m, f->off, f->hdr_end);
		f->full = all_captured(m, f->off, f->off + f->wire_len);
		f->head16 = all_captured(m, f->off, f->hdr_end + 16 < f->off + f->wire_len ? f->hdr_end + 16
									   : f->off + f->wire_len);
		/* all of it went by: octets the snapshot length cut, or that the
		 * capture missed before later ones or the receiver's ACK, still
		 * make the operation whole (not those the capture's end cut) */
		f->shown = f->off + f->wire_len <= m->shown;
		if (f->listed) {
			/* Its first transmission as captured: the earliest frame
			 * that carried any of its octets. */
			f->first_frame = m->fc[f->off];
			for (uint32_t k = 0; k < f->wire_len && f->off + k < m->n; k++)
				if (m->fc[f->off + k] && m->fc[f->off + k] < f->first_frame)
					f->first_frame = m->fc[f->off + k];
			f->frame = m->comp[f->off + f->wire_len - 1];
			/* when the last of its octets to arrive was captured */
			f->arrived = 0;
			for (uint32_t k = 0; k < f->wire_len && f->off + k < m->n; k++)
				if (m->fc[f->off + k] > f->arrived)
					f->arrived = m->fc[f->off + k];
		}
	}
	compute_tcp(g, &t);
	t.fpdus = malloc((g->nfpdus + 1) * sizeof(size_t));
	for (size_t i = 0; i < g->nfpdus; i++)
		if (g->fpdus[i].listed)
			t.fpdus[t.nfpdus++] = i;
	sort_gen = g;
	qsort(t.fpdus, t.nfpdus, sizeof(size_t), cmp_fpdu_out);
	{
		const uint32_t *(*fc)[2] = calloc((size_t)g->nconns + 1, sizeof(*fc));
		if (!fc)
			gen_die("out of memory");
		for (int c = 0; c < g->nconns; c++)
			for (int s = 0; s < 2; s++)
				fc[c][s] = maps[c][s].fc;
		prove_responses(g, &t, fc);
		free(fc);
	}
	compute_ops(g, &t);
	compute_gaps(g, &t, maps, order, ncap);
	compute_conns(g, &t, maps);
	compute_teardown(g, &t);
	compute_nvme(g, &t);
	compute_rpc(g, &t);

	snprintf(path, sizeof(path), "%s.truth.json", prefix);
	rc = truth_write(&t, path);

	for (int c = 0; c < g->nconns; c++)
		for (int s = 0; s < 2; s++) {
			free(maps[c][s].fc);
			free(maps[c][s].comp);
		}
	free(maps);
	free(order);
	free(t.ts);
	free(t.byno);
	free(t.retrans);
	free(t.tcp);
	for (int c = 0; c < t.nconns; c++)
		for (int k = 0; k < t.conns[c].ntd; k++)
			free(t.conns[c].td[k].ops);
	free(t.ops);
	free(t.fpdus);
	free(t.gaps);
	free(t.conns);
	free(t.nvme);
	free(t.rpc);
	free(t.orphans);
	free(t.hidden);
	return rc;
}
