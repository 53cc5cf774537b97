// SPDX-License-Identifier: GPL-2.0-or-later
/* The command list (see cmdlist.h). */
#include "cmdlist.h"

#include <stddef.h>

#define FMT_ANY (FMTBIT(FMT_DEFAULT) | FMTBIT(FMT_TEXT) | FMTBIT(FMT_JSON) | FMTBIT(FMT_JSONL) | \
		 FMTBIT(FMT_CSV))

static const struct cmdinfo commands[CMD_COUNT] = {
	[CMD_SUMMARY] = {
		"summary", "per-QP table and latency table (default)",
		"The default: what every queue pair (TCP connection) carried, its MPA\n"
		"parameters, its problems, a latency table per operation type and the\n"
		"slowest operations. When nothing iWARP is found it says what was seen\n"
		"(TCP connections, ports, why each is not iWARP) and what to try.\n",
		.accepts = OPTS_OP | OPTS_TIME | OPTS_RTR | OPTS_NO_NVME,
		.formats = FMTBIT(FMT_DEFAULT) | FMTBIT(FMT_TEXT),
		.flags = CF_NVME | CF_DOCTOR | CF_LIVE_OUT | CF_OWN_WARNINGS,
		.items = "operations",
	},
	[CMD_OPS] = {
		"ops", "one line per RDMA operation, in start order",
		"One line (or JSON object, or CSV row) per RDMA operation, in order of\n"
		"start time: QP, initiator and target, type, frames, times, bytes,\n"
		"segments, latency and loss attribution.\n",
		.accepts = OPTS_SORT | OPTS_LIMIT | OPTS_OP | OPTS_TIME | OPTS_MIN_LATENCY,
		.formats = FMT_ANY,
		.items = "operations",
	},
	[CMD_STATS] = {
		"stats", "statistics per QP and operation type; with --format\n"
			 "csv or jsonl, per --interval as a time series",
		"Latency and throughput statistics per QP and operation type (and per\n"
		"NVMe queue and command); with --format csv or jsonl, one row per QP,\n"
		"operation type and --interval as a time series.\n",
		.accepts = OPTS_OP | OPTS_TIME | OPTS_RTR | OPTS_NO_NVME,
		.formats = FMT_ANY,
		.flags = CF_NVME | CF_LIVE_OUT,
		.items = "operations",
	},
	[CMD_FPDUS] = {
		"fpdus", "every FPDU decoded (developer view)",
		"Every FPDU decoded, with the frames that carried it (developer view).\n",
		.accepts = OPTS_TIME,
		.formats = FMTBIT(FMT_DEFAULT) | FMTBIT(FMT_JSONL) | FMTBIT(FMT_TEXT),
		.items = "operations",
	},
	[CMD_NVME] = {
		"nvme", "one line per NVMe over Fabrics command (NVMe/RDMA,\n"
			"recognised by content on any port), in start order",
		"One line per NVMe over Fabrics command (NVMe/RDMA, recognised by\n"
		"content on any port), in order of start time: queue, CID, LBAs,\n"
		"latency, status.\n",
		.accepts = OPTS_TIME,
		.formats = FMT_ANY,
		.items = "commands",
	},
	[CMD_REPORT] = {
		"report", "one self-contained HTML page: summary, timeline,\n"
			  "latency, throughput, slowest operations (-o FILE)",
		"One self-contained HTML page: summary, findings, timeline, latency,\n"
		"throughput and the slowest operations (-o FILE, else standard output).\n",
		.accepts = OPTS_OUTPUT_FILE | OPTS_LIMIT | OPTS_OP | OPTS_TIME | OPTS_RTR | OPTS_NO_NVME,
		.formats = FMTBIT(FMT_DEFAULT),
		.flags = CF_NVME | CF_DOCTOR,
		.items = "operations",
	},
	[CMD_DOCTOR] = {
		"doctor", "every RFC rule and vendor deviation the capture\n"
			  "breaks, per QP, with its frames (--rules lists them)",
		"The interop doctor: every rule of the catalogue (RFC 5040, 5041, 5044,\n"
		"6581, 7306 and known vendor deviations) the capture breaks, grouped by\n"
		"QP, each with its severity (error, deviation, performance), count, first\n"
		"and last frame, sample frames and, for framing rules, the fraction of the\n"
		"direction's FPDUs. --rules lists the catalogue; --fail-on takes rule ids\n"
		"and severities for CI gates: exit 1 when one is broken, 3 when none is but\n"
		"--max-flows left connections unchecked (--allow-unanalysed accepts that).\n",
		.accepts = OPTS_RULES | OPTS_TIME,
		.formats = FMT_ANY & ~FMTBIT(FMT_CSV),
		.flags = CF_DOCTOR | CF_LIVE_OUT,
		.items = "operations",
	},
	[CMD_RPC] = {
		"rpc", "one line per RPC over RDMA (RPC-over-RDMA v1, NFS),\n"
		       "with the RDMA operations that moved its data",
		"One line per ONC RPC carried over RDMA (RFC 8166; NFS over RDMA,\n"
		"RFC 8267), recognised by content on any port, in call order: xid,\n"
		"program, procedure (NFSv3 names, NFSv4 COMPOUND operations), offset\n"
		"and count, the RDMA Writes and Reads that moved its chunks, latency\n"
		"and its phases (call to first data, data, last data to reply).\n",
		.accepts = OPTS_TIME,
		.formats = FMT_ANY,
		.items = "RPCs",
	},
	[CMD_SMB] = {
		"smb", "one line per SMB2 request over SMB Direct (MS-SMBD),\n"
		       "with the RDMA operations that moved its data",
		"One line per SMB2 request carried over SMB Direct (MS-SMBD, SMB 3 over\n"
		"RDMA; MS-SMB2), recognised by content on any port, in request order:\n"
		"message id, command, READ/WRITE offset, length and channel, the buffer\n"
		"descriptors' octets, the RDMA Writes and Reads that moved them, the\n"
		"octets that went inline, status, latency and frames. With text output,\n"
		"a table per connection follows: the verdict (rdma: some READ or WRITE\n"
		"moved its data by RDMA; inline-only: none did; no-io: no READ or\n"
		"WRITE), the counts behind it, the negotiated SMBD parameters and the\n"
		"send credits (docs/semantics.md, \"SMB Direct\"); stats shows the same\n"
		"per QP under \"smb\".\n",
		.accepts = OPTS_TIME,
		.formats = FMT_ANY,
		.items = "SMB2 requests",
	},
};

const struct cmdinfo *cmdinfo_of(enum command c)
{
	return (unsigned)c < CMD_COUNT ? &commands[c] : NULL;
}
