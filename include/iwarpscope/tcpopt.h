// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcpopt.h - the TCP options read from a segment, by the engine and the
 * front ends alike: MSS (RFC 9293 §3.2), window scale (RFC 7323 §2),
 * timestamps (RFC 7323 §3) and SACK blocks (RFC 2018 §3).
 * The options are the octets after the 20-octet TCP header, as captured:
 * a list cut by the snapshot length, or malformed, yields what precedes the
 * damage.
 */
#ifndef IWS_TCPOPT_H
#define IWS_TCPOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many SACK blocks fit in 40 octets of options (RFC 2018 §3). */
#define IWS_TCP_SACK_MAX 4

struct iws_tcp_opts {
	uint16_t mss;               /* 0: no MSS option */
	int8_t wscale;              /* the window scale shift count, -1: no option (RFC 7323 §2.2) */
	bool has_ts;
	uint32_t tsval;             /* TSval (RFC 7323 §3) */
	uint8_t nsack;              /* SACK blocks: [sack_l[i], sack_r[i]) */
	uint32_t sack_l[IWS_TCP_SACK_MAX], sack_r[IWS_TCP_SACK_MAX];
};

/* The options of one segment. */
void iws_tcp_opts_parse(const uint8_t *opts, size_t len, struct iws_tcp_opts *out);

/* The MSS option among a segment's TCP options; 0 when there is none or the
 * options are cut. */
uint16_t iws_tcp_opt_mss(const uint8_t *opts, size_t len);

#ifdef __cplusplus
}
#endif

#endif
