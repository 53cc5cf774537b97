#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The HTML report in a real browser: headless Chromium opens the report of
every real capture and a few made ones, with #iws-selftest: the page plays
a user (hover, wheel, drag, double-click, a click on the slowest table) and
checks each step (data-iws-selftest), and

- the page's script must finish (body[data-iws-done]) without an error: a
  JavaScript exception, an error on the console, or a chart left empty
  although the data has something to draw (the page checks that itself and
  sets body[data-iws-error]);
- a histogram only for 20 samples or more (every card's "N samples" >= 20),
  fewer listed in a table, each list of fewer than 20 samples; the NVMe
  ladder table has a row per queue/type distribution and per all-queue row;
- every chart the data can fill must have drawn something
  (body[data-iws-charts]): the timeline, the throughput and goodput, the
  latency histograms, the NVMe-oF section, the time-sequence views of the
  QPs that lost segments, the slowest tables.

Screenshots of the pages people look at first (a lossy capture, NVMe-oF, a
bandwidth run) are kept in WORKDIR. Exits 77 (skipped) without Chromium.
One Chromium run costs seconds: PART/PARTS runs every PARTS-th sample, so
the work splits into tests that each stay short.

Usage: browser_test.py IWARPSCOPE ROOT WORKDIR [PART PARTS]
"""
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys

from reportlib import page_data, report, sample_name

GENERATED = ["samples/generated/multi-qp.pcap", "samples/generated/gap.pcap",
             "samples/generated/terminate.pcap", "samples/generated/atomics.pcap",
             "samples/generated/reject-v1.pcap", "samples/generated/nvmeof.pcap"]
SHOTS = ["real-26-netem-read_bw-64k", "real-30-nvmeof-mixed", "real-08-read_bw-64k"]
# a report of a time window (--since/--until): its charts span the window
WINDOWED = {"samples/real/26-netem-read_bw-64k.pcap": ["--since", "+0.35", "--until", "+0.55"]}
BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


def chromium(browser, work, url, *args):
    """Run headless; (stdout, stderr). A profile of its own in work (one per
    process: the parts may run at once), so runs do not share state;
    --no-sandbox because tests may run as root."""
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--hide-scrollbars", "--user-data-dir=" + os.path.join(work, "profile-%d" % os.getpid()),
           "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", *args, url]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
    return p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def console_errors(log):
    """What the page said on the console (Chromium's CONSOLE log lines): it
    says nothing when all is well, so anything is a failure."""
    return [l for l in log.splitlines() if ":CONSOLE" in l]


def body_attrs(dom):
    m = re.search(r"<body([^>]*)>", dom)
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', m.group(1) if m else "")}


def main(argv):
    tool, root, work = argv[1], argv[2], argv[3]
    part, parts = (int(argv[4]), int(argv[5])) if len(argv) > 5 else (0, 1)
    browser = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not browser:
        print("SKIP: no Chromium (apt-get install chromium)")
        return 77
    os.makedirs(work, exist_ok=True)
    real = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "samples", "real", "*.pcap*")))
    samples = [(s, []) for s in real + GENERATED] + [(s, w) for s, w in sorted(WINDOWED.items())]
    samples = samples[part::parts]
    failures = []
    for sample, extra in samples:
        name = sample_name(sample) + ("-window" if extra else "")
        page = os.path.join(os.path.abspath(work), name + ".html")
        d = page_data(report(tool, root, sample, page, *extra))
        url = "file://" + page
        dom, log = chromium(browser, work, url + "#iws-selftest", "--dump-dom")
        attrs = body_attrs(dom)
        problems = []
        if attrs.get("data-iws-done") != "1":
            problems.append("the script did not finish")
        if attrs.get("data-iws-error"):
            m = re.search(r'<pre id="iws-errors"[^>]*>(.*?)</pre>', dom, re.S)
            problems.append("the page reports: " + html.unescape(m.group(1) if m else "?").strip())
        problems += ["console: " + l for l in console_errors(log)]
        charts = {}
        try:
            charts = json.loads(attrs.get("data-iws-charts", "{}"))
        except ValueError:
            problems.append("data-iws-charts is not JSON")
        wire = any(any(q["series"]["wire_i2r"]) or any(q["series"]["wire_r2i"]) for q in d["qps"])
        want = {"timeline": d["ops"]["total"], "rate": d["ops"]["total"], "throughput": wire,
                "goodput": any(any(q["series"]["goodput_i2r"]) or any(q["series"]["goodput_r2i"]) for q in d["qps"]),
                "latency": any(x["kind"] == "latency" for q in d["qps"] for x in q.get("dists") or []),
                "nvme": any(q.get("nvme") and q["nvme"]["dists"] for q in d["qps"]),
                "tseq": any(q.get("tseq") for q in d["qps"]),
                "slowest": d["slowest"]["waits"] or d["slowest"]["deliveries"]}
        for c, w in want.items():
            if w and not charts.get(c):
                problems.append("empty chart: " + c)
        drawn = [int(n) for n in re.findall(r"<h4>[^<]* · ([\d,]+) samples?</h4>", dom) for n in [n.replace(",", "")]]
        if any(n < 20 for n in drawn):
            problems.append("a histogram of fewer than 20 samples: %s" % sorted(drawn)[:5])
        listed = re.findall(r'<td class="why few-samples">(.*?)</td>', dom)
        if any(len(x.split(", ")) >= 20 for x in listed):
            problems.append("a list of 20 samples or more instead of a histogram")
        rows = sum(len(q["nvme"]["dists"]) for q in d["qps"] if q.get("nvme")) + len(d.get("nvme_all", []))
        ladder = re.search(r'<div id="nvme-ladder">(.*?)</div>', dom, re.S)
        if rows and (not ladder or ladder.group(1).count("<tr>") != rows + 1):
            problems.append("the NVMe ladder table: %s rows for %d distributions" %
                            (ladder and ladder.group(1).count("<tr>") - 1, rows))
        # the RPC section: one row per procedure and per slow RPC, shown
        rpc = d.get("rpc")
        for div, n in (("rpc-procs", len(rpc["procs"]) if rpc else 0), ("rpc-slowest", len(rpc["slowest"]) if rpc else 0)):
            m = re.search(r'<div id="%s">(.*?)</div>' % div, dom, re.S)
            if n and (not m or m.group(1).count("<tr") != n + 1):
                problems.append("the RPC table %s: %s rows for %d" % (div, m and m.group(1).count("<tr") - 1, n))
        if rpc and re.search(r'<section id="rpc" hidden', dom):
            problems.append("the RPC section hidden")
        if d["qps"] and attrs.get("data-iws-selftest") != "ok":
            problems.append("the self-test did not pass")
        if extra:
            # the page opens on the window, not the whole capture
            m = re.search(r'id="zoom-range"[^>]*>([^<]*)<', dom)
            if not d["capture"].get("window") or not m or "of the window" not in m.group(1):
                problems.append("a windowed report does not show its window: %r" % (m.group(1) if m else None))
        if name in SHOTS:
            shot = os.path.join(work, name + ".png")
            chromium(browser, work, url, "--window-size=1400,4000", "--screenshot=" + shot)
            if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
                problems.append("no screenshot, or a blank one: " + shot)
        print("%-4s %s %s" % ("ok" if not problems else "FAIL", name, charts))
        failures += ["%s: %s" % (name, p) for p in problems]
    shutil.rmtree(os.path.join(work, "profile-%d" % os.getpid()), ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("screenshots in", os.path.abspath(work))
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
