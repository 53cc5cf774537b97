// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The truth file's "doctor" member (doctor scenarios, scen_doctor.c): per
 * rule, QP and direction, how many occurrences were put on the wire and the
 * frames that show them, resolved once the capture's frames are numbered;
 * and, for every connection of these scenarios, where each FPDU sits in the
 * TCP segments that carried it, worked out from the frames themselves, and
 * each message of a sender that breaks a format rule on every one (markers,
 * Read Requests).
 *
 *   {"rule": ID, "qp": N, "dir": "i2r"|"r2i", "count": N,
 *    "frames": [F, ...] (one per occurrence, sorted),
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
		}
		if (!frame)
			gen_die("internal: %s occurrence not in the capture", r->rule);
		dentry_add(e, frame);
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

/*
 * The senders of (conn, dir) that break a format rule on every message,
 * each violation one occurrence in the frame of its FPDU (as decoded from
 * the RFCs, not from iwarpscope):
 *
 * - FPDUPTR least significant octet first (RFC 5044 §4.2): every marker
 *   captured whose FPDUPTR's two octets differ (0 and the like read alike
 *   in either order, so they show nothing);
 * - a marker grid that leaves CRC octets out or starts past SeqStart
 *   (§4.3): every marker captured off SeqStart + 512n, when the sender's
 *   MPA frame (SeqStart) was captured;
 * - Read Request fields least significant octet first (RFC 5040 §4.4):
 *   every Read Request captured whole, once some Read Response captured
 *   answers one of them (the response's sink STag and TO show the order).
 */
static void marker_devs(const struct truth *t, struct dlist *l, const struct conn *c, int dir)
{
	const struct gen *g = t->g;
	const struct conn_out *co = conn_out_of(t, c->idx);
	unsigned dev = c->cfg.mk_dev[dir];
	int seqstart = dir == I2R ? co->req_frame != 0 : co->rep_frame != 0;

	for (size_t i = 0; i < g->nfpdus && dev; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		if (f->conn != c->idx || f->dir != dir || !f->listed || !f->full)
			continue;
		for (size_t k = f->mk_first; k < f->mk_first + f->mk_count; k++) {
			const struct marker_rec *m = &g->markers[k];
			if ((dev & MKDEV_FPDUPTR_LE) && (m->fpduptr & 0xFF) != (m->fpduptr >> 8))
				dentry_add(dentry_get(l, "framing.marker_fpduptr_le", c->idx, dir), f->frame);
			if ((dev & (MKDEV_SKIPCRC | MKDEV_OFFSET)) && seqstart && (m->off - c->d[dir].seqstart) % 512)
				dentry_add(dentry_get(l, (dev & MKDEV_SKIPCRC) ? "framing.marker_skip_crc"
									 : "framing.marker_offset",
						      c->idx, dir),
					   f->frame);
		}
	}
}

static void read_requests_le(const struct truth *t, struct dlist *l, const struct conn *c, int dir)
{
	const struct gen *g = t->g;
	int shown = 0;

	if (!c->cfg.rdreq_le[dir])
		return;
	for (size_t i = 0; i < g->nfpdus && !shown; i++) {
		const struct fpdu_rec *r = &g->fpdus[i];
		if (r->conn != c->idx || r->dir == dir || !r->listed || r->opcode != RD_READ_RESP || r->op < 0)
			continue;
		for (size_t k = 0; k < g->nfpdus && !shown; k++)
			shown = g->fpdus[k].op == r->op && g->fpdus[k].opcode == RD_READ_REQ && g->fpdus[k].full;
	}
	for (size_t i = 0; i < g->nfpdus && shown; i++) {
		const struct fpdu_rec *f = &g->fpdus[i];
		if (f->conn == c->idx && f->dir == dir && f->listed && f->full && f->opcode == RD_READ_REQ && !f->rtr)
			dentry_add(dentry_get(l, "rdmap.read_request_le", c->idx, dir), f->frame);
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
			for (int dir = 0; dir < 2; dir++) {
				const struct conn *c = g->conns[t->conns[i].conn];
				placement(t, &l, c, dir);
				marker_devs(t, &l, c, dir);
				read_requests_le(t, &l, c, dir);
			}
	fputs(",\n  \"doctor\": [\n", f);
	for (size_t i = 0; i < l.n; i++) {
		struct dentry *e = &l.e[i];

		qsort(e->frames, e->n, sizeof(e->frames[0]), cmp_u32);
		fprintf(f, "    {\"rule\": \"%s\", \"qp\": %d, \"dir\": \"%s\", \"count\": %zu, \"frames\": [",
			e->rule, g->conns[e->conn]->qp, e->dir == I2R ? "i2r" : "r2i", e->n);
		for (size_t k = 0; k < e->n; k++)
			fprintf(f, "%s%u", k ? ", " : "", e->frames[k]);
		fputc(']', f);
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
