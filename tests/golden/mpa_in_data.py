#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""MPA keys inside other data are not a connection set-up (issue 24 item 11).

An HTTP download of a real iWARP capture file (05-read_lat.pcap) carries its
MPA Requests, Replies and FPDUs at their offsets in the file, between pcap
record headers and the other direction's frames. Written as one TCP
connection on port 80, three ways: captured from its SYN, captured from the
middle of the file (mid-stream, the keys still ahead), and cut to 96 octets
per frame. None of them is iWARP: the CLI reports no QP and no MPA frame;
with --plugin, tshark shows no iWARP protocol on any frame (frame.protocols
and the Protocol column). The file's own capture still gives its QPs (the
keys are believed where they set up a connection: they begin their stream).

Usage: mpa_in_data.py IWARPSCOPE SAMPLES_DIR WORK_DIR [--plugin SO [--preload ASAN_RUNTIME]]
"""
import json
import os
import shutil
import struct
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, run_ok as run, verdict  # noqa: E402

MSS = 1448
CLIENT, SERVER = (b"\xc0\x00\x02\x15", 40512), (b"\xc0\x00\x02\x16", 80)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src, dst, seq, ack, flags, payload, ip_id):
    """An Ethernet/IPv4/TCP frame with valid checksums."""
    tcp = struct.pack("!HHIIBBHHH", src[1], dst[1], seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4, flags,
                      65535, 0, 0)
    pseudo = src[0] + dst[0] + struct.pack("!BBH", 0, 6, len(tcp) + len(payload))
    tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp + payload)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp) + len(payload), ip_id, 0x4000, 64, 6, 0,
                     src[0], dst[0])
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return b"\x02\0\0\0\0\x16" + b"\x02\0\0\0\0\x15" + b"\x08\x00" + ip + tcp + payload


def download(body):
    """The records of one HTTP/1.1 GET of body, from the SYN to the FINs."""
    recs, t = [], [1_700_000_000_000_000_000]
    ids = [100, 5000]

    def put(side, seq, ack, flags, payload=b""):
        src, dst = (CLIENT, SERVER) if side == 0 else (SERVER, CLIENT)
        ids[side] += 1
        d = frame(src, dst, seq, ack, flags, payload, ids[side])
        t[0] += 20_000
        recs.append((t[0] // 10**9, t[0] % 10**9, len(d), d))

    c, s = 0x10000000, 0x70000000
    put(0, c, 0, 0x02)
    put(1, s, c + 1, 0x12)
    put(0, c + 1, s + 1, 0x10)
    get = b"GET /captures/05-read_lat.pcap HTTP/1.1\r\nHost: example\r\n\r\n"
    put(0, c + 1, s + 1, 0x18, get)
    c += 1 + len(get)
    data = (b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.tcpdump.pcap\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body
    off = 0
    while off < len(data):
        n = min(MSS, len(data) - off)
        put(1, s + 1 + off, c, 0x18 if off + n == len(data) else 0x10, data[off:off + n])
        off += n
        if (off // MSS) % 2 == 0 or off == len(data):
            put(0, c, s + 1 + off, 0x10)
    put(1, s + 1 + off, c, 0x11)
    put(0, c, s + 2 + off, 0x11)
    put(1, s + 2 + off, c + 1, 0x10)
    return recs


def stats_of(tool, path):
    d = json.loads(run(tool, ["stats", "--format", "json", path]))
    return d["qps"]


def plugin_check(plugin, preload, caps):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plugin"))
    import iwarp_tshark  # noqa: E402
    r = iwarp_tshark.Runner(plugin, preload)
    try:
        for name, path in caps:
            p = r.stage(path)
            out = r.run(["-2", "-r", p, "-T", "fields", "-e", "frame.number", "-e", "frame.protocols",
                         "-e", "_ws.col.Protocol"])
            rows = [ln.split("\t") for ln in out.splitlines() if ln.strip()]
            bad = [x for x in rows if "iwarp" in x[1] or
                   any(w in x[2].lower() for w in ("iwarp", "mpa", "ddp", "rdma", "nvme"))]
            # and no iWARP field on any frame
            bad += [[x] for x in r.run(["-2", "-r", p, "-Y", "iwarp.mpa || iwarp.ddp || iwarp.rdmap",
                                        "-T", "fields", "-e", "frame.number"]).split()]
            check(rows and not bad, "%s: the plugin shows iWARP on %d of %d frames (first: %s)"
                  % (name, len({x[0] for x in bad}), len(rows), bad[:1]))
            print("%s: plugin: no iWARP on any of %d frames" % (name, len(rows)))
    finally:
        r.close()


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    opt = dict(zip(argv[4::2], argv[5::2]))
    plugin, preload = opt.get("--plugin"), opt.get("--preload")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(samples, "real", "05-read_lat.pcap")
    with open(src, "rb") as f:
        body = f.read()
    check(len(stats_of(tool, src)) > 0, "05-read_lat itself: no QP")
    recs = download(body)
    p = pcaptool.Pcap(pcaptool.MAGIC_NS, 65535, pcaptool.LINKTYPE_ETHERNET, recs)
    caps = []
    full = os.path.join(work, "http-download.pcap")
    pcaptool.write(full, p)
    caps.append(("from the SYN", full))
    mid = os.path.join(work, "http-download-mid.pcap")
    pcaptool.write(mid, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs[6:]))
    caps.append(("mid-stream", mid))
    sliced = os.path.join(work, "http-download-96.pcap")
    pcaptool.write(sliced, pcaptool.snap(pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs[6:]), 96))
    caps.append(("mid-stream at 96", sliced))
    keys = body.count(b"MPA ID Req Frame") + body.count(b"MPA ID Rep Frame")
    for name, path in caps:
        qps = stats_of(tool, path)
        check(not qps, "%s: %d phantom QPs from the %d MPA keys in the file: %s"
              % (name, len(qps), keys, [(q["qp"], q.get("handshake")) for q in qps]))
        print("%s: %d frames, %d MPA keys in the data, %d QPs" % (name, len(recs), keys, len(qps)))
    if plugin and shutil.which("tshark"):
        plugin_check(plugin, preload, caps)
    elif plugin:
        print("tshark not found: the plugin's part is skipped")
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
