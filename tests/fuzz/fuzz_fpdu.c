// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz FPDU framing: the first 8 octets choose the direction's parameters
 * (markers, CRC, SeqStart, the FPDU's sequence number), the rest is the wire.
 * Walks the whole buffer FPDU by FPDU, decodes each ULPDU, strips markers,
 * and runs the resynchronisation on the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "iwarpscope/mpa.h"
#include "iwarpscope/rdmap.h"
#include "iwarpscope/sync.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t scratch[65536];
static uint8_t stripped[IWS_FPDU_MAX_WIRE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 8)
		return 0;
	struct iws_mpa_dir d;
	d.markers = data[0] & 1;
	d.crc = (data[0] >> 1) & 1;
	d.marker_base = (uint32_t)data[1] << 24 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 8 | data[4];
	d.fpduptr_le = (data[0] >> 2) & 1;
	d.skip_crc = (data[0] >> 3) & 1;
	uint32_t seq = d.marker_base + ((uint32_t)data[5] << 8 | data[6]) * 4u;
	uint8_t mode = data[7];
	data += 8;
	size -= 8;

	size_t off = 0;
	unsigned guard = 0;
	while (off < size && guard++ < 10000) {
		struct iws_fpdu f;
		struct iws_result r = iws_mpa_fpdu_parse(data + off, size - off, seq + (uint32_t)off, &d, true,
							 scratch, sizeof(scratch), &f);
		if (r.status != IWS_OK) {
			if (r.status == IWS_NEED_MORE && r.need <= size - off)
				__builtin_trap();
			break;
		}
		if (f.wire_len == 0 || f.wire_len > size - off || f.crc_off + 4 > f.wire_len)
			__builtin_trap();
		struct iws_msg m;
		(void)iws_rdmap_parse(f.ulpdu, f.ulpdu_len, &m);
		size_t n = iws_mpa_strip_markers(data + off, f.wire_len, seq + (uint32_t)off, &d, stripped);
		if (n != 2u + f.ulpdu_len + f.pad + 4u)
			__builtin_trap();
		off += f.wire_len;
	}

	struct iws_sync_opts o = { (enum iws_tristate)(mode % 3), d.marker_base, (mode & 0x20) != 0,
				   (enum iws_tristate)((mode / 3) % 3), 1u + (mode >> 6), 0, d.fpduptr_le,
				   d.skip_crc };
	struct iws_sync y;
	struct iws_result r = iws_sync_find(data, size, seq, &o, &y);
	if (r.status == IWS_OK && y.off >= size)
		__builtin_trap();
	return 0;
}
