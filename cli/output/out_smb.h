// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_smb.h - the smb writer (out_smb.c): one row per SMB2 request over SMB
 * Direct (items are struct iws_smb), as text, JSON, JSON lines or CSV, and
 * the verdict per connection (docs/semantics.md, "SMB Direct").
 */
#ifndef IWS_CLI_OUT_SMB_H
#define IWS_CLI_OUT_SMB_H

#include <stdio.h>

#include "iwarpscope/smbd.h"
#include "outopts.h"
#include "rows.h"

void smb_out_begin(struct rows_out *w, FILE *f, enum out_format fmt);
struct jsonw;
struct report;
struct conn;
/* A QP's "smb" object in stats (nothing for a QP that is no SMB Direct):
 * verdict, READ/WRITE counts, octets by RDMA and inline, the negotiate
 * messages and the send credits per side. */
void smb_qp_json(struct jsonw *j, const struct conn *c);
/* The same as a text table, after the smb rows and in stats. */
void smb_verdict_text(FILE *f, const struct report *r);

#endif
