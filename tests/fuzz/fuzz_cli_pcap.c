// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz the whole CLI pipeline on a capture file held in memory: libpcap
 * (pcap or pcapng, through fmemopen and pcap_fopen_offline_with_tstamp_
 * precision) -> netdecode -> flows -> reassembly -> MPA stage -> tracker ->
 * timeline, with every writer running: ops as text, JSON, JSON lines and CSV,
 * fpdus, summary, stats as text and JSON, the live view's short summary and
 * the --fail-on findings. Output goes to /dev/null.
 *
 * Small limits (a few kB of out-of-order data, 256 kB of reassembly buffers,
 * 8 connections at once, 16 operations in flight, 32 held for ordering) so
 * that the limit paths run on small inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "readloop.h"
#include "out.h"
#include "source.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct app {
	struct source *src;
	struct analysis a;
	struct timeline tl;
	struct rank rank;           /* the slowest 3, as the summary lists them */
	struct rows_out ops[4];
	struct rows_out nvme[4];
	struct fpdus_out fpdus;
	uint32_t ticks;
};

static FILE *sink_file(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void on_op(void *ctx, struct conn *c, const struct iws_op *op)
{
	struct app *app = ctx;
	timeline_add(&app->tl, c, &(struct tl_key){ op->start_ns, op->first_frame, c->stream, op->id }, op);
	rank_add(&app->rank, c, op);
}

static void emit_op(void *ctx, const struct conn *c, const void *op)
{
	struct app *app = ctx;
	for (int i = 0; i < 4; i++)
		rows_write(&app->ops[i], c, op);
}

/* NVMe commands in every format, as they are reported. */
static void on_nvme(void *ctx, struct conn *c, const struct iws_nvme_cmd *cmd)
{
	struct app *app = ctx;
	for (int i = 0; i < 4; i++)
		rows_write(&app->nvme[i], c, cmd);
}

static void on_fpdu(void *ctx, struct conn *c, const struct iws_pdu *pdu)
{
	struct app *app = ctx;
	fpdus_out_write(&app->fpdus, c, pdu);
}

static void tick(void *ctx)
{
	struct app *app = ctx;
	int64_t ts;
	uint64_t frame;
	analysis_watermark(&app->a, &ts, &frame);
	timeline_release(&app->tl, ts, frame);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app app;
	char err[512];
	FILE *out = sink_file();
	if (!out || size == 0)
		return 0;
	memset(&app, 0, sizeof(app));

	/* fmemopen wants a writable buffer; the source owns the stream. */
	uint8_t *copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	FILE *fp = fmemopen(copy, size, "rb");
	if (!fp) {
		free(copy);
		return 0;
	}
	const char *names[1] = { "fuzz.pcap" };
	FILE *streams[1] = { fp };
	struct source_opts so = { .files = names, .nfiles = 1, .streams = streams };
	app.src = source_open(&so, err, sizeof(err));
	if (!app.src) {
		free(copy);
		return 0;
	}

	struct options o;
	memset(&o, 0, sizeof(o));
	o.cmd = CMD_OPS;
	o.check_crc = true;
	struct analysis_opts ao = {
		.check_crc = true,
		.track_order = true,
		.max_ooo_dir = 4096,
		.max_ooo_total = 6144,
		.max_inflight = 16,
		.max_reasm = 256 << 10,
		.max_flows = 8,
		.ctx = &app,
		.op = on_op,
		.fpdu = on_fpdu,
		.nvme = true,
		.nvme_cmd = on_nvme,
	};
	if (!analysis_init(&app.a, &ao)) {
		source_close(app.src);
		free(copy);
		return 0;
	}
	timeline_init(&app.tl, 32, sizeof(struct iws_op), &app, emit_op);
	rank_init(&app.rank, 3, 0);
	static const enum out_format fmts[4] = { FMT_TEXT, FMT_JSON, FMT_JSONL, FMT_CSV };
	for (int i = 0; i < 4; i++) {
		ops_out_begin(&app.ops[i], out, fmts[i]);
		nvme_out_begin(&app.nvme[i], out, fmts[i]);
	}
	fpdus_out_begin(&app.fpdus, out);

	struct report r = { &app.a, app.src, &o, &app.tl, &app.rank, NULL };
	struct run_hooks h = { .ctx = &app, .tick = tick, .live_out = out, .interval = 5 };
	run_input(app.src, &app.a, &r, &h);
	analysis_finish(&app.a);
	timeline_flush(&app.tl);
	for (int i = 0; i < 4; i++) {
		rows_end(&app.ops[i]);
		rows_end(&app.nvme[i]);
	}
	fpdus_out_end(&app.fpdus);
	summary_write(out, &r);
	stats_write_json(out, &r);
	stats_write_text(out, &r);
	summary_write_short(out, &r);
	(void)report_findings(&r);
	if (app.a.env.lim.ooo_used != 0 || app.a.env.lim.buf_used != 0)
		__builtin_trap();

	timeline_free(&app.tl);
	rank_free(&app.rank);
	analysis_free(&app.a);
	source_close(app.src);
	free(copy);
	return 0;
}
