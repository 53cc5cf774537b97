// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_ops.h - the ops writer (out_ops.c): one row per RDMA operation (items
 * are struct iws_op) (words.h has the words it shares).
 */
#ifndef IWS_CLI_OUT_OPS_H
#define IWS_CLI_OUT_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iwarpscope/qp.h"
#include "outopts.h"
#include "rows.h"

void ops_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);

#endif
