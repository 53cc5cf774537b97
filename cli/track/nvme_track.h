// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme_track.h - NVMe over Fabrics in the CLI: the stream engine's NVMe
 * stage (iwarpscope/stream.h, iws_stream_nvme_stage; iwarpscope/nvme.h, iws_nvme_conn)
 * recognises NVMe/RDMA by content and tracks its commands; what the reports
 * need (statistics per qid and op, counts, the slowest commands) is kept
 * here, and every command goes on to env->nvme_cmd (the `nvme` timeline).
 * This file reads the connection (conn.h) and its engine; conn.c reaches
 * it only through env->nvme_keep / env->nvme_release (set by analysis.c).
 */
#ifndef IWS_CLI_NVME_TRACK_H
#define IWS_CLI_NVME_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/nvme.h"
#include "iwarpscope/stream.h"

struct conn;

#define NVME_SLOWEST 3
/* Commands the `nvme` timeline holds for ordering by default (--max-reorder). */
#define NVME_REORDER_DEFAULT 16384u

/* With a time window: the octets of a command not yet reported that moved
 * in FPDUs outside it (docs/semantics.md, "Time window"). */
struct nvme_outside {
	uint64_t id;                /* iws_nvme_cmd id */
	uint64_t bytes;             /* RDMA data octets outside */
	bool capsule;               /* its command capsule completed outside (in-capsule data) */
};

struct conn_nvme {
	struct iws_nvme_stats st;   /* per (qid, op) */
	struct nvme_outside *out;   /* with a time window: the commands with octets outside */
	uint32_t nout, capout;
	uint64_t commands, incomplete, errors;
	uint64_t awaiting_event;    /* ... of the incomplete: AERs outstanding by design */
	struct iws_nvme_cmd *slow;  /* the NVME_SLOWEST slowest complete commands, slowest first */
	uint32_t nslow;
};

/* A command of the connection, from the engine's NVMe stage (env->nvme_keep):
 * counted (if env->selected says so) and passed on to env->nvme_cmd. */
void conn_nvme_cmd(struct conn *c, const struct iws_nvme_cmd *cmd);
/* With a time window: an FPDU outside it (env->nvme_outside); the octets of
 * its command it carries (the NVMe stage's note on it) do not count. */
void conn_nvme_outside(struct conn *c, const struct iws_pdu *pdu);
/* Free what was kept (env->nvme_release). */
void conn_nvme_free(struct conn *c);

/* Did the connection turn out to carry NVMe/RDMA? */
bool conn_is_nvme(const struct conn *c);
/* Its tracker (info and counts), NULL unless conn_is_nvme(). */
const struct iws_nvme_tracker *conn_nvme_tracker(const struct conn *c);

#endif
