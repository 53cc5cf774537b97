// SPDX-License-Identifier: GPL-2.0-or-later
/* FPDU framing (RFC 5044 §4): length, pad, CRC, marker positions across a
 * sequence-number wrap, marker removal and FPDUPTR validation. The expected
 * layouts are worked out by hand in the comments. */
#include "check.h"
#include "iwarpscope/crc32c.h"
#include "iwarpscope/mpa.h"

static uint8_t wire[70000], scratch[65536], expect[65536];

/* A Send ULPDU of `len` octets: untagged header QN 0 MSN 1 MO 0, L set,
 * then a recognisable payload. */
static void make_ulpdu(uint8_t *u, uint16_t len)
{
	memset(u, 0, len);
	u[0] = 0x41;  /* L, DV 1 */
	u[1] = 0x43;  /* RV 1, Send */
	put_be32(u + 10, 1);
	for (uint32_t i = 18; i < len; i++)
		u[i] = (uint8_t)(i * 7 + 3);
}

static void put_crc(uint8_t *p, uint32_t c)
{
	p[0] = (uint8_t)c;
	p[1] = (uint8_t)(c >> 8);
	p[2] = (uint8_t)(c >> 16);
	p[3] = (uint8_t)(c >> 24);
}

int main(void)
{
	struct iws_fpdu f;
	struct iws_result r;
	struct iws_mpa_dir plain = { false, true, 0, false, false };

	/* --- no markers: a real siw FPDU (13-crc-rping frame 8): ULPDU 34 octets,
	 * no pad (2 + 34 is a multiple of 4), CRC 0x0FD9025B carried LSB first --- */
	size_t n = hex2bin("00224143000000000000000000000001000000000000557c372584c005ff810000000fa0 5b02d90f",
			   wire, sizeof(wire));
	r = iws_mpa_fpdu_parse(wire, n, 1234, &plain, true, NULL, 0, &f);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(f.ulpdu_len, 34);
	CHECK_EQ(f.pad, 0);
	CHECK_EQ(f.wire_len, 40);
	CHECK_EQ(f.len_off, 0);
	CHECK_EQ(f.ulpdu_off, 2);
	CHECK_EQ(f.pad_off, 36);
	CHECK_EQ(f.crc_off, 36);
	CHECK_EQ(f.crc_wire, 0x0FD9025Bu);
	CHECK_EQ(f.crc_status, IWS_CRC_OK);
	CHECK(f.ulpdu == wire + 2);
	/* One flipped payload bit: bad CRC. */
	wire[30] ^= 0x10;
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, n, 1234, &plain, true, NULL, 0, &f), IWS_OK);
	CHECK_EQ(f.crc_status, IWS_CRC_BAD);
	/* CRC not negotiated or not checked: not checked. */
	struct iws_mpa_dir nocrc = { false, false, 0, false, false };
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, n, 1234, &nocrc, true, NULL, 0, &f), IWS_OK);
	CHECK_EQ(f.crc_status, IWS_CRC_NOT_CHECKED);
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, n, 1234, &plain, false, NULL, 0, &f), IWS_OK);
	CHECK_EQ(f.crc_status, IWS_CRC_NOT_CHECKED);
	/* Incomplete: every prefix asks for the whole FPDU (or the length field). */
	for (size_t k = 0; k < n; k++) {
		r = iws_mpa_fpdu_parse(wire, k, 1234, &plain, true, NULL, 0, &f);
		CHECK_STATUS(r, IWS_NEED_MORE);
		CHECK_EQ(r.need, k < 2 ? 2 : 40);
	}
	/* Malformed: a ULPDU_Length below a DDP header (0, 13). */
	wire[0] = 0;
	wire[1] = 0;
	r = iws_mpa_fpdu_parse(wire, n, 1234, &plain, true, NULL, 0, &f);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 0);
	wire[1] = 13;
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, n, 1234, &plain, true, NULL, 0, &f), IWS_MALFORMED);
	/* A length running far past the buffer just asks for more: the caller
	 * bounds how long it waits. */
	wire[0] = 0xFF;
	wire[1] = 0xFF;
	r = iws_mpa_fpdu_parse(wire, n, 1234, &plain, true, NULL, 0, &f);
	CHECK_STATUS(r, IWS_NEED_MORE);
	CHECK_EQ(r.need, 2 + 65535 + 3 + 4);

	/* --- pad lengths --- */
	CHECK_EQ(iws_mpa_pad_len(14), 0);
	CHECK_EQ(iws_mpa_pad_len(15), 3);
	CHECK_EQ(iws_mpa_pad_len(16), 2);
	CHECK_EQ(iws_mpa_pad_len(17), 1);
	CHECK_EQ(iws_mpa_pad_len(65535), 3);

	/* --- marker arithmetic ---
	 * Markers at SeqStart + 512k. An FPDU starting on a marker position with
	 * ULPDU_Length 1000 has body 2+1000+2+4 = 1008 octets; markers fall at
	 * offsets 0 and 512 (a third at 1024 would lie past 1008+8), so the FPDU
	 * is 1016 octets on the wire. */
	struct iws_mpa_dir mk = { true, false, 5000, false, false };
	CHECK(iws_mpa_marker_at(&mk, 5000));
	CHECK(iws_mpa_marker_at(&mk, 5512));
	CHECK(!iws_mpa_marker_at(&mk, 5004));
	CHECK_EQ(iws_mpa_next_marker_dist(&mk, 5000), 0);
	CHECK_EQ(iws_mpa_next_marker_dist(&mk, 5004), 508);
	CHECK_EQ(iws_mpa_fpdu_wire_len(&mk, 5000, 1000), 1016);
	CHECK_EQ(iws_mpa_len_field_off(&mk, 5000), 4);
	/* Starting 256 octets after a marker: markers at offsets 256 and 768
	 * (768 < 1008 + 8), none at 1280: again 1016. */
	CHECK_EQ(iws_mpa_fpdu_wire_len(&mk, 5256, 1000), 1016);
	/* A body of exactly 508 octets between two markers: ULPDU 502 (pad 0).
	 * From a marker position: marker at 0 only (512 is not < 508+4+... the
	 * next marker would be at 512 == 508+4, i.e. just after: next FPDU). */
	CHECK_EQ(iws_mpa_fpdu_wire_len(&mk, 5000, 502), 512);
	/* One more ULPDU octet pushes the CRC over the next marker. */
	CHECK_EQ(iws_mpa_fpdu_wire_len(&mk, 5000, 503), 512 + 4 + 4);
	/* Wrap: SeqStart 0xFFFFFF00; an FPDU at seq 0 (256 into the interval)
	 * has markers at seq 256 and 768 - the same as above. */
	struct iws_mpa_dir wrap = { true, false, 0xFFFFFF00u, false, false };
	CHECK_EQ(iws_mpa_next_marker_dist(&wrap, 0), 256);
	CHECK_EQ(iws_mpa_fpdu_wire_len(&wrap, 0, 1000), 1016);
	CHECK(iws_mpa_marker_at(&wrap, 0xFFFFFF00u + 512u));  /* = 0x100 */
	CHECK(iws_mpa_marker_at(&wrap, 0x100));
	/* An FPDU 4 octets before the wrap with a marker at seq 0. */
	struct iws_mpa_dir wrap2 = { true, true, 0xFFFFFFFCu - 508u, false, false };
	CHECK_EQ(iws_mpa_next_marker_dist(&wrap2, 0xFFFFFFFCu), 4);
	CHECK(iws_mpa_marker_at(&wrap2, 0));

	/* --- build the 1016-octet FPDU by hand and parse it ---
	 * wire 0..4 marker (FPDUPTR 0); 4..6 ULPDU_Length; 6..512 ULPDU[0..506);
	 * 512..516 marker (FPDUPTR 508: the distance back to ULPDU_Length); 516..1010 ULPDU[506..1000); 1010..1012
	 * pad; 1012..1016 CRC over wire[0..1012). */
	uint8_t u[1000];
	make_ulpdu(u, 1000);
	memset(wire, 0xEE, sizeof(wire));
	put_be16(wire + 0, 0);
	put_be16(wire + 2, 0);
	put_be16(wire + 4, 1000);
	memcpy(wire + 6, u, 506);
	put_be16(wire + 512, 0);
	put_be16(wire + 514, 508);
	memcpy(wire + 516, u + 506, 494);
	wire[1010] = wire[1011] = 0;
	struct iws_mpa_dir mkc = { true, true, 5000, false, false };
	put_crc(wire + 1012, iws_crc32c_sw(0, wire, 1012));
	r = iws_mpa_fpdu_parse(wire, 1016, 5000, &mkc, true, scratch, sizeof(scratch), &f);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(f.wire_len, 1016);
	CHECK_EQ(f.len_off, 4);
	CHECK_EQ(f.ulpdu_off, 6);
	CHECK_EQ(f.pad_off, 1010);
	CHECK_EQ(f.crc_off, 1012);
	CHECK_EQ(f.n_markers, 2);
	CHECK_EQ(f.markers[0].off, 0);
	CHECK_EQ(f.markers[0].fpduptr, 0);
	CHECK_EQ(f.markers[1].off, 512);
	CHECK_EQ(f.markers[1].fpduptr, 508);
	CHECK_EQ(f.marker_errors, 0);
	CHECK_EQ(f.crc_status, IWS_CRC_OK);
	CHECK(f.ulpdu == scratch);
	CHECK(memcmp(f.ulpdu, u, 1000) == 0);
	/* Without a scratch buffer a marker-split ULPDU cannot be handed out. */
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, 1016, 5000, &mkc, true, NULL, 0, &f), IWS_MALFORMED);
	/* Marker removal gives the marker-free FPDU: length, ULPDU, pad, CRC. */
	n = iws_mpa_strip_markers(wire, 1016, 5000, &mkc, expect);
	CHECK_EQ(n, 1008);
	CHECK_EQ(expect[0] * 256 + expect[1], 1000);
	CHECK(memcmp(expect + 2, u, 1000) == 0);
	CHECK(memcmp(expect + 1004, wire + 1012, 4) == 0);
	/* A wrong FPDUPTR is counted, the FPDU still framed by its length. */
	put_be16(wire + 514, 512);
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, 1016, 5000, &mk, true, scratch, sizeof(scratch), &f), IWS_OK);
	CHECK_EQ(f.marker_errors, 1);
	CHECK(!f.markers[1].ok);
	/* NEED_MORE on every prefix, with the right total. */
	for (size_t k = 6; k < 1016; k += 97) {
		r = iws_mpa_fpdu_parse(wire, k, 5000, &mk, true, scratch, sizeof(scratch), &f);
		CHECK_STATUS(r, IWS_NEED_MORE);
		CHECK_EQ(r.need, 1016);
	}
	/* An FPDU not aligned to the marker grid is malformed. */
	CHECK_STATUS(iws_mpa_fpdu_parse(wire, 1016, 5002, &mk, true, scratch, sizeof(scratch), &f), IWS_MALFORMED);

	/* --- marker parse: FPDUPTR must be a multiple of 4 and point home --- */
	CHECK_EQ(iws_mpa_fpduptr_expected(4, 0), 0);
	CHECK_EQ(iws_mpa_fpduptr_expected(4, 512), 508);
	CHECK_EQ(iws_mpa_fpduptr_expected(0, 256), 256);
	struct iws_mpa_marker m;
	uint8_t mb[4] = { 0, 0, 0x01, 0x02 };
	r = iws_mpa_marker_parse(mb, 4, 0x102, false, &m);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 2);
	mb[3] = 0x04;
	CHECK_STATUS(iws_mpa_marker_parse(mb, 4, 0x104, false, &m), IWS_OK);
	CHECK(m.ok);
	CHECK_STATUS(iws_mpa_marker_parse(mb, 4, 0x108, false, &m), IWS_MALFORMED);
	CHECK_STATUS(iws_mpa_marker_parse(mb, 3, 0x104, false, &m), IWS_NEED_MORE);
	mb[0] = 1;
	CHECK_STATUS(iws_mpa_marker_parse(mb, 4, 0x104, false, &m), IWS_OK);
	CHECK(!m.ok);  /* reserved half not zero */

	/* --- a marker sitting right before the CRC field is covered by it ---
	 * From a marker position, ULPDU 506 (pad 0): body 2+506+4 = 512; markers
	 * at 0 and 512 (512 < 512+8): wire 520, the second marker at 512 just
	 * before the CRC at 516. */
	CHECK_EQ(iws_mpa_fpdu_wire_len(&mk, 5000, 506), 520);
	make_ulpdu(u, 506);
	memset(wire, 0, 520);
	put_be16(wire + 4, 506);
	memcpy(wire + 6, u, 506);
	put_be16(wire + 514, 508);
	put_crc(wire + 516, iws_crc32c_sw(0, wire, 516));
	r = iws_mpa_fpdu_parse(wire, 520, 5000, &mkc, true, scratch, sizeof(scratch), &f);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(f.crc_off, 516);
	CHECK_EQ(f.pad_off, 512);
	CHECK_EQ(f.crc_status, IWS_CRC_OK);
	CHECK(f.ulpdu == wire + 6);  /* the ULPDU itself is not split */
	return check_done("test_fpdu");
}
