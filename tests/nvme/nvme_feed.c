// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme_feed: TEMPORARY glue between the CLI's pipeline (iwscli) and the core's
 * NVMe command tracker, for tests only. It reads a capture with the CLI's
 * source and analysis, hands every decoded DDP segment of every connection
 * (analysis_opts.fpdu: ev->msg, the marker-free ULPDU at ev->fpdu->ulpdu) to
 * one iws_nvme_tracker per connection, and prints one JSON object per NVMe
 * command, then one per connection with what it said about itself.
 *
 * The stream engine rewrite replaces struct fpdu_event; this file is the only
 * place that knows it. Simplifications a front end must not copy: a truncated
 * FPDU counts as having no captured payload, gaps and connection ends are
 * not fed (every tracker is finished as "capture ended").
 *
 * usage: nvme_feed CAPTURE   (exit 0, or 2 when the capture cannot be read)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "iwarpscope/nvme.h"
#include "source.h"

struct feed {
	struct iws_nvme_tracker **tr;   /* by tcp.stream */
	uint32_t ntr;
	int64_t *ts;                    /* capture time by frame number */
	uint64_t nts;
};

static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch > 0x7e)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void on_cmd(void *ctx, const struct iws_nvme_cmd *c)
{
	(void)ctx;
	printf("{\"qp\": %" PRIu32 ", \"qid\": ", c->qp);
	if (c->qid >= 0)
		printf("%" PRId32, c->qid);
	else
		printf("null");
	printf(", \"cid\": %u, \"opcode\": %u, \"fctype\": ", c->cid, c->opcode);
	if (c->fabrics)
		printf("%u", c->fctype);
	else
		printf("null");
	printf(", \"op\": ");
	jstr(c->op);
	printf(", \"nsid\": ");
	if (c->has_nsid)
		printf("%" PRIu32, c->nsid);
	else
		printf("null");
	if (c->has_lba)
		printf(", \"slba\": %" PRIu64 ", \"nlb\": %" PRIu32, c->slba, c->nlb);
	else
		printf(", \"slba\": null, \"nlb\": null");
	printf(", \"bytes\": %" PRIu64 ", \"xfer\": \"%s\", \"first_frame\": %" PRIu64
	       ", \"last_frame\": %" PRIu64 ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64,
	       c->bytes, iws_nvme_xfer_name(c->xfer), c->first_frame, c->last_frame, c->start_ns,
	       c->end_ns);
	if (c->has_completion)
		printf(", \"latency_ns\": %" PRId64, c->latency_ns);
	else
		printf(", \"latency_ns\": null");
	printf(", \"data_ns\": %" PRId64 ", \"status\": ", c->data_ns);
	if (c->has_completion) {
		printf("%u, \"status_name\": ", c->status);
		if (c->status_name)
			jstr(c->status_name);
		else
			printf("null");
	} else {
		printf("null, \"status_name\": null");
	}
	const struct iws_nvme_admin *a = &c->sqe.adm;
	if (a->identify)
		printf(", \"cns\": %u", a->cns);
	if (a->features)
		printf(", \"fid\": %u", a->fid);
	if (a->log_page)
		printf(", \"lid\": %u, \"numd\": %" PRIu32, a->lid, a->numd);
	printf(", \"complete\": %s, \"flags\": %" PRIu32 "}\n", c->complete ? "true" : "false",
	       c->flags);
}

static struct iws_nvme_tracker *tracker_of(struct feed *f, uint32_t qp)
{
	if (qp >= f->ntr) {
		uint32_t n = qp + 16;
		struct iws_nvme_tracker **v = realloc(f->tr, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + f->ntr, 0, (n - f->ntr) * sizeof(*v));
		f->tr = v;
		f->ntr = n;
	}
	if (!f->tr[qp])
		f->tr[qp] = iws_nvme_tracker_new(NULL, qp, on_cmd, f);
	return f->tr[qp];
}

static void on_fpdu(void *ctx, struct conn *c, const struct iws_pdu *ev)
{
	struct feed *f = ctx;
	if (!ev->msg)
		return;
	struct iws_nvme_tracker *t = tracker_of(f, c->stream);
	if (!t)
		return;
	uint32_t ucap = iws_fpdu_ulpdu_captured(ev->fpdu, ev->first_hole);
	uint32_t pcap = ucap > ev->msg->payload_off ? ucap - ev->msg->payload_off : 0;
	struct iws_nvme_seg s = {
		.dir = ev->dir,
		.first_frame = ev->first_frame,
		.first_ts_ns = ev->first_ts,
		.frame = ev->frame,
		.ts_ns = ev->ts,
		.msg = ev->msg,
		.payload = ev->fpdu->ulpdu + ev->msg->payload_off,
		.payload_cap = pcap < ev->msg->payload_len ? pcap : ev->msg->payload_len,
	};
	iws_nvme_tracker_segment(t, &s);
}

static void print_info(uint32_t qp, const struct iws_nvme_tracker *t)
{
	const struct iws_nvme_qp_info *i = iws_nvme_tracker_info(t);
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	if (!n->capsules && !n->responses)
		return;
	printf("{\"qp_info\": %" PRIu32 ", \"qid\": ", qp);
	if (i->qid >= 0)
		printf("%" PRId32, i->qid);
	else
		printf("null");
	printf(", \"qid_src\": %d, \"sqsize\": %u, \"kato\": %" PRIu32 ", \"cntlid\": ", i->qid_src,
	       i->sqsize, i->kato);
	if (i->has_cntlid)
		printf("%u", i->cntlid);
	else
		printf("null");
	printf(", \"hostnqn\": ");
	jstr(i->has_connect_data ? i->cdata.hostnqn : "");
	printf(", \"subnqn\": ");
	jstr(i->has_connect_data ? i->cdata.subnqn : "");
	printf(", \"capsules\": %" PRIu64 ", \"responses\": %" PRIu64 ", \"reported\": %" PRIu64
	       ", \"incomplete\": %" PRIu64 ", \"errors\": %" PRIu64 ", \"orphan_responses\": %" PRIu64
	       ", \"undecodable\": %" PRIu64 ", \"unmatched_data\": %" PRIu64
	       ", \"bytes_in_capsule\": %" PRIu64 ", \"bytes_c2h\": %" PRIu64 ", \"bytes_h2c\": %" PRIu64
	       "}\n",
	       n->capsules, n->responses, n->reported, n->incomplete, n->errors, n->orphan_responses,
	       n->undecodable, n->unmatched_data, n->bytes_in_capsule, n->bytes_c2h, n->bytes_h2c);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nvme_feed CAPTURE\n");
		return 2;
	}
	char err[512];
	const char *files[1] = { argv[1] };
	struct source_opts so = { .files = files, .nfiles = 1 };
	struct source *src = source_open(&so, err, sizeof(err));
	if (!src) {
		fprintf(stderr, "nvme_feed: %s\n", err);
		return 2;
	}
	static struct feed f;
	static struct analysis a;
	struct analysis_opts ao = { .check_crc = true, .ctx = &f, .fpdu = on_fpdu };
	if (!analysis_init(&a, &ao)) {
		source_close(src);
		return 2;
	}
	struct src_packet p;
	while (source_next(src, &p) == 1) {
		if (p.frame >= f.nts) {
			uint64_t n = p.frame * 2 + 64;
			int64_t *v = realloc(f.ts, n * sizeof(*v));
			if (!v)
				return 2;
			f.ts = v;
			f.nts = n;
		}
		f.ts[p.frame] = p.ts_ns;
		analysis_packet(&a, &p);
	}
	analysis_finish(&a);
	for (uint32_t q = 0; q < f.ntr; q++)
		if (f.tr[q])
			iws_nvme_tracker_finish(f.tr[q], IWS_NVMEF_UNFINISHED);
	for (uint32_t q = 0; q < f.ntr; q++)
		if (f.tr[q]) {
			print_info(q, f.tr[q]);
			iws_nvme_tracker_free(f.tr[q]);
		}
	free(f.tr);
	free(f.ts);
	analysis_free(&a);
	source_close(src);
	return 0;
}
