// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor.h - the interop doctor: checks every rule of the catalogue
 * (rules.h) on one connection, as an observer of what the stream engine
 * (stream.h) and the operation tracker (qp.h) already produce. It decides
 * nothing about the octets itself: framing, CRCs, operations, losses are the
 * engine's; the doctor names what breaks a rule, where.
 *
 * It is the stream engine's last stage (iws_stream_doctor_stage): a front
 * end turns it on and reads the findings; the engine feeds it, in this
 * order, exactly as it feeds its sink (so both front ends report the same
 * findings):
 *
 *   every segment      iws_doctor_segment just BEFORE the engine reads the
 *                      segment, with its TCP options (for the MSS of a SYN);
 *   every report       iws_doctor_pdu / _op / _event, just before the front
 *                      end's sink is given the PDU, operation or event;
 *   the end            iws_doctor_finish once the engine finished.
 *
 * With each call comes what the engine knows of the connection then
 * (struct iws_doctor_facts): the doctor reads the engine through nothing
 * else, so calls run one way, engine -> doctor.
 *
 * Each time a rule is broken the sink's finding callback is told (with the
 * frame that shows it); the doctor also keeps, per rule and direction, the
 * count, first and last frame, sample frames and measure
 * (iws_doctor_sums), which is what `iwarpscope doctor` and `tshark -z
 * iwarp,doctor` print. Memory is bounded: a few kilobytes per connection.
 */
#ifndef IWARPSCOPE_DOCTOR_H
#define IWARPSCOPE_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"
#include "stream.h"   /* the reports it reads (struct iws_pdu, iws_stream_event); stream.h names no doctor type */
#include "tcpopt.h"   /* iws_tcp_opt_mss: the doctor reads the MSS */

#ifdef __cplusplus
extern "C" {
#endif

/* One occurrence: rule broken by what dir's sender sent, shown in frame. */
struct iws_finding {
	enum iws_rule rule;
	uint8_t dir;                /* IWS_DIR_* of the sender at fault */
	uint64_t frame;
	/* Rule-specific values, worded by iws_finding_text (see doctor.c). */
	uint64_t v[3];
	/* What it measures is a lower bound: for the rules whose iws_rule_info
	 * max_what says what, v[0] (operations outstanding when some in flight
	 * are not known); for the others, the number of violations it stands
	 * for (one occurrence naming a sender whose violations the capture
	 * cannot tell apart). */
	bool at_least;
};

/* Sample frames kept per rule and direction. */
#define IWS_DOCTOR_SAMPLES 8

/* Everything one rule found in one direction. */
struct iws_finding_sum {
	enum iws_rule rule;
	uint8_t dir;
	uint64_t count;
	uint64_t first_frame, last_frame;     /* lowest and highest frame */
	uint64_t samples[IWS_DOCTOR_SAMPLES]; /* the first frames it fired in, as found */
	uint32_t nsamples;
	uint64_t of;                /* fraction rules (rules.h measure): the direction's
				     * FPDUs measured; count / of is the fraction */
	uint64_t max_value;         /* the most an occurrence measured, for the rules whose
				     * iws_rule_info max_what says what (Reads outstanding,
				     * an FPDU's octets); 0 for the others */
	bool count_at_least;        /* count is a lower bound (an occurrence at_least) */
	bool max_at_least;          /* max_value is (an occurrence measured at least so) */
	struct iws_finding first;   /* the first occurrence, for its words */
};

struct iws_doctor_sink {
	void (*occurrence)(void *ctx, const struct iws_finding *f);  /* each time a rule is broken (may be NULL) */
};

struct iws_doctor;

/* NULL on allocation failure; sink may be NULL (the sums are kept anyway). */
struct iws_doctor *iws_doctor_new(const struct iws_doctor_sink *sink, void *ctx);
void iws_doctor_free(struct iws_doctor *d);

/* Count only the occurrences shown in a frame keep(ctx, frame) accepts (a
 * front end's time window, docs/semantics.md "Time window"): the others
 * are neither summed nor told to the sink, and a fraction rule measures
 * only the FPDUs of those frames. keep NULL: every occurrence (the default).
 * The checks still see every segment: a rule needing the handshake or the
 * operations in flight judges a frame inside by what came before it. */
void iws_doctor_keep(struct iws_doctor *d, bool (*keep)(void *ctx, uint64_t frame), void *ctx);

/* What the engine knows of the connection when it feeds the doctor: the
 * values of its accessors (stream.h) at that moment. */
struct iws_doctor_facts {
	enum iws_stream_state state;            /* iws_stream_state */
	bool iwarp;                             /* iws_stream_is_iwarp */
	int init_side;                          /* iws_stream_init_side */
	const struct iws_mpa_conn *mpa;         /* iws_stream_mpa: negotiated or inferred */
	const struct iws_tracker_counts *tracker; /* iws_stream_tracker_counts */
	uint32_t marker_dev[2];                 /* by side: iws_stream_marker_deviation */
	/* iws_stream_outstanding_begun, given with a FIN or RST event only (a
	 * walk of the operations in flight; 0 with the other calls) */
	uint32_t outstanding_begun;
};

/* The engine's feed (see above; a front end calls none of these). */
/* A TCP segment sent by side, before the engine reads it (its TCP options,
 * seg->opts, give a SYN's MSS). */
void iws_doctor_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side,
			const struct iws_tcp_seg *seg);
/* What the engine reports (to its sink's pdu, op and event callbacks). */
void iws_doctor_pdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p);
void iws_doctor_op(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_op *op);
void iws_doctor_event(struct iws_doctor *d, const struct iws_doctor_facts *fa,
		      const struct iws_stream_event *ev);
/* The engine finished: the checks that need the whole connection. */
void iws_doctor_finish(struct iws_doctor *d, const struct iws_doctor_facts *fa);

/* The findings so far, in catalogue order, then i2r before r2i. */
const struct iws_finding_sum *iws_doctor_sums(const struct iws_doctor *d, uint32_t *n);

/*
 * What the capture did not show of the connection: the rules that
 * need it are not checked on the QP rather than judged on a part.
 *   START   the MPA handshake (the connection's start): the MPA rules, the
 *           starting MSN, and the operations in flight (an operation begun
 *           before the capture, or a response to one, cannot be told apart);
 *   SLICED  whole FPDUs: a snapshot length cut segments, so responses and
 *           ends of operations may lie in octets not captured;
 *   LOST    octets of the stream never captured or not framed.
 * The operations in flight need all three: rdmap.ird_exceeded,
 * rdmap.orphan_response, conn.rst_outstanding, conn.fin_outstanding,
 * conn.zero_window_reads.
 */
#define IWS_DOC_UNSEEN_START  0x1
#define IWS_DOC_UNSEEN_SLICED 0x2
#define IWS_DOC_UNSEEN_LOST   0x4

/* The rules not checked on the QP (bit 1 << rule; a rule that fired
 * anyway, before what it needs was missed, is not among them) and *unseen,
 * IWS_DOC_UNSEEN_*, why; 0 when every rule was checked. */
uint64_t iws_doctor_unchecked(const struct iws_doctor *d, uint32_t *unseen);
/* The same in words, the line `iwarpscope doctor` and `tshark -z
 * iwarp,doctor` print under the QP ("  not checked: conn.fin_outstanding,
 * ... (the MPA handshake not captured)\n"); "" when every rule was. */
const char *iws_doctor_unchecked_text(char *buf, size_t len, const struct iws_doctor *d);
/* "handshake", "sliced", "lost": the JSON names of IWS_DOC_UNSEEN_* bits. */
const char *iws_doctor_unseen_name(uint32_t bit);

/* One line saying what this occurrence is ("FPDU of 1448 octets in 2 TCP
 * segments"); returns buf. */
const char *iws_finding_text(char *buf, size_t len, const struct iws_finding *f);

/* The lines `iwarpscope doctor` and `tshark -z iwarp,doctor` print for one
 * sum: severity, rule, direction, count (of the FPDUs measured, with the
 * fraction), first..last frame and the sample frames; then indented, the
 * rule's title, its first occurrence in words and the RFC section. Each
 * line ends with '\n'; returns buf. */
const char *iws_finding_sum_text(char *buf, size_t len, const struct iws_finding_sum *s);
/* Their last line: "N QPs, M with findings: E error, D deviation, P
 * performance findings\n"; by_sev counts sums (findings: a rule broken in
 * one direction of one QP) per severity. */
const char *iws_doctor_total_text(char *buf, size_t len, uint32_t qps, uint32_t qps_with,
				  const uint64_t by_sev[IWS_SEVERITY_COUNT]);
/* count / of in tenths of a percent, rounded. */
uint64_t iws_permille(uint64_t count, uint64_t of);


#ifdef __cplusplus
}
#endif
#endif
