#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A time window clips the doctor's findings and the TCP counts
(docs/semantics.md, "Time window"; issue 32 item 1): for spans [A, B) of a
capture, what `iwarpscope doctor` and `stats` say with `--since +A --until
+B` equals what the whole capture's per-frame fields show in the frames
whose time is inside, from one tshark run (as an unprivileged user, with the
plugin):

  tshark -2 -r CAP -T fields -e frame.number -e frame.time_relative
         -e tcp.stream -e iwarp.rdmap.tcp_event -e iwarp.rule -e iwarp.rule.dir

- each doctor rule's count per QP and direction (`doctor --format jsonl`)
  is the number of iwarp.rule items on the frames inside, its first and last
  frame theirs;
- each QP's retransmissions by kind, reordered segments and duplicate ACKs
  (`stats --format json`, tcp and retransmissions) are the
  iwarp.rdmap.tcp_event items on the frames inside.

The whole capture's fields, not those of an editcap cut: a cut loses the
handshake and the octets before it, so its own findings differ; a finding
counts in the window where its frame lies, judged with everything before.

Usage: window_views.py --plugin SO --cli BIN [--preload LIB] CAPTURE...
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import iwarp_tshark as it  # noqa: E402
from views_consistency import EV_BITS, tcp_of  # noqa: E402

FIELDS = ["frame.number", "frame.time_relative", "tcp.stream", "iwarp.rdmap.tcp_event", "iwarp.rule",
          "iwarp.rule.dir"]
# The spans, as fractions of the capture's length: thirds (the first with
# the handshake inside) and a middle part.
SPANS = [(0, Decimal(1) / 3), (Decimal(1) / 3, Decimal(2) / 3), (Decimal(2) / 3, 1), (Decimal("0.25"), Decimal("0.6"))]


def cli(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode not in (0, 1):
        raise it.Fail("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode()[-400:]))
    return p.stdout.decode()


def frames_of(r, cap):
    out = r.run(["-2", "-r", cap, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
                 "-E", "aggregator=,"] + sum((["-e", f] for f in FIELDS), []))
    rows = []
    for line in out.splitlines():
        p = line.split("\t")
        if len(p) != len(FIELDS) or not p[0].isdigit():
            continue
        f = dict(zip(FIELDS, p))
        rows.append((int(f["frame.number"]), int(Decimal(f["frame.time_relative"]) * 10 ** 9),
                     f["tcp.stream"].split(",")[0], f))
    return rows


def check_span(tool, path, rows, a_ns, b_ns):
    errs = []
    win = ["--since", "+%d.%09d" % divmod(a_ns, 10 ** 9), "--until", "+%d.%09d" % divmod(b_ns, 10 ** 9)]
    label = "[%s, %s)" % (win[1], win[3])
    if a_ns < 0:
        a_ns, win[1] = 0, "+0"
    rules, frames, tcp = Counter(), {}, {}
    for no, t, qp, f in rows:
        if not (a_ns <= t < b_ns) or not qp:
            continue
        for rule, d in zip([x for x in f["iwarp.rule"].split(",") if x], f["iwarp.rule.dir"].split(",")):
            k = (int(qp), rule, d)
            rules[k] += 1
            frames.setdefault(k, []).append(no)
        for e in (int(x, 0) for x in f["iwarp.rdmap.tcp_event"].split(",") if x):
            if e in EV_BITS:
                tcp.setdefault(int(qp), Counter())[EV_BITS[e]] += 1
    doc = [json.loads(x) for x in cli(tool, ["doctor", "--format", "jsonl"] + win + [path]).splitlines()]
    got = Counter({(d["qp"], d["rule"], d["dir"]): d["count"] for d in doc})
    for k in sorted(set(got) | set(rules)):
        if got[k] != rules[k]:
            errs.append("%s %s: doctor counts %d, iwarp.rule items inside %d" % (label, k, got[k], rules[k]))
    for d in doc:
        fs = frames.get((d["qp"], d["rule"], d["dir"]))
        if fs and (d["first_frame"], d["last_frame"]) != (min(fs), max(fs)):
            errs.append("%s %s: doctor frames %d..%d, items on %d..%d" % (label, d["rule"], d["first_frame"],
                                                                         d["last_frame"], min(fs), max(fs)))
    st = json.loads(cli(tool, ["stats", "--format", "json"] + win + [path]))
    nq = 0
    for q in st["qps"]:
        want = tcp.get(q["qp"], Counter())
        have = +tcp_of(q["tcp"])
        if have != +want:
            errs.append("%s QP %d: stats tcp %s, tcp_event items inside %s" % (label, q["qp"], dict(have), dict(want)))
        total = want["fast"] + want["timeout"] + want["other"]
        if q["retransmissions"] != total or q["reordered_segments"] != want["reordered"]:
            errs.append("%s QP %d: retransmissions %d, reordered %d; items inside %d, %d" % (
                label, q["qp"], q["retransmissions"], q["reordered_segments"], total, want["reordered"]))
        nq += 1
    print("  %s: %d findings (%d occurrences), %d QPs, %d TCP events inside" % (
        label, len(doc), sum(rules.values()), nq, sum(sum(c.values()) for c in tcp.values())))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    r = it.Runner(a.plugin, a.preload)
    if not r.tshark:
        print("tshark not found: skipped")
        return 77
    errs = []
    try:
        for path in a.captures:
            name = os.path.basename(path)
            rows = frames_of(r, r.stage(path))
            end = max(t for _, t, _, _ in rows)
            print(name)
            # the last span is left open at the end: up to past the last frame
            spans = [(int(end * lo), int(end * hi) if hi < 1 else end + 1) for lo, hi in SPANS]
            # and spans that cut through the findings and TCP events: before and
            # from the median one, and a tenth of their spread around it
            ev = sorted(t for _, t, _, f in rows if f["iwarp.rule"] or f["iwarp.rdmap.tcp_event"])
            if ev:
                m, d = ev[len(ev) // 2], max((ev[-1] - ev[0]) // 20, 1)
                spans += [(0, m), (m, end + 1), (m - d, m + d)]
            for lo, hi in spans:
                errs += ["%s: %s" % (name, e) for e in check_span(a.cli, path, rows, lo, hi)]
    except it.Fail as e:
        errs.append(str(e))
    finally:
        r.close()
    for e in errs[:40]:
        print("FAIL:", e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
