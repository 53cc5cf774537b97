// SPDX-License-Identifier: GPL-2.0-or-later
/* Network-order readers for the core (private header). */
#ifndef IWS_CORE_BYTES_H
#define IWS_CORE_BYTES_H

#include <stdint.h>

static inline uint16_t iws_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t iws_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t iws_be64(const uint8_t *p)
{
	return (uint64_t)iws_be32(p) << 32 | iws_be32(p + 4);
}

/* Little-endian readers: NVMe structures (NVMe Base 2.0, "Conventions"). */
static inline uint16_t iws_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t iws_le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uint32_t iws_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t iws_le64(const uint8_t *p)
{
	return (uint64_t)iws_le32(p) | (uint64_t)iws_le32(p + 4) << 32;
}

static inline struct iws_field iws_fld(uint32_t off, uint32_t len)
{
	struct iws_field f = { off, len };
	return f;
}

#endif
