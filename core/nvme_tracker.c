// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe command tracker (see nvme.h). Per connection, segments in capture
 * order; the NVMe-oF RDMA transport ties them together:
 *   Send, host -> controller         a command capsule (SQE + in-capsule
 *                                    data), reassembled by MSN/MO when it
 *                                    spans DDP segments (RFC 5041 §5.3);
 *   RDMA Write, controller -> host   data of a controller-to-host transfer,
 *                                    its STag is the command's SGL key;
 *   Read Request, controller -> host the controller pulls a host-to-
 *                                    controller transfer: source STag = key;
 *   Read Response, host -> controller that data, in request order
 *                                    (RFC 5040 §5.2.1), by the sink STag;
 *   Send [with Invalidate], back     the response capsule (CQE): the
 *                                    command with its CID completes.
 * Every lookup is a hash chain walk or a FIFO head check with a cap on the
 * entries looked at, and the commands outstanding are bounded, so the work
 * per segment and the memory stay bounded on any input.
 */
#include "iwarpscope/nvme.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"

#define DEFAULT_MAX_INFLIGHT 1024u
#define NBUCKETS 256u
/* Entries looked at per lookup: CIDs are unique among the outstanding
 * commands of a queue and keys nearly so, a chain this long is an attack. */
#define SEARCH_MAX 64u
/* Multi-segment Sends open at once per direction: a stream sends one
 * message after the other; two covers a capture that starts mid-message. */
#define OPEN_SENDS 2
/* What a capsule is read from: the SQE and the Connect data after it. */
#define HEAD_MAX (IWS_NVME_SQE_LEN + IWS_NVME_CONNECT_DATA_LEN)

struct cmd {
	struct iws_nvme_cmd r;          /* the report, filled as things happen */
	struct cmd *prev, *next;        /* outstanding commands, oldest first */
	struct cmd *cid_next;           /* hash chain by CID */
	struct cmd *key_next;           /* hash chain by SGL key */
	bool key_hashed;
	uint32_t gap_gen;               /* gaps before it was issued */
	uint32_t reads;                 /* Read Requests of it still in the FIFO */
	int64_t data_first_ts, data_last_ts;
	uint8_t *cdata;                 /* Connect data pulled by RDMA Read */
	uint32_t cdata_got;
};

/* A controller's RDMA Read of a host buffer, waiting for its responses. */
struct pread {
	struct cmd *c;                  /* NULL once its command is gone */
	uint32_t sink_stag;
	uint64_t next_to;               /* sink TO of the next response octet */
	uint64_t buf_off;               /* offset in the host buffer of that octet */
	uint32_t left;
	struct pread *next;
};

/* A Send being reassembled from several DDP segments. */
struct asm_msg {
	bool open;
	bool cut;                       /* an octet of the head was not captured */
	uint32_t msn, next_mo;
	uint64_t first_frame;
	int64_t first_ts;
	uint32_t have;                  /* head octets held (contiguous from MO 0) */
	uint8_t *head;                  /* HEAD_MAX octets */
};

struct iws_nvme_tracker {
	iws_nvme_cmd_cb cb;
	void *ctx;
	uint32_t qp;
	uint32_t max_inflight;
	struct iws_nvme_qp_info info;
	struct iws_nvme_counts counts;
	struct cmd *head, *tail;
	struct cmd *by_cid[NBUCKETS];
	struct cmd *by_key[NBUCKETS];
	struct pread *rd_head, *rd_tail;
	uint32_t nreads;
	struct asm_msg open[2][OPEN_SENDS];
	uint32_t gap_gen;
	uint64_t cut_cqe_frame;         /* the newest response capsule cut short of its CID */
	uint64_t next_id;
	struct iws_nvme_note note;      /* on the segment being fed */
};

static uint32_t key_bucket(uint32_t key)
{
	/* STags: index in the upper 24 bits, a consumer key in the lower 8. */
	return (key ^ key >> 8 ^ key >> 16) % NBUCKETS;
}

static enum iws_nvme_queue queue_of(int32_t qid)
{
	return qid < 0 ? IWS_NVME_QUEUE_UNKNOWN : qid == 0 ? IWS_NVME_QUEUE_ADMIN : IWS_NVME_QUEUE_IO;
}

/* ---- life cycle of a command ---- */

static void unhash(struct iws_nvme_tracker *t, struct cmd *c)
{
	struct cmd **pp;
	for (pp = &t->by_cid[c->r.cid % NBUCKETS]; *pp; pp = &(*pp)->cid_next)
		if (*pp == c) {
			*pp = c->cid_next;
			break;
		}
	if (c->key_hashed)
		for (pp = &t->by_key[key_bucket(c->r.sqe.sgl.key)]; *pp; pp = &(*pp)->key_next)
			if (*pp == c) {
				*pp = c->key_next;
				break;
			}
	if (c->reads)
		for (struct pread *p = t->rd_head; p; p = p->next)
			if (p->c == c)
				p->c = NULL;
}

/* The names follow the queue, which a completion may have told only now. */
static void name_cmd(struct iws_nvme_tracker *t, struct cmd *c)
{
	struct iws_nvme_cmd *r = &c->r;
	struct iws_nvme_command *q = &r->sqe;
	if (r->qid < 0 && t->info.qid >= 0)
		r->qid = t->info.qid;
	r->queue = queue_of(r->qid);
	if (r->queue == IWS_NVME_QUEUE_ADMIN) {
		memset(&q->rw, 0, sizeof(q->rw));
		memset(&q->dsm, 0, sizeof(q->dsm));
	} else if (r->queue == IWS_NVME_QUEUE_IO) {
		memset(&q->adm, 0, sizeof(q->adm));
	} else {
		r->flags |= IWS_NVMEF_QUEUE_UNKNOWN;
	}
	q->queue = r->queue;
	r->op = iws_nvme_op_key(r->queue, r->opcode, r->fabrics, r->fctype);
	r->title = iws_nvme_op_title(r->queue, r->opcode, r->fabrics, r->fctype);
	/* (a cut SQE keeps rw only when its CDW10-12 were captured) */
	r->has_lba = r->queue == IWS_NVME_QUEUE_IO && q->rw.valid;
	r->slba = r->has_lba ? q->rw.slba : 0;
	r->nlb = r->has_lba ? q->rw.nlb : 0;
	r->blocks = r->has_lba ? (uint32_t)q->rw.nlb + 1 : 0;
}

static void report(struct iws_nvme_tracker *t, struct cmd *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else if (t->head == c)
		t->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else if (t->tail == c)
		t->tail = c->prev;
	if (!(c->r.flags & IWS_NVMEF_NO_COMMAND)) {
		unhash(t, c);
		t->counts.inflight--;
	}
	struct iws_nvme_cmd *r = &c->r;
	if (!(r->flags & IWS_NVMEF_NO_COMMAND))
		name_cmd(t, c);
	if (r->data_first_frame)
		r->data_ns = c->data_last_ts - c->data_first_ts;
	if (r->has_completion && !(r->flags & IWS_NVMEF_NO_COMMAND)) {
		r->latency_ns = r->end_ns - r->start_ns;
		/* A successful command moved what its SGL describes. */
		uint32_t want = r->sqe.sgl.length;
		if (r->status == 0 && r->xfer != IWS_NVME_XFER_NONE && r->bytes != want &&
		    r->sqe.captured >= 40)
			r->flags |= IWS_NVMEF_DATA_MISMATCH;
	}
	r->complete = r->has_completion && !(r->flags & IWS_NVMEF_INCOMPLETE_MASK);
	t->counts.reported++;
	if (!r->complete)
		t->counts.incomplete++;
	if (r->has_completion && r->status)
		t->counts.errors++;
	if (t->cb)
		t->cb(t->ctx, r);
	free(c->cdata);
	free(c);
}

/* The command touched frame/ts: it is the last thing known of it so far. */
static void touch(struct cmd *c, const struct iws_nvme_seg *s)
{
	c->r.last_frame = s->frame;
	c->r.end_ns = s->ts_ns;
}

static struct cmd *find_cid(struct iws_nvme_tracker *t, uint16_t cid)
{
	uint32_t k = 0;
	for (struct cmd *c = t->by_cid[cid % NBUCKETS]; c && k < SEARCH_MAX; c = c->cid_next, k++)
		if (c->r.cid == cid)
			return c;
	return NULL;
}

/* The command whose keyed buffer holds [to, to + len): the key, and when
 * several share it (a global rkey), the address range decides. */
static struct cmd *find_key(struct iws_nvme_tracker *t, uint32_t key, uint64_t to)
{
	struct cmd *first = NULL;
	uint32_t k = 0;
	for (struct cmd *c = t->by_key[key_bucket(key)]; c && k < SEARCH_MAX; c = c->key_next, k++) {
		const struct iws_nvme_sgl *g = &c->r.sqe.sgl;
		if (g->key != key)
			continue;
		if (to >= g->addr && to - g->addr < g->length)
			return c;
		if (!first || first->r.first_frame > c->r.first_frame)
			first = c;
	}
	return first;
}

static void data_seen(struct iws_nvme_tracker *t, struct cmd *c, const struct iws_nvme_seg *s, enum iws_nvme_xfer x,
		      uint32_t bytes)
{
	struct iws_nvme_cmd *r = &c->r;
	if (!r->data_first_frame) {
		r->data_first_frame = s->frame;
		c->data_first_ts = s->ts_ns;
	}
	r->data_last_frame = s->frame;
	c->data_last_ts = s->ts_ns;
	t->note = (struct iws_nvme_note){ IWS_NVME_ROLE_DATA, r->id };
	r->xfer = x;
	r->bytes += bytes;
	r->data_segments++;
	touch(c, s);
}

/* ---- command capsules ---- */

static void got_connect_data(struct iws_nvme_tracker *t, const uint8_t *p, size_t n)
{
	struct iws_nvme_connect_data d;
	if (iws_nvme_parse_connect_data(p, n, &d).status != IWS_OK)
		return;
	t->info.cdata = d;
	t->info.has_connect_data = true;
	/* An I/O queue names its controller in the data (NVMe-oF 1.1 Connect). */
	if (t->info.qid > 0) {
		t->info.has_cntlid = true;
		t->info.cntlid = d.cntlid;
	}
}

static void on_connect(struct iws_nvme_tracker *t, struct cmd *c, const uint8_t *head, uint32_t have)
{
	const struct iws_nvme_command *q = &c->r.sqe;
	t->info.has_connect = true;
	/* its QID (CDW10) cut by the snapshot length: the CM data or a CQE tells */
	if (q->captured == IWS_NVME_SQE_LEN) {
		t->info.qid = q->fab.qid;
		t->info.qid_src = IWS_NVME_QID_CONNECT;
		c->r.qid = q->fab.qid;
	}
	t->info.sqsize = q->fab.sqsize;
	t->info.kato = q->fab.kato;
	if (q->sgl.in_capsule) {
		/* The offset is the host's 64-bit word: compare, never add to it. */
		uint32_t room = have > IWS_NVME_SQE_LEN ? have - IWS_NVME_SQE_LEN : 0;
		if (room >= IWS_NVME_CONNECT_DATA_LEN &&
		    q->sgl.addr <= room - IWS_NVME_CONNECT_DATA_LEN)
			got_connect_data(t, head + IWS_NVME_SQE_LEN + q->sgl.addr,
					 IWS_NVME_CONNECT_DATA_LEN);
	} else if (q->sgl.keyed && q->sgl.length >= IWS_NVME_CONNECT_DATA_LEN) {
		c->cdata = calloc(1, IWS_NVME_CONNECT_DATA_LEN);
	}
}

/* Room for a new command: the one its CID names is over (its completion
 * went unseen), and past the in-flight limit the oldest is given up.
 * Returns the replaced command's presence. */
static bool make_room(struct iws_nvme_tracker *t, uint16_t cid)
{
	struct cmd *old = find_cid(t, cid);
	if (old) {
		/* A CID names one outstanding command (NVMe Base 2.0, "Command
		 * Identifier"): its completion went unseen. */
		old->r.flags |= IWS_NVMEF_REPLACED;
		if (old->gap_gen != t->gap_gen)
			old->r.flags |= IWS_NVMEF_GAP;
		t->counts.cid_reuse++;
		report(t, old);
	}
	if (t->counts.inflight >= t->max_inflight && t->head) {
		t->head->r.flags |= IWS_NVMEF_EVICTED;
		t->counts.evicted++;
		report(t, t->head);
	}
	return old != NULL;
}

/* The record of a command from its (possibly cut) SQE. */
static void fill_command(struct iws_nvme_tracker *t, struct cmd *c, const struct iws_nvme_command *q,
			 const uint8_t *head, bool cut)
{
	struct iws_nvme_cmd *r = &c->r;
	r->qp = t->qp;
	r->id = ++t->next_id;
	t->note = (struct iws_nvme_note){ IWS_NVME_ROLE_COMMAND, r->id };
	r->qid = t->info.qid;
	r->cid = q->cid;
	r->opcode = q->opcode;
	r->fabrics = q->fabrics;
	r->fctype = q->fab.fctype;
	r->has_nsid = !q->fabrics && q->captured >= 8;
	r->nsid = q->nsid;
	r->sqe = *q;
	if (q->captured < IWS_NVME_SQE_LEN) {
		r->flags |= IWS_NVMEF_SQE_TRUNCATED;
		memcpy(r->sqe_cut, head, q->captured);
		r->sqe_cut_len = (uint8_t)q->captured;
	}
	c->gap_gen = t->gap_gen;
	if (q->sgl.in_capsule && q->icd_len) {
		r->xfer = IWS_NVME_XFER_IN_CAPSULE;
		r->bytes = q->icd_len;
		t->counts.bytes_in_capsule += q->icd_len;
		if (cut)
			r->flags |= IWS_NVMEF_DATA_TRUNCATED;
	}
}

/* An outstanding command: at the end of the list, found by its CID and,
 * when its data moves by RDMA, by its SGL's key. */
static void add_outstanding(struct iws_nvme_tracker *t, struct cmd *c, const struct iws_nvme_command *q)
{
	c->prev = t->tail;
	if (t->tail)
		t->tail->next = c;
	else
		t->head = c;
	t->tail = c;
	c->cid_next = t->by_cid[q->cid % NBUCKETS];
	t->by_cid[q->cid % NBUCKETS] = c;
	if (q->sgl.keyed && q->sgl.length) {
		uint32_t b = key_bucket(q->sgl.key);
		c->key_next = t->by_key[b];
		t->by_key[b] = c;
		c->key_hashed = true;
	}
	if (++t->counts.inflight > t->counts.max_inflight_seen)
		t->counts.max_inflight_seen = t->counts.inflight;
}

static void issue(struct iws_nvme_tracker *t, const uint8_t *head, uint32_t have, uint32_t total,
		  bool cut, uint64_t first_frame, int64_t first_ts, const struct iws_nvme_seg *s)
{
	struct iws_nvme_command q;
	/* A snapshot length may have cut the SQE: what was captured of it
	 * (opcode, CID, NSID, the SGL) still names the command. */
	if (iws_nvme_parse_command_cut(head, have, queue_of(t->info.qid), &q).status != IWS_OK) {
		t->counts.undecodable++;
		return;
	}
	if (q.captured >= 40)  /* its SGL: in-capsule data or not */
		iws_nvme_command_capsule_len(&q, total);
	t->counts.capsules++;
	bool reused = make_room(t, q.cid);
	struct cmd *c = calloc(1, sizeof(*c));
	if (!c)
		return;
	fill_command(t, c, &q, head, cut);
	c->r.first_frame = first_frame;
	c->r.start_ns = first_ts;
	c->r.capsule_frame = s->frame;
	touch(c, s);
	if (reused)
		c->r.flags |= IWS_NVMEF_CID_REUSE;
	if (q.fabrics && q.fab.fctype == IWS_NVME_FCT_CONNECT)
		on_connect(t, c, head, have);
	add_outstanding(t, c, &q);
}

/* ---- response capsules ---- */

static void respond(struct iws_nvme_tracker *t, const uint8_t *p, uint32_t have,
		     const struct iws_nvme_seg *s)
{
	struct iws_nvme_completion e;
	if (iws_nvme_parse_completion(p, have, &e).status != IWS_OK) {
		t->counts.undecodable++;
		/* cut by the snapshot length before its CID (CQE octets 12..13):
		 * whichever command it completed stays outstanding */
		if (have < IWS_NVME_CQE_LEN && have < s->msg->payload_len)
			t->cut_cqe_frame = s->frame;
		return;
	}
	t->counts.responses++;
	/* Without a Connect or CM data, the SQ Identifier names the queue
	 * (NVMe Base 2.0 "Completion Queue Entry": the SQ the command was on). */
	if (t->info.qid < 0) {
		t->info.qid = e.sqid;
		t->info.qid_src = IWS_NVME_QID_CQE;
	}
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	bool inv = h->opcode == IWS_OP_CODE_SEND_INV || h->opcode == IWS_OP_CODE_SEND_SE_INV;
	struct cmd *c = find_cid(t, e.cid);
	if (!c) {
		t->counts.orphan_responses++;
		c = calloc(1, sizeof(*c));
		if (!c)
			return;
		c->r.qp = t->qp;
		c->r.id = ++t->next_id;
		c->r.qid = t->info.qid;
		c->r.queue = queue_of(c->r.qid);
		c->r.cid = e.cid;
		c->r.op = "unknown";
		c->r.title = "Unknown";
		c->r.flags = IWS_NVMEF_NO_COMMAND;
		c->r.first_frame = s->first_frame;
		c->r.start_ns = s->first_ts_ns;
	}
	struct iws_nvme_cmd *r = &c->r;
	t->note = (struct iws_nvme_note){ IWS_NVME_ROLE_RESPONSE, r->id };
	r->has_completion = true;
	r->cqe = e;
	r->status = e.status;
	r->status_name = iws_nvme_status_name(e.status, r->fabrics);
	r->send_inv = inv;
	r->inval_stag = inv ? h->rsvdulp : 0;
	touch(c, s);
	if (inv && !(r->sqe.sgl.keyed && r->sqe.sgl.key == h->rsvdulp) &&
	    !(r->flags & IWS_NVMEF_NO_COMMAND))
		r->flags |= IWS_NVMEF_INVAL_MISMATCH;
	if (r->qid >= 0 && e.sqid != r->qid)
		r->flags |= IWS_NVMEF_SQID_MISMATCH;
	if (r->fabrics && r->fctype == IWS_NVME_FCT_CONNECT) {
		t->info.connect_status = e.status;
		/* The admin queue's Connect returns the controller (NVMe-oF 1.1
		 * "Connect Response": DW0 bits 15:0 CNTLID). */
		if (e.status == 0 && r->qid == 0) {
			t->info.has_cntlid = true;
			t->info.cntlid = (uint16_t)e.dw0;
		}
	}
	if (r->flags & IWS_NVMEF_NO_COMMAND) {
		/* not on the outstanding list: report it alone */
		c->prev = c->next = NULL;
	}
	report(t, c);
}

/* ---- Sends: one message from one or more DDP segments ---- */

/* A whole Send: the host sends commands, the controller responses. */
static void message(struct iws_nvme_tracker *t, uint8_t dir, const uint8_t *head, uint32_t have,
		    uint32_t total, bool cut, uint64_t first_frame, int64_t first_ts,
		    const struct iws_nvme_seg *s)
{
	if (dir == IWS_DIR_I2R)
		issue(t, head, have, total, cut, first_frame, first_ts, s);
	else
		respond(t, head, have, s);
}

static struct asm_msg *find_open(struct iws_nvme_tracker *t, uint8_t dir, uint32_t msn)
{
	for (int i = 0; i < OPEN_SENDS; i++)
		if (t->open[dir][i].open && t->open[dir][i].msn == msn)
			return &t->open[dir][i];
	return NULL;
}

static void close_msg(struct iws_nvme_tracker *t, struct asm_msg *a, bool count)
{
	if (count)
		t->counts.undecodable++;
	free(a->head);
	memset(a, 0, sizeof(*a));
}

static void seg_send(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t len = s->msg->payload_len;
	uint32_t cap = s->payload_cap < len ? s->payload_cap : len;
	if (h->mo == 0 && h->last) {
		message(t, s->dir, s->payload, cap, len, cap < len, s->first_frame, s->first_ts_ns, s);
		return;
	}
	struct asm_msg *a = find_open(t, s->dir, h->msn);
	if (!a) {
		if (h->mo != 0) {
			/* The start of this message was not captured. */
			t->counts.undecodable += h->last;
			return;
		}
		a = &t->open[s->dir][0];
		if (a->open)
			a = &t->open[s->dir][1];
		if (a->open) {
			/* Both slots busy: the older never finished. */
			close_msg(t, &t->open[s->dir][0], true);
			t->open[s->dir][0] = t->open[s->dir][1];
			memset(&t->open[s->dir][1], 0, sizeof(*a));
		}
		a->head = malloc(HEAD_MAX);
		if (!a->head)
			return;
		a->open = true;
		a->msn = h->msn;
		a->first_frame = s->first_frame;
		a->first_ts = s->first_ts_ns;
	}
	/* A segment of it missing (RFC 5041 §5.3: MO says where each goes) or
	 * octets cut by the snapshot length: the head stops where they are. */
	if (h->mo != a->next_mo || cap < len)
		a->cut = true;
	if (a->have == h->mo && a->have < HEAD_MAX) {
		uint32_t n = cap < HEAD_MAX - a->have ? cap : HEAD_MAX - a->have;
		memcpy(a->head + a->have, s->payload, n);
		a->have += n;
	}
	a->next_mo = h->mo + len;
	t->note.role = h->last ? IWS_NVME_ROLE_NONE : IWS_NVME_ROLE_COMMAND_PART;
	if (h->last) {
		message(t, s->dir, a->head, a->have, a->next_mo, a->cut, a->first_frame, a->first_ts, s);
		close_msg(t, a, false);
	}
}

/* ---- RDMA data ---- */

static void seg_write(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	struct cmd *c = s->dir == IWS_DIR_R2I ? find_key(t, h->stag, h->to) : NULL;
	if (!c) {
		t->counts.unmatched_data++;
		return;
	}
	data_seen(t, c, s, IWS_NVME_XFER_C2H, s->msg->payload_len);
	t->counts.bytes_c2h += s->msg->payload_len;
}

static void pop_read(struct iws_nvme_tracker *t)
{
	struct pread *p = t->rd_head;
	t->rd_head = p->next;
	if (!t->rd_head)
		t->rd_tail = NULL;
	if (p->c)
		p->c->reads--;
	free(p);
	t->nreads--;
}

static void seg_read_req(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s)
{
	const struct iws_rdmap_read_req *rr = &s->msg->u.read_req;
	struct cmd *c = s->dir == IWS_DIR_R2I ? find_key(t, rr->src_stag, rr->src_to) : NULL;
	if (!c) {
		t->counts.unmatched_data++;
		return;
	}
	data_seen(t, c, s, IWS_NVME_XFER_H2C, 0);
	/* Bounded like the commands: a flood of requests drops the oldest. */
	if (t->nreads >= t->max_inflight && t->rd_head)
		pop_read(t);
	struct pread *p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->c = c;
	p->sink_stag = rr->sink_stag;
	p->next_to = rr->sink_to;
	p->buf_off = rr->src_to - c->r.sqe.sgl.addr;
	p->left = rr->size;
	if (t->rd_tail)
		t->rd_tail->next = p;
	else
		t->rd_head = p;
	t->rd_tail = p;
	t->nreads++;
	c->reads++;
}

static void seg_read_resp(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s)
{
	const struct iws_ddp_hdr *h = &s->msg->ddp;
	uint32_t len = s->msg->payload_len;
	/* Responses answer the requests in order (RFC 5040 §5.2.1); requests
	 * before the one this answers lost their responses to the capture. */
	uint32_t k = 0;
	struct pread *p = t->rd_head;
	while (p && k < SEARCH_MAX && p->sink_stag != h->stag) {
		p = p->next;
		k++;
	}
	if (s->dir != IWS_DIR_I2R || !p || p->sink_stag != h->stag) {
		t->counts.unmatched_data++;
		return;
	}
	while (t->rd_head != p)
		pop_read(t);
	struct cmd *c = p->c;
	if (c) {
		data_seen(t, c, s, IWS_NVME_XFER_H2C, len);
		t->counts.bytes_h2c += len;
		uint64_t off = p->buf_off + (h->to - p->next_to);
		uint32_t cap = s->payload_cap < len ? s->payload_cap : len;
		if (c->cdata && off < IWS_NVME_CONNECT_DATA_LEN) {
			uint32_t n = IWS_NVME_CONNECT_DATA_LEN - (uint32_t)off;
			n = n < cap ? n : cap;
			memcpy(c->cdata + off, s->payload, n);
			c->cdata_got += n;
			if (c->cdata_got >= IWS_NVME_CONNECT_DATA_LEN)
				got_connect_data(t, c->cdata, IWS_NVME_CONNECT_DATA_LEN);
		}
	}
	uint32_t used = len < p->left ? len : p->left;
	p->left -= used;
	p->buf_off += (h->to - p->next_to) + len;
	p->next_to = h->to + len;
	if (h->last || !p->left)
		pop_read(t);
}

/* ---- public ---- */

struct iws_nvme_tracker *iws_nvme_tracker_new(const struct iws_nvme_limits *lim, uint32_t qp,
					      iws_nvme_cmd_cb cb, void *ctx)
{
	struct iws_nvme_tracker *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cb = cb;
	t->ctx = ctx;
	t->qp = qp;
	t->max_inflight = lim && lim->max_inflight ? lim->max_inflight : DEFAULT_MAX_INFLIGHT;
	t->info.qid = -1;
	return t;
}

void iws_nvme_tracker_free(struct iws_nvme_tracker *t)
{
	if (!t)
		return;
	for (struct cmd *c = t->head, *n; c; c = n) {
		n = c->next;
		free(c->cdata);
		free(c);
	}
	while (t->rd_head)
		pop_read(t);
	for (int d = 0; d < 2; d++)
		for (int i = 0; i < OPEN_SENDS; i++)
			free(t->open[d][i].head);
	free(t);
}

void iws_nvme_tracker_set_cm(struct iws_nvme_tracker *t, const struct iws_nvme_cm_req *req)
{
	t->info.has_cm = true;
	t->info.cm = *req;
	if (t->info.qid_src != IWS_NVME_QID_CONNECT) {
		t->info.qid = req->qid;
		t->info.qid_src = IWS_NVME_QID_CM;
	}
}

void iws_nvme_tracker_segment(struct iws_nvme_tracker *t, const struct iws_nvme_seg *s)
{
	t->counts.segments++;
	t->note = (struct iws_nvme_note){ IWS_NVME_ROLE_NONE, 0 };
	if (!s->msg || s->dir > 1)
		return;
	switch (s->msg->ddp.opcode) {
	case IWS_OP_CODE_SEND:
	case IWS_OP_CODE_SEND_INV:
	case IWS_OP_CODE_SEND_SE:
	case IWS_OP_CODE_SEND_SE_INV:
		seg_send(t, s);
		break;
	case IWS_OP_CODE_WRITE:
		seg_write(t, s);
		break;
	case IWS_OP_CODE_READ_REQ:
		seg_read_req(t, s);
		break;
	case IWS_OP_CODE_READ_RESP:
		seg_read_resp(t, s);
		break;
	default:
		break;
	}
}

void iws_nvme_tracker_gap(struct iws_nvme_tracker *t, uint8_t dir)
{
	if (dir > 1)
		return;
	t->gap_gen++;
	for (int i = 0; i < OPEN_SENDS; i++)
		if (t->open[dir][i].open)
			close_msg(t, &t->open[dir][i], true);
}

void iws_nvme_tracker_finish(struct iws_nvme_tracker *t, uint32_t flag)
{
	while (t->head) {
		struct cmd *c = t->head;
		if (c->gap_gen != t->gap_gen)
			c->r.flags |= IWS_NVMEF_GAP;
		/* An Asynchronous Event Request waits for an event by design (NVMe
		 * Base 2.0 §5.2): still outstanding, not cut short (unless a gap may
		 * have hidden its completion). */
		int32_t qid = c->r.qid >= 0 ? c->r.qid : t->info.qid; /* (as name_cmd settles it) */
		bool aer = qid == 0 && !c->r.fabrics &&
			   c->r.opcode == IWS_NVME_ADM_ASYNC_EVENT && !c->r.has_completion &&
			   !(c->r.flags & (IWS_NVMEF_GAP | IWS_NVMEF_NO_COMMAND));
		bool cut = c->r.capsule_frame && c->r.capsule_frame < t->cut_cqe_frame;
		c->r.flags |= aer ? IWS_NVMEF_AWAITS_EVENT : cut ? IWS_NVMEF_COMPLETION_CUT : flag;
		report(t, c);
	}
	for (int d = 0; d < 2; d++)
		for (int i = 0; i < OPEN_SENDS; i++)
			if (t->open[d][i].open)
				close_msg(t, &t->open[d][i], true);
}

static void earlier(int64_t ts, uint64_t frame, bool *any, int64_t *start_ns, uint64_t *first_frame)
{
	if (!*any || ts < *start_ns || (ts == *start_ns && frame < *first_frame)) {
		*start_ns = ts;
		*first_frame = frame;
	}
	*any = true;
}

bool iws_nvme_tracker_pending(const struct iws_nvme_tracker *t, int64_t *start_ns,
			      uint64_t *first_frame)
{
	bool any = false;
	/* Outstanding commands are listed in the order their capsules completed,
	 * which is not their start order when capsules share segments or span
	 * several: look at each (bounded by max_inflight). */
	for (const struct cmd *c = t->head; c; c = c->next)
		earlier(c->r.start_ns, c->r.first_frame, &any, start_ns, first_frame);
	for (int d = 0; d < 2; d++)
		for (int i = 0; i < OPEN_SENDS; i++)
			if (t->open[d][i].open)
				earlier(t->open[d][i].first_ts, t->open[d][i].first_frame, &any,
					start_ns, first_frame);
	return any;
}

const struct iws_nvme_qp_info *iws_nvme_tracker_info(const struct iws_nvme_tracker *t)
{
	return &t->info;
}

const struct iws_nvme_counts *iws_nvme_tracker_counts(const struct iws_nvme_tracker *t)
{
	return &t->counts;
}

const struct iws_nvme_note *iws_nvme_tracker_note(const struct iws_nvme_tracker *t)
{
	return &t->note;
}
