#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seed the fuzz corpora from the captures in samples/ (run from the repo root).

Extracts TCP payloads with tshark and writes, per harness, small inputs:
  fuzz_mpa_frame  MPA Request/Reply frames
  fuzz_fpdu       8-octet parameter prefix + a run of FPDUs from one direction
  fuzz_rdmap      single ULPDUs (the FPDU without length, pad and CRC)
  fuzz_tracker    [flags][len][ulpdu] records of a connection's first segments
Deterministic: the same samples give the same files."""
import glob, hashlib, os, subprocess, sys

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


def main():
    pcaps = sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.pcap*")))
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


if __name__ == "__main__":
    sys.exit(main())
