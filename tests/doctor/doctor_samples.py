#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The committed samples have exactly the doctor findings listed for them in
tests/doctor/expect.txt, and no other: per QP, rule, direction, count and
(fraction rules) the FPDUs measured. Every committed sample must be listed.
The clean siw captures (every real sample but the killed client's) have no
finding of error severity; the other stacks' deviations modelled by the
generated samples are named (the 2008 IBM stack's little-endian FPDUPTR, the
marker grid that skips the CRC).

Usage: doctor_samples.py IWARPSCOPE SAMPLES-DIR EXPECT-FILE
"""
import json
import os
import subprocess
import sys

# Real samples that are not a clean run: the client was killed.
NOT_CLEAN = {"27-kill-client-write_bw-tail"}
# The other stacks' deviations that must be named, by sample.
MUST_NAME = {
    "markers-le-skipcrc": {"framing.marker_fpduptr_le", "framing.marker_skip_crc"},
    "markers-le-skipcrc-midstream": {"framing.marker_fpduptr_le", "framing.marker_skip_crc"},
    "markers-le": {"framing.marker_fpduptr_le"},
    "markers-offset": {"framing.marker_offset"},
}


def load_expect(path):
    want = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        name = line[0]
        want.setdefault(name, set())
        if line[1:] == ["-"]:
            continue
        qp, rule, d, count = line[1:5]
        want[name].add((int(qp), rule, d, count))
    return want


def doctor(cli, path):
    out = subprocess.run([cli, "doctor", "--format", "jsonl", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True).stdout.decode()
    rows = [json.loads(line) for line in out.splitlines()]
    got = set()
    for d in rows:
        count = "%d/%d" % (d["count"], d["of"]) if d["of"] is not None else "%d" % d["count"]
        if d["count_at_least"]:
            count = ">=" + count
        got.add((d["qp"], d["rule"], d["dir"], count))
    return got, rows


def main(argv):
    cli, samples, expect = argv[1], argv[2], argv[3]
    want = load_expect(expect)
    errs = []
    seen = set()
    for sub in ("real", "generated"):
        d = os.path.join(samples, sub)
        for f in sorted(os.listdir(d)):
            if not (f.endswith(".pcap") or f.endswith(".pcapng")):
                continue
            name = f.rsplit(".", 1)[0]
            seen.add(name)
            got, rows = doctor(cli, os.path.join(d, f))
            if name not in want:
                errs.append("%s: not listed in %s (it has %s)" % (name, expect, sorted(got) or "-"))
                continue
            for x in sorted(got - want[name]):
                errs.append("%s: found %s, not listed" % (name, x))
            for x in sorted(want[name] - got):
                errs.append("%s: listed %s, not found" % (name, x))
            if sub == "real" and name not in NOT_CLEAN:
                for r in rows:
                    if r["severity"] == "error":
                        errs.append("%s: clean siw capture with an error: %s" % (name, r["rule"]))
            named = {r["rule"] for r in rows}
            for rule in sorted(MUST_NAME.get(name, set()) - named):
                errs.append("%s: the deviation %s is not named" % (name, rule))
            print("%-32s %d finding(s)" % (name, len(rows)))
    for name in sorted(set(want) - seen):
        errs.append("%s: listed but no such sample" % name)
    for e in errs:
        print("FAIL:", e)
    print("%d samples, %d failure(s)" % (len(seen), len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
