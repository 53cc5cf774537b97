#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One short fuzz run for CI: ci-fuzz.sh FUZZER CORPUS WORKDIR SECONDS
# Fuzzes from the committed CORPUS for SECONDS, writing new inputs and any
# crash reproducer to WORKDIR (never into the source tree), and prints the
# final execution count and coverage. Fails on any finding (crash, leak,
# timeout, out-of-memory).
set -eu
fuzzer=$1 corpus=$2 work=$3 secs=$4
rm -rf "$work"
mkdir -p "$work/new" "$work/artifacts"
log="$work/fuzz.log"
# UBSan reports are findings too (the fuzzing build lets them recover).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
set +e
"$fuzzer" "$work/new" "$corpus" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" >"$log" 2>&1
rc=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" || true
if [ "$rc" -ne 0 ]; then
	tail -n 60 "$log"
	echo "ci-fuzz: $(basename "$fuzzer") found a problem; reproducer in $work/artifacts/" >&2
	ls -l "$work/artifacts/" >&2
	exit 1
fi
echo "ci-fuzz: $(basename "$fuzzer") ran ${secs}s, no findings"
