// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats.c - the "iwarp" tap and its statistics: `tshark -z iwarp,ops`
 * (per QP and operation type: count, bytes, response time min/mean/p50/p99/
 * max in microseconds with 3 decimals, i.e. exact nanoseconds), `tshark -z
 * iwarp,nvme` (NVMe-oF commands per QP, queue and type: count, errors,
 * bytes, IOPS, latency and data-transfer time, from core/nvme_stats.c as the
 * CLI's `stats` nvme section) and the GUI table Statistics > iWARP
 * Operations.
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
};

typedef struct iwarp_ops_tapdata {
	GArray *qps;           /* struct qp_stats, sorted by qp */
	gboolean filtered;
	gboolean leftovers_added;
} iwarp_ops_tapdata;

static struct qp_stats *qp_get(GArray *qps, guint32 qp)
{
	guint i;
	for (i = 0; i < qps->len; i++) {
		struct qp_stats *q = &g_array_index(qps, struct qp_stats, i);
		if (q->qp == qp)
			return q;
		if (q->qp > qp)
			break;
	}
	struct qp_stats n;
	memset(&n, 0, sizeof(n));
	n.qp = qp;
	iws_qp_stats_init(&n.st);
	iws_nvme_stats_init(&n.nv);
	g_array_insert_val(qps, i, n);
	return &g_array_index(qps, struct qp_stats, i);
}

static void qps_clear(GArray *qps)
{
	for (guint i = 0; i < qps->len; i++) {
		iws_qp_stats_free(&g_array_index(qps, struct qp_stats, i).st);
		iws_nvme_stats_free(&g_array_index(qps, struct qp_stats, i).nv);
	}
	g_array_set_size(qps, 0);
}

static void add_ops(GArray *qps, guint32 qp, wmem_array_t *ops)
{
	if (!ops)
		return;
	struct iws_qp_stats *st = &qp_get(qps, qp)->st;
	guint n = wmem_array_get_count(ops);
	for (guint i = 0; i < n; i++)
		iws_qp_stats_add(st, (const struct iws_op *)wmem_array_index(ops, i));
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

static const iwarp_conv *conv_by_qp(guint32 qp)
{
	wmem_list_t *l = iwarp_conversations();
	if (!l)
		return NULL;
	for (wmem_list_frame_t *f = wmem_list_head(l); f; f = wmem_list_frame_next(f)) {
		const iwarp_conv *ic = (const iwarp_conv *)wmem_list_frame_data(f);
		if (ic->qp == qp)
			return ic;
	}
	return NULL;
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

/* Microseconds with 3 decimals: exact nanoseconds. */
static void print_us(gint64 v, int width)
{
	char buf[40];
	guint64 a = v < 0 ? (guint64)(-(v + 1)) + 1 : (guint64)v;
	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%03u", v < 0 ? "-" : "", a / 1000, (unsigned)(a % 1000));
	printf(" %*s", width, buf);
}

static void print_dist(const struct iws_latency *lc, int width)
{
	struct iws_latency *l = (struct iws_latency *)lc;
	if (!l->count) {
		for (int k = 0; k < 5; k++)
			printf(" %*s", width, "-");
		return;
	}
	gint64 v[5] = { l->min, iws_latency_mean(l), iws_latency_quantile(l, 0.5), iws_latency_quantile(l, 0.99), l->max };
	for (int k = 0; k < 5; k++)
		print_us(v[k], width);
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
	wmem_list_t *l = iwarp_conversations();
	for (wmem_list_frame_t *f = l ? wmem_list_head(l) : NULL; f; f = wmem_list_frame_next(f)) {
		iwarp_conv *ic = (iwarp_conv *)wmem_list_frame_data(f);
		if (nvme)
			add_nvme(td->qps, ic->nvme_leftover);
		else if (wmem_array_get_count(ic->leftover))
			add_ops(td->qps, ic->qp, ic->leftover);
	}
	td->leftovers_added = TRUE;
}

/* "QP n: initiator -> responder" (the connection, when still known). */
static const iwarp_conv *print_qp(guint32 qp)
{
	const iwarp_conv *ic = conv_by_qp(qp);
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

static void ops_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	add_leftovers(td, FALSE);

	printf("==================================================================================================================================\n");
	printf("iWARP operations (iwarpscope %s)\n", IWS_VERSION_STRING);
	printf("Latency: request frame to last response frame of complete reads and atomics, in microseconds\n");
	for (guint i = 0; i < td->qps->len; i++) {
		struct qp_stats *q = &g_array_index(td->qps, struct qp_stats, i);
		const iwarp_conv *ic = print_qp(q->qp);
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
		printf("  %-18s %8s %9s %14s %9s %6s %13s %13s %13s %13s %13s\n", "Operation", "Count", "Complete",
		       "Bytes", "Segments", "CRCerr", "Min(us)", "Mean(us)", "P50(us)", "P99(us)", "Max(us)");
		for (int t = 0; t < IWS_OPT_COUNT; t++) {
			struct iws_op_stats *o = &q->st.op[t];
			if (!o->count)
				continue;
			printf("  %-18s %8" PRIu64 " %9" PRIu64 " %14" PRIu64 " %9" PRIu64 " %6" PRIu64,
			       iws_op_type_name((enum iws_op_type)t), o->count, o->complete, o->bytes, o->segments,
			       o->crc_errors);
			print_dist(&o->latency, 13);
			printf("\n");
		}
	}
	printf("==================================================================================================================================\n");
}

static void ops_finish(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	qps_clear(td->qps);
	g_array_free(td->qps, TRUE);
	g_free(td);
}

/* A text tap on "iwarp" for -z NAME[,FILTER]. */
static void text_tap_init(const char *opt_arg, const char *name, tap_packet_cb packet, tap_draw_cb draw)
{
	const char *filter = NULL;
	size_t n = strlen(name);
	if (opt_arg && strncmp(opt_arg, name, n) == 0 && opt_arg[n] == ',')
		filter = opt_arg + n + 1;
	iwarp_ops_tapdata *td = g_new0(iwarp_ops_tapdata, 1);
	td->qps = g_array_new(FALSE, FALSE, sizeof(struct qp_stats));
	td->filtered = filter && *filter;
	GString *err = register_tap_listener("iwarp", td, filter, TL_REQUIRES_NOTHING, ops_reset, packet, draw,
					     ops_finish);
	if (err) {
		fprintf(stderr, "tshark: couldn't register %s tap: %s\n", name, err->str);
		g_string_free(err, TRUE);
		ops_finish(td);
		exit(1);
	}
}

static void ops_init(const char *opt_arg, void *userdata)
{
	(void)userdata;
	text_tap_init(opt_arg, "iwarp,ops", ops_packet, ops_draw);
}

static stat_tap_ui iwarp_ops_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,ops", ops_init, 0, NULL
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

static void nvme_draw(void *p)
{
	iwarp_ops_tapdata *td = (iwarp_ops_tapdata *)p;
	add_leftovers(td, TRUE);
	printf("==================================================================================================================================\n");
	printf("NVMe over Fabrics commands (iwarpscope %s)\n", IWS_VERSION_STRING);
	printf("Latency: command capsule to completion; Data: first to last RDMA data message; complete commands, in microseconds\n");
	for (guint i = 0; i < td->qps->len; i++) {
		struct qp_stats *q = &g_array_index(td->qps, struct qp_stats, i);
		if (!q->nv.n)
			continue;
		print_qp(q->qp);
		printf("\n  %-4s %-20s %8s %9s %7s %12s %8s %12s %12s %12s %12s %12s %12s %12s %12s %12s %12s\n", "Qid",
		       "Command", "Count", "Complete", "Errors", "Bytes", "IOPS", "Min(us)", "Mean(us)", "P50(us)",
		       "P99(us)", "Max(us)", "DataMin(us)", "DataMean(us)", "DataP50(us)", "DataP99(us)", "DataMax(us)");
		for (guint k = 0; k < q->nv.n; k++) {
			const struct iws_nvme_op_stats *o = &q->nv.e[k];
			char qid[16] = "-";
			if (o->qid >= 0)
				snprintf(qid, sizeof(qid), "%d", o->qid);
			printf("  %-4s %-20s %8" PRIu64 " %9" PRIu64 " %7" PRIu64 " %12" PRIu64 " %8" PRIu64, qid, o->op,
			       o->count, o->complete, o->errors, o->bytes, iws_nvme_op_iops(o));
			print_dist(&o->latency, 12);
			print_dist(&o->data, 12);
			printf("\n");
		}
	}
	printf("==================================================================================================================================\n");
}

static void nvme_init(const char *opt_arg, void *userdata)
{
	(void)userdata;
	text_tap_init(opt_arg, "iwarp,nvme", nvme_packet, nvme_draw);
}

static stat_tap_ui iwarp_nvme_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,nvme", nvme_init, 0, NULL
};

/* ---- GUI: Statistics > iWARP Operations (a table) ---- */

static GArray *gui_qps;

static stat_tap_table_item iwarp_gui_fields[] = {
	{ TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "QP", "%u" },
	{ TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Operation", "%s" },
	{ TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Count", "%u" },
	{ TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Complete", "%u" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Bytes", "%.0f" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Min (\xc2\xb5s)", "%.3f" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Mean (\xc2\xb5s)", "%.3f" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "P50 (\xc2\xb5s)", "%.3f" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "P99 (\xc2\xb5s)", "%.3f" },
	{ TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Max (\xc2\xb5s)", "%.3f" },
};
#define GUI_NFIELDS (sizeof(iwarp_gui_fields) / sizeof(iwarp_gui_fields[0]))

static void gui_init(stat_tap_table_ui *ui)
{
	stat_tap_table *t = stat_tap_init_table("iWARP operations", GUI_NFIELDS, 0, "iwarp.rdmap.qp == %d");
	stat_tap_add_table(ui, t);
	if (!gui_qps)
		gui_qps = g_array_new(FALSE, FALSE, sizeof(struct qp_stats));
}

static void gui_fill(stat_tap_table *t)
{
	guint row = 0;
	for (guint i = 0; i < gui_qps->len; i++) {
		struct qp_stats *q = &g_array_index(gui_qps, struct qp_stats, i);
		for (int k = 0; k < IWS_OPT_COUNT; k++) {
			struct iws_op_stats *o = &q->st.op[k];
			if (!o->count)
				continue;
			stat_tap_table_item_type items[GUI_NFIELDS];
			memset(items, 0, sizeof(items));
			for (guint f = 0; f < GUI_NFIELDS; f++)
				items[f].type = iwarp_gui_fields[f].type;
			items[0].value.uint_value = q->qp;
			items[1].value.string_value = iws_op_type_name((enum iws_op_type)k);
			items[2].value.uint_value = (guint)o->count;
			items[3].value.uint_value = (guint)o->complete;
			items[4].value.float_value = (double)o->bytes;
			struct iws_latency *l = &o->latency;
			if (l->count) {
				items[5].value.float_value = (double)l->min / 1000.0;
				items[6].value.float_value = (double)iws_latency_mean(l) / 1000.0;
				items[7].value.float_value = (double)iws_latency_quantile(l, 0.5) / 1000.0;
				items[8].value.float_value = (double)iws_latency_quantile(l, 0.99) / 1000.0;
				items[9].value.float_value = (double)l->max / 1000.0;
			}
			if (row < t->num_elements) {
				for (guint f = 0; f < GUI_NFIELDS; f++)
					stat_tap_set_field_data(t, row, f, &items[f]);
			} else {
				stat_tap_init_table_row(t, row, GUI_NFIELDS, items);
			}
			row++;
		}
	}
}

static tap_packet_status gui_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				    tap_flags_t flags)
{
	(void)pinfo;
	(void)edt;
	(void)flags;
	stat_data_t *sd = (stat_data_t *)p;
	const iwarp_frame_rec *fr = (const iwarp_frame_rec *)data;
	if (!fr->ops || !gui_qps)
		return TAP_PACKET_DONT_REDRAW;
	add_ops(gui_qps, fr->ic->qp, fr->ops);
	stat_tap_table *t = g_array_index(sd->stat_tap_data->tables, stat_tap_table *, 0);
	gui_fill(t);
	return TAP_PACKET_REDRAW;
}

static void gui_reset(stat_tap_table *t)
{
	(void)t;
	if (gui_qps)
		qps_clear(gui_qps);
}

static void gui_free_item(stat_tap_table *t, guint row, guint column, stat_tap_table_item_type *field)
{
	(void)t;
	(void)row;
	(void)column;
	(void)field;  /* strings are static */
}

static stat_tap_table_ui iwarp_gui_table = {
	REGISTER_STAT_GROUP_RESPONSE_TIME,
	"iWARP Operations",
	"iwarp",
	"iwarp,table",
	gui_init,
	gui_packet,
	gui_reset,
	gui_free_item,
	NULL,
	GUI_NFIELDS, iwarp_gui_fields,
	0, NULL,
	NULL,
	0
};

void iwarp_stats_register(void)
{
	iwarp_tap = register_tap("iwarp");
	register_stat_tap_ui(&iwarp_ops_ui, NULL);
	register_stat_tap_ui(&iwarp_nvme_ui, NULL);
	register_stat_tap_table_ui(&iwarp_gui_table);
}
