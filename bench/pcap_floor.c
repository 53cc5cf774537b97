// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap_floor: the floor iwarpscope's throughput is compared with - a bare
 * libpcap read loop: pcap_open_offline_with_tstamp_precision (nanoseconds, as
 * iwarpscope asks) and pcap_next_ex, touching every captured byte (summed 8 at
 * a time, so the compiler cannot skip the reads); prints records, bytes and
 * the checksum.
 *
 * -b opens the file with a 1 MiB stdio buffer (pcap_fopen_offline on a
 * setvbuf'd FILE), as iwarpscope's libpcap path does: libpcap's default
 * buffer costs a read(2) per record larger than 4 KiB. The benchmark reports
 * both, so the source of any gain is clear.
 *
 * -n touches nothing: the loop only counts records and captured octets
 * (what libpcap itself does, reading and copying each record, is all the
 * work). -b -n is the "tuned libpcap read loop" of issue 34, the floor a
 * single-threaded `iwarpscope stats` is measured against.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

#define BIG_BUFFER (1u << 20)

int main(int argc, char **argv)
{
	char err[PCAP_ERRBUF_SIZE];
	int big = 0, touch = 1, a = 1;
	for (; a < argc - 1; a++) {
		if (strcmp(argv[a], "-b") == 0)
			big = 1;
		else if (strcmp(argv[a], "-n") == 0)
			touch = 0;
		else
			break;
	}
	if (a != argc - 1) {
		fprintf(stderr, "usage: pcap_floor [-b] [-n] FILE\n");
		return 2;
	}
	const char *path = argv[argc - 1];
	pcap_t *h;
	static char iobuf[BIG_BUFFER];
	if (big) {
		FILE *f = fopen(path, "rb");
		if (!f) {
			perror(path);
			return 2;
		}
		setvbuf(f, iobuf, _IOFBF, sizeof(iobuf));
		h = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, err);
	} else {
		h = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	}
	if (!h) {
		fprintf(stderr, "pcap_floor: %s\n", err);
		return 2;
	}
	struct pcap_pkthdr *hdr;
	const u_char *data;
	uint64_t records = 0, bytes = 0, sum = 0;
	int rc;
	while ((rc = pcap_next_ex(h, &hdr, &data)) == 1) {
		uint32_t n = hdr->caplen, i = 0;
		uint64_t w;
		if (!touch)
			n = 0;
		for (; i + 8 <= n; i += 8) {
			memcpy(&w, data + i, 8);
			sum += w;
		}
		for (; i < n; i++)
			sum += data[i];
		records++;
		bytes += hdr->caplen;
	}
	if (rc == PCAP_ERROR)
		fprintf(stderr, "pcap_floor: %s\n", pcap_geterr(h));
	printf("records %" PRIu64 " bytes %" PRIu64 " sum %016" PRIx64 "\n", records, bytes, sum);
	pcap_close(h);
	return rc == PCAP_ERROR ? 1 : 0;
}
