// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats-doctor.c - `tshark -z iwarp,doctor`: per QP each rule the
 * interop doctor found broken, its count, first and last frame, sample
 * frames and fraction, printed as `iwarpscope doctor` prints them (the
 * core's words), read from the connections' doctors
 * (packet-iwarp-doctor.c) once the capture is over.
 */
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "iwarpscope/doctor.h"
#include "iwarpscope/status.h"
#include "iwarp-stats.h"
#include "iwarp-stats-doctor.h"
#include "packet-iwarp-state.h"
#include "packet-iwarp-stream.h"
#include "ws-compat.h"

static gint by_qp(gconstpointer a, gconstpointer b)
{
	const iwarp_conv *x = *(const iwarp_conv *const *)a, *y = *(const iwarp_conv *const *)b;
	return x->qp < y->qp ? -1 : x->qp > y->qp;
}

static void doctor_draw(void *p)
{
	(void)p;
	/* read after the pass was ended (iwarp_end_pass_before_draws): what was
	 * still buffered is decoded, the end-of-capture rules are checked */
	printf("==================================================================================================================================\n");
	printf("iWARP doctor (iwarpscope %s)\n", IWS_VERSION_STRING);
	uint64_t sev[IWS_SEVERITY_COUNT] = { 0, 0, 0 };
	guint32 nqps = 0, with = 0;
	char line[1024];
	/* in QP (tcp.stream) order, as the CLI lists them */
	GPtrArray *convs = g_ptr_array_new();
	wmem_list_t *l = iwarp_conversations();
	for (wmem_list_frame_t *lf = l ? wmem_list_head(l) : NULL; lf; lf = wmem_list_frame_next(lf))
		g_ptr_array_add(convs, wmem_list_frame_data(lf));
	g_ptr_array_sort(convs, by_qp);
	for (guint i = 0; i < convs->len; i++) {
		const iwarp_conv *ic = (const iwarp_conv *)g_ptr_array_index(convs, i);
		guint32 n;
		const struct iws_finding_sum *s = iws_doctor_sums(ic->doc, &n);
		char *a = iwarp_endpoint_str(NULL, ic, IWS_DIR_I2R);
		char *b = iwarp_endpoint_str(NULL, ic, IWS_DIR_R2I);
		printf("QP %u  %s -> %s%s\n", ic->qp, a, b, n ? "" : "  no findings");
		wmem_free(NULL, a);
		wmem_free(NULL, b);
		nqps++;
		with += n ? 1 : 0;
		for (guint32 k = 0; k < n; k++) {
			sev[iws_rule_info(s[k].rule)->severity]++;
			fputs(iws_finding_sum_text(line, sizeof(line), &s[k]), stdout);
		}
		/* once per QP, as the CLI says it */
		fputs(iws_doctor_unchecked_text(line, sizeof(line), ic->doc), stdout);
	}
	g_ptr_array_free(convs, TRUE);
	fputs(iws_doctor_total_text(line, sizeof(line), nqps, with, sev), stdout);
	printf("==================================================================================================================================\n");
}

static iwarp_stat_init_result doctor_init(const char *opt_arg, void *userdata)
{
	(void)opt_arg;
	(void)userdata;
	static int listener;   /* the tap listener's identity: nothing to keep per packet */
	GString *err = register_tap_listener("iwarp", &listener, NULL, TL_REQUIRES_NOTHING, NULL, iwarp_tap_no_packet,
					     doctor_draw, NULL);
	if (err) {
		fprintf(stderr, "tshark: couldn't register iwarp,doctor tap: %s\n", err->str);
		g_string_free(err, TRUE);
		exit(1);
	}
	iwarp_end_pass_before_draws();
	return IWARP_STAT_INIT_OK;
}

static stat_tap_ui iwarp_doctor_ui = {
	REGISTER_STAT_GROUP_GENERIC, NULL, "iwarp,doctor", doctor_init, 0, NULL
};

void iwarp_stats_doctor_register(void)
{
	register_stat_tap_ui(&iwarp_doctor_ui, NULL);
}
