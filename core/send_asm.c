// SPDX-License-Identifier: GPL-2.0-or-later
/* A Send message out of its DDP segments: see send_asm.h. */
#include "send_asm.h"

#include <stdlib.h>
#include <string.h>

#include "iwarpscope/stream.h"

bool send_asm_seg(struct send_asm *a, uint32_t cap, const struct iws_pdu *p, const struct iws_msg *m,
		  bool head_only, const uint8_t **buf, size_t *len)
{
	const struct iws_ddp_hdr *d = &m->ddp;
	uint32_t ucap = iws_fpdu_ulpdu_captured(p->fpdu, p->first_hole);
	uint32_t pcap = ucap > m->payload_off ? ucap - m->payload_off : 0;
	if (pcap > m->payload_len)
		pcap = m->payload_len;
	const uint8_t *payload = p->fpdu->ulpdu + m->payload_off;
	if (d->mo == 0) {
		a->open = false;
		a->first_frame = p->first_frame;
		a->first_ts = p->first_ts;
		/* whole, cut by the snapshot length, or the head a probe needs */
		if (d->last || pcap < m->payload_len || head_only) {
			*buf = payload;
			*len = pcap;
			return true;
		}
		a->open = true;
		a->msn = d->msn;
		a->next_mo = 0;
		a->have = 0;
	} else if (!a->open || a->msn != d->msn || a->next_mo != d->mo) {
		a->open = false;
		return false;
	}
	if (!a->buf && !(a->buf = malloc(cap))) {
		a->open = false;
		return false;
	}
	uint32_t take = pcap < cap - a->have ? pcap : cap - a->have;
	if (take)
		memcpy(a->buf + a->have, payload, take);
	a->have += take;
	a->next_mo += m->payload_len;
	if (d->last || (pcap < m->payload_len && a->have < cap)) {
		/* complete, or the rest of its head was not captured: read what is there */
		a->open = false;
		*buf = a->buf;
		*len = a->have;
		return true;
	}
	return false;
}
