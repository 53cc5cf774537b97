// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario: NVMe over Fabrics on iWARP (NVMe/RDMA, port 4420), built from
 * the NVMe specifications (NVMe Base 2.0, NVM Command Set 1.0, NVMe-oF 1.1
 * and its RDMA transport) the way Linux nvme-rdma / nvmet-rdma use them:
 *   - the rdma_cm private data in the MPA Request (RECFMT, QID, HRQSIZE,
 *     HSQSIZE) and Reply (RECFMT, CRQSIZE), after the MPA v2 enhanced word;
 *   - command capsules in Sends from the host (the initiator): the 64-octet
 *     SQE, PSDT 01b (SGLs), then in-capsule data when the SGL is a Data
 *     Block descriptor with sub type Offset;
 *   - data the controller moves through the Keyed SGL Data Block: RDMA Write
 *     into the host's buffer (STag = key, TO = address) or RDMA Read from it
 *     (source STag = key), answered by the host's Read Responses;
 *   - response capsules: the 16-octet CQE in a Send, or a Send with
 *     Invalidate of the key when the host asked for it (sub type Fh).
 * Every NVMe field is little-endian. Each command is recorded (struct
 * nvme_rec) for the truth file's `nvme` list.
 */
#include "scenarios.h"

#include <string.h>

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

enum { DATA_NONE, DATA_ICD, DATA_C2H, DATA_H2C };

/* A submission queue: its connection and what its CQEs say. */
struct nq {
	struct conn *c;
	int qid;
	uint16_t sqhd, sqsize;
};

/* One command to issue. */
struct ncmd {
	uint8_t opcode, fctype;
	int fabrics;
	uint16_t cid;
	uint32_t nsid;
	uint32_t cdw[6];	/* CDW10..CDW15 */
	int data;		/* DATA_* */
	uint32_t len;
	const uint8_t *icd;	/* in-capsule data (NULL: random) */
	int inval;		/* keyed: sub type Fh, Invalidate Key */
	const char *op;
	int lba;		/* an LBA command: SLBA in CDW10-11, NLB in CDW12 */
};

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
	le16(p, (uint16_t)v);
	le16(p + 2, (uint16_t)(v >> 16));
}

static void le64(uint8_t *p, uint64_t v)
{
	le32(p, (uint32_t)v);
	le32(p + 4, (uint32_t)(v >> 32));
}

/* The generator's own names of the status codes it sends. */
static const char *status_name(uint16_t status)
{
	switch (status) {
	case 0x0000:
		return "Successful Completion";
	case 0x4080:	/* SCT 0, SC 80h, DNR */
		return "LBA Out of Range";
	default:
		return NULL;
	}
}

static uint32_t key_of[64];	/* the SGL key and address of each record */
static uint64_t addr_of[64];

/* Build and queue the command capsule; returns the record's index. */
static int issue(struct gen *g, struct nq *q, const struct ncmd *m)
{
	static uint8_t cap[64 + 4096];
	struct nvme_rec *r;
	uint32_t icd = m->data == DATA_ICD ? m->len : 0, key = 0;
	uint64_t addr = 0;
	int ri;

	memset(cap, 0, 64);
	cap[0] = m->opcode;
	cap[1] = 0x40;		/* PSDT 01b: SGLs, the only kind a fabric carries */
	le16(cap + 2, m->cid);
	if (m->fabrics)
		cap[4] = m->fctype;
	else
		le32(cap + 4, m->nsid);
	if (m->data == DATA_ICD) {
		/* Data Block, sub type Offset: at offset 0 of the in-capsule data */
		le32(cap + 32, m->len);
		cap[39] = 0x01;
		if (m->icd)
			memcpy(cap + 64, m->icd, icd);
		else
			prng_fill(&g->rng, cap + 64, icd);
	} else if (m->data == DATA_C2H || m->data == DATA_H2C) {
		/* Keyed SGL Data Block: address, 3-octet length, key, identifier */
		key = rnd_stag(g);
		addr = rnd_to(g);
		le64(cap + 24, addr);
		cap[32] = (uint8_t)m->len;
		cap[33] = (uint8_t)(m->len >> 8);
		cap[34] = (uint8_t)(m->len >> 16);
		le32(cap + 35, key);
		cap[39] = m->inval ? 0x4F : 0x40;
	} else {
		cap[39] = 0x40;	/* a keyed descriptor of length 0, as Linux sends */
	}
	for (int i = 0; i < 6; i++)
		le32(cap + 40 + 4 * i, m->cdw[i]);

	r = gen_new_nvme(g);
	ri = (int)(r - g->nvme);
	if (ri >= 64)
		gen_die("scen_nvme: too many commands");
	key_of[ri] = key;
	addr_of[ri] = addr;
	r->conn = q->c->idx;
	r->qid = q->qid;
	r->cid = m->cid;
	r->opcode = m->opcode;
	r->fabrics = m->fabrics;
	r->fctype = m->fctype;
	r->op = m->op;
	r->has_nsid = !m->fabrics;
	r->nsid = m->nsid;
	r->has_lba = m->lba;
	r->slba = (uint64_t)m->cdw[1] << 32 | m->cdw[0];
	r->blocks = (m->cdw[2] & 0xFFFF) + 1;
	r->icd = icd;
	r->cmd_op = rd_send_data(g, q->c, I2R, OP_SEND, 0, cap, 64 + icd);
	return ri;
}

/* The controller's RDMA Write of the command's whole buffer. */
static void c2h(struct gen *g, struct nq *q, int ri, uint32_t len)
{
	struct nvme_rec *r = &g->nvme[ri];

	r->data_op[r->ndata++] = rd_write(g, q->c, R2I, key_of[ri], addr_of[ri], len);
}

/* The response capsule; a Send with Invalidate when the host asked for it. */
static void respond(struct gen *g, struct nq *q, int ri, uint16_t status, uint32_t dw0,
		    uint32_t dw1, int inval)
{
	struct nvme_rec *r = &g->nvme[ri];
	uint8_t cqe[16];

	q->sqhd = (uint16_t)((q->sqhd + 1) % (q->sqsize + 1u));
	le32(cqe, dw0);
	le32(cqe + 4, dw1);
	le16(cqe + 8, q->sqhd);
	le16(cqe + 10, (uint16_t)q->qid);
	le16(cqe + 12, r->cid);
	le16(cqe + 14, (uint16_t)(status << 1));	/* Phase Tag 0: fabrics do not use it */
	r->status = status;
	r->status_name = status_name(status);
	r->resp_op = inval ? rd_send_data(g, q->c, R2I, OP_SEND_INV, key_of[ri], cqe, 16)
			   : rd_send_data(g, q->c, R2I, OP_SEND, 0, cqe, 16);
}

/* Send queued octets of dir at t, then the peer's delayed ACKs. */
static uint64_t go(struct gen *g, struct nq *q, int dir, uint64_t t)
{
	t = tcp_flush(g, q->c, dir, t);
	tcp_settle(g, q->c, t + 8 * US);
	return t + 2 * US;
}

/* A command without RDMA data: capsule, controller time, response. */
static uint64_t simple(struct gen *g, struct nq *q, const struct ncmd *m, uint64_t t,
		       uint64_t think, uint32_t dw0, uint32_t dw1)
{
	int ri = issue(g, q, m);

	t = go(g, q, I2R, t) + q->c->cfg.rtt / 2 + think;
	respond(g, q, ri, 0, dw0, dw1, 0);
	return go(g, q, R2I, t) + q->c->cfg.rtt / 2 + 20 * US;
}

/* A controller-to-host command: capsule, controller time, RDMA Write, response. */
static uint64_t read_like(struct gen *g, struct nq *q, const struct ncmd *m, uint64_t t,
			  uint64_t think)
{
	int ri = issue(g, q, m);

	t = go(g, q, I2R, t) + q->c->cfg.rtt / 2 + think;
	c2h(g, q, ri, m->len);
	respond(g, q, ri, 0, 0, 0, m->inval);
	return go(g, q, R2I, t) + q->c->cfg.rtt / 2 + 20 * US;
}

/* A host-to-controller command: capsule, the controller's RDMA Read of the
 * host buffer, the host's Read Responses, controller time, response. */
static uint64_t write_like(struct gen *g, struct nq *q, const struct ncmd *m,
			   const uint8_t *data, uint64_t t, uint64_t think, uint32_t dw0)
{
	int ri = issue(g, q, m), op;
	uint32_t sink = rnd_stag(g);
	uint64_t sink_to = rnd_to(g);
	struct nvme_rec *r;

	t = go(g, q, I2R, t) + q->c->cfg.rtt / 2 + s_proc(g);
	op = rd_read_req(g, q->c, R2I, sink, sink_to, m->len, key_of[ri], addr_of[ri]);
	r = &g->nvme[ri];
	r->data_op[r->ndata++] = op;
	t = go(g, q, R2I, t) + q->c->cfg.rtt / 2 + 3 * US;
	rd_read_resp_data(g, q->c, op, data);
	t = go(g, q, I2R, t) + q->c->cfg.rtt / 2 + think;
	respond(g, q, ri, 0, dw0, 0, m->inval);
	return go(g, q, R2I, t) + q->c->cfg.rtt / 2 + 20 * US;
}

/* rdma_cm private data (NVMe RDMA transport, after the MPA enhanced word). */
static uint8_t cm_req[2][32], cm_rep[2][32];

static struct conn *open_queue(struct gen *g, struct nq *q, int qid, uint16_t sqsize, uint64_t *t)
{
	struct conn_cfg k = cfg_default(4);

	k.port[1] = 4420;
	k.rtt = 60 * US;
	k.ird = 128;
	k.ord = 128;
	memset(cm_req[qid ? 1 : 0], 0, 32);
	le16(cm_req[qid ? 1 : 0] + 2, (uint16_t)qid);
	le16(cm_req[qid ? 1 : 0] + 4, (uint16_t)(sqsize + 1));	/* HRQSIZE */
	le16(cm_req[qid ? 1 : 0] + 6, sqsize);			/* HSQSIZE, 0's based */
	memset(cm_rep[qid ? 1 : 0], 0, 32);
	le16(cm_rep[qid ? 1 : 0] + 2, (uint16_t)(sqsize + 1));	/* CRQSIZE */
	k.req_pdb = cm_req[qid ? 1 : 0];
	k.req_pdb_len = 32;
	k.rep_pdb = cm_rep[qid ? 1 : 0];
	k.rep_pdb_len = 32;
	q->c = conn_new(g, &k);
	q->qid = qid;
	q->sqhd = 0;
	q->sqsize = sqsize;
	*t = s_open(g, q->c, *t);
	return q->c;
}

static const char host_nqn[] = "nqn.2014-08.org.nvmexpress:uuid:5a7e6b21-94d3-4c0e-8f2a-0c1d2e3f4a5b";
static const char sub_nqn[] = "nqn.2024-05.example.iwarpscope:nvme-target";

/* The Connect data (NVMe-oF 1.1): HOSTID, CNTLID, SUBNQN at 256, HOSTNQN at 512. */
static void connect_data(struct gen *g, uint8_t *d, uint16_t cntlid)
{
	memset(d, 0, 1024);
	prng_fill(&g->rng, d, 16);
	le16(d + 16, cntlid);
	memcpy(d + 256, sub_nqn, sizeof(sub_nqn));
	memcpy(d + 512, host_nqn, sizeof(host_nqn));
}

static struct ncmd fab(uint8_t fctype, uint16_t cid, const char *op)
{
	struct ncmd m;

	memset(&m, 0, sizeof(m));
	m.opcode = 0x7F;
	m.fabrics = 1;
	m.fctype = fctype;
	m.cid = cid;
	m.op = op;
	return m;
}

static struct ncmd cmd(uint8_t opcode, uint16_t cid, uint32_t nsid, const char *op)
{
	struct ncmd m;

	memset(&m, 0, sizeof(m));
	m.opcode = opcode;
	m.cid = cid;
	m.nsid = nsid;
	m.op = op;
	return m;
}

/* An LBA command of `blocks` logical blocks (the wire's NLB is 0's based). */
static struct ncmd io(uint8_t opcode, uint16_t cid, uint64_t slba, uint32_t blocks, const char *op)
{
	struct ncmd m = cmd(opcode, cid, 1, op);

	m.lba = 1;
	m.cdw[0] = (uint32_t)slba;
	m.cdw[1] = (uint32_t)(slba >> 32);
	m.cdw[2] = blocks - 1;
	return m;
}

/* The command with a keyed buffer of len octets the controller moves data
 * into (dir DATA_C2H) or out of (DATA_H2C), invalidated by its response. */
static struct ncmd keyed(struct ncmd m, int dir, uint32_t len)
{
	m.data = dir;
	m.len = len;
	m.inval = 1;
	return m;
}

/* The admin queue: Connect (its data pulled by RDMA Read), the properties
 * a host reads and sets, Identify and Get Log Page (RDMA Write), Set
 * Features, and an Asynchronous Event Request that stays outstanding. */
static uint64_t admin_queue(struct gen *g, struct nq *aq, uint64_t t)
{
	static uint8_t cd[1024];
	struct ncmd m;

	open_queue(g, aq, 0, 31, &t);
	m = keyed(fab(0x01, 0, "connect"), DATA_H2C, 1024);
	m.cdw[0] = 0;			/* RECFMT 0, QID 0 */
	m.cdw[1] = 31;			/* SQSIZE */
	m.cdw[2] = 5000;		/* KATO, ms */
	connect_data(g, cd, 0xFFFF);	/* any controller (dynamic model) */
	/* the answer's DW0 names the controller the host got: CNTLID 1 */
	t = write_like(g, aq, &m, cd, t, 40 * US, 1);
	m = fab(0x04, 1, "property_get");
	m.cdw[0] = 1;			/* ATTRIB: 8 octets */
	m.cdw[1] = 0x00;		/* CAP */
	t = simple(g, aq, &m, t, 6 * US, 0x0f00007f, 0x00000820);
	m = fab(0x00, 2, "property_set");
	m.cdw[1] = 0x14;		/* CC */
	m.cdw[2] = 0x00460001;		/* IOCQES 4, IOSQES 6, EN */
	t = simple(g, aq, &m, t, 9 * US, 0, 0);
	m = fab(0x04, 3, "property_get");
	m.cdw[1] = 0x1C;		/* CSTS */
	t = simple(g, aq, &m, t, 5 * US, 1, 0);
	m = keyed(cmd(0x06, 4, 0, "identify"), DATA_C2H, 4096);
	m.cdw[0] = 1;			/* CNS 1: Identify Controller */
	t = read_like(g, aq, &m, t, 35 * US);
	m = keyed(cmd(0x06, 5, 1, "identify"), DATA_C2H, 4096);
	m.cdw[0] = 0;			/* CNS 0: Identify Namespace */
	t = read_like(g, aq, &m, t, 28 * US);
	m = keyed(cmd(0x02, 6, 0xFFFFFFFF, "get_log_page"), DATA_C2H, 512);
	m.cdw[0] = 127u << 16 | 0x02;	/* NUMDL 127 (512 octets), LID 02h SMART */
	t = read_like(g, aq, &m, t, 22 * US);
	m = cmd(0x09, 7, 0, "set_features");
	m.cdw[0] = 0x07;		/* FID 07h: Number of Queues */
	m.cdw[1] = 0x00010001;		/* 2 SQs, 2 CQs (0's based) */
	t = simple(g, aq, &m, t, 7 * US, 0x00010001, 0);
	/* the AER: answered only when an event happens, here never */
	m = cmd(0x0C, 8, 0, "async_event");
	issue(g, aq, &m);
	return go(g, aq, I2R, t) + 40 * US;
}

void scen_nvmeof(struct gen *g)
{
	static uint8_t cd[1024], wdata[16384];
	struct nq aq, ioq;
	struct ncmd m, m2;
	uint64_t t = T_BASE, t_ka;
	int r5, r6;

	g->description = "NVMe over Fabrics on iWARP (NVMe/RDMA, port 4420), MPA v2, CRC off, "
			 "rdma_cm private data in the MPA frames. Admin queue: Connect whose data the "
			 "controller pulls by RDMA Read, Property Get/Set, Identify and Get Log Page "
			 "answered by RDMA Write and Send with Invalidate, Set Features, Keep Alive, "
			 "an Asynchronous Event Request never answered. I/O queue 1: Connect with "
			 "in-capsule data, an in-capsule Write, keyed Reads (RDMA Write + Send with "
			 "Invalidate; one takes 18 ms in the controller), a keyed Write (RDMA Read), "
			 "Flush, two pipelined Reads completed in reverse order, a Read failing with "
			 "LBA Out of Range, Write Zeroes, and a Read abandoned at the capture end.";
	t = admin_queue(g, &aq, t) + 200 * US;

	open_queue(g, &ioq, 1, 127, &t);
	m = fab(0x01, 0, "connect");
	m.data = DATA_ICD;
	m.len = 1024;
	connect_data(g, cd, 1);
	m.icd = cd;
	m.cdw[0] = 1u << 16;		/* QID 1 */
	m.cdw[1] = 127;
	t = simple(g, &ioq, &m, t, 30 * US, 0, 0);

	m = io(0x01, 1, 0, 1, "write");	/* 4 KiB LBAs: one LBA, in the capsule */
	m.data = DATA_ICD;
	m.len = 4096;
	t = simple(g, &ioq, &m, t, 95 * US, 0, 0);

	/* the slow one: 18 ms in the controller */
	m = keyed(io(0x02, 2, 16, 2, "read"), DATA_C2H, 8192);
	t = read_like(g, &ioq, &m, t, 18 * MS);

	m = keyed(io(0x01, 3, 32, 4, "write"), DATA_H2C, 16384);
	prng_fill(&g->rng, wdata, sizeof(wdata));
	t = write_like(g, &ioq, &m, wdata, t, 140 * US, 0);
	t_ka = t + 23 * US;

	m = cmd(0x00, 4, 1, "flush");
	t = simple(g, &ioq, &m, t, 310 * US, 0, 0);

	/* two Reads in flight; the controller finishes the second first */
	m = keyed(io(0x02, 5, 48, 1, "read"), DATA_C2H, 4096);
	m2 = keyed(io(0x02, 6, 49, 1, "read"), DATA_C2H, 4096);
	r5 = issue(g, &ioq, &m);
	t = go(g, &ioq, I2R, t) + 4 * US;
	r6 = issue(g, &ioq, &m2);
	t = go(g, &ioq, I2R, t) + ioq.c->cfg.rtt / 2 + 120 * US;
	c2h(g, &ioq, r6, 4096);
	respond(g, &ioq, r6, 0, 0, 0, 1);
	t = go(g, &ioq, R2I, t) + 60 * US;
	c2h(g, &ioq, r5, 4096);
	respond(g, &ioq, r5, 0, 0, 0, 1);
	t = go(g, &ioq, R2I, t) + ioq.c->cfg.rtt / 2 + 20 * US;

	/* past the end of the namespace: LBA Out of Range, Do Not Retry */
	m = keyed(io(0x02, 7, 0x4000000, 1, "read"), DATA_C2H, 4096);
	{
		int ri = issue(g, &ioq, &m);

		t = go(g, &ioq, I2R, t) + ioq.c->cfg.rtt / 2 + 11 * US;
		respond(g, &ioq, ri, 0x4080, 0, 0, 1);
		t = go(g, &ioq, R2I, t) + ioq.c->cfg.rtt / 2 + 20 * US;
	}

	m = io(0x08, 8, 64, 8, "write_zeroes");
	t = simple(g, &ioq, &m, t, 45 * US, 0, 0);

	/* issued, never answered before the capture ends */
	m = keyed(io(0x02, 9, 80, 1, "read"), DATA_C2H, 4096);
	issue(g, &ioq, &m);
	go(g, &ioq, I2R, t);

	/* meanwhile on the admin queue: Keep Alive */
	m = cmd(0x18, 9, 0, "keep_alive");
	simple(g, &aq, &m, t_ka, 4 * US, 0, 0);
}

/*
 * The same traffic captured with snaplen 128 (issue 22 item 5): 74 octets of
 * TCP payload per frame (no TCP options), so each command capsule keeps its
 * MPA, DDP and RDMAP headers and the first 54 octets of its SQE (opcode, CID,
 * NSID, SGL, CDW10-12), each response capsule its whole CQE: every command
 * keeps its latency and status; data and in-capsule data are cut.
 */
void scen_nvmeof_snaplen_128(struct gen *g)
{
	scen_nvmeof(g);
	g->description = "The nvmeof scenario (NVMe/RDMA on port 4420, two queues) captured with "
			 "snaplen 128: each frame keeps 74 octets of TCP payload, so the Send "
			 "carrying a command capsule keeps the SQE's opcode, CID and NSID and a "
			 "response capsule its CQE; every command keeps its latency, the data and "
			 "in-capsule data are cut.";
	g->snaplen = 128;
}
