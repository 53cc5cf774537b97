#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plugin = CLI for SMB Direct (issue 36 item 6).

On each capture, every SMB2 request `iwarpscope smb --format jsonl` lists is
shown by the plugin's iwarp.smb items (tshark -2 -T pdml) with the same
numbers:
  the Send that completed the request's message shows its MessageId and
  command, response_in (the CLI's resp_frame), the response time
  (latency_ns), status, channel, descriptor, RDMA and inline octets, RDMA
  operations and complete;
  the response's Send shows request_in (the CLI's req_frame);
  the frames of each RDMA entry (first and last) show the request;
and the plugin shows no SMB item the CLI does not list. Then `tshark -z
iwarp,smb` equals the "smb" object of `iwarpscope stats --format json` per
QP (verdict, READ/WRITE counts, RDMA and inline octets, requests,
incomplete, the send credits).

Usage: smb_agree.py --plugin SO --cli IWARPSCOPE [--preload LIB] CAPTURE...
Exit status: 0 pass, 1 fail, 77 skipped (tshark absent).
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iwarp_tshark as it  # noqa: E402
from rpc_agree import agree_main, ns  # noqa: E402  (the drivers' main, PDML relative times)


def plugin_items(r, cap):
    out = []
    xml = r.run(["-2", "-r", cap, "-Y", "iwarp.smb", "-T", "pdml"] + it.TSHARK_OPTS)
    for pkt in ET.fromstring(xml).iter("packet"):
        num = None
        for f in pkt.iter("field"):
            if f.get("name") == "frame.number":
                num = int(f.get("show"))
                break
        for p in pkt.iter("proto"):
            if p.get("name") != "iwarp.smb":
                continue
            d = {"frame": num}
            for c in p:
                n = c.get("name", "")
                if n.startswith("iwarp.smb."):
                    d[n[len("iwarp.smb."):]] = c.get("show")
            out.append(d)
    return out


def cli_json(cli, args):
    return subprocess.run([cli] + args, stdout=subprocess.PIPE, check=True).stdout.decode()


def check_items(r, cap, cli, path):
    rows = [json.loads(x) for x in cli_json(cli, ["smb", "--format", "jsonl", "--no-progress", path]).splitlines()]
    if not rows:
        raise it.Fail("the CLI found no SMB2 request: the comparison would prove nothing")
    items = plugin_items(r, cap)
    used = set()

    def take(mid, role, frame, what):
        for i, d in enumerate(items):
            if i not in used and d["frame"] == frame and d.get("role") == role and int(d["message_id"]) == mid:
                used.add(i)
                return d
        raise it.Fail("MessageId %d: no iwarp.smb %s item in frame %s (%s)" % (mid, role, frame, what))

    ndata = 0
    for x in rows:
        mid = x["message_id"]
        if x["req_frame"] is not None:
            # the request shows where its message completed: the frame of a
            # response's Send precedes it only in a mangled capture; look for it
            cand = [i for i, d in enumerate(items) if i not in used and d.get("role") == "request" and
                    int(d["message_id"]) == mid and d["frame"] >= x["req_frame"]]
            if not cand:
                raise it.Fail("MessageId %d: no iwarp.smb request item from frame %d" % (mid, x["req_frame"]))
            d = items[cand[0]]
            used.add(cand[0])
            got = (d.get("response_in"), d.get("time") and ns(d["time"]),
                   int(d["status"], 0) if "status" in d else None, d.get("complete") in ("1", "True", "true"))
            want = (str(x["resp_frame"]) if x["resp_frame"] is not None and x["resp_frame"] != d["frame"] else None,
                    x["latency_ns"], x["status"], x["complete"])
            if got != want:
                raise it.Fail("MessageId %d request: plugin (response_in, time, status, complete) %s, CLI %s" %
                              (mid, got, want))
            if x["channel"] is not None:
                g = (d.get("channel"), int(d["rdma_bytes"]), int(d["inline_bytes"]), int(d["desc_bytes"]),
                     int(d["rdma_ops"]))
                w = (x["channel"], x["rdma_bytes"], x["inline_bytes"], x["desc_bytes"], x["rdma_ops"])
                if g != w:
                    raise it.Fail("MessageId %d: plugin (channel, rdma, inline, desc octets, ops) %s, CLI %s" %
                                  (mid, g, w))
        if x["resp_frame"] is not None and x["req_frame"] is not None:
            d = take(mid, "response", x["resp_frame"], "the response")
            if d.get("request_in") != str(x["req_frame"]):
                raise it.Fail("MessageId %d response: request_in %s, CLI req_frame %d" %
                              (mid, d.get("request_in"), x["req_frame"]))
        for e in x["rdma"]:
            for fr in sorted({e["first_frame"], e["last_frame"]}):
                cand = [i for i, d in enumerate(items) if d["frame"] == fr and d.get("role") == "data" and
                        int(d["message_id"]) == mid]
                if not cand:
                    raise it.Fail("MessageId %d: RDMA frame %d shows no iwarp.smb data item" % (mid, fr))
                used.update(cand)
                ndata += 1
    for i, d in enumerate(items):
        if i in used or d.get("role") == "data":
            continue
        raise it.Fail("plugin shows an SMB %s of MessageId %s in frame %d the CLI does not explain" %
                      (d.get("role"), d.get("message_id"), d["frame"]))
    return "%d requests' items equal the CLI's (%d RDMA frames link back)" % (len(rows), ndata)


def check_stats(r, cap, cli, path):
    qps = [q for q in json.loads(cli_json(cli, ["stats", "--format", "json", "--no-progress", path]))["qps"]
           if "smb" in q]
    text = r.run(["-q", "-r", cap, "-z", "iwarp,smb"] + it.TSHARK_OPTS)
    got = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 13 and f[0].isdigit():
            got[int(f[0])] = f[1:]
    if len(got) != len(qps):
        raise it.Fail("-z iwarp,smb has %d connections, the CLI's stats %d" % (len(got), len(qps)))
    for q in qps:
        k = q["smb"]
        c, s = k["credits"]["client"], k["credits"]["server"]
        want = [k["verdict"], str(k["reads"]), str(k["writes"]), str(k["rdma_reads"] + k["rdma_writes"]),
                str(k["rdma_bytes"]), str(k["inline_bytes"]), str(k["requests"]), str(k["incomplete"])] + \
               ["%d/%d" % (c[n], s[n]) for n in ("granted", "max_held", "min_left", "exceeded")]
        if got.get(q["qp"]) != want:
            raise it.Fail("QP %d: -z iwarp,smb %s, CLI %s" % (q["qp"], got.get(q["qp"]), want))
    return "-z iwarp,smb equals stats' smb object on %d connection(s)" % len(got)


if __name__ == "__main__":
    sys.exit(agree_main(check_items, check_stats))
