// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line (options.c) and the selection stage (select.c) on
 * hand-made argument vectors: global options before or after the command,
 * an option refused by a command that it does not apply to, `help CMD`, and
 * what --qp, --op, --since and --until select (time bounds resolved against
 * the first frame), with the summary's description of it. And the units
 * (units.c): --units iec and the fixed time units of --time-unit and of
 * table cells.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../unit/check.h"
#include "options.h"
#include "select.h"
#include "units.h"

/* options_parse on a NULL-terminated list (copied: it writes into lists
 * such as --qp's); its stderr muted. */
static int parse(struct options *o, const char *const *args)
{
	static char pool[32][64];
	char *argv[32];
	int argc = 0;
	argv[argc++] = (char *)"iwarpscope";
	for (; *args && argc < 31; args++, argc++) {
		snprintf(pool[argc], sizeof(pool[argc]), "%s", *args);
		argv[argc] = pool[argc];
	}
	argv[argc] = NULL;
	/* the usage errors' messages are expected: not on the test's stderr */
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	int rc = options_parse(argc, argv, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	return rc;
}

static void test_grammar(void)
{
	struct options o;
	CHECK_EQ(parse(&o, (const char *[]){ "--no-crc-check", "stats", "f.pcap", NULL }), 0);
	CHECK(o.cmd == CMD_STATS && !o.check_crc && o.nfiles == 1 && strcmp(o.files[0], "f.pcap") == 0);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-T", "jsonl", "ops", "f.pcap", NULL }), 0);
	CHECK(o.cmd == CMD_OPS && o.format == FMT_JSONL && o.nfiles == 1);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "f.pcap", "--qp", "3,5", NULL }), 0);
	CHECK(o.cmd == CMD_SUMMARY && o.nqps == 2 && o.qps[1] == 5);
	options_free(&o);
	/* A command word after a file is a file. */
	CHECK_EQ(parse(&o, (const char *[]){ "f.pcap", "ops", NULL }), 0);
	CHECK(o.cmd == CMD_SUMMARY && o.nfiles == 2);
	options_free(&o);
	/* Refused where they do not apply. */
	CHECK_EQ(parse(&o, (const char *[]){ "stats", "--sort", "latency", "f", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "nvme", "--op", "read", "f", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-o", "x.html", "ops", "f", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "summary", "-T", "json", "f", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-w", "x.pcap", "f", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-i", "lo", "-a", "filesize:5", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-i", "lo", "-a", "duration:2.5", "-c", "10", "-w", "x",
					     "-a", "filesize:5", NULL }), 0);
	CHECK(o.stop_after_ns == 2500000000ll && o.stop_count == 10 && o.stop_filesize == 5000 &&
	      strcmp(o.save, "x") == 0);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-i", "lo", "-a", "size:5", NULL }), 2);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "--units", "iec", "--time-unit", "ms", "f", NULL }), 0);
	CHECK(o.units == UNITS_IEC && o.time_unit == 1000000);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "-D", NULL }), 0);
	CHECK(o.list_ifaces);
	options_free(&o);
	/* help: exit 0 (1 from options_parse) for the whole and one command. */
	FILE *keep = stdout;
	stdout = fopen("/dev/null", "w");
	CHECK_EQ(parse(&o, (const char *[]){ "help", "ops", NULL }), 1);
	CHECK(o.cmd == CMD_OPS);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "ops", "--help", NULL }), 1);
	CHECK(o.cmd == CMD_OPS);
	options_free(&o);
	fclose(stdout);
	stdout = keep;
}

static void test_select(void)
{
	struct options o;
	struct select s;
	struct select_spec spec;
	const int64_t t0 = 1700000000000000000ll;
	CHECK_EQ(parse(&o, (const char *[]){ "--qp", "1,4", "--op", "read,write", "--since", "+1",
					     "--until", "+2.5", "f", NULL }), 0);
	spec = options_select(&o);
	select_init(&s, &spec);
	CHECK(select_active(&s));
	CHECK(select_qp(&s, 4) && !select_qp(&s, 2));
	const int64_t s1 = t0 + 1000000000, u1 = t0 + 2500000000ll;
	CHECK(select_item(&s, 1, IWS_OPT_READ, s1, s1, t0));
	CHECK(!select_item(&s, 2, IWS_OPT_READ, s1, s1, t0));      /* QP */
	CHECK(!select_item(&s, 1, IWS_OPT_SEND, s1, s1, t0));      /* type */
	CHECK(select_item(&s, 1, -1, s1, s1, t0));                 /* NVMe: no type */
	CHECK(!select_item(&s, 1, IWS_OPT_WRITE, s1 - 2, s1 - 1, t0)); /* ends before --since */
	CHECK(select_item(&s, 1, IWS_OPT_WRITE, s1 - 2, s1, t0));  /* ends at it: overlaps */
	CHECK(select_item(&s, 1, IWS_OPT_WRITE, s1 - 2, 0, t0) == false); /* no end: its start */
	CHECK(select_item(&s, 1, IWS_OPT_WRITE, t0, u1 + 5, t0));  /* spans the window */
	CHECK(select_item(&s, 1, IWS_OPT_WRITE, u1 - 1, u1 + 5, t0)); /* starts inside */
	CHECK(!select_item(&s, 1, IWS_OPT_WRITE, u1, u1 + 5, t0)); /* --until excluded */
	CHECK(select_time(&s, u1 - 1, t0) && !select_time(&s, u1, t0) && select_time(&s, s1, t0));
	char buf[128];
	select_describe(&s, buf, sizeof(buf));
	CHECK(strcmp(buf, "QP 1, 4; write, read") == 0);
	int64_t from, to;
	CHECK(select_window(&s, t0, t0 + 2000000000, &from, &to) && from == s1 &&
	      to == t0 + 2000000000);                             /* clipped to the capture */
	CHECK(strcmp(select_window_describe(&s, t0, t0 + 3000000000ll, buf, sizeof(buf)),
		     "window: +1.000000 s to +2.500000 s (1.500 s) of the capture") == 0);
	options_free(&o);
	CHECK_EQ(parse(&o, (const char *[]){ "f", NULL }), 0);
	spec = options_select(&o);
	select_init(&s, &spec);
	CHECK(!select_active(&s) && select_item(&s, 9, IWS_OPT_SEND, 0, 0, t0) && select_qp(NULL, 3));
	options_free(&o);
}

static void test_units(void)
{
	char b[32];
	units_config(false, 0);
	CHECK(strcmp(fmt_bytes(b, sizeof(b), 65536), "65.54 kB") == 0);
	CHECK(strcmp(fmt_dur(b, sizeof(b), 1234567), "1.235 ms") == 0);
	units_config(true, 0);
	CHECK(strcmp(fmt_bytes(b, sizeof(b), 65536), "64.00 KiB") == 0);
	CHECK(strcmp(fmt_bytes(b, sizeof(b), 6553600), "6.250 MiB") == 0);
	CHECK(strcmp(fmt_bytes(b, sizeof(b), 1000), "1000 B") == 0);
	units_config(false, 1000);
	/* --time-unit governs table columns, never prose (a capture's span) */
	CHECK(strcmp(fmt_dur(b, sizeof(b), 1234567), "1.235 ms") == 0);
	CHECK(strcmp(fmt_dur(b, sizeof(b), 5222091000ll), "5.222 s") == 0);
	CHECK(strcmp(fmt_dur_c(b, sizeof(b), 1234567), "1235\xC2\xB5s") == 0);
	CHECK(strcmp(fmt_dur_c(b, sizeof(b), 850), "0.85\xC2\xB5s") == 0);
	CHECK_EQ(units_column(5000000000ll), 1000);          /* forced */
	/* columns: one unit, decimals enough for the smallest value */
	CHECK_EQ(units_decimals(1000000, 200000), 3);        /* 0.200 ms */
	CHECK_EQ(units_decimals(1000000, 8500), 5);          /* 0.00850 ms */
	CHECK_EQ(units_decimals(1000000000, 228000), 6);     /* 0.000228 s */
	CHECK_EQ(units_decimals(1000, 151000), 0);           /* 151 µs */
	CHECK_EQ(units_decimals(1000000, 1303000), 2);       /* 1.30 ms */
	CHECK_EQ(units_decimals(1000, 1), 3);                /* µs: to the ns, no further */
	CHECK_EQ(units_decimals(1, 5), 0);
	CHECK_EQ(units_decimals(1000000, 0), 0);
	CHECK(strcmp(fmt_in_unit(b, sizeof(b), 228000, 1000000000, 6), "0.000228") == 0);
	CHECK(strcmp(fmt_in_unit(b, sizeof(b), 5205500, 1000000, 3), "5.206") == 0);
	CHECK(strcmp(fmt_in_unit(b, sizeof(b), 999999600, 1000000000, 3), "1.000") == 0);
	CHECK(strcmp(fmt_in_unit(b, sizeof(b), -1500, 1000, 0), "-2") == 0);
	CHECK(strcmp(fmt_in_unit(b, sizeof(b), 47, 1, 3), "47") == 0);
	units_config(false, 0);
	CHECK_EQ(units_column(850), 1);
	CHECK_EQ(units_column(228000), 1000);
	CHECK_EQ(units_column(50250000), 1000000);
	units_cells(1000);
	CHECK(strcmp(fmt_dur_c(b, sizeof(b), 4977000), "4977") == 0);
	CHECK(strcmp(fmt_dur_c(b, sizeof(b), 190000), "190.0") == 0);
	CHECK(strcmp(fmt_dur(b, sizeof(b), 190000), "190.0 \xC2\xB5s") == 0); /* not a cell */
	units_cells(0);
	CHECK(strcmp(fmt_dur_c(b, sizeof(b), 4977000), "4.977ms") == 0);
}

int main(void)
{
	test_grammar();
	test_select();
	test_units();
	return check_done("test_select");
}
