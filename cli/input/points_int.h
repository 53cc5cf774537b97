// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * points_int.h - what the capture-point stage (points.c) keeps: private to
 * cli/input (the writers read it through points.h's accessors,
 * points_view.c; tests/layering.py checks). Directions are indexed by flow side (the
 * sender's side, flows.h); the writers turn them into i2r/r2i.
 */
#ifndef IWS_CLI_POINTS_INT_H
#define IWS_CLI_POINTS_INT_H

#include "flows.h"
#include "points.h"

#define PT_NONE UINT32_MAX

/* One indexed TCP segment (every TCP record of the inputs, in frame order). */
struct prec {
	uint64_t frame;
	int64_t ts;
	uint32_t conn;              /* index in points.conns */
	uint32_t key;               /* its segment (pkey), PT_NONE for a pure ACK */
	uint32_t next;              /* next record of the same key */
	uint32_t seq, ack, len;     /* len: payload octets on the wire */
	uint16_t file;
	uint8_t side, flags;
	uint8_t copy;               /* copies of its key at its point before it */
	bool holefill;              /* at its point, it filled a hole behind later octets */
	bool has_ip_id;             /* IPv4: its Identification, to tell a segment overtaken */
	uint16_t ip_id;             /* on the way from one sent again (docs/semantics.md) */
};

/* One TCP segment as identified across points. */
struct pkey {
	uint32_t conn, seq, len;
	uint8_t side, flags;        /* flags: SYN and FIN, which take sequence space */
	uint8_t pfx_len;
	bool full;                  /* every payload octet captured: hash covers them */
	bool disputed;              /* another key has the same place but other octets */
	uint8_t pfx[16];            /* the first captured payload octets */
	uint64_t hash;
	uint32_t first, last;       /* its records */
	uint32_t hnext;
};

struct pconn {
	uint32_t stream;            /* tcp.stream = the CLI's qp */
	uint64_t seen;              /* points that saw it (bit per point, first 64) */
	uint8_t opener;             /* side that opened it (SYN), else that sent first */
	bool multi;                 /* seen at two points: p and q */
	int p, q, ref;
	uint64_t agreed, disputed;  /* segments both saw with the same / other octets */
	uint32_t base[2];           /* sequence base per side (first seen) */
	bool base_set[2];
	struct points_dir dir[2];   /* by sender side */
	bool has_offset;
	int64_t off, off_lo, off_hi;/* clock(q) - clock(p): estimate and bounds */
	uint64_t dropped, filled;   /* analysis pass: copies not analysed, gaps filled */
};

struct pfile {
	const char *name;
	int64_t first, last;
	bool any;
	int point;
};

struct ppoint {
	const char *name;           /* its first file */
	int nfiles;
};

/* What a key was before a file read alone changed it (points.c). */
struct pundo {
	uint32_t k, first, last;
	bool disputed;
};

struct points {
	struct prec *recs;
	uint32_t nrecs, caprecs;
	bool recs_full;             /* POINTS_MAX_RECORDS reached */
	uint64_t segs_unindexed;    /* segments not indexed: a limit was reached */
	uint32_t *by_stream;        /* two-point connections by stream (points_conn) */
	/* survey: the file read alone since record alone_rs, key alone_ks */
	int alone_file;             /* -1: none */
	uint32_t alone_rs, alone_ks;
	uint64_t alone_unindexed;
	struct pundo *undo;
	uint32_t nundo, capundo;
	struct pkey *keys;
	uint32_t nkeys, capkeys;
	uint32_t *buckets;
	uint32_t nbuckets;
	uint32_t *kstart, *keys_of; /* keys by connection (points.c sort_keys) */
	struct pconn *conns;
	uint32_t nconns, capconns;
	struct pfile *files;
	int nfiles;
	struct ppoint *pts;
	int npoints;
	uint32_t nmulti;
	uint32_t cursor;            /* analysis pass: next record */
};

/* The two-point connection of a stream (tcp.stream), NULL if none. */
const struct pconn *points_conn(const struct points *pts, uint32_t stream);

#endif
