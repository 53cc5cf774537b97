# SPDX-License-Identifier: GPL-2.0-or-later
"""Tiny classic-pcap reader/writer for the CLI tests: derive variants of a sample
(other link types, snaplen cuts, damaged records, split files) without any
dependency beyond the Python standard library."""
import struct

MAGIC_US = 0xA1B2C3D4
MAGIC_NS = 0xA1B23C4D

LINKTYPE_NULL = 0
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = 101
LINKTYPE_LOOP = 108
LINKTYPE_LINUX_SLL = 113
LINKTYPE_LINUX_SLL2 = 276


class Pcap:
    def __init__(self, magic, snaplen, linktype, records):
        self.magic = magic
        self.snaplen = snaplen
        self.linktype = linktype
        self.records = records   # [(sec, frac, orig_len, data)]


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    magic, = struct.unpack("<I", b[:4])
    if magic not in (MAGIC_US, MAGIC_NS):
        raise ValueError("%s: not a little-endian classic pcap" % path)
    _, _, _, _, snaplen, linktype = struct.unpack("<HHiIII", b[4:24])
    recs = []
    off = 24
    while off + 16 <= len(b):
        sec, frac, incl, orig = struct.unpack("<IIII", b[off:off + 16])
        recs.append((sec, frac, orig, b[off + 16:off + 16 + incl]))
        off += 16 + incl
    return Pcap(magic, snaplen, linktype, recs)


def write(path, p, cut_at=None):
    """Write p; cut_at truncates the file to that many octets (a damaged file)."""
    out = bytearray(struct.pack("<IHHiIII", p.magic, 2, 4, 0, 0, p.snaplen, p.linktype))
    for sec, frac, orig, data in p.records:
        out += struct.pack("<IIII", sec, frac, len(data), orig) + data
    if cut_at is not None:
        out = out[:cut_at]
    with open(path, "wb") as f:
        f.write(out)
    return len(out)


def ether_payload(data):
    """(ethertype, payload) of an Ethernet frame, skipping VLAN tags."""
    et = struct.unpack(">H", data[12:14])[0]
    off = 14
    while et in (0x8100, 0x88A8):
        et = struct.unpack(">H", data[off + 2:off + 4])[0]
        off += 4
    return et, data[off:]


def relink(p, linktype):
    """The same packets under another link-layer header."""
    recs = []
    for sec, frac, orig, data in p.records:
        et, pay = ether_payload(data)
        if linktype == LINKTYPE_RAW:
            hdr = b""
        elif linktype == LINKTYPE_NULL:   # host order (little-endian writer)
            hdr = struct.pack("<I", 2 if et == 0x0800 else 30)
        elif linktype == LINKTYPE_LOOP:   # network order
            hdr = struct.pack(">I", 2 if et == 0x0800 else 30)
        elif linktype == LINKTYPE_LINUX_SLL:
            hdr = struct.pack(">HHH8sH", 0, 1, 6, data[6:12] + b"\0\0", et)
        elif linktype == LINKTYPE_LINUX_SLL2:
            hdr = struct.pack(">HHIHBB8s", et, 0, 2, 1, 0, 6, data[6:12] + b"\0\0")
        elif linktype == "qinq":          # 802.1ad outer tag + 802.1Q inner tag
            hdr = data[:12] + struct.pack(">HHHH", 0x88A8, 7, 0x8100, 42) + struct.pack(">H", et)
        else:
            raise ValueError(linktype)
        new = hdr + pay
        recs.append((sec, frac, orig - len(data) + len(new), new))
    lt = LINKTYPE_ETHERNET if linktype == "qinq" else linktype
    return Pcap(p.magic, p.snaplen, lt, recs)


def ip_extras(p, fragment_every=0):
    """IPv4 headers grow 8 octets of options (NOP, NOP, NOP, EOL and a 4-octet
    padding word: IHL 7); IPv6 packets get an 8-octet hop-by-hop options header
    (Pad6) in front of TCP. With fragment_every=N every Nth packet is followed by
    a copy marked as an IP fragment (IPv4 MF, or an IPv6 fragment header with a
    non-zero offset), which a decoder must skip."""
    recs = []
    for i, (sec, frac, orig, data) in enumerate(p.records):
        et, pay = ether_payload(data)
        hdr = data[:len(data) - len(pay)]
        frag = None
        if et == 0x0800 and pay[9] == 6:
            ihl = (pay[0] & 15) * 4
            total = struct.unpack(">H", pay[2:4])[0] + 8
            new = bytes([0x40 | (ihl + 8) // 4]) + pay[1:2] + struct.pack(">H", total) + \
                pay[4:ihl] + b"\x01\x01\x01\x00\x00\x00\x00\x00" + pay[ihl:]
            if fragment_every and i % fragment_every == 0:
                frag = new[:6] + struct.pack(">H", 0x2000) + new[8:]   # MF set
        elif et == 0x86DD and pay[6] == 6:
            plen = struct.unpack(">H", pay[4:6])[0] + 8
            hbh = bytes([6, 0, 1, 4, 0, 0, 0, 0])                      # next TCP, PadN
            new = pay[:4] + struct.pack(">H", plen) + bytes([0]) + pay[7:40] + hbh + pay[40:]
            if fragment_every and i % fragment_every == 0:
                fh = bytes([6, 0]) + struct.pack(">H", 8 << 3) + b"\0\0\0\1"  # offset 8
                frag = new[:6] + bytes([44]) + new[7:40] + fh + new[48:]
        else:
            new = pay
        recs.append((sec, frac, orig - len(pay) + len(new), hdr + new))
        if frag is not None:
            recs.append((sec, frac, orig - len(pay) + len(frag), hdr + frag))
    return Pcap(p.magic, p.snaplen, p.linktype, recs)


def snap(p, snaplen):
    """Every record cut to snaplen octets (orig_len kept)."""
    return Pcap(p.magic, snaplen, p.linktype,
                [(s, f, o, d[:snaplen]) for s, f, o, d in p.records])
