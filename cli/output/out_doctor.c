// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_doctor.c - `iwarpscope doctor`: every rule of the catalogue
 * (iwarpscope/rules.h) the capture breaks, grouped by QP, each with its
 * count, first and last frame, sample frames and, for the rules measured
 * against the direction's FPDUs, the fraction. The findings are the core
 * doctor's (iwarpscope/doctor.h), one per connection, fed by conn.c: the
 * plugin's `tshark -z iwarp,doctor` prints the same ones.
 *
 * Also `doctor --rules`: the catalogue itself (docs/rules.md is made from
 * its JSON), and the --fail-on test of rule ids and severities.
 */
#include <stdio.h>
#include <string.h>

#include "iwarpscope/doctor.h"
#include "findings.h"
#include "out_doctor.h"
#include "out_stats.h"
#include "jsonw.h"
#include "words.h"

static bool fraction_rule(enum iws_rule r)
{
	return iws_rule_info(r)->measure != IWS_MEASURE_NONE;
}

static void finding_json(struct jsonw *j, const struct conn *c, const struct iws_finding_sum *s, bool with_qp)
{
	const struct iws_rule_info *ri = iws_rule_info(s->rule);
	char text[256];
	jw_obj(j);
	if (with_qp)
		jw_ku64(j, "qp", c->stream);
	jw_kstr(j, "rule", ri->id);
	jw_kstr(j, "severity", iws_severity_name(ri->severity));
	jw_kstr(j, "ref", ri->ref);
	jw_kstr(j, "title", ri->title);
	jw_kstr(j, "dir", conn_dir_name(s->dir));
	jw_ku64(j, "count", s->count);
	/* count and max may be lower bounds (iws_finding_sum) */
	jw_kbool(j, "count_at_least", s->count_at_least);
	bool frac = fraction_rule(s->rule);
	jw_kou64(j, "of", frac, s->of);
	jw_kou64(j, "permille", frac, iws_permille(s->count, s->of));
	/* the most an occurrence measured, where the catalogue says what */
	jw_kou64(j, "max", ri->max_what != NULL, s->max_value);
	jw_kbool(j, "max_at_least", s->max_at_least);
	jw_kostr(j, "max_what", ri->max_what);
	jw_ku64(j, "first_frame", s->first_frame);
	jw_ku64(j, "last_frame", s->last_frame);
	jw_key(j, "frames");
	jw_arr_compact(j);
	for (uint32_t i = 0; i < s->nsamples; i++)
		jw_u64(j, s->samples[i]);
	jw_arr_end(j);
	jw_kstr(j, "first", iws_finding_text(text, sizeof(text), &s->first));
	jw_obj_end(j);
}

void doctor_counts(const struct report *r, uint64_t by_sev[IWS_SEVERITY_COUNT], uint32_t *qps_with)
{
	memset(by_sev, 0, IWS_SEVERITY_COUNT * sizeof(by_sev[0]));
	*qps_with = 0;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		uint32_t n;
		const struct iws_finding_sum *s = doctor_findings(c, &n);
		if (n)
			(*qps_with)++;
		for (uint32_t k = 0; k < n; k++)
			by_sev[iws_rule_info(s[k].rule)->severity]++;
	}
}

/* "not_checked": the rules the capture did not let the doctor check on the
 * QP and what it lacked (iws_doctor_unchecked), or null. */
static void not_checked_json(struct jsonw *j, const struct conn *c)
{
	uint32_t unseen;
	uint64_t rules = iws_doctor_unchecked(conn_doctor(c), &unseen);
	if (!rules) {
		jw_knull(j, "not_checked");
		return;
	}
	jw_key(j, "not_checked");
	jw_obj(j);
	jw_key(j, "rules");
	jw_arr_compact(j);
	for (int r = 0; r < IWS_RULE_COUNT; r++)
		if (rules >> r & 1)
			jw_str(j, iws_rule_info((enum iws_rule)r)->id);
	jw_arr_end(j);
	jw_key(j, "not_captured");
	jw_arr_compact(j);
	for (uint32_t bit = IWS_DOC_UNSEEN_START; bit <= IWS_DOC_UNSEEN_LOST; bit <<= 1)
		if (unseen & bit)
			jw_str(j, iws_doctor_unseen_name(bit));
	jw_arr_end(j);
	jw_obj_end(j);
}

static void doctor_json(FILE *f, const struct report *r)
{
	struct jsonw j;
	jw_init(&j, true);
	jw_obj(&j);
	/* with a time window, its bounds: the findings are those of its frames */
	report_window_json(&j, r);
	jw_key(&j, "qps");
	jw_arr(&j);
	const struct conn *c;
	uint32_t nqps = 0;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		char a[64], b[64];
		uint32_t n;
		const struct iws_finding_sum *s = doctor_findings(c, &n);
		nqps++;
		jw_obj(&j);
		jw_ku64(&j, "qp", c->stream);
		jw_kstr(&j, "initiator", conn_ep_str(c, IWS_DIR_I2R, a));
		jw_kstr(&j, "responder", conn_ep_str(c, IWS_DIR_R2I, b));
		jw_key(&j, "findings");
		jw_arr(&j);
		for (uint32_t k = 0; k < n; k++)
			finding_json(&j, c, &s[k], false);
		jw_arr_end(&j);
		not_checked_json(&j, c);
		jw_obj_end(&j);
		jw_drain(&j, f);
	}
	jw_arr_end(&j);
	uint64_t sev[IWS_SEVERITY_COUNT];
	uint32_t with;
	doctor_counts(r, sev, &with);
	jw_key(&j, "total");
	jw_obj(&j);
	jw_ku64(&j, "qps", nqps);
	jw_ku64(&j, "qps_with_findings", with);
	for (int k = 0; k < IWS_SEVERITY_COUNT; k++)
		jw_ku64(&j, iws_severity_name((enum iws_severity)k), sev[k]);
	/* what the rules were not checked on (--max-flows), as in stats */
	jw_ku64(&j, "flows_not_analysed", analysis_counts(r->a)->limit_skipped);
	jw_ku64(&j, "packets_not_analysed", analysis_counts(r->a)->limit_skipped_packets);
	jw_obj_end(&j);
	jw_obj_end(&j);
	jw_flush_line(&j, f);
	jw_free(&j);
}

static void doctor_jsonl(FILE *f, const struct report *r)
{
	struct jsonw j;
	jw_init(&j, false);
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		uint32_t n;
		const struct iws_finding_sum *s = doctor_findings(c, &n);
		for (uint32_t k = 0; k < n; k++) {
			finding_json(&j, c, &s[k], true);
			jw_flush_line(&j, f);
		}
	}
	jw_free(&j);
}

static void doctor_text(FILE *f, const struct report *r)
{
	const struct conn *c;
	uint32_t nqps = 0;
	char line[1024];
	report_window_text(f, r);
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		char a[64], b[64];
		uint32_t n;
		const struct iws_finding_sum *s = doctor_findings(c, &n);
		nqps++;
		fprintf(f, "QP %u  %s -> %s%s\n", c->stream, conn_ep_str(c, IWS_DIR_I2R, a),
			conn_ep_str(c, IWS_DIR_R2I, b), n ? "" : "  no findings");
		for (uint32_t k = 0; k < n; k++)
			fputs(iws_finding_sum_text(line, sizeof(line), &s[k]), f);
		/* once per QP: the rules the capture did not let it check */
		fputs(iws_doctor_unchecked_text(line, sizeof(line), conn_doctor(c)), f);
	}
	uint64_t sev[IWS_SEVERITY_COUNT];
	uint32_t with;
	doctor_counts(r, sev, &with);
	fputs(iws_doctor_total_text(line, sizeof(line), nqps, with, sev), f);
	/* "0 with findings" speaks of the QPs analysed only */
	if (findings_unchecked(r->a, line, sizeof(line)))
		fprintf(f, "not checked: %s\n", line);
}

void doctor_write(FILE *f, const struct report *r)
{
	switch (r->o.format) {
	case FMT_JSON:
		doctor_json(f, r);
		break;
	case FMT_JSONL:
		doctor_jsonl(f, r);
		break;
	default:
		doctor_text(f, r);
		break;
	}
}

bool doctor_fails(const struct report *r)
{
	const struct out_opts *o = &r->o;
	if (!o->fail_rules && !o->fail_severities)
		return false;
	const struct conn *c;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		uint32_t n;
		const struct iws_finding_sum *s = doctor_findings(c, &n);
		for (uint32_t k = 0; k < n; k++)
			if ((o->fail_rules >> s[k].rule & 1) ||
			    (o->fail_severities >> iws_rule_info(s[k].rule)->severity & 1))
				return true;
	}
	return false;
}

void doctor_rules_write(FILE *f, enum out_format fmt)
{
	if (fmt == FMT_JSON || fmt == FMT_JSONL) {
		struct jsonw j;
		jw_init(&j, fmt == FMT_JSON);
		if (fmt == FMT_JSON)
			jw_arr(&j);
		for (int r = 0; r < IWS_RULE_COUNT; r++) {
			const struct iws_rule_info *ri = iws_rule_info((enum iws_rule)r);
			static const char *const measures[] = { "none", "fpdus", "fpdus_mss" };
			jw_obj(&j);
			jw_kstr(&j, "id", ri->id);
			jw_kstr(&j, "severity", iws_severity_name(ri->severity));
			jw_kstr(&j, "ref", ri->ref);
			jw_kstr(&j, "measure", measures[ri->measure]);
			jw_kstr(&j, "title", ri->title);
			jw_kstr(&j, "meaning", ri->meaning);
			jw_kstr(&j, "example", ri->example);
			jw_kstr(&j, "scenario", ri->scenario);
			jw_kostr(&j, "max_what", ri->max_what);
			jw_obj_end(&j);
			if (fmt == FMT_JSONL)
				jw_flush_line(&j, f);
		}
		if (fmt == FMT_JSON) {
			jw_arr_end(&j);
			jw_flush_line(&j, f);
		}
		jw_free(&j);
		return;
	}
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		const struct iws_rule_info *ri = iws_rule_info((enum iws_rule)r);
		fprintf(f, "%-26s %-11s %s\n%26s %11s %s (%s)\n", ri->id, iws_severity_name(ri->severity),
			ri->title, "", "", ri->meaning, ri->ref);
	}
}
