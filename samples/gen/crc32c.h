// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC32c (Castagnoli), reflected polynomial 0x82F63B78, init and final XOR
 * 0xFFFFFFFF, as used by MPA (RFC 5044 section 4.4) and iSCSI.
 * crc32c("123456789") == 0xE3069283.
 */
#ifndef IWSGEN_CRC32C_H
#define IWSGEN_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#define CRC32C_INIT 0xFFFFFFFFu

/* Feed bytes into a running register (start with CRC32C_INIT). */
uint32_t crc32c_update(uint32_t reg, const uint8_t *buf, size_t n);
/* Final value from a register. */
uint32_t crc32c_final(uint32_t reg);
/* One-shot. */
uint32_t crc32c(const uint8_t *buf, size_t n);

#endif
