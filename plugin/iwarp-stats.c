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
 * CLI); the GUI tables of the same numbers are in iwarp-stats-gui.c.
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
#include "iwarpscope/rpcrdma.h"
#include "iwarpscope/smbd.h"
#include "iwarpscope/stats.h"
#include "iwarp-stats.h"
#include "packet-iwarp-doctor.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-rpc.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-stream.h"
#include "ws-compat.h"


typedef struct iwarp_ops_tapdata {
	GArray *qps;           /* struct iwarp_qp_stats, sorted by qp */
	gboolean filtered;
	gboolean leftovers_added;
	gboolean raw;          /* -z iwarp,ops,raw: times in integer ns */
} iwarp_ops_tapdata;

struct iwarp_qp_stats *iwarp_qp_stats_get(GArray *qps, guint32 qp)
{
	guint lo = 0, hi = qps->len;
	while (lo < hi) {  /* binary search: 100,000 connections stay fast */
		guint mid = lo + (hi - lo) / 2;
		guint32 m = g_array_index(qps, struct iwarp_qp_stats, mid).qp;
		if (m == qp)
			return &g_array_index(qps, struct iwarp_qp_stats, mid);
		if (m < qp)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct iwarp_qp_stats n;
	memset(&n, 0, sizeof(n));
	n.qp = qp;
	iws_qp_stats_init(&n.st);
	iws_nvme_stats_init(&n.nv);
	g_array_insert_val(qps, lo, n);
	return &g_array_index(qps, struct iwarp_qp_stats, lo);
}

void iwarp_qp_stats_free(struct iwarp_qp_stats *q)
{
	iws_qp_stats_free(&q->st);
	iws_nvme_stats_free(&q->nv);
	if (q->slots)
		g_array_free(q->slots, TRUE);
	q->slots = NULL;
}

void iwarp_qps_clear(GArray *qps)
{
	for (guint i = 0; i < qps->len; i++)
		iwarp_qp_stats_free(&g_array_index(qps, struct iwarp_qp_stats, i));
	g_array_set_size(qps, 0);
}

void iwarp_qp_stats_add_ops(struct iwarp_qp_stats *q, wmem_array_t *ops)
{
	guint n = ops ? wmem_array_get_count(ops) : 0;
	struct iws_op opv;
	const struct iws_op *op = &opv;
	for (guint i = 0; i < n; i++) {
		iws_op_of_brief(&(*(iwarp_op_link **)wmem_array_index(ops, i))->op, &opv);
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
		iwarp_qp_stats_add_ops(iwarp_qp_stats_get(qps, qp), ops);
}

/* ---- tshark -z iwarp,ops[,filter] ---- */

static void ops_reset(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	iwarp_qps_clear(td->qps);
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
		iws_nvme_cmd_of_brief(&l->cmd, &c);
		iws_nvme_stats_add(&iwarp_qp_stats_get(qps, l->cmd.qp)->nv, &c);
	}
}

/* A time as the tables show it: milliseconds with 3 decimals (rounded to
 * the microsecond, half away from zero), or exact integer nanoseconds for
 * the raw forms. */
char *iwarp_stats_fmt_time(char *buf, size_t n, gint64 v, gboolean raw)
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
	printf(" %*s", width, iwarp_stats_fmt_time(buf, sizeof(buf), v, raw));
}

/* The column names of the quantiles every text table shows. */
static const char *const dist_names[IWARP_DIST_N] = { "Min", "Mean", "P50", "P90", "P99", "P99.9", "Max" };

gint64 iwarp_stats_dist_value(const struct iws_latency *lc, int k)
{
	static const double q[IWARP_DIST_N] = { 0, 0, 0.5, 0.9, 0.99, 0.999, 0 };
	struct iws_latency *l = (struct iws_latency *)lc;  /* a quantile may sort the samples */
	switch (k) {
	case IWARP_DV_MIN:
		return l->min;
	case IWARP_DV_MEAN:
		return iws_latency_mean(l);
	case IWARP_DV_MAX:
		return l->max;
	default:
		return iws_latency_quantile(l, q[k]);
	}
}

static void dist_values(const struct iws_latency *l, gint64 v[IWARP_DIST_N])
{
	for (int k = 0; k < IWARP_DIST_N; k++)
		v[k] = iwarp_stats_dist_value(l, k);
}

static void print_dist(const struct iws_latency *l, int width, gboolean raw)
{
	if (!l->count) {
		for (int k = 0; k < IWARP_DIST_N; k++)
			printf(" %*s", width, "-");
		return;
	}
	gint64 v[IWARP_DIST_N];
	dist_values(l, v);
	for (int k = 0; k < IWARP_DIST_N; k++)
		print_time(v[k], width, raw);
}

/* The column headers of a distribution: "P99(ms)", "P99.9(ns)"... (the
 * first column's header says which time it is). */
static void print_dist_header(int width, gboolean raw)
{
	char h[32];
	for (int k = 0; k < IWARP_DIST_N; k++) {
		snprintf(h, sizeof(h), "%s(%s)", dist_names[k], raw ? "ns" : "ms");
		printf(" %*s", width, h);
	}
}

#define TIME_W 10       /* "123456.789" ms: 34 hours */
#define TIME_W_RAW 14   /* ns */

void iwarp_stats_add_leftovers(GArray *qps, struct iwarp_qp_stats *total, gboolean nvme)
{
	wmem_list_t *l = iwarp_conversations();
	for (wmem_list_frame_t *f = l ? wmem_list_head(l) : NULL; f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		if (nvme) {
			add_nvme(qps, ic->nvme_leftover);
		} else if (wmem_array_get_count(ic->leftover)) {
			add_ops(qps, ic->qp, ic->leftover);
			if (total)
				iwarp_qp_stats_add_ops(total, ic->leftover);
		}
	}
}

/* Operations and commands still in flight when the capture ended, reported
 * when the sequential pass was over: before any text statistic is drawn
 * (iwarp_end_pass_before_draws). (The GUI's tables take them from the
 * capture's end record: iwarp-stats-gui.c.) */
static void add_leftovers(iwarp_ops_tapdata *td, gboolean nvme)
{
	if (td->leftovers_added || td->filtered)
		return;
	iwarp_stats_add_leftovers(td->qps, NULL, nvme);
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
	guint64 fr = 0, to = 0, ot = 0, ro = 0, da = 0, zw = 0;
	for (int side = 0; ic->eng && side < 2; side++) {
		const struct iws_stream_counts *k = iws_stream_counts(ic->eng, side);
		fr += k->fast_retransmits;
		to += k->timeouts;
		ot += k->other_retransmits;
		ro += k->reordered;
		da += k->duplicate_acks;
		zw += k->zero_windows;
	}
	printf("  TCP: fast retransmits %" PRIu64 ", timeouts %" PRIu64 ", other retransmits %" PRIu64
	       ", reordered %" PRIu64 ", duplicate ACKs %" PRIu64 ", zero windows %" PRIu64 "\n", fr, to, ot,
	       ro, da, zw);
	guint n = ic->closes ? wmem_array_get_count(ic->closes) : 0;
	for (guint i = 0; i < n; i++) {
		const struct iws_close *c = (const struct iws_close *)wmem_array_index(ic->closes, i);
		char *who = iwarp_endpoint_str(NULL, ic, c->dir);
		GString *ids = g_string_new(NULL);
		for (guint32 k = 0; k < c->nids; k++)
			g_string_append_printf(ids, "%s%" PRIu64, k ? "," : "", c->ids[k]);
		/* always 10 words: the ids are one ("-" for none) */
		printf("  Teardown: %s from %s frame %u outstanding %u ids %s\n", c->kind == IWS_CLOSE_RST ? "RST" : "FIN",
		       who, (guint32)c->frame, c->outstanding, ids->len ? ids->str : "-");
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
		struct iwarp_qp_stats *q = &g_array_index(td->qps, struct iwarp_qp_stats, i);
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
	iwarp_qps_clear(td->qps);
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
	td->qps = g_array_new(FALSE, FALSE, sizeof(struct iwarp_qp_stats));
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
	iwarp_end_pass_before_draws();
}

/* A text statistic: its -z name, raw or readable, and its callbacks (the
 * userdata its stat_tap_ui is registered with). */
struct text_stat {
	const char *name;
	gboolean raw;
	tap_packet_cb packet;
	tap_draw_cb draw;
};

static iwarp_stat_init_result text_stat_init(const char *opt_arg, void *userdata)
{
	const struct text_stat *t = (const struct text_stat *)userdata;
	text_tap_init(opt_arg, t->name, t->raw, t->packet, t->draw);
	return IWARP_STAT_INIT_OK;
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

/* One QP's groups, or the "all" rows: the raw form on one line per command
 * type; the readable one in two tables (latency, then the data phase) of
 * readable width. */
static void print_nvme_groups(const struct iws_nvme_stats *nv, int tw, gboolean raw)
{
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
		for (guint k = 0; k < nv->n; k++) {
			const struct iws_nvme_op_stats *o = &nv->e[k];
			char qid[16] = "-";
			if (o->qid == IWS_NVME_QID_ALL)
				snprintf(qid, sizeof(qid), "all");
			else if (o->qid >= 0)
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
	/* the "all" rows: each command type over every queue of every QP, as
	 * the CLI's stats (core/nvme_stats.c) */
	struct iws_nvme_stats all;
	iws_nvme_stats_init(&all);
	for (guint i = 0; i < td->qps->len; i++) {
		struct iwarp_qp_stats *q = &g_array_index(td->qps, struct iwarp_qp_stats, i);
		if (!q->nv.n)
			continue;
		print_qp(convs, q->qp);
		print_nvme_groups(&q->nv, tw, raw);
		iws_nvme_stats_merge_all(&all, &q->nv);
	}
	if (all.n) {
		printf("\nAll queues: each command type over every queue of every QP\n");
		print_nvme_groups(&all, tw, raw);
	}
	iws_nvme_stats_free(&all);
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

/* ---- tshark -z iwarp,rpc: RPC over RDMA per procedure ---- */

/* The RPCs are the records of every connection (packet-iwarp-rpc.c), read
 * at the end: no frame carries them to the tap (iwarp_tap_no_packet). */

/* One group's key columns: program, version, procedure (number and name);
 * "-" for the replies whose call is not in the capture. */
static void print_rpc_key(const struct iws_rpc_proc_stats *g)
{
	if (!g->has_call) {
		printf("  %-8s %4s %5s %-14s", "-", "-", "-", "(no call)");
		return;
	}
	printf("  %-8u %4u %5u %-14s", g->prog, g->vers, g->proc, g->name ? g->name : "-");
}

static void rpc_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	gboolean raw = td->raw;
	int tw = raw ? TIME_W_RAW : TIME_W;
	print_rule(raw);
	printf("RPC over RDMA (RFC 8166) per procedure (iwarpscope %s)\n", IWS_VERSION_STRING);
	if (td->filtered) {
		/* an RPC spans frames (call, data, reply): a frame filter does not say which to count */
		printf("A display filter does not apply to this table: run it without one\n");
		print_rule(raw);
		return;
	}
	/* the RPCs still outstanding were reported when the pass was over */
	printf("Latency: call to reply of complete RPCs; Think: call to first RDMA data; Data: first to last RDMA data; "
	       "in %s\n", raw ? "nanoseconds" : "milliseconds");
	struct iws_rpc_stats st;
	iws_rpc_stats_init(&st);
	wmem_list_t *cl = iwarp_conversations();
	for (wmem_list_frame_t *f = cl ? wmem_list_head(cl) : NULL; f; f = wmem_list_frame_next(f)) {
		const iwarp_conv *ic = (const iwarp_conv *)wmem_list_frame_data(f);
		for (guint i = 0; ic->rpcs && i < wmem_array_get_count(ic->rpcs); i++) {
			struct iws_rpc r;
			iwarp_rpc_of_link(*(const iwarp_rpc_link **)wmem_array_index(ic->rpcs, i), &r);
			iws_rpc_stats_add(&st, &r);
		}
	}
	for (int pass = 0; pass < (raw ? 1 : 3); pass++) {
		static const char *const what[] = { "Latency", "Think", "Data" };
		printf("\n  %-8s %4s %5s %-14s %7s %10s %12s", "Program", "Vers", "Proc", "Name", "Count", "Incomplete",
		       "RDMA bytes");
		printf("  %s", raw ? "Latency, Think, Data:" : what[pass]);
		print_dist_header(tw, raw);
		if (raw) {
			print_dist_header(tw, raw);
			print_dist_header(tw, raw);
		}
		printf("\n");
		for (guint k = 0; k < st.n; k++) {
			const struct iws_rpc_proc_stats *g = &st.e[k];
			const struct iws_latency *d[] = { &g->latency, &g->think, &g->data };
			if (pass && !d[pass]->count)
				continue;
			print_rpc_key(g);
			printf(" %7" PRIu64 " %10" PRIu64 " %12" PRIu64 "  %*s", g->count, g->count - g->complete,
			       g->rdma_bytes, raw ? 21 : 7, "");
			for (int x = pass; x < (raw ? 3 : pass + 1); x++)
				print_dist(d[x], tw, raw);
			printf("\n");
		}
	}
	if (st.other)
		printf("\n  %" PRIu64 " RPCs of further procedures not counted (group limit %d)\n", st.other,
		       IWS_RPC_STATS_MAX_GROUPS);
	iws_rpc_stats_free(&st);
	print_rule(raw);
}

static const struct text_stat rpc_text = { "iwarp,rpc", FALSE, iwarp_tap_no_packet, rpc_draw };
static const struct text_stat rpc_raw_text = { "iwarp,rpc,raw", TRUE, iwarp_tap_no_packet, rpc_draw };

static stat_tap_ui iwarp_rpc_raw_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,rpc,raw", text_stat_init, 0, NULL
};

static stat_tap_ui iwarp_rpc_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,rpc", text_stat_init, 0, NULL
};

/* ---- tshark -z iwarp,smb: SMB Direct per connection ---- */

/* The engine's SMB stage of every connection (its counters, the same as
 * `iwarpscope stats`'s "smb" object), read at the end. */
static void smb_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	print_rule(td->raw);
	printf("SMB Direct (MS-SMBD) per connection (iwarpscope %s)\n", IWS_VERSION_STRING);
	if (td->filtered) {
		printf("A display filter does not apply to this table: run it without one\n");
		print_rule(td->raw);
		return;
	}
	printf("Credits c/s: as the client / the server sent them (MS-SMBD 3.1.5.9)\n\n");
	printf("  %-5s %-12s %6s %6s %8s %12s %12s %8s %10s %9s %9s %9s %9s\n", "QP", "Verdict", "Reads",
	       "Writes", "ViaRDMA", "RDMAbytes", "Inlinebytes", "Requests", "Incomplete", "Granted", "MaxHeld",
	       "MinLeft", "Exceeded");
	wmem_list_t *cl = iwarp_conversations();
	for (wmem_list_frame_t *f = cl ? wmem_list_head(cl) : NULL; f; f = wmem_list_frame_next(f)) {
		const iwarp_conv *ic = (const iwarp_conv *)wmem_list_frame_data(f);
		const struct iws_smb_conn *sc = ic->eng ? iws_stream_smb(ic->eng) : NULL;
		if (!sc || iws_smb_conn_state(sc) != IWS_SMB_YES)
			continue;
		const struct iws_smb_counts *k = iws_smb_conn_counts(sc);
		guint8 c = k->client_dir, s = (guint8)(c ^ 1);
		char g[24], h[24], l[24], x[24];
		snprintf(g, sizeof(g), "%" PRIu64 "/%" PRIu64, k->credits_granted[c], k->credits_granted[s]);
		snprintf(h, sizeof(h), "%u/%u", k->credits_max_held[c], k->credits_max_held[s]);
		snprintf(l, sizeof(l), "%u/%u", k->credits_min_left[c], k->credits_min_left[s]);
		snprintf(x, sizeof(x), "%" PRIu64 "/%" PRIu64, k->credits_exceeded[c], k->credits_exceeded[s]);
		printf("  %-5u %-12s %6" PRIu64 " %6" PRIu64 " %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %8" PRIu64
		       " %10" PRIu64 " %9s %9s %9s %9s\n",
		       ic->qp, iws_smb_verdict_name(iws_smb_verdict_of(k)), k->reads, k->writes,
		       k->rdma_reads + k->rdma_writes, k->rdma_bytes, k->inline_bytes, k->requests, k->incomplete, g, h,
		       l, x);
	}
	print_rule(td->raw);
}

static const struct text_stat smb_text = { "iwarp,smb", FALSE, iwarp_tap_no_packet, smb_draw };

static stat_tap_ui iwarp_smb_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,smb", text_stat_init, 0, NULL
};

void iwarp_stats_register(void)
{
	register_stat_tap_ui(&iwarp_ops_ui, (void *)&ops_text);
	register_stat_tap_ui(&iwarp_nvme_ui, (void *)&nvme_text);
	register_stat_tap_ui(&iwarp_ops_raw_ui, (void *)&ops_raw_text);
	register_stat_tap_ui(&iwarp_nvme_raw_ui, (void *)&nvme_raw_text);
	register_stat_tap_ui(&iwarp_rpc_ui, (void *)&rpc_text);
	register_stat_tap_ui(&iwarp_rpc_raw_ui, (void *)&rpc_raw_text);
	register_stat_tap_ui(&iwarp_smb_ui, (void *)&smb_text);
}
