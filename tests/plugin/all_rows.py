#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The "all" rows over the type's own span (issue 32 item 4).

A rate is a row's bytes over the span of the operations that row counts, from
the earliest start to the latest end (docs/semantics.md, Statistics): a
type's row in a QP over that type's operations, the capture's row of a type
(QP "all") over that type's operations in every QP. So where only one QP has
an operation type, the capture's row of that type is that QP's row, every
column alike. Before, the capture's row of a type divided by the span of
every operation of the capture (08-read_bw-64k: "all read" 30.041 Mbit/s
beside QP 1's 37069, the only QP with Reads, the rdma_cm QP's Sends widening
the span).

Checked, on CAPTURE:
  - `iwarpscope stats --format json`: for every type exactly one QP has,
    total.ops[type] equals that QP's ops[type] in every member (span_ns and
    throughput_bps included); every type's span_ns is its last_ns - first_ns.
  - the plugin's tables (`tshark -z iwarp,ops_throughput`, ops_latency,
    ops_delivery: the GUI dialogs' rows): the row ("all", type) equals the
    row (QP, type) in every column; and every type row's Mbit/s is the CLI's
    bytes over the CLI's span_ns (plugin and CLI agree).

Usage: all_rows.py --plugin SO --cli BIN CAPTURE
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import iwarp_tshark as it  # noqa: E402

TABLES = ("ops_throughput", "ops_latency", "ops_delivery")


def table_rows(text, title):
    """{(QP, operation): [cells after those two]} of the stat table titled title."""
    rows, inside = {}, False
    for line in text.splitlines():
        if line.startswith(title + ":"):
            inside = True
            continue
        if inside and line.startswith("====="):
            break
        if not inside or "|" not in line or line.startswith("QP "):
            continue
        cells = [c.strip() for c in line.split("|")]
        if cells and cells[-1] == "":
            cells.pop()
        rows[(cells[0], cells[1])] = cells[2:]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload", default=None, help="sanitizer runtime(s) to LD_PRELOAD into tshark")
    ap.add_argument("capture")
    a = ap.parse_args()
    errors = []

    js = json.loads(subprocess.run([a.cli, "stats", "--format", "json", a.capture], stdout=subprocess.PIPE,
                                   check=True).stdout)
    owners = {}
    for q in js["qps"]:
        for op, st in q.get("ops", {}).items():
            owners.setdefault(op, []).append(q)
            if st["span_ns"] != (st["last_ns"] - st["first_ns"] if st["first_ns"] else 0):
                errors.append("CLI QP %d %s: span_ns %d is not last_ns - first_ns" % (q["qp"], op, st["span_ns"]))
    single = {op: qs[0] for op, qs in owners.items() if len(qs) == 1}
    if not single:
        errors.append("no operation type in one QP only: the capture tests nothing")
    for op, q in sorted(single.items()):
        mine, total = q["ops"][op], js["total"]["ops"][op]
        for k in sorted(set(mine) | set(total)):
            if mine.get(k) != total.get(k):
                errors.append("CLI total %s %s %r != QP %d's %r" % (op, k, total.get(k), q["qp"], mine.get(k)))

    if not shutil.which("tshark"):
        print("SKIP: no tshark (the CLI part passed)" if not errors else "\n".join(errors))
        return 1 if errors else 77
    runner = it.Runner(a.plugin, a.preload)
    try:
        cap = runner.stage(a.capture)
        args = ["-q", "-r", cap]
        for t in TABLES:
            args += ["-z", "iwarp," + t]
        text = runner.run(args)
    finally:
        runner.close()
    titles = {"ops_throughput": "iWARP Throughput and Loss", "ops_latency": "iWARP Operation Latency",
              "ops_delivery": "iWARP Delivery to ACK"}
    for t in TABLES:
        rows = table_rows(text, titles[t])
        if not rows:
            errors.append("-z iwarp,%s: no rows" % t)
            continue
        for op, q in sorted(single.items()):
            mine, total = rows.get((str(q["qp"]), op)), rows.get(("all", op))
            if mine is None or total is None or mine != total:
                errors.append("-z iwarp,%s: row (all, %s) %s != (%d, %s) %s" % (t, op, total, q["qp"], op, mine))
        if t != "ops_throughput":
            continue
        # every type row's Mbit/s: the CLI's bytes over the CLI's span
        blocks = [(str(q["qp"]), q.get("ops", {})) for q in js["qps"]] + [("all", js["total"]["ops"])]
        for label, ops in blocks:
            for op, st in ops.items():
                want = "%.3f" % (float(st["bytes"]) * 8e3 / float(st["span_ns"])) if st["span_ns"] > 0 else "-"
                got = rows.get((label, op))
                if got is None or got[1] != want:
                    errors.append("-z iwarp,ops_throughput (%s, %s) Mbit/s %s, the CLI's span gives %s" %
                                  (label, op, got[1] if got else None, want))
    for e in errors:
        print("FAIL:", e)
    if not errors:
        print("ok: %s: %s the same in every column, CLI and plugin" %
              (os.path.basename(a.capture), ", ".join("all %s = QP %d %s" % (op, q["qp"], op)
                                                     for op, q in sorted(single.items()))))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
