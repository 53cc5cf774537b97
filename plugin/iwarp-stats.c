// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats.c - the "iwarp" tap and its statistics: `tshark -z iwarp,ops`
 * (per QP and operation type: count, bytes, response time min/mean/p50/p90/
 * p99/p99.9/max in milliseconds with 3 decimals, as Wireshark's service
 * response time tables), `tshark -z iwarp,nvme` (NVMe-oF commands per QP,
 * queue and type: count, errors, bytes, IOPS, latency and data-transfer
 * time, from core/nvme_stats.c as the CLI's `stats` nvme section), their
 * machine-readable forms `-z iwarp,ops,raw` and `-z iwarp,nvme,raw` (the same
 * tables, times in integer nanoseconds: exact, what the tests compare with the
 * CLI), and the GUI tables under Statistics > Service Response Time: iWARP
 * Operation Latency, iWARP Throughput and Loss, iWARP Delivery to ACK, iWARP
 * NVMe-oF Command Latency, iWARP NVMe-oF Throughput and Errors.
 *
 * The tap carries, per frame, the operations the core's stream engine
 * reported while that frame was fed; the text statistics also take the
 * operations still in flight at the end of the capture (reported when the
 * sequential pass ends, iws_stream_finish), so they count exactly what the
 * iwarpscope CLI counts. Numbers come from the core's iws_qp_stats_*
 * (core/stats.c), as in the CLI.
 */
#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/addr_resolv.h>

#include "iwarpscope/nvme.h"
#include "iwarpscope/stats.h"
#include "packet-iwarp.h"

int iwarp_tap = -1;

struct qp_stats {
	guint32 qp;
	struct iws_qp_stats st;     /* -z iwarp,ops */
	struct iws_nvme_stats nv;   /* -z iwarp,nvme */
	gint64 first_ns, last_ns;   /* earliest start and latest end of its operations */
	GArray *slots;              /* GUI tables: the table rows its rows are in (guint), in order */
};

typedef struct iwarp_ops_tapdata {
	GArray *qps;           /* struct qp_stats, sorted by qp */
	gboolean filtered;
	gboolean leftovers_added;
	gboolean raw;          /* -z iwarp,ops,raw: times in integer ns */
} iwarp_ops_tapdata;

/* The statistics of qp in qps (sorted by qp), added when new. */
static struct qp_stats *qp_get(GArray *qps, guint32 qp)
{
	guint lo = 0, hi = qps->len;
	while (lo < hi) {  /* binary search: 100,000 connections stay fast */
		guint mid = lo + (hi - lo) / 2;
		guint32 m = g_array_index(qps, struct qp_stats, mid).qp;
		if (m == qp)
			return &g_array_index(qps, struct qp_stats, mid);
		if (m < qp)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct qp_stats n;
	memset(&n, 0, sizeof(n));
	n.qp = qp;
	iws_qp_stats_init(&n.st);
	iws_nvme_stats_init(&n.nv);
	g_array_insert_val(qps, lo, n);
	return &g_array_index(qps, struct qp_stats, lo);
}

static void qp_stats_free(struct qp_stats *q)
{
	iws_qp_stats_free(&q->st);
	iws_nvme_stats_free(&q->nv);
	if (q->slots)
		g_array_free(q->slots, TRUE);
	q->slots = NULL;
}

static void qps_clear(GArray *qps)
{
	for (guint i = 0; i < qps->len; i++)
		qp_stats_free(&g_array_index(qps, struct qp_stats, i));
	g_array_set_size(qps, 0);
}

static void add_ops_to(struct qp_stats *q, wmem_array_t *ops)
{
	guint n = ops ? wmem_array_get_count(ops) : 0;
	struct iws_op opv;
	const struct iws_op *op = &opv;
	for (guint i = 0; i < n; i++) {
		iwarp_op_of_link(*(iwarp_op_link **)wmem_array_index(ops, i), &opv);
		iws_qp_stats_add(&q->st, op);
		if (op->rtr && !q->st.include_rtr)
			continue;
		if (op->start_ns && (!q->first_ns || op->start_ns < q->first_ns))
			q->first_ns = op->start_ns;
		if (op->end_ns > q->last_ns)
			q->last_ns = op->end_ns;
	}
}

static void add_ops(GArray *qps, guint32 qp, wmem_array_t *ops)
{
	if (ops)
		add_ops_to(qp_get(qps, qp), ops);
}

/* ---- tshark -z iwarp,ops[,filter] ---- */

static void ops_reset(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	qps_clear(td->qps);
	td->leftovers_added = FALSE;
}

static tap_packet_status ops_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				    tap_flags_t flags)
{
	(void)pinfo;
	(void)edt;
	(void)flags;
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	const iwarp_frame_rec *fr = (const iwarp_frame_rec *)data;
	if (!fr->ic)
		return TAP_PACKET_DONT_REDRAW;  /* the capture's end: draw adds what was left */
	add_ops(td->qps, fr->ic->qp, fr->ops);
	return TAP_PACKET_REDRAW;
}

/* The connections by QP, made once for a drawing: looking each QP up in the
 * list would make 100,000 connections quadratic (the list is in the order
 * connections were found to be iWARP, not by QP). */
static GHashTable *convs_by_qp(void)
{
	GHashTable *h = g_hash_table_new(g_direct_hash, g_direct_equal);
	wmem_list_t *l = iwarp_conversations();
	for (wmem_list_frame_t *f = l ? wmem_list_head(l) : NULL; f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		g_hash_table_insert(h, GUINT_TO_POINTER(ic->qp), ic);
	}
	return h;
}

/* NVMe commands reported (iwarp_nvme_link *), into their QP's statistics. */
static void add_nvme(GArray *qps, wmem_array_t *links)
{
	guint n = links ? wmem_array_get_count(links) : 0;
	for (guint i = 0; i < n; i++) {
		const iwarp_nvme_link *l = *(iwarp_nvme_link **)wmem_array_index(links, i);
		struct iws_nvme_cmd c;
		iwarp_nvme_link_cmd(l, &c);
		iws_nvme_stats_add(&qp_get(qps, l->qp)->nv, &c);
	}
}

/* A time as the tables show it: milliseconds with 3 decimals (rounded to
 * the microsecond, half away from zero), or exact integer nanoseconds for
 * the raw forms. */
static char *fmt_time(char *buf, size_t n, gint64 v, gboolean raw)
{
	if (raw) {
		snprintf(buf, n, "%" PRId64, v);
		return buf;
	}
	guint64 a = v < 0 ? (guint64)(-(v + 1)) + 1 : (guint64)v;
	guint64 us = (a + 500) / 1000;
	snprintf(buf, n, "%s%" PRIu64 ".%03u", v < 0 && us ? "-" : "", us / 1000, (unsigned)(us % 1000));
	return buf;
}

static void print_time(gint64 v, int width, gboolean raw)
{
	char buf[40];
	printf(" %*s", width, fmt_time(buf, sizeof(buf), v, raw));
}

/* The quantiles every text table shows, in column order. */
#define DIST_N 7
enum { DV_MIN, DV_MEAN, DV_P50, DV_P90, DV_P99, DV_P999, DV_MAX };
static const char *const dist_names[DIST_N] = { "Min", "Mean", "P50", "P90", "P99", "P99.9", "Max" };

/* Value k (DV_*) of a distribution that has samples. */
static gint64 dist_value(const struct iws_latency *lc, int k)
{
	static const double q[DIST_N] = { 0, 0, 0.5, 0.9, 0.99, 0.999, 0 };
	struct iws_latency *l = (struct iws_latency *)lc;  /* a quantile may sort the samples */
	switch (k) {
	case DV_MIN:
		return l->min;
	case DV_MEAN:
		return iws_latency_mean(l);
	case DV_MAX:
		return l->max;
	default:
		return iws_latency_quantile(l, q[k]);
	}
}

static void dist_values(const struct iws_latency *l, gint64 v[DIST_N])
{
	for (int k = 0; k < DIST_N; k++)
		v[k] = dist_value(l, k);
}

static void print_dist(const struct iws_latency *l, int width, gboolean raw)
{
	if (!l->count) {
		for (int k = 0; k < DIST_N; k++)
			printf(" %*s", width, "-");
		return;
	}
	gint64 v[DIST_N];
	dist_values(l, v);
	for (int k = 0; k < DIST_N; k++)
		print_time(v[k], width, raw);
}

/* The column headers of a distribution: "P99(ms)", "P99.9(ns)"... (the
 * first column's header says which time it is). */
static void print_dist_header(int width, gboolean raw)
{
	char h[32];
	for (int k = 0; k < DIST_N; k++) {
		snprintf(h, sizeof(h), "%s(%s)", dist_names[k], raw ? "ns" : "ms");
		printf(" %*s", width, h);
	}
}

#define TIME_W 10       /* "123456.789" ms: 34 hours */
#define TIME_W_RAW 14   /* ns */

/* Every connection's operations (or NVMe commands) still in flight at the
 * end into qps (and total, when not NULL). */
static void add_leftovers_to(GArray *qps, struct qp_stats *total, gboolean nvme)
{
	wmem_list_t *l = iwarp_conversations();
	for (wmem_list_frame_t *f = l ? wmem_list_head(l) : NULL; f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		if (nvme) {
			add_nvme(qps, ic->nvme_leftover);
		} else if (wmem_array_get_count(ic->leftover)) {
			add_ops(qps, ic->qp, ic->leftover);
			if (total)
				add_ops_to(total, ic->leftover);
		}
	}
}

/* Operations and commands still in flight when the capture ended: reported
 * when the sequential pass is over (postseq). tshark's single pass has no
 * such hook before it draws a text tap, which it does once, at the very
 * end: then the pass is over now. (The GUI never draws these taps; its table
 * only takes what was reported.) */
static void add_leftovers(iwarp_ops_tapdata *td, gboolean nvme)
{
	if (td->leftovers_added || td->filtered)
		return;
	iwarp_sequential_pass_over();
	add_leftovers_to(td->qps, NULL, nvme);
	td->leftovers_added = TRUE;
}

/* "QP n: initiator -> responder" (the connection, when still known). */
static const iwarp_conv *print_qp(GHashTable *convs, guint32 qp)
{
	const iwarp_conv *ic = (const iwarp_conv *)g_hash_table_lookup(convs, GUINT_TO_POINTER(qp));
	printf("\nQP %u", qp);
	if (ic) {
		char *a = iwarp_endpoint_str(NULL, ic, IWS_DIR_I2R);
		char *b = iwarp_endpoint_str(NULL, ic, IWS_DIR_R2I);
		printf(": %s -> %s", a, b);
		wmem_free(NULL, a);
		wmem_free(NULL, b);
	}
	return ic;
}

/* Per operation type: the loss attribution and the delivery time (start to
 * the peer's TCP ACK of the last octet) of the CLI's `stats` (delivery_ns). */
static void print_delivery(const struct iws_qp_stats *st, gboolean raw)
{
	int tw = raw ? TIME_W_RAW : TIME_W;
	printf("  %-18s %7s %*s %7s", "Delivery to ACK", "Retrans", tw, raw ? "Stall(ns)" : "Stall(ms)", "Acked");
	print_dist_header(tw, raw);
	printf("\n");
	for (int t = 0; t < IWS_OPT_COUNT; t++) {
		const struct iws_op_stats *o = &st->op[t];
		if (!o->count)
			continue;
		printf("  %-18s %7" PRIu64, iws_op_type_name((enum iws_op_type)t), o->retransmissions);
		print_time(o->stall_ns, tw, raw);
		printf(" %7" PRIu64, o->delivery.count);
		print_dist(&o->delivery, tw, raw);
		printf("\n");
	}
}

/* The connection's TCP events and its FIN/RST with what they left
 * outstanding (the CLI's `tcp` and `teardown`). */
static void print_tcp(const iwarp_conv *ic)
{
	guint64 fr = 0, to = 0, da = 0, zw = 0;
	for (int side = 0; ic->eng && side < 2; side++) {
		const struct iws_stream_counts *k = iws_stream_counts(ic->eng, side);
		fr += k->fast_retransmits;
		to += k->timeouts;
		da += k->duplicate_acks;
		zw += k->zero_windows;
	}
	printf("  TCP: fast retransmits %" PRIu64 ", timeouts %" PRIu64 ", duplicate ACKs %" PRIu64
	       ", zero windows %" PRIu64 "\n", fr, to, da, zw);
	guint n = ic->closes ? wmem_array_get_count(ic->closes) : 0;
	for (guint i = 0; i < n; i++) {
		const iwarp_close_rec *c = (const iwarp_close_rec *)wmem_array_index(ic->closes, i);
		char *who = iwarp_endpoint_str(NULL, ic, c->dir);
		GString *ids = g_string_new(NULL);
		for (guint32 k = 0; k < c->n_ids; k++)
			g_string_append_printf(ids, "%s%" PRIu64, k ? "," : "", c->ids[k]);
		/* always 10 words: the ids are one ("-" for none) */
		printf("  Teardown: %s from %s frame %u outstanding %u ids %s\n", c->kind == IWS_SEV_RST ? "RST" : "FIN",
		       who, c->frame, c->outstanding, ids->len ? ids->str : "-");
		g_string_free(ids, TRUE);
		wmem_free(NULL, who);
	}
}

static void print_rule(gboolean raw)
{
	int n = raw ? 180 : 140;
	for (int i = 0; i < n; i++)
		putchar('=');
	putchar('\n');
}

static void ops_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	gboolean raw = td->raw;
	int tw = raw ? TIME_W_RAW : TIME_W;
	add_leftovers(td, FALSE);
	GHashTable *convs = convs_by_qp();

	print_rule(raw);
	printf("iWARP operations (iwarpscope %s)\n", IWS_VERSION_STRING);
	printf("Latency: request frame to last response frame of complete reads and atomics, in %s\n",
	       raw ? "nanoseconds" : "milliseconds");
	printf("Delivery: retransmitted segments, time waiting in TCP reassembly (summed) and the time from the start to "
	       "the peer's TCP ACK of the last octet (Ack) of complete operations\n");
	for (guint i = 0; i < td->qps->len; i++) {
		struct qp_stats *q = &g_array_index(td->qps, struct qp_stats, i);
		const iwarp_conv *ic = print_qp(convs, q->qp);
		if (ic) {
			const struct iws_mpa_conn *m = iwarp_conv_mpa(ic);
			if (m->state == IWS_MPA_ST_FULL || m->state == IWS_MPA_ST_REJECTED)
				printf(", MPA rev %u", m->rev);
			else
				printf(", no handshake");
			printf(", CRC %s, markers i2r %s r2i %s", m->crc ? "on" : "off",
			       m->dir[IWS_DIR_I2R].markers ? "on" : "off",
			       m->dir[IWS_DIR_R2I].markers ? "on" : "off");
			if (m->has_ird_ord)
				printf(", IRD/ORD %u/%u (initiator) %u/%u (responder)", m->ird[IWS_DIR_I2R],
				       m->ord[IWS_DIR_I2R], m->ird[IWS_DIR_R2I], m->ord[IWS_DIR_R2I]);
		}
		printf("\n");
		printf("  %-18s %7s %8s %14s %8s %6s", "Operation", "Count", "Complete", "Bytes", "Segments", "CRCerr");
		print_dist_header(tw, raw);
		printf("\n");
		for (int t = 0; t < IWS_OPT_COUNT; t++) {
			struct iws_op_stats *o = &q->st.op[t];
			if (!o->count)
				continue;
			printf("  %-18s %7" PRIu64 " %8" PRIu64 " %14" PRIu64 " %8" PRIu64 " %6" PRIu64,
			       iws_op_type_name((enum iws_op_type)t), o->count, o->complete, o->bytes, o->segments,
			       o->crc_errors);
			print_dist(&o->latency, tw, raw);
			printf("\n");
		}
		print_delivery(&q->st, raw);
		if (ic)
			print_tcp(ic);
	}
	g_hash_table_destroy(convs);
	print_rule(raw);
}

static void ops_finish(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	qps_clear(td->qps);
	g_array_free(td->qps, TRUE);
	g_free(td);
}

/* A text tap on "iwarp" for -z NAME[,FILTER]. */
static void text_tap_init(const char *opt_arg, const char *name, gboolean raw, tap_packet_cb packet,
			  tap_draw_cb draw)
{
	const char *filter = NULL;
	size_t n = strlen(name);
	if (opt_arg && strncmp(opt_arg, name, n) == 0 && opt_arg[n] == ',')
		filter = opt_arg + n + 1;
	iwarp_ops_tapdata *td = g_new0(iwarp_ops_tapdata, 1);
	td->qps = g_array_new(FALSE, FALSE, sizeof(struct qp_stats));
	td->filtered = filter && *filter;
	td->raw = raw;
	GString *err = register_tap_listener("iwarp", td, filter, TL_REQUIRES_NOTHING, ops_reset, packet, draw,
					     ops_finish);
	if (err) {
		fprintf(stderr, "tshark: couldn't register %s tap: %s\n", name, err->str);
		g_string_free(err, TRUE);
		ops_finish(td);
		exit(1);
	}
}

/* A text statistic: its -z name, raw or readable, and its callbacks (the
 * userdata its stat_tap_ui is registered with). */
struct text_stat {
	const char *name;
	gboolean raw;
	tap_packet_cb packet;
	tap_draw_cb draw;
};

static void text_stat_init(const char *opt_arg, void *userdata)
{
	const struct text_stat *t = (const struct text_stat *)userdata;
	text_tap_init(opt_arg, t->name, t->raw, t->packet, t->draw);
}

static const struct text_stat ops_text = { "iwarp,ops", FALSE, ops_packet, ops_draw };
static const struct text_stat ops_raw_text = { "iwarp,ops,raw", TRUE, ops_packet, ops_draw };

static stat_tap_ui iwarp_ops_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,ops", text_stat_init, 0, NULL
};

/* tshark matches the longest registered name first: "iwarp,ops,raw" is
 * not taken for "iwarp,ops" with the filter "raw". */
static stat_tap_ui iwarp_ops_raw_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,ops,raw", text_stat_init, 0, NULL
};

/* ---- tshark -z iwarp,nvme[,filter]: NVMe-oF commands per QP, queue and type ---- */

static tap_packet_status nvme_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				     tap_flags_t flags)
{
	(void)pinfo;
	(void)edt;
	(void)flags;
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	const iwarp_frame_rec *fr = (const iwarp_frame_rec *)data;
	if (!fr->nvme)
		return TAP_PACKET_DONT_REDRAW;
	add_nvme(td->qps, fr->nvme);
	return TAP_PACKET_REDRAW;
}

static void print_iops(const struct iws_nvme_op_stats *o)
{
	if (iws_nvme_op_has_iops(o))
		printf(" %7" PRIu64, iws_nvme_op_iops(o));
	else
		printf(" %7s", "-");
}

static void nvme_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	gboolean raw = td->raw;
	int tw = raw ? TIME_W_RAW : TIME_W;
	add_leftovers(td, TRUE);
	GHashTable *convs = convs_by_qp();
	print_rule(raw);
	printf("NVMe over Fabrics commands (iwarpscope %s)\n", IWS_VERSION_STRING);
	printf("Latency: command capsule to completion; Data: first to last RDMA data message; complete commands, in %s\n",
	       raw ? "nanoseconds" : "milliseconds");
	printf("IOPS: complete commands per second from the first one's start to the last one's end, over %d or more\n",
	       IWS_NVME_IOPS_MIN);
	for (guint i = 0; i < td->qps->len; i++) {
		struct qp_stats *q = &g_array_index(td->qps, struct qp_stats, i);
		if (!q->nv.n)
			continue;
		print_qp(convs, q->qp);
		/* the raw form on one line per command; the readable one in two
		 * tables (latency, then the data phase) of readable width */
		printf("\n  %-4s %-20s %7s %8s %6s %12s %7s", "Qid", "Command", "Count", "Complete", "Errors", "Bytes", "IOPS");
		print_dist_header(tw, raw);
		if (raw)
			print_dist_header(tw, raw);
		printf("\n");
		for (int pass = 0; pass < (raw ? 1 : 2); pass++) {
			if (pass == 1) {
				printf("  %-4s %-20s %7s %8s %6s %12s %7s", "Qid", "Data phase of", "", "", "", "", "");
				print_dist_header(tw, raw);
				printf("\n");
			}
			for (guint k = 0; k < q->nv.n; k++) {
				const struct iws_nvme_op_stats *o = &q->nv.e[k];
				char qid[16] = "-";
				if (o->qid >= 0)
					snprintf(qid, sizeof(qid), "%d", o->qid);
				if (pass == 1) {
					if (!o->data.count)
						continue;
					printf("  %-4s %-20s %7s %8s %6s %12s %7s", qid, o->op, "", "", "", "", "");
					print_dist(&o->data, tw, raw);
					printf("\n");
					continue;
				}
				printf("  %-4s %-20s %7" PRIu64 " %8" PRIu64 " %6" PRIu64 " %12" PRIu64, qid, o->op, o->count,
				       o->complete, o->errors, o->bytes);
				print_iops(o);
				print_dist(&o->latency, tw, raw);
				if (raw)
					print_dist(&o->data, tw, raw);
				printf("\n");
			}
		}
	}
	g_hash_table_destroy(convs);
	print_rule(raw);
}

static const struct text_stat nvme_text = { "iwarp,nvme", FALSE, nvme_packet, nvme_draw };
static const struct text_stat nvme_raw_text = { "iwarp,nvme,raw", TRUE, nvme_packet, nvme_draw };

static stat_tap_ui iwarp_nvme_raw_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,nvme,raw", text_stat_init, 0, NULL
};

static stat_tap_ui iwarp_nvme_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,nvme", text_stat_init, 0, NULL
};

/* ---- GUI: Statistics > Service Response Time > iWARP ... ----
 *
 * Five tables of one question each, for Wireshark's statistics dialog (and
 * `tshark -z iwarp,ops_latency` ...): operation latency; throughput and loss;
 * delivery to ACK (the two tables per QP of `-z iwarp,ops`); NVMe-oF command
 * latency; NVMe-oF throughput and errors.
 *
 * Wireshark 4.0 opens such a dialog (SimpleStatisticsDialog) at two thirds
 * of its main window, 587 x 459 at the default 880 x 688, sizes every column
 * but the last to its contents and stretches the last one over what is left;
 * a table has no way to ask for a size (stat_tap_table_ui has no such
 * field). So each table has few, narrow columns whose headers carry the unit
 * ("p99 ms"), and tests/plugin/gui.py checks that nothing is cut at that size.
 *
 * Every cell is text: numbers right-aligned and padded on the left to the
 * widest of their column, so that sorting a column (the dialog compares the
 * text of string cells) sorts the numbers, and "Copy" pastes what is shown
 * (a float cell pastes six decimals, an empty cell shifts the columns of a
 * pasted row). Times are milliseconds with 3 decimals as in every table; "-"
 * where a row has no such number (no latency for a Write, no ACK seen, IOPS
 * under 10 commands: docs/semantics.md). The numbers are those of
 * `-z iwarp,ops` and `-z iwarp,nvme`, from the same core statistics.
 *
 * Operations tables: per QP a row per operation type then its "all" row, then
 * the whole capture (QP "all") per type and "all". NVMe-oF tables: a row per
 * QP, queue and command type. Rows are appended as QPs and types appear (a
 * capture of 100,000 connections stays linear); each QP keeps the table rows
 * it was given (slots) and rewrites its rows into them in order, so the
 * dialog, which sorts by the first column with a stable sort, shows each QP's
 * rows in order. At the capture's end the rows are given out again in
 * order (tshark prints the table as it is: in order with -2, in the order
 * they appeared in one pass). */

#define GUI_MAX_COLS 12

struct gui_row;
typedef void (*gui_cells_cb)(char **cell, const struct gui_row *r);

/* A GUI table: its registration (first, so that the callbacks' stat_tap_table_ui
 * is the gui_table) and the statistics it accumulates (its own: two tables
 * tapping together never count twice). */
struct gui_table {
	stat_tap_table_ui ui;
	const char *table_name;
	gboolean nvme;
	guint key_cols;            /* QP, name (and Qid): filled here; the rest by cells */
	gui_cells_cb cells;
	GArray *qps;               /* struct qp_stats, by qp */
	struct qp_stats total;     /* operations tables: every QP's operations */
	guint used;                /* table rows in use */
	guint width[GUI_MAX_COLS]; /* widest text of each column so far */
};

/* What one row shows, besides its keys. */
struct gui_row {
	const struct iws_op_stats *op;        /* operations tables */
	gint64 span_ns;                       /* ... the QP's (or capture's) first start to last end */
	guint64 acked;                        /* ... operations with a delivery (ACK) time */
	const struct iws_nvme_op_stats *cmd;  /* NVMe-oF tables */
};

/* The text of a cell emptied while another dialog may still read it. */
static const char gui_blank[] = "";

static void cell_free(stat_tap_table_item_type *c)
{
	if (c && c->type == TABLE_ITEM_STRING && c->value.string_value != gui_blank)
		g_free((char *)c->value.string_value);
	if (c)
		c->value.string_value = gui_blank;
}

static char *text_u64(guint64 v)
{
	return g_strdup_printf("%" PRIu64, v);
}

static char *text_ms(gint64 ns)
{
	char buf[40];
	return g_strdup(fmt_time(buf, sizeof(buf), ns, FALSE));
}

/* The times of l at the given DV_* indexes (only those: a quantile costs),
 * or "-" without any. */
static void cells_dist(char **cell, const struct iws_latency *l, const int *which, int n)
{
	for (int k = 0; k < n; k++)
		cell[k] = l->count ? text_ms(dist_value(l, which[k])) : g_strdup("-");
}

static const int gui_lat_quantiles[] = { DV_MIN, DV_P50, DV_P99, DV_MAX };
static const int gui_p50_p99[] = { DV_P50, DV_P99 };

/* A latency table's cells: Count, Complete, Min, p50, p99, Max. */
static void cells_latency(char **cell, guint64 count, guint64 complete, const struct iws_latency *l)
{
	cell[0] = text_u64(count);
	cell[1] = text_u64(complete);
	cells_dist(cell + 2, l, gui_lat_quantiles, G_N_ELEMENTS(gui_lat_quantiles));
}

static void ops_latency_cells(char **cell, const struct gui_row *r)
{
	cells_latency(cell, r->op->count, r->op->complete, &r->op->latency);
}

/* Throughput and loss: Bytes, kbit/s (over the QP's span), Retrans, Stall,
 * CRC errors. */
static void ops_throughput_cells(char **cell, const struct gui_row *r)
{
	cell[0] = text_u64(r->op->bytes);
	cell[1] = r->span_ns > 0 ? text_u64((guint64)((double)r->op->bytes * 8e6 / (double)r->span_ns)) : g_strdup("-");
	cell[2] = text_u64(r->op->retransmissions);
	cell[3] = text_ms(r->op->stall_ns);
	cell[4] = text_u64(r->op->crc_errors);
}

/* Delivery to ACK (start to the peer's TCP ACK of the last octet): Acked,
 * Min, p50, p99, Max. */
static void ops_delivery_cells(char **cell, const struct gui_row *r)
{
	cell[0] = text_u64(r->acked);
	cells_dist(cell + 1, &r->op->delivery, gui_lat_quantiles, G_N_ELEMENTS(gui_lat_quantiles));
}

static void nvme_latency_cells(char **cell, const struct gui_row *r)
{
	cells_latency(cell, r->cmd->count, r->cmd->complete, &r->cmd->latency);
}

/* NVMe-oF throughput and errors: Errors, Bytes, IOPS, data-transfer p50, p99. */
static void nvme_throughput_cells(char **cell, const struct gui_row *r)
{
	cell[0] = text_u64(r->cmd->errors);
	cell[1] = text_u64(r->cmd->bytes);
	cell[2] = iws_nvme_op_has_iops(r->cmd) ? text_u64(iws_nvme_op_iops(r->cmd)) : g_strdup("-");
	cells_dist(cell + 3, &r->cmd->data, gui_p50_p99, G_N_ELEMENTS(gui_p50_p99));
}

/* Column c of every row in use padded again to width w (it grew). */
static void gui_repad(stat_tap_table *t, guint c, guint w)
{
	for (guint row = 0; row < t->num_elements; row++) {
		stat_tap_table_item_type *f = stat_tap_get_field_data(t, row, c);
		const char *s = f->value.string_value ? f->value.string_value : gui_blank;
		while (*s == ' ')
			s++;
		char *n = g_strdup_printf("%*s", (int)w, s);
		cell_free(f);
		f->value.string_value = n;
	}
}

/* Row `row` of t becomes the texts cell[] (taken), right-aligned columns
 * padded to their column's widest text. */
static void gui_put_row(struct gui_table *g, stat_tap_table *t, guint row, char **cell)
{
	stat_tap_table_item_type it[GUI_MAX_COLS];
	guint n = (guint)g->ui.nfields;
	memset(it, 0, sizeof(it));
	for (guint c = 0; c < n; c++) {
		it[c].type = TABLE_ITEM_STRING;
		if (g->ui.fields[c].align != TAP_ALIGN_RIGHT) {
			it[c].value.string_value = cell[c];
			continue;
		}
		guint len = (guint)strlen(cell[c]);
		if (len > g->width[c]) {
			g->width[c] = len;
			gui_repad(t, c, len);
		}
		it[c].value.string_value = g_strdup_printf("%*s", (int)g->width[c], cell[c]);
		g_free(cell[c]);
	}
	if (row < t->num_elements) {
		for (guint c = 0; c < n; c++) {
			cell_free(stat_tap_get_field_data(t, row, c));
			stat_tap_set_field_data(t, row, c, &it[c]);
		}
	} else {
		stat_tap_init_table_row(t, row, n, it);
	}
}

/* The rows of q (the whole capture when qp_label is "all") into its slots,
 * in order; a new row gets the next table row. */
static void gui_put_block(struct gui_table *g, stat_tap_table *t, struct qp_stats *q, const char *qp_label)
{
	struct gui_row rows[IWS_OPT_COUNT + 1];
	const char *names[IWS_OPT_COUNT + 1];
	struct iws_op_stats all;
	guint64 acked = 0;
	guint n = 0;
	if (!g->nvme) {
		memset(&all, 0, sizeof(all));  /* "all": sums, no distribution (count 0) */
		for (int k = 0; k < IWS_OPT_COUNT; k++) {
			const struct iws_op_stats *o = &q->st.op[k];
			if (!o->count)
				continue;
			all.count += o->count;
			all.complete += o->complete;
			all.bytes += o->bytes;
			all.retransmissions += o->retransmissions;
			all.stall_ns += o->stall_ns;
			all.crc_errors += o->crc_errors;
			rows[n].op = o;
			rows[n].acked = o->delivery.count;
			acked += o->delivery.count;
			names[n++] = iws_op_type_name((enum iws_op_type)k);
		}
		if (!n)
			return;
		rows[n].op = &all;
		rows[n].acked = acked;
		names[n++] = "all";
		for (guint i = 0; i < n; i++)
			rows[i].span_ns = q->last_ns - q->first_ns;
	}
	guint nrows = g->nvme ? q->nv.n : n;
	if (!q->slots)
		q->slots = g_array_new(FALSE, FALSE, sizeof(guint));
	while (q->slots->len < nrows) {
		guint row = g->used++;
		g_array_append_val(q->slots, row);
	}
	for (guint i = 0; i < nrows; i++) {
		char *cell[GUI_MAX_COLS];
		struct gui_row r;
		memset(&r, 0, sizeof(r));
		cell[0] = g_strdup(qp_label);
		if (g->nvme) {
			r.cmd = &q->nv.e[i];
			cell[1] = r.cmd->qid >= 0 ? text_u64((guint64)r.cmd->qid) : g_strdup("-");
			cell[2] = g_strdup(r.cmd->op);
		} else {
			r = rows[i];
			cell[1] = g_strdup(names[i]);
		}
		g->cells(cell + g->key_cols, &r);
		gui_put_row(g, t, g_array_index(q->slots, guint, i), cell);
	}
}

static void gui_put_qp(struct gui_table *g, stat_tap_table *t, struct qp_stats *q)
{
	char label[16];
	snprintf(label, sizeof(label), "%u", q->qp);
	gui_put_block(g, t, q, label);
}

/* Every QP's rows, then the whole capture's. */
static void gui_put_all(struct gui_table *g, stat_tap_table *t)
{
	for (guint i = 0; i < g->qps->len; i++)
		gui_put_qp(g, t, &g_array_index(g->qps, struct qp_stats, i));
	if (!g->nvme)
		gui_put_block(g, t, &g->total, "all");
}

static void gui_clear_stats(struct gui_table *g)
{
	if (g->qps)
		qps_clear(g->qps);
	else
		g->qps = g_array_new(FALSE, FALSE, sizeof(struct qp_stats));
	qp_stats_free(&g->total);
	memset(&g->total, 0, sizeof(g->total));
	iws_qp_stats_init(&g->total.st);
	iws_nvme_stats_init(&g->total.nv);
	g->used = 0;
	memset(g->width, 0, sizeof(g->width));
}

/* Called when the dialog is (re)filled: one table, made once (a second
 * stat_tap_add_table would show as a second, empty table). */
static void gui_init(stat_tap_table_ui *ui)
{
	struct gui_table *g = (struct gui_table *)ui;
	if (!stat_tap_find_table(ui, g->table_name))
		stat_tap_add_table(ui, stat_tap_init_table(g->table_name, (int)ui->nfields, 0, "iwarp.rdmap.qp == %d"));
	if (!g->qps) {
		g->qps = g_array_new(FALSE, FALSE, sizeof(struct qp_stats));
		iws_qp_stats_init(&g->total.st);
		iws_nvme_stats_init(&g->total.nv);
	}
}

static tap_packet_status gui_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				    tap_flags_t flags)
{
	(void)pinfo;
	(void)edt;
	(void)flags;
	stat_data_t *sd = (stat_data_t *)p;
	struct gui_table *g = (struct gui_table *)sd->stat_tap_data;
	const iwarp_frame_rec *fr = (const iwarp_frame_rec *)data;
	if (!g->qps || !g->ui.tables || !g->ui.tables->len)
		return TAP_PACKET_DONT_REDRAW;
	stat_tap_table *t = g_array_index(g->ui.tables, stat_tap_table *, 0);
	if (!fr->ic) {
		/* the capture's end: what was still in flight (reported once the
		 * sequential pass was over), then every row once, the table's rows
		 * given out again in order (tshark prints them in table order) */
		add_leftovers_to(g->qps, g->nvme ? NULL : &g->total, g->nvme);
		for (guint i = 0; i < g->qps->len; i++) {
			struct qp_stats *q = &g_array_index(g->qps, struct qp_stats, i);
			if (q->slots)
				g_array_set_size(q->slots, 0);
		}
		if (g->total.slots)
			g_array_set_size(g->total.slots, 0);
		g->used = 0;
		gui_put_all(g, t);
	} else if (g->nvme && fr->nvme) {
		guint n = wmem_array_get_count(fr->nvme);
		for (guint i = 0; i < n; i++) {
			const iwarp_nvme_link *l = *(iwarp_nvme_link **)wmem_array_index(fr->nvme, i);
			struct iws_nvme_cmd c;
			iwarp_nvme_link_cmd(l, &c);
			struct qp_stats *q = qp_get(g->qps, l->qp);
			iws_nvme_stats_add(&q->nv, &c);
			gui_put_qp(g, t, q);
		}
	} else if (!g->nvme && fr->ops) {
		struct qp_stats *q = qp_get(g->qps, fr->ic->qp);
		add_ops_to(q, fr->ops);
		add_ops_to(&g->total, fr->ops);
		gui_put_qp(g, t, q);
		gui_put_block(g, t, &g->total, "all");
	} else {
		return TAP_PACKET_DONT_REDRAW;
	}
	return TAP_PACKET_REDRAW;
}

static struct gui_table *gui_of_table(const stat_tap_table *t);

/* Before a retap. Rows are freed and the table emptied, so that a filter
 * that keeps fewer rows leaves none from before; but when another dialog of
 * the same table is open (its rows point into ours) the rows stay, emptied. */
static void gui_reset(stat_tap_table *t)
{
	struct gui_table *g = gui_of_table(t);
	if (!g)
		return;
	gui_clear_stats(g);
	for (guint row = 0; row < t->num_elements; row++) {
		for (guint c = 0; c < t->num_fields; c++)
			cell_free(stat_tap_get_field_data(t, row, c));
		if (g->ui.refcount <= 1)
			g_free(t->elements[row]);
	}
	if (g->ui.refcount <= 1)
		t->num_elements = 0;
}

static void gui_free_item(stat_tap_table *t, guint row, guint column, stat_tap_table_item_type *field)
{
	(void)t;
	(void)row;
	(void)column;
	cell_free(field);  /* every cell owns its text */
}

#define GUI_COL(name) { TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, name, "%s" }
#define GUI_NAME_COL(name) { TABLE_ITEM_STRING, TAP_ALIGN_LEFT, name, "%s" }

static stat_tap_table_item ops_latency_cols[] = {
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Count"), GUI_COL("Complete"), GUI_COL("Min ms"),
	GUI_COL("p50 ms"), GUI_COL("p99 ms"), GUI_COL("Max ms"),
};

static stat_tap_table_item ops_throughput_cols[] = {
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Bytes"), GUI_COL("kbit/s"), GUI_COL("Retrans"),
	GUI_COL("Stall ms"), GUI_COL("CRC errors"),
};

static stat_tap_table_item ops_delivery_cols[] = {
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Acked"), GUI_COL("Min ms"), GUI_COL("p50 ms"),
	GUI_COL("p99 ms"), GUI_COL("Max ms"),
};

static stat_tap_table_item nvme_latency_cols[] = {
	GUI_COL("QP"), GUI_COL("Qid"), GUI_NAME_COL("Command"), GUI_COL("Count"), GUI_COL("Complete"),
	GUI_COL("Min ms"), GUI_COL("p50 ms"), GUI_COL("p99 ms"), GUI_COL("Max ms"),
};

static stat_tap_table_item nvme_throughput_cols[] = {
	GUI_COL("QP"), GUI_COL("Qid"), GUI_NAME_COL("Command"), GUI_COL("Errors"), GUI_COL("Bytes"),
	GUI_COL("IOPS"), GUI_COL("Data p50 ms"), GUI_COL("Data p99 ms"),
};

#define GUI_TABLE(title, cli, name, nvme, keys, cells, cols)                                                  \
	{ { REGISTER_STAT_GROUP_RESPONSE_TIME, title, "iwarp", cli, gui_init, gui_packet, gui_reset,          \
	    gui_free_item, NULL, G_N_ELEMENTS(cols), cols, 0, NULL, NULL, 0 },                                \
	  name, nvme, keys, cells, NULL, { 0 }, 0, { 0 } }

static struct gui_table gui_tables[] = {
	GUI_TABLE("iWARP Operation Latency", "iwarp,ops_latency", "iWARP operation latency", FALSE, 2,
		  ops_latency_cells, ops_latency_cols),
	GUI_TABLE("iWARP Throughput and Loss", "iwarp,ops_throughput", "iWARP throughput and loss", FALSE, 2,
		  ops_throughput_cells, ops_throughput_cols),
	GUI_TABLE("iWARP Delivery to ACK", "iwarp,ops_delivery", "iWARP delivery to ACK", FALSE, 2,
		  ops_delivery_cells, ops_delivery_cols),
	GUI_TABLE("iWARP NVMe-oF Command Latency", "iwarp,nvme_latency", "NVMe-oF command latency", TRUE, 3,
		  nvme_latency_cells, nvme_latency_cols),
	GUI_TABLE("iWARP NVMe-oF Throughput and Errors", "iwarp,nvme_throughput", "NVMe-oF throughput and errors",
		  TRUE, 3,
		  nvme_throughput_cells, nvme_throughput_cols),
};

static struct gui_table *gui_of_table(const stat_tap_table *t)
{
	for (guint i = 0; i < G_N_ELEMENTS(gui_tables); i++) {
		GArray *tables = gui_tables[i].ui.tables;
		for (guint k = 0; tables && k < tables->len; k++)
			if (g_array_index(tables, stat_tap_table *, k) == t)
				return &gui_tables[i];
	}
	return NULL;
}

void iwarp_stats_register(void)
{
	iwarp_tap = register_tap("iwarp");
	register_stat_tap_ui(&iwarp_ops_ui, (void *)&ops_text);
	register_stat_tap_ui(&iwarp_nvme_ui, (void *)&nvme_text);
	register_stat_tap_ui(&iwarp_ops_raw_ui, (void *)&ops_raw_text);
	register_stat_tap_ui(&iwarp_nvme_raw_ui, (void *)&nvme_raw_text);
	for (guint i = 0; i < G_N_ELEMENTS(gui_tables); i++) {
		g_assert(gui_tables[i].ui.nfields <= GUI_MAX_COLS);
		register_stat_tap_table_ui(&gui_tables[i].ui);
	}
}
