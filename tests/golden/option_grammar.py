#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One option grammar (issue 17 item 1).

Global options work before or after the command; `CMD --help` and `help CMD`
print that command's help (its options only); --qp, --op, --since and --until
are honoured by every command that prints operations or statistics, or
refused with a message naming the commands they apply to; the operation
names --op accepts are the names every output uses.

Usage: option_grammar.py IWARPSCOPE SAMPLES_DIR
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run, verdict  # noqa: E402


def jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def main(argv):
    tool, samples = argv[1], argv[2]
    rd = os.path.join(samples, "real", "05-read_lat.pcap")      # QP 0 sends, QP 1 reads
    nv = os.path.join(samples, "real", "30-nvmeof-mixed.pcap")

    # Global options before the command, and the format before it.
    for before, after in ((["--no-crc-check", "stats"], ["stats", "--no-crc-check"]),
                          (["-T", "jsonl", "ops"], ["ops", "-T", "jsonl"]),
                          (["--qp", "1", "summary"], ["summary", "--qp", "1"])):
        r1 = run(tool, before + [rd])
        r2 = run(tool, after + [rd])
        check(r1[0] == 0 and r1 == r2, "%s FILE == %s FILE (got %d %r)" % (before, after, r1[0], r1[2]))
    rc, out, err = run(tool, [rd, "ops"])
    check(rc == 2, "a command after a file is a file: exit 2, got %d" % rc)
    # A list that names nothing (an unset variable) selects nothing silently:
    # refused, as for --fail-on (issue 33 item 5).
    for opt in ("--qp", "--op"):
        for empty in ("", ","):
            rc, out, err = run(tool, ["stats", opt, empty, rd])
            check(rc == 2 and "empty list" in err, "%s %r: exit 2 naming the empty list, got %d %r" %
                  (opt, empty, rc, err))

    # merge (its own options) after options too.
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "a.json")
        with open(js, "w") as f:
            f.write(run(tool, ["stats", "-T", "json", rd])[1])
        r1 = run(tool, ["merge", "-T", "json", js])
        r2 = run(tool, ["-T", "json", "merge", js])
        check(r1[0] == 0 and r1 == r2, "-T json merge A == merge -T json A (got %d %r)" % (r2[0], r2[2]))

    # Per-command help.
    _, full, _ = run(tool, ["--help"])
    check("  merge " in full, "--help lists merge")
    for cmd in ("summary", "ops", "stats", "fpdus", "nvme", "report"):
        rc, h, _ = run(tool, [cmd, "--help"])
        check(rc == 0 and h.startswith("Usage: iwarpscope %s " % cmd), "%s --help: its usage" % cmd)
        check(h != full, "%s --help differs from --help" % cmd)
        check(run(tool, ["help", cmd])[1] == h, "help %s == %s --help" % (cmd, cmd))
        check(run(tool, ["-h", cmd])[1] == h, "-h %s == %s --help" % (cmd, cmd))
    # Every help as printed, no printf escape left in it ("within 0.2 %%":
    # issue 33 item 10).
    for args in (["--help"], ["merge", "--help"], ["doctor", "--help"]) + \
            tuple([c, "--help"] for c in ("summary", "ops", "stats", "fpdus", "nvme", "report")):
        rc, h, _ = run(tool, args)
        check(rc == 0 and not re.search(r"%[%sdu]|%l", h), "%s: a printf escape in the text: %r" %
              (" ".join(args), re.findall(r".{0,20}%[%sdul].{0,10}", h)))
    _, h, _ = run(tool, ["stats", "--help"])
    check("--sort" not in h and "--include-rtr" in h, "stats --help lists only stats' options")
    _, h, _ = run(tool, ["ops", "--help"])
    check("--sort" in h and "--include-rtr" not in h and "-o, --output" not in h,
          "ops --help lists only ops' options")

    # --qp everywhere.
    ops = jsonl(run(tool, ["ops", "-T", "jsonl", "--qp", "1", rd])[1])
    check(ops and {o["qp"] for o in ops} == {1}, "ops --qp 1: QP 1 only")
    st = json.loads(run(tool, ["stats", "-T", "json", "--qp", "1", rd])[1])
    check([q["qp"] for q in st["qps"]] == [1], "stats --qp 1: QP 1 only, got %s"
          % [q["qp"] for q in st["qps"]])
    check(st["total"]["operations"] == len(ops), "stats --qp 1: the total is QP 1's")
    rc, out, _ = run(tool, ["stats", "--qp", "1", rd])
    check(rc == 0 and "\n   0 " not in out and "\n   1 " in out, "stats (text) --qp 1: QP 1 only")
    rc, out, _ = run(tool, ["summary", "--qp", "1", rd])
    check("\nQP 1 " in out and "\nQP 0 " not in out and "selected: QP 1" in out,
          "summary --qp 1: QP 1 only, and says so")
    fp = jsonl(run(tool, ["fpdus", "--qp", "0", rd])[1])
    check(fp and {f["qp"] for f in fp} == {0}, "fpdus --qp 0: QP 0 only")
    rc, out, _ = run(tool, ["stats", "-T", "csv", "--qp", "1", rd])
    rows = out.splitlines()[1:]
    check(rc == 0 and rows and all(r.split(",")[3] == "1" for r in rows),
          "stats -T csv --qp 1: QP 1 rows only")
    nvall = jsonl(run(tool, ["nvme", "-T", "jsonl", nv])[1])
    qps = sorted({c["qp"] for c in nvall})
    one = jsonl(run(tool, ["nvme", "-T", "jsonl", "--qp", str(qps[-1]), nv])[1])
    check(one and {c["qp"] for c in one} == {qps[-1]}, "nvme --qp: that QP only")

    rc, out, err = run(tool, ["stats", "-T", "json", "--qp", "7", rd])
    check(rc == 0 and json.loads(out)["qps"] == [] and
          "--qp 7: no iWARP QP of that number in the capture (its QPs: 0, 1)" in err,
          "--qp of a QP that is not there: said on stderr: %r" % err)

    # --op everywhere it means something; refused clearly where not.
    st = json.loads(run(tool, ["stats", "-T", "json", "--op", "read", rd])[1])
    check(st["total"]["ops"].keys() == {"read"} and all(set(q["ops"]) <= {"read"} for q in st["qps"]),
          "stats --op read: reads only")
    rc, out, _ = run(tool, ["summary", "--op", "send", rd])
    check(rc == 0 and " read " not in out.split("Operations", 1)[-1], "summary --op send: no reads")
    for cmd in ("nvme", "fpdus"):
        rc, out, err = run(tool, [cmd, "--op", "read", nv])
        check(rc == 2 and out == "" and "--op does not apply to the %s command" % cmd in err,
              "%s --op: refused with a message, got %d %r" % (cmd, rc, err))
    rc, _, err = run(tool, ["stats", "--sort", "latency", rd])
    check(rc == 2 and "--sort does not apply to the stats command (it applies to: ops)" in err,
          "stats --sort: refused, naming where it applies: %r" % err)

    # --since/--until: the statistics count what the timeline lists.
    allops = jsonl(run(tool, ["ops", "-T", "jsonl", rd])[1])
    win = ["--since", "+0.2", "--until", "+0.4"]
    sel = jsonl(run(tool, ["ops", "-T", "jsonl"] + win + [rd])[1])
    st = json.loads(run(tool, ["stats", "-T", "json"] + win + [rd])[1])
    check(sel and st["total"]["operations"] == len(sel) < len(allops),
          "stats --since/--until counts the operations ops lists (%d vs %d)"
          % (st["total"]["operations"], len(sel)))
    rc, out, _ = run(tool, ["summary"] + win + [rd])
    check(rc == 0 and "window: +0.200000 s to +0.400000 s (200.0 ms) of the capture" in out,
          "summary --since/--until names the window")

    # One set of operation names: --op accepts every name the outputs use.
    _, h, _ = run(tool, ["ops", "--help"])
    names = set()
    for f in ("01-rping.pcap", "05-read_lat.pcap", "04-write_lat.pcap", "27-kill-client-write_bw-tail.pcap"):
        names |= {o["op"] for o in jsonl(run(tool, ["ops", "-T", "jsonl", os.path.join(samples, "real", f)])[1])}
    for n in sorted(names):
        rc, _, err = run(tool, ["ops", "--op", n, rd])
        check(rc == 0, "--op %s (a name ops prints) is accepted: %r" % (n, err))
        check(n in h.replace("\n", "").replace(" ", ""), "ops --help lists %s" % n)
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
