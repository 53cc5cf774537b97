// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Doctor scenarios (scen_doctor.c, scen_doctor_rdma.c): DDP, RDMAP and the
 * connection around them; see scen_doctor.c.
 */
#include <string.h>

#include "ddp.h"
#include "netpkt.h"
#include "rdma.h"
#include "scen_doctor.h"
#include "session.h"
#include "tcpsim.h"

/* ---- DDP ---- */

/* After the set-up and a Send each way: one hand-made segment from the
 * initiator, then the rest of a clean exchange. */
static uint64_t one_raw(struct gen *g, uint64_t t, const char *rule, uint8_t ctrl, uint8_t rctrl, int qn,
			int msn_delta)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t f;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	/* an MSN the sender does not count: the next Send takes it again,
	 * as a receiver that rejected this one expects */
	f = raw_untagged(g, c, I2R, ctrl, rctrl, (uint32_t)qn, c->d[I2R].msn[qn < 4 ? qn : 0] + (uint32_t)msn_delta,
			 0, 24);
	t = flush_now(g, c, I2R, t);
	doc(g, rule, c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_ddp_version(struct gen *g, uint64_t t)
{
	return one_raw(g, t, "ddp.version", 0x40 | 0x02, 0x40 | RD_SEND, 0, 0);
}

uint64_t d_ddp_reserved(struct gen *g, uint64_t t)
{
	/* a Write whose DDP control octet has reserved bit 0x04 set */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	uint8_t u[DDP_TAGGED_LEN + 100];
	size_t f;
	uint32_t stag;
	uint64_t to;

	t = open_with(g, c, t, NULL, NULL, 0);
	/* one PRNG draw per statement: C leaves an argument list's order open */
	stag = rnd_stag(g);
	to = rnd_to(g);
	ddp_tagged(u, 1, RD_WRITE, stag, to);
	u[0] |= 0x04;
	prng_fill(&g->rng, u + DDP_TAGGED_LEN, 100);
	f = raw_fpdu(g, c, I2R, u, sizeof(u));
	t = flush_now(g, c, I2R, t);
	doc(g, "ddp.reserved", c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_ddp_mo_gap(struct gen *g, uint64_t t)
{
	/* a Send of two segments, the second at MO 400 after 200 octets */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	uint32_t msn;
	size_t f;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	msn = c->d[I2R].msn[0]++;
	raw_untagged(g, c, I2R, 0x01, 0x40 | RD_SEND, 0, msn, 0, 200);
	f = raw_untagged(g, c, I2R, 0x41, 0x40 | RD_SEND, 0, msn, 400, 200);
	t = flush_now(g, c, I2R, t);
	doc(g, "ddp.mo_gap", c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

/* A Send whose MSN the sender moved by delta (RFC 5041 §5.3: +1 each). */
static uint64_t msn_moved(struct gen *g, uint64_t t, int delta, const char *rule)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t f;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	t = s_send(g, c, I2R, OP_SEND, 50, t + 30 * US);
	c->d[I2R].msn[0] = (uint32_t)((int64_t)c->d[I2R].msn[0] + delta);
	f = g->nfpdus;
	t = s_send(g, c, I2R, OP_SEND, 60, t + 30 * US);
	doc(g, rule, c, I2R, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_ddp_msn_gap(struct gen *g, uint64_t t)
{
	return msn_moved(g, t, 1, "ddp.msn_gap");
}

uint64_t d_ddp_msn_repeat(struct gen *g, uint64_t t)
{
	return msn_moved(g, t, -1, "ddp.msn_repeat");
}

uint64_t d_ddp_msn_start(struct gen *g, uint64_t t)
{
	/* RFC 5041 §5.1: queue 0's first message from the responder numbered
	 * 2, as a stack that counted a message it never sent; the rest go on
	 * from there (3, 4, ...): only the start is wrong */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t f;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	c->d[R2I].msn[0] = 2;
	f = g->nfpdus;
	t = s_send(g, c, R2I, OP_SEND, 50, t + 30 * US);
	doc(g, "ddp.msn_start", c, R2I, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_ddp_invalid_qn(struct gen *g, uint64_t t)
{
	return one_raw(g, t, "ddp.invalid_qn", 0x41, 0x40 | RD_SEND, 5, 0);
}

uint64_t d_ddp_tagged_overrun(struct gen *g, uint64_t t)
{
	/* a Read of 1000 octets answered with 1064 */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t f;
	int op;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	op = post_read(g, c, I2R, 1000, 0);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	g->ops[op].rd_size = 1064;
	f = g->nfpdus;
	rd_read_resp(g, c, op);
	t = flush_now(g, c, R2I, t + c->cfg.rtt);
	doc(g, "ddp.tagged_overrun", c, R2I, DR_FPDU, f);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_ddp_last_flag(struct gen *g, uint64_t t)
{
	/* Immediate Data (RFC 7306: one segment) without L */
	return one_raw(g, t, "ddp.last_flag", 0x01, 0x40 | RD_IMM, 0, 0);
}

/* ---- RDMAP ---- */

uint64_t d_rdmap_version(struct gen *g, uint64_t t)
{
	return one_raw(g, t, "rdmap.version", 0x41, 0x80 | RD_SEND, 0, 0);
}

uint64_t d_rdmap_opcode(struct gen *g, uint64_t t)
{
	return one_raw(g, t, "rdmap.opcode", 0x41, 0x40 | 0x0C, 0, 0);
}

uint64_t d_rdmap_ird_exceeded(struct gen *g, uint64_t t)
{
	/* IRD/ORD 2 both ways; the initiator posts three Reads at once */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	int op[3];
	size_t f = 0;

	k.ird = k.ord = 2;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	for (int i = 0; i < 3; i++) {
		f = g->nfpdus;
		op[i] = post_read(g, c, I2R, 1000 + 100 * (uint32_t)i, 0);
	}
	doc(g, "rdmap.ird_exceeded", c, I2R, DR_FPDU, f);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	t += c->cfg.rtt + s_proc(g);
	for (int i = 0; i < 3; i++)
		rd_read_resp(g, c, op[i]);
	t = flush_now(g, c, R2I, t);
	return closing(g, c, t);
}

uint64_t d_rdmap_read_response_size(struct gen *g, uint64_t t)
{
	/* a Read of 2000 octets whose responses end after 1000 */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	int op;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	op = post_read(g, c, I2R, 2000, 0);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	g->ops[op].rd_size = 1000;
	rd_read_resp(g, c, op);
	t = flush_now(g, c, R2I, t + c->cfg.rtt);
	doc(g, "rdmap.read_response_size", c, R2I, DR_OPLAST, (size_t)op);
	return closing(g, c, traffic(g, c, t));
}

uint64_t d_rdmap_orphan_response(struct gen *g, uint64_t t)
{
	/* a Read Response of 500 octets nobody asked for */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	struct op_rec *o;
	size_t f;
	int op;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = traffic(g, c, t);
	op = gen_new_op(g, c, I2R, OP_READ, RD_READ_REQ);
	o = &g->ops[op];
	o->stag = rnd_stag(g);
	o->to = rnd_to(g);
	o->rd_size = 500;
	f = g->nfpdus;
	rd_read_resp(g, c, op);
	t = flush_now(g, c, R2I, t);
	doc(g, "rdmap.orphan_response", c, R2I, DR_FPDU, f);
	return closing(g, c, t);
}

uint64_t d_rdmap_terminate(struct gen *g, uint64_t t)
{
	/* a Write to an STag the responder does not know: Terminate at the DDP
	 * layer (tagged buffer error, invalid STag) quoting its DDP header */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t fw, ft;
	int op;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	fw = g->nfpdus;
	op = post_write(g, c, I2R, 3000);
	t = flush_now(g, c, I2R, t);
	ft = g->nfpdus;
	rd_terminate(g, c, R2I, 1, 1, 0x00, 1, op);
	t = flush_now(g, c, R2I, t + 20 * US);
	doc_at(g, "rdmap.terminate", c, R2I, DR_FPDU, ft, (int)fw);
	return s_close(g, c, R2I, t + 100 * US);
}

uint64_t d_rdmap_after_terminate(struct gen *g, uint64_t t)
{
	/* the initiator terminates (RDMAP layer, remote operation error,
	 * invalid opcode), then still sends a Write */
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);
	size_t ft, fw;

	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, R2I, OP_SEND, 40, t + 30 * US);
	ft = g->nfpdus;
	rd_terminate(g, c, I2R, 0, 2, 0x06, 0, -1);
	t = flush_now(g, c, I2R, t);
	fw = g->nfpdus;
	t = s_write(g, c, I2R, 500, t + 2 * MS);
	doc(g, "rdmap.terminate", c, I2R, DR_FPDU, ft);
	doc(g, "rdmap.after_terminate", c, I2R, DR_FPDU, fw);
	return s_close(g, c, I2R, t + 100 * US);
}

uint64_t d_rdmap_read_request_le(struct gen *g, uint64_t t)
{
	/* the initiator writes its Read Request fields least significant
	 * octet first (an early software stack); the responder answers with
	 * the STag and TO meant, which shows the byte order: each of its Read
	 * Requests is an occurrence (doctor_truth.c) */
	struct conn_cfg k = cfg_default(4);
	struct conn *c;
	int op;

	k.rdreq_le[I2R] = 1;
	c = conn_new(g, &k);
	t = open_with(g, c, t, NULL, NULL, 0);
	t = s_send(g, c, I2R, OP_SEND, 40, t + 30 * US);
	op = post_read(g, c, I2R, 1000, 0);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	t += c->cfg.rtt + s_proc(g);
	rd_read_resp(g, c, op);
	t = flush_now(g, c, R2I, t);
	t = s_read(g, c, I2R, 700, t + 20 * US);
	return closing(g, c, traffic(g, c, t));
}

/* ---- the connection ---- */

/* A connection after a clean exchange, with a Read of the initiator's
 * outstanding (*op); *t is the time after its request. */
static struct conn *read_outstanding(struct gen *g, uint64_t *t, int *op)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c = conn_new(g, &k);

	*t = open_with(g, c, *t, NULL, NULL, 0);
	*t = traffic(g, c, *t);
	*op = post_read(g, c, I2R, 3000, 0);
	*t = flush_now(g, c, I2R, *t);
	return c;
}

uint64_t d_conn_rst_outstanding(struct gen *g, uint64_t t)
{
	/* the Read is never answered: the responder resets the connection */
	int op;
	struct conn *c = read_outstanding(g, &t, &op);
	size_t f0 = g->nframes;

	tcp_rst(g, c, R2I, t + 1 * MS);
	doc(g, "conn.rst_outstanding", c, R2I, DR_FRAME, frame_from(g, f0, c, R2I, 0, TCPF_RST));
	return t + 2 * MS;
}

uint64_t d_conn_fin_outstanding(struct gen *g, uint64_t t)
{
	/* the Read is never answered: the responder closes, then the initiator */
	int op;
	struct conn *c = read_outstanding(g, &t, &op);
	size_t f0 = g->nframes;

	t = tcp_close(g, c, R2I, t + 1 * MS);
	doc(g, "conn.fin_outstanding", c, R2I, DR_FRAME, frame_from(g, f0, c, R2I, 0, TCPF_FIN));
	doc(g, "conn.fin_outstanding", c, I2R, DR_FRAME, frame_from(g, f0, c, I2R, 0, TCPF_FIN));
	return t + 10 * US;
}

uint64_t d_conn_zero_window_reads(struct gen *g, uint64_t t)
{
	/* the requester's buffer is full: it advertises a window of 0 for 2 ms,
	 * then opens it and the responses come */
	int op;
	struct conn *c = read_outstanding(g, &t, &op);
	size_t f0 = g->nframes;

	tcp_set_window(c, R2I, 1, 0);
	tcp_pure_ack(g, c, I2R, t + 5 * US);
	doc(g, "conn.zero_window_reads", c, I2R, DR_FRAME, f0);
	tcp_set_window(c, R2I, 0, 0);
	tcp_pure_ack(g, c, I2R, t + 2 * MS);
	t += 2 * MS + 20 * US;
	rd_read_resp(g, c, op);
	t = flush_now(g, c, R2I, t);
	return closing(g, c, t);
}
