#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The doctor on partial captures (issue 31 item 3): it judges only what the
capture shows, so a cut or a slice of a capture names nothing its full
capture does not.

Every real sample, and the generated samples listed in GENERATED, is cut at
10 points (the capture starting at frame 1 + k*N/10, k = 0..9) and each cut
is read whole and sliced to 96 and 128 octets per frame, as
tests/golden/cuts.py does. For each, `iwarpscope doctor --format json`
against the full capture's, per QP (its endpoints) and (rule, direction):

- a finding the full capture does not have fails;
- its count is at most the full capture's, its frames (renumbered to the
  full capture's) lie within the full capture's first..last frame;
- its "max" (operations or Reads outstanding) is at most the full capture's;
- a QP whose MPA handshake the cut left out says so once ("not_checked":
  "handshake" among what was not captured, the operations in flight among
  the rules unless they fired); a whole cut from the first frame says
  nothing of the kind unless the full capture does.

The cuts are tests/golden/cuts.py's (its variants()).

Usage: doctor_cuts.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import pcaptool  # noqa: E402
from checklib import check, run_ok, verdict  # noqa: E402
from cuts import read_capture, variants  # noqa: E402

# generated samples cut too: the killed server's Reads (RST with 4 outstanding), per-violation
# counts, and the Read storm issue 31 found judged on its slices
GENERATED = ("rst-outstanding.pcap", "read-req-le.pcap", "markers-le.pcap", "midstream-read-storm.pcap")
# the operations in flight: what a cut without its start or whole FPDUs cannot judge
IN_FLIGHT = ("conn.fin_outstanding", "conn.rst_outstanding", "rdmap.ird_exceeded")


def findings(tool, path):
    """{(initiator, responder, rule, dir): finding} of doctor's JSON, and
    {(initiator, responder): its not_checked} of the QPs."""
    doc = json.loads(run_ok(tool, ["doctor", "--format", "json", path]))
    got, notes = {}, {}
    for q in doc["qps"]:
        notes[(q["initiator"], q["responder"])] = q["not_checked"]
        for f in q["findings"]:
            got[(q["initiator"], q["responder"], f["rule"], f["dir"])] = f
    return got, notes


def handshakes(tool, path):
    """{(initiator, responder): the frame of the MPA Reply} of the QPs whose handshake the
    capture holds: a cut from a later frame leaves it out."""
    st = json.loads(run_ok(tool, ["stats", "-T", "json", path]))
    return {(q["initiator"], q["responder"]): q["reply_frame"] for q in st["qps"]
            if q.get("request_frame") and q.get("reply_frame")}


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    paths = sorted(os.path.join(samples, "real", f) for f in os.listdir(os.path.join(samples, "real"))
                   if f.endswith(".pcap"))
    paths += [os.path.join(samples, "generated", f) for f in GENERATED]
    n_cuts = n_findings = n_notes = 0
    for path in paths:
        name = os.path.basename(path)
        p = read_capture(path, work)
        if p is None:
            print("%s: pcapng and no editcap: skipped" % name)
            continue
        full, full_notes = findings(tool, path)
        shakes = handshakes(tool, path)
        for start, snap, cut in variants(p, name):
            f = os.path.join(work, "cut.pcap")
            pcaptool.write(f, cut)
            n_cuts += 1
            where = "%s from frame %d%s" % (name, start, " at %d" % snap if snap else "")
            got, notes = findings(tool, f)
            for key, g in sorted(got.items()):
                n_findings += 1
                what = "%s: %s %s %s->%s" % (where, key[2], key[3], key[0], key[1])
                ref = full.get(key)
                if not check(ref is not None, "%s: %d (first: %s), the full capture has none"
                             % (what, g["count"], g["first"])):
                    continue
                check(g["count"] <= ref["count"], "%s: count %d, the full capture's %d"
                      % (what, g["count"], ref["count"]))
                lo, hi = g["first_frame"] + start - 1, g["last_frame"] + start - 1
                check(ref["first_frame"] <= lo and hi <= ref["last_frame"],
                      "%s: frames %d..%d, the full capture's %d..%d"
                      % (what, lo, hi, ref["first_frame"], ref["last_frame"]))
                if g.get("max") is not None:
                    check(g["max"] <= ref["max"], "%s: most %s %d, the full capture's %d"
                          % (what, g["max_what"], g["max"], ref["max"]))
            for qp, note in notes.items():
                ref = full_notes.get(qp)
                lacks = set(note["not_captured"]) if note else set()
                # the cut keeps the handshake when it starts before the Request: at or before
                # the Reply is not enough to say (the Request may be in an earlier frame)
                want = set() if qp in shakes and start == 1 else {"handshake"}
                if qp in shakes and 1 < start <= shakes[qp]:
                    want = set()
                    lacks.discard("handshake")
                n_notes += bool(note)
                check(want <= lacks, "%s: QP %s->%s does not say %s not captured (not_checked: %s)"
                      % (where, qp[0], qp[1], ", ".join(sorted(want - lacks)), note))
                if want:
                    check(note is not None and set(IN_FLIGHT) <= set(note["rules"]) |
                          {k[2] for k in got if k[:2] == qp},
                          "%s: QP %s->%s: the operations in flight not named unchecked (%s)"
                          % (where, qp[0], qp[1], note))
                if not want and not ref and not snap and start == 1:
                    check(note is None, "%s: QP %s->%s says %s, the full capture nothing"
                          % (where, qp[0], qp[1], note))
        print("%-36s %d finding(s)" % (name, len(full)))
    print("%d cuts and slices, %d findings in them (none the full capture lacks), %d QPs "
          "saying what they could not check" % (n_cuts, n_findings, n_notes))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
