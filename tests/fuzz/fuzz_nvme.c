// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the NVMe/RDMA parsers and the NVMe command tracker. The input is a
 * list of records [flags:1][len:2, big-endian][ulpdu:len], the ULPDUs of one
 * connection; flags bit 0 is the direction, bit 1 a gap before the segment,
 * bit 2 rdma_cm private data naming queue flags >> 4, bit 3 a payload the
 * snapshot length cut in half. Every Send payload also goes through each
 * parser, whose fields must lie inside it. Every command reported must be
 * consistent and start no earlier than iws_nvme_tracker_pending() said
 * before the segment, and the tracker must end empty.
 */
#include <string.h>

#include "iwarpscope/nvme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t reported;
static int64_t wm_ns;        /* nothing reported may start before this */
static uint64_t wm_frame;

static void watermark(const struct iws_nvme_tracker *t, uint64_t next_frame)
{
	if (!iws_nvme_tracker_pending(t, &wm_ns, &wm_frame)) {
		wm_frame = next_frame;
		wm_ns = (int64_t)next_frame * 1000;
	}
}

#define INSIDE(f, n) ((f).off + (uint64_t)(f).len <= (n))

static void on_cmd(void *ctx, const struct iws_nvme_cmd *c)
{
	(void)ctx;
	if (!c->op || !c->title || c->last_frame < c->first_frame || c->end_ns < c->start_ns)
		__builtin_trap();
	if (c->complete && (!c->has_completion || (c->flags & IWS_NVMEF_INCOMPLETE_MASK)))
		__builtin_trap();
	if (c->has_completion && !(c->flags & IWS_NVMEF_NO_COMMAND) &&
	    c->latency_ns != c->end_ns - c->start_ns)
		__builtin_trap();
	if (c->data_ns < 0 || (c->has_lba && c->queue != IWS_NVME_QUEUE_IO))
		__builtin_trap();
	if (c->start_ns < wm_ns || (c->start_ns == wm_ns && c->first_frame < wm_frame))
		__builtin_trap();
	reported++;
}

static void parsers(const uint8_t *p, size_t n)
{
	struct iws_nvme_command c;
	for (int q = IWS_NVME_QUEUE_UNKNOWN; q <= IWS_NVME_QUEUE_IO; q++)
		if (iws_nvme_parse_command(p, n, (enum iws_nvme_queue)q, &c).status == IWS_OK &&
		    !(INSIDE(c.sgl.f_key, n) && INSIDE(c.fab.f_kato, n) && INSIDE(c.rw.f_dsmgmt, n) &&
		      INSIDE(c.adm.f_lpo, n) && INSIDE(c.f_icd, n) && c.icd_len == n - 64))
			__builtin_trap();
	struct iws_nvme_completion e;
	if (iws_nvme_parse_completion(p, n, &e).status == IWS_OK && !INSIDE(e.f_status, n))
		__builtin_trap();
	struct iws_nvme_connect_data d;
	if (iws_nvme_parse_connect_data(p, n, &d).status == IWS_OK &&
	    (strlen(d.subnqn) > 255 || strlen(d.hostnqn) > 255))
		__builtin_trap();
	struct iws_nvme_cm_req rq;
	struct iws_nvme_cm_rep rp;
	(void)iws_nvme_parse_cm_req(p, n, &rq);
	(void)iws_nvme_parse_cm_rep(p, n, &rp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_nvme_limits lim = { 16 };
	struct iws_nvme_tracker *t = iws_nvme_tracker_new(&lim, 0, on_cmd, NULL);
	if (!t)
		return 0;
	reported = 0;
	uint64_t frame = 0;
	size_t off = 0;
	while (off + 3 <= size) {
		uint8_t flags = data[off];
		size_t len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = size - off;
		if (flags & 0x04) {
			struct iws_nvme_cm_req cm = { .qid = (uint16_t)(flags >> 4) };
			iws_nvme_tracker_set_cm(t, &cm);
		}
		if (flags & 0x02)
			iws_nvme_tracker_gap(t, flags & 1);
		struct iws_msg m;
		if (iws_rdmap_parse(data + off, len, &m).status == IWS_OK) {
			watermark(t, frame + 1);
			frame++;
			struct iws_nvme_seg s = {
				.dir = (uint8_t)(flags & 1),
				.first_frame = frame,
				.first_ts_ns = (int64_t)frame * 1000,
				.frame = frame,
				.ts_ns = (int64_t)frame * 1000 + 10,
				.msg = &m,
				.payload = data + off + m.payload_off,
				.payload_cap = (flags & 0x08) ? m.payload_len / 2 : m.payload_len,
			};
			if (m.payload_len)
				parsers(s.payload, m.payload_len);
			iws_nvme_tracker_segment(t, &s);
		}
		off += len;
	}
	watermark(t, frame + 1);
	iws_nvme_tracker_finish(t, IWS_NVMEF_UNFINISHED);
	const struct iws_nvme_counts *c = iws_nvme_tracker_counts(t);
	if (c->inflight != 0 || c->reported != reported || c->max_inflight_seen > lim.max_inflight)
		__builtin_trap();
	iws_nvme_tracker_free(t);
	return 0;
}
