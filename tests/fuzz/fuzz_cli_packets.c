// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the CLI's pipeline below the packet decoder: the flow table, TCP
 * reassembly, the MPA stage, the operation tracker and the ordered timeline,
 * fed a sequence of synthetic TCP segments (analysis_tcp) decoded from the
 * input. The encoding is compact so the fuzzer reaches reordering, overlaps,
 * sequence wrap, gaps, snapshot cuts, FIN/RST and SYN reuse quickly:
 *
 *   header  [opts:1][limits:1][isn:4]
 *     opts    bit 0 no CRC check, bit 1 IPv6, bit 2 no ordered output;
 *             bits 3-4: connections analysed at once = 1 + n (the fuzzer
 *             drives 4, plus port reuse); bits 5-7: reassembly buffers
 *             = 1 kB << (2 * n)
 *     limits  bits 0-3: out-of-order bytes per direction = 64 << n;
 *             bits 4-5: total = that times 1, 2, 3 or 4;
 *             bits 6-7: operations in flight = 4 << (2 * n)
 *     isn     first sequence number of connection 0, side 0 (the other
 *             sides and connections derive from it)
 *   record  [f:1][c:1][delta:2][len:1][ack:1 if f.ACK][payload:len]
 *     f       bit 0 side (0: client to server), bits 1-2 connection (4 of
 *             them, distinct ports), bits 3-6 SYN, FIN, RST, ACK; bit 7 the
 *             segment reuses the 4-tuple of connection 0 (port reuse)
 *     c       bits 0-2 repeat: the payload is the len input octets repeated
 *             up to len << (2 * repeat) octets (at most 70000: maximum-size
 *             FPDUs cost few input octets; 2 MiB per input); bit 3 snapshot cut (half the
 *             payload captured); bits 4-5 time step (+1 us, 0, -1 ms, +1 s);
 *             bit 6 the sequence number is absolute-from-ISN instead of
 *             relative to the side's cursor
 *     delta   signed sequence offset from the side's cursor (the next octet
 *             after the last segment sent), or from its ISN with c.6
 *     ack     signed offset of the acknowledgement from the peer's cursor
 *
 * Invariants checked: the out-of-order memory never exceeds its limits, the
 * connection limit holds, the reassembly buffers stay near theirs, the
 * timeline emits in start order unless time went backwards or a limit
 * forced operations out, every operation is emitted once, every connection ends
 * with nothing buffered, and the shared limit accounting returns to zero.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NCONN 4
#define MAX_PAYLOAD 70000u
#define MAX_TOTAL (2u << 20)

struct side_state {
	uint32_t isn, cursor;
};

struct ctx {
	struct analysis a;
	struct timeline tl;
	uint64_t ops, emitted, fpdus;
	int64_t last_ts;
	uint64_t last_frame;
	bool any;
	uint64_t order_breaks;
};

static uint8_t payload_buf[MAX_PAYLOAD];

static void on_op(void *vctx, struct conn *c, const struct iws_op *op)
{
	struct ctx *x = vctx;
	x->ops++;
	/* (last_frame < first_frame can happen: octets that waited for the MPA
	 * Reply are decoded after later frames of the other direction.) */
	if (op->type >= IWS_OPT_COUNT)
		__builtin_trap();
	if (op->has_latency && op->latency_ns != op->end_ns - op->start_ns)
		__builtin_trap();
	timeline_add(&x->tl, c, &(struct tl_key){ op->start_ns, op->first_frame, c->stream, op->id }, op);
}

static void emit(void *vctx, const struct conn *c, const void *item)
{
	struct ctx *x = vctx;
	const struct iws_op *op = item;
	(void)c;
	if (x->any && (op->start_ns < x->last_ts ||
		       (op->start_ns == x->last_ts && op->first_frame < x->last_frame)))
		x->order_breaks++;
	x->any = true;
	x->last_ts = op->start_ns;
	x->last_frame = op->first_frame;
	x->emitted++;
}

/* NVMe commands (the CLI's `nvme` and statistics): as the tracker says. */
static void on_nvme(void *vctx, struct conn *c, const struct iws_nvme_cmd *m)
{
	(void)vctx;
	if (m->qp != c->stream || !m->op || (m->complete && !m->has_completion) ||
	    (m->has_completion && !(m->flags & IWS_NVMEF_NO_COMMAND) &&
	     m->latency_ns != m->end_ns - m->start_ns) ||
	    m->data_ns < 0)
		__builtin_trap();
}

static void on_fpdu(void *vctx, struct conn *c, const struct iws_pdu *pdu)
{
	struct ctx *x = vctx;
	(void)c;
	x->fpdus++;
	if (pdu->frame < pdu->first_frame || pdu->arrived_frame < pdu->first_frame ||
	    pdu->frame < pdu->arrived_frame || pdu->fpdu->wire_len < 8 || pdu->dir > 1 ||
	    (pdu->msg && !pdu->note))
		__builtin_trap();
}

static void check_limits(const struct analysis *a)
{
	const struct iws_stream_limits *l = &a->env.lim;
	if (l->ooo_used > l->max_ooo_total || a->nactive > a->max_flows)
		__builtin_trap();
	/* Past the limit, each direction may still hold its floor. */
	if (l->buf_used > l->max_buf + 2ull * IWS_STREAM_FLOOR * a->nconns)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ctx x;
	if (size < 6)
		return 0;
	memset(&x, 0, sizeof(x));
	uint8_t opts = data[0], limits = data[1];
	uint32_t isn = (uint32_t)data[2] << 24 | (uint32_t)data[3] << 16 | (uint32_t)data[4] << 8 | data[5];
	size_t off = 6;

	uint64_t dir_max = 64ull << (limits & 15);
	struct analysis_opts ao = {
		.check_crc = !(opts & 1),
		.track_order = !(opts & 4),
		.max_ooo_dir = dir_max,
		.max_ooo_total = dir_max * (1 + ((limits >> 4) & 3)),
		.max_inflight = 4u << (2 * (limits >> 6)),
		.max_flows = 1u + ((opts >> 3) & 3),
		.max_reasm = 1024ull << (2 * (opts >> 5)),
		.ctx = &x,
		.op = on_op,
		.fpdu = on_fpdu,
		.nvme = true,
		.nvme_cmd = on_nvme,
	};
	if (!analysis_init(&x.a, &ao))
		return 0;
	timeline_init(&x.tl, 64, sizeof(struct iws_op), &x, emit);

	struct side_state st[NCONN][2];
	for (int k = 0; k < NCONN; k++) {
		for (int s = 0; s < 2; s++) {
			st[k][s].isn = isn + (uint32_t)k * 0x10000001u + (uint32_t)s * 0x7654321u;
			st[k][s].cursor = st[k][s].isn;
		}
	}

	uint64_t frame = 0;
	int64_t ts = 1700000000000000000;
	uint32_t ticks = 0;
	bool went_back = false;
	/* Synthetic payload per input, so that one input stays fast. */
	uint64_t budget = MAX_TOTAL;
	while (off + 5 <= size) {
		uint8_t f = data[off], c = data[off + 1];
		int16_t delta = (int16_t)(data[off + 2] << 8 | data[off + 3]);
		uint32_t len = data[off + 4];
		off += 5;
		int8_t ackd = 0;
		bool has_ack = f & 0x40;
		if (has_ack) {
			if (off >= size)
				break;
			ackd = (int8_t)data[off++];
		}
		if (len > size - off)
			len = (uint32_t)(size - off);
		const uint8_t *src = data + off;
		off += len;

		int side = f & 1;
		int k = (f >> 1) & 3;
		if (f & 0x80)
			k = 0;  /* the same ports as connection 0: exercise port reuse */
		struct side_state *me = &st[k][side], *peer = &st[k][!side];

		uint32_t total = len;
		unsigned rep = c & 7;
		if (rep && len && budget > len) {
			uint64_t want = (uint64_t)len << (2 * rep);
			total = want > MAX_PAYLOAD ? MAX_PAYLOAD : (uint32_t)want;
			if (total > budget)
				total = (uint32_t)budget;
			memcpy(payload_buf, src, len);
			for (uint32_t have = len; have < total;) {
				uint32_t n = have < total - have ? have : total - have;
				memcpy(payload_buf + have, payload_buf, n);
				have += n;
			}
			src = payload_buf;
		}
		budget -= total < budget ? total : budget;

		struct tcp_pkt t;
		memset(&t, 0, sizeof(t));
		bool v6 = opts & 2;
		t.af = v6 ? 6 : 4;
		uint8_t ca[16] = { 10, 0, 0, 1 }, sa[16] = { 10, 0, 0, 2 };
		if (v6) {
			ca[0] = sa[0] = 0xfd;
			ca[15] = 1;
			sa[15] = 2;
		}
		uint16_t cport = (uint16_t)(40000 + k), sport = 4420;
		memcpy(side ? t.src : t.dst, sa, 16);
		memcpy(side ? t.dst : t.src, ca, 16);
		t.sport = side ? sport : cport;
		t.dport = side ? cport : sport;
		t.flags = 0;
		if (f & 0x08)
			t.flags |= IWS_TCP_SYN;
		if (f & 0x10)
			t.flags |= IWS_TCP_FIN;
		if (f & 0x20)
			t.flags |= IWS_TCP_RST;
		if (has_ack)
			t.flags |= IWS_TCP_ACK;
		uint32_t base = (c & 0x40) ? me->isn : me->cursor;
		t.seq = base + (uint32_t)(int32_t)delta;
		t.ack = has_ack ? peer->cursor + (uint32_t)(int32_t)ackd : 0;
		t.payload = src;
		t.wire_len = total;
		t.cap_len = (c & 0x08) ? total / 2 : total;

		/* The side's cursor moves past what it sent (a SYN takes one). */
		if (t.flags & IWS_TCP_SYN) {
			me->isn = t.seq;
			me->cursor = t.seq + 1 + total;
		} else if (total) {
			me->cursor = t.seq + total;
		}

		switch ((c >> 4) & 3) {
		case 0:
			ts += 1000;
			break;
		case 1:
			break;
		case 2:
			ts -= 1000000;
			went_back = true;
			break;
		case 3:
			ts += 1000000000;
			break;
		}
		analysis_tcp(&x.a, &t, ++frame, ts);
		check_limits(&x.a);
		if (++ticks == 16) {
			int64_t wts;
			uint64_t wf;
			ticks = 0;
			analysis_watermark(&x.a, &wts, &wf);
			timeline_release(&x.tl, wts, wf);
		}
	}
	analysis_finish(&x.a);
	timeline_flush(&x.tl);
	if (x.emitted != x.ops)
		__builtin_trap();
	/* With time never going backwards and no limit forcing operations out,
	 * the watermark keeps the output in start order. */
	if (!went_back && ao.track_order && !x.tl.forced &&
	    x.order_breaks)
		__builtin_trap();
	for (uint32_t i = 0; i < x.a.nconns; i++) {
		const struct conn *cn = x.a.conns[i];
		if (cn && iws_stream_buffered(cn->eng))
			__builtin_trap();
	}
	if (x.a.env.lim.ooo_used != 0 || x.a.env.lim.buf_used != 0)
		__builtin_trap();
	timeline_free(&x.tl);
	analysis_free(&x.a);
	return 0;
}
