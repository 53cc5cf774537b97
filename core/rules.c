// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interop doctor's rule catalogue (rules.h): one row per rule. The
 * doctor (core/doctor*.c) checks them; the CLI's `doctor` command, the
 * plugin's iwarp.rule expert items and `-z iwarp,doctor`, and docs/rules.md
 * (generated from `iwarpscope doctor --rules --format json`) all read this
 * table, so a rule is named and explained the same way everywhere.
 */
#include "iwarpscope/rules.h"

#include <string.h>

#define E IWS_SEVERITY_ERROR
#define D IWS_SEVERITY_DEVIATION
#define P IWS_SEVERITY_PERFORMANCE

static const struct iws_rule_info rules[IWS_RULE_COUNT] = {
	/* ---- MPA connection set-up ---- */
	[IWS_RULE_MPA_KEY] = { "mpa.key", "RFC 5044 §7.1.1, §7.1.2", E, IWS_MEASURE_NONE,
		"MPA key wrong for its sender",
		"A side's stream does not start with the key it must send: a damaged key, a Request "
		"where the Reply was due (both sides think they initiate), a Reply before any Request.",
		"both ends configured as active side: each sends \"MPA ID Req Frame\" and waits",
		"doctor-mpa-key", NULL },
	[IWS_RULE_MPA_REVISION] = { "mpa.revision", "RFC 5044 §7.1.1, RFC 6581 §5", E, IWS_MEASURE_NONE,
		"MPA revision not agreed",
		"Rev is neither 1 nor 2, the Reply's Rev is above the Request's, or the S flag comes "
		"without Rev 2: the peer reads the private data differently from how it was meant.",
		"a Rev 1 Request answered by a Rev 2 Reply with the enhanced word",
		"doctor-mpa-revision", NULL },
	[IWS_RULE_MPA_RESERVED_FLAGS] = { "mpa.reserved_flags", "RFC 5044 §7.1.1", D, IWS_MEASURE_NONE,
		"reserved MPA flag bits set",
		"Reserved bits of the MPA flags octet set (or R in a Request): strict stacks reject "
		"the frame, lenient ones ignore it.",
		"Request flags 0x44: C and reserved bit 0x04",
		"doctor-mpa-reserved-flags", NULL },
	[IWS_RULE_MPA_SIW_GSO_FLAG] = { "mpa.siw_gso_flag", "Linux siw (MPA_RR_FLAG_GSO_EXP, flags bit 0x08)",
		D, IWS_MEASURE_NONE, "siw's experimental GSO bit",
		"Linux siw's experimental GSO bit in the MPA flags: siw peers may then send FPDUs "
		"larger than the MSS; to any other stack it is a reserved bit.",
		"siw with try_gso: Request and Reply flags 0x08",
		"doctor-mpa-siw-gso-flag", NULL },
	[IWS_RULE_MPA_PD_LEN] = { "mpa.pd_len", "RFC 5044 §7.1.1, RFC 6581 §5", E, IWS_MEASURE_NONE,
		"MPA private data length wrong",
		"PD_Length above 512, or the S flag with fewer than 4 octets of private data for the "
		"IRD/ORD word: the peer rejects the frame or reads garbage as IRD/ORD.",
		"S flag with PD_Length 0",
		"doctor-mpa-pd-len", NULL },
	[IWS_RULE_MPA_P2P_NEGOTIATION] = { "mpa.p2p_negotiation", "RFC 6581 §7", E, IWS_MEASURE_NONE,
		"peer-to-peer flags not echoed",
		"The Reply's peer-to-peer flags do not answer the Request's: A without the "
		"initiator's A, an RTR type it did not offer or several, or none in peer-to-peer mode.",
		"the Request offers Write and Read RTR, the Reply selects Send",
		"doctor-mpa-p2p-negotiation", NULL },
	[IWS_RULE_MPA_RTR_MISMATCH] = { "mpa.rtr_mismatch", "RFC 6581 §7", E, IWS_MEASURE_NONE,
		"RTR not as negotiated",
		"After a peer-to-peer set-up the initiator's first FPDU is not the zero-length RTR "
		"the Reply selected, or the responder sent before it: the peer terminates.",
		"iw_cxgb4: \"process_mpa_reply: RTR mismatch, sending TERM\"",
		"doctor-mpa-rtr-mismatch", NULL },
	[IWS_RULE_MPA_IRD_ORD] = { "mpa.ird_ord", "RFC 6581 §5", D, IWS_MEASURE_NONE,
		"Reply ORD above the Request's IRD",
		"The Reply's ORD is above the initiator's IRD: the responder claims more outstanding "
		"RDMA Reads than the initiator can take.",
		"Request IRD 4, Reply ORD 16",
		"doctor-mpa-ird-ord", NULL },
	[IWS_RULE_MPA_MARKERS_NEGOTIATION] = { "mpa.markers_negotiation", "RFC 5044 §7.1.1, §4.3", E,
		IWS_MEASURE_NONE, "markers not as negotiated",
		"A direction's first octets after SeqStart contradict the negotiated markers (none "
		"where M asked for them, or one where nobody did): its FPDUs cannot be framed.",
		"M in the Reply, the initiator sends FPDUs without markers",
		"doctor-mpa-markers-negotiation", NULL },
	[IWS_RULE_MPA_CRC_NOT_SENT] = { "mpa.crc_not_sent", "RFC 5044 §7.1.1, §4.4", E, IWS_MEASURE_NONE,
		"CRC negotiated but not sent",
		"CRC was negotiated but the sender leaves the CRC field zero: a receiver that checks "
		"CRCs drops every FPDU.",
		"C in the Request, the responder's CRC fields all 00 00 00 00",
		"doctor-mpa-crc-not-sent", NULL },
	[IWS_RULE_MPA_REJECT] = { "mpa.reject", "RFC 5044 §7.1.1", E, IWS_MEASURE_NONE,
		"connection rejected",
		"The responder rejected the connection (R in the Reply); its private data may say why.",
		"Reply with R and \"no matching listener\" as private data",
		"doctor-mpa-reject", NULL },
	/* ---- framing ---- */
	[IWS_RULE_FRAMING_FPDU_OVER_MSS] = { "framing.fpdu_over_mss", "RFC 5044 §4.5", D,
		IWS_MEASURE_FPDUS_MSS, "FPDU longer than the MSS",
		"FPDUs longer than the receiver's MSS (its SYN's option): they cannot travel in one "
		"TCP segment; siw with GSO does it on purpose, RNICs size FPDUs to the MSS.",
		"FPDUs of 9000 octets towards an MSS of 1460",
		"doctor-framing-fpdu-over-mss",
		"octets in an FPDU" },
	[IWS_RULE_FRAMING_FPDU_SPLIT] = { "framing.fpdu_split", "RFC 5044 §4.5, App. A", P,
		IWS_MEASURE_FPDUS, "FPDU split across TCP segments",
		"FPDUs carried in more than one TCP segment: a receiver that places data straight "
		"from each segment has to buffer them (a slow path on many adapters).",
		"siw: each 1448-octet FPDU sent as 1444 octets, then its 4-octet CRC",
		"doctor-framing-fpdu-split", NULL },
	[IWS_RULE_FRAMING_FPDU_UNALIGNED] = { "framing.fpdu_unaligned", "RFC 5044 App. A", P,
		IWS_MEASURE_FPDUS, "FPDU not aligned to a segment start",
		"FPDUs that start inside a TCP segment which did not begin with an FPDU header "
		"(the previous FPDU straddled into it): segment-aligned receivers lose placement.",
		"2000-octet FPDUs streamed into 1460-octet segments",
		"doctor-framing-fpdu-unaligned", NULL },
	[IWS_RULE_FRAMING_FPDU_PACKED] = { "framing.fpdu_packed", "RFC 5044 App. A", P,
		IWS_MEASURE_FPDUS, "several FPDUs in one TCP segment",
		"FPDUs packed behind another FPDU in the same TCP segment: allowed, but some "
		"adapters take a slow path for every FPDU after the first.",
		"six small Sends in one TCP segment",
		"doctor-framing-fpdu-packed", NULL },
	[IWS_RULE_FRAMING_MARKER_FPDUPTR_LE] = { "framing.marker_fpduptr_le",
		"RFC 5044 §4.2 (the 2008 IBM software stack)", D, IWS_MEASURE_NONE,
		"marker FPDUPTR little-endian",
		"The sender writes each marker's FPDUPTR least significant octet first: a receiver "
		"that follows the RFC finds every marker wrong. Counted per marker (one whose FPDUPTR "
		"reads alike in either order, 0 at an FPDU's start, shows nothing).",
		"FPDUPTR 508 carried as 00 00 fc 01",
		"doctor-framing-marker-fpduptr-le", NULL },
	[IWS_RULE_FRAMING_MARKER_SKIP_CRC] = { "framing.marker_skip_crc", "RFC 5044 §4.3", D,
		IWS_MEASURE_NONE, "marker grid skips the CRC",
		"The sender's marker grid does not count the CRC octets: it drifts 4 octets per "
		"FPDU away from SeqStart + 512n, where the RFC puts markers. Counted per marker off "
		"that grid; without the MPA frame (SeqStart) named once, a lower bound.",
		"the k-th FPDU's markers at SeqStart + 4k + 512n",
		"doctor-framing-marker-skip-crc", NULL },
	[IWS_RULE_FRAMING_MARKER_OFFSET] = { "framing.marker_offset", "RFC 5044 §4.3", D,
		IWS_MEASURE_NONE, "marker grid offset from SeqStart",
		"The sender measures its marker grid from another point than SeqStart (the first "
		"octet after its MPA frame). Counted per marker off SeqStart + 512n; without the MPA "
		"frame named once, a lower bound.",
		"markers at SeqStart + 8 + 512n",
		"doctor-framing-marker-offset", NULL },
	[IWS_RULE_FRAMING_MARKER_ERROR] = { "framing.marker_error", "RFC 5044 §4.2", E, IWS_MEASURE_NONE,
		"marker with a wrong FPDUPTR",
		"A marker whose FPDUPTR does not point back at its FPDU's header or whose reserved "
		"half is not zero: the receiver cannot trust it to find FPDUs after a loss.",
		"FPDUPTR 0 in a marker 512 octets into its FPDU",
		"doctor-framing-marker-error", NULL },
	[IWS_RULE_FRAMING_CRC_ERROR] = { "framing.crc_error", "RFC 5044 §4.4", E, IWS_MEASURE_NONE,
		"FPDU CRC error",
		"FPDUs whose CRC32c does not match: a checking receiver terminates the connection "
		"(Terminate, LLP layer, CRC error); corruption past the TCP checksum.",
		"a Send whose payload octet 0x20 flipped after the CRC was computed",
		"doctor-framing-crc-error", NULL },
	[IWS_RULE_FRAMING_PAD_NONZERO] = { "framing.pad_nonzero", "RFC 5044 §4.1", D, IWS_MEASURE_NONE,
		"FPDU pad octets not zero",
		"PAD octets after the ULPDU are not zero: stale buffer contents on the wire.",
		"PAD of a 13-octet Send carried as de ad 00",
		"doctor-framing-pad-nonzero", NULL },
	/* ---- DDP ---- */
	[IWS_RULE_DDP_VERSION] = { "ddp.version", "RFC 5041 §4.2", E, IWS_MEASURE_NONE,
		"DDP version not 1",
		"A DDP segment whose DV field is not 1: the receiver cannot interpret it and "
		"terminates (DDP layer, version error).",
		"DDP control octet 0x42 (DV 2)",
		"doctor-ddp-version", NULL },
	[IWS_RULE_DDP_RESERVED] = { "ddp.reserved", "RFC 5041 §4.2, RFC 5040 §4.2", D, IWS_MEASURE_NONE,
		"DDP/RDMAP reserved bits set",
		"Reserved bits of the DDP or RDMAP control field, or RsvdULP where RDMAP reserves "
		"it, are not zero: ignored by the RFCs' receivers, rejected by strict ones.",
		"DDP control octet 0x45 on a Write",
		"doctor-ddp-reserved", NULL },
	[IWS_RULE_DDP_MO_GAP] = { "ddp.mo_gap", "RFC 5041 §5.3", E, IWS_MEASURE_NONE,
		"untagged MO not continuous",
		"The segments of an untagged message do not continue each other (MO jumps) though "
		"no octets of the direction were lost: placement at the wrong offset.",
		"a Send's second segment at MO 2000 after 1000 octets",
		"doctor-ddp-mo-gap", NULL },
	[IWS_RULE_DDP_MSN_GAP] = { "ddp.msn_gap", "RFC 5041 §5.3", E, IWS_MEASURE_NONE,
		"MSN skipped",
		"An untagged queue's MSN jumps forward with no octets lost: the receiver completes "
		"the wrong receive buffer or terminates (invalid MSN).",
		"Sends with MSN 4, 5, 7",
		"doctor-ddp-msn-gap", NULL },
	[IWS_RULE_DDP_MSN_REPEAT] = { "ddp.msn_repeat", "RFC 5041 §5.3", E, IWS_MEASURE_NONE,
		"MSN repeated",
		"An untagged queue's MSN goes back or repeats: a message sent twice, or a sender "
		"that reset its counters.",
		"Sends with MSN 4, 5, 5",
		"doctor-ddp-msn-repeat", NULL },
	[IWS_RULE_DDP_MSN_START] = { "ddp.msn_start", "RFC 5041 §5.1", E, IWS_MEASURE_NONE,
		"queue's first MSN not 1",
		"The first message on an untagged queue carries an MSN other than 1, on a connection "
		"captured from its start: the receiver expects 1 and terminates (DDP, untagged buffer "
		"error, MSN range not valid), or the sender's count began before this connection.",
		"the first Send of the connection with MSN 2",
		"doctor-ddp-msn-start", NULL },
	[IWS_RULE_DDP_INVALID_QN] = { "ddp.invalid_qn", "RFC 5040 §5.1, RFC 7306 §5", E, IWS_MEASURE_NONE,
		"wrong untagged queue",
		"An untagged segment on a queue its opcode does not use (0: Sends and Immediate "
		"Data, 1: Read and Atomic Requests, 2: Terminate, 3: Atomic Responses).",
		"a Send on QN 5",
		"doctor-ddp-invalid-qn", NULL },
	[IWS_RULE_DDP_TAGGED_OVERRUN] = { "ddp.tagged_overrun", "RFC 5041 §4.3, RFC 5040 §5.2", E,
		IWS_MEASURE_NONE, "tagged buffer overrun",
		"A tagged segment runs past its buffer: Read Response octets beyond the size its "
		"Read Request asked for, or a TO that wraps past 2^64.",
		"a 4096-octet Read answered with 4160 octets",
		"doctor-ddp-tagged-overrun", NULL },
	[IWS_RULE_DDP_LAST_FLAG] = { "ddp.last_flag", "RFC 5041 §4.2, §5.3", E, IWS_MEASURE_NONE,
		"Last flag misused",
		"A single-segment message (Read Request, Terminate, Atomic, Immediate) without L, a "
		"new message before the previous one's last segment, or a segment after it.",
		"a Send's segments with MSN 6 begin before MSN 5 got its L=1 segment",
		"doctor-ddp-last-flag", NULL },
	/* ---- RDMAP ---- */
	[IWS_RULE_RDMAP_VERSION] = { "rdmap.version", "RFC 5040 §4.2", E, IWS_MEASURE_NONE,
		"RDMAP version not 1",
		"An RDMAP header whose RV field is not 1: the peer terminates (RDMAP layer, "
		"version error).",
		"RDMAP control octet 0x83 (RV 2, Send)",
		"doctor-rdmap-version", NULL },
	[IWS_RULE_RDMAP_OPCODE] = { "rdmap.opcode", "RFC 5040 §4.2, RFC 7306 §4.1", E, IWS_MEASURE_NONE,
		"RDMAP opcode not allowed",
		"An opcode RFC 5040/7306 do not define, or one on the wrong buffer model (a Send in "
		"a tagged segment, a Write in an untagged one): the peer terminates.",
		"opcode 0xC",
		"doctor-rdmap-opcode", NULL },
	[IWS_RULE_RDMAP_IRD_EXCEEDED] = { "rdmap.ird_exceeded", "RFC 6581 §5, RFC 5040 §5.2", E,
		IWS_MEASURE_NONE, "Reads outstanding above the peer's IRD",
		"More RDMA Read (and Atomic) Requests outstanding than the peer's negotiated IRD: "
		"the peer terminates or stalls; the application's ORD is larger than agreed.",
		"9 Reads outstanding towards an IRD of 8",
		"doctor-rdmap-ird-exceeded",
		"Read/Atomic Requests outstanding" },
	[IWS_RULE_RDMAP_READ_RESPONSE_SIZE] = { "rdmap.read_response_size", "RFC 5040 §5.2", E,
		IWS_MEASURE_NONE, "Read Response shorter than requested",
		"A Read's responses end (L=1) with fewer octets than its Read Request asked for.",
		"a 4096-octet Read answered with 2048 octets",
		"doctor-rdmap-read-response-size", NULL },
	[IWS_RULE_RDMAP_ORPHAN_RESPONSE] = { "rdmap.orphan_response", "RFC 5040 §5.2.1, RFC 7306 §8", E,
		IWS_MEASURE_NONE, "response without a request",
		"A Read or Atomic Response that answers no request, on a connection captured from "
		"its start with nothing lost: the peer sent data nobody asked for.",
		"a Read Response with no Read Request before it",
		"doctor-rdmap-orphan-response", NULL },
	[IWS_RULE_RDMAP_TERMINATE] = { "rdmap.terminate", "RFC 5040 §4.8, RFC 6581 (MPA codes)", E, IWS_MEASURE_NONE,
		"Terminate",
		"The peer ended the stream with a Terminate: its layer, error type and code say why, "
		"and the frame of the message it names, when found, says what caused it.",
		"DDP layer, tagged buffer error, invalid STag, caused by the Write in frame 31",
		"doctor-rdmap-terminate", NULL },
	[IWS_RULE_RDMAP_AFTER_TERMINATE] = { "rdmap.after_terminate", "RFC 5040 §4.8", E, IWS_MEASURE_NONE,
		"message after its sender's Terminate",
		"A side sent RDMAP messages after its own Terminate, which ends its stream.",
		"a Write sent 2 ms after the same side's Terminate",
		"doctor-rdmap-after-terminate", NULL },
	[IWS_RULE_RDMAP_READ_REQUEST_LE] = { "rdmap.read_request_le", "RFC 5040 §4.4", D,
		IWS_MEASURE_NONE, "Read Request fields little-endian",
		"The requester writes its Read Request fields (sink STag and TO, size, source STag and "
		"TO) least significant octet first, as an early software stack did: its peer's Read "
		"Responses carry the sink STag and TO byte-swapped. A peer that reads them as the RFC "
		"says fetches the wrong buffer, or terminates (invalid STag). Counted per Read Request "
		"(its fields up to the size captured) once a response showed the order.",
		"Read Request sink STag 0x01000000 answered by a Read Response to STag 0x00000001",
		"doctor-rdmap-read-request-le", NULL },
	/* ---- the connection ---- */
	[IWS_RULE_CONN_RST_OUTSTANDING] = { "conn.rst_outstanding", "RFC 5040 §6.2", E, IWS_MEASURE_NONE,
		"RST with operations outstanding",
		"A side reset the connection while RDMA operations were outstanding: they never "
		"complete (an application killed, a stack that aborts instead of terminating).",
		"RST with 3 Reads outstanding",
		"doctor-conn-rst-outstanding",
		"operations outstanding" },
	[IWS_RULE_CONN_FIN_OUTSTANDING] = { "conn.fin_outstanding", "RFC 5040 §6.2", D, IWS_MEASURE_NONE,
		"FIN with operations outstanding",
		"A side closed the connection while RDMA operations were outstanding: the stream is "
		"torn down under them.",
		"FIN with 2 Reads outstanding",
		"doctor-conn-fin-outstanding",
		"operations outstanding" },
	[IWS_RULE_CONN_ZERO_WINDOW_READS] = { "conn.zero_window_reads", "RFC 9293 §3.8.6", P,
		IWS_MEASURE_NONE, "zero window with Reads outstanding",
		"A receive window of 0 advertised while RDMA Reads are outstanding: Read "
		"Responses (or Requests) stall until the receiver opens it.",
		"window 0 from the requester with 4 Reads outstanding",
		"doctor-conn-zero-window-reads",
		"Reads outstanding" },
	/* ---- RPC over RDMA (RFC 8166), checked by the doctor's own RPC view (doctor_rpc.c) ---- */
	[IWS_RULE_RPC_CHUNK_LENGTH] = { "rpc.chunk_length", "RFC 8166 §3.4.5, §3.4.6, §3.5.3, §4.3", E,
		IWS_MEASURE_NONE, "chunk lengths do not add up",
		"The octets the responder moved through a chunk handle disagree with the lengths the "
		"headers state: more written into a write or reply chunk than the call offered, a "
		"reply whose write list states other lengths than were written, or a read chunk not "
		"pulled whole before the reply. The requester reads data that is not there, or loses some.",
		"a READ's write chunk of 4000 octets answered with 4096 octets of RDMA Writes",
		"doctor-rpc-chunk-length", NULL },
	[IWS_RULE_RPC_REPLY_CHUNK] = { "rpc.reply_chunk", "RFC 8166 §3.5.4, §4.2.4, §4.4", E,
		IWS_MEASURE_NONE, "reply chunk and reply disagree",
		"The reply went inline (RDMA_MSG) yet octets were written into its reply chunk, or "
		"an RDMA_NOMSG reply (its body in the reply chunk) to a call that offered no reply "
		"chunk or with nothing written into it: the requester finds the RPC body where it "
		"is not.",
		"an RDMA_NOMSG reply whose reply chunk received no RDMA Write",
		"doctor-rpc-reply-chunk", NULL },
	[IWS_RULE_RPC_CREDITS_EXCEEDED] = { "rpc.credits_exceeded", "RFC 8166 §3.3.1", E, IWS_MEASURE_NONE,
		"calls outstanding above the credits",
		"The requester had more RPC calls outstanding than the credits the responder last "
		"granted: the responder may have no receive buffer posted for the extra call and "
		"drop the connection.",
		"33 calls outstanding, 32 credits granted",
		"doctor-rpc-credits-exceeded",
		"calls outstanding" },
	[IWS_RULE_RPC_CREDIT_STALL] = { "rpc.credit_stall", "RFC 8166 §3.3.1, §3.3.2", P, IWS_MEASURE_NONE,
		"call held back by the credits",
		"The calls outstanding reached the credits the responder granted, and the requester's "
		"next call went out only after a reply freed a credit (before any further reply): "
		"calls waited for credits, not for the network. Each occurrence is the call that "
		"ended a wait; the stall is how long the window was full.",
		"32 calls outstanding on 32 credits for 1.2 ms, the 33rd sent 4 us after a reply",
		"doctor-rpc-credit-stall", NULL },
	[IWS_RULE_RPC_UNANNOUNCED_CHUNK] = { "rpc.unannounced_chunk", "RFC 8166 §3.4.1, §3.4.5", E,
		IWS_MEASURE_NONE, "RDMA into a chunk no call announced",
		"On an RPC-over-RDMA connection an RDMA Write or Read Request of the responder names "
		"a handle (STag) that no outstanding call listed in its chunks: data placed into, or "
		"pulled from, memory the requester did not offer for this RPC.",
		"an RDMA Write to STag 0x1a2b3c00 after its READ's reply",
		"doctor-rpc-unannounced-chunk", NULL },
};

#undef E
#undef D
#undef P

const struct iws_rule_info *iws_rule_info(enum iws_rule r)
{
	return (unsigned)r < IWS_RULE_COUNT ? &rules[r] : NULL;
}

int iws_rule_from_id(const char *id)
{
	if (!id)
		return -1;
	for (int r = 0; r < IWS_RULE_COUNT; r++)
		if (strcmp(rules[r].id, id) == 0)
			return r;
	return -1;
}

static const char *const severity_names[IWS_SEVERITY_COUNT] = { "error", "deviation", "performance" };

const char *iws_severity_name(enum iws_severity s)
{
	return (unsigned)s < IWS_SEVERITY_COUNT ? severity_names[s] : "?";
}

int iws_severity_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int s = 0; s < IWS_SEVERITY_COUNT; s++)
		if (strcmp(severity_names[s], name) == 0)
			return s;
	return -1;
}
