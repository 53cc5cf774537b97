// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme_track.h - NVMe over Fabrics in the CLI: each connection's PDUs and events
 * go to the core's NVMe view of it (iwarpscope/nvme.h, iws_nvme_conn), which
 * recognises NVMe/RDMA by content and tracks its commands; what the reports
 * need (statistics per qid and op, counts, the slowest commands) is kept
 * here, and every command goes on to env->nvme_cmd (the `nvme` timeline).
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

struct conn_nvme {
	struct iws_nvme_conn *nc;   /* NULL once the connection was found not to be NVMe */
	struct iws_nvme_stats st;   /* per (qid, op) */
	uint64_t commands, incomplete, errors;
	uint64_t awaiting_event;    /* ... of the incomplete: AERs outstanding by design */
	struct iws_nvme_cmd *slow;  /* the NVME_SLOWEST slowest complete commands, slowest first */
	uint32_t nslow;
};

/* The hooks of conn.c (only when env->nvme). */
void conn_nvme_pdu(struct conn *c, const struct iws_pdu *pdu);
void conn_nvme_event(struct conn *c, const struct iws_stream_event *ev);
void conn_nvme_finish(struct conn *c, bool capture_end);
void conn_nvme_free(struct conn *c);
/* Earliest (start_ns, first_frame) of a command still to be reported. */
bool conn_nvme_pending(const struct conn *c, int64_t *ts, uint64_t *frame);

/* Did the connection turn out to carry NVMe/RDMA? */
bool conn_is_nvme(const struct conn *c);
/* Its tracker (info and counts), NULL unless conn_is_nvme(). */
const struct iws_nvme_tracker *conn_nvme_tracker(const struct conn *c);

#endif
