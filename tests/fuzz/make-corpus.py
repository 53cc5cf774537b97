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
  fuzz_rpcrdma    the same records of the NFS/RDMA captures' connections (port 20049),
                  with the operation tracker's op ids (flags bits 4-7) as it would give them
  fuzz_cli_packets  the TCP segments of up to four connections in the
                  harness's record encoding (see fuzz_cli_packets.c)
  fuzz_cli_pcap   short prefixes (and a mid-capture slice) of every capture
  fuzz_stream     a connection's TCP segments in that harness's record
                  encoding (see fuzz_stream.c), under several option and
                  limit settings, plus a few streams built from its MPA
                  frame and FPDU templates (handshake, markers, CRC, holes)
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


def rpc_seeds(pcap, per_seed=8192):
    """fuzz_rpcrdma records of every connection to port 20049: an RDMA
    message's segments share an op id (a Read Request's Read Responses take
    the id of the oldest Read Request still unanswered, RFC 5040 §5.2.1)."""
    per_stream = {}
    for stream, sport, data in payloads(pcap):
        if not data.startswith(b"MPA ID R"):
            per_stream.setdefault(stream, []).append((sport, data))
    for stream, recs in sorted(per_stream.items()):
        out, next_id, cur, reads = bytearray(), 1, {}, []
        for sport, data in recs:
            d = 0 if sport != 20049 else 1
            for u in fpdus(data):
                tagged, last, opcode = u[0] & 0x80, u[0] & 0x40, u[1] & 0x0F
                if opcode == 2 and reads:       # Read Response
                    op = reads[0]
                    if last:
                        reads.pop(0)
                elif opcode == 1:                # Read Request
                    op, next_id = next_id, next_id + 1
                    reads.append(op)
                else:
                    if (d, opcode, tagged) not in cur:
                        cur[(d, opcode, tagged)], next_id = next_id, next_id + 1
                    op = cur[(d, opcode, tagged)]
                    if last:
                        del cur[(d, opcode, tagged)]
                out += bytes([d | (op % 15 + 1) << 4]) + struct.pack("!H", len(u)) + u
        starts, off = [], 0
        while off + 3 <= len(out):
            starts.append(off)
            off += 3 + struct.unpack_from("!H", out, off + 1)[0]
        if not starts:          # (MOUNT and rpcbind: plain TCP)
            continue
        for s in sorted({0, starts[len(starts) // 3], starts[2 * len(starts) // 3]}):
            yield bytes(out[s:s + per_seed])


def st_rec(side, kind=0, data=b"", c=0, delta=0, syn=False, fin=False, rst=False, ack=None):
    """One fuzz_stream record."""
    f = side | (2 if syn else 0) | (4 if fin else 0) | (8 if rst else 0) | (kind << 5)
    f |= 0x10 if ack is not None else 0
    rec = bytes([f, c]) + struct.pack("!hB", delta, len(data))
    if ack is not None:
        rec += struct.pack("!b", ack)
    return rec + data


def stream_segments(pcap):
    """(stream, srcport, seq, ack, flags, tcp.len, captured payload)."""
    out = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "tcp.stream",
                          "-e", "tcp.srcport", "-e", "tcp.seq_raw", "-e", "tcp.ack_raw",
                          "-e", "tcp.flags", "-e", "tcp.len", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split("\t")
        if len(p) < 6 or not p[0] or not p[5]:
            continue
        payload = bytes.fromhex(p[6].replace(":", "")) if len(p) > 6 and p[6] else b""
        yield (int(p[0]), int(p[1]), int(p[2]), int(p[3] or 0), int(p[4], 16), int(p[5]), payload)


def stream_seed(segs, opts, lim, isn, limit=6144):
    """Encode one connection's segments for fuzz_stream: each side's octets
    are written to its stream in 255-octet records that send nothing, then
    one record sends the segment (so segments keep their real sizes)."""
    first = segs[0][1]
    real_isn, built = {}, {0: bytearray(), 1: bytearray()}
    mask = 0xFFFFFFFF
    for _, sport, seq, _, flags, _, _ in segs:
        side = 0 if sport == first else 1
        real_isn.setdefault(side, seq if flags & 2 else (seq - 1) & mask)
    for _, sport, seq, _, flags, wlen, payload in segs:
        side = 0 if sport == first else 1
        off = (seq + (1 if flags & 2 else 0) - real_isn[side] - 1) & mask
        if off + wlen > 1 << 19:
            continue
        b = built[side]
        if len(b) < off + wlen:
            b.extend(bytes(off + wlen - len(b)))
        b[off:off + len(payload)] = payload
    gen, cur = {0: 0, 1: 0}, {0: 0, 1: 0}
    out = bytearray(bytes([opts, lim]) + struct.pack("!I", isn))
    for _, sport, seq, ack, flags, wlen, payload in segs:
        side = 0 if sport == first else 1
        off = (seq + (1 if flags & 2 else 0) - real_isn[side] - 1) & mask
        if off + wlen > 1 << 19:
            continue
        recs = bytearray()
        g = gen[side]
        while g < off + wlen:
            n = min(255, off + wlen - g)
            recs += st_rec(side, 0, bytes(built[side][g:g + n]), c=3)
            g += n
        start = off if wlen else g
        delta = start - cur[side]
        if not -32768 <= delta < 32768:
            continue
        ackd = None
        if flags & 0x10 and (1 - side) in real_isn:
            d = ((ack - real_isn[1 - side] - 1) & mask) - cur[1 - side]
            ackd = max(-128, min(127, d // 16))
        cap = 0
        if len(payload) < wlen:
            cap = 2 if not payload else 3 if wlen - len(payload) <= 3 else 1
        recs += st_rec(side, 0, b"", c=cap << 2, delta=delta, syn=bool(flags & 2),
                       fin=bool(flags & 1), rst=bool(flags & 4), ack=ackd)
        if len(out) + len(recs) > limit:
            break
        out += recs
        gen[side] = g
        if wlen and start + (g - start) > cur[side]:
            cur[side] = g
    return bytes(out)


def stream_synthetic():
    """Streams built from fuzz_stream's templates (see its header)."""
    send = lambda msn, n: bytes([0x13, msn, 0]) + bytes(range(n))
    # 0x20: the payload repeated 64 times
    write = lambda stag, last, n: bytes([0x20 | (0x10 if last else 0), stag, 0]) + bytes(n)
    rreq = lambda msn, stag: bytes([0x11, msn, stag])
    rresp = lambda stag, n: bytes([0x12, stag, 0]) + bytes(range(n))
    seeds = []
    # handshake with CRC and IRD/ORD, markers on side 0, FPDUs, a Read
    hs = [st_rec(0, syn=True), st_rec(1, syn=True, ack=0), st_rec(0, ack=0),
          st_rec(0, 1, bytes([0x50, 0, 0, 4])), st_rec(1, 2, bytes([0xD0, 0, 0, 4]), ack=0)]
    body = [st_rec(0, 3, send(1, 40), c=0x40), st_rec(0, 3, write(1, 0, 10)),
            st_rec(0, 3, write(1, 1, 100)), st_rec(0, 3, rreq(2, 3)),
            st_rec(1, 3, rresp(3, 200)), st_rec(1, 5, send(1, 20)), st_rec(0, 3, send(3, 200))]
    seeds.append(bytes([0x03, 0, 0xFF, 0xFF, 0xF8, 0x00]) + b"".join(hs + body))
    # the same split across segments, out of order, a hole acknowledged
    body2 = [st_rec(0, 3, write(2, 0, 3), c=3), st_rec(0, 3, send(4, 30), c=3),
             st_rec(0, 0, c=1, delta=100), st_rec(0, 0, c=0, delta=0),
             st_rec(0, 0, c=0, delta=-200), st_rec(1, 0, ack=8),
             st_rec(0, 4, send(5, 64), c=0x04), st_rec(0, 3, rreq(6, 1)),
             st_rec(1, 4, rresp(1, 100), fin=True), st_rec(0, 0, rst=True)]
    seeds.append(bytes([0x13, 0, 0x12, 0x34, 0x56, 0x78]) + b"".join(hs + body + body2))
    # mid-stream: no SYN, no handshake, zero CRCs, small limits
    mid = [st_rec(0, 0, bytes(16), c=3), st_rec(1, 0, bytes(8), c=3)]
    for i in range(4):
        mid += [st_rec(0, 4, rreq(i, i)), st_rec(1, 4, rresp(i, 120), c=1),
                st_rec(1, 0, c=0)]
    seeds.append(bytes([0x0A, 0x5A, 0x80, 0, 0, 0]) + b"".join(mid))
    seeds.append(bytes([0x12, 0, 0x80, 0, 0, 0]) + b"".join(mid))
    # not iWARP from the SYN, and a rejected Reply
    text = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 8
    seeds.append(bytes([0x02, 0, 0, 0, 1, 0]) + b"".join(
        [st_rec(0, syn=True), st_rec(1, syn=True, ack=0)] +
        [st_rec(0, 6, text[:64]), st_rec(1, 6, text[:64])] * 2))
    seeds.append(bytes([0x03, 0, 0, 0, 2, 0]) + b"".join(
        [st_rec(0, syn=True), st_rec(1, syn=True, ack=0), st_rec(0, 1, bytes([0x10, 1, 0, 1])),
         st_rec(1, 2, bytes([0x30, 1, 0, 1]) + b"no"), st_rec(0, 3, send(1, 9))]))
    return seeds


def stream_seeds(pcap, i):
    """A few settings per capture: spans, the mirror engine, small limits,
    a sequence wrap, freed without the end."""
    segs = list(stream_segments(pcap))
    by_conn = {}
    for s in segs:
        by_conn.setdefault(s[0], []).append(s)
    for k, conn in enumerate(sorted(by_conn)[:2]):
        opts = [0x03, 0x13, 0x0B, 0x22][(i + k) % 4]
        lim = [0x00, 0x55, 0xAA, 0x1F][(i + k) % 4]
        isn = [0x10000000, 0xFFFFF000, 0x7FFFFC00, 0x00000001][(i + k) % 4]
        yield stream_seed(by_conn[conn], opts, lim, isn)


def main():
    want = set(sys.argv[1:])
    if not want or "fuzz_nvme" in want:
        for pcap in pcaps_nvme():
            for seed in nvme_seeds(pcap):
                save("fuzz_nvme", seed)
        if want == {"fuzz_nvme"}:
            print("fuzz_nvme: %d seeds" % len(os.listdir(os.path.join(OUT, "fuzz_nvme"))))
            return
    if not want or "fuzz_rpcrdma" in want:
        for pcap in ("generated/rpc-rdma.pcap", "real/31-nfsrdma-v3.pcap"):
            for seed in rpc_seeds(os.path.join(ROOT, "samples", pcap)):
                save("fuzz_rpcrdma", seed)
        if want == {"fuzz_rpcrdma"}:
            print("fuzz_rpcrdma: %d seeds" % len(os.listdir(os.path.join(OUT, "fuzz_rpcrdma"))))
            return
    pcaps = sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.pcap*")))
    if want & {"fuzz_cli_packets", "fuzz_cli_pcap"} or not want:
        for i, pcap in enumerate(pcaps):
            if not want or "fuzz_cli_packets" in want:
                save("fuzz_cli_packets", cli_packets_seed(pcap, limits=0x40 | (6 + i % 10)))
            if not want or "fuzz_cli_pcap" in want:
                for seed in cli_pcap_seeds(pcap):
                    save("fuzz_cli_pcap", seed)
    if not want or "fuzz_stream" in want:
        for i, pcap in enumerate(pcaps):
            for seed in stream_seeds(pcap, i):
                save("fuzz_stream", seed)
        for seed in stream_synthetic():
            save("fuzz_stream", seed)
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
