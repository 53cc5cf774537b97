// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * brief.c - the compact records of an operation, an NVMe command and a PDU
 * (qp.h struct iws_op_brief, nvme.h struct iws_nvme_brief, stream.h struct
 * iws_pdu_brief): the one place
 * that says which of a record's fields a front end keeping every record of
 * a capture keeps, so no front end copies them field by field. Each record's
 * fields are listed once and serve both directions.
 */
#include "iwarpscope/nvme.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stream.h"

#include <string.h>

/* struct iws_op fields kept under the same name and type (X), and the
 * frames, kept as 32 bits (F). */
#define OP_FIELDS(X)                                                                      \
	X(id) X(rtr) X(complete) X(start_ns) X(end_ns) X(has_latency) X(latency_ns)       \
	X(stall_ns) X(queued_ns) X(has_ack) X(ack_with_data) X(ack_ns) X(bytes)          \
	X(segments) X(flags) X(crc_errors) X(retransmissions) X(reordered) X(pairing)
#define OP_FRAMES(F) F(first_frame) F(last_frame) F(first_inorder_frame) F(response_frame) F(ack_frame)

/* The same for struct iws_nvme_cmd. */
#define NVME_FIELDS(X)                                                                    \
	X(id) X(qp) X(qid) X(cid) X(status) X(fabrics) X(has_completion) X(complete)      \
	X(send_inv) X(op) X(title) X(start_ns) X(end_ns) X(latency_ns) X(data_ns)        \
	X(bytes) X(flags)
#define NVME_FRAMES(F) \
	F(first_frame) F(capsule_frame) F(last_frame) F(data_first_frame) F(data_last_frame)

/* The same for struct iws_pdu (its other fields are kept from what they
 * point at, in iws_pdu_brief_of). */
#define PDU_FIELDS(X) X(seq) X(len) X(gap_before)
#define PDU_FRAMES(F) F(frame) F(first_frame) F(arrived_frame)

static uint32_t frame32(uint64_t frame)
{
	return frame > UINT32_MAX ? UINT32_MAX : (uint32_t)frame;
}

#define TO_BRIEF(f) b->f = full->f;
#define TO_BRIEF_FRAME(f) b->f = frame32(full->f);
#define FROM_BRIEF(f) full->f = b->f;

void iws_op_brief_of(const struct iws_op *full, struct iws_op_brief *b)
{
	memset(b, 0, sizeof(*b));
	OP_FIELDS(TO_BRIEF)
	OP_FRAMES(TO_BRIEF_FRAME)
	b->type = (uint8_t)full->type;
}

void iws_op_of_brief(const struct iws_op_brief *b, struct iws_op *full)
{
	memset(full, 0, sizeof(*full));
	OP_FIELDS(FROM_BRIEF)
	OP_FRAMES(FROM_BRIEF)
	full->type = (enum iws_op_type)b->type;
}

void iws_nvme_brief_of(const struct iws_nvme_cmd *full, struct iws_nvme_brief *b)
{
	memset(b, 0, sizeof(*b));
	NVME_FIELDS(TO_BRIEF)
	NVME_FRAMES(TO_BRIEF_FRAME)
	b->xfer = (uint8_t)full->xfer;
	b->capsule_len = IWS_NVME_SQE_LEN + full->sqe.icd_len;
}

void iws_nvme_cmd_of_brief(const struct iws_nvme_brief *b, struct iws_nvme_cmd *full)
{
	memset(full, 0, sizeof(*full));
	NVME_FIELDS(FROM_BRIEF)
	NVME_FRAMES(FROM_BRIEF)
	full->xfer = (enum iws_nvme_xfer)b->xfer;
	full->sqe.icd_len = b->capsule_len > IWS_NVME_SQE_LEN ? b->capsule_len - IWS_NVME_SQE_LEN : 0;
}

void iws_pdu_brief_of(const struct iws_pdu *full, struct iws_pdu_brief *b)
{
	memset(b, 0, sizeof(*b));
	PDU_FIELDS(TO_BRIEF)
	PDU_FRAMES(TO_BRIEF_FRAME)
	b->kind = (uint8_t)full->kind;
	b->side = (uint8_t)full->side;
	b->dir = full->dir;
	b->captured = full->first_hole < full->len ? full->first_hole : full->len;
	if (full->kind != IWS_PDU_FPDU)
		return;
	b->truncated = full->truncated;
	b->has_msg = full->msg != NULL;
	if (full->mdir)
		b->mdir = *full->mdir;
	if (full->fpdu) {
		b->crc_status = (uint8_t)full->fpdu->crc_status;
		b->crc_calc = full->fpdu->crc_calc;
	}
	if (full->note)
		b->note = *full->note;
}
