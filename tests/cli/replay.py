#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Replay the frames of a classic pcap (Ethernet) on an interface through a raw
AF_PACKET socket, as tcpreplay does, for the live-capture tests. The TCP
ports OLD are rewritten to NEW on the way (so that a test's capture filter
sees its own traffic only); the TCP checksum is not fixed (iwarpscope does not
check it). Needs CAP_NET_RAW.

Usage: replay.py IFACE FILE.pcap [OLD:NEW] [--gap SECONDS]
"""
import os
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import pcaptool  # noqa: E402


def rewrite(data, old, new):
    """data with the TCP port old (either side) replaced by new (IPv4 over Ethernet)."""
    d = bytearray(data)
    if len(d) < 34 or struct.unpack(">H", d[12:14])[0] != 0x0800 or d[23] != 6:
        return bytes(d)
    th = 14 + (d[14] & 15) * 4
    for k in (th, th + 2):
        if len(d) >= k + 2 and struct.unpack(">H", d[k:k + 2])[0] == old:
            d[k:k + 2] = struct.pack(">H", new)
    return bytes(d)


def replay(iface, path, old=None, new=None, gap=0.0002):
    p = pcaptool.read(path)
    if p.linktype != pcaptool.LINKTYPE_ETHERNET:
        raise SystemExit("replay.py: %s is not Ethernet" % path)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    n = 0
    for _, _, _, data in p.records:
        if old is not None:
            data = rewrite(data, old, new)
        s.send(data)
        n += 1
        if gap:
            time.sleep(gap)
    s.close()
    return n


def main(argv):
    args = [a for a in argv[1:]]
    gap = 0.0002
    if "--gap" in args:
        i = args.index("--gap")
        gap = float(args[i + 1])
        del args[i:i + 2]
    old = new = None
    if len(args) > 2:
        old, new = (int(x) for x in args[2].split(":"))
    print(replay(args[0], args[1], old, new, gap))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
