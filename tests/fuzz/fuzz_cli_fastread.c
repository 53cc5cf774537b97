// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz fastread (cli/input/fastread.c, issue 34) against libpcap on the
 * same octets: whatever the input, every record fastread hands out must be
 * the record libpcap gives (timestamp, lengths, octets), and where fastread
 * says the file ends libpcap must say so too; a fallback is always allowed
 * (libpcap then goes on in the CLI). A difference aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "fastread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PCAP_ERRBUF_SIZE];
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
	if (!f)
		return 0;
	pcap_t *h = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, err);
	if (!h) {
		fclose(f);
		return 0;
	}
	struct fastread *fr = fastread_mem(data, size, pcap_datalink(h), pcap_snapshot(h));
	for (;;) {
		struct fastread_rec r;
		struct pcap_pkthdr *ph;
		const u_char *pd;
		int rc = fr ? fastread_next(fr, &r) : FASTREAD_FALLBACK;
		if (rc == FASTREAD_FALLBACK)
			break;
		int lrc = pcap_next_ex(h, &ph, &pd);
		if (rc == FASTREAD_END) {
			if (lrc != PCAP_ERROR_BREAK)
				abort();
			break;
		}
		if (lrc != 1 || (int64_t)ph->ts.tv_sec != r.sec || (int64_t)ph->ts.tv_usec != r.frac ||
		    ph->caplen != r.caplen || ph->len != r.len || memcmp(pd, r.data, r.caplen) != 0)
			abort();
		if (r.data < data || r.data + r.caplen > data + size)
			abort();
	}
	fastread_close(fr);
	pcap_close(h);
	return 0;
}
