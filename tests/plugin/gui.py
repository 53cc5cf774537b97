#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's statistics dialogs in Wireshark's Qt GUI (issue 16 item 3,
issue 21 item 5).

Starts `wireshark -r CAPTURE -z iwarp,TABLE ...` under xvfb-run with the
plugin, as an unprivileged user (Wireshark ignores personal plugins for root),
and for every dialog:

  1. Nothing is cut at the size Wireshark opens it (two thirds of its main
     window: 587 x 459 by default). The dialog is captured at that size and
     again stretched to 1500 pixels wide. Wireshark sizes every column but
     the last to its contents and stretches the last, so a table that fits
     looks the same in both, but for a run of one colour (the stretched part
     of the last column, of the filter field) that is wider in the wide
     picture: every pixel row of the small picture must be the wide one's with
     one uniform run shortened. A column behind a scroll bar (its text is in
     the wide picture only) or an elided last column ("12.3…") fails that.
  2. Its numbers are those of the text statistics: the Copy button's text
     (read from the clipboard with xclip) has the expected headers, every time
     in ms with 3 decimals, and every row equal to `tshark -z iwarp,ops` /
     `-z iwarp,nvme` on the same capture (per QP and type, and its "All
     queues" rows of the types more than one queue has: QP and Qid "all");
     the per-QP "all"
     rows, the whole capture's rows (QP "all") and the throughput (Mbit/s,
     bytes over the first start to last end of the row's own operations: a
     type's in its QP or across QPs, a QP's, the capture's) are recomputed from
     `iwarpscope stats --format json` and `ops --format jsonl`, the CLI the
     text statistics are proven equal to (plugin_agree_*).

A PNG of each dialog at its default size is kept (--shot PREFIX.png:
PREFIX-TABLE.png).

Usage: gui.py --plugin SO --cli BIN [--table ops|nvme|all] [--shot PREFIX.png] CAPTURE [TABLE...]
       TABLE: ops_latency | ops_throughput | nvme_latency | nvme_throughput
       (--table: the operations dialogs, the NVMe-oF ones or all four; default ops)
Exit: 0 pass, 1 fail, 77 skipped (wireshark, xvfb-run, xdotool, xclip or
ImageMagick's import absent).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import iwarp_tshark as it  # noqa: E402

SKIP = 77
NOBODY = it.NOBODY

# The dialogs: -z name -> (window title, column headers); plugin/iwarp-stats.c.
TABLES = {
    "ops_latency": ("iWARP Operation Latency",
                    ["QP", "Operation", "Count", "Done", "Min ms", "p50 ms", "p99 ms", "Max ms"]),
    "ops_throughput": ("iWARP Throughput and Loss",
                       ["QP", "Operation", "Bytes", "Mbit/s", "Retrans", "Stall ms", "CRC errors"]),
    "ops_delivery": ("iWARP Delivery to ACK", ["QP", "Operation", "Acked", "Min ms", "p50 ms", "p99 ms", "Max ms"]),
    "nvme_latency": ("iWARP NVMe-oF Command Latency",
                     ["QP", "Qid", "Command", "Count", "Done", "Min ms", "p50 ms", "p99 ms", "Max ms"]),
    "nvme_throughput": ("iWARP NVMe-oF Throughput and Errors",
                        ["QP", "Qid", "Command", "Errors", "Bytes", "IOPS", "Data p50 ms", "Data p99 ms"]),
}

# The Copy and Apply buttons, from the dialog's bottom-right corner (Wireshark
# 4.0 Qt under Xvfb: "Display filter: [...] Apply" above Copy, Save as..., Close).
COPY_FROM_RIGHT, COPY_FROM_BOTTOM = 235, 23
APPLY_FROM_RIGHT, APPLY_FROM_BOTTOM = 52, 55
WIDE = 1500

SCRIPT = r"""#!/bin/sh
# run.sh HOME CAPTURE COPY_DX COPY_DY APPLY_DX APPLY_DY WIDE TITLE... (-z arguments in $HOME/zargs)
export HOME="$1"; CAP="$2"; CDX="$3"; CDY="$4"; ADX="$5"; ADY="$6"; WIDE="$7"; shift 7
wireshark -r "$CAP" $(cat "$HOME/zargs") >"$HOME/wireshark.log" 2>&1 &
WS=$!
# copy X Y FILE: press Copy at X Y until two copies agree (the table is
# complete once a retap is over, however loaded the machine)
copy() {
  prev=
  for k in $(seq 1 12); do
    xdotool mousemove "$1" "$2" click 1
    sleep 0.5
    cur=$(xclip -o -selection clipboard 2>/dev/null)
    [ -n "$cur" ] && [ "$cur" = "$prev" ] && break
    prev=$cur
    sleep 1
  done
  printf '%s\n' "$cur" >"$3"
}
i=0
for T in "$@"; do
  W=
  for k in $(seq 1 120); do
    W=$(xdotool search --name "$T" 2>/dev/null | head -1)
    [ -n "$W" ] && break
    sleep 0.5
  done
  if [ -z "$W" ]; then kill $WS; exit 3; fi
  echo "$W" >"$HOME/win$i"
  i=$((i + 1))
done
sleep 3
i=0
for T in "$@"; do
  W=$(cat "$HOME/win$i")
  xdotool windowmove "$W" 10 10 windowraise "$W"
  sleep 0.5
  eval "$(xdotool getwindowgeometry --shell "$W")"
  echo "$WIDTH $HEIGHT" >"$HOME/geom$i"
  # Apply: the dialogs opened together retapped together, and all but one
  # came out empty; one at a time each is filled (again)
  xdotool mousemove $((X + WIDTH - ADX)) $((Y + HEIGHT - ADY)) click 1
  sleep 1
  copy $((X + WIDTH - CDX)) $((Y + HEIGHT - CDY)) "$HOME/clip$i.txt"
  # the pointer away, so that no button is drawn hovered in either picture
  xdotool mousemove 0 999
  sleep 0.3
  import -window "$W" -depth 8 "$HOME/small$i.ppm"
  import -window "$W" "$HOME/small$i.png"
  xdotool windowsize "$W" "$WIDE" "$HEIGHT"
  sleep 1
  import -window "$W" -depth 8 "$HOME/wide$i.ppm"
  # the dialog again with a display filter (one dialog): fewer rows, none
  # left from before
  if [ "$i" = "$(cat "$HOME/filter_dialog")" ]; then
    xdotool mousemove $((X + 200)) $((Y + HEIGHT - ADY)) click 1
    xdotool type "$(cat "$HOME/filter")"
    sleep 1  # the field checks the filter, and enables Apply, once typed
    # Apply twice: the first click may only close the field's completion popup
    xdotool mousemove $((X + WIDE - ADX)) $((Y + HEIGHT - ADY)) click 1
    sleep 1
    xdotool click 1
    sleep 1
    copy $((X + WIDE - CDX)) $((Y + HEIGHT - CDY)) "$HOME/filtered.txt"
    import -window "$W" "$HOME/filtered.png"
  fi
  i=$((i + 1))
done
kill $WS
wait $WS 2>/dev/null
exit 0
"""


def ms(ns):
    """A time as every table shows it: milliseconds with 3 decimals (rounded to the
    microsecond, half away from zero)."""
    a = (abs(ns) + 500) // 1000
    return "%s%d.%03d" % ("-" if ns < 0 and a else "", a // 1000, a % 1000)


def read_ppm(path):
    """(width, height, rows of bytes) of a binary PPM (P6, maxval 255)."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise RuntimeError("%s: not an 8-bit binary PPM (%r)" % (path, data[:20]))
    w, h = int(fields[1]), int(fields[2])
    pos += 1
    return w, h, [data[pos + y * w * 3:pos + (y + 1) * w * 3] for y in range(h)]


def stretch_spare(small, wide):
    """How far a pixel row of the small picture is the wide one's with one uniform
    run shortened: the spare width of that run in the small picture (>= 0), or
    None when no such run exists (something is cut or drawn differently)."""
    ws, ww = len(small) // 3, len(wide) // 3
    dw = ww - ws
    px = lambda row, x: row[3 * x:3 * x + 3]  # noqa: E731
    left = 0  # small[:left] == wide[:left]
    while left < ws and px(small, left) == px(wide, left):
        left += 1
    right = ws  # small[right:] == wide[right + dw:]
    while right > 0 and px(small, right - 1) == px(wide, right - 1 + dw):
        right -= 1
    # a split s in [right, left] whose wide[s:s + dw] is one colour; the run
    # of that colour around it in the small picture is the spare width
    best = None
    x = 0
    while x < ww:
        end = x + 1
        while end < ww and px(wide, end) == px(wide, x):
            end += 1
        lo, hi = max(x, right), min(end - dw, left)
        if end - x >= dw and lo <= hi:
            spare = end - x - dw
            best = spare if best is None else max(best, spare)
        x = end
    return best


def check_fit(small_ppm, wide_ppm):
    """(spare pixels of the tightest pixel row, problem or None)."""
    w1, h1, small = read_ppm(small_ppm)
    w2, h2, wide = read_ppm(wide_ppm)
    if h1 != h2 or w2 <= w1:
        return None, "the dialog was not stretched (%dx%d, then %dx%d)" % (w1, h1, w2, h2)
    spare, bad = None, []
    for y in range(h1):
        s = stretch_spare(small[y], wide[y])
        if s is None:
            bad.append(y)
        elif small[y] != wide[y][:len(small[y])]:  # rows with content only
            spare = s if spare is None else min(spare, s)
    if bad:
        return spare, ("%d pixel rows of the %dx%d dialog are not those of the wide one with a blank run "
                       "shortened (first y=%d, last y=%d): a column is cut or elided" % (len(bad), w1, h1, bad[0],
                                                                                         bad[-1]))
    return spare, None


def run_wireshark(plugin, capture, names, shot, filt=None):
    """{name: (copied text, (width, height), spare pixels, fit problem)}, and the
    text copied from the ops_latency dialog with the display filter filt."""
    home = tempfile.mkdtemp(prefix="iws-gui-", dir="/tmp")
    try:
        os.chmod(home, 0o777)
        pdir = it.personal_plugin_dir(home)
        os.makedirs(pdir)
        # An empty global plugin directory: a copy installed system-wide
        # (the .deb, scripts/quickstart as root) would be loaded twice.
        gdir = os.path.join(home, "global-plugins")
        os.makedirs(gdir)
        shutil.copy(plugin, pdir)
        cap = os.path.join(home, os.path.basename(capture))
        shutil.copy(capture, cap)
        with open(os.path.join(home, "zargs"), "w") as f:
            f.write(" ".join("-z iwarp,%s" % n for n in names))
        with open(os.path.join(home, "filter"), "w") as f:
            f.write(filt or "")
        with open(os.path.join(home, "filter_dialog"), "w") as f:
            f.write(str(names.index("ops_latency")) if filt and "ops_latency" in names else "-1")
        script = os.path.join(home, "run.sh")
        with open(script, "w") as f:
            f.write(SCRIPT)
        for d, _, files in os.walk(home):
            os.chmod(d, 0o777)
            for x in files:
                os.chmod(os.path.join(d, x), 0o755)
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", "sh", script, home, cap, str(COPY_FROM_RIGHT),
               str(COPY_FROM_BOTTOM), str(APPLY_FROM_RIGHT), str(APPLY_FROM_BOTTOM), str(WIDE)] + [TABLES[n][0] for n in names]
        cmd = ["env", "WIRESHARK_PLUGIN_DIR=" + gdir] + cmd
        if os.geteuid() == 0:
            cmd = NOBODY + ["env", "HOME=" + home] + cmd
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240, cwd="/")
        if p.returncode == 3:
            log = open(os.path.join(home, "wireshark.log")).read()[-1500:]
            raise RuntimeError("a dialog of %s never opened; wireshark said:\n%s" % (", ".join(names), log))
        res = {}
        for i, n in enumerate(names):
            f = lambda x: os.path.join(home, x % i)  # noqa: E731
            if not os.path.exists(f("wide%d.ppm")):
                raise RuntimeError("no picture of the dialog %s (%s)" % (n, p.stderr.decode()[-800:]))
            if shot:
                shutil.copy(f("small%d.png"), "%s-%s.png" % (re.sub(r"\.png$", "", shot), n))
            geom = tuple(int(x) for x in open(f("geom%d")).read().split())
            clip = open(f("clip%d.txt"), encoding="utf-8", errors="replace").read() \
                if os.path.exists(f("clip%d.txt")) else ""
            spare, problem = check_fit(f("small%d.ppm"), f("wide%d.ppm"))
            res[n] = (clip, geom, spare, problem)
        filtered = None
        if filt and "ops_latency" in names:
            p = os.path.join(home, "filtered.txt")
            filtered = open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""
            if shot:
                shutil.copy(os.path.join(home, "filtered.png"), "%s-ops_latency-filtered.png" %
                            re.sub(r"\.png$", "", shot))
        return res, filtered
    finally:
        shutil.rmtree(home, ignore_errors=True)


def copied_table(text, title):
    """(header line, rows as lists of words) of the Copy button's text: a line of
    '=', "TITLE - FILE:", the header, a line of '-', the rows, a line of '-'."""
    lines = text.splitlines()
    if len(lines) < 4 or not lines[1].startswith(title + " - "):
        raise AssertionError("the clipboard does not hold the %r table (was Copy pressed?):\n%s" %
                             (title, text[:1000]))
    rows = []
    for line in lines[4:]:
        if line.startswith("---"):
            break
        rows.append(line.split())  # an empty row too: rows left over from before show so
    return lines[2], rows


class Expected:
    """What each dialog must show, from the text statistics and the CLI."""

    def __init__(self, runner, cap, cli, capture):
        ops = runner.run(["-q", "-r", cap, "-z", "iwarp,ops"])
        nvme = runner.run(["-q", "-r", cap, "-z", "iwarp,nvme"])
        # per QP: the operations table (13 columns), the Delivery to ACK table
        # (11), the NVMe-oF commands (14) and their data phase (9); header rows
        # (whose last column is "Max(ms)") left out
        rows = lambda text, n, first: [(q, p) for q, p in it.qp_rows(text, n, first)[1]  # noqa: E731
                                       if p[-1] != "Max(ms)"]
        self.ops = rows(ops, 13, "Operation")
        self.delivery = rows(ops, 11, "Delivery")
        # with the text's "All queues" rows (QP and Qid "all") of the command
        # types more than one queue has (one queue's is its "all" row)
        per_queue = [(q, p) for q, p in rows(nvme, 14, "Qid") if q != "all"]
        queues = {op: sum(1 for _, p in per_queue if p[1] == op) for op in set(p[1] for _, p in per_queue)}
        keep = lambda q, p: q != "all" or queues.get(p[1], 0) > 1  # noqa: E731
        self.nvme = [(q, p) for q, p in rows(nvme, 14, "Qid") if keep(q, p)]
        self.data = [(q, p) for q, p in rows(nvme, 9, "Qid") if keep(q, p)]
        self.nvme_all = sum(1 for q, _ in self.nvme if q == "all")
        env = dict(os.environ, TZ="UTC")
        self.js = json.loads(subprocess.run([cli, "stats", "--format", "json", capture], stdout=subprocess.PIPE,
                                            check=True, env=env).stdout)
        # each QP's (and the capture's) first start and last end, as the tables
        # take them: RTR messages left out, a start of 0 (unknown) too
        self.span = {}
        out = subprocess.run([cli, "ops", "--format", "jsonl", capture], stdout=subprocess.PIPE, check=True,
                             env=env).stdout.decode()
        for line in out.splitlines():
            o = json.loads(line)
            if o.get("rtr"):
                continue
            # a row's span: its own operations' (docs/semantics.md), per QP
            # and type, per QP, and across QPs per type and in all
            for key in (o["qp"], "all", (o["qp"], o["op"]), ("all", o["op"])):
                a, b = self.span.get(key, (0, 0))
                if o["start_ns"] and (not a or o["start_ns"] < a):
                    a = o["start_ns"]
                self.span[key] = (a, max(b, o["end_ns"]))

    def rate(self, qp, nbytes):
        a, b = self.span.get(qp, (0, 0))
        return "%.3f" % (float(nbytes) * 8e3 / float(b - a)) if b - a > 0 else "-"

    @staticmethod
    def dist(d, keys):
        return [ms(d[k]) for k in keys] if d else ["-"] * len(keys)

    def ops_rows(self, table):
        """{(QP, operation): expected cells after those two}."""
        want = {}
        for qp, p in self.ops:
            d = [r for q, r in self.delivery if q == qp and r[0] == p[0]]
            if len(d) != 1:
                raise AssertionError("QP %d %s: no single Delivery to ACK row in -z iwarp,ops" % (qp, p[0]))
            d = d[0]
            if table == "ops_latency":
                # Count Complete, then Min P50 P99 Max of the 7 quantiles
                want[(str(qp), p[0])] = [p[1], p[2], p[6], p[8], p[10], p[12]]
            elif table == "ops_throughput":
                # Bytes, Mbit/s, Retrans, Stall, CRC errors
                want[(str(qp), p[0])] = [p[3], self.rate((qp, p[0]), int(p[3])), d[1], d[2], p[5]]
            else:
                # Acked, Min P50 P99 Max of the delivery time
                want[(str(qp), p[0])] = [d[3], d[4], d[6], d[8], d[10]]
        # the "all" rows: sums over the types (from the CLI's ns: a sum of rounded
        # stalls would differ), no distribution; the capture's rows from its total
        blocks = [(str(q["qp"]), q["qp"], q.get("ops", {})) for q in self.js["qps"]]
        blocks.append(("all", "all", self.js["total"]["ops"]))
        for label, key, ops in blocks:
            s = dict(count=0, complete=0, bytes=0, retransmissions=0, stall_ns=0, crc_errors=0, acked=0)
            for op, st in ops.items():
                if not st["count"]:
                    continue
                st = dict(st, acked=st["delivery_ns"]["count"] if st.get("delivery_ns") else 0)
                for k in s:
                    s[k] += st[k]
                if label == "all":
                    want[(label, op)] = self.ops_cells(table, (key, op), st, st.get("latency_ns"),
                                                       st.get("delivery_ns"))
            if s["count"]:
                want[(label, "all")] = self.ops_cells(table, key, s, None, None)
        return want

    def filtered_latency_rows(self, runner, cap, qp):
        """The ops_latency rows of the display filter "tcp.stream == qp": that QP's rows
        of `-z iwarp,ops,FILTER`, its "all" row, and the same as the capture's. (Not
        iwarp.rdmap.qp: an operation is counted in the frame that reports it, often
        the peer's ACK, which has no RDMAP header.)"""
        text = runner.run(["-q", "-r", cap, "-z", "iwarp,ops,tcp.stream==%d" % qp])
        want, n = {}, [0, 0]
        for q, p in it.qp_rows(text, 13, "Operation")[1]:
            if p[-1] == "Max(ms)":
                continue
            if q != qp:
                raise AssertionError("-z iwarp,ops,tcp.stream==%d has QP %d" % (qp, q))
            want[(str(qp), p[0])] = want[("all", p[0])] = [p[1], p[2], p[6], p[8], p[10], p[12]]
            n = [n[0] + int(p[1]), n[1] + int(p[2])]
        if n[0]:
            want[(str(qp), "all")] = want[("all", "all")] = [str(n[0]), str(n[1])] + ["-"] * 4
        return want

    def ops_cells(self, table, key, st, lat, dlv):
        """The cells after QP and operation of a row from the CLI's sums and distributions."""
        q4 = ("min", "p50", "p99", "max")
        if table == "ops_latency":
            return [str(st["count"]), str(st["complete"])] + self.dist(lat, q4)
        if table == "ops_throughput":
            return [str(st["bytes"]), self.rate(key, st["bytes"]), str(st["retransmissions"]), ms(st["stall_ns"]),
                    str(st["crc_errors"])]
        return [str(st["acked"])] + self.dist(dlv, q4)

    def nvme_rows(self, table):
        """{(QP, Qid, command): expected cells after those three}."""
        want = {}
        for qp, p in self.nvme:
            if table == "nvme_latency":
                # Count Complete, Min P50 P99 Max
                want[(str(qp), p[0], p[1])] = [p[2], p[3], p[7], p[9], p[11], p[13]]
            else:
                d = [r for q, r in self.data if q == qp and r[0] == p[0] and r[1] == p[1]]
                # Errors Bytes IOPS, data P50 P99 (no data phase: "-")
                want[(str(qp), p[0], p[1])] = [p[4], p[5], p[6]] + ([d[0][4], d[0][6]] if d else ["-", "-"])
        return want


TIME = re.compile(r"^(\d+\.\d{3}|-)$")


def check_table(name, text, want):
    title, headers = TABLES[name]
    header, rows = copied_table(text, title)
    errs = []
    if header.split("  ") != headers:
        errs.append("headers %r, expected %r" % (header, headers))
    nkeys = 3 if name.startswith("nvme") else 2
    have = {}
    for w in rows:
        if len(w) != len(headers):
            errs.append("row %s: %d cells, %d columns" % (w, len(w), len(headers)))
            continue
        for h, v in zip(headers, w):
            if h.endswith(" ms") and not TIME.match(v):
                errs.append("row %s: %s %r is not ms with 3 decimals" % (w[:nkeys], h, v))
        have[tuple(w[:nkeys])] = w[nkeys:]
    for k in sorted(set(want) | set(have)):
        if want.get(k) != have.get(k):
            errs.append("%s: dialog %s, expected %s" % (" ".join(k), have.get(k), want.get(k)))
    if not want:
        errs.append("nothing expected: the text statistics have no rows for this table")
    if errs:
        raise AssertionError("%s:\n  %s\n--- copied text ---\n%s" % (title, "\n  ".join(errs[:30]), text[:3000]))
    return len(have)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--table", choices=("ops", "nvme", "all"), default="ops")
    ap.add_argument("--shot", default=None, help="keep a PNG of each dialog: SHOT without .png, -TABLE.png")
    ap.add_argument("capture")
    ap.add_argument("tables", nargs="*", metavar="TABLE", help=" | ".join(sorted(TABLES)))
    a = ap.parse_args()
    unknown = [n for n in a.tables if n not in TABLES]
    if unknown:
        ap.error("unknown table %s" % " ".join(unknown))
    if not a.tables:
        a.tables = [n for n in sorted(TABLES) if a.table == "all" or n.startswith(a.table + "_")]
    missing = [t for t in ("wireshark", "tshark", "xvfb-run", "xdotool", "xclip", "import") if not shutil.which(t)]
    if missing:
        print("SKIP: not installed: %s (apt-get install wireshark-qt tshark xvfb xdotool xclip imagemagick)" %
              " ".join(missing))
        return SKIP
    r = it.Runner(a.plugin)
    try:
        cap = r.stage(a.capture)
        exp = Expected(r, cap, a.cli, a.capture)
        # with two QPs or more, the latency dialog is also shown filtered to
        # the last one: the rows of another QP must all go
        qps = sorted({q for q, _ in exp.ops})
        filt_qp = qps[-1] if len(qps) > 1 else None
        got, filtered = run_wireshark(a.plugin, a.capture, a.tables, a.shot,
                                      "tcp.stream == %d" % filt_qp if filt_qp is not None else None)
        msgs, errs = [], []
        for n in a.tables:
            text, geom, spare, problem = got[n]
            try:
                if problem:
                    raise AssertionError("%s at %dx%d: %s" % (TABLES[n][0], geom[0], geom[1], problem))
                rows = check_table(n, text, exp.nvme_rows(n) if n.startswith("nvme") else exp.ops_rows(n))
                msgs.append("%s: %dx%d, every column shown (%s px spare), %d rows equal the text statistics%s" %
                            (n, geom[0], geom[1], spare, rows,
                             " (%d all-queue rows)" % exp.nvme_all if n.startswith("nvme") else ""))
            except AssertionError as e:
                errs.append(str(e))
        if filtered is not None:
            try:
                rows = check_table("ops_latency", filtered, exp.filtered_latency_rows(r, cap, filt_qp))
                msgs.append("ops_latency filtered to QP %d: its %d rows only" % (filt_qp, rows))
            except AssertionError as e:
                errs.append("with the display filter tcp.stream == %d: %s" % (filt_qp, e))
    except (AssertionError, RuntimeError, it.Fail, subprocess.TimeoutExpired) as e:
        errs, msgs = [str(e)], []
    finally:
        r.close()
    if errs:
        print("FAIL: " + "\n".join(errs))
        return 1
    print("PASS: " + "; ".join(msgs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
