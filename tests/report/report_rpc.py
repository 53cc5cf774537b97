#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The HTML report's RPC section recomputed from `iwarpscope rpc --format
jsonl` (whose lines tests/rpc/rpc_check.py holds against tshark): per
procedure the RPCs, the complete ones, their RDMA octets and the latency's
min, max and nearest-rank p50/p90/p99; the slowest complete RPCs (at most
10, slowest first, equal latencies in call order) with their phases; and
the section null on a capture without RPCs.

  report_rpc.py IWARPSCOPE ROOT WORKDIR SAMPLE..."""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reportlib import cli_jsonl, page_data, report  # noqa: E402

PROG = {100003: "nfs", 100227: "nfs_acl", 100005: "mount", 100021: "nlm"}


def label(r):
    if r["program"] is None:
        return "(no call)"
    name = r["proc"] if r["proc"] is not None else str(r["procedure"])
    return "%s v%d %s" % (PROG.get(r["program"], str(r["program"])), r["version"], name)


def rank(v, q):
    return v[max(1, -(-int(q * 1000) * len(v) // 1000)) - 1]


def check(tool, root, work, sample):
    data = page_data(report(tool, root, sample, os.path.join(work, os.path.basename(sample) + ".html")))["rpc"]
    lines = cli_jsonl(tool, root, "rpc", "--format", "jsonl", "--no-progress", sample)
    if not lines:
        if data is not None:
            raise AssertionError("%s: an RPC section without RPCs" % sample)
        return "no RPCs, no section"
    groups = defaultdict(list)
    for r in lines:
        groups[label(r)].append(r)
    got = {g["proc"]: g for g in data["procs"]}
    if set(got) != set(groups):
        raise AssertionError("%s: procedures %s, the lines say %s" % (sample, sorted(got), sorted(groups)))
    for k, rs in groups.items():
        g = got[k]
        lat = sorted(r["latency_ns"] for r in rs if r["complete"])
        want = (len(rs), len(lat), sum(r["rdma_bytes"] for r in rs))
        if (g["count"], g["complete"], g["rdma_bytes"]) != want:
            raise AssertionError("%s %s: %s, the lines say %s" % (sample, k, g, want))
        if lat:
            wl = {"count": len(lat), "min": lat[0], "max": lat[-1], "p50": rank(lat, .5), "p90": rank(lat, .9),
                  "p99": rank(lat, .99)}
            if {x: g["latency_ns"][x] for x in wl} != wl:
                raise AssertionError("%s %s: latency %s, the lines say %s" % (sample, k, g["latency_ns"], wl))
    done = sorted((r for r in lines if r["complete"]), key=lambda r: (-r["latency_ns"], r["call_frame"]))[:10]
    want = [(r["xid"], r["call_frame"], r["reply_frame"], r["latency_ns"], r["phases"]["think_ns"],
             r["phases"]["data_ns"], r["phases"]["tail_ns"], r["rdma_bytes"]) for r in done]
    have = [(x["xid"], x["call_frame"], x["reply_frame"], x["latency_ns"], x["think_ns"], x["data_ns"],
             x["tail_ns"], x["rdma_bytes"]) for x in data["slowest"]]
    if have != want:
        raise AssertionError("%s: slowest %s, the lines say %s" % (sample, have, want))
    return "%d procedures, %d slowest as the rpc lines say" % (len(groups), len(have))


def main(argv):
    tool, root, work = argv[1:4]
    os.makedirs(work, exist_ok=True)
    for s in argv[4:]:
        print(s + ":", check(tool, root, work, s))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except AssertionError as e:
        print("FAIL:", e)
        sys.exit(1)
