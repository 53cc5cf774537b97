// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The truth file's "doctor" member (doctor scenarios, scen_doctor.c): per
 * rule, QP and direction, how many occurrences were put on the wire and the
 * frames that show them, resolved once the capture's frames are numbered;
 * and, for every connection of these scenarios, where each FPDU sits in the
 * TCP segments that carried it, worked out from the frames themselves.
 *
 *   {"rule": ID, "qp": N, "dir": "i2r"|"r2i", "count": N,
 *    "frames": [F, ...] (one per occurrence, sorted) | null,
 *    "within": null | [LO, HI] (frames not known: somewhere among the
 *              direction's FPDUs, for what a decoder finds from many of them),
 *    "of": N | null (fraction rules: the direction's FPDUs placed),
 *    "cause": F | null (a Terminate: the frame of the FPDU it quotes)}
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/* ---- the truth's "doctor" member ---- */

struct dentry {
	const char *rule;
	int conn, dir;
	uint32_t *frames;
	size_t n, cap;
	int within;             /* frames are unknown: somewhere in [lo, hi] */
	uint32_t lo, hi;
	int has_of;
	uint32_t of;            /* the direction's FPDUs measured */
	uint32_t cause;         /* a Terminate: the frame it names, 0 none */
};

struct dlist {
	struct dentry *e;
	size_t n, cap;
};

static struct dentry *dentry_get(struct dlist *l, const char *rule, int conn, int dir)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].rule, rule) && l->e[i].conn == conn && l->e[i].dir == dir)
			return &l->e[i];
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->e = xrealloc(l->e, l->cap * sizeof(*l->e));
	}
	memset(&l->e[l->n], 0, sizeof(l->e[0]));
	l->e[l->n].rule = rule;
	l->e[l->n].conn = conn;
	l->e[l->n].dir = dir;
	return &l->e[l->n++];
}

static void dentry_add(struct dentry *e, uint32_t frame)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->frames = xrealloc(e->frames, e->cap * sizeof(*e->frames));
	}
	e->frames[e->n++] = frame;
}

static const struct conn_out *conn_out_of(const struct truth *t, int conn)
{
	for (int i = 0; i < t->nconns; i++)
		if (t->conns[i].conn == conn)
			return &t->conns[i];
	gen_die("internal: connection %d not in the truth", conn);
}

/* The listed FPDUs of (conn, dir): their number and frame range. */
static uint32_t listed_fpdus(const struct gen *g, int conn, int dir, uint32_t *lo, uint32_t *hi)
{
	uint32_t n = 0;

	*lo = *hi = 0;
	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		if (f->conn != conn || f->dir != dir || !f->listed)
			continue;
		if (!n || f->frame < *lo)
			*lo = f->frame;
		if (!n || f->frame > *hi)
			*hi = f->frame;
		n++;
	}
	return n;
}

static uint32_t op_last_frame(const struct gen *g, int op)
{
	uint32_t last = 0;

	for (size_t i = 0; i < g->nfpdus; i++)
		if (g->fpdus[i].op == op && g->fpdus[i].listed && g->fpdus[i].frame > last)
			last = g->fpdus[i].frame;
	return last;
}

static void resolve(const struct truth *t, struct dlist *l)
{
	const struct gen *g = t->g;

	for (size_t i = 0; i < g->ndoctor; i++) {
		const struct doctor_rec *r = &g->doctor[i];
		struct dentry *e = dentry_get(l, r->rule, r->conn, r->dir);
		uint32_t frame = 0;

		switch (r->ref) {
		case DR_FPDU:
			frame = g->fpdus[r->idx].frame;
			break;
		case DR_FRAME:
			frame = g->frames[r->idx].no;
			break;
		case DR_REQ:
			frame = conn_out_of(t, r->conn)->req_frame;
			break;
		case DR_REP:
			frame = conn_out_of(t, r->conn)->rep_frame;
			break;
		case DR_OPLAST:
			frame = op_last_frame(g, (int)r->idx);
			break;
		case DR_DIR_RANGE:
			e->within = 1;
			listed_fpdus(g, r->conn, r->dir, &e->lo, &e->hi);
			break;
		}
		if (r->ref != DR_DIR_RANGE) {
			if (!frame)
				gen_die("internal: %s occurrence not in the capture", r->rule);
			dentry_add(e, frame);
		} else {
			dentry_add(e, 0);
		}
		if (r->cause >= 0)
			e->cause = g->fpdus[r->cause].frame;
	}
}

/*
 * Where each listed FPDU of (conn, dir) sits in the captured TCP segments
 * (RFC 5044 §4.5 and its Appendix A): split when no one segment holds all
 * of it; when it does not start a segment, packed if the first captured
 * segment holding its first octet began with a PDU (FPDU or MPA frame) and
 * the PDU before it lies in that segment too, else not aligned; longer than
 * the MSS the receiver's SYN announced.
 */
static void placement(const struct truth *t, struct dlist *l, const struct conn *c, int dir)
{
	const struct gen *g = t->g;
	uint32_t mss = c->cfg.mss ? c->cfg.mss : (c->cfg.ipver == 6 ? 1440u : 1460u);
	uint64_t prev_start = dir == I2R ? c->req_off : c->rep_off;
	uint32_t measured = 0;
	size_t nf = 0;
	struct dentry *ent[4] = { NULL, NULL, NULL, NULL };
	static const char *const rules[4] = { "framing.fpdu_over_mss", "framing.fpdu_split",
					      "framing.fpdu_unaligned", "framing.fpdu_packed" };

	for (size_t i = 0; i < g->nfpdus; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		const struct frame *home = NULL;
		int starts = 0, contained = 0, hit[4] = { 0, 0, 0, 0 };

		if (f->conn != c->idx || f->dir != dir)
			continue;
		nf++;
		if (!f->listed)
			continue;
		for (uint32_t no = 1; no <= t->nframes; no++) {
			const struct frame *s = t->byno[no];
			if (s->conn != c->idx || s->dir != dir || !s->paylen || f->off < s->soff ||
			    f->off >= s->soff + s->paylen)
				continue;
			if (!home)
				home = s;
			starts |= s->soff == f->off;
			contained |= f->off + f->wire_len <= s->soff + s->paylen;
		}
		if (!home)
			continue;
		measured++;
		hit[0] = f->wire_len > mss;
		hit[1] = !contained;
		if (!starts) {
			int began = home->soff == c->req_off || home->soff == c->rep_off;
			for (size_t k = 0; k < g->nfpdus && !began; k++)
				began = g->fpdus[k].conn == c->idx && g->fpdus[k].dir == dir &&
					g->fpdus[k].off == home->soff;
			hit[began && prev_start >= home->soff ? 3 : 2] = 1;
		}
		for (int r = 0; r < 4; r++) {
			if (!hit[r])
				continue;
			if (!ent[r])
				ent[r] = dentry_get(l, rules[r], c->idx, dir);
			dentry_add(ent[r], f->frame);
		}
		prev_start = f->off;
	}
	(void)nf;
	for (int r = 0; r < 4; r++)
		if (ent[r]) {
			ent[r]->has_of = 1;
			ent[r]->of = measured;
		}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void doctor_truth_write(FILE *f, const struct truth *t)
{
	const struct gen *g = t->g;
	struct dlist l = { NULL, 0, 0 };

	resolve(t, &l);
	if (g->doctor_framing)
		for (int i = 0; i < t->nconns; i++)
			for (int dir = 0; dir < 2; dir++)
				placement(t, &l, g->conns[t->conns[i].conn], dir);
	fputs(",\n  \"doctor\": [\n", f);
	for (size_t i = 0; i < l.n; i++) {
		struct dentry *e = &l.e[i];

		qsort(e->frames, e->n, sizeof(e->frames[0]), cmp_u32);
		fprintf(f, "    {\"rule\": \"%s\", \"qp\": %d, \"dir\": \"%s\", \"count\": %zu, \"frames\": ",
			e->rule, g->conns[e->conn]->qp, e->dir == I2R ? "i2r" : "r2i", e->n);
		if (e->within) {
			fputs("null", f);
		} else {
			fputc('[', f);
			for (size_t k = 0; k < e->n; k++)
				fprintf(f, "%s%u", k ? ", " : "", e->frames[k]);
			fputc(']', f);
		}
		if (e->within)
			fprintf(f, ", \"within\": [%u, %u]", e->lo, e->hi);
		else
			fputs(", \"within\": null", f);
		if (e->has_of)
			fprintf(f, ", \"of\": %u", e->of);
		else
			fputs(", \"of\": null", f);
		if (e->cause)
			fprintf(f, ", \"cause\": %u}", e->cause);
		else
			fputs(", \"cause\": null}", f);
		fputs(i + 1 < l.n ? ",\n" : "\n", f);
		free(e->frames);
	}
	fputs("  ]", f);
	free(l.e);
}
