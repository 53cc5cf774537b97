#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpful silence (issue 17 item 2): a capture with no iWARP says what it
holds (TCP connections, their ports and octets), why each is not iWARP, and
what to try, instead of a bare "0 iWARP QPs".

Derived from 05-read_lat (two siw connections on port 18515):
- cut to 64-octet records: every connection's payload octets and "0 B
  captured", the slices too short, capture whole frames;
- payload replaced by noise and the port moved to 3260: no handshake, no
  FPDU chain, the port's protocol named, start the capture earlier;
- only the packets without payload: no payload at all.
The machine-readable commands keep their output valid and say it on stderr.

Usage: no_iwarp.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import random
import struct
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, run, verdict  # noqa: E402


def tcp_payload_at(d):
    """Offset of the TCP payload of an Ethernet/IPv4 frame."""
    ihl = (d[14] & 15) * 4
    return 14 + ihl + (d[14 + ihl + 12] >> 4) * 4, 14 + ihl


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    p = pcaptool.read(os.path.join(samples, "real", "05-read_lat.pcap"))

    sliced = os.path.join(work, "snap64.pcap")
    pcaptool.write(sliced, pcaptool.snap(p, 64))
    rng = random.Random(17)
    noise, bare = [], []
    for s, f, o, d in p.records:
        off, th = tcp_payload_at(d)
        d = bytearray(d)
        for k in (th, th + 2):
            if struct.unpack(">H", d[k:k + 2])[0] == 18515:
                d[k:k + 2] = struct.pack(">H", 3260)
        if len(d) > off:
            d[off:] = bytes(rng.randrange(256) for _ in range(len(d) - off))
        else:
            bare.append((s, f, o, bytes(d)))
        noise.append((s, f, o, bytes(d)))
    noisy = os.path.join(work, "noise.pcap")
    pcaptool.write(noisy, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, noise))
    empty = os.path.join(work, "bare.pcap")
    pcaptool.write(empty, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, bare))

    rc, out, err = run(tool, [sliced])
    check(rc == 0 and "No iWARP found" in out, "sliced: says no iWARP was found (%d)" % rc)
    check("QP 0  10.77.0.2:34639 > 10.77.0.1:18515" in out and "QP 1  10.77.0.2:59381" in out,
          "sliced: lists both TCP connections with their endpoints")
    check("1.383 KiB of TCP payload (0 B captured)" in out, "sliced: QP 0's TCP octets, none captured")
    check("slices are too short" in out and "tcpdump -s 0" in out,
          "sliced: the slices are too short, capture whole frames")

    rc, out, err = run(tool, [noisy])
    check(rc == 0 and "No iWARP found" in out, "noise: says no iWARP was found")
    check("no MPA handshake, and no chain of FPDUs" in out, "noise: no handshake, no FPDU chain")
    check("port 3260: iSCSI" in out, "noise: names the port's protocol")
    check("before the connections are set up" in out, "noise: what to try")
    check("Latency on the wire" not in out, "noise: no empty tables")

    rc, out, err = run(tool, [empty])
    check(rc == 0 and "not iWARP: no payload at all" in out, "bare: no payload at all")
    check("capture while the application runs" in out, "bare: what to try")

    for args in (["stats", "-T", "json"], ["ops", "-T", "jsonl"]):
        rc, out, err = run(tool, args + [sliced])
        ok = rc == 0
        if args[0] == "stats":
            ok = ok and json.loads(out)["qps"] == []
        else:
            ok = ok and out == ""
        check(ok, "%s: output stays valid and empty" % args)
        check("iwarpscope: No iWARP found" in err and "slices are too short" in err,
              "%s: the reason goes to stderr: %r" % (args, err[:200]))
    rc, out, err = run(tool, ["stats", "-T", "json", os.path.join(samples, "real", "05-read_lat.pcap")])
    check(rc == 0 and "No iWARP" not in err, "an iWARP capture says nothing of the kind")
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
