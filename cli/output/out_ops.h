// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_ops.h - the ops writer (out_ops.c): one row per RDMA operation (items
 * are struct iws_op), and the words it shares with the other writers.
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

struct conn;
/* "addr:port" of the initiator (dir IWS_DIR_I2R) or responder of c. */
const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf);
/* Where an operation's time went, in words (the slowest lists). */
const char *op_why(char *buf, size_t n, const struct iws_op *op);

#endif
