#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads and Atomics in partial captures: never borrowed, and paired
(issue 22 item 2, issue 31 items 1-2).

Every real sample is cut at 10 points (the capture starting at frame
1 + k*N/10, k = 0..9: a capture that starts mid-stream, as a user's often
does; and 26-netem from frame 55, where issue 22 found borrowing), and each
cut is read whole and sliced to 96 and to 128 octets per frame (a mirror
port's slices; the whole capture itself is left out unsliced).

- Exact: a Read or Atomic the cut reports complete must be the full
  capture's operation that ends in the same frame, with the same request
  frame and latency - a response is matched to a request only when the
  capture proves the pairing (docs/semantics.md), never to another Read's
  request (perftest reuses one STag and TO for every Read). 0 wrong.
- Roles: every connection's initiator is the full capture's, whatever the
  cut shows first (the SYN, else the listening port: docs/semantics.md).
- Recall: of the full capture's complete Reads and Atomics whose request
  and last response lie in the cut, at least RECALL (95 %) are paired with
  the full capture's request frame and latency, per slicing (whole, 96,
  128), over all the captures together.

CLI only, one process per cut (the plugin's equality is the agreement
tests', which read such cuts and slices as variants).

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
SLICES = (None, 96, 128)
RECALL = 0.95
# and where issue 22 saw it (20 Reads sent together in frame 61 after Reads
# 1..10: from frame 55, 9 of them were given another Read's request)
EXTRA = {"26-netem-read_bw-64k.pcap": [55]}
MATCHED = ("read", "atomic_fetch_add", "atomic_cmp_swap", "atomic_swap")


def ops_of(tool, path):
    return [json.loads(l) for l in run_ok(tool, ["ops", "-T", "jsonl", path]).splitlines()]


def initiators(tool, path):
    """{frozenset of both endpoints: the initiator} of the iWARP QPs."""
    st = json.loads(run_ok(tool, ["stats", "-T", "json", path]))
    return {frozenset((q["initiator"], q["responder"])): q["initiator"] for q in st["qps"]}


def read_capture(path, work):
    try:
        return pcaptool.read(path)
    except ValueError:
        # pcapng (27-...-tail.pcap, cut by editcap): as classic pcap
        editcap = shutil.which("editcap")
        if not editcap:
            return None
        conv = os.path.join(work, "conv.pcap")
        subprocess.run([editcap, "-F", "pcap", path, conv], check=True)
        return pcaptool.read(conv)


def starts(p, name):
    """The first frames of the cuts of capture p (file name): 1 + k*N/POINTS, and EXTRA's."""
    n = len(p.records)
    return [1 + k * n // POINTS for k in range(POINTS)] + EXTRA.get(name, [])


def variants(p, name):
    """(start, snap, cut): the cuts of p from starts(), whole and sliced to each of SLICES, the
    whole capture itself left out (as main makes them; doctor_cuts.py reads the same)."""
    for start in starts(p, name):
        recs = p.records[start - 1:]
        for snap in SLICES:
            if snap is None and start == 1:
                continue
            yield start, snap, pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                                             [(s, f, orig, d[:snap] if snap else d) for s, f, orig, d in recs])


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    real = sorted(os.path.join(samples, "real", f) for f in os.listdir(os.path.join(samples, "real"))
                  if f.endswith(".pcap"))
    n_cuts = n_checked = n_missing = 0
    inside = {s: 0 for s in SLICES}     # full-capture pairs lying wholly in a cut
    paired = {s: 0 for s in SLICES}     # ... paired there as in the full capture
    for path in real:
        name = os.path.basename(path)
        p = read_capture(path, work)
        if p is None:
            print("%s: pcapng and no editcap: skipped" % name)
            continue
        roles = initiators(tool, path)
        full = {}
        for o in ops_of(tool, path):
            if o["op"] in MATCHED and not o["rtr"]:
                full[(o["src"], o["dst"], o["op"], o["last_frame"])] = o
        n = len(p.records)
        for start in [1 + k * n // POINTS for k in range(POINTS)] + EXTRA.get(name, []):
            recs = p.records[start - 1:]
            for snap in SLICES:
                if snap is None and start == 1:
                    continue  # the full capture itself
                cut = pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                                    [(s, f, orig, d[:snap] if snap else d) for s, f, orig, d in recs])
                f = os.path.join(work, "cut.pcap")
                pcaptool.write(f, cut)
                n_cuts += 1
                where = "%s from frame %d%s" % (name, start, " at %d" % snap if snap else "")
                for pair, who in initiators(tool, f).items():
                    check(roles.get(pair, who) == who, "%s: initiator %s, the full capture's %s"
                          % (where, who, roles.get(pair)))
                got = {}
                for o in ops_of(tool, f):
                    if o["op"] not in MATCHED or o["rtr"]:
                        continue
                    if not o["complete"]:
                        n_missing += "request_missing" in o.get("flags", [])
                        continue
                    n_checked += 1
                    last = o["last_frame"] + start - 1
                    got[(o["src"], o["dst"], o["op"], last)] = o
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
                # recall: the full capture's pairs wholly inside this cut
                for key, ref in full.items():
                    if not ref["complete"] or ref["first_frame"] < start:
                        continue
                    inside[snap] += 1
                    o = got.get(key)
                    paired[snap] += bool(o and o["first_frame"] + start - 1 == ref["first_frame"] and
                                         o["latency_ns"] == ref["latency_ns"])
    print("%d cuts of %d captures: %d complete reads and atomics checked, %d left request_missing"
          % (n_cuts, len(real), n_checked, n_missing))
    for snap in SLICES:
        what = "sliced to %d octets" % snap if snap else "whole"
        share = paired[snap] / inside[snap] if inside[snap] else 1.0
        print("  %s: %d of %d Reads and Atomics inside the cuts paired (%.1f %%)"
              % (what, paired[snap], inside[snap], 100.0 * share))
        check(share >= RECALL, "cuts %s: %.1f %% paired, fewer than %.0f %%" % (what, 100.0 * share, 100 * RECALL))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
