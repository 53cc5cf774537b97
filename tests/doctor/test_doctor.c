// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's catalogue and its small parsers on byte vectors: every rule
 * has an id, a reference, a meaning and words for an occurrence; ids are
 * unique and dotted by layer; the MSS option is read from TCP options as
 * RFC 9293 §3.2 lays them out (complete, cut short, malformed); the sums
 * keep catalogue order, counts, frame range and samples.
 */
#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "iwarpscope/doctor.h"

static void catalogue(void)
{
	static const char *const layers[] = { "mpa.", "framing.", "ddp.", "rdmap.", "conn." };
	size_t layer = 0;
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		const struct iws_rule_info *ri = iws_rule_info((enum iws_rule)r);
		CHECK(ri && ri->id && ri->ref && ri->title && ri->meaning && ri->example && ri->scenario);
		if (!ri)
			continue;
		CHECK(*ri->ref && *ri->title && strlen(ri->meaning) > 20 && *ri->example);
		CHECK_EQ(iws_rule_from_id(ri->id), r);
		CHECK((unsigned)ri->severity < IWS_SEVERITY_COUNT);
		/* grouped by layer, in catalogue order */
		while (layer < 5 && strncmp(ri->id, layers[layer], strlen(layers[layer])) != 0)
			layer++;
		CHECK(layer < 5);
		/* the generator scenario: doctor- and the id, dots and underscores as dashes */
		char want[64] = "doctor-";
		size_t n = strlen(want);
		for (const char *p = ri->id; *p && n + 1 < sizeof(want); p++)
			want[n++] = (*p == '.' || *p == '_') ? '-' : *p;
		want[n] = 0;
		CHECK(strcmp(ri->scenario, want) == 0);
		/* words for an occurrence, whatever its values */
		char buf[256];
		struct iws_finding f = { (enum iws_rule)r, IWS_DIR_I2R, 7, { 1, 2, 3 } };
		iws_finding_text(buf, sizeof(buf), &f);
		CHECK(buf[0] && strcmp(buf, "?") != 0);
		f.v[0] = UINT64_MAX;
		f.v[1] = UINT64_MAX;
		f.v[2] = UINT64_MAX;
		iws_finding_text(buf, sizeof(buf), &f);
		CHECK(strlen(buf) < sizeof(buf));
		iws_finding_text(buf, 8, &f);
		CHECK(strlen(buf) < 8);
	}
	CHECK(iws_rule_info(IWS_RULE_COUNT) == NULL);
	CHECK_EQ(iws_rule_from_id("mpa.nonesuch"), (unsigned long long)-1);
	CHECK_EQ(iws_rule_from_id(NULL), (unsigned long long)-1);
	CHECK_EQ(iws_severity_from_name("deviation"), IWS_SEVERITY_DEVIATION);
	CHECK_EQ(iws_severity_from_name("warning"), (unsigned long long)-1);
	CHECK(strcmp(iws_severity_name(IWS_SEVERITY_PERFORMANCE), "performance") == 0);
	CHECK(strcmp(iws_severity_name(IWS_SEVERITY_COUNT), "?") == 0);
	CHECK(iws_rule_info(IWS_RULE_FRAMING_FPDU_SPLIT)->measure == IWS_MEASURE_FPDUS);
	CHECK(iws_rule_info(IWS_RULE_FRAMING_FPDU_OVER_MSS)->measure == IWS_MEASURE_FPDUS_MSS);
	CHECK(iws_rule_info(IWS_RULE_MPA_RTR_MISMATCH)->measure == IWS_MEASURE_NONE);
}

static void mss_option(void)
{
	uint8_t o[64];
	/* Linux's SYN: MSS 1460, SACK permitted, timestamps, NOP, window scale */
	size_t n = hex2bin("020405b4 0402 080a 11223344 00000000 01 030307", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 1460);
	/* NOPs first, MSS last */
	n = hex2bin("01 01 0402 020423 28", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 9000);
	/* none, end of list before it, cut short, a length of 1, MSS of length 3 */
	n = hex2bin("0402 080a 11223344 00000000", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 0);
	n = hex2bin("00 020405b4", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 0);
	n = hex2bin("020405", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 0);
	n = hex2bin("0801 020405b4", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 0);
	n = hex2bin("020305 01", o, sizeof(o));
	CHECK_EQ(iws_tcp_opt_mss(o, n), 0);
	CHECK_EQ(iws_tcp_opt_mss(NULL, 4), 0);
	CHECK_EQ(iws_tcp_opt_mss(o, 0), 0);
}

/* A doctor fed findings through a real stream engine would need a capture:
 * here the sums alone, through the public text of a sum. */
static void sum_text(void)
{
	struct iws_finding_sum s;
	memset(&s, 0, sizeof(s));
	s.rule = IWS_RULE_FRAMING_FPDU_SPLIT;
	s.dir = IWS_DIR_R2I;
	s.count = 4496;
	s.of = 4600;
	s.first_frame = 43;
	s.last_frame = 13950;
	s.nsamples = 2;
	s.samples[0] = 43;
	s.samples[1] = 49;
	s.first = (struct iws_finding){ IWS_RULE_FRAMING_FPDU_SPLIT, IWS_DIR_R2I, 43, { 1448, 0, 0 } };
	char buf[1024];
	iws_doctor_total_text(buf, sizeof(buf), 2, 1, (const uint64_t[3]){ 0, 2, 1 });
	CHECK(strcmp(buf, "2 QPs, 1 with findings: 0 error, 2 deviation, 1 performance rules broken\n") == 0);
	iws_finding_sum_text(buf, sizeof(buf), &s);
	CHECK(strstr(buf, "framing.fpdu_split") && strstr(buf, " r2i  4496 of 4600 FPDUs (97.7%)"));
	CHECK(strstr(buf, "frames 43..13950: 43 49 ...\n"));
	CHECK(strstr(buf, "FPDU of 1448 octets not within one TCP segment"));
	CHECK_EQ(iws_permille(1, 3), 333);
	CHECK_EQ(iws_permille(2, 3), 667);
	CHECK_EQ(iws_permille(5, 0), 0);
	/* cut short, still terminated */
	iws_finding_sum_text(buf, 20, &s);
	CHECK(strlen(buf) < 20);
}

int main(void)
{
	catalogue();
	mss_option();
	sum_text();
	return check_done("test_doctor");
}
