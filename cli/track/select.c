// SPDX-License-Identifier: GPL-2.0-or-later
/* What a report covers (see select.h). */
#include "select.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iwarpscope/qp.h"
#include "units.h"

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

void select_init(struct select *s, const struct select_spec *spec)
{
	memset(s, 0, sizeof(*s));
	s->qps = spec->nqps ? spec->qps : NULL;
	s->nqps = spec->nqps;
	s->op_mask = spec->op_mask;
	s->since = spec->since;
	s->until = spec->until;
}

bool select_active(const struct select *s)
{
	return s->nqps || s->op_mask || s->since.kind || s->until.kind;
}

bool select_qp(const struct select *s, uint32_t stream)
{
	if (!s || !s->nqps)
		return true;
	for (int i = 0; i < s->nqps; i++)
		if (s->qps[i] == stream)
			return true;
	return false;
}

bool select_windowed(const struct select *s)
{
	return s && (s->since.kind || s->until.kind);
}

void select_resolve(struct select *s, int64_t first_ns)
{
	if (s->resolved)
		return;
	/* Relative and clock times count from the first frame. */
	s->since_ns = s->since.kind ? tspec_resolve(&s->since, first_ns) : INT64_MIN;
	s->until_ns = s->until.kind ? tspec_resolve(&s->until, first_ns) : INT64_MAX;
	s->resolved = true;
}

bool select_time(struct select *s, int64_t ts, int64_t first_ns)
{
	if (!select_windowed(s))
		return true;
	select_resolve(s, first_ns);
	return ts >= s->since_ns && ts < s->until_ns;
}

bool select_overlaps(struct select *s, int64_t start_ns, int64_t end_ns, int64_t first_ns)
{
	if (!select_windowed(s))
		return true;
	select_resolve(s, first_ns);
	if (end_ns < start_ns)
		end_ns = start_ns;
	return start_ns < s->until_ns && end_ns >= s->since_ns;
}

bool select_item(struct select *s, uint32_t stream, int op_type, int64_t start_ns,
		 int64_t end_ns, int64_t first_ns)
{
	if (!select_qp(s, stream))
		return false;
	if (op_type >= 0 && s->op_mask && !(s->op_mask & (1u << op_type)))
		return false;
	return select_overlaps(s, start_ns, end_ns, first_ns);
}

bool select_window(const struct select *s, int64_t cap_first, int64_t cap_last, int64_t *from,
		   int64_t *to)
{
	*from = cap_first;
	*to = cap_last;
	if (!select_windowed(s) || !s->resolved)
		return false;
	if (s->since_ns > *from)
		*from = s->since_ns;
	if (s->until_ns < *to)
		*to = s->until_ns;
	if (*to < *from)
		*to = *from;
	return true;
}

/* Append the strings (NULL-terminated list) to buf. */
static void append(char *buf, size_t len, size_t *n, const char *a, const char *b)
{
	const char *parts[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		if (!parts[i] || *n >= len)
			continue;
		int k = snprintf(buf + *n, len - *n, "%s", parts[i]);
		if (k > 0)
			*n += (size_t)k;
	}
}

const char *select_describe(const struct select *s, char *buf, size_t len)
{
	size_t n = 0;
	char num[24];
	buf[0] = 0;
	for (int i = 0; i < s->nqps; i++) {
		snprintf(num, sizeof(num), "%u", s->qps[i]);
		append(buf, len, &n, i ? ", " : "QP ", num);
	}
	bool first = true;
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		if (!(s->op_mask & (1u << t)))
			continue;
		append(buf, len, &n, first ? (n ? "; " : "") : ", ", iws_op_type_name((enum iws_op_type)t));
		first = false;
	}
	return buf;
}

const char *select_window_describe(const struct select *s, int64_t cap_first, int64_t cap_last,
				   char *buf, size_t len)
{
	int64_t from, to;
	buf[0] = 0;
	if (!select_window(s, cap_first, cap_last, &from, &to))
		return buf;
	char span[32];
	int64_t rf = from - cap_first, rt = to - cap_first;
	snprintf(buf, len, "window: %s%" PRId64 ".%06" PRId64 " s to %s%" PRId64 ".%06" PRId64
		 " s (%s) of the capture", rf < 0 ? "-" : "+", (rf < 0 ? -rf : rf) / 1000000000,
		 ((rf < 0 ? -rf : rf) % 1000000000) / 1000, rt < 0 ? "-" : "+",
		 (rt < 0 ? -rt : rt) / 1000000000, ((rt < 0 ? -rt : rt) % 1000000000) / 1000,
		 fmt_dur(span, sizeof(span), to - from));
	return buf;
}
