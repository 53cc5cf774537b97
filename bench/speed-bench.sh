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
crc_out=$("$crc" 2>/dev/null)
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)

python3 - "$fsize" "$t_floor" "$c_floor" "$m_floor" "$t_iws" "$c_iws" "$m_iws" "$t_lib" "$c_lib" \
	"$m_lib" "$same" "$cpu_model" "$("$iws" --version)" "$crc_out" <<'EOF'
import sys
a = sys.argv[1:]
size = int(a[0])
rows = [("(a) tuned libpcap loop (pcap_floor -b -n)",) + tuple(int(x) for x in a[1:4]),
        ("(b) iwarpscope stats",) + tuple(int(x) for x in a[4:7]),
        ("(c) iwarpscope stats, IWARPSCOPE_READER=libpcap",) + tuple(int(x) for x in a[7:10])]
same, cpu, version, crc = a[10], a[11], a[12], a[13]
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
print("CRC32c GB/s          FPDU sizes (1-9 KiB)   one 1 MiB buffer")
for line in crc.splitlines():
    name, fpdu, long_ = line.split()
    print("  %-18s %18s %18s" % (name, fpdu, long_))
sys.exit(0 if same == "yes" else 1)
EOF
