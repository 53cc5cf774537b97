// SPDX-License-Identifier: GPL-2.0-or-later
#include "iwarpscope/status.h"

const char *iws_status_name(enum iws_status s)
{
	switch (s) {
	case IWS_OK:
		return "OK";
	case IWS_NEED_MORE:
		return "NEED_MORE";
	case IWS_MALFORMED:
		return "MALFORMED";
	}
	return "?";
}
