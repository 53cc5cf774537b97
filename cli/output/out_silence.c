// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpful silence: when a capture holds no iWARP, say what it does hold (its
 * TCP connections, their ports and octets), why each is not iWARP (no payload,
 * payload cut away by the snapshot length, no MPA handshake and no FPDU chain:
 * given up at frame N), and what to try.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_silence.h"
#include "units.h"

/* Ports with a well-known protocol that is not iWARP (or not only). */
static const struct {
	uint16_t port;
	const char *what;
} ports[] = {
	{ 22, "SSH" },          { 80, "HTTP" },           { 111, "ONC RPC" },
	{ 443, "HTTPS" },       { 445, "SMB" },           { 860, "iSCSI" },
	{ 2049, "NFS over TCP" }, { 3260, "iSCSI" },      { 4420, "NVMe-oF (NVMe/TCP when not iWARP)" },
	{ 5445, "Artemis" },    { 8009, "NVMe/TCP discovery" },
};

static const char *port_name(const struct conn_brief *b, unsigned *port)
{
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		for (int s = 0; s < 2; s++)
			if (b->ep[s].port == ports[i].port) {
				*port = ports[i].port;
				return ports[i].what;
			}
	return NULL;
}

static void brief_line(FILE *f, const char *pre, const struct conn_brief *b)
{
	char a1[64], a2[64], b1[32], b2[32];
	unsigned port = 0;
	const char *pn = port_name(b, &port);
	fprintf(f, "%s  QP %u  %s > %s  frames %" PRIu64 "-%" PRIu64 ", %s of TCP payload", pre,
		b->stream, endpoint_str(&b->ep[0], a1), endpoint_str(&b->ep[1], a2), b->first_frame,
		b->last_frame, fmt_bytes(b1, sizeof(b1), b->payload_bytes));
	if (b->captured_bytes != b->payload_bytes)
		fprintf(f, " (%s captured)", fmt_bytes(b2, sizeof(b2), b->captured_bytes));
	if (pn)
		fprintf(f, "; port %u: %s", port, pn);
	fputc('\n', f);
	switch (b->why) {
	case CONN_WHY_NO_DATA:
		fprintf(f, "%s      not iWARP: no payload at all (set-up, ACKs or teardown only)\n", pre);
		break;
	case CONN_WHY_SLICED:
		fprintf(f, "%s      not decodable: the slices are too short, the snapshot length cut "
			   "its payload away\n", pre);
		break;
	case CONN_WHY_GAVE_UP:
		fprintf(f, "%s      not iWARP: no MPA handshake, and no chain of FPDUs from frame %" PRIu64
			   " (its first payload) on: given up at frame %" PRIu64 "\n",
			pre, b->data_frame, b->gave_up_frame);
		break;
	default:
		fprintf(f, "%s      not iWARP: no MPA handshake, and no chain of FPDUs in its payload "
			   "(frame %" PRIu64 " on)", pre, b->data_frame);
		break;
	}
	if (b->why >= CONN_WHY_GAVE_UP && b->chain_lost_frame)
		fprintf(f, "%s%s      a chain of FPDUs broke at frame %" PRIu64 "\n",
			b->why == CONN_WHY_GAVE_UP ? "" : "\n", pre, b->chain_lost_frame);
	else if (b->why == CONN_WHY_NO_CHAIN)
		fputc('\n', f);
	switch (b->why) {
	default:
		break;
	}
}

static int by_stream(const void *x, const void *y)
{
	const struct conn_brief *a = x, *b = y;
	return (a->stream > b->stream) - (a->stream < b->stream);
}

void silence_write(FILE *f, const struct report *r, const char *pre)
{
	const struct analysis *a = r->a;
	const struct analysis_counts *ac = analysis_counts(a);
	const struct source_stats *ss = source_stats(r->src);
	uint64_t n[CONN_WHY_N], total = 0;
	for (int w = 0; w < CONN_WHY_N; w++)
		total += n[w] = analysis_not_iwarp_count(a, (enum conn_why)w);
	uint32_t nb;
	struct conn_brief b[ANALYSIS_BRIEFS];
	const struct conn_brief *kept = analysis_not_iwarp(a, &nb);
	memcpy(b, kept, nb * sizeof(*b));
	qsort(b, nb, sizeof(*b), by_stream);
	fprintf(f, "%sNo iWARP found. What the capture holds:\n", pre);
	fprintf(f, "%s  %" PRIu64 " TCP connection%s, %" PRIu64 " TCP segment%s, %" PRIu64
		   " other packet%s\n", pre, ac->tcp_conns, ac->tcp_conns == 1 ? "" : "s", ac->tcp,
		ac->tcp == 1 ? "" : "s", ac->not_tcp, ac->not_tcp == 1 ? "" : "s");
	for (uint32_t i = 0; i < nb; i++)
		brief_line(f, pre, &b[i]);
	if (total > nb)
		fprintf(f, "%s  ... and %" PRIu64 " more; in all %" PRIu64 " without payload, %" PRIu64
			   " cut by the snapshot length, %" PRIu64 " without handshake or FPDUs\n",
			pre, total - nb, n[CONN_WHY_NO_DATA], n[CONN_WHY_SLICED],
			n[CONN_WHY_GAVE_UP] + n[CONN_WHY_NO_CHAIN]);
	fprintf(f, "%sWhat to try:\n", pre);
	if (!ac->tcp_conns)
		fprintf(f, "%s  - iWARP runs over TCP and this capture has none: iWARP NICs (Chelsio, Intel "
			   "E810/X722) offload TCP, so tcpdump on the host does not see their traffic; "
			   "capture on a mirror port or a tap, or try Soft-iWARP (siw)\n", pre);
	if (ac->not_tcp)
		fprintf(f, "%s  - RoCE v2 (RDMA over UDP port 4791) is not iWARP: iwarpscope reads iWARP "
			   "only (Wireshark decodes RoCE as InfiniBand)\n", pre);
	if (ss->filtered_out)
		fprintf(f, "%s  - the filter (-f) left out %" PRIu64 " frames: try without it\n", pre,
			ss->filtered_out);
	if (n[CONN_WHY_SLICED] || ac->snap_cut)
		fprintf(f, "%s  - capture whole frames (tcpdump -s 0), or at least 128 octets a frame so "
			   "that the MPA, DDP and RDMAP headers are in every record (docs/capturing.md)\n",
			pre);
	if (n[CONN_WHY_GAVE_UP] || n[CONN_WHY_NO_CHAIN])
		fprintf(f, "%s  - start the capture before the connections are set up, so that the MPA "
			   "handshake is in it (an FPDU chain is harder to find mid-stream, above all with "
			   "markers); check that the connection carries iWARP (its port, the application)\n",
			pre);
	if (n[CONN_WHY_NO_DATA] && total == n[CONN_WHY_NO_DATA])
		fprintf(f, "%s  - the connections carried no data: capture while the application runs\n",
			pre);
}
