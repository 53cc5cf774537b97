// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding FPDU boundaries mid-stream, with and without markers and CRC, and
 * cross-checking the core's framing against the independent stream builder. */
#include "check.h"
#include "iwarpscope/mpa.h"
#include "iwarpscope/rdmap.h"
#include "iwarpscope/sync.h"
#include "stream_builder.h"

static uint8_t buf[1 << 20], u[70000], scratch[65536];

/* A stream of `count` FPDUs of varied sizes; offsets of each FPDU start. */
static size_t build(struct sb *s, int markers, uint32_t seq0, uint32_t base, int crc_mode,
		    unsigned count, uint32_t *starts)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->cap = sizeof(buf);
	s->seq0 = seq0;
	s->markers = markers;
	s->base = base;
	for (unsigned i = 0; i < count; i++) {
		starts[i] = (uint32_t)s->len;
		uint16_t plen = (uint16_t)(37 + (i * 389) % 1400);
		uint16_t l = (i % 3 == 2) ? sb_write_ulpdu(u, 0x1000 + i, 0x10000ull * i, 1, plen)
					  : sb_send_ulpdu(u, i + 1, 0, 1, plen);
		sb_fpdu(s, u, l, crc_mode);
	}
	return s->len;
}

/* Walk the whole stream with the core's framing; every FPDU must start where
 * the builder put it and carry the builder's ULPDU. */
static void walk(const struct sb *s, const struct iws_mpa_dir *d, const uint32_t *starts, unsigned count)
{
	size_t off = 0;
	for (unsigned i = 0; i < count; i++) {
		struct iws_fpdu f;
		CHECK_EQ(off, starts[i]);
		struct iws_result r = iws_mpa_fpdu_parse(s->buf + off, s->len - off, s->seq0 + (uint32_t)off, d,
							 true, scratch, sizeof(scratch), &f);
		CHECK_STATUS(r, IWS_OK);
		if (r.status != IWS_OK)
			return;
		CHECK_EQ(f.marker_errors, 0);
		if (d->crc)
			CHECK_EQ(f.crc_status, IWS_CRC_OK);
		struct iws_msg m;
		CHECK_STATUS(iws_rdmap_parse(f.ulpdu, f.ulpdu_len, &m), IWS_OK);
		off += f.wire_len;
	}
	CHECK_EQ(off, s->len);
}

int main(void)
{
	struct sb s;
	uint32_t starts[64];
	struct iws_sync y;
	struct iws_sync_opts o = { IWS_NO, 0, false, IWS_UNKNOWN, 0, 0, false, false };
	struct iws_result r;

	/* --- no markers, CRC on --- */
	size_t len = build(&s, 0, 1000, 0, 1, 20, starts);
	struct iws_mpa_dir dcrc = { false, true, 0, false, false };
	walk(&s, &dcrc, starts, 20);
	/* From every offset inside the first FPDU, sync lands on the second. */
	for (uint32_t k = 1; k < starts[1]; k += 7) {
		r = iws_sync_find(buf + k, len - k, 1000 + k, &o, &y);
		CHECK_STATUS(r, IWS_OK);
		CHECK_EQ(k + y.off, starts[1]);
		CHECK_EQ(y.crc, IWS_YES);
	}
	/* At a boundary: offset 0. */
	r = iws_sync_find(buf + starts[3], len - starts[3], 1000 + starts[3], &o, &y);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(y.off, 0);

	/* --- CRC fields zero (CRC off, as siw sends) --- */
	len = build(&s, 0, 0xFFFFF000u, 0, 0, 20, starts);
	r = iws_sync_find(buf + 5, len - 5, 0xFFFFF005u, &o, &y);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(5 + y.off, starts[1]);
	CHECK_EQ(y.crc, IWS_NO);
	CHECK(y.chain >= 3);
	/* Told that CRC is present, the zero CRCs break every chain. */
	struct iws_sync_opts ocrc = { IWS_NO, 0, false, IWS_YES, 0, 0, false, false };
	r = iws_sync_find(buf + 5, len - 5, 0xFFFFF005u, &ocrc, &y);
	CHECK(r.status != IWS_OK);

	/* --- only part of the second FPDU: not enough to decide yet --- */
	r = iws_sync_find(buf + 5, starts[1] + 40 - 5, 0xFFFFF005u, &o, &y);
	CHECK_STATUS(r, IWS_NEED_MORE);
	/* ... but with a chain of one accepted, it is found */
	struct iws_sync_opts o1 = { IWS_NO, 0, false, IWS_UNKNOWN, 1, 0, false, false };
	r = iws_sync_find(buf + 5, starts[2] - 5, 0xFFFFF005u, &o1, &y);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(5 + y.off, starts[1]);

	/* --- garbage: no chain anywhere --- */
	for (size_t i = 0; i < 200000; i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	r = iws_sync_find(buf, 200000, 0, &o, &y);
	CHECK_STATUS(r, IWS_MALFORMED);
	memset(buf, 0, 100000);
	r = iws_sync_find(buf, 100000, 0, &o, &y);
	CHECK_STATUS(r, IWS_MALFORMED);

	/* --- a crafted stream: a plausible maximum-size Send header every 20
	 * octets, CRC required. Each candidate would need a 64 kB CRC to be
	 * judged; the per-call CRC budget must stop that (else 50,000
	 * candidates cost gigabytes of CRC) and nothing may be accepted. --- */
	{
		static const uint8_t unit[20] = { 0xFF, 0xF0, 0x01, 0x43, 0, 0, 0, 0, 0, 0, 0, 0,
						  0, 0, 0, 7, 0, 0, 0, 0 };
		size_t n = 1u << 20;
		for (size_t i = 0; i < n; i++)
			buf[i] = unit[i % sizeof(unit)];
		struct iws_sync_opts oc = { IWS_NO, 0, false, IWS_YES, 0, 0, false, false };
		r = iws_sync_find(buf, n, 0, &oc, &y);
		CHECK(r.status != IWS_OK);
		CHECK(y.crc_budget_spent);
		/* Known to be without CRC: no CRC is computed, nothing is spent. */
		struct iws_sync_opts on = { IWS_NO, 0, false, IWS_NO, 0, 0, false, false };
		r = iws_sync_find(buf, n, 0, &on, &y);
		CHECK(r.status != IWS_OK);
		CHECK(!y.crc_budget_spent);
	}

	/* --- markers, CRC on, across the sequence wrap --- */
	uint32_t seq0 = 0xFFFFF800u, base = 0xFFFFF800u - 1000u;
	len = build(&s, 1, seq0, base, 1, 30, starts);
	struct iws_mpa_dir dm = { true, true, base, false, false };
	walk(&s, &dm, starts, 30);
	unsigned next = 0;
	while (starts[next] < 100)
		next++;
	/* Known grid. */
	struct iws_sync_opts om = { IWS_YES, base, false, IWS_UNKNOWN, 0, 0, false, false };
	r = iws_sync_find(buf + 100, len - 100, seq0 + 100, &om, &y);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(100 + y.off, starts[next]);
	CHECK(y.markers);
	/* Unknown grid: inferred from the markers themselves. */
	struct iws_sync_opts ou = { IWS_UNKNOWN, 0, false, IWS_UNKNOWN, 0, 0, false, false };
	r = iws_sync_find(buf + 100, len - 100, seq0 + 100, &ou, &y);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(100 + y.off, starts[next]);
	CHECK(y.markers);
	CHECK_EQ((y.marker_base - base) % 512u, 0);

	/* --- a stream whose FPDU start has a marker in front (FPDUPTR 0) --- */
	len = build(&s, 1, 4096, 4096, 1, 10, starts);
	struct iws_mpa_dir d2 = { true, true, 4096, false, false };
	walk(&s, &d2, starts, 10);
	return check_done("test_sync");
}
