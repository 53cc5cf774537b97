// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Turns a finished model into the capture file and the ground truth: orders
 * the captured frames, numbers them, and computes what a perfect decoder can
 * know from the capture alone (which FPDUs are visible, in which frame
 * in-order reassembly completes each of them, per-operation summaries).
 */
#ifndef IWSGEN_CAPTURE_H
#define IWSGEN_CAPTURE_H

#include <stdio.h>

#include "gen.h"

struct op_out {
	int op;			/* g->ops index */
	int qp;
	uint32_t first_frame, last_frame;
	uint64_t start_ns, end_ns;
	uint64_t bytes;
	uint32_t segments;
	int has_stag;
	uint32_t stag;
	uint64_t to;
	int has_qn;
	uint32_t qn, msn;
	int has_latency;
	uint64_t latency;
	int complete;
	uint32_t crc_errors;
	int has_req_id, has_orig;
	uint64_t key_off;	/* tie-break: stream offset of the first visible FPDU */
	/* where the time went (docs/semantics.md) */
	uint32_t first_inorder_frame;
	uint32_t retransmissions;
	uint32_t reordered;
	uint64_t stall_ns;
	int has_ack;
	uint32_t ack_frame;
	uint64_t ack_ns;
	int after_close;
	int payload_captured;	/* complete, and every octet of its FPDUs captured */
	int rtr;
	int pairing;		/* PAIR_* (gen.h) */
	uint32_t done_frame;	/* frame of its final FPDU (it finished then); 0 = never */
};

/* An NVMe command of the truth file's `nvme` list (scen_nvme.c). */
struct nvme_out {
	int rec;		/* g->nvme index */
	int qp;
	uint32_t first_frame, last_frame;
	uint64_t start_ns, end_ns;
	int has_latency, has_status;
	uint64_t latency;
	uint64_t data_ns;
	uint64_t bytes;
	int complete;
};

struct rpc_out {
	int rec;		/* g->rpc index */
	int qp;
	uint32_t call_frame, reply_frame, data_first_frame, data_last_frame;
	uint64_t latency, rdma_bytes;
	int has_reply, complete;
};

struct gap_out {
	int conn, dir;
	uint64_t off;
	uint32_t len;
	uint32_t after_frame;
};

/* A FIN, an RST or a Terminate of a connection (docs/semantics.md, teardown). */
enum td_kind { TD_FIN, TD_RST, TD_TERMINATE };

struct td_out {
	enum td_kind kind;
	int side;		/* I2R: sent by the initiator */
	uint32_t frame;
	size_t *ops;		/* operations outstanding then (truth indices) */
	size_t nops;
};

#define TD_MAX 16

/* What the captured TCP segments of a connection say (capture.c). */
struct conn_tcp {
	uint32_t fin[2], rst[2];	/* each side's first FIN / RST frame, 0 = none */
	uint32_t retransmissions, fast_retransmits, timeouts, duplicate_acks, zero_windows;
	uint32_t reordered;		/* reordered first transmissions */
};

struct conn_out {
	int conn;		/* g->conns index, ordered by qp */
	int handshake;		/* MPA Request and Reply captured */
	uint32_t req_frame, rep_frame;	/* 0 = null */
	uint32_t rtr_frames[2];
	int nrtr;
	/* TCP behaviour (docs/semantics.md, "TCP per QP") */
	uint32_t retransmissions, fast_retransmits, timeouts, duplicate_acks, zero_windows;
	uint32_t reordered;
	struct td_out td[TD_MAX];
	int ntd;
};

struct truth {
	struct gen *g;
	uint32_t nframes;
	uint64_t *ts;		/* ts[frame number] */
	const struct frame **byno;	/* byno[frame number] */
	uint8_t *retrans;	/* retrans[frame number]: 1 sent again, 2 a reordered first
				 * transmission (docs/semantics.md) */
	struct conn_tcp *tcp;	/* per g->conns index */
	struct conn_out *conns;
	int nconns;
	struct op_out *ops;
	size_t nops;
	size_t *fpdus;		/* visible FPDUs in output order (g->fpdus indices) */
	size_t nfpdus;
	struct gap_out *gaps;
	size_t ngaps;
	struct nvme_out *nvme;
	size_t nnvme;
	struct rpc_out *rpc;
	size_t nrpc;
	/* Read and Atomic Responses not proven to answer a request when they
	 * came (proof.c), before any close proved them: a request sent before
	 * one of them cannot be told answered or not then (teardown). */
	struct orphan_rec {
		int conn, req_dir;
		uint32_t first_frame, frame;  /* its first transmission, its first FPDU in order */
	} *orphans;
	size_t norphans, caporphans;
	/* Frames whose FPDUs of (conn, dir) a snapshot length hid, as the
	 * decoder hears of them (proof.c): an operation whose data may be
	 * among them is not known outstanding (teardown). */
	struct hidden_rec {
		int conn, dir;
		uint32_t frame;
	} *hidden;
	size_t nhidden, caphidden;
};

/* Writes PREFIX.pcap (or .pcapng) and PREFIX.truth.json. */
int capture_write(struct gen *g, const char *prefix);

/* proof.c: fc[conn][dir] is the first-capture frame of every stream octet */
void prove_responses(struct gen *g, struct truth *t, const uint32_t *(*fc)[2]);

/* truth.c */
int truth_write(const struct truth *t, const char *path);
/* scen_doctor.c: the truth's "doctor" member (doctor scenarios only). */
void doctor_truth_write(FILE *f, const struct truth *t);

#endif
