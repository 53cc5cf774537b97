// SPDX-License-Identifier: GPL-2.0-or-later
/* MPA Request/Reply frames and connection negotiation (RFC 5044 §7.1,
 * RFC 6581 §5), on real siw bytes and hostile variants. */
#include "check.h"
#include "iwarpscope/mpa.h"

/* samples/real/23-p2p-rping.pcap frames 4 and 6 (siw, peer_to_peer=1). */
static const char *p2p_req = "4d504120494420526571204672616d65 10 02 0004 8001 c001";
static const char *p2p_rep = "4d504120494420526570204672616d65 10 02 0004 8001 8001";
/* samples/real/19-mpav1-rping.pcap frame 4 (MPA rev 1, no private data). */
static const char *v1_req = "4d504120494420526571204672616d65 00 01 0000";
/* samples/real/13-crc-rping.pcap frame 4 (C and S set, IRD 1, ORD 1). */
static const char *crc_req = "4d504120494420526571204672616d65 50 02 0004 0001 0001";

int main(void)
{
	uint8_t b[1024];
	struct iws_mpa_frame f;
	struct iws_result r;

	/* Peer-to-peer Request: enhanced word with A, IRD 1, C+D (write and read
	 * RTR offered), ORD 1. */
	size_t n = hex2bin(p2p_req, b, sizeof(b));
	CHECK_EQ(n, 24);
	CHECK_EQ(iws_mpa_key_type(b, n), IWS_MPA_REQUEST);
	r = iws_mpa_parse_frame(b, n, &f);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(f.type, IWS_MPA_REQUEST);
	CHECK_EQ(f.rev, 2);
	CHECK(f.enhanced_flag && !f.markers && !f.crc && !f.reject);
	CHECK_EQ(f.pd_len, 4);
	CHECK_EQ(f.total_len, 24);
	CHECK(f.has_enhanced);
	CHECK(f.p2p);
	CHECK_EQ(f.ird, 1);
	CHECK_EQ(f.ord, 1);
	CHECK_EQ(f.rtr, IWS_RTR_WRITE | IWS_RTR_READ);
	CHECK_EQ(f.warnings, 0);  /* Rev 2 is not a warning */
	CHECK_EQ(f.f_ird.off, 20);
	CHECK_EQ(f.f_ord.off, 22);
	CHECK_EQ(f.f_ulp_pd.len, 0);

	/* Every prefix of it asks for more, and says how much. */
	for (size_t k = 1; k < n; k++) {
		r = iws_mpa_parse_frame(b, k, &f);
		CHECK_STATUS(r, IWS_NEED_MORE);
		CHECK_EQ(r.need, k < 20 ? 20 : 24);
	}

	/* Reply: the responder picks the write RTR. */
	struct iws_mpa_frame rep;
	n = hex2bin(p2p_rep, b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &rep), IWS_OK);
	CHECK_EQ(rep.type, IWS_MPA_REPLY);
	CHECK_EQ(rep.rtr, IWS_RTR_WRITE);

	/* Negotiation: p2p both ways, RTR write, IRD/ORD per side, SeqStarts. */
	struct iws_mpa_conn c;
	iws_mpa_conn_init(&c);
	n = hex2bin(p2p_req, b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_OK);
	iws_mpa_conn_request(&c, &f, 1000);
	CHECK_EQ(c.state, IWS_MPA_ST_REQUEST_SEEN);
	iws_mpa_conn_reply(&c, &rep, 5000);
	CHECK_EQ(c.state, IWS_MPA_ST_FULL);
	CHECK(c.p2p);
	CHECK_EQ(c.rtr, IWS_RTR_WRITE);
	CHECK(c.has_ird_ord);
	CHECK_EQ(c.ird[IWS_DIR_I2R], 1);
	CHECK_EQ(c.ord[IWS_DIR_R2I], 1);
	CHECK_EQ(c.dir[IWS_DIR_I2R].marker_base, 1000);
	CHECK_EQ(c.dir[IWS_DIR_R2I].marker_base, 5000);
	CHECK(!c.crc && !c.dir[0].markers && !c.dir[1].markers);

	/* MPA rev 1, no private data. */
	n = hex2bin(v1_req, b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_OK);
	CHECK_EQ(f.rev, 1);
	CHECK(!f.has_enhanced);
	CHECK_EQ(f.pd_len, 0);

	/* CRC asked by the Request alone turns CRC on for both directions; M in
	 * the Reply alone puts markers on the initiator's FPDUs only. */
	n = hex2bin(crc_req, b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_OK);
	CHECK(f.crc);
	iws_mpa_conn_init(&c);
	iws_mpa_conn_request(&c, &f, 0xFFFFFFF0u);
	struct iws_mpa_frame rep2 = rep;
	rep2.crc = false;
	rep2.markers = true;
	rep2.reject = false;
	rep2.p2p = false;
	iws_mpa_conn_reply(&c, &rep2, 77);
	CHECK(c.crc && c.dir[0].crc && c.dir[1].crc);
	CHECK(c.dir[IWS_DIR_I2R].markers);
	CHECK(!c.dir[IWS_DIR_R2I].markers);
	CHECK(!c.p2p);
	CHECK_EQ(c.rtr, 0);

	/* A rejecting Reply. */
	n = hex2bin(p2p_rep, b, sizeof(b));
	b[16] |= IWS_MPA_FLAG_R;
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &rep2), IWS_OK);
	CHECK(rep2.reject);
	iws_mpa_conn_reply(&c, &rep2, 0);
	CHECK_EQ(c.state, IWS_MPA_ST_REJECTED);

	/* Private data after the enhanced word, and warnings. */
	n = hex2bin("4d504120494420526571204672616d65 3f 03 0008 0010 0020 41424344", b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_OK);
	CHECK(f.warnings & IWS_MPA_W_RSVD_FLAGS);
	CHECK(f.warnings & IWS_MPA_W_UNKNOWN_REV);
	CHECK(f.warnings & IWS_MPA_W_S_NOT_REV2);
	CHECK(f.warnings & IWS_MPA_W_R_IN_REQUEST);
	CHECK_EQ(f.ird, 0x10);
	CHECK_EQ(f.ord, 0x20);
	CHECK_EQ(f.f_ulp_pd.off, 24);
	CHECK_EQ(f.f_ulp_pd.len, 4);

	/* S flag but no room for the enhanced word. */
	n = hex2bin("4d504120494420526571204672616d65 10 02 0002 0001", b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_OK);
	CHECK(f.warnings & IWS_MPA_W_ENH_SHORT);
	CHECK(!f.has_enhanced);

	/* Hostile: PD_Length 0xFFFF and 513 are malformed at once, without
	 * waiting for octets that would never make it legal. */
	n = hex2bin("4d504120494420526571204672616d65 10 02 ffff", b, sizeof(b));
	r = iws_mpa_parse_frame(b, n, &f);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 18);
	n = hex2bin("4d504120494420526570204672616d65 00 01 0201", b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_MALFORMED);
	/* PD_Length 512 exactly is legal. */
	n = hex2bin("4d504120494420526570204672616d65 00 01 0200", b, sizeof(b));
	memset(b + n, 0, 512);
	CHECK_STATUS(iws_mpa_parse_frame(b, n + 512, &f), IWS_OK);
	/* ...and wants all 512 octets. */
	r = iws_mpa_parse_frame(b, n + 100, &f);
	CHECK_STATUS(r, IWS_NEED_MORE);
	CHECK_EQ(r.need, 532);

	/* Not a key, and a near miss. */
	CHECK_STATUS(iws_mpa_parse_frame((const uint8_t *)"GET / HTTP/1.1\r\n\r\n....", 22, &f), IWS_MALFORMED);
	n = hex2bin("4d504120494420526571204672616d66 00 01 0000", b, sizeof(b));
	CHECK_STATUS(iws_mpa_parse_frame(b, n, &f), IWS_MALFORMED);
	CHECK_EQ(iws_mpa_key_type(b, 15), IWS_MPA_REQUEST);  /* prefix still matches */
	CHECK_EQ(iws_mpa_key_type(b, 16), 0);
	CHECK_EQ(iws_mpa_key_type(b, 0), 0);
	return check_done("test_mpa");
}
