// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmdlist.h - the commands and what the command line knows of each: its
 * name and help, the options and formats it accepts, what it turns on and
 * what its timeline orders. options.c parses against it; cmdrun.c reads the
 * flags; commands.c gives each command its stages (commands.h). Adding a
 * command is a row here (cmdlist.c) and a row of stages there.
 */
#ifndef IWS_CLI_CMDLIST_H
#define IWS_CLI_CMDLIST_H

#include "outopts.h"

/* The commands, in the order of the command table (cmdlist.c, commands.c) and of the
 * command list in --help. */
enum command { CMD_SUMMARY = 0, CMD_OPS, CMD_STATS, CMD_FPDUS, CMD_NVME, CMD_REPORT, CMD_DOCTOR, CMD_RPC, CMD_SMB, CMD_COUNT };

/* Bit per command. */
#define CMDBIT(c) (1u << (c))
#define CMD_ALL (CMDBIT(CMD_COUNT) - 1u)

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

struct cmdinfo {
	const char *name;
	const char *what;           /* one line for the command list */
	const char *about;          /* the command's --help */
	unsigned accepts;           /* OPTS_* */
	unsigned formats;           /* FMTBIT()s */
	unsigned flags;             /* CF_* */
	const char *items;          /* what its timeline orders, for warnings */
};

/* The row of a command (NULL past CMD_COUNT). */
const struct cmdinfo *cmdinfo_of(enum command c);

#endif
