#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seed the fuzz corpora from the captures in samples/ (run from the repo root).

Extracts TCP payloads with tshark and writes, per harness, small inputs:
  fuzz_mpa_frame  MPA Request/Reply frames
  fuzz_fpdu       8-octet parameter prefix + a run of FPDUs from one direction
  fuzz_rdmap      single ULPDUs (the FPDU without length, pad and CRC)
  fuzz_tracker    [flags][len][ulpdu] records of a connection's first segments
  fuzz_nvme       [flags][len:2][ulpdu] records of the NVMe/RDMA captures' connections
                  (port 4420): their start, and slices from their middle
  fuzz_cli_packets  the TCP segments of up to four connections in the
                  harness's record encoding (see fuzz_cli_packets.c)
  fuzz_cli_pcap   short prefixes (and a mid-capture slice) of every capture
Deterministic: the same samples give the same files.
Usage: make-corpus.py [HARNESS...]   (default: all)"""
import glob, hashlib, os, struct, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")


def payloads(pcap):
    out = subprocess.run(["tshark", "-r", pcap, "-o", "tcp.desegment_tcp_streams:FALSE",
                          "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.stream",
                          "-e", "tcp.srcport", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[2]:
            yield int(parts[0]), int(parts[1]), bytes.fromhex(parts[2].replace(":", ""))


def save(harness, data):
    d = os.path.join(OUT, harness)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def fpdus(seg):
    """Split a segment that starts on an FPDU boundary (no markers)."""
    off = 0
    while off + 2 <= len(seg):
        ulen = int.from_bytes(seg[off:off + 2], "big")
        total = 2 + ulen + ((4 - (2 + ulen) % 4) % 4) + 4
        if ulen < 14 or off + total > len(seg):
            return
        yield seg[off + 2:off + 2 + ulen]
        off += total


def segments(pcap):
    """(stream, srcport, seq, ack, flags, payload) of every TCP segment."""
    out = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "tcp.stream",
                          "-e", "tcp.srcport", "-e", "tcp.seq_raw", "-e", "tcp.ack_raw",
                          "-e", "tcp.flags", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split("\t")
        if len(p) < 5 or not p[0]:
            continue
        payload = bytes.fromhex(p[5].replace(":", "")) if len(p) > 5 and p[5] else b""
        yield int(p[0]), int(p[1]), int(p[2]), int(p[3] or 0), int(p[4], 16), payload


def cli_packets_seed(pcap, limit=6144, opts=0, limits=0x4A):
    """Encode the first connections' segments for fuzz_cli_packets."""
    isn = 0x10000000
    hdr = bytes([opts, limits]) + struct.pack("!I", isn)
    conns = {}      # stream -> (k, first srcport)
    sides = {}      # (k, side) -> [offset real->harness, cursor]
    out = bytearray(hdr)
    for stream, sport, seq, ack, flags, payload in segments(pcap):
        if stream not in conns:
            if len(conns) == 4:
                continue
            conns[stream] = (len(conns), sport)
        k, first = conns[stream]
        side = 0 if sport == first else 1
        h_isn = (isn + k * 0x10000001 + side * 0x7654321) & 0xFFFFFFFF
        if (k, side) not in sides:
            sides[(k, side)] = [(h_isn - seq) & 0xFFFFFFFF, h_isn]
        off, cursor = sides[(k, side)]
        peer = sides.get((k, 1 - side))
        f = side | (k << 1)
        f |= 0x08 if flags & 0x02 else 0
        f |= 0x10 if flags & 0x01 else 0
        f |= 0x20 if flags & 0x04 else 0
        ackd = 0
        if flags & 0x10 and peer:
            d = ((ack + peer[0]) - peer[1]) & 0xFFFFFFFF
            d = d - (1 << 32) if d >= 1 << 31 else d
            if -128 <= d < 128:
                f |= 0x40
                ackd = d & 0xFF
        chunks = [payload[i:i + 255] for i in range(0, len(payload), 255)] or [b""]
        h_seq = (seq + off) & 0xFFFFFFFF
        for i, chunk in enumerate(chunks):
            ff = f if i == 0 else f & ~0x38  # SYN/FIN/RST on the first piece only
            if i == len(chunks) - 1 and len(chunks) > 1 and f & 0x10:
                ff |= 0x10
                ff &= ~0x08
            d = (h_seq - cursor) & 0xFFFFFFFF
            d = d - (1 << 32) if d >= 1 << 31 else d
            if not -32768 <= d < 32768:
                break
            rec = bytes([ff, 0]) + struct.pack("!hB", d, len(chunk))
            if ff & 0x40:
                rec += bytes([ackd])
            if len(out) + len(rec) + len(chunk) > limit:
                return bytes(out)
            out += rec + chunk
            if ff & 0x08:
                cursor = (h_seq + 1 + len(chunk)) & 0xFFFFFFFF
                h_seq = cursor
            elif chunk:
                cursor = (h_seq + len(chunk)) & 0xFFFFFFFF
                h_seq = cursor
            sides[(k, side)][1] = cursor
    return bytes(out)


def pcap_records(data):
    """Split a pcap or pcapng file into (header, [record bytes])."""
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        le = magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1")
        off, recs = 24, []
        while off + 16 <= len(data):
            caplen = struct.unpack_from("<I" if le else ">I", data, off + 8)[0]
            recs.append(data[off:off + 16 + caplen])
            off += 16 + caplen
        return data[:24], recs
    if magic == b"\x0a\x0d\x0d\x0a":
        le = data[8:12] == b"\x4d\x3c\x2b\x1a"
        off, head, recs = 0, b"", []
        while off + 12 <= len(data):
            btype, blen = struct.unpack_from("<II" if le else ">II", data, off)
            block = data[off:off + blen]
            if btype in (0x0A0D0D0A, 1) and not recs:
                head += block
            else:
                recs.append(block)
            off += blen
        return head, recs
    return None, []


def cli_pcap_seeds(pcap, limit=16384):
    with open(pcap, "rb") as f:
        data = f.read()
    head, recs = pcap_records(data)
    if head is None:
        return
    for start in (0, len(recs) // 2):
        out = bytearray(head)
        for r in recs[start:]:
            if len(out) + len(r) > limit and len(out) > len(head):
                break
            out += r
        yield bytes(out)


def nvme_seeds(pcap, per_seed=6144):
    """fuzz_nvme records of every connection to port 4420."""
    per_stream = {}
    for stream, sport, data in payloads(pcap):
        if not data.startswith(b"MPA ID R"):
            per_stream.setdefault(stream, []).append((sport, data))
    for stream, recs in sorted(per_stream.items()):
        out = bytearray()
        for sport, data in recs:
            for u in fpdus(data):
                out += bytes([0 if sport != 4420 else 1]) + struct.pack("!H", len(u)) + u
        # the connection's start, and two slices beginning at a record boundary
        # further in (a capture that starts mid-connection)
        starts, off = [], 0
        while off + 3 <= len(out):
            starts.append(off)
            off += 3 + struct.unpack_from("!H", out, off + 1)[0]
        for s in sorted({0, starts[len(starts) // 3], starts[2 * len(starts) // 3]}):
            yield bytes(out[s:s + per_seed])


def main():
    want = set(sys.argv[1:])
    if not want or "fuzz_nvme" in want:
        for pcap in pcaps_nvme():
            for seed in nvme_seeds(pcap):
                save("fuzz_nvme", seed)
        if want == {"fuzz_nvme"}:
            print("fuzz_nvme: %d seeds" % len(os.listdir(os.path.join(OUT, "fuzz_nvme"))))
            return
    pcaps = sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.pcap*")))
    if want & {"fuzz_cli_packets", "fuzz_cli_pcap"} or not want:
        for i, pcap in enumerate(pcaps):
            if not want or "fuzz_cli_packets" in want:
                save("fuzz_cli_packets", cli_packets_seed(pcap, limits=0x40 | (6 + i % 10)))
            if not want or "fuzz_cli_pcap" in want:
                for seed in cli_pcap_seeds(pcap):
                    save("fuzz_cli_pcap", seed)
    if want and not want & {"fuzz_mpa_frame", "fuzz_fpdu", "fuzz_rdmap", "fuzz_tracker"}:
        for h in sorted(want):
            print(f"{h}: {len(os.listdir(os.path.join(OUT, h)))} seeds")
        return
    for pcap in pcaps:
        per_stream = {}
        for stream, sport, data in payloads(pcap):
            if data.startswith(b"MPA ID R"):
                save("fuzz_mpa_frame", data[:20 + 512])
                continue
            recs = per_stream.setdefault(stream, [])
            if len(recs) < 12:
                recs.append((sport, data))
        for stream, recs in per_stream.items():
            ports = sorted({p for p, _ in recs})
            tracker = bytearray()
            for sport, data in recs[:6]:
                save("fuzz_fpdu", bytes([0, 0, 0, 0, 0, 0, 0, 0]) + data[:2048])
                for u in fpdus(data):
                    if len(u) <= 255:
                        save("fuzz_rdmap", u)
                    tracker += bytes([ports.index(sport) & 1, min(len(u), 255)]) + u[:255]
            if tracker:
                save("fuzz_tracker", bytes(tracker[:4096]))
    for h in ("fuzz_mpa_frame", "fuzz_fpdu", "fuzz_rdmap", "fuzz_tracker"):
        n = len(os.listdir(os.path.join(OUT, h))) if os.path.isdir(os.path.join(OUT, h)) else 0
        print(f"{h}: {n} seeds")


def pcaps_nvme():
    return [os.path.join(ROOT, "samples", p) for p in ("generated/nvmeof.pcap",
                                                        "real/30-nvmeof-mixed.pcap")]


if __name__ == "__main__":
    sys.exit(main())
