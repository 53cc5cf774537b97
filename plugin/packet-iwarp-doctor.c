// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-doctor.c - the interop doctor in Wireshark: every rule of
 * the core's catalogue (iwarpscope/rules.h) a connection breaks, as
 *
 *   fields        iwarp.rule (the rule id: `iwarp.rule == "mpa.rtr_mismatch"`),
 *                 iwarp.rule.severity, iwarp.rule.text, in an "iWARP doctor"
 *                 subtree of the frame that shows the occurrence;
 *   expert items  one per rule (iwarp.rule.<id>), on those frames: a rule
 *                 error as a Warning, a deviation as a Note, performance as
 *                 Chat (Wireshark keeps Error for what cannot be decoded:
 *                 a broken rule is decoded, and told what it means);
 *   statistics    `tshark -z iwarp,doctor` (iwarp-stats-doctor.c).
 *
 * The core's doctor (iwarpscope/doctor.h) is a stage of each connection's
 * stream engine, which feeds it on the first pass exactly as in the CLI;
 * occurrences are kept on their frames' records.
 */
#include <epan/packet.h>
#include <epan/expert.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iwarpscope/doctor.h"
#include "packet-iwarp-doctor.h"
#include "packet-iwarp-state.h"
#include "ws-compat.h"

static int proto_iwarp_doctor = -1;
static int hf_rule = -1;
static int hf_rule_severity = -1;
static int hf_rule_text = -1;
static int hf_rule_dir = -1;
static gint ett_doctor = -1;
static gint ett_finding = -1;
static expert_field ei_rule[IWS_RULE_COUNT];

/* ---- first pass: the doctor of a connection and its occurrences ---- */

static void on_finding(void *ctx, const struct iws_finding *f)
{
	iwarp_frame_rec *fr = iwarp_frame_get((guint32)f->frame, (iwarp_conv *)ctx);
	if (!fr)
		return;
	if (!fr->findings)
		fr->findings = wmem_array_new(wmem_file_scope(), sizeof(struct iws_finding));
	wmem_array_append_one(fr->findings, *f);
}

static const struct iws_doctor_sink doctor_sink = { on_finding };

void iwarp_doctor_stage(iwarp_conv *ic)
{
	ic->doc = iws_stream_doctor_stage(ic->eng, &doctor_sink, ic, NULL, NULL) ? iws_stream_doctor(ic->eng)
										  : NULL;
}


/* ---- every pass: the frame's occurrences ---- */

static expert_field *ei_of(enum iws_rule r)
{
	return (unsigned)r < IWS_RULE_COUNT ? &ei_rule[r] : NULL;
}

void iwarp_doctor_render(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const iwarp_frame_rec *fr)
{
	guint n = fr->findings ? wmem_array_get_count(fr->findings) : 0;
	if (!n)
		return;
	/* Findings and rules apart: one rule can be broken many times in a
	 * frame (every marker of a segment). */
	guint64 seen = 0;
	guint rules = 0;
	for (guint i = 0; i < n; i++) {
		const struct iws_finding *f = (const struct iws_finding *)wmem_array_index(fr->findings, i);
		if ((unsigned)f->rule < 64 && !(seen >> f->rule & 1)) {
			seen |= (guint64)1 << f->rule;
			rules++;
		}
	}
	proto_item *top = proto_tree_add_item(tree, proto_iwarp_doctor, tvb, 0, 0, ENC_NA);
	if (n == rules)
		proto_item_append_text(top, ": %u rule%s broken", rules, rules == 1 ? "" : "s");
	else
		proto_item_append_text(top, ": %u finding%s of %u rule%s", n, n == 1 ? "" : "s", rules,
				       rules == 1 ? "" : "s");
	proto_item_set_generated(top);
	proto_tree *dt = proto_item_add_subtree(top, ett_doctor);
	for (guint i = 0; i < n; i++) {
		const struct iws_finding *f = (const struct iws_finding *)wmem_array_index(fr->findings, i);
		const struct iws_rule_info *ri = iws_rule_info(f->rule);
		if (!ri)
			continue;
		char text[256];
		iws_finding_text(text, sizeof(text), f);
		proto_item *it = proto_tree_add_string(dt, hf_rule, tvb, 0, 0, ri->id);
		proto_item_set_generated(it);
		proto_item_append_text(it, " (%s): %s", iws_severity_name(ri->severity), ri->title);
		proto_tree *ft = proto_item_add_subtree(it, ett_finding);
		proto_item_set_generated(proto_tree_add_string(ft, hf_rule_severity, tvb, 0, 0,
							       iws_severity_name(ri->severity)));
		proto_item_set_generated(proto_tree_add_string(ft, hf_rule_dir, tvb, 0, 0,
							       f->dir == IWS_DIR_I2R ? "i2r" : "r2i"));
		proto_item_set_generated(proto_tree_add_string(ft, hf_rule_text, tvb, 0, 0, text));
		/* The same summary for every occurrence of a rule: `tshark -z
		 * expert` groups its items by summary, so one line per rule counts
		 * what `iwarpscope doctor` does (occurrence words in the summary
		 * would split one rule's count over several lines). The words of
		 * this occurrence are iwarp.rule.text, above. */
		expert_add_info_format(pinfo, it, ei_of(f->rule), "%s [%s] (%s)", ri->title, ri->id, ri->ref);
	}
}

/* ---- registration ---- */

void iwarp_doctor_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_rule, { "Rule", "iwarp.rule", FT_STRING, BASE_NONE, NULL, 0x0,
			      "A rule of the interop doctor's catalogue broken here (iwarpscope doctor --rules)",
			      HFILL } },
		{ &hf_rule_severity, { "Severity", "iwarp.rule.severity", FT_STRING, BASE_NONE, NULL, 0x0,
				       "error, deviation or performance", HFILL } },
		{ &hf_rule_dir, { "Direction", "iwarp.rule.dir", FT_STRING, BASE_NONE, NULL, 0x0,
				  "The direction whose sender broke the rule (i2r: the MPA initiator's)", HFILL } },
		{ &hf_rule_text, { "What", "iwarp.rule.text", FT_STRING, BASE_NONE, NULL, 0x0,
				   "This occurrence in words", HFILL } },
	};
	static gint *ett[] = { &ett_doctor, &ett_finding };
	/* One expert item per rule, named after it: iwarp.rule.mpa.rtr_mismatch. */
	static ei_register_info ei[IWS_RULE_COUNT];
	static char names[IWS_RULE_COUNT][64];
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		const struct iws_rule_info *ri = iws_rule_info((enum iws_rule)r);
		int group = ri->severity == IWS_SEVERITY_PERFORMANCE ? PI_SEQUENCE : PI_PROTOCOL;
		int severity = ri->severity == IWS_SEVERITY_ERROR ? PI_WARN
			       : ri->severity == IWS_SEVERITY_DEVIATION ? PI_NOTE : PI_CHAT;
		snprintf(names[r], sizeof(names[r]), "iwarp.rule.%s", ri->id);
		ei_rule[r] = (expert_field)EI_INIT;
		ei[r] = (ei_register_info){ &ei_rule[r], { names[r], group, severity, ri->title, EXPFILL } };
	}
	proto_iwarp_doctor = proto_register_protocol("iWARP interop doctor", "iWARP doctor", "iwarp");
	proto_register_field_array(proto_iwarp_doctor, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_module_t *em = expert_register_protocol(proto_iwarp_doctor);
	expert_register_field_array(em, ei, array_length(ei));
}
