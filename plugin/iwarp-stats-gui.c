// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats-gui.c - the "iwarp" tap's tables for Wireshark's statistics
 * dialogs, Statistics > Service Response Time > iWARP ... (and `tshark -z
 * iwarp,ops_latency` ...): five tables of one question each, operation
 * latency; throughput and loss; delivery to ACK (the two tables per QP of
 * `-z iwarp,ops`); NVMe-oF command latency; NVMe-oF throughput and errors.
 * The numbers are those of `-z iwarp,ops` and `-z iwarp,nvme` (iwarp-stats.c),
 * from the same per-QP statistics.
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
 * under 10 commands: docs/semantics.md).
 *
 * Operations tables: per QP a row per operation type then its "all" row, then
 * the whole capture (QP "all") per type and "all". NVMe-oF tables: a row per
 * QP, queue and command type, then per command type that more than one queue
 * has a row over every queue of every QP (QP and Qid "all": `-z iwarp,nvme`'s
 * "All queues" row, the CLI's stats "all all" row), made at the capture's
 * end. A type one queue alone has is left out: its "all" row would repeat
 * that queue's (docs/semantics.md), and rows past the dialog's height bring a
 * vertical scroll bar that Wireshark 4.0's dialog takes from the last column
 * without narrowing it, cutting it behind a horizontal one. The "all" in the
 * first column widens it by 7 pixels (its cells are indented), more than the
 * latency table's last column had to spare above its least width (about 105
 * pixels: "Max ms" and the sort indicator): so the latency tables say "Done"
 * for the complete ones, 32 pixels narrower than "Complete"
 * (tests/plugin/gui.py checks that nothing is cut). Rows are appended as QPs and types appear (a
 * capture of 100,000 connections stays linear); each QP keeps the table rows
 * it was given (slots) and rewrites its rows into them in order, so the
 * dialog, which sorts by the first column with a stable sort, shows each QP's
 * rows in order. At the capture's end the rows are given out again in
 * order (tshark prints the table as it is: in order with -2, in the order
 * they appeared in one pass).
 */
#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>

#include "iwarp-stats-gui.h"
#include "iwarp-stats.h"
#include "packet-iwarp-nvme.h"
#include "packet-iwarp-state.h"

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
	guint key_cols;                 /* QP, name (and Qid): filled here; the rest by cells */
	gui_cells_cb cells;
	GArray *qps;                    /* struct iwarp_qp_stats, by qp */
	struct iwarp_qp_stats total;    /* operations tables: every QP's operations */
	guint used;                     /* table rows in use */
	guint width[GUI_MAX_COLS];      /* widest text of each column so far */
};

/* What one row shows, besides its keys. */
struct gui_row {
	const struct iws_op_stats *op;        /* operations tables */
	gint64 span_ns;                       /* ... first start to last end of the row's operations */
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
	return g_strdup(iwarp_stats_fmt_time(buf, sizeof(buf), ns, FALSE));
}

/* The times of l at the given IWARP_DV_* indexes (only those: a quantile costs),
 * or "-" without any. */
static void cells_dist(char **cell, const struct iws_latency *l, const int *which, int n)
{
	for (int k = 0; k < n; k++)
		cell[k] = l->count ? text_ms(iwarp_stats_dist_value(l, which[k])) : g_strdup("-");
}

static const int gui_lat_quantiles[] = { IWARP_DV_MIN, IWARP_DV_P50, IWARP_DV_P99, IWARP_DV_MAX };
static const int gui_p50_p99[] = { IWARP_DV_P50, IWARP_DV_P99 };

/* A latency table's cells: Count, Done (the complete ones), Min, p50, p99, Max. */
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

/* Throughput and loss: Bytes, Mbit/s (over the row's span: one unit for the
 * column, three decimals, never an 8-digit kbit/s), Retrans, Stall, CRC
 * errors. */
static void ops_throughput_cells(char **cell, const struct gui_row *r)
{
	cell[0] = text_u64(r->op->bytes);
	cell[1] = r->span_ns > 0 ? g_strdup_printf("%.3f", (double)r->op->bytes * 8e3 / (double)r->span_ns)
				 : g_strdup("-");
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
static void gui_put_block(struct gui_table *g, stat_tap_table *t, struct iwarp_qp_stats *q, const char *qp_label)
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
		/* Each row's rate over the span of the operations it counts
		 * (docs/semantics.md): a type's row over that type's first
		 * start to last end, so that the capture's row of a type only
		 * one QP has is that QP's row; the "all" row over them all. */
		for (guint i = 0; i + 1 < n; i++)
			rows[i].span_ns = rows[i].op->first_ns ? rows[i].op->last_ns - rows[i].op->first_ns : 0;
		rows[n - 1].span_ns = q->last_ns - q->first_ns;
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
			cell[1] = r.cmd->qid >= 0		    ? text_u64((guint64)r.cmd->qid) :
				  r.cmd->qid == IWS_NVME_QID_ALL ? g_strdup("all") :
								    g_strdup("-");
			cell[2] = g_strdup(r.cmd->op);
		} else {
			r = rows[i];
			cell[1] = g_strdup(names[i]);
		}
		g->cells(cell + g->key_cols, &r);
		gui_put_row(g, t, g_array_index(q->slots, guint, i), cell);
	}
}

static void gui_put_qp(struct gui_table *g, stat_tap_table *t, struct iwarp_qp_stats *q)
{
	char label[16];
	snprintf(label, sizeof(label), "%u", q->qp);
	gui_put_block(g, t, q, label);
}

/* Every QP's rows, then the whole capture's: for the NVMe-oF tables each
 * command type over every queue of every QP, merged from the QPs' groups as
 * `-z iwarp,nvme` and the CLI do (iws_nvme_stats_merge_all). */
static void gui_put_all(struct gui_table *g, stat_tap_table *t)
{
	for (guint i = 0; i < g->qps->len; i++)
		gui_put_qp(g, t, &g_array_index(g->qps, struct iwarp_qp_stats, i));
	if (g->nvme) {
		struct iws_nvme_stats *all = &g->total.nv;
		iws_nvme_stats_free(all);
		iws_nvme_stats_init(all);
		for (guint i = 0; i < g->qps->len; i++)
			iws_nvme_stats_merge_all(all, &g_array_index(g->qps, struct iwarp_qp_stats, i).nv);
		/* only the types more than one queue has */
		guint32 kept = 0;
		for (guint32 k = 0; k < all->n; k++) {
			guint queues = 0;
			for (guint i = 0; i < g->qps->len; i++) {
				const struct iws_nvme_stats *nv = &g_array_index(g->qps, struct iwarp_qp_stats, i).nv;
				for (guint32 e = 0; e < nv->n; e++)
					queues += strcmp(nv->e[e].op, all->e[k].op) == 0;
			}
			if (queues > 1) {
				all->e[kept++] = all->e[k];
			} else {
				iws_latency_free(&all->e[k].latency);
				iws_latency_free(&all->e[k].data);
			}
		}
		all->n = kept;
	}
	gui_put_block(g, t, &g->total, "all");
}

static void gui_clear_stats(struct gui_table *g)
{
	if (g->qps)
		iwarp_qps_clear(g->qps);
	else
		g->qps = g_array_new(FALSE, FALSE, sizeof(struct iwarp_qp_stats));
	iwarp_qp_stats_free(&g->total);
	memset(&g->total, 0, sizeof(g->total));
	iws_qp_stats_init(&g->total.st);
	iws_nvme_stats_init(&g->total.nv);
	g->used = 0;
	memset(g->width, 0, sizeof(g->width));
}

/* Called when the dialog is (re)filled: one table, made once (a second
 * stat_tap_add_table would show as a second, empty table). Its filter for
 * a QP (unused by Wireshark 4.0's Qt dialog, kept true for other front ends)
 * is tcp.stream: an operation is counted in the frame that reports it,
 * mostly the ACK that covers it, which has no iwarp.rdmap.qp. */
static void gui_init(stat_tap_table_ui *ui)
{
	struct gui_table *g = (struct gui_table *)ui;
	if (!stat_tap_find_table(ui, g->table_name))
		stat_tap_add_table(ui, stat_tap_init_table(g->table_name, (int)ui->nfields, 0, "tcp.stream == %d"));
	if (!g->qps)
		gui_clear_stats(g);
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
		iwarp_stats_add_leftovers(g->qps, g->nvme ? NULL : &g->total, g->nvme);
		for (guint i = 0; i < g->qps->len; i++) {
			struct iwarp_qp_stats *q = &g_array_index(g->qps, struct iwarp_qp_stats, i);
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
			iws_nvme_cmd_of_brief(&l->cmd, &c);
			struct iwarp_qp_stats *q = iwarp_qp_stats_get(g->qps, l->cmd.qp);
			iws_nvme_stats_add(&q->nv, &c);
			gui_put_qp(g, t, q);
		}
	} else if (!g->nvme && fr->ops) {
		struct iwarp_qp_stats *q = iwarp_qp_stats_get(g->qps, fr->ic->qp);
		iwarp_qp_stats_add_ops(q, fr->ops);
		iwarp_qp_stats_add_ops(&g->total, fr->ops);
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
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Count"), GUI_COL("Done"), GUI_COL("Min ms"),
	GUI_COL("p50 ms"), GUI_COL("p99 ms"), GUI_COL("Max ms"),
};

static stat_tap_table_item ops_throughput_cols[] = {
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Bytes"), GUI_COL("Mbit/s"), GUI_COL("Retrans"),
	GUI_COL("Stall ms"), GUI_COL("CRC errors"),
};

static stat_tap_table_item ops_delivery_cols[] = {
	GUI_COL("QP"), GUI_NAME_COL("Operation"), GUI_COL("Acked"), GUI_COL("Min ms"), GUI_COL("p50 ms"),
	GUI_COL("p99 ms"), GUI_COL("Max ms"),
};

static stat_tap_table_item nvme_latency_cols[] = {
	GUI_COL("QP"), GUI_COL("Qid"), GUI_NAME_COL("Command"), GUI_COL("Count"), GUI_COL("Done"),
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
		  TRUE, 3, nvme_throughput_cells, nvme_throughput_cols),
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

/* When the capture file is closed (and at exit): every table's statistics,
 * and the tables no dialog shows (tshark's: nothing else frees them; at
 * exit the plugin is unloaded, and what only it pointed to would leak). */
static void gui_cleanup(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(gui_tables); i++) {
		struct gui_table *g = &gui_tables[i];
		if (g->qps) {
			iwarp_qps_clear(g->qps);
			g_array_free(g->qps, TRUE);
			g->qps = NULL;
		}
		iwarp_qp_stats_free(&g->total);
		memset(&g->total, 0, sizeof(g->total));
		if (!g->ui.refcount && g->ui.tables) {
			free_stat_tables(&g->ui);
			g_array_free(g->ui.tables, TRUE);  /* stat_tap_add_table makes another */
			g->ui.tables = NULL;
		}
	}
}

void iwarp_stats_gui_register(void)
{
	register_cleanup_routine(gui_cleanup);
	for (guint i = 0; i < G_N_ELEMENTS(gui_tables); i++) {
		g_assert(gui_tables[i].ui.nfields <= GUI_MAX_COLS);
		register_stat_tap_table_ui(&gui_tables[i].ui);
	}
}
