#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`stats --interval D --format csv|jsonl` (cli/output/series.c) against `stats
--format json` on the same capture:

- for every QP and op, the intervals' count, complete, bytes, segments,
  retransmissions and stall_ns add up to the totals, and so do the latency
  and delivery sample counts; the smallest interval min and the largest max
  are the totals' min and max;
- the intervals are [first frame + k*D, first frame + (k+1)*D), written in
  time order, QPs in number order within one, no (interval, qp, op) twice;
- the wire rows (per interval, QP and direction): their wire_bytes add up
  to the QP's payload_bytes_i2r/_r2i in stats, retransmitted_bytes are a
  part of them, and they come in the same interval order, written with the
  operation rows of their interval, QP by QP (their numbers bucket by bucket
  are checked against tshark in tests/report/wire_check.py);
- CSV and JSON lines say the same;
- with --include-rtr the RTR counts too (as in stats --include-rtr);
- --interval takes durations (100ms, 1s, a bare number of seconds) and
  refuses nonsense; csv without --interval is a 1 s series.

Usage: series_check.py IWARPSCOPE SAMPLES_DIR
"""
import csv
import io
import json
import os
import subprocess
import sys

from checklib import check, run_ok as run, verdict

SAMPLES = ["real/26-netem-read_bw-64k.pcap", "generated/crc-corrupt.pcap", "real/27-kill-client-write_bw-tail.pcap",
           "real/01-rping.pcap", "real/30-nvmeof-mixed.pcap", "generated/multi-qp.pcap",
           "generated/atomics.pcap", "generated/retransmit-reorder-dup.pcap"]
SUMS = ["count", "complete", "bytes", "segments", "crc_errors", "retransmissions", "stall_ns"]
DISTS = ["latency", "delivery"]


def jsonl_rows(tool, path, interval, *extra):
    out = run(tool, ["stats", "--interval", interval, "--format", "jsonl", *extra, path])
    return [json.loads(l) for l in out.splitlines()]


def csv_rows(tool, path, interval, *extra):
    out = run(tool, ["stats", "--interval", interval, "--format", "csv", *extra, path])
    return list(csv.DictReader(io.StringIO(out)))


def totals(tool, path, *extra):
    st = json.loads(run(tool, ["stats", "--format", "json", *extra, path]))
    want = {}
    for q in st["qps"]:
        for op, o in q["ops"].items():
            want[(q["qp"], op)] = o
    return st, want


def check_wire(name, rows, st):
    """The wire rows against the stats' payload octets per QP direction."""
    got = {}
    for r in rows:
        if "op" in r:
            continue
        check(set(r) >= {"dir", "src", "dst", "wire_bytes", "wire_segments", "retransmitted_bytes", "goodput_bytes"},
              "%s: a wire row without its fields: %s" % (name, sorted(r)))
        check(r["retransmitted_bytes"] <= r["wire_bytes"], "%s: more retransmitted than sent" % name)
        k = (r["qp"], r["dir"])
        got[k] = got.get(k, 0) + r["wire_bytes"]
    for q in st["qps"]:
        for d in ("i2r", "r2i"):
            want = q["payload_bytes_" + d]
            check(got.get((q["qp"], d), 0) == want, "%s QP %d %s: wire rows add up to %d octets, stats %d" %
                  (name, q["qp"], d, got.get((q["qp"], d), 0), want))


def check_sums(name, rows, want, width, first_ns):
    got = {}
    seen = set()
    prev = None
    for r in rows:
        if "op" not in r:
            # a wire row: on the grid, in order with the others
            check(r["end_ns"] - r["start_ns"] == width and (r["start_ns"] - first_ns) % width == 0,
                  "%s: wire row %d not on the grid" % (name, r["start_ns"]))
            order = (r["start_ns"], r["qp"])
            check(prev is None or order >= prev, "%s: rows out of order at %s" % (name, order))
            check((r["start_ns"], r["qp"], r["dir"]) not in seen, "%s: %s twice" % (name, (r["start_ns"], r["qp"], r["dir"])))
            seen.add((r["start_ns"], r["qp"], r["dir"]))
            prev = order
            continue
        key = (r["qp"], r["op"])
        check(r["end_ns"] - r["start_ns"] == width, "%s: interval width %d" % (name, r["end_ns"] - r["start_ns"]))
        check((r["start_ns"] - first_ns) % width == 0 and r["offset_ns"] == r["start_ns"] - first_ns,
              "%s: interval %d not on the grid from the first frame" % (name, r["start_ns"]))
        check((r["start_ns"],) + key not in seen, "%s: %s twice in interval %d" % (name, key, r["start_ns"]))
        seen.add((r["start_ns"],) + key)
        order = (r["start_ns"], r["qp"])
        check(prev is None or order >= prev, "%s: rows out of order at %s" % (name, order))
        prev = order
        check(r["count"] > 0, "%s: an empty row" % name)
        g = got.setdefault(key, {k: 0 for k in SUMS} | {d: [0, None, None] for d in DISTS})
        for k in SUMS:
            g[k] += r[k]
        for d in DISTS:
            v = r[d + "_ns"]
            if v is None:
                continue
            g[d][0] += v["count"]
            g[d][1] = v["min"] if g[d][1] is None else min(g[d][1], v["min"])
            g[d][2] = v["max"] if g[d][2] is None else max(g[d][2], v["max"])
    check(set(got) == set(want), "%s: (qp, op) pairs %s, stats has %s" % (name, sorted(got), sorted(want)))
    for key, w in want.items():
        g = got.get(key)
        if not g:
            continue
        for k in SUMS:
            check(g[k] == w[k], "%s %s: intervals add up to %s %d, stats says %d" % (name, key, k, g[k], w[k]))
        for d in DISTS:
            wd = w[d + "_ns"]
            if wd is None:
                check(g[d][0] == 0, "%s %s: %s samples in intervals, none in stats" % (name, key, d))
                continue
            check(g[d] == [wd["count"], wd["min"], wd["max"]],
                  "%s %s: %s count/min/max %s, stats says %s" % (name, key, d, g[d],
                                                                 [wd["count"], wd["min"], wd["max"]]))
    return len(rows)


def csv_equals_jsonl(name, crows, jrows):
    check(len(crows) == len(jrows), "%s: %d CSV rows, %d JSON lines" % (name, len(crows), len(jrows)))
    for c, j in zip(crows, jrows):
        if "op" not in j:
            flat = {k: j[k] for k in ["start_ns", "end_ns", "offset_ns", "qp", "dir", "wire_bytes", "wire_segments",
                                      "retransmitted_bytes", "goodput_bytes"]}
            flat["op"] = ""
            for k, v in flat.items():
                if not check(str(c.get(k)) == str(v), "%s: CSV %s=%r, JSON %r" % (name, k, c.get(k), v)):
                    return
            continue
        flat = {k: j[k] for k in ["start_ns", "end_ns", "offset_ns", "qp", "op"] + SUMS}
        flat["dir"] = ""
        for d in DISTS:
            v = j[d + "_ns"] or {}
            flat[d + "_count"] = v.get("count", 0)
            for p in ["min", "mean", "p50", "p90", "p99", "p999", "max"]:
                flat["%s_%s_ns" % (d, p)] = v.get(p, "")
        for k, v in flat.items():
            if not check(str(c.get(k)) == str(v), "%s: CSV %s=%r, JSON %r" % (name, k, c.get(k), v)):
                return


def main(argv):
    tool, samples = argv[1], argv[2]
    rows = 0
    for s in SAMPLES:
        path = os.path.join(samples, s)
        st, want = totals(tool, path)
        first = st["capture"]["first_ns"]
        for interval, width in [("100ms", 100000000), ("1ms", 1000000), ("0.25", 250000000)]:
            name = "%s --interval %s" % (s, interval)
            j = jsonl_rows(tool, path, interval)
            rows += check_sums(name, j, want, width, first)
            check_wire(name, j, st)
            if interval == "100ms":
                csv_equals_jsonl(name, csv_rows(tool, path, interval), j)

    # --include-rtr: the RTR of a peer-to-peer set-up counts as in stats
    path = os.path.join(samples, "real/23-p2p-rping.pcap")
    st, want = totals(tool, path, "--include-rtr")
    rows += check_sums("23-p2p --include-rtr", jsonl_rows(tool, path, "1s", "--include-rtr"), want,
                       1000000000, st["capture"]["first_ns"])
    st0, want0 = totals(tool, path)
    check(want != want0, "23-p2p: --include-rtr changes nothing (no RTR?)")
    rows += check_sums("23-p2p", jsonl_rows(tool, path, "1s"), want0, 1000000000, st0["capture"]["first_ns"])

    # csv without --interval: 1 s intervals
    path = os.path.join(samples, SAMPLES[0])
    c = csv_rows(tool, path, "1s")
    out = run(tool, ["stats", "--format", "csv", path])
    check(list(csv.DictReader(io.StringIO(out))) == c, "stats --format csv is not the 1 s series")

    # bad intervals are usage errors; a bare number is seconds
    for bad in ["0", "-1s", "10parsecs", ""]:
        p = subprocess.run([tool, "stats", "--interval", bad, "--format", "csv", path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(p.returncode == 2, "--interval %r: exit %d, want 2" % (bad, p.returncode))
    check(run(tool, ["stats", "--interval", "2", "--format", "csv", path]) ==
          run(tool, ["stats", "--interval", "2s", "--format", "csv", path]), "--interval 2 is not 2 s")
    print("%d interval rows checked" % rows)
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
