// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One connection's SMB Direct view (see smbd.h): the stream engine's PDUs
 * in, SMB2 requests with their responses out. Per connection, in capture
 * order:
 *   Send (either side)       an SMBD message (MS-SMBD 2.2): the first of
 *                            each side is its negotiate message, then Data
 *                            Transfer Messages, reassembled by
 *                            RemainingDataLength (MS-SMBD 3.1.5.2) into
 *                            SMB2 messages (compounds split by NextCommand,
 *                            MS-SMB2 3.2.4.1.4);
 *   RDMA Write, server       into a READ request's buffer descriptor: the
 *                            Write's STag is its Token (MS-SMB2 3.3.5.12);
 *   Read Request, server     pulls a WRITE request's data: Source STag =
 *                            the Token (MS-SMB2 3.3.5.13); the Read
 *                            Responses carry the request's op id (qp.h);
 *   response, server         matched by MessageId (MS-SMB2 3.2.5.1); an
 *                            interim STATUS_PENDING one (MS-SMB2 3.3.4.2)
 *                            keeps the request open.
 * The requests outstanding are bounded and lookups walk them with a cap,
 * so work and memory per segment stay bounded on any input.
 */
#include "iwarpscope/smbd.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/stream.h"
#include "send_asm.h"

#define MAX_INFLIGHT 256u
/* One Send (MS-SMBD 3.1.1.1 MaxReceiveSize: 8192 in Windows and Linux) */
#define SEND_MAX 16384u
/* An SMB2 message reassembled from Data Transfer Messages: its head (the
 * headers and a READ/WRITE's channel info) is what is read. */
#define REASM_MAX 65536u
#define COMPOUND_MAX 64u
#define READS_MAX 64u

struct ent {
	struct iws_smb m;
	struct ent *prev, *next;
	uint32_t gap_gen;
};

struct pread {
	uint64_t op_id;
	struct ent *e;
	uint32_t idx;
};

/* An SMB2 message over Data Transfer Messages (MS-SMBD 3.1.5.2). */
struct asm_msg {
	bool open;
	uint32_t remaining;         /* octets still announced */
	uint32_t have;              /* kept (up to REASM_MAX) */
	uint64_t first_frame;
	int64_t first_ts;
	uint8_t *buf;
};

struct trk {
	struct iws_smb_counts counts;
	struct ent *head, *tail;
	uint32_t inflight, with_desc;
	struct pread reads[READS_MAX];
	uint32_t nreads;
	struct asm_msg msg[2];
	struct send_asm send[2];    /* a Send in segments, per sender */
	bool client_known;          /* counts.client_dir was set */
	uint32_t held[2];           /* send credits held */
	bool sent[2];
	uint32_t gap_gen;
	uint64_t next_id;
};

/* A connection being probed costs these few octets (tests/hostile: 100,000
 * connections); the rest comes with recognition (struct trk). */
struct iws_smb_conn {
	enum iws_smb_conn_state state;
	uint32_t qp;
	uint8_t probes;
	uint8_t seen;               /* 1 << dir: that side's first Send was looked at */
	iws_smb_cb cb;
	void *ctx;
	struct trk *t;
};

/* ---- requests ---- */

static void unlink_ent(struct trk *t, struct ent *e)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nreads; i++)
		if (t->reads[i].e != e)
			t->reads[k++] = t->reads[i];
	t->nreads = k;
	if (e->prev)
		e->prev->next = e->next;
	else
		t->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		t->tail = e->prev;
	t->inflight--;
	if (e->m.req.ndesc)
		t->with_desc--;
}

static void report(struct iws_smb_conn *n, struct iws_smb *m, uint32_t gap_gen, uint32_t flags)
{
	m->flags |= flags;
	if (!m->has_response && gap_gen != n->t->gap_gen)
		m->flags |= IWS_SMBF_GAP;
	m->id = ++n->t->next_id;
	if (m->has_response && m->has_request)
		m->latency_ns = m->resp_ns - m->req_ns;
	m->complete = m->has_request && m->has_response && !(m->flags & IWS_SMBF_INCOMPLETE_MASK);
	n->t->counts.reported++;
	if (!m->complete)
		n->t->counts.incomplete++;
	n->cb(n->ctx, m);
}

static void retire(struct iws_smb_conn *n, struct ent *e, uint32_t flags)
{
	unlink_ent(n->t, e);
	report(n, &e->m, e->gap_gen, flags);
	free(e);
}

static struct ent *find_id(struct trk *t, uint64_t id, uint8_t req_dir)
{
	uint32_t k = 0;
	for (struct ent *e = t->head; e && k < MAX_INFLIGHT; e = e->next, k++)
		if (e->m.message_id == id && e->m.req_dir == req_dir)
			return e;
	return NULL;
}

static void request(struct iws_smb_conn *n, const struct iws_pdu *p, const struct asm_msg *a,
		    const struct iws_smb2_msg *s)
{
	struct trk *t = n->t;
	struct iws_smb_counts *k = &t->counts;
	k->requests++;
	if (!t->client_known) {
		k->client_dir = p->dir;
		t->client_known = true;
	}
	if (s->command == IWS_SMB2_READ || s->command == IWS_SMB2_WRITE) {
		bool rdma = s->ndesc && (s->channel == IWS_SMB2_CHANNEL_RDMA_V1 ||
					 s->channel == IWS_SMB2_CHANNEL_RDMA_V1_INVALIDATE);
		if (s->command == IWS_SMB2_READ) {
			k->reads++;
			k->rdma_reads += rdma;
		} else {
			k->writes++;
			k->rdma_writes += rdma;
			/* MS-SMB2 2.2.21: with Channel none the data follows inline */
			if (s->channel == IWS_SMB2_CHANNEL_NONE)
				k->inline_bytes += s->length;
		}
	}
	/* MS-SMB2 3.3.5.16: a CANCEL gets no response */
	if (s->command == IWS_SMB2_CANCEL)
		return;
	struct ent *old = find_id(t, s->message_id, p->dir);
	if (old)
		retire(n, old, IWS_SMBF_ID_REUSE);
	if (t->inflight >= MAX_INFLIGHT && t->head) {
		k->evicted++;
		retire(n, t->head, IWS_SMBF_EVICTED);
	}
	struct ent *e = calloc(1, sizeof(*e));
	if (!e)
		return;
	struct iws_smb *m = &e->m;
	m->qp = n->qp;
	m->req_dir = p->dir;
	m->message_id = s->message_id;
	m->command = s->command;
	m->has_request = true;
	m->req = *s;
	m->req_frame = a->first_frame;
	m->req_ns = a->first_ts;
	m->req_done_frame = p->frame;
	m->req_msn = p->msg->ddp.msn;
	if (s->ndesc > IWS_SMBD_MAX_DESC)
		m->flags |= IWS_SMBF_DESC_MORE;
	for (uint32_t i = 0; i < s->ndesc && i < IWS_SMBD_MAX_DESC; i++)
		m->desc_bytes += s->desc[i].length;
	if (m->req.channel == IWS_SMB2_CHANNEL_NONE && s->command == IWS_SMB2_WRITE)
		m->inline_bytes = s->length;
	k->desc_bytes += m->desc_bytes;
	e->gap_gen = t->gap_gen;
	e->prev = t->tail;
	if (t->tail)
		t->tail->next = e;
	else
		t->head = e;
	t->tail = e;
	t->inflight++;
	if (s->ndesc)
		t->with_desc++;
}

static void response(struct iws_smb_conn *n, const struct iws_pdu *p, const struct asm_msg *a,
		     const struct iws_smb2_msg *s)
{
	struct trk *t = n->t;
	struct iws_smb_counts *k = &t->counts;
	k->responses++;
	/* MS-SMB2 3.3.4.2: an interim response; the final one follows */
	bool interim = s->status == IWS_SMB2_STATUS_PENDING && (s->flags & IWS_SMB2_FLAGS_ASYNC);
	struct ent *e = find_id(t, s->message_id, p->dir ^ 1);
	if (interim) {
		k->interim++;
		if (e)
			e->m.interim++;
		return;
	}
	/* MS-SMB2 2.2.23: an oplock or lease break notification (MessageId
	 * 0xFFFFFFFFFFFFFFFF) answers no request */
	if (s->message_id == UINT64_MAX && s->command == IWS_SMB2_OPLOCK_BREAK)
		return;
	struct iws_smb o;
	struct iws_smb *m = e ? &e->m : &o;
	if (!e) {
		memset(&o, 0, sizeof(o));
		k->orphans++;
		o.qp = n->qp;
		o.req_dir = p->dir ^ 1;
		o.message_id = s->message_id;
		o.command = s->command;
		o.req_frame = a->first_frame;
		o.req_ns = a->first_ts;
	}
	m->has_response = true;
	m->status = s->status;
	m->resp_frame = p->frame;
	m->resp_msn = p->msg->ddp.msn;
	m->resp_ns = p->ts;
	if (s->command == IWS_SMB2_READ) {
		/* MS-SMB2 2.2.20: DataLength octets inline (0 when they went by RDMA) */
		m->inline_bytes = s->data_length;
		k->inline_bytes += s->data_length;
	}
	if (e)
		retire(n, e, 0);
	else
		report(n, &o, t->gap_gen, IWS_SMBF_NO_REQUEST);
}

/* An SMB2 message (a compound: MS-SMB2 3.2.4.1.4) reassembled at buf. */
static void smb2(struct iws_smb_conn *n, const struct iws_pdu *p, const struct asm_msg *a, const uint8_t *buf,
		 size_t len)
{
	size_t off = 0;
	for (uint32_t i = 0; i < COMPOUND_MAX && off < len; i++) {
		struct iws_smb2_msg s;
		size_t rest = len - off;
		if (iws_smb2_parse(buf + off, rest, &s).status != IWS_OK) {
			if (!i)
				n->t->counts.not_smb2++;
			return;
		}
		n->t->counts.smb2++;
		if (s.next_command && s.next_command < rest) {
			/* this element ends where the next begins */
			iws_smb2_parse(buf + off, s.next_command, &s);
		}
		if (s.flags & IWS_SMB2_FLAGS_RESPONSE)
			response(n, p, a, &s);
		else
			request(n, p, a, &s);
		if (!s.next_command)
			return;
		off += s.next_command;
	}
}

/* ---- SMBD messages ---- */

static void credits(struct trk *t, uint8_t dir, const struct iws_smbd_data *d)
{
	struct iws_smb_counts *k = &t->counts;
	dir &= 1;
	/* MS-SMBD 3.1.5.1: a Data Transfer Message costs its sender a credit */
	k->credit_msgs[dir]++;
	if (!t->held[dir])
		k->credits_exceeded[dir]++;
	else
		t->held[dir]--;
	if (!t->sent[dir] || t->held[dir] < k->credits_min_left[dir])
		k->credits_min_left[dir] = t->held[dir];
	t->sent[dir] = true;
	/* 3.1.5.9: and grants the peer CreditsGranted more */
	uint8_t peer = dir ^ 1;
	k->credits_granted[dir] += d->credits_granted;
	t->held[peer] = t->held[peer] + d->credits_granted > 0xFFFFu ? 0xFFFFu : t->held[peer] + d->credits_granted;
	if (t->held[peer] > k->credits_max_held[peer])
		k->credits_max_held[peer] = t->held[peer];
	if (d->credits_requested > k->credits_requested_max[dir])
		k->credits_requested_max[dir] = d->credits_requested;
}

static bool recognised(struct iws_smb_conn *n)
{
	if (!(n->t = calloc(1, sizeof(*n->t)))) {
		n->state = IWS_SMB_NO;
		return false;
	}
	n->t->counts.sends = n->t->counts.undecodable = n->probes;
	n->state = IWS_SMB_YES;
	return true;
}

/* Is buf a Data Transfer Message with an SMB2 header in it? */
static bool looks_smb2(const uint8_t *buf, size_t len, const struct iws_smbd_data *d)
{
	return d->data_length >= 4 && d->data_offset + 4 <= len && buf[d->data_offset] == 0xFE &&
	       !memcmp(buf + d->data_offset + 1, "SMB", 3);
}

static void data_msg(struct iws_smb_conn *n, const struct iws_pdu *p, const struct send_asm *s,
		     const uint8_t *buf, const struct iws_smbd_data *d)
{
	struct trk *t = n->t;
	struct iws_smb_counts *k = &t->counts;
	struct asm_msg *a = &t->msg[p->dir & 1];
	k->data_msgs++;
	credits(t, p->dir, d);
	if (d->remaining)
		k->fragments++;
	if (!d->data_length)
		return;     /* a credit grant or keep-alive (MS-SMBD 3.1.5.10) */
	const uint8_t *data = buf + d->data_offset;
	if (a->open && a->remaining != d->data_length + (uint64_t)d->remaining) {
		/* the continuation is not what was announced: give up the message */
		k->reassembly_errors++;
		a->open = false;
	}
	if (!a->open && !d->remaining) {
		struct asm_msg one = { false, 0, d->data_length, s->first_frame, s->first_ts, NULL };
		smb2(n, p, &one, data, d->data_length);
		return;
	}
	if (!a->open) {
		a->open = true;
		a->have = 0;
		a->first_frame = s->first_frame;
		a->first_ts = s->first_ts;
		if (!a->buf && !(a->buf = malloc(REASM_MAX))) {
			a->open = false;
			return;
		}
	}
	uint32_t take = d->data_length < REASM_MAX - a->have ? d->data_length : REASM_MAX - a->have;
	memcpy(a->buf + a->have, data, take);
	a->have += take;
	a->remaining = d->remaining;
	if (!d->remaining) {
		a->open = false;
		smb2(n, p, a, a->buf, a->have);
	}
}

/* A whole Send (or its first SEND_MAX octets). */
static void message(struct iws_smb_conn *n, const struct iws_pdu *p, const struct send_asm *s,
		    const uint8_t *buf, size_t len)
{
	struct iws_smbd_negotiate neg;
	struct iws_smbd_data d;
	uint8_t dir = p->dir & 1;
	bool first = !(n->seen & (1u << dir));
	n->seen |= (uint8_t)(1u << dir);
	/* MS-SMBD 3.1.5.2, 3.2.5.2: each side's first message is its negotiate message */
	bool is_neg = first && iws_smbd_parse_negotiate(buf, len, &neg).status == IWS_OK;
	bool is_data = !is_neg && iws_smbd_parse_data(buf, len, &d).status == IWS_OK;
	if (n->state == IWS_SMB_PROBING) {
		if (!is_neg && !(is_data && looks_smb2(buf, len, &d))) {
			if (++n->probes >= IWS_SMB_PROBE_SENDS)
				n->state = IWS_SMB_NO;
			return;
		}
		if (!recognised(n))
			return;
	}
	struct trk *t = n->t;
	struct iws_smb_counts *k = &t->counts;
	k->sends++;
	if (is_neg) {
		if (!neg.response) {
			k->has_neg_req = true;
			k->neg_req = neg;
			k->client_dir = dir;
			t->client_known = true;
		} else {
			k->has_neg_resp = true;
			k->neg_resp = neg;
			/* MS-SMBD 3.1.5.7 (client): CreditsGranted are its first send credits */
			k->credits_granted[dir] += neg.credits_granted;
			t->held[dir ^ 1] += neg.credits_granted;
			if (t->held[dir ^ 1] > k->credits_max_held[dir ^ 1])
				k->credits_max_held[dir ^ 1] = t->held[dir ^ 1];
		}
		if (neg.credits_requested > k->credits_requested_max[dir])
			k->credits_requested_max[dir] = neg.credits_requested;
		return;
	}
	if (!is_data) {
		k->undecodable++;
		return;
	}
	data_msg(n, p, s, buf, &d);
}

/* ---- RDMA data ---- */

static struct ent *find_token(struct trk *t, uint32_t token, uint8_t server_dir, uint16_t cmd)
{
	if (!t->with_desc)
		return NULL;
	uint32_t k = 0;
	for (struct ent *e = t->head; e && k < MAX_INFLIGHT; e = e->next, k++) {
		if (e->m.req_dir == server_dir || e->m.command != cmd)
			continue;
		for (uint32_t i = 0; i < e->m.req.ndesc && i < IWS_SMBD_MAX_DESC; i++)
			if (e->m.req.desc[i].token == token)
				return e;
	}
	return NULL;
}

static uint32_t add_data(struct trk *t, struct ent *e, const struct iws_pdu *p, enum iws_op_type type,
			 uint32_t token, uint64_t bytes)
{
	struct iws_smb *m = &e->m;
	uint64_t op_id = p->note ? p->note->op_id : 0;
	uint32_t i;
	for (i = 0; i < m->nrdma; i++)
		if (m->rdma[i].type == type && m->rdma[i].token == token)
			break;
	if (i == m->nrdma) {
		if (m->nrdma == IWS_SMB_MAX_RDMA) {
			m->flags |= IWS_SMBF_DESC_MORE;
			i = UINT32_MAX;
		} else {
			m->rdma[m->nrdma++] = (struct iws_smb_rdma){ op_id, op_id, 1, type, token, 0, 0,
								     p->first_frame, 0, p->first_ts, 0 };
			m->rdma_ops++;
		}
	} else if (op_id != m->rdma[i].last_op_id || !op_id) {
		m->rdma[i].ops++;
		m->rdma[i].last_op_id = op_id;
		m->rdma_ops++;
	}
	if (i != UINT32_MAX) {
		m->rdma[i].bytes += bytes;
		m->rdma[i].segments++;
		m->rdma[i].last_frame = p->frame;
		m->rdma[i].last_ns = p->ts;
	}
	m->rdma_bytes += bytes;
	t->counts.rdma_bytes += bytes;
	return i;
}

static void data(struct iws_smb_conn *n, const struct iws_pdu *p, const struct iws_msg *msg)
{
	struct trk *t = n->t;
	const struct iws_ddp_hdr *d = &msg->ddp;
	uint64_t bytes = p->note ? p->note->payload : msg->payload_len;
	struct ent *e;
	if (d->tagged && d->opcode == IWS_OP_CODE_WRITE) {
		/* MS-SMB2 3.3.5.12: a READ's data, written into its descriptors */
		if ((e = find_token(t, d->stag, p->dir, IWS_SMB2_READ)))
			add_data(t, e, p, IWS_OPT_WRITE, d->stag, bytes);
		else
			t->counts.unmatched_rdma++;
	} else if (!d->tagged && d->opcode == IWS_OP_CODE_READ_REQ && iws_msg_has(msg, d->hdr_len + 28)) {
		/* MS-SMB2 3.3.5.13: a WRITE's data, read from its descriptors */
		uint32_t src = msg->u.read_req.src_stag;
		if ((e = find_token(t, src, p->dir, IWS_SMB2_WRITE))) {
			uint32_t i = add_data(t, e, p, IWS_OPT_READ, src, 0);
			if (i != UINT32_MAX && p->note && p->note->op_id) {
				if (t->nreads == READS_MAX) {
					memmove(t->reads, t->reads + 1, (READS_MAX - 1) * sizeof(t->reads[0]));
					t->nreads--;
				}
				t->reads[t->nreads++] = (struct pread){ p->note->op_id, e, i };
			}
		} else {
			t->counts.unmatched_rdma++;
		}
	} else if (d->tagged && d->opcode == IWS_OP_CODE_READ_RESP && p->note && p->note->op_id) {
		for (uint32_t i = 0; i < t->nreads; i++)
			if (t->reads[i].op_id == p->note->op_id) {
				struct ent *re = t->reads[i].e;
				add_data(t, re, p, IWS_OPT_READ, re->m.rdma[t->reads[i].idx].token, bytes);
				return;
			}
		t->counts.unmatched_rdma++;
	}
}

/* ---- the connection ---- */

struct iws_smb_conn *iws_smb_conn_new(uint32_t qp, iws_smb_cb cb, void *ctx)
{
	struct iws_smb_conn *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->qp = qp;
	n->cb = cb;
	n->ctx = ctx;
	return n;
}

void iws_smb_conn_free(struct iws_smb_conn *n)
{
	if (!n)
		return;
	if (n->t) {
		while (n->t->head) {
			struct ent *e = n->t->head;
			n->t->head = e->next;
			free(e);
		}
		for (int d = 0; d < 2; d++) {
			free(n->t->msg[d].buf);
			free(n->t->send[d].buf);
		}
		free(n->t);
	}
	free(n);
}

/* A Send's segment (send_asm.h). While probing, a Send's first segment is
 * its message (the SMBD and SMB2 headers lead it). */
static void send_seg(struct iws_smb_conn *n, const struct iws_pdu *p, const struct iws_msg *m)
{
	struct send_asm probe = { 0 };
	struct send_asm *a = n->t ? &n->t->send[p->dir & 1] : &probe;
	const uint8_t *buf;
	size_t len;
	if (send_asm_seg(a, SEND_MAX, p, m, n->state == IWS_SMB_PROBING, &buf, &len))
		message(n, p, a, buf, len);
}

void iws_smb_conn_pdu(struct iws_smb_conn *n, const struct iws_pdu *p)
{
	if (n->state == IWS_SMB_NO || p->kind != IWS_PDU_FPDU || !p->msg || !p->fpdu)
		return;
	const struct iws_msg *m = p->msg;
	const struct iws_ddp_hdr *d = &m->ddp;
	if (!d->tagged && d->qn == IWS_QN_SEND && iws_rdmap_is_send(d->opcode))
		send_seg(n, p, m);
	else if (n->state == IWS_SMB_YES)
		data(n, p, m);
}

void iws_smb_conn_event(struct iws_smb_conn *n, const struct iws_stream_event *ev)
{
	if (n->state == IWS_SMB_NO || (ev->kind != IWS_SEV_GAP && ev->kind != IWS_SEV_FRAMING_LOST))
		return;
	if (!n->t)
		return;
	n->t->send[ev->dir & 1].open = false;
	n->t->msg[ev->dir & 1].open = false;
	n->t->gap_gen++;
}

void iws_smb_conn_finish(struct iws_smb_conn *n, bool capture_end)
{
	while (n->t && n->t->head)
		retire(n, n->t->head, capture_end ? IWS_SMBF_UNFINISHED : IWS_SMBF_ABORTED);
}

enum iws_smb_conn_state iws_smb_conn_state(const struct iws_smb_conn *n)
{
	return n->state;
}

const struct iws_smb_counts *iws_smb_conn_counts(const struct iws_smb_conn *n)
{
	static const struct iws_smb_counts none;
	return n->t ? &n->t->counts : &none;
}

bool iws_smb_conn_pending(const struct iws_smb_conn *n, int64_t *start_ns, uint64_t *first_frame)
{
	bool any = false;
	if (!n->t)
		return false;
	if (n->t->head)
		send_asm_earliest(&any, start_ns, first_frame, n->t->head->m.req_ns, n->t->head->m.req_frame);
	for (int d = 0; d < 2; d++) {
		if (n->t->msg[d].open)
			send_asm_earliest(&any, start_ns, first_frame, n->t->msg[d].first_ts, n->t->msg[d].first_frame);
		if (n->t->send[d].open)
			send_asm_earliest(&any, start_ns, first_frame, n->t->send[d].first_ts, n->t->send[d].first_frame);
	}
	return any;
}
