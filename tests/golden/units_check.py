#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Units (issue 17 item 5).

- By default every latency and delivery table uses one time unit for all its
  cells (named in its heading), never ms and µs mixed in a column.
- --time-unit us: every duration of the text outputs is in µs.
- --units iec: sizes in KiB/MiB/GiB; si (the default) kB/MB/GB.
- JSON, JSON lines and CSV stay raw integers, the same whatever the options.

Usage: units_check.py IWARPSCOPE SAMPLES_DIR
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run, verdict  # noqa: E402

UNIT = re.compile(r"\d(ns|µs|ms|s)\b")


def tables(text):
    """{heading: [rows]} of the latency-like tables."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith(("Latency", "Delivery", "NVMe latency", "NVMe data")):
            cur = line
            out[cur] = []
        elif cur and line.strip() and not line.lstrip().startswith("QP"):
            out[cur].append(line)
        elif not line.strip():
            cur = None
    return out


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
            for r in rows:
                if "(none)" in r:
                    continue
                check(not UNIT.search(r), "%s: a cell with its own unit in %r: %r" % (name, head, r))
        rc, out, _ = run(tool, ["--time-unit", "us", "stats", f])
        rc2, summ, _ = run(tool, ["summary", f, "--time-unit", "us"])
        for text in (out, summ):
            units = set(m.group(1) for m in UNIT.finditer(text.split("Operations", 1)[-1]))
            check(units <= {"µs"}, "%s --time-unit us: only µs, got %s" % (name, units))
        check(all(h.endswith(", µs") for h in tables(summ)), "%s --time-unit us: headings in µs" % name)
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
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
