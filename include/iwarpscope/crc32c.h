// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc32c.h - CRC32c (Castagnoli), the MPA FPDU checksum (RFC 5044 §4.4,
 * the same CRC as iSCSI, RFC 3385).
 *
 * The functions follow zlib's crc32() convention: start with 0, pass the
 * previous result back in to continue over a further piece, so a CRC can be
 * computed over non-contiguous pieces. iws_crc32c_extend(0, "123456789", 9)
 * is 0xE3069283.
 *
 * On the wire MPA carries the CRC value least significant octet first (what
 * Linux siw sends and checks); iws_mpa_crc_read() in mpa.h reads it so.
 */
#ifndef IWARPSCOPE_CRC32C_H
#define IWARPSCOPE_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fastest available implementation, chosen once at run time. */
uint32_t iws_crc32c_extend(uint32_t crc, const void *buf, size_t len);

/* Portable table-driven implementation (slicing-by-8). */
uint32_t iws_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* SSE4.2 crc32 instruction path (three interleaved streams over long
 * buffers); true when this CPU has it. When it does
 * not, iws_crc32c_hw() falls back to the table path. */
bool iws_crc32c_hw_available(void);
uint32_t iws_crc32c_hw(uint32_t crc, const void *buf, size_t len);
/* The same with a single stream of crc32 instructions (the former
 * implementation: a baseline for bench/ and the tests). */
uint32_t iws_crc32c_hw1(uint32_t crc, const void *buf, size_t len);

/* Name of the implementation iws_crc32c_extend uses ("sse4.2 (3 streams)" or "table"). */
const char *iws_crc32c_impl(void);

#ifdef __cplusplus
}
#endif
#endif
