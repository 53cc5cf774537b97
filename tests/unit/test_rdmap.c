// SPDX-License-Identifier: GPL-2.0-or-later
/* DDP headers (RFC 5041 §4) and RDMAP messages (RFC 5040 §4, RFC 7306):
 * complete, incomplete and malformed. ULPDUs start after the 2-octet MPA
 * ULPDU_Length. */
#include "check.h"
#include "iwarpscope/names.h"
#include "iwarpscope/rdmap.h"

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static size_t ulpdu(const char *hex, uint8_t *b)
{
	return hex2bin(hex, b, 70000);
}

int main(void)
{
	static uint8_t b[70000];
	struct iws_msg m;
	struct iws_result r;
	size_t n;

	/* Read Request from siw (samples/real/01-rping.pcap frame 17). */
	n = ulpdu("4141 00000000 00000001 00000001 00000000 ae65cf00 000055c74a7d0550 00000040 c0974400 0000561a9cd98370", b);
	CHECK_EQ(n, 46);
	r = iws_rdmap_parse(b, n, &m);
	CHECK_STATUS(r, IWS_OK);
	CHECK(!m.ddp.tagged && m.ddp.last);
	CHECK_EQ(m.ddp.dv, 1);
	CHECK_EQ(m.ddp.rv, 1);
	CHECK_EQ(m.ddp.opcode, IWS_OP_CODE_READ_REQ);
	CHECK_EQ(m.ddp.qn, 1);
	CHECK_EQ(m.ddp.msn, 1);
	CHECK_EQ(m.ddp.mo, 0);
	CHECK_EQ(m.u.read_req.sink_stag, 0xae65cf00u);
	CHECK_EQ(m.u.read_req.sink_to, 0x000055c74a7d0550ull);
	CHECK_EQ(m.u.read_req.size, 64);
	CHECK_EQ(m.u.read_req.src_stag, 0xc0974400u);
	CHECK_EQ(m.u.read_req.src_to, 0x0000561a9cd98370ull);
	CHECK_EQ(m.u.read_req.f_size.off, 30);
	CHECK_EQ(m.warnings, 0);
	/* every truncation of it */
	for (size_t k = 0; k < n; k++)
		CHECK_STATUS(iws_rdmap_parse(b, k, &m), IWS_NEED_MORE);
	/* a Read Request that is not the last segment is malformed */
	b[0] = 0x01;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);
	b[0] = 0x41;
	/* ... as is one on the Send queue */
	b[9] = 0;
	r = iws_rdmap_parse(b, n, &m);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 6);
	b[9] = 1;

	/* Read Response (01-rping frame 18), tagged, payload 64. */
	n = ulpdu("c142 ae65cf00 000055c74a7d0550", b);
	memset(b + n, 'A', 64);
	n += 64;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(m.ddp.tagged);
	CHECK_EQ(m.ddp.opcode, IWS_OP_CODE_READ_RESP);
	CHECK_EQ(m.ddp.stag, 0xae65cf00u);
	CHECK_EQ(m.ddp.to, 0x000055c74a7d0550ull);
	CHECK_EQ(m.payload_off, 14);
	CHECK_EQ(m.payload_len, 64);
	CHECK_EQ(m.ddp.f_to.off, 6);
	/* a tagged opcode in an untagged segment, and the reverse */
	b[0] = 0x41;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);
	b[0] = 0xc1;
	b[1] = 0x43;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);

	/* Zero-length RDMA Write (the RTR of 23-p2p-rping frame 8). */
	n = ulpdu("c140 00000000 0000000000000000", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK_EQ(m.ddp.opcode, IWS_OP_CODE_WRITE);
	CHECK_EQ(m.payload_len, 0);

	/* Versions: DDP 2 and RDMAP 0 are malformed; reserved bits only warn. */
	b[0] = 0xc2;
	r = iws_rdmap_parse(b, n, &m);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 0);
	b[0] = 0xc1;
	b[1] = 0x00;
	r = iws_rdmap_parse(b, n, &m);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 1);
	b[0] = 0xc1 | 0x3c;
	b[1] = 0x40 | 0x30;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(m.warnings & IWS_DDP_W_RSVD);
	CHECK(m.warnings & IWS_DDP_W_RDMAP_RSVD);
	CHECK_EQ(m.ddp.rsvd, 0xF);

	/* Reserved opcodes 0xC-0xF are malformed, in either buffer model. */
	for (uint8_t op = 0xC; op <= 0xF; op++) {
		n = ulpdu("4140 00000000 00000000 00000001 00000000", b);
		b[1] = (uint8_t)(0x40 | op);
		CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);
		b[0] = 0xc1;
		CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);
	}

	/* Send with Invalidate: RsvdULP is the Invalidate STag. */
	n = ulpdu("0144 12345678 00000000 00000007 00000400 deadbeef", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK_EQ(m.ddp.opcode, IWS_OP_CODE_SEND_INV);
	CHECK(!m.ddp.last);
	CHECK_EQ(m.ddp.rsvdulp, 0x12345678u);
	CHECK_EQ(m.ddp.msn, 7);
	CHECK_EQ(m.ddp.mo, 0x400);
	CHECK_EQ(m.payload_len, 4);
	CHECK_EQ(m.warnings, 0);
	/* a plain Send with a non-zero RsvdULP only warns */
	b[1] = 0x43;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(m.warnings & IWS_DDP_W_RSVDULP);

	/* Immediate Data with SE (RFC 7306 §4.3): 8 octets, QN 0. */
	n = ulpdu("4149 00000000 00000000 00000003 00000000 0102030405060708", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK_EQ(m.u.immediate, 0x0102030405060708ull);
	CHECK_EQ(m.f_immediate.off, 18);
	CHECK_STATUS(iws_rdmap_parse(b, n - 1, &m), IWS_NEED_MORE);
	b[n] = 0;
	CHECK_STATUS(iws_rdmap_parse(b, n + 1, &m), IWS_OK);
	CHECK(m.warnings & IWS_RDMAP_W_TRAILING);

	/* Atomic Request CmpSwap (RFC 7306 §5.2): QN 1, 52-octet header. */
	n = ulpdu("414a 00000000 00000001 00000002 00000000"
		  " 00000002 0000abcd 11223344 0000000000001000"
		  " 0000000000000005 ffffffffffffffff 0000000000000004 ffffffffffffffff", b);
	CHECK_EQ(n, 70);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK_EQ(m.u.atomic_req.aopcode, IWS_AOP_CMP_SWAP);
	CHECK_EQ(m.u.atomic_req.req_id, 0xabcd);
	CHECK_EQ(m.u.atomic_req.stag, 0x11223344u);
	CHECK_EQ(m.u.atomic_req.to, 0x1000);
	CHECK_EQ(m.u.atomic_req.add_swap, 5);
	CHECK_EQ(m.u.atomic_req.compare, 4);
	CHECK_EQ(m.u.atomic_req.f_compare_mask.off, 62);
	CHECK_STATUS(iws_rdmap_parse(b, 69, &m), IWS_NEED_MORE);
	b[21] = 0x07;  /* undefined atomic opcode: decodable, flagged */
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(m.warnings & IWS_RDMAP_W_AOP_UNKNOWN);
	/* Atomic Request on queue 0 is malformed. */
	b[9] = 0;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);

	/* Atomic Response: QN 3, original request id and value. */
	n = ulpdu("414b 00000000 00000003 00000001 00000000 0000abcd 0000000000000004", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK_EQ(m.u.atomic_resp.req_id, 0xabcd);
	CHECK_EQ(m.u.atomic_resp.orig_value, 4);
	b[9] = 1;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);

	/* Terminate as siw sends it for a remote protection error on a Read
	 * Request: layer RDMAP, etype 1, code 0 (invalid STag), M D R set, DDP
	 * segment length, the untagged DDP header, then the 28-octet Read
	 * Request header (RFC 5040 §4.8). */
	n = ulpdu("4147 00000000 00000002 00000001 00000000"
		  " 0100e000"
		  " 002e"
		  " 4141 00000000 00000001 00000005 00000000"
		  " ae65cf00 000055c74a7d0550 00000040 c0974400 0000561a9cd98370", b);
	r = iws_rdmap_parse(b, n, &m);
	CHECK_STATUS(r, IWS_OK);
	const struct iws_rdmap_terminate *t = &m.u.term;
	CHECK_EQ(t->layer, IWS_TERM_LAYER_RDMAP);
	CHECK_EQ(t->etype, 1);
	CHECK_EQ(t->errcode, 0);
	CHECK(t->m && t->d && t->r);
	CHECK(t->has_seg_len);
	CHECK_EQ(t->ddp_seg_len, 0x2e);
	CHECK(t->has_ddp);
	CHECK_STATUS(t->ddp_status, IWS_OK);
	CHECK_EQ(t->ddp.opcode, IWS_OP_CODE_READ_REQ);
	CHECK_EQ(t->ddp.msn, 5);
	CHECK_EQ(t->ddp.f_msn.off, 18 + 4 + 2 + 10);
	CHECK(t->has_rdmap);
	CHECK_EQ(t->rdmap.sink_stag, 0xae65cf00u);
	CHECK_EQ(t->rdmap.size, 64);
	CHECK_EQ(t->f_rdmap.off, 18 + 4 + 2 + 18);
	CHECK(streq(iws_term_errcode_name(t->layer, t->etype, t->errcode), "Invalid STag"));
	/* cut inside the embedded headers: NEED_MORE */
	CHECK_STATUS(iws_rdmap_parse(b, n - 1, &m), IWS_NEED_MORE);
	CHECK_STATUS(iws_rdmap_parse(b, 18 + 4 + 2 + 5, &m), IWS_NEED_MORE);
	/* a catastrophic Terminate with no headers */
	n = ulpdu("4147 00000000 00000002 00000001 00000000 00ff0000", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(!m.u.term.has_seg_len && !m.u.term.has_ddp && !m.u.term.has_rdmap);
	CHECK_EQ(m.u.term.errcode, 0xff);
	/* a DDP-layer Terminate embedding a tagged header with a bad version:
	 * the Terminate decodes and reports the embedded header's status */
	n = ulpdu("4147 00000000 00000002 00000002 00000000 1104c000 0040 c3 40 00000001 0000000000000000", b);
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_OK);
	CHECK(m.u.term.has_ddp);
	CHECK_STATUS(m.u.term.ddp_status, IWS_MALFORMED);
	CHECK(streq(iws_term_errcode_name(1, 1, 4), "Invalid DDP version"));
	/* Terminate on the Send queue is malformed */
	b[9] = 0;
	CHECK_STATUS(iws_rdmap_parse(b, n, &m), IWS_MALFORMED);

	/* Names. */
	CHECK(streq(iws_rdmap_opcode_name(0x8), "Immediate Data"));
	CHECK(iws_rdmap_opcode_name(0xC) == NULL);
	CHECK(streq(iws_term_errcode_name(2, 0, 7), "No matching RTR option"));
	CHECK(streq(iws_term_etype_name(1, 2), "Untagged Buffer Error"));
	CHECK(streq(iws_aopcode_name(0), "FetchAdd"));
	CHECK_EQ(iws_rdmap_opcode_queue(0xB), 3);
	CHECK_EQ(iws_rdmap_opcode_queue(0x2), (unsigned long long)-1);
	return check_done("test_rdmap");
}
