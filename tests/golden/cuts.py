#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads and Atomics never borrow a request (issue 22 item 2).

Every real sample is cut at 10 points (the capture starting at frame
1 + k*N/10, k = 0..9: a capture that starts mid-stream, as a user's often
does; and 26-netem from frame 55, where the issue found borrowing) and each
cut is read again sliced to 96 octets per frame (a mirror port's slice). A Read or Atomic the cut capture reports complete must be
the full capture's operation that ends in the same frame, with the same
request frame and the same latency: a response is matched to a request only
when the capture proves the pairing (docs/semantics.md), never to another
Read's request (perftest reuses one STag and TO for every Read, so matching
by them alone borrows).

CLI only, one process per cut (the plugin's equality is the agreement tests').

Usage: cuts.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, run_ok, verdict  # noqa: E402

POINTS = 10
SLICE = 96
# and where the issue saw it (20 Reads sent together in frame 61 after Reads
# 1..10: from frame 55, 9 of them were given another Read's request)
EXTRA = {"26-netem-read_bw-64k.pcap": [55]}
MATCHED = ("read", "atomic_fetch_add", "atomic_cmp_swap", "atomic_swap")


def ops_of(tool, path):
    return [json.loads(l) for l in run_ok(tool, ["ops", "-T", "jsonl", path]).splitlines()]


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    real = sorted(os.path.join(samples, "real", f) for f in os.listdir(os.path.join(samples, "real"))
                  if f.endswith(".pcap"))
    n_cuts = n_checked = n_missing = 0
    for path in real:
        name = os.path.basename(path)
        try:
            p = pcaptool.read(path)
        except ValueError:
            # pcapng (27-...-tail.pcap, cut by editcap): as classic pcap
            editcap = shutil.which("editcap")
            if not editcap:
                print("%s: pcapng and no editcap: skipped" % name)
                continue
            conv = os.path.join(work, "conv.pcap")
            subprocess.run([editcap, "-F", "pcap", path, conv], check=True)
            p = pcaptool.read(conv)
        full = {}
        for o in ops_of(tool, path):
            if o["op"] in MATCHED and not o["rtr"]:
                full[(o["src"], o["dst"], o["op"], o["last_frame"])] = o
        n = len(p.records)
        for start in [1 + k * n // POINTS for k in range(POINTS)] + EXTRA.get(name, []):
            recs = p.records[start - 1:]
            for snap in (None, SLICE):
                if snap is None and start == 1:
                    continue  # the full capture itself
                cut = pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                                    [(s, f, orig, d[:snap] if snap else d) for s, f, orig, d in recs])
                f = os.path.join(work, "cut.pcap")
                pcaptool.write(f, cut)
                n_cuts += 1
                where = "%s from frame %d%s" % (name, start, " at %d" % snap if snap else "")
                for o in ops_of(tool, f):
                    if o["op"] not in MATCHED or o["rtr"]:
                        continue
                    if not o["complete"]:
                        n_missing += "request_missing" in o.get("flags", [])
                        continue
                    n_checked += 1
                    last = o["last_frame"] + start - 1
                    ref = full.get((o["src"], o["dst"], o["op"], last))
                    if not check(ref is not None and ref["complete"],
                                 "%s: %s %s->%s complete in frame %d, which completes none "
                                 "in the full capture" % (where, o["op"], o["src"], o["dst"], last)):
                        continue
                    first = o["first_frame"] + start - 1
                    check(first == ref["first_frame"] and o["latency_ns"] == ref["latency_ns"],
                          "%s: %s completed in frame %d given the request of frame %d (latency "
                          "%s); the full capture's is frame %d (latency %s)"
                          % (where, o["op"], last, first, o["latency_ns"], ref["first_frame"],
                             ref["latency_ns"]))
    print("%d cuts of %d captures: %d complete reads and atomics checked, %d left request_missing"
          % (n_cuts, len(real), n_checked, n_missing))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
