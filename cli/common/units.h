// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * units.h - numbers for people: durations in ns/µs/ms/s, sizes in
 * B/KiB/MiB/GiB (binary, --units si: decimal, like tshark), rates in bit/s, timestamps as calendar time in the
 * local time zone (TZ=UTC for reproducible output), and padding that counts
 * display columns rather than octets (µ is two octets, one column).
 */
#ifndef IWS_CLI_UNITS_H
#define IWS_CLI_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* --units and --time-unit: sizes in binary (KiB, iec: default) or decimal
 * units (kB, si); the unit of every column of durations in text tables (ns per
 * unit: 1, 1000, 1000000, 1000000000), or 0: each table's own (units_column).
 * Durations in prose (a capture's span, why an operation took its time)
 * always take the unit their size calls for. Text only: JSON and CSV carry
 * raw integers and never call these. */
void units_config(bool iec, int64_t time_unit_ns);
/* Sizes in binary units (--units iec)? The report's page follows it. */
bool units_iec(void);
/* The unit a table column of durations uses when its typical (largest
 * median) value is typical_ns: --time-unit's, else the one that shows it
 * with 1 to 3 integer digits. */
int64_t units_column(int64_t typical_ns);
/* --time-unit's unit, or 0 when none was given. */
int64_t units_forced(void);
/* "ns", "µs", "ms", "s" */
const char *unit_name(int64_t unit_ns);
/* How many decimals a column of durations in unit_ns shows: enough for its
 * smallest non-zero value min_ns to keep three significant digits, and no
 * more than the nanosecond (0 in ns, or without a non-zero value). */
int units_decimals(int64_t unit_ns, int64_t min_ns);
/* ns in unit_ns with that many decimals, no unit: "47.540". */
const char *fmt_in_unit(char *buf, size_t len, int64_t ns, int64_t unit_ns, int decimals);
/* Table cells: from now on fmt_dur_c prints numbers in unit_ns without the
 * unit (the heading names it); 0 ends it. */
void units_cells(int64_t unit_ns);

/* "850 ns", "12.34 µs", "1.234 ms", "2.500 s" (4 significant digits). */
const char *fmt_dur(char *buf, size_t len, int64_t ns);
/* The same without the space ("12.34µs"), for tables. */
const char *fmt_dur_c(char *buf, size_t len, int64_t ns);
const char *fmt_dur2(char *buf, size_t len, int64_t ns, const char *space);
/* "512 B", "64.00 KiB", "6.250 MiB" (--units si: "65.54 kB", "6.554 MB"). */
const char *fmt_bytes(char *buf, size_t len, uint64_t bytes);
/* --bw: rates in bit/s with a prefix that reads well (default), in
 * perftest's MB/s (2^20 octets a second) or in Gbit/s. */
enum { UNITS_BW_BITS = 0, UNITS_BW_MBPS, UNITS_BW_GBPS };
void units_bw(int mode);
/* "30.61 Mbit/s" from octets over ns ("3.649 MB/s", "0.031 Gbit/s" with
 * --bw); "-" when the span is 0. */
const char *fmt_rate(char *buf, size_t len, uint64_t bytes, int64_t ns);
/* A table column of rates from min_bps to max_bps (bit/s, min: the
 * smallest non-zero): its unit's name and the bit/s one of it holds.
 * --bw MBps: MiB/s, Gbps: Gbit/s; else the prefix of the largest, or a
 * smaller one that keeps the smallest at 0.1 or more. */
const char *rate_column_unit(double max_bps, double min_bps, double *bps_per_unit);
/* How many decimals a column of values shows: enough for its smallest
 * non-zero value to keep three significant digits, at most 6. */
int decimals_for(double smallest);
/* "2026-12-02 10:07:50.767544123" */
const char *fmt_time(char *buf, size_t len, int64_t ns);
/* "10:07:50.767544123" */
const char *fmt_clock(char *buf, size_t len, int64_t ns);
/* The end of a span that began at ref_ns: the clock time when it is the
 * same local day, else the date too ("2026-12-03 10:07:50.767544123"), so
 * "from ... to ..." never hides a day. */
const char *fmt_clock_after(char *buf, size_t len, int64_t ns, int64_t ref_ns);
/* Display width of a UTF-8 string. */
size_t text_width(const char *s);
/* Print s right-aligned (or left-aligned if width < 0) in |width| columns. */
void print_padded(FILE *f, const char *s, int width);

#endif
