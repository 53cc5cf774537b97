#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nvme-bench.sh: what the NVMe over Fabrics layer costs the CLI on a capture
# without NVMe (issue 15), in one run, on one large generated capture:
#   (a) iwarpscope stats --no-nvme FILE     the analysis without the layer
#   (b) iwarpscope stats FILE               the same with it (the default)
# The two alternate, a b a b ..., so a drift of the machine's speed falls on
# both; the least CPU time (user + system: the wall clock of a shared machine
# says more about the others) of each is compared. Prints the ratio (b)/(a)
# and both peak RSS, and whether the target is met: cpu(b) < 1.10 x cpu(a).
#
# Usage: bench/nvme-bench.sh [--build DIR] [--size SIZE] [--dir WORKDIR] [--runs N] [--keep]
#   --build DIR   build tree with cli/iwarpscope and samples/gen/iwarpscope-gen (default: ./build)
#   --size SIZE   capture size for iwarpscope-gen --scenario bench (default 1G)
#   --dir DIR     where the capture goes (default ${TMPDIR:-/tmp}/iwarpscope-bench)
#   --runs N      runs of each, alternating (default 3; /usr/bin/time counts in
#                 hundredths of a second: give a capture of 1G or more)
#   --keep        reuse an existing capture of the right size instead of regenerating
set -euo pipefail
. "$(dirname "$0")/benchlib.sh"

bench_args 19 "$@"
iws=$build/cli/iwarpscope
gen=$build/samples/gen/iwarpscope-gen
need_built "$iws" "$gen"
mkdir -p "$work"

bytes=$(to_bytes "$size")
file=$work/bench-$bytes
make_capture "$file" "$bytes"
cat "$file.pcap" >/dev/null   # page cache warm for both

# cpu_run CMD...: prints "CPU_NANOSECONDS MAXRSS_KIB" of one run
cpu_run() {
	/usr/bin/time -f "%U %S %M" -o "$work/time.out" "$@" >/dev/null 2>"$work/err.out" || {
		echo "nvme-bench.sh: $* failed:" >&2; cat "$work/err.out" >&2; exit 1; }
	tail -n 1 "$work/time.out" | awk '{ printf "%d %d\n", ($1 + $2) * 1e9, $3 }'
}

t_off=0 t_on=0 rss_off=0 rss_on=0
for ((i = 0; i < runs; i++)); do
	read -r t r < <(cpu_run "$iws" stats --no-progress --no-nvme "$file.pcap")
	if [ $t_off = 0 ] || [ "$t" -lt $t_off ]; then t_off=$t; fi
	if [ "$r" -gt $rss_off ]; then rss_off=$r; fi
	read -r t r < <(cpu_run "$iws" stats --no-progress "$file.pcap")
	if [ $t_on = 0 ] || [ "$t" -lt $t_on ]; then t_on=$t; fi
	if [ "$r" -gt $rss_on ]; then rss_on=$r; fi
done

# The two must report the same operations (the layer only adds).
a=$("$iws" stats --no-progress --no-nvme --format json "$file.pcap" | python3 -c \
	'import json,sys; d=json.load(sys.stdin); print(sum(q["operations"] for q in d["qps"]))')
b=$("$iws" stats --no-progress --format json "$file.pcap" | python3 -c \
	'import json,sys; d=json.load(sys.stdin); print(sum(q["operations"] for q in d["qps"]))')

python3 - "$("$iws" --version)" "$(stat -c %s "$file.pcap")" "$t_off" "$rss_off" "$t_on" "$rss_on" \
	"$a" "$b" <<'PY'
import sys
ver, size = sys.argv[1], int(sys.argv[2])
t_off, rss_off, t_on, rss_on, a, b = (int(x) for x in sys.argv[3:9])
print("%s, capture %d bytes (no NVMe), %d operations" % (ver, size, b))
print("%-34s %9s %10s %10s" % ("", "cpu s", "MB/cpu s", "peak RSS"))
for name, t, rss in (("(a) stats --no-nvme", t_off, rss_off), ("(b) stats (NVMe layer on)", t_on, rss_on)):
    print("%-34s %9.3f %10.1f %6.1f MiB" % (name, t / 1e9, size / (t / 1e9) / 1e6, rss / 1024))
print()
checks = [(a == b, "the same %d operations with and without the layer (%d)" % (b, a)),
          (t_on < 1.10 * t_off, "cpu(b) / cpu(a) = %.3f (target < 1.10)" % (t_on / t_off))]
for met, text in checks:
    print("%-4s %s" % ("ok" if met else "MISS", text))
sys.exit(0 if all(met for met, _ in checks) else 1)
PY
