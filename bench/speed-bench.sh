#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# speed-bench.sh: single-threaded speed of `iwarpscope stats` against the
# tuned libpcap read loop, side by side in one run (issue 34):
#   (a) pcap_floor -b -n FILE   libpcap, pcap_next_ex, a 1 MiB stdio buffer,
#                               touching nothing: the floor
#   (b) iwarpscope stats FILE   the analyser (records read in place, CRC on)
#   (c) the same with IWARPSCOPE_READER=libpcap (every record through libpcap)
# on one generated capture (iwarpscope-gen --scenario bench), with the ratio
# floor time / iwarpscope time (target >= 1.0), GB/s per core (octets of the
# file / CPU seconds), peak RSS, CRC32c GB/s of the three-stream SSE4.2 code
# against the single stream it replaced and the table code, and the CPU
# model. (b) and (c) must print the same; the figures are the best of N runs
# (wall time) after the page cache is warm.
# Then -j 2 against -j 1 (issue 34 item 4): `stats` on a second capture of
# the same size with 64 connections (--qps 64, so the hash spreads them),
# timed by farm-bench (A = -j 2, B = -j 1 in turn, the median of the pairs'
# ratios; target: -j 1 / -j 2 wall >= 1.6x on two cores), peak RSS of each
# from /usr/bin/time -v (target: -j 2 not higher), outputs compared.
#
# Usage: bench/speed-bench.sh [--build DIR] [--size SIZE] [--dir WORKDIR] [--runs N] [--keep]
#   --build DIR   build tree with cli/iwarpscope, bench/pcap_floor, bench/crc_bench,
#                 samples/gen/iwarpscope-gen (default: ./build)
#   --size SIZE   capture size (default 1G)
#   --dir DIR     where the capture goes (default ${TMPDIR:-/tmp}/iwarpscope-bench;
#                 deleted afterwards unless --keep)
#   --runs N      best of N timed runs (default 3)
#   --keep        keep (and reuse) the capture
set -euo pipefail
. "$(dirname "$0")/benchlib.sh"
bench_args 24 "$@"

iws=$build/cli/iwarpscope
floor=$build/bench/pcap_floor
crc=$build/bench/crc_bench
gen=$build/samples/gen/iwarpscope-gen
need_built "$iws" "$floor" "$crc" "$gen"
mkdir -p "$work"
bytes=$(to_bytes "$size")
file=$work/speed-$bytes
make_capture "$file" "$bytes"
[ "$keep" = 1 ] || trap 'rm -f "$file.pcap" "$file.truth.json"' EXIT
cat "$file.pcap" >/dev/null   # the page cache warm for every contender
fsize=$(stat -L -c %s "$file.pcap")

read -r t_floor c_floor m_floor < <(timed "$runs" "$floor" -b -n "$file.pcap")
read -r t_iws c_iws m_iws < <(timed "$runs" "$iws" stats --no-progress "$file.pcap")
read -r t_lib c_lib m_lib < <(timed "$runs" env IWARPSCOPE_READER=libpcap "$iws" stats \
	--no-progress "$file.pcap")

"$iws" stats --no-progress "$file.pcap" > "$work/stats.fast"
IWARPSCOPE_READER=libpcap "$iws" stats --no-progress "$file.pcap" > "$work/stats.libpcap"
if cmp -s "$work/stats.fast" "$work/stats.libpcap"; then
	same=yes
else
	same=no
fi
rm -f "$work/stats.fast" "$work/stats.libpcap"
# -j 2 against -j 1 on many connections
jfile=$work/speed-jobs-$bytes
if ! { [ "$keep" = 1 ] && [ -s "$jfile.pcap" ]; }; then
	echo "generating $jfile.pcap ($bytes bytes, 64 QPs)..." >&2
	"$gen" --scenario bench --qps 64 --size "$bytes" --out "$jfile" >/dev/null
fi
[ "$keep" = 1 ] || trap 'rm -f "$file.pcap" "$file.truth.json" "$jfile.pcap" "$jfile.truth.json"' EXIT
cat "$jfile.pcap" >/dev/null
farm-bench -n "$runs" --timeout 600 --vs "$iws -j 1 stats --no-progress $jfile.pcap" -- \
	"$iws" -j 2 stats --no-progress "$jfile.pcap" > "$work/farm.out" 2>&1 || {
	echo "benchmark: farm-bench failed:" >&2; cat "$work/farm.out" >&2; exit 1; }
jobs_ratio=$(awk '$1 == "A/B" && $2 == "wall" { print $4 }' "$work/farm.out")
jobs_cpu=$(awk '$1 == "A/B" && $2 == "cpu" { print $4 }' "$work/farm.out")
jobs_wall_a=$(awk '$1 == "A" && $2 == "wall" { print $5 }' "$work/farm.out")
jobs_wall_b=$(awk '$1 == "B" && $2 == "wall" { print $5 }' "$work/farm.out")
rss_of() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }'; }
rss_j1=$(rss_of "$iws" -j 1 stats --no-progress "$jfile.pcap")
rss_j2=$(rss_of "$iws" -j 2 stats --no-progress "$jfile.pcap")
"$iws" -j 1 stats --no-progress "$jfile.pcap" > "$work/stats.j1"
"$iws" -j 2 stats --no-progress "$jfile.pcap" > "$work/stats.j2"
if cmp -s "$work/stats.j1" "$work/stats.j2"; then jsame=yes; else jsame=no; fi
rm -f "$work/stats.j1" "$work/stats.j2"

crc_out=$("$crc" 2>/dev/null)
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)

python3 - "$fsize" "$t_floor" "$c_floor" "$m_floor" "$t_iws" "$c_iws" "$m_iws" "$t_lib" "$c_lib" \
	"$m_lib" "$same" "$cpu_model" "$("$iws" --version)" "$crc_out" "$jobs_ratio" "$jobs_cpu" \
	"$jobs_wall_a" "$jobs_wall_b" "$rss_j1" "$rss_j2" "$jsame" "$(nproc)" <<'EOF'
import sys
a = sys.argv[1:]
size = int(a[0])
rows = [("(a) tuned libpcap loop (pcap_floor -b -n)",) + tuple(int(x) for x in a[1:4]),
        ("(b) iwarpscope stats",) + tuple(int(x) for x in a[4:7]),
        ("(c) iwarpscope stats, IWARPSCOPE_READER=libpcap",) + tuple(int(x) for x in a[7:10])]
same, cpu, version, crc = a[10], a[11], a[12], a[13]
j_ratio, j_cpu, j_wall2, j_wall1, rss1, rss2, jsame, nproc = a[14:22]
print("%s; CPU: %s; capture %d octets" % (version, cpu or "unknown", size))
print("%-48s %8s %8s %11s %10s" % ("", "wall s", "CPU s", "GB/s/core", "peak RSS"))
for name, wall, cpu_ns, rss in rows:
    print("%-48s %8.3f %8.3f %11.2f %6.1f MiB" % (name, wall / 1e9, cpu_ns / 1e9,
                                                 size / max(cpu_ns, 1), rss / 1024))
floor, iws, lib = rows[0][1], rows[1][1], rows[2][1]
print()
print("ratio floor/stats (wall): %.2fx with in-place reading, %.2fx through libpcap (target >= 1.0x)"
      % (floor / iws, floor / lib))
print("ratio floor/stats (CPU):  %.2fx with in-place reading, %.2fx through libpcap"
      % (rows[0][2] / rows[1][2], rows[0][2] / rows[2][2]))
print("the two readers' outputs identical: %s" % same)
print()
print("-j 2 against -j 1, stats, 64 connections, %s processors (farm-bench medians):" % nproc)
print("  wall -j 1 %s s, -j 2 %s s: speed-up -j 1 / -j 2 %.2fx (target >= 1.6x); CPU -j 2 / -j 1 %sx"
      % (j_wall1, j_wall2, 1 / float(j_ratio), j_cpu))
print("  peak RSS -j 1 %.1f MiB, -j 2 %.1f MiB (target: not higher); outputs identical: %s"
      % (int(rss1) / 1024, int(rss2) / 1024, jsame))
print()
print("CRC32c GB/s          FPDU sizes (1-9 KiB)   one 1 MiB buffer")
for line in crc.splitlines():
    name, fpdu, long_ = line.split()
    print("  %-18s %18s %18s" % (name, fpdu, long_))
sys.exit(0 if same == "yes" and jsame == "yes" else 1)
EOF
