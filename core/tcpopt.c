// SPDX-License-Identifier: GPL-2.0-or-later
/* TCP options (see tcpopt.h). */
#include "iwarpscope/tcpopt.h"

#include <string.h>

#include "iwarpscope/status.h"   /* struct iws_field, for bytes.h */
#include "bytes.h"

/* RFC 9293 §3.2: kind 0 ends the list, kind 1 is one octet of padding,
 * every other option is kind, length (counting both), value. */
void iws_tcp_opts_parse(const uint8_t *opts, size_t len, struct iws_tcp_opts *out)
{
	memset(out, 0, sizeof(*out));
	out->wscale = -1;
	size_t i = 0;
	while (opts && i < len) {
		uint8_t kind = opts[i];
		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		uint8_t ol = opts[i + 1];
		if (ol < 2 || i + ol > len)
			break;
		const uint8_t *v = opts + i + 2;
		if (kind == 2 && ol == 4) {
			out->mss = (uint16_t)(v[0] << 8 | v[1]);
		} else if (kind == 3 && ol == 3) {
			/* RFC 7323 §2.3: a shift count above 14 is used as 14 */
			out->wscale = (int8_t)(v[0] > 14 ? 14 : v[0]);
		} else if (kind == 8 && ol == 10) {
			out->has_ts = true;
			out->tsval = iws_be32(v);
		} else if (kind == 5 && ol >= 10 && (ol - 2) % 8 == 0) {
			for (unsigned k = 0; k < (unsigned)(ol - 2) / 8 && out->nsack < IWS_TCP_SACK_MAX; k++) {
				out->sack_l[out->nsack] = iws_be32(v + 8 * k);
				out->sack_r[out->nsack] = iws_be32(v + 8 * k + 4);
				out->nsack++;
			}
		}
		i += ol;
	}
}

uint16_t iws_tcp_opt_mss(const uint8_t *opts, size_t len)
{
	struct iws_tcp_opts o;
	iws_tcp_opts_parse(opts, len, &o);
	return o.mss;
}
