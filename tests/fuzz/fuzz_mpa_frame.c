// SPDX-License-Identifier: GPL-2.0-or-later
/* Fuzz the MPA Request/Reply parser and the negotiation that follows it. */
#include <string.h>

#include "iwarpscope/mpa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iws_mpa_frame f;
	struct iws_result r = iws_mpa_parse_frame(data, size, &f);
	if (r.status == IWS_OK) {
		if (f.total_len > size || f.f_pd.off + f.f_pd.len > size || f.f_ulp_pd.off + f.f_ulp_pd.len > size)
			__builtin_trap();
		struct iws_mpa_conn c;
		iws_mpa_conn_init(&c);
		iws_mpa_conn_request(&c, &f, (uint32_t)size);
		iws_mpa_conn_reply(&c, &f, (uint32_t)size * 7u);
	} else if (r.status == IWS_NEED_MORE && r.need <= size) {
		__builtin_trap();  /* asked for octets it already had */
	}
	(void)iws_mpa_key_type(data, size);
	return 0;
}
