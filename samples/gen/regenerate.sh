#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerates every committed sample (samples/generated/NAME.pcap[ng] and
# NAME.truth.json), bit for bit, with the seeds listed by
# `iwarpscope-gen --list`.
#
# usage: samples/gen/regenerate.sh [OUTDIR]        (default: samples/generated)
# environment:
#   IWARPSCOPE_GEN  path of an already built iwarpscope-gen (else it is built)
#   IWSGEN_BUILD    build directory used when building (default under $TMPDIR)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/samples/generated}
gen=${IWARPSCOPE_GEN:-}

if [ -z "$gen" ]; then
	build=${IWSGEN_BUILD:-${TMPDIR:-/tmp}/iwarpscope-gen-build}
	cmake -S "$here" -B "$build" >/dev/null
	cmake --build "$build" >/dev/null
	gen=$build/iwarpscope-gen
fi
[ -x "$gen" ] || { echo "regenerate.sh: no generator at $gen" >&2; exit 2; }

mkdir -p "$out"
list=$("$gen" --list)
echo "$list" | while read -r name seed ext committed rest; do
	[ "$committed" = yes ] || continue
	"$gen" --scenario "$name" --seed "$seed" --out "$out/$name"
done
