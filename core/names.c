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
#define IWS_DEV_NAME(v, n, t) { (v), (n) },
#define IWS_DEV_TEXT(v, n, t) { (v), (t) },
static const struct name_entry marker_dev_names[] = { IWS_MARKER_DEV_NAMES(IWS_DEV_NAME) };
static const struct name_entry rdmap_dev_names[] = { IWS_RDMAP_DEV_NAMES(IWS_DEV_NAME) };
static const struct name_entry rdmap_dev_texts[] = { IWS_RDMAP_DEV_NAMES(IWS_DEV_TEXT) };
static const struct name_entry marker_dev_texts[] = { IWS_MARKER_DEV_NAMES(IWS_DEV_TEXT) };
static const struct name_entry op_flag_names[] = { IWS_OP_FLAG_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_flag_names[] = { IWS_NVME_FLAG_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry pairing_names[] = { IWS_PAIRING_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry listen_ports[] = { IWS_LISTEN_PORTS(IWS_NAME_ENTRY) };
static const struct name_entry init_evidence_names[] = { IWS_INIT_EVIDENCE_NAMES(IWS_NAME_ENTRY) };

#define IWS_OP_NAME(v, n, t) n,
#define IWS_OP_TITLE(v, n, t) t,
static const char *const op_names[IWS_OPT_COUNT] = { IWS_OP_TYPE_NAMES(IWS_OP_NAME) };
static const char *const op_titles[IWS_OPT_COUNT] = { IWS_OP_TYPE_NAMES(IWS_OP_TITLE) };

/* NVMe: the opcode tables have a key and a title column. */
#define IWS_KEY_ENTRY(v, k, t) { (v), (k) },
#define IWS_TITLE_ENTRY(v, k, t) { (v), (t) },

static const struct name_entry nvme_admin_keys[] = { IWS_NVME_ADMIN_OPCODES(IWS_KEY_ENTRY) };
static const struct name_entry nvme_admin_titles[] = { IWS_NVME_ADMIN_OPCODES(IWS_TITLE_ENTRY) };
static const struct name_entry nvme_io_keys[] = { IWS_NVME_IO_OPCODES(IWS_KEY_ENTRY) };
static const struct name_entry nvme_io_titles[] = { IWS_NVME_IO_OPCODES(IWS_TITLE_ENTRY) };
static const struct name_entry nvme_fc_keys[] = { IWS_NVME_FCTYPES(IWS_KEY_ENTRY) };
static const struct name_entry nvme_fc_titles[] = { IWS_NVME_FCTYPES(IWS_TITLE_ENTRY) };
static const struct name_entry nvme_sct_names[] = { IWS_NVME_SCT_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_generic[] = { IWS_NVME_SC_GENERIC_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_cmd[] = { IWS_NVME_SC_CMD_SPECIFIC_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_nvm[] = { IWS_NVME_SC_NVM_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_fabrics[] = { IWS_NVME_SC_FABRICS_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_media[] = { IWS_NVME_SC_MEDIA_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sc_path[] = { IWS_NVME_SC_PATH_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sgl_types[] = { IWS_NVME_SGL_TYPE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_sgl_subtypes[] = { IWS_NVME_SGL_SUBTYPE_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_cns_names[] = { IWS_NVME_CNS_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_fid_names[] = { IWS_NVME_FID_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_lid_names[] = { IWS_NVME_LID_NAMES(IWS_NAME_ENTRY) };
static const struct name_entry nvme_prop_names[] = { IWS_NVME_PROPERTY_NAMES(IWS_NAME_ENTRY) };

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

const char *iws_pairing_name(enum iws_pairing p)
{
	return LOOKUP(pairing_names, (uint32_t)p);
}

const char *iws_listen_port_name(uint32_t port)
{
	return port ? LOOKUP(listen_ports, port) : NULL;
}

const char *iws_init_evidence_name(uint32_t e)
{
	return LOOKUP(init_evidence_names, e);
}

const char *iws_rtr_name(uint32_t rtr)
{
	return LOOKUP(rtr_names, rtr);
}

const char *iws_rtr_short_name(uint32_t rtr)
{
	return LOOKUP(rtr_short_names, rtr);
}

const char *iws_marker_dev_name(uint32_t bit)
{
	return LOOKUP(marker_dev_names, bit);
}

const char *iws_marker_dev_text(uint32_t bit)
{
	return LOOKUP(marker_dev_texts, bit);
}

const char *iws_rdmap_dev_name(uint32_t bit)
{
	return LOOKUP(rdmap_dev_names, bit);
}

const char *iws_rdmap_dev_text(uint32_t bit)
{
	return LOOKUP(rdmap_dev_texts, bit);
}

const char *iws_op_type_name(enum iws_op_type t)
{
	return (unsigned)t < IWS_OPT_COUNT ? op_names[t] : "?";
}

const char *iws_op_type_title(enum iws_op_type t)
{
	return (unsigned)t < IWS_OPT_COUNT ? op_titles[t] : "?";
}

bool iws_op_type_has_response(enum iws_op_type t)
{
	return t == IWS_OPT_READ || t == IWS_OPT_ATOMIC_FETCH_ADD || t == IWS_OPT_ATOMIC_CMP_SWAP ||
	       t == IWS_OPT_ATOMIC_SWAP;
}

int iws_op_type_from_name(const char *name)
{
	for (int i = 0; i < IWS_OPT_COUNT; i++)
		if (strcmp(name, op_names[i]) == 0)
			return i;
	return -1;
}

static const char *flags_str(const struct name_entry *t, size_t nt, char *buf, size_t len,
			     uint32_t flags)
{
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < nt; i++) {
		if (!(flags & t[i].value))
			continue;
		int w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", t[i].name);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	return buf;
}

const char *iws_op_flags_str(char *buf, size_t len, uint32_t flags)
{
	return flags_str(op_flag_names, sizeof(op_flag_names) / sizeof(op_flag_names[0]), buf, len, flags);
}

const char *iws_nvme_flags_str(char *buf, size_t len, uint32_t flags)
{
	return flags_str(nvme_flag_names, sizeof(nvme_flag_names) / sizeof(nvme_flag_names[0]), buf, len,
			 flags);
}

/* ---- NVMe ---- */

#define IWS_NAME_FN(fn, table) \
	const char *fn(uint32_t v) \
	{ \
		return LOOKUP(table, v); \
	}

IWS_NAME_FN(iws_nvme_admin_opcode_key, nvme_admin_keys)
IWS_NAME_FN(iws_nvme_admin_opcode_title, nvme_admin_titles)
IWS_NAME_FN(iws_nvme_io_opcode_key, nvme_io_keys)
IWS_NAME_FN(iws_nvme_io_opcode_title, nvme_io_titles)
IWS_NAME_FN(iws_nvme_fctype_key, nvme_fc_keys)
IWS_NAME_FN(iws_nvme_fctype_title, nvme_fc_titles)
IWS_NAME_FN(iws_nvme_sct_name, nvme_sct_names)
IWS_NAME_FN(iws_nvme_sgl_type_name, nvme_sgl_types)
IWS_NAME_FN(iws_nvme_sgl_subtype_name, nvme_sgl_subtypes)
IWS_NAME_FN(iws_nvme_cns_name, nvme_cns_names)
IWS_NAME_FN(iws_nvme_fid_name, nvme_fid_names)
IWS_NAME_FN(iws_nvme_lid_name, nvme_lid_names)
IWS_NAME_FN(iws_nvme_property_name, nvme_prop_names)

/* Status field (NVMe Base 2.0 "Status Field"): bits 7:0 SC, 10:8 SCT,
 * 12:11 CRD, 13 More, 14 DNR once the Phase Tag is shifted out. */
const char *iws_nvme_status_name(uint32_t status, int fabrics)
{
	uint32_t sc = status & 0xFF, sct = (status >> 8) & 0x7;
	switch (sct) {
	case 0x0:
		return LOOKUP(nvme_sc_generic, sc);
	case 0x1:
		/* 80h-BFh are specific to the command set: Fabrics or NVM. */
		if (sc >= 0x80)
			return fabrics ? LOOKUP(nvme_sc_fabrics, sc) : LOOKUP(nvme_sc_nvm, sc);
		return LOOKUP(nvme_sc_cmd, sc);
	case 0x2:
		return LOOKUP(nvme_sc_media, sc);
	case 0x3:
		return LOOKUP(nvme_sc_path, sc);
	default:
		return NULL;
	}
}
