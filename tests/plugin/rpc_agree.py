#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plugin = CLI for RPC over RDMA (issue 36 item 3).

On each capture, every RPC `iwarpscope rpc --format jsonl` lists is shown by
the plugin's iwarp.rpc items (tshark -2 -T pdml) with the same numbers:
  the call's first FPDU shows its xid, reply_in (the CLI's reply_frame), the
  response time (latency_ns), the phases, the RDMA octets and each RDMA entry
  (operation, chunk, handle, operations, octets, first and last frame);
  the reply's frame shows call_in (the call_frame);
  the frames of each RDMA entry show the RPC (its xid and call_in): its last
  frame and the first one in which one of its FPDUs completes (the link back
  from the data to the call);
and the plugin shows no RPC item the CLI does not explain. Then
`tshark -z iwarp,rpc,raw` equals the rpc section of `iwarpscope stats
--format json` (count, complete, RDMA octets, latency, think and data
distributions per program, version and procedure).

Usage: rpc_agree.py --plugin SO --cli IWARPSCOPE [--preload LIB] CAPTURE...
Exit status: 0 pass, 1 fail, 77 skipped (tshark absent).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iwarp_tshark as it  # noqa: E402

SKIP = 77
DIST = ["min", "mean", "p50", "p90", "p99", "p999", "max"]


def ns(show):
    """A relative time as PDML shows it ("0.103258000") in nanoseconds."""
    sec, _, frac = show.partition(".")
    frac = (frac + "000000000")[:9]
    sign = -1 if sec.startswith("-") else 1
    return sign * (abs(int(sec or "0")) * 1000000000 + int(frac))


def plugin_items(r, cap):
    """Every iwarp.rpc item: dicts with frame, qp, the fields, rdma entries."""
    out = []
    xml = r.run(["-2", "-r", cap, "-Y", "iwarp.rpc", "-T", "pdml"] + it.TSHARK_OPTS)
    for pkt in ET.fromstring(xml).iter("packet"):
        num = qp = None
        for f in pkt.iter("field"):
            if f.get("name") == "frame.number":
                num = int(f.get("show"))
            elif f.get("name") == "iwarp.rdmap.qp" and qp is None:
                qp = int(f.get("show"))
        for p in pkt.iter("proto"):
            if p.get("name") != "iwarp.rpc":
                continue
            d = {"frame": num, "qp": qp, "rdma": []}
            for c in p:
                n = c.get("name", "")
                if n.startswith("iwarp.rpc.") and not n.startswith("iwarp.rpc.rdma."):
                    d[n[len("iwarp.rpc."):]] = c.get("show")
                    continue
                e = {}
                for g in c.iter("field"):
                    gn = g.get("name", "")
                    if gn.startswith("iwarp.rpc.rdma."):
                        e[gn[len("iwarp.rpc.rdma."):]] = g.get("show")
                if e:
                    d["rdma"].append(e)
            out.append(d)
    return out


def cli_lines(cli, args):
    out = subprocess.run([cli] + args, stdout=subprocess.PIPE, check=True).stdout.decode()
    return out


def want_rdma(r):
    return [(e["op"], e["chunk"], e["stag"], e["ops"], e["bytes"], e["first_frame"], e["last_frame"])
            for e in r["rdma"]]


def got_rdma(item):
    return [(e["op"], e["chunk"], int(e["handle"], 16), int(e["ops"]), int(e["bytes"]), int(e["first_frame"]),
             int(e["last_frame"])) for e in item["rdma"]]


def check_rpcs(r, cap, cli, path):
    rpcs = [json.loads(x) for x in cli_lines(cli, ["rpc", "--format", "jsonl", path]).splitlines() if x.strip()]
    if not rpcs:
        raise it.Fail("the CLI found no RPC: the comparison would prove nothing")
    items = plugin_items(r, cap)
    by_key = {}
    for d in items:
        by_key.setdefault((d["qp"], d["frame"], d["role"], int(d["xid"], 16)), []).append(d)
    used = set()

    def take(qp, frame, role, xid, what):
        k = (qp, frame, role, xid)
        if k not in by_key:
            raise it.Fail("RPC xid 0x%08x (QP %s): no iwarp.rpc %s item in frame %s (%s)" % (xid, qp, role, frame, what))
        used.add(k)
        return by_key[k][0]

    ncall = nreply = ndata = 0
    for x in rpcs:
        xid, qp = x["xid"], x["qp"]
        has_call = x["program"] is not None
        call = x["call_frame"]
        if has_call:
            # shown on the call's first FPDU, which completes in the call's
            # first frame or, split across TCP segments, in a later one
            # before the reply
            end = x["reply_frame"] or call + 64
            at = [f for f in range(call, end + 1) if (qp, f, "call", xid) in by_key]
            c = take(qp, at[0] if at else call, "call", xid, "its call")
            ncall += 1
            got = (int(c["reply_in"]) if "reply_in" in c else None, ns(c["time"]) if "time" in c else None,
                   int(c["rdma_bytes"]), got_rdma(c))
            reply_in = x["reply_frame"] if x["reply_frame"] != call else None
            want = (reply_in, x["latency_ns"], x["rdma_bytes"], want_rdma(x))
            if got != want:
                raise it.Fail("RPC xid 0x%08x call frame %d: plugin (reply_in, time, rdma_bytes, rdma) %s, CLI %s"
                              % (xid, call, got, want))
            ph = x["phases"]
            gp = tuple(ns(c[k]) if k in c else None for k in ("phase.think", "phase.data", "phase.reply"))
            wp = (ph["think_ns"], ph["data_ns"], ph["tail_ns"])
            if x["reply_frame"] is None or x["data_first_frame"] is None:
                wp = (None, None, None)
            if gp != wp:
                raise it.Fail("RPC xid 0x%08x: plugin phases %s, CLI %s" % (xid, gp, wp))
            if c.get("procedure") != x["proc"]:
                raise it.Fail("RPC xid 0x%08x: plugin procedure %s, CLI %s" % (xid, c.get("procedure"), x["proc"]))
        if x["reply_frame"] is not None:
            rp = take(qp, x["reply_frame"], "reply", xid, "its reply")
            nreply += 1
            if has_call and int(rp.get("call_in", 0)) != call:
                raise it.Fail("RPC xid 0x%08x reply frame %d: call_in %s, CLI call_frame %d"
                              % (xid, x["reply_frame"], rp.get("call_in"), call))
        for e in x["rdma"]:
            # The last frame completes the last operation; the first frame
            # holds its first octets, whose FPDU may complete in a later
            # frame (split across TCP segments): the first frame of the
            # entry showing the RPC is then the next one that completes one.
            first = [f for f in range(e["first_frame"], e["last_frame"] + 1) if (qp, f, "data", xid) in by_key]
            if not first:
                raise it.Fail("RPC xid 0x%08x: no RDMA frame in %d-%d shows it" % (xid, e["first_frame"],
                                                                                   e["last_frame"]))
            for f in {first[0], e["last_frame"]}:
                d = take(qp, f, "data", xid, "its RDMA %s" % e["op"])
                ndata += 1
                if has_call and int(d.get("call_in", 0)) != call:
                    raise it.Fail("RPC xid 0x%08x RDMA frame %d: call_in %s, CLI call_frame %d"
                                  % (xid, f, d.get("call_in"), call))
    # every data item links to an RPC the CLI lists; calls and replies are
    # exactly the CLI's
    calls = {(x["qp"], x["xid"], x["call_frame"]) for x in rpcs}
    for k, ds in by_key.items():
        qp, frame, role, xid = k
        if role in ("call", "reply") and k not in used:
            raise it.Fail("plugin shows an RPC %s of xid 0x%08x in frame %d the CLI does not list" % (role, xid, frame))
        if role == "data":
            for d in ds:
                if "call_in" in d and (qp, xid, int(d["call_in"])) not in calls:
                    raise it.Fail("RDMA frame %d links to xid 0x%08x call %s the CLI does not list"
                                  % (frame, xid, d["call_in"]))
    return "%d RPCs: %d calls, %d replies, %d RDMA end frames equal the CLI's" % (len(rpcs), ncall, nreply, ndata)


def parse_z(text):
    """Rows of -z iwarp,rpc,raw: (program, version, procedure) -> numbers."""
    rows = {}
    for line in text.splitlines():
        w = line.split()
        if len(w) != 7 + 21 or not (w[0].isdigit() or w[0] == "-"):
            continue
        key = tuple(None if v == "-" else int(v) for v in w[0:3])
        dists = []
        for k in range(3):
            v = w[7 + 7 * k:14 + 7 * k]
            dists.append(None if v[0] == "-" else [int(x) for x in v])
        rows[key] = {"proc": None if w[3] == "-" else w[3], "count": int(w[4]), "incomplete": int(w[5]),
                     "rdma_bytes": int(w[6]), "dists": dists}
    return rows


def check_stats(r, cap, cli, path):
    st = json.loads(cli_lines(cli, ["stats", "--format", "json", path]))
    want = st["total"].get("rpc")
    if not want or not want["procs"]:
        raise it.Fail("the CLI's stats have no rpc section")
    got = parse_z(r.run(["-q", "-r", cap, "-z", "iwarp,rpc,raw"] + it.TSHARK_OPTS))
    if len(got) != len(want["procs"]):
        raise it.Fail("-z iwarp,rpc,raw has %d procedures, the CLI's stats %d" % (len(got), len(want["procs"])))
    for g in want["procs"]:
        key = (g["program"], g["version"], g["procedure"])
        row = got.get(key)
        if row is None:
            raise it.Fail("-z iwarp,rpc,raw lacks %s" % (key,))
        wd = [None if g[k] is None else [g[k][q] for q in DIST] for k in ("latency_ns", "think_ns", "data_ns")]
        w = {"proc": g["proc"], "count": g["count"], "incomplete": g["count"] - g["complete"],
             "rdma_bytes": g["rdma_bytes"], "dists": wd}
        if row != w:
            raise it.Fail("%s: -z iwarp,rpc,raw %s, CLI %s" % (key, row, w))
    return "-z iwarp,rpc,raw equals stats' rpc section on %d procedures" % len(got)


def agree_main(*checks):
    """The plugin = CLI drivers' main (rpc_agree.py, smb_agree.py): each
    check(r, cap, cli, path) on each capture says what it compared."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload", default=None)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    if not shutil.which("tshark"):
        print("SKIP: tshark is not installed")
        return SKIP
    r = it.Runner(a.plugin, a.preload)
    try:
        for path in a.captures:
            it.TSHARK_OPTS[:] = it.load_options(os.path.splitext(os.path.basename(path))[0])
            cap = r.stage(path)
            print("%s: %s" % (os.path.basename(path), "; ".join(c(r, cap, a.cli, path) for c in checks)))
    except it.Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        r.close()
    return 0


def main():
    return agree_main(check_rpcs, check_stats)


if __name__ == "__main__":
    sys.exit(main())
