#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the golden outputs (tests/golden/expected/) for review:
#   tests/golden/update.sh [BUILD_DIR]        (default: build)
# then read `git diff tests/golden/expected` before committing.
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
	for kind in $kinds; do
		case $kind in summary|*-text) ext=txt ;; ops|nvme) ext=jsonl ;; stats) ext=json ;; esac
		python3 "$here/golden.py" --update "$tool" "$root" "$rel" "$kind" \
			"$here/expected/$dir/$name.$kind.$ext"
	done
	n=$((n + 1))
done
echo "update.sh: wrote the expected outputs of $n samples under tests/golden/expected/"
