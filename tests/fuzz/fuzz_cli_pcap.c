// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the whole CLI on a capture file held in memory, set up exactly as
 * main() sets it up: the command line goes through options_parse and the
 * stages through cmdrun.h (libpcap on an fmemopen stream -> netdecode ->
 * flows -> the stream engine -> selection -> timeline -> writers). Each
 * input runs several command lines, so every writer runs: ops as JSON lines
 * and CSV (by latency), nvme as JSON, fpdus, summary with a selection, stats
 * as text, JSON and a CSV series, the HTML report, the live view's short
 * summary, the doctor's findings (text, JSON lines, --fail-on with rule
 * ids and severities) and the --fail-on findings. Output goes to /dev/null.
 *
 * Small limits (a few kB of out-of-order data, 256 kB of reassembly buffers,
 * 8 connections at once, 16 operations in flight, 32 held for ordering) so
 * that the limit paths run on small inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "cmdrun.h"
#include "commands.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink_file(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

#define LIMITS "--max-ooo", "4096", "--max-ooo-total", "6144", "--max-inflight", "16", \
	"--max-reasm", "256k", "--max-flows", "8", "--no-progress", "--fail-on", "all"

static const char *const runs[][24] = {
	{ "iwarpscope", "ops", "-T", "jsonl", LIMITS, "--max-reorder", "32", "fuzz.pcap", NULL },
	{ "iwarpscope", "ops", "-T", "csv", "--sort", "latency", "--limit", "3", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "ops", LIMITS, "--qp", "0", "--op", "read,send", "fuzz.pcap", NULL },
	{ "iwarpscope", "nvme", "-T", "json", LIMITS, "--max-reorder", "32", "fuzz.pcap", NULL },
	{ "iwarpscope", "fpdus", LIMITS, "--since", "+0.000001", "fuzz.pcap", NULL },
	{ "iwarpscope", "summary", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "--units", "iec", "summary", "--time-unit", "us", "--qp", "1", LIMITS,
	  "fuzz.pcap", NULL },
	{ "iwarpscope", "stats", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "stats", "-T", "json", "--op", "read", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "stats", "-T", "csv", "--interval", "1ms", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "report", "--limit", "16", LIMITS, "fuzz.pcap", NULL },
	{ "iwarpscope", "doctor", "-T", "jsonl", LIMITS, "--fail-on", "error,performance,mpa.reject",
	  "fuzz.pcap", NULL },
	{ "iwarpscope", "doctor", LIMITS, "--qp", "0,2", "fuzz.pcap", NULL },
};

static void run_one(const char *const *argv0, const uint8_t *data, size_t size, FILE *out)
{
	static struct options o;
	static struct cmdrun p;
	/* options_parse writes into lists such as --qp's: writable copies */
	static char pool[24][32];
	char *argv[24];
	int argc = 0;
	while (argv0[argc] && argc < 23) {
		snprintf(pool[argc], sizeof(pool[argc]), "%s", argv0[argc]);
		argv[argc] = pool[argc];
		argc++;
	}
	argv[argc] = NULL;
	if (options_parse(argc, argv, &o) != 0)
		__builtin_trap();       /* the harness's own command lines are valid */

	/* fmemopen wants a writable buffer; the source owns the stream. */
	uint8_t *copy = malloc(size);
	if (!copy) {
		options_free(&o);
		return;
	}
	memcpy(copy, data, size);
	FILE *fp = fmemopen(copy, size, "rb");
	if (!fp) {
		free(copy);
		options_free(&o);
		return;
	}
	char err[512];
	FILE *streams[1] = { fp };
	struct source_opts so = { .files = o.files, .nfiles = 1, .streams = streams };
	struct source *src = source_open(&so, err, sizeof(err));
	if (src) {
		if (cmdrun_init(&p, &o, command_stages(o.cmd), src, NULL, out)) {
			cmdrun_read(&p);
			(void)cmdrun_report(&p, NULL);
			cmdrun_warnings(&p, out);
			cmdrun_notes(&p, out);
			struct live_prev prev = { NULL, 0 };
			summary_write_short(out, &p.r, &prev);
			summary_write_short(out, &p.r, &prev);
			live_prev_free(&prev);
			if (p.a.env.lim.ooo_used != 0 || p.a.env.lim.buf_used != 0)
				__builtin_trap();
		}
		cmdrun_free(&p);
	}
	free(copy);
	options_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *out = sink_file();
	if (!out || size == 0)
		return 0;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		run_one(runs[i], data, size, out);
	return 0;
}
