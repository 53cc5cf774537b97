// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inputs.h - capture operands to capture files, before the source opens
 * them. An operand is
 *   - a file (or "-" for stdin): itself;
 *   - a shell pattern that names no file ('trace.pcap*', quoted so the
 *     shell leaves it): the regular files it matches (glob(3)); a FIFO,
 *     device or directory it matches is skipped with a note (a FIFO would
 *     block, a device never end), though a FIFO named alone is read;
 *   - a directory: the capture files in it (recognised by their first
 *     octets: pcap, pcapng, gzip, zstd; other files are skipped; one that
 *     cannot be read is an error, as when it is named).
 * Files are listed in natural name order (f.pcap2 before f.pcap10). The
 * source merges them by time, so a rotated set (tcpdump -C, -W, -G) reads
 * as one capture with connections continuing from file to file.
 *
 * Rotated sets are checked for holes: names that differ only in a counter
 * (tcpdump -C: f.pcap f.pcap1 f.pcap2...; -W: f.pcap0 f.pcap1...; editcap -c:
 * f_00000_<time>.pcap...) whose counters skip a value get a warning naming
 * the missing file: its connections then continue across a capture gap.
 */
#ifndef IWS_CLI_INPUTS_H
#define IWS_CLI_INPUTS_H

#include <stddef.h>

#define INPUTS_MAX_NOTES 8

struct inputs {
	const char **files;         /* the capture files, in order */
	int nfiles;
	char **owned;               /* names this module allocated */
	int nowned;
	char notes[INPUTS_MAX_NOTES][256]; /* warnings for the report (holes, skipped files) */
	int nnotes;
};

/* 0 on success; -1 with a one-line message in err (an operand that names
 * nothing, a pattern or directory without capture files, an unreadable file
 * in a directory, out of memory). Time n log n in the files. */
int inputs_expand(const char *const *operands, int n, struct inputs *in, char *err, size_t errlen);
void inputs_free(struct inputs *in);

/* Natural order of two names: digit runs compare as numbers. */
int inputs_natcmp(const char *a, const char *b);

#endif
