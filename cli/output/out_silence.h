// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_silence.h - no iWARP in the capture (out_silence.c): what it holds,
 * why each TCP connection is not iWARP, and what to try.
 */
#ifndef IWS_CLI_OUT_SILENCE_H
#define IWS_CLI_OUT_SILENCE_H

#include <stdio.h>

#include "outreport.h"

/* Every line starts with pre. */
void silence_write(FILE *f, const struct report *r, const char *pre);

#endif
