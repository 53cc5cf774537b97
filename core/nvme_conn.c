// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One connection's NVMe view for a front end (see nvme.h, "one connection"):
 * the stream engine's PDUs and events in, NVMe commands out. Both front ends
 * (the CLI's conn.c, the plugin's stream postdissector) call this, so they
 * recognise the same connections as NVMe/RDMA and feed the tracker the same
 * segments, frames and gaps.
 *
 * Recognition is by content, never by port: nvmet-rdma listens on 4420 by
 * default, but any port works, and 4420 carries NVMe/TCP too.
 */
#include "iwarpscope/nvme.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/stream.h"

/* Commands held while the connection is only a candidate. */
#define HOLD_MAX 64u

struct iws_nvme_conn {
	enum iws_nvme_conn_state state;
	uint8_t host_dir;               /* the engine's IWS_DIR_* of the host */
	bool give_up;                   /* decided inside the tracker's callback */
	uint32_t probes;                /* Sends looked at while probing */
	uint32_t segs;                  /* other segments seen while probing */
	uint32_t qp;
	struct iws_nvme_limits lim;
	iws_nvme_cmd_cb cb;
	void *ctx;
	struct iws_nvme_tracker *t;
	struct iws_nvme_cmd *held;      /* candidate: commands reported so far */
	uint32_t nheld;
};

/* Capsule warnings that say nothing against NVMe: a probe sees only the
 * head of a capsule that spans segments. */
#define ICD_WARNINGS ((uint32_t)(IWS_NVME_W_ICD_SHORT | IWS_NVME_W_ICD_UNUSED))

/* A command that proves the connection is NVMe/RDMA: its capsule parsed
 * with an SGL and without a warning, and a 16-octet response capsule (the
 * RDMA transport's response is the CQE alone, NVMe-oF 1.1 "Capsules")
 * carried its CID. */
static bool proves_nvme(const struct iws_nvme_cmd *c)
{
	return c->has_completion && !(c->flags & IWS_NVMEF_NO_COMMAND) && !c->cqe.warnings &&
	       !(c->sqe.warnings & ~ICD_WARNINGS) && strcmp(c->op, "unknown") != 0;
}

/* The connection is NVMe: what was held is reported, oldest first. */
static void confirm(struct iws_nvme_conn *n)
{
	n->state = IWS_NVME_YES;
	for (uint32_t i = 0; i < n->nheld; i++)
		n->cb(n->ctx, &n->held[i]);
	free(n->held);
	n->held = NULL;
	n->nheld = 0;
}

static void on_cmd(void *ctx, const struct iws_nvme_cmd *c)
{
	struct iws_nvme_conn *n = ctx;
	if (n->state == IWS_NVME_YES) {
		n->cb(n->ctx, c);
		return;
	}
	if (n->state != IWS_NVME_CANDIDATE)
		return;
	if (proves_nvme(c)) {
		confirm(n);
		n->cb(n->ctx, c);
		return;
	}
	if (!n->held && !(n->held = malloc(HOLD_MAX * sizeof(*n->held)))) {
		n->give_up = true;
		return;
	}
	if (n->nheld == HOLD_MAX) {
		n->give_up = true;
		return;
	}
	n->held[n->nheld++] = *c;
}

static void drop_tracker(struct iws_nvme_conn *n)
{
	iws_nvme_tracker_free(n->t);
	n->t = NULL;
	free(n->held);
	n->held = NULL;
	n->nheld = 0;
	n->state = IWS_NVME_NO;
}

static bool start_tracker(struct iws_nvme_conn *n, uint8_t host_dir, enum iws_nvme_conn_state st)
{
	n->t = iws_nvme_tracker_new(&n->lim, n->qp, on_cmd, n);
	if (!n->t) {
		n->state = IWS_NVME_NO;
		return false;
	}
	n->host_dir = host_dir;
	n->state = st;
	return true;
}

struct iws_nvme_conn *iws_nvme_conn_new(const struct iws_nvme_limits *lim, uint32_t qp,
					iws_nvme_cmd_cb cb, void *ctx)
{
	struct iws_nvme_conn *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	if (lim)
		n->lim = *lim;
	n->qp = qp;
	n->cb = cb;
	n->ctx = ctx;
	return n;
}

void iws_nvme_conn_free(struct iws_nvme_conn *n)
{
	if (!n)
		return;
	iws_nvme_tracker_free(n->t);
	free(n->held);
	free(n);
}

/* The MPA Request's private data after the enhanced word: the NVMe RDMA
 * transport's rdma_cm request (NVMe RDMA Transport 1.0 "RDMA_CM_REQUEST":
 * RECFMT, QID, HRQSIZE, HSQSIZE, CNTLID, then 22 reserved octets). */
static void mpa_request(struct iws_nvme_conn *n, const struct iws_pdu *p)
{
	const struct iws_mpa_frame *m = p->mpa;
	if (!m || m->type != IWS_MPA_REQUEST || m->f_ulp_pd.len != IWS_NVME_CM_REQ_LEN ||
	    m->f_ulp_pd.off + IWS_NVME_CM_REQ_LEN > p->first_hole || p->first_hole > p->len)
		return;
	const uint8_t *pd = p->wire + m->f_ulp_pd.off;
	struct iws_nvme_cm_req req;
	if (iws_nvme_parse_cm_req(pd, IWS_NVME_CM_REQ_LEN, &req).status != IWS_OK || !req.hsqsize ||
	    !req.hrqsize)
		return;
	for (uint32_t i = 10; i < IWS_NVME_CM_REQ_LEN; i++)
		if (pd[i])
			return;
	if (n->state == IWS_NVME_PROBING && !start_tracker(n, IWS_DIR_I2R, IWS_NVME_YES))
		return;
	if (n->t)
		iws_nvme_tracker_set_cm(n->t, &req);
	if (n->state == IWS_NVME_CANDIDATE)
		confirm(n);
}

/* Probing: could this segment start a command capsule (the first segment of
 * a Send)? Cheap, for every segment of a connection still being probed. */
static bool probe_candidate(struct iws_nvme_conn *n, const struct iws_msg *m)
{
	const struct iws_ddp_hdr *h = &m->ddp;
	if (!h->tagged && h->qn == IWS_QN_SEND && h->mo == 0 && iws_rdmap_is_send(h->opcode))
		return true;
	/* RDMA data alone says nothing: a long run of it without a Send is not
	 * NVMe/RDMA as this can recognise it (capsules come in Sends). */
	if (++n->segs >= IWS_NVME_PROBE_SEGMENTS)
		n->state = IWS_NVME_NO;
	return false;
}

/* Probing: does this Send start with a command capsule? */
static void probe(struct iws_nvme_conn *n, const struct iws_pdu *p, const uint8_t *payload,
		  uint32_t cap, uint32_t payload_len)
{
	struct iws_nvme_command q;
	/* (a snapshot length may have cut the SQE: its first octets - opcode,
	 * PSDT, a Fabrics FCTYPE - still say it) */
	if (cap > 4 && payload_len >= IWS_NVME_SQE_LEN &&
	    iws_nvme_parse_command_cut(payload, cap, IWS_NVME_QUEUE_UNKNOWN, &q).status == IWS_OK &&
	    !(q.warnings & ~ICD_WARNINGS) && q.psdt) {
		bool connect = q.fabrics && q.fab.fctype == IWS_NVME_FCT_CONNECT;
		start_tracker(n, p->dir, connect ? IWS_NVME_YES : IWS_NVME_CANDIDATE);
		return;
	}
	if (++n->probes >= IWS_NVME_PROBE_SENDS)
		n->state = IWS_NVME_NO;
}

void iws_nvme_conn_pdu(struct iws_nvme_conn *n, const struct iws_pdu *p)
{
	if (n->state == IWS_NVME_NO)
		return;
	if (p->kind == IWS_PDU_MPA_FRAME) {
		mpa_request(n, p);
		return;
	}
	if (p->kind != IWS_PDU_FPDU || !p->msg)
		return;
	const struct iws_msg *m = p->msg;
	if (n->state == IWS_NVME_PROBING && !probe_candidate(n, m))
		return;
	uint32_t ucap = iws_fpdu_ulpdu_captured(p->fpdu, p->first_hole);
	uint32_t pcap = ucap > m->payload_off ? ucap - m->payload_off : 0;
	if (pcap > m->payload_len)
		pcap = m->payload_len;
	const uint8_t *payload = p->fpdu->ulpdu + m->payload_off;
	if (n->state == IWS_NVME_PROBING) {
		probe(n, p, payload, pcap, m->payload_len);
		if (!n->t)
			return;
	}
	struct iws_nvme_seg s = {
		.dir = p->dir == n->host_dir ? IWS_DIR_I2R : IWS_DIR_R2I,
		.first_frame = p->first_frame,
		.first_ts_ns = p->first_ts,
		.frame = p->frame,
		.ts_ns = p->ts,
		.msg = m,
		.payload = payload,
		.payload_cap = pcap,
	};
	iws_nvme_tracker_segment(n->t, &s);
	if (n->state == IWS_NVME_CANDIDATE &&
	    (n->give_up || iws_nvme_tracker_counts(n->t)->capsules > IWS_NVME_PROBE_CAPSULES))
		drop_tracker(n);
}

void iws_nvme_conn_event(struct iws_nvme_conn *n, const struct iws_stream_event *ev)
{
	if (!n->t || (ev->kind != IWS_SEV_GAP && ev->kind != IWS_SEV_FRAMING_LOST))
		return;
	iws_nvme_tracker_gap(n->t, ev->dir == n->host_dir ? IWS_DIR_I2R : IWS_DIR_R2I);
}

void iws_nvme_conn_finish(struct iws_nvme_conn *n, bool capture_end)
{
	if (!n->t)
		return;
	iws_nvme_tracker_finish(n->t, capture_end ? IWS_NVMEF_UNFINISHED : IWS_NVMEF_ABORTED);
	if (n->state != IWS_NVME_YES)
		drop_tracker(n);
}

enum iws_nvme_conn_state iws_nvme_conn_state(const struct iws_nvme_conn *n)
{
	return n->state;
}

const struct iws_nvme_tracker *iws_nvme_conn_tracker(const struct iws_nvme_conn *n)
{
	return n->t;
}

const struct iws_nvme_note *iws_nvme_conn_note(const struct iws_nvme_conn *n)
{
	return n->t ? iws_nvme_tracker_note(n->t) : NULL;
}

bool iws_nvme_conn_pending(const struct iws_nvme_conn *n, int64_t *start_ns, uint64_t *first_frame)
{
	if (!n->t)
		return false;
	bool any = iws_nvme_tracker_pending(n->t, start_ns, first_frame);
	for (uint32_t i = 0; i < n->nheld; i++) {
		const struct iws_nvme_cmd *c = &n->held[i];
		if (!any || c->start_ns < *start_ns ||
		    (c->start_ns == *start_ns && c->first_frame < *first_frame)) {
			*start_ns = c->start_ns;
			*first_frame = c->first_frame;
			any = true;
		}
	}
	return any;
}
