// SPDX-License-Identifier: GPL-2.0-or-later
/* Command-line parsing (see options.h). */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iwarpscope/rules.h"
#include "iwarpscope/status.h"


enum {
	OPT_QP = 256, OPT_OP, OPT_SINCE, OPT_UNTIL, OPT_NO_CRC, OPT_FAIL_ON, OPT_MAX_OOO,
	OPT_MAX_OOO_TOTAL, OPT_MAX_INFLIGHT, OPT_MAX_REORDER, OPT_NO_PROGRESS, OPT_INTERVAL,
	OPT_MAX_REASM, OPT_MAX_FLOWS, OPT_SORT, OPT_LIMIT, OPT_MIN_LATENCY,
	OPT_INCLUDE_RTR, OPT_POINTS, OPT_UNITS, OPT_TIME_UNIT, OPT_NO_NVME, OPT_RULES,
	OPT_MAX_WINDOW, OPT_ALLOW_UNANALYSED, OPT_BW,
};

enum group { G_INPUT, G_LIVE, G_OUTPUT, G_SELECT, G_ANALYSIS, G_OTHER, G_N };
static const char *const group_title[G_N] = {
	"Input", "Live capture", "Output", "Selection (what the report covers)", "Analysis", "",
};

/* Every option: its names, the commands it applies to (scope: 0 for every
 * command, else an OPTS_* bit the commands that accept it list in the
 * command table), its help. */
static const struct optdef {
	const char *name;           /* long name (NULL: short only) */
	int key;                    /* short option character or OPT_* */
	const char *arg;            /* NULL: no argument */
	enum group group;
	unsigned scope;             /* 0 or OPTS_* */
	const char *help;           /* '\n' starts a continuation line */
} optdefs[] = {
	{ "read", 'r', "FILE", G_INPUT, 0, "read FILE (same as naming it; may repeat)" },
	{ "points", OPT_POINTS, NULL, G_INPUT, 0,
	  "the files are capture points of the same traffic (found\n"
	  "anyway when two files hold identical segments): each\n"
	  "segment once, one-way times, where loss happened" },
	{ "filter", 'f', "EXPR", G_INPUT, 0, "BPF filter (frame numbers are not renumbered)" },
	{ "max-window", OPT_MAX_WINDOW, "BYTES", G_INPUT, 0,
	  "largest zstd window read (128M; a power of two):\n"
	  "the memory one zstd file's decoder holds; the decoders\n"
	  "of files that overlap in time hold 2 x (BYTES + 1M)\n"
	  "together (258M), past that the rest of a file is\n"
	  "decompressed into $TMPDIR (else /tmp) and read there" },
	{ "interface", 'i', "IF", G_LIVE, 0,
	  "capture live on IF; the full report on Ctrl-C (SIGINT),\n"
	  "SIGTERM or a stop condition (-c, -a)" },
	{ NULL, 'D', NULL, G_LIVE, 0, "list the interfaces -i can capture on, and exit" },
	{ "write", 'w', "FILE", G_LIVE, 0,
	  "live: also save every captured packet to FILE (pcap)" },
	{ "count", 'c', "N", G_INPUT, 0,
	  "only the first N frames of the files (as tshark -c);\n"
	  "live: stop after N packets" },
	{ "autostop", 'a', "COND", G_LIVE, 0,
	  "live: stop after duration:SECONDS, or when -w FILE has\n"
	  "reached filesize:KB (kB of 1000 octets, as tshark);\n"
	  "may repeat" },
	{ "interval", OPT_INTERVAL, "DURATION", G_LIVE, 0,
	  "live: rolling per-QP lines every DURATION (default\n"
	  "5s); stats csv/jsonl: the series' interval (default 1s):\n"
	  "100ms, 1s, 2.5 (seconds)" },
	{ "snaplen", 's', "N", G_LIVE, 0, "live capture snapshot length (default 262144)" },
	{ "format", 'T', "FMT", G_OUTPUT, 0, "text, json, jsonl or csv (what a command supports)" },
	{ "output", 'o', "FILE", G_OUTPUT, OPTS_OUTPUT_FILE,
	  "report: write the page to FILE (default: standard output)" },
	{ "units", OPT_UNITS, "iec|si", G_OUTPUT, 0,
	  "sizes in KiB/MiB/GiB (iec, default) or kB/MB/GB\n"
	  "(si); rates stay bit/s (--bw); JSON and CSV carry\n"
	  "raw integers (octets)" },
	{ "bw", OPT_BW, "UNIT", G_OUTPUT, 0,
	  "text rates in bit/s with a prefix that reads well\n"
	  "(bits, default), MiB/s: perftest's MB/sec, 2^20\n"
	  "(MBps), or Gbit/s (Gbps, perftest --report_gbits);\n"
	  "tables add operations per second (perftest's MsgRate)" },
	{ "time-unit", OPT_TIME_UNIT, "UNIT", G_OUTPUT, 0,
	  "text durations all in ns, us, ms or s (default: one\n"
	  "unit per table column, chosen to read well); JSON and\n"
	  "CSV carry raw integers (ns)" },
	{ "sort", OPT_SORT, "KEY", G_OUTPUT, OPTS_SORT,
	  "ops: 'start' (default) or 'latency': slowest first, by\n"
	  "latency_ns (reads, atomics) or else ack_ns (delivery)" },
	{ "limit", OPT_LIMIT, "N", G_OUTPUT, OPTS_LIMIT,
	  "ops: at most N operations; report: at most N drawn on\n"
	  "the timeline (default 10000)" },
	{ "no-progress", OPT_NO_PROGRESS, NULL, G_OUTPUT, 0, "never show the progress bar" },
	{ "quiet", 'q', NULL, G_OUTPUT, 0,
	  "no progress bar and no warnings or notes on standard\n"
	  "error (they stay in the report); errors still shown" },
	{ "rules", OPT_RULES, NULL, G_OUTPUT, OPTS_RULES,
	  "doctor: list the rules it checks (no capture needed;\n"
	  "--format json is the source of docs/rules.md)" },
	{ "qp", OPT_QP, "LIST", G_SELECT, 0,
	  "only these QPs (comma-separated tcp.stream numbers)" },
	{ "op", OPT_OP, "LIST", G_SELECT, OPTS_OP,
	  "only these operation types (@OPS@)" },
	{ "since", OPT_SINCE, "TIME", G_SELECT, OPTS_TIME,
	  "a time window from TIME: what happened inside it,\n"
	  "operations overlapping it (their part inside)" },
	{ "until", OPT_UNTIL, "TIME", G_SELECT, OPTS_TIME,
	  "... to before TIME;\n"
	  "TIME: +SECONDS from the first frame, HH:MM:SS[.frac],\n"
	  "'YYYY-MM-DD HH:MM:SS[.frac]' (local time, TZ), @EPOCH" },
	{ NULL, 'Y', "FILTER", G_SELECT, 0,
	  "tshark's display filter: not taken (exit 2); --qp,\n"
	  "--op, --since and --until select QPs, operation types\n"
	  "and times, --filter (BPF) frames" },
	{ "min-latency", OPT_MIN_LATENCY, "DURATION", G_SELECT, OPTS_MIN_LATENCY,
	  "ops: only operations that took at least DURATION\n"
	  "(latency_ns, else ack_ns): 500us, 2ms, 1.5s" },
	{ "include-rtr", OPT_INCLUDE_RTR, NULL, G_SELECT, OPTS_RTR,
	  "count the RTR messages of a peer-to-peer set-up\n"
	  "(listed by ops, flagged)" },
	{ "no-crc-check", OPT_NO_CRC, NULL, G_ANALYSIS, 0, "do not verify MPA CRCs" },
	{ "jobs", 'j', "N", G_ANALYSIS, 0,
	  "analyse on N threads, connections spread over them\n"
	  "(1; 0: every processor); the output is the same.\n"
	  "Only stats (text) and doctor of files use them: other\n"
	  "runs, and one whose connections shared a limit, read\n"
	  "on one (docs/performance.md)" },
	{ "no-nvme", OPT_NO_NVME, NULL, G_ANALYSIS, OPTS_NO_NVME,
	  "do not look for NVMe over Fabrics (no NVMe sections)" },
	{ "fail-on", OPT_FAIL_ON, "LIST", G_ANALYSIS, 0,
	  "exit 1 if the capture shows any of: crc, gap,\n"
	  "terminate, incomplete, damaged, malformed, all; or\n"
	  "breaks a doctor rule: its id (mpa.rtr_mismatch) or a\n"
	  "severity (error, deviation, performance); exit 3\n"
	  "if nothing matched but --max-flows left connections\n"
	  "or packets unanalysed" },
	{ "allow-unanalysed", OPT_ALLOW_UNANALYSED, NULL, G_ANALYSIS, 0,
	  "--fail-on: pass (exit 0, not 3) though --max-flows\n"
	  "left connections or packets unanalysed" },
	{ "max-ooo", OPT_MAX_OOO, "BYTES", G_ANALYSIS, 0, "out-of-order buffer per direction (16M)" },
	{ "max-ooo-total", OPT_MAX_OOO_TOTAL, "BYTES", G_ANALYSIS, 0,
	  "out-of-order buffer for all connections (64M)" },
	{ "max-reasm", OPT_MAX_REASM, "BYTES", G_ANALYSIS, 0,
	  "FPDU reassembly and resync buffers, all connections\n(64M)" },
	{ "max-flows", OPT_MAX_FLOWS, "N", G_ANALYSIS, 0, "connections analysed at once (32768)" },
	{ "max-inflight", OPT_MAX_INFLIGHT, "N", G_ANALYSIS, 0, "operations in flight per QP (65536)" },
	{ "max-reorder", OPT_MAX_REORDER, "N", G_ANALYSIS, 0,
	  "finished operations (commands) held for ordering\n"
	  "(ops and stats series 200000, nvme 16384)" },
	{ "help", 'h', NULL, G_OTHER, 0, "this text (after a command: that command's)" },
	{ "version", 'V', NULL, G_OTHER, 0,
	  "version (tshark's -V, every packet's detail, is the\n"
	  "ops command: every operation; fpdus: every FPDU)" },
	{ NULL, 'n', NULL, G_OTHER, 0,
	  "accepted as tshark's: names are never resolved here" },
};
#define NOPTDEFS (sizeof(optdefs) / sizeof(optdefs[0]))

/* The commands an option applies to (CMDBIT()s). */
static unsigned opt_cmds(const struct optdef *d)
{
	unsigned mask = 0;
	for (int c = 0; c < CMD_COUNT; c++)
		if (!d->scope || (cmdinfo_of((enum command)c)->accepts & d->scope))
			mask |= CMDBIT(c);
	return mask;
}

struct select_spec options_select(const struct options *o)
{
	return (struct select_spec){ o->qps, o->nqps, o->op_mask, o->since, o->until };
}

const char *command_name(enum command c)
{
	return (unsigned)c < CMD_COUNT ? cmdinfo_of(c)->name : "?";
}

/* "write, read, ...": the operation names of names.h, for --op's help. */
static void op_names(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int t = 0; t < IWS_OPT_COUNT && n < len; t++) {
		int k = snprintf(buf + n, len - n, "%s%s", t ? "," : "",
				 iws_op_type_name((enum iws_op_type)t));
		if (k > 0)
			n += (size_t)k;
	}
}

/* "  -r, --read FILE    read FILE..." with continuation lines under the
 * text (long comma lists wrapped after a comma). */
static void print_opt(FILE *f, const struct optdef *d)
{
	enum { COL = 21 };
	char head[64], ops[256], text[512];
	int n;
	if (d->key >= 256)
		n = snprintf(head, sizeof(head), "      --%s%s%s", d->name, d->arg ? " " : "",
			     d->arg ? d->arg : "");
	else if (d->name)
		n = snprintf(head, sizeof(head), "  -%c, --%s%s%s", d->key, d->name, d->arg ? " " : "",
			     d->arg ? d->arg : "");
	else
		n = snprintf(head, sizeof(head), "  -%c%s%s", d->key, d->arg ? " " : "",
			     d->arg ? d->arg : "");
	const char *h = d->help;
	const char *at = strstr(h, "@OPS@");
	if (at) {
		op_names(ops, sizeof(ops));
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - h), h, ops, at + 5);
		h = text;
	}
	fputs(head, f);
	if (n + 1 > COL) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", COL - n, "");
	int width = 0;
	for (const char *p = h; *p; p++) {
		if (*p == '\n' || (width > 48 && p > h && p[-1] == ',')) {
			fprintf(f, "\n%*s", COL, "");
			width = 0;
			if (*p == '\n')
				continue;
		}
		fputc(*p, f);
		width++;
	}
	fputc('\n', f);
}

/* The whole help (cmd < 0) or one command's: its options only. */
static void print_help(FILE *f, int cmd)
{
	unsigned mask = cmd < 0 ? CMD_ALL : CMDBIT(cmd);
	if (cmd < 0) {
		fputs("Usage: iwarpscope [COMMAND] [OPTIONS] FILE...\n"
		      "       iwarpscope [COMMAND] [OPTIONS] -i INTERFACE\n"
		      "       iwarpscope COMMAND --help\n"
		      "\n"
		      "Reads iWARP (MPA/DDP/RDMAP over TCP) traffic from pcap/pcapng captures\n"
		      "('-' reads stdin; several files are merged by time; gzip and zstd files are\n"
		      "read as they are; a quoted pattern or a directory names a rotated set) and\n"
		      "reports what every queue pair (TCP connection) did, when, and how long it took.\n"
		      "Options may come before or after the command.\n"
		      "\n"
		      "Commands:\n", f);
		for (int i = 0; i < CMD_COUNT; i++) {
			fprintf(f, "  %-19s", cmdinfo_of((enum command)i)->name);
			for (const char *w = cmdinfo_of((enum command)i)->what; *w; w++)
				if (*w == '\n')
					fprintf(f, "\n%21s", "");
				else
					fputc(*w, f);
			fputc('\n', f);
		}
		/* merge reads statistics, not captures (merge.c has its options) */
		fputs("  merge              combine `stats --format json` of several captures or\n"
		      "                     hosts into one report (merge --help)\n", f);
	} else {
		fprintf(f, "Usage: iwarpscope %s [OPTIONS] FILE...\n"
			   "       iwarpscope %s [OPTIONS] -i INTERFACE\n\n%s",
			cmdinfo_of(cmd)->name, cmdinfo_of(cmd)->name, cmdinfo_of(cmd)->about);
	}
	for (int g = 0; g < G_N; g++) {
		bool any = false;
		for (size_t i = 0; i < NOPTDEFS; i++) {
			if (optdefs[i].group != (enum group)g || !(opt_cmds(&optdefs[i]) & mask))
				continue;
			if (!any)
				fprintf(f, "\n%s%s", group_title[g], group_title[g][0] ? ":\n" : "");
			any = true;
			print_opt(f, &optdefs[i]);
		}
	}
	fputs("\nExit status: 0 ok, 1 --fail-on matched, 2 usage error or unreadable input,\n"
	      "3 --fail-on matched nothing in what it checked but --max-flows left part of\n"
	      "the capture unanalysed (--allow-unanalysed: 0). See iwarpscope(1).\n", f);
}

/* The command once known: usage errors point to its help. */
static const char *hint_cmd;

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "iwarpscope: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'iwarpscope %s%s--help')\n", hint_cmd ? hint_cmd : "", hint_cmd ? " " : "");
	return 2;
}

const char *format_name(enum out_format f)
{
	switch (f) {
	case FMT_TEXT:
		return "text";
	case FMT_JSON:
		return "json";
	case FMT_JSONL:
		return "jsonl";
	case FMT_CSV:
		return "csv";
	default:
		return "default";
	}
}

/* "16M", "512k", "1G", "4096" */
static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	uint64_t mul = 1;
	switch (toupper((unsigned char)*end)) {
	case 0:
		break;
	case 'K':
		mul = 1ull << 10;
		end++;
		break;
	case 'M':
		mul = 1ull << 20;
		end++;
		break;
	case 'G':
		mul = 1ull << 30;
		end++;
		break;
	default:
		return false;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v > UINT64_MAX / mul)
		return false;
	*out = v * mul;
	return true;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Seconds with an optional fraction, into ns. */
static bool parse_secs(const char *s, int64_t *ns, const char **rest)
{
	char *end;
	errno = 0;
	long long whole = strtoll(s, &end, 10);
	/* (beyond about 292 years the nanoseconds do not fit) */
	if (errno || end == s || whole > INT64_MAX / 1000000000 - 1 || whole < -(INT64_MAX / 1000000000 - 1))
		return false;
	int64_t frac = 0;
	if (*end == '.') {
		int64_t scale = 100000000;
		for (end++; isdigit((unsigned char)*end); end++) {
			frac += (*end - '0') * scale;
			scale /= 10;
		}
	}
	*ns = (int64_t)whole * 1000000000 + (whole < 0 ? -frac : frac);
	*rest = end;
	return true;
}

/* A duration: a number with a unit (ns, us, ms, s; a bare number is
 * seconds), into ns. */
static bool parse_duration(const char *s, int64_t *ns)
{
	const char *rest;
	int64_t v;
	if (*s == '-' || !parse_secs(s, &v, &rest))
		return false;
	if (strcmp(rest, "ns") == 0)
		v /= 1000000000;
	else if (strcmp(rest, "us") == 0 || strcmp(rest, "\xc2\xb5s") == 0)
		v /= 1000000;
	else if (strcmp(rest, "ms") == 0)
		v /= 1000;
	else if (*rest && strcmp(rest, "s") != 0)
		return false;
	*ns = v;
	return true;
}

/* A time of day: 00:00:00 to 23:59:60.999... (a leap second). */
static bool clock_ok(int h, int mi, int64_t sec_ns)
{
	return h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && sec_ns >= 0 && sec_ns < 61000000000;
}

static bool parse_time(const char *s, struct tspec *t)
{
	const char *rest;
	int64_t ns;
	if (*s == '+') {
		if (!parse_secs(s + 1, &ns, &rest))
			return false;
		if (strcmp(rest, "ms") == 0)
			ns /= 1000;
		else if (strcmp(rest, "us") == 0)
			ns /= 1000000;
		else if (*rest && strcmp(rest, "s") != 0)
			return false;
		t->kind = TS_REL;
		t->ns = ns;
		return true;
	}
	if (*s == '@') {
		if (!parse_secs(s + 1, &ns, &rest) || *rest)
			return false;
		t->kind = TS_ABS;
		t->ns = ns;
		return true;
	}
	int y, mo, d, h, mi, n = 0;
	if (sscanf(s, "%4d-%2d-%2d%*1[ T]%2d:%2d:%n", &y, &mo, &d, &h, &mi, &n) == 5 && n > 0) {
		if (!parse_secs(s + n, &ns, &rest) || *rest || !clock_ok(h, mi, ns) || mo < 1 ||
		    mo > 12 || d < 1 || d > 31)
			return false;
		struct tm tm;
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_isdst = -1;
		time_t base = mktime(&tm);
		int64_t v;
		/* mktime moves a day past the month's end (02-31) on: refused */
		if (tm.tm_mday != d || tm.tm_mon != mo - 1)
			return false;
		/* (a date past 2262 does not fit in 64-bit nanoseconds) */
		if (base == (time_t)-1 || __builtin_mul_overflow((int64_t)base, 1000000000, &v) ||
		    __builtin_add_overflow(v, ns, &v))
			return false;
		t->kind = TS_ABS;
		t->ns = v;
		return true;
	}
	n = 0;
	if (sscanf(s, "%2d:%2d:%n", &h, &mi, &n) == 2 && n > 0) {
		if (!parse_secs(s + n, &ns, &rest) || *rest || !clock_ok(h, mi, ns))
			return false;
		t->kind = TS_CLOCK;
		t->ns = ((int64_t)h * 3600 + mi * 60) * 1000000000 + ns;
		return true;
	}
	return false;
}

static int parse_list(char *arg, struct options *o, int which)
{
	/* A list that names nothing ("", ","): most often a variable left
	 * unset, which must not turn a --fail-on gate off or widen --qp and
	 * --op to everything without a word. */
	if (!arg[strspn(arg, ",")])
		return usage_error("%s: an empty list (an unset variable?): name at least one",
				   which == OPT_QP ? "--qp" : which == OPT_OP ? "--op" : "--fail-on");
	for (char *save = NULL, *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (which == OPT_QP) {
			uint32_t v;
			if (!parse_u32(tok, &v))
				return usage_error("--qp wants tcp.stream numbers, not '%s'", tok);
			if (o->nqps == MAX_QP_FILTER)
				return usage_error("--qp: at most 64 QPs");
			o->qps[o->nqps++] = v;
		} else if (which == OPT_OP) {
			int t = iws_op_type_from_name(tok);
			if (t < 0) {
				char names[256];
				op_names(names, sizeof(names));
				return usage_error("--op: unknown operation type '%s' (one of: %s)", tok, names);
			}
			o->op_mask |= 1u << t;
		} else {
			static const struct {
				const char *name;
				unsigned bit;
			} fails[] = {
				{ "crc", FAIL_CRC },           { "gap", FAIL_GAP },
				{ "terminate", FAIL_TERMINATE }, { "incomplete", FAIL_INCOMPLETE },
				{ "damaged", FAIL_DAMAGED },   { "malformed", FAIL_MALFORMED },
				{ "all", FAIL_ALL },           { "any", FAIL_ALL },
			};
			unsigned bit = 0;
			for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++)
				if (strcmp(tok, fails[i].name) == 0)
					bit = fails[i].bit;
			/* the doctor's rule ids and severities (iwarpscope/rules.h) */
			int rule = iws_rule_from_id(tok), sev = iws_severity_from_name(tok);
			if (rule >= 0)
				o->fail_rules |= 1ull << rule;
			else if (sev >= 0)
				o->fail_severities |= 1u << sev;
			else if (!bit)
				return usage_error("--fail-on: unknown condition or rule '%s' (iwarpscope doctor --rules)",
						   tok);
			o->fail_on |= bit;
		}
	}
	return 0;
}

static bool set_format(struct options *o, const char *s)
{
	if (strcmp(s, "text") == 0)
		o->format = FMT_TEXT;
	else if (strcmp(s, "json") == 0)
		o->format = FMT_JSON;
	else if (strcmp(s, "jsonl") == 0)
		o->format = FMT_JSONL;
	else if (strcmp(s, "csv") == 0)
		o->format = FMT_CSV;
	else
		return false;
	return true;
}

/* Which formats a command writes. */
static bool format_ok(enum command c, enum out_format f)
{
	return (cmdinfo_of(c)->formats & FMTBIT(f)) != 0;
}

/* -a duration:SECONDS | filesize:KB */
static bool parse_autostop(const char *s, struct options *o)
{
	uint64_t v;
	if (strncmp(s, "duration:", 9) == 0) {
		int64_t ns;
		if (!parse_duration(s + 9, &ns) || ns <= 0)
			return false;
		o->stop_after_ns = ns;
		return true;
	}
	if (strncmp(s, "filesize:", 9) == 0) {
		if (!parse_size(s + 9, &v) || !v || v > UINT64_MAX / 1000)
			return false;
		o->stop_filesize = v * 1000;
		return true;
	}
	return false;
}

static const struct optdef *optdef_of(int key)
{
	for (size_t i = 0; i < NOPTDEFS; i++)
		if (optdefs[i].key == key)
			return &optdefs[i];
	return NULL;
}

/* The option as the user wrote it, for messages. */
static const char *opt_label(const struct optdef *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "--%s", d->name);
	else
		snprintf(buf, len, "-%c", d->key);
	return buf;
}

/* "ops, report" */
static const char *cmd_list(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < CMD_COUNT && n < len; i++)
		if (mask & CMDBIT(i)) {
			int k = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", cmdinfo_of((enum command)i)->name);
			if (k > 0)
				n += (size_t)k;
		}
	return buf;
}

static int command_of(const char *word)
{
	for (int i = 0; i < CMD_COUNT; i++)
		if (strcmp(word, cmdinfo_of((enum command)i)->name) == 0)
			return i;
	return -1;
}

void options_free(struct options *o)
{
	free(o->files);
	o->files = NULL;
}

/* An option handler's answer for an option of another handler. */
#define NOT_MINE (-1)

/* What parsing finds besides struct options. */
struct parse_state {
	bool given[NOPTDEFS];       /* options given: do they apply to the command? */
	bool help, version;
};

/* The options that take no checking: flags and names. */
static int set_plain(int ch, char *arg, struct options *o, struct parse_state *st)
{
	switch (ch) {
	case 'r':
		o->files[o->nfiles++] = arg;
		break;
	case 'f':
		o->bpf = arg;
		break;
	case 'i':
		o->iface = arg;
		break;
	case 'D':
		o->list_ifaces = true;
		break;
	case 'w':
		o->save = arg;
		break;
	case 'o':
		o->output = arg;
		break;
	case 'h':
		st->help = true;
		break;
	case 'V':
		st->version = true;
		break;
	case 'n':
		break;  /* tshark's "no name resolution": there is none to turn off */
	case 'q':
		o->progress = false;
		o->quiet = true;
		break;
	case 'Y':
		return usage_error("-Y (a display filter) is not taken: select with --qp LIST (tcp.stream "
				   "numbers), --op LIST (operation types), --since/--until TIME, and frames with "
				   "--filter EXPR (BPF)");
	case OPT_NO_CRC:
		o->check_crc = false;
		break;
	case OPT_NO_NVME:
		o->no_nvme = true;
		break;
	case OPT_NO_PROGRESS:
		o->progress = false;
		break;
	case OPT_INCLUDE_RTR:
		o->include_rtr = true;
		break;
	case OPT_RULES:
		o->list_rules = true;
		break;
	case OPT_POINTS:
		o->points = true;
		break;
	case OPT_ALLOW_UNANALYSED:
		o->allow_unanalysed = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* Live capture: -c, -a, -s, --interval. */
static int set_live(int ch, const char *arg, struct options *o)
{
	uint64_t sz;
	switch (ch) {
	case 'c':
		if (!parse_size(arg, &o->stop_count) || !o->stop_count)
			return usage_error("bad packet count '%s'", arg);
		break;
	case 'a':
		if (!parse_autostop(arg, o))
			return usage_error("bad stop condition '%s' (duration:SECONDS or filesize:KB)", arg);
		break;
	case 's':
		if (!parse_size(arg, &sz) || sz == 0 || sz > 262144)
			return usage_error("bad snapshot length '%s'", arg);
		o->snaplen = (int)sz;
		break;
	case OPT_INTERVAL:
		/* A duration; a bare number is seconds, as it always was. */
		if (!parse_duration(arg, &o->interval_ns) || o->interval_ns <= 0)
			return usage_error("bad interval '%s' (e.g. 100ms, 1s, 5)", arg);
		o->interval = o->interval_ns > 86400ll * 1000000000 ? 86400u
			      : (unsigned)((o->interval_ns + 999999999) / 1000000000);
		o->interval_set = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* --time-unit UNIT */
static int set_time_unit(const char *arg, struct options *o)
{
	static const struct {
		const char *name;
		int ns;
	} tu[] = { { "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 }, { "ms", 1000000 },
		   { "s", 1000000000 }, { "auto", 0 } };
	int k = -1;
	for (int i = 0; i < (int)(sizeof(tu) / sizeof(tu[0])); i++)
		if (strcmp(arg, tu[i].name) == 0)
			k = i;
	if (k < 0)
		return usage_error("--time-unit: ns, us, ms, s or auto, not '%s'", arg);
	o->time_unit = tu[k].ns;
	return 0;
}

/* How the report is written: -T, --units, --time-unit, --sort, --limit. */
static int set_output(int ch, const char *arg, struct options *o)
{
	switch (ch) {
	case 'T':
		if (!set_format(o, arg))
			return usage_error("unknown format '%s' (text, json, jsonl, csv)", arg);
		break;
	case OPT_UNITS:
		if (strcmp(arg, "si") == 0)
			o->units = UNITS_SI;
		else if (strcmp(arg, "iec") == 0)
			o->units = UNITS_IEC;
		else
			return usage_error("--units: 'iec' or 'si', not '%s'", arg);
		break;
	case OPT_TIME_UNIT:
		return set_time_unit(arg, o);
	case OPT_BW:
		if (strcmp(arg, "bits") == 0)
			o->bw = BW_BITS;
		else if (strcmp(arg, "MBps") == 0)
			o->bw = BW_MBPS;
		else if (strcmp(arg, "Gbps") == 0)
			o->bw = BW_GBPS;
		else
			return usage_error("--bw: bits, MBps or Gbps, not '%s'", arg);
		break;
	case OPT_SORT:
		if (strcmp(arg, "latency") == 0)
			o->sort_latency = true;
		else if (strcmp(arg, "start") == 0)
			o->sort_latency = false;
		else
			return usage_error("--sort: 'start' or 'latency', not '%s'", arg);
		break;
	case OPT_LIMIT:
		if (!parse_u32(arg, &o->limit) || !o->limit)
			return usage_error("bad count '%s'", arg);
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* What the report covers, and --fail-on: --qp, --op, --fail-on, --since,
 * --until, --min-latency. */
static int set_select(int ch, char *arg, struct options *o)
{
	switch (ch) {
	case OPT_QP:
	case OPT_OP:
	case OPT_FAIL_ON:
		return parse_list(arg, o, ch);
	case OPT_SINCE:
	case OPT_UNTIL:
		if (!parse_time(arg, ch == OPT_SINCE ? &o->since : &o->until))
			return usage_error("bad time '%s' (+SECONDS, HH:MM:SS[.frac], 'YYYY-MM-DD "
					   "HH:MM:SS[.frac]' or @EPOCH)", arg);
		break;
	case OPT_MIN_LATENCY:
		if (!parse_duration(arg, &o->min_latency_ns))
			return usage_error("bad duration '%s' (e.g. 500us, 2ms, 1.5s)", arg);
		o->has_min_latency = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The analysis' limits: --max-*. */
static int set_limit(int ch, const char *arg, struct options *o)
{
	/* the sizes (octets) and the counts, with their fields */
	uint64_t *size = ch == OPT_MAX_OOO ? &o->max_ooo_dir : ch == OPT_MAX_OOO_TOTAL ? &o->max_ooo_total
						: ch == OPT_MAX_REASM ? &o->max_reasm : NULL;
	uint32_t *count = ch == OPT_MAX_INFLIGHT ? &o->max_inflight : ch == OPT_MAX_FLOWS ? &o->max_flows
						: ch == OPT_MAX_REORDER ? &o->max_reorder : NULL;
	if (ch == 'j') {
		if (!parse_u32(arg, &o->jobs) || o->jobs > 64)
			return usage_error("bad job count '%s' (0 to 64)", arg);
		o->has_jobs = true;
	} else if (size) {
		if (!parse_size(arg, size) || !*size)
			return usage_error("bad size '%s'", arg);
	} else if (count) {
		if (!parse_u32(arg, count) || !*count)
			return usage_error("bad count '%s'", arg);
	} else if (ch == OPT_MAX_WINDOW) {
		/* zstd windows are 1 KiB .. 2 GiB (RFC 8878 §3.1.1.1.2) */
		if (!parse_size(arg, &o->max_window) || o->max_window < 1024 || o->max_window > (2ull << 30))
			return usage_error("bad window size '%s' (1K to 2G)", arg);
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* One option: 0, 2 (a usage error, printed) or NOT_MINE (unknown). */
static int set_option(int ch, char *arg, struct options *o, struct parse_state *st)
{
	int rc = set_plain(ch, arg, o, st);
	if (rc == NOT_MINE)
		rc = set_live(ch, arg, o);
	if (rc == NOT_MINE)
		rc = set_output(ch, arg, o);
	if (rc == NOT_MINE)
		rc = set_select(ch, arg, o);
	if (rc == NOT_MINE)
		rc = set_limit(ch, arg, o);
	return rc;
}

/* The defaults; false: out of memory. */
static bool set_defaults(struct options *o, int argc)
{
	memset(o, 0, sizeof(*o));
	hint_cmd = NULL;
	o->check_crc = true;
	o->progress = true;
	o->interval = 5;
	o->max_window = 128u << 20; /* libzstd's own default limit (2^27) */
	o->files = calloc((size_t)argc + 1, sizeof(*o->files));
	return o->files != NULL;
}

/* getopt's tables from optdefs. */
static void getopt_tables(struct option *long_opts, char *shorts)
{
	size_t nl = 0, ns = 0;
	shorts[ns++] = ':';
	for (size_t i = 0; i < NOPTDEFS; i++) {
		const struct optdef *d = &optdefs[i];
		if (d->name)
			long_opts[nl++] = (struct option){ d->name, d->arg ? required_argument : no_argument,
							   NULL, d->key };
		if (d->key < 256) {
			shorts[ns++] = (char)d->key;
			if (d->arg)
				shorts[ns++] = ':';
		}
	}
	long_opts[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
}

/* Every option of the command line; 0 or 2 (a usage error, printed). */
static int read_options(int argc, char **argv, struct options *o, struct parse_state *st)
{
	struct option long_opts[NOPTDEFS + 1];
	char shorts[2 * NOPTDEFS + 2];
	getopt_tables(long_opts, shorts);
	/* getopt_long permutes, so files, options and the command may be mixed.
	 * optind 0 makes glibc start afresh (the fuzz harness and the tests
	 * parse many command lines in one process). */
	optind = 0;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		const struct optdef *d = optdef_of(ch);
		if (d)
			st->given[d - optdefs] = true;
		if (ch == ':')
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		int rc = set_option(ch, optarg, o, st);
		if (rc == NOT_MINE)
			return usage_error("unknown option '%s'", argv[optind - 1]);
		if (rc)
			return rc;
	}
	return 0;
}

/* The command: the first word left at *i, when it names one ("help" and
 * "version" too; `help CMD` is CMD's help); -1: none (*i past the words
 * taken). */
static int command_word(int argc, char **argv, int *i, struct parse_state *st)
{
	int cmd = -1;
	if (*i >= argc)
		return -1;
	if (strcmp(argv[*i], "help") == 0) {
		st->help = true;
		(*i)++;
		if (*i < argc)
			cmd = command_of(argv[(*i)++]);
	} else if (strcmp(argv[*i], "version") == 0) {
		st->version = true;
		(*i)++;
	} else if ((cmd = command_of(argv[*i])) >= 0) {
		(*i)++;
	}
	return cmd;
}

/* Every option given applies to the command, and they go together. */
static int check_options(const struct options *o, const struct parse_state *st)
{
	for (size_t k = 0; k < NOPTDEFS; k++) {
		char lab[32], cmds[64];
		if (st->given[k] && !(opt_cmds(&optdefs[k]) & CMDBIT(o->cmd)))
			return usage_error("%s does not apply to the %s command (it applies to: %s)",
					   opt_label(&optdefs[k], lab, sizeof(lab)), command_name(o->cmd),
					   cmd_list(opt_cmds(&optdefs[k]), cmds, sizeof(cmds)));
	}
	if (o->iface && o->nfiles)
		return usage_error("give capture files or -i, not both");
	if (!o->iface && !o->nfiles)
		return usage_error("no capture file given");
	if (!o->iface && (o->save || o->stop_after_ns || o->stop_filesize))
		return usage_error("-w and -a apply to a live capture (-i); -c N reads the first N frames of files");
	if (o->stop_filesize && !o->save)
		return usage_error("-a filesize:KB needs -w FILE");
	if (o->points && (o->iface || o->nfiles < 2))
		return usage_error("--points needs two capture files (or sets) or more");
	if (!format_ok(o->cmd, o->format))
		return usage_error("the %s command does not write %s", command_name(o->cmd),
				   format_name(o->format));
	return 0;
}

int options_parse(int argc, char **argv, struct options *o)
{
	if (!set_defaults(o, argc))
		return usage_error("out of memory");
	struct parse_state st;
	memset(&st, 0, sizeof(st));
	int rc = read_options(argc, argv, o, &st);
	if (rc)
		return rc;
	int i = optind;
	int cmd = command_word(argc, argv, &i, &st);
	o->cmd = cmd < 0 ? CMD_SUMMARY : (enum command)cmd;
	hint_cmd = cmd < 0 ? NULL : command_name(o->cmd);
	if (st.help) {
		print_help(stdout, cmd);
		return 1;
	}
	if (st.version) {
		printf("iwarpscope %s\n", IWS_VERSION_STRING);
		/* tshark -V -r FILE means "every packet in detail": say where
		 * that is rather than leave the files unread without a word */
		if (cmd >= 0 || i < argc || o->nfiles)
			fprintf(stderr, "iwarpscope: note: -V is --version; tshark's -V (every packet's detail) is "
					"'iwarpscope ops FILE' (every operation) or 'iwarpscope fpdus FILE' (every FPDU)\n");
		return 1;
	}
	for (; i < argc; i++)
		o->files[o->nfiles++] = argv[i];
	if (o->list_ifaces)
		return 0;
	if (o->list_rules && (cmdinfo_of(o->cmd)->accepts & OPTS_RULES))
		return format_ok(o->cmd, o->format) ? 0 : usage_error("--rules: text, json or jsonl");
	return check_options(o, &st);
}
