// SPDX-License-Identifier: GPL-2.0-or-later
/* Lookups over the X-macro name tables of names.h. */
#include "iwarpscope/names.h"

#include <stddef.h>

#include <stdio.h>
#include <string.h>

#include "iwarpscope/qp.h"
#include "iwarpscope/rdmap.h"

struct name_entry {
	uint32_t value;
	const char *name;
};

#define IWS_NAME_ENTRY(v, s) { (v), (s) },

static const struct name_entry opcode_names[] = { IWS_RDMAP_OPCODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry qn_names[] = { IWS_DDP_QN_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry layer_names[] = { IWS_TERM_LAYER_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry rdmap_etype_names[] = { IWS_TERM_RDMAP_ETYPE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry ddp_etype_names[] = { IWS_TERM_DDP_ETYPE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry llp_etype_names[] = { IWS_TERM_LLP_ETYPE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry rdmap_code_names[] = { IWS_TERM_RDMAP_CODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry ddp_t_code_names[] = { IWS_TERM_DDP_TAGGED_CODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry ddp_u_code_names[] = { IWS_TERM_DDP_UNTAGGED_CODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry llp_code_names[] = { IWS_TERM_LLP_CODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry aop_names[] = { IWS_AOPCODE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry rtr_names[] = { IWS_RTR_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry rtr_short_names[] = { IWS_RTR_SHORT_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry op_flag_names[] = { IWS_OP_FLAG_NAMES(IWS_NAME_ENTRY) };

#define IWS_OP_NAME(v, n, t) n,
#define IWS_OP_TITLE(v, n, t) t,
static const char *const op_names[IWS_OPT_COUNT] = { IWS_OP_TYPE_NAMES(IWS_OP_NAME) };
static const char *const op_titles[IWS_OPT_COUNT] = { IWS_OP_TYPE_NAMES(IWS_OP_TITLE) };

#define LOOKUP(table, v) lookup(table, sizeof(table) / sizeof(table[0]), v)

static const char *lookup(const struct name_entry *t, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

const char *iws_rdmap_opcode_name(uint32_t opcode)
{
	return LOOKUP(opcode_names, opcode);
}

const char *iws_ddp_qn_name(uint32_t qn)
{
	return LOOKUP(qn_names, qn);
}

const char *iws_term_layer_name(uint32_t layer)
{
	return LOOKUP(layer_names, layer);
}

const char *iws_term_etype_name(uint32_t layer, uint32_t etype)
{
	switch (layer) {
	case IWS_TERM_LAYER_RDMAP:
		return LOOKUP(rdmap_etype_names, etype);
	case IWS_TERM_LAYER_DDP:
		return LOOKUP(ddp_etype_names, etype);
	case IWS_TERM_LAYER_LLP:
		return LOOKUP(llp_etype_names, etype);
	}
	return NULL;
}

const char *iws_term_errcode_name(uint32_t layer, uint32_t etype, uint32_t code)
{
	switch (layer) {
	case IWS_TERM_LAYER_RDMAP:
		return LOOKUP(rdmap_code_names, code);
	case IWS_TERM_LAYER_DDP:
		if (etype == 0x1)
			return LOOKUP(ddp_t_code_names, code);
		if (etype == 0x2)
			return LOOKUP(ddp_u_code_names, code);
		return code == 0 ? "Unspecified" : NULL;
	case IWS_TERM_LAYER_LLP:
		return LOOKUP(llp_code_names, code);
	}
	return NULL;
}

const char *iws_aopcode_name(uint32_t aop)
{
	return LOOKUP(aop_names, aop);
}

const char *iws_rtr_name(uint32_t rtr)
{
	return LOOKUP(rtr_names, rtr);
}

const char *iws_rdmap_opcode_short(uint32_t opcode)
{
	static const char *const s[] = {
		"Write", "ReadReq", "ReadResp", "Send", "SendInv", "SendSE", "SendSEInv",
		"Terminate", "Immediate", "ImmediateSE", "AtomicReq", "AtomicResp",
	};
	return opcode < sizeof(s) / sizeof(s[0]) ? s[opcode] : NULL;
}

const char *iws_rtr_short_name(uint32_t rtr)
{
	return LOOKUP(rtr_short_names, rtr);
}

const char *iws_op_type_name(enum iws_op_type t)
{
	return (unsigned)t < IWS_OPT_COUNT ? op_names[t] : "?";
}

const char *iws_op_type_title(enum iws_op_type t)
{
	return (unsigned)t < IWS_OPT_COUNT ? op_titles[t] : "?";
}

int iws_op_type_from_name(const char *name)
{
	for (int i = 0; i < IWS_OPT_COUNT; i++)
		if (strcmp(name, op_names[i]) == 0)
			return i;
	return -1;
}

const char *iws_op_flags_str(char *buf, size_t len, uint32_t flags)
{
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(op_flag_names) / sizeof(op_flag_names[0]); i++) {
		if (!(flags & op_flag_names[i].value))
			continue;
		int w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", op_flag_names[i].name);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	return buf;
}
