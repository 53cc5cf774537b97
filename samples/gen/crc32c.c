// SPDX-License-Identifier: GPL-2.0-or-later
/* Table-driven CRC32c, slicing by 8, tables built at first use. */
#include "crc32c.h"

static uint32_t tab[8][256];
static int tab_ready;

static void build_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			tab[t][i] = (tab[t - 1][i] >> 8) ^ tab[0][tab[t - 1][i] & 0xff];
	tab_ready = 1;
}

uint32_t crc32c_update(uint32_t reg, const uint8_t *p, size_t n)
{
	if (!tab_ready)
		build_tables();
	while (n >= 8) {
		uint32_t lo = reg ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
			      (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		reg = tab[7][lo & 0xff] ^ tab[6][(lo >> 8) & 0xff] ^
		      tab[5][(lo >> 16) & 0xff] ^ tab[4][lo >> 24] ^
		      tab[3][hi & 0xff] ^ tab[2][(hi >> 8) & 0xff] ^
		      tab[1][(hi >> 16) & 0xff] ^ tab[0][hi >> 24];
		p += 8;
		n -= 8;
	}
	while (n--)
		reg = (reg >> 8) ^ tab[0][(reg ^ *p++) & 0xff];
	return reg;
}

uint32_t crc32c_final(uint32_t reg)
{
	return reg ^ 0xFFFFFFFFu;
}

uint32_t crc32c(const uint8_t *buf, size_t n)
{
	return crc32c_final(crc32c_update(CRC32C_INIT, buf, n));
}
