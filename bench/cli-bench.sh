#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cli-bench.sh: iwarpscope's speed and memory on one large generated capture,
# against the baselines, in one run (issue #5):
#   (a) pcap_floor FILE            a bare libpcap read loop touching every byte
#   (b) iwarpscope stats FILE      the analyser (CRC verified)
#   (c) tshark -r FILE -T fields -e iwarp_rdma.opcode   (built-in iWARP dissectors)
# and iwarpscope on a capture twice as large (time must stay linear). Prints
# throughput, the ratios, peak RSS and whether each target is met:
#   iwarpscope >= 0.5 x the floor's throughput, >= 20 x tshark's,
#   peak RSS < 100 MiB, time(2 x file) <= 2.1 x time(file).
#
# Usage: bench/cli-bench.sh [--build DIR] [--size SIZE] [--dir WORKDIR] [--runs N]
#                           [--no-tshark] [--keep]
#   --build DIR   build tree with cli/iwarpscope, bench/pcap_floor, samples/gen/iwarpscope-gen
#                 (default: ./build)
#   --size SIZE   capture size for iwarpscope-gen --scenario bench (default 1G; the
#                 second capture is twice that)
#   --dir DIR     where the captures go (default ${TMPDIR:-/tmp}/iwarpscope-bench)
#   --runs N      best of N timed runs (default 3; tshark runs once)
#   --keep        reuse existing captures of the right size instead of regenerating
set -euo pipefail
. "$(dirname "$0")/benchlib.sh"

tshark=1
while [ $# -gt 0 ]; do
	case $1 in
	--no-tshark) tshark=0; shift ;;
	-h|--help) sed -n '3,24p' "$0"; exit 0 ;;
	*) common_arg "$@"; shift "$used" ;;
	esac
done

iws=$build/cli/iwarpscope
floor=$build/bench/pcap_floor
gen=$build/samples/gen/iwarpscope-gen
for t in "$iws" "$floor" "$gen"; do
	[ -x "$t" ] || { echo "cli-bench.sh: $t not built" >&2; exit 2; }
done
if [ $tshark = 1 ] && ! command -v tshark >/dev/null; then
	echo "cli-bench.sh: tshark not found, its column is skipped" >&2
	tshark=0
fi
mkdir -p "$work"

bytes1=$(to_bytes "$size")
bytes2=$((bytes1 * 2))
file1=$work/bench-$bytes1
file2=$work/bench-$bytes2

make_capture "$file1" "$bytes1"
make_capture "$file2" "$bytes2"
cat "$file1.pcap" "$file2.pcap" >/dev/null   # page cache warm for every contender

fsize1=$(stat -c %s "$file1.pcap")
fsize2=$(stat -c %s "$file2.pcap")

read -r t_floor rss_floor < <(best_of "$runs" "$floor" "$file1.pcap")
read -r t_floorb _ < <(best_of "$runs" "$floor" -b "$file1.pcap")
read -r t_iws rss_iws < <(best_of "$runs" "$iws" stats --no-progress "$file1.pcap")
read -r t_iws2 rss_iws2 < <(best_of "$runs" "$iws" stats --no-progress "$file2.pcap")
if [ $tshark = 1 ]; then
	read -r t_tshark rss_tshark < <(best_of 1 tshark -r "$file1.pcap" -T fields -e iwarp_rdma.opcode)
fi

# The run must also be right: iwarpscope's operation counts equal the
# generator's summary of the capture.
"$iws" stats --format json --no-progress "$file1.pcap" > "$work/stats.json"
python3 - "$work/stats.json" "$file1.truth.json" <<'EOF' || exit 1
import json, sys
got = json.load(open(sys.argv[1]))["total"]["ops"]
want = json.load(open(sys.argv[2]))["summary"]["ops"]
bad = [(k, v["count"], got.get(k, {}).get("count", 0)) for k, v in want.items()
       if v["count"] != got.get(k, {}).get("count", 0) or
       v["bytes"] != got.get(k, {}).get("bytes", 0)]
if bad:
    print("cli-bench.sh: iwarpscope's counts differ from the capture's summary:", bad)
    sys.exit(1)
print("check: operation counts and bytes equal the generator's summary (%s)" %
      ", ".join("%s %d" % (k, v["count"]) for k, v in want.items() if v["count"]))
EOF

python3 - "$fsize1" "$fsize2" "$t_floor" "$t_floorb" "$t_iws" "$t_iws2" "$rss_floor" "$rss_iws" \
	"$rss_iws2" "${t_tshark:-0}" "${rss_tshark:-0}" "$("$iws" --version)" <<'EOF'
import sys
a = sys.argv[1:]
f1, f2 = int(a[0]), int(a[1])
t_floor, t_floorb, t_iws, t_iws2 = (int(x) / 1e9 for x in a[2:6])
rss_floor, rss_iws, rss_iws2 = (int(x) for x in a[6:9])
t_tshark, rss_tshark = int(a[9]) / 1e9, int(a[10])
mbps = lambda size, t: size / t / 1e6
print("%s, capture %d bytes (and %d for linearity)" % (a[11], f1, f2))
print("%-44s %9s %11s %10s" % ("", "seconds", "MB/s", "peak RSS"))
rows = [("(a) floor: libpcap loop (pcap_floor)", t_floor, f1, rss_floor),
        ("    floor with a 1 MiB stdio buffer (-b)", t_floorb, f1, None),
        ("(b) iwarpscope stats", t_iws, f1, rss_iws)]
if t_tshark:
    rows.append(("(c) tshark -T fields -e iwarp_rdma.opcode", t_tshark, f1, rss_tshark))
rows.append(("    iwarpscope stats, 2 x the capture", t_iws2, f2, rss_iws2))
for name, t, size, rss in rows:
    print("%-44s %9.3f %11.1f %10s" % (name, t, mbps(size, t),
                                         "%.1f MiB" % (rss / 1024) if rss else "-"))
r_floor = mbps(f1, t_iws) / mbps(f1, t_floor)
lin = t_iws2 / t_iws
print()
ok = True
def target(cond, text):
    global ok
    ok &= cond
    print("%-4s %s" % ("ok" if cond else "MISS", text))
target(r_floor >= 0.5, "iwarpscope / floor throughput = %.2f (target >= 0.5; vs the -b floor: %.2f)"
       % (r_floor, mbps(f1, t_iws) / mbps(f1, t_floorb)))
if t_tshark:
    r_ts = mbps(f1, t_iws) / mbps(f1, t_tshark)
    target(r_ts >= 20, "iwarpscope / tshark throughput = %.1f (target >= 20)" % r_ts)
target(max(rss_iws, rss_iws2) < 100 * 1024,
       "iwarpscope peak RSS = %.1f MiB (target < 100 MiB)" % (max(rss_iws, rss_iws2) / 1024))
target(lin <= 2.1 * f2 / f1 / 2, "time(2 x capture) / time(capture) = %.2f for %.2f x the bytes "
       "(target <= 2.1)" % (lin, f2 / f1))
sys.exit(0 if ok else 1)
EOF
