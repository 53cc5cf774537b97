// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * points.h - several capture points: files that saw the same TCP connection
 * at different places (both ends of a link, a TAP and a host), read
 * together. A pipeline stage between the source and the flow table:
 *
 *   survey (a first pass over every input):  which files form one capture
 *       point (a rotated set: files that follow each other in time), which
 *       connections two points saw (identical TCP segments: same
 *       connection, direction, sequence number, length and octets, while
 *       the files overlap in time), which point is upstream for each
 *       direction, the one-way times, the clock offset and where loss
 *       happened;
 *   admit (the analysis pass): each record of a connection seen at two
 *       points reaches the analysis only from its reference point (the one
 *       nearest the side that opened the connection); copies from the other
 *       point are numbered but not analysed, like filtered-out records, so
 *       frame and QP numbers stay those of the time-merged input. A segment
 *       the reference point's capture missed although it passed there (the
 *       downstream point has it) is taken from the other point.
 *
 * So the core engine sees one clean stream per connection (no phantom
 * retransmissions) and every number it reports is the reference point's;
 * the writers ask this module for what the other point adds (per FPDU and
 * operation: one-way time, times at the other point). Definitions:
 * docs/semantics.md, "Two capture points".
 *
 * Matching is per TCP segment: both points must see the same segmentation
 * (port mirrors, TAPs, hosts without TSO/GRO). Memory is bounded by
 * POINTS_MAX_RECORDS indexed segments and POINTS_MAX_CONNS connections,
 * time is linear in the records however many copies of a segment there
 * are (docs/robustness.md has the figures).
 */
#ifndef IWS_CLI_POINTS_H
#define IWS_CLI_POINTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "source.h"

#define POINTS_MAX_RECORDS (4u << 20)
/* Connections the survey follows (twice --max-flows' default); the segments
 * of later ones are not matched (counted, and said). */
#define POINTS_MAX_CONNS 65536u
/* Connections points_note names one by one on stderr. */
#define POINTS_NOTE_LINES 8

struct points;

/*
 * Read every input once (files only: not stdin, not live) and work out the
 * capture points. expect: --points was given (say so when there is nothing
 * to match). Returns NULL when no connection was seen at two points (the
 * run is then an ordinary merge), or on an error (err non-empty).
 */
struct points *points_survey(const struct source_opts *so, bool expect, char *err, size_t errlen);

/* The analysis pass: clear p->matched for a record that is a copy from a
 * non-reference point. */
void points_admit(struct points *pts, struct src_packet *p);

/* A one-line note for stderr: which files are points of which connections. */
void points_note(const struct points *pts, FILE *f);

/* What the other point adds to a record of the reference view. */
struct points_at {
	bool known;                 /* the record is a two-point connection's */
	const char *point;          /* the reference point (name of its first file) */
	const char *other;          /* the other point */
	bool has_other;             /* the other point saw this segment ... */
	int64_t other_ns;           /* ... at this time (its own clock) */
	bool has_oneway;
	int64_t oneway_ns;          /* downstream minus upstream time of that segment, raw clocks */
};

void points_at_frame(const struct points *pts, uint64_t frame, struct points_at *at);


/* What the writers read (points_view.c): the capture points (each named by
 * its first file), the input files with the point of each, and what the
 * survey could not index (segments past its memory bound). */
int points_count(const struct points *pts);
const char *points_name(const struct points *pts, int point);
int points_point_files(const struct points *pts, int point);
uint32_t points_multi_count(const struct points *pts); /* connections seen at two points */
uint64_t points_unindexed(const struct points *pts);
int points_file_count(const struct points *pts);
const char *points_file_name(const struct points *pts, int file);
int points_file_point(const struct points *pts, int file);

/* A direction of a connection seen at two points (points are indices for
 * points_name). */
struct points_dir {
	int up, down;               /* point indices: nearer the sender, nearer the receiver */
	bool measured;              /* order from round-trip times (else assumed) */
	uint64_t matched;           /* segments seen at both points */
	uint64_t n_oneway;
	int64_t ow_min, ow_p50, ow_max; /* one-way times (downstream - upstream clock) */
	uint64_t lost_before;       /* first transmission seen at neither point */
	uint64_t lost_between;      /* passed the upstream point, never reached downstream */
	uint64_t lost_after;        /* reached the downstream point, sent again (lost after it,
				     * or a spurious retransmission) */
	uint64_t missed_up, missed_down; /* a point's capture missed a segment the other saw */
};

/* A connection seen at two points, as the writers show it. */
struct points_qp {
	int p, q, ref;              /* the two points, and the reference one */
	uint64_t agreed, disputed;  /* segments both saw with the same / other octets */
	bool has_offset;
	int64_t off, off_lo, off_hi;/* clock(q) - clock(p): estimate and bounds */
	uint64_t dropped, filled;   /* analysis pass: copies not analysed, gaps filled */
	const struct points_dir *dir; /* [2], by sender side (flows.h) */
};

/* The stream's (tcp.stream) two-point connection into *qp; false: it was
 * not seen at two points (or pts is NULL). */
bool points_qp_get(const struct points *pts, uint32_t stream, struct points_qp *qp);

/* What the writers show of the points: cli/output/out_points.h. */

void points_free(struct points *pts);

#endif
