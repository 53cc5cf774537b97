// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outopts.h - what the writers take from the command line: the output
 * format and the --fail-on findings (options.c parses them).
 */
#ifndef IWS_CLI_OUTOPTS_H
#define IWS_CLI_OUTOPTS_H

#include <stdint.h>

enum out_format { FMT_DEFAULT = 0, FMT_TEXT, FMT_JSON, FMT_JSONL, FMT_CSV };

/* Analysis findings --fail-on can turn into exit status 1. */
#define FAIL_CRC 0x01
#define FAIL_GAP 0x02
#define FAIL_TERMINATE 0x04
#define FAIL_INCOMPLETE 0x08
#define FAIL_DAMAGED 0x10
#define FAIL_MALFORMED 0x20
#define FAIL_ALL 0x3F
/* A doctor finding matched --fail-on's rule ids or severities (not in FAIL_ALL). */
#define FAIL_RULE 0x40

struct out_opts {
	enum out_format format;
	uint64_t fail_rules;        /* --fail-on rule ids: bit per enum iws_rule */
	unsigned fail_severities;   /* --fail-on severities: bit per enum iws_severity */
};

#endif
