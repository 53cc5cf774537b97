#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerates every committed sample into a temporary directory and compares
# each file byte for byte with samples/generated/. Exit status 0 when all are
# identical and no file is missing or extra, 1 otherwise, 2 on errors.
#
# usage: samples/gen/check-regen.sh [PATH-TO-iwarpscope-gen]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ref=$root/samples/generated
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iwsgen-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -ge 1 ]; then
	IWARPSCOPE_GEN=$1
	export IWARPSCOPE_GEN
fi
"$here/regenerate.sh" "$tmp" || exit 2

fail=0
n=0
for f in "$tmp"/*; do
	b=$(basename "$f")
	n=$((n + 1))
	if [ ! -e "$ref/$b" ]; then
		echo "missing from samples/generated: $b"
		fail=1
	elif ! cmp -s "$f" "$ref/$b"; then
		echo "differs from samples/generated: $b"
		fail=1
	fi
done
for f in "$ref"/*; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	if [ ! -e "$tmp/$b" ]; then
		echo "not produced by the generator: samples/generated/$b"
		fail=1
	fi
done
if [ $fail -eq 0 ]; then
	echo "check-regen: $n files identical"
fi
exit $fail
