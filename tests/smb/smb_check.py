#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""SMB Direct (MS-SMBD) through `iwarpscope smb` and stats' "smb" object,
against tshark's own smb_direct, smb2 and iWARP dissectors on the same bytes
(Wireshark 4.0 decodes port 5445 once the Artemis dissector that also
claims it is disabled):

  - every SMB2 response tshark decodes is a row with the same MessageId,
    command, status and response frame; a request tshark decodes in the
    frame where our SMBD message starts has that frame, and the latency is
    tshark's response time minus its request time;
  - READ/WRITE: channel and buffer descriptors (token, length) as tshark's
    smb2 fields; the RDMA octets linked to a descriptor equal the octets of
    the RDMA Writes (READ) or of the Read Responses to the Read Requests
    whose source is the token (WRITE), summed from tshark's DDP fields,
    and equal the descriptor's Length; inline octets are the READ
    response's data and the inline WRITE's Length;
  - the verdict and its counts (and, given, the counts the caller expects:
    for the real capture, those read by hand from tshark), and the send
    credits per side replayed from the Sends' own octets (MS-SMBD 3.1.5.9).

Usage: smb_check.py IWARPSCOPE CAPTURE VERDICT [READS WRITES RDMA]
"""
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rpc"))
import rpc_check  # noqa: E402  (tshark, ns, Fail: the same readings as the RPC checks)
from rpc_check import Fail, ns  # noqa: E402

TS = ["--disable-protocol", "artemis"]
SEND_OPS = (3, 4, 5, 6)   # Send, Send with Invalidate, Send with SE, SE and Invalidate (RFC 5040 §4.3)


def tshark(cap, filt, fields):
    return rpc_check.tshark(cap, filt, fields, TS)


def ints(s, base=0):
    return [int(x, base) for x in s.split(",") if x]


def run(exe, *args):
    return subprocess.run([exe] + list(args), capture_output=True, text=True, check=True).stdout


def main():
    exe, cap, verdict = sys.argv[1:4]
    counts = [int(x) for x in sys.argv[4:7]]
    rows = [json.loads(line) for line in run(exe, "smb", "--format", "jsonl", "--no-progress", cap).splitlines()]
    qps = [q for q in json.loads(run(exe, "stats", "--format", "json", "--no-progress", cap))["qps"] if "smb" in q]
    if len(qps) != 1:
        raise Fail("%d connections with SMB Direct, want 1" % len(qps))
    k = qps[0]["smb"]
    by_id = {r["message_id"]: r for r in rows}
    if len(by_id) != len(rows):
        raise Fail("MessageIds repeat in the rows")

    # SMB2 messages as tshark decodes them (a compound lists each element)
    smb = tshark(cap, "smb2", ["frame.number", "frame.time_epoch", "ip.src", "smb2.cmd", "smb2.msg_id",
                               "smb2.flags.response", "smb2.nt_status", "smb2.channel",
                               "smb2.buffer_descriptor.token", "smb2.buffer_descriptor.length",
                               "smb2.read_length", "smb2.write_length", "data.len"])
    req_t, resp_t, resp_frame, status, cmd_of, descs, io = {}, {}, {}, {}, {}, {}, {}
    inline = 0
    client = None
    for fr, t, src, cmd, mid, resp, st, ch, tok, dl, rl, wl, dlen in smb:
        cmds, mids, resps, sts = ints(cmd), ints(mid), resp.split(","), st.split(",")
        for i, (c, m) in enumerate(zip(cmds, mids)):
            if resps[i] in ("1", "True"):
                resp_t[m], resp_frame[m] = ns(t), int(fr)
                status[m] = int(sts.pop(0), 16) if sts and sts[0] else None
                if c == 8 and dlen:
                    inline += ints(dlen)[-1]   # the READ response's data (MS-SMB2 2.2.20)
            else:
                client = client or src
                req_t.setdefault(m, (ns(t), int(fr)))
                cmd_of[m] = c
                if c in (8, 9):
                    io[m] = (c, int(ch.split(",")[0], 16), ints(tok), ints(dl))
                    if c == 9 and int(ch.split(",")[0], 16) == 0:
                        inline += ints(wl)[0]   # MS-SMB2 2.2.21: inline data
    for m, fr in resp_frame.items():
        r = by_id.get(m)
        if not r or r["resp_frame"] != fr or r["status"] != status[m]:
            raise Fail("MessageId %d: row %s, tshark's response in frame %d status %s" % (m, r, fr, status[m]))
        if m in cmd_of and r["command"] != cmd_of[m]:
            raise Fail("MessageId %d: command %d, tshark %d" % (m, r["command"], cmd_of[m]))
        if m in req_t and req_t[m][1] == r["req_frame"] and r["latency_ns"] != resp_t[m] - req_t[m][0]:
            raise Fail("MessageId %d: latency %d, tshark's times say %d" % (m, r["latency_ns"],
                                                                          resp_t[m] - req_t[m][0]))
    # the RDMA operations from the iWARP dissector: octets per STag
    ddp = tshark(cap, "iwarp_rdma", ["iwarp_rdma.opcode", "iwarp_mpa.ulpdulength", "iwarp_ddp.stag",
                                     "iwarp_rdma.srcstag", "iwarp_rdma.sinkstag"])
    written, read_into, src_of_sink = Counter(), Counter(), {}
    for op, ulen, stag, src, sink in ddp:
        stags = ints(stag)
        for o, n in zip(ints(op), ints(ulen)):
            if o in (0, 2):      # tagged: the 14-octet DDP header, then the data (RFC 5041 §5.2)
                s = stags.pop(0)
                (written if o == 0 else read_into)[s] += n - 14
        for s, d in zip(ints(src), ints(sink)):
            src_of_sink[d] = s
    rdma_by_token = Counter(written)
    for sink, n in read_into.items():
        if sink in src_of_sink:
            rdma_by_token[src_of_sink[sink]] += n
    nread = nwrite = nrdma = 0
    rdma_total = 0
    for m, (c, ch, toks, dls) in io.items():
        r = by_id[m]
        nread += c == 8
        nwrite += c == 9
        got = [(d["token"], d["length"]) for d in r["descriptors"]]
        if got != list(zip(toks, dls)):
            raise Fail("MessageId %d: descriptors %s, tshark %s" % (m, got, list(zip(toks, dls))))
        if ch in (1, 2) and toks:
            nrdma += 1
            want = sum(rdma_by_token[t] for t in toks)
            if r["rdma_bytes"] != want or want != sum(dls):
                raise Fail("MessageId %d: %d RDMA octets, the DDP segments of its tokens carry %d, "
                           "its descriptors say %d" % (m, r["rdma_bytes"], want, sum(dls)))
            kind = "write" if c == 8 else "read"
            if any(x["op"] != kind for x in r["rdma"]):
                raise Fail("MessageId %d: RDMA %s, want %s" % (m, r["rdma"], kind))
            rdma_total += want
    # the verdict (docs/semantics.md, "SMB Direct")
    want_v = "rdma" if nrdma else "inline-only" if nread + nwrite else "no-io"
    got_k = (k["verdict"], k["reads"], k["writes"], k["rdma_reads"] + k["rdma_writes"], k["inline_bytes"],
             k["rdma_bytes"])
    want_k = (want_v, nread, nwrite, nrdma, inline, rdma_total)
    if got_k != want_k:
        raise Fail("verdict %s, tshark's messages say %s" % (got_k, want_k))
    if counts and [nread, nwrite, nrdma] != counts or verdict != want_v:
        raise Fail("tshark sees %s reads/writes/rdma and %s, the test expects %s and %s" %
                   ([nread, nwrite, nrdma], want_v, counts, verdict))
    # send credits (MS-SMBD 3.1.5.1, 3.1.5.9), replayed from the Sends' own
    # octets: each frame's TCP payload read as FPDUs (RFC 5044 §4: length,
    # ULPDU, pad to 4, CRC; no markers on these captures), each whole Send's
    # payload after its 18-octet untagged header (RFC 5041 §5.1); a side's
    # first Send is its negotiate message (the response grants the client
    # its first credits), every later one a Data Transfer Message costing a
    # credit and granting CreditsGranted (tshark's smb_direct shows only the
    # first SMBD message of a frame: 32-smb-direct-chelsio's frame 23 has two)
    held, granted, sent, min_left, max_held, exceeded = (defaultdict(int) for _ in range(6))
    seen = set()
    for fr, src, ops, payload in tshark(cap, "iwarp_rdma", ["frame.number", "ip.src", "iwarp_rdma.opcode",
                                                            "tcp.payload"]):
        if not any(o in SEND_OPS for o in ints(ops)):
            continue
        b, off = bytes.fromhex(payload.replace(":", "")), 0
        side = "client" if src == client else "server"
        peer = "server" if side == "client" else "client"
        while off + 2 <= len(b):
            n = int.from_bytes(b[off:off + 2], "big")
            u = b[off + 2:off + 2 + n]
            off += 2 + n + (-(2 + n)) % 4 + 4
            if len(u) < 18 or u[0] & 0x80 or (u[1] & 0x0F) not in SEND_OPS or not u[0] & 0x40:
                continue
            m = u[18:]
            if side not in seen:
                seen.add(side)
                if len(m) == 32:   # MS-SMBD 2.2.2: CreditsGranted at 10
                    gg = int.from_bytes(m[10:12], "little")
                    granted[side] += gg
                    held[peer] += gg
                    max_held[peer] = max(max_held[peer], held[peer])
                continue
            sent[side] += 1
            if held[side]:
                held[side] -= 1
            else:
                exceeded[side] += 1
            min_left[side] = min(min_left.get(side, held[side]), held[side])
            gg = int.from_bytes(m[2:4], "little")   # MS-SMBD 2.2.3 CreditsGranted
            granted[side] += gg
            held[peer] += gg
            max_held[peer] = max(max_held[peer], held[peer])
    for side in ("client", "server"):
        c = k["credits"][side]
        got = (c["messages"], c["granted"], c["max_held"], c["min_left"], c["exceeded"])
        want = (sent[side], granted[side], max_held[side], min_left.get(side, 0), exceeded[side])
        if got != want:
            raise Fail("%s credits (messages, granted, max held, min left, exceeded) %s, the Sends' octets say %s" %
                       (side, got, want))
    print("%d responses as tshark decodes them; verdict %s: %d READ, %d WRITE, %d by RDMA (%d octets, every "
          "descriptor's Length moved), %d inline octets; send credits as the Sends' octets replay them" %
          (len(resp_frame), want_v, nread, nwrite, nrdma, rdma_total, inline))


if __name__ == "__main__":
    try:
        main()
    except Fail as e:
        print("FAIL:", e)
        sys.exit(1)
