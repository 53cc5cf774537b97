// SPDX-License-Identifier: GPL-2.0-or-later
/* Fuzz the DDP/RDMAP decoder (every opcode, Terminate with embedded headers,
 * atomics): offsets it reports must stay inside the buffer. */
#include "iwarpscope/rdmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void in_bounds(struct iws_field f, size_t size)
{
	if ((size_t)f.off + f.len > size)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_msg m;
	struct iws_result r = iws_rdmap_parse(data, size, &m);
	if (r.status == IWS_NEED_MORE && r.need <= size)
		__builtin_trap();
	if (r.status != IWS_OK)
		return 0;
	in_bounds(m.ddp.f_ctrl, size);
	in_bounds(m.ddp.tagged ? m.ddp.f_to : m.ddp.f_mo, size);
	if ((size_t)m.payload_off + m.payload_len > size)
		__builtin_trap();
	if (m.ddp.opcode == IWS_OP_CODE_TERMINATE) {
		const struct iws_rdmap_terminate *t = &m.u.term;
		in_bounds(t->f_ctrl, size);
		if (t->has_seg_len)
			in_bounds(t->f_seg_len, size);
		if (t->has_ddp)
			in_bounds(t->f_ddp, size);
		if (t->has_rdmap)
			in_bounds(t->f_rdmap, size);
	}
	if (m.ddp.opcode == IWS_OP_CODE_ATOMIC_REQ)
		in_bounds(m.u.atomic_req.f_compare_mask, size);
	return 0;
}
