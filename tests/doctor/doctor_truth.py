#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every rule of the doctor's catalogue fires on the generator's scenario for
it, with the truth's count and frames, and nothing else fires there.

For each doctor-* scenario of `iwarpscope-gen --list` (and doctor-all, every
one of them in one capture): generate it, run `iwarpscope doctor --format
jsonl`, and compare per (rule, QP, direction) with the truth's "doctor"
member: the same set of findings; the count; first and last frame equal to
the lowest and highest frame of the truth's occurrences; every sample
frame one of the truth's; "of" (fraction rules); the frame a Terminate
names. The catalogue (`doctor --rules --format json`) names, for
each rule, a scenario whose truth has that rule.

Usage: doctor_truth.py IWARPSCOPE IWARPSCOPE-GEN WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys


def findings(cli, pcap):
    out = subprocess.run([cli, "doctor", "--format", "jsonl", pcap], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True).stdout.decode()
    got = {}
    for line in out.splitlines():
        d = json.loads(line)
        got[(d["rule"], d["qp"], d["dir"])] = d
    return got


def compare(name, truth, got):
    """Differences between the truth's doctor member and the CLI's findings."""
    want = {(d["rule"], d["qp"], d["dir"]): d for d in truth["doctor"]}
    errs = []
    for k in sorted(set(want) | set(got)):
        w, g = want.get(k), got.get(k)
        if not w:
            errs.append("%s: %s fired %d times, the truth has none" % (name, k, g["count"]))
            continue
        if not g:
            errs.append("%s: %s not found (truth: %d)" % (name, k, w["count"]))
            continue
        if w["count"] != g["count"]:
            errs.append("%s: %s count %d, truth %d" % (name, k, g["count"], w["count"]))
        frames = set(w["frames"])
        if (g["first_frame"], g["last_frame"]) != (min(frames), max(frames)):
            errs.append("%s: %s frames %d..%d, truth %d..%d" % (name, k, g["first_frame"], g["last_frame"],
                                                               min(frames), max(frames)))
        stray = [f for f in g["frames"] if f not in frames]
        if stray:
            errs.append("%s: %s sample frames %s not in the truth" % (name, k, stray))
        if len(g["frames"]) != min(8, len(frames)):
            errs.append("%s: %s %d sample frames, expected %d" % (name, k, len(g["frames"]),
                                                                  min(8, len(frames))))
        if w["of"] is not None and g["of"] != w["of"]:
            errs.append("%s: %s of %s, truth %d" % (name, k, g["of"], w["of"]))
        if w["cause"] is not None:
            m = re.search(r"caused by frame (\d+)", g["first"])
            if not m or int(m.group(1)) != w["cause"]:
                errs.append("%s: %s names no cause or the wrong one (%r), truth frame %d" % (name, k, g["first"],
                                                                                           w["cause"]))
        if g["of"] is not None and g["permille"] != (g["count"] * 1000 + g["of"] // 2) // g["of"]:
            errs.append("%s: %s permille %d is not %d/%d" % (name, k, g["permille"], g["count"], g["of"]))
    return errs


def main(argv):
    cli, gen, work = argv[1], argv[2], argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    listing = subprocess.run([gen, "--list"], stdout=subprocess.PIPE, check=True).stdout.decode()
    names = [line.split()[0] for line in listing.splitlines() if line.startswith("doctor-")]
    rules = json.loads(subprocess.run([cli, "doctor", "--rules", "--format", "json"], stdout=subprocess.PIPE,
                                      check=True).stdout.decode())
    errs = []
    truths = {}
    for name in names:
        prefix = os.path.join(work, name)
        subprocess.run([gen, "--scenario", name, "--out", prefix], check=True)
        truth = json.load(open(prefix + ".truth.json"))
        truths[name] = truth
        e = compare(name, truth, findings(cli, prefix + ".pcap"))
        errs += e
        print("%-36s %s" % (name, "ok" if not e else "%d difference(s)" % len(e)))
    for r in rules:
        t = truths.get(r["scenario"])
        if t is None:
            errs.append("rule %s: its scenario %s is not a generator scenario" % (r["id"], r["scenario"]))
        elif not any(d["rule"] == r["id"] for d in t["doctor"]):
            errs.append("rule %s: its scenario %s does not break it" % (r["id"], r["scenario"]))
    # doctor-all: QP k is the k-th scenario, with that scenario's findings
    if "doctor-all" in truths:
        single = [n for n in names if n != "doctor-all"]
        by_qp = {}
        for d in truths["doctor-all"]["doctor"]:
            by_qp.setdefault(d["qp"], set()).add((d["rule"], d["dir"], d["count"]))
        for qp, n in enumerate(single):
            own = {(d["rule"], d["dir"], d["count"]) for d in truths[n]["doctor"]}
            if by_qp.get(qp, set()) != own:
                errs.append("doctor-all QP %d: %s, %s alone: %s" % (qp, sorted(by_qp.get(qp, set())), n,
                                                                   sorted(own)))
    for e in errs:
        print("FAIL:", e)
    print("%d scenarios, %d rules, %d failure(s)" % (len(names), len(rules), len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
