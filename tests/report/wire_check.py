#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's series over time, recomputed without the report (issue 21
item 1: measured series only), on every real capture:

- throughput on the wire, per QP and direction, bucket by bucket, equals
  tshark's `-z io,stat,W,"SUM(tcp.len)tcp.len && tcp.stream == QP && ip.src
  == A && tcp.srcport == P"` with the report's bucket width W (tshark's
  buckets start at the first frame, as the report's do);
- the retransmitted octets: tcp.len (tshark's) of the frames the report
  marks as fast retransmissions or timeouts, by tshark's frame times; and
  each of those frames tshark too flags as a retransmission, fast
  retransmission or out-of-order segment (tshark flags more: it guesses
  from sequence numbers alone, docs/semantics.md says which count);
- goodput, per QP and direction: the RDMA payload (ULPDU less the DDP/RDMAP
  header) of the FPDUs `iwarpscope fpdus` lists, placed by the time tshark
  gives the frame that completed each;
- operations started and the time in flight, from `ops --format jsonl`
  (start_ns, end_ns; RTR messages left out, as the statistics do);
- NVMe-oF per queue: commands completed, their bytes, latencies' sum and
  maximum, from `nvme --format jsonl`, in the bucket of their end_ns;
- `stats --interval 10ms` wire rows on three captures: the same tshark
  sums per 10 ms.

Bucket of a time: its offset from the first frame rounded to the
microsecond, divided by the width (tshark's rule; docs/semantics.md).
Skipped (77) without tshark.

Usage: wire_check.py IWARPSCOPE ROOT WORKDIR
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from checklib import check, verdict  # noqa: E402
from reportlib import cli as run, cli_jsonl as jsonl, page_data, report  # noqa: E402

PAYLOAD_OPCODES = {0, 2, 3, 4, 5, 6}  # Write, Read Response, the Send family


def bucket(ns, first, width):
    off = ns - first
    if off < -500:
        return 0
    return (off + 500) // 1000 * 1000 // width


def io_stat(path, width_ns, columns):
    """tshark -z io,stat: one list of integers per column, by interval."""
    spec = "io,stat,%d.%06d,%s" % (width_ns // 10**9, width_ns % 10**9 // 1000, ",".join(columns))
    out = subprocess.run(["tshark", "-n", "-r", path, "-q", "-z", spec], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout.decode()
    rows = []
    for line in out.splitlines():
        m = re.match(r"\|\s*[\d.]+\s*<>\s*(?:[\d.]+|Dur)\s*\|((?:\s*\d+\s*\|)+)", line)
        if m:
            rows.append([int(x) for x in m.group(1).split("|") if x.strip()])
    return [[r[i] for r in rows] for i in range(len(columns))]


def frames(path):
    """tshark's view of each frame: its time (ns), its tcp.len, and the set
    of frames it flags as retransmitted, fast retransmitted or out of order."""
    out = subprocess.run(["tshark", "-n", "-r", path, "-T", "fields", "-E", "occurrence=f", "-e", "frame.number",
                          "-e", "frame.time_epoch", "-e", "tcp.len", "-e", "tcp.analysis.retransmission", "-e",
                          "tcp.analysis.fast_retransmission", "-e", "tcp.analysis.out_of_order"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
    times, lens, flagged = {}, {}, set()
    for line in out.splitlines():
        f = line.split("\t")
        n = int(f[0])
        s, _, frac = f[1].partition(".")
        times[n] = int(s) * 10**9 + int((frac + "000000000")[:9])
        lens[n] = int(f[2]) if f[2] else 0
        if any(f[3:6]):
            flagged.add(n)
    return times, lens, flagged


def same(name, got, want):
    """Two per-bucket lists, equal up to trailing zeros."""
    n = max(len(got), len(want))
    got = list(got) + [0] * (n - len(got))
    want = list(want) + [0] * (n - len(want))
    diff = [i for i in range(n) if got[i] != want[i]]
    return check(not diff, "%s: %d buckets differ, the first %s: report %s, recomputed %s" %
                 (name, len(diff), diff[:3], [got[i] for i in diff[:3]], [want[i] for i in diff[:3]]))


def per_bucket(n, items):
    v = [0] * n
    for b, x in items:
        if b < n:
            v[b] += x
        else:
            v.extend([0] * (b + 1 - len(v)))
            v[b] += x
    return v


def check_sample(tool, root, work, rel):
    name = os.path.basename(rel)
    path = os.path.join(root, rel)
    d = page_data(report(tool, root, rel, os.path.join(work, "page.html")))
    W, n = d["grid"]["width_ns"], d["grid"]["buckets"]
    first = int(d["grid"]["origin_ns"])
    check(W % 1000 == 0, "%s: a bucket width tshark cannot express: %d ns" % (name, W))
    qps = [q for q in d["qps"] if q["qp"] is not None]
    check(not any(q["qp"] is None for q in d["qps"]), "%s: other QPs (the checks need each QP apart)" % name)
    # --- throughput and retransmitted octets against tshark ---
    cols, keys = [], []
    for q in qps:
        for dirn, ep in (("i2r", q["initiator"]), ("r2i", q["responder"])):
            a, p = ep.rsplit(":", 1)
            cols.append("SUM(tcp.len)tcp.len && tcp.stream == %d && ip.src == %s && tcp.srcport == %s" % (q["qp"], a, p))
            keys.append((q, dirn))
    ts = io_stat(path, W, cols)
    for i, (q, dirn) in enumerate(keys):
        same("%s QP %d %s wire" % (name, q["qp"], dirn), q["series"]["wire_" + dirn], ts[i])
    # --- retransmitted octets: the marked frames, tshark's lengths and times ---
    times, lens, flagged = frames(path)
    kinds = d["mark_kinds"]
    for q in qps:
        check(not q["marks_dropped"], "%s QP %d: marks dropped (the check needs them all)" % (name, q["qp"]))
        for dirn in ("i2r", "r2i"):
            marked = [m[3] for m in q["marks"] if kinds[m[0]] in ("fast_retransmit", "timeout") and
                      m[1] == (0 if dirn == "i2r" else 1)]
            bad = [f for f in marked if f not in flagged and lens[f]]
            check(not bad, "%s QP %d %s: frames counted as retransmissions tshark does not flag: %s" %
                  (name, q["qp"], dirn, bad[:5]))
            same("%s QP %d %s retransmitted" % (name, q["qp"], dirn), q["series"]["retransmitted_" + dirn],
                 per_bucket(n, [(bucket(times[f], first, W), lens[f]) for f in marked]))
    # --- goodput from the FPDU list and tshark's frame times ---
    good = {}
    for f in jsonl(tool, root, "fpdus", rel):
        if f.get("opcode") not in PAYLOAD_OPCODES or f.get("ulpdu_len") is None:
            continue
        payload = f["ulpdu_len"] - (14 if f["tagged"] else 18)
        good.setdefault((f["qp"], f["dir"]), []).append((bucket(times[f["frame"]], first, W), payload))
    for q in qps:
        for dirn in ("i2r", "r2i"):
            same("%s QP %d %s goodput" % (name, q["qp"], dirn), q["series"]["goodput_" + dirn],
                 per_bucket(n, good.get((q["qp"], dirn), [])))
    # --- operations started, time in flight ---
    ops = [o for o in jsonl(tool, root, "ops", "--format", "jsonl", rel) if not o["rtr"]]
    for q in qps:
        mine = [o for o in ops if o["qp"] == q["qp"]]
        same("%s QP %d operations started" % (name, q["qp"]), q["series"]["ops"],
             per_bucket(n, [(bucket(o["start_ns"], first, W), 1) for o in mine]))
        span = []
        for o in mine:
            t0, t1 = o["start_ns"], o["end_ns"]
            b0, b1 = bucket(t0, first, W), bucket(t1, first, W)
            lo = t0
            for b in range(b0, b1):
                edge = first + (b + 1) * W - 500
                span.append((b, edge - lo))
                lo = edge
            span.append((b1, t1 - lo))
        same("%s QP %d in flight" % (name, q["qp"]), q["series"]["inflight_ns"], per_bucket(n, span))
    # --- NVMe-oF queues ---
    if any(q.get("nvme") for q in qps):
        cmds = jsonl(tool, root, "nvme", "--format", "jsonl", rel)
        for q in qps:
            if not q.get("nvme"):
                continue
            done = [c for c in cmds if c["qp"] == q["qp"] and c["complete"]]
            s = q["nvme"]["series"]
            b = lambda c: bucket(c["end_ns"], first, W)  # noqa: E731
            same("%s QP %d NVMe completed" % (name, q["qp"]), s["completed"], per_bucket(n, [(b(c), 1) for c in done]))
            same("%s QP %d NVMe bytes" % (name, q["qp"]), s["bytes"], per_bucket(n, [(b(c), c["bytes"]) for c in done]))
            same("%s QP %d NVMe latency sum" % (name, q["qp"]), s["latency_sum_ns"],
                 per_bucket(n, [(b(c), c["latency_ns"]) for c in done]))
            mx = [0] * n
            for c in done:
                mx[b(c)] = max(mx[b(c)], c["latency_ns"])
            same("%s QP %d NVMe latency max" % (name, q["qp"]), s["latency_max_ns"], mx)
            check(q["nvme"]["commands"] == sum(1 for c in cmds if c["qp"] == q["qp"]),
                  "%s QP %d: NVMe command count" % (name, q["qp"]))
    return W


def check_interval(tool, root, rel, width):
    """stats --interval's wire rows against tshark's io,stat."""
    name = os.path.basename(rel) + " --interval"
    path = os.path.join(root, rel)
    rows = [r for r in jsonl(tool, root, "stats", "--interval", "%dus" % (width // 1000), "--format", "jsonl", rel)
            if "dir" in r]
    first = json.loads(run(tool, root, "stats", "--format", "json", rel))["capture"]["first_ns"]
    keys = sorted({(r["qp"], r["dir"], r["src"]) for r in rows})
    cols = []
    for qp, _, src in keys:
        a, p = src.rsplit(":", 1)
        cols.append("SUM(tcp.len)tcp.len && tcp.stream == %d && ip.src == %s && tcp.srcport == %s" % (qp, a, p))
    ts = io_stat(path, width, cols)
    for i, (qp, dirn, _) in enumerate(keys):
        mine = per_bucket(0, [((r["start_ns"] - first) // width, r["wire_bytes"]) for r in rows
                              if (r["qp"], r["dir"]) == (qp, dirn)])
        same("%s QP %d %s" % (name, qp, dirn), mine, ts[i])
    return len(rows)


def main(argv):
    tool, root, work = argv[1], argv[2], argv[3]
    if not shutil.which("tshark"):
        print("SKIP: no tshark")
        return 77
    os.makedirs(work, exist_ok=True)
    samples = sorted(glob.glob(os.path.join(root, "samples", "real", "*.pcap*")))
    for path in samples:
        rel = os.path.relpath(path, root)
        W = check_sample(tool, root, work, rel)
        print("%-45s buckets of %d µs: checked" % (os.path.basename(rel), W // 1000))
    rows = 0
    for rel in ("samples/real/26-netem-read_bw-64k.pcap", "samples/real/27-kill-client-write_bw-tail.pcap",
                "samples/real/30-nvmeof-mixed.pcap"):
        rows += check_interval(tool, root, rel, 10000000)
    print("%d samples, %d wire rows of stats --interval checked against tshark" % (len(samples), rows))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
