// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario table (see scenarios.h). Seeds here are the ones the
 * committed samples were generated with. */
#include "scenarios.h"
#include "scen_doctor.h"

#include <string.h>

const struct scenario scenarios[] = {
	{ "basic-v2-crc", 1, 1, scen_basic_v2_crc, "MPA v2, CRC, every operation" },
	{ "v1-ipv6-vlan", 2, 1, scen_v1_ipv6_vlan, "MPA v1, IPv6 over 802.1Q, CRC off" },
	{ "p2p-rtr-send", 3, 1, scen_p2p_rtr_send, "peer-to-peer, zero-length Send RTR" },
	{ "p2p-rtr-write", 4, 1, scen_p2p_rtr_write, "peer-to-peer, zero-length Write RTR" },
	{ "p2p-rtr-read", 5, 1, scen_p2p_rtr_read, "peer-to-peer, zero-length Read RTR" },
	{ "reject-v1", 6, 1, scen_reject_v1, "MPA v1 Reply with R" },
	{ "reject-v2", 7, 1, scen_reject_v2, "MPA v2 Reply with R" },
	{ "markers-i2r", 8, 1, scen_markers_i2r, "markers initiator to responder only" },
	{ "markers-r2i", 9, 1, scen_markers_r2i, "markers responder to initiator only" },
	{ "markers-both-wrap", 10, 1, scen_markers_both_wrap, "markers both ways, seq wrap" },
	{ "segmentation", 11, 1, scen_segmentation, "straddling, packing, super-segments" },
	{ "multi-qp", 12, 1, scen_multi_qp, "five interleaved connections" },
	{ "atomics", 13, 1, scen_atomics, "RFC 7306 atomics" },
	{ "terminate", 14, 1, scen_terminate, "Terminate at RDMAP, DDP and MPA layer" },
	{ "immediate", 15, 1, scen_immediate, "RFC 7306 immediate data" },
	{ "retransmit-reorder-dup", 16, 1, scen_retransmit_reorder_dup, "loss, reorder, dups" },
	{ "midstream", 17, 1, scen_midstream, "capture starts inside an FPDU" },
	{ "crc-corrupt", 18, 1, scen_crc_corrupt, "FPDUs with bad CRCs" },
	{ "gap", 19, 1, scen_gap, "segments never captured" },
	{ "snaplen-128", 20, 1, scen_snaplen_128, "snaplen 128" },
	{ "snaplen-96", 21, 1, scen_snaplen_96, "snaplen 96" },
	{ "pcapng", 22, 1, scen_pcapng, "pcapng file format" },
	{ "usec-pcap", 23, 1, scen_usec_pcap, "microsecond pcap" },
	{ "rpc-rdma", 24, 1, scen_rpc_rdma, "NFSv3 over RPC-over-RDMA, read and write chunks" },
	{ "rpc-rdma-v4", 44, 1, scen_rpc_rdma_v4,
	  "NFSv4.2 over RPC-over-RDMA: read, write and reply chunks, inline I/O, a lost segment" },
	{ "nvmeof", 25, 1, scen_nvmeof, "NVMe over Fabrics (NVMe/RDMA) on port 4420, two queues" },
	{ "markers-le-skipcrc", 26, 1, scen_markers_le_skipcrc,
	  "i2r marker grid skips the CRC octets, FPDUPTR little-endian" },
	{ "markers-offset", 27, 1, scen_markers_offset, "r2i marker grid from SeqStart + 8" },
	{ "markers-le", 28, 1, scen_markers_le, "r2i FPDUPTR little-endian" },
	{ "markers-le-skipcrc-midstream", 29, 1, scen_markers_le_skipcrc_midstream,
	  "markers-le-skipcrc's sender, capture starts mid-stream" },
	{ "loss-read-request", 30, 1, scen_loss_read_request,
	  "a Read Request behind a lost segment, and one lost itself" },
	{ "loss-read-response", 31, 1, scen_loss_read_response,
	  "Read Response segments lost: fast retransmission, timeout" },
	{ "loss-ack", 32, 1, scen_loss_ack, "lost ACKs covered by later ones" },
	{ "reorder", 33, 1, scen_reorder, "segments reordered before the capture point" },
	{ "rto", 34, 1, scen_rto, "retransmission timeouts without three duplicate ACKs" },
	{ "zero-window", 35, 1, scen_zero_window, "zero windows during a Write and a Read" },
	{ "fin-outstanding", 36, 1, scen_fin_outstanding,
	  "FIN with Reads outstanding, Writes and a Send after it" },
	{ "rst-outstanding", 37, 1, scen_rst_outstanding,
	  "RST with Reads outstanding, Writes and a Send after it" },
	{ "midstream-read-storm", 38, 1, scen_midstream_read_storm,
	  "capture starts inside a Read storm with one reused sink STag/TO" },
	{ "sliced-siw-midstream", 39, 1, scen_sliced_siw_midstream,
	  "siw's 1444+4 FPDUs and packed Read Requests, mid-stream, snaplen 96" },
	{ "sliced-gso-tso", 40, 1, scen_sliced_gso_tso,
	  "FPDUs longer than a segment and TSO super-segments, mid-stream, snaplen 96" },
	{ "read-req-le", 41, 1, scen_read_req_le,
	  "Read Request fields written little-endian by a deviant sender" },
	{ "nvmeof-snaplen-128", 25, 1, scen_nvmeof_snaplen_128,
	  "the NVMe-oF scenario captured with snaplen 128 (capsule headers only)" },
	{ "cut-read-lat", 42, 1, scen_cut_read_lat,
	  "ib_read_lat's Reads captured from mid-run to a clean close" },
	{ "ring-first-file", 43, 1, scen_ring_first_file,
	  "a ring buffer's first file: starts and ends mid-connection" },
	{ "smb-direct", 45, 0, scen_smb_direct,
	  "SMB Direct: SMB2 READ and WRITE by RDMA channel and inline (tests/smb)" },
	{ "bench", 99, 0, NULL, "large stream for benchmarks (--size BYTES)" },
	/* the interop doctor's rules, not committed (tests/doctor makes them) */
#define DOCTOR_ROW(name, seed, fn, what) { name, seed, 0, scen_doctor, "doctor: " what },
	DOCTOR_SCENARIOS(DOCTOR_ROW)
#undef DOCTOR_ROW
	{ "doctor-all", 140, 0, scen_doctor_all, "doctor: every doctor-* scenario, one QP each" },
};

const int nscenarios = (int)(sizeof(scenarios) / sizeof(scenarios[0]));

const struct scenario *scenario_find(const char *name)
{
	for (int i = 0; i < nscenarios; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}
