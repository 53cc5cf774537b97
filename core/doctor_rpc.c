// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's RPC-over-RDMA rules (rules.h, rpc.*; RFC 8166).
 *
 * The facts come from the RPC-over-RDMA tracker (rpcrdma.h), not from a
 * parse of the doctor's own: the doctor keeps an iws_rpc_conn of its own,
 * fed the same PDUs (with the operation tracker's notes) and events the
 * engine reports to it, and is told what breaks the transport's rules
 * (iws_rpc_conn_watch). Why its own and not the engine's stage
 * (iws_stream_rpc): the stage runs only when a front end turns it on
 * (`iwarpscope rpc`, stats), and the doctor must find the same things
 * whichever front end (CLI doctor, plugin) runs it and whatever else it
 * asked of the engine. A connection that is no RPC-over-RDMA costs the
 * tracker's probe (a few dozen octets) until it is given up.
 */
#include "doctor_int.h"

#include "iwarpscope/rpcrdma.h"

static void on_rpc(void *ctx, const struct iws_rpc *r)
{
	(void)ctx;
	(void)r;
}

static void on_anomaly(void *ctx, const struct iws_rpc_anomaly *a)
{
	struct iws_doctor *d = ctx;
	enum iws_rule rule;
	uint64_t v0 = a->v[0];
	switch (a->kind) {
	case IWS_RPCA_CREDITS:
		rule = IWS_RULE_RPC_CREDITS_EXCEEDED;
		break;
	case IWS_RPCA_CHUNK_LENGTH:
		rule = IWS_RULE_RPC_CHUNK_LENGTH;
		v0 = (a->v[0] & 0xFFFFFFFFull) | a->v[3] << 32;
		break;
	case IWS_RPCA_REPLY_CHUNK:
		rule = IWS_RULE_RPC_REPLY_CHUNK;
		break;
	case IWS_RPCA_UNANNOUNCED:
		rule = IWS_RULE_RPC_UNANNOUNCED_CHUNK;
		break;
	case IWS_RPCA_CREDIT_STALL:
		rule = IWS_RULE_RPC_CREDIT_STALL;
		break;
	default:
		return;
	}
	/* the calls outstanding and the handles announced are known only
	 * from a connection captured whole (rule_needs, doctor_record.c) */
	if (doc_unseen(d, rule))
		return;
	doc_fire(d, rule, a->dir, a->frame, v0, a->v[1], a->v[2]);
}

void doc_rpc_pdu(struct iws_doctor *d, const struct iws_pdu *p)
{
	if (!d->rpc_tried) {
		d->rpc_tried = true;
		if ((d->rpc = iws_rpc_conn_new(NULL, 0, on_rpc, d)))
			iws_rpc_conn_watch(d->rpc, on_anomaly, d);
	}
	if (!d->rpc)
		return;
	iws_rpc_conn_pdu(d->rpc, p);
	if (iws_rpc_conn_state(d->rpc) == IWS_RPC_YES)
		d->rpc_seen = true;
	if (iws_rpc_conn_state(d->rpc) == IWS_RPC_NO) {
		iws_rpc_conn_free(d->rpc);
		d->rpc = NULL;
	}
}

void doc_rpc_event(struct iws_doctor *d, const struct iws_stream_event *ev)
{
	if (d->rpc)
		iws_rpc_conn_event(d->rpc, ev);
}

void doc_rpc_free(struct iws_doctor *d)
{
	iws_rpc_conn_free(d->rpc);
	d->rpc = NULL;
}
