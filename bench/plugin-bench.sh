#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# plugin-bench.sh - time tshark with the iwarpscope plugin against tshark
# dissecting TCP alone (no plugin, Wireshark's built-in iWARP dissectors
# disabled) on the same capture, and print the ratio. Target: ours <= 1.15x.
#
# usage: bench/plugin-bench.sh [-b BUILD] [-n RUNS] [-s BYTES] [-m MODE] [CAPTURE]
#   -b BUILD  build directory holding plugin/epan/iwarpscope.so (default: build)
#   -n RUNS   runs per variant; the median is used (default 3)
#   -s BYTES  size of the generated capture when none is given (default 200000000)
#   -m MODE   summary (tshark -r, Info column), tree (-V) or stats (-q -z iwarp,ops vs -z io,stat)
#   CAPTURE   a capture file; default: generated with iwarpscope-gen --scenario bench
#
# Both variants run as an unprivileged user (Wireshark ignores personal
# plugins for root): "ours" with HOME holding the plugin, "TCP alone" with an
# empty HOME. Invoked standalone; nothing in CMake depends on it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$root/build
runs=3
size=200000000
mode=summary
while getopts b:n:s:m: o; do
  case $o in
    b) build=$OPTARG ;;
    n) runs=$OPTARG ;;
    s) size=$OPTARG ;;
    m) mode=$OPTARG ;;
    *) sed -n '4,18p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

command -v tshark >/dev/null || { echo "tshark not found (apt-get install tshark)"; exit 2; }
plugin=$(find "$build" -name iwarpscope.so -path '*epan*' 2>/dev/null | head -n 1)
[ -n "$plugin" ] || { echo "no iwarpscope.so under $build: build the plugin first" >&2; exit 2; }

work=$(mktemp -d /tmp/iwarp-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
chmod 755 "$work"
# The personal plugin directory of the tshark on PATH (plugins/MAJOR.MINOR).
wsv=$(tshark --version | head -n 1 | sed -n 's/^[^0-9]*\([0-9][0-9]*\.[0-9][0-9]*\)\..*/\1/p')
mkdir -p "$work/ours/.local/lib/wireshark/plugins/$wsv/epan" "$work/builtin"
cp "$plugin" "$work/ours/.local/lib/wireshark/plugins/$wsv/epan/"
chmod -R a+rX "$work"

if [ $# -ge 1 ]; then
  cap=$1
else
  gen=$(find "$build" -name iwarpscope-gen -type f -perm -u+x 2>/dev/null | head -n 1)
  [ -n "$gen" ] || { echo "no capture given and no iwarpscope-gen under $build" >&2; exit 2; }
  cap=$work/bench.pcap
  "$gen" --scenario bench --out "$work/bench" --size "$size" >/dev/null
fi
if [ "$(id -u)" = 0 ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$cap"; then
  cp "$cap" "$work/capture" && chmod 644 "$work/capture" && cap=$work/capture
fi

# An empty global plugin directory, so a system-wide install cannot load in
# the built-in-only runs or shadow the build under test.
mkdir -p "$work/global" && chmod 755 "$work/global"
run() {  # run HOME ARGS... : tshark as nobody (or as you), output discarded
  h=$1; shift
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$h" WIRESHARK_PLUGIN_DIR="$work/global" tshark "$@" >/dev/null 2>&1
  else
    HOME=$h WIRESHARK_PLUGIN_DIR="$work/global" tshark "$@" >/dev/null 2>&1
  fi
}

tcp_alone="--disable-protocol iwarp_mpa,iwarp_ddp_rdmap"
case $mode in
  summary) ours_args="-r $cap"; base_args="-r $cap $tcp_alone" ;;
  tree)    ours_args="-V -r $cap"; base_args="-V -r $cap $tcp_alone" ;;
  stats)   ours_args="-q -r $cap -z iwarp,ops"; base_args="-q -r $cap -z io,stat,0 $tcp_alone" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timeit() {  # timeit HOME ARGS... -> seconds
  s=$(date +%s.%N); run "$@"; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.6f\n", e - s}' 
}

# the plugin must really be loaded in the "ours" runs
if [ "$(id -u)" = 0 ]; then
  n=$(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$work/ours" WIRESHARK_PLUGIN_DIR="$work/global" tshark -G plugins 2>/dev/null | grep -c iwarpscope || true)
else
  n=$(HOME="$work/ours" WIRESHARK_PLUGIN_DIR="$work/global" tshark -G plugins 2>/dev/null | grep -c iwarpscope || true)
fi
[ "$n" -ge 1 ] || { echo "the plugin does not load" >&2; exit 1; }

: > "$work/t.ours"; : > "$work/t.base"
for i in $(seq "$runs"); do
  # shellcheck disable=SC2086
  timeit "$work/builtin" $base_args >> "$work/t.base"
  # shellcheck disable=SC2086
  timeit "$work/ours" $ours_args >> "$work/t.ours"
done
to=$(median < "$work/t.ours"); tb=$(median < "$work/t.base")
bytes=$(wc -c < "$cap")
printf 'capture   %s (%s bytes, %s frames)\n' "$cap" "$bytes" "$(capinfos -c -M "$cap" 2>/dev/null | awk '/packets/ {print $NF}')"
printf 'mode      %s, median of %s runs\n' "$mode" "$runs"
printf 'TCP alone %.3f s   (tshark %s)\n' "$tb" "$base_args"
printf 'iwarpscope %.3f s   (tshark %s, plugin %s)\n' "$to" "$ours_args" "$plugin"
printf 'ratio     %s (target <= 1.15)\n' "$(awk -v a="$to" -v b="$tb" 'BEGIN {printf "%.3f", a / b}')"
