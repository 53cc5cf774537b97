#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer harnesses (clang, ENABLE_FUZZING: ASan + UBSan + coverage)
# and run each for as long as asked, one after another:
#
#   tests/fuzz/run-fuzzers.sh [--merge] [--jobs N] [SECONDS] [HARNESS...]
#
# SECONDS per harness (default 300); HARNESS names (default: all of them:
# fuzz_mpa_frame fuzz_fpdu fuzz_rdmap fuzz_tracker fuzz_stream
# fuzz_nvme fuzz_cli_packets fuzz_cli_pcap fuzz_cli_merge fuzz_cli_fastread). Each run starts from the committed corpus
# (tests/fuzz/corpus/NAME) and writes what it finds to
# $FUZZ_WORK/NAME (default build-fuzz/fuzz-work): new inputs in corpus/, a
# crash, leak, timeout or out-of-memory reproducer in artifacts/ and the log
# in fuzz.log. --merge folds the grown corpus back into tests/fuzz/corpus/NAME
# (libFuzzer -merge=1 keeps only inputs that add coverage; review the result
# before committing, and keep the corpora small). --jobs N runs N fuzzing
# processes per harness (default 1; the machine may be shared).
# FUZZ_TIMEOUT (seconds, default 10) is libFuzzer's -timeout for one input:
# wall-clock time, so raise it on a loaded machine.
#
# Prints, per harness, the executions run, the coverage reached (cov: edges,
# ft: features), the corpus size and the findings; exits 1 if any harness
# found something. A reproducer replays with the harness binary:
#   build-fuzz/tests/fuzz/NAME REPRODUCER
# or, without libFuzzer, with the standalone replayer of a normal build.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
merge=0
jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	--merge) merge=1; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	-h|--help) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
secs=${1:-300}
timeout=${FUZZ_TIMEOUT:-10}
[ $# -gt 0 ] && shift
all="fuzz_mpa_frame fuzz_fpdu fuzz_rdmap fuzz_tracker fuzz_stream fuzz_nvme fuzz_cli_packets fuzz_cli_pcap fuzz_cli_merge fuzz_cli_fastread"
harnesses=${*:-$all}
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
work=${FUZZ_WORK:-$build/fuzz-work}

command -v clang >/dev/null 2>&1 || { echo "run-fuzzers: clang not found" >&2; exit 2; }
CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENABLE_FUZZING=ON \
	-DBUILD_PLUGIN=OFF -DBUILD_TESTS=ON >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $harnesses >/dev/null

# UBSan reports are findings too (the fuzzing build lets them recover).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

status=0
summary=""
for h in $harnesses; do
	bin=$build/tests/fuzz/$h
	seeds=$root/tests/fuzz/corpus/$h
	[ -x "$bin" ] || { echo "run-fuzzers: $bin not built" >&2; exit 2; }
	mkdir -p "$work/$h/corpus" "$work/$h/artifacts" "$seeds"
	log=$work/$h/fuzz.log
	echo "== $h: ${secs}s, $jobs job(s), log $log"
	set +e
	if [ "$jobs" -gt 1 ]; then
		(cd "$work/$h" && "$bin" "$work/$h/corpus" "$seeds" -max_total_time="$secs" \
			-timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$work/$h/artifacts/" -jobs="$jobs" -workers="$jobs" >"$log" 2>&1)
		rc=$?
		cat "$work/$h"/fuzz-*.log >>"$log" 2>/dev/null
	else
		"$bin" "$work/$h/corpus" "$seeds" -max_total_time="$secs" -timeout="$timeout" \
			-rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$work/$h/artifacts/" >"$log" 2>&1
		rc=$?
	fi
	set -e
	last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1)
	execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	ncorp=$(find "$work/$h/corpus" "$seeds" -type f | wc -l)
	nart=$(find "$work/$h/artifacts" -type f | wc -l)
	if [ "$rc" -ne 0 ] || [ "$nart" -ne 0 ]; then
		status=1
		found="FINDINGS: $nart reproducer(s) in $work/$h/artifacts"
		grep -E 'ERROR: |runtime error|SUMMARY' "$log" | head -n 5
	else
		found="no findings"
	fi
	if [ "$merge" -eq 1 ]; then
		before=$(find "$seeds" -type f | wc -l)
		"$bin" -merge=1 "$seeds" "$work/$h/corpus" >"$work/$h/merge.log" 2>&1 || true
		after=$(find "$seeds" -type f | wc -l)
		found="$found; merged: $before -> $after inputs in tests/fuzz/corpus/$h ($(du -sh "$seeds" | cut -f1))"
	fi
	line="$h: ${execs} execs, cov ${cov:-?} ft ${ft:-?}, corpus ${ncorp} inputs; $found"
	echo "$line"
	summary="$summary$line
"
done
echo
echo "== summary (${secs}s per harness)"
printf '%s' "$summary"
exit $status
