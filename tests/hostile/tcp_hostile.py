#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile inputs for the stream engine's TCP side (issue 33 items 1, 6, 9
and its timestamp fuzz). Each case writes its captures with mktcp.py at test
time, runs iwarpscope (and, given --plugin, tshark with the plugin: the same
engine) and checks what they did; one line per case with its measurements
(docs/robustness.md quotes them).

  rtt-overflow     item 1: an ACK stamped ts_sec 0xFFFFFFFF among ordinary
                   frames gave a round-trip sample of ~2e18 ns and 7 * SRTT
                   overflowed (a sanitizer build aborted in summary, stats,
                   doctor, report and ops): every command runs clean, and
                   the RTO stays the ordinary round trips' (a Send sent
                   again after 1 s of silence is a timeout)
  ooo-ladder       item 6: N segments in the out-of-order list's worst order
                   (mktcp.py ooo-ladder) against N in order, same size: the
                   CPU time within 8x (measured 2.5-3.5x: each segment of
                   the ladder gives up a hole; a walk of the buffered
                   segments per segment gave 25-37x), and the exact limit
                   hits and gaps; with the plugin, tshark with it against
                   tshark without it on the ladder, Wireshark's own sequence
                   analysis off (it walks its own list of unacknowledged
                   segments), within 2.5x (3.7-4.0x before, 1.1-1.2x now)
  late-fill-*      item 9: losses refilled late after duplicate ACKs (or,
                   quiet, after the RTO without them) whose IP ID, TSval or
                   SACK blocks say otherwise are retransmissions, each of
                   the kind its signal says; plugin = CLI
  reordered-quick  item 9's other side: segments overtaken on the way and
                   captured sooner than a round trip stay reordered
  ts-fuzz          timestamps 0, 0xFFFFFFFF, backwards, zigzag, far future
                   and fractions past a second, in microsecond and
                   nanosecond pcap files: summary, stats, doctor, report and
                   ops run clean (a sanitizer build aborts on any report),
                   their JSON parses; with the plugin, tshark runs clean too

Usage: tcp_hostile.py --iwarpscope PATH --dir DIR [--plugin SO [--preload LIB]]
                      [--scale F] CASE...       (--list names the cases)
Exit: 0 pass, 1 fail.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "plugin"))
import mktcp  # noqa: E402
from field_hostile import Case, sane  # noqa: E402

# the CLI's out-of-order segments per direction (cli/track/analysis.c: one per
# 4 kB of --max-ooo, 16M by default)
OOO_SEGS = 4096
NO_SEQ_ANALYSIS = ["-o", "tcp.analyze_sequence_numbers:FALSE"]


def cpu_run(cmd, env=None, timeout=300):
    """(exit status, stdout, stderr text, CPU seconds: user + system of the
    command and what it waited for). CPU time, not wall time: the machine
    running the tests is shared, and a busy one stretches wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout, cwd="/")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), cpu


def cpu_ratio(c, what, base, t, bound, floor=0.1):
    """t within bound times base (CPU seconds; below floor counts as floor:
    start-up and noise)."""
    r = max(t, floor) / max(base, floor)
    c.check(r <= bound, "%s: %.2f s then %.2f s of CPU: ratio %.1f <= %g" % (what, base, t, r, bound))


def tshark_runner(c):
    """An iwarp_tshark.Runner with the plugin, or None without --plugin."""
    if not c.a.plugin or not shutil.which("tshark"):
        return None
    import iwarp_tshark as it
    return it.Runner(c.a.plugin, c.a.preload)


def cli_json(c, cap, command=("stats", "--format", "json")):
    """The parsed JSON of iwarpscope COMMAND cap (None: it failed, said)."""
    rc, out, err, _, _ = c.tool(list(command) + ["--no-progress", cap], timeout=c.a.timeout)
    if not c.check(rc == 0 and sane(err), "%s on %s: exit 0, no sanitizer report" %
                   (command[0], os.path.basename(cap))) and err:
        c.problems.append(err.strip()[-1500:])
        return None
    return json.loads(out)


def tcp_counts(q):
    t = q["tcp"]
    return [t["fast_retransmits"], t["timeouts"], t["other_retransmits"], t["reordered"]]


def plugin_tcp(r, staged):
    """qp -> [fast retransmits, timeouts, other, reordered] from the plugin's
    -z iwarp,ops,raw."""
    import iwarp_tshark as it
    loss = it.parse_loss(it.tap_output(r, staged)["ops"])
    return {qp: v["tcp"][:4] for qp, v in loss.items() if "tcp" in v}


# ---- item 1 ----

def case_rtt_overflow(c):
    cap = mktcp.make(c.work, "rtt-overflow")
    for cmd in (["summary"], ["doctor"], ["ops", "--format", "jsonl"],
                ["report", "-o", os.path.join(c.work, "r.html")]):
        rc, _, err, _, _ = c.tool(cmd + ["--no-progress", cap], timeout=c.a.timeout)
        if not c.check(rc == 0 and sane(err), "%s: exit 0, no sanitizer report" % cmd[0]):
            c.problems.append(err.strip()[-1500:])
    d = cli_json(c, cap)
    if d:
        got = {q["qp"]: tcp_counts(q) for q in d["qps"]}
        c.check(got.get(1) == [0, 1, 0, 0], "QP 1: the Send sent again after 1 s of silence is a "
                "timeout (RTO of the ordinary round trips), got %s" % got.get(1))
        c.check(got.get(0) == [0, 0, 0, 0], "QP 0: nothing sent again, got %s" % got.get(0))
    r = tshark_runner(c)
    if r:
        try:
            # Wireshark reads ts_sec unsigned (2106), libpcap signed (1969,
            # clamped to 1970): the plugin has the sample of 2.6e18 ns, in the
            # other half of the path
            got = plugin_tcp(r, r.stage(cap))
            c.check(got.get(1) == [0, 1, 0, 0] and got.get(0) == [0, 0, 0, 0],
                    "plugin: tshark clean, QP 1 one timeout, QP 0 nothing sent again, got %s" % got)
        finally:
            r.close()


# ---- item 6 ----

def case_ooo_ladder(c):
    n = int(200_000 * c.a.scale)
    times = {}
    for name in ("in-order", "ooo-ladder"):
        cap = mktcp.make(c.work, name, n)
        rc, out, err, times[name] = cpu_run([c.a.iwarpscope, "stats", "--format", "json", "--no-progress", cap],
                                            timeout=c.a.timeout)
        c.check(rc == 0 and sane(err), "%s: exit 0, no sanitizer report" % name)
        if name == "ooo-ladder" and rc == 0:
            q = json.loads(out)["qps"][0]
            # every segment past the list's limit gives up one hole; the
            # segments still buffered at the end are delivered with one gap each
            c.check(q["ooo_limit_hits"] == n - (OOO_SEGS - 1) and q["gaps"] == n + 1,
                    "ladder of %d: %d limit hits and %d gaps (want %d and %d)" %
                    (n, q["ooo_limit_hits"], q["gaps"], n - (OOO_SEGS - 1), n + 1))
    cpu_ratio(c, "%d segments in order, then as the ladder" % n, times["in-order"], times["ooo-ladder"], 8)
    r = tshark_runner(c)
    if r:
        try:
            staged = r.stage(os.path.join(c.work, "ooo-ladder-%d.pcap" % n))
            t = {}
            for plugin in (False, True):
                args = ["-q", "-r", staged] + NO_SEQ_ANALYSIS + \
                    (["-z", "iwarp,ops"] if plugin else ["-z", "io,stat,0"])
                cmd, env = r.command(args, builtin_only=not plugin)
                rc, _, err, t[plugin] = cpu_run(cmd, env=env, timeout=c.a.timeout)
                c.check(rc == 0 and sane(err), "tshark %s the plugin: exit 0, no sanitizer report" %
                        ("with" if plugin else "without"))
            cpu_ratio(c, "tshark on the ladder without the plugin, then with it", t[False], t[True], 2.5)
        finally:
            r.close()


# ---- item 9 ----

# capture -> (QP 0's [fast retransmits, timeouts, other, reordered] for n
# rounds, what it shows)
LATE = {
    "late-fill-ipid": (lambda n: [n, 0, 0, 0], "refilled 300 ms late with its first (lower) IP ID"),
    "late-fill-zero": (lambda n: [n, 0, 0, 0], "the same, every IP ID 0"),
    "late-fill-sack": (lambda n: [n, 0, 0, 0], "the same, SACK blocks claiming the hole and nonsense"),
    "late-fill-tsval": (lambda n: [n, 0, 0, 0], "the same, its first (lower) TSval"),
    "late-fill-fast": (lambda n: [n, 0, 0, 0], "refilled 5 ms after the duplicate ACKs, first IP ID"),
    "late-fill-quiet": (lambda n: [0, n, 0, 0], "refilled 300 ms late, no duplicate ACK captured"),
    "reordered-quick": (lambda n: [0, 0, 0, n], "overtaken, captured 20 us after the duplicate ACKs"),
}


def case_late(c, name):
    n = int(2000 * c.a.scale)
    want, what = LATE[name][0](n), LATE[name][1]
    cap = mktcp.make(c.work, name, n)
    d = cli_json(c, cap)
    if d:
        q = d["qps"][0]
        c.check(tcp_counts(q) == want and q["incomplete"] == 0,
                "%d losses %s: [fast, timeouts, other, reordered] %s, want %s" % (n, what, tcp_counts(q), want))
    r = tshark_runner(c)
    if r:
        import iwarp_tshark as it
        try:
            staged = r.stage(cap)
            errs, rows = it.compare_with_cli(r, staged, c.a.iwarpscope)
            c.check(not errs, "plugin = CLI (%d rows)%s" % (rows, ": " + "; ".join(errs[:5]) if errs else ""))
        finally:
            r.close()


# ---- the timestamp fuzz ----

def case_ts_fuzz(c):
    commands = [["summary"], ["stats", "--format", "json"], ["doctor", "--format", "json"],
                ["ops", "--format", "jsonl"], ["report"]]
    r = tshark_runner(c)
    runs = 0
    try:
        for name in mktcp.ts_cases():
            cap = mktcp.make(c.work, name)
            for cmd in commands:
                extra = ["-o", os.path.join(c.work, name + ".html")] if cmd[0] == "report" else []
                rc, out, err, _, _ = c.tool(cmd + extra + ["--no-progress", cap], timeout=c.a.timeout)
                runs += 1
                if not (rc == 0 and sane(err)):
                    c.problems.append("%s %s: exit %s: %s" % (cmd[0], name, rc, err.strip()[-1500:]))
                    continue
                if "json" in cmd:
                    json.loads(out)
                elif "jsonl" in cmd:
                    for line in out.splitlines():
                        json.loads(line)
            if r:
                import iwarp_tshark as it
                try:
                    it.tap_output(r, r.stage(cap))
                    runs += 1
                except it.Fail as e:
                    c.problems.append("tshark on %s: %s" % (name, str(e)[-1500:]))
    finally:
        if r:
            r.close()
    c.check(not c.problems, "%d captures, %d runs clean, every JSON output parsed" %
            (len(mktcp.ts_cases()), runs))


CASES = {
    "rtt-overflow": case_rtt_overflow,
    "ooo-ladder": case_ooo_ladder,
    "ts-fuzz": case_ts_fuzz,
}
for _name in LATE:
    CASES[_name] = lambda c, _name=_name: case_late(c, _name)


def run_case(a, name):
    """Run one case in a directory of its own under --dir (removed if it
    passes, kept to look at if not); print its line. True if it passed."""
    os.makedirs(a.dir, exist_ok=True)
    c = Case(a, tempfile.mkdtemp(prefix=name + ".", dir=a.dir))
    t0 = time.monotonic()
    try:
        CASES[name](c)
    except (ValueError, KeyError, IndexError, TypeError, OSError) as e:
        # an output that is not what it must be (not JSON, not there)
        c.problems.append("%s: %r" % (type(e).__name__, e))
    print("hostile-tcp %-15s %s %6.1f s  %s" % (name, "FAIL" if c.problems else "ok  ", time.monotonic() - t0,
                                               "; ".join(c.problems or c.facts)), flush=True)
    if not c.problems:
        shutil.rmtree(c.work, ignore_errors=True)
    return not c.problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iwarpscope", help="the CLI under test")
    ap.add_argument("--dir", help="where the cases write (a directory each, kept if it fails)")
    ap.add_argument("--plugin", help="the plugin to run tshark with (the plugin's side of each case)")
    ap.add_argument("--preload", help="the sanitizer runtime tshark preloads (sanitizer builds)")
    ap.add_argument("--scale", type=float, default=1.0, help="capture sizes (1: as documented)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run")
    ap.add_argument("--list", action="store_true", help="print the case names")
    ap.add_argument("cases", nargs="*", help="the cases to run (default: all)")
    a = ap.parse_args()
    if a.list:
        print(";".join(CASES))
        return 0
    unknown = [x for x in a.cases if x not in CASES]
    if unknown or not a.iwarpscope or not a.dir:
        ap.error("--iwarpscope and --dir are required; cases: " + " ".join(CASES))
    a.rss_scale = 1  # Case's; these cases bound no memory
    results = [run_case(a, name) for name in a.cases or CASES]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
