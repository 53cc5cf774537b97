// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.h - the names of every code point iwarpscope shows, in one place.
 *
 * Each table is an X-macro list X(value, "name") so a front end can expand it
 * into its own table type (the plugin builds Wireshark value_strings from
 * them); the core also exposes lookup functions for the CLI.
 */
#ifndef IWARPSCOPE_NAMES_H
#define IWARPSCOPE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RDMAP opcodes (RFC 5040 §4.2, RFC 7306 §4, §5) */
#define IWS_RDMAP_OPCODE_NAMES(X) \
	X(0x0, "RDMA Write") \
	X(0x1, "RDMA Read Request") \
	X(0x2, "RDMA Read Response") \
	X(0x3, "Send") \
	X(0x4, "Send with Invalidate") \
	X(0x5, "Send with Solicited Event") \
	X(0x6, "Send with Solicited Event and Invalidate") \
	X(0x7, "Terminate") \
	X(0x8, "Immediate Data") \
	X(0x9, "Immediate Data with Solicited Event") \
	X(0xA, "Atomic Request") \
	X(0xB, "Atomic Response")

/* DDP untagged queue numbers (RFC 5040 §5.1, RFC 7306 §5.1) */
#define IWS_DDP_QN_NAMES(X) \
	X(0, "Send queue") \
	X(1, "Read/Atomic Request queue") \
	X(2, "Terminate queue") \
	X(3, "Atomic Response queue")

/* Terminate: layer (RFC 5040 §4.8) */
#define IWS_TERM_LAYER_NAMES(X) \
	X(0x0, "RDMAP") \
	X(0x1, "DDP") \
	X(0x2, "LLP (MPA)")

/* Terminate: error types per layer (RFC 5040 §7.2, RFC 5041 §7.2, RFC 5044 §8) */
#define IWS_TERM_RDMAP_ETYPE_NAMES(X) \
	X(0x0, "Local Catastrophic Error") \
	X(0x1, "Remote Protection Error") \
	X(0x2, "Remote Operation Error")

#define IWS_TERM_DDP_ETYPE_NAMES(X) \
	X(0x0, "Local Catastrophic Error") \
	X(0x1, "Tagged Buffer Error") \
	X(0x2, "Untagged Buffer Error") \
	X(0x3, "Reserved for RDMA")

#define IWS_TERM_LLP_ETYPE_NAMES(X) \
	X(0x0, "MPA Error")

/* Terminate: error codes */
#define IWS_TERM_RDMAP_CODE_NAMES(X) \
	X(0x00, "Invalid STag") \
	X(0x01, "Base or bounds violation") \
	X(0x02, "Access rights violation") \
	X(0x03, "STag not associated with RDMAP Stream") \
	X(0x04, "TO wrap") \
	X(0x05, "Invalid RDMAP version") \
	X(0x06, "Unexpected OpCode") \
	X(0x07, "Catastrophic error, localized to RDMAP Stream") \
	X(0x08, "Catastrophic error, global") \
	X(0x09, "STag cannot be invalidated") \
	X(0xFF, "Unspecified error")

#define IWS_TERM_DDP_TAGGED_CODE_NAMES(X) \
	X(0x00, "Invalid STag") \
	X(0x01, "Base or bounds violation") \
	X(0x02, "STag not associated with DDP Stream") \
	X(0x03, "TO wrap") \
	X(0x04, "Invalid DDP version")

#define IWS_TERM_DDP_UNTAGGED_CODE_NAMES(X) \
	X(0x01, "Invalid QN") \
	X(0x02, "Invalid MSN - no buffer available") \
	X(0x03, "Invalid MSN - MSN range is not valid") \
	X(0x04, "Invalid MO") \
	X(0x05, "DDP Message too long for available buffer") \
	X(0x06, "Invalid DDP version")

#define IWS_TERM_LLP_CODE_NAMES(X) \
	X(0x01, "TCP connection closed, terminated or lost") \
	X(0x02, "MPA CRC error") \
	X(0x03, "MPA Marker and ULPDU Length mismatch") \
	X(0x04, "Invalid MPA Request or Reply frame") \
	X(0x05, "Local catastrophic error") \
	X(0x06, "Insufficient IRD resources") \
	X(0x07, "No matching RTR option")

/* Atomic operation codes (RFC 7306 §5.2.1) */
#define IWS_AOPCODE_NAMES(X) \
	X(0x0, "FetchAdd") \
	X(0x1, "Swap") \
	X(0x2, "CmpSwap")

/* MPA frame types and RTR types */
#define IWS_MPA_FRAME_NAMES(X) \
	X(1, "MPA Request") \
	X(2, "MPA Reply")

#define IWS_RTR_NAMES(X) \
	X(0x0, "none") \
	X(0x1, "zero-length Send") \
	X(0x2, "zero-length RDMA Write") \
	X(0x4, "zero-length RDMA Read")

/* RDMA operation types (enum iws_op_type, qp.h): the name every output
 * uses (the CLI's text, JSON and CSV, the plugin's fields) and a title. */
#define IWS_OP_TYPE_NAMES(X) \
	X(0, "write", "RDMA Write") \
	X(1, "read", "RDMA Read") \
	X(2, "send", "Send") \
	X(3, "send_inv", "Send with Invalidate") \
	X(4, "send_se", "Send with SE") \
	X(5, "send_se_inv", "Send with SE and Invalidate") \
	X(6, "immediate", "Immediate Data") \
	X(7, "immediate_se", "Immediate Data with SE") \
	X(8, "atomic_fetch_add", "Atomic FetchAdd") \
	X(9, "atomic_cmp_swap", "Atomic CmpSwap") \
	X(10, "atomic_swap", "Atomic Swap") \
	X(11, "terminate", "Terminate")

/* Why an operation is not complete, or what is odd about it (IWS_OPF_*, qp.h). */
#define IWS_OP_FLAG_NAMES(X) \
	X(0x0001, "gap") \
	X(0x0002, "started_before") \
	X(0x0004, "unfinished") \
	X(0x0008, "truncated") \
	X(0x0010, "evicted") \
	X(0x0020, "msn_gap") \
	X(0x0040, "offset_gap") \
	X(0x0080, "ird_exceeded") \
	X(0x0100, "aborted")

/* RTR message types as the CLI's JSON names them (IWS_RTR_*, mpa.h). */
#define IWS_RTR_SHORT_NAMES(X) \
	X(0x1, "send") \
	X(0x2, "write") \
	X(0x4, "read")

/* Lookups: NULL when the value has no name. */
const char *iws_rdmap_opcode_name(uint32_t opcode);
const char *iws_ddp_qn_name(uint32_t qn);
const char *iws_term_layer_name(uint32_t layer);
const char *iws_term_etype_name(uint32_t layer, uint32_t etype);
const char *iws_term_errcode_name(uint32_t layer, uint32_t etype, uint32_t code);
const char *iws_aopcode_name(uint32_t aop);
const char *iws_rtr_name(uint32_t rtr);

const char *iws_rtr_short_name(uint32_t rtr);
/* The names of the IWS_OPF_* bits set in flags, comma separated, in buf
 * (len octets, NUL-terminated; cut short if it does not fit). */
const char *iws_op_flags_str(char *buf, size_t len, uint32_t flags);

/* Short names for compact output ("Write", "ReadReq", ...). */
const char *iws_rdmap_opcode_short(uint32_t opcode);

#ifdef __cplusplus
}
#endif
#endif
