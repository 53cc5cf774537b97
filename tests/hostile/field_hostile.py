#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile inputs on the field paths (issue 24): several files, compressed
files, capture points, merge, live -w, output files and strings from the
capture. Each case builds its inputs with a small script at test time (no
big files in the repository), runs iwarpscope under /usr/bin/time and checks
what it did: the time is linear in the input (a ratio between two sizes
with a generous bound), the peak RSS stays under a bound that does not grow
with the number of files or connections, outputs are never truncated or
overwritten on failure, every string from the capture is escaped.

  field_hostile.py --iwarpscope PATH --dir DIR [--scale F] [--private] CASE...
  field_hostile.py --list

--private puts DIR and TMPDIR in a fresh directory only its owner may
enter, as in a checkout cloned into `mktemp -d` or under /root (issue 33
item 11): what runs as an unprivileged user must still reach its files
(only when run as root: else 77, as the case does not arise).

One line per case with its measurements (docs/robustness.md quotes them);
exit status 1 if a case failed, 77 if every case asked was skipped (no
zstd, no capture permission).
"""
import argparse
import ctypes
import gzip
import json
import os
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkhostile as mk  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "samples")
T0 = 1_700_000_000 * 10**9
PCAP_NS_HEADER = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, 1)


class Skip(Exception):
    pass


# ---- building inputs ----

def rec(t, pkt):
    return struct.pack("<IIII", t // 10**9, t % 10**9, len(pkt), len(pkt)) + pkt


def write_pcap(path, records):
    with open(path, "wb") as f:
        f.write(PCAP_NS_HEADER)
        f.write(b"".join(records))


def copies_pcap(path, n):
    """One connection: a SYN, then the same 100-octet segment n times."""
    syn = mk.tcp_packet(mk.A, mk.B, 40000, 18515, 999, 0, 0x02)
    pkt = mk.tcp_packet(mk.A, mk.B, 40000, 18515, 1000, 1, 0x18, b"x" * 100)
    write_pcap(path, [rec(T0, syn)] + [rec(T0 + 1000 * (i + 1), pkt) for i in range(n)])


def syns_gz(path, n):
    """n SYNs of n connections (10.x.y.z:40000 -> 10.0.0.2:18515), gzipped."""
    base = bytearray(mk.tcp_packet(mk.A, mk.B, 40000, 18515, 999, 0, 0x02))
    out = []
    for i in range(n):
        base[26:30] = bytes([10, (i >> 16) & 0xFF, (i >> 8) & 0xFF, i & 0xFF])
        out.append(rec(T0 + 1000 * i, bytes(base)))
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(PCAP_NS_HEADER + b"".join(out))


def sample_records(name="05-read_lat.pcap"):
    """The records of a real sample: [(ts_ns, data)]."""
    with open(os.path.join(SAMPLES, "real", name), "rb") as f:
        b = f.read()
    magic = struct.unpack("<I", b[:4])[0]
    scale = 1 if magic == 0xA1B23C4D else 1000
    out, off = [], 24
    while off + 16 <= len(b):
        sec, frac, incl, _ = struct.unpack("<IIII", b[off:off + 16])
        out.append((sec * 10**9 + frac * scale, b[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def rotated_set(d, nfiles, per_file=None, prefix="trace.pcap"):
    """A rotated set (tcpdump -C names) of a real sample cut into nfiles
    files that follow each other in time (per_file records each; None: the
    sample spread over them, empty files past its end)."""
    recs = sample_records()
    os.makedirs(d, exist_ok=True)
    k = per_file if per_file is not None else max(1, -(-len(recs) // nfiles))
    for i in range(nfiles):
        part = recs[i * k:(i + 1) * k] if per_file is None else recs[:k]
        shift = 0 if per_file is None else i * 10**9
        name = os.path.join(d, prefix + (str(i) if i else ""))
        write_pcap(name, [rec(t + shift, data) for t, data in part])
    return os.path.join(d, prefix + "*")


# ---- running ----

def run(args, tool, timeout=120, stdin=None, env=None, preexec=None, pass_fds=(), as_user=None):
    """(exit status, stdout bytes, stderr text, seconds, peak RSS MiB); exit
    status None on a timeout."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + (as_user or []) + [tool] + args
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                               input=stdin, env=dict(os.environ, TZ="UTC", **(env or {})),
                               preexec_fn=preexec, pass_fds=pass_fds)
        except subprocess.TimeoutExpired:
            return None, b"", "timeout", float(timeout), 0.0
        f = tf.read().split()
    secs, rss = (float(f[-2]), int(f[-1]) / 1024) if len(f) >= 2 else (0.0, 0.0)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), secs, rss


class Case:
    def __init__(self, args, work):
        self.a, self.work, self.problems, self.facts = args, work, [], []

    def tool(self, args, **kw):
        return run(args, self.a.iwarpscope, **kw)

    def mib(self, n):
        """An RSS bound of a plain build, for this build (sanitizers hold
        shadow memory and a quarantine)."""
        return n * self.a.rss_scale

    def check(self, cond, what):
        (self.facts if cond else self.problems).append(what if cond else "not true: " + what)
        return cond


def sane(err):
    return "Sanitizer" not in err and "runtime error" not in err


def ratio_ok(c, what, small, big, size_ratio, bound):
    """Time linear in the input: t(big)/t(small) within bound (linear gives
    about size_ratio, quadratic its square); times below 0.3 s count as
    0.3 s (start-up and noise)."""
    r = max(big, 0.3) / max(small, 0.3)
    c.check(r <= bound, "%s: %.2f s then %.2f s for %gx the input: ratio %.1f <= %g" %
            (what, small, big, size_ratio, r, bound))
    return r


# ---- the cases ----

def case_copies(c):
    """Item 1: two files holding the same segment many times (two capture
    points): the survey compared every pair of copies."""
    n1, n2 = int(50000 * c.a.scale), int(200000 * c.a.scale)
    times = []
    for n in (n1, n2):
        a, b = os.path.join(c.work, "a%d.pcap" % n), os.path.join(c.work, "b%d.pcap" % n)
        copies_pcap(a, n)
        shutil.copy(a, b)
        rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress", a, b],
                                         timeout=60)
        c.check(rc == 0 and sane(err), "%d copies at two points: exit %s" % (n, rc))
        c.check("seen at two capture points" in err, "the two points found")
        times.append(secs)
        os.unlink(a)
        os.unlink(b)
    ratio_ok(c, "survey of %d and %d copies" % (n1, n2), times[0], times[1], n2 / n1, 8)


def case_survey_conns(c):
    """Item 2: many connections seen at two points (the same SYNs in two
    gzipped files): memory per connection had no bound, and stderr had a
    line per connection."""
    n = int(300000 * c.a.scale)
    a, b = os.path.join(c.work, "s1.pcap.gz"), os.path.join(c.work, "s2.pcap.gz")
    syns_gz(a, n)
    shutil.copy(a, b)
    rc1, _, err1, t1, rss1 = c.tool(["stats", "--format", "json", "--no-progress", a])
    rc2, out, err2, t2, rss2 = c.tool(["stats", "--format", "json", "--no-progress", a, b])
    c.check(rc1 == 0 and rc2 == 0 and sane(err2), "exit %s and %s" % (rc1, rc2))
    lines = sum("capture point" in ln for ln in err2.splitlines())
    c.check(lines <= 10, "%d lines about capture points on stderr for %d connections at two points "
            "(<= 10)" % (lines, n))
    c.check("memory bound" in err2, "the survey's connection bound said")
    # the survey's own memory: two files minus one (the analysis is the same)
    c.check(rss2 - rss1 <= c.mib(64), "survey memory %.0f MiB (%.0f - %.0f) <= %d MiB for %d "
            "connections" % (rss2 - rss1, rss2, rss1, c.mib(64), n))
    c.facts.append("one file %.2f s %.0f MiB, two files %.2f s %.0f MiB" % (t1, rss1, t2, rss2))


def case_outputs(c):
    """Item 3: -o never truncates or overwrites on failure, never an input."""
    sample = os.path.join(SAMPLES, "real", "05-read_lat.pcap")
    cap = os.path.join(c.work, "x.pcap")
    shutil.copy(sample, cap)
    good = os.path.join(c.work, "a.json")
    rc, out, err, _, _ = c.tool(["stats", "--format", "json", cap])
    with open(good, "wb") as f:
        f.write(out)
    bad = os.path.join(c.work, "notstats.json")
    with open(bad, "w") as f:
        f.write('{"hello": 1}\n')
    fleet = os.path.join(c.work, "fleet.json")
    with open(fleet, "w") as f:
        f.write("OLD\n")

    def left(path):
        with open(path, "rb") as f:
            return f.read()

    def leftovers():
        return [p for p in os.listdir(c.work) if p.startswith(".")]

    rc, _, err, _, _ = c.tool(["merge", "-o", fleet, good, bad])
    c.check(rc == 2 and left(fleet) == b"OLD\n", "merge -o over a failed merge: exit %s, the old "
            "file kept (%r)" % (rc, left(fleet)[:20]))
    before = left(good)
    rc, _, err, _, _ = c.tool(["merge", "-o", good, good, bad])
    c.check(rc == 2 and left(good) == before and "input" in err,
            "merge -o onto an input refused (exit %s: %s), the input intact" % (rc, err.strip()))
    rc, _, err, _, _ = c.tool(["merge", "--format", "json", "-o", fleet, good, good])
    ok = rc == 0
    try:
        ok = ok and len(json.loads(left(fleet))["qps"]) == 4
    except ValueError:
        ok = False
    c.check(ok, "merge -o of good inputs: exit %s, the whole document in place" % rc)
    cap_before = left(cap)
    rc, _, err, _, _ = c.tool(["report", cap, "-o", cap])
    c.check(rc == 2 and left(cap) == cap_before and "input" in err,
            "report -o onto its capture refused (exit %s: %s), the capture intact" % (rc, err.strip()))
    page = os.path.join(c.work, "r.html")
    with open(page, "w") as f:
        f.write("OLD\n")
    rc, _, err, _, _ = c.tool(["report", cap, "-o", page])
    c.check(rc == 0 and left(page).rstrip().endswith(b"</html>"), "report -o: exit %s, the page "
            "complete" % rc)
    c.check(not leftovers(), "no temporary files left beside the outputs: %s" % leftovers())
    # into a directory that cannot be written: an error, nothing created
    rc, _, err, _, _ = c.tool(["merge", "-o", os.path.join(c.work, "nodir", "f.json"), good])
    c.check(rc == 2 and "cannot write" in err, "merge -o into a missing directory: exit %s" % rc)


def evil_nvme(path):
    """The generated NVMe/RDMA sample with terminal escapes, a forged report
    line and an invalid UTF-8 octet in its subsystem NQN (CRC is off in it,
    so the octets can be changed in place)."""
    with open(os.path.join(SAMPLES, "generated", "nvmeof.pcap"), "rb") as f:
        d = bytearray(f.read())
    evil = b"nqn.x\x1b[31m\x07\r\n! FAKE finding\xff\xc2\x9b2J\x1b]0;pwned\x07"
    i = d.find(b"nqn.2024-05.example.iwarpscope:nvme-target")
    if i < 0:
        raise Skip("the NVMe sample changed: no subsystem NQN to make hostile")
    d[i:i + len(evil) + 1] = evil + b"\0"
    with open(path, "wb") as f:
        f.write(d)


def no_controls(data):
    """No control octet but LF (and TAB in text tables), no ESC, no C1."""
    bad = [b for b in data if (b < 0x20 and b not in (0x0A, 0x09)) or b == 0x7F]
    return not bad and b"\xc2\x9b" not in data


def case_strings(c):
    """Item 4: every string from the capture escaped in text, valid UTF-8
    JSON; a hostile host's stats still merge."""
    cap = os.path.join(c.work, "evil.pcap")
    evil_nvme(cap)
    for cmd in (["summary"], ["nvme"], ["stats"]):
        rc, out, err, _, _ = c.tool(cmd + [cap])
        c.check(rc == 0 and no_controls(out) and no_controls(err.encode()),
                "%s: no control octets in the text (exit %s)" % (cmd[0], rc))
        c.check(not any(ln.startswith(b"! FAKE") for ln in out.splitlines()),
                "%s: no forged line" % cmd[0])
    rc, out, err, _, _ = c.tool(["summary", cap])
    c.check(b"\\x1b[31m\\x07\\x0d\\x0a! FAKE finding\\xff\\xc2\\x9b2J" in out,
            "the NQN shown with visible escapes")
    for cmd in (["stats", "--format", "json"], ["nvme", "--format", "jsonl"],
                ["ops", "--format", "jsonl"]):
        rc, out, err, _, _ = c.tool(cmd + [cap])
        try:
            text = out.decode("utf-8")
            docs = [json.loads(ln) for ln in text.splitlines()] if cmd[-1] == "jsonl" \
                else [json.loads(text)]
            ok = rc == 0 and len(docs) > 0
        except (UnicodeDecodeError, ValueError) as e:
            ok = False
            c.problems.append("%s: %s" % (" ".join(cmd), e))
        c.check(ok, "%s: valid UTF-8 JSON" % " ".join(cmd))
    rc, out, err, _, _ = c.tool(["stats", "--format", "json", cap])
    sj = os.path.join(c.work, "evil.json")
    with open(sj, "wb") as f:
        f.write(out)
    good = os.path.join(c.work, "good.json")
    rc, out, err, _, _ = c.tool(["stats", "--format", "json",
                                 os.path.join(SAMPLES, "real", "05-read_lat.pcap")])
    with open(good, "wb") as f:
        f.write(out)
    nqn = json.loads(open(sj, encoding="utf-8").read())["qps"][0]["nvme"]["subnqn"]
    c.check(nqn == "nqn.x\x1b[31m\x07\r\n! FAKE finding\\xff\x9b2J\x1b]0;pwned\x07",
            "the JSON keeps every octet (invalid ones as the text \\xff): %r" % nqn)
    rc, out, err, _, _ = c.tool(["merge", good, sj])
    c.check(rc == 0 and no_controls(out), "a hostile host's stats merge, the text escaped (exit %s)"
            % rc)
    rc, out, err, _, _ = c.tool(["report", cap])
    c.check(rc == 0 and b"\x1b" not in out and b"\x07" not in out, "the HTML report holds no raw "
            "control octets")
    # a file name with escapes, in a directory operand
    d = os.path.join(c.work, "names")
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(SAMPLES, "real", "05-read_lat.pcap"),
                os.path.join(d, "a\x1b]0;x\x07b.pcap"))
    shutil.copy(os.path.join(SAMPLES, "real", "05-read_lat.pcap"), os.path.join(d, "c.pcap"))
    rc, out, err, _, _ = c.tool(["summary", d])
    c.check(rc == 0 and no_controls(out) and no_controls(err.encode()) and b"a\\x1b]0;x\\x07b" in out,
            "a file name's escapes shown visibly (exit %s)" % rc)


def udp_flood(port, n, stop):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sent = 0
    while not stop.is_set() and sent < n:
        s.sendto(b"p" * 200, ("127.0.0.1", port))
        sent += 1
        if sent % 200 == 0:
            time.sleep(0.002)
    s.close()


def case_live_full(c):
    """Item 5: live -w on a full file system (a file size limit makes every
    write past it fail, as a full disk does) and on /dev/full."""
    # libpcap 1.10.3 leaks 160 octets in pcap_compile (tests/cli/live_loopback.py)
    supp = os.path.join(HERE, "..", "cli", "lsan-libpcap.supp")
    opts = os.environ.get("LSAN_OPTIONS", "")
    os.environ["LSAN_OPTIONS"] = (opts + ":" if opts else "") + "suppressions=" + supp
    port = 45000 + os.getpid() % 1000
    save = os.path.join(c.work, "live.pcap")
    base = ["-i", "lo", "-f", "udp port %d" % port, "--no-progress"]

    def limit_fsize():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100000, 100000))

    stop = threading.Event()
    th = threading.Thread(target=udp_flood, args=(port, 10**8, stop))
    th.start()
    try:
        rc, out, err, secs, _ = c.tool(base + ["-c", "3000", "-w", save], preexec=limit_fsize,
                                       timeout=60)
        rc2, _, err2, _, _ = c.tool(base + ["-c", "10", "-w", "/dev/full"], timeout=30)
    finally:
        stop.set()
        th.join()
    if rc == 2 and ("permission" in err.lower() or "operation not permitted" in err.lower()) \
            and "not saved" not in err:
        raise Skip("no capture permission: " + err.strip())
    lost = None
    for word in err.split("\n"):
        if "packets not saved" in word:
            lost = int(word.split(": ")[-1].split(" of ")[0])
    c.check(rc == 2 and lost is not None and 0 < lost < 3000,
            "-w on a full file: exit %s, said %s packets lost: %s" % (rc, lost, err.strip()[-200:]))
    if lost is not None:
        with open(save, "rb") as f:
            b = f.read()
        off, n = 24, 0
        while off + 16 <= len(b):
            incl = struct.unpack("<I", b[off + 8:off + 12])[0]
            if off + 16 + incl > len(b):
                break
            off += 16 + incl
            n += 1
        c.check(off == len(b) and n == 3000 - lost,
                "the file holds exactly the %d packets said saved, whole (%d records, %d octets "
                "left over)" % (3000 - lost, n, len(b) - off))
    c.check(rc2 == 2 and "/dev/full" in err2, "-w /dev/full: exit %s: %s" % (rc2, err2.strip()[-120:]))


def case_many_files(c):
    """Item 6: a rotated set of many files: each was opened at once with a
    1 MiB buffer; too many for the descriptor limit; names compared in
    pairs."""
    n = max(300, int(1100 * c.a.scale))
    pat = rotated_set(os.path.join(c.work, "set"), n, per_file=3)
    rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress", pat])
    ok = rc == 0
    try:
        ok = ok and json.loads(out)["capture"]["frames"] == 3 * n
    except (ValueError, KeyError):
        ok = False
    c.check(ok and sane(err), "%d files read (exit %s%s)" % (n, rc, "" if ok else ": " + err[-150:]))
    c.check(rss <= c.mib(64), "%d files: peak RSS %.0f MiB <= %d MiB (%.2f s)" %
            (n, rss, c.mib(64), secs))

    def few_fds():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress", pat],
                                     preexec=few_fds)
    c.check(rc == 0 and sane(err), "%d files under ulimit -n 256: exit %s%s" %
            (n, rc, "" if rc == 0 else ": " + err.strip()[-150:]))
    shutil.rmtree(os.path.dirname(pat))
    # files of 1 MiB fill their read buffers: open at once, 256 of them
    # held 256 MiB of buffers (and the survey every record)
    nbig = max(64, int(256 * c.a.scale))
    d = os.path.join(c.work, "big")
    os.makedirs(d)
    recs = sample_records("08-read_bw-64k.pcap")
    body, size = [], 0
    while size < (1 << 20):
        data = recs[len(body) % len(recs)][1]
        body.append(data)
        size += len(data) + 16
    for i in range(nbig):
        write_pcap(os.path.join(d, "b.pcap%d" % i),
                   [rec(T0 + (i * len(body) + k) * 1000, data) for k, data in enumerate(body)])
    rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress",
                                      os.path.join(d, "b.pcap*")])
    c.check(rc == 0 and rss <= c.mib(64), "%d files of 1 MiB: exit %s, peak RSS %.0f MiB <= %d MiB "
            "(%.2f s)" % (nbig, rc, rss, c.mib(64), secs))
    shutil.rmtree(d)
    times = []
    sizes = (int(2000 * c.a.scale), int(8000 * c.a.scale))
    for n in sizes:
        pat = rotated_set(os.path.join(c.work, "empty%d" % n), n, per_file=0)
        rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress", pat],
                                         timeout=60)
        c.check(rc == 0, "%d empty files: exit %s" % (n, rc))
        times.append(secs)
        shutil.rmtree(os.path.dirname(pat))
    ratio_ok(c, "%d and %d empty files" % sizes, times[0], times[1], 4, 8)


def zstd_set(c, d, nfiles, log):
    """nfiles files, each of 2^log octets of pcap (incompressible payloads),
    compressed with zstd --long=log from a pipe (so the frame asks for the
    whole window), one after another in time."""
    if not shutil.which("zstd"):
        raise Skip("no zstd program to make the files")
    os.makedirs(d, exist_ok=True)
    payload = os.urandom(1400)
    pkt = mk.tcp_packet(mk.A, mk.B, 40000, 18515, 1000, 1, 0x18, payload)
    per = (1 << log) // (len(pkt) + 16) + 16
    for i in range(nfiles):
        body = PCAP_NS_HEADER + b"".join(rec(T0 + (i * per + k) * 1000, pkt) for k in range(per))
        out = os.path.join(d, "z.pcap%d.zst" % i)
        p = subprocess.run(["zstd", "-q", "-1", "--long=%d" % log, "-c"], input=body,
                           stdout=open(out, "wb"))
        if p.returncode:
            raise Skip("zstd --long failed")
    return os.path.join(d, "z.pcap*.zst")


def case_zstd_windows(c):
    """Item 7: every zstd window stayed allocated until the end; windows
    above --max-window refused with a clear message."""
    pat = zstd_set(c, os.path.join(c.work, "zst"), 8, 24)
    rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress", pat])
    if "without libzstd" in err:
        raise Skip("built without libzstd")
    c.check(rc == 0 and sane(err), "8 files with 16 MiB windows read: exit %s%s" %
            (rc, "" if rc == 0 else ": " + err.strip()[-150:]))
    c.check(rss <= c.mib(80), "peak RSS %.0f MiB <= %d MiB (one window at a time, %.2f s)" %
            (rss, c.mib(80), secs))
    rc, out, err, secs, _ = c.tool(["stats", "--no-progress", "--max-window", "8M", pat])
    c.check(rc == 2 and "--max-window 16M" in err and err.count("\n") == 1,
            "a 16 MiB window above --max-window 8M refused, naming what to give (exit %s: %s)" %
            (rc, err.strip()))


def write_json_array(path, mib, shaped):
    """mib MiB of '0,' in an array (shaped: inside a stats-shaped object)."""
    with open(path, "wb") as f:
        f.write(b'{"qps": [], "total": {}, "x": [' if shaped else b"[")
        chunk = b"0," * (1 << 19)
        for _ in range(mib):
            f.write(chunk)
        f.write(b"0]}" if shaped else b"0]")


def wide_stats(path, objects, width):
    d = {"capture": {"frames": 1}, "qps": [],
         "total": {"w%d" % i: {"a%d" % k: k for k in range(width)} for i in range(objects)}}
    with open(path, "w") as f:
        json.dump(d, f)


def case_merge(c):
    """Item 8: merge's memory before refusal, wide objects, lying sums."""
    big = os.path.join(c.work, "array.json")
    write_json_array(big, 64, False)
    rc, out, err, secs, rss = c.tool(["merge", big, big, big])
    c.check(rc == 2 and rss <= c.mib(200), "three 64 MiB arrays refused: exit %s, peak RSS %.0f MiB "
            "<= %d (%.2f s)" % (rc, rss, c.mib(200), secs))
    shaped = os.path.join(c.work, "shaped.json")
    write_json_array(shaped, 64, True)
    rc, out, err, secs, rss = c.tool(["merge", shaped])
    c.check(rc == 2 and "merge has left" in err and rss <= c.mib(200),
            "a stats-shaped 64 MiB of values refused by merge's memory budget: exit %s, peak RSS "
            "%.0f MiB <= %d (%s)" % (rc, rss, c.mib(200), err.strip()[-120:]))
    os.unlink(big)
    os.unlink(shaped)
    times = []
    for w in (256, 1024):
        p = os.path.join(c.work, "wide%d.json" % w)
        wide_stats(p, int(300 * c.a.scale), w)
        rc, out, err, secs, rss = c.tool(["merge", "--format", "json", p, p], timeout=60)
        c.check(rc == 0, "wide objects (%d members) merged: exit %s" % (w, rc))
        times.append(secs)
    ratio_ok(c, "objects 256 then 1024 members wide", times[0], times[1], 4, 8)
    # a sketch whose sum its buckets cannot make (mean 2.3e16, max 4,977,000)
    rc, out, err, _, _ = c.tool(["stats", "--format", "json",
                                 os.path.join(SAMPLES, "real", "05-read_lat.pcap")])
    d = json.loads(out)
    lat = [q["ops"]["read"]["latency_ns"] for q in d["qps"] if "read" in (q.get("ops") or {})][0]
    lat["sketch"]["sum"] = 23 * 10**15 * lat["count"] // 1000
    p = os.path.join(c.work, "liar.json")
    with open(p, "w") as f:
        json.dump(d, f)
    rc, out, err, _, _ = c.tool(["merge", p])
    c.check(rc == 2 and "sum" in err, "a lying sketch sum refused: exit %s %s" % (rc, err.strip()))


def libc_inotify():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init()
    return libc, fd


def case_read_once(c):
    """Item 10: inputs that cannot be read twice, and inputs that change
    between the two passes."""
    sample = os.path.join(SAMPLES, "real", "05-read_lat.pcap")
    d = os.path.join(c.work, "globdir")
    os.makedirs(d, exist_ok=True)
    shutil.copy(sample, os.path.join(d, "t.pcap"))
    shutil.copy(sample, os.path.join(d, "t.pcap1"))
    os.mkfifo(os.path.join(d, "t.pcap2"))
    rc, out, err, secs, _ = c.tool(["stats", "--format", "json", "--no-progress",
                                    os.path.join(d, "t.pcap*")], timeout=20)
    c.check(rc == 0 and "not a regular file" in err,
            "a FIFO matched by a pattern is skipped, said (exit %s in %.1f s)" % (rc, secs))
    # <(cat a) b.pcap: a pipe and a file
    frames_one = json.loads(c.tool(["stats", "--format", "json", sample])[1])["capture"]["frames"]
    r, w = os.pipe()

    def feed():
        with open(sample, "rb") as f, os.fdopen(w, "wb") as out:
            out.write(f.read())

    th = threading.Thread(target=feed)
    th.start()
    other = os.path.join(c.work, "b.pcap")
    shutil.copy(os.path.join(SAMPLES, "real", "04-write_lat.pcap"), other)
    frames_b = json.loads(c.tool(["stats", "--format", "json", other])[1])["capture"]["frames"]
    rc, out, err, _, _ = c.tool(["stats", "--format", "json", "/dev/fd/%d" % r, other],
                                pass_fds=(r,), timeout=30)
    os.close(r)
    th.join()
    try:
        frames = json.loads(out)["capture"]["frames"]
    except (ValueError, KeyError):
        frames = None
    c.check(rc == 0 and frames == frames_one + frames_b,
            "a pipe and a file read whole (exit %s, %s frames, want %d)" %
            (rc, frames, frames_one + frames_b))
    # a file that changes between the passes: a rotated set whose first
    # file grows once the first pass has read it (inotify says when). When
    # the growth lands is up to the scheduler: after the CLI is done with
    # that file it rightly says nothing, so the case is tried up to 5 times
    # and one run must say it (each run: exit 0, JSON that parses).
    tries = []
    for attempt in range(5):
        rc, said, err = grow_during_run(c, os.path.join(c.work, "changing%d" % attempt))
        tries.append((rc, said))
        if rc != 0 or said:
            break
    c.check(tries[-1][0] == 0 and tries[-1][1],
            "a file that grew between the passes is said, on stderr and in the report (%d tries, last "
            "exit %s: %s)" % (len(tries), tries[-1][0], err.strip()[-200:]))


def grow_during_run(c, sd):
    """One run of stats over a set whose first file grows after the CLI
    closed it twice: (exit status, said on stderr and in the JSON, stderr)."""
    os.makedirs(sd, exist_ok=True)
    recs = sample_records()
    first = os.path.join(sd, "s.pcap")
    write_pcap(first, [rec(t, data) for t, data in recs])
    later = recs[-1][0] + 10**9
    big = [rec(later + k * 1000, recs[k % len(recs)][1]) for k in range(200000)]
    write_pcap(os.path.join(sd, "s.pcap1"), big)
    libc, ifd = libc_inotify()
    IN_CLOSE_NOWRITE = 0x10
    libc.inotify_add_watch(ifd, first.encode(), IN_CLOSE_NOWRITE)
    extra = b"".join(rec(recs[-1][0] + 1000, recs[0][1]) for _ in range(5))

    def grow():
        # the survey's peek, then its full read; then the file grows
        for _ in range(2):
            os.read(ifd, 4096)
        with open(first, "ab") as f:
            f.write(extra)

    th = threading.Thread(target=grow, daemon=True)
    th.start()
    rc, out, err, _, _ = c.tool(["stats", "--format", "json", "--no-progress",
                                 os.path.join(sd, "s.pcap*")], timeout=60)
    th.join(5)
    os.close(ifd)
    said = "changed" in err
    try:
        said = said and any("changed" in w for w in json.loads(out)["capture"]["warnings"])
    except (ValueError, KeyError):
        said = False
        rc = rc or -1
    return rc, said, err


def case_flood(c):
    """Item 12: 32,768 fake MPA Requests, then a real QP."""
    p = mk.Pcap(os.path.join(c.work, "flood.pcap"))
    for i in range(32768):
        src = [10, 1, (i >> 8) & 0xFF, i & 0xFF]
        sport = 1024 + (i % 60000)
        p.write(mk.tcp_packet(src, mk.B, sport, 18515, 7, 0, 0x02), 100)
        p.write(mk.tcp_packet(src, mk.B, sport, 18515, 8, 1, 0x18, mk.MPA_REQ), 100)
    conn = mk.Conn(p, 40003)
    for i in range(40):
        conn.c2s(mk.fpdu(mk.read_req(i + 1, 0x100 + i)))
        conn.s2c(mk.fpdu(mk.read_resp(0x100 + i, 0x1000, b"r" * 1000)), 5000)
    p.close()
    rc, out, err, secs, rss = c.tool(["stats", "--format", "json", "--no-progress",
                                      os.path.join(c.work, "flood.pcap")])
    try:
        d = json.loads(out)
        real = [q for q in d["qps"] if q["operations"]]
    except (ValueError, KeyError):
        real = []
    c.check(rc == 0 and len(real) == 1 and real[0]["operations"] == 40 and
            real[0]["incomplete"] == 0, "the real QP after the flood analysed: its 40 Reads "
            "(%.2f s, %.0f MiB)" % (secs, rss))


def unprivileged():
    """A command prefix to run as nobody when we are root (root reads any file)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        raise Skip("root without setpriv: cannot make a file unreadable")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def unprivileged_dir(as_user):
    """A directory made for the unprivileged user (mode 0755, removed by the
    caller): in the temporary directory, else /tmp. Not in the build tree: a
    checkout under a directory only its owner may enter (a clone in
    `mktemp -d`, under /root) would stop that user at a parent directory, not
    at the file the case makes unreadable (issue 33 item 11). None when that
    user can enter neither."""
    for parent in (None, "/tmp"):
        d = tempfile.mkdtemp(prefix="iws-unprivileged-", dir=parent)
        os.chmod(d, 0o755)
        if not as_user or subprocess.run(as_user + ["test", "-x", d], cwd="/").returncode == 0:
            return d
        os.rmdir(d)
    return None


def unreadable_in_dir(c, sample):
    """An unreadable file in a directory: "Permission denied" naming that
    file, exit 2."""
    as_user = unprivileged()
    top = unprivileged_dir(as_user)
    if not c.check(top is not None, "a directory uid 65534 can enter: in %s or /tmp" % tempfile.gettempdir()):
        return
    try:
        d = os.path.join(top, "perm")
        os.makedirs(d)
        os.chmod(d, 0o755)
        shutil.copy(sample, os.path.join(d, "a.pcap"))
        shutil.copy(sample, os.path.join(d, "b.pcap"))
        os.chmod(os.path.join(d, "a.pcap"), 0o644)
        os.chmod(os.path.join(d, "b.pcap"), 0o000)
        tool = c.a.iwarpscope
        if as_user:
            # nobody must reach the program: a world-readable copy
            tool = os.path.join(top, "iwarpscope")
            shutil.copy(c.a.iwarpscope, tool)
            os.chmod(tool, 0o755)
            # what the case rests on: only b.pcap is out of that user's reach
            c.check(subprocess.run(as_user + ["test", "-r", os.path.join(d, "a.pcap")], cwd="/").returncode == 0,
                    "uid 65534 reads a.pcap beside the unreadable b.pcap")
        p = run(["summary", d], tool, as_user=as_user)
        rc, err = p[0], p[2]
        c.check(rc == 2 and "b.pcap: Permission denied" in err,
                "an unreadable file in a directory: exit %s: %s" % (rc, err.strip()))
    finally:
        shutil.rmtree(top, ignore_errors=True)


def case_small(c):
    """Item 13: an unreadable file in a directory, compressed-data offsets,
    impossible times."""
    sample = os.path.join(SAMPLES, "real", "05-read_lat.pcap")
    unreadable_in_dir(c, sample)
    # gzip: an invalid block type in the first deflate block, octet 10
    with open(sample, "rb") as f:
        g = bytearray(gzip.compress(f.read(), mtime=0))
    g[10] |= 0x06
    bad = os.path.join(c.work, "bad.pcap.gz")
    with open(bad, "wb") as f:
        f.write(g)
    rc, out, err, _, _ = c.tool(["stats", "--format", "json", bad])
    at = err.split("near compressed octet ")[-1].split(";")[0].split()[0] if "near" in err else "?"
    c.check(at in ("10", "11"), "gzip damage at octet 10 said near octet %s" % at)
    if shutil.which("zstd"):
        z = subprocess.run(["zstd", "-q", "-c", sample], stdout=subprocess.PIPE).stdout
        zb = bytearray(z)
        zb[4] |= 0x08  # the frame header's reserved bit
        bz = os.path.join(c.work, "bad.pcap.zst")
        with open(bz, "wb") as f:
            f.write(zb)
        rc, out, err, _, _ = c.tool(["stats", "--format", "json", bz])
        at = err.split("near compressed octet ")[-1].split()[0] if "near" in err else "?"
        c.check(at.isdigit() and int(at) <= 6, "zstd damage at octet 4 said near octet %s" % at)
    for t, want in (("99:99:99", 2), ("24:00:00", 2), ("23:59:60", 0), ("12:00:61", 2),
                    ("2026-02-31 10:00:00", 2), ("2026-13-01 10:00:00", 2), ("+1.5", 0)):
        rc, out, err, _, _ = c.tool(["stats", "--since", t, sample])
        c.check(rc == want, "--since %s: exit %s, want %d" % (t, rc, want))


CASES = {
    "copies": case_copies,
    "survey-conns": case_survey_conns,
    "outputs": case_outputs,
    "strings": case_strings,
    "live-full": case_live_full,
    "many-files": case_many_files,
    "zstd-windows": case_zstd_windows,
    "merge": case_merge,
    "read-once": case_read_once,
    "flood": case_flood,
    "small": case_small,
}


def main(cases=None, doc=None, tag="hostile-field"):
    """Run the cases asked (cases: another script's, which reuses this
    runner; tag starts each line)."""
    cases = cases or CASES
    ap = argparse.ArgumentParser(description=(doc or __doc__).split("\n")[0])
    ap.add_argument("--iwarpscope")
    ap.add_argument("--dir")
    ap.add_argument("--scale", type=float, default=1.0, help="input sizes (1: as documented)")
    ap.add_argument("--rss-scale", type=int, default=1, help="RSS bounds times this (sanitizers)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--private", action="store_true", help="DIR and TMPDIR under a directory of mode 0700")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    if a.list:
        print(";".join(cases))
        return 0
    if not a.iwarpscope or not a.dir:
        ap.error("--iwarpscope and --dir are required")
    if not a.private:
        return run_cases(a, cases, tag)
    if os.geteuid() != 0:
        print("SKIP: not root, so every case runs as you and reaches what you can")
        return 77
    os.makedirs(a.dir, exist_ok=True)
    priv = tempfile.mkdtemp(prefix="private-", dir=a.dir)
    try:
        os.chmod(priv, 0o700)
        a.dir = os.path.join(priv, "build")
        os.makedirs(os.path.join(priv, "tmp"))
        os.environ["TMPDIR"] = tempfile.tempdir = os.path.join(priv, "tmp")
        rc = run_cases(a, cases, tag)
        left = os.listdir(os.path.join(priv, "tmp"))
        if left:
            print("FAIL: left behind in the private TMPDIR: %s" % " ".join(left))
            rc = 1
        return rc
    finally:
        tempfile.tempdir = None
        shutil.rmtree(priv, ignore_errors=True)


def run_cases(a, cases, tag):
    """Each case of cases asked for (all without one), its lines starting
    with tag: 0 all passed, 1 one failed, 77 all skipped."""
    failed = skipped = 0
    for name in a.cases or list(cases):
        work = os.path.join(a.dir, name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        c = Case(a, work)
        t = time.monotonic()
        try:
            cases[name](c)
        except Skip as e:
            print("%s %-13s skip  %s" % (tag, name, e), flush=True)
            skipped += 1
            continue
        except (ValueError, KeyError, IndexError, TypeError, OSError) as e:
            # an output that is not what it must be (not JSON, not UTF-8)
            c.problems.append("%s: %r" % (type(e).__name__, e))
        ok = not c.problems
        print("%s %-13s %s %6.1f s  %s" % (tag, name, "ok  " if ok else "FAIL",
                                           time.monotonic() - t,
                                           "; ".join(c.problems or c.facts)), flush=True)
        failed += not ok
        if ok:
            shutil.rmtree(work, ignore_errors=True)
    if skipped and skipped == len(a.cases or cases):
        return 77
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
