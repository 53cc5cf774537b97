// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the doctor's checks record (doctor_int.h): an occurrence of a rule
 * (doc_fire: to the sink, and into the rule's sum per direction), the
 * findings' sums in catalogue order, what the capture did not show (the
 * rules not checked), the rings the checks keep. Below the checks
 * (doctor_mpa.c, doctor_frame.c, doctor_rdma.c) and the entry points
 * (doctor.c), which call it; it calls neither.
 */
#include "doctor_int.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"

void doc_free_rings(struct iws_doctor *d)
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

uint8_t doc_dir_of(const struct iws_doctor_facts *fa, int side)
{
	return side == fa->init_side ? IWS_DIR_I2R : IWS_DIR_R2I;
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
		 * captured: the connection's may be larger */
		s->count_at_least |= !measures && (at_least || (iws_rule_info(rule)->measure == IWS_MEASURE_NONE &&
								 (unseen_so_far(d) & IWS_DOC_UNSEEN_START)));
		s->of = measure_of(d, rule, dir);
	}
	if (d->sink.occurrence)
		d->sink.occurrence(d->ctx, &f);
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
	/* RPC over RDMA: the calls outstanding, the handles they announced
	 * and the octets moved since (doctor_rpc.c) */
	case IWS_RULE_RPC_CHUNK_LENGTH:
	case IWS_RULE_RPC_REPLY_CHUNK:
	case IWS_RULE_RPC_CREDITS_EXCEEDED:
	case IWS_RULE_RPC_CREDIT_STALL:
	case IWS_RULE_RPC_UNANNOUNCED_CHUNK:
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
		/* the rpc.* rules concern only a connection that carried RPCs */
		if (r >= IWS_RULE_RPC_CHUNK_LENGTH && !d->rpc_seen)
			continue;
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
