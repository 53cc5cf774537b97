// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compact records (struct iws_op_brief, struct iws_nvme_brief,
 * struct iws_pdu_brief): every
 * field a front end keeps survives the trip through the brief, and the
 * statistics of operations and NVMe commands made from briefs are the
 * statistics made from the full records (the plugin keeps briefs, the CLI
 * full records: both must count the same).
 */
#include "iwarpscope/nvme.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stats.h"
#include "iwarpscope/stream.h"

#include "check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* An operation whose every field holds a different value. */
static void random_op(struct iws_op *op)
{
	memset(op, 0, sizeof(*op));
	op->id = next() % 100000 + 1;
	op->type = (enum iws_op_type)(next() % IWS_OPT_COUNT);
	op->opcode = (uint8_t)next();
	op->dir = next() % 2;
	op->rtr = next() % 8 == 0;
	op->first_frame = next() % 1000000 + 1;
	op->last_frame = op->first_frame + next() % 1000;
	op->first_inorder_frame = op->first_frame + next() % 10;
	op->start_ns = (int64_t)(next() % 1000000000000ull);
	op->end_ns = op->start_ns + (int64_t)(next() % 1000000);
	op->bytes = next() % (1u << 20);
	op->segments = (uint32_t)(next() % 300 + 1);
	op->has_stag = true;
	op->stag = (uint32_t)next();
	op->to = next();
	op->has_qn = true;
	op->qn = 1;
	op->msn = (uint32_t)next();
	op->has_latency = next() % 2;
	op->latency_ns = (int64_t)(next() % 10000000);
	op->complete = next() % 4 != 0;
	op->crc_errors = (uint32_t)(next() % 3);
	op->flags = (uint32_t)next() & 0xffff;
	op->retransmissions = (uint32_t)(next() % 5);
	op->reordered = (uint32_t)(next() % 5);
	op->stall_ns = (int64_t)(next() % 1000000);
	op->has_ack = next() % 2;
	op->ack_with_data = next() % 2;
	op->ack_frame = op->last_frame + 1;
	op->ack_ns = (int64_t)(next() % 10000000);
	op->queued_ns = (int64_t)(next() % 100000);
	op->response_frame = op->first_frame + 1;
	op->pairing = (uint8_t)(next() % IWS_PAIR_COUNT);
	op->has_immediate = true;
	op->immediate = next();
}

static void check_op_round_trip(void)
{
	struct iws_op op, back;
	struct iws_op_brief b;
	for (int i = 0; i < 1000; i++) {
		random_op(&op);
		iws_op_brief_of(&op, &b);
		iws_op_of_brief(&b, &back);
		CHECK_EQ(back.id, op.id);
		CHECK_EQ(back.type, op.type);
		CHECK_EQ(back.rtr, op.rtr);
		CHECK_EQ(back.first_frame, op.first_frame);
		CHECK_EQ(back.last_frame, op.last_frame);
		CHECK_EQ(back.first_inorder_frame, op.first_inorder_frame);
		CHECK_EQ(back.response_frame, op.response_frame);
		CHECK_EQ(back.ack_frame, op.ack_frame);
		CHECK_EQ(back.start_ns, op.start_ns);
		CHECK_EQ(back.end_ns, op.end_ns);
		CHECK_EQ(back.bytes, op.bytes);
		CHECK_EQ(back.segments, op.segments);
		CHECK_EQ(back.has_latency, op.has_latency);
		CHECK_EQ(back.latency_ns, op.latency_ns);
		CHECK_EQ(back.complete, op.complete);
		CHECK_EQ(back.crc_errors, op.crc_errors);
		CHECK_EQ(back.flags, op.flags);
		CHECK_EQ(back.retransmissions, op.retransmissions);
		CHECK_EQ(back.reordered, op.reordered);
		CHECK_EQ(back.stall_ns, op.stall_ns);
		CHECK_EQ(back.has_ack, op.has_ack);
		CHECK_EQ(back.ack_with_data, op.ack_with_data);
		CHECK_EQ(back.ack_ns, op.ack_ns);
		CHECK_EQ(back.queued_ns, op.queued_ns);
		CHECK_EQ(back.pairing, op.pairing);
		/* the per-type fields are not kept */
		CHECK(!back.has_stag && !back.stag && !back.to && !back.has_immediate && !back.immediate);
	}
	/* a frame past 32 bits is kept as the largest */
	op.first_frame = (1ull << 32) + 5;
	iws_op_brief_of(&op, &b);
	CHECK_EQ(b.first_frame, UINT32_MAX);
}

static void check_stats_equal(const struct iws_qp_stats *a, const struct iws_qp_stats *b)
{
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		const struct iws_op_stats *x = &a->op[t], *y = &b->op[t];
		CHECK_EQ(x->count, y->count);
		CHECK_EQ(x->complete, y->complete);
		CHECK_EQ(x->bytes, y->bytes);
		CHECK_EQ(x->segments, y->segments);
		CHECK_EQ(x->crc_errors, y->crc_errors);
		CHECK_EQ(x->retransmissions, y->retransmissions);
		CHECK_EQ(x->reordered, y->reordered);
		CHECK_EQ(x->stall_ns, y->stall_ns);
		CHECK_EQ(x->latency.count, y->latency.count);
		CHECK_EQ(x->latency.sum, y->latency.sum);
		CHECK_EQ(x->latency.min, y->latency.min);
		CHECK_EQ(x->latency.max, y->latency.max);
		CHECK_EQ(x->delivery.count, y->delivery.count);
		CHECK_EQ(x->delivery.sum, y->delivery.sum);
	}
}

/* The statistics of 5000 operations, from the full records and from their
 * briefs. */
static void check_op_stats(void)
{
	struct iws_qp_stats full, brief;
	iws_qp_stats_init(&full);
	iws_qp_stats_init(&brief);
	uint64_t reordered = 0;
	for (int i = 0; i < 5000; i++) {
		struct iws_op op, back;
		struct iws_op_brief b;
		random_op(&op);
		iws_op_brief_of(&op, &b);
		iws_op_of_brief(&b, &back);
		iws_qp_stats_add(&full, &op);
		iws_qp_stats_add(&brief, &back);
		if (!op.rtr)
			reordered += op.reordered;
	}
	check_stats_equal(&full, &brief);
	uint64_t sum = 0;
	for (int t = 0; t < IWS_OPT_COUNT; t++)
		sum += brief.op[t].reordered;
	CHECK(reordered > 0);
	CHECK_EQ(sum, reordered);
	iws_qp_stats_free(&full);
	iws_qp_stats_free(&brief);
}

static const uint8_t nvme_opcodes[] = { 0x01, 0x02, 0x00, 0x09, 0x06, 0x7f };

static void random_cmd(struct iws_nvme_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->qp = (uint32_t)(next() % 4);
	c->id = next() % 100000 + 1;
	c->qid = (int32_t)(next() % 5) - 1;
	c->queue = c->qid == 0 ? IWS_NVME_QUEUE_ADMIN : c->qid > 0 ? IWS_NVME_QUEUE_IO : IWS_NVME_QUEUE_UNKNOWN;
	c->cid = (uint16_t)next();
	c->fabrics = next() % 6 == 0;
	c->opcode = c->fabrics ? 0x7f : nvme_opcodes[next() % 5];
	c->fctype = c->fabrics ? (uint8_t)(next() % 2) : 0;
	c->op = iws_nvme_op_key(c->queue, c->opcode, c->fabrics, c->fctype);
	c->title = iws_nvme_op_title(c->queue, c->opcode, c->fabrics, c->fctype);
	c->has_nsid = true;
	c->nsid = 1;
	c->sqe.icd_len = (uint32_t)(next() % 2 ? next() % 8192 : 0);
	c->xfer = (enum iws_nvme_xfer)(next() % 4);
	c->bytes = next() % (1u << 20);
	c->first_frame = next() % 1000000 + 1;
	c->capsule_frame = c->first_frame + next() % 3;
	c->last_frame = c->capsule_frame + next() % 100;
	c->data_first_frame = next() % 2 ? c->capsule_frame + 1 : 0;
	c->data_last_frame = c->data_first_frame ? c->data_first_frame + next() % 10 : 0;
	c->start_ns = (int64_t)(next() % 1000000000000ull);
	c->end_ns = c->start_ns + (int64_t)(next() % 10000000);
	c->has_completion = next() % 5 != 0;
	c->latency_ns = c->has_completion ? c->end_ns - c->start_ns : 0;
	c->data_ns = c->data_first_frame ? (int64_t)(next() % 100000) : 0;
	c->status = c->has_completion && next() % 7 == 0 ? (uint16_t)(next() % 0x300) : 0;
	c->send_inv = next() % 2;
	c->complete = c->has_completion && next() % 9 != 0;
	c->flags = (uint32_t)next() & 0xff;
}

static void check_nvme(void)
{
	struct iws_nvme_stats full, brief;
	iws_nvme_stats_init(&full);
	iws_nvme_stats_init(&brief);
	for (int i = 0; i < 3000; i++) {
		struct iws_nvme_cmd c, back;
		struct iws_nvme_brief b;
		random_cmd(&c);
		iws_nvme_brief_of(&c, &b);
		iws_nvme_cmd_of_brief(&b, &back);
		CHECK_EQ(back.qp, c.qp);
		CHECK_EQ(back.id, c.id);
		CHECK_EQ(back.qid, c.qid);
		CHECK_EQ(back.cid, c.cid);
		CHECK(back.op == c.op && back.title == c.title);
		CHECK_EQ(back.fabrics, c.fabrics);
		CHECK_EQ(back.xfer, c.xfer);
		CHECK_EQ(back.bytes, c.bytes);
		CHECK_EQ(back.first_frame, c.first_frame);
		CHECK_EQ(back.capsule_frame, c.capsule_frame);
		CHECK_EQ(back.last_frame, c.last_frame);
		CHECK_EQ(back.data_first_frame, c.data_first_frame);
		CHECK_EQ(back.data_last_frame, c.data_last_frame);
		CHECK_EQ(back.start_ns, c.start_ns);
		CHECK_EQ(back.end_ns, c.end_ns);
		CHECK_EQ(back.latency_ns, c.latency_ns);
		CHECK_EQ(back.data_ns, c.data_ns);
		CHECK_EQ(back.has_completion, c.has_completion);
		CHECK_EQ(back.status, c.status);
		CHECK_EQ(back.send_inv, c.send_inv);
		CHECK_EQ(back.complete, c.complete);
		CHECK_EQ(back.flags, c.flags);
		CHECK_EQ(b.capsule_len, IWS_NVME_SQE_LEN + c.sqe.icd_len);
		CHECK_EQ(back.sqe.icd_len, c.sqe.icd_len);
		CHECK(iws_nvme_stats_add(&full, &c));
		CHECK(iws_nvme_stats_add(&brief, &back));
	}
	CHECK_EQ(full.n, brief.n);
	CHECK(full.n > 4);
	for (uint32_t i = 0; i < full.n && i < brief.n; i++) {
		const struct iws_nvme_op_stats *x = &full.e[i], *y = &brief.e[i];
		CHECK_EQ(x->qid, y->qid);
		CHECK(x->op == y->op);
		CHECK_EQ(x->fabrics, y->fabrics);
		CHECK_EQ(x->count, y->count);
		CHECK_EQ(x->complete, y->complete);
		CHECK_EQ(x->errors, y->errors);
		CHECK_EQ(x->bytes, y->bytes);
		CHECK_EQ(x->first_start_ns, y->first_start_ns);
		CHECK_EQ(x->last_end_ns, y->last_end_ns);
		CHECK_EQ(x->latency.count, y->latency.count);
		CHECK_EQ(x->latency.sum, y->latency.sum);
		CHECK_EQ(x->data.count, y->data.count);
		CHECK_EQ(x->data.sum, y->data.sum);
		CHECK_EQ(x->nstatus, y->nstatus);
		CHECK_EQ(x->status_other, y->status_other);
	}
	iws_nvme_stats_free(&full);
	iws_nvme_stats_free(&brief);
}

/* A PDU's brief: the numbers of an FPDU (framing, CRC, the tracker's note)
 * and of an MPA frame (none of the FPDU's), frames past 32 bits kept as the
 * largest, captured octets never more than its length. */
static void check_pdu(void)
{
	struct iws_mpa_dir md = { .markers = true, .crc = true, .marker_base = 77, .skip_crc = true };
	struct iws_fpdu fp;
	memset(&fp, 0, sizeof(fp));
	fp.crc_status = IWS_CRC_BAD;
	fp.crc_calc = 0xdeadbeef;
	struct iws_seg_note note = { .op_id = 9, .request_frame = 3, .response_time_ns = 1234,
				     .op_type = IWS_OPT_READ, .outstanding = 2, .flags = IWS_SEGF_AFTER_CLOSE,
				     .payload = 4096, .op_last = true, .has_response_time = true };
	struct iws_msg msg;
	memset(&msg, 0, sizeof(msg));
	struct iws_pdu p;
	memset(&p, 0, sizeof(p));
	p.kind = IWS_PDU_FPDU;
	p.side = 1;
	p.dir = IWS_DIR_R2I;
	p.seq = 0xfffffff0u;
	p.len = 4140;
	p.first_hole = 100;
	p.first_frame = 10;
	p.arrived_frame = 12;
	p.frame = (1ull << 32) + 1;
	p.gap_before = true;
	p.mdir = &md;
	p.fpdu = &fp;
	p.msg = &msg;
	p.truncated = true;
	p.note = &note;
	struct iws_pdu_brief b;
	iws_pdu_brief_of(&p, &b);
	CHECK_EQ(b.kind, IWS_PDU_FPDU);
	CHECK_EQ(b.side, 1);
	CHECK_EQ(b.dir, IWS_DIR_R2I);
	CHECK_EQ(b.seq, 0xfffffff0u);
	CHECK_EQ(b.len, 4140);
	CHECK_EQ(b.captured, 100);
	CHECK_EQ(b.first_frame, 10);
	CHECK_EQ(b.arrived_frame, 12);
	CHECK_EQ(b.frame, UINT32_MAX);
	CHECK(b.gap_before && b.truncated && b.has_msg);
	CHECK_EQ(b.crc_status, IWS_CRC_BAD);
	CHECK_EQ(b.crc_calc, 0xdeadbeef);
	CHECK(b.mdir.markers && b.mdir.crc && b.mdir.skip_crc && b.mdir.marker_base == 77);
	CHECK_EQ(b.note.op_id, 9);
	CHECK_EQ(b.note.request_frame, 3);
	CHECK_EQ(b.note.response_time_ns, 1234);
	CHECK_EQ(b.note.op_type, IWS_OPT_READ);
	CHECK_EQ(b.note.payload, 4096);
	CHECK(b.note.op_last && b.note.has_response_time && !b.note.op_first);
	/* no ULPDU decoded, everything captured */
	p.msg = NULL;
	p.note = NULL;
	p.first_hole = p.len;
	iws_pdu_brief_of(&p, &b);
	CHECK(!b.has_msg && b.note.op_id == 0);
	CHECK_EQ(b.captured, 4140);
	/* an MPA frame: none of an FPDU's numbers, even if pointers are set */
	p.kind = IWS_PDU_MPA_FRAME;
	p.note = &note;
	p.msg = &msg;
	p.first_hole = 9999;
	iws_pdu_brief_of(&p, &b);
	CHECK_EQ(b.kind, IWS_PDU_MPA_FRAME);
	CHECK(!b.truncated && !b.has_msg && b.crc_status == 0 && b.crc_calc == 0 && !b.mdir.crc);
	CHECK_EQ(b.note.op_id, 0);
	CHECK_EQ(b.captured, 4140);
	CHECK(b.gap_before);
}

int main(void)
{
	check_op_round_trip();
	check_op_stats();
	check_nvme();
	check_pdu();
	return check_done("brief");
}
