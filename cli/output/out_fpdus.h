// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_fpdus.h - the fpdus writer (out_fpdus.c): every FPDU as it is decoded.
 */
#ifndef IWS_CLI_OUT_FPDUS_H
#define IWS_CLI_OUT_FPDUS_H

#include <stdbool.h>
#include <stdio.h>

#include "iwarpscope/stream.h"
#include "jsonw.h"

struct conn;
struct points;

struct fpdus_out {
	FILE *f;
	struct jsonw j;
	const struct points *pts;   /* several capture points (NULL: one) */
	bool text;                  /* --format text: a line of words per FPDU */
	bool header;                /* ... its column line written */
};

void fpdus_out_begin(struct fpdus_out *w, FILE *f);
void fpdus_out_write(struct fpdus_out *w, const struct conn *c, const struct iws_pdu *pdu);
void fpdus_out_end(struct fpdus_out *w);

#endif
