#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# report-bench.sh: the HTML report's cost on one large generated capture
# (issue 16), against `iwarpscope stats` on the same capture in the same run:
#   (a) iwarpscope stats FILE
#   (b) iwarpscope report FILE -o page.html
# Prints the time ratio (b)/(a), the report's peak RSS and the page's size,
# and whether each target is met:
#   time(report) < 3 x time(stats), peak RSS < 100 MiB, page < 5 MB.
# It also checks the page: its data block counts every operation the
# generator wrote.
#
# Usage: bench/report-bench.sh [--build DIR] [--size SIZE] [--dir WORKDIR] [--runs N] [--keep]
#   --build DIR   build tree with cli/iwarpscope and samples/gen/iwarpscope-gen (default: ./build)
#   --size SIZE   capture size for iwarpscope-gen --scenario bench (default 1G)
#   --dir DIR     where the capture and the page go (default ${TMPDIR:-/tmp}/iwarpscope-bench)
#   --runs N      best of N timed runs of each (default 3)
#   --keep        reuse an existing capture of the right size instead of regenerating
set -euo pipefail
. "$(dirname "$0")/benchlib.sh"

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '3,20p' "$0"; exit 0 ;;
	*) common_arg "$@"; shift "$used" ;;
	esac
done

iws=$build/cli/iwarpscope
gen=$build/samples/gen/iwarpscope-gen
for t in "$iws" "$gen"; do
	[ -x "$t" ] || { echo "report-bench.sh: $t not built" >&2; exit 2; }
done
mkdir -p "$work"

bytes=$(to_bytes "$size")
file=$work/bench-$bytes
page=$work/report-$bytes.html
make_capture "$file" "$bytes"
cat "$file.pcap" >/dev/null   # page cache warm for both

read -r t_stats rss_stats < <(best_of "$runs" "$iws" stats --no-progress "$file.pcap")
read -r t_report rss_report < <(best_of "$runs" "$iws" report --no-progress "$file.pcap" -o "$page")

python3 - "$file.pcap" "$file.truth.json" "$page" "$t_stats" "$rss_stats" "$t_report" "$rss_report" \
	"$("$iws" --version)" <<'EOF'
import json, os, re, sys
cap, truth, page = sys.argv[1:4]
t_stats, rss_stats, t_report, rss_report = (int(x) for x in sys.argv[4:8])
html = open(page, encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="iws-data">(.*?)</script>', html, re.S).group(1))
want = sum(v["count"] for v in json.load(open(truth))["summary"]["ops"].values())
ok = True
def target(cond, text):
    global ok
    ok &= cond
    print("%-4s %s" % ("ok" if cond else "MISS", text))
print("%s, capture %d bytes, %d operations (%d drawn)" % (sys.argv[8], os.path.getsize(cap),
      data["ops"]["total"], data["ops"]["drawn"]))
print("%-32s %9s %10s" % ("", "seconds", "peak RSS"))
print("%-32s %9.3f %6.1f MiB" % ("(a) iwarpscope stats", t_stats / 1e9, rss_stats / 1024))
print("%-32s %9.3f %6.1f MiB" % ("(b) iwarpscope report", t_report / 1e9, rss_report / 1024))
print()
target(data["ops"]["total"] == want, "the page counts %d operations, the generator wrote %d"
       % (data["ops"]["total"], want))
target(t_report < 3 * t_stats, "time(report) / time(stats) = %.2f (target < 3)" % (t_report / t_stats))
target(rss_report < 100 * 1024, "report peak RSS = %.1f MiB (target < 100 MiB)" % (rss_report / 1024))
size = os.path.getsize(page)
target(size < 5e6, "page = %.2f MB (target < 5 MB)" % (size / 1e6))
sys.exit(0 if ok else 1)
EOF
