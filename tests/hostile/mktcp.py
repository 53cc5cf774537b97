#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write hostile captures for the stream engine's TCP side (issue 33 items 1,
6 and 9, and its timestamp fuzz), with tests/hostile/mkhostile.py's packets:

  mktcp.py OUTDIR NAME [N]           (--list names them)

  rtt-overflow     microsecond pcap, two QPs of Reads: in QP 0 the MPA
                   Reply, the ACK that gives the first round trip, is
                   stamped ts_sec 0xFFFFFFFF (libpcap reads 1969, clamped
                   to the epoch: the next ACK gives a sample of 1.7e18 ns;
                   Wireshark reads 2106: a first sample of 2.6e18 ns; then
                   ordinary ones: 7 * SRTT overflowed); in QP 1 one such
                   ACK among ordinary ones, then a Send sent again after a
                   silence of 1 s (a timeout against the RTO the ordinary
                   round trips give, 200 ms)
  ooo-ladder       a hole never filled, one 1-octet segment far ahead, then N
                   ascending 1-octet segments with 1-octet holes between them
                   (each lands just before the far one)
  in-order         N 1-octet segments in order (nothing buffered)
  late-fill-ipid   N losses (the segment never captured), each followed by
                   four later segments and four duplicate ACKs, refilled
                   300 ms later with the IP ID it first had (lower than the
                   later segments'): every refill is a fast retransmission
  late-fill-zero   the same with every IP ID 0
  late-fill-sack   the same with SACK blocks on the duplicate ACKs that
                   claim octets never sent and the hole itself
  late-fill-tsval  the same with TCP timestamps, the refill carrying its
                   first TSval (lower than the later segments')
  late-fill-fast   late-fill-ipid refilled 5 ms after the duplicate ACKs
                   (sooner than the RTO, later than any round trip)
  late-fill-quiet  late-fill-ipid without the duplicate ACKs (the
                   receiver's ACKs not captured while the hole is open):
                   every refill is a timeout
  reordered-quick  N first transmissions overtaken by three later segments
                   (three duplicate ACKs) and captured 20 us after them,
                   before any round trip: reordered, not retransmitted
  ts-*             the timestamp fuzz (ts_cases): one ordinary conversation
                   of Reads, Writes, Sends, a loss and a retransmission,
                   stamped with extreme, backward and zigzag times, in
                   microsecond and nanosecond pcap files
"""
import os
import struct
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

    def open(self, reply_stamp=None):
        """Handshake and MPA exchange (reply_stamp: the Reply's stamp)."""
        self.send(0, flags=0x02)
        self.send(1, flags=0x12)
        self.ack(0)
        self.send(0, mk.MPA_REQ)
        self.send(1, mk.MPA_REP, stamp=reply_stamp)
        self.ack(0)


# ---- item 1: RTT samples from an absurd timestamp ----

def rtt_overflow(out, n=20):
    p = mk.Pcap(out, micro=True)
    bogus = (0xFFFFFFFF, 0)
    # QP 0: the first round trip of the client's half is 2.6e18 ns
    f = Flow(p, 40100)
    f.open(reply_stamp=bogus)
    for i in range(n):
        f.send(0, mk.fpdu(mk.read_req(i + 1, 0x100 + i)))
        f.send(1, mk.fpdu(mk.read_resp(0x100 + i, 0x1000, b"r" * 200)), dt=50 * US)
        f.ack(0)
    # QP 1: ordinary round trips, one absurd one, then a Send, unanswered,
    # sent again after 1 s of silence: a timeout (RTO 200 ms)
    f = Flow(p, 40101)
    f.open()
    for i in range(n):
        f.send(0, mk.fpdu(mk.read_req(i + 1, 0x100 + i)))
        f.send(1, mk.fpdu(mk.read_resp(0x100 + i, 0x1000, b"r" * 200)), dt=50 * US,
               stamp=bogus if i == n // 2 else None)
        f.ack(0)
    s, _ = f.send(0, mk.fpdu(mk.send_ulpdu(1, b"s" * 100)))
    f.send(0, mk.fpdu(mk.send_ulpdu(1, b"s" * 100)), seq=s, dt=1000 * MS)
    f.ack(1)
    p.close()


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


# ---- item 9: late fills after duplicate ACKs ----

def warm_up(f, n=10):
    """n Sends, each ACKed 100 us later: round trips, and a sender seen
    counting its IP IDs up."""
    for i in range(n):
        f.send(0, mk.fpdu(mk.send_ulpdu(1000000 + i, b"w" * 100)))
        f.ack(1, dt=100 * US)


def late_fill(out, n, variant, delay=300 * MS, dupacks=True):
    """n rounds: segment A (never captured), then B, C, D, E, each answered
    by a duplicate ACK of A's sequence number (none captured: dupacks
    False); A again delay after the last of them (the variant says with
    what evidence); the ACK of all; then a Send the receiver ACKs 100 us
    later (the round trips the RTO is made of: 200 ms, its minimum)."""
    p = mk.Pcap(out)
    f = Flow(p, 40120)
    f.open()
    warm_up(f)
    tsval = [1]

    def ts_opt(v=None):
        if variant != "tsval":
            return b""
        tsval[0] += 1
        return b"\x01\x01\x08\x0a" + struct.pack("!II", tsval[0] if v is None else v, 0)

    def ipid(i):
        return 0 if variant == "zero" else i

    for r in range(n):
        a = mk.fpdu(mk.send_ulpdu(5 * r + 1, b"a" * 200))
        a_seq, a_id = f.seq[0], f.ipid[0]
        a_ts = tsval[0] + 1
        ts_opt()
        f.seq[0] += len(a)              # sent, lost before the capture point
        f.ipid[0] += 1
        for k in range(4):
            f.send(0, mk.fpdu(mk.send_ulpdu(5 * r + 2 + k, b"b" * 200)), dt=10 * US,
                   ip_id=ipid(f.ipid[0]), opts=ts_opt())
            sack = b""
            if variant == "sack":
                # RFC 2018 §3 blocks: one naming the hole itself, one far
                # beyond anything sent, one backwards
                blocks = [(a_seq, a_seq + len(a)), (a_seq + (1 << 30), a_seq + (1 << 30) + 100),
                          (a_seq + 500, a_seq + 100)]
                sack = b"\x01\x01\x05" + bytes([2 + 8 * len(blocks)]) + \
                    b"".join(struct.pack("!II", x & 0xFFFFFFFF, y & 0xFFFFFFFF) for x, y in blocks)
            if dupacks:
                f.ack(1, ack=a_seq, dt=5 * US, ip_id=ipid(f.ipid[1]), opts=sack)
        f.send(0, a, seq=a_seq, dt=delay, ip_id=ipid(a_id), opts=ts_opt(a_ts))
        f.ack(1, dt=5 * US, ip_id=ipid(f.ipid[1]))
        f.send(0, mk.fpdu(mk.send_ulpdu(5 * r + 6, b"c" * 100)), dt=10 * US, ip_id=ipid(f.ipid[0]),
               opts=ts_opt())
        f.ack(1, dt=100 * US, ip_id=ipid(f.ipid[1]))
    p.close()


def reordered_quick(out, n):
    """n rounds: A overtaken by B, C, D (each answered by a duplicate ACK),
    A captured 20 us after D, sooner than any round trip (a Send acked
    after 100 us each round): A was sent before them (lower IP ID) and
    nothing was lost."""
    p = mk.Pcap(out)
    f = Flow(p, 40130)
    f.open()
    warm_up(f)
    for r in range(n):
        a = mk.fpdu(mk.send_ulpdu(5 * r + 1, b"a" * 200))
        a_seq, a_id = f.seq[0], f.ipid[0]
        f.seq[0] += len(a)
        f.ipid[0] += 1
        for k in range(3):
            f.send(0, mk.fpdu(mk.send_ulpdu(5 * r + 2 + k, b"b" * 200)), dt=2 * US)
            f.ack(1, ack=a_seq, dt=1 * US)
        f.send(0, a, seq=a_seq, dt=20 * US, ip_id=a_id)
        f.ack(1, dt=5 * US)
        f.send(0, mk.fpdu(mk.send_ulpdu(5 * r + 5, b"c" * 100)), dt=10 * US)
        f.ack(1, dt=100 * US)
    p.close()


# ---- the timestamp fuzz ----

def conversation(f, times):
    """An ordinary conversation whose k-th record is stamped times(k): Reads,
    Writes, Sends, a segment lost and sent again after duplicate ACKs, one
    reordered, FINs."""
    k = [0]
    msn = [0]

    def send_msg(payload):
        msn[0] += 1
        return mk.fpdu(mk.send_ulpdu(msn[0], payload))

    def stamp():
        s = times(k[0])
        k[0] += 1
        return s

    def send(side, payload=b"", **kw):
        return f.send(side, payload, stamp=stamp(), **kw)

    def ack(side, **kw):
        return f.send(side, b"", 0x10, stamp=stamp(), **kw)

    send(0, flags=0x02)
    send(1, flags=0x12)
    ack(0)
    send(0, mk.MPA_REQ)
    send(1, mk.MPA_REP)
    for i in range(12):
        send(0, mk.fpdu(mk.read_req(i + 1, 0x100 + i)))
        send(1, mk.fpdu(mk.read_resp(0x100 + i, 0x1000, b"r" * 300)))
        send(0, mk.fpdu(mk.write_seg(0x900 + i, 0, b"w" * 100, last=True)))
        send(0, send_msg(b"s" * 50))
        ack(1)
        if i == 4:
            # lost, three duplicate ACKs, sent again
            a = send_msg(b"l" * 80)
            a_seq = f.seq[0]
            f.seq[0] += len(a)
            for j in range(3):
                send(0, send_msg(b"m" * 80))
                ack(1, ack=a_seq)
            send(0, a, seq=a_seq)
            ack(1)
        if i == 8:
            # overtaken on the way
            a = send_msg(b"o" * 80)
            a_seq = f.seq[0]
            f.seq[0] += len(a)
            send(0, send_msg(b"p" * 80))
            send(0, a, seq=a_seq)
            ack(1)
    send(0, flags=0x11)
    send(1, flags=0x11)
    ack(0)


def ts_cases():
    """name -> (microsecond file?, k -> (secs, frac)) of the timestamp fuzz."""
    def us(ns, micro):
        return ns // 10**9, ns % 10**9 // (1000 if micro else 1)

    cases = {}
    for micro in (True, False):
        unit = "us" if micro else "ns"
        top = 999_999 if micro else 999_999_999
        kinds = {
            "zero": lambda k: (0, 0),
            "max": lambda k: (0xFFFFFFFF, top),
            # an ordinary capture with one record at 0xFFFFFFFF every 7
            "spikes": lambda k: (0xFFFFFFFF, top) if k % 7 == 3 else us(T0 + k * 10 * US, micro),
            # each record 1 ms earlier than the one before
            "backwards": lambda k: us(T0 + (1000 - k) * MS, micro),
            # 0, 0xFFFFFFFF, 0, ... with the fraction going up
            "zigzag": lambda k: (0xFFFFFFFF if k % 2 else 0, (k * 7919) % (top + 1)),
            # far future (2096), the epoch and ordinary times in turn
            "future": lambda k: (4_000_000_000 + k, top) if k % 3 == 0
            else (0, 1) if k % 3 == 1 else us(T0 + k * US, micro),
            # a fraction at or beyond one second (records as some writers
            # leave them)
            "fraction": lambda k: (1_700_000_000 + k, 0xFFFFFFFF - k),
        }
        for kind, fn in kinds.items():
            cases["ts-%s-%s" % (kind, unit)] = (micro, fn)
    return cases


def ts_capture(out, name):
    micro, times = ts_cases()[name]
    p = mk.Pcap(out, micro=micro)
    conversation(Flow(p, 40140), times)
    # a second QP, interleaved in time with nothing: the same stamps again
    conversation(Flow(p, 40141), times)
    p.close()


SCENARIOS = {
    "rtt-overflow": (lambda out, n: rtt_overflow(out), 0),
    "ooo-ladder": (lambda out, n: ladder(out, n), 200_000),
    "in-order": (lambda out, n: ladder(out, n, far=False, holes=False), 200_000),
    "late-fill-ipid": (lambda out, n: late_fill(out, n, "ipid"), 2000),
    "late-fill-zero": (lambda out, n: late_fill(out, n, "zero"), 2000),
    "late-fill-sack": (lambda out, n: late_fill(out, n, "sack"), 2000),
    "late-fill-tsval": (lambda out, n: late_fill(out, n, "tsval"), 2000),
    "late-fill-fast": (lambda out, n: late_fill(out, n, "ipid", delay=5 * MS), 2000),
    "late-fill-quiet": (lambda out, n: late_fill(out, n, "ipid", dupacks=False), 2000),
    "reordered-quick": (lambda out, n: reordered_quick(out, n), 2000),
}
for _name in ts_cases():
    SCENARIOS[_name] = (lambda out, n, _name=_name: ts_capture(out, _name), 0)


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
