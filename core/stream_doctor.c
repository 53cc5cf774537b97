// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine's doctor stage (stream.h iws_stream_doctor_stage,
 * stream_int.h st_doctor_*): the engine feeds the interop doctor
 * (doctor.h) itself, in one place, so that every front end runs it the
 * same way: each segment before the engine reads it (stream.c), each PDU,
 * operation and event just before the sink is given it (stream_deliver.c,
 * stream.c's TCP events), the end once the engine finished.
 *
 * Each call hands the doctor what the engine knows then (struct
 * iws_doctor_facts, read here from the engine's state): the doctor calls
 * nothing of the engine, so calls run one way, engine -> doctor.
 */
#include <stdlib.h>

#include "iwarpscope/doctor.h"
#include "stream_int.h"

/* The engine's state as its accessors (stream.c) give it, into *fa; false
 * when the stage is off. outstanding_begun walks the operations in flight,
 * so only the close events that may need it (a FIN or an RST) pay for it. */
static bool facts_of(const struct iws_stream *s, struct iws_doctor_facts *fa, bool begun)
{
	if (!s->doc)
		return false;
	fa->state = s->st;
	fa->iwarp = st_is_iwarp(s->st);
	fa->init_side = s->init_side;
	fa->mpa = &s->mpa;
	fa->tracker = s->tr ? iws_tracker_counts(s->tr) : &s->trc;
	fa->marker_dev[0] = s->d[0].marker_dev;
	fa->marker_dev[1] = s->d[1].marker_dev;
	fa->outstanding_begun = begun && s->tr ? iws_tracker_outstanding_begun(s->tr) : 0;
	return true;
}

bool iws_stream_doctor_stage(struct iws_stream *s, const struct iws_doctor_sink *sink, void *ctx,
			     bool (*keep)(void *keep_ctx, uint64_t frame), void *keep_ctx)
{
	if (s->fed || s->finished || s->doc)
		return false;
	s->doc = iws_doctor_new(sink, ctx);
	if (!s->doc)
		return false;
	if (keep)
		iws_doctor_keep(s->doc, keep, keep_ctx);
	return true;
}

const struct iws_doctor *iws_stream_doctor(const struct iws_stream *s)
{
	return s->doc;
}

void st_doctor_segment(struct iws_stream *s, int side, const struct iws_tcp_seg *seg)
{
	struct iws_doctor_facts fa;
	if (facts_of(s, &fa, false))
		iws_doctor_segment(s->doc, &fa, side, seg);
}

void st_doctor_pdu(struct iws_stream *s, const struct iws_pdu *pdu)
{
	struct iws_doctor_facts fa;
	if (facts_of(s, &fa, false))
		iws_doctor_pdu(s->doc, &fa, pdu);
}

void st_doctor_op(struct iws_stream *s, const struct iws_op *op)
{
	struct iws_doctor_facts fa;
	if (facts_of(s, &fa, false))
		iws_doctor_op(s->doc, &fa, op);
}

void st_doctor_event(struct iws_stream *s, const struct iws_stream_event *ev)
{
	struct iws_doctor_facts fa;
	if (facts_of(s, &fa, ev->kind == IWS_SEV_FIN || ev->kind == IWS_SEV_RST))
		iws_doctor_event(s->doc, &fa, ev);
}

void st_doctor_finish(struct iws_stream *s)
{
	struct iws_doctor_facts fa;
	if (facts_of(s, &fa, false))
		iws_doctor_finish(s->doc, &fa);
}

void st_doctor_free(struct iws_stream *s)
{
	iws_doctor_free(s->doc);
	s->doc = NULL;
}
