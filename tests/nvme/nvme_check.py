#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""NVMe over Fabrics on whole captures, through the CLI: `iwarpscope nvme --format
jsonl` (the commands, in start order) and `iwarpscope stats --format json` (each
QP's nvme section: queue, NQNs, controller, counters).

  nvme_check.py truth IWARPSCOPE SAMPLE    SAMPLE.pcap[ng] + SAMPLE.truth.json: the
      commands equal the truth's `nvme` list, every field the truth gives, in the
      truth's order (start_ns, first_frame, qp, cid), which is the CLI's order.
  nvme_check.py real IWARPSCOPE 30-nvmeof-mixed.pcap
      the real NVMe-oF capture (/work/shared/captures/MANIFEST.md section 30):
      the I/O commands per op that the host ran, the admin commands nvme-cli
      issued, one Connect per queue, every command complete except the AER.
  nvme_check.py sqe IWARPSCOPE CAPTURE.pcap[ng]
      every command capsule's SQE decoded here from the capture's bytes (its
      own pcap, TCP, MPA, DDP/RDMAP and NVMe reader, sharing nothing with the
      tool): the CLI lists the same commands per QP with the same opcode, cid,
      nsid, slba, nlb (the 0's based field as on the wire) and blocks (nlb + 1),
      and an admin command's cns, lid or fid (CDW10 bits 07:00); the text table
      shows that one as "cns=0x01 (Identify Controller)" with the spec's name.
  nvme_check.py allrows IWARPSCOPE CAPTURE
      the "all" rows of `stats` (JSON total.nvme.all_ops, the text tables' QP
      "all" rows) recomputed from the per-command JSON lines: per command type
      over every queue, count, complete, errors, bytes, first/last/span over
      the complete commands, IOPS, the latency and data distributions
      (nearest rank); a type only one queue has equals that queue's row.
  nvme_check.py ladder IWARPSCOPE CAPTURE
      fio's completion-latency ladder (1, 5, 10, 20 ... 90, 95, 99, 99.5,
      99.9, 99.95, 99.99) of every queue/type row and every "all" row of
      `stats` (JSON latency_percentiles_ns, the text's percentile blocks)
      and of the nvme command's text (the same blocks after its list)
      recomputed from the per-command lines: the sample of rank ceil(p/100 * N)
      of the N complete commands' latency_ns, in exact arithmetic.
  nvme_check.py formats IWARPSCOPE SAMPLE.pcap
      `nvme --format json` is the array of the jsonl objects, `--format csv` has a
      header and one row per command with the same values, `--format text` one line
      per command, and --qp/--since/--until select what they say.

Exit status: 0 equal, 1 a difference (each printed), 2 the tool failed.
"""
import collections
import fractions
import csv
import io
import json
import os
import re
import struct
import subprocess
import sys


def run(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        print("iwarpscope %s failed (%d): %s" % (" ".join(args), p.returncode,
                                                p.stderr.decode(errors="replace")))
        sys.exit(2)
    return p.stdout.decode()


def feed(tool, capture):
    """(the commands in the CLI's order, each NVMe QP's nvme section)"""
    cmds = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", capture]).splitlines()
            if l.strip()]
    stats = json.loads(run(tool, ["stats", "--format", "json", capture]))
    info = [q["nvme"] for q in stats["qps"] if "nvme" in q]
    # --no-nvme: the same QPs and operations, no NVMe section
    bare = json.loads(run(tool, ["stats", "--no-nvme", "--format", "json", capture]))
    if any("nvme" in q for q in bare["qps"]) or \
            [q["operations"] for q in bare["qps"]] != [q["operations"] for q in stats["qps"]]:
        print("FAIL: stats --no-nvme on %s: an NVMe section, or other operations" % capture)
        sys.exit(1)
    return cmds, info


def check_truth(tool, sample):
    cap = next((sample + e for e in (".pcap", ".pcapng") if os.path.exists(sample + e)), None)
    with open(sample + ".truth.json") as f:
        want = json.load(f)["nvme"]
    got, _ = feed(tool, cap)
    diffs = []
    order = [(c["start_ns"], c["first_frame"], c["qp"]) for c in got]
    if order != sorted(order):
        diffs.append("commands not listed in start order")
    if len(got) != len(want):
        diffs.append("%d commands, truth has %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        for k, v in w.items():
            if g.get(k) != v:
                diffs.append("command %d (qp %s cid %s): %s: got %r, truth %r"
                             % (i, w["qp"], w["cid"], k, g.get(k), v))
    for d in diffs[:40]:
        print(d)
    print("%s: %d commands, %d differences" % (os.path.basename(sample), len(want), len(diffs)))
    return 1 if diffs else 0


def check_real(tool, capture):
    """Manifest section 30: nvme connect -i 2 (admin + 2 I/O queues), 4 KiB LBAs."""
    cmds, info = feed(tool, capture)
    fails = []

    def expect(cond, what):
        if not cond:
            fails.append(what)

    per = collections.Counter((c["qid"], c["op"]) for c in cmds)
    io = collections.Counter(c["op"] for c in cmds if c["qid"] and c["qid"] > 0)
    # The host's I/O: dd with O_DIRECT (one command per block), nvme write/read,
    # nvme io-passthru, nvme flush.
    # (slba, blocks): nlb is the wire's 0's based NLB (as nvme-cli shows it)
    expect(all(c["blocks"] == c["nlb"] + 1 for c in cmds if c["nlb"] is not None), "blocks != nlb + 1")
    writes = sorted((c["slba"], c["blocks"]) for c in cmds if c["op"] == "write")
    want_writes = sorted([(i, 1) for i in range(4)] + [(16 + 4 * i, 4) for i in range(4)] +
                         [(64 + 16 * i, 16) for i in range(4)] + [(1024, 2), (2048, 1)])
    expect(writes == want_writes, "writes %s != %s" % (writes, want_writes))
    reads = sorted((c["slba"], c["blocks"]) for c in cmds if c["op"] == "read")
    want_reads = sorted([(i, 1) for i in range(8)] + [(64 + 32 * i, 32) for i in range(4)] +
                        [(1024, 2), (2048, 1)])
    # ... and the kernel's partition-table scan at connect (not in the manifest's
    # count): single-LBA reads before the first command the host ran.
    first_user = min(c["start_ns"] for c in cmds if c["op"] == "write")
    scan = sorted((c["slba"], c["blocks"]) for c in cmds
                  if c["op"] == "read" and c["start_ns"] < first_user)
    for r in scan:
        reads.remove(r)
    expect(reads == want_reads, "reads (without the %d scan reads) %s != %s"
           % (len(scan), reads, want_reads))
    expect(all(n == 1 for _, n in scan) and len(scan) <= 4, "scan reads %s" % scan)
    expect(io["flush"] == 1, "flush %d" % io["flush"])
    expect(set(io) <= {"read", "write", "flush", "connect"}, "other I/O ops %s" % io)
    # One Connect per queue; queues 0, 1 and 2 on three connections.
    expect(sorted(q for q, op in per.elements() if op == "connect") == [0, 1, 2],
           "connects %s" % per)
    expect(sorted(i["qid"] for i in info) == [0, 1, 2], "queues %s" % info)
    expect(all(i["subnqn"] == "nqn.2024-01.test:mixed" for i in info), "subsystem NQN")
    expect(all(i["cntlid"] == 1 for i in info), "controller ids %s" % [i["cntlid"] for i in info])
    # nvme id-ctrl, id-ns, smart-log, get-log --log-id=1 --log-len=64, get-feature -f 7
    adm = [c for c in cmds if c["qid"] == 0]
    has = lambda **kv: any(all(c.get(k) == v for k, v in kv.items()) for c in adm)
    expect(has(op="identify", cns=1), "Identify CNS 1")
    expect(has(op="identify", cns=0, nsid=1), "Identify CNS 0")
    expect(has(op="get_log_page", lid=2, bytes=512), "Get Log Page SMART")
    expect(has(op="get_log_page", lid=1, bytes=64), "Get Log Page Error Information, 64 octets")
    expect(has(op="get_features", fid=7), "Get Features FID 7")
    for op in ("property_get", "property_set", "set_features", "async_event", "keep_alive"):
        expect(per[(0, op)] >= 1, "admin %s" % op)
    # Every command completed successfully but the AER (answered only by an event).
    open_ = [(c["qid"], c["op"]) for c in cmds if not c["complete"]]
    expect(open_ == [(0, "async_event")], "incomplete %s" % open_)
    expect(all(c["status"] == 0 for c in cmds if c["complete"]), "error statuses")
    expect(all(i["orphan_responses"] == 0 and i["unmatched_data"] == 0 and i["undecodable"] == 0
               for i in info), "orphans or unmatched data %s" % info)
    for k in sorted(per, key=lambda k: (k[0], k[1])):
        print("qid %s %-14s %d" % (k[0], k[1], per[k]))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


def check_formats(tool, capture):
    fails = []
    lines = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", capture]).splitlines()]
    arr = json.loads(run(tool, ["nvme", "--format", "json", capture]))
    if arr != lines:
        fails.append("json array differs from the jsonl objects")
    rows = list(csv.DictReader(io.StringIO(run(tool, ["nvme", "--format", "csv", capture]))))
    if len(rows) != len(lines):
        fails.append("csv: %d rows for %d commands" % (len(rows), len(lines)))
    for i, (r, j) in enumerate(zip(rows, lines)):
        for k in ("qp", "qid", "cid", "opcode", "op", "nsid", "slba", "nlb", "blocks", "bytes", "first_frame", "last_frame",
                  "start_ns", "end_ns", "latency_ns", "data_ns", "status", "status_name", "complete", "fctype",
                  "xfer", "flags"):
            want = j.get(k)
            want = "" if want is None else str(want).lower() if isinstance(want, bool) else str(want)
            if r[k] != want:
                fails.append("csv row %d %s: %r, jsonl %r" % (i, k, r[k], want))
    text = nvme_list_text(tool, capture)
    if len(text) != len(lines) + 1 or text[0].split()[:4] != ["time", "QP", "qid", "cid"]:
        fails.append("text: %d lines for %d commands and a heading" % (len(text), len(lines)))
    qp = lines[-1]["qp"]
    sel = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", "--qp", str(qp), capture]).splitlines()]
    if sel != [c for c in lines if c["qp"] == qp]:
        fails.append("--qp %d does not select that QP's commands" % qp)
    mid = lines[len(lines) // 2]["start_ns"]
    since = "@%d.%09d" % divmod(mid, 10**9)
    a = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", "--since", since, capture]).splitlines()]
    b = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", "--until", since, capture]).splitlines()]
    if a != [c for c in lines if c["start_ns"] >= mid] or b != [c for c in lines if c["start_ns"] < mid]:
        fails.append("--since/--until %s do not split the list at that time" % since)
    for f in fails[:40]:
        print("FAIL:", f)
    print("%s: %d commands in four formats, %d failures" % (os.path.basename(capture), len(lines), len(fails)))
    return 1 if fails else 0


# ------------------------------------------------------------- SQEs from bytes
def pcap_records(path):
    """(frame number, octets) of every record: classic pcap (us or ns) or
    pcapng (enhanced packet blocks), Ethernet link type."""
    with open(path, "rb") as f:
        buf = f.read()
    magic, = struct.unpack_from("<I", buf, 0)
    out = []
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        off = 24
        while off + 16 <= len(buf):
            cap, = struct.unpack_from("<I", buf, off + 8)
            out.append(buf[off + 16:off + 16 + cap])
            off += 16 + cap
    elif magic == 0x0A0D0D0A:
        off = 0
        while off + 12 <= len(buf):
            btype, blen = struct.unpack_from("<II", buf, off)
            if btype == 6:
                cap, = struct.unpack_from("<I", buf, off + 20)
                out.append(buf[off + 28:off + 28 + cap])
            off += blen
    else:
        raise ValueError("%s: not a capture file" % path)
    return list(enumerate(out, 1))


def tcp_segments(path):
    """(frame, (src, sport), (dst, dport), seq, flags, payload) of every
    IPv4/IPv6 TCP segment (802.1Q tags skipped)."""
    for no, d in pcap_records(path):
        l2, et = 14, struct.unpack_from("!H", d, 12)[0]
        while et == 0x8100:
            et, l2 = struct.unpack_from("!H", d, l2 + 2)[0], l2 + 4
        if et == 0x0800 and d[l2 + 9] == 6:
            l4 = l2 + (d[l2] & 0xF) * 4
            end = l2 + struct.unpack_from("!H", d, l2 + 2)[0]
            src, dst = d[l2 + 12:l2 + 16], d[l2 + 16:l2 + 20]
        elif et == 0x86DD and d[l2 + 6] == 6:
            l4 = l2 + 40
            end = l4 + struct.unpack_from("!H", d, l2 + 4)[0]
            src, dst = d[l2 + 8:l2 + 24], d[l2 + 24:l2 + 40]
        else:
            continue
        sp, dp, seq, offfl = struct.unpack_from("!HHIxxxxH", d, l4)
        yield no, (src, sp), (dst, dp), seq, offfl & 0x3F, d[l4 + (offfl >> 12) * 4:end]


def stream_octets(segs):
    """A direction's octets in sequence order from its SYN (or first segment),
    each with the frame that first carried it; retransmitted or reordered
    segments fall into place."""
    isn = None
    have = {}
    for no, seq, fl, pay in segs:
        if isn is None:
            isn = (seq + 1) & 0xFFFFFFFF if fl & 0x02 else seq
        rel = (seq - isn) & 0xFFFFFFFF
        for i, b in enumerate(pay):
            have.setdefault(rel + i, (b, no))
    data, frames = bytearray(), []
    while len(data) in have:
        b, no = have[len(data)]
        data.append(b)
        frames.append(no)
    return bytes(data), frames


def sqes_from_bytes(path):
    """{qp: [SQE fields in stream order]} of every NVMe/RDMA command capsule:
    qp numbers TCP connections in order of first appearance (tshark's
    tcp.stream); the initiator is the side that sent the MPA Request (RFC 5044
    section 7.1); its untagged Sends (RDMAP opcodes 3-6, RFC 5040 section 4.3)
    on queue 0 carry the capsules, whose first 64 octets are the SQE (NVMe-oF
    1.1 section 2.2; RDMA binding: one capsule per Send)."""
    conns = {}
    for no, a, b, seq, fl, pay in tcp_segments(path):
        key = (min(a, b), max(a, b))
        conns.setdefault(key, {}).setdefault(a, []).append((no, seq, fl, pay))
    out = {}
    for qp, dirs in enumerate(conns.values()):
        init = [d for d in dirs.values() if stream_octets(d)[0][:16] == b"MPA ID Req Frame"]
        if not init:
            continue
        data, frames = stream_octets(init[0])
        if data[16] & 0x80:
            raise ValueError("qp %d: markers: not decoded here" % qp)
        off = 20 + struct.unpack_from("!H", data, 18)[0]
        msgs, cmds, qid = {}, [], None
        while off + 2 <= len(data):
            ulen, = struct.unpack_from("!H", data, off)
            h = data[off + 2:off + 2 + ulen]
            if len(h) < ulen:
                break
            first_frame = frames[off]
            off += 2 + ulen + (-(2 + ulen) % 4) + 4  # pad, CRC field (present even when off)
            tagged, last, opcode = h[0] & 0x80, h[0] & 0x40, h[1] & 0x0F
            if tagged or opcode not in (3, 4, 5, 6):
                continue
            qn, msn, mo = struct.unpack_from("!III", h, 6)
            if qn != 0:
                continue
            m = msgs.setdefault(msn, {"parts": {}, "frame": None})
            m["parts"][mo] = h[18:]
            if mo == 0:
                m["frame"] = first_frame
            if not last:
                continue
            del msgs[msn]
            cap = b"".join(v for _, v in sorted(m["parts"].items()))
            if len(cap) < 64:
                continue
            sqe = cap[:64]
            opc, cid = sqe[0], struct.unpack_from("<H", sqe, 2)[0]
            cdw = struct.unpack_from("<6I", sqe, 40)
            c = {"opcode": opc, "cid": cid, "frame": m["frame"]}
            if opc == 0x7F:                     # Fabrics: FCTYPE in octet 4
                c["fctype"] = sqe[4]
                if sqe[4] == 0x01:              # Connect: QID in octets 42-43
                    qid = struct.unpack_from("<H", sqe, 42)[0]
            else:
                c["nsid"] = struct.unpack_from("<I", sqe, 4)[0]
            c["qid"] = qid
            # NVM Command Set: Read, Write, Write Uncorrectable, Compare, Write
            # Zeroes, Verify carry SLBA in CDW10-11 and the 0's based NLB in
            # CDW12 bits 15:00
            if qid and opc in (0x01, 0x02, 0x04, 0x05, 0x08, 0x0C):
                c.update(slba=cdw[1] << 32 | cdw[0], nlb=cdw[2] & 0xFFFF, blocks=(cdw[2] & 0xFFFF) + 1)
            # Admin: Identify (06h) CNS, Get Log Page (02h) LID, Set/Get
            # Features (09h/0Ah) FID, each CDW10 bits 07:00
            sel = {0x06: "cns", 0x02: "lid", 0x09: "fid", 0x0A: "fid"}.get(opc) if qid == 0 else None
            if sel:
                c[sel] = cdw[0] & 0xFF
            cmds.append(c)
        out[qp] = cmds
    return out


# Names of the values the captures use (NVMe Base 2.0: Identify "CNS Values",
# "Log Page Identifiers", "Feature Identifiers"; NVMe-oF 1.1 for 70h)
SPEC_NAMES = {
    "cns": {0x00: "Identify Namespace", 0x01: "Identify Controller", 0x02: "Active Namespace ID list",
            0x03: "Namespace Identification Descriptor list",
            0x06: "I/O Command Set specific Identify Controller"},
    "lid": {0x01: "Error Information", 0x02: "SMART / Health Information", 0x03: "Firmware Slot Information",
            0x04: "Changed Namespace List", 0x05: "Commands Supported and Effects",
            0x0C: "Asymmetric Namespace Access", 0x70: "Discovery"},
    "fid": {0x01: "Arbitration", 0x02: "Power Management", 0x04: "Temperature Threshold",
            0x06: "Volatile Write Cache", 0x07: "Number of Queues", 0x0B: "Asynchronous Event Configuration",
            0x0F: "Keep Alive Timer"},
}


def nvme_list_text(tool, capture):
    """The nvme command's text list: its heading and one line per command (the
    percentile ladder follows after a blank line)."""
    return run(tool, ["nvme", capture]).split("\n\n")[0].splitlines()


def check_sqe(tool, capture):
    want = sqes_from_bytes(capture)
    got = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", capture]).splitlines()]
    text = nvme_list_text(tool, capture)[1:]
    line = {id(c): t for c, t in zip(got, text)}
    fails = []
    if len(text) != len(got):
        fails.append("text: %d lines for %d commands" % (len(text), len(got)))
    n = lba = adm = 0
    for qp in sorted(set(want) | {c["qp"] for c in got}):
        g = [c for c in got if c["qp"] == qp]
        w = want.get(qp, [])
        if len(g) != len(w):
            fails.append("qp %d: the CLI lists %d commands, the bytes hold %d capsules" % (qp, len(g), len(w)))
        for x, y in zip(g, w):
            n += 1
            lba += "nlb" in y
            for k in ("opcode", "cid", "fctype", "nsid", "slba", "nlb", "blocks", "qid", "cns", "lid", "fid"):
                if y.get(k) != x.get(k):
                    fails.append("qp %d capsule frame %s cid %d: %s %r, the SQE says %r"
                                 % (qp, y["frame"], y["cid"], k, x.get(k), y.get(k)))
            for k in ("cns", "lid", "fid"):
                if k not in y:
                    continue
                adm += 1
                shown = "%s=0x%02x" % (k, y[k])
                if y[k] in SPEC_NAMES[k]:
                    shown += " (%s)" % SPEC_NAMES[k][y[k]]
                if shown not in line.get(id(x), ""):
                    fails.append("qp %d cid %d: the text line does not say %r: %s"
                                 % (qp, y["cid"], shown, line.get(id(x))))
    for f in fails[:40]:
        print("FAIL:", f)
    print("%s: %d SQEs decoded from the bytes (%d with SLBA/NLB, %d with CNS/LID/FID), %d differences"
          % (os.path.basename(capture), n, lba, adm, len(fails)))
    return 1 if fails or not n else 0


def nearest_rank(v, q):
    """The sample of rank ceil(q * N) (1-based) of the sorted samples."""
    v = sorted(v)
    k = -(-int(round(q * 10000)) * len(v) // 10000)
    return v[max(k, 1) - 1]


def dist_of(v):
    if not v:
        return None
    n = len(v)
    return dict(count=n, min=min(v), max=max(v), mean=(sum(v) + n // 2) // n,
                p50=nearest_rank(v, 0.5), p90=nearest_rank(v, 0.9), p99=nearest_rank(v, 0.99),
                p999=nearest_rank(v, 0.999))


def rows_of(cmds):
    """op -> the row of those commands, computed here."""
    out = {}
    for op in sorted({c["op"] for c in cmds}):
        g = [c for c in cmds if c["op"] == op]
        done = [c for c in g if c["complete"]]
        first = min((c["start_ns"] for c in done), default=None)
        last = max((c["end_ns"] for c in done), default=None)
        span = last - first if done else 0
        out[op] = dict(count=len(g), complete=len(done), bytes=sum(c["bytes"] for c in g),
                       errors=sum(1 for c in g if c["status"]), first_ns=first, last_ns=last, span_ns=span,
                       iops=(len(done) * 10**9 + span // 2) // span if len(done) >= 10 and span > 0 else None,
                       latency_ns=dist_of([c["latency_ns"] for c in done]),
                       data_ns=dist_of([c["data_ns"] for c in done if c["data_first_frame"] is not None]))
    return out


def check_allrows(tool, capture):
    cmds = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", capture]).splitlines()]
    js = json.loads(run(tool, ["stats", "--format", "json", capture]))
    got = {r["op"]: r for r in js["total"]["nvme"]["all_ops"]}
    want = rows_of(cmds)
    fails = []
    if sorted(got) != sorted(want):
        fails.append("all rows for %s, the commands have %s" % (sorted(got), sorted(want)))
    for op, w in want.items():
        g = got.get(op, {})
        for k, v in w.items():
            gv = g.get(k)
            if isinstance(gv, dict):
                gv = {x: gv[x] for x in v} if v else gv
            if gv != v:
                fails.append("all %s %s: stats %r, from the commands %r" % (op, k, gv, v))
    # a type only one queue of one QP has: its "all" row is that row
    owners = collections.defaultdict(set)
    for c in cmds:
        owners[c["op"]].add((c["qp"], c["qid"]))
    single = 0
    for q in js["qps"]:
        for r in q.get("nvme", {}).get("ops", []):
            if owners[r["op"]] == {(q["qp"], r["qid"])}:
                single += 1
                a = {k: v for k, v in r.items() if k != "qid"}
                if a != got.get(r["op"]):
                    fails.append("all %s differs from QP %d's row, the only one" % (r["op"], q["qp"]))
    # the text: a QP "all" row per type in the commands table
    text = run(tool, ["stats", capture])
    table = text[text.index("NVMe commands"):].split("\n\n")[0].splitlines()
    shown = {l.split()[2]: l.split()[3:7] for l in table if l.split()[:2] == ["all", "all"]}
    for op, w in want.items():
        # (an Asynchronous Event Request outstanding by design is not incomplete)
        incomplete = sum(1 for c in cmds if c["op"] == op and not c["complete"] and
                         "awaits_event" not in c["flags"].split(","))
        cells = [str(w["count"]), str(incomplete), str(w["errors"]), str(w["bytes"])]
        if shown.get(op) != cells:
            fails.append("stats text: all %s %s, want %s" % (op, shown.get(op), cells))
    for f in fails[:40]:
        print("FAIL:", f)
    print("%s: %d all rows from %d commands (%d types on one queue equal its row), %d differences"
          % (os.path.basename(capture), len(want), len(cmds), single, len(fails)))
    return 1 if fails or not want else 0


LADDER = ["1", "5", "10", "20", "30", "40", "50", "60", "70", "80", "90", "95", "99", "99.5", "99.9", "99.95",
          "99.99"]
UNIT_NS = {"ns": 1, "µs": 1000, "ms": 10**6, "s": 10**9}


def ladder_of(v):
    """fio's ladder by nearest rank: p -> the sample of rank ceil(p/100 * N)."""
    v = sorted(v)
    out = {}
    for p in LADDER:
        rank = -(-fractions.Fraction(p) * len(v) // 100)
        out["%f" % float(p)] = v[max(int(rank), 1) - 1]
    return out


def check_ladder(tool, capture):
    cmds = [json.loads(l) for l in run(tool, ["nvme", "--format", "jsonl", capture]).splitlines()]
    js = json.loads(run(tool, ["stats", "--format", "json", capture]))
    rows = []   # (text QP, text label, JSON row, the commands it counts)
    for q in js["qps"]:
        for r in q.get("nvme", {}).get("ops", []):
            rows.append((str(q["qp"]), "%s %s" % ("?" if r["qid"] is None else r["qid"], r["op"]), r,
                         [c for c in cmds if c["qp"] == q["qp"] and c["qid"] == r["qid"] and c["op"] == r["op"]]))
    for r in js["total"]["nvme"]["all_ops"]:
        rows.append(("all", "all " + r["op"], r, [c for c in cmds if c["op"] == r["op"]]))
    fails, n = [], 0
    # the text of stats and the one after the nvme command's list: per row
    # "QP q  label  (N samples)", then "p.ppth=[value]" items
    for cmd in ("stats", "nvme"):
        text = run(tool, [cmd, capture])
        if "NVMe completion latency percentiles" not in text:
            fails.append("%s: no ladder in the text" % cmd)
            continue
        n += ladder_text(text, rows, fails, cmd)
    for f in fails[:40]:
        print("FAIL:", f)
    print("%s: the %d-step ladder of %d rows (queue/type and all) in stats and nvme, %d differences"
          % (os.path.basename(capture), len(LADDER), n, len(fails)))
    return 1 if fails or not n else 0


def ladder_text(text, rows, fails, cmd):
    """The ladder table of a command's text against the commands' latencies."""
    block = text[text.index("NVMe completion latency percentiles"):].split("\n\n")[0].splitlines()
    unit = UNIT_NS[block[0].rsplit(", ", 1)[1]]
    shown, cur = {}, None
    for l in block[1:]:
        if l.startswith("  QP "):
            qp, label = l[5:].split("  ")[:2]
            cur = shown.setdefault((qp, label), [])
        else:
            cur += re.findall(r"th=\[\s*([^\]]*)\]", l)
    n = 0
    for qp, label, r, cs in rows:
        lat = [c["latency_ns"] for c in cs if c["complete"] and c["latency_ns"] is not None]
        want = ladder_of(lat) if lat else None
        if cmd == "stats" and r.get("latency_percentiles_ns") != want:
            fails.append("QP %s %s: JSON ladder %s, from the commands %s" % (qp, label, r.get("latency_percentiles_ns"),
                                                                          want))
        if not want:
            if (qp, label) in shown:
                fails.append("%s QP %s %s: a text ladder without samples" % (cmd, qp, label))
            continue
        n += 1
        got = shown.get((qp, label))
        if not got or len(got) != len(LADDER):
            fails.append("%s QP %s %s: text ladder %s" % (cmd, qp, label, got))
            continue
        for p, s in zip(LADDER, got):
            dec = len(s.split(".")[1]) if "." in s else 0
            if abs(float(s) * unit - want["%f" % float(p)]) > unit * 0.5 * 10 ** -dec + 1e-6:
                fails.append("%s QP %s %s p%s: text %s, from the commands %d ns" % (cmd, qp, label, p, s,
                                                                                  want["%f" % float(p)]))
    return n


def main(argv):
    if len(argv) != 4 or argv[1] not in ("truth", "real", "formats", "sqe", "allrows", "ladder"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    return {"truth": check_truth, "real": check_real, "formats": check_formats, "sqe": check_sqe, "allrows": check_allrows, "ladder": check_ladder}[argv[1]](argv[2], argv[3])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
