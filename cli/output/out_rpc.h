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

#endif
