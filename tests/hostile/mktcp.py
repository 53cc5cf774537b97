#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write hostile captures for the stream engine's TCP side (issue 33), with
tests/hostile/mkhostile.py's packets:

  mktcp.py OUTDIR NAME [N]           (--list names them)

  ooo-ladder       a hole never filled, one 1-octet segment far ahead, then N
                   ascending 1-octet segments with 1-octet holes between them
                   (each lands just before the far one)
  in-order         N 1-octet segments in order (nothing buffered)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkhostile as mk  # noqa: E402

T0 = 1_700_000_000 * 10**9
US = 1000
MS = 1000 * US


class Flow:
    """One TCP connection written to a pcap: each side's sequence numbers
    and IP IDs (counting up per segment sent, RFC 6864 §4.1's common case),
    times in ns from T0 unless a record is stamped otherwise."""

    def __init__(self, pcap, sport, dport=18515, src=mk.A, dst=mk.B):
        self.p, self.sport, self.dport, self.src, self.dst = pcap, sport, dport, src, dst
        self.seq = [1000, 50000]        # client, server: next sequence number
        self.ipid = [100, 30000]
        self.t = T0

    def send(self, side, payload=b"", flags=0x18, seq=None, ack=None, dt=10 * US, ip_id=None,
             opts=b"", stamp=None):
        """A segment of side (0: client) dt after the previous one; seq
        defaults to the next (and then moves on). stamp: (secs, frac) written
        instead of the time. Returns (seq, ip_id) it carried."""
        self.t += dt
        s = self.seq[side] if seq is None else seq
        a = self.seq[1 - side] if ack is None else ack
        i = self.ipid[side] if ip_id is None else ip_id
        self.ipid[side] += 1
        src, dst = (self.src, self.dst) if side == 0 else (self.dst, self.src)
        sp, dp = (self.sport, self.dport) if side == 0 else (self.dport, self.sport)
        pkt = mk.tcp_packet(src, dst, sp, dp, s, a, flags, payload, ip_id=i, opts=opts)
        if stamp is None:
            self.p.write_at(pkt, self.t // 10**9, self.t % 10**9 // (1000 if self.p.micro else 1))
        else:
            self.p.write_at(pkt, *stamp)
        if seq is None:
            self.seq[side] += len(payload) + (1 if flags & 0x03 else 0)
        return s, i

    def ack(self, side, dt=10 * US, **kw):
        return self.send(side, b"", 0x10, dt=dt, **kw)

    def open(self):
        """Handshake and MPA exchange."""
        self.send(0, flags=0x02)
        self.send(1, flags=0x12)
        self.ack(0)
        self.send(0, mk.MPA_REQ)
        self.send(1, mk.MPA_REP)
        self.ack(0)


# ---- item 6: the out-of-order list's worst order ----

def ladder(out, n, far=True, holes=True):
    p = mk.Pcap(out)
    f = Flow(p, 40110)
    f.open()
    f.send(0, mk.fpdu(mk.send_ulpdu(1, b"x" * 100)))
    base = f.seq[0] + (1 if holes else 0)  # the octet at seq[0] never comes
    step = 2 if holes else 1
    if far:
        f.send(0, b"f", seq=base + step * n + 1000, dt=US)
    for k in range(n):
        f.send(0, b"x", seq=base + step * k, dt=US)
    p.close()


SCENARIOS = {
    "ooo-ladder": (lambda out, n: ladder(out, n), 200_000),
    "in-order": (lambda out, n: ladder(out, n, far=False, holes=False), 200_000),
}


def make(outdir, name, n=0):
    """Write outdir/NAME[-N].pcap (N: the scenario's size, its default when
    0); returns the path."""
    fn, default = SCENARIOS[name]
    n = n or default
    os.makedirs(outdir, exist_ok=True)
    out = os.path.join(outdir, "%s%s.pcap" % (name, "-%d" % n if n else ""))
    fn(out, n)
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(SCENARIOS))
        return 0
    if len(sys.argv) < 3 or sys.argv[2] not in SCENARIOS:
        print("usage: mktcp.py OUTDIR NAME [N] (--list)", file=sys.stderr)
        return 2
    print(make(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
