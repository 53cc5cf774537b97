// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * words.h - what the writers say in words, the same in every writer: an
 * endpoint, the MPA handshake state, a QP's gaps, where an operation's or
 * an NVMe command's time went.
 */
#ifndef IWS_CLI_WORDS_H
#define IWS_CLI_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "iwarpscope/nvme.h"
#include "iwarpscope/qp.h"
#include "iwarpscope/stream.h"

struct conn;

/* "addr:port" of the initiator (dir IWS_DIR_I2R) or responder of c. */
const char *conn_ep_str(const struct conn *c, uint8_t dir, char *buf);
/* The MPA handshake state as the JSON and text name it. */
const char *hs_name(enum iws_stream_state st);
/* Gaps (octets the capture never had) of both directions of c. */
uint64_t conn_gap_count(const struct conn *c);
uint64_t conn_gap_bytes(const struct conn *c);
/* Appends "; clause" (or "clause" first) to buf of n octets, *len used. */
void words_join(char *buf, size_t n, size_t *len, const char *clause);
/* Where an operation's time went, in words (the slowest lists). */
const char *op_why(char *buf, size_t n, const struct iws_op *op);
/* Where an NVMe command's time went, in words: its data phase, its status. */
const char *nvme_why(char *buf, size_t n, const struct iws_nvme_cmd *m);

#endif
