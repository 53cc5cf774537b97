// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commands.h - the command table: one row per command (enum command order)
 * with everything that differs between commands: its name and help, the
 * options and formats it accepts, the stages it sets up (the analysis'
 * hooks, the consumers) and the writer of its report. options.c reads the
 * first part, cmdrun.c runs the rest; adding a command is adding a row
 * (and its hooks, in commands.c).
 */
#ifndef IWS_CLI_COMMANDS_H
#define IWS_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "options.h"

struct cmdrun;

/* What an option applies to beyond every command (optdef.scope in
 * options.c): a command accepts the options of the scopes it lists. */
#define OPTS_OUTPUT_FILE 0x001u  /* -o FILE */
#define OPTS_SORT 0x002u         /* --sort */
#define OPTS_LIMIT 0x004u        /* --limit */
#define OPTS_RULES 0x008u        /* --rules */
#define OPTS_OP 0x010u           /* --op */
#define OPTS_TIME 0x020u         /* --since, --until */
#define OPTS_MIN_LATENCY 0x040u  /* --min-latency */
#define OPTS_RTR 0x080u          /* --include-rtr */
#define OPTS_NO_NVME 0x100u      /* --no-nvme */

/* Bit per enum out_format (the formats a command writes). */
#define FMTBIT(f) (1u << (f))

/* Command flags. */
#define CF_NVME 0x01u            /* the NVMe layer, unless --no-nvme */
#define CF_DOCTOR 0x02u          /* the interop doctor runs */
#define CF_LIVE_OUT 0x04u        /* live: the rolling lines on the report's stream
				  * (unless its items come in start order) */
#define CF_OWN_WARNINGS 0x08u    /* the report shows the problems itself: no
				  * warnings on stderr */

struct cmddef {
	const char *name;
	const char *what;           /* one line for the command list */
	const char *about;          /* the command's --help */
	unsigned accepts;           /* OPTS_* */
	unsigned formats;           /* FMTBIT()s */
	unsigned flags;             /* CF_* */
	const char *items;          /* what its timeline orders, for warnings */
	/* Before analysis_init: the run's mode (p->ordered, p->series_mode)
	 * and the analysis' hooks in ao (NULL: none). */
	void (*plan)(struct cmdrun *p, struct analysis_opts *ao);
	/* After it: the consumers and the writer (NULL: none). */
	void (*begin)(struct cmdrun *p);
	/* The report, on p->out (the report command's page on page when not
	 * NULL). */
	void (*report)(struct cmdrun *p, FILE *page);
};

/* The row of a command. */
const struct cmddef *cmddef_of(enum command c);

#endif
