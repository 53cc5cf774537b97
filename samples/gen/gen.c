// SPDX-License-Identifier: GPL-2.0-or-later
/* Model bookkeeping: allocation, connections, records (see gen.h). */
#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void gen_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("iwarpscope-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		gen_die("out of memory (%zu bytes)", n);
	return q;
}

#define GROW(arr, n, cap) do { \
	if ((n) == (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 64; \
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr))); \
	} \
} while (0)

void gen_init(struct gen *g, const char *scenario, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->scenario = scenario;
	g->seed = seed;
	g->description = "";
	prng_seed(&g->rng, seed);
	g->fmt = FMT_PCAP_NS;
	g->snaplen = 262144;
	g->ts_quantum = 1;
	g->ipver = 4;
	g->vlan = -1;
}

void gen_free(struct gen *g)
{
	free(g->doctor);
	for (int i = 0; i < g->nconns; i++) {
		free(g->conns[i]->d[0].buf);
		free(g->conns[i]->d[1].buf);
		free(g->conns[i]->d[0].bounds);
		free(g->conns[i]->d[1].bounds);
		free(g->conns[i]);
	}
	free(g->frames);
	free(g->arena);
	free(g->fpdus);
	free(g->markers);
	free(g->ops);
	free(g->nvme);
	free(g->rpc);
	free(g->scratch);
	memset(g, 0, sizeof(*g));
}

uint32_t dir_seq(const struct dir *d, uint64_t off)
{
	return (uint32_t)(d->isn + off);
}

static void host_addr(struct conn *c, int side, int ipver, int host)
{
	static const uint8_t mac_prefix[4] = { 0x02, 0x49, 0x57, 0x00 };

	memcpy(c->mac[side], mac_prefix, 4);
	c->mac[side][4] = (uint8_t)(host >> 8);
	c->mac[side][5] = (uint8_t)(host + 1);
	memset(c->ip[side], 0, 16);
	if (ipver == 6) {
		/* 2001:db8:0:1::(0x10 + host) */
		c->ip[side][0] = 0x20;
		c->ip[side][1] = 0x01;
		c->ip[side][2] = 0x0d;
		c->ip[side][3] = 0xb8;
		c->ip[side][7] = 0x01;
		c->ip[side][15] = (uint8_t)(0x10 + host);
	} else {
		/* 192.0.2.(10 + host), RFC 5737 documentation range */
		c->ip[side][0] = 192;
		c->ip[side][1] = 0;
		c->ip[side][2] = 2;
		c->ip[side][3] = (uint8_t)(10 + host);
	}
}

static int port_used(struct gen *g, int host, uint16_t port)
{
	for (int i = 0; i < g->nconns; i++)
		for (int s = 0; s < 2; s++)
			if (g->conns[i]->cfg.host[s] == host && g->conns[i]->port[s] == port)
				return 1;
	return 0;
}

struct conn *conn_new(struct gen *g, const struct conn_cfg *cfg)
{
	struct conn *c;

	if (g->nconns == GEN_MAX_CONNS)
		gen_die("too many connections");
	c = calloc(1, sizeof(*c));
	if (!c)
		gen_die("out of memory");
	c->idx = g->nconns;
	c->cfg = *cfg;
	if (!c->cfg.rtt)
		c->cfg.rtt = 20000;
	if (!c->cfg.rev)
		c->cfg.rev = 2;
	for (int s = 0; s < 2; s++) {
		struct dir *d = &c->d[s];
		uint16_t mss = cfg->mss ? cfg->mss : (uint16_t)(cfg->ipver == 6 ? 1440 : 1460);

		host_addr(c, s, cfg->ipver, cfg->host[s]);
		/* a listening port may serve several connections; an ephemeral
		 * (initiator) port is unique on its host */
		c->port[s] = cfg->port[s];
		while (!c->port[s] || (s == I2R && port_used(g, cfg->host[s], c->port[s])))
			c->port[s] = (uint16_t)prng_range(&g->rng, 33000, 60999);
		d->isn = cfg->fixed_isn ? cfg->isn[s] : prng_u32(&g->rng);
		d->base = 1;
		d->mss = (uint16_t)(mss - (cfg->tcp_ts ? 12 : 0));
		d->mode = cfg->mode[s];
		d->ddp_max = cfg->ddp_max[s] ? cfg->ddp_max[s] : 1024;
		d->super_max = cfg->super_max[s] ? cfg->super_max[s] : 65000;
		d->aligned_ddp = cfg->aligned_ddp[s];
		d->ip_id = (uint16_t)prng_u32(&g->rng);
		d->tsval = prng_u32(&g->rng);
		for (int q = 0; q < 4; q++)
			d->msn[q] = 1;
	}
	c->rtr_fpdu[0] = c->rtr_fpdu[1] = -1;
	c->rtr_op = -1;
	c->qp = -1;
	g->conns[g->nconns++] = c;
	return c;
}

struct fpdu_rec *gen_new_fpdu(struct gen *g)
{
	struct fpdu_rec *f;

	g->counts.fpdus++;
	if (g->streaming) {
		/* nothing is kept in streaming mode: reuse one record */
		if (!g->fpdus) {
			g->fpdus = xrealloc(NULL, sizeof(*g->fpdus));
			g->capfpdus = 1;
		}
		g->nfpdus = 1;
		f = &g->fpdus[0];
	} else {
		GROW(g->fpdus, g->nfpdus, g->capfpdus);
		f = &g->fpdus[g->nfpdus++];
	}
	memset(f, 0, sizeof(*f));
	f->op = -1;
	f->out_op = -1;
	return f;
}

int gen_new_op(struct gen *g, struct conn *c, int dir, enum op_kind kind, uint8_t opcode)
{
	struct op_rec *o;

	if (g->streaming) {
		/* a small ring: bench operations complete before the next starts */
		if (!g->ops) {
			g->capops = 256;
			g->ops = xrealloc(NULL, g->capops * sizeof(*g->ops));
		}
		if (g->nops == g->capops)
			g->nops = 0;
	} else {
		GROW(g->ops, g->nops, g->capops);
	}
	o = &g->ops[g->nops];
	memset(o, 0, sizeof(*o));
	o->conn = c->idx;
	o->dir = dir;
	o->kind = kind;
	o->opcode = opcode;
	g->counts.ops[kind]++;
	return (int)g->nops++;
}

struct nvme_rec *gen_new_nvme(struct gen *g)
{
	struct nvme_rec *r;

	GROW(g->nvme, g->nnvme, g->capnvme);
	r = &g->nvme[g->nnvme++];
	memset(r, 0, sizeof(*r));
	r->resp_op = -1;
	return r;
}

struct rpc_rec *gen_new_rpc(struct gen *g)
{
	struct rpc_rec *r;

	GROW(g->rpc, g->nrpc, g->caprpc);
	r = &g->rpc[g->nrpc++];
	memset(r, 0, sizeof(*r));
	r->reply_op = -1;
	return r;
}

void gen_add_marker(struct gen *g, uint64_t off, uint16_t fpduptr)
{
	if (g->streaming)
		return;
	GROW(g->markers, g->nmarkers, g->capmarkers);
	g->markers[g->nmarkers].off = off;
	g->markers[g->nmarkers].fpduptr = fpduptr;
	g->nmarkers++;
}

const char *op_kind_name(enum op_kind k)
{
	static const char *const names[OP_NKINDS] = {
		"write", "read", "send", "send_inv", "send_se", "send_se_inv",
		"immediate", "immediate_se", "atomic_fetch_add", "atomic_cmp_swap",
		"terminate"
	};

	return (unsigned)k < OP_NKINDS ? names[k] : "?";
}
