#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin and the CLI report the same doctor findings with the same
counts, in one tshark run per capture (as an unprivileged user, with the
plugin):

  tshark -2 -r CAP -Y iwarp.rule -T fields -e frame.number -e iwarp.rule
         -e iwarp.rule.dir -z iwarp,doctor

- the `-z iwarp,doctor` table equals `iwarpscope doctor CAP` line for line
  (QPs, rules, directions, counts, fractions, frame ranges, sample frames,
  the first occurrence's words), and so does the table of a single pass
  (`tshark -q -r CAP -z iwarp,doctor`, a second run);
- the iwarp.rule items on the frames are the occurrences: per rule and
  direction as many as the CLI counts, on frames from its first to its last,
  every sample frame among them.

With --truth, the capture's truth file's "doctor" member too (a generated
doctor scenario): each rule's count per QP and direction.

With --keep F, each generated capture is cut to the first fraction F of its
frames first (the end of the capture then falls mid-stream: data still held
behind a hole, operations in flight), and checked without its truth.

Usage: doctor_agree.py --plugin SO --cli BIN [--preload LIB]
                       [--gen GEN --scenario NAME... [--keep F] | CAPTURE]
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "plugin"))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import iwarp_tshark as it  # noqa: E402
import pcaptool  # noqa: E402

BAR = "=" * 20


def cli_text(cli, cap):
    return subprocess.run([cli, "doctor", cap], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=True).stdout.decode().splitlines()


def cli_rows(cli, cap):
    out = subprocess.run([cli, "doctor", "--format", "jsonl", cap], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True).stdout.decode()
    return [json.loads(line) for line in out.splitlines()]


def split_output(out):
    """(field lines, the -z table's lines without its bars and title)."""
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(BAR)), None)
    if start is None:
        raise it.Fail("no -z iwarp,doctor table in tshark's output")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(BAR))
    table = lines[start + 1:end]
    if not table or not table[0].startswith("iWARP doctor"):
        raise it.Fail("the -z iwarp,doctor table has no title")
    return lines[:start], table[1:]


def table_differs(how, table, want):
    """The first line where the -z table differs from the CLI's, and the sizes."""
    if table == want:
        return []
    errs = []
    for i in range(max(len(table), len(want))):
        a = table[i] if i < len(table) else "<none>"
        b = want[i] if i < len(want) else "<none>"
        if a != b:
            errs.append("%sline %d: tshark %r, CLI %r" % (how, i + 1, a, b))
            break
    errs.append("-z iwarp,doctor %sdiffers from iwarpscope doctor (%d vs %d lines)" % (how, len(table), len(want)))
    return errs


def check(r, cli, path, truth):
    cap = r.stage(path)
    out = r.run(["-2", "-r", cap, "-Y", "iwarp.rule", "-T", "fields", "-e", "frame.number", "-e", "iwarp.rule",
                 "-e", "iwarp.rule.dir", "-z", "iwarp,doctor"])
    fields, table = split_output(out)
    errs = []
    want = cli_text(cli, path)
    # both lists every QP checked, with or without findings: none at all
    # would be two front ends agreeing on nothing
    if not any(line.startswith("QP ") for line in table):
        errs.append("the -z iwarp,doctor table lists no QP (the CLI lists %d)" %
                    sum(1 for line in want if line.startswith("QP ")))
    errs += table_differs("", table, want)
    # tshark's single pass (no -2) runs no postseq routine: the table must
    # still be drawn after the end of the capture was analysed
    _, single = split_output(r.run(["-q", "-r", cap, "-z", "iwarp,doctor"]))
    errs += table_differs("in one pass ", single, want)
    # the occurrences on the frames
    frames = {}
    for line in fields:
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0]:
            continue
        no = int(parts[0])
        for rule, d in zip(parts[1].split(","), parts[2].split(",")):
            frames.setdefault((rule, d), []).append(no)
    rows = cli_rows(cli, path)
    by_key = {}
    for row in rows:
        k = (row["rule"], row["dir"])
        c, lo, hi, samples = by_key.get(k, (0, None, None, set()))
        by_key[k] = (c + row["count"], min(lo, row["first_frame"]) if lo else row["first_frame"],
                     max(hi, row["last_frame"]) if hi else row["last_frame"], samples | set(row["frames"]))
    for k in sorted(set(by_key) | set(frames)):
        got = frames.get(k, [])
        if k not in by_key:
            errs.append("%s: %d iwarp.rule items, the CLI has no such finding" % (k, len(got)))
            continue
        count, lo, hi, samples = by_key[k]
        if len(got) != count:
            errs.append("%s: %d iwarp.rule items, the CLI counts %d" % (k, len(got), count))
        if got and (min(got) != lo or max(got) != hi):
            errs.append("%s: items on frames %d..%d, the CLI %d..%d" % (k, min(got), max(got), lo, hi))
        missing = sorted(samples - set(got))
        if missing:
            errs.append("%s: no iwarp.rule item on the CLI's sample frames %s" % (k, missing))
    if truth:
        t = json.load(open(truth))
        tw = {(d["rule"], d["qp"], d["dir"]): d["count"] for d in t["doctor"]}
        tg = {(d["rule"], d["qp"], d["dir"]): d["count"] for d in rows}
        if tw != tg:
            errs.append("findings %s differ from the truth %s" % (sorted(set(tg.items()) ^ set(tw.items())), truth))
    n = sum(len(v) for v in frames.values())
    print("%s: %d findings, %d iwarp.rule items, %d table lines" % (os.path.basename(path), len(rows), n,
                                                                   len(table)))
    return errs


def cut_pcap(src, dst, fraction):
    """The first records of a classic pcap file (as a ring buffer or a stopped
    capture leaves it): (records in src, records kept)."""
    p = pcaptool.read(src)
    n = len(p.records)
    p.records = p.records[:max(1, int(n * fraction))]
    pcaptool.write(dst, p)
    os.chmod(dst, 0o644)
    return n, len(p.records)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload")
    ap.add_argument("--gen")
    ap.add_argument("--scenario", action="append", default=[])
    ap.add_argument("--keep", type=float,
                    help="cut each generated capture to this fraction of its frames (no truth then)")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    r = it.Runner(a.plugin, a.preload)
    if not r.tshark:
        print("tshark not found: skipped")
        return 77
    errs = []
    try:
        jobs = [(c, None) for c in a.captures]
        for scenario in a.scenario:
            work = tempfile.mkdtemp(prefix="doctor-agree-", dir=r.home)
            prefix = os.path.join(work, scenario)
            subprocess.run([a.gen, "--scenario", scenario, "--out", prefix], check=True)
            if a.keep:
                cut = "%s-first-%d%%.pcap" % (prefix, round(a.keep * 100))
                n, kept = cut_pcap(prefix + ".pcap", cut, a.keep)
                print("%s: the first %d of %d frames" % (os.path.basename(cut), kept, n))
                jobs.append((cut, None))
            else:
                jobs.append((prefix + ".pcap", prefix + ".truth.json"))
        for cap, truth in jobs:
            try:
                errs += ["%s: %s" % (os.path.basename(cap), e) for e in check(r, a.cli, cap, truth)]
            except it.Fail as e:
                errs.append("%s: %s" % (os.path.basename(cap), e))
    finally:
        r.close()
    for e in errs:
        print("FAIL:", e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
