// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ground-truth JSON writer: one object, fixed key order, integers as JSON
 * numbers, one operation / FPDU per line (see samples/README.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* RFC 5952 text form of an IPv6 address */
static void ip6_text(const uint8_t *a, char *out)
{
	uint16_t w[8];
	int best = -1, bestlen = 0;
	char *p = out;

	for (int i = 0; i < 8; i++)
		w[i] = (uint16_t)(a[2 * i] << 8 | a[2 * i + 1]);
	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && w[j] == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	if (bestlen < 2)
		best = -1;
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			p += sprintf(p, "::");
			i += bestlen - 1;
			continue;
		}
		if (i && i != best + bestlen)
			*p++ = ':';
		p += sprintf(p, "%x", w[i]);
	}
	*p = 0;
}

static void endpoint(FILE *f, const struct conn *c, int side)
{
	char buf[64], ip[48];

	if (c->cfg.ipver == 6) {
		ip6_text(c->ip[side], ip);
		snprintf(buf, sizeof(buf), "[%s]:%u", ip, c->port[side]);
	} else {
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u:%u", c->ip[side][0], c->ip[side][1],
			 c->ip[side][2], c->ip[side][3], c->port[side]);
	}
	jstr(f, buf);
}

static void opt_u64(FILE *f, int has, uint64_t v)
{
	if (has)
		fprintf(f, "%" PRIu64, v);
	else
		fputs("null", f);
}

static const char *bool_s(int v)
{
	return v ? "true" : "false";
}

static const char *rtr_name(enum rtr_type r)
{
	switch (r) {
	case RTR_SEND:
		return "\"send\"";
	case RTR_WRITE:
		return "\"write\"";
	case RTR_READ:
		return "\"read\"";
	default:
		return "null";
	}
}

/* "marker_deviation_DIR": [...], the sender's MKDEV_* flags in a fixed order */
static void mk_dev_list(FILE *f, unsigned dev)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = { { MKDEV_FPDUPTR_LE, "fpduptr_le" }, { MKDEV_SKIPCRC, "skip_crc" },
		      { MKDEV_OFFSET, "offset" } };
	int n = 0;

	fputc('[', f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(dev & names[i].flag))
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		jstr(f, names[i].name);
	}
	fputc(']', f);
}

static void write_conn(FILE *f, const struct truth *t, const struct conn_out *x, int lastc)
{
	const struct gen *g = t->g;
	const struct conn *c = g->conns[x->conn];
	const struct conn_cfg *k = &c->cfg;
	int hs = x->handshake, enh = k->rev == 2 && k->enhanced;
	int p2p = hs && enh && k->p2p && !k->reject;
	int first = 1;

	fprintf(f, "    {\"qp\": %d, \"initiator\": ", c->qp);
	endpoint(f, c, I2R);
	fputs(", \"responder\": ", f);
	endpoint(f, c, R2I);
	fprintf(f, ", \"handshake_captured\": %s,\n", bool_s(hs));
	fputs("     \"mpa\": {\"rev\": ", f);
	opt_u64(f, hs, (uint64_t)k->rev);
	fprintf(f, ", \"crc\": %s, \"markers_i2r\": %s, \"markers_r2i\": %s, \"ird\": ",
		bool_s(k->req_c || k->rep_c), bool_s(!k->reject && k->rep_m),
		bool_s(!k->reject && k->req_m));
	opt_u64(f, hs && enh, k->ird);
	fputs(", \"ord\": ", f);
	opt_u64(f, hs && enh, k->ord);
	fprintf(f, ", \"p2p\": %s, \"rtr\": %s, \"rejected\": %s, \"request_frame\": ",
		bool_s(p2p), p2p ? rtr_name(k->rtr) : "null", bool_s(k->reject));
	opt_u64(f, x->req_frame != 0, x->req_frame);
	fputs(", \"reply_frame\": ", f);
	opt_u64(f, x->rep_frame != 0, x->rep_frame);
	fputs(", \"rtr_frames\": [", f);
	for (int i = 0; i < x->nrtr; i++)
		fprintf(f, "%s%u", i ? ", " : "", x->rtr_frames[i]);
	fputs("]},\n", f);
	fputs("     \"isn_i2r\": ", f);
	opt_u64(f, hs, c->d[I2R].isn);
	fputs(", \"isn_r2i\": ", f);
	opt_u64(f, hs, c->d[R2I].isn);
	fputs(", \"seqstart_i2r\": ", f);
	opt_u64(f, hs && c->d[I2R].full_op, dir_seq(&c->d[I2R], c->d[I2R].seqstart));
	fputs(", \"seqstart_r2i\": ", f);
	opt_u64(f, hs && c->d[R2I].full_op, dir_seq(&c->d[R2I], c->d[R2I].seqstart));
	/* only for connections with a sender that writes Read Requests
	 * little-endian (RFC 5040's formats broken) */
	if (k->rdreq_le[I2R] || k->rdreq_le[R2I]) {
		fprintf(f, ",\n     \"rdmap_deviation_i2r\": [%s], \"rdmap_deviation_r2i\": [%s]",
			k->rdreq_le[I2R] ? "\"read_req_le\"" : "", k->rdreq_le[R2I] ? "\"read_req_le\"" : "");
	}
	/* only for connections with a sender that breaks the marker rules */
	if (!k->reject && (k->mk_dev[I2R] || k->mk_dev[R2I])) {
		fputs(",\n     \"marker_deviation_i2r\": ", f);
		mk_dev_list(f, k->mk_dev[I2R]);
		fputs(", \"marker_deviation_r2i\": ", f);
		mk_dev_list(f, k->mk_dev[R2I]);
		fputs(", \"marker_offset_i2r\": ", f);
		opt_u64(f, (k->mk_dev[I2R] & MKDEV_OFFSET) != 0, k->mk_off[I2R]);
		fputs(", \"marker_offset_r2i\": ", f);
		opt_u64(f, (k->mk_dev[R2I] & MKDEV_OFFSET) != 0, k->mk_off[R2I]);
	}
	fputs(",\n     \"gaps\": [", f);
	for (size_t i = 0; i < t->ngaps; i++) {
		const struct gap_out *gp = &t->gaps[i];

		if (gp->conn != x->conn)
			continue;
		fprintf(f, "%s{\"dir\": \"%s\", \"seq\": %u, \"len\": %u, \"after_frame\": %u}",
			first ? "" : ", ", gp->dir == I2R ? "i2r" : "r2i",
			dir_seq(&c->d[gp->dir], gp->off), gp->len, gp->after_frame);
		first = 0;
	}
	fprintf(f, "],\n     \"retransmissions\": %u, \"reordered_segments\": %u, "
		"\"tcp\": {\"fast_retransmits\": %u, \"timeouts\": %u, \"other_retransmits\": %u, "
		"\"reordered\": %u, \"duplicate_acks\": %u, \"zero_windows\": %u},\n",
		x->retransmissions, x->reordered, x->fast_retransmits, x->timeouts,
		x->retransmissions - x->fast_retransmits - x->timeouts, x->reordered, x->duplicate_acks,
		x->zero_windows);
	fputs("     \"teardown\": [", f);
	for (int i = 0; i < x->ntd; i++) {
		static const char *const kinds[] = { "fin", "rst", "terminate" };
		const struct td_out *d = &x->td[i];

		fprintf(f, "%s{\"kind\": \"%s\", \"from\": ", i ? ", " : "", kinds[d->kind]);
		endpoint(f, c, d->side);
		fprintf(f, ", \"frame\": %u, \"ns\": %" PRIu64 ", \"outstanding\": %zu, "
			"\"outstanding_ops\": [", d->frame, t->ts[d->frame], d->nops);
		for (size_t j = 0; j < d->nops; j++)
			fprintf(f, "%s%zu", j ? ", " : "", d->ops[j]);
		fputs("]}", f);
	}
	fprintf(f, "]}%s\n", lastc ? "" : ",");
}

static void write_op(FILE *f, const struct truth *t, const struct op_out *x, int lastop)
{
	const struct gen *g = t->g;
	const struct op_rec *o = &g->ops[x->op];
	const struct conn *c = g->conns[o->conn];

	fprintf(f, "    {\"qp\": %d, \"src\": ", x->qp);
	endpoint(f, c, o->dir);
	fputs(", \"dst\": ", f);
	endpoint(f, c, 1 - o->dir);
	fprintf(f, ", \"op\": \"%s\", \"opcode\": %u, \"first_frame\": %u, \"last_frame\": %u, "
		"\"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 ", \"bytes\": %" PRIu64
		", \"segments\": %u, \"stag\": ",
		op_kind_name(o->kind), o->opcode, x->first_frame, x->last_frame, x->start_ns,
		x->end_ns, x->bytes, x->segments);
	opt_u64(f, x->has_stag, x->stag);
	fputs(", \"to\": ", f);
	opt_u64(f, x->has_stag, x->to);
	fputs(", \"qn\": ", f);
	opt_u64(f, x->has_qn, x->qn);
	fputs(", \"msn\": ", f);
	opt_u64(f, x->has_qn, x->msn);
	fputs(", \"latency_ns\": ", f);
	opt_u64(f, x->has_latency, x->latency);
	fprintf(f, ", \"complete\": %s, \"crc_errors\": %u", bool_s(x->complete), x->crc_errors);
	fprintf(f, ", \"first_inorder_frame\": %u, \"retransmissions\": %u, \"reordered\": %u"
		", \"stall_ns\": %" PRIu64 ", \"ack_frame\": ", x->first_inorder_frame, x->retransmissions,
		x->reordered, x->stall_ns);
	opt_u64(f, x->has_ack, x->ack_frame);
	fputs(", \"ack_ns\": ", f);
	opt_u64(f, x->has_ack, x->ack_ns);
	fprintf(f, ", \"after_close\": %s, \"rtr\": %s, \"payload_captured\": %s", bool_s(x->after_close),
		bool_s(x->rtr), bool_s(x->payload_captured));
	{
		static const char *const pairing[] = { NULL, "order", "key", "frame", "close", "before_capture" };
		fputs(", \"pairing\": ", f);
		if (x->pairing > 0 && x->pairing < (int)(sizeof(pairing) / sizeof(pairing[0])))
			fprintf(f, "\"%s\"", pairing[x->pairing]);
		else
			fputs("null", f);
	}
	switch (o->kind) {
	case OP_TERM:
		fprintf(f, ", \"term_layer\": %u, \"term_etype\": %u, \"term_errcode\": %u",
			o->term_layer, o->term_etype, o->term_errcode);
		break;
	case OP_SEND_INV:
	case OP_SEND_SE_INV:
		fprintf(f, ", \"inval_stag\": %u", o->inval_stag);
		break;
	case OP_IMM:
	case OP_IMM_SE:
		fprintf(f, ", \"immediate\": %" PRIu64, o->immediate);
		break;
	case OP_FADD:
	case OP_CSWAP:
		fputs(", \"atomic_req_id\": ", f);
		opt_u64(f, x->has_req_id, o->atomic_req_id);
		fputs(", \"atomic_orig_value\": ", f);
		opt_u64(f, x->has_orig, o->atomic_orig);
		break;
	default:
		break;
	}
	fprintf(f, "}%s\n", lastop ? "" : ",");
}

static void write_fpdu(FILE *f, const struct truth *t, const struct fpdu_rec *x, int lastf)
{
	const struct gen *g = t->g;
	const struct conn *c = g->conns[x->conn];
	const struct dir *d = &c->d[x->dir];
	const char *crc;

	if (!x->crc_on)
		crc = "none";
	else if (!x->full)
		crc = "unverifiable";
	else
		crc = x->crc_bad ? "bad" : "ok";
	fprintf(f, "    {\"qp\": %d, \"dir\": \"%s\", \"seq\": %u, \"wire_len\": %u, "
		"\"first_frame\": %u, \"frame\": %u, \"ulpdu_len\": %u, \"pad\": %u, \"markers\": [",
		c->qp, x->dir == I2R ? "i2r" : "r2i", dir_seq(d, x->off), x->wire_len,
		x->first_frame, x->frame, x->ulpdu_len, x->pad);
	for (size_t i = 0; i < x->mk_count; i++) {
		const struct marker_rec *m = &g->markers[x->mk_first + i];

		fprintf(f, "%s{\"seq\": %u, \"fpduptr\": %u}", i ? ", " : "", dir_seq(d, m->off),
			m->fpduptr);
	}
	fprintf(f, "], \"crc\": \"%s\", \"tagged\": %s, \"last\": %s, \"opcode\": %u, \"stag\": ",
		crc, bool_s(x->tagged), bool_s(x->last), x->opcode);
	opt_u64(f, x->tagged, x->stag);
	fputs(", \"to\": ", f);
	opt_u64(f, x->tagged, x->to);
	fputs(", \"qn\": ", f);
	opt_u64(f, !x->tagged, x->qn);
	fputs(", \"msn\": ", f);
	opt_u64(f, !x->tagged, x->msn);
	fputs(", \"mo\": ", f);
	opt_u64(f, !x->tagged, x->mo);
	fputs(", \"op\": ", f);
	opt_u64(f, x->out_op >= 0, (uint64_t)(x->out_op >= 0 ? x->out_op : 0));
	fprintf(f, "}%s\n", lastf ? "" : ",");
}

static void write_nvme(FILE *f, const struct truth *t, const struct nvme_out *x, int last)
{
	const struct nvme_rec *r = &t->g->nvme[x->rec];

	fprintf(f, "    {\"qp\": %d, \"qid\": %d, \"cid\": %u, \"opcode\": %u, \"fctype\": ", x->qp,
		r->qid, r->cid, r->opcode);
	opt_u64(f, r->fabrics, r->fctype);
	fputs(", \"op\": ", f);
	jstr(f, r->op);
	fputs(", \"nsid\": ", f);
	opt_u64(f, r->has_nsid, r->nsid);
	fputs(", \"slba\": ", f);
	opt_u64(f, r->has_lba, r->slba);
	/* NLB as on the wire (0's based, as nvme-cli shows it), the blocks beside */
	fputs(", \"nlb\": ", f);
	opt_u64(f, r->has_lba, r->has_lba ? r->blocks - 1 : 0);
	fputs(", \"blocks\": ", f);
	opt_u64(f, r->has_lba, r->blocks);
	fprintf(f, ", \"bytes\": %" PRIu64 ", \"first_frame\": %u, \"last_frame\": %u, "
		"\"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 ", \"latency_ns\": ",
		x->bytes, x->first_frame, x->last_frame, x->start_ns, x->end_ns);
	opt_u64(f, x->has_latency, x->latency);
	fprintf(f, ", \"data_ns\": %" PRIu64 ", \"status\": ", x->data_ns);
	opt_u64(f, x->has_status, r->status);
	fputs(", \"status_name\": ", f);
	if (x->has_status && r->status_name)
		jstr(f, r->status_name);
	else
		fputs("null", f);
	fprintf(f, ", \"complete\": %s}%s\n", bool_s(x->complete), last ? "" : ",");
}

static void write_rpc(FILE *f, const struct truth *t, const struct rpc_out *x, int last)
{
	const struct rpc_rec *r = &t->g->rpc[x->rec];

	fprintf(f, "    {\"qp\": %d, \"xid\": %u, \"program\": %u, \"version\": %u, \"procedure\": %u, "
		"\"proc\": ", x->qp, r->xid, r->prog, r->vers, r->proc);
	jstr(f, r->proc_name);
	fputs(", \"ops\": ", f);
	if (r->nops) {
		fputs("[", f);
		for (int i = 0; i < r->nops; i++) {
			fputs(i ? ", " : "", f);
			jstr(f, r->ops[i]);
		}
		fputs("]", f);
	} else {
		fputs("null", f);
	}
	fputs(", \"offset\": ", f);
	opt_u64(f, r->has_io, r->offset);
	fputs(", \"count\": ", f);
	opt_u64(f, r->has_io, r->count);
	fputs(", \"chunk\": ", f);
	if (r->chunk)
		jstr(f, r->chunk);
	else
		fputs("null", f);
	fprintf(f, ", \"call_frame\": %u, \"reply_frame\": ", x->call_frame);
	opt_u64(f, x->has_reply, x->reply_frame);
	fputs(", \"latency_ns\": ", f);
	opt_u64(f, x->has_reply, x->latency);
	fprintf(f, ", \"rdma_bytes\": %" PRIu64 ", \"data_first_frame\": ", x->rdma_bytes);
	opt_u64(f, x->data_first_frame != 0, x->data_first_frame);
	fputs(", \"data_last_frame\": ", f);
	opt_u64(f, x->data_last_frame != 0, x->data_last_frame);
	fprintf(f, ", \"complete\": %s}%s\n", bool_s(x->complete), last ? "" : ",");
}

int truth_write(const struct truth *t, const char *path)
{
	const struct gen *g = t->g;
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	fputs("{\n  \"generator\": \"iwarpscope-gen\",\n  \"version\": 2,\n  \"scenario\": ", f);
	jstr(f, g->scenario);
	fprintf(f, ",\n  \"seed\": %" PRIu64 ",\n  \"description\": ", g->seed);
	jstr(f, g->description);
	fprintf(f, ",\n  \"link\": \"%s\",\n  \"ip\": %d,\n  \"time_precision\": \"%s\",\n"
		"  \"snaplen\": %u,\n  \"frames\": %u,\n",
		g->vlan >= 0 ? "vlan" : "ethernet", g->ipver,
		g->fmt == FMT_PCAP_US ? "us" : "ns", g->snaplen, t->nframes);
	fputs("  \"connections\": [\n", f);
	for (int i = 0; i < t->nconns; i++)
		write_conn(f, t, &t->conns[i], i == t->nconns - 1);
	fputs("  ],\n  \"operations\": [\n", f);
	for (size_t i = 0; i < t->nops; i++)
		write_op(f, t, &t->ops[i], i == t->nops - 1);
	fputs("  ],\n  \"fpdus\": [\n", f);
	for (size_t i = 0; i < t->nfpdus; i++)
		write_fpdu(f, t, &g->fpdus[t->fpdus[i]], i == t->nfpdus - 1);
	fputs("  ]", f);
	/* NVMe scenarios only: the list would be empty everywhere else */
	if (g->nnvme) {
		fputs(",\n  \"nvme\": [\n", f);
		for (size_t i = 0; i < t->nnvme; i++)
			write_nvme(f, t, &t->nvme[i], i == t->nnvme - 1);
		fputs("  ]", f);
	}
	/* RPC-over-RDMA scenarios only */
	if (g->nrpc) {
		fputs(",\n  \"rpc\": [\n", f);
		for (size_t i = 0; i < t->nrpc; i++)
			write_rpc(f, t, &t->rpc[i], i == t->nrpc - 1);
		fputs("  ]", f);
	}
	if (g->ndoctor || g->doctor_framing)
		doctor_truth_write(f, t);
	fputs("\n}\n", f);
	rc = ferror(f) ? -1 : 0;
	if (fclose(f))
		rc = -1;
	return rc;
}
