// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagedata.h - what the HTML report (`iwarpscope report`, out_html.c)
 * draws, gathered while the capture streams by, in memory that does not
 * grow with the capture:
 *   - per QP, on one time grid (timegrid.h): operations started, bytes
 *     (spread over each operation's start..end), TCP retransmissions and
 *     zero windows per bucket;
 *   - per QP, TCP events in time (retransmissions, zero windows, gaps), the
 *     first PAGE_MAX_MARKS of them;
 *   - per QP and operation type, log-binned histograms (loghist.h) of the
 *     latency and the delivery time, over the same operations as the
 *     statistics (complete ones; RTR messages only with --include-rtr);
 *   - a bounded sample of the operations to draw (opsample.h).
 * The first PAGE_MAX_QPS QPs to carry an operation (or a TCP event once
 * they are known to be iWARP) have their own; the others share one entry.
 */
#ifndef IWS_CLI_PAGEDATA_H
#define IWS_CLI_PAGEDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "conn.h"
#include "loghist.h"
#include "opsample.h"
#include "slotmap.h"
#include "source.h"
#include "timegrid.h"

#define PAGE_MAX_QPS 64
#define PAGE_MAX_MARKS 2000
#define PAGE_DEFAULT_DRAWN 10000

enum page_series { PS_OPS = 0, PS_BYTES, PS_RETRANS, PS_ZERO_WINDOWS, PS_COUNT };
/* Their names in the page's data ("ops", ...), in pagedata.c. */
extern const char *const page_series_names[PS_COUNT];

struct page_mark {
	uint8_t kind;               /* enum conn_mark_kind */
	uint8_t dir;
	uint64_t frame;
	int64_t ts;
};

struct page_qp {
	const struct conn *c;       /* NULL: the other QPs together */
	uint64_t *series[PS_COUNT]; /* TIMEGRID_BUCKETS each */
	struct loghist *latency[IWS_OPT_COUNT], *delivery[IWS_OPT_COUNT];
	struct page_mark *marks;
	uint32_t nmarks, capmarks;
	uint64_t marks_dropped;
	uint32_t nqps;              /* the other QPs: how many */
};

struct pagedata {
	const struct source *src;   /* the first frame's time */
	bool include_rtr;
	bool started;               /* the grid has its origin */
	struct timegrid grid;
	struct page_qp qps[PAGE_MAX_QPS + 1]; /* [PAGE_MAX_QPS]: the other QPs */
	uint32_t nqps;
	struct slotmap by_slot;     /* conn->slot -> index in qps */
	struct opsample sample;
	uint64_t oom;               /* things not counted: out of memory */
};

/* drawn: at most this many operations on the timeline (0: the default). */
void pagedata_init(struct pagedata *p, const struct source *src, uint32_t drawn, bool include_rtr);
void pagedata_op(struct pagedata *p, const struct conn *c, const struct iws_op *op);
void pagedata_mark(struct pagedata *p, const struct conn *c, const struct conn_mark *m);
/* The entry of the other QPs (NULL if there were none). */
const struct page_qp *pagedata_others(const struct pagedata *p);
void pagedata_free(struct pagedata *p);

#endif
