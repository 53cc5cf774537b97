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

#endif
