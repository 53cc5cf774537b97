// SPDX-License-Identifier: GPL-2.0-or-later
/* Streaming bench capture (see bench.h). */
#include "bench.h"

#include <inttypes.h>
#include <stdio.h>

#include "session.h"
#include "tcpsim.h"


static uint32_t msg_size(struct gen *g)
{
	/* log-uniform 64 B .. 256 KiB */
	uint32_t shift = prng_range(&g->rng, 6, 17);

	return (1u << shift) + prng_range(&g->rng, 0, (1u << shift) - 1);
}

static int write_summary(struct gen *g, struct conn **c, int qps, const char *path,
			 uint64_t records, uint64_t bytes)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	fprintf(f, "{\n  \"generator\": \"iwarpscope-gen\",\n  \"version\": 1,\n"
		"  \"scenario\": \"bench\",\n  \"seed\": %" PRIu64 ",\n"
		"  \"description\": \"%s\",\n  \"link\": \"ethernet\",\n  \"ip\": 4,\n"
		"  \"time_precision\": \"ns\",\n  \"snaplen\": %u,\n  \"frames\": %" PRIu64 ",\n",
		g->seed, g->description, g->snaplen, records);
	fputs("  \"connections\": [\n", f);
	for (int i = 0; i < qps; i++)
		fprintf(f, "    {\"qp\": %d, \"initiator\": \"192.0.2.%u:%u\", "
			"\"responder\": \"192.0.2.%u:%u\"}%s\n", i, c[i]->ip[0][3], c[i]->port[0],
			c[i]->ip[1][3], c[i]->port[1], i == qps - 1 ? "" : ",");
	fputs("  ],\n  \"operations\": [],\n  \"fpdus\": [],\n", f);
	fprintf(f, "  \"summary\": {\"file_bytes\": %" PRIu64 ", \"fpdus\": %" PRIu64 ", \"ops\": {",
		bytes, g->counts.fpdus);
	for (int k = 0; k < OP_NKINDS; k++)
		fprintf(f, "%s\"%s\": {\"count\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
			k ? ", " : "", op_kind_name((enum op_kind)k), g->counts.ops[k],
			g->counts.bytes[k]);
	fputs("}}\n}\n", f);
	rc = ferror(f) ? -1 : 0;
	if (fclose(f))
		rc = -1;
	return rc;
}

int bench_run(struct gen *g, const char *prefix, uint64_t size, int qps)
{
	struct conn *c[BENCH_MAX_QPS];
	struct pcapw w;
	char path[4096];
	uint64_t t = T_BASE;

	g->description = qps == BENCH_QPS
		? "Benchmark stream: 8 QPs between 8 clients and 2 servers, MPA v2, CRC on, "
		  "one FPDU per TCP segment on 6 QPs, 4000- and 8000-octet DDP "
		  "segments straddling TCP segments on 2 QPs; 55% RDMA Write, 25% Read, "
		  "20% Send, 64 B to 256 KiB messages; no faults."
		: "Benchmark stream: QPs (--qps) between as many clients and 2 servers, "
		  "MPA v2, CRC on, one FPDU per TCP segment but on the last 2 QPs, 4000- "
		  "and 8000-octet DDP segments straddling TCP segments on those; 55% RDMA "
		  "Write, 25% Read, 20% Send, 64 B to 256 KiB messages; no faults.";
	g->streaming = 1;
	snprintf(path, sizeof(path), "%s.pcap", prefix);
	if (pcapw_open(&w, path, FMT_PCAP_NS, g->snaplen))
		gen_die("cannot write %s", path);
	g->w = &w;
	for (int i = 0; i < qps; i++) {
		struct conn_cfg k = cfg_default(4);

		/* clients 192.0.2.1 onwards, past the servers .20 and .21 */
		k.host[0] = 1 + i + (i >= 19 ? 2 : 0);
		k.host[1] = 20 + (i & 1);
		k.req_c = k.rep_c = 1;
		if (i >= qps - 2) {
			/* two QPs with DDP segments independent of the MSS */
			k.mode[0] = k.mode[1] = SEG_STREAM;
			k.ddp_max[0] = k.ddp_max[1] = i == qps - 1 ? 8000 : 4000;
		}
		c[i] = conn_new(g, &k);
		t = s_open(g, c[i], t) + 5 * US;
	}
	while (w.bytes < size) {
		struct conn *q = c[prng_range(&g->rng, 0, (uint32_t)qps - 1)];
		uint32_t r = prng_range(&g->rng, 0, 99), len = msg_size(g);
		int dir = prng_range(&g->rng, 0, 4) ? I2R : R2I;

		t += prng_range(&g->rng, 1000, 5000);
		if (r < 55)
			t = s_write(g, q, dir, len, t);
		else if (r < 80)
			t = s_read(g, q, dir, len, t);
		else
			t = s_send(g, q, dir, OP_SEND, len > 65536 ? len / 8 : len, t);
	}
	for (int i = 0; i < qps; i++)
		t = s_close(g, c[i], I2R, t + 5 * US);
	if (pcapw_close(&w))
		gen_die("write error on %s", path);
	snprintf(path, sizeof(path), "%s.truth.json", prefix);
	return write_summary(g, c, qps, path, w.records, w.bytes);
}
