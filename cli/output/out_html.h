// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_html.h - the report command's writer (out_html.c): one self-contained
 * HTML page.
 */
#ifndef IWS_CLI_OUT_HTML_H
#define IWS_CLI_OUT_HTML_H

#include <stdio.h>

#include "outreport.h"

struct pagedata;
/* The HTML page of the report command, from the analysis and what
 * pagedata gathered (its sample is consumed). */
void report_write_html(FILE *f, const struct report *r, struct pagedata *p);

#endif
