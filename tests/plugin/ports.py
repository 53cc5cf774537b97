#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iWARP on the ports where it runs, and the protocols that own those ports
keep their traffic.

The plugin becomes TCP's conversation dissector for connections whose SYN it
sees and takes a payload only when the connection carries iWARP. This test
builds one capture holding, on each of the ports 4420 (NVMe/TCP), 5445
(Artemis), 3260 (iSCSI), 445 (SMB over NetBIOS), 2049 (NFS) and 20049
(NFS over RDMA), one connection of that port's own protocol and one iWARP
connection (MPA Request/Reply, a Send each way, an RDMA Read), and checks:

  - every frame of the other protocols decodes exactly as without the
    plugin (frame.protocols per frame, with and without it);
  - every iWARP frame is the plugin's: its MPA frames and FPDUs decode
    (iwarp.rdmap), no other application protocol appears in those frames,
    and -z iwarp,ops counts the operations of each connection.

Usage: ports.py --plugin SO [--preload LIB] [--keep FILE]
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "hostile"))
import iwarp_tshark as it  # noqa: E402
from mkhostile import (Pcap, tcp_packet, mpa_frame, fpdu, send_ulpdu, read_req,  # noqa: E402
                       read_resp)

CLIENT, SERVER = [192, 0, 2, 1], [192, 0, 2, 2]


def nvme_tcp_icreq(resp=False):
    """NVMe/TCP ICReq / ICResp PDU (NVMe/TCP transport spec 3.6.2.2-3): type,
    flags, HLEN 128, PDO 0, PLEN 128, then PFV, HPDA/CPDA, digests, MAXR2T."""
    pdu = bytes([1 if resp else 0, 0, 128, 0]) + struct.pack("<I", 128) + struct.pack("<HBB", 0, 0, 0)
    pdu += struct.pack("<I", 0 if resp else 1)
    return pdu + b"\0" * (128 - len(pdu))


def smb2_negotiate():
    """SMB2 NEGOTIATE request behind a NetBIOS session header ([MS-SMB2] 2.2.3)."""
    hdr = b"\xfeSMB" + struct.pack("<HHIHHIIQIIQ16s", 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, b"\0" * 16)
    body = struct.pack("<HHHHI16sIHH", 36, 1, 1, 0, 0, b"\x11" * 16, 0, 0, 0) + struct.pack("<H", 0x0202)
    msg = hdr + body
    return struct.pack(">I", len(msg)) + msg


def iscsi_login():
    """iSCSI Login Request (RFC 7143 11.12): BHS with the data segment."""
    data = b"InitiatorName=iqn.2024-01.test:host\0SessionType=Normal\0"
    pad = (4 - len(data) % 4) % 4
    bhs = bytes([0x43, 0x87, 0, 0, 0]) + struct.pack(">I", len(data))[1:] + b"\x00\x02\x3d\x00\x00\x00\x00\x00"
    bhs += struct.pack(">IHHII", 1, 0, 0, 0, 0) + b"\0" * 16
    return bhs + data + b"\0" * pad


def rpc_nfs_null():
    """ONC RPC call of NFSv3 NULL over TCP with its record mark (RFC 5531)."""
    call = struct.pack(">IIIIII", 0x1234, 0, 2, 100003, 3, 0) + struct.pack(">IIII", 0, 0, 0, 0)
    return struct.pack(">I", 0x80000000 | len(call)) + call


def rpc_nfs_null_reply():
    rep = struct.pack(">IIIIII", 0x1234, 1, 0, 0, 0, 0)
    return struct.pack(">I", 0x80000000 | len(rep)) + rep


def artemis_frame():
    """An Artemis core packet: length, type, channel id, then a body."""
    body = bytes([30]) + struct.pack(">q", 1) + b"\0" * 16
    return struct.pack(">I", len(body)) + body


class Tcp:
    def __init__(self, p, sport, dport):
        self.p, self.sport, self.dport = p, sport, dport
        self.c, self.s = 100, 9000
        p.write(tcp_packet(CLIENT, SERVER, sport, dport, self.c, 0, 0x02))
        p.write(tcp_packet(SERVER, CLIENT, dport, sport, self.s, self.c + 1, 0x12))
        self.c += 1
        self.s += 1
        p.write(tcp_packet(CLIENT, SERVER, sport, dport, self.c, self.s, 0x10))

    def c2s(self, data):
        self.p.write(tcp_packet(CLIENT, SERVER, self.sport, self.dport, self.c, self.s, 0x18, data))
        self.c += len(data)

    def s2c(self, data):
        self.p.write(tcp_packet(SERVER, CLIENT, self.dport, self.sport, self.s, self.c, 0x18, data))
        self.s += len(data)


OTHER = {
    4420: [("c", nvme_tcp_icreq()), ("s", nvme_tcp_icreq(True))],
    5445: [("c", artemis_frame()), ("s", artemis_frame())],
    3260: [("c", iscsi_login())],
    445: [("c", smb2_negotiate())],
    2049: [("c", rpc_nfs_null()), ("s", rpc_nfs_null_reply())],
    20049: [("c", rpc_nfs_null()), ("s", rpc_nfs_null_reply())],
}


def build(path):
    p = Pcap(path)
    iwarp_streams = []
    stream = 0
    for k, (port, msgs) in enumerate(OTHER.items()):
        t = Tcp(p, 30000 + k, port)
        for who, m in msgs:
            (t.c2s if who == "c" else t.s2c)(m)
        stream += 1
        w = Tcp(p, 40000 + k, port)
        w.c2s(mpa_frame(b"Req"))
        w.s2c(mpa_frame(b"Rep"))
        w.c2s(fpdu(send_ulpdu(1, b"hello")))
        w.s2c(fpdu(send_ulpdu(1, b"world")))
        w.c2s(fpdu(read_req(1, 0xabc)))
        w.s2c(fpdu(read_resp(0xabc, 0x1000, b"r" * 64)))
        iwarp_streams.append(stream)
        stream += 1
    p.close()
    return iwarp_streams


def protocols(r, cap, builtin):
    """frame -> (tcp.stream, frame.protocols, decoded by the plugin). The
    plugin's layers are added by a postdissector, after frame.protocols is
    filled in: its own fields tell."""
    fields = ["frame.number", "tcp.stream", "frame.protocols"] + ([] if builtin else ["iwarp.mpa.dir"])
    args = ["-r", cap, "-T", "fields"]
    for f in fields:
        args += ["-e", f]
    res = {}
    for line in r.run(args, builtin_only=builtin).splitlines():
        f = line.split("\t") + [""]
        res[int(f[0])] = (int(f[1]) if f[1] else None, f[2], f[3] != "")
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--preload", default=None)
    ap.add_argument("--keep", default=None, help="also write the capture here")
    a = ap.parse_args()
    if not shutil.which("tshark"):
        print("SKIP: tshark is not installed")
        return it.SKIP
    r = it.Runner(a.plugin, a.preload)
    errors = []
    try:
        cap = os.path.join(r.workdir("input"), "ports.pcap")
        iwarp_streams = build(cap)
        os.chmod(cap, 0o644)
        if a.keep:
            shutil.copyfile(cap, a.keep)
        ours, theirs = protocols(r, cap, False), protocols(r, cap, True)
        apps = ("nvme-tcp", "artemis", "iscsi", "nbss", "smb2", "rpc", "nfs")
        n_other = n_iwarp = 0
        for num, (stream, protos, iwarp) in sorted(ours.items()):
            if stream in iwarp_streams:
                bad = [x for x in protos.split(":") if x in apps]
                if bad:
                    errors.append("frame %d (iWARP): also decoded as %s" % (num, ",".join(bad)))
                n_iwarp += iwarp
            else:
                n_other += 1
                if iwarp:
                    errors.append("frame %d: decoded as iWARP in a connection that is not" % num)
                if theirs.get(num, (None, ""))[1] != protos:
                    errors.append("frame %d: %s with the plugin, %s without" %
                                  (num, protos, theirs.get(num, (None, "?"))[1]))
        seen = {p for _, p, _ in ours.values()}
        for app in ("nvme-tcp", "artemis", "smb2", "rpc"):
            if not any(app in s.split(":") for s in seen):
                errors.append("no frame decoded as %s: the capture would prove nothing" % app)
        want_iwarp = 6 * len(iwarp_streams)
        if n_iwarp != want_iwarp:
            errors.append("%d frames decoded as iWARP, expected %d" % (n_iwarp, want_iwarp))
        ops = it.parse_ops(r.run(["-q", "-r", cap, "-z", "iwarp,ops,raw"]))
        for s in iwarp_streams:
            o = ops.get(s, {})
            if o.get("send", {}).get("complete") != 2 or o.get("read", {}).get("complete") != 1:
                errors.append("tcp.stream %d: operations %s, expected 2 sends and 1 read" % (s, o))
    except it.Fail as e:
        errors.append(str(e))
    finally:
        r.close()
    if errors:
        print("FAIL:\n" + "\n".join(errors[:40]))
        return 1
    print("PASS: %d frames of NVMe/TCP, Artemis, iSCSI, SMB and NFS decode as without the plugin; "
          "%d iWARP frames on ports %s are the plugin's alone" %
          (n_other, n_iwarp, " ".join(str(p) for p in OTHER)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
