// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sbuf.h - a byte buffer that remembers where its octets came from: for each
 * chunk appended, the frame it was first captured in and the running
 * "in-order completion" frame (docs/semantics.md: an FPDU belongs to the frame
 * where reassembly completes it), and which octets are holes (never captured,
 * zero-filled). The stream engine keeps straddling FPDUs and hunted-through
 * octets in one of these per direction (core-private header).
 */
#ifndef IWS_CORE_SBUF_H
#define IWS_CORE_SBUF_H

#include <stdbool.h>
#include <stdint.h>

struct smark {
	uint32_t off;                   /* first buffer offset of a chunk */
	uint64_t frame;                 /* where that chunk was first captured */
	int64_t ts;                     /* ... and when */
	uint8_t how;                    /* that segment's enum seg_how (tcp_reasm.h) */
	uint64_t run_frame;             /* completion frame up to and with it */
	int64_t run_ts;
};

struct shole {
	uint32_t off, len;
	bool snap;                      /* cut by the snapshot length (else never captured) */
};

struct sbuf {
	uint8_t *data;                  /* the first octet; the allocation starts head before */
	uint32_t len, cap;              /* cap: the allocation's size */
	uint32_t head;                  /* octets consumed in front of data, not yet reused */
	uint32_t seq;                   /* TCP seq of data[0] */
	struct smark *marks;
	uint32_t nmarks, capmarks;
	struct shole *holes;
	uint32_t nholes, capholes;
};

/* Append n captured octets; seq is their sequence number (used when the
 * buffer was empty). false on allocation failure (nothing appended). */
bool sbuf_append(struct sbuf *b, uint32_t seq, const uint8_t *p, uint32_t n, uint64_t frame,
		 int64_t ts, uint8_t how, uint64_t run_frame, int64_t run_ts);
/* Append n missing octets (zeros, recorded as a hole; snap: a snapshot
 * length cut them). */
bool sbuf_append_hole(struct sbuf *b, uint32_t seq, uint32_t n, bool snap);
/* Octets of allocation that appending n octets would add (0: it fits). */
uint32_t sbuf_growth(const struct sbuf *b, uint32_t n);
/* Room for n octets in all (one allocation for an FPDU of known length). */
bool sbuf_reserve(struct sbuf *b, uint32_t n);
/* Empty the buffer and release its storage (seq stays). */
void sbuf_clear(struct sbuf *b);
/* Octets of memory the buffer holds (data, marks, holes). */
uint64_t sbuf_footprint(const struct sbuf *b);
/* Drop the first k octets (the storage is released when none remain). The
 * octets left are not moved: a buffer consumed a little at a time (hunting,
 * FPDUs framed one by one out of a 64 kB segment) costs O(k), not O(len);
 * the room in front is reused when the buffer must grow. */
void sbuf_consume(struct sbuf *b, uint32_t k);
void sbuf_free(struct sbuf *b);

/* The chunk that holds octet off (NULL for an empty buffer). */
const struct smark *sbuf_mark_at(const struct sbuf *b, uint32_t off);
/* Index of that chunk's mark (0 for an empty buffer). */
uint32_t sbuf_mark_index(const struct sbuf *b, uint32_t off);
/* Is octet off in a hole the snapshot length made? */
bool sbuf_snap_hole(const struct sbuf *b, uint32_t off);
/* Offset from off of the first hole octet in [off, off+w); w if none. */
uint32_t sbuf_first_hole(const struct sbuf *b, uint32_t off, uint32_t w);

#endif
