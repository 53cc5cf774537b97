#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the golden outputs (tests/golden/expected/, and the HTML
# report's data in tests/report/expected/) for review:
#   tests/golden/update.sh [BUILD_DIR]        (default: build)
# then read `git diff tests/golden/expected tests/report/expected` before
# committing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
tool=$build/cli/iwarpscope
[ -x "$tool" ] || { echo "update.sh: $tool not found (build first)" >&2; exit 2; }
n=0
for sample in "$root"/samples/real/*.pcap "$root"/samples/generated/*.pcap "$root"/samples/generated/*.pcapng; do
	[ -e "$sample" ] || continue
	dir=$(basename "$(dirname "$sample")")
	name=$(basename "$sample"); name=${name%.pcapng}; name=${name%.pcap}
	rel=${sample#"$root"/}
	kinds="summary ops stats"
	case $name in *nvme*) kinds="$kinds nvme nvme-text stats-text" ;; esac
	case $name in *rpc*|*nfsrdma*) kinds="$kinds rpc rpc-text stats-text" ;; esac
	for kind in $kinds; do
		case $kind in summary|*-text) ext=txt ;; ops|nvme|rpc) ext=jsonl ;; stats) ext=json ;; esac
		python3 "$here/golden.py" --update "$tool" "$root" "$rel" "$kind" \
			"$here/expected/$dir/$name.$kind.$ext"
	done
	n=$((n + 1))
done
echo "update.sh: wrote the expected outputs of $n samples under tests/golden/expected/"

# The HTML report's data for the samples tests/report/CMakeLists.txt lists.
report=$root/tests/report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for rel in $(sed -n '/^set(IWS_REPORT_GOLDEN/,/)/p' "$report/CMakeLists.txt" | grep -o 'samples/[^ )]*'); do
	dir=$(basename "$(dirname "$rel")")
	name=$(basename "$rel"); name=${name%.pcapng}; name=${name%.pcap}
	python3 "$report/report_golden.py" --update "$tool" "$root" "$rel" "$report/expected/$dir-$name.json" "$work"
	n=$((n + 1))
done
echo "update.sh: wrote the report data of $n samples under tests/report/expected/"
