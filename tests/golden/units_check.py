#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Units (issue 17 item 5, issue 21 item 5: tables people can paste).

- By default every latency, delivery and slowest table uses one time unit
  for all its cells (named in its heading), never ms and µs mixed in a
  column, and its byte columns hold octets (no kB next to MB); columns are
  aligned under their heading and never run together (two spaces apart).
- --time-unit us: every table's durations are in µs (and the headings say
  so), the ops and nvme lists' too; durations in prose keep their own unit:
  the capture's span is not rescaled.
- --units iec: sizes in KiB/MiB/GiB; si (the default) kB/MB/GB.
- JSON, JSON lines and CSV stay raw integers, the same whatever the options.
- The summary's "from ... to ..." gives the end's date when it is another day
  than the start's (issue 33 item 10), and only its clock time on the same day.

Usage: units_check.py IWARPSCOPE SAMPLES_DIR
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run, verdict  # noqa: E402
import pcaptool  # noqa: E402

UNIT = re.compile(r"\d(ns|µs|ms|s)\b")


TABLES = ("Latency", "Delivery", "NVMe latency", "NVMe data", "Slowest waits", "Slowest deliveries")


def tables(text, heads=TABLES):
    """{heading: [heading row, rows...]} of the tables whose title starts so."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith(heads):
            cur = line
            out[cur] = []
        elif cur and line.strip() and not line.lstrip().startswith("("):
            out[cur].append(line)
        elif not line.strip():
            cur = None
    return out


def aligned(name, head, rows):
    """Every row's cells end (right-aligned numbers) or start (text) where the
    heading's do, two spaces apart at least."""
    cells = re.compile(r"\S+(?: \S+)*")
    hs = [(m.start(), m.end()) for m in cells.finditer(rows[0])]
    for r in rows[1:]:
        rs = [(m.start(), m.end()) for m in cells.finditer(r)]
        ok = len(rs) >= len(hs) - 1 and all(a[0] == b[0] or a[1] == b[1] for a, b in zip(hs, rs))
        if not check(ok, "%s: %r: a row out of its columns: %r (heading %r)" % (name, head, r, rows[0])):
            return


BW = {"bits": None, "MBps": ("MiB/s", 8 * 1048576), "Gbps": ("Gbit/s", 1e9)}
BITS = {"bit/s": 1, "kbit/s": 1e3, "Mbit/s": 1e6, "Gbit/s": 1e9}


def check_rates(tool, f):
    """--bw (issue 32 item 6): the Operations table's rate column holds one
    unit (named in its heading: bit/s with a prefix, MiB/s = perftest's
    MB/sec, or Gbit/s) and "ops/s" (perftest's MsgRate); each cell equals
    bytes * 8 / span and count / span of `stats --format json` (the type's
    own first start to last end) to the decimals shown."""
    name = os.path.basename(f)
    import json
    js = json.loads(run(tool, ["stats", "--format", "json", f])[1])
    want = {}
    for q in js["qps"]:
        for op, o in q["ops"].items():
            want[(str(q["qp"]), op)] = o
    for op, o in js["total"]["ops"].items():
        want[("all", op)] = o
    for mode, fixed in BW.items():
        out = run(tool, ["stats", "--bw", mode, f])[1]
        rows = tables(out, ("Operations",)).get("Operations", [])
        if not check(len(rows) > 1, "%s --bw %s: no Operations table" % (name, mode)):
            continue
        head = rows[0].split()
        unit, per = head[-2], None
        if fixed:
            check(unit == fixed[0], "%s --bw %s: rate column in %r" % (name, mode, unit))
            per = fixed[1]
        else:
            check(unit in BITS, "%s --bw bits: rate column in %r" % (name, unit))
            per = BITS.get(unit, 1)
        check(head[-1] == "ops/s", "%s: no ops/s column" % name)
        for r in rows[1:]:
            c = r.split()
            if len(c) != 10:
                continue
            o = want.get((c[0], c[1]))
            if not check(o, "%s: row %s %s not in the JSON" % (name, c[0], c[1])):
                continue
            span = o["span_ns"]
            if span <= 0:
                check(c[8] == "-" and c[9] == "-", "%s: %s %s without a span shows %r" % (name, c[0], c[1], c[8:]))
                continue
            cells = [(c[8], o["bytes"] * 8e9 / span / per)]
            if o["count"] > 1:
                cells.append((c[9], o["count"] * 1e9 / span))
            else:
                check(c[9] == "-", "%s: ops/s of one operation: %r" % (name, c[9]))
            for cell, value in cells:
                dec = len(cell.split(".")[1]) if "." in cell else 0
                check(abs(float(cell) - value) <= 0.5 * 10 ** -dec + 1e-9,
                      "%s --bw %s %s %s: %s, recomputed %.6f" % (name, mode, c[0], c[1], cell, value))


def main(argv):
    tool, samples = argv[1], argv[2]
    real = os.path.join(samples, "real")
    files = [os.path.join(real, f) for f in ("05-read_lat.pcap", "08-read_bw-64k.pcap",
                                             "30-nvmeof-mixed.pcap", "26-netem-read_bw-64k.pcap")]
    for f in files:
        name = os.path.basename(f)
        rc, out, _ = run(tool, [f])
        t = tables(out)
        check(rc == 0 and t, "%s: latency tables found" % name)
        for head, rows in t.items():
            check(re.search(r", (ns|µs|ms|s)$", head), "%s: %r names its unit" % (name, head))
            body = [r for r in rows[1:] if "(none)" not in r]
            for r in body:
                cells = re.split(r"\s{2,}", r.strip())
                # the slowest tables end with a "why" in words: not a column of times
                if head.startswith("Slowest"):
                    cells = cells[:5]
                check(not any(UNIT.search(c) for c in cells), "%s: a cell with its own unit in %r: %r" % (name, head, r))
            if body:
                aligned(name, head, [rows[0]] + body)
        for head, rows in tables(out, ("Operations", "NVMe commands")).items():
            check(not any(re.search(r"\d ?(B|kB|MB|GB)\b", r) for r in rows), "%s: %r: a byte cell with a unit" % (name, head))
            aligned(name, head, rows)
        check_rates(tool, f)
        rc, out, _ = run(tool, ["--time-unit", "us", "stats", f])
        rc2, summ, _ = run(tool, ["summary", f, "--time-unit", "us"])
        for text in (out, summ):
            for head, rows in tables(text).items():
                check(head.endswith(", µs"), "%s --time-unit us: %r not in µs" % (name, head))
        plain = run(tool, ["summary", f])[1].splitlines()[1]
        check(summ.splitlines()[1] == plain and re.search(r" in [\d.]+ (ms|s)$", plain),
              "%s --time-unit us rescales the capture's span: %r" % (name, summ.splitlines()[1]))
        for cmd, col in (("ops", "latency µs"), ("nvme", "latency µs")):
            rc, lst, _ = run(tool, [cmd, "--time-unit", "us", f])
            check(rc == 0 and col in lst.splitlines()[0], "%s %s --time-unit us: heading %r" % (name, cmd, lst[:200]))
            rc, lst, _ = run(tool, [cmd, "--time-unit", "ms", f])
            check(rc == 0 and col.replace("µs", "ms") in lst.splitlines()[0], "%s %s --time-unit ms" % (name, cmd))
        rc, out, _ = run(tool, ["--units", "iec", f])
        check(rc == 0 and re.search(r"\d (KiB|MiB|GiB)\b", out) and not re.search(r"\d (kB|MB|GB)\b", out),
              "%s --units iec: binary units only" % name)
        rc, out, _ = run(tool, ["--units", "si", f])
        check(not re.search(r"\d (KiB|MiB|GiB)\b", out), "%s --units si: decimal units" % name)
        for args in (["stats", "-T", "json"], ["ops", "-T", "jsonl"], ["ops", "-T", "csv"],
                     ["nvme", "-T", "jsonl"], ["stats", "-T", "csv"]):
            plain = run(tool, args + [f])
            other = run(tool, args + ["--units", "iec", "--time-unit", "ms", f])
            check(plain[0] == 0 and plain == other, "%s %s: the same raw integers with --units/--time-unit"
                  % (name, args))
    for bad in (["--units", "binary"], ["--time-unit", "min"]):
        rc, out, err = run(tool, bad + [files[0]])
        check(rc == 2 and out == "", "%s: a usage error" % bad)
    check_span_days(tool, files[0])
    return verdict()


def check_span_days(tool, sample):
    """The summary's span across midnight, and across decades (a record at
    the epoch, as a clock never set gives): both ends dated (run() sets
    TZ=UTC)."""
    p = pcaptool.read(sample)
    sec0, frac0 = p.records[0][0], p.records[0][1]
    last = p.records[-1]
    with tempfile.TemporaryDirectory(prefix="units-days-") as tmp:
        for name, first, end, want in (
                ("same day", None, None, r"^from 2026-12-02 10:07:\S+ to 10:07:\S+$"),
                ("next day", None, last[0] + 86400, r"^from 2026-12-02 10:07:\S+ to 2026-12-03 10:07:\S+$"),
                ("epoch first", 0, None, r"^from 1970-01-01 00:00:00\.\d+ to 2026-12-02 10:07:\S+$")):
            recs = list(p.records)
            if first is not None:
                recs[0] = (first, 0) + recs[0][2:]
            if end is not None:
                recs[-1] = (end,) + last[1:]
            path = os.path.join(tmp, "span.pcap")
            pcaptool.write(path, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs))
            rc, out, _ = run(tool, ["summary", "--no-progress", path])
            line = [l for l in out.splitlines() if l.startswith("from ")]
            check(rc == 0 and len(line) == 1 and re.match(want, line[0]),
                  "%s (first record %d.%d): summary says %r, want /%s/" % (name, sec0, frac0, line, want))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
