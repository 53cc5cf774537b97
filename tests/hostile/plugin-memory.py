#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's memory per PDU (issue 24 item 9): tshark keeps what the
plugin records for every frame for the whole file, so those records must be
compact. For each case, captures of N and 4N PDUs are read by tshark with
the plugin and without it (Wireshark's own dissectors only); the peak RSS the
plugin adds, divided by the PDUs, must stay under the bound docs/plugin.md
gives (with room: a failure means the records grew), and the time with the
plugin must grow linearly (4N no more than 6 times N). Measured on a busy
2-core machine (tshark 4.0.17): empty Sends 684-744 B per PDU (971-1009
before the records were made compact), unanswered Reads 1150-1200 B on
4.0.17, 4.4.19 and 4.6.9 (most of it the core tracker's in-flight state,
which the CLI holds too; 1250-1330 B before struct iws_op and the tracker's
node were laid out without padding).

Cases (written with tests/hostile/mkhostile.py's helpers):
  sends   N empty Sends, the responder ACKing every second one
  reads   N Read Requests never answered (every one outstanding to the end)

Usage: plugin-memory.py --plugin SO [--n N] [--max-bytes B] [CASE...]
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "plugin"))
import mkhostile as mk  # noqa: E402
import iwarp_tshark as it  # noqa: E402

SKIP = 77


def sends(out, n):
    p = mk.Pcap(out)
    c = mk.Conn(p, 41000)
    for i in range(n):
        c.c2s(mk.fpdu(mk.send_ulpdu(i + 1, b"")), 100)
        if i % 2:
            c.s2c(b"", 100)
    p.close()


def reads(out, n):
    p = mk.Pcap(out)
    c = mk.Conn(p, 41001)
    for i in range(n):
        c.c2s(mk.fpdu(mk.read_req(i + 1, 0x100 + i)), 100)
    p.close()


# case -> (writer, default N, the bound in B per PDU)
# Both start at 20000 PDUs: at 10000 the fixed costs of a tshark run (its
# allocator's blocks, the plugin's tables) moved the figure by 40-60 B per PDU
# from run to run (1246-1327 B on 4.4.19, 1196 on 4.6.9, 1199-1253 on 4.0.17).
CASES = {"sends": (sends, 20000, 850), "reads": (reads, 20000, 1300)}


def measure(r, cap, plugin):
    """(peak RSS in bytes, seconds) of one tshark run over cap."""
    out = os.path.join(r.home, "time.txt")
    args = ["-q", "-r", cap, "-z", "io,stat,0"]
    cmd, env = r.command(args, not plugin)
    p = subprocess.run(["/usr/bin/time", "-f", "%M %e", "-o", out] + cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd="/")
    if p.returncode != 0:
        raise it.Fail("tshark failed on %s: %s" % (cap, p.stderr.decode()[-1000:]))
    kb, sec = open(out).read().split()[-2:]
    return int(kb) * 1024, float(sec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--preload", default=None)
    ap.add_argument("--n", type=int, default=0, help="PDUs of the smaller capture (0: the case's)")
    ap.add_argument("--max-bytes", type=int, default=0, help="peak RSS the plugin may add per PDU (0: the case's)")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    if not shutil.which("tshark") or not os.path.exists("/usr/bin/time"):
        print("SKIP: tshark or /usr/bin/time is not installed")
        return SKIP
    r = it.Runner(a.plugin, a.preload)
    errors, lines = [], []
    try:
        d = r.workdir("input")
        for name in a.cases or list(CASES):
            write, n0, bound = CASES[name]
            n0, bound = a.n or n0, a.max_bytes or bound
            per, times = [], []
            for n in (n0, 4 * n0):
                cap = os.path.join(d, "%s-%d.pcap" % (name, n))
                write(cap, n)
                os.chmod(cap, 0o644)
                with_rss, with_s = measure(r, cap, True)
                base_rss, base_s = measure(r, cap, False)
                b = max(0, with_rss - base_rss) / n
                per.append(b)
                times.append(with_s)
                lines.append("%s %7d PDUs: %5.1f MB with the plugin, %5.1f MB without: %4.0f B per PDU; "
                             "%.2f s (%.2f s without)" % (name, n, with_rss / 1e6, base_rss / 1e6, b, with_s, base_s))
                if b > bound:
                    errors.append("%s, %d PDUs: the plugin adds %.0f B per PDU, more than %d" % (name, n, b, bound))
            if times[1] > 6 * max(times[0], 0.5):
                errors.append("%s: %.2f s for 4x the PDUs of %.2f s: not linear" % (name, times[1], times[0]))
    except it.Fail as e:
        errors.append(str(e))
    finally:
        r.close()
    print("\n".join(lines))
    if errors:
        print("FAIL: " + "\n".join(errors))
        return 1
    print("PASS: the plugin's records stay under their bound per PDU, time linear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
