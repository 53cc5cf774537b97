// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_rpc.h - the rpc writer (out_rpc.c): one row per RPC over RDMA (items
 * are struct iws_rpc), as text, JSON, JSON lines or CSV.
 */
#ifndef IWS_CLI_OUT_RPC_H
#define IWS_CLI_OUT_RPC_H

#include <stdio.h>

#include "iwarpscope/rpcrdma.h"
#include "outopts.h"
#include "rows.h"

void rpc_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);
/* The statistics' rpc section (the total's "rpc" object, the text tables):
 * per (program, version, procedure) over every QP; nothing without RPCs. */
struct jsonw;
struct report;
void rpc_total_json(struct jsonw *j, const struct report *r);
void rpc_stats_text(FILE *f, const struct report *r);
/* Credits over time per connection (RFC 8166 §3.3; docs/semantics.md,
 * "Credit stall"): a QP's "rpc" object in stats, and the text table `rpc`
 * and `stats` print after their rows; nothing for a QP that is no RPC. */
struct conn;
/* The HTML report's "rpc" (null without RPCs): per procedure (label,
 * count, complete, rdma_bytes, latency_ns, think_ns, data_ns) and the
 * slowest complete RPCs with their phases: slow, nslow, as the page data
 * keeps them (pagedata_rpc), their times from origin. */
void rpc_page_json(struct jsonw *j, const struct report *r, const struct iws_rpc *slow, uint32_t nslow,
		   int64_t origin);
void rpc_qp_json(struct jsonw *j, const struct conn *c);
void rpc_credits_text(FILE *f, const struct report *r);

#endif
