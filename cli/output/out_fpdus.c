// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `fpdus` writer (developer view): one JSON object per decoded FPDU, in
 * the order reassembly completed them, with the fields of the generator's
 * truth files (samples/README.md) so the two can be compared directly:
 * qp, dir, seq, wire_len, first_frame, frame, ulpdu_len, pad, markers,
 * crc, tagged, last, opcode, stag, to, qn, msn, mo, op_id. With --format
 * text, the same FPDUs one line each (streamed as they come, so fixed
 * columns, not a table measured at the end).
 */
#include <inttypes.h>
#include <string.h>

#include "conn.h"
#include "points.h"
#include "out_fpdus.h"

void fpdus_out_begin(struct fpdus_out *w, FILE *f)
{
	w->f = f;
	jw_init(&w->j, false);
}

static const char *crc_name(const struct iws_pdu *pdu)
{
	switch (pdu->fpdu->crc_status) {
	case IWS_CRC_OK:
		return "ok";
	case IWS_CRC_BAD:
		return "bad";
	case IWS_CRC_UNVERIFIABLE:
		return "unverifiable";
	default:
		return pdu->mdir->crc ? "unchecked" : "none";
	}
}

/* One FPDU as a text line: where it is, how long, its CRC, its DDP
 * header (tagged: STag and TO; untagged: QN, MSN, MO), its operation. */
static void fpdu_text(struct fpdus_out *w, const struct conn *c, const struct iws_pdu *pdu)
{
	const struct iws_fpdu *f = pdu->fpdu;
	const struct iws_msg *m = pdu->msg;
	if (!w->header) {
		fprintf(w->f, "%5s %-3s %10s %6s %11s %10s %6s %3s %-12s %s\n", "QP", "dir", "seq", "len",
			"first_frame", "frame", "ulpdu", "pad", "crc", "ddp");
		w->header = true;
	}
	fprintf(w->f, "%5u %-3s %10" PRIu32 " %6u %11" PRIu64 " %10" PRIu64 " %6u %3u %-12s ", c->stream,
		conn_dir_name(pdu->dir), (uint32_t)f->seq, (unsigned)f->wire_len, pdu->first_frame, pdu->frame,
		(unsigned)f->ulpdu_len, (unsigned)f->pad, crc_name(pdu));
	if (!m)
		fprintf(w->f, "undecodable (%s)", pdu->why ? pdu->why : "?");
	else if (m->ddp.tagged)
		fprintf(w->f, "tagged opcode %u%s stag 0x%08x to %" PRIu64, (unsigned)m->ddp.opcode,
			m->ddp.last ? " last" : "", (unsigned)m->ddp.stag, (uint64_t)m->ddp.to);
	else
		fprintf(w->f, "untagged opcode %u%s qn %u msn %u mo %u", (unsigned)m->ddp.opcode,
			m->ddp.last ? " last" : "", (unsigned)m->ddp.qn, (unsigned)m->ddp.msn, (unsigned)m->ddp.mo);
	if (m && pdu->note->op_id)
		fprintf(w->f, " op %" PRIu64, (uint64_t)pdu->note->op_id);
	if (m && pdu->note->rtr)
		fputs(" rtr", w->f);
	if (pdu->truncated)
		fputs(" truncated", w->f);
	if (f->marker_errors)
		fprintf(w->f, " marker_errors %u", (unsigned)f->marker_errors);
	fputc('\n', w->f);
}

void fpdus_out_write(struct fpdus_out *w, const struct conn *c, const struct iws_pdu *pdu)
{
	if (w->text) {
		fpdu_text(w, c, pdu);
		return;
	}
	struct jsonw *j = &w->j;
	const struct iws_fpdu *f = pdu->fpdu;
	const struct iws_msg *m = pdu->msg;
	const struct iws_seg_note *note = pdu->note;
	jw_obj(j);
	jw_ku64(j, "qp", c->stream);
	jw_kstr(j, "dir", conn_dir_name(pdu->dir));
	jw_ku64(j, "seq", f->seq);
	jw_ku64(j, "wire_len", f->wire_len);
	jw_ku64(j, "first_frame", pdu->first_frame);
	jw_ku64(j, "frame", pdu->frame);
	jw_ku64(j, "ulpdu_len", f->ulpdu_len);
	jw_ku64(j, "pad", f->pad);
	jw_key(j, "markers");
	jw_arr(j);
	for (uint32_t i = 0; i < f->n_markers; i++) {
		jw_obj(j);
		jw_ku64(j, "seq", (uint32_t)(f->seq + f->markers[i].off));
		jw_ku64(j, "fpduptr", f->markers[i].fpduptr);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_kstr(j, "crc", crc_name(pdu));
	if (m) {
		bool t = m->ddp.tagged;
		jw_kbool(j, "tagged", t);
		jw_kbool(j, "last", m->ddp.last);
		jw_ku64(j, "opcode", m->ddp.opcode);
		jw_kou64(j, "stag", t, m->ddp.stag);
		jw_kou64(j, "to", t, m->ddp.to);
		jw_kou64(j, "qn", !t, m->ddp.qn);
		jw_kou64(j, "msn", !t, m->ddp.msn);
		jw_kou64(j, "mo", !t, m->ddp.mo);
		jw_kou64(j, "op_id", note->op_id != 0, note->op_id);
		if (note->rtr)
			jw_kbool(j, "rtr", true);
	} else {
		jw_kstr(j, "undecodable", pdu->why ? pdu->why : "?");
	}
	if (pdu->truncated)
		jw_kbool(j, "truncated", true);
	struct points_at at;
	points_at_frame(w->pts, pdu->arrived_frame, &at);
	if (at.known) {
		/* The segment that carried its last octet, at the other point. */
		jw_kstr(j, "point", at.point);
		jw_koi64(j, "other_ns", at.has_other, at.other_ns);
		jw_koi64(j, "oneway_ns", at.has_oneway, at.oneway_ns);
	}
	if (f->marker_errors)
		jw_ku64(j, "marker_errors", f->marker_errors);
	jw_obj_end(j);
	jw_flush_line(j, w->f);
}

void fpdus_out_end(struct fpdus_out *w)
{
	jw_free(&w->j);
}
