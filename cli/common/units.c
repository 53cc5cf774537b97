// SPDX-License-Identifier: GPL-2.0-or-later
/* Human-readable numbers (see units.h). */
#include "units.h"

#include <string.h>
#include <time.h>

static bool iec_sizes;
static int64_t forced_unit;     /* --time-unit (0: automatic) */
static int64_t cell_unit;       /* table cells: numbers in this unit (0: off) */
static int bw_mode;             /* --bw: UNITS_BW_* */

void units_bw(int mode)
{
	bw_mode = mode;
}

void units_config(bool iec, int64_t time_unit_ns)
{
	iec_sizes = iec;
	forced_unit = time_unit_ns;
}

bool units_iec(void)
{
	return iec_sizes;
}

void units_cells(int64_t unit_ns)
{
	cell_unit = unit_ns;
}

int64_t units_forced(void)
{
	return forced_unit;
}

int64_t units_column(int64_t typical_ns)
{
	if (forced_unit)
		return forced_unit;
	uint64_t a = typical_ns < 0 ? 0 : (uint64_t)typical_ns;
	return a < 1000 ? 1 : a < 1000000 ? 1000 : a < 1000000000 ? 1000000 : 1000000000;
}

const char *unit_name(int64_t unit_ns)
{
	switch (unit_ns) {
	case 1:
		return "ns";
	case 1000:
		return "\xC2\xB5s";
	case 1000000:
		return "ms";
	default:
		return "s";
	}
}

int units_decimals(int64_t unit_ns, int64_t min_ns)
{
	int max = 0;
	for (int64_t u = unit_ns; u >= 10; u /= 10)
		max++;
	if (min_ns <= 0)
		return 0;
	/* three significant digits: min_ns / unit_ns >= 10^(2 - d) */
	int d = 0;
	int64_t step = unit_ns; /* unit_ns / 10^d */
	while (d < max && min_ns < step * 100) {
		d++;
		step /= 10;
	}
	return d;
}

const char *fmt_in_unit(char *buf, size_t len, int64_t ns, int64_t unit_ns, int decimals)
{
	const char *sign = "";
	uint64_t a = (uint64_t)ns;
	if (ns < 0) {
		sign = "-";
		a = (uint64_t)(-(ns + 1)) + 1;
	}
	if (unit_ns <= 1) {
		snprintf(buf, len, "%s%llu", sign, (unsigned long long)a);
		return buf;
	}
	/* rounded to the decimals shown, in integers (no binary fractions) */
	uint64_t scale = 1;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	uint64_t u = (uint64_t)unit_ns;
	uint64_t whole = a / u, rest = a % u;
	uint64_t frac = (uint64_t)(((unsigned __int128)rest * scale * 2 + u) / (2 * u));
	if (frac >= scale) {
		whole++;
		frac -= scale;
	}
	if (decimals)
		snprintf(buf, len, "%s%llu.%0*llu", sign, (unsigned long long)whole, decimals,
			 (unsigned long long)frac);
	else
		snprintf(buf, len, "%s%llu", sign, (unsigned long long)whole);
	return buf;
}

/* v with 4 significant digits, then unit (which carries its own space). */
static const char *sig4(char *buf, size_t len, double v, const char *unit)
{
	if (v >= 999.95)
		snprintf(buf, len, "%.0f%s", v, unit);
	else if (v >= 99.995)
		snprintf(buf, len, "%.1f%s", v, unit);
	else if (v >= 9.9995)
		snprintf(buf, len, "%.2f%s", v, unit);
	else
		snprintf(buf, len, "%.3f%s", v, unit);
	return buf;
}

const char *fmt_dur(char *buf, size_t len, int64_t ns)
{
	return fmt_dur2(buf, len, ns, " ");
}

const char *fmt_dur_c(char *buf, size_t len, int64_t ns)
{
	return fmt_dur2(buf, len, ns, "");
}

/* a in a fixed unit: 4 significant digits (whole numbers from 1000 up;
 * small fractions keep 3 digits). */
static void in_unit(char *tmp, size_t len, uint64_t a, int64_t unit, const char *suffix)
{
	if (unit == 1) {
		snprintf(tmp, len, "%llu%s", (unsigned long long)a, suffix);
		return;
	}
	double v = (double)a / (double)unit;
	if (v > 0 && v < 0.9995)
		snprintf(tmp, len, "%.3g%s", v, suffix);
	else
		sig4(tmp, len, v, suffix);
}

const char *fmt_dur2(char *buf, size_t len, int64_t ns, const char *space)
{
	const char *sign = "";
	uint64_t a = (uint64_t)ns;
	if (ns < 0) {
		sign = "-";
		a = (uint64_t)(-(ns + 1)) + 1;
	}
	char tmp[48], unit[8];
	/* --time-unit governs table cells only; prose picks its own unit */
	int64_t fixed = *space ? 0 : cell_unit ? cell_unit : forced_unit;
	if (fixed) {
		/* table cells print the number alone (the heading has the unit) */
		if (!*space && cell_unit)
			unit[0] = 0;
		else
			snprintf(unit, sizeof(unit), "%s%s", space, unit_name(fixed));
		in_unit(tmp, sizeof(tmp), a, fixed, unit);
	} else if (a < 1000) {
		snprintf(tmp, sizeof(tmp), "%llu%sns", (unsigned long long)a, space);
	} else if (a < 999950) {
		snprintf(unit, sizeof(unit), "%s\xC2\xB5s", space);
		sig4(tmp, sizeof(tmp), (double)a / 1e3, unit);
	} else if (a < 999950000) {
		snprintf(unit, sizeof(unit), "%sms", space);
		sig4(tmp, sizeof(tmp), (double)a / 1e6, unit);
	} else {
		snprintf(unit, sizeof(unit), "%ss", space);
		sig4(tmp, sizeof(tmp), (double)a / 1e9, unit);
	}
	snprintf(buf, len, "%s%s", sign, tmp);
	return buf;
}

const char *fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (iec_sizes) {
		if (b < 1024)
			snprintf(buf, len, "%llu B", (unsigned long long)b);
		else if (b < 1024 * 1000)
			sig4(buf, len, (double)b / 1024, " KiB");
		else if (b < 1024ull * 1024 * 1000)
			sig4(buf, len, (double)b / (1024 * 1024), " MiB");
		else
			sig4(buf, len, (double)b / (1024.0 * 1024 * 1024), " GiB");
		return buf;
	}
	if (b < 1000)
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	else if (b < 1000000)
		sig4(buf, len, (double)b / 1e3, " kB");
	else if (b < 1000000000)
		sig4(buf, len, (double)b / 1e6, " MB");
	else
		sig4(buf, len, (double)b / 1e9, " GB");
	return buf;
}

const char *fmt_rate(char *buf, size_t len, uint64_t bytes, int64_t ns)
{
	if (ns <= 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	double bps = (double)bytes * 8.0 * 1e9 / (double)ns;
	if (bw_mode == UNITS_BW_MBPS) {
		/* perftest's BW average[MB/sec]: 2^20 octets a second */
		snprintf(buf, len, "%.3f MiB/s", bps / 8.0 / 1048576.0);
		return buf;
	}
	if (bw_mode == UNITS_BW_GBPS) {
		snprintf(buf, len, "%.3f Gbit/s", bps / 1e9);
		return buf;
	}
	if (bps < 1e3)
		snprintf(buf, len, "%.0f bit/s", bps);
	else if (bps < 1e6)
		sig4(buf, len, bps / 1e3, " kbit/s");
	else if (bps < 1e9)
		sig4(buf, len, bps / 1e6, " Mbit/s");
	else
		sig4(buf, len, bps / 1e9, " Gbit/s");
	return buf;
}

const char *rate_column_unit(double max_bps, double min_bps, double *bps_per_unit)
{
	static const double per[] = { 1, 1e3, 1e6, 1e9 };
	static const char *const names[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s" };
	if (bw_mode == UNITS_BW_MBPS) {
		*bps_per_unit = 8.0 * 1048576.0;
		return "MiB/s";
	}
	if (bw_mode == UNITS_BW_GBPS) {
		*bps_per_unit = 1e9;
		return "Gbit/s";
	}
	/* the unit of the largest, or a smaller one that keeps the smallest at
	 * 0.1 or more while the largest stays under a million of it */
	int k = max_bps >= 1e9 ? 3 : max_bps >= 1e6 ? 2 : max_bps >= 1e3 ? 1 : 0;
	while (k > 0 && min_bps > 0 && min_bps / per[k] < 0.1 && max_bps / per[k - 1] < 1e6)
		k--;
	*bps_per_unit = per[k];
	return names[k];
}

int decimals_for(double smallest)
{
	if (smallest <= 0 || smallest >= 100)
		return 0;
	/* three significant digits of the smallest: 2 - floor(log10(x)) */
	int d = 2;
	for (double v = smallest; v < 1 && d < 6; v *= 10)
		d++;
	return smallest >= 10 ? 1 : d;
}

static void split(int64_t ns, time_t *sec, long *frac)
{
	int64_t s = ns / 1000000000;
	int64_t f = ns % 1000000000;
	if (f < 0) {
		f += 1000000000;
		s--;
	}
	*sec = (time_t)s;
	*frac = (long)f;
}

const char *fmt_time(char *buf, size_t len, int64_t ns)
{
	time_t s;
	long f;
	struct tm tm;
	split(ns, &s, &f);
	if (!localtime_r(&s, &tm)) {
		snprintf(buf, len, "%lld", (long long)ns);
		return buf;
	}
	char d[32];
	strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s.%09ld", d, f);
	return buf;
}

const char *fmt_clock(char *buf, size_t len, int64_t ns)
{
	time_t s;
	long f;
	struct tm tm;
	split(ns, &s, &f);
	if (!localtime_r(&s, &tm)) {
		snprintf(buf, len, "%lld", (long long)ns);
		return buf;
	}
	snprintf(buf, len, "%02d:%02d:%02d.%09ld", tm.tm_hour, tm.tm_min, tm.tm_sec, f);
	return buf;
}

/* The local calendar day of ns (year and day of the year), -1 when it has
 * none. */
static long local_day(int64_t ns)
{
	time_t s;
	long f;
	struct tm tm;
	split(ns, &s, &f);
	return localtime_r(&s, &tm) ? (long)tm.tm_year * 400 + tm.tm_yday : -1;
}

const char *fmt_clock_after(char *buf, size_t len, int64_t ns, int64_t ref_ns)
{
	long day = local_day(ns);
	return day >= 0 && day == local_day(ref_ns) ? fmt_clock(buf, len, ns) : fmt_time(buf, len, ns);
}

size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

void print_padded(FILE *f, const char *s, int width)
{
	size_t w = text_width(s);
	size_t want = (size_t)(width < 0 ? -width : width);
	size_t pad = w < want ? want - w : 0;
	if (width >= 0)
		for (size_t i = 0; i < pad; i++)
			fputc(' ', f);
	fputs(s, f);
	if (width < 0)
		for (size_t i = 0; i < pad; i++)
			fputc(' ', f);
}
