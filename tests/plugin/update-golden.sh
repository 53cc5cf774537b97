#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the golden `tshark -z iwarp,ops` outputs of every sample with the
# plugin built in BUILD (default: build). Review the diff before committing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
plugin=$(find "$build" -name iwarpscope.so -path '*plugin*' | head -n 1)
[ -n "$plugin" ] || { echo "no iwarpscope.so under $build: build the plugin first" >&2; exit 2; }
names=$(cd "$root/samples" && ls real/*.pcap real/*.pcapng generated/*.pcap generated/*.pcapng 2>/dev/null |
        sed -e 's,^[a-z]*/,,' -e 's/\.pcap\(ng\)\{0,1\}$//')
for n in $names; do
  python3 "$here/iwarp_tshark.py" --plugin "$plugin" update-golden "$n"
done
git -C "$root" diff --stat -- tests/plugin/golden || true
