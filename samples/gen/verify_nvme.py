#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The `nvme` list of a generated capture's truth file, re-derived from the
capture's FPDUs (verify_truth.py's Checker has parsed and checked them).

The NVMe over Fabrics RDMA binding, re-read from the specifications (NVMe
Base 2.0, NVM Command Set 1.0, NVMe-oF 1.1): command capsules (64-octet
SQE + in-capsule data) in the host's Sends, response capsules (16-octet
CQE) in the controller's Sends, data moved by RDMA Write (STag = the SGL
key) or RDMA Read (source STag = key). All NVMe fields little-endian.
"""
import struct

NVME_ADMIN = {0x02: "get_log_page", 0x06: "identify", 0x09: "set_features",
              0x0A: "get_features", 0x0C: "async_event", 0x18: "keep_alive"}
NVME_IO = {0x00: "flush", 0x01: "write", 0x02: "read", 0x05: "compare", 0x08: "write_zeroes",
           0x09: "dsm"}
NVME_IO_LBA = (0x01, 0x02, 0x04, 0x05, 0x08, 0x0C)
NVME_FABRICS = {0x00: "property_set", 0x01: "connect", 0x04: "property_get"}
NVME_STATUS = {0x0000: "Successful Completion", 0x4080: "LBA Out of Range"}


class NvmeCheck:
    """Commands of one capture from its FPDUs (in the truth's listing order,
    which is capture order) - without the truth's nvme list."""

    def __init__(self, ck):
        self.ck = ck
        self.msgs = {}       # (qp, dir, msn) -> [(mo, payload, f, full)]
        self.qid = {}        # qp -> from its Connect
        self.out = {}        # (qp, cid) -> command being followed
        self.reads = {}      # (qp, sink stag) -> command
        self.done = []

    def run(self):
        for _, f, h, pay, full in self.ck.fp_payload:
            q, op = f["qp"], f["opcode"]
            data = bytes(h[(14 if f["tagged"] else 18):][:pay])
            if op in (3, 4, 5, 6):
                self.send(q, f, h, data, full, pay)
            elif op == 0 and f["dir"] == "r2i":
                self.data(self.by_key(q, f["stag"]), f, pay, full)
            elif op == 1 and f["dir"] == "r2i" and len(h) >= 18 + 28:
                sink, _, _, src = struct.unpack_from("!IQII", h, 18)
                c = self.by_key(q, src)
                self.reads[(q, sink)] = c
                self.data(c, f, 0, full)
            elif op == 2 and f["dir"] == "i2r":
                self.data(self.reads.get((q, f["stag"])), f, pay, full)
        self.done += self.out.values()
        return self.done

    def by_key(self, q, key):
        return next((c for c in self.out.values() if c["qp"] == q and c["key"] == key), None)

    def went_by(self, f, full):
        """All of the FPDU captured, or cut only by the snapshot length (its
        octets went by: docs/semantics.md)."""
        return full or self.ck.shown(f)

    def data(self, c, f, n, full):
        if c is None:
            self.ck.err("nvme: RDMA data of qp %d frame %d names no command" % (f["qp"], f["frame"]))
            return
        c["bytes"] += n
        c["data"].append(f["frame"])
        c["frames"].append(f["frame"])
        c["whole"] &= self.went_by(f, full)

    def send(self, q, f, h, data, full, pay):
        segs = self.msgs.setdefault((q, f["dir"], f["msn"]), [])
        segs.append((f["mo"], data, f, full, pay))
        if not f["last"]:
            return
        del self.msgs[(q, f["dir"], f["msn"])]
        segs.sort(key=lambda x: x[0])
        # what a decoder has of the message: its octets from MO 0 on, up to
        # the first a snapshot length cut; its length on the wire
        msg = b""
        for mo, d, _, _, n in segs:
            if mo != len(msg):
                break
            msg += d
            if len(d) < n:
                break
        wire = max(mo + n for mo, _, _, _, n in segs)
        first = segs[0][2]
        whole = all(self.went_by(x[2], x[3]) for x in segs) and segs[0][0] == 0
        if f["dir"] == "i2r":
            self.command(q, msg, first, f, whole, wire)
        else:
            self.response(q, msg, f, h, whole, wire)

    def command(self, q, b, first, last, whole, wire):
        if len(b) < 8:
            self.ck.err("nvme: command capsule of %d octets captured at frame %d" % (len(b), last["frame"]))
            return
        # a snapshot length may have cut the SQE (docs/semantics.md): each
        # field only when captured, LBAs with CDW10-12 whole
        sqe = b[:64] + bytes(max(0, 64 - len(b)))
        opc, _, cid = struct.unpack_from("<BBH", sqe, 0)
        addr, = struct.unpack_from("<Q", sqe, 24)
        ident = sqe[39] if len(b) >= 40 else None
        cdw = struct.unpack_from("<6I", sqe, 40)
        fab = opc == 0x7F
        if fab and sqe[4] == 0x01 and len(b) >= 44:
            self.qid[q] = cdw[0] >> 16
        qid = self.qid.get(q)
        if fab:
            name = NVME_FABRICS.get(b[4], "fabrics")
        else:
            name = (NVME_ADMIN if qid == 0 else NVME_IO).get(opc, "unknown")
        keyed = ident is not None and ident >> 4 == 4
        lba = not fab and qid != 0 and opc in NVME_IO_LBA and len(b) >= 52
        c = {"qp": q, "qid": qid, "cid": cid, "opcode": opc, "fctype": sqe[4] if fab else None,
             "op": name, "nsid": None if fab else struct.unpack_from("<I", sqe, 4)[0],
             "slba": cdw[1] << 32 | cdw[0] if lba else None,
             "nlb": cdw[2] & 0xFFFF if lba else None,
             "blocks": (cdw[2] & 0xFFFF) + 1 if lba else None,
             "bytes": wire - 64 if ident == 0x01 else 0,
             "first_frame": first["first_frame"], "frames": [last["frame"]], "data": [],
             "key": int.from_bytes(sqe[35:39], "little") if keyed else None,
             "status": None, "whole": whole}
        if addr and ident == 0x01:
            self.ck.err("nvme: in-capsule data not at offset 0")
        if (q, cid) in self.out:
            self.ck.err("nvme: qp %d reuses CID %d while outstanding" % (q, cid))
        self.out[(q, cid)] = c

    def response(self, q, b, f, h, whole, wire):
        if wire != 16:
            self.ck.err("nvme: response capsule of %d octets at frame %d" % (wire, f["frame"]))
            return
        if len(b) < 16:
            return  # its CID or status cut: a completion no decoder sees
        sqhd, sqid, cid, st = struct.unpack_from("<HHHH", b, 8)
        c = self.out.pop((q, cid), None)
        if c is None:
            self.ck.err("nvme: completion of CID %d at frame %d without command" % (cid, f["frame"]))
            return
        if sqid != c["qid"]:
            self.ck.err("nvme: CQE SQ id %d on queue %s" % (sqid, c["qid"]))
        if f["opcode"] == 4 and struct.unpack_from("!I", h, 2)[0] != c["key"]:
            self.ck.err("nvme: Send with Invalidate of another STag than CID %d's key" % cid)
        c["status"] = st >> 1
        c["frames"].append(f["frame"])
        c["resp"] = f["frame"]
        c["whole"] &= whole
        self.done.append(c)


def nvme_fields(ck, c):
    ts = ck.ts
    last = c.get("resp", max(c["frames"]))
    out = {k: c[k] for k in ("qp", "qid", "cid", "opcode", "fctype", "op", "nsid", "slba", "nlb",
                             "blocks", "bytes", "first_frame", "status")}
    done = "resp" in c
    out.update(last_frame=last, start_ns=ts[c["first_frame"]], end_ns=ts[last],
               latency_ns=ts[last] - ts[c["first_frame"]] if done else None,
               data_ns=ts[max(c["data"])] - ts[min(c["data"])] if c["data"] else 0,
               status_name=NVME_STATUS.get(c["status"]) if done else None,
               complete=done and c["whole"])
    return out


def check_nvme(ck):
    """Report (ck.err) every difference between the capture and ck.t["nvme"]."""
    want = ck.t["nvme"]
    got = [nvme_fields(ck, c) for c in NvmeCheck(ck).run()]
    key = lambda c: (c["start_ns"], c["first_frame"], c["qp"], c["cid"])
    got.sort(key=key)
    if [key(c) for c in want] != sorted(key(c) for c in want):
        ck.err("nvme list not sorted")
    if len(got) != len(want):
        ck.err("nvme: %d commands in the capture, %d in the truth" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        for k in w:
            if g.get(k, w[k]) != w[k] or k not in g:
                ck.err("nvme %d (qp %d cid %d): %s %r != %r" % (i, w["qp"], w["cid"], k, w[k],
                                                                  g.get(k)))
