// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rules.h - the interop doctor's rule catalogue: every RFC rule and every
 * vendor deviation iwarpscope names, one table (core/rules.c).
 *
 * A rule has a stable dotted id ("mpa.rtr_mismatch": what scripts, the
 * CLI's --fail-on and Wireshark's iwarp.rule filter use), the RFC section or
 * vendor behaviour it checks, a severity and one line saying what it means
 * in the field. The checks themselves are the doctor's (doctor.h); this
 * table is what the CLI, the plugin and docs/rules.md show.
 */
#ifndef IWARPSCOPE_RULES_H
#define IWARPSCOPE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * error        the RFCs forbid it: a conforming peer terminates, drops or
 *              misplaces data;
 * deviation    off the RFCs, or a vendor's own behaviour, that tolerant
 *              peers accept: names why two stacks may not talk;
 * performance  allowed or tolerated, but costs speed (a slow path, a stall).
 */
enum iws_severity {
	IWS_SEVERITY_ERROR = 0,
	IWS_SEVERITY_DEVIATION,
	IWS_SEVERITY_PERFORMANCE,
	IWS_SEVERITY_COUNT
};

/* The rules, in catalogue order (the order every front end lists them in). */
enum iws_rule {
	/* MPA connection set-up (RFC 5044 §7.1, RFC 6581) */
	IWS_RULE_MPA_KEY = 0,
	IWS_RULE_MPA_REVISION,
	IWS_RULE_MPA_RESERVED_FLAGS,
	IWS_RULE_MPA_SIW_GSO_FLAG,
	IWS_RULE_MPA_PD_LEN,
	IWS_RULE_MPA_P2P_NEGOTIATION,
	IWS_RULE_MPA_RTR_MISMATCH,
	IWS_RULE_MPA_IRD_ORD,
	IWS_RULE_MPA_MARKERS_NEGOTIATION,
	IWS_RULE_MPA_CRC_NOT_SENT,
	IWS_RULE_MPA_REJECT,
	/* FPDU framing (RFC 5044 §4) */
	IWS_RULE_FRAMING_FPDU_OVER_MSS,
	IWS_RULE_FRAMING_FPDU_SPLIT,
	IWS_RULE_FRAMING_FPDU_UNALIGNED,
	IWS_RULE_FRAMING_FPDU_PACKED,
	IWS_RULE_FRAMING_MARKER_FPDUPTR_LE,
	IWS_RULE_FRAMING_MARKER_SKIP_CRC,
	IWS_RULE_FRAMING_MARKER_OFFSET,
	IWS_RULE_FRAMING_MARKER_ERROR,
	IWS_RULE_FRAMING_CRC_ERROR,
	IWS_RULE_FRAMING_PAD_NONZERO,
	/* DDP (RFC 5041) */
	IWS_RULE_DDP_VERSION,
	IWS_RULE_DDP_RESERVED,
	IWS_RULE_DDP_MO_GAP,
	IWS_RULE_DDP_MSN_GAP,
	IWS_RULE_DDP_MSN_REPEAT,
	IWS_RULE_DDP_MSN_START,
	IWS_RULE_DDP_INVALID_QN,
	IWS_RULE_DDP_TAGGED_OVERRUN,
	IWS_RULE_DDP_LAST_FLAG,
	/* RDMAP (RFC 5040, RFC 7306) */
	IWS_RULE_RDMAP_VERSION,
	IWS_RULE_RDMAP_OPCODE,
	IWS_RULE_RDMAP_IRD_EXCEEDED,
	IWS_RULE_RDMAP_READ_RESPONSE_SIZE,
	IWS_RULE_RDMAP_ORPHAN_RESPONSE,
	IWS_RULE_RDMAP_TERMINATE,
	IWS_RULE_RDMAP_AFTER_TERMINATE,
	IWS_RULE_RDMAP_READ_REQUEST_LE,
	/* the connection (TCP around RDMA) */
	IWS_RULE_CONN_RST_OUTSTANDING,
	IWS_RULE_CONN_FIN_OUTSTANDING,
	IWS_RULE_CONN_ZERO_WINDOW_READS,
	/* RPC over RDMA (RFC 8166), on a connection that carries it */
	IWS_RULE_RPC_CHUNK_LENGTH,
	IWS_RULE_RPC_REPLY_CHUNK,
	IWS_RULE_RPC_CREDITS_EXCEEDED,
	IWS_RULE_RPC_CREDIT_STALL,
	IWS_RULE_RPC_UNANNOUNCED_CHUNK,
	IWS_RULE_COUNT
};

/* What a fraction rule counts against (the findings' "of"). */
enum iws_rule_measure {
	IWS_MEASURE_NONE = 0,        /* a count of occurrences */
	IWS_MEASURE_FPDUS,           /* FPDUs of the direction whose TCP segments are known */
	IWS_MEASURE_FPDUS_MSS,       /* ... whose receiver's MSS is known (its SYN was seen) */
};

struct iws_rule_info {
	const char *id;              /* stable, dotted: "mpa.rtr_mismatch" */
	const char *ref;             /* RFC section or vendor behaviour checked */
	enum iws_severity severity;
	enum iws_rule_measure measure;
	const char *title;           /* short, for an expert item or a table */
	const char *meaning;         /* one line: what it means in the field */
	const char *example;         /* one line: how it looks on a real capture */
	const char *scenario;        /* iwarpscope-gen scenario that shows it */
	const char *max_what;        /* what an occurrence measures when the most of it
				      * over the connection tells something ("Reads
				      * outstanding": "most Reads outstanding: 4"), the
				      * sums' max_value; else NULL */
};

/* NULL for a value out of range. */
const struct iws_rule_info *iws_rule_info(enum iws_rule r);
/* The rule with this id; -1 when none. */
int iws_rule_from_id(const char *id);
/* "error", "deviation", "performance"; "?" out of range. */
const char *iws_severity_name(enum iws_severity s);
/* The severity with this name; -1 when none. */
int iws_severity_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
