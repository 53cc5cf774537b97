# SPDX-License-Identifier: GPL-2.0-or-later
# What the benchmark scripts share (sourced, bash, first thing): the options
# they all take and their defaults, and the helpers. The scripts set $gen
# (iwarpscope-gen) before make_capture.

build=build
size=1G
work=${TMPDIR:-/tmp}/iwarpscope-bench
runs=3
keep=0

# common_arg "$@": one of the options every benchmark takes (--build DIR,
# --size SIZE, --dir DIR, --runs N, --keep); sets used to the number of
# words it took, or exits 2 on anything else.
common_arg() {
	used=2
	case $1 in
	--build|--size|--dir|--runs)
		if [ $# -lt 2 ]; then
			echo "$(basename "$0"): $1 needs a value" >&2
			exit 2
		fi ;;
	esac
	case $1 in
	--build) build=$2 ;;
	--size) size=$2 ;;
	--dir) work=$2 ;;
	--runs) runs=$2 ;;
	--keep) keep=1; used=1 ;;
	*) echo "$(basename "$0"): unknown argument $1" >&2; exit 2 ;;
	esac
}

# to_bytes 1G -> 1073741824 (powers of 1024, like iwarpscope-gen)
to_bytes() {
	local n=${1%[kKmMgG]} u=${1##*[0-9]}
	case $u in
	k|K) echo $((n << 10)) ;; m|M) echo $((n << 20)) ;; g|G) echo $((n << 30)) ;; *) echo "$n" ;;
	esac
}

# make_capture PREFIX BYTES: PREFIX.pcap and PREFIX.truth.json from the
# generator's bench scenario (kept with --keep when the file is there)
make_capture() {
	if [ "$keep" = 1 ] && [ -s "$1.pcap" ]; then
		return
	fi
	echo "generating $1.pcap ($2 bytes)..." >&2
	"$gen" --scenario bench --size "$2" --out "$1" >/dev/null
}

now() { date +%s%N; }

# timed N CMD...: prints "NANOSECONDS CPU_NANOSECONDS MAXRSS_KIB" (the best
# wall time of N runs and that run's user + system time, the largest peak
# RSS); the command's output is thrown away
timed() {
	local n=$1 best=0 cpu=0 rss=0 i t0 t1 dt u s r
	shift
	for ((i = 0; i < n; i++)); do
		t0=$(now)
		/usr/bin/time -f "%U %S %M" -o "$work/time.out" "$@" >/dev/null 2>"$work/err.out" || {
			echo "benchmark: $* failed:" >&2; cat "$work/err.out" >&2; exit 1; }
		t1=$(now)
		dt=$((t1 - t0))
		read -r u s r < <(tail -n 1 "$work/time.out")
		if [ $best = 0 ] || [ $dt -lt $best ]; then
			best=$dt
			cpu=$(python3 -c "print(int(($u + $s) * 1e9))")
		fi
		if [ "$r" -gt $rss ]; then rss=$r; fi
	done
	echo "$best $cpu $rss"
}

# best_of N CMD...: prints "NANOSECONDS MAXRSS_KIB" (timed without the CPU time)
best_of() {
	local t c r
	read -r t c r < <(timed "$@")
	echo "$t $r"
}

# bench_args HELP_LAST "$@": the options every benchmark takes, --help
# printing the script's header comment (lines 3 to HELP_LAST).
bench_args() {
	local help_last=$1
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) sed -n "3,${help_last}p" "$0"; exit 0 ;;
		*) common_arg "$@"; shift "$used" ;;
		esac
	done
}

# need_built TOOL...: each an executable of the build tree, or exit 2.
need_built() {
	local t
	for t in "$@"; do
		[ -x "$t" ] || { echo "$(basename "$0"): $t not built" >&2; exit 2; }
	done
}
