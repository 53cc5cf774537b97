// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.h - the command line: `iwarpscope [COMMAND] [OPTIONS] FILE...`
 * (a contract: every option is documented in
 * docs/iwarpscope.1 and by --help).
 */
#ifndef IWS_CLI_OPTIONS_H
#define IWS_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "iwarpscope/qp.h"
#include "cmdlist.h"
#include "outopts.h"
#include "select.h"

#define MAX_QP_FILTER 64


/* --units: how sizes are shown in text (JSON and CSV stay raw integers):
 * binary by default, as storage and RDMA people size their I/O (a 64 KiB
 * message, a 128 KiB NVMe read). */
enum size_units { UNITS_IEC = 0, UNITS_SI };
/* --bw: how rates are shown in text (JSON and CSV stay bit/s, raw). */
enum bw_units { BW_BITS = 0, BW_MBPS, BW_GBPS };

struct options {
	enum command cmd;
	enum out_format format;
	const char **files;
	int nfiles;
	const char *iface;
	bool list_ifaces;           /* -D */
	const char *save;           /* -w: live, save the raw packets here */
	uint64_t stop_count;        /* -c: stop after this many packets (0: never) */
	int64_t stop_after_ns;      /* -a duration:S (0: never) */
	uint64_t stop_filesize;     /* -a filesize:KB, in octets (0: never) */
	bool points;                /* --points: the files are capture points of one traffic */
	const char *bpf;
	int snaplen;
	unsigned interval;          /* live: seconds between short summaries */
	int64_t interval_ns;        /* stats --format csv|jsonl: the series' interval (0: 1 s) */
	bool interval_set;          /* --interval given (live: rolling per-QP lines) */
	enum size_units units;      /* --units */
	int time_unit;              /* --time-unit: 0 automatic, else ns per unit (1, 1000, ...) */
	enum bw_units bw;           /* --bw */
	const char *output;         /* report: the page's file (NULL: standard output) */
	bool check_crc;
	bool no_nvme;               /* --no-nvme: stats, summary, report without the NVMe layer */
	bool progress;
	bool quiet;                 /* -q: no warnings or notes on stderr (errors stay) */
	unsigned fail_on;           /* FAIL_* */
	uint64_t fail_rules;        /* --fail-on rule ids: bit per enum iws_rule */
	unsigned fail_severities;   /* --fail-on severities: bit per enum iws_severity */
	bool allow_unanalysed;      /* --allow-unanalysed: a gate passes what --max-flows left out */
	bool list_rules;            /* doctor --rules: the rule catalogue, and exit */
	/* what every report covers (select.h) */
	uint32_t qps[MAX_QP_FILTER];
	int nqps;
	uint32_t op_mask;           /* bit per enum iws_op_type; 0: all */
	struct tspec since, until;
	bool sort_latency;          /* ops: slowest first (rank.h) */
	uint32_t limit;             /* ops: at most this many; report: drawn; 0: all / default */
	bool has_min_latency;
	int64_t min_latency_ns;     /* ops: only operations that took at least this */
	bool include_rtr;           /* stats, summary: count RTR messages */
	/* limits */
	uint64_t max_ooo_dir, max_ooo_total;
	uint32_t max_inflight;
	uint32_t max_reorder;
	uint64_t max_reasm;
	uint32_t max_flows;
	bool has_jobs;              /* -j N given (else 1) */
	uint32_t jobs;              /* -j: worker threads (0: every processor; jobs.h) */
	uint64_t max_window;        /* --max-window: largest zstd window (octets) */
};

/* The exit statuses (iwarpscope(1), EXIT STATUS). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_FOUND = 1,             /* --fail-on matched */
	EXIT_USAGE = 2,             /* usage error, unreadable input, unwritable output */
	EXIT_UNCHECKED = 3,         /* --fail-on matched nothing, but --max-flows left packets unanalysed */
};

/* 0: run; 1: exit 0 now (--help, --version printed); 2: usage error
 * (message printed on stderr). Global options may come before or after the
 * command: the command is the first word that is not an option or an
 * option's argument, when it names one (`iwarpscope help CMD` and
 * `iwarpscope CMD --help` print that command's help). */
int options_parse(int argc, char **argv, struct options *o);
/* Free what options_parse allocated. */
void options_free(struct options *o);

const char *command_name(enum command c);

/* What --qp, --op, --since and --until select (select_init's input; it
 * points into o). */
struct select_spec options_select(const struct options *o);

const char *format_name(enum out_format f);

#endif
