// SPDX-License-Identifier: GPL-2.0-or-later
/* Capture finalisation and ground-truth computation (see capture.h). */
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	return !(f->fault & (FF_LOST | FF_NOCAP)) && f->ts >= g->capture_start;
}

/* per connection and direction: first-capture frame of every stream octet */
struct streammap {
	uint32_t *fc;		/* 0 = never captured */
	uint32_t *comp;		/* in-order completion frame (running max of fc) */
	uint64_t n;
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

static void compute_ops(struct gen *g, struct truth *t)
{
	size_t nops = g->nops;
	int *first = malloc(nops * sizeof(int)), *lastv = malloc(nops * sizeof(int));
	int *nlisted = calloc(nops, sizeof(int)), *bad = calloc(nops, sizeof(int));
	int *req = calloc(nops, sizeof(int)), *fin = calloc(nops, sizeof(int));
	int *incomplete = calloc(nops, sizeof(int)), *resp = calloc(nops, sizeof(int));
	uint64_t *bytes = calloc(nops, sizeof(uint64_t));

	if (!first || !lastv || !nlisted || !bad || !req || !fin || !incomplete || !bytes || !resp)
		gen_die("out of memory");
	for (size_t i = 0; i < nops; i++)
		first[i] = lastv[i] = -1;
	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		int o = f->op;

		if (o < 0)
			continue;
		if (!f->listed || !f->full)
			incomplete[o] = 1;
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
			fin[o] = 1;
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
		x->first_frame = ff->frame;
		x->last_frame = lf->frame;
		x->start_ns = t->ts[ff->frame];
		x->end_ns = t->ts[lf->frame];
		x->bytes = bytes[i];
		x->segments = (uint32_t)nlisted[i];
		x->complete = o->finished && !incomplete[i];
		x->crc_errors = (uint32_t)bad[i];
		x->key_off = ff->off;
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
				x->has_qn = 1;
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
				x->has_qn = 1;
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
		    req[i] && fin[i]) {
			x->has_latency = 1;
			x->latency = x->end_ns - x->start_ns;
		}
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
 * the extremes of their frames; *whole stays 1 if all are listed and full. */
static int op_frames(const struct gen *g, int op, uint32_t *lo, uint32_t *hi, uint64_t *pay,
		     int *whole)
{
	int first = -1;

	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];

		if (f->op != op)
			continue;
		if (!f->listed || !f->full)
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
		if (r->resp_op >= 0)
			resp = op_frames(g, r->resp_op, &rlo, &rhi, &rpay, &whole);
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

		if (!(f->fault & FF_NOCAP) || !f->paylen || f->ts < g->capture_start)
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
		}
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

	snprintf(path, sizeof(path), "%s.%s", prefix, pcapw_ext(g->fmt));
	if (pcapw_open(&w, path, g->fmt, g->snaplen))
		gen_die("cannot write %s", path);
	for (size_t i = 0; i < ncap; i++) {
		struct frame *f = &g->frames[order[i]];

		f->no = (uint32_t)(i + 1);
		t.ts[i + 1] = f->ts;
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
		if (f->listed) {
			/* Its first transmission as captured: the earliest frame
			 * that carried any of its octets. */
			f->first_frame = m->fc[f->off];
			for (uint32_t k = 0; k < f->wire_len && f->off + k < m->n; k++)
				if (m->fc[f->off + k] && m->fc[f->off + k] < f->first_frame)
					f->first_frame = m->fc[f->off + k];
			f->frame = m->comp[f->off + f->wire_len - 1];
		}
	}
	compute_ops(g, &t);
	t.fpdus = malloc((g->nfpdus + 1) * sizeof(size_t));
	for (size_t i = 0; i < g->nfpdus; i++)
		if (g->fpdus[i].listed)
			t.fpdus[t.nfpdus++] = i;
	sort_gen = g;
	qsort(t.fpdus, t.nfpdus, sizeof(size_t), cmp_fpdu_out);
	compute_gaps(g, &t, maps, order, ncap);
	compute_conns(g, &t, maps);
	compute_nvme(g, &t);

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
	free(t.ops);
	free(t.fpdus);
	free(t.gaps);
	free(t.conns);
	free(t.nvme);
	return rc;
}
