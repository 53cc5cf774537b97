// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * status.h - the result every iwarpscope core parser returns.
 *
 * A parser is handed (const uint8_t *buf, size_t len) and answers one of:
 *   IWS_OK          the structure was decoded; its fields are filled in;
 *   IWS_NEED_MORE   the buffer ends too early; `need` is the total number of
 *                   octets (from buf[0]) the parser wants to see;
 *   IWS_MALFORMED   the octets cannot be this structure; `reason` says why
 *                   and err_off/err_len point at the offending field.
 * Parsers never read outside [buf, buf+len) and never allocate.
 */
#ifndef IWARPSCOPE_STATUS_H
#define IWARPSCOPE_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IWS_VERSION_STRING "0.1.0"

enum iws_status {
	IWS_OK = 0,
	IWS_NEED_MORE = 1,
	IWS_MALFORMED = 2,
};

struct iws_result {
	enum iws_status status;
	size_t need;        /* IWS_NEED_MORE: octets wanted from buf[0] */
	const char *reason; /* IWS_MALFORMED: static, human readable */
	size_t err_off;     /* IWS_MALFORMED: offending field */
	size_t err_len;
};

/* Where a field sits, relative to the start of the buffer that was parsed. */
struct iws_field {
	uint32_t off;
	uint32_t len;
};

static inline struct iws_result iws_ok(void)
{
	struct iws_result r = { IWS_OK, 0, NULL, 0, 0 };
	return r;
}

static inline struct iws_result iws_need(size_t need)
{
	struct iws_result r = { IWS_NEED_MORE, need, NULL, 0, 0 };
	return r;
}

static inline struct iws_result iws_malformed(const char *reason, size_t off, size_t len)
{
	struct iws_result r = { IWS_MALFORMED, 0, reason, off, len };
	return r;
}

#ifdef __cplusplus
}
#endif
#endif
