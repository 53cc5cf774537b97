// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's catalogue and its small parsers on byte vectors: every rule
 * has an id, a reference, a meaning and words for an occurrence; ids are
 * unique and dotted by layer; the MSS option is read from TCP options as
 * RFC 9293 §3.2 lays them out (complete, cut short, malformed); the sums
 * keep catalogue order, counts, frame range and samples; and the doctor on
 * connections made octet by octet (stream_builder.h), fed as a front end
 * feeds it: where FPDUs sit in segments, a Reply before any Request, a zero
 * window with a Read outstanding, an MSN gap.
 */
#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/stream_builder.h"
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

/* ---- a connection fed to an engine and its doctor ---- */

static struct {
	struct iws_stream *eng;
	struct iws_doctor *doc;
	struct iws_stream_limits lim;
	uint64_t frame;
	struct sb sb[2];
	uint8_t buf[2][16384];
	uint32_t isn[2];
	int fired[IWS_RULE_COUNT];
} C;

static void c_pdu(void *ctx, const struct iws_pdu *p)
{
	(void)ctx;
	iws_doctor_pdu(C.doc, C.eng, p);
}

static void c_op(void *ctx, const struct iws_op *op)
{
	(void)ctx;
	iws_doctor_op(C.doc, C.eng, op);
}

static void c_event(void *ctx, const struct iws_stream_event *ev)
{
	(void)ctx;
	iws_doctor_event(C.doc, C.eng, ev);
}

static void c_finding(void *ctx, const struct iws_finding *f)
{
	(void)ctx;
	CHECK(f->frame >= 1 && f->frame <= C.frame);
	C.fired[f->rule]++;
}

static const struct iws_stream_sink c_sink = { c_pdu, c_op, NULL, c_event };
static const struct iws_doctor_sink c_dsink = { c_finding };

static void c_begin(void)
{
	memset(&C, 0, sizeof(C));
	struct iws_stream_opts o = { true, false, 0 };
	C.eng = iws_stream_new(&o, &C.lim, &c_sink, NULL);
	C.doc = iws_doctor_new(&c_dsink, NULL);
	for (int k = 0; k < 2; k++) {
		C.isn[k] = k ? 0x80000000u : 1000;
		C.sb[k] = (struct sb){ C.buf[k], sizeof(C.buf[k]), 0, C.isn[k] + 1, 0, 0, 0, 0 };
	}
}

static void c_seg(int side, uint32_t seq, uint8_t flags, uint16_t win, const uint8_t *p, uint32_t n)
{
	static const uint8_t mss[4] = { 2, 4, 0x05, 0xb4 };
	uint32_t ack = C.sb[!side].seq0 + (uint32_t)C.sb[!side].len;
	struct iws_tcp_seg g = { seq, (flags & IWS_TCP_ACK) ? ack : 0, win, flags, p, n, n, ++C.frame,
				 1700000000000000000ll + (int64_t)C.frame * 1000 };
	iws_doctor_segment(C.doc, C.eng, side, &g, mss, (flags & IWS_TCP_SYN) ? 4 : 0);
	iws_stream_segment(C.eng, side, &g);
}

/* Octets [from, to) of side's stream in one segment. */
static void c_send(int side, size_t from, size_t to)
{
	c_seg(side, C.sb[side].seq0 + (uint32_t)from, IWS_TCP_ACK | IWS_TCP_PSH, 1000, C.buf[side] + from,
	      (uint32_t)(to - from));
}

static void c_syns(void)
{
	c_seg(0, C.isn[0], IWS_TCP_SYN, 1000, NULL, 0);
	c_seg(1, C.isn[1], IWS_TCP_SYN | IWS_TCP_ACK, 1000, NULL, 0);
}

/* SYNs, the Request (S, IRD/ORD 8), the Reply: both sides' streams after
 * their MPA frames are what follows in C.sb. */
static void c_open(void)
{
	c_syns();
	sb_mpa_frame(&C.sb[0], 0, 0x10, 8, 8);
	c_send(0, 0, C.sb[0].len);
	sb_mpa_frame(&C.sb[1], 1, 0x10, 8, 8);
	c_send(1, 0, C.sb[1].len);
}

static uint64_t c_count(enum iws_rule r, uint8_t dir, uint64_t *of)
{
	uint32_t n;
	const struct iws_finding_sum *s = iws_doctor_sums(C.doc, &n);
	for (uint32_t i = 0; i < n; i++)
		if (s[i].rule == r && s[i].dir == dir) {
			if (of)
				*of = s[i].of;
			return s[i].count;
		}
	return 0;
}

static void c_end(void)
{
	iws_stream_finish(C.eng, IWS_OPF_UNFINISHED);
	iws_doctor_finish(C.doc, C.eng);
	uint32_t n, total = 0;
	const struct iws_finding_sum *s = iws_doctor_sums(C.doc, &n);
	for (uint32_t i = 0; i < n; i++)
		total += (uint32_t)s[i].count;
	int fired = 0;
	for (int r = 0; r < IWS_RULE_COUNT; r++)
		fired += C.fired[r];
	CHECK_EQ(fired, total);   /* the sink heard every occurrence the sums count */
}

static void c_free(void)
{
	iws_doctor_free(C.doc);
	iws_stream_free(C.eng);
	CHECK_EQ(C.lim.buf_used, 0);
}

/* RFC 5044 App. A: segments begin with an FPDU and hold whole FPDUs. */
static void placement(void)
{
	uint8_t u[2048];
	c_begin();
	c_open();
	size_t a = C.sb[0].len;
	/* an FPDU of 1448 octets as 1444 + its CRC (siw without CRC) */
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 1, 0, 1, 1424), 1);
	size_t b = C.sb[0].len;
	CHECK_EQ(b - a, 1448);
	c_send(0, a, b - 4);
	c_send(0, b - 4, b);
	/* three FPDUs in one segment: two packed */
	for (uint32_t k = 0; k < 3; k++)
		sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 2 + k, 0, 1, 100), 1);
	size_t c = C.sb[0].len;
	c_send(0, b, c);
	/* two FPDUs streamed: the second starts inside a segment that began in
	 * the first (not aligned), and both are split */
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 5, 0, 1, 300), 1);
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 6, 0, 1, 300), 1);
	size_t d = C.sb[0].len;
	c_send(0, c, c + 200);
	c_send(0, c + 200, c + 500);
	c_send(0, c + 500, d);
	/* one FPDU longer than the MSS (1460) in one TSO-like segment */
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 7, 0, 1, 1600), 1);
	c_send(0, d, C.sb[0].len);
	c_end();
	uint64_t of;
	CHECK_EQ(c_count(IWS_RULE_FRAMING_FPDU_SPLIT, IWS_DIR_I2R, &of), 3);
	CHECK_EQ(of, 7);
	CHECK_EQ(c_count(IWS_RULE_FRAMING_FPDU_PACKED, IWS_DIR_I2R, &of), 2);
	CHECK_EQ(c_count(IWS_RULE_FRAMING_FPDU_UNALIGNED, IWS_DIR_I2R, &of), 1);
	CHECK_EQ(c_count(IWS_RULE_FRAMING_FPDU_OVER_MSS, IWS_DIR_I2R, &of), 1);
	CHECK_EQ(of, 7);
	CHECK_EQ(c_count(IWS_RULE_MPA_KEY, IWS_DIR_I2R, NULL) + c_count(IWS_RULE_MPA_KEY, IWS_DIR_R2I, NULL), 0);
	c_free();
}

/* RFC 5044 §7.1.2: the responder answers a Request, it does not speak first;
 * and a Reply that acknowledges the Request is fine even if the capture
 * missed the Request. */
static void reply_first(void)
{
	c_begin();
	c_syns();
	sb_mpa_frame(&C.sb[1], 1, 0x10, 8, 8);
	c_send(1, 0, C.sb[1].len);   /* acknowledges nothing of side 0's stream */
	sb_mpa_frame(&C.sb[0], 0, 0x10, 8, 8);
	c_send(0, 0, C.sb[0].len);
	c_end();
	CHECK_EQ(c_count(IWS_RULE_MPA_KEY, IWS_DIR_R2I, NULL) + c_count(IWS_RULE_MPA_KEY, IWS_DIR_I2R, NULL), 1);
	c_free();

	c_begin();
	c_syns();
	sb_mpa_frame(&C.sb[0], 0, 0x10, 8, 8);   /* sent, never captured */
	sb_mpa_frame(&C.sb[1], 1, 0x10, 8, 8);
	c_send(1, 0, C.sb[1].len);
	c_end();
	CHECK_EQ(c_count(IWS_RULE_MPA_KEY, IWS_DIR_R2I, NULL) + c_count(IWS_RULE_MPA_KEY, IWS_DIR_I2R, NULL), 0);
	c_free();
}

/* A zero window with a Read outstanding (performance), none once it was
 * answered; an MSN gap of the Send queue. */
static void window_and_msn(void)
{
	uint8_t u[256];
	c_begin();
	c_open();
	size_t a = C.sb[0].len;
	sb_fpdu(&C.sb[0], u, sb_read_req_ulpdu(u, 1, 0x100, 0x1000, 64, 0x200, 0x2000), 1);
	c_send(0, a, C.sb[0].len);
	c_seg(0, C.sb[0].seq0 + (uint32_t)C.sb[0].len, IWS_TCP_ACK, 0, NULL, 0);   /* window 0 */
	size_t r = C.sb[1].len;
	sb_fpdu(&C.sb[1], u, sb_tagged_ulpdu(u, 0x2, 0x100, 0x1000, 1, 64), 1);
	c_send(1, r, C.sb[1].len);
	c_seg(0, C.sb[0].seq0 + (uint32_t)C.sb[0].len, IWS_TCP_ACK, 0, NULL, 0);   /* nothing outstanding */
	size_t b = C.sb[0].len;
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 1, 0, 1, 10), 1);
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 3, 0, 1, 10), 1);   /* MSN 2 skipped */
	c_send(0, b, C.sb[0].len);
	c_end();
	CHECK_EQ(c_count(IWS_RULE_CONN_ZERO_WINDOW_READS, IWS_DIR_I2R, NULL), 1);
	CHECK_EQ(c_count(IWS_RULE_DDP_MSN_GAP, IWS_DIR_I2R, NULL), 1);
	CHECK_EQ(c_count(IWS_RULE_DDP_MSN_REPEAT, IWS_DIR_I2R, NULL), 0);
	CHECK_EQ(c_count(IWS_RULE_RDMAP_ORPHAN_RESPONSE, IWS_DIR_R2I, NULL), 0);
	c_free();
}

int main(void)
{
	catalogue();
	mss_option();
	sum_text();
	placement();
	reply_first();
	window_and_msn();
	return check_done("test_doctor");
}
