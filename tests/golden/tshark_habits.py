#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tshark habits (issue 32 item 9): what people type after years of tshark.

  -c N      on files: the first N frames (was refused as live-only)
  -q        quiet: no progress bar, no warnings or notes on stderr (they stay
            in the report); errors still shown
  -n        accepted, nothing to do (no name is ever resolved)
  -Y F      exit 2 with a message naming --qp, --op, --since/--until
  -V        stays --version, and says where tshark's -V (detail) is
  --format text on every command that writes jsonl (fpdus was refused)
  --op with an unknown name lists the valid ones

Usage: tshark_habits.py IWARPSCOPE SAMPLES_DIR WORKDIR
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run, verdict  # noqa: E402


def jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    rb = os.path.join(samples, "real", "08-read_bw-64k.pcap")

    # -c N: the first N frames, the same as a file cut after them
    rc, out, err = run(tool, ["stats", "-T", "json", "-c", "100", rb])
    check(rc == 0 and json.loads(out)["capture"]["frames"] == 100,
          "-c 100 on a file: 100 frames read (got %d %r)" % (rc, err))
    fp = jsonl(run(tool, ["fpdus", "-c", "100", rb])[1])
    check(fp and max(f["frame"] for f in fp) <= 100, "fpdus -c 100: no FPDU past frame 100")
    rc, out, err = run(tool, ["-c", "0", rb])
    check(rc == 2, "-c 0: exit 2, got %d" % rc)
    rc, out, err = run(tool, ["-a", "duration:1", rb])
    check(rc == 2 and "-c N reads the first N frames" in err, "-a on a file: exit 2 saying what -c does (%r)" % err)

    # -q: a truncated file's warning gone from stderr, kept in the report
    cut = os.path.join(work, "cut.pcap")
    with open(rb, "rb") as f, open(cut, "wb") as g:
        g.write(f.read(100000))
    rc, out, err = run(tool, ["ops", cut])
    check(rc == 0 and "warning:" in err, "ops on a cut file warns on stderr (%r)" % err)
    rc, out, err = run(tool, ["ops", "-q", cut])
    check(rc == 0 and err == "" and out, "ops -q: nothing on stderr, the output all there (%r)" % err)
    rc, out, err = run(tool, ["stats", "-T", "json", "-q", cut])
    check(rc == 0 and err == "" and json.loads(out)["capture"]["warnings"],
          "stats -q: the warning stays in capture.warnings")
    rc, out, err = run(tool, ["-q", "--qp", "9", rb])
    check(rc == 0 and "note:" not in err, "-q: no note about --qp 9 (%r)" % err)
    rc, out, err = run(tool, ["-q", os.path.join(work, "absent.pcap")])
    check(rc == 2 and "absent.pcap" in err, "-q: errors are still shown")

    # -n: accepted, changes nothing
    check(run(tool, ["-n", "ops", rb]) == run(tool, ["ops", rb]), "-n: the same output as without")

    # -Y: refused, naming the equivalent options
    rc, out, err = run(tool, ["-Y", "iwarp.rdmap.qp == 1", rb])
    check(rc == 2 and all(o in err for o in ("--qp", "--op", "--since", "--until")),
          "-Y: exit 2 naming --qp, --op, --since/--until (got %d %r)" % (rc, err))

    # -V: still the version; with a file, a note on tshark's -V
    rc, out, err = run(tool, ["-V"])
    check(rc == 0 and out.startswith("iwarpscope ") and err == "", "-V alone: the version")
    rc, out, err = run(tool, ["-V", "-r", rb])
    check(rc == 0 and out.startswith("iwarpscope ") and "ops" in err and "fpdus" in err,
          "-V -r FILE: the version and a note naming ops and fpdus (%r)" % err)
    h = run(tool, ["--help"])[1]
    check("tshark's -V" in h and "-q, --quiet" in h and "  -n " in h and "  -Y FILTER" in h,
          "--help documents -V, -q, -n, -Y")

    # --format text wherever jsonl is written
    for cmd in ("ops", "stats", "fpdus", "nvme", "doctor"):
        rc, out, err = run(tool, [cmd, "--format", "text", rb])
        check(rc == 0 and out and not out.lstrip().startswith("{"), "%s --format text: text (got %d %r)"
              % (cmd, rc, err))
    text = run(tool, ["fpdus", "--format", "text", rb])[1].splitlines()
    js = jsonl(run(tool, ["fpdus", rb])[1])
    check(len(text) == len(js) + 1 and text[0].split()[:3] == ["QP", "dir", "seq"],
          "fpdus --format text: a header and a line per FPDU (%d lines, %d FPDUs)" % (len(text), len(js)))
    check(all(l.split()[:3] == [str(f["qp"]), f["dir"], str(f["seq"])] for l, f in zip(text[1:], js)),
          "fpdus --format text: the JSON's qp, dir, seq on every line")

    # --op: an unknown name lists the valid ones
    rc, out, err = run(tool, ["--op", "reads", rb])
    check(rc == 2 and "'reads'" in err and "read," in err and "write" in err and "atomic_fetch_add" in err,
          "--op reads: exit 2 listing the valid names (%r)" % err)
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
