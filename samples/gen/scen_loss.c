// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenarios where TCP shapes an operation's time (issue 13, docs/semantics.md
 * "Where the time went"): segments lost before the capture point and sent
 * again after duplicate ACKs (RFC 5681 3.2) or a retransmission timeout
 * (RFC 6298), lost ACKs, reordering, a zero window (RFC 9293 3.8.6.2), and
 * connections closed (FIN) or reset (RST) with operations outstanding and
 * more sent after that.
 *
 * Times are the capture point's, on a 24 us round trip: a sender reacts to
 * the third duplicate ACK half a round trip after the capture saw it, and
 * its retransmission timer is Linux's minimum (200 ms; RFC 6298 2.4 allows
 * a lower bound below its 1 s). Loss before the capture point (FF_LOST)
 * hides a segment's first transmission; loss after it (FF_DROP) shows it
 * and its retransmission both.
 */
#include "scenarios.h"

#include <string.h>

#include "rdma.h"
#include "session.h"
#include "tcpsim.h"

#define MAXSEG 128
#define RTO_NS (200 * MS)

/* The segments of what is queued in one direction, and their fates. */
struct plan {
	struct segplan s[MAXSEG];
	uint32_t fault[MAXSEG];
	int n;
};

/*
 * An IPv4 connection with CRC, opened, and one Write each way so that both
 * receivers have acknowledged data before the faults. ddp_r2i / ddp_i2r:
 * DDP segment size of a direction independent of the MSS (SEG_STREAM), 0
 * for one FPDU per TCP segment.
 */
static struct conn *open_warm(struct gen *g, uint64_t *t, uint32_t ddp_i2r, uint32_t ddp_r2i)
{
	struct conn_cfg k = cfg_default(4);
	struct conn *c;

	k.req_c = k.rep_c = 1;
	if (ddp_i2r) {
		k.mode[I2R] = SEG_STREAM;
		k.ddp_max[I2R] = ddp_i2r;
	}
	if (ddp_r2i) {
		k.mode[R2I] = SEG_STREAM;
		k.ddp_max[R2I] = ddp_r2i;
	}
	c = conn_new(g, &k);
	*t = s_open(g, c, T_BASE);
	*t = s_write(g, c, I2R, 2000, *t + 30 * US);
	*t = s_write(g, c, R2I, 1000, *t + 30 * US);
	return c;
}

/* Plans what is queued in direction dir, every segment captured. */
static void plan(struct conn *c, int dir, struct plan *p)
{
	memset(p->fault, 0, sizeof(p->fault));
	p->n = tcp_plan(c, dir, p->s, MAXSEG);
}

/* Sends segment i of p again at t (after duplicate ACKs or a timeout); the
 * receiver answers as TCP does. Returns the time after it. */
static uint64_t resend(struct gen *g, struct conn *c, int dir, const struct plan *p, int i,
		       uint64_t t)
{
	tcp_emit_seg(g, c, dir, p->s[i].off, p->s[i].len, t, 0);
	tcp_ack_if_due(g, c, dir, t + 3 * US);
	return t + 10 * US;
}

/* The initiator's Read Request of len octets, then the responder's Read
 * Responses queued a round trip later; returns the op, *t the time then. */
static int read_queued(struct gen *g, struct conn *c, uint32_t len, uint64_t *t)
{
	int op = post_read(g, c, I2R, len, 0);

	*t = tcp_flush(g, c, I2R, *t);
	*t += c->cfg.rtt + s_proc(g);
	rd_read_resp(g, c, op);
	return op;
}

void scen_loss_read_request(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;
	int op;

	g->description = "Read Requests and TCP loss, one FPDU per segment, CRC on. 1: a Send's "
			 "second segment is lost before the capture point; the Read Request and "
			 "the Write sent after it are captured but wait in the responder behind "
			 "the hole until the fast retransmission (three duplicate ACKs): the Read "
			 "starts at its first transmission, stalls until the retransmission, then "
			 "is answered. 2: the segment of a Read Request itself is lost; the capture "
			 "shows the Send after it first, then the retransmission filling the hole: "
			 "the Read starts there (its original was never captured), counts one "
			 "retransmission, and the Send stalls.";
	c = open_warm(g, &t, 0, 0);

	/* 1. the case: a Read Request behind a lost segment */
	rd_send(g, c, I2R, OP_SEND, 0, 4000);
	op = post_read(g, c, I2R, 5000, 0);
	post_write(g, c, I2R, 2500);
	plan(c, I2R, &p);
	p.fault[1] = FF_LOST;
	t = emit_plan(g, c, I2R, p.s, p.n, NULL, p.fault, t + 30 * US);
	/* the third duplicate ACK reaches the initiator half a round trip later */
	t = resend(g, c, I2R, &p, 1, t + c->cfg.rtt / 2 + 2 * US);
	/* the responder serves the Read once it is delivered */
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	t = flush_settle(g, c, R2I, t);

	/* 2. the Read Request's own segment is lost */
	op = post_read(g, c, I2R, 3000, 0);
	rd_send(g, c, I2R, OP_SEND_SE, 0, 5000);
	plan(c, I2R, &p);
	p.fault[0] = FF_LOST;
	t = emit_plan(g, c, I2R, p.s, p.n, NULL, p.fault, t + 30 * US);
	t = resend(g, c, I2R, &p, 0, t + c->cfg.rtt / 2 + 2 * US);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	t = flush_settle(g, c, R2I, t);

	t = s_send(g, c, I2R, OP_SEND, 200, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_loss_read_response(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;

	g->description = "Read Responses and TCP loss before the capture point, CRC on, "
			 "700-octet r2i DDP segments straddling TCP segments. 1: the third segment "
			 "of a 9000-octet Read's responses is lost; the initiator's four duplicate "
			 "ACKs bring a fast retransmission; the Read counts one retransmission "
			 "(the segment carries parts of two Read Responses). Its responses after "
			 "the hole waited for its own octets: no stall (stall_ns counts waiting for "
			 "octets before the operation's own). 2: the second of a Read's three "
			 "response segments is lost; the one after it brings a new ACK, no "
			 "duplicate, so the responder's retransmission timer fires 200 ms later "
			 "(a timeout) and the Read takes that long, with one retransmission.";
	c = open_warm(g, &t, 0, 700);

	/* 1. a response segment lost mid-stream: fast retransmission */
	t += 30 * US;
	read_queued(g, c, 9000, &t);
	plan(c, R2I, &p);
	p.fault[2] = FF_LOST;
	t = emit_plan(g, c, R2I, p.s, p.n, NULL, p.fault, t);
	t = resend(g, c, R2I, &p, 2, t + c->cfg.rtt / 2 + 2 * US);
	tcp_settle(g, c, t);
	t += 30 * US;

	/* 2. the next-to-last response segment lost: a retransmission timeout */
	read_queued(g, c, 4000, &t);
	plan(c, R2I, &p);
	p.fault[p.n - 2] = FF_LOST;
	t = emit_plan(g, c, R2I, p.s, p.n, NULL, p.fault, t);
	t = resend(g, c, R2I, &p, p.n - 2, t + RTO_NS);
	tcp_settle(g, c, t);

	t = s_write(g, c, I2R, 1500, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_loss_ack(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;

	g->description = "Lost ACKs (lost before the capture point; the sender's timer does not "
			 "fire before a later ACK covers the octets), CRC on, one FPDU per "
			 "segment. 1: the responder's ACK of a one-segment Send is lost; its next "
			 "segment, a Send going the other way 40 us later, carries the covering "
			 "acknowledgement. 2: the ACK of a two-segment Write is lost; the ACK of "
			 "the next Write covers both Writes. No retransmissions.";
	c = open_warm(g, &t, 0, 0);

	/* 1. covered by a data segment of the other direction */
	rd_send(g, c, I2R, OP_SEND, 0, 600);
	t = tcp_flush(g, c, I2R, t + 30 * US);
	tcp_pure_ack_fault(g, c, R2I, t + 6 * US, FF_LOST);
	t += 40 * US;
	t = s_send(g, c, R2I, OP_SEND, 300, t);

	/* 2. covered by the ACK of the next Write */
	post_write(g, c, I2R, 2800);
	plan(c, I2R, &p);
	for (int i = 0; i < p.n; i++)
		tcp_emit_seg(g, c, I2R, p.s[i].off, p.s[i].len, t + 30 * US + (uint64_t)i * 1300, 0);
	t += 30 * US + (uint64_t)p.n * 1300;
	tcp_pure_ack_fault(g, c, R2I, t + 2 * US, FF_LOST);
	t += 25 * US;
	t = s_write(g, c, I2R, 1000, t);

	t = s_read(g, c, I2R, 2000, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_reorder(struct gen *g)
{
	struct conn *c;
	uint64_t t;
	int op;

	g->description = "Reordering on the way to the capture point (nothing lost), CRC on, "
			 "DDP segments independent of the MSS (1000 octets i2r, 700 r2i); the "
			 "segments were sent in order, so their IP IDs count up in sequence order and "
			 "each one captured late is reordered, not a retransmission. 1: a "
			 "Write's segments 2 and 3 arrive swapped: the FPDU they share is first "
			 "seen in its later part (its first_frame is the swapped-in segment). "
			 "2: a Send's two segments arrive swapped, and the Read Request packed at "
			 "the end of the second is seen first: the Read starts before the Send's "
			 "first segment and waits for it. 3: a Write's segments 2, 3, 4 arrive as "
			 "4, 3, 2 (each of 3 and 2 fills the hole behind later octets, with a lower "
			 "IP ID: both are reordered). 4: two Read Response segments swapped.";
	c = open_warm(g, &t, 1000, 700);

	/* 1. two segments swapped */
	post_write(g, c, I2R, 6000);
	t = emit_swapped(g, c, I2R, 1, 2, t + 30 * US);
	tcp_settle(g, c, t + 6 * US);
	t += 30 * US;

	/* 2. a Send and the Read Request after it, the second segment first */
	rd_send(g, c, I2R, OP_SEND, 0, 2000);
	op = post_read(g, c, I2R, 2500, 0);
	t = emit_swapped(g, c, I2R, 0, 1, t);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	t = flush_settle(g, c, R2I, t);

	/* 3. three segments in reverse order */
	post_write(g, c, I2R, 8000);
	t = emit_swapped(g, c, I2R, 2, 4, t + 30 * US);
	tcp_settle(g, c, t + 6 * US);
	t += 30 * US;

	/* 4. Read Responses: segments 1 and 2 swapped */
	read_queued(g, c, 5000, &t);
	t = emit_swapped(g, c, R2I, 1, 2, t);
	tcp_settle(g, c, t + 6 * US);

	t = s_send(g, c, I2R, OP_SEND, 100, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_rto(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;
	int op;

	g->description = "Retransmission timeouts (RFC 6298; 200 ms, Linux's minimum RTO), no "
			 "fast retransmission, CRC on, one FPDU per segment. 1: the last segment "
			 "of a 4-segment Write is captured but lost after the capture point: "
			 "nothing follows it, no duplicate ACK; it is sent again 200 ms later and "
			 "its ACK (the Write's delivery, ack_ns) comes then. 2: the second of four "
			 "Send segments is lost before the capture point: only one duplicate ACK "
			 "follows, so the timer fires too; the retransmission fills the hole. 3: "
			 "a Read Request alone is captured and lost after the capture point: sent "
			 "again 200 ms later; the Read takes that long, one retransmission, no "
			 "stall.";
	c = open_warm(g, &t, 0, 0);

	/* 1. the last segment of a Write */
	post_write(g, c, I2R, 5000);
	plan(c, I2R, &p);
	p.fault[p.n - 1] = FF_DROP;
	t = emit_plan(g, c, I2R, p.s, p.n, NULL, p.fault, t + 30 * US);
	tcp_settle(g, c, t + 40 * US);
	t = resend(g, c, I2R, &p, p.n - 1, t + RTO_NS);
	tcp_settle(g, c, t);
	t += 30 * US;

	/* 2. a Send's second segment, one duplicate ACK only */
	rd_send(g, c, I2R, OP_SEND_SE, 0, 5000);
	plan(c, I2R, &p);
	p.fault[1] = FF_LOST;
	t = emit_plan(g, c, I2R, p.s, p.n, NULL, p.fault, t);
	t = resend(g, c, I2R, &p, 1, t + RTO_NS);
	tcp_settle(g, c, t);
	t += 30 * US;

	/* 3. a Read Request */
	op = post_read(g, c, I2R, 3000, 0);
	plan(c, I2R, &p);
	p.fault[0] = FF_DROP;
	t = emit_plan(g, c, I2R, p.s, p.n, NULL, p.fault, t);
	t = resend(g, c, I2R, &p, 0, t + RTO_NS);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	t = flush_settle(g, c, R2I, t);

	s_close(g, c, I2R, t + 50 * US);
}

void scen_zero_window(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;
	int half;

	g->description = "Zero windows (RFC 9293 3.8.6.2), CRC on, one FPDU per segment, nothing "
			 "lost. 1: after three segments of a 7-segment Write the responder "
			 "acknowledges them with a window of 0; 2 ms later it opens the window "
			 "again (a window update: not a duplicate ACK) and the rest follows: the "
			 "Write is delivered 2 ms late with no retransmission and no stall. 2: the "
			 "initiator advertises a window of 0 after the first two Read Response "
			 "segments of a Read and opens it 3 ms later: the Read's latency has no "
			 "TCP loss behind it, only the zero window.";
	c = open_warm(g, &t, 0, 0);

	/* 1. the responder's window closes during a Write */
	post_write(g, c, I2R, 7 * 1400);
	plan(c, I2R, &p);
	half = 3;
	t = emit_plan(g, c, I2R, p.s, half, NULL, NULL, t + 30 * US);
	t += 4 * US;
	tcp_set_window(c, I2R, 1, 0);
	tcp_pure_ack(g, c, R2I, t);
	t += 2 * MS;
	tcp_set_window(c, I2R, 0, 0);
	tcp_pure_ack(g, c, R2I, t);
	t = emit_plan(g, c, I2R, p.s + half, p.n - half, NULL, NULL, t + c->cfg.rtt / 2);
	tcp_settle(g, c, t + 6 * US);
	t += 30 * US;

	/* 2. the initiator's window closes during a Read's responses */
	read_queued(g, c, 6000, &t);
	plan(c, R2I, &p);
	half = 2;
	t = emit_plan(g, c, R2I, p.s, half, NULL, NULL, t);
	t += 4 * US;
	tcp_set_window(c, R2I, 1, 0);
	tcp_pure_ack(g, c, I2R, t);
	t += 3 * MS;
	tcp_set_window(c, R2I, 0, 0);
	tcp_pure_ack(g, c, I2R, t);
	t = emit_plan(g, c, R2I, p.s + half, p.n - half, NULL, NULL, t + c->cfg.rtt / 2);
	tcp_settle(g, c, t + 6 * US);

	t = s_send(g, c, I2R, OP_SEND, 100, t + 30 * US);
	s_close(g, c, I2R, t + 50 * US);
}

void scen_fin_outstanding(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;

	g->description = "The responder closes (FIN, a half close) with three Read Requests "
			 "unanswered and a 3-segment Write in progress: its FIN falls between the "
			 "Write's first and second segments. The initiator goes on: the rest of "
			 "that Write, then a Send and another Write, all sent after the peer's FIN "
			 "(after_close, not complete, though the responder's TCP still "
			 "acknowledges them); then it closes too. The Reads are never answered. "
			 "CRC on, one FPDU per segment.";
	c = open_warm(g, &t, 0, 0);
	for (int i = 0; i < 3; i++)
		post_read(g, c, I2R, 4096, 0);
	t = flush_settle(g, c, I2R, t + 30 * US);

	post_write(g, c, I2R, 3 * 1400);
	plan(c, I2R, &p);
	tcp_emit_seg(g, c, I2R, p.s[0].off, p.s[0].len, t + 20 * US, 0);
	t += 22 * US;
	tcp_fin(g, c, R2I, t);
	t = emit_plan(g, c, I2R, p.s + 1, p.n - 1, NULL, NULL, t + 1500);
	tcp_settle(g, c, t + 6 * US);
	t += 20 * US;
	t = s_send(g, c, I2R, OP_SEND, 300, t);
	t = s_write(g, c, I2R, 1200, t + 10 * US);
	tcp_fin(g, c, I2R, t + 30 * US);
	tcp_pure_ack(g, c, R2I, t + 30 * US + c->cfg.rtt / 2);
}

void scen_rst_outstanding(struct gen *g)
{
	struct plan p;
	struct conn *c;
	uint64_t t;
	int op;

	g->description = "A killed server: four Read Requests outstanding, the first answered in "
			 "part (two of its four Read Response segments), when the responder resets "
			 "the connection (RST). The initiator has not seen the RST yet: two Writes "
			 "and a Send it sends after it are captured after the RST (after_close, "
			 "not complete), each segment answered by a bare RST (RFC 9293 3.10.7.1). "
			 "No FIN. CRC on, one FPDU per segment.";
	c = open_warm(g, &t, 0, 0);
	op = post_read(g, c, I2R, 4 * 1400, 0);
	for (int i = 0; i < 3; i++)
		post_read(g, c, I2R, 8192, 0);
	t = flush_settle(g, c, I2R, t + 30 * US);
	t += c->cfg.rtt / 2 + s_proc(g);
	rd_read_resp(g, c, op);
	plan(c, R2I, &p);
	t = emit_plan(g, c, R2I, p.s, 2, NULL, NULL, t);
	t += 3 * US;
	tcp_rst(g, c, R2I, t);

	post_write(g, c, I2R, 2000);
	rd_send(g, c, I2R, OP_SEND_SE, 0, 100);
	post_write(g, c, I2R, 700);
	plan(c, I2R, &p);
	t += 2 * US;
	for (int i = 0; i < p.n; i++) {
		tcp_emit_seg(g, c, I2R, p.s[i].off, p.s[i].len, t, 0);
		tcp_rst_reply(g, c, R2I, t + 500);
		t += tcp_wire_ns(p.s[i].len + 54) + 1200;
	}
}
