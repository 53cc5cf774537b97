#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's statistics dialogs in Wireshark's Qt GUI (issue 16 item 3).

Starts `wireshark -r CAPTURE -z iwarp,table` (or `-z iwarp,nvme_table`) under
xvfb-run with the plugin, as an unprivileged user (Wireshark ignores personal
plugins for root), waits for the dialog, presses its "Copy" button (found from
the dialog's geometry with xdotool), reads the table's text from the clipboard
(xclip) and checks it against `iwarpscope stats --format json` on the same
capture:
  - operations: every QP/operation row and every whole-capture row (QP empty)
    with count, complete, bytes (integers), the latency min/mean/p50/p99/max
    where the CLI has one and no latency cell where it has none, the
    retransmissions, the stall and the ACK (delivery) p50/p99; a per-QP "all"
    row and a whole-capture "all" row with the summed count, complete, bytes;
  - NVMe-oF: every QP/queue/command row with count, complete, errors, bytes,
    IOPS and the latency.
A screenshot of the screen with the dialog is kept (--shot).

Usage: gui.py --plugin SO --cli BIN [--table ops|nvme] [--shot PNG] CAPTURE
Exit: 0 pass, 1 fail, 77 skipped (wireshark, xvfb-run, xdotool or xclip absent).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

# The dialog's Copy button, from the dialog's bottom-right corner (Wireshark
# 4.0 Qt under Xvfb: Copy, Save as..., Close in the button box).
COPY_FROM_RIGHT, COPY_FROM_BOTTOM = 235, 23

SCRIPT = r"""#!/bin/sh
export HOME="$1"
wireshark -r "$2" -z "$3" >"$HOME/wireshark.log" 2>&1 &
WS=$!
W=
for i in $(seq 1 120); do
  W=$(xdotool search --name "$4" 2>/dev/null | head -1)
  [ -n "$W" ] && break
  sleep 0.5
done
if [ -z "$W" ]; then kill $WS; exit 3; fi
sleep 3
eval "$(xdotool getwindowgeometry --shell "$W")"
xdotool windowactivate --sync "$W" >/dev/null 2>&1
xdotool mousemove $((X + WIDTH - $5)) $((Y + HEIGHT - $6)) click 1
sleep 1
xclip -o -selection clipboard >"$HOME/clip.txt" 2>/dev/null
import -window root "$HOME/shot.png" 2>/dev/null
kill $WS
wait $WS 2>/dev/null
exit 0
"""


def us(ns):
    """A time as the dialog shows it: milliseconds with 3 decimals (rounded to the
    microsecond, half away from zero), as Wireshark's service response time tables."""
    a = (abs(ns) + 500) // 1000
    return "%s%d.%03d" % ("-" if ns < 0 and a else "", a // 1000, a % 1000)


def dist5(d):
    return [us(d[k]) for k in ("min", "mean", "p50", "p99", "max")] if d else []


def run_dialog(plugin, capture, zarg, title, shot):
    home = tempfile.mkdtemp(prefix="iws-gui-")
    try:
        os.chmod(home, 0o777)
        pdir = os.path.join(home, ".local/lib/wireshark/plugins/4.0/epan")
        os.makedirs(pdir)
        # An empty global plugin directory: a copy installed system-wide
        # (the .deb, scripts/quickstart as root) would be loaded twice.
        gdir = os.path.join(home, "global-plugins")
        os.makedirs(gdir)
        shutil.copy(plugin, pdir)
        cap = os.path.join(home, os.path.basename(capture))
        shutil.copy(capture, cap)
        script = os.path.join(home, "run.sh")
        with open(script, "w") as f:
            f.write(SCRIPT)
        for d, _, files in os.walk(home):
            os.chmod(d, 0o777)
            for x in files:
                os.chmod(os.path.join(d, x), 0o755)
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", "sh", script, home, cap, zarg, title,
               str(COPY_FROM_RIGHT), str(COPY_FROM_BOTTOM)]
        cmd = ["env", "WIRESHARK_PLUGIN_DIR=" + gdir] + cmd
        if os.geteuid() == 0:
            cmd = NOBODY + ["env", "HOME=" + home] + cmd
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180, cwd="/")
        if shot and os.path.exists(os.path.join(home, "shot.png")):
            shutil.copy(os.path.join(home, "shot.png"), shot)
        if p.returncode == 3:
            log = open(os.path.join(home, "wireshark.log")).read()[-1500:]
            raise RuntimeError("the dialog %r never opened; wireshark said:\n%s" % (title, log))
        clip = os.path.join(home, "clip.txt")
        return open(clip, encoding="utf-8", errors="replace").read() if os.path.exists(clip) else ""
    finally:
        shutil.rmtree(home, ignore_errors=True)


def table_rows(text):
    """The rows of the copied table: lists of words between the dashed lines."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("---"):
            inside = not inside
            continue
        if inside and line.strip():
            rows.append(line.split())
    return rows


def check_ops(text, js):
    rows = table_rows(text)
    if not rows:
        raise AssertionError("no table rows in the copied text:\n" + text[:2000])
    have = {}
    for w in rows:
        qp = int(w[0]) if w[0].isdigit() and len(w) > 1 and not w[1].isdigit() else None
        rest = w[1:] if qp is not None else w
        have[(qp, rest[0])] = rest[1:]
    errs = []

    def want_row(st):
        d = st.get("delivery_ns")
        return ([str(st["count"]), str(st["complete"]), str(st["bytes"])], dist5(st.get("latency_ns")),
                [str(st["retransmissions"]), us(st["stall_ns"])] +
                ([us(d["p50"]), us(d["p99"])] if d else []))

    def cmp(key, st):
        got = have.get(key)
        if got is None:
            errs.append("%s: no row" % (key,))
            return
        head, lat, tail = want_row(st)
        # count complete bytes throughput [latency x5] retrans stall [ack p50 p99]: a
        # row without latency or ACK has no such cells (no "0.000000")
        if got[:3] != head:
            errs.append("%s: count/complete/bytes %s, CLI %s" % (key, got[:3], head))
        if len(got) < 4 or not got[3].isdigit():
            errs.append("%s: throughput %s not an integer" % (key, got[3:4]))
        if got[4:4 + len(lat)] != lat or got[4 + len(lat):] != tail:
            errs.append("%s: latency/retransmissions/stall/ack %s, CLI %s" % (key, got[4:], lat + tail))
    n = 0
    for qd in js["qps"]:
        tot = dict(count=0, complete=0, bytes=0)
        for op, st in qd.get("ops", {}).items():
            if not st["count"]:
                continue
            cmp((qd["qp"], op), st)
            n += 1
            for k in tot:
                tot[k] += st[k]
        if tot["count"]:
            got = have.get((qd["qp"], "all"))
            w = [str(tot["count"]), str(tot["complete"]), str(tot["bytes"])]
            if not got or got[:3] != w:
                errs.append("qp %d all: %s, CLI %s" % (qd["qp"], got and got[:3], w))
    tot = dict(count=0, complete=0, bytes=0)
    for op, st in js["total"]["ops"].items():
        if not st["count"]:
            continue
        cmp((None, op), st)
        n += 1
        for k in tot:
            tot[k] += st[k]
    got = have.get((None, "all"))
    w = [str(tot["count"]), str(tot["complete"]), str(tot["bytes"])]
    if not got or got[:3] != w:
        errs.append("capture all: %s, CLI %s" % (got and got[:3], w))
    if errs:
        raise AssertionError("\n".join(errs) + "\n--- copied text ---\n" + text[:3000])
    return "%d operation rows, per-QP and capture totals equal the CLI's stats" % n


def check_nvme(text, js):
    rows = table_rows(text)
    have = {}
    for w in rows:
        # QP Qid Command Count Complete Errors Bytes [IOPS] [latency x5] [data p50 p99]
        if len(w) >= 7 and w[0].isdigit() and w[1].isdigit():
            have[(int(w[0]), int(w[1]), w[2])] = w[3:]
    errs, n = [], 0
    for qd in js["qps"]:
        for st in qd.get("nvme", {}).get("ops", []):
            if st["qid"] is None or st["qid"] < 0:
                continue
            key = (qd["qp"], st["qid"], st["op"])
            # IOPS over fewer than 10 commands is an empty cell (docs/semantics.md)
            want = [str(st[k]) for k in ("count", "complete", "errors", "bytes")] + (
                [str(st["iops"])] if st["iops"] is not None else []) + dist5(st["latency_ns"])
            got = have.get(key)
            n += 1
            if not got or got[:len(want)] != want:
                errs.append("%s: %s, CLI %s" % (key, got, want))
    if not n:
        raise AssertionError("the CLI has no NVMe-oF commands on this capture")
    if errs:
        raise AssertionError("\n".join(errs) + "\n--- copied text ---\n" + text[:3000])
    return "%d NVMe-oF rows equal the CLI's stats" % n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--table", choices=("ops", "nvme"), default="ops")
    ap.add_argument("--shot", default=None, help="keep a screenshot here")
    ap.add_argument("capture")
    a = ap.parse_args()
    missing = [t for t in ("wireshark", "xvfb-run", "xdotool", "xclip") if not shutil.which(t)]
    if missing:
        print("SKIP: not installed: %s (apt-get install wireshark-qt xvfb xdotool xclip)" % " ".join(missing))
        return SKIP
    js = json.loads(subprocess.run([a.cli, "stats", "--format", "json", a.capture], stdout=subprocess.PIPE,
                                   check=True, env=dict(os.environ, TZ="UTC")).stdout)
    zarg, title = (("iwarp,table", "iWARP Operations") if a.table == "ops" else
                   ("iwarp,nvme_table", "iWARP NVMe-oF Commands"))
    try:
        text = run_dialog(a.plugin, a.capture, zarg, title, a.shot)
        if not text.strip():
            raise AssertionError("the clipboard is empty: the Copy button was not where expected "
                                 "(see the screenshot %s)" % a.shot)
        msg = check_ops(text, js) if a.table == "ops" else check_nvme(text, js)
    except (AssertionError, RuntimeError, subprocess.TimeoutExpired) as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS: Wireshark's dialog: " + msg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
