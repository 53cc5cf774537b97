// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's catalogue and its small parsers on byte vectors: every rule
 * has an id, a reference, a meaning and words for an occurrence; ids are
 * unique and dotted by layer; the MSS option is read from TCP options as
 * RFC 9293 §3.2 lays them out (complete, cut short, malformed); the sums
 * keep catalogue order, counts, frame range and samples; and the doctor on
 * connections made octet by octet (stream_builder.h), fed as a front end
 * feeds it: one deviation per connection (MPA frames, negotiation, RTR,
 * CRC, pads, markers, where FPDUs sit in segments, DDP and RDMAP headers,
 * Reads, Terminates, closing with operations outstanding), each firing
 * exactly the rule it breaks and clean connections none. Every rule fires
 * here but the three marker grids the engine itself recognises (FPDUPTR
 * little-endian, the grid that skips the CRC, a shifted grid): their
 * generated scenarios test them (doctor_truth).
 */
#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/stream_builder.h"
#include "iwarpscope/doctor.h"

static void catalogue(void)
{
	static const char *const layers[] = { "mpa.", "framing.", "ddp.", "rdmap.", "conn.", "rpc." };
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
		while (layer < 6 && strncmp(ri->id, layers[layer], strlen(layers[layer])) != 0)
			layer++;
		CHECK(layer < 6);
		/* the generator scenario: doctor- and the id, dots and underscores as dashes */
		char want[64] = "doctor-";
		size_t n = strlen(want);
		for (const char *p = ri->id; *p && n + 1 < sizeof(want); p++)
			want[n++] = (*p == '.' || *p == '_') ? '-' : *p;
		want[n] = 0;
		CHECK(strcmp(ri->scenario, want) == 0);
		/* words for an occurrence, whatever its values */
		char buf[256];
		struct iws_finding f = { (enum iws_rule)r, IWS_DIR_I2R, 7, { 1, 2, 3 }, false };
		iws_finding_text(buf, sizeof(buf), &f);
		CHECK(buf[0] && strcmp(buf, "?") != 0);
		f.v[0] = UINT64_MAX;
		f.v[1] = UINT64_MAX;
		f.v[2] = UINT64_MAX;
		iws_finding_text(buf, sizeof(buf), &f);
		CHECK(strlen(buf) < sizeof(buf));
		iws_finding_text(buf, 8, &f);
		CHECK(strlen(buf) < 8);
		f.at_least = true;
		iws_finding_text(buf, sizeof(buf), &f);
		CHECK(buf[0] && strcmp(buf, "?") != 0 && strlen(buf) < sizeof(buf));
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

/* Window scale (RFC 7323 §2) and SACK blocks (RFC 2018 §3): the report's
 * time-sequence view draws the receive window and the SACKed octets. */
static void wscale_sack_options(void)
{
	uint8_t o[64];
	struct iws_tcp_opts t;
	size_t n = hex2bin("020405b4 0402 080a 11223344 00000000 01 030307", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ(t.mss, 1460);
	CHECK_EQ(t.wscale, 7);
	CHECK_EQ(t.nsack, 0);
	/* a shift count above 14 is taken as 14 (RFC 7323 §2.3) */
	n = hex2bin("030310", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ(t.wscale, 14);
	/* no option: -1 */
	n = hex2bin("0402 01 01", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ((int)t.wscale, -1);
	/* timestamps and two SACK blocks, as an ACK during recovery carries */
	n = hex2bin("0101 080a 00000001 00000002 0101 0512 00001000 00002000 00003000 00003800", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ(t.nsack, 2);
	CHECK_EQ(t.sack_l[0], 0x1000);
	CHECK_EQ(t.sack_r[0], 0x2000);
	CHECK_EQ(t.sack_l[1], 0x3000);
	CHECK_EQ(t.sack_r[1], 0x3800);
	/* a SACK option whose length is not 2 + 8n, and one cut short: none */
	n = hex2bin("050b 00001000 00002000 00", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ(t.nsack, 0);
	n = hex2bin("050a 00001000 0000", o, sizeof(o));
	iws_tcp_opts_parse(o, n, &t);
	CHECK_EQ(t.nsack, 0);
	iws_tcp_opts_parse(NULL, 8, &t);
	CHECK_EQ(t.nsack, 0);
	CHECK_EQ((int)t.wscale, -1);
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
	s.first = (struct iws_finding){ IWS_RULE_FRAMING_FPDU_SPLIT, IWS_DIR_R2I, 43, { 1448, 0, 0 }, false };
	char buf[1024];
	iws_doctor_total_text(buf, sizeof(buf), 2, 1, (const uint64_t[3]){ 0, 2, 1 });
	CHECK(strcmp(buf, "2 QPs, 1 with findings: 0 error, 2 deviation, 1 performance findings\n") == 0);
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
	/* lower bounds: a count, the most outstanding */
	memset(&s, 0, sizeof(s));
	s.rule = IWS_RULE_FRAMING_MARKER_SKIP_CRC;
	s.count = 1;
	s.count_at_least = true;
	s.first_frame = s.last_frame = 3;
	s.first = (struct iws_finding){ IWS_RULE_FRAMING_MARKER_SKIP_CRC, IWS_DIR_I2R, 3, { 0, 0, 0 }, true };
	iws_finding_sum_text(buf, sizeof(buf), &s);
	CHECK(strstr(buf, "framing.marker_skip_crc    i2r  at least 1  frames 3..3"));
	CHECK(strstr(buf, "SeqStart not captured"));
	memset(&s, 0, sizeof(s));
	s.rule = IWS_RULE_CONN_RST_OUTSTANDING;
	s.dir = IWS_DIR_R2I;
	s.count = 1;
	s.max_value = 32;
	s.max_at_least = true;
	s.first = (struct iws_finding){ IWS_RULE_CONN_RST_OUTSTANDING, IWS_DIR_R2I, 9, { 32, 0, 0 }, true };
	iws_finding_sum_text(buf, sizeof(buf), &s);
	CHECK(strstr(buf, " r2i  1, most operations outstanding: at least 32  frames"));
}

/* ---- a connection fed to an engine and its doctor ---- */

static struct {
	struct iws_stream *eng;
	const struct iws_doctor *doc;   /* the engine's doctor stage */
	struct iws_stream_limits lim;
	uint64_t frame;
	struct sb sb[2];
	uint8_t buf[2][16384];
	uint32_t isn[2];
	int fired[IWS_RULE_COUNT];
} C;

/* The rules some connection of this file made fire. */
static int covered[IWS_RULE_COUNT];

static void c_finding(void *ctx, const struct iws_finding *f)
{
	(void)ctx;
	CHECK(f->frame >= 1 && f->frame <= C.frame);
	C.fired[f->rule]++;
	covered[f->rule]++;
}

/* The engine feeds its doctor stage itself: no front end's sink. */
static const struct iws_stream_sink c_sink = { NULL, NULL, NULL, NULL, NULL };
static const struct iws_doctor_sink c_dsink = { c_finding };

/* A connection whose doctor tells dsink, counting the frames keep accepts
 * (NULL: all). */
static void c_begin_with(const struct iws_doctor_sink *dsink, bool (*keep)(void *ctx, uint64_t frame),
			 void *keep_ctx)
{
	memset(&C, 0, sizeof(C));
	struct iws_stream_opts o = { true, false, 0, { 0, 0 } };
	C.eng = iws_stream_new(&o, &C.lim, &c_sink, NULL);
	CHECK(iws_stream_doctor_stage(C.eng, dsink, NULL, keep, keep_ctx));
	C.doc = iws_stream_doctor(C.eng);
	CHECK(C.doc != NULL);
	for (int k = 0; k < 2; k++) {
		C.isn[k] = k ? 0x80000000u : 1000;
		C.sb[k] = (struct sb){ C.buf[k], sizeof(C.buf[k]), 0, C.isn[k] + 1, 0, 0, 0, 0 };
	}
}

static void c_begin(void)
{
	c_begin_with(&c_dsink, NULL, NULL);
}

static void c_seg(int side, uint32_t seq, uint8_t flags, uint16_t win, const uint8_t *p, uint32_t n)
{
	static const uint8_t mss[4] = { 2, 4, 0x05, 0xb4 };
	uint32_t ack = C.sb[!side].seq0 + (uint32_t)C.sb[!side].len;
	struct iws_tcp_seg g = { seq, (flags & IWS_TCP_ACK) ? ack : 0, win, flags, p, n, n, ++C.frame,
				 1700000000000000000ll + (int64_t)C.frame * 1000, false, 0,
				 (flags & IWS_TCP_SYN) ? mss : NULL, (flags & IWS_TCP_SYN) ? 4 : 0 };
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
	if (of)
		*of = 0;
	return 0;
}

static void c_end(void)
{
	iws_stream_finish(C.eng, IWS_OPF_UNFINISHED);
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
	iws_stream_free(C.eng);
	CHECK_EQ(C.lim.buf_used, 0);
}

/* The findings' frames (of the rules placement() breaks) as the sink heard them. */
static uint64_t heard[64];
static enum iws_rule heard_rule[64];
static uint32_t nheard;

static void c_heard(void *ctx, const struct iws_finding *f)
{
	c_finding(ctx, f);
	if (nheard < 64) {
		heard_rule[nheard] = f->rule;
		heard[nheard++] = f->frame;
	}
}

/* A front end's time window (iws_doctor_keep): the frames from *ctx on. */
static bool from_frame(void *ctx, uint64_t frame)
{
	return frame >= *(const uint64_t *)ctx;
}

/* The segments of placement(): FPDUs split, packed, not aligned, over the MSS. */
static void placement_feed(void)
{
	uint8_t u[2048];
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
}

/* RFC 5044 App. A: segments begin with an FPDU and hold whole FPDUs. */
static void placement(void)
{
	c_begin();
	placement_feed();
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

/* iws_doctor_keep: only the findings shown in the frames kept count (and are
 * told), each rule as many as the whole connection's in those frames; a
 * fraction rule measures the FPDUs of those frames only. */
static void placement_kept(void)
{
	static const struct iws_doctor_sink hs = { c_heard };
	static const enum iws_rule rules[] = { IWS_RULE_FRAMING_FPDU_SPLIT, IWS_RULE_FRAMING_FPDU_PACKED,
					       IWS_RULE_FRAMING_FPDU_UNALIGNED, IWS_RULE_FRAMING_FPDU_OVER_MSS };
	/* the whole connection, its findings' frames heard */
	c_begin_with(&hs, NULL, NULL);
	nheard = 0;
	placement_feed();
	c_end();
	uint32_t whole = nheard;
	uint64_t frames[64];
	enum iws_rule fr_rule[64];
	memcpy(frames, heard, sizeof(frames));
	memcpy(fr_rule, heard_rule, sizeof(fr_rule));
	c_free();
	/* from frame 7 on: the three FPDUs packed in one segment onwards (the
	 * first FPDU, split over frames 5 and 6, left out) */
	uint64_t from = 7;
	c_begin_with(&hs, from_frame, &from);
	nheard = 0;
	placement_feed();
	c_end();
	for (uint32_t i = 0; i < nheard; i++)
		CHECK(heard[i] >= from);
	uint32_t inside = 0;
	for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++) {
		uint64_t want = 0, of;
		for (uint32_t i = 0; i < whole; i++)
			want += fr_rule[i] == rules[k] && frames[i] >= from;
		CHECK_EQ(c_count(rules[k], IWS_DIR_I2R, &of), want);
		inside += (uint32_t)want;
		/* of the 7 FPDUs measured, the 6 completed from frame 7 on */
		if (want)
			CHECK_EQ(of, 6);
	}
	CHECK_EQ(nheard, inside);
	CHECK(inside > 0 && inside < whole);
	c_free();
}

/* The doctor is a stage of the engine (stream.h iws_stream_doctor_stage):
 * off unless turned on before the first segment, turned on once; the engine
 * feeds it with no front end's sink (c_sink has no callback). */
static void stage(void)
{
	struct iws_stream_limits lim;
	memset(&lim, 0, sizeof(lim));
	struct iws_stream_opts o = { true, false, 0, { 0, 0 } };
	struct iws_stream *s = iws_stream_new(&o, &lim, &c_sink, NULL);
	CHECK(s != NULL);
	CHECK(iws_stream_doctor(s) == NULL);
	CHECK(iws_stream_doctor_stage(s, NULL, NULL, NULL, NULL));
	const struct iws_doctor *d = iws_stream_doctor(s);
	CHECK(d != NULL);
	CHECK(!iws_stream_doctor_stage(s, NULL, NULL, NULL, NULL));
	CHECK(iws_stream_doctor(s) == d);
	iws_stream_free(s);

	s = iws_stream_new(&o, &lim, &c_sink, NULL);
	struct iws_tcp_seg g = { 1000, 0, 1000, IWS_TCP_SYN, NULL, 0, 0, 1, 1, false, 0, NULL, 0 };
	iws_stream_segment(s, 0, &g);
	CHECK(!iws_stream_doctor_stage(s, NULL, NULL, NULL, NULL));   /* too late: it missed the SYN */
	CHECK(iws_stream_doctor(s) == NULL);
	iws_stream_free(s);
	CHECK_EQ(lim.buf_used, 0);

	/* the connection of reply_first() below, its MPA key finding found by
	 * the engine's feed alone */
	c_begin();
	c_syns();
	sb_mpa_frame(&C.sb[1], 1, 0x10, 8, 8);
	c_send(1, 0, C.sb[1].len);
	sb_mpa_frame(&C.sb[0], 0, 0x10, 8, 8);
	c_send(0, 0, C.sb[0].len);
	c_end();
	CHECK_EQ(C.fired[IWS_RULE_MPA_KEY], 1);
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

/* ---- one deviation per connection: exactly the rules expected fire ---- */

struct want {
	enum iws_rule rule;
	uint8_t dir;
	uint64_t count;
};

/* The sums hold exactly these (rule, direction, count), nothing else. */
static void c_expect(const char *what, const struct want *w, size_t nw)
{
	uint32_t n;
	const struct iws_finding_sum *s = iws_doctor_sums(C.doc, &n);
	bool ok = n == nw;
	for (size_t i = 0; i < nw; i++)
		ok = ok && c_count(w[i].rule, w[i].dir, NULL) == w[i].count;
	CHECK(ok);
	if (ok)
		return;
	fprintf(stderr, "  %s: the doctor found", what);
	for (uint32_t i = 0; i < n; i++)
		fprintf(stderr, " %s/%s x%llu", iws_rule_info(s[i].rule)->id, s[i].dir == IWS_DIR_I2R ? "i2r" : "r2i",
			(unsigned long long)s[i].count);
	fprintf(stderr, "; expected");
	for (size_t i = 0; i < nw; i++)
		fprintf(stderr, " %s/%s x%llu", iws_rule_info(w[i].rule)->id, w[i].dir == IWS_DIR_I2R ? "i2r" : "r2i",
			(unsigned long long)w[i].count);
	fprintf(stderr, "\n");
}

#define EXPECT(what, ...)                                                            \
	do {                                                                         \
		static const struct want w_[] = { __VA_ARGS__ };                      \
		c_expect(what, w_, sizeof(w_) / sizeof(w_[0]));                       \
	} while (0)
#define EXPECT_NONE(what) c_expect(what, NULL, 0)

/* An MPA Request (side 0) or Reply (side 1) as RFC 5044 §7.1.1 lays it out,
 * every field given: key, flags, revision, private data length; with S the
 * RFC 6581 §5.1 words lead the private data, the rest is zeros. Sent in
 * one segment. */
static void c_mpa(int side, const char *key, uint8_t flags, uint8_t rev, uint16_t pd, uint16_t ird_word,
		  uint16_t ord_word)
{
	struct sb *b = &C.sb[side];
	size_t a = b->len;
	for (int i = 0; i < 16; i++)
		sb_raw(b, (uint8_t)key[i]);
	sb_raw(b, flags);
	sb_raw(b, rev);
	sb_raw(b, (uint8_t)(pd >> 8));
	sb_raw(b, (uint8_t)pd);
	for (uint16_t i = 0; i < pd; i++) {
		uint16_t word = i < 2 ? ird_word : ord_word;
		sb_raw(b, (flags & 0x10) && i < 4 ? (uint8_t)(i & 1 ? word : word >> 8) : 0);
	}
	c_send(side, a, b->len);
}

static const char REQ[] = "MPA ID Req Frame", REP[] = "MPA ID Rep Frame";

/* SYNs, then an enhanced (RFC 6581) Request and Reply with these flags (S
 * added) and IRD/ORD words. */
static void c_open_with(uint8_t req_flags, uint16_t req_ird, uint16_t req_ord, uint8_t rep_flags, uint16_t rep_ird,
			uint16_t rep_ord)
{
	c_syns();
	c_mpa(0, REQ, (uint8_t)(req_flags | 0x10), 2, 4, req_ird, req_ord);
	c_mpa(1, REP, (uint8_t)(rep_flags | 0x10), 2, 4, rep_ird, rep_ord);
}

/* One FPDU carrying u[0..n) sent by side in a segment of its own. */
static void c_fpdu(int side, const uint8_t *u, uint16_t n, int crc_mode)
{
	size_t a = C.sb[side].len;
	sb_fpdu(&C.sb[side], u, n, crc_mode);
	c_send(side, a, C.sb[side].len);
}

/* A Terminate (RFC 5040 §4.8) on queue 2: layer/etype, error code, no
 * header quoted. */
static uint16_t term_ulpdu(uint8_t *u, uint32_t msn, uint8_t layer_etype, uint8_t code)
{
	memset(u, 0, 28);
	u[0] = 0x41;
	u[1] = 0x47;
	put_be32(u + 6, 2);
	put_be32(u + 10, msn);
	u[18] = layer_etype;
	u[19] = code;
	return 28;
}

/* The MPA set-up: every field of RFC 5044 §7.1 and RFC 6581 checked, one
 * deviation per connection. */
static void mpa_setup(void)
{
	uint8_t u[64];
	/* clean: enhanced, CRC, IRD/ORD 8, a Send each way */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT_NONE("clean enhanced set-up");
	c_free();

	/* the frames' own fields (RFC 5044 §7.1.1): each side's key, flags,
	 * revision and private data length (a key of NULL: nothing sent) */
	static const struct {
		const char *what;
		const char *key[2];
		uint8_t flags[2], rev[2];
		uint16_t pd[2];
		enum iws_rule rule;
		uint8_t dir;
	} frames[] = {
		{ "a key neither Request nor Reply", { "MPA ID Bad Frame", NULL }, { 0x10, 0 }, { 2, 0 }, { 4, 0 },
		  IWS_RULE_MPA_KEY, IWS_DIR_I2R },
		{ "two Requests", { REQ, REQ }, { 0x10, 0x10 }, { 2, 2 }, { 4, 4 }, IWS_RULE_MPA_KEY, IWS_DIR_R2I },
		{ "revision 3", { REQ, NULL }, { 0, 0 }, { 3, 0 }, { 0, 0 }, IWS_RULE_MPA_REVISION, IWS_DIR_I2R },
		{ "a Reply above the Request's revision", { REQ, REP }, { 0, 0x10 }, { 1, 2 }, { 0, 4 },
		  IWS_RULE_MPA_REVISION, IWS_DIR_R2I },
		{ "S in a revision 1 Request", { REQ, NULL }, { 0x10, 0 }, { 1, 0 }, { 4, 0 }, IWS_RULE_MPA_REVISION,
		  IWS_DIR_I2R },
		{ "600 octets of private data", { REQ, NULL }, { 0x10, 0 }, { 2, 0 }, { 600, 0 }, IWS_RULE_MPA_PD_LEN,
		  IWS_DIR_I2R },
	};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		c_begin();
		c_syns();
		for (int side = 0; side < 2; side++)
			if (frames[i].key[side])
				c_mpa(side, frames[i].key[side], frames[i].flags[side], frames[i].rev[side],
				      frames[i].pd[side], 8, 8);
		c_end();
		struct want w = { frames[i].rule, frames[i].dir, 1 };
		c_expect(frames[i].what, &w, 1);
		c_free();
	}

	/* the Request's and Reply's flags and IRD/ORD words, one deviation each */
	static const struct {
		const char *what;
		uint8_t req_flags;
		uint16_t req_ird, req_ord;
		uint8_t rep_flags;
		uint16_t rep_ird, rep_ord;
		enum iws_rule rule;
		uint8_t dir;
	} setup[] = {
		{ "reserved 0x01", 0x01, 8, 8, 0x00, 8, 8, IWS_RULE_MPA_RESERVED_FLAGS, IWS_DIR_I2R },
		{ "R in a Request", 0x20, 8, 8, 0x00, 8, 8, IWS_RULE_MPA_RESERVED_FLAGS, IWS_DIR_I2R },
		{ "siw's GSO flag", 0x00, 8, 8, 0x08, 8, 8, IWS_RULE_MPA_SIW_GSO_FLAG, IWS_DIR_R2I },
		{ "a reject", 0x00, 8, 8, 0x20, 8, 8, IWS_RULE_MPA_REJECT, IWS_DIR_R2I },
		/* RFC 6581 §5: the responder's ORD at most the initiator's IRD */
		{ "ORD above IRD", 0x00, 4, 8, 0x00, 8, 16, IWS_RULE_MPA_IRD_ORD, IWS_DIR_R2I },
		/* RFC 6581 §7: peer to peer only when asked, one RTR type offered */
		{ "P2P not asked", 0x00, 8, 8, 0x00, 0x8000 | 8, 0x8000 | 8, IWS_RULE_MPA_P2P_NEGOTIATION,
		  IWS_DIR_R2I },
		{ "two RTR types", 0x00, 0xC000 | 8, 0x8000 | 8, 0x00, 0xC000 | 8, 0x8000 | 8,
		  IWS_RULE_MPA_P2P_NEGOTIATION, IWS_DIR_R2I },
		{ "an RTR type not offered", 0x00, 0x8000 | 8, 0x8000 | 8, 0x00, 0xC000 | 8, 8,
		  IWS_RULE_MPA_P2P_NEGOTIATION, IWS_DIR_R2I },
		{ "P2P with no RTR type", 0x00, 0x8000 | 8, 8, 0x00, 8, 8, IWS_RULE_MPA_P2P_NEGOTIATION,
		  IWS_DIR_I2R },
	};
	for (size_t i = 0; i < sizeof(setup) / sizeof(setup[0]); i++) {
		c_begin();
		c_open_with(setup[i].req_flags, setup[i].req_ird, setup[i].req_ord, setup[i].rep_flags, setup[i].rep_ird,
			    setup[i].rep_ord);
		c_end();
		struct want w = { setup[i].rule, setup[i].dir, 1 };
		c_expect(setup[i].what, &w, 1);
		c_free();
	}

	/* peer to peer with a zero-length Write as RTR: the initiator sends a
	 * Send of 20 octets first (RFC 6581 §7) */
	c_begin();
	c_open_with(0x00, 0x8000 | 8, 0x8000 | 8, 0x00, 0x8000 | 8, 0x8000 | 8);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT("RTR not sent", { IWS_RULE_MPA_RTR_MISMATCH, IWS_DIR_I2R, 1 });
	c_free();
	/* ... the zero-length Write it negotiated: clean */
	c_begin();
	c_open_with(0x00, 0x8000 | 8, 0x8000 | 8, 0x00, 0x8000 | 8, 0x8000 | 8);
	c_fpdu(0, u, sb_write_ulpdu(u, 0, 0, 1, 0), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT_NONE("RTR as negotiated");
	c_free();
	/* ... the responder speaks before the RTR */
	c_begin();
	c_open_with(0x00, 0x8000 | 8, 0x8000 | 8, 0x00, 0x8000 | 8, 0x8000 | 8);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT("the responder first in peer to peer", { IWS_RULE_MPA_RTR_MISMATCH, IWS_DIR_R2I, 1 });
	c_free();
}

/* FPDU trailers (RFC 5044 §4.1, §4.4): the CRC as negotiated, zero pads. */
static void trailers(void)
{
	uint8_t u[64];
	/* CRC negotiated, one FPDU with a bad CRC, one with none (zeros) */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 2);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 0);
	c_end();
	CHECK_EQ(c_count(IWS_RULE_FRAMING_CRC_ERROR, IWS_DIR_I2R, NULL), 1);
	CHECK_EQ(c_count(IWS_RULE_MPA_CRC_NOT_SENT, IWS_DIR_R2I, NULL), 1);
	CHECK_EQ(c_count(IWS_RULE_FRAMING_CRC_ERROR, IWS_DIR_R2I, NULL), 0);
	c_free();

	/* a pad octet that is not 0 (no CRC negotiated: the CRC is not read) */
	c_begin();
	c_open_with(0x00, 8, 8, 0x00, 8, 8);
	size_t a = C.sb[0].len;
	uint16_t n = sb_send_ulpdu(u, 1, 0, 1, 21);   /* 2 + 39: one pad octet */
	sb_fpdu(&C.sb[0], u, n, 1);
	C.buf[0][a + 2 + n] = 0xA5;
	c_send(0, a, C.sb[0].len);
	c_end();
	EXPECT("pad not zero", { IWS_RULE_FRAMING_PAD_NONZERO, IWS_DIR_I2R, 1 });
	c_free();
}

/* DDP and RDMAP headers (RFC 5041 §4.2, §5.3, RFC 5040 §4.2, §5.1), one
 * deviation per FPDU after a clean Send. */
static void headers(void)
{
	uint8_t u[64];
	static const struct {
		const char *what;
		int off, mask, set;        /* u[off] = (u[off] & mask) | set */
		enum iws_rule rule;
	} dev[] = {
		{ "DDP version 2", 0, 0xFC, 0x42 & 0x03, IWS_RULE_DDP_VERSION },
		{ "RDMAP version 2", 1, 0x3F, 0x80, IWS_RULE_RDMAP_VERSION },
		{ "DDP reserved bit", 0, 0xFF, 0x04, IWS_RULE_DDP_RESERVED },
		{ "RDMAP reserved bit", 1, 0xFF, 0x10, IWS_RULE_DDP_RESERVED },
		{ "opcode 0xC", 1, 0xF0, 0x0C, IWS_RULE_RDMAP_OPCODE },
		{ "Send on queue 1", 9, 0x00, 0x01, IWS_RULE_DDP_INVALID_QN },
	};
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++) {
		c_begin();
		c_open_with(0x40, 8, 8, 0x40, 8, 8);
		c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
		uint16_t n = sb_send_ulpdu(u, 2, 0, 1, 20);
		u[dev[i].off] = (uint8_t)((u[dev[i].off] & dev[i].mask) | dev[i].set);
		c_fpdu(0, u, n, 1);
		c_end();
		struct want w = { dev[i].rule, IWS_DIR_I2R, 1 };
		c_expect(dev[i].what, &w, 1);
		c_free();
	}

	/* a Read Request without L (RFC 5040 §4.4: one segment, L set) */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	uint16_t n = sb_read_req_ulpdu(u, 1, 0x100, 0x1000, 64, 0x200, 0x2000);
	u[0] &= (uint8_t)~0x40;
	c_fpdu(0, u, n, 1);
	c_end();
	EXPECT("a Read Request without L", { IWS_RULE_DDP_LAST_FLAG, IWS_DIR_I2R, 1 });
	c_free();

	/* MSN 1 twice; a message continued at MO 30 where 20 octets came */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 0, 20), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 30, 1, 20), 1);
	c_end();
	EXPECT("MSN repeated, MO gap", { IWS_RULE_DDP_MSN_REPEAT, IWS_DIR_I2R, 1 },
	       { IWS_RULE_DDP_MO_GAP, IWS_DIR_R2I, 1 });
	c_free();

	/* a tagged segment whose octets run past the end of the address space */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_write_ulpdu(u, 0x100, UINT64_MAX - 4, 1, 20), 1);
	c_end();
	EXPECT("TO past 2^64", { IWS_RULE_DDP_TAGGED_OVERRUN, IWS_DIR_I2R, 1 });
	c_free();
}

/* Reads and Terminates (RFC 5040 §4.8, §5.2, RFC 6581 §5). */
static void operations(void)
{
	uint8_t u[64];
	/* a Read answered with fewer octets than asked for */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_read_req_ulpdu(u, 1, 0x100, 0x1000, 64, 0x200, 0x2000), 1);
	c_fpdu(1, u, sb_tagged_ulpdu(u, 0x2, 0x100, 0x1000, 1, 32), 1);
	c_end();
	EXPECT("short Read Response", { IWS_RULE_RDMAP_READ_RESPONSE_SIZE, IWS_DIR_R2I, 1 });
	c_free();

	/* Read Request fields written least significant octet first (an early
	 * software stack): the responses name the STag and TO meant; each
	 * Read Request is one, and the size is read right (no short Read) */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(0, u, sb_read_req_ulpdu(u, 1, 0x00010000, 0x0010000000000000ull, 0x20000000, 0x00020000,
				       0x0020000000000000ull), 1);
	c_fpdu(1, u, sb_tagged_ulpdu(u, 0x2, 0x100, 0x1000, 1, 32), 1);
	c_fpdu(0, u, sb_read_req_ulpdu(u, 2, 0x01010000, 0x0010000000000000ull, 0x10000000, 0x00020000,
				       0x0020000000000000ull), 1);
	c_fpdu(1, u, sb_tagged_ulpdu(u, 0x2, 0x101, 0x1000, 1, 16), 1);
	c_end();
	EXPECT("Read Requests little-endian", { IWS_RULE_RDMAP_READ_REQUEST_LE, IWS_DIR_I2R, 2 });
	c_free();

	/* a Read Response nobody asked for, on a connection seen whole */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(1, u, sb_tagged_ulpdu(u, 0x2, 0x100, 0x1000, 1, 32), 1);
	c_end();
	EXPECT("orphan Read Response", { IWS_RULE_RDMAP_ORPHAN_RESPONSE, IWS_DIR_R2I, 1 });
	c_free();

	/* IRD 1 at the responder: a second Read Request while the first is
	 * outstanding */
	c_begin();
	c_open_with(0x40, 1, 1, 0x40, 1, 1);
	c_fpdu(0, u, sb_read_req_ulpdu(u, 1, 0x100, 0x1000, 64, 0x200, 0x2000), 1);
	c_fpdu(0, u, sb_read_req_ulpdu(u, 2, 0x101, 0x1000, 64, 0x201, 0x2000), 1);
	c_end();
	EXPECT("IRD exceeded", { IWS_RULE_RDMAP_IRD_EXCEEDED, IWS_DIR_I2R, 1 });
	c_free();

	/* a Terminate (DDP layer, tagged buffer error), then a Send after it */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	c_fpdu(1, u, term_ulpdu(u, 1, 0x11, 0x00), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT("Terminate, then a Send", { IWS_RULE_RDMAP_TERMINATE, IWS_DIR_R2I, 1 },
	       { IWS_RULE_RDMAP_AFTER_TERMINATE, IWS_DIR_R2I, 1 });
	c_free();
}

/* TCP closing with operations outstanding: FIN, RST. */
static void closing(void)
{
	uint8_t u[64];
	for (int rst = 0; rst < 2; rst++) {
		c_begin();
		c_open_with(0x40, 8, 8, 0x40, 8, 8);
		c_fpdu(0, u, sb_read_req_ulpdu(u, 1, 0x100, 0x1000, 64, 0x200, 0x2000), 1);
		c_seg(1, C.sb[1].seq0 + (uint32_t)C.sb[1].len, (uint8_t)(IWS_TCP_ACK | (rst ? IWS_TCP_RST : IWS_TCP_FIN)),
		      1000, NULL, 0);
		c_end();
		struct want w = { rst ? IWS_RULE_CONN_RST_OUTSTANDING : IWS_RULE_CONN_FIN_OUTSTANDING, IWS_DIR_R2I, 1 };
		c_expect(rst ? "RST, a Read outstanding" : "FIN, a Read outstanding", &w, 1);
		c_free();
	}
}

/* Markers (RFC 5044 §4.3): as negotiated from SeqStart on, their FPDUPTRs
 * right. M in the Reply asks the initiator for markers, in the Request the
 * responder. */
static void markers(void)
{
	uint8_t u[1200];
	/* negotiated and sent (side 0), a Send each way: clean */
	c_begin();
	c_open_with(0x40, 8, 8, 0xC0, 8, 8);
	C.sb[0].markers = 1;
	C.sb[0].base = sb_seq(&C.sb[0]);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 1000), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 1, 0, 1, 20), 1);
	c_end();
	EXPECT_NONE("markers as negotiated");
	c_free();

	/* negotiated, not sent */
	c_begin();
	c_open_with(0x40, 8, 8, 0xC0, 8, 8);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 1000), 1);
	c_end();
	EXPECT("markers negotiated, not sent", { IWS_RULE_MPA_MARKERS_NEGOTIATION, IWS_DIR_I2R, 1 });
	c_free();

	/* sent, not negotiated */
	c_begin();
	c_open_with(0x40, 8, 8, 0x40, 8, 8);
	C.sb[0].markers = 1;
	C.sb[0].base = sb_seq(&C.sb[0]);
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 1000), 1);
	c_end();
	EXPECT("markers sent, not negotiated", { IWS_RULE_MPA_MARKERS_NEGOTIATION, IWS_DIR_I2R, 1 });
	c_free();

	/* negotiated and sent, the marker 512 octets on points elsewhere (CRC
	 * not negotiated: only the marker is wrong) */
	c_begin();
	c_open_with(0x00, 8, 8, 0x80, 8, 8);
	C.sb[0].markers = 1;
	C.sb[0].base = sb_seq(&C.sb[0]);
	size_t a = C.sb[0].len;
	sb_fpdu(&C.sb[0], u, sb_send_ulpdu(u, 1, 0, 1, 1000), 1);
	size_t m = a + 512;   /* the second marker: 512 octets after the first, at SeqStart */
	CHECK_EQ(C.buf[0][m], 0);
	C.buf[0][m + 3] ^= 0x10;
	c_send(0, a, C.sb[0].len);
	c_fpdu(0, u, sb_send_ulpdu(u, 2, 0, 1, 20), 1);
	c_end();
	EXPECT("a wrong FPDUPTR", { IWS_RULE_FRAMING_MARKER_ERROR, IWS_DIR_I2R, 1 });
	c_free();
}

/* RFC 5041 §5.1: each queue's MSNs start at 1, judged only when the
 * connection's start was captured; without it the QP says which rules it
 * could not check, and a close with a Read in flight is not judged. */
static void msn_start(void)
{
	uint8_t u[256];
	c_begin();
	c_open();
	c_fpdu(0, u, sb_send_ulpdu(u, 1, 0, 1, 10), 1);
	c_fpdu(1, u, sb_send_ulpdu(u, 2, 0, 1, 10), 1);   /* the responder's first Send: MSN 2 */
	c_fpdu(1, u, sb_send_ulpdu(u, 3, 0, 1, 10), 1);
	c_end();
	EXPECT("the first MSN 2", { IWS_RULE_DDP_MSN_START, IWS_DIR_R2I, 1 });
	uint32_t unseen = 1;
	CHECK_EQ(iws_doctor_unchecked(C.doc, &unseen), 0);
	CHECK_EQ(unseen, 0);
	c_free();

	/* the same from mid-stream: no SYN, no MPA frames; a Read Request
	 * whose response the capture may not show, then both FINs */
	c_begin();
	for (uint32_t m = 5; m < 9; m++) {
		c_fpdu(0, u, sb_send_ulpdu(u, m, 0, 1, 10), 1);
		c_fpdu(1, u, sb_send_ulpdu(u, m + 2, 0, 1, 10), 1);
	}
	c_fpdu(0, u, sb_read_req_ulpdu(u, 3, 0x100, 0x1000, 64, 0x200, 0x2000), 1);
	c_seg(0, C.sb[0].seq0 + (uint32_t)C.sb[0].len, IWS_TCP_ACK | IWS_TCP_FIN, 1000, NULL, 0);
	c_seg(1, C.sb[1].seq0 + (uint32_t)C.sb[1].len, IWS_TCP_ACK | IWS_TCP_FIN, 1000, NULL, 0);
	c_end();
	EXPECT_NONE("mid-stream");
	uint64_t rules = iws_doctor_unchecked(C.doc, &unseen);
	CHECK_EQ(unseen, IWS_DOC_UNSEEN_START);
	CHECK(rules >> IWS_RULE_DDP_MSN_START & 1);
	CHECK(rules >> IWS_RULE_CONN_FIN_OUTSTANDING & 1);
	CHECK(rules >> IWS_RULE_MPA_KEY & 1);
	CHECK(!(rules >> IWS_RULE_DDP_MSN_GAP & 1));
	char line[512];
	iws_doctor_unchecked_text(line, sizeof(line), C.doc);
	CHECK(strstr(line, "  not checked: mpa.*, ddp.msn_start, ") == line);
	CHECK(strstr(line, "conn.fin_outstanding") != NULL);
	CHECK(strstr(line, "(not captured: the MPA handshake)\n") != NULL);
	c_free();
}

int main(void)
{
	catalogue();
	mss_option();
	wscale_sack_options();
	sum_text();
	placement();
	placement_kept();
	stage();
	reply_first();
	window_and_msn();
	mpa_setup();
	trailers();
	headers();
	operations();
	closing();
	markers();
	msn_start();
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		/* the RPC-over-RDMA rules need RPC messages built from XDR: the
		 * generator's doctor-rpc-* scenarios break them, and the doctor's
		 * findings are checked against their truth (tests/doctor) */
		bool grid = r == IWS_RULE_FRAMING_MARKER_FPDUPTR_LE || r == IWS_RULE_FRAMING_MARKER_SKIP_CRC ||
			    r == IWS_RULE_FRAMING_MARKER_OFFSET || r >= IWS_RULE_RPC_CHUNK_LENGTH;
		CHECK(grid || covered[r]);
		if (!grid && !covered[r])
			fprintf(stderr, "  %s fired on no connection here\n", iws_rule_info((enum iws_rule)r)->id);
	}
	return check_done("test_doctor");
}
