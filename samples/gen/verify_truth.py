#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent consistency check of a generated capture against its truth file.

Re-derives from the capture bytes alone (its own pcap/pcapng reader, IP/TCP
parser with checksum verification, per-direction stream reassembly, the
sender's MPA marker grid (RFC 5044 or one of the deviations the truth may
declare: FPDUPTR little-endian, CRC octets not counted, shifted grid) found
by trying every sender model, marker removal, CRC32c, DDP/RDMAP parsing,
NVMe/RDMA capsules) what the truth file claims, and
reports every disagreement. It shares no code with the generator (C) nor with
the decoders; it exists so that a bug in the generator cannot silently end up
in the ground truth.

usage: verify_truth.py CAPTURE TRUTH.json [CAPTURE TRUTH.json ...]
       verify_truth.py --dir DIR      (every NAME.pcap[ng] + NAME.truth.json in DIR)
exit status: 0 all consistent, 1 disagreements found, 2 usage/IO error.
"""
import json
import struct
import sys

from verify_nvme import check_nvme

M32 = 1 << 32


# ---------------------------------------------------------------- CRC32c
def _crc_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


CRC_T = _crc_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ CRC_T[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283

DEVIATIONS = ("fpduptr_le", "skip_crc", "offset")


def walk_grid(buf, c0, skip, crc_on):
    """Walks the octets buf (a direction's stream from an FPDU boundary) as
    the sender model of Checker.derive_grids: counter c0 at buf[0], CRC octets
    not counted when skip. Returns None as soon as the octets contradict the
    model (a marker that is not 0000 + FPDUPTR in either byte order, a bad
    CRC or a non-zero CRC field with CRC off, DDP/RDMAP version bits), else
    (byte orders every marker agrees with, [(start, wire_len, [(offset,
    fpduptr)], content)]) for the FPDUs that are wholly in buf, offsets
    relative to buf[0]."""
    n = len(buf)
    pos, cnt, last = 0, c0, None
    orders = {"be", "le"}
    out = []
    nmarkers = 0

    def marker(at, ptr):
        v = buf[at:at + 4]
        if len(v) < 4:
            return True  # beyond the captured octets: nothing to check
        if v[:2] != b"\0\0":
            return False
        if v[2:] != struct.pack("!H", ptr):
            orders.discard("be")
        if v[2:] != struct.pack("<H", ptr):
            orders.discard("le")
        return bool(orders)

    while pos < n:
        start, hdr, marks = pos, None, []
        content = bytearray()
        need = 2
        have_len = False
        while len(content) < need:
            if cnt % 512 == 0 and cnt != last:
                ptr = 0 if hdr is None else pos - hdr
                if not marker(pos, ptr):
                    return None
                marks.append((pos, ptr))
                last = cnt
                pos += 4
                cnt += 4
                continue
            step = min((-cnt) % 512 or 512, need - len(content))
            if pos + step > n:
                return (orders, out) if out and nmarkers else None
            if hdr is None:
                hdr = pos
            content += buf[pos:pos + step]
            pos += step
            cnt += step
            if not have_len and len(content) >= 2:
                ulen = content[0] << 8 | content[1]
                need = 2 + ulen + (4 - (2 + ulen) % 4) % 4
                have_len = True
        if cnt % 512 == 0 and cnt != last:  # a marker right before the CRC
            if not marker(pos, pos - hdr):
                return None
            marks.append((pos, pos - hdr))
            last = cnt
            pos += 4
            cnt += 4
        for _ in range(4):  # the CRC field
            if cnt % 512 == 0 and cnt != last:
                return None  # a marker inside the CRC field: no FPDU layout
            pos += 1
            cnt += 0 if skip else 1
        if pos > n:
            return (orders, out) if out and nmarkers else None
        if len(content) < 4 or content[2] & 3 != 1 or content[3] >> 6 != 1:
            return None
        crc = buf[pos - 4:pos]
        if crc_on:
            if struct.unpack("<I", crc)[0] != crc32c(buf[start:pos - 4]):
                return None
        elif crc != b"\0\0\0\0":
            return None
        nmarkers += len(marks)
        out.append((start, pos - start, marks, bytes(content)))
    return (orders, out) if out and nmarkers else None


# ---------------------------------------------------------------- capture files
def read_capture(path):
    """Returns (records, snaplen, precision); record = (ts_ns, origlen, data)."""
    with open(path, "rb") as f:
        buf = f.read()
    recs = []
    magic = struct.unpack_from("<I", buf, 0)[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        nano = magic == 0xA1B23C4D
        snaplen, linktype = struct.unpack_from("<II", buf, 16)
        assert linktype == 1, "link type"
        off = 24
        while off < len(buf):
            sec, frac, cap, orig = struct.unpack_from("<IIII", buf, off)
            off += 16
            recs.append((sec * 10**9 + (frac if nano else frac * 1000), orig, buf[off:off + cap]))
            off += cap
        return recs, snaplen, "ns" if nano else "us"
    if magic == 0x0A0D0D0A:
        off = 0
        snaplen = None
        tsres = 6
        while off < len(buf):
            btype, blen = struct.unpack_from("<II", buf, off)
            body = buf[off + 8:off + blen - 4]
            assert struct.unpack_from("<I", buf, off + blen - 4)[0] == blen, "pcapng trailer"
            if btype == 0x0A0D0D0A:
                assert struct.unpack_from("<I", body, 0)[0] == 0x1A2B3C4D
            elif btype == 1:
                linktype, _, snaplen = struct.unpack_from("<HHI", body, 0)
                assert linktype == 1
                o = 8
                while o + 4 <= len(body):
                    code, olen = struct.unpack_from("<HH", body, o)
                    if code == 0:
                        break
                    if code == 9:
                        tsres = body[o + 4]
                    o += 4 + ((olen + 3) & ~3)
            elif btype == 6:
                _, hi, lo, cap, orig = struct.unpack_from("<IIIII", body, 0)
                ticks = hi << 32 | lo
                assert tsres == 9, "expected if_tsresol 9"
                recs.append((ticks, orig, body[20:20 + cap]))
            off += blen
        return recs, snaplen, "ns"
    raise ValueError("not a capture file: " + path)


def csum(data):
    if len(data) & 1:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def parse_frame(data, orig):
    """Returns a dict or None (not TCP)."""
    full = len(data) == orig
    et = struct.unpack_from("!H", data, 12)[0]
    l2 = 14
    vlan = None
    if et == 0x8100:
        vlan = struct.unpack_from("!H", data, 14)[0] & 0xFFF
        et = struct.unpack_from("!H", data, 16)[0]
        l2 = 18
    p = {"vlan": vlan, "bad": []}
    if et == 0x0800:
        ihl = (data[l2] & 0xF) * 4
        tot = struct.unpack_from("!H", data, l2 + 2)[0]
        if data[l2 + 9] != 6:
            return None
        if csum(data[l2:l2 + ihl]) != 0xFFFF:
            p["bad"].append("IPv4 header checksum")
        src, dst = data[l2 + 12:l2 + 16], data[l2 + 16:l2 + 20]
        l4 = l2 + ihl
        tcplen = tot - ihl
        pseudo = src + dst + struct.pack("!BBH", 0, 6, tcplen)
        p["ip"] = 4
        p["ip_id"] = struct.unpack_from("!H", data, l2 + 4)[0]
        p["src"] = ".".join(str(b) for b in src)
        p["dst"] = ".".join(str(b) for b in dst)
    elif et == 0x86DD:
        plen = struct.unpack_from("!H", data, l2 + 4)[0]
        if data[l2 + 6] != 6:
            return None
        src, dst = data[l2 + 8:l2 + 24], data[l2 + 24:l2 + 40]
        l4 = l2 + 40
        tcplen = plen
        pseudo = src + dst + struct.pack("!IxxxB", tcplen, 6)
        p["ip"] = 6
        p["src"] = "[" + ip6_text(src) + "]"
        p["dst"] = "[" + ip6_text(dst) + "]"
    else:
        return None
    sport, dport, seq, ack, offfl, win = struct.unpack_from("!HHIIHH", data, l4)
    thl = (offfl >> 12) * 4
    p.update(sport=sport, dport=dport, seq=seq, ack=ack, flags=offfl & 0x3F, win=win)
    p["paylen"] = tcplen - thl
    p["payload"] = data[l4 + thl:l4 + tcplen]
    if full and csum(pseudo + data[l4:l4 + tcplen]) != 0xFFFF:
        p["bad"].append("TCP checksum")
    return p


def ip6_text(a):
    w = list(struct.unpack("!8H", a))
    best, blen, i = -1, 0, 0
    while i < 8:
        j = i
        while j < 8 and w[j] == 0:
            j += 1
        if j - i > blen:
            best, blen = i, j - i
        i = j if j > i else i + 1
    if blen < 2:
        return ":".join("%x" % x for x in w)
    left = ":".join("%x" % x for x in w[:best])
    right = ":".join("%x" % x for x in w[best + blen:])
    return left + "::" + right


# ---------------------------------------------------------------- checking
class Checker:
    def __init__(self, cap_path, truth_path):
        self.errors = []
        self.name = truth_path
        with open(truth_path) as f:
            self.t = json.load(f)
        self.recs, self.snaplen, self.prec = read_capture(cap_path)

    def err(self, msg):
        if len(self.errors) < 60:
            self.errors.append(msg)

    def check(self):
        t = self.t
        if t["frames"] != len(self.recs):
            self.err("frames %d != %d records" % (t["frames"], len(self.recs)))
        if t["snaplen"] != self.snaplen:
            self.err("snaplen %d != file %d" % (t["snaplen"], self.snaplen))
        if t["time_precision"] != self.prec:
            self.err("time_precision")
        self.frames = []
        conns = {}
        order = []
        for no, (ts, orig, data) in enumerate(self.recs, 1):
            p = parse_frame(data, orig)
            if p is None:
                self.err("frame %d is not TCP" % no)
                continue
            p["no"], p["ts"] = no, ts
            for b in p["bad"]:
                self.err("frame %d: bad %s" % (no, b))
            if (t["ip"] != p["ip"]) or ((t["link"] == "vlan") != (p["vlan"] is not None)):
                self.err("frame %d: link/ip mismatch" % no)
            a = "%s:%d" % (p["src"], p["sport"])
            b = "%s:%d" % (p["dst"], p["dport"])
            key = frozenset((a, b))
            if key not in conns:
                conns[key] = len(order)
                order.append(key)
            p["qp"] = conns[key]
            p["from"] = a
            self.frames.append(p)
        self.ts = {p["no"]: p["ts"] for p in self.frames}
        if len(order) != len(t["connections"]):
            self.err("%d connections in capture, %d in truth" % (len(order), len(t["connections"])))
        self.conn = {}
        for c in t["connections"]:
            q = c["qp"]
            if q >= len(order) or order[q] != frozenset((c["initiator"], c["responder"])):
                self.err("qp %d endpoints do not match the capture" % q)
                continue
            self.conn[q] = c
        self.build_streams()
        self.check_conns()
        self.check_gaps()
        self.derive_grids()
        self.check_fpdus()
        self.derive_tcp()
        self.check_rtr()
        self.check_ops()
        self.check_tcp()
        if "nvme" in t:
            check_nvme(self)
        return not self.errors

    # -- per-direction byte streams with first-capture frame numbers
    def build_streams(self):
        self.st = {}
        for q, c in self.conn.items():
            for d, who in (("i2r", c["initiator"]), ("r2i", c["responder"])):
                isn = c["isn_" + d]
                segs = [p for p in self.frames if p["qp"] == q and p["from"] == who]
                if isn is None:
                    data = [p for p in segs if p["paylen"] > 0]
                    base = data[0]["seq"] if data else 0
                else:
                    base = (isn + 1) % M32
                st = {"base": base, "byte": {}, "fc": {}, "segs": segs}
                for p in segs:
                    o0 = (p["seq"] - base) % M32
                    if o0 > M32 // 2:
                        continue  # before the stream start (SYN)
                    for k, b in enumerate(p["payload"]):
                        o = o0 + k
                        if o not in st["fc"]:
                            st["fc"][o] = p["no"]
                            st["byte"][o] = b
                        elif st["byte"][o] != b:
                            self.err("qp %d %s: retransmitted octet differs at offset %d" % (q, d, o))
                comp, run = {}, 0
                for o in sorted(st["fc"]):
                    run = max(run, st["fc"][o])
                    comp[o] = run
                st["comp"] = comp
                self.st[(q, d)] = st

    def off(self, q, d, seq):
        return (seq - self.st[(q, d)]["base"]) % M32

    def shown(self, f):
        """Did all of FPDU f go by, as far as the capture shows: the end of its
        direction's furthest captured segment (cut or not), or the receiver's
        furthest ACK, is at or past its end?"""
        q, d = f["qp"], f["dir"]
        st = self.st[(q, d)]
        if "shown" not in st:
            hi = 0
            for p in st["segs"]:
                o0 = (p["seq"] - st["base"]) % M32
                if o0 <= M32 // 2 and p["paylen"]:
                    hi = max(hi, o0 + p["paylen"])
            peer = self.st.get((q, "r2i" if d == "i2r" else "i2r"))
            for p in peer["segs"] if peer else []:
                if p["flags"] & 0x10:
                    a = (p["ack"] - st["base"]) % M32
                    if a <= M32 // 2:
                        hi = max(hi, a)
            st["shown"] = hi
        return self.off(q, d, f["seq"]) + f["wire_len"] <= st["shown"]

    def check_conns(self):
        for q, c in self.conn.items():
            syn = [p for p in self.frames if p["qp"] == q and p["flags"] & 0x02]
            if syn:
                s0 = syn[0]
                if not (s0["flags"] & 0x10) and s0["from"] != c["initiator"]:
                    self.err("qp %d: SYN not from the initiator" % q)
            m = c["mpa"]
            for key, d, fld in ((b"MPA ID Req Frame", "i2r", "request_frame"),
                                (b"MPA ID Rep Frame", "r2i", "reply_frame")):
                st = self.st[(q, d)]
                hit = None
                for p in st["segs"]:
                    if p["payload"][:16] == key:
                        hit = p
                        break
                if (hit is None) != (m[fld] is None):
                    self.err("qp %d: %s presence" % (q, fld))
                    continue
                if hit is None:
                    continue
                hdr = hit["payload"]
                pdlen = struct.unpack_from("!H", hdr, 18)[0]
                end = self.off(q, d, hit["seq"]) + 20 + pdlen
                if st["comp"].get(end - 1) != m[fld]:
                    self.err("qp %d: %s %s != %s" % (q, fld, m[fld], st["comp"].get(end - 1)))
                fl, rev = hdr[16], hdr[17]
                if rev != m["rev"]:
                    self.err("qp %d: rev" % q)
                if d == "i2r":
                    req = (fl, hdr[20:20 + pdlen])
                    ss = c["seqstart_i2r"]
                    if ss is not None and ss != (hit["seq"] + 20 + pdlen) % M32:
                        self.err("qp %d: seqstart_i2r" % q)
                else:
                    rep = (fl, hdr[20:20 + pdlen])
                    ss = c["seqstart_r2i"]
                    if ss is not None and ss != (hit["seq"] + 20 + pdlen) % M32:
                        self.err("qp %d: seqstart_r2i" % q)
            if m["request_frame"] is None or m["reply_frame"] is None:
                continue
            (rf, rpd), (pf, ppd) = req, rep
            if bool(rf & 0x40 or pf & 0x40) != m["crc"]:
                self.err("qp %d: crc flag" % q)
            if not m["rejected"]:
                if bool(pf & 0x80) != m["markers_i2r"] or bool(rf & 0x80) != m["markers_r2i"]:
                    self.err("qp %d: marker flags" % q)
            if bool(pf & 0x20) != m["rejected"]:
                self.err("qp %d: reject flag" % q)
            if rf & 0x10:
                ird = struct.unpack_from("!H", rpd, 0)[0]
                ordv = struct.unpack_from("!H", rpd, 2)[0]
                if (ird & 0x3FFF) != m["ird"] or (ordv & 0x3FFF) != m["ord"]:
                    self.err("qp %d: ird/ord" % q)
                if pf & 0x10 and not m["rejected"]:
                    pird, pord = struct.unpack_from("!HH", ppd, 0)
                    p2p = bool(ird & 0x8000 and pird & 0x8000)
                    if p2p != m["p2p"]:
                        self.err("qp %d: p2p" % q)
                    rtr = None
                    if p2p:
                        rtr = "send" if pird & 0x4000 else "write" if pord & 0x8000 else \
                            "read" if pord & 0x4000 else None
                    if rtr != m["rtr"]:
                        self.err("qp %d: rtr %s != %s" % (q, m["rtr"], rtr))
            elif m["ird"] is not None:
                self.err("qp %d: ird without enhanced word" % q)

    def check_gaps(self):
        """Holes in the sequence space the segments declare (IP length, so
        snaplen cuts are not holes) must be exactly the truth's gaps, and the
        peer must have acknowledged them."""
        for q, c in self.conn.items():
            for d in ("i2r", "r2i"):
                st = self.st[(q, d)]
                cover = []
                for p in st["segs"]:
                    if p["paylen"] > 0:
                        o = self.off(q, d, p["seq"])
                        if o <= M32 // 2:
                            cover.append((o, o + p["paylen"], p["no"]))
                cover.sort()
                holes, end = [], None
                for s0, e0, _ in cover:
                    if end is not None and s0 > end:
                        holes.append((end, s0 - end))
                    end = e0 if end is None else max(end, e0)
                want = [(self.off(q, d, g["seq"]), g["len"]) for g in c["gaps"] if g["dir"] == d]
                if holes != want:
                    self.err("qp %d %s: holes %s != gaps %s" % (q, d, holes, want))
                peer = c["responder"] if d == "i2r" else c["initiator"]
                for (o, n), g in zip(want, [g for g in c["gaps"] if g["dir"] == d]):
                    acked = any(p["flags"] & 0x10 and p["from"] == peer and
                                (p["ack"] - (st["base"] + o + n)) % M32 < M32 // 2
                                for p in self.frames)
                    if not acked:
                        self.err("qp %d %s: gap at %d never acknowledged" % (q, d, g["seq"]))
                    later = [f for s0, e0, f in cover if s0 >= o + n]
                    if later and not g["after_frame"] < min(later):
                        self.err("qp %d %s: gap after_frame %d" % (q, d, g["after_frame"]))

    # -- TCP: retransmissions, duplicate ACKs, zero windows, FIN and RST
    def derive_tcp(self):
        """From the captured segments alone (docs/semantics.md, "TCP per QP"): a segment
        with payload that starts below the highest sequence number captured before in its
        direction is a reordered first transmission when none of its octets was captured
        before and its IP ID (the generator's count up) is below that of a segment already
        captured with later octets, else a retransmission; a duplicate ACK (RFC 5681 2)
        carries no payload, no SYN/FIN/RST, and the acknowledgement number and window of
        its side's previous segment while the peer has captured octets beyond it; a
        retransmission is fast (RFC 5681 3.2) when it starts where the peer's three or
        more duplicate ACKs pointed, a timeout when its sender sent no data for 200 ms
        before it (the RTO estimate of microsecond round trips, Linux's minimum). Also zero
        windows and each side's first FIN and RST."""
        self.retrans = set()
        self.reord = set()
        self.tcp = {q: {"retransmissions": 0, "fast_retransmits": 0, "timeouts": 0, "reordered": 0,
                        "duplicate_acks": 0, "zero_windows": 0, "fin": {}, "rst": {}}
                    for q in self.conn}
        hi, prev, dup, segs, last = {}, {}, {}, {}, {}
        for p in self.frames:
            q = p["qp"]
            if q not in self.conn:
                continue
            c = self.conn[q]
            d = "i2r" if p["from"] == c["initiator"] else "r2i"
            peer = "r2i" if d == "i2r" else "i2r"
            tc = self.tcp[q]
            if p["paylen"] > 0:
                o = self.off(q, d, p["seq"])
                if o > M32 // 2:
                    o -= M32  # before the stream's first captured octet
                seen = segs.setdefault((q, d), [])
                if o < hi.get((q, d), o + 1) and (q, d) in hi:
                    e = o + p["paylen"]
                    fresh = not any(a < e and o < b for a, b, _ in seen)
                    later = [i for a, b, i in seen if a >= e]
                    if (fresh and "ip_id" in p and later and
                            any((p["ip_id"] - i) % 65536 > 32768 for i in later)):
                        self.reord.add(p["no"])
                        tc["reordered"] += 1
                    else:
                        self.retrans.add(p["no"])
                        tc["retransmissions"] += 1
                        n, at = dup.get((q, peer), (0, None))
                        if n >= 3 and at == o:
                            tc["fast_retransmits"] += 1
                        elif (q, d) in last and self.ts[p["no"]] - last[(q, d)] >= 200000000:
                            tc["timeouts"] += 1
                seen.append((o, o + p["paylen"], p.get("ip_id", 0)))
                hi[(q, d)] = max(hi.get((q, d), o + p["paylen"]), o + p["paylen"])
                last[(q, d)] = self.ts[p["no"]]
            ackf = bool(p["flags"] & 0x10)
            ack_o = self.off(q, peer, p["ack"])
            pv = prev.get((q, d))
            if (ackf and p["paylen"] == 0 and not p["flags"] & 0x07 and pv is not None and
                    pv[0] and pv[1] == p["ack"] and pv[2] == p["win"] and
                    (q, peer) in hi and hi[(q, peer)] > ack_o):
                tc["duplicate_acks"] += 1
                n, at = dup.get((q, d), (0, None))
                dup[(q, d)] = (n + 1, ack_o) if at == ack_o else (1, ack_o)
            if not p["flags"] & 0x06 and p["win"] == 0:
                tc["zero_windows"] += 1
            if p["flags"] & 0x01:
                tc["fin"].setdefault(d, p["no"])
            if p["flags"] & 0x04:
                tc["rst"].setdefault(d, p["no"])
            prev[(q, d)] = (ackf, p["ack"], p["win"])

    def closed_at(self, q, side):
        """The frame of side's first FIN or RST in qp q (None: it never closed)."""
        x = [self.tcp[q][k][side] for k in ("fin", "rst") if side in self.tcp[q][k]]
        return min(x) if x else None

    def check_tcp(self):
        """Per connection: the TCP counters and the teardown (FINs, RSTs, Terminates and
        the operations outstanding then: begun, their first FPDU deliverable, and not
        finished, their final FPDU not yet deliverable)."""
        for q, c in self.conn.items():
            tc = self.tcp[q]
            if c["retransmissions"] != tc["retransmissions"]:
                self.err("qp %d: retransmissions %d != %d" % (q, c["retransmissions"],
                                                             tc["retransmissions"]))
            if c.get("reordered_segments") != tc["reordered"]:
                self.err("qp %d: reordered_segments %s != %d" % (q, c.get("reordered_segments"),
                                                                 tc["reordered"]))
            want = {"fast_retransmits": tc["fast_retransmits"], "timeouts": tc["timeouts"],
                    "other_retransmits": tc["retransmissions"] - tc["fast_retransmits"] -
                    tc["timeouts"], "reordered": tc["reordered"],
                    "duplicate_acks": tc["duplicate_acks"], "zero_windows": tc["zero_windows"]}
            if c["tcp"] != want:
                self.err("qp %d: tcp %s != %s" % (q, c["tcp"], want))
            ev = []
            for kind in ("fin", "rst"):
                for side, no in tc[kind].items():
                    ev.append((no, kind, c["initiator"] if side == "i2r" else c["responder"]))
            for k, o in enumerate(self.t["operations"]):
                if o["qp"] == q and o["op"] == "terminate":
                    ev.append((o["last_frame"], "terminate", o["src"]))
            ev.sort(key=lambda e: (e[0], ["fin", "rst", "terminate"].index(e[1])))
            want = []
            hidden = self.hidden_frames(q)
            for no, kind, who in ev:
                out = [k for k, o in enumerate(self.t["operations"])
                       if o["qp"] == q and self.op_span.get(k, (None,))[0] is not None and
                       self.op_span[k][0] <= no and
                       (self.op_span[k][1] is None or self.op_span[k][1] > no) and
                       not self.uncertain(k, no, hidden)]
                want.append({"kind": kind, "from": who, "frame": no, "ns": self.ts[no],
                             "outstanding": len(out), "outstanding_ops": out})
            if c["teardown"] != want:
                self.err("qp %d: teardown %s != %s" % (q, c["teardown"], want))

    def hidden_frames(self, q):
        """{dir: [frame numbers]} of qp q: the segments whose FPDUs after the
        first the snapshot length hid - an FPDU starts in the octets it cut
        (the one that covers its last captured octet, listed in the truth,
        ends before the segment does; or none listed does)."""
        out = {"i2r": [], "r2i": []}
        for d in out:
            st = self.st.get((q, d))
            if not st:
                continue
            fp = sorted((self.off(q, d, f["seq"]), f["wire_len"]) for f in self.t["fpdus"]
                        if f["qp"] == q and f["dir"] == d)
            for p in st["segs"]:
                cap = len(p["payload"])
                if p["paylen"] <= cap or not cap:
                    continue
                s = self.off(q, d, p["seq"])
                last = s + cap - 1
                cover = [o + w for o, w in fp if o <= last < o + w]
                if not cover or cover[0] < s + p["paylen"]:
                    out[d].append(p["no"])
        return out

    def uncertain(self, k, no, hidden):
        """Is operation k's state unknown to the capture at frame no (docs/semantics.md,
        outstanding as the capture shows it)? Responses whose request is not proven, a
        request such a response begun after it may answer, and an operation whose data
        may have come in FPDUs the snapshot length hid since it began."""
        m = self.op_meta.get(k)
        if m is None:
            return False
        if m["resp_alone"]:
            return True
        if any(m["first_frame"] <= h <= no for h in hidden[m["data_dir"]]):
            return True
        if m["request"]:
            for x in self.op_meta.values():
                if x["resp_alone"] and x["qp"] == m["qp"] and x["src_dir"] == m["src_dir"] and \
                   x["resp_frames"][1] <= no and x["resp_frames"][0] > m["first_frame"]:
                    return True
        return False

    def check_rtr(self):
        """In peer-to-peer mode (RFC 6581 7) the initiator's first FPDU, at SeqStart, is
        its RTR: a zero-length Send, Write or Read Request as the Reply chose; a Read RTR
        is answered by the responder's first FPDU, a zero-length Read Response. Those
        FPDUs (self.rtr_fpdus) are the RTR operations'."""
        self.rtr_fpdus = set()
        zero = {0: 14, 1: 46, 2: 14, 3: 18}  # ULPDU_Length of a zero-length message
        for q, c in self.conn.items():
            m = c["mpa"]
            if not (m["p2p"] and m["rtr"]):
                continue
            want = {"i2r": {"send": 3, "write": 0, "read": 1}[m["rtr"]],
                    "r2i": 2 if m["rtr"] == "read" else None}
            for d, opc in want.items():
                ss = c["seqstart_" + d]
                lst = [(self.off(q, d, f["seq"]), i) for i, f in enumerate(self.t["fpdus"])
                       if f["qp"] == q and f["dir"] == d]
                if opc is None or ss is None or not lst:
                    continue
                o, i = min(lst)
                f = self.t["fpdus"][i]
                if o == self.off(q, d, ss) and f["opcode"] == opc and f["ulpdu_len"] == zero[opc]:
                    self.rtr_fpdus.add(i)
                else:
                    self.err("qp %d %s: first FPDU is not the RTR" % (q, d))
            got = sorted(self.t["fpdus"][i]["frame"] for i in self.rtr_fpdus
                         if self.t["fpdus"][i]["qp"] == q)
            if got != sorted(m["rtr_frames"]):
                self.err("qp %d: rtr_frames %s != %s" % (q, m["rtr_frames"], got))
        for q, c in self.conn.items():
            if c["mpa"]["rtr_frames"] and not c["mpa"]["p2p"]:
                self.err("qp %d: RTR messages without p2p" % q)

    # -- FPDUs
    def markers_on(self, q, d):
        return self.conn[q]["mpa"]["markers_" + d]

    def due(self, q, d, o):
        """RFC 5044 4.3: a marker at every S with (S - SeqStart) mod 512 == 0."""
        ss = self.conn[q]["seqstart_" + d]
        seq = (self.st[(q, d)]["base"] + o) % M32
        return ((seq - ss) % M32) % 512 == 0

    # -- marker grids, re-derived from the bytes
    def deviation(self, q, d):
        """The truth's claim about the sender of direction d: (deviations, offset)."""
        c = self.conn[q]
        keys = ["marker_deviation_i2r", "marker_deviation_r2i", "marker_offset_i2r",
                "marker_offset_r2i"]
        have = [k in c for k in keys]
        if any(have) and not all(have):
            self.err("qp %d: marker_deviation_* / marker_offset_* keys incomplete" % q)
            return [], None
        if not any(have):
            return [], None
        dev, off = c["marker_deviation_" + d], c["marker_offset_" + d]
        if [x for x in DEVIATIONS if x in dev] != dev:
            self.err("qp %d %s: marker_deviation %s (names, order)" % (q, d, dev))
        if dev and not self.markers_on(q, d):
            self.err("qp %d %s: marker deviation without markers" % (q, d))
        if ("offset" in dev) != (off is not None):
            self.err("qp %d %s: marker_offset %s with deviations %s" % (q, d, off, dev))
        if off is not None and (off % 4 or not 0 < off < 512):
            self.err("qp %d %s: marker_offset %s" % (q, d, off))
        return dev, off

    def derive_grids(self):
        """For every direction with markers, find every marker grid that is
        consistent with the captured octets and check that exactly one is,
        and that it is the one the truth declares. A grid is a sender model:
        a marker counter that is c0 at the walk's start (SeqStart, or the
        first listed FPDU when the handshake is not captured), advances by
        one per octet sent, marker octets included, CRC octets excluded when
        skip is set; a marker goes wherever the counter is a multiple of 512
        and no marker was put at that counter value yet. FPDUPTR byte order
        is whatever every marker agrees with."""
        self.walked, self.devs = {}, {}
        for q, c in self.conn.items():
            if c["mpa"]["rejected"]:
                continue
            for d in ("i2r", "r2i"):
                dev, off = self.deviation(q, d)
                self.devs[(q, d)] = dev
                if not self.markers_on(q, d):
                    continue
                st = self.st[(q, d)]
                ss = c["seqstart_" + d]
                if ss is not None:
                    o0 = self.off(q, d, ss)
                else:
                    firsts = [self.off(q, d, f["seq"]) for f in self.t["fpdus"]
                              if f["qp"] == q and f["dir"] == d]
                    if not firsts:
                        continue
                    o0 = min(firsts)
                buf = bytearray()
                while o0 + len(buf) in st["byte"]:
                    buf.append(st["byte"][o0 + len(buf)])
                buf = bytes(buf)
                good = []
                for skip in (False, True):
                    for c0 in range(0, 512, 4):
                        r = walk_grid(buf, c0, skip, c["mpa"]["crc"])
                        if r is not None:
                            good.append((skip, c0, r[0], r[1]))
                if len(good) != 1:
                    self.err("qp %d %s: %d marker grids fit the captured octets %s" %
                             (q, d, len(good), [(g[0], g[1]) for g in good][:6]))
                    continue
                skip, c0, orders, fpdus = good[0]
                want_le = "fpduptr_le" in dev
                if want_le and orders != {"le"}:
                    self.err("qp %d %s: FPDUPTR byte order %s, truth says little-endian" %
                             (q, d, sorted(orders)))
                if not want_le and "be" not in orders:
                    self.err("qp %d %s: FPDUPTR byte order %s, truth says network order" %
                             (q, d, sorted(orders)))
                if skip != ("skip_crc" in dev):
                    self.err("qp %d %s: the grid %s the CRC octets, truth says %s" %
                             (q, d, "skips" if skip else "counts", dev))
                if ss is not None and (-c0) % 512 != (off or 0):
                    self.err("qp %d %s: grid offset %d from SeqStart, truth says %s" %
                             (q, d, (-c0) % 512, off))
                self.walked[(q, d)] = {o0 + s: (w, [(o0 + m, ptr) for m, ptr in mk], ct)
                                       for s, w, mk, ct in fpdus}

    def check_fpdus(self):
        t = self.t
        self.fp_payload = []
        last = {}
        for i, f in enumerate(t["fpdus"]):
            q, d = f["qp"], f["dir"]
            if q not in self.conn:
                continue
            st = self.st[(q, d)]
            o = self.off(q, d, f["seq"])
            key = (q, d)
            if key in last and last[key] >= o:
                pass  # order is by frame, not by stream offset
            fc, by = st["fc"], st["byte"]
            mk_on = self.markers_on(q, d)
            dev = self.devs.get((q, d), [])
            # the marker grid: the one derive_grids walked to this FPDU, or
            # (past a gap) RFC 5044's, known from SeqStart alone
            wk = self.walked.get((q, d), {}).get(o)
            rfc = mk_on and not dev and self.conn[q]["seqstart_" + d] is not None
            if mk_on and wk is None and not rfc:
                self.err("fpdu %d: not on the marker grid derived for qp %d %s" % (i, q, d))
                continue
            wk_at = {m for m, _ in wk[1]} if wk else set()

            def is_mk(x, wk=wk, wk_at=wk_at, rfc=rfc, q=q, d=d):
                return x in wk_at if wk else rfc and self.due(q, d, x)

            # walk the FPDU: markers, content, CRC
            markers, content, pos = [], bytearray(), o
            hdrpos = o
            if is_mk(pos):
                markers.append((pos, 0))
                pos += 4
                hdrpos = pos
            need = None
            while True:
                if pos != o and is_mk(pos) and (need is None or len(content) < need):
                    markers.append((pos, pos - hdrpos))
                    pos += 4
                    continue
                if need is not None and len(content) >= need:
                    break
                if pos not in by:
                    break
                content.append(by[pos])
                pos += 1
                if len(content) == 2:
                    ulen = content[0] << 8 | content[1]
                    need = 2 + ulen + (4 - (2 + ulen) % 4) % 4
            if need is None or len(content) < min(need, 20):
                if f["ulpdu_len"] is None or len(content) < 2:
                    self.err("fpdu %d: header not captured" % i)
                    continue
            ulen = content[0] << 8 | content[1]
            if ulen != f["ulpdu_len"]:
                self.err("fpdu %d: ulpdu_len %d != %d" % (i, f["ulpdu_len"], ulen))
                continue
            pad = (4 - (2 + ulen) % 4) % 4
            if pad != f["pad"]:
                self.err("fpdu %d: pad" % i)
            # markers: recompute positions whether or not captured
            exp_mk = []
            p, cl, hp = o, 0, o
            if rfc and self.due(q, d, p):
                exp_mk.append(((st["base"] + p) % M32, 0))
                p += 4
                hp = p
            while cl < 2 + ulen + pad:
                if rfc and self.due(q, d, p) and p != o:
                    exp_mk.append(((st["base"] + p) % M32, p - hp))
                    p += 4
                    continue
                p += 1
                cl += 1
            if rfc and self.due(q, d, p):
                exp_mk.append(((st["base"] + p) % M32, p - hp))
                p += 4
            wire = p + 4 - o
            if wk:
                # the walked sender model, with RFC 5044's formula as a cross-check
                wmk = [((st["base"] + m) % M32, ptr) for m, ptr in wk[1]]
                if rfc and (wmk, wk[0]) != (exp_mk, wire):
                    self.err("fpdu %d: walked grid %s/%d != RFC grid %s/%d" %
                             (i, wmk, wk[0], exp_mk, wire))
                exp_mk, wire = wmk, wk[0]
                if bytes(content) != wk[2]:
                    self.err("fpdu %d: content differs from the walk's" % i)
            if wire != f["wire_len"]:
                self.err("fpdu %d: wire_len %d != %d" % (i, f["wire_len"], wire))
            got_mk = [(m["seq"], m["fpduptr"]) for m in f["markers"]]
            if got_mk != exp_mk:
                self.err("fpdu %d: markers %s != %s" % (i, got_mk, exp_mk))
            for ms, ptr in exp_mk:
                mo = (ms - st["base"]) % M32
                if all(mo + k in by for k in range(4)):
                    val = bytes(by[mo + k] for k in range(4))
                    if val != struct.pack("<HH" if "fpduptr_le" in dev else "!HH", 0, ptr):
                        self.err("fpdu %d: marker bytes at %d" % (i, ms))
            full = all(x in fc for x in range(o, o + wire))
            # frame numbers
            first = min((fc[x] for x in range(o, o + wire) if x in fc), default=None)
            if first != f["first_frame"]:
                self.err("fpdu %d: first_frame %s != %s" % (i, f["first_frame"], first))
            endc = max((st["comp"][x] for x in range(o, o + wire) if x in st["comp"]), default=None)
            # in-order completion: running max up to the last captured octet of the FPDU
            lastcap = max((x for x in range(o, o + wire) if x in fc), default=None)
            comp = st["comp"].get(lastcap)
            if comp != f["frame"]:
                self.err("fpdu %d: frame %s != %s" % (i, f["frame"], comp))
            del endc
            # CRC
            crc_on = self.conn[q]["mpa"]["crc"]
            if not crc_on:
                if f["crc"] != "none":
                    self.err("fpdu %d: crc should be none" % i)
                if full and any(by[o + wire - 4 + k] for k in range(4)):
                    self.err("fpdu %d: CRC field not zero with CRC off" % i)
            elif not full:
                if f["crc"] != "unverifiable":
                    self.err("fpdu %d: crc should be unverifiable" % i)
            else:
                raw = bytes(by[x] for x in range(o, o + wire))
                ok = struct.unpack("<I", raw[-4:])[0] == crc32c(raw[:-4])
                if f["crc"] != ("ok" if ok else "bad"):
                    self.err("fpdu %d: crc %s but computed %s" % (i, f["crc"], ok))
            # DDP / RDMAP header
            h = bytes(content[2:])
            if len(h) < 2:
                self.err("fpdu %d: no DDP header" % i)
                continue
            tagged, lastf = bool(h[0] & 0x80), bool(h[0] & 0x40)
            if h[0] & 0x3 != 1 or h[1] >> 6 != 1:
                self.err("fpdu %d: DDP/RDMAP version" % i)
            opc = h[1] & 0xF
            exp = {"tagged": tagged, "last": lastf, "opcode": opc}
            if tagged and len(h) >= 14:
                stag, to = struct.unpack_from("!IQ", h, 2)
                exp.update(stag=stag, to=to, qn=None, msn=None, mo=None)
                hl = 14
            elif not tagged and len(h) >= 18:
                _, qn, msn, mo = struct.unpack_from("!IIII", h, 2)
                exp.update(stag=None, to=None, qn=qn, msn=msn, mo=mo)
                hl = 18
            else:
                self.err("fpdu %d: DDP header cut" % i)
                continue
            for k, v in exp.items():
                if f[k] != v:
                    self.err("fpdu %d: %s %s != %s" % (i, k, f[k], v))
            self.fp_payload.append((i, f, h, ulen - hl, full))
            last[key] = o
        self.check_tiling()

    def check_tiling(self):
        """Listed FPDUs of a direction must be back to back, except across
        octets that were never captured."""
        by_dir = {}
        for f in self.t["fpdus"]:
            by_dir.setdefault((f["qp"], f["dir"]), []).append(f)
        for (q, d), lst in by_dir.items():
            if q not in self.conn:
                continue
            st = self.st[(q, d)]
            lst = sorted(lst, key=lambda f: self.off(q, d, f["seq"]))
            for a, b in zip(lst, lst[1:]):
                ea = self.off(q, d, a["seq"]) + a["wire_len"]
                sb = self.off(q, d, b["seq"])
                if ea != sb and all(x in st["fc"] for x in range(ea, sb)):
                    self.err("qp %d %s: octets %d..%d captured but in no FPDU" % (q, d, ea, sb))
                if ea > sb:
                    self.err("qp %d %s: FPDUs overlap at %d" % (q, d, sb))

    # -- operations
    def check_ops(self):
        t = self.t
        ops = t["operations"]
        keyprev = None
        for k, o in enumerate(ops):
            key = (o["start_ns"], o["first_frame"])
            if keyprev and key < keyprev:
                self.err("operations not sorted at %d" % k)
            keyprev = key
        groups = {}
        for i, f, h, pay, full in self.fp_payload:
            if f["op"] is not None:
                groups.setdefault(f["op"], []).append((i, f, h, pay, full))
            else:
                self.err("fpdu %d: no op (RTR messages are operations too)" % i)
        self.op_span = {}
        self.op_meta = {}
        for k, o in enumerate(ops):
            g = groups.get(k)
            if not g:
                self.err("op %d has no FPDU" % k)
                continue
            name = o["op"]
            # protocol order: the request first, then the FPDUs in stream order
            g.sort(key=lambda x: (x[1]["opcode"] not in (1, 0xA),
                                  self.off(x[1]["qp"], x[1]["dir"], x[1]["seq"])))
            self.check_op_time(k, o, g)
            if o["start_ns"] != self.ts[o["first_frame"]] or o["end_ns"] != self.ts[o["last_frame"]]:
                self.err("op %d: start/end ns" % k)
            if o["segments"] != len(g):
                self.err("op %d: segments %d != %d" % (k, o["segments"], len(g)))
            bad = sum(1 for _, f, _, _, _ in g if f["crc"] == "bad")
            if o["crc_errors"] != bad:
                self.err("op %d: crc_errors" % k)
            req = [x for x in g if x[1]["opcode"] in (1, 0xA)]
            if name in ("read", "atomic_fetch_add", "atomic_cmp_swap"):
                resp = [x for x in g if x[1]["opcode"] in (2, 0xB)]
                src_dir = req[0][1]["dir"] if req else ("r2i" if resp[0][1]["dir"] == "i2r" else "i2r")
            else:
                src_dir = g[0][1]["dir"]
            c = self.conn[o["qp"]]
            src = c["initiator"] if src_dir == "i2r" else c["responder"]
            dst = c["responder"] if src_dir == "i2r" else c["initiator"]
            if (o["src"], o["dst"]) != (src, dst):
                self.err("op %d: src/dst" % k)
            # what the teardown needs of it (check_tcp): the direction its
            # data (a read's, an atomic's: the responses) comes in, and
            # whether it is responses alone, or a request with them
            reqresp = name in ("read", "atomic_fetch_add", "atomic_cmp_swap", "atomic_swap")
            other = "r2i" if src_dir == "i2r" else "i2r"
            self.op_meta[k] = {"qp": o["qp"], "src_dir": src_dir, "data_dir": other if reqresp else src_dir,
                               "request": reqresp and bool(req), "resp_alone": reqresp and not req,
                               "first_frame": o["first_frame"],
                               "resp_frames": (g[0][1]["first_frame"], g[0][1]["frame"]) if reqresp and not req
                               else None}
            first = min(g, key=lambda x: (x[1]["opcode"] not in (1, 0xA), x[1]["frame"],
                                          self.off(x[1]["qp"], x[1]["dir"], x[1]["seq"])))
            if first[1]["opcode"] != o["opcode"] and req:
                self.err("op %d: opcode" % k)
            h0 = first[2]
            if name == "write":
                bytes_ = sum(x[3] for x in g)
                if (o["stag"], o["to"]) != (first[1]["stag"], first[1]["to"]):
                    self.err("op %d: stag/to" % k)
                tos = sorted((x[1]["to"], x[3]) for x in g)
                for (a, la), (b, _) in zip(tos, tos[1:]):
                    if a + la != b and o["complete"]:
                        self.err("op %d: TO not contiguous" % k)
            elif name == "read":
                resp = [x for x in g if x[1]["opcode"] == 2]
                bytes_ = sum(x[3] for x in resp)
                if req:
                    rh = req[0][2]
                    if len(rh) >= 18 + 16:
                        # a sender the truth says writes them least significant
                        # octet first (rdmap_deviation: read_req_le)
                        le = "read_req_le" in self.conn[o["qp"]].get("rdmap_deviation_" + req[0][1]["dir"], [])
                        sstag, sto, size = struct.unpack_from("<IQI" if le else "!IQI", rh, 18)
                        if (o["stag"], o["to"]) != (sstag, sto):
                            self.err("op %d: read sink stag/to" % k)
                        if o["complete"] and size != bytes_:
                            self.err("op %d: read size %d != %d" % (k, size, bytes_))
                        for x in resp:
                            if x[1]["stag"] != sstag:
                                self.err("op %d: response stag" % k)
                    if (o["qn"], o["msn"]) != (1, req[0][1]["msn"]) and not self.one_of_frame(o, req[0][1]):
                        self.err("op %d: read qn/msn" % k)
                if o["complete"] and not (resp and resp[-1][1]["last"]):
                    self.err("op %d: complete read without last response" % k)
            elif name in ("atomic_fetch_add", "atomic_cmp_swap"):
                resp = [x for x in g if x[1]["opcode"] == 0xB]
                bytes_ = 8 if resp else 0
                if req and len(req[0][2]) >= 18 + 20:
                    aop, rid, stag, to = struct.unpack_from("!IIIQ", req[0][2], 18)
                    if (aop & 0xF) != (0 if name == "atomic_fetch_add" else 2):
                        self.err("op %d: AOpCode" % k)
                    if (o["stag"], o["to"], o["atomic_req_id"]) != (stag, to, rid):
                        self.err("op %d: atomic request fields" % k)
                    if (o["qn"], o["msn"]) != (1, req[0][1]["msn"]) and not self.one_of_frame(o, req[0][1]):
                        self.err("op %d: atomic qn/msn" % k)
                if resp and len(resp[0][2]) >= 18 + 12:
                    rid, orig = struct.unpack_from("!IQ", resp[0][2], 18)
                    if o["atomic_req_id"] != rid or o["atomic_orig_value"] != orig:
                        self.err("op %d: atomic response fields" % k)
                    if resp[0][1]["qn"] != 3:
                        self.err("op %d: atomic response QN" % k)
            elif name in ("immediate", "immediate_se"):
                bytes_ = 8
                if len(h0) >= 26 and struct.unpack_from("!Q", h0, 18)[0] != o["immediate"]:
                    self.err("op %d: immediate value" % k)
                if g[0][1]["opcode"] != (8 if name == "immediate" else 9):
                    self.err("op %d: immediate opcode" % k)
            elif name == "terminate":
                bytes_ = 0
                if len(h0) >= 22:
                    b0, ec, hc = h0[18], h0[19], h0[20]
                    if (b0 >> 4, b0 & 0xF, ec) != (o["term_layer"], o["term_etype"], o["term_errcode"]):
                        self.err("op %d: terminate fields" % k)
                    exp = 18 + 4
                    if hc & 0x40:
                        if len(h0) >= 25:
                            exp += 2 + (14 if h0[24] & 0x80 else 18)
                        else:
                            exp = None
                    if hc & 0x20 and exp:
                        exp += 28
                    if exp and exp != first[1]["ulpdu_len"]:
                        self.err("op %d: terminate length %d != %d" % (k, first[1]["ulpdu_len"], exp))
                if g[0][1]["qn"] != 2:
                    self.err("op %d: terminate QN" % k)
            else:  # send family
                bytes_ = sum(x[3] for x in g)
                opc = {"send": 3, "send_inv": 4, "send_se": 5, "send_se_inv": 6}[name]
                if any(x[1]["opcode"] != opc for x in g):
                    self.err("op %d: send opcode" % k)
                if name.endswith("_inv") and len(h0) >= 6:
                    if struct.unpack_from("!I", h0, 2)[0] != o["inval_stag"]:
                        self.err("op %d: inval_stag" % k)
                mos = sorted((x[1]["mo"], x[3]) for x in g)
                if o["complete"] and (mos[0][0] != 0 or any(a + la != b for (a, la), (b, _)
                                                            in zip(mos, mos[1:]))):
                    self.err("op %d: MO not contiguous" % k)
            if name not in ("write",) and name in ("send", "send_inv", "send_se", "send_se_inv",
                                                   "immediate", "immediate_se", "terminate"):
                if (o["qn"], o["msn"]) != (g[0][1]["qn"], g[0][1]["msn"]):
                    self.err("op %d: qn/msn" % k)
            if o["bytes"] != bytes_:
                self.err("op %d: bytes %d != %d" % (k, o["bytes"], bytes_))
            lat = None
            if name in ("read", "atomic_fetch_add", "atomic_cmp_swap") and req:
                fin = [x for x in g if (x[1]["opcode"] == 2 and x[1]["last"]) or x[1]["opcode"] == 0xB]
                if fin:
                    lat = o["end_ns"] - o["start_ns"]
            if o["latency_ns"] != lat:
                self.err("op %d: latency %s != %s" % (k, o["latency_ns"], lat))
            # whole when every FPDU went by: octets a snapshot length cut, or
            # that the capture missed before later ones or the receiver's ACK,
            # do not make it incomplete; the capture's end does
            gone = all(self.shown(x[1]) for x in g)
            if o["complete"] and not gone:
                self.err("op %d: complete but an FPDU is cut by the capture's end" % k)
            want = o["complete"] and all(x[4] for x in g)
            if o["payload_captured"] != want:
                self.err("op %d: payload_captured %s != %s" % (k, o["payload_captured"], want))

    def one_of_frame(self, o, req):
        """A response proven to answer one of several requests sent in one frame, not
        which (docs/semantics.md): its qn and msn are null."""
        if (o["qn"], o["msn"]) != (None, None):
            return False
        same = [f for f in self.t["fpdus"] if f["qp"] == req["qp"] and f["dir"] == req["dir"] and
                f["opcode"] in (1, 0xA) and f["first_frame"] == req["first_frame"]]
        return len(same) > 1

    def check_op_time(self, k, o, g):
        """Operation k's frames and loss attribution (docs/semantics.md) from its FPDUs g
        in protocol order and the captured segments."""
        fp = [x[1] for x in g]
        first, last = fp[0], fp[-1]
        want = {"first_frame": first["first_frame"], "first_inorder_frame": first["frame"],
                "last_frame": last["frame"]}
        # stall: each FPDU waited from when all of its octets were there (and its
        # predecessor was delivered) until it was delivered itself
        stall, prev = 0, None
        after = False
        for f in fp:
            st = self.st[(f["qp"], f["dir"])]
            o0 = self.off(f["qp"], f["dir"], f["seq"])
            arr = max((st["fc"][x] for x in range(o0, o0 + f["wire_len"]) if x in st["fc"]),
                      default=f["frame"])
            frm = self.ts[arr]
            if prev is not None and prev > frm:
                frm = prev
            stall += max(0, self.ts[f["frame"]] - frm)
            prev = self.ts[f["frame"]]
            closed = self.closed_at(f["qp"], "r2i" if f["dir"] == "i2r" else "i2r")
            if closed is not None and f["first_frame"] > closed:
                after = True
        want["stall_ns"] = stall
        want["after_close"] = after
        want["rtr"] = any(x[0] in self.rtr_fpdus for x in g)
        if after and o["complete"]:
            self.err("op %d: complete but sent after its receiver closed" % k)
        # finished: its final FPDU (L=1 of a Write, Send or Read Response, the Atomic
        # Response, a single-FPDU message) was listed
        fin = [f["frame"] for f in fp if f["opcode"] == 0xB or
               (f["opcode"] not in (1, 0xA) and f["last"])]
        done = fin[-1] if fin else None
        self.op_span[k] = (first["frame"], done)
        # the covering ACK of a complete operation's last FPDU
        ack = None
        if o["complete"]:
            q, d = last["qp"], last["dir"]
            end = self.off(q, d, last["seq"]) + last["wire_len"]
            rcv = self.conn[q]["responder" if d == "i2r" else "initiator"]
            for p in self.frames:
                if (p["qp"] == q and p["from"] == rcv and p["flags"] & 0x10 and
                        (self.off(q, d, p["ack"]) - end) % M32 < M32 // 2):
                    ack = p["no"]
                    break
        want["ack_frame"] = ack
        want["ack_ns"] = None if ack is None else self.ts[ack] - o["start_ns"]
        # retransmitted segments that carried its octets, until it was over
        limit = ack if ack is not None else (done + 1 if done and not o["complete"] else None)
        n = 0
        for p in self.frames:
            if p["no"] not in self.retrans or (limit is not None and p["no"] >= limit):
                continue
            for f in fp:
                if p["qp"] != f["qp"]:
                    continue
                c = self.conn[f["qp"]]
                if p["from"] != (c["initiator"] if f["dir"] == "i2r" else c["responder"]):
                    continue
                s0 = self.off(f["qp"], f["dir"], p["seq"])
                o0 = self.off(f["qp"], f["dir"], f["seq"])
                if s0 < o0 + f["wire_len"] and o0 < s0 + p["paylen"]:
                    n += 1
                    break
        want["retransmissions"] = n
        # reordered segments that carried its octets (they came with them)
        want["reordered"] = sum(
            1 for p in self.frames if p["no"] in self.reord and any(
                p["qp"] == f["qp"] and
                p["from"] == (self.conn[f["qp"]]["initiator"] if f["dir"] == "i2r"
                              else self.conn[f["qp"]]["responder"]) and
                self.off(f["qp"], f["dir"], p["seq"]) < self.off(f["qp"], f["dir"], f["seq"]) + f["wire_len"]
                and self.off(f["qp"], f["dir"], f["seq"]) < self.off(f["qp"], f["dir"], p["seq"]) + p["paylen"]
                for f in fp))
        for key, v in want.items():
            if o[key] != v:
                self.err("op %d: %s %s != %s" % (k, key, o[key], v))


def pairs_in(directory):
    import os
    out = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".truth.json"):
            continue
        stem = os.path.join(directory, name[:-len(".truth.json")])
        for ext in (".pcap", ".pcapng"):
            if os.path.exists(stem + ext):
                out += [stem + ext, stem + ".truth.json"]
                break
        else:
            raise OSError("no capture for " + name)
    return out


def main(argv):
    args = argv[1:]
    try:
        if len(args) == 2 and args[0] == "--dir":
            args = pairs_in(args[1])
            if not args:
                raise OSError("no truth files in " + argv[2])
    except OSError as e:
        print("verify_truth.py: %s" % e, file=sys.stderr)
        return 2
    if not args or len(args) % 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    passed = failed = 0
    for cap, truth in zip(args[0::2], args[1::2]):
        try:
            ch = Checker(cap, truth)
            ok = ch.check()
        except (OSError, ValueError, AssertionError, KeyError, IndexError, struct.error) as e:
            print("%s: error: %r" % (truth, e), file=sys.stderr)
            return 2
        if ok:
            passed += 1
            print("%s: consistent (%d frames, %d FPDUs, %d operations%s)" %
                  (truth, ch.t["frames"], len(ch.t["fpdus"]), len(ch.t["operations"]),
                   ", %d NVMe commands" % len(ch.t["nvme"]) if "nvme" in ch.t else ""))
        else:
            failed += 1
            for e in ch.errors:
                print("%s: %s" % (truth, e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
