// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `smb` command's rows: one per SMB2 request over SMB Direct (MS-SMBD),
 * in request order, with its READ/WRITE channel and the RDMA operations
 * that moved its data (docs/semantics.md, "SMB Direct"). JSON names: qp,
 * message_id, command, cmd, offset, length, channel, descriptors
 * [offset, token, length], desc_bytes, inline_bytes, rdma [op, token, ops,
 * bytes, segments, first_frame, last_frame], rdma_ops, rdma_bytes, status,
 * interim, req_frame, resp_frame, req_ns, resp_ns, latency_ns, complete,
 * flags. Then the verdict per connection: a text table, and the "smb"
 * object of a QP in stats.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/qp.h"
#include "iwarpscope/smbd.h"
#include "iwarpscope/stream.h"
#include "analysis.h"
#include "jsonw.h"
#include "out_smb.h"
#include "outreport.h"
#include "texttable.h"
#include "units.h"

static const char *flags_str(char *b, size_t n, uint32_t f)
{
	static const char *const w[] = { "unfinished", "aborted", "gap",     "evicted",
					 "no_request", "id_reuse", "desc_more" };
	size_t k = 0;
	b[0] = 0;
	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]) && k < n; i++)
		if (f & (1u << i))
			k += (size_t)snprintf(b + k, n - k, "%s%s", k ? "," : "", w[i]);
	return b;
}

static const char *cmd_label(char *b, size_t n, uint16_t cmd)
{
	const char *s = iws_smb2_cmd_name(cmd);
	if (s)
		snprintf(b, n, "%s", s);
	else
		snprintf(b, n, "0x%04x", cmd);
	return b;
}

static const char *channel_name(uint32_t ch)
{
	switch (ch) {
	case IWS_SMB2_CHANNEL_NONE:
		return "none";
	case IWS_SMB2_CHANNEL_RDMA_V1:
		return "rdma_v1";
	case IWS_SMB2_CHANNEL_RDMA_V1_INVALIDATE:
		return "rdma_v1_invalidate";
	case IWS_SMB2_CHANNEL_RDMA_TRANSFORM:
		return "rdma_transform";
	default:
		return "?";
	}
}

static void smb_json(struct jsonw *j, const struct conn *c, const void *item, const struct points *pts)
{
	(void)c;
	(void)pts;
	const struct iws_smb *m = item;
	char fl[120], cb[16];
	bool io = m->has_request && m->req.io;
	jw_obj(j);
	jw_ku64(j, "qp", m->qp);
	jw_ku64(j, "message_id", m->message_id);
	jw_ku64(j, "command", m->command);
	jw_kstr(j, "cmd", cmd_label(cb, sizeof(cb), m->command));
	jw_kou64(j, "offset", io, m->req.offset);
	jw_kou64(j, "length", io, m->req.length);
	jw_kostr(j, "channel", io ? channel_name(m->req.channel) : NULL);
	jw_key(j, "descriptors");
	jw_arr(j);
	for (uint32_t i = 0; i < m->req.ndesc && i < IWS_SMBD_MAX_DESC; i++) {
		jw_obj(j);
		jw_ku64(j, "offset", m->req.desc[i].offset);
		jw_ku64(j, "token", m->req.desc[i].token);
		jw_ku64(j, "length", m->req.desc[i].length);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "desc_bytes", m->desc_bytes);
	jw_ku64(j, "inline_bytes", m->inline_bytes);
	jw_key(j, "rdma");
	jw_arr(j);
	for (uint32_t i = 0; i < m->nrdma; i++) {
		const struct iws_smb_rdma *d = &m->rdma[i];
		jw_obj(j);
		jw_kstr(j, "op", iws_op_type_name(d->type));
		jw_ku64(j, "token", d->token);
		jw_ku64(j, "ops", d->ops);
		jw_ku64(j, "bytes", d->bytes);
		jw_ku64(j, "segments", d->segments);
		jw_ku64(j, "first_frame", d->first_frame);
		jw_ku64(j, "last_frame", d->last_frame);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_ku64(j, "rdma_ops", m->rdma_ops);
	jw_ku64(j, "rdma_bytes", m->rdma_bytes);
	jw_kou64(j, "status", m->has_response, m->status);
	jw_ku64(j, "interim", m->interim);
	jw_kou64(j, "req_frame", m->has_request, m->req_frame);
	jw_kou64(j, "resp_frame", m->has_response, m->resp_frame);
	jw_koi64(j, "req_ns", m->has_request, m->req_ns);
	jw_koi64(j, "resp_ns", m->has_response, m->resp_ns);
	jw_koi64(j, "latency_ns", m->has_request && m->has_response, m->latency_ns);
	jw_kbool(j, "complete", m->complete);
	jw_kstr(j, "flags", flags_str(fl, sizeof(fl), m->flags));
	jw_obj_end(j);
}

static void smb_csv(FILE *f, const struct conn *c, const void *item)
{
	(void)c;
	const struct iws_smb *m = item;
	char fl[120], cb[16];
	bool io = m->has_request && m->req.io;
	fprintf(f, "%" PRIu32 ",%" PRIu64 ",%s,", m->qp, m->message_id, cmd_label(cb, sizeof(cb), m->command));
	if (io)
		fprintf(f, "%" PRIu64 ",%" PRIu32 ",%s", m->req.offset, m->req.length, channel_name(m->req.channel));
	else
		fprintf(f, ",,");
	fprintf(f, ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",", m->desc_bytes, m->inline_bytes,
		m->rdma_ops, m->rdma_bytes);
	if (m->has_response)
		fprintf(f, "0x%08" PRIx32, m->status);
	fputc(',', f);
	if (m->has_request)
		fprintf(f, "%" PRIu64, m->req_frame);
	fputc(',', f);
	if (m->has_response)
		fprintf(f, "%" PRIu64, m->resp_frame);
	fputc(',', f);
	if (m->has_request && m->has_response)
		fprintf(f, "%" PRId64, m->latency_ns);
	fprintf(f, ",%s,\"%s\"\n", m->complete ? "true" : "false", flags_str(fl, sizeof(fl), m->flags));
}

static const struct fixed_col smb_cols[] = {
	{ "time", -18, false },	   { "QP", 4, false },	     { "msg id", 8, false },
	{ "command", -16, false }, { "offset", 10, false },  { "length", 8, false },
	{ "channel", -8, false },  { "rdma", -10, false },   { "rdma bytes", 10, false },
	{ "inline", 8, false },	   { "latency", 12, true },  { "status", -10, false },
	{ "frames", -15, false },  { "notes", 0, false },
};
#define NCOLS (int)(sizeof(smb_cols) / sizeof(smb_cols[0]))

static void smb_text_header(FILE *f)
{
	fixed_header(f, smb_cols, NCOLS, text_time_unit());
}

static void smb_text(FILE *f, const struct conn *c, const void *item)
{
	(void)c;
	const struct iws_smb *m = item;
	char t[48], fl[120];
	char cell[NCOLS][48];
	int64_t unit = text_time_unit();
	int dec = units_decimals(unit, 1);
	bool io = m->has_request && m->req.io;
	int k = 0;
	snprintf(cell[k++], 48, "%s", fmt_clock(t, sizeof(t), m->req_ns));
	snprintf(cell[k++], 48, "%" PRIu32, m->qp);
	snprintf(cell[k++], 48, "%" PRIu64, m->message_id);
	cmd_label(cell[k++], 48, m->command);
	if (io) {
		snprintf(cell[k++], 48, "%" PRIu64, m->req.offset);
		snprintf(cell[k++], 48, "%" PRIu32, m->req.length);
		snprintf(cell[k++], 48, "%s", m->req.channel == IWS_SMB2_CHANNEL_NONE ? "inline"
					    : m->req.ndesc			     ? "rdma"
										     : "?");
	} else {
		for (int i = 0; i < 3; i++)
			snprintf(cell[k++], 48, "-");
	}
	if (m->nrdma)
		snprintf(cell[k++], 48, "%" PRIu32 " %s", m->rdma_ops, iws_op_type_name(m->rdma[0].type));
	else
		snprintf(cell[k++], 48, "-");
	snprintf(cell[k++], 48, "%" PRIu64, m->rdma_bytes);
	snprintf(cell[k++], 48, "%" PRIu32, m->inline_bytes);
	if (m->has_request && m->has_response)
		fmt_in_unit(cell[k++], 48, m->latency_ns, unit, dec);
	else
		snprintf(cell[k++], 48, "-");
	if (m->has_response)
		snprintf(cell[k++], 48, "0x%08" PRIx32, m->status);
	else
		snprintf(cell[k++], 48, "-");
	if (m->has_request && m->has_response)
		snprintf(cell[k++], 48, "%" PRIu64 "-%" PRIu64, m->req_frame, m->resp_frame);
	else if (m->has_request)
		snprintf(cell[k++], 48, "%" PRIu64 "-", m->req_frame);
	else
		snprintf(cell[k++], 48, "-%" PRIu64, m->resp_frame);
	struct row_notes notes = { .n = 0 };
	if (m->interim)
		row_note(&notes, "%" PRIu32 " interim", m->interim);
	fixed_row_cells(f, smb_cols, NCOLS, cell, -1, NULL,
			row_notes_end(&notes, m->complete, flags_str(fl, sizeof(fl), m->flags)));
}

static const struct row_fns smb_fns = {
	"qp,message_id,cmd,offset,length,channel,desc_bytes,inline_bytes,rdma_ops,rdma_bytes,status,"
	"req_frame,resp_frame,latency_ns,complete,flags\n",
	smb_json, smb_csv, smb_text, smb_text_header,
};

void smb_out_begin(struct rows_out *w, FILE *f, enum out_format fmt)
{
	rows_begin(w, f, fmt, &smb_fns);
}

/* ---- the verdict per connection (iws_smb_conn_counts) ---- */

static const struct iws_smb_conn *smb_of(const struct conn *c)
{
	const struct iws_smb_conn *sc = c->eng ? iws_stream_smb(c->eng) : NULL;
	return sc && iws_smb_conn_state(sc) == IWS_SMB_YES ? sc : NULL;
}

static void neg_json(struct jsonw *j, const char *key, bool has, const struct iws_smbd_negotiate *n)
{
	jw_key(j, key);
	if (!has) {
		jw_null(j);
		return;
	}
	jw_obj(j);
	jw_ku64(j, "min_version", n->min_version);
	jw_ku64(j, "max_version", n->max_version);
	if (n->response) {
		jw_ku64(j, "negotiated_version", n->negotiated_version);
		jw_ku64(j, "status", n->status);
		jw_ku64(j, "credits_granted", n->credits_granted);
		jw_ku64(j, "max_read_write_size", n->max_read_write_size);
	}
	jw_ku64(j, "credits_requested", n->credits_requested);
	jw_ku64(j, "preferred_send_size", n->preferred_send_size);
	jw_ku64(j, "max_receive_size", n->max_receive_size);
	jw_ku64(j, "max_fragmented_size", n->max_fragmented_size);
	jw_obj_end(j);
}

void smb_qp_json(struct jsonw *j, const struct conn *c)
{
	const struct iws_smb_conn *sc = smb_of(c);
	if (!sc)
		return;
	const struct iws_smb_counts *k = iws_smb_conn_counts(sc);
	jw_key(j, "smb");
	jw_obj(j);
	jw_kstr(j, "verdict", iws_smb_verdict_name(iws_smb_verdict_of(k)));
	jw_ku64(j, "reads", k->reads);
	jw_ku64(j, "writes", k->writes);
	jw_ku64(j, "rdma_reads", k->rdma_reads);
	jw_ku64(j, "rdma_writes", k->rdma_writes);
	jw_ku64(j, "inline_bytes", k->inline_bytes);
	jw_ku64(j, "rdma_bytes", k->rdma_bytes);
	jw_ku64(j, "desc_bytes", k->desc_bytes);
	jw_ku64(j, "sends", k->sends);
	jw_ku64(j, "data_messages", k->data_msgs);
	jw_ku64(j, "fragments", k->fragments);
	jw_ku64(j, "reassembly_errors", k->reassembly_errors);
	jw_ku64(j, "smb2_messages", k->smb2);
	jw_ku64(j, "requests", k->requests);
	jw_ku64(j, "responses", k->responses);
	jw_ku64(j, "interim", k->interim);
	jw_ku64(j, "orphans", k->orphans);
	jw_ku64(j, "incomplete", k->incomplete);
	jw_ku64(j, "unmatched_rdma", k->unmatched_rdma);
	neg_json(j, "negotiate_request", k->has_neg_req, &k->neg_req);
	neg_json(j, "negotiate_response", k->has_neg_resp, &k->neg_resp);
	jw_key(j, "credits");
	jw_obj(j);
	for (uint8_t d = 0; d < 2; d++) {
		uint8_t dir = (uint8_t)(d ? k->client_dir ^ 1 : k->client_dir);
		jw_key(j, d ? "server" : "client");
		jw_obj(j);
		jw_kstr(j, "dir", conn_dir_name(dir));
		jw_ku64(j, "messages", k->credit_msgs[dir]);
		jw_ku64(j, "granted", k->credits_granted[dir]);
		jw_ku64(j, "requested_max", k->credits_requested_max[dir]);
		jw_ku64(j, "max_held", k->credits_max_held[dir]);
		jw_ku64(j, "min_left", k->credits_min_left[dir]);
		jw_ku64(j, "exceeded", k->credits_exceeded[dir]);
		jw_obj_end(j);
	}
	jw_obj_end(j);
	jw_obj_end(j);
}

void smb_verdict_text(FILE *f, const struct report *r)
{
	static const struct tt_col cols[] = {
		{ "QP", false },	 { "verdict", true },	   { "reads", false },	{ "writes", false },
		{ "via RDMA", false },	 { "RDMA bytes", false },  { "inline bytes", false },
		{ "requests", false },	 { "incomplete", false },  { "credits granted c/s", false },
		{ "max held c/s", false }, { "min left c/s", false }, { "exceeded c/s", false },
	};
	struct texttable t;
	tt_init(&t, cols, 13);
	const struct conn *c;
	bool any = false;
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		const struct iws_smb_conn *sc = smb_of(c);
		if (!sc)
			continue;
		any = true;
		const struct iws_smb_counts *k = iws_smb_conn_counts(sc);
		uint8_t cd = k->client_dir, sd = cd ^ 1;
		tt_cellf(&t, "%" PRIu32, c->stream);
		tt_cell(&t, iws_smb_verdict_name(iws_smb_verdict_of(k)));
		tt_cellf(&t, "%" PRIu64, k->reads);
		tt_cellf(&t, "%" PRIu64, k->writes);
		tt_cellf(&t, "%" PRIu64, k->rdma_reads + k->rdma_writes);
		tt_cellf(&t, "%" PRIu64, k->rdma_bytes);
		tt_cellf(&t, "%" PRIu64, k->inline_bytes);
		tt_cellf(&t, "%" PRIu64, k->requests);
		tt_cellf(&t, "%" PRIu64, k->incomplete);
		tt_cellf(&t, "%" PRIu64 "/%" PRIu64, k->credits_granted[cd], k->credits_granted[sd]);
		tt_cellf(&t, "%" PRIu32 "/%" PRIu32, k->credits_max_held[cd], k->credits_max_held[sd]);
		tt_cellf(&t, "%" PRIu32 "/%" PRIu32, k->credits_min_left[cd], k->credits_min_left[sd]);
		tt_cellf(&t, "%" PRIu64 "/%" PRIu64, k->credits_exceeded[cd], k->credits_exceeded[sd]);
	}
	if (!any) {
		tt_free(&t);
		return;
	}
	fputs("\nSMB Direct per connection (MS-SMBD; c/s: client/server sender; docs/semantics.md)\n", f);
	tt_print(&t, f, "  ");
	tt_free(&t);
	for (uint32_t i = 0; (c = analysis_next_qp(r->a, &i)) != NULL;) {
		const struct iws_smb_conn *sc = smb_of(c);
		if (!sc)
			continue;
		const struct iws_smb_counts *k = iws_smb_conn_counts(sc);
		if (k->has_neg_req)
			fprintf(f,
				"  QP %" PRIu32 " negotiate request: versions 0x%04x-0x%04x, credits requested %u, "
				"preferred send %" PRIu32 ", max receive %" PRIu32 ", max fragmented %" PRIu32 "\n",
				c->stream, k->neg_req.min_version, k->neg_req.max_version, k->neg_req.credits_requested,
				k->neg_req.preferred_send_size, k->neg_req.max_receive_size,
				k->neg_req.max_fragmented_size);
		if (k->has_neg_resp)
			fprintf(f,
				"  QP %" PRIu32 " negotiate response: version 0x%04x, status 0x%08" PRIx32
				", credits requested %u, granted %u, max read/write %" PRIu32 ", preferred send %" PRIu32
				", max receive %" PRIu32 ", max fragmented %" PRIu32 "\n",
				c->stream, k->neg_resp.negotiated_version, k->neg_resp.status,
				k->neg_resp.credits_requested, k->neg_resp.credits_granted,
				k->neg_resp.max_read_write_size, k->neg_resp.preferred_send_size,
				k->neg_resp.max_receive_size, k->neg_resp.max_fragmented_size);
	}
}
