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

#include "iwarpscope/status.h"

static const char usage_text[] =
	"Usage: iwarpscope [COMMAND] [OPTIONS] FILE...\n"
	"       iwarpscope [COMMAND] [OPTIONS] -i INTERFACE\n"
	"\n"
	"Reads iWARP (MPA/DDP/RDMAP over TCP) traffic from pcap/pcapng captures\n"
	"('-' reads stdin; several files are merged by time; gzip and zstd files are\n"
	"read as they are; a quoted pattern or a directory names a rotated set) and\n"
	"reports what every queue pair (TCP connection) did, when, and how long it took.\n"
	"\n"
	"Commands:\n"
	"  summary            per-QP table and latency table (default)\n"
	"  ops                one line per RDMA operation, in start order\n"
	"  stats              statistics per QP and operation type; with --format\n"
	"                     csv or jsonl, per --interval as a time series\n"
	"  fpdus              every FPDU decoded (developer view)\n"
	"  merge              combine `stats --format json` of several captures or\n"
	"                     hosts into one report (merge --help)\n"
	"  nvme               one line per NVMe over Fabrics command (NVMe/RDMA,\n"
	"                     recognised by content on any port), in start order\n"
	"  report             one self-contained HTML page: summary, timeline,\n"
	"                     latency, throughput, slowest operations (-o FILE)\n"
	"\n"
	"Input:\n"
	"  -r, --read FILE    read FILE (same as naming it; may repeat)\n"
	"      --points       the files are capture points of the same traffic (found\n"
	"                     anyway when two files hold identical segments): each\n"
	"                     segment once, one-way times, where loss happened\n"
	"  -f, --filter EXPR  BPF filter (frame numbers are not renumbered)\n"
	"  -i, --interface IF capture live on IF; a short summary every\n"
	"                     --interval seconds, the full report on Ctrl-C\n"
	"      --interval DURATION  live: time between summaries (default 5s);\n"
	"                     stats csv/jsonl: the series' interval (default 1s):\n"
	"                     100ms, 1s, 2.5 (seconds)\n"
	"  -s, --snaplen N    live capture snapshot length (default 262144)\n"
	"\n"
	"Output:\n"
	"  -T, --format FMT   text, json, jsonl or csv (what a command supports)\n"
	"  -o, --output FILE  report: write the page to FILE (default: standard output)\n"
	"      --qp LIST      ops, nvme: only these QPs (comma-separated tcp.stream numbers)\n"
	"      --op LIST      ops: only these types (write,read,send,send_inv,send_se,\n"
	"                     send_se_inv,immediate,immediate_se,atomic_fetch_add,\n"
	"                     atomic_cmp_swap,atomic_swap,terminate)\n"
	"      --since TIME   ops, nvme: only operations (commands) starting at or after TIME\n"
	"      --until TIME   ops, nvme: only operations (commands) starting before TIME\n"
	"      --sort KEY     ops: 'start' (default) or 'latency': slowest first, by\n"
	"                     latency_ns (reads, atomics) or else ack_ns (delivery)\n"
	"      --limit N      ops: at most N operations; report: at most N drawn on\n"
	"                     the timeline (default 10000)\n"
	"      --min-latency DURATION  ops: only operations that took at least\n"
	"                     DURATION (latency_ns, else ack_ns): 500us, 2ms, 1.5s\n"
	"      --include-rtr  stats, summary: count the RTR messages of a\n"
	"                     peer-to-peer set-up (listed by ops, flagged)\n"
	"                     TIME: +SECONDS from the first frame, HH:MM:SS[.frac],\n"
	"                     'YYYY-MM-DD HH:MM:SS[.frac]' (local time, TZ), @EPOCH\n"
	"      --no-progress  never show the progress bar\n"
	"\n"
	"Analysis:\n"
	"      --no-crc-check do not verify MPA CRCs\n"
	"      --fail-on LIST exit 1 if the capture shows any of: crc, gap,\n"
	"                     terminate, incomplete, damaged, malformed, all\n"
	"      --max-ooo BYTES       out-of-order buffer per direction (16M)\n"
	"      --max-ooo-total BYTES out-of-order buffer for all connections (64M)\n"
	"      --max-reasm BYTES     FPDU reassembly and resync buffers, all connections (64M)\n"
	"      --max-flows N         connections analysed at once (32768)\n"
	"      --max-inflight N      operations in flight per QP (65536)\n"
	"      --max-reorder N       ops, nvme: finished operations (commands) held for\n"
	"                            ordering (ops 200000, nvme 16384)\n"
	"\n"
	"  -h, --help         this text\n"
	"  -V, --version      version\n"
	"\n"
	"Exit status: 0 ok, 1 --fail-on matched, 2 usage error or unreadable input.\n"
	"See iwarpscope(1).\n";

enum {
	OPT_QP = 256, OPT_OP, OPT_SINCE, OPT_UNTIL, OPT_NO_CRC, OPT_FAIL_ON, OPT_MAX_OOO,
	OPT_MAX_OOO_TOTAL, OPT_MAX_INFLIGHT, OPT_MAX_REORDER, OPT_NO_PROGRESS, OPT_INTERVAL,
	OPT_FORMAT, OPT_MAX_REASM, OPT_MAX_FLOWS, OPT_SORT, OPT_LIMIT, OPT_MIN_LATENCY,
	OPT_INCLUDE_RTR, OPT_POINTS,
};

static const struct option long_opts[] = {
	{ "read", required_argument, NULL, 'r' },
	{ "filter", required_argument, NULL, 'f' },
	{ "interface", required_argument, NULL, 'i' },
	{ "snaplen", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'T' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "qp", required_argument, NULL, OPT_QP },
	{ "op", required_argument, NULL, OPT_OP },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "no-crc-check", no_argument, NULL, OPT_NO_CRC },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "max-ooo", required_argument, NULL, OPT_MAX_OOO },
	{ "max-ooo-total", required_argument, NULL, OPT_MAX_OOO_TOTAL },
	{ "max-inflight", required_argument, NULL, OPT_MAX_INFLIGHT },
	{ "max-reorder", required_argument, NULL, OPT_MAX_REORDER },
	{ "max-reasm", required_argument, NULL, OPT_MAX_REASM },
	{ "max-flows", required_argument, NULL, OPT_MAX_FLOWS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "min-latency", required_argument, NULL, OPT_MIN_LATENCY },
	{ "include-rtr", no_argument, NULL, OPT_INCLUDE_RTR },
	{ "points", no_argument, NULL, OPT_POINTS },
	{ NULL, 0, NULL, 0 },
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "iwarpscope: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'iwarpscope --help')\n");
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
		if (!parse_secs(s + n, &ns, &rest) || *rest)
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
		if (!parse_secs(s + n, &ns, &rest) || *rest)
			return false;
		t->kind = TS_CLOCK;
		t->ns = ((int64_t)h * 3600 + mi * 60) * 1000000000 + ns;
		return true;
	}
	return false;
}

int64_t tspec_resolve(const struct tspec *t, int64_t first_ns)
{
	switch (t->kind) {
	case TS_ABS:
		return t->ns;
	case TS_REL: {
		int64_t v;
		if (__builtin_add_overflow(first_ns, t->ns, &v))
			v = t->ns > 0 ? INT64_MAX : INT64_MIN;
		return v;
	}
	case TS_CLOCK: {
		/* HH:MM:SS on the (local) day of the first frame. */
		time_t s = (time_t)(first_ns / 1000000000);
		struct tm tm;
		if (!localtime_r(&s, &tm))
			return t->ns;
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		time_t midnight = mktime(&tm);
		return (int64_t)midnight * 1000000000 + t->ns;
	}
	default:
		return 0;
	}
}

static int parse_list(char *arg, struct options *o, int which)
{
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
			if (t < 0)
				return usage_error("--op: unknown operation type '%s'", tok);
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
			if (!bit)
				return usage_error("--fail-on: unknown condition '%s'", tok);
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
	switch (c) {
	case CMD_SUMMARY:
		return f == FMT_DEFAULT || f == FMT_TEXT;
	case CMD_OPS:
	case CMD_NVME:
		return true;
	case CMD_STATS:
		return true;
	case CMD_FPDUS:
		return f == FMT_DEFAULT || f == FMT_JSONL;
	case CMD_REPORT:
		return f == FMT_DEFAULT;
	}
	return false;
}

int options_parse(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->check_crc = true;
	o->progress = true;
	o->interval = 5;
	o->files = calloc((size_t)argc + 1, sizeof(*o->files));
	if (!o->files)
		return usage_error("out of memory");

	int first = 1;
	static const char *const cmds[] = { "summary", "ops", "stats", "fpdus", "nvme", "report" };
	if (argc > 1 && argv[1][0] != '-') {
		for (int i = 0; i < (int)(sizeof(cmds) / sizeof(cmds[0])); i++) {
			if (strcmp(argv[1], cmds[i]) == 0) {
				o->cmd = (enum command)i;
				first = 2;
			}
		}
		if (strcmp(argv[1], "help") == 0) {
			fputs(usage_text, stdout);
			return 1;
		}
		if (strcmp(argv[1], "version") == 0) {
			printf("iwarpscope %s\n", IWS_VERSION_STRING);
			return 1;
		}
	}
	/* getopt_long permutes, so files and options may be mixed. */
	optind = first;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, ":r:f:i:s:T:o:hV", long_opts, NULL)) != -1) {
		int rc = 0;
		uint64_t sz;
		switch (ch) {
		case 'r':
			o->files[o->nfiles++] = optarg;
			break;
		case 'f':
			o->bpf = optarg;
			break;
		case 'i':
			o->iface = optarg;
			break;
		case 's':
			if (!parse_size(optarg, &sz) || sz == 0 || sz > 262144)
				return usage_error("bad snapshot length '%s'", optarg);
			o->snaplen = (int)sz;
			break;
		case 'T':
			if (!set_format(o, optarg))
				return usage_error("unknown format '%s' (text, json, jsonl, csv)", optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case 'V':
			printf("iwarpscope %s\n", IWS_VERSION_STRING);
			return 1;
		case OPT_QP:
		case OPT_OP:
		case OPT_FAIL_ON:
			rc = parse_list(optarg, o, ch);
			break;
		case OPT_SINCE:
			if (!parse_time(optarg, &o->since))
				return usage_error("bad time '%s'", optarg);
			break;
		case OPT_UNTIL:
			if (!parse_time(optarg, &o->until))
				return usage_error("bad time '%s'", optarg);
			break;
		case OPT_NO_CRC:
			o->check_crc = false;
			break;
		case OPT_NO_PROGRESS:
			o->progress = false;
			break;
		case OPT_MAX_OOO:
			if (!parse_size(optarg, &o->max_ooo_dir) || !o->max_ooo_dir)
				return usage_error("bad size '%s'", optarg);
			break;
		case OPT_MAX_OOO_TOTAL:
			if (!parse_size(optarg, &o->max_ooo_total) || !o->max_ooo_total)
				return usage_error("bad size '%s'", optarg);
			break;
		case OPT_MAX_INFLIGHT:
			if (!parse_u32(optarg, &o->max_inflight) || !o->max_inflight)
				return usage_error("bad count '%s'", optarg);
			break;
		case OPT_MAX_REASM:
			if (!parse_size(optarg, &o->max_reasm) || !o->max_reasm)
				return usage_error("bad size '%s'", optarg);
			break;
		case OPT_MAX_FLOWS:
			if (!parse_u32(optarg, &o->max_flows) || !o->max_flows)
				return usage_error("bad count '%s'", optarg);
			break;
		case OPT_MAX_REORDER:
			if (!parse_u32(optarg, &o->max_reorder) || !o->max_reorder)
				return usage_error("bad count '%s'", optarg);
			break;
		case OPT_SORT:
			if (strcmp(optarg, "latency") == 0)
				o->sort_latency = true;
			else if (strcmp(optarg, "start") == 0)
				o->sort_latency = false;
			else
				return usage_error("--sort: 'start' or 'latency', not '%s'", optarg);
			break;
		case OPT_LIMIT:
			if (!parse_u32(optarg, &o->limit) || !o->limit)
				return usage_error("bad count '%s'", optarg);
			break;
		case OPT_MIN_LATENCY:
			if (!parse_duration(optarg, &o->min_latency_ns))
				return usage_error("bad duration '%s' (e.g. 500us, 2ms, 1.5s)", optarg);
			o->has_min_latency = true;
			break;
		case OPT_INCLUDE_RTR:
			o->include_rtr = true;
			break;
		case OPT_POINTS:
			o->points = true;
			break;
		case OPT_INTERVAL:
			/* A duration; a bare number is seconds, as it always was. */
			if (!parse_duration(optarg, &o->interval_ns) || o->interval_ns <= 0)
				return usage_error("bad interval '%s' (e.g. 100ms, 1s, 5)", optarg);
			o->interval = o->interval_ns > 86400ll * 1000000000 ? 86400u
				      : (unsigned)((o->interval_ns + 999999999) / 1000000000);
			break;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	for (int i = optind; i < argc; i++)
		o->files[o->nfiles++] = argv[i];
	if (o->iface && o->nfiles)
		return usage_error("give capture files or -i, not both");
	if (!o->iface && !o->nfiles)
		return usage_error("no capture file given");
	if (o->points && (o->iface || o->nfiles < 2))
		return usage_error("--points needs two capture files (or sets) or more");
	if ((o->sort_latency || o->has_min_latency) && o->cmd != CMD_OPS)
		return usage_error("--sort and --min-latency apply to the ops command");
	if (o->limit && o->cmd != CMD_OPS && o->cmd != CMD_REPORT)
		return usage_error("--limit applies to the ops and report commands");
	if (o->output && o->cmd != CMD_REPORT)
		return usage_error("-o applies to the report command");
	if (!format_ok(o->cmd, o->format))
		return usage_error("this command does not write %s", format_name(o->format));
	return 0;
}
