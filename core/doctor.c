// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interop doctor (doctor.h): the entry points that hand what the
 * engine reported to the checks (doctor_mpa.c, doctor_frame.c,
 * doctor_rdma.c), which record what they find (doctor_record.c), and the
 * words for an occurrence.
 */
#include "doctor_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/names.h"
#include "iwarpscope/rpcrdma.h"

struct iws_doctor *iws_doctor_new(const struct iws_doctor_sink *sink, void *ctx)
{
	struct iws_doctor *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (sink)
		d->sink = *sink;
	d->ctx = ctx;
	return d;
}

void iws_doctor_free(struct iws_doctor *d)
{
	if (!d)
		return;
	doc_free_rings(d);
	doc_rpc_free(d);
	free(d->sums);
	free(d);
}

/* ---- entry points ---- */

void iws_doctor_segment(struct iws_doctor *d, const struct iws_doctor_facts *fa, int side,
			const struct iws_tcp_seg *seg)
{
	if (!d || d->finished || (side != 0 && side != 1))
		return;
	struct doc_side *s = &d->side[side];
	if (seg->flags & IWS_TCP_SYN) {
		s->syn = true;
		s->isn = seg->seq;
		uint16_t mss = iws_tcp_opt_mss(seg->opts, seg->opts_len);
		if (mss)
			s->mss = mss;
	}
	/* data on a SYN follows the SYN's own sequence number */
	uint32_t seq = (seg->flags & IWS_TCP_SYN) ? seg->seq + 1 : seg->seq;
	d->cur = true;
	d->cur_side = side;
	d->cur_seq = seq;
	d->cur_payload = seg->payload;
	d->cur_cap = seg->payload ? seg->cap_len : 0;
	d->cur_frame = seg->frame;
	/* a snapshot length cut it: what follows in its octets is not known */
	if (seg->cap_len < seg->wire_len)
		d->sliced = true;
	doc_mpa_segment(d, fa, side, seg);
	if (fa->state == IWS_SST_NOT_IWARP)
		doc_free_rings(d);  /* nothing of it will be framed */
	else
		doc_frame_segment(d, side, seg);
	doc_rdma_segment(d, fa, side, seg);
}

void iws_doctor_pdu(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_pdu *p)
{
	if (!d || d->finished || p->dir > 1)
		return;
	if (p->kind == IWS_PDU_MPA_FRAME) {
		doc_frame_mpa(d, p);
		doc_mpa_frame(d, fa, p);
		return;
	}
	d->dir[p->dir].fpdus++;
	doc_mpa_fpdu(d, fa, p);
	if (d->dir[p->dir].garbled)
		return;
	doc_frame_fpdu(d, fa, p);
	doc_rdma_fpdu(d, fa, p);
	doc_rpc_pdu(d, p);
}

void iws_doctor_op(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_op *op)
{
	if (!d || d->finished)
		return;
	doc_rdma_op(d, fa, op);
}

void iws_doctor_event(struct iws_doctor *d, const struct iws_doctor_facts *fa, const struct iws_stream_event *ev)
{
	if (!d || d->finished || ev->dir > 1)
		return;
	doc_frame_event(d, ev);
	doc_rdma_event(d, fa, ev);
	doc_rpc_event(d, ev);
}

void iws_doctor_finish(struct iws_doctor *d, const struct iws_doctor_facts *fa)
{
	if (!d || d->finished)
		return;
	d->cur = false;
	doc_mpa_finish(d, fa);
	d->finished = true;
	doc_free_rings(d);
	doc_rpc_free(d);
}

/* ---- words ---- */

/* An RTR type mask (IWS_RTR_*) in words: "zero-length RDMA Write",
 * "zero-length Send or zero-length RDMA Read", "none". */
static const char *rtr_words(char *buf, size_t len, uint64_t mask)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t bit = IWS_RTR_SEND; bit <= IWS_RTR_READ && n < len; bit <<= 1) {
		if (!(mask & bit))
			continue;
		int k = snprintf(buf + n, len - n, "%s%s", n ? " or " : "", iws_rtr_name(bit));
		if (k > 0)
			n += (size_t)k;
	}
	return n ? buf : "none";
}

/* The sentence of an occurrence of a rule on an MPA Request or Reply
 * header (each rule's RFC section: rules.c); false for another rule. */
static bool finding_text_mpa_header(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0];
	switch (f->rule) {
	case IWS_RULE_MPA_KEY: {
		static const char *const what[] = {
			"MPA key", "a damaged MPA key", "an MPA Request from both sides",
			"an MPA Reply from both sides", "an MPA Reply before any Request",
		};
		snprintf(buf, len, "%s", what[v[0] < 5 ? v[0] : 0]);
		break;
	}
	case IWS_RULE_MPA_REVISION:
		if (v[1] == 1)
			snprintf(buf, len, "MPA Rev %llu: neither 1 nor 2", a);
		else if (v[1] == 2)
			snprintf(buf, len, "the Reply's Rev %llu is above the Request's Rev %llu", a,
				 (unsigned long long)v[2]);
		else
			snprintf(buf, len, "S flag with Rev %llu (RFC 6581 wants Rev 2)", a);
		break;
	case IWS_RULE_MPA_RESERVED_FLAGS:
		snprintf(buf, len, "MPA %s flags 0x%02llx: reserved bits 0x%02llx set",
			 v[1] == 1 ? "Request" : "Reply", a, (unsigned long long)v[2]);
		break;
	case IWS_RULE_MPA_SIW_GSO_FLAG:
		snprintf(buf, len, "MPA %s flags 0x%02llx: siw's GSO bit 0x08",
			 v[1] == 1 ? "Request" : "Reply", a);
		break;
	case IWS_RULE_MPA_PD_LEN:
		if (v[1] == 1)
			snprintf(buf, len, "PD_Length %llu is above 512", a);
		else
			snprintf(buf, len, "S flag with PD_Length %llu: no room for the IRD/ORD word", a);
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a rule on what MPA negotiated (peer-to-peer, IRD/ORD, markers, CRC, reject). */
static bool finding_text_mpa_negotiation(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	char r1[96], r2[96];
	switch (f->rule) {
	case IWS_RULE_MPA_P2P_NEGOTIATION:
		switch (v[0]) {
		case 1:
			snprintf(buf, len, "the Reply sets A (peer-to-peer) without the Request's A");
			break;
		case 2:
			snprintf(buf, len, "peer-to-peer Reply selects no RTR type");
			break;
		case 3:
			snprintf(buf, len, "peer-to-peer Reply selects several RTR types (%s)", rtr_words(r1, sizeof(r1), v[1]));
			break;
		case 4:
			snprintf(buf, len, "the Reply selects %s RTR, the Request offered %s",
				 rtr_words(r1, sizeof(r1), v[1]), rtr_words(r2, sizeof(r2), v[2]));
			break;
		default:
			snprintf(buf, len, "peer-to-peer Request offers no RTR type");
			break;
		}
		break;
	case IWS_RULE_MPA_RTR_MISMATCH:
		if (v[0] == 2)
			snprintf(buf, len, "the responder sent an FPDU before the initiator's %s RTR",
				 rtr_words(r1, sizeof(r1), v[2]));
		else
			snprintf(buf, len, "the first FPDU is %s of %llu octets, not the zero-length %s RTR",
				 iws_rdmap_opcode_name((uint32_t)v[1] & 0xFF),
				 (unsigned long long)(v[1] >> 8), rtr_words(r1, sizeof(r1), v[2]));
		break;
	case IWS_RULE_MPA_IRD_ORD:
		snprintf(buf, len, "the Reply's ORD %llu is above the Request's IRD %llu", a, b);
		break;
	case IWS_RULE_MPA_MARKERS_NEGOTIATION:
		if (v[0] == 1)
			snprintf(buf, len, "markers negotiated, no marker at SeqStart (%02llx %02llx %02llx %02llx)",
				 (unsigned long long)(v[1] >> 24 & 0xFF), (unsigned long long)(v[1] >> 16 & 0xFF),
				 (unsigned long long)(v[1] >> 8 & 0xFF), (unsigned long long)(v[1] & 0xFF));
		else
			snprintf(buf, len, "markers not negotiated, but a marker at SeqStart");
		break;
	case IWS_RULE_MPA_CRC_NOT_SENT:
		snprintf(buf, len, "CRC negotiated, CRC field 00000000 (computed 0x%08llx)", a);
		break;
	case IWS_RULE_MPA_REJECT:
		snprintf(buf, len, "the MPA Reply rejects the connection (R)%s",
			 v[0] ? " with private data" : "");
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a framing rule (FPDUs, markers, CRC on the TCP stream). */
static bool finding_text_framing(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_FRAMING_FPDU_OVER_MSS:
		snprintf(buf, len, "FPDU of %llu octets, the receiver's MSS is %llu", a, b);
		break;
	case IWS_RULE_FRAMING_FPDU_SPLIT:
		snprintf(buf, len, "FPDU of %llu octets not within one TCP segment", a);
		break;
	case IWS_RULE_FRAMING_FPDU_UNALIGNED:
		snprintf(buf, len, "FPDU starts %llu octets into a TCP segment that began inside an FPDU", b);
		break;
	case IWS_RULE_FRAMING_FPDU_PACKED:
		snprintf(buf, len, "FPDU packed %llu octets into a TCP segment, after another FPDU", b);
		break;
	case IWS_RULE_FRAMING_MARKER_FPDUPTR_LE:
		snprintf(buf, len, "marker %llu octets into the FPDU: FPDUPTR %llu carried as 00 00 %02llx %02llx", a, b,
			 b & 0xFF, b >> 8);
		break;
	case IWS_RULE_FRAMING_MARKER_SKIP_CRC:
	case IWS_RULE_FRAMING_MARKER_OFFSET:
		if (f->at_least)
			snprintf(buf, len, "%s (SeqStart not captured: its markers off the RFC grid not told apart)",
				 iws_marker_dev_text(f->rule == IWS_RULE_FRAMING_MARKER_OFFSET ? IWS_MARKER_DEV_OFFSET
											: IWS_MARKER_DEV_SKIP_CRC));
		else
			snprintf(buf, len, "marker %llu octets past SeqStart + 512n (%llu such in the FPDU)", a, b);
		break;
	case IWS_RULE_FRAMING_MARKER_ERROR:
		snprintf(buf, len, "%llu marker%s with a wrong FPDUPTR or reserved field", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_FRAMING_CRC_ERROR:
		snprintf(buf, len, "CRC 0x%08llx, computed 0x%08llx", a, b);
		break;
	case IWS_RULE_FRAMING_PAD_NONZERO:
		snprintf(buf, len, "PAD of %llu octets is 0x%0*llx", b, (int)(2 * v[1]), a);
		break;
	default:
		return false;
	}
	return true;
}

/* ... of a DDP rule. */
static bool finding_text_ddp(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_DDP_VERSION:
		snprintf(buf, len, "DDP version %llu", a);
		break;
	case IWS_RULE_DDP_RESERVED:
		if (v[2])
			snprintf(buf, len, "RsvdULP 0x%08llx on %s", (unsigned long long)v[2],
				 iws_rdmap_opcode_name((uint32_t)(v[1] & 0xF)));
		else
			snprintf(buf, len, "DDP control 0x%02llx, RDMAP control 0x%02llx: reserved bits set", a, b);
		break;
	case IWS_RULE_DDP_MO_GAP:
		snprintf(buf, len, "QN %llu MSN %llu: MO %llu does not continue the message",
			 (unsigned long long)v[2], b, a);
		break;
	case IWS_RULE_DDP_MSN_GAP:
		snprintf(buf, len, "QN %llu: MSN %llu after %llu", (unsigned long long)v[2], a, b);
		break;
	case IWS_RULE_DDP_MSN_REPEAT:
		snprintf(buf, len, "QN %llu: MSN %llu again after %llu", (unsigned long long)v[2], a, b);
		break;
	case IWS_RULE_DDP_MSN_START:
		snprintf(buf, len, "QN %llu: the first message has MSN %llu, not 1", b, a);
		break;
	case IWS_RULE_DDP_INVALID_QN:
		snprintf(buf, len, "%s on QN %llu", iws_rdmap_opcode_name((uint32_t)v[1]), a);
		break;
	case IWS_RULE_DDP_TAGGED_OVERRUN:
		if (v[0] == 2)
			snprintf(buf, len, "tagged segment: TO 0x%016llx + %llu octets wraps 2^64", b,
				 (unsigned long long)v[2]);
		else
			snprintf(buf, len, "Read Response octets past the size its Read Request (frame %llu) asked for",
				 b);
		break;
	case IWS_RULE_DDP_LAST_FLAG:
		switch (v[0]) {
		case 2:
			snprintf(buf, len, "MSN %llu begins before MSN %llu's last segment (L)", b,
				 (unsigned long long)v[2]);
			break;
		case 3:
			snprintf(buf, len, "a segment of MSN %llu after its last segment (L)", b);
			break;
		default:
			snprintf(buf, len, "single-segment %s without L or with MO != 0",
				 iws_rdmap_opcode_name((uint32_t)v[1]));
			break;
		}
		break;
	default:
		return false;
	}
	return true;
}

/* ... of an RDMAP or connection rule. */
static bool finding_text_rdmap_conn(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1];
	switch (f->rule) {
	case IWS_RULE_RDMAP_VERSION:
		snprintf(buf, len, "RDMAP version %llu", a);
		break;
	case IWS_RULE_RDMAP_OPCODE:
		if (v[1] == 0)
			snprintf(buf, len, "RDMAP opcode 0x%llx is not defined", a);
		else
			snprintf(buf, len, "%s in a%s DDP segment", iws_rdmap_opcode_name((uint32_t)v[0]),
				 v[1] == 1 ? "n untagged" : " tagged");
		break;
	case IWS_RULE_RDMAP_IRD_EXCEEDED:
		snprintf(buf, len, "%llu Read/Atomic Requests outstanding, the peer's IRD is %llu", a, b);
		break;
	case IWS_RULE_RDMAP_READ_RESPONSE_SIZE:
		snprintf(buf, len, "Read Responses carried %llu of the %llu octets requested", a, b);
		break;
	case IWS_RULE_RDMAP_ORPHAN_RESPONSE:
		snprintf(buf, len, "%s answers no request", iws_rdmap_opcode_name((uint32_t)v[0]));
		break;
	case IWS_RULE_RDMAP_TERMINATE: {
		uint32_t layer = (uint32_t)(v[0] >> 16 & 0xF), et = (uint32_t)(v[0] >> 8 & 0xF),
			 code = (uint32_t)(v[0] & 0xFF);
		int n = snprintf(buf, len, "%s, %s: %s", iws_term_layer_name(layer),
				 iws_term_etype_name(layer, et), iws_term_errcode_name(layer, et, code));
		if (v[1] && n > 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, "; caused by frame %llu", b);
		break;
	}
	case IWS_RULE_RDMAP_AFTER_TERMINATE:
		snprintf(buf, len, "%s after this side's Terminate in frame %llu",
			 iws_rdmap_opcode_name((uint32_t)v[0]), b);
		break;
	case IWS_RULE_RDMAP_READ_REQUEST_LE:
		snprintf(buf, len, "Read Request of %llu octets to sink STag 0x%08llx written least significant "
			 "octet first (the sender's Read Responses showed it from frame %llu)", b, a,
			 (unsigned long long)v[2]);
		break;
	case IWS_RULE_CONN_RST_OUTSTANDING:
		snprintf(buf, len, "RST with %llu operation%s outstanding", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_CONN_FIN_OUTSTANDING:
		snprintf(buf, len, "FIN with %llu operation%s outstanding", a, a == 1 ? "" : "s");
		break;
	case IWS_RULE_CONN_ZERO_WINDOW_READS:
		snprintf(buf, len, "window 0 with %llu Read%s outstanding", a, a == 1 ? "" : "s");
		break;
	default:
		return false;
	}
	return true;
}

/* ... of an RPC-over-RDMA rule (values: doctor_rpc.c). */
static bool finding_text_rpc(char *buf, size_t len, const struct iws_finding *f)
{
	const uint64_t *v = f->v;
	unsigned long long a = (unsigned long long)v[0], b = (unsigned long long)v[1],
			   c = (unsigned long long)v[2];
	switch (f->rule) {
	case IWS_RULE_RPC_CHUNK_LENGTH:
		/* v[0]: the handle, the check (IWS_RPC_LEN_*) in its upper 32 bits;
		 * v[1]: what a header states; v[2]: octets moved */
		snprintf(buf, len, "chunk handle 0x%08llx: %s %llu octets, %llu moved", a & 0xFFFFFFFFull,
			 (a >> 32) == IWS_RPC_LEN_REPLY_LIST ? "the reply's write list states" :
			 (a >> 32) == IWS_RPC_LEN_READ_SHORT ? "read chunk of" : "the call offered",
			 b, c);
		break;
	case IWS_RULE_RPC_REPLY_CHUNK:
		if (v[0] == IWS_RPC_RCH_INLINE)
			snprintf(buf, len, "inline reply (RDMA_MSG) with %llu octets written into its reply chunk", b);
		else if (v[0] == IWS_RPC_RCH_NONE)
			snprintf(buf, len, "RDMA_NOMSG reply to a call that offered no reply chunk");
		else
			snprintf(buf, len, "RDMA_NOMSG reply with nothing written into its reply chunk");
		break;
	case IWS_RULE_RPC_CREDITS_EXCEEDED:
		snprintf(buf, len, "%llu call%s outstanding, %llu credit%s granted", a, a == 1 ? "" : "s", b,
			 b == 1 ? "" : "s");
		break;
	case IWS_RULE_RPC_CREDIT_STALL:
		snprintf(buf, len, "call sent after the reply in frame %llu freed one of %llu credits; the window "
			 "was full for %llu ns", c, a, b);
		break;
	case IWS_RULE_RPC_UNANNOUNCED_CHUNK:
		snprintf(buf, len, "%s to STag 0x%08llx, listed by no call outstanding",
			 v[1] ? "RDMA Read Request" : "RDMA Write", a & 0xFFFFFFFFull);
		break;
	default:
		return false;
	}
	return true;
}

const char *iws_finding_text(char *buf, size_t len, const struct iws_finding *f)
{
	if (!len)
		return buf;
	if (!finding_text_mpa_header(buf, len, f) && !finding_text_mpa_negotiation(buf, len, f) &&
	    !finding_text_framing(buf, len, f) && !finding_text_ddp(buf, len, f) &&
	    !finding_text_rdmap_conn(buf, len, f) && !finding_text_rpc(buf, len, f))
		snprintf(buf, len, "?");
	return buf;
}

uint64_t iws_permille(uint64_t count, uint64_t of)
{
	return of ? (count * 1000 + of / 2) / of : 0;
}

/* snprintf at buf + *n, never past len. */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	if (*n >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < len ? *n + (size_t)k : len;
}

const char *iws_finding_sum_text(char *buf, size_t len, const struct iws_finding_sum *s)
{
	const struct iws_rule_info *ri = iws_rule_info(s->rule);
	char text[256];
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	add(buf, len, &n, "  %-11s %-26s %s  %s%" PRIu64, iws_severity_name(ri->severity), ri->id,
	    s->dir == IWS_DIR_I2R ? "i2r" : "r2i", s->count_at_least ? "at least " : "", s->count);
	if (ri->measure != IWS_MEASURE_NONE) {
		uint64_t pm = iws_permille(s->count, s->of);
		add(buf, len, &n, " of %" PRIu64 " FPDUs (%" PRIu64 ".%" PRIu64 "%%)", s->of, pm / 10, pm % 10);
	}
	if (ri->max_what)
		add(buf, len, &n, ", most %s: %s%" PRIu64, ri->max_what, s->max_at_least ? "at least " : "",
		    s->max_value);
	add(buf, len, &n, "  frames %" PRIu64 "..%" PRIu64 ":", s->first_frame, s->last_frame);
	for (uint32_t m = 0; m < s->nsamples; m++)
		add(buf, len, &n, " %" PRIu64, s->samples[m]);
	add(buf, len, &n, "%s\n              %s: %s (%s)\n", s->count > s->nsamples ? " ..." : "", ri->title,
	    iws_finding_text(text, sizeof(text), &s->first), ri->ref);
	return buf;
}

const char *iws_doctor_unchecked_text(char *buf, size_t len, const struct iws_doctor *d)
{
	static const char *const why[] = { "the MPA handshake", "whole FPDUs (snapshot length)",
					   "every octet of the stream" };
	uint32_t unseen;
	uint64_t rules = iws_doctor_unchecked(d, &unseen);
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	if (!rules)
		return buf;
	add(buf, len, &n, "  not checked:");
	const char *sep = " ";
	for (int r = 0; r < IWS_RULE_COUNT; r++) {
		if (!(rules >> r & 1))
			continue;
		/* the MPA rules all need the handshake: one name for them */
		if (r <= IWS_RULE_MPA_REJECT) {
			add(buf, len, &n, "%smpa.*", sep);
			sep = ", ";
			r = IWS_RULE_MPA_REJECT;
			continue;
		}
		add(buf, len, &n, "%s%s", sep, iws_rule_info((enum iws_rule)r)->id);
		sep = ", ";
	}
	add(buf, len, &n, " (not captured:");
	sep = " ";
	for (uint32_t k = 0; k < 3; k++)
		if (unseen >> k & 1) {
			add(buf, len, &n, "%s%s", sep, why[k]);
			sep = ", ";
		}
	add(buf, len, &n, ")\n");
	return buf;
}

const char *iws_doctor_total_text(char *buf, size_t len, uint32_t qps, uint32_t qps_with,
				  const uint64_t by_sev[IWS_SEVERITY_COUNT])
{
	uint64_t all = by_sev[0] + by_sev[1] + by_sev[2];
	snprintf(buf, len,
		 "%" PRIu32 " QP%s, %" PRIu32 " with findings: %" PRIu64 " error, %" PRIu64 " deviation, %" PRIu64
		 " performance finding%s\n",
		 qps, qps == 1 ? "" : "s", qps_with, by_sev[IWS_SEVERITY_ERROR], by_sev[IWS_SEVERITY_DEVIATION],
		 by_sev[IWS_SEVERITY_PERFORMANCE], all == 1 ? "" : "s");
	return buf;
}
