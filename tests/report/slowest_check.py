#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The slowest lists (issue 21 item 3: slowest means the application's
wait), recomputed from `ops --format jsonl` and `nvme --format jsonl` on
every real capture and a few made ones:

- the summary's "Slowest waits" are the five slowest of the Reads and
  Atomics by latency_ns and the complete NVMe commands by latency_ns,
  together (ties: the earlier start first), with their QP, id (an NVMe
  command's CID), op and frames;
- its "Slowest deliveries" are the five slowest of the other operations by
  ack_ns, leaving out the receiver's delayed ACKs (docs/semantics.md: no
  retransmission, stall or queueing, a bare ACK at least 40 ms after the
  last octet and at least half of ack_ns), whose number it says;
- the report's lists are the fifty of each, the same way;
- done when: on 30-nvmeof-mixed the summary's slowest list is led by
  NVMe/RDMA latency, and no delayed-ACK delivery is in any list's top five.

Usage: slowest_check.py IWARPSCOPE ROOT WORKDIR
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from checklib import check, verdict  # noqa: E402
from reportlib import cli as run, cli_jsonl as jsonl, page_data, report  # noqa: E402

DELAYED_ACK_MIN_NS = 40000000
EXTRA = ["samples/generated/atomics.pcap", "samples/generated/nvmeof.pcap", "samples/generated/loss-ack.pcap",
         "samples/generated/multi-qp.pcap"]


def delayed_ack(o):
    wait = o["ack_ns"] - (o["end_ns"] - o["start_ns"])
    return (not o["ack_with_data"] and not o["retransmissions"] and not o["stall_ns"] and not o["queued_ns"]
            and wait >= DELAYED_ACK_MIN_NS and wait >= o["ack_ns"] - wait)


def expected(tool, root, rel):
    ops = [o for o in jsonl(tool, root, "ops", "--format", "jsonl", rel) if not o["rtr"]]
    cmds = jsonl(tool, root, "nvme", "--format", "jsonl", rel)
    order = lambda t, o: (-t, o["start_ns"], o["first_frame"], o["qp"], o["id"])  # noqa: E731
    lat = sorted((o for o in ops if o["latency_ns"] is not None), key=lambda o: order(o["latency_ns"], o))
    nv = sorted((c for c in cmds if c["complete"] and c["latency_ns"] is not None),
                key=lambda c: order(c["latency_ns"], c))
    waits, i, k = [], 0, 0
    while i < len(lat) or k < len(nv):
        o = lat[i] if i < len(lat) else None
        c = nv[k] if k < len(nv) else None
        if o and (not c or o["latency_ns"] > c["latency_ns"] or
                  (o["latency_ns"] == c["latency_ns"] and o["start_ns"] <= c["start_ns"])):
            waits.append(("rdma", o["qp"], o["id"], o["op"], o["latency_ns"], o["first_frame"], o["last_frame"]))
            i += 1
        else:
            waits.append(("nvme", c["qp"], c["cid"], c["op"], c["latency_ns"], c["first_frame"], c["last_frame"]))
            k += 1
    rest = [o for o in ops if o["latency_ns"] is None and o["ack_ns"] is not None]
    delayed = [o for o in rest if delayed_ack(o)]
    dl = sorted((o for o in rest if not delayed_ack(o)), key=lambda o: order(o["ack_ns"], o))
    deliveries = [("rdma", o["qp"], o["id"], o["op"], o["ack_ns"], o["first_frame"], o["ack_frame"]) for o in dl]
    return waits, deliveries, delayed


def table(summary, heading):
    """The rows of a summary table: [QP, id, op, time, frames, why]."""
    lines = summary.split("\n")
    at = [i for i, l in enumerate(lines) if l.startswith(heading)]
    if not at:
        return None
    rows = []
    for l in lines[at[0] + 2:]:
        if not l.strip() or l.lstrip().startswith("("):
            break
        rows.append(re.split(r"\s{2,}", l.strip()))
    return rows


def same_rows(name, rows, want):
    got = [(int(r[0]), int(r[1]), r[2], r[4]) for r in rows]
    exp = [(w[1], w[2], ("NVMe " + w[3]) if w[0] == "nvme" else w[3],
            "%d" % w[5] if w[5] == w[6] else "%d-%d" % (w[5], w[6])) for w in want]
    return check(got == exp, "%s:\n  summary  %s\n  expected %s" % (name, got, exp))


def main(argv):
    tool, root, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    samples = [os.path.relpath(p, root) for p in sorted(glob.glob(os.path.join(root, "samples", "real", "*.pcap*")))]
    samples += EXTRA
    for rel in samples:
        name = os.path.basename(rel)
        waits, deliveries, delayed = expected(tool, root, rel)
        summary = run(tool, root, "summary", "--no-progress", rel)
        w = table(summary, "Slowest waits (")
        dl = table(summary, "Slowest deliveries (")
        if waits:
            check(w is not None and same_rows(name + " waits", w, waits[:5]), "%s: the waits list" % name)
        else:
            check(w is None, "%s: a waits list without a latency to rank" % name)
        if deliveries or delayed:
            check(dl is not None and same_rows(name + " deliveries", dl, deliveries[:5]), "%s: the deliveries list" % name)
        else:
            check(dl is None, "%s: a deliveries list with nothing to rank" % name)
        m = re.search(r"\((\d+) deliver(?:y|ies) waited for the receiver's delayed ACK", summary)
        check((int(m.group(1)) if m else 0) == len(delayed), "%s: %s delayed ACKs said, %d found" %
              (name, m.group(1) if m else "no", len(delayed)))
        check(not any(d in [(x["qp"], x["id"]) for x in delayed] for d in [(r[1], r[2]) for r in deliveries[:5]]),
              "%s: a delayed ACK in the top five" % name)
        # the report: fifty of each
        d = page_data(report(tool, root, rel, os.path.join(work, "page.html")))
        got = [(x["kind"], x["qp"], x["cid"] if x["kind"] == "nvme" else x["id"], x["op"], x["time_ns"],
                x["first_frame"], x["last_frame"]) for x in d["slowest"]["waits"]]
        check(got == waits[:50], "%s: the report's waits differ" % name)
        got = [("rdma", x["qp"], x["id"], x["op"], x["time_ns"], x["first_frame"], x["ack_frame"])
               for x in d["slowest"]["deliveries"]]
        check(got == deliveries[:50], "%s: the report's deliveries differ" % name)
        check(d["slowest"]["delayed_ack"] == len(delayed), "%s: the report's delayed ACK count" % name)
        print("%-40s %d waits, %d deliveries, %d delayed ACKs" % (name, len(waits), len(deliveries), len(delayed)))
        if name == "30-nvmeof-mixed.pcap":
            check(w and len(w) == 5 and all(r[2].startswith("NVMe ") or r[2] in ("read", "atomic_fetch_add", "atomic_cmp_swap")
                                             for r in w),
                  "30-nvmeof-mixed: the slowest list is not led by NVMe/RDMA latency")
            check(len(delayed) > 0, "30-nvmeof-mixed: its delayed ACKs (the Sends ACKed after ~45 ms) are not found")
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
