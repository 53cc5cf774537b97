// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor scenarios (scen_doctor.c), one per rule of iwarpscope's
 * interop doctor: name, committed seed, builder, what it breaks. The
 * scenario table (scenarios.c) and scen_doctor.c both expand this list.
 */
#ifndef IWSGEN_SCEN_DOCTOR_H
#define IWSGEN_SCEN_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

#define DOCTOR_SCENARIOS(X) \
	X("doctor-mpa-key", 101, d_mpa_key, "the responder answers the MPA Request with a Request of its own") \
	X("doctor-mpa-revision", 102, d_mpa_revision, "a Rev 1 Request answered by a Rev 2 Reply with S") \
	X("doctor-mpa-reserved-flags", 103, d_mpa_reserved_flags, "MPA Request flags with reserved bit 0x04") \
	X("doctor-mpa-siw-gso-flag", 104, d_mpa_siw_gso_flag, "siw's GSO bit (0x08) in the Request and Reply") \
	X("doctor-mpa-pd-len", 105, d_mpa_pd_len, "a Request with S and PD_Length 0") \
	X("doctor-mpa-p2p-negotiation", 106, d_mpa_p2p_negotiation, "the Reply selects a Send RTR the Request did not offer") \
	X("doctor-mpa-rtr-mismatch", 107, d_mpa_rtr_mismatch, "a Write RTR selected, a zero-length Send sent first") \
	X("doctor-mpa-ird-ord", 108, d_mpa_ird_ord, "Request IRD 4, Reply ORD 16") \
	X("doctor-mpa-markers-negotiation", 109, d_mpa_markers_negotiation, "markers negotiated for the initiator's FPDUs, none sent") \
	X("doctor-mpa-crc-not-sent", 110, d_mpa_crc_not_sent, "CRC negotiated, the responder's CRC fields zero") \
	X("doctor-mpa-reject", 111, d_mpa_reject, "a Reply with R") \
	X("doctor-framing-fpdu-over-mss", 112, d_framing_fpdu_over_mss, "9000-octet FPDUs in TSO segments towards an MSS of 1460") \
	X("doctor-framing-fpdu-split", 113, d_framing_fpdu_split, "Read Responses sent as body, then CRC (siw)") \
	X("doctor-framing-fpdu-unaligned", 114, d_framing_fpdu_unaligned, "2000-octet DDP segments streamed into 1460-octet TCP segments") \
	X("doctor-framing-fpdu-packed", 115, d_framing_fpdu_packed, "six Sends in one TCP segment") \
	X("doctor-framing-marker-fpduptr-le", 116, d_framing_marker_fpduptr_le, "the responder writes FPDUPTR little-endian") \
	X("doctor-framing-marker-skip-crc", 117, d_framing_marker_skip_crc, "the initiator's marker grid leaves the CRC octets out") \
	X("doctor-framing-marker-offset", 118, d_framing_marker_offset, "the responder's marker grid starts at SeqStart + 8") \
	X("doctor-framing-marker-error", 119, d_framing_marker_error, "a marker with FPDUPTR 0 inside a Write FPDU") \
	X("doctor-framing-crc-error", 120, d_framing_crc_error, "a Write segment damaged after its CRC") \
	X("doctor-framing-pad-nonzero", 121, d_framing_pad_nonzero, "a Send's PAD octets de df e0") \
	X("doctor-ddp-version", 122, d_ddp_version, "a Send with DDP version 2") \
	X("doctor-ddp-reserved", 123, d_ddp_reserved, "a Write with a reserved DDP control bit") \
	X("doctor-ddp-mo-gap", 124, d_ddp_mo_gap, "a Send's second segment at MO 400 after 200 octets") \
	X("doctor-ddp-msn-gap", 125, d_ddp_msn_gap, "a Send MSN skipped") \
	X("doctor-ddp-msn-repeat", 126, d_ddp_msn_repeat, "a Send MSN repeated") \
	X("doctor-ddp-msn-start", 141, d_ddp_msn_start, "the responder's first Send with MSN 2") \
	X("doctor-ddp-invalid-qn", 127, d_ddp_invalid_qn, "a Send on QN 5") \
	X("doctor-ddp-tagged-overrun", 128, d_ddp_tagged_overrun, "a Read of 1000 octets answered with 1064") \
	X("doctor-ddp-last-flag", 129, d_ddp_last_flag, "Immediate Data without L") \
	X("doctor-rdmap-version", 130, d_rdmap_version, "a Send with RDMAP version 2") \
	X("doctor-rdmap-opcode", 131, d_rdmap_opcode, "an untagged segment with opcode 0xC") \
	X("doctor-rdmap-ird-exceeded", 132, d_rdmap_ird_exceeded, "three Reads outstanding towards an IRD of 2") \
	X("doctor-rdmap-read-response-size", 133, d_rdmap_read_response_size, "a Read of 2000 octets answered with 1000") \
	X("doctor-rdmap-orphan-response", 134, d_rdmap_orphan_response, "a Read Response without a Read Request") \
	X("doctor-rdmap-terminate", 135, d_rdmap_terminate, "a Terminate (DDP, invalid STag) quoting a Write") \
	X("doctor-rdmap-after-terminate", 136, d_rdmap_after_terminate, "a Write after its sender's Terminate") \
	X("doctor-rdmap-read-request-le", 140, d_rdmap_read_request_le, "the initiator writes Read Request fields little-endian") \
	X("doctor-conn-rst-outstanding", 137, d_conn_rst_outstanding, "RST with a Read outstanding") \
	X("doctor-conn-fin-outstanding", 138, d_conn_fin_outstanding, "FIN with a Read outstanding") \
	X("doctor-conn-zero-window-reads", 139, d_conn_zero_window_reads, "a zero window with a Read outstanding") \
	X("doctor-rpc-chunk-length", 142, d_rpc_chunk_length, "4096 octets written into a 4000-octet write chunk; a reply's write list stating 2000 of 4000") \
	X("doctor-rpc-reply-chunk", 143, d_rpc_reply_chunk, "an inline reply with octets in its reply chunk; RDMA_NOMSG to a call without one") \
	X("doctor-rpc-credits-exceeded", 144, d_rpc_credits_exceeded, "3 calls outstanding after a grant of 2 credits") \
	X("doctor-rpc-credit-stall", 146, d_rpc_credit_stall, "2 calls on 2 credits, the third sent right after a reply") \
	X("doctor-rpc-unannounced-chunk", 145, d_rpc_unannounced_chunk, "an RDMA Write to a handle no call listed")

/* Each builder adds one connection from time t on and returns the time
 * after it. */
#define DOCTOR_DECLARE(name, seed, fn, what) uint64_t fn(struct gen *g, uint64_t t);
DOCTOR_SCENARIOS(DOCTOR_DECLARE)
#undef DOCTOR_DECLARE

/* ---- what the builders share (scen_doctor.c) ---- */

/* Record an occurrence of rule (its truth: doctor_truth.c); doc_at with the
 * FPDU a Terminate names. */
void doc_at(struct gen *g, const char *rule, const struct conn *c, int dir, enum doctor_ref ref,
	    size_t idx, int cause);
void doc(struct gen *g, const char *rule, const struct conn *c, int dir, enum doctor_ref ref, size_t idx);
/* Every FPDU of (c, dir) from index first on. */
void doc_fpdus_since(struct gen *g, const char *rule, const struct conn *c, int dir, size_t first);
/* The first frame from index from on that side dir of c sent with payload
 * (want_data) or with all of flags. */
size_t frame_from(const struct gen *g, size_t from, const struct conn *c, int dir, int want_data,
		  uint8_t flags);
/* Change a queued, not yet transmitted octet: (octet & keep) | set. */
void patch(struct conn *c, int dir, uint64_t off, uint8_t keep, uint8_t set);
typedef void (*hook_fn)(struct gen *g, struct conn *c);
/* s_open with hooks run on the queued Request and Reply; no_rtr: a
 * peer-to-peer set-up without the initiator's RTR. */
uint64_t open_with(struct gen *g, struct conn *c, uint64_t t, hook_fn req, hook_fn rep, int no_rtr);
/* A clean exchange: a Send each way, a Write and a Read of the initiator. */
uint64_t traffic(struct gen *g, struct conn *c, uint64_t t);
/* The initiator closes. */
uint64_t closing(struct gen *g, struct conn *c, uint64_t t);
/* One FPDU with ULPDU u as given (part of no operation); its index. */
size_t raw_fpdu(struct gen *g, struct conn *c, int dir, const uint8_t *u, uint32_t ulen);
/* An untagged segment with control octets ctrl, rctrl and len random octets. */
size_t raw_untagged(struct gen *g, struct conn *c, int dir, uint8_t ctrl, uint8_t rctrl, uint32_t qn,
		    uint32_t msn, uint32_t mo, uint32_t len);
/* Transmit what dir has queued, then the delayed ACKs. */
uint64_t flush_now(struct gen *g, struct conn *c, int dir, uint64_t t);

#endif
