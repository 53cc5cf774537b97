#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ooo-bench.sh: the out-of-order pattern of issue 33 item 6 against a bare
# libpcap read loop over the same file, in one run: a hole never filled,
# one 1-octet segment far ahead, then N ascending 1-octet segments with
# 1-octet holes between them (tests/hostile/mktcp.py ooo-ladder), each of
# which lands just before the far one (a sorted list walked every buffered
# segment for each: 36 s for 1M segments). Prints the times and the ratio
# to the floor (target <= 10), the same for N in-order 1-octet segments
# (what the engine costs without holes), and, when tshark and the plugin
# are there, tshark with the plugin against tshark alone on the ladder
# (bench/plugin-bench.sh -m stats).
#
# Usage: bench/ooo-bench.sh [--build DIR] [--size N] [--dir WORKDIR] [--runs N] [--keep]
#   --build DIR   build tree with cli/iwarpscope and bench/pcap_floor (default: ./build)
#   --size N      segments in the capture (default 1000000; k, M: powers of 1024)
#   --dir DIR     where the captures go (default ${TMPDIR:-/tmp}/iwarpscope-bench)
#   --runs N      best of N timed runs (default 3)
#   --keep        reuse captures already there
set -euo pipefail
. "$(dirname "$0")/benchlib.sh"
size=1000000
bench_args 19 "$@"

here=$(cd "$(dirname "$0")" && pwd)
iws=$build/cli/iwarpscope
floor=$build/bench/pcap_floor
need_built "$iws" "$floor"
mkdir -p "$work"
n=$(to_bytes "$size")

capture() {  # capture NAME -> its path, written unless kept
	local p="$work/$1-$n.pcap"
	if [ "$keep" = 0 ] || [ ! -s "$p" ]; then
		echo "generating $p..." >&2
		python3 "$here/../tests/hostile/mktcp.py" "$work" "$1" "$n" >/dev/null
	fi
	echo "$p"
}

ladder=$(capture ooo-ladder)
inorder=$(capture in-order)
cat "$ladder" "$inorder" >/dev/null   # page cache warm for every contender

printf '%-52s %9s %8s\n' "" seconds "x floor"
row() {  # row LABEL FILE: the floor and iwarpscope on FILE
	local t_floor t_iws
	read -r t_floor _ < <(best_of "$runs" "$floor" "$2")
	read -r t_iws _ < <(best_of "$runs" "$iws" stats --no-progress "$2")
	printf '%-52s %9.3f\n' "$1: libpcap loop (pcap_floor)" "$(awk -v t="$t_floor" 'BEGIN {print t / 1e9}')"
	printf '%-52s %9.3f %8.2f\n' "$1: iwarpscope stats" "$(awk -v t="$t_iws" 'BEGIN {print t / 1e9}')" \
		"$(awk -v a="$t_iws" -v b="$t_floor" 'BEGIN {print a / b}')"
	ratio=$(awk -v a="$t_iws" -v b="$t_floor" 'BEGIN {print a / b}')
}
row "ladder, $n segments" "$ladder"
ladder_ratio=$ratio
row "in order, $n segments" "$inorder"
echo
if awk -v r="$ladder_ratio" 'BEGIN {exit !(r <= 10)}'; then
	echo "ok   iwarpscope / floor on the ladder = $ladder_ratio (target <= 10)"
else
	echo "MISS iwarpscope / floor on the ladder = $ladder_ratio (target <= 10)"
fi

if command -v tshark >/dev/null && find "$build" -name iwarpscope.so -path '*epan*' | grep -q .; then
	echo
	echo "tshark with the plugin against tshark alone, on the ladder:"
	"$here/plugin-bench.sh" -b "$build" -n "$runs" -m stats "$ladder"
fi
