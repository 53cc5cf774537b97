// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interop doctor (doctor.h): its state, the findings' sums, the entry
 * points that hand what the engine reported to the checks (doctor_mpa.c,
 * doctor_frame.c, doctor_rdma.c), and the words for an occurrence.
 */
#include "doctor_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"

struct iws_doctor *iws_doctor_new(const struct iws_doctor_sink *sink, void *ctx)
{
	struct iws_doctor *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (sink)
		d->sink = *sink;
	d->ctx = ctx;
	return d;
}

static void free_rings(struct iws_doctor *d)
{
	for (int s = 0; s < 2; s++) {
		free(d->side[s].ring);
		d->side[s].ring = NULL;
		d->side[s].n = d->side[s].head = d->side[s].cap = 0;
		free(d->dir[s].recent);
		d->dir[s].recent = NULL;
		d->dir[s].rn = d->dir[s].rhead = d->dir[s].rcap = 0;
		free(d->dir[s].pend);
		d->dir[s].pend = NULL;
		d->dir[s].pn = d->dir[s].phead = d->dir[s].pcap = 0;
	}
}

bool doc_ring_room(void **ring, size_t sz, uint32_t *head, uint32_t *n, uint32_t *cap,
		   uint32_t max)
{
	if (*n == *cap && *cap == max) {
		(*n)--; /* the oldest goes */
		return true;
	}
	if (*n < *cap)
		return true;
	uint32_t grown = *cap ? *cap * 2 : DOC_RING_FIRST;
	if (grown > max)
		grown = max;
	unsigned char *to = malloc((size_t)grown * sz), *from = *ring;
	if (!to)
		return false;
	/* full: the oldest is at head */
	for (uint32_t i = 0; i < *n; i++)
		memcpy(to + (size_t)i * sz, from + (size_t)((*head + i) % *cap) * sz, sz);
	free(*ring);
	*ring = to;
	*head = *n;
	*cap = grown;
	return true;
}

void iws_doctor_free(struct iws_doctor *d)
{
	if (!d)
		return;
	free_rings(d);
	free(d->sums);
	free(d);
}

uint8_t doc_dir_of(const struct iws_stream *eng, int side)
{
	return side == iws_stream_init_side(eng) ? IWS_DIR_I2R : IWS_DIR_R2I;
}

static uint32_t unseen_so_far(const struct iws_doctor *d);

/* ---- the sums, kept in catalogue order, then i2r before r2i ---- */

static uint64_t measure_of(const struct iws_doctor *d, enum iws_rule rule, uint8_t dir)
{
	switch (iws_rule_info(rule)->measure) {
	case IWS_MEASURE_FPDUS:
		return d->dir[dir].measured;
	case IWS_MEASURE_FPDUS_MSS:
		return d->dir[dir].measured_mss;
	default:
		return 0;
	}
}

static struct iws_finding_sum *sum_get(struct iws_doctor *d, enum iws_rule rule, uint8_t dir)
{
	if (d->at[rule][dir])
		return &d->sums[d->at[rule][dir] - 1];
	if (d->nsums == d->capsums) {
		uint32_t cap = d->capsums ? d->capsums * 2 : 4;
		struct iws_finding_sum *s = realloc(d->sums, cap * sizeof(*s));
		if (!s)
			return NULL;
		d->sums = s;
		d->capsums = cap;
	}
	/* where it goes: after every sum that sorts before it */
	uint32_t k = 0;
	while (k < d->nsums && (d->sums[k].rule < rule || (d->sums[k].rule == rule && d->sums[k].dir < dir)))
		k++;
	memmove(&d->sums[k + 1], &d->sums[k], (d->nsums - k) * sizeof(d->sums[0]));
	d->nsums++;
	for (uint32_t i = k + 1; i < d->nsums; i++)
		d->at[d->sums[i].rule][d->sums[i].dir] = (uint8_t)(i + 1);
	d->at[rule][dir] = (uint8_t)(k + 1);
	struct iws_finding_sum *s = &d->sums[k];
	memset(s, 0, sizeof(*s));
	s->rule = rule;
	s->dir = dir;
	return s;
}

void doc_fire(struct iws_doctor *d, enum iws_rule rule, uint8_t dir, uint64_t frame, uint64_t v0,
	      uint64_t v1, uint64_t v2)
{
	doc_fire_bound(d, rule, dir, frame, v0, v1, v2, false);
}

void iws_doctor_keep(struct iws_doctor *d, bool (*keep)(void *ctx, uint64_t frame), void *ctx)
{
	d->keep = keep;
	d->keep_ctx = ctx;
}

bool doc_keeps(const struct iws_doctor *d, uint64_t frame)
{
	return !d->keep || d->keep(d->keep_ctx, frame);
}

void doc_fire_bound(struct iws_doctor *d, enum iws_rule rule, uint8_t dir, uint64_t frame, uint64_t v0,
		    uint64_t v1, uint64_t v2, bool at_least)
{
	if ((unsigned)rule >= IWS_RULE_COUNT || dir > 1 || !doc_keeps(d, frame))
		return;
	struct iws_finding f = { rule, dir, frame, { v0, v1, v2 }, at_least };
	struct iws_finding_sum *s = sum_get(d, rule, dir);
	if (s) {
		if (!s->count) {
			s->first = f;
			s->first_frame = s->last_frame = frame;
		}
		s->count++;
		if (frame < s->first_frame)
			s->first_frame = frame;
		if (frame > s->last_frame)
			s->last_frame = frame;
		bool seen = false;
		for (uint32_t i = 0; i < s->nsamples && !seen; i++)
			seen = s->samples[i] == frame;
		if (!seen && s->nsamples < IWS_DOCTOR_SAMPLES)
			s->samples[s->nsamples++] = frame;
		bool measures = iws_rule_info(rule)->max_what != NULL;
		if (measures && v0 > s->max_value)
			s->max_value = v0;
		/* a lower bound anywhere makes the most one too: that
		 * occurrence may have been larger */
		s->max_at_least |= measures && at_least;
		/* without the connection's start, a count is of the part
		 * captured: the connection's may be larger (issue 31) */
		s->count_at_least |= !measures && (at_least || (iws_rule_info(rule)->measure == IWS_MEASURE_NONE &&
								 (unseen_so_far(d) & IWS_DOC_UNSEEN_START)));
		s->of = measure_of(d, rule, dir);
	}
	if (d->sink.finding)
		d->sink.finding(d->ctx, &f);
}

/* ---- what the capture did not show (doctor.h: IWS_DOC_UNSEEN_*) ---- */

/* What each rule needs of the connection beyond the octets it looks at.
 * The MPA rules read the handshake; the starting MSN (RFC 5041 §5.1) is
 * known only from the first message of each queue; the operations in
 * flight are known only when every request and response since the start
 * was captured whole: a Read begun before the capture, or one whose
 * response lies in octets a slice or a gap hid, looks outstanding. */
static uint32_t rule_needs(enum iws_rule rule)
{
	const uint32_t all = IWS_DOC_UNSEEN_START | IWS_DOC_UNSEEN_SLICED | IWS_DOC_UNSEEN_LOST;
	if (rule <= IWS_RULE_MPA_REJECT)
		return IWS_DOC_UNSEEN_START;
	switch (rule) {
	case IWS_RULE_DDP_MSN_START:
		return IWS_DOC_UNSEEN_START;
	case IWS_RULE_RDMAP_IRD_EXCEEDED:
	case IWS_RULE_RDMAP_ORPHAN_RESPONSE:
	case IWS_RULE_CONN_RST_OUTSTANDING:
	case IWS_RULE_CONN_FIN_OUTSTANDING:
	case IWS_RULE_CONN_ZERO_WINDOW_READS:
		return all;
	default:
		return 0;
	}
}

static uint32_t unseen_so_far(const struct iws_doctor *d)
{
	uint32_t u = 0;
	if (!d->have_req || !d->have_rep)
		u |= IWS_DOC_UNSEEN_START;
	if (d->sliced)
		u |= IWS_DOC_UNSEEN_SLICED;
	if (d->dir[0].loss || d->dir[1].loss)
		u |= IWS_DOC_UNSEEN_LOST;
	return u;
}

uint32_t doc_unseen(const struct iws_doctor *d, enum iws_rule rule)
{
	return rule_needs(rule) & unseen_so_far(d);
}

uint64_t iws_doctor_unchecked(const struct iws_doctor *d, uint32_t *unseen)
{
	uint64_t rules = 0;
	uint32_t why = 0;
	for (int r = 0; d && r < IWS_RULE_COUNT; r++) {
		uint32_t u = doc_unseen(d, (enum iws_rule)r);
		/* one that fired was checked on what it needed */
		if (!u || d->at[r][0] || d->at[r][1])
			continue;
		rules |= (uint64_t)1 << r;
		why |= u;
	}
	if (unseen)
		*unseen = why;
	return rules;
}

const char *iws_doctor_unseen_name(uint32_t bit)
{
	switch (bit) {
	case IWS_DOC_UNSEEN_START:
		return "handshake";
	case IWS_DOC_UNSEEN_SLICED:
		return "sliced";
	case IWS_DOC_UNSEEN_LOST:
		return "lost";
	default:
		return "?";
	}
}

void doc_measured(struct iws_doctor *d, uint8_t dir)
{
	static const enum iws_rule fraction_rules[] = {
		IWS_RULE_FRAMING_FPDU_OVER_MSS, IWS_RULE_FRAMING_FPDU_SPLIT,
		IWS_RULE_FRAMING_FPDU_UNALIGNED, IWS_RULE_FRAMING_FPDU_PACKED,
	};
	for (size_t i = 0; i < sizeof(fraction_rules) / sizeof(fraction_rules[0]); i++) {
		enum iws_rule r = fraction_rules[i];
		if (d->at[r][dir])
			d->sums[d->at[r][dir] - 1].of = measure_of(d, r, dir);
	}
}

const struct iws_finding_sum *iws_doctor_sums(const struct iws_doctor *d, uint32_t *n)
{
	*n = d ? d->nsums : 0;
	return d ? d->sums : NULL;
}

/* ---- entry points ---- */

void iws_doctor_segment(struct iws_doctor *d, const struct iws_stream *eng, int side,
			const struct iws_tcp_seg *seg, const uint8_t *opts, size_t opts_len)
{
	if (!d || d->finished || (side != 0 && side != 1))
		return;
	struct doc_side *s = &d->side[side];
	if (seg->flags & IWS_TCP_SYN) {
		s->syn = true;
		s->isn = seg->seq;
		uint16_t mss = iws_tcp_opt_mss(opts, opts_len);
		if (mss)
			s->mss = mss;
	}
	/* data on a SYN follows the SYN's own sequence number */
	uint32_t seq = (seg->flags & IWS_TCP_SYN) ? seg->seq + 1 : seg->seq;
	d->cur = true;
	d->cur_side = side;
	d->cur_seq = seq;
	d->cur_payload = seg->payload;
	d->cur_cap = seg->payload ? seg->cap_len : 0;
	d->cur_frame = seg->frame;
	/* a snapshot length cut it: what follows in its octets is not known */
	if (seg->cap_len < seg->wire_len)
		d->sliced = true;
	doc_mpa_segment(d, eng, side, seg);
	if (iws_stream_state(eng) == IWS_SST_NOT_IWARP)
		free_rings(d);  /* nothing of it will be framed */
	else
		doc_frame_segment(d, side, seg);
	doc_rdma_segment(d, eng, side, seg);
}

void iws_doctor_pdu(struct iws_doctor *d, const struct iws_stream *eng, const struct iws_pdu *p)
{
	if (!d || d->finished || p->dir > 1)
		return;
	if (p->kind == IWS_PDU_MPA_FRAME) {
		doc_frame_mpa(d, p);
		doc_mpa_frame(d, eng, p);
		return;
	}
	d->dir[p->dir].fpdus++;
	doc_mpa_fpdu(d, eng, p);
	if (d->dir[p->dir].garbled)
		return;
	doc_frame_fpdu(d, eng, p);
	doc_rdma_fpdu(d, eng, p);
}

void iws_doctor_op(struct iws_doctor *d, const struct iws_stream *eng, const struct iws_op *op)
{
	if (!d || d->finished)
		return;
	doc_rdma_op(d, eng, op);
}

void iws_doctor_event(struct iws_doctor *d, const struct iws_stream *eng, const struct iws_stream_event *ev)
{
	if (!d || d->finished || ev->dir > 1)
		return;
	doc_frame_event(d, ev);
	doc_rdma_event(d, eng, ev);
}

void iws_doctor_finish(struct iws_doctor *d, const struct iws_stream *eng)
{
	if (!d || d->finished)
		return;
	d->cur = false;
	doc_mpa_finish(d, eng);
	d->finished = true;
	free_rings(d);
}

/* ---- words ---- */

/* An RTR type mask (IWS_RTR_*) in words: "zero-length RDMA Write",
 * "zero-length Send or zero-length RDMA Read", "none". */
static const char *rtr_words(char *buf, size_t len, uint64_t mask)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t bit = IWS_RTR_SEND; bit <= IWS_RTR_READ && n < len; bit <<= 1) {
		if (!(mask & bit))
			continue;
		int k = snprintf(buf + n, len - n, "%s%s", n ? " or " : "", iws_rtr_name(bit));
		if (k > 0)
			n += (size_t)k;
	}
	return n ? buf : "none";
}

/* The sentence of an occurrence of a rule on an MPA Request or Reply
 * header (each rule's RFC section: rules.c); false for another rule. */
static bool finding_text_mpa_header(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0];
	switch (f->rule) {
	case IWS_RULE_MPA_KEY: {
		static const char *const what[] = {
			"MPA key", "a damaged MPA key", "an MPA Request from both sides",
			"an MPA Reply from both sides", "an MPA Reply before any Request",
		};
		snprintf(buf, len, "%s", what[v[0] < 5 ? v[0] : 0]);
		break;
	}
	case IWS_RULE_MPA_REVISION:
		if (v[1] == 1)
			snprintf(buf, len, "MPA Rev %llu: neither 1 nor 2", a);
		else if (v[1] == 2)
			snprintf(buf, len, "the Reply's Rev %llu is above the Request's Rev %llu", a,
				 (unsigned long long)v[2]);
		else
			snprintf(buf, len, "S flag with Rev %llu (RFC 6581 wants Rev 2)", a);
		break;
	case IWS_RULE_MPA_RESERVED_FLAGS:
		snprintf(buf, len, "MPA %s flags 0x%02llx: reserved bits 0x%02llx set",
			 v[1] == 1 ? "Request" : "Reply", a, (unsigned long long)v[2]);
		break;
	case IWS_RULE_MPA_SIW_GSO_FLAG:
		snprintf(buf, len, "MPA %s flags 0x%02llx: siw's GSO bit 0x08",
			 v[1] == 1 ? "Request" : "Reply", a);
		break;
	case IWS_RULE_MPA_PD_LEN:
		if (v[1] == 1)
			snprintf(buf, len, "PD_Length %llu is above 512", a);
		else
			snprintf(buf, len, "S flag with PD_Length %llu: no room for the IRD/ORD word", a);
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a rule on what MPA negotiated (peer-to-peer, IRD/ORD, markers, CRC, reject). */
static bool finding_text_mpa_negotiation(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	char r1[96], r2[96];
	switch (f->rule) {
	case IWS_RULE_MPA_P2P_NEGOTIATION:
		switch (v[0]) {
		case 1:
			snprintf(buf, len, "the Reply sets A (peer-to-peer) without the Request's A");
			break;
		case 2:
			snprintf(buf, len, "peer-to-peer Reply selects no RTR type");
			break;
		case 3:
			snprintf(buf, len, "peer-to-peer Reply selects several RTR types (%s)", rtr_words(r1, sizeof(r1), v[1]));
			break;
		case 4:
			snprintf(buf, len, "the Reply selects %s RTR, the Request offered %s",
				 rtr_words(r1, sizeof(r1), v[1]), rtr_words(r2, sizeof(r2), v[2]));
			break;
		default:
			snprintf(buf, len, "peer-to-peer Request offers no RTR type");
			break;
		}
		break;
	case IWS_RULE_MPA_RTR_MISMATCH:
		if (v[0] == 2)
			snprintf(buf, len, "the responder sent an FPDU before the initiator's %s RTR",
				 rtr_words(r1, sizeof(r1), v[2]));
		else
			snprintf(buf, len, "the first FPDU is %s of %llu octets, not the zero-length %s RTR",
				 iws_rdmap_opcode_name((uint32_t)v[1] & 0xFF),
				 (unsigned long long)(v[1] >> 8), rtr_words(r1, sizeof(r1), v[2]));
		break;
	case IWS_RULE_MPA_IRD_ORD:
		snprintf(buf, len, "the Reply's ORD %llu is above the Request's IRD %llu", a, b);
		break;
	case IWS_RULE_MPA_MARKERS_NEGOTIATION:
		if (v[0] == 1)
			snprintf(buf, len, "markers negotiated, no marker at SeqStart (%02llx %02llx %02llx %02llx)",
				 (unsigned long long)(v[1] >> 24 & 0xFF), (unsigned long long)(v[1] >> 16 & 0xFF),
				 (unsigned long long)(v[1] >> 8 & 0xFF), (unsigned long long)(v[1] & 0xFF));
		else
			snprintf(buf, len, "markers not negotiated, but a marker at SeqStart");
		break;
	case IWS_RULE_MPA_CRC_NOT_SENT:
		snprintf(buf, len, "CRC negotiated, CRC field 00000000 (computed 0x%08llx)", a);
		break;
	case IWS_RULE_MPA_REJECT:
		snprintf(buf, len, "the MPA Reply rejects the connection (R)%s",
			 v[0] ? " with private data" : "");
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a framing rule (FPDUs, markers, CRC on the TCP stream). */
static bool finding_text_framing(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_FRAMING_FPDU_OVER_MSS:
		snprintf(buf, len, "FPDU of %llu octets, the receiver's MSS is %llu", a, b);
		break;
	case IWS_RULE_FRAMING_FPDU_SPLIT:
		snprintf(buf, len, "FPDU of %llu octets not within one TCP segment", a);
		break;
	case IWS_RULE_FRAMING_FPDU_UNALIGNED:
		snprintf(buf, len, "FPDU starts %llu octets into a TCP segment that began inside an FPDU", b);
		break;
	case IWS_RULE_FRAMING_FPDU_PACKED:
		snprintf(buf, len, "FPDU packed %llu octets into a TCP segment, after another FPDU", b);
		break;
	case IWS_RULE_FRAMING_MARKER_FPDUPTR_LE:
		snprintf(buf, len, "marker %llu octets into the FPDU: FPDUPTR %llu carried as 00 00 %02llx %02llx", a, b,
			 b & 0xFF, b >> 8);
		break;
	case IWS_RULE_FRAMING_MARKER_SKIP_CRC:
	case IWS_RULE_FRAMING_MARKER_OFFSET:
		if (f->at_least)
			snprintf(buf, len, "%s (SeqStart not captured: its markers off the RFC grid not told apart)",
				 iws_marker_dev_text(f->rule == IWS_RULE_FRAMING_MARKER_OFFSET ? IWS_MARKER_DEV_OFFSET
											: IWS_MARKER_DEV_SKIP_CRC));
		else
			snprintf(buf, len, "marker %llu octets past SeqStart + 512n (%llu such in the FPDU)", a, b);
		break;
	case IWS_RULE_FRAMING_MARKER_ERROR:
		snprintf(buf, len, "%llu marker%s with a wrong FPDUPTR or reserved field", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_FRAMING_CRC_ERROR:
		snprintf(buf, len, "CRC 0x%08llx, computed 0x%08llx", a, b);
		break;
	case IWS_RULE_FRAMING_PAD_NONZERO:
		snprintf(buf, len, "PAD of %llu octets is 0x%0*llx", b, (int)(2 * v[1]), a);
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a DDP rule. */
static bool finding_text_ddp(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_DDP_VERSION:
		snprintf(buf, len, "DDP version %llu", a);
		break;
	case IWS_RULE_DDP_RESERVED:
		if (v[2])
			snprintf(buf, len, "RsvdULP 0x%08llx on %s", (unsigned long long)v[2],
				 iws_rdmap_opcode_name((uint32_t)(v[1] & 0xF)));
		else
			snprintf(buf, len, "DDP control 0x%02llx, RDMAP control 0x%02llx: reserved bits set", a, b);
		break;
	case IWS_RULE_DDP_MO_GAP:
		snprintf(buf, len, "QN %llu MSN %llu: MO %llu does not continue the message",
			 (unsigned long long)v[2], b, a);
		break;
	case IWS_RULE_DDP_MSN_GAP:
		snprintf(buf, len, "QN %llu: MSN %llu after %llu", (unsigned long long)v[2], a, b);
		break;
	case IWS_RULE_DDP_MSN_REPEAT:
		snprintf(buf, len, "QN %llu: MSN %llu again after %llu", (unsigned long long)v[2], a, b);
		break;
	case IWS_RULE_DDP_MSN_START:
		snprintf(buf, len, "QN %llu: the first message has MSN %llu, not 1", b, a);
		break;
	case IWS_RULE_DDP_INVALID_QN:
		snprintf(buf, len, "%s on QN %llu", iws_rdmap_opcode_name((uint32_t)v[1]), a);
		break;
	case IWS_RULE_DDP_TAGGED_OVERRUN:
		if (v[0] == 2)
			snprintf(buf, len, "tagged segment: TO 0x%016llx + %llu octets wraps 2^64", b,
				 (unsigned long long)v[2]);
		else
			snprintf(buf, len, "Read Response octets past the size its Read Request (frame %llu) asked for",
				 b);
		break;
	case IWS_RULE_DDP_LAST_FLAG:
		switch (v[0]) {
		case 2:
			snprintf(buf, len, "MSN %llu begins before MSN %llu's last segment (L)", b,
				 (unsigned long long)v[2]);
			break;
		case 3:
			snprintf(buf, len, "a segment of MSN %llu after its last segment (L)", b);
			break;
		default:
			snprintf(buf, len, "single-segment %s without L or with MO != 0",
				 iws_rdmap_opcode_name((uint32_t)v[1]));
			break;
		}
		break;
	default:
		return false;
	}
	return true;
}

/* ... of an RDMAP or connection rule. */
static bool finding_text_rdmap_conn(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_RDMAP_VERSION:
		snprintf(buf, len, "RDMAP version %llu", a);
		break;
	case IWS_RULE_RDMAP_OPCODE:
		if (v[1] == 0)
			snprintf(buf, len, "RDMAP opcode 0x%llx is not defined", a);
		else
			snprintf(buf, len, "%s in a%s DDP segment", iws_rdmap_opcode_name((uint32_t)v[0]),
				 v[1] == 1 ? "n untagged" : " tagged");
		break;
	case IWS_RULE_RDMAP_IRD_EXCEEDED:
		snprintf(buf, len, "%llu Read/Atomic Requests outstanding, the peer's IRD is %llu", a, b);
		break;
	case IWS_RULE_RDMAP_READ_RESPONSE_SIZE:
		snprintf(buf, len, "Read Responses carried %llu of the %llu octets requested", a, b);
		break;
	case IWS_RULE_RDMAP_ORPHAN_RESPONSE:
		snprintf(buf, len, "%s answers no request", iws_rdmap_opcode_name((uint32_t)v[0]));
		break;
	case IWS_RULE_RDMAP_TERMINATE: {
		uint32_t layer = (uint32_t)(v[0] >> 16 & 0xF), et = (uint32_t)(v[0] >> 8 & 0xF),
			 code = (uint32_t)(v[0] & 0xFF);
		int n = snprintf(buf, len, "%s, %s: %s", iws_term_layer_name(layer),
				 iws_term_etype_name(layer, et), iws_term_errcode_name(layer, et, code));
		if (v[1] && n > 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, "; caused by frame %llu", b);
		break;
	}
	case IWS_RULE_RDMAP_AFTER_TERMINATE:
		snprintf(buf, len, "%s after this side's Terminate in frame %llu",
			 iws_rdmap_opcode_name((uint32_t)v[0]), b);
		break;
	case IWS_RULE_RDMAP_READ_REQUEST_LE:
		snprintf(buf, len, "Read Request of %llu octets to sink STag 0x%08llx written least significant "
			 "octet first (the sender's Read Responses showed it from frame %llu)", b, a,
			 (unsigned long long)v[2]);
		break;
	case IWS_RULE_CONN_RST_OUTSTANDING:
		snprintf(buf, len, "RST with %llu operation%s outstanding", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_CONN_FIN_OUTSTANDING:
		snprintf(buf, len, "FIN with %llu operation%s outstanding", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_CONN_ZERO_WINDOW_READS:
		snprintf(buf, len, "window 0 with %llu Read%s outstanding", a, a == 1 ? "" : "s");
		break;
	default:
		return false;
	}
	return true;
}

const char *iws_finding_text(char *buf, size_t len, const struct iws_finding *f)
{
	if (!len)
		return buf;
	if (!finding_text_mpa_header(buf, len, f) && !finding_text_mpa_negotiation(buf, len, f) &&
	    !finding_text_framing(buf, len, f) && !finding_text_ddp(buf, len, f) &&
	    !finding_text_rdmap_conn(buf, len, f))
		snprintf(buf, len, "?");
	return buf;
}

uint64_t iws_permille(uint64_t count, uint64_t of)
{
	return of ? (count * 1000 + of / 2) / of : 0;
}

/* snprintf at buf + *n, never past len. */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	if (*n >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < len ? *n + (size_t)k : len;
}

const char *iws_finding_sum_text(char *buf, size_t len, const struct iws_finding_sum *s)
{
	const struct iws_rule_info *ri = iws_rule_info(s->rule);
	char text[256];
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	add(buf, len, &n, "  %-11s %-26s %s  %s%" PRIu64, iws_severity_name(ri->severity), ri->id,
	    s->dir == IWS_DIR_I2R ? "i2r" : "r2i", s->count_at_least ? "at least " : "", s->count);
	if (ri->measure != IWS_MEASURE_NONE) {
		uint64_t pm = iws_permille(s->count, s->of);
		add(buf, len, &n, " of %" PRIu64 " FPDUs (%" PRIu64 ".%" PRIu64 "%%)", s->of, pm / 10, pm % 10);
	}
	if (ri->max_what)
		add(buf, len, &n, ", most %s: %s%" PRIu64, ri->max_what, s->max_at_least ? "at least " : "",
		    s->max_value);
	add(buf, len, &n, "  frames %" PRIu64 "..%" PRIu64 ":", s->first_frame, s->last_frame);
	for (uint32_t m = 0; m < s->nsamples; m++)
		add(buf, len, &n, " %" PRIu64, s->samples[m]);
	add(buf, len, &n, "%s\n              %s: %s (%s)\n", s->count > s->nsamples ? " ..." : "", ri->title,
	    iws_finding_text(text, sizeof(text), &s->first), ri->ref);
	return buf;
}

const char *iws_doctor_unchecked_text(char *buf, size_t len, const struct iws_doctor *d)
{
	static const char *const why[] = { "the MPA handshake", "whole FPDUs (snapshot length)",
					   "every octet of the stream" };
	uint32_t unseen;
	uint64_t rules = iws_doctor_unchecked(d, &unseen);
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	if (!rules)
		return buf;
	add(buf, len, &n, "  not checked:");
	const char *sep = " ";
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		if (!(rules >> r & 1))
			continue;
		/* the MPA rules all need the handshake: one name for them */
		if (r <= IWS_RULE_MPA_REJECT) {
			add(buf, len, &n, "%smpa.*", sep);
			sep = ", ";
			r = IWS_RULE_MPA_REJECT;
			continue;
		}
		add(buf, len, &n, "%s%s", sep, iws_rule_info((enum iws_rule)r)->id);
		sep = ", ";
	}
	add(buf, len, &n, " (not captured:");
	sep = " ";
	for (uint32_t k = 0; k < 3; k++)
		if (unseen >> k & 1) {
			add(buf, len, &n, "%s%s", sep, why[k]);
			sep = ", ";
		}
	add(buf, len, &n, ")\n");
	return buf;
}

const char *iws_doctor_total_text(char *buf, size_t len, uint32_t qps, uint32_t qps_with,
				  const uint64_t by_sev[IWS_SEVERITY_COUNT])
{
	uint64_t all = by_sev[0] + by_sev[1] + by_sev[2];
	snprintf(buf, len,
		 "%" PRIu32 " QP%s, %" PRIu32 " with findings: %" PRIu64 " error, %" PRIu64 " deviation, %" PRIu64
		 " performance finding%s\n",
		 qps, qps == 1 ? "" : "s", qps_with, by_sev[IWS_SEVERITY_ERROR], by_sev[IWS_SEVERITY_DEVIATION],
		 by_sev[IWS_SEVERITY_PERFORMANCE], all == 1 ? "" : "s");
	return buf;
}
