#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Memory per connection (issue 33 items 7 and 8). Each case writes captures
of N and 4N connections at test time and runs iwarpscope on both under
/usr/bin/time (field_hostile.py's runner); what each connection adds to the
peak RSS, (RSS(4N) - RSS(N)) / 3N, must stay under the bound
docs/robustness.md states (with room: a failure means a connection grew):

  open-qps        iWARP connections left open (SYN, MPA Request and Reply, a
                  Read answered, a Send): per command, stats and ops (the
                  stream engine, the operation tracker, the QP's statistics,
                  the connection) and summary, doctor and report (the interop
                  doctor too). Measured: 7.8-8.2 and 10.0 KiB (20.5 KiB in
                  summary before the doctor's rings grew on demand)
  past-max-flows  TCP connections (a SYN each) past --max-flows 1000: what
                  the analysis keeps of each once it is done with it, so its
                  later packets keep Wireshark's numbering. Measured: 45-54
                  B (112 before the compact form)

  conn_memory.py --iwarpscope PATH --dir DIR [--scale F] [--rss-scale K] CASE...
  conn_memory.py --list
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import field_hostile as fh  # noqa: E402
import mkhostile as mk  # noqa: E402
from field_hostile import T0, PCAP_NS_HEADER, rec, sane  # noqa: E402


def open_qps(path, n):
    """n iWARP connections, each set up, a Read answered, a Send; none closed."""
    p = mk.Pcap(path)
    for i in range(n):
        c = mk.Conn(p, 1024 + (i % 60000), src=[10, 2, (i >> 8) & 0xFF, i & 0xFF])
        c.c2s(mk.fpdu(mk.read_req(1, 0x100)))
        c.s2c(mk.fpdu(mk.read_resp(0x100, 0x1000, b"r" * 100)))
        c.c2s(mk.fpdu(mk.send_ulpdu(1, b"s" * 64)))
    p.close()


def syns(path, n):
    """n connections of one SYN each (10.x.y.z:1024+ -> 10.0.0.2:18515)."""
    base = bytearray(mk.tcp_packet(mk.A, mk.B, 1024, 18515, 999, 0, 0x02))
    with open(path, "wb") as f:
        f.write(PCAP_NS_HEADER)
        for i in range(n):
            base[26:30] = bytes([10, (i >> 16) & 0xFF, (i >> 8) & 0xFF, i & 0xFF])
            base[34:36] = struct.pack("!H", 1024 + (i >> 24))
            f.write(rec(T0 + 1000 * i, bytes(base)))


def per_connection(c, args, small, big, n):
    """Octets of peak RSS each of the 3n more connections of big adds, and
    the output of the big run."""
    rc1, _, err1, _, rss1 = c.tool(args + [small], timeout=300)
    rc4, out, err4, secs, rss4 = c.tool(args + [big], timeout=300)
    c.check(rc1 == 0 and rc4 == 0 and sane(err1) and sane(err4),
            "%s: exit %s and %s" % (args[0], rc1, rc4))
    return (rss4 - rss1) * 1024 * 1024 / (3 * n), out, secs


def case_open_qps(c):
    n = int(4096 * c.a.scale)
    small, big = os.path.join(c.work, "n.pcap"), os.path.join(c.work, "4n.pcap")
    open_qps(small, n)
    open_qps(big, 4 * n)
    for cmd, kib in (("stats", 10), ("ops", 10), ("summary", 12), ("doctor", 12), ("report", 12)):
        args = [cmd, "--no-progress"] + (["--format", "json"] if cmd == "stats" else [])
        per, out, secs = per_connection(c, args, small, big, n)
        c.check(per <= kib * 1024 * c.a.rss_scale, "%s: %.0f B per open QP <= %d KiB (%d then %d "
                "QPs, %.2f s)" % (cmd, per, kib * c.a.rss_scale, n, 4 * n, secs))
        if cmd == "stats":
            c.check(len(json.loads(out)["qps"]) == 4 * n, "stats: %d QPs analysed" % (4 * n))


def case_past_max_flows(c):
    n = int(250000 * c.a.scale)
    small, big = os.path.join(c.work, "n.pcap"), os.path.join(c.work, "4n.pcap")
    syns(small, n)
    syns(big, 4 * n)
    args = ["stats", "--format", "json", "--no-progress", "--max-flows", "1000"]
    per, out, secs = per_connection(c, args, small, big, n)
    d = json.loads(out)["capture"]
    c.check(d["tcp_connections"] == 4 * n and d["flows_given_up"] == 4 * n - 1000,
            "%d connections seen, %d given up at --max-flows 1000" %
            (d["tcp_connections"], d["flows_given_up"]))
    # a 28-octet record and an 8-octet slot, both arrays grown in steps
    c.check(per <= 72 * c.a.rss_scale,
            "%.0f B per connection past --max-flows <= %d B (%d then %d connections, %.2f s)" %
            (per, 72 * c.a.rss_scale, n, 4 * n, secs))


CASES = {
    "open-qps": case_open_qps,
    "past-max-flows": case_past_max_flows,
}


if __name__ == "__main__":
    sys.exit(fh.main(CASES, __doc__, "hostile-memory"))
