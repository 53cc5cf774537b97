#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""-j N gives -j 1's output, byte for byte (issue 34 item 4).

Every command (summary, ops, stats, fpdus, nvme, rpc, doctor, report) in
every format it takes (text, csv, json, jsonl) runs with -j 1, -j 2 and -j 3
on every sample (samples/real, samples/generated) and on a capture with many
connections written by iwarpscope-gen (--scenario bench --qps 40): standard
output, standard error and the exit status must be the same. Besides:

  * the runs -j spreads over workers (stats as text, doctor) must have used
    them (IWARPSCOPE_JOBS_TRACE names the workers and the conversations each
    got): on the many-connection capture every worker got some, and their sum
    is the capture's TCP conversation count computed here from its octets;
  * runs -j does not spread (the other commands) must say one worker;
  * a run whose connections reach a shared limit (--max-flows below the
    capture's connections open at once) must be read again on one thread,
    and still match; one whose connections exceed it only over time stays
    spread (samples/real/31-nfsrdma-v3.pcap at --max-flows 1), and matches.

Usage: jobs_check.py IWARPSCOPE IWARPSCOPE_GEN SAMPLES_DIR WORKDIR [--quick]
(--quick: the many-connection capture and a few samples, under a sanitizer).
"""
import glob
import os
import re
import struct
import subprocess
import sys

COMMANDS = ["summary", "ops", "stats", "fpdus", "nvme", "rpc", "smb", "doctor", "report"]
FORMATS = ["text", "csv", "json", "jsonl"]
SPREAD = {("stats", "text"), ("doctor", "text"), ("doctor", "json"), ("doctor", "jsonl")}


def run(tool, args, env_extra=None):
    env = dict(os.environ)
    env.pop("IWARPSCOPE_JOBS_TRACE", None)
    if env_extra:
        env.update(env_extra)
    p = subprocess.run([tool] + args, capture_output=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def tcp_conversations(path, frames=None):
    """TCP 4-tuples (either direction) in a plain pcap of Ethernet/IPv4: the
    many-connection capture has no port reuse, so this is its conversation
    count (tcp.stream) worked out from the file's octets. frames (a list):
    receives the count of TCP frames (what the reader hands to workers)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), "a little-endian pcap"
    pos, seen = 24, set()
    while pos + 16 <= len(data):
        caplen = struct.unpack("<I", data[pos + 8:pos + 12])[0]
        frame = data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen
        if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
            continue
        ihl = (frame[14] & 15) * 4
        src, dst = frame[26:30], frame[30:34]
        sport, dport = struct.unpack(">HH", frame[14 + ihl:14 + ihl + 4])
        a, b = (src, sport), (dst, dport)
        seen.add((a, b) if a <= b else (b, a))
        if frames is not None:
            frames[0] += 1
    return len(seen)


def peak_rss_kib(tool, args):
    """The peak resident size of one run. GNU time forks it from a small
    process; without it wait4's figure is at least this script's own size
    (a child's peak counts the memory it had before exec), which still
    shows a peak that grows with the capture."""
    if os.access("/usr/bin/time", os.X_OK):
        p = subprocess.run(["/usr/bin/time", "-f", "peak %M", tool] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        m = re.search(rb"^peak (\d+)$", p.stderr, re.M)
        if m:
            return int(m.group(1))
    p = subprocess.Popen([tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss


def without_tcp_then(path, out, frames):
    """path (a little-endian pcap of Ethernet) after frames UDP frames of
    1514 octets: a long stretch the reader keeps to itself."""
    eth = bytes(12) + b"\x08\x00"
    body = bytes(1472)
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 28 + len(body), 0, 0, 64, 17, 0,
                     bytes([10, 9, 0, 1]), bytes([10, 9, 0, 2]))
    frame = eth + ip + struct.pack(">HHHH", 1000, 2000, 8 + len(body), 0) + body
    with open(path, "rb") as f:
        octets = f.read()
    with open(out, "wb") as f:
        f.write(octets[:24])
        for i in range(frames):
            f.write(struct.pack("<IIII", 0, i, len(frame), len(frame)) + frame)
        f.write(octets[24:])


def trace_line(err):
    for line in err.decode(errors="replace").splitlines():
        if line.startswith("iwarpscope: jobs: "):
            return line
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    tool, gen, samples, work = args[:4]
    os.makedirs(work, exist_ok=True)
    many = os.path.join(work, "many")
    subprocess.run([gen, "--scenario", "bench", "--qps", "40", "--size", "6M", "--out", many],
                   check=True, capture_output=True)
    many += ".pcap"
    captures = [many]
    found = sorted(glob.glob(os.path.join(samples, "real", "*.pcap*")) +
                   glob.glob(os.path.join(samples, "generated", "*.pcap*")))
    if quick:
        found = [f for f in found if os.path.basename(f) in
                 ("multi-qp.pcap", "nvmeof.pcap", "30-nvmeof-mixed.pcap", "31-nfsrdma-v3.pcap")]
    captures += found
    fails = []
    compared = 0
    for cap in captures:
        name = os.path.relpath(cap, samples) if cap != many else "many-connections"
        for cmd in COMMANDS:
            for fmt in (["html"] if cmd == "report" else FORMATS):
                base = [cmd, "--no-progress"] + (["-T", fmt] if fmt != "html" else []) + [cap]
                ref = run(tool, ["-j", "1"] + base)
                if ref[0] == 2 and b"does not write" in ref[2]:
                    continue  # the command does not take this format
                for n in (2, 3):
                    got = run(tool, ["-j", str(n)] + base)
                    compared += 1
                    if got != ref:
                        what = [k for k, a, b in zip(("status", "stdout", "stderr"), ref, got) if a != b]
                        fails.append("%s %s -T %s -j %d: %s differ" % (name, cmd, fmt, n, ", ".join(what)))
                # which runs were spread, and how
                if cap == many or (cmd, fmt) in SPREAD:
                    t = trace_line(run(tool, ["-j", "2"] + base, {"IWARPSCOPE_JOBS_TRACE": "1"})[2])
                    spread = (cmd, fmt) in SPREAD
                    if spread and (t is None or not t.startswith("iwarpscope: jobs: 2 workers")):
                        fails.append("%s %s -T %s -j 2: not spread over 2 workers (%s)" % (name, cmd, fmt, t))
                    if not spread and t != "iwarpscope: jobs: 1 worker":
                        fails.append("%s %s -T %s -j 2: should read on one thread (%s)" % (name, cmd, fmt, t))
                    if spread and cap == many and t:
                        m = re.search(r"conversations ([0-9+]+)", t)
                        counts = [int(x) for x in m.group(1).split("+")] if m else []
                        want = tcp_conversations(many)
                        if len(counts) != 2 or min(counts) == 0 or sum(counts) != want or "again" in t:
                            fails.append("many-connections %s: conversations %s, expected 2 shares "
                                         "of %d, none empty, not read again" % (cmd, counts, want))
    # several files at once (merged in time, their capture points surveyed):
    # the reader admits every record before it hashes
    sets = [["real/01-rping.pcap", "real/03-send_lat.pcap"],
            ["generated/multi-qp.pcap", "generated/nvmeof.pcap", "generated/terminate.pcap"]]
    for names in sets:
        files = [os.path.join(samples, x) for x in names]
        for cmd in ("stats", "doctor", "summary"):
            base = [cmd, "--no-progress"] + files
            ref = run(tool, ["-j", "1"] + base)
            for n in (2, 3):
                compared += 1
                if run(tool, ["-j", str(n)] + base) != ref:
                    fails.append("%s %s -j %d: differs from -j 1" % (" ".join(names), cmd, n))
            t = trace_line(run(tool, ["-j", "2"] + base, {"IWARPSCOPE_JOBS_TRACE": "1"})[2]) or ""
            if (cmd != "summary") != t.startswith("iwarpscope: jobs: 2 workers"):
                fails.append("%s %s -j 2: spread wrongly (%s)" % (" ".join(names), cmd, t))
            # several files are merged record by record: their frames are copied
            m = re.search(r"frames in place (\d+), copied (\d+)", t)
            if cmd != "summary" and (not m or m.group(1) != "0" or m.group(2) == "0"):
                fails.append("%s %s -j 2: frames should be copied (%s)" % (" ".join(names), cmd, t))
    # one plain file: every TCP frame goes to the workers as a reference into
    # the mapped file (none copied; the 6 MiB capture is several times the
    # reader's 1 MiB lead, so pages are given back behind the workers); read
    # by libpcap instead, every one is copied and the output is the same
    tcp_frames = [0]
    tcp_conversations(many, tcp_frames)
    base = ["stats", "--no-progress", many]
    ref = run(tool, ["-j", "1"] + base)
    for reader, want in ((None, (tcp_frames[0], 0)), ("libpcap", (0, tcp_frames[0]))):
        env = {"IWARPSCOPE_JOBS_TRACE": "1"}
        if reader:
            env["IWARPSCOPE_READER"] = reader
        got = run(tool, ["-j", "2"] + base, env)
        t = trace_line(got[2]) or ""
        m = re.search(r"frames in place (\d+), copied (\d+)", t)
        if not m or (int(m.group(1)), int(m.group(2))) != want:
            fails.append("many-connections stats -j 2 (reader %s): frames in place, copied "
                         "should be %s (%s)" % (reader or "fastread", want, t))
        stripped = b"".join(l for l in got[2].splitlines(True) if not l.startswith(b"iwarpscope: jobs: "))
        compared += 1
        if (got[0], got[1], stripped) != ref:
            fails.append("many-connections stats -j 2 (reader %s): differs from -j 1" % (reader or "fastread"))
    # 64 MiB without TCP before the connections: the reader gives the pages
    # back behind it all the same (the resident size does not grow with it)
    if not quick:
        udp = os.path.join(work, "udp-then-many.pcap")
        without_tcp_then(many, udp, 44000)
        base = ["stats", "--no-progress", udp]
        compared += 1
        if run(tool, ["-j", "2"] + base) != run(tool, ["-j", "1"] + base):
            fails.append("64 MiB without TCP, then many-connections: -j 2 differs from -j 1")
        one, two = peak_rss_kib(tool, ["-j", "1"] + base), peak_rss_kib(tool, ["-j", "2"] + base)
        if two > one + 4096:
            fails.append("64 MiB without TCP: -j 2 peaks at %d KiB, -j 1 at %d KiB" % (two, one))
        os.unlink(udp)
    # fastread gives up midway (a snapshot length of 1400 in the file header:
    # the first longer frame goes to libpcap, which cuts it and reads on):
    # the frames before it in place, the rest copied, both kept until read
    with open(many, "rb") as f:
        octets = bytearray(f.read())
    octets[16:20] = struct.pack("<I", 1400)
    snap = os.path.join(work, "snap1400.pcap")
    with open(snap, "wb") as f:
        f.write(octets)
    for cmd in ("stats", "doctor"):
        base = [cmd, "--no-progress", snap]
        ref = run(tool, ["-j", "1"] + base)
        got = run(tool, ["-j", "2"] + base, {"IWARPSCOPE_JOBS_TRACE": "1"})
        t = trace_line(got[2]) or ""
        m = re.search(r"frames in place (\d+), copied (\d+)", t)
        if not m or int(m.group(1)) == 0 or int(m.group(2)) == 0 or \
                int(m.group(1)) + int(m.group(2)) != tcp_frames[0]:
            fails.append("snapshot 1400 %s -j 2: frames should go in place, then copied, %d in "
                         "all (%s)" % (cmd, tcp_frames[0], t))
        stripped = b"".join(l for l in got[2].splitlines(True) if not l.startswith(b"iwarpscope: jobs: "))
        compared += 1
        if (got[0], got[1], stripped) != ref or b"cut by the snapshot length" not in ref[2]:
            fails.append("snapshot 1400 %s -j 2: differs from -j 1 (or nothing was cut)" % cmd)
    # a limit every connection shares: read again on one thread, same output
    base = ["stats", "--no-progress", "--max-flows", "4", many]
    ref = run(tool, ["-j", "1"] + base)
    got = run(tool, ["-j", "2"] + base, {"IWARPSCOPE_JOBS_TRACE": "1"})
    t = trace_line(got[2])
    if not t or "read again with one" not in t:
        fails.append("--max-flows 4 -j 2: not read again (%s)" % t)
    stripped = b"".join(l for l in got[2].splitlines(True) if not l.startswith(b"iwarpscope: jobs: "))
    if (got[0], got[1], stripped) != ref or b"connection limit reached" not in ref[2]:
        fails.append("--max-flows 4 -j 2: differs from -j 1 (or the limit was not reached)")
    compared += 1
    # --max-flows below the connections a capture holds over time but not at
    # once: the workers' openings and closings replayed in frame order say no
    # connection was given up, so the run stays spread; it must still match,
    # and so must every sample at --max-flows 1 and 2 (spread or read again)
    spread_past_limit = 0
    for cap in found:
        for k in ("1", "2"):
            base = ["stats", "--no-progress", "--max-flows", k, cap]
            ref = run(tool, ["-j", "1"] + base)
            got = run(tool, ["-j", "2"] + base, {"IWARPSCOPE_JOBS_TRACE": "1"})
            t = trace_line(got[2]) or ""
            stripped = b"".join(l for l in got[2].splitlines(True)
                                if not l.startswith(b"iwarpscope: jobs: "))
            compared += 1
            if (got[0], got[1], stripped) != ref:
                fails.append("%s --max-flows %s -j 2: differs from -j 1" % (cap, k))
            m = re.search(r"conversations ([0-9+]+)", t)
            if m and "again" not in t and sum(int(x) for x in m.group(1).split("+")) > int(k):
                spread_past_limit += 1
    if not quick and spread_past_limit == 0:
        fails.append("no run with more connections than --max-flows (one at a time) stayed spread")
    for f in fails:
        print("FAIL:", f)
    print("%d runs compared with -j 1 over %d captures; %d failures" % (compared, len(captures), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
