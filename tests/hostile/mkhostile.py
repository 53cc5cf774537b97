#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write hostile captures for the CLI's robustness tests (issue #6).

Each is built at test time (some are large) into an output directory:

  mkhostile.py OUTDIR [NAME...]      (default: all; --list names them)

The packets are valid Ethernet/IPv4/TCP (checksums included) so the CLI
really has to track them. Scenarios (file NAME.pcap unless noted):
  many-connections   100,000 concurrent TCP connections, each with a SYN and
                     one data segment carrying an MPA Request
  flood-then-qp      100,000 connections carrying no iWARP (a SYN and a data
                     segment each), still open, then one real iWARP QP
  ooo-forever        one iWARP connection, then a hole that is never filled
                     and 100,000 segments (30 MB) after it
  ooo-tiny           a hole never filled, then 200,000 one-octet segments
                     placed in the worst order for an ordered list
  max-fpdu-chain     FPDUs claiming ULPDU_Length 65535 whose octets never all
                     arrive: each 'FPDU' is cut by the next header
  pending-fpdus      20,000 QPs, each starting a maximum-size FPDU that never
                     completes, and still open
  wait-forever       20,000 QPs whose initiator sends FPDUs after its MPA
                     Request and never gets a Reply
  held-storm         no handshake captured; the initiator sends octets in
                     which no FPDU boundary is ever found (a few at a time),
                     so the responder's FPDUs, framed, wait for
                     cross-direction order: 1,500 of 40,000 octets (60 MB)
  read-storm         200,000 Read Requests that are never answered
  write-storm        200,000 RDMA Write segments, each of another message
                     that never sees its last segment
  send-storm         200,000 Send segments (L=0), each of another message
  orphan-responses   65,536 Read Requests never answered, then 100,000 Read
                     Responses that match none of them
  gap-storm          65,536 outstanding Read Requests, then 20,000 holes in
                     the responder's stream, each followed by FPDUs
  garbage-crc        CRC negotiated, then 8 MB crafted to put a plausible
                     maximum-size FPDU header every 20 octets
  marker-grid        no Request captured, then 8 MB that look like a marker
                     grid at every other phase
  tiny-segments      FPDUs sent one octet per segment (260,000 segments)
  snaplen64          a full iWARP conversation captured with snaplen 64
  lying-snaplen      the file header says snaplen 64, the records carry
                     1500 octets
  cut-record         a good capture cut in the middle of a record
  huge-caplen        a good capture, then a record claiming 2 GB
  ts-backwards       a good conversation whose timestamps go back and forth
  ts-extreme         pcapng whose timestamps are near 2^64 ns and 0
  isn-wrap           sequence numbers wrapping 2^32 with overlapping
                     retransmissions across the wrap (ops must all decode)
  nvme-storm         an NVMe/RDMA I/O queue (NVMe rdma_cm data in the MPA
                     Request): 200,000 Read command capsules never answered,
                     100,000 completions of commands long given up, 50,000
                     RDMA Writes whose key no command names
  empty              zero octets
"""
import os
import struct
import sys

ETH = bytes.fromhex("020000000002020000000001") + b"\x08\x00"


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def tcp_packet(src, dst, sport, dport, seq, ack, flags, payload=b"", ip_id=0, opts=b"", win=65535):
    """opts: TCP options, padded here to a multiple of 4 octets."""
    sip, dip = bytes(src), bytes(dst)
    opts += b"\x01" * ((4 - len(opts) % 4) % 4)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF,
                      (5 + len(opts) // 4) << 4, flags, win, 0, 0) + opts
    pseudo = sip + dip + struct.pack("!BBH", 0, 6, len(tcp) + len(payload))
    c = csum(pseudo + tcp + payload)
    tcp = tcp[:16] + struct.pack("!H", c) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp) + len(payload), ip_id & 0xFFFF, 0x4000, 64, 6, 0,
                     sip, dip)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return ETH + ip + tcp + payload


class Pcap:
    """A pcap file with nanosecond timestamps (micro: microseconds)."""

    def __init__(self, path, snaplen=262144, header_snaplen=None, micro=False):
        self.f = open(path, "wb")
        self.snaplen = snaplen
        self.micro = micro
        self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4 if micro else 0xA1B23C4D, 2, 4, 0, 0,
                                 header_snaplen if header_snaplen is not None else snaplen, 1))
        self.t = 1_700_000_000 * 10**9

    def write(self, pkt, dt=1000):
        self.t += dt
        self.write_at(pkt, self.t // 10**9, self.t % 10**9 // (1000 if self.micro else 1))

    def write_at(self, pkt, secs, frac):
        """A record stamped secs (any 32-bit value) and frac (us or ns)."""
        cap = pkt[:self.snaplen]
        self.f.write(struct.pack("<IIII", secs & 0xFFFFFFFF, frac & 0xFFFFFFFF, len(cap), len(pkt)) + cap)

    def raw(self, data):
        self.f.write(data)

    def close(self):
        self.f.close()


A, B = [10, 0, 0, 1], [10, 0, 0, 2]


def mpa_frame(kind, crc=False):
    flags = 0x10 | (0x40 if crc else 0)
    return b"MPA ID %s Frame" % kind + bytes([flags, 2]) + struct.pack("!H", 4) + struct.pack("!HH", 16, 16)


MPA_REQ = mpa_frame(b"Req")
MPA_REP = mpa_frame(b"Rep")

_CRC_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def fpdu(ulpdu, crc=False):
    body = struct.pack("!H", len(ulpdu)) + ulpdu
    body += b"\0" * ((4 - len(body) % 4) % 4)
    return body + (struct.pack("<I", crc32c(body)) if crc else b"\0\0\0\0")


def send_ulpdu(msn, payload, last=True):
    return bytes([0x41 if last else 0x01, 0x43]) + struct.pack("!IIII", 0, 0, msn, 0) + payload


def read_req(msn, stag):
    return bytes([0x41, 0x41]) + struct.pack("!IIII", 0, 1, msn, 0) + struct.pack("!IQIIQ", stag, 0x1000, 65536, 0x99, 0x2000)


def read_resp(stag, to, payload, last=True):
    return bytes([0xC1 if last else 0x81, 0x42]) + struct.pack("!IQ", stag, to) + payload


def write_seg(stag, to, payload, last=False):
    return bytes([0xC1 if last else 0x81, 0x40]) + struct.pack("!IQ", stag, to) + payload


class Conn:
    """An established iWARP connection: handshake and MPA exchange."""

    def __init__(self, pcap, sport, src=A, dst=B, dport=18515, crc=False, isn=(1000, 5000),
                 request=True, reply=True):
        self.p, self.sport, self.dport, self.src, self.dst = pcap, sport, dport, src, dst
        self.cseq, self.sseq = isn
        pcap.write(tcp_packet(src, dst, sport, dport, self.cseq, 0, 0x02))
        pcap.write(tcp_packet(dst, src, dport, sport, self.sseq, self.cseq + 1, 0x12))
        self.cseq += 1
        self.sseq += 1
        req, rep = mpa_frame(b"Req", crc), mpa_frame(b"Rep", crc)
        if request:
            self.c2s(req)
        else:
            self.cseq += len(req)  # sent, not captured
        if reply:
            self.s2c(rep)

    def c2s(self, payload, dt=1000, seq=None):
        s = self.cseq if seq is None else seq
        self.p.write(tcp_packet(self.src, self.dst, self.sport, self.dport, s, self.sseq, 0x18, payload), dt)
        if seq is None:
            self.cseq += len(payload)

    def s2c(self, payload, dt=1000):
        self.p.write(tcp_packet(self.dst, self.src, self.dport, self.sport, self.sseq, self.cseq, 0x18, payload), dt)
        self.sseq += len(payload)


# ---- the lead's scenarios ----

def many_connections(out, n=100_000):
    p = Pcap(out)
    for i in range(n):
        src = [10, 1, (i >> 8) & 0xFF, i & 0xFF]
        sport = 1024 + (i % 60000)
        p.write(tcp_packet(src, B, sport, 18515, 7, 0, 0x02), 100)
        p.write(tcp_packet(src, B, sport, 18515, 8, 1, 0x18, MPA_REQ), 100)
    p.close()


def ooo_forever(out, n=100_000):
    p = Pcap(out)
    c = Conn(p, 40000)
    c.c2s(fpdu(send_ulpdu(1, b"x" * 100)))
    hole = c.cseq
    c.cseq += 1460  # never sent
    for i in range(n):
        c.c2s(fpdu(send_ulpdu(2 + i, b"y" * 280)), 100)
    p.close()
    return hole


def max_fpdu_chain(out, n=20_000):
    """Every segment starts a new FPDU header claiming 65535 octets: the
    stream never holds a complete FPDU."""
    p = Pcap(out)
    c = Conn(p, 40001)
    for i in range(n):
        u = bytes([0x41, 0x43]) + struct.pack("!IIII", 0, 0, i + 1, 0)
        c.c2s(struct.pack("!H", 65535) + u + b"z" * 1400, 100)
    p.close()


def read_storm(out, n=200_000):
    p = Pcap(out)
    c = Conn(p, 40002)
    for i in range(n):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)), 100)
    p.close()


def normal(p, count=50, sport=40003):
    c = Conn(p, sport)
    for i in range(count):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)))
        c.s2c(fpdu(read_resp(0x100 + i, 0x1000, b"r" * 1000)), 5000)
        c.c2s(fpdu(send_ulpdu(i + 1, b"s" * 200)))
    return c


def snaplen64(out):
    p = Pcap(out, snaplen=64)
    normal(p)
    p.close()


def lying_snaplen(out):
    p = Pcap(out, header_snaplen=64)
    normal(p)
    p.close()


def cut_record(out):
    p = Pcap(out)
    normal(p)
    p.close()
    size = os.path.getsize(out)
    with open(out, "r+b") as f:
        f.truncate(size - 700)


# ---- more ----

def flood_then_qp(out, n=100_000):
    """Connections that carry no iWARP fill any connection table first."""
    p = Pcap(out)
    junk = b"GET / HTTP/1.1\r\nHost: example\r\n\r\n"
    for i in range(n):
        src = [10, 2, (i >> 8) & 0xFF, i & 0xFF]
        sport = 1024 + (i % 60000)
        p.write(tcp_packet(src, B, sport, 80, 7, 0, 0x02), 100)
        p.write(tcp_packet(src, B, sport, 80, 8, 1, 0x18, junk), 100)
    normal(p, 20, sport=40010)
    p.close()


def ooo_tiny(out, n=200_000):
    """One-octet segments behind a hole: the even offsets ascending, then the
    odd ones descending, so each lands deep inside the buffered list."""
    p = Pcap(out)
    c = Conn(p, 40004)
    base = c.cseq + 1  # octet c.cseq never arrives
    order = list(range(0, n, 2)) + list(range(n - 1 if (n - 1) % 2 else n - 2, 0, -2))
    for k in order:
        c.c2s(b"x", 10, seq=base + k)
    p.close()


def pending_fpdus(out, n=20_000):
    """Many QPs at once, each holding the start of a 64 kB FPDU."""
    p = Pcap(out)
    for i in range(n):
        src = [10, 3, (i >> 8) & 0xFF, i & 0xFF]
        c = Conn(p, 1024 + (i % 60000), src=src)
        u = bytes([0x01, 0x43]) + struct.pack("!IIII", 0, 0, 1, 0)
        c.c2s(struct.pack("!H", 65535) + u + b"p" * 1400, 100)
        c.c2s(b"p" * 1420, 100)
    p.close()


def wait_forever(out, n=20_000):
    """The initiator sends FPDUs right after its Request; no Reply ever."""
    p = Pcap(out)
    data = b"".join(fpdu(send_ulpdu(k + 1, b"w" * 100)) for k in range(10))
    for i in range(n):
        src = [10, 4, (i >> 8) & 0xFF, i & 0xFF]
        c = Conn(p, 1024 + (i % 60000), src=src, reply=False)
        for _ in range(4):
            c.c2s(data, 100)
    p.close()


def held_storm(out, n=1_500):
    """A mid-stream capture: the initiator's octets might be FPDUs that
    completed before the responder's, so the responder's framed FPDUs wait
    while the initiator's direction hunts for boundaries; it never finds
    one, and its octets come too slowly for the hunt to give up."""
    p = Pcap(out)
    cseq, sseq = 7000, 9000
    big = b"r" * 40_000
    # the initiator's octets: the start of what may be one 65,000-octet
    # Send, whose end (and so whether it is one) never comes
    head = fpdu(send_ulpdu(1, b"i" * (65_000 - 18)))
    for i in range(n):
        junk = head[24 * i:24 * (i + 1)]
        p.write(tcp_packet(A, B, 40010, 18515, cseq, sseq, 0x18, junk), 50)
        cseq += len(junk)
        f = fpdu(send_ulpdu(i + 1, big))
        p.write(tcp_packet(B, A, 18515, 40010, sseq, cseq, 0x18, f), 50)
        sseq += len(f)
    p.close()


def nvme_sqe_read(cid, slba, key):
    """An NVMe Read command capsule (NVMe Base 2.0 SQE; NVMe-oF keyed SGL):
    little-endian, PSDT 01b, a Keyed SGL Data Block of 4096 octets."""
    sgl = struct.pack("<Q", 0x10000 + slba * 4096) + (4096).to_bytes(3, "little") + struct.pack("<I", key) + b"\x40"
    return (bytes([0x02, 0x40]) + struct.pack("<HI", cid & 0xFFFF, 1) + b"\0" * 16 + sgl +
            struct.pack("<QII", slba, 0, 0) + b"\0" * 12)


def nvme_cqe(cid, sqhd):
    return struct.pack("<IIHHHH", 0, 0, sqhd & 0xFFFF, 1, cid & 0xFFFF, 0)


def nvme_storm(out, n=200_000, orphans=100_000, stray=50_000):
    """The host floods commands the controller never answers: the tracker
    gives up the oldest past its in-flight limit (1024 per connection);
    completions of commands given up are orphans; Writes with unknown keys
    match nothing. Memory must stay bounded, every command reported once."""
    p = Pcap(out)
    # MPA Request private data: the enhanced word, then the NVMe RDMA
    # transport's rdma_cm request (RECFMT 0, QID 1, HRQSIZE, HSQSIZE, CNTLID,
    # 22 reserved octets).
    cm = struct.pack("<HHHHH", 0, 1, 128, 127, 0xFFFF) + b"\0" * 22
    req = b"MPA ID Req Frame" + bytes([0x10, 2]) + struct.pack("!H", 4 + len(cm)) + struct.pack("!HH", 16, 16) + cm
    c = Conn(p, 40020, dport=4420, request=False, reply=False)
    c.cseq -= len(MPA_REQ)  # Conn counted its own Request as sent: this one replaces it
    c.c2s(req)
    c.s2c(MPA_REP)
    msn_h, msn_c, o = 1, 1, 0
    for i in range(n):
        c.c2s(fpdu(send_ulpdu(msn_h, nvme_sqe_read(i, i, 0x5000 + i))), 100)
        msn_h += 1
        if o < orphans and i % 2 == 1:
            c.s2c(fpdu(send_ulpdu(msn_c, nvme_cqe(i - 5000, i))), 10)
            msn_c += 1
            o += 1
        if i < 4 * stray and i % 4 == 0:
            c.s2c(fpdu(write_seg(0xBAD00000 + i, 0, b"d" * 64, last=True)), 10)
    while o < orphans:
        c.s2c(fpdu(send_ulpdu(msn_c, nvme_cqe(o, o))), 10)
        msn_c += 1
        o += 1
    p.close()


def write_storm(out, n=200_000):
    p = Pcap(out)
    c = Conn(p, 40005)
    for i in range(n):
        c.c2s(fpdu(write_seg(0x1000 + i, 0, b"w" * 16)), 100)
    p.close()


def send_storm(out, n=200_000):
    p = Pcap(out)
    c = Conn(p, 40006)
    for i in range(n):
        c.c2s(fpdu(send_ulpdu(i + 1, b"s" * 16, last=False)), 100)
    p.close()


def orphan_responses(out, n=100_000):
    p = Pcap(out)
    c = Conn(p, 40007)
    for i in range(65536):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)), 10)
    for i in range(n):
        c.s2c(fpdu(read_resp(0xDEAD0000 + i, 0, b"r" * 16, last=False)), 100)
    p.close()


def gap_storm(out, n=20_000):
    p = Pcap(out)
    c = Conn(p, 40008)
    for i in range(65536):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)), 10)
    for i in range(n):
        c.sseq += 100  # a hole in the direction the responses would take
        c.s2c(b"".join(fpdu(send_ulpdu(30 * i + k, b"g" * 20)) for k in range(30)), 100)
        c.c2s(b"", 10)  # acknowledged past the hole: a gap now
    p.close()


def garbage_crc(out, size=8 << 20):
    p = Pcap(out)
    c = Conn(p, 40009, crc=True)
    c.c2s(struct.pack("!H", 4) + b"\0" * 6)  # framing is lost at once
    unit = struct.pack("!H", 0xFFF0) + bytes([0x01, 0x43]) + struct.pack("!IIII", 0, 0, 7, 0)
    data = unit * (size // len(unit))
    for i in range(0, len(data), 1400):
        c.c2s(data[i:i + 1400], 100)
    p.close()


def marker_grid(out, size=8 << 20):
    """The Request was not captured, so the initiator's markers are unknown:
    every 4-aligned word reads as a plausible marker."""
    p = Pcap(out)
    c = Conn(p, 40011, request=False)
    data = bytes.fromhex("00000004") * (size // 4)
    for i in range(0, len(data), 1400):
        c.c2s(data[i:i + 1400], 100)
    p.close()


def tiny_segments(out, fpdus=4):
    p = Pcap(out)
    c = Conn(p, 40012)
    for j in range(fpdus):
        data = fpdu(send_ulpdu(j + 1, b"q" * 65000))
        for i in range(len(data)):
            c.c2s(data[i:i + 1], 10)
    p.close()


def huge_caplen(out):
    p = Pcap(out)
    normal(p, 20)
    p.raw(struct.pack("<IIII", 1_700_000_100, 0, 0x7FFFFFF0, 0x7FFFFFF0) + b"\0" * 64)
    p.close()


def ts_backwards(out):
    p = Pcap(out)
    c = Conn(p, 40013)
    for i in range(50):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)), -7000 if i % 3 == 0 else 1000)
        c.s2c(fpdu(read_resp(0x100 + i, 0x1000, b"r" * 100)), -5000 if i % 2 else 5000)
    p.close()


def ts_extreme(out):
    """pcapng, one interface with nanosecond resolution; packets of a real
    conversation stamped with times near 2^64 ns, then 0, then normal."""
    pk = []

    class Capture:
        t = 0

        def write(self, pkt, dt=1000):
            pk.append(pkt)

    cap = Capture()
    c = Conn(cap, 40014)
    for i in range(20):
        c.c2s(fpdu(read_req(i + 1, 0x100 + i)))
        c.s2c(fpdu(read_resp(0x100 + i, 0x1000, b"r" * 100)))

    def block(btype, body):
        body += b"\0" * ((4 - len(body) % 4) % 4)
        n = len(body) + 12
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    opt = struct.pack("<HHB", 9, 1, 9) + b"\0\0\0" + struct.pack("<HH", 0, 0)  # if_tsresol = 10^-9
    idb = block(1, struct.pack("<HHI", 1, 0, 262144) + opt)
    stamps = [(1 << 64) - 1000 * (len(pk) - i) for i in range(len(pk) // 3)]
    stamps += [i for i in range(len(pk) // 3)]
    stamps += [1_700_000_000 * 10**9 + i * 1000 for i in range(len(pk) - len(stamps))]
    with open(out, "wb") as f:
        f.write(shb + idb)
        for pkt, t in zip(pk, stamps):
            f.write(block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(pkt), len(pkt)) + pkt))


def isn_wrap(out, count=60):
    """Both directions start 3000 octets before 2^32; every segment is sent
    twice, the copy overlapping it by half and reaching past it."""
    p = Pcap(out)
    c = Conn(p, 40015, isn=(0xFFFFFFFF - 3000, 0xFFFFFFFF - 2000))
    for i in range(count):
        data = fpdu(read_req(i + 1, 0x100 + i)) + fpdu(send_ulpdu(i + 1, b"s" * 300))
        start = c.cseq
        half = len(data) // 2
        c.c2s(data[:half])
        c.c2s(data[half // 2:], seq=(start + half // 2) & 0xFFFFFFFF)  # overlaps, then completes
        c.cseq = (start + len(data)) & 0xFFFFFFFF
        c.s2c(fpdu(read_resp(0x100 + i, 0x1000, b"r" * 500)))
    p.close()


def empty(out):
    open(out, "wb").close()


SCENARIOS = {
    "many-connections": many_connections,
    "flood-then-qp": flood_then_qp,
    "ooo-forever": ooo_forever,
    "ooo-tiny": ooo_tiny,
    "max-fpdu-chain": max_fpdu_chain,
    "pending-fpdus": pending_fpdus,
    "wait-forever": wait_forever,
    "held-storm": held_storm,
    "read-storm": read_storm,
    "write-storm": write_storm,
    "send-storm": send_storm,
    "orphan-responses": orphan_responses,
    "gap-storm": gap_storm,
    "garbage-crc": garbage_crc,
    "marker-grid": marker_grid,
    "tiny-segments": tiny_segments,
    "snaplen64": snaplen64,
    "lying-snaplen": lying_snaplen,
    "cut-record": cut_record,
    "huge-caplen": huge_caplen,
    "ts-backwards": ts_backwards,
    "ts-extreme": ts_extreme,
    "isn-wrap": isn_wrap,
    "nvme-storm": nvme_storm,
    "empty": empty,
}


def path_of(outdir, name):
    return os.path.join(outdir, name + (".pcapng" if name == "ts-extreme" else ".pcap"))


def make(outdir, name):
    os.makedirs(outdir, exist_ok=True)
    out = path_of(outdir, name)
    SCENARIOS[name](out)
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(SCENARIOS))
        return 0
    outdir = sys.argv[1] if len(sys.argv) > 1 else "."
    for name in sys.argv[2:] or list(SCENARIOS):
        if name not in SCENARIOS:
            print("mkhostile: unknown scenario %r (--list)" % name, file=sys.stderr)
            return 2
        make(outdir, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
