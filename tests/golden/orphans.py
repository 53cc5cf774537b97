#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads whose request is not in the capture (issue 17 item 3).

docs/semantics.md: src/dst of an operation is its initiator and its peer, for
a Read whose request is missing still the requester (the peer of the
responses' sender); orphan responses are counted as messages (one per Read
whose request is missing), not as segments. Checked on 08-read_bw-64k cut so
that the capture starts inside the transfer, and cut again to the responder's
direction alone (neither a handshake nor a request in it).

Usage: orphans.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import struct
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, run_ok, verdict  # noqa: E402


def src_ip(data):
    et, ip = pcaptool.ether_payload(data)
    return ip[12:16] if et == 0x0800 else None


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(samples, "real", "08-read_bw-64k.pcap")
    full = [json.loads(l) for l in run_ok(tool, ["ops", "-T", "jsonl", "--op", "read", path]).splitlines()]
    requester = {(o["src"], o["dst"]) for o in full}
    check(len(requester) == 1, "one requester in the whole capture: %s" % requester)
    (req_src, req_dst), = requester
    responder_ip = bytes(int(x) for x in req_dst.split(":")[0].split("."))

    p = pcaptool.read(path)
    tail = pcaptool.Pcap(p.magic, p.snaplen, p.linktype, p.records[1000:])
    oneway = pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                           [r for r in tail.records if src_ip(r[3]) == responder_ip])
    for name, cut in (("tail", tail), ("responses only", oneway)):
        f = os.path.join(work, name.replace(" ", "_") + ".pcap")
        pcaptool.write(f, cut)
        ops = [json.loads(l) for l in run_ok(tool, ["ops", "-T", "jsonl", "--op", "read", f]).splitlines()]
        st = json.loads(run_ok(tool, ["stats", "-T", "json", f]))
        q = [x for x in st["qps"] if "read" in x["ops"]]
        check(len(q) == 1, "%s: one QP of reads" % name)
        if not ops or not q:
            check(False, "%s: reads found" % name)
            continue
        orphans = [o for o in ops if "started_before" in o["flags"] or o["first_frame"] == 1]
        check({(o["src"], o["dst"]) for o in ops} == {(req_src, req_dst)},
              "%s: every read's src is the requester %s, dst its peer: %s"
              % (name, req_src, sorted({(o["src"], o["dst"]) for o in ops})))
        segs = sum(o["segments"] for o in ops)
        check(q[0]["orphan_responses"] == len(ops) < segs,
              "%s: orphan responses counted as messages: %d reads (%d segments), orphan_responses %d"
              % (name, len(ops), segs, q[0]["orphan_responses"]))
        check(len(orphans) >= 1, "%s: the reads started before the capture are flagged" % name)
        text = run_ok(tool, [f])
        check("orphan responses %d," % len(ops) in text, "%s: the summary says %d orphan responses"
              % (name, len(ops)))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
