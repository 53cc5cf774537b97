#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The HTML report in a real browser: headless Chromium opens the report of
each sample and

- the page's script must finish (body[data-iws-done]) without an error: a
  JavaScript exception, an error on the console, or a chart left empty
  although the data has something to draw (the page checks that itself and
  sets body[data-iws-error]);
- every chart the data can fill must have drawn something
  (body[data-iws-charts]);
- with #iws-selftest the page plays a user (hover, wheel, drag, double-click,
  a click on the slowest table) and checks each step (data-iws-selftest).

Screenshots of each page, as loaded and after the self-test (zoomed), are
kept in WORKDIR for people to look at. Exits 77 (skipped) without Chromium.

Usage: browser_test.py IWARPSCOPE ROOT WORKDIR
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys

from reportlib import page_data, report, sample_name

SAMPLES = ["samples/real/01-rping.pcap", "samples/real/26-netem-read_bw-64k.pcap",
           "samples/real/27-kill-client-write_bw-tail.pcap", "samples/real/30-nvmeof-mixed.pcap",
           "samples/generated/multi-qp.pcap", "samples/generated/gap.pcap",
           "samples/generated/terminate.pcap", "samples/generated/atomics.pcap",
           "samples/generated/reject-v1.pcap"]
BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


def chromium(browser, work, url, *args):
    """Run headless; (stdout, stderr). A profile of its own in work, so runs
    do not share state; --no-sandbox because tests may run as root."""
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--hide-scrollbars", "--user-data-dir=" + os.path.join(work, "profile"),
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
    browser = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not browser:
        print("SKIP: no Chromium (apt-get install chromium)")
        return 77
    os.makedirs(work, exist_ok=True)
    failures = []
    for sample in SAMPLES:
        name = sample_name(sample)
        page = os.path.join(os.path.abspath(work), name + ".html")
        d = page_data(report(tool, root, sample, page))
        url = "file://" + page
        for variant, hash_ in (("", ""), ("-selftest", "#iws-selftest")):
            dom, log = chromium(browser, work, url + hash_, "--dump-dom")
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
            if d["ops"]["total"]:
                for c in ("timeline", "throughput", "rate"):
                    if not charts.get(c):
                        problems.append("empty chart: " + c)
            if d["all"]["dists"] or any(q.get("dists") for q in d["qps"]):
                if not charts.get("latency"):
                    problems.append("empty chart: latency")
            if d["slowest"] and not charts.get("slowest"):
                problems.append("empty table: slowest")
            if hash_ and d["qps"] and attrs.get("data-iws-selftest") != "ok":
                problems.append("the self-test did not pass")
            shot = os.path.join(work, name + variant + ".png")
            chromium(browser, work, url + hash_, "--window-size=1400,3200", "--screenshot=" + shot)
            if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
                problems.append("no screenshot, or a blank one: " + shot)
            status = "ok" if not problems else "FAIL"
            print("%-4s %s%s %s" % (status, name, variant, charts))
            failures += ["%s%s: %s" % (name, variant, p) for p in problems]
    for f in failures:
        print("FAIL:", f)
    print("screenshots in", os.path.abspath(work))
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
