#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# plugin-bench.sh - time tshark with the iwarpscope plugin against tshark
# without it on the same capture, and print the ratios.
#
# usage: bench/plugin-bench.sh [-b BUILD] [-n RUNS] [-s BYTES] [-m MODE] [CAPTURE]
#   -b BUILD  build directory holding plugin/epan/iwarpscope.so (default: build)
#   -n RUNS   runs per variant; the median is used (default 3)
#   -s BYTES  size of the generated capture when none is given (default 200000000)
#   -m MODE   summary (tshark -r, Info column), tree (-V) or stats (-q -z iwarp,ops vs
#             -z io,stat,0), each against TCP alone (no plugin, Wireshark's built-in iWARP
#             dissectors disabled), target <= 1.15; or tap: the tap path, -q -z iwarp,ops and
#             -q -z iwarp,doctor, against plain tshark -q (which reads the file without
#             dissecting it) and against -q -z io,stat,0 with TCP alone (every frame
#             dissected, no plugin), in CPU time (user + system)
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
    *) sed -n '4,21p' "$0"; exit 2 ;;
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
wsv=$(tshark --version 2>/dev/null | head -n 1 | sed -n 's/^[^0-9]*\([0-9][0-9]*\.[0-9][0-9]*\)\..*/\1/p')
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

# one protocol per option: 4.0 does not split a list on commas
tcp_alone="--disable-protocol iwarp_mpa --disable-protocol iwarp_ddp_rdmap"
case $mode in
  summary) ours_args="-r $cap"; base_args="-r $cap $tcp_alone" ;;
  tree)    ours_args="-V -r $cap"; base_args="-V -r $cap $tcp_alone" ;;
  stats)   ours_args="-q -r $cap -z iwarp,ops"; base_args="-q -r $cap -z io,stat,0 $tcp_alone" ;;
  tap) ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cpu() {  # cpu HOME ARGS... -> user + system seconds of tshark
  h=$1; shift
  if [ "$(id -u)" = 0 ]; then
    set -- setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$h" WIRESHARK_PLUGIN_DIR="$work/global" tshark "$@"
  else
    set -- env HOME="$h" WIRESHARK_PLUGIN_DIR="$work/global" tshark "$@"
  fi
  /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >/dev/null 2>&1
  awk '{printf "%.3f\n", $1 + $2}' "$work/cpu"
}
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

frames=$(capinfos -c -M "$cap" 2>/dev/null | awk '/packets/ {print $NF}')
if [ "$mode" = tap ]; then
  # NAME|HOME|ARGS of each variant
  # shellcheck disable=SC2086
  set -- "plain|$work/ours|-q -r $cap" "noplugin|$work/builtin|-q -r $cap" \
    "tcp|$work/builtin|-q -r $cap -z io,stat,0 $tcp_alone" "loaded|$work/ours|-q -r $cap -z io,stat,0" \
    "ops|$work/ours|-q -r $cap -z iwarp,ops" "doctor|$work/ours|-q -r $cap -z iwarp,doctor"
  for v in "$@"; do : > "$work/c.${v%%|*}"; done
  n=0
  while [ "$n" -lt "$runs" ]; do
    for v in "$@"; do
      name=${v%%|*}; rest=${v#*|}; h=${rest%%|*}; args=${rest#*|}
      # shellcheck disable=SC2086
      cpu "$h" $args >> "$work/c.$name"
    done
    n=$((n + 1))
  done
  t() { median < "$work/c.$1"; }
  ratio() { awk -v a="$(t "$1")" -v b="$(t "$2")" 'BEGIN {printf "%.2f", a / b}'; }
  row() {  # row NAME TITLE: its time and its ratios to tshark -q and to TCP alone
    printf '%-40s %7.3f s  %5sx tshark -q  %5sx TCP alone\n' "$2" "$(t "$1")" "$(ratio "$1" plain)" "$(ratio "$1" tcp)"
  }
  printf 'capture   %s (%s bytes, %s frames)\n' "$cap" "$(wc -c < "$cap")" "$frames"
  printf 'mode      tap, CPU seconds (user + system), median of %s runs\n' "$runs"
  row plain "tshark -q (no dissection)"
  row noplugin "tshark -q without the plugin"
  row tcp "tshark -q -z io,stat,0, TCP alone"
  row loaded "tshark -q -z io,stat,0 with the plugin"
  row ops "tshark -q -z iwarp,ops"
  row doctor "tshark -q -z iwarp,doctor"
  exit 0
fi

: > "$work/t.ours"; : > "$work/t.base"
for _ in $(seq "$runs"); do
  # shellcheck disable=SC2086
  timeit "$work/builtin" $base_args >> "$work/t.base"
  # shellcheck disable=SC2086
  timeit "$work/ours" $ours_args >> "$work/t.ours"
done
to=$(median < "$work/t.ours"); tb=$(median < "$work/t.base")
bytes=$(wc -c < "$cap")
printf 'capture   %s (%s bytes, %s frames)\n' "$cap" "$bytes" "$frames"
printf 'mode      %s, median of %s runs\n' "$mode" "$runs"
printf 'TCP alone %.3f s   (tshark %s)\n' "$tb" "$base_args"
printf 'iwarpscope %.3f s   (tshark %s, plugin %s)\n' "$to" "$ours_args" "$plugin"
printf 'ratio     %s (target <= 1.15)\n' "$(awk -v a="$to" -v b="$tb" 'BEGIN {printf "%.3f", a / b}')"
