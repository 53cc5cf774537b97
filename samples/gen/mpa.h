// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MPA (RFC 5044, RFC 6581): Request/Reply frames with private data and the
 * enhanced (IRD/ORD/RTR) word, and FPDU framing with PAD, CRC32c and
 * markers. FPDUs are appended to a direction's TCP send queue; each one is
 * recorded as a struct fpdu_rec.
 */
#ifndef IWSGEN_MPA_H
#define IWSGEN_MPA_H

#include "gen.h"

#define MPA_FLAG_M 0x80
#define MPA_FLAG_C 0x40
#define MPA_FLAG_R 0x20
#define MPA_FLAG_S 0x10

struct fpdu_meta {
	int tagged, last;
	uint8_t opcode;
	uint32_t stag;
	uint64_t to;
	uint32_t qn, msn, mo;
	int op, op_seq, rtr;
	uint32_t payload;	/* ULP payload octets counted for the op */
	uint32_t hdrlen;	/* DDP header length (14 or 18) */
};

/* Queue the MPA Request (i2r) / Reply (r2i) built from c->cfg. The Reply
 * also switches both directions to full operation (unless rejected). */
void mpa_request(struct gen *g, struct conn *c);
void mpa_reply(struct gen *g, struct conn *c);

/* Largest ULPDU whose FPDU (markers included) fits in one MSS when it
 * starts at the current end of the send queue. */
uint32_t mpa_max_ulpdu(const struct conn *c, int dir);
/* Wire length of the direction's next FPDU (d->nfpdu) carrying ulen octets,
 * starting at stream offset pos. */
uint32_t mpa_wire_len(const struct dir *d, uint64_t pos, uint32_t ulen);
/* Whether such an FPDU gets a marker right before its CRC field. */
int mpa_marker_before_crc(const struct dir *d, uint64_t pos, uint32_t ulen);

/* Where the sender's marker grid starts for the direction's FPDU number k
 * (0 = the first after SeqStart): markers at (S - base) mod 512 == 0. */
uint64_t mpa_grid_base(const struct dir *d, uint64_t k);

/* Frames ulpdu as one FPDU at the end of the send queue; returns its index
 * in g->fpdus (0 in streaming mode). */
int mpa_put_fpdu(struct gen *g, struct conn *c, int dir, const uint8_t *ulpdu, uint32_t ulen,
		 const struct fpdu_meta *m);

#endif
