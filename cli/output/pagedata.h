// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagedata.h - what the HTML report (`iwarpscope report`, out_html.c)
 * draws, gathered while the capture streams by, in memory that does not
 * grow with the capture. Every series is measured (docs/semantics.md,
 * "Over time"), on one time grid (timegrid.h), per QP:
 *   - operations started; the time operations spent in flight (queue depth);
 *   - per direction, TCP payload octets on the wire (tcp.len of every
 *     segment, wire.h), the retransmitted ones apart, and the goodput (ULP
 *     payload of the FPDUs delivered in order);
 *   - TCP retransmissions and zero windows (segments);
 *   - NVMe-oF queues: commands completed, their bytes, their latencies' sum
 *     and maximum;
 * and per QP: TCP events in time (retransmissions, zero windows, gaps), the
 * first PAGE_MAX_MARKS of them; the segments around its losses (tseq.h);
 * log-binned histograms (loghist.h) of the latency and the delivery time
 * per operation type and of the NVMe command latency per command type,
 * over the same operations and commands as the statistics. Then over the
 * capture: the slowest lists (rank.h), the NVMe commands that failed, and a
 * bounded sample of the operations to draw (opsample.h).
 * The first PAGE_MAX_QPS QPs to show up (an operation, a segment or an
 * event once they are known to be iWARP) have their own; the others share
 * one entry.
 */
#ifndef IWS_CLI_PAGEDATA_H
#define IWS_CLI_PAGEDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "conn.h"
#include "loghist.h"
#include "opsample.h"
#include "rank.h"
#include "slotmap.h"
#include "source.h"
#include "timegrid.h"
#include "tseq.h"
#include "wire.h"

#define PAGE_MAX_QPS 64
#define PAGE_MAX_MARKS 2000
#define PAGE_DEFAULT_DRAWN 10000
/* The slowest lists' length, and how many failed NVMe commands are listed. */
#define PAGE_SLOWEST 50
#define PAGE_NVME_FAILED 50
/* NVMe command types with their own histogram per QP. */
#define PAGE_NVME_OPS 32
/* Segments the time-sequence views keep in all. */
#define PAGE_TSEQ_BUDGET 65536

enum page_series {
	PS_OPS = 0,                 /* operations started */
	PS_INFLIGHT_NS,             /* time in flight, summed */
	PS_WIRE_I2R, PS_WIRE_R2I,   /* TCP payload octets */
	PS_RETX_I2R, PS_RETX_R2I,   /* ... of retransmitted segments */
	PS_GOOD_I2R, PS_GOOD_R2I,   /* ULP payload delivered in order */
	PS_RETRANS,                 /* retransmitted segments */
	PS_ZERO_WINDOWS,
	PS_COUNT
};
enum page_nvme_series { PN_DONE = 0, PN_BYTES, PN_LAT_SUM, PN_LAT_MAX, PN_COUNT };
/* Their names in the page's data ("ops", ...), in pagedata.c. */
extern const char *const page_series_names[PS_COUNT];
extern const char *const page_nvme_series_names[PN_COUNT];

/* The page's kinds of marks, named by pagedata_mark_kind_name(index). */
#define PAGE_MARK_KINDS 4
const char *pagedata_mark_kind_name(uint32_t index);

struct page_mark {
	uint8_t kind;               /* its index among the page's kinds (PAGE_MARK_KINDS) */
	uint8_t dir;
	uint64_t frame;
	int64_t ts;
};

struct page_nvme_op {
	int32_t qid;
	char op[32];                /* iws_nvme_cmd.op */
	struct loghist *latency;
};

struct page_nvme {
	uint64_t *series[PN_COUNT];
	struct page_nvme_op ops[PAGE_NVME_OPS];
	uint32_t nops;
	uint64_t ops_dropped;       /* latencies of command types beyond PAGE_NVME_OPS */
};

struct page_qp {
	const struct conn *c;       /* NULL: the other QPs together */
	uint64_t *series[PS_COUNT]; /* TIMEGRID_BUCKETS each */
	struct loghist *latency[IWS_OPT_COUNT], *delivery[IWS_OPT_COUNT];
	struct page_mark *marks;
	uint32_t nmarks, capmarks;
	uint64_t marks_dropped;
	uint32_t nqps;              /* the other QPs: how many */
	struct page_nvme *nvme;     /* NVMe commands seen (NULL: none) */
	struct tseq tseq;           /* own entries only */
};

struct pagedata {
	const struct source *src;   /* the first frame's time */
	bool include_rtr;
	bool started;               /* the grid has its origin */
	struct timegrid grid;
	struct page_qp qps[PAGE_MAX_QPS + 1]; /* [PAGE_MAX_QPS]: the other QPs */
	uint32_t nqps;
	struct slotmap by_slot;     /* conn->slot -> index in qps */
	struct wire wire;           /* segments before iWARP was known */
	struct opsample sample;
	struct slowest slow;
	struct nvme_item *failed;   /* the first PAGE_NVME_FAILED with a non-zero status */
	uint32_t nfailed;
	uint64_t tseq_budget;
	uint64_t oom;               /* things not counted: out of memory */
	/* the slowest complete RPCs over RDMA, slowest first (pagedata_rpc) */
	struct iws_rpc *rpc_slow;   /* PAGE_RPC_SLOWEST, allocated with the first */
	uint32_t nrpc_slow;
};

#define PAGE_RPC_SLOWEST 10

/* drawn: at most this many operations on the timeline (0: the default). */
void pagedata_init(struct pagedata *p, const struct source *src, uint32_t drawn, bool include_rtr);
void pagedata_op(struct pagedata *p, const struct conn *c, const struct iws_op *op);
void pagedata_mark(struct pagedata *p, const struct conn *c, const struct conn_mark *m);
void pagedata_segment(struct pagedata *p, const struct conn *c, const struct conn_seg *s);
void pagedata_fpdu(struct pagedata *p, const struct conn *c, const struct iws_pdu *pdu);
void pagedata_nvme(struct pagedata *p, const struct conn *c, const struct iws_nvme_cmd *m);
/* An RPC over RDMA of the window: kept when among the slowest complete. */
void pagedata_rpc(struct pagedata *p, const struct iws_rpc *r);
/* The end of the input (segments held for connections recognised late). */
void pagedata_finish(struct pagedata *p, const struct analysis *a);
/* The entry of the other QPs (NULL if there were none). */
const struct page_qp *pagedata_others(const struct pagedata *p);
void pagedata_free(struct pagedata *p);

#endif
