// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the operation tracker with a sequence of segments. The input is a
 * list of records: [flags:1][len:1][ulpdu:len]; flags bit 0 is the direction,
 * bit 1 a bad CRC, bit 2 a gap before the segment, bit 3 truncation, bit 4 a
 * new MPA negotiation (p2p with the RTR type in bits 5-6). Every operation
 * reported must be internally consistent, and the tracker must end empty.
 */
#include <string.h>

#include "iwarpscope/qp.h"
#include "iwarpscope/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct iws_qp_stats stats;
static uint64_t reported;

static void on_op(void *ctx, const struct iws_op *op)
{
	(void)ctx;
	if (op->type >= IWS_OPT_COUNT || op->last_frame < op->first_frame || op->end_ns < op->start_ns)
		__builtin_trap();
	if (op->has_latency && op->latency_ns != op->end_ns - op->start_ns)
		__builtin_trap();
	reported++;
	iws_qp_stats_add(&stats, op);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_tracker_limits lim = { .max_inflight = 64, .max_ack_wait = 8 };
	struct iws_tracker *t = iws_tracker_new(&lim, on_op, NULL);
	if (!t)
		return 0;
	iws_qp_stats_init(&stats);
	reported = 0;
	uint64_t frame = 0;
	size_t off = 0;
	while (off + 2 <= size) {
		uint8_t flags = data[off], len = data[off + 1];
		off += 2;
		if (len > size - off)
			len = (uint8_t)(size - off);
		if (flags & 0x10) {
			struct iws_mpa_conn c;
			iws_mpa_conn_init(&c);
			c.state = IWS_MPA_ST_FULL;
			c.p2p = true;
			c.rtr = (uint8_t)(1u << ((flags >> 5) & 3)) & 7;
			c.has_ird_ord = true;
			c.ird[0] = c.ird[1] = (uint16_t)(flags & 7);
			iws_tracker_set_mpa(t, &c);
		}
		if (flags & 0x04)
			iws_tracker_gap(t, flags & 1);
		if ((flags & 0x0C) == 0x0C) {
			/* a slice hid FPDUs of this direction (frame 0: in frames
			 * not known), or ACKs before the tracker were forgotten */
			if (flags & 0x02)
				iws_tracker_acks_forgotten(t, !(flags & 1), (uint32_t)(frame * 64));
			else
				iws_tracker_hidden(t, flags & 1, (flags & 0x40) ? 0 : frame + 1,
						   (int64_t)frame * 1000 + 1);
		}
		struct iws_msg m;
		if (iws_rdmap_parse(data + off, len, &m).status == IWS_OK) {
			frame++;
			/* Sequence ranges, first transmissions and ACKs from the
			 * same octets: operations wait for their ACK, get resent
			 * octets and closes attributed. */
			struct iws_seg s = {
				.dir = (uint8_t)(flags & 1),
				.frame = frame,
				.ts_ns = (int64_t)frame * 1000,
				.msg = &m,
				.crc = (flags & 2) ? IWS_CRC_BAD : IWS_CRC_OK,
				.truncated = (flags & 8) != 0,
				.first_frame = frame - (flags & 0x40 ? 1 : 0),
				.first_ts = (int64_t)frame * 1000 - (flags & 0x40 ? 500 : 0),
				.arrived_frame = frame,
				.arrived_ts = (int64_t)frame * 1000 - (flags & 0x80 ? 200 : 0),
				.has_seq = (flags & 0x20) != 0,
				.seq = (uint32_t)(frame * 64),
				.len = len,
				.retrans = flags >> 6,
			};
			struct iws_seg_note note;
			iws_tracker_segment(t, &s, &note);
			if (s.retrans)
				iws_tracker_resent(t, s.dir, s.seq, len);
			if (flags & 0x80)
				iws_tracker_ack(t, !s.dir, (uint32_t)(frame * 64 - len), frame, s.ts_ns, len & 1);
			if ((flags & 0xC8) == 0xC8)
				iws_tracker_closed(t, s.dir, frame, len & 2);
		}
		off += len;
	}
	iws_tracker_finish(t, IWS_OPF_UNFINISHED);
	const struct iws_tracker_counts *c = iws_tracker_counts(t);
	if (c->inflight != 0 || c->ops_started != c->ops_reported || c->ops_reported != reported)
		__builtin_trap();
	for (int i = 0; i < IWS_OPT_COUNT; i++) {
		struct iws_latency *l = &stats.op[i].latency;
		if (l->count && (iws_latency_quantile(l, 0.5) < l->min || iws_latency_quantile(l, 0.99) > l->max))
			__builtin_trap();
	}
	iws_qp_stats_free(&stats);
	iws_tracker_free(t);
	return 0;
}
