#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iwarpscope rpc` and the rpc section of `stats` against independent sources on the real NFS/RDMA capture.

Usage: rpc_check.py IWARPSCOPE CAPTURE
       rpc_check.py truth IWARPSCOPE CAPTURE   (a generated capture with its
                                                 truth file's `rpc` list)

Recomputed without iwarpscope:
  - from tshark's own dissectors (RPC-over-RDMA, ONC RPC, NFS, and its
    built-in iWARP DDP/RDMAP, run as root so no plugin of ours loads): each
    xid's call frame (the client's rpcordma header) and reply frame (the
    server's), their times, hence the latency; program and procedure (tshark
    decodes a WRITE call where its read chunk arrived, we in the call: the
    xid ties them); every chunk's handle and length; the frames of the RDMA
    Writes into a write or reply chunk (DDP STag = handle) and of the Read
    Request (Source STag = handle) and Read Responses (its Sink STag) of a
    read chunk;
  - from the server's /proc/net/rpc/nfsd before and after the run
    (captures MANIFEST.md section 31): the NFSv3 calls per procedure and the
    RPCs in all (the `rpc` line).
"""
import json
import subprocess
import sys
from collections import Counter, defaultdict

# /proc/net/rpc/nfsd of the server, before and after (MANIFEST.md section 31):
# "proc3 22 <NULL> <GETATTR> ..." (22 counters, RFC 1813 procedure order), and
# "rpc <calls> ...".
PROC3_BEFORE = "proc3 22 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
PROC3_AFTER = "proc3 22 1 4 0 4 4 0 3 3 2 0 0 0 2 0 0 0 0 2 0 2 1 1"
RPC_BEFORE, RPC_AFTER = "rpc 0 0 0 0 0", "rpc 31 0 0 0 0"
CLIENT = "10.77.2.2"


class Fail(Exception):
    pass


def tshark(cap, filt, fields, opts=()):
    out = subprocess.run(["tshark", "-r", cap] + list(opts) + ["-Y", filt, "-T", "fields", "-E", "separator=\t"] +
                         sum([["-e", f] for f in fields], []),
                         capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def ns(t):
    s, _, frac = t.partition(".")
    return int(s) * 10**9 + int((frac + "000000000")[:9])


TRUTH_KEYS = ("qp", "xid", "program", "version", "procedure", "proc", "ops", "offset", "count", "call_frame",
              "reply_frame", "latency_ns", "rdma_bytes", "data_first_frame", "data_last_frame", "complete")


def truth(exe, cap):
    """Every RPC the generator put on the wire (samples/gen, its truth file),
    field by field, in call order; the RDMA list names the truth's chunk."""
    want = json.load(open(cap.rsplit(".", 1)[0] + ".truth.json"))["rpc"]
    ours = [json.loads(x) for x in subprocess.run([exe, "rpc", "--format", "jsonl", cap], capture_output=True,
                                                  text=True, check=True).stdout.splitlines()]
    if len(ours) != len(want):
        raise Fail("%d RPCs, the truth has %d" % (len(ours), len(want)))
    for o, w in zip(ours, want):
        for k in TRUTH_KEYS:
            if o[k] != w[k]:
                raise Fail("xid %#x: %s %s, the truth says %s" % (w["xid"], k, o[k], w[k]))
        chunks = sorted({d["chunk"] for d in o["rdma"]})
        if chunks != ([w["chunk"]] if w["chunk"] else []):
            raise Fail("xid %#x: chunks %s, the truth says %s" % (w["xid"], chunks, w["chunk"]))
    print("%d RPCs as the generator made them (%s)" % (len(ours), ", ".join(
        "%s%s" % (w["proc"], "(" + ",".join(w["ops"]) + ")" if w["ops"] else "") for w in want)))
    return 0


def credits(exe, cap, ncalls, want_stalls=None):
    """Credits over time (RFC 8166 §3.3.1; docs/semantics.md "Credit stall"),
    per connection in stats, recomputed from tshark's transport headers:
    each direction's credit value where it changed, the calls outstanding at
    most (+1 at each call's frame, -1 at each reply's), and the stalls by
    their definition (the window full at a call, a reply frees a credit, the
    next header is a call). The client is the sender of the first header."""
    qps = [q["rpc"] for q in json.loads(subprocess.run([exe, "stats", "--format", "json", cap], capture_output=True,
                                                        text=True, check=True).stdout)["qps"] if "rpc" in q]
    if len(qps) != 1:
        raise Fail("%d QPs with an rpc object" % len(qps))
    q = qps[0]
    want_log, last = [], {}
    events, client = [], None
    for fr, src, cr, xid in tshark(cap, "rpcordma", ["frame.number", "ip.src", "rpcordma.flow_control",
                                                      "rpcordma.xid"]):
        client = client or src
        d = "i2r" if src == client else "r2i"
        if last.get(d) != int(cr):
            last[d] = int(cr)
            want_log.append({"frame": int(fr), "dir": d, "credits": int(cr)})
        events.append((int(fr), d, int(cr)))
    got_log = [{k: c[k] for k in ("frame", "dir", "credits")} for c in q["credits"]]
    if got_log != want_log:
        raise Fail("credit changes %s, tshark's headers say %s" % (got_log, want_log))
    out = most = stalls = exceeded = 0
    granted, full, freed = 0, False, False
    for fr, d, cr in events:
        if d == "i2r":
            out += 1
            most = max(most, out)
            exceeded += bool(granted and out > granted)
            stalls += freed
            freed = False
            full = full or (granted and out >= granted)
        else:
            out -= 1
            freed = False
            granted = cr or granted
            if full and out < granted:
                full, freed = False, True
    want = {"calls": ncalls, "max_outstanding": most, "granted_max": max(c for _, d, c in events if d == "r2i"),
            "credit_changes": len(want_log), "credit_exceeded": exceeded, "credit_stalls": stalls}
    if {k: q[k] for k in want} != want:
        raise Fail("credits %s, tshark's headers say %s" % ({k: q[k] for k in want}, want))
    print("credits: %d changes, at most %d calls outstanding of %d granted, %d stalls, as tshark's headers say" %
          (len(want_log), most, want["granted_max"], stalls))
    if want_stalls is not None and stalls != want_stalls:
        raise Fail("%d stalls by the definition, the scenario made %d" % (stalls, want_stalls))


def main():
    if sys.argv[1] == "credits":   # credits EXE CAP CALLS STALLS: a generated capture
        return credits(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])) or 0
    if sys.argv[1] == "truth":
        return truth(sys.argv[2], sys.argv[3])
    exe, cap = sys.argv[1], sys.argv[2]
    ours = [json.loads(x) for x in subprocess.run([exe, "rpc", "--format", "jsonl", cap], capture_output=True,
                                                  text=True, check=True).stdout.splitlines()]
    by_xid = {r["xid"]: r for r in ours}
    if len(by_xid) != len(ours):
        raise Fail("an xid twice")

    # transport headers: call and reply frames, times, chunks
    hdr = tshark(cap, "rpcordma", ["frame.number", "frame.time_epoch", "ip.src", "rpcordma.xid",
                                   "rpcordma.msg_type", "rpcordma.rdma_handle", "rpcordma.rdma_length",
                                   "rpcordma.reads_count", "rpcordma.writes_count", "rpcordma.reply_count"])
    calls, replies = {}, {}
    for fr, t, src, xid, mt, handles, lengths, nr, nw, nrep in hdr:
        rec = (int(fr), ns(t), handles.split(",") if handles else [],
               [int(x) for x in lengths.split(",")] if lengths else [], int(nr or 0), int(nw or 0), int(nrep or 0))
        (calls if src == CLIENT else replies)[int(xid, 16)] = rec
    if set(calls) != set(by_xid) or set(replies) != set(by_xid):
        raise Fail("xids differ: tshark calls %d replies %d, ours %d" % (len(calls), len(replies), len(by_xid)))
    # program and procedure of each call, wherever tshark decoded it
    prog = {}
    for xid, mt, p, v, proc in tshark(cap, "rpc.msgtyp == 0", ["rpc.xid", "rpc.msgtyp", "rpc.program",
                                                                "rpc.programversion", "rpc.procedure"]):
        prog[int(xid.split(",")[0], 16)] = (int(p.split(",")[0]), int(v.split(",")[0]), int(proc.split(",")[0]))
    nfs_counts = tshark(cap, "rpc.msgtyp == 1 && nfs", ["rpc.xid", "nfs.count3"])
    reply_count = {int(x.split(",")[0], 16): int(c.split(",")[0]) for x, c in nfs_counts if c}
    # the RDMA operations by STag (tshark's built-in iWARP dissector)
    # (an FPDU TCP reassembled is shown in the frame that completed it; its
    # first octets came in the first of its tcp.segment frames: the data's
    # first frame is that first transmission, docs/semantics.md)
    ddp = tshark(cap, "iwarp_rdma", ["frame.number", "iwarp_rdma.opcode", "iwarp_ddp.stag",
                                     "iwarp_rdma.srcstag", "iwarp_rdma.sinkstag", "tcp.segment",
                                     "iwarp_ddp.last_flag"])
    writes, rreq, rresp = defaultdict(list), {}, defaultdict(list)
    write_msgs = Counter()   # RDMA Write messages (their last DDP segment) per STag
    for fr, op, stag, src, sink, segs, last in ddp:
        fr, op = int(fr), int(op, 0)
        if op == 0:
            write_msgs[int(stag, 0)] += last in ("1", "True")
            writes[int(stag, 0)].append(fr)
            writes[int(stag, 0)] += [int(x) for x in segs.split(",") if x]
        elif op == 1:
            rreq.setdefault(int(src, 0), []).append((fr, int(sink, 0)))
        elif op == 2:
            rresp[int(stag, 0)].append(fr)

    checked = Counter()
    for xid, r in by_xid.items():
        cf, ct, ch, cl, nr, nw, nrep = calls[xid]
        rf, rt, rh, rl, _, rnw, rnrep = replies[xid]
        if not r["complete"] or r["latency_ns"] is None:
            raise Fail("xid %#x: not complete" % xid)
        if (r["call_frame"], r["reply_frame"]) != (cf, rf):
            raise Fail("xid %#x: frames %s-%s, tshark %d-%d" % (xid, r["call_frame"], r["reply_frame"], cf, rf))
        if r["latency_ns"] != rt - ct:
            raise Fail("xid %#x: latency %d, tshark's times say %d" % (xid, r["latency_ns"], rt - ct))
        if (r["program"], r["version"], r["procedure"]) != prog[xid]:
            raise Fail("xid %#x: %s/%s/%s, tshark %s" % (xid, r["program"], r["version"], r["procedure"], prog[xid]))
        # the data: which chunk, how many octets, which frames
        if nr:      # a read chunk: the server pulls it (NFS WRITE data)
            h, want = int(ch[0], 16), sum(cl[:nr])
            reqs = rreq.get(h, [])
            resp = sorted(f for _, sink in reqs for f in rresp[sink])
            frames = (min(f for f, _ in reqs), max(resp))
            kind = "read"
        elif nw:    # a write chunk: the server's RDMA Writes before the reply (NFS READ data)
            h = int(ch[0], 16)
            want = sum(rl[:rnw]) if rnw else None   # the reply says what it wrote
            frames = (min(writes[h]), max(writes[h]))
            kind = "write"
        elif nrep:  # a reply chunk: the long reply, RDMA_NOMSG
            hs = [int(x, 16) for x in rh]
            want = sum(rl)
            fs = [f for x in hs for f in writes.get(x, [])]
            frames = (min(fs), max(fs)) if fs else None
            kind = "reply"
        else:
            want, frames, kind = 0, None, None
        if r["rdma_bytes"] != want:
            raise Fail("xid %#x: %d RDMA octets, tshark's chunk lengths say %s" % (xid, r["rdma_bytes"], want))
        got_frames = (r["data_first_frame"], r["data_last_frame"]) if r["data_first_frame"] else None
        if got_frames != frames:
            raise Fail("xid %#x: data frames %s, tshark's %s" % (xid, got_frames, frames))
        if kind and {d["chunk"] for d in r["rdma"]} != {kind}:
            raise Fail("xid %#x: chunks %s, expected %s" % (xid, r["rdma"], kind))
        for d in r["rdma"]:
            want_ops = write_msgs[d["stag"]] if d["op"] == "write" else len(rreq.get(d["stag"], []))
            if d["ops"] != want_ops:
                raise Fail("xid %#x: %d RDMA %s operations into %#x, tshark shows %d" %
                           (xid, d["ops"], d["op"], d["stag"], want_ops))
            checked["ops"] += d["ops"]
        if sum(d["bytes"] for d in r["rdma"]) != r["rdma_bytes"]:
            raise Fail("xid %#x: the rdma list does not add up" % xid)
        ph = r["phases"]
        if kind and ph["think_ns"] + ph["data_ns"] + ph["tail_ns"] != r["latency_ns"]:
            raise Fail("xid %#x: phases %s do not add up to %d" % (xid, ph, r["latency_ns"]))
        # READ and WRITE: the RDMA octets are the I/O's count (RFC 8267 §4: the data item moves in the chunk)
        if r["program"] == 100003 and r["procedure"] in (6, 7):
            if r["rdma_bytes"] != r["count"]:
                raise Fail("xid %#x: %d RDMA octets for count %d" % (xid, r["rdma_bytes"], r["count"]))
            if r["procedure"] == 6 and reply_count.get(xid) != r["count"]:
                raise Fail("xid %#x: READ reply count %s" % (xid, reply_count.get(xid)))
            checked[r["proc"]] += 1
        checked["rpc"] += 1

    # the server's counters
    before, after = [int(x) for x in PROC3_BEFORE.split()[2:]], [int(x) for x in PROC3_AFTER.split()[2:]]
    nfsd = {p: a - b for p, (b, a) in enumerate(zip(before, after)) if a != b}
    mine = Counter(r["procedure"] for r in ours if r["program"] == 100003 and r["version"] == 3)
    if dict(mine) != nfsd:
        raise Fail("NFSv3 calls per procedure %s, nfsd counted %s" % (sorted(mine.items()), sorted(nfsd.items())))
    total = int(RPC_AFTER.split()[1]) - int(RPC_BEFORE.split()[1])
    if len(ours) != total:
        raise Fail("%d RPCs, nfsd counted %d" % (len(ours), total))
    # stats: per (program, version, procedure), recomputed from the lines
    stats = json.loads(subprocess.run([exe, "stats", "--format", "json", cap], capture_output=True, text=True,
                                      check=True).stdout)["total"]["rpc"]
    groups = defaultdict(list)
    for r in ours:
        groups[(r["program"], r["version"], r["procedure"])].append(r)
    got = {(g["program"], g["version"], g["procedure"]): g for g in stats["procs"]}
    if set(got) != set(groups) or stats["other"]:
        raise Fail("stats groups %s, the lines say %s" % (sorted(got), sorted(groups)))
    for k, rs in groups.items():
        g, lat = got[k], sorted(r["latency_ns"] for r in rs if r["complete"])
        rank = lambda q: lat[max(1, -(-int(q * 1000) * len(lat) // 1000)) - 1]   # nearest rank
        want = {"count": len(rs), "complete": len(lat), "rdma_bytes": sum(r["rdma_bytes"] for r in rs)}
        wl = {"count": len(lat), "min": lat[0], "max": lat[-1], "mean": (sum(lat) + len(lat) // 2) // len(lat),
              "p50": rank(0.5), "p90": rank(0.9), "p99": rank(0.99)}
        if {x: g[x] for x in want} != want or {x: g["latency_ns"][x] for x in wl} != wl:
            raise Fail("stats of %s: %s, the lines say %s %s" % (k, g, want, wl))
        if g["proc"] != rs[0]["proc"]:
            raise Fail("stats of %s named %s" % (k, g["proc"]))
    credits(exe, cap, len(by_xid))
    others = Counter((r["program"], r["proc"]) for r in ours if r["program"] != 100003)
    print("%d RPCs with reply and latency as tshark times them, %d RDMA operations linked as tshark's STags say; %d READ and %d WRITE moved their count in RDMA "
          "octets; NFSv3 per procedure = nfsd's proc3 delta (lines and stats); not NFS: %s" %
          (checked["rpc"], checked["ops"], checked["read"], checked["write"], dict(others)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fail as e:
        print("FAIL:", e)
        sys.exit(1)
