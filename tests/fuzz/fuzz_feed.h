// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_feed.h - the upper-layer fuzzers' input (fuzz_rpcrdma.c,
 * fuzz_smbd.c): a list of records [flags:1][len:2, big-endian][ulpdu:len],
 * the ULPDUs of one connection as the engine would report them; flags bit
 * 0 is the direction, bit 1 a gap event before the segment, bit 2 a ULPDU
 * the snapshot length cut in half, bits 4-7 the operation tracker's op id
 * of the segment (0: none). Each record becomes an iws_pdu (an FPDU with
 * its message and note) for the stage under test.
 */
#ifndef IWS_FUZZ_FEED_H
#define IWS_FUZZ_FEED_H

#include <string.h>

#include "iwarpscope/stream.h"

struct fuzz_feed {
	void (*before)(void *ctx, uint64_t frame);      /* before each record */
	void (*event)(void *ctx, const struct iws_stream_event *ev);
	void (*parsers)(const uint8_t *payload, size_t len);  /* every untagged payload */
	void (*pdu)(void *ctx, const struct iws_pdu *p);
};

static inline void fuzz_feed(const struct fuzz_feed *f, void *ctx, const uint8_t *data, size_t size)
{
	uint64_t frame = 1;
	size_t off = 0;
	static uint8_t wire[65536 + 8];
	while (off + 3 <= size) {
		uint8_t fl = data[off];
		uint32_t len = (uint32_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = (uint32_t)(size - off);
		const uint8_t *u = data + off;
		off += len;
		f->before(ctx, frame);
		if (fl & 2) {
			struct iws_stream_event ev = { IWS_SEV_GAP, fl & 1, (uint8_t)(fl & 1), 0, 1, frame, 0, 0, 0 };
			f->event(ctx, &ev);
		}
		memcpy(wire + 2, u, len);
		struct iws_msg msg;
		if (iws_rdmap_parse(wire + 2, len, &msg).status != IWS_OK) {
			frame++;
			continue;
		}
		uint32_t cap = fl & 4 ? len / 2 : len;
		msg.captured = cap;
		if (!msg.ddp.tagged && msg.payload_off <= len)
			f->parsers(wire + 2 + msg.payload_off, cap > msg.payload_off ? cap - msg.payload_off : 0);
		struct iws_fpdu fp = { 0 };
		fp.ulpdu_len = (uint16_t)len;
		fp.ulpdu_off = 2;
		fp.wire_len = len + 6;
		fp.ulpdu = wire + 2;
		struct iws_seg_note note = { 0 };
		note.op_id = fl >> 4;
		note.payload = msg.payload_len;
		struct iws_pdu p = { 0 };
		p.kind = IWS_PDU_FPDU;
		p.side = fl & 1;
		p.dir = fl & 1;
		p.len = fp.wire_len;
		p.wire = wire;
		p.first_hole = 2 + cap;
		p.first_frame = p.arrived_frame = p.frame = p.settle_frame = frame;
		p.first_ts = p.arrived_ts = p.ts = (int64_t)frame * 1000;
		p.fpdu = &fp;
		p.msg = &msg;
		p.note = note.op_id ? &note : NULL;
		f->pdu(ctx, &p);
		frame++;
	}
}

#endif
