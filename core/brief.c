// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * brief.c - the compact records of an operation and of an NVMe command
 * (qp.h struct iws_op_brief, nvme.h struct iws_nvme_brief): the one place
 * that says which of a record's fields a front end keeping every record of
 * a capture keeps, so no front end copies them field by field.
 */
#include "iwarpscope/nvme.h"
#include "iwarpscope/qp.h"

#include <string.h>

static uint32_t frame32(uint64_t frame)
{
	return frame > UINT32_MAX ? UINT32_MAX : (uint32_t)frame;
}

void iws_op_brief_of(const struct iws_op *op, struct iws_op_brief *b)
{
	memset(b, 0, sizeof(*b));
	b->id = op->id;
	b->type = (uint8_t)op->type;
	b->rtr = op->rtr;
	b->complete = op->complete;
	b->start_ns = op->start_ns;
	b->end_ns = op->end_ns;
	b->has_latency = op->has_latency;
	b->latency_ns = op->latency_ns;
	b->stall_ns = op->stall_ns;
	b->queued_ns = op->queued_ns;
	b->has_ack = op->has_ack;
	b->ack_with_data = op->ack_with_data;
	b->ack_ns = op->ack_ns;
	b->bytes = op->bytes;
	b->first_frame = frame32(op->first_frame);
	b->last_frame = frame32(op->last_frame);
	b->first_inorder_frame = frame32(op->first_inorder_frame);
	b->response_frame = frame32(op->response_frame);
	b->ack_frame = frame32(op->ack_frame);
	b->segments = op->segments;
	b->flags = op->flags;
	b->crc_errors = op->crc_errors;
	b->retransmissions = op->retransmissions;
	b->reordered = op->reordered;
}

void iws_op_of_brief(const struct iws_op_brief *b, struct iws_op *op)
{
	memset(op, 0, sizeof(*op));
	op->id = b->id;
	op->type = (enum iws_op_type)b->type;
	op->rtr = b->rtr;
	op->complete = b->complete;
	op->start_ns = b->start_ns;
	op->end_ns = b->end_ns;
	op->has_latency = b->has_latency;
	op->latency_ns = b->latency_ns;
	op->stall_ns = b->stall_ns;
	op->queued_ns = b->queued_ns;
	op->has_ack = b->has_ack;
	op->ack_with_data = b->ack_with_data;
	op->ack_ns = b->ack_ns;
	op->bytes = b->bytes;
	op->first_frame = b->first_frame;
	op->last_frame = b->last_frame;
	op->first_inorder_frame = b->first_inorder_frame;
	op->response_frame = b->response_frame;
	op->ack_frame = b->ack_frame;
	op->segments = b->segments;
	op->flags = b->flags;
	op->crc_errors = b->crc_errors;
	op->retransmissions = b->retransmissions;
	op->reordered = b->reordered;
}

void iws_nvme_brief_of(const struct iws_nvme_cmd *c, struct iws_nvme_brief *b)
{
	memset(b, 0, sizeof(*b));
	b->id = c->id;
	b->qp = c->qp;
	b->qid = c->qid;
	b->cid = c->cid;
	b->status = c->status;
	b->xfer = (uint8_t)c->xfer;
	b->fabrics = c->fabrics;
	b->has_completion = c->has_completion;
	b->complete = c->complete;
	b->send_inv = c->send_inv;
	b->op = c->op;
	b->title = c->title;
	b->first_frame = frame32(c->first_frame);
	b->capsule_frame = frame32(c->capsule_frame);
	b->last_frame = frame32(c->last_frame);
	b->data_first_frame = frame32(c->data_first_frame);
	b->data_last_frame = frame32(c->data_last_frame);
	b->start_ns = c->start_ns;
	b->end_ns = c->end_ns;
	b->latency_ns = c->latency_ns;
	b->data_ns = c->data_ns;
	b->bytes = c->bytes;
	b->flags = c->flags;
	b->capsule_len = IWS_NVME_SQE_LEN + c->sqe.icd_len;
}

void iws_nvme_cmd_of_brief(const struct iws_nvme_brief *b, struct iws_nvme_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->id = b->id;
	c->qp = b->qp;
	c->qid = b->qid;
	c->cid = b->cid;
	c->status = b->status;
	c->xfer = (enum iws_nvme_xfer)b->xfer;
	c->fabrics = b->fabrics;
	c->has_completion = b->has_completion;
	c->complete = b->complete;
	c->send_inv = b->send_inv;
	c->op = b->op;
	c->title = b->title;
	c->first_frame = b->first_frame;
	c->capsule_frame = b->capsule_frame;
	c->last_frame = b->last_frame;
	c->data_first_frame = b->data_first_frame;
	c->data_last_frame = b->data_last_frame;
	c->start_ns = b->start_ns;
	c->end_ns = b->end_ns;
	c->latency_ns = b->latency_ns;
	c->data_ns = b->data_ns;
	c->bytes = b->bytes;
	c->flags = b->flags;
	c->sqe.icd_len = b->capsule_len > IWS_NVME_SQE_LEN ? b->capsule_len - IWS_NVME_SQE_LEN : 0;
}
