#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run the CLI on the hostile captures of mkhostile.py (issue #6).

  run-hostile.py --iwarpscope PATH --dir DIR [--max-rss MIB] [--max-seconds S]
                 [--generate-only] [CASE...]

Captures missing from DIR are written first (--generate-only writes them
all afresh and runs nothing). Each CASE runs
`iwarpscope stats --format json` under /usr/bin/time, within a wall-clock
limit, and checks what the report says: the run ends (no crash, no hang),
the exit status is the documented one, peak memory stays under --max-rss,
and the facts that show the limit was met *and reported* are there (a
counter, a warning) along with everything still decodable. One line per
case gives its time and peak RSS; the exit status is 1 if any case failed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkhostile  # noqa: E402


def qsum(d, key):
    return sum(q.get(key) or 0 for q in d["qps"])


def capture(d, key):
    return d["capture"][key]


def has_warning(d, text):
    return any(text in w for w in d["capture"]["warnings"])


# Each case: (capture, extra arguments, expected exit status, checks[,
# command[, peak RSS bound in MiB]]). A check is (description, function of
# the parsed JSON report); the command is `stats --format json` unless
# given (for `nvme --format jsonl` a check sees {"commands": the number of
# lines, "stderr": ...}); the RSS bound is --max-rss unless given.
CASES = {
    # Each connection carries only an MPA Request, never answered: at the
    # connection limit the oldest such candidate is given up for a new
    # connection (issue 24 item 12), so the last 32768 are the QPs.
    "many-connections": ("many-connections", [], 0, [
        ("100,000 TCP connections seen", lambda d: capture(d, "tcp_connections") == 100000),
        ("--max-flows default (32768) analysed", lambda d: len(d["qps"]) == 32768),
        ("the unanswered Requests given up for newer connections",
         lambda d: capture(d, "flows_given_up") == 67232 and capture(d, "flows_not_analysed") == 0),
    ]),
    # 100,000 QPs at once, each about 2.8 kB: the stream engine, its TCP watch
    # per direction (RTT and IP ID evidence that tells reordering from loss,
    # issue 22 item 1), the connection. Linear in the connections asked for.
    "many-connections-all": ("many-connections", ["--max-flows", "100000"], 0, [
        ("all 100,000 connections analysed as QPs", lambda d: len(d["qps"]) == 100000),
        ("none left out", lambda d: capture(d, "flows_not_analysed") == 0),
    ], None, 320),
    "flood-then-qp": ("flood-then-qp", [], 0, [
        ("connections without iWARP given up", lambda d: capture(d, "flows_given_up") > 0),
        ("the real QP after the flood is analysed",
         lambda d: len(d["qps"]) == 1 and d["qps"][0]["operations"] == 40
         and d["qps"][0]["incomplete"] == 0),
    ]),
    "ooo-forever": ("ooo-forever", [], 0, [
        ("out-of-order limit hit and reported", lambda d: qsum(d, "ooo_limit_hits") >= 1),
        ("the unfilled hole becomes one gap", lambda d: qsum(d, "gaps") == 1),
        ("every Send after the hole still decoded", lambda d: qsum(d, "operations") == 100001),
    ]),
    "ooo-tiny": ("ooo-tiny", [], 0, [
        ("segment-count limit hit and reported", lambda d: qsum(d, "ooo_limit_hits") > 0),
        ("each hole given up is reported as a gap",
         lambda d: qsum(d, "gaps") == qsum(d, "ooo_limit_hits")),
    ]),
    "max-fpdu-chain": ("max-fpdu-chain", [], 0, [
        ("framing loss reported", lambda d: qsum(d, "framing_lost") >= 1),
        ("the QP is reported", lambda d: len(d["qps"]) == 1),
    ]),
    "pending-fpdus": ("pending-fpdus", [], 0, [
        ("all 20,000 QPs reported", lambda d: len(d["qps"]) == 20000),
        ("reassembly limit hit and reported", lambda d: qsum(d, "reasm_limit_hits") > 0),
    ]),
    "wait-forever": ("wait-forever", [], 0, [
        ("all 20,000 QPs reported", lambda d: len(d["qps"]) == 20000),
        # The initiator sends FPDUs only after the Reply (RFC 5044 §7.1.2):
        # its octets after the Request mean the Reply was not captured, and
        # they are framed from what the Request says instead of waiting.
        ("every initiator FPDU decoded without the Reply",
         lambda d: qsum(d, "fpdus") == 20000 * 40),
    ]),
    # 60 MB of FPDUs wait for order while the other direction hunts: with
    # a 16 MB budget they are released out of order (counted), not hoarded.
    "held-storm": ("held-storm", ["--max-reasm", "16M"], 0, [
        ("all 1,500 responder FPDUs decoded", lambda d: qsum(d, "fpdus") == 1500),
        ("released out of order at the memory budget, counted",
         lambda d: qsum(d, "order_forced") > 0),
        ("the budget held", lambda d: capture(d, "reasm_peak_bytes") <= 17 << 20),
    ], None, 64),
    "read-storm": ("read-storm", [], 0, [
        ("200,000 Reads, all incomplete",
         lambda d: qsum(d, "operations") == 200000 and qsum(d, "incomplete") == 200000),
        ("in-flight limit (65536) reported", lambda d: qsum(d, "evicted") == 200000 - 65536),
        ("IRD exceeded reported", lambda d: qsum(d, "ird_exceeded") > 0),
    ]),
    "write-storm": ("write-storm", [], 0, [
        ("200,000 Writes, all incomplete",
         lambda d: qsum(d, "operations") == 200000 and qsum(d, "incomplete") == 200000),
        ("open-message limit reported", lambda d: qsum(d, "evicted") > 0),
    ]),
    "send-storm": ("send-storm", [], 0, [
        ("200,000 Sends, all incomplete",
         lambda d: qsum(d, "operations") == 200000 and qsum(d, "incomplete") == 200000),
        ("open-message limit reported", lambda d: qsum(d, "evicted") > 0),
    ]),
    # 65,536 Read Requests from the connection's start, then 100,000 Read
    # Responses none of which carries a requested sink STag. RFC 5040 §5.2.1
    # order anchors the first 65,536 to the requests (each with its STag
    # mismatch counted, none complete: issue 22 item 2); the rest answer
    # nothing and are orphans.
    "orphan-responses": ("orphan-responses", [], 0, [
        ("34,464 responses beyond the requests are orphans", lambda d: qsum(d, "orphan_responses") == 34464),
        ("every response reported as a Read", lambda d: sum(q["ops"]["read"]["count"] for q in d["qps"]) == 100000),
        ("none complete: no response carries its request's STag",
         lambda d: sum(q["ops"]["read"]["complete"] for q in d["qps"]) == 0),
    ]),
    "gap-storm": ("gap-storm", [], 0, [
        ("20,000 gaps reported", lambda d: qsum(d, "gaps") == 20000),
        ("framing found again after each", lambda d: qsum(d, "resyncs") == 20000),
        ("the Sends between the holes decoded", lambda d: qsum(d, "fpdus") == 65536 + 600000),
    ]),
    "garbage-crc": ("garbage-crc", [], 0, [
        ("framing loss reported, nothing invented",
         lambda d: qsum(d, "framing_lost") >= 1 and qsum(d, "operations") == 0),
    ]),
    "marker-grid": ("marker-grid", [], 0, [
        ("no FPDU invented from a fake marker grid", lambda d: qsum(d, "fpdus") == 0),
    ]),
    "tiny-segments": ("tiny-segments", [], 0, [
        ("4 Sends of 65,000 octets from 1-octet segments",
         lambda d: qsum(d, "operations") == 4 and d["total"]["bytes"] == 4 * 65000),
    ]),
    "snaplen64": ("snaplen64", [], 0, [
        ("every segment counted as cut", lambda d: capture(d, "snaplen_cut_segments") == 152),
        ("the short snapshot length warned about", lambda d: has_warning(d, "snapshot length")),
    ]),
    "lying-snaplen": ("lying-snaplen", [], 0, [
        ("records cut to the header's snaplen, counted",
         lambda d: capture(d, "snaplen_cut_segments") == 152),
        ("the short snapshot length warned about", lambda d: has_warning(d, "snapshot length")),
    ]),
    "cut-record": ("cut-record", [], 0, [
        ("truncated file reported", lambda d: capture(d, "truncated_files") == 1),
        ("the operations before the cut reported", lambda d: qsum(d, "operations") == 99),
    ]),
    "huge-caplen": ("huge-caplen", [], 0, [
        ("the bad record reported", lambda d: capture(d, "read_errors") == 1),
        ("the operations before it reported",
         lambda d: qsum(d, "operations") == 40 and qsum(d, "incomplete") == 0),
    ]),
    "ts-backwards": ("ts-backwards", [], 0, [
        ("backward timestamps counted", lambda d: capture(d, "timestamps_backwards") > 0),
        ("every operation decoded", lambda d: qsum(d, "operations") == 50),
    ]),
    "ts-extreme": ("ts-extreme", [], 0, [
        ("out-of-range timestamps clamped and warned about", lambda d: has_warning(d, "clamped")),
        ("every operation decoded", lambda d: qsum(d, "operations") == 20),
    ]),
    "isn-wrap": ("isn-wrap", [], 0, [
        ("every operation decoded across the wrap",
         lambda d: qsum(d, "operations") == 120 and qsum(d, "incomplete") == 0),
        ("overlaps counted", lambda d: qsum(d, "overlaps") > 0 or qsum(d, "retransmissions") > 0),
    ]),
    # NVMe/RDMA (issue 15): the tracker keeps at most 1024 commands in flight per
    # connection and reports each command once, whatever the host floods.
    "nvme-storm": ("nvme-storm", [], 0, [
        ("recognised as NVMe by its rdma_cm data", lambda d: d["qps"][0]["nvme"]["qid"] == 1),
        ("300,000 commands reported (200,000 + 100,000 orphans), none complete",
         lambda d: d["qps"][0]["nvme"]["commands"] == 300000 and d["qps"][0]["nvme"]["incomplete"] == 300000),
        ("in-flight limit (1024) held and reported",
         lambda d: d["qps"][0]["nvme"]["max_inflight"] == 1024
         and d["qps"][0]["nvme"]["evicted"] == 200000 - 1024),
        ("100,000 orphan completions counted", lambda d: d["qps"][0]["nvme"]["orphan_responses"] == 100000),
        ("50,000 stray Writes counted", lambda d: d["qps"][0]["nvme"]["unmatched_data"] == 50000),
    ]),
    "nvme-storm-list": ("nvme-storm", [], 0, [
        ("every command listed once", lambda d: d["commands"] == 300000),
    ], ["nvme", "--format", "jsonl"]),
    # Inputs that are not captures: one clear line on stderr, exit status 2.
    "empty": ("empty", [], 2, []),
    "directory": (None, [], 2, []),
    "not-a-capture": (None, [], 2, []),
}


def input_path(args, case, fresh=False):
    name = CASES[case][0]
    if case == "directory":
        # a directory is read as a rotated set: one without capture files
        # is refused
        p = os.path.join(args.dir, "no-captures")
        os.makedirs(p, exist_ok=True)
        with open(os.path.join(p, "notes.txt"), "w") as f:
            f.write("not a capture\n")
        return p
    if case == "not-a-capture":
        p = os.path.join(args.dir, "not-a-capture.txt")
        if not os.path.exists(p):
            with open(p, "w") as f:
                f.write("this is a text file, not a capture\n" * 100)
        return p
    p = mkhostile.path_of(args.dir, name)
    if fresh or not os.path.exists(p):
        mkhostile.make(args.dir, name)
    return p


def run_case(args, case):
    _, extra, want_rc, checks = CASES[case][:4]
    command = CASES[case][4] if len(CASES[case]) > 4 and CASES[case][4] else \
        ["stats", "--format", "json"]
    # A case's own bound is for a plain build: it scales like --max-rss
    # (256 MiB plain; sanitizer builds pass more: ASan's shadow memory and
    # quarantine), while the accounted budgets the case checks stay exact.
    max_rss = CASES[case][5] * args.max_rss // 256 if len(CASES[case]) > 5 else args.max_rss
    lines = command[0] != "stats"
    path = input_path(args, case)
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as tf, \
            tempfile.TemporaryFile() as out:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name, args.iwarpscope] + command + \
              ["--no-progress"] + extra + [path]
        try:
            p = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, timeout=args.max_seconds)
        except subprocess.TimeoutExpired:
            return False, "no answer within %g s (hang?)" % args.max_seconds, None, None
        fields = tf.read().split()
        out.seek(0)
        if lines:
            stdout = json.dumps({"commands": sum(1 for _ in out), "stderr": p.stderr.decode(errors="replace")})
        else:
            stdout = out.read()
    secs, rss_mib = (float(fields[-2]), int(fields[-1]) / 1024) if len(fields) >= 2 else (None, None)
    stderr = p.stderr.decode(errors="replace")
    problems = []
    # /usr/bin/time reports a signal as "Command terminated by signal N".
    if p.returncode != want_rc:
        problems.append("exit status %d, want %d: %s" % (p.returncode, want_rc, stderr.strip()[-300:]))
    if "Sanitizer" in stderr or "runtime error" in stderr:
        problems.append("sanitizer report:\n" + stderr[-2000:])
    if rss_mib is not None and max_rss and rss_mib > max_rss:
        problems.append("peak RSS %.1f MiB over %d MiB" % (rss_mib, max_rss))
    facts = []
    if want_rc == 2 and p.returncode == 2:
        lines = [ln for ln in stderr.splitlines() if ln.startswith("iwarpscope:")]
        if len(lines) != 1:
            problems.append("want one error line, got:\n" + stderr)
        else:
            facts.append(lines[0])
    elif p.returncode == 0:
        try:
            d = json.loads(stdout)
        except ValueError as e:
            problems.append("report is not JSON: %s" % e)
            d = None
        for desc, fn in checks if d else []:
            ok = False
            try:
                ok = bool(fn(d))
            except (KeyError, IndexError, TypeError) as e:
                desc += " (%r)" % e
            (facts if ok else problems).append(desc if ok else "not true: " + desc)
    return not problems, "; ".join(problems or facts), secs, rss_mib


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iwarpscope")
    ap.add_argument("--dir", help="where the hostile captures are (written if missing)")
    ap.add_argument("--max-rss", type=int, default=256, help="MiB; 0: do not check")
    ap.add_argument("--max-seconds", type=float, default=120)
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the case names")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    if args.list:
        print(";".join(CASES))
        return 0
    cases = args.cases or list(CASES)
    if not args.iwarpscope or not args.dir:
        ap.error("--iwarpscope and --dir are required")
    for c in cases:
        if c not in CASES:
            print("run-hostile: unknown case %r; cases: %s" % (c, " ".join(CASES)), file=sys.stderr)
            return 2
    os.makedirs(args.dir, exist_ok=True)
    if args.generate_only:
        # Always written afresh: the generator may have changed.
        done = set()
        for c in cases:
            if CASES[c][0] not in done:
                input_path(args, c, fresh=True)
                done.add(CASES[c][0])
        return 0
    failed = 0
    for c in cases:
        ok, what, secs, rss = run_case(args, c)
        meas = "%6.2f s %7.1f MiB" % (secs, rss) if secs is not None else "%17s" % "-"
        print("hostile %-22s %s  %s  %s" % (c, "ok  " if ok else "FAIL", meas, what), flush=True)
        failed += not ok
    if failed:
        print("run-hostile: %d of %d cases failed" % (failed, len(cases)), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
