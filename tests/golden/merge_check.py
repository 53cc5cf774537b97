#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iwarpscope merge` of per-host statistics equals the joint analysis (issue 17
item 6). The real samples are split "by host": one group per capture, and a
capture with several TCP connections (a classic Ethernet pcap) split further,
one file per connection. Each group gets `stats --format json`; the merge of
all of them is compared with `stats` run on every capture together:

- every QP's operations, bytes and distributions are the same (matched by its
  endpoints and first time; the tcp.stream numbers differ);
- the totals' counts and bytes are exact, each distribution's count, min,
  max and mean exact, its quantiles within the sketch's bound
  (|merged - joint| <= joint / 512, docs/semantics.md);
- a merge of merges gives the same totals as one merge;
- the text tables print, and refusals (incompatible sketches) exit 2.

Usage: merge_check.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import copy
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run_ok, verdict  # noqa: E402
import pcaptool  # noqa: E402

BOUND = 512          # relative error of a merged quantile: 1 / 2^sub_bits
QUANTILES = ("p50", "p90", "p99", "p999")
# per-QP fields that depend on the file (frame numbers) or the numbering
QP_VOLATILE = {"qp", "source", "request_frame", "reply_frame", "first_frame", "last_frame",
               "gap_list", "terminate_list", "teardown"}
worst = [0.0, ""]


def conn_key(data):
    """The TCP connection of an Ethernet frame (sorted endpoints), or None."""
    if len(data) < 14:
        return None
    et, ip = pcaptool.ether_payload(data)
    if et != 0x0800 or len(ip) < 20 or ip[9] != 6:
        return None
    ihl = (ip[0] & 15) * 4
    if len(ip) < ihl + 4:
        return None
    sp, dp = struct.unpack(">HH", ip[ihl:ihl + 4])
    return tuple(sorted([(bytes(ip[12:16]), sp), (bytes(ip[16:20]), dp)]))


def split_by_connection(path, work):
    """One file per TCP connection (other frames go with the first), or None
    when the capture has one connection or is no classic pcap."""
    try:
        p = pcaptool.read(path)
    except ValueError:
        return None
    if p.linktype != pcaptool.LINKTYPE_ETHERNET:
        return None
    groups = {}
    for rec in p.records:
        groups.setdefault(conn_key(rec[3]), []).append(rec)
    keys = [k for k in groups if k is not None]
    if len(keys) < 2:
        return None
    groups[keys[0]] = sorted(groups[keys[0]] + groups.pop(None, []), key=lambda r: (r[0], r[1]))
    out = []
    base = os.path.splitext(os.path.basename(path))[0]
    for i, k in enumerate(keys):
        name = os.path.join(work, "%s.conn%d.pcap" % (base, i))
        pcaptool.write(name, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, groups[k]))
        out.append(name)
    return out


def stats(tool, files):
    return json.loads(run_ok(tool, ["stats", "--format", "json"] + files))


def merge(tool, files, fmt="json"):
    out = run_ok(tool, ["merge", "--format", fmt] + files)
    return json.loads(out) if fmt == "json" else out


def strip_sketch(x):
    if isinstance(x, dict):
        return {k: strip_sketch(v) for k, v in x.items() if k != "sketch"}
    return x


def check_dist(where, got, want):
    if not check((got is None) == (want is None), "%s: present in one only" % where) or got is None:
        return
    for k in ("count", "min", "max", "mean"):
        check(got[k] == want[k], "%s %s: merged %s, joint %s" % (where, k, got[k], want[k]))
    for q in QUANTILES:
        err = abs(got[q] - want[q])
        rel = err / want[q] if want[q] else float(err)
        if rel > worst[0]:
            worst[0], worst[1] = rel, "%s %s (merged %d, joint %d)" % (where, q, got[q], want[q])
        check(err * BOUND <= abs(want[q]), "%s %s: merged %d, joint %d: past the bound 1/%d" %
              (where, q, got[q], want[q], BOUND))


def check_ops(where, got, want):
    check(sorted(got) == sorted(want), "%s: ops %s, joint %s" % (where, sorted(got), sorted(want)))
    for op in set(got) & set(want):
        g, w = got[op], want[op]
        for k in ("count", "complete", "bytes", "segments", "crc_errors", "retransmissions",
                  "stall_ns"):
            check(g[k] == w[k], "%s %s %s: merged %s, joint %s" % (where, op, k, g[k], w[k]))
        for k in ("latency_ns", "delivery_ns"):
            check_dist("%s %s %s" % (where, op, k), g[k], w[k])


def nvme_inputs(inputs):
    return [g for g in inputs if "nvme" in json.load(open(g))["total"]]


def qp_id(q):
    return (q["initiator"], q["responder"], q["first_ns"])


UNITS = {"ns": 1, "µs": 1000, "ms": 1000000, "s": 1000000000}
DIST_KEYS = ["min", "mean", "p50", "p90", "p99", "p999", "max"]


def check_text_units(text, merged):
    """The text's distribution tables (issue 32 item 6): one unit per table,
    named in its heading, plain numbers in its cells (never "8.206ms"), each
    equal to the merged JSON's value in that unit to the decimals shown."""
    for k, title in (("latency_ns", "Latency on the wire"), ("delivery_ns", "Delivery (start")):
        at = text.find("\n" + title)
        if not check(at >= 0, "text: no table %r" % title):
            continue
        lines = text[at + 1:].split("\n")
        head = lines[0]
        unit = head.rsplit(", ", 1)[-1]
        if not check(unit in UNITS, "text: %r names no unit" % head):
            continue
        rows = 0
        for line in lines[2:]:
            f = line.split()
            if len(f) != 10:
                break
            rows += 1
            for cell in f[3:]:
                if not check(re.fullmatch(r"\d+(\.\d+)?", cell), "text %s: cell %r is not a plain number" % (
                        title, cell)):
                    break
            if f[0] == "all":
                o = merged["total"]["ops"].get(f[1], {}).get(k)
                if check(o, "text %s: an all row for %s the JSON has not" % (title, f[1])):
                    for cell, key in zip(f[3:], DIST_KEYS):
                        dec = len(cell.split(".")[1]) if "." in cell else 0
                        got = float(cell) * UNITS[unit]
                        check(abs(got - o[key]) <= 0.5 * 10 ** -dec * UNITS[unit] + 1,
                              "text %s all %s %s: %s %s, JSON %d ns" % (title, f[1], key, cell, unit, o[key]))
        check(rows, "text %s: no rows" % title)


def strip_frames(v):
    """v without the frame numbers inside it (the RPC credit changes'
    "frame"): a file's frame numbers, not the joint capture's."""
    if isinstance(v, dict):
        return {k: strip_frames(x) for k, x in v.items() if k != "frame"}
    if isinstance(v, list):
        return [strip_frames(x) for x in v]
    return v


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    caps = sorted(glob.glob(os.path.join(samples, "real", "*.pcap")))
    groups = []
    for c in caps:
        groups += split_by_connection(c, work) or [c]
    inputs = []
    for i, g in enumerate(groups):
        name = os.path.join(work, "host%02d.json" % i)
        with open(name, "w") as f:
            json.dump(stats(tool, [g]), f)
        inputs.append(name)
    joint = stats(tool, caps)
    merged = merge(tool, inputs)
    print("%d captures split into %d groups (hosts); joint analysis: %d QPs, %d operations" %
          (len(caps), len(groups), len(joint["qps"]), joint["total"]["operations"]))

    # QPs: each one from its own input, the same as in the joint analysis
    check(merged["sources"] == inputs, "sources: %s" % merged["sources"])
    check(len(merged["qps"]) == len(joint["qps"]), "%d QPs merged, %d joint" %
          (len(merged["qps"]), len(joint["qps"])))
    jq = {qp_id(q): q for q in joint["qps"]}
    for q in merged["qps"]:
        w = jq.get(qp_id(q))
        if not check(w is not None, "merged QP %s of %s not in the joint analysis" %
                     (q["qp"], q.get("source"))):
            continue
        check(q.get("source") in inputs, "QP %s: source %s" % (q["qp"], q.get("source")))
        where = "QP %s" % (qp_id(q),)
        for k in w:
            if k not in QP_VOLATILE:
                check(strip_frames(q.get(k)) == strip_frames(w[k]),
                      "%s %s: merged %s, joint %s" % (where, k, q.get(k), w[k]))
        check(q["ops"] == w["ops"], "%s: ops differ (exact per QP)" % where)

    # totals: exact counts, quantiles within the bound
    t, jt = merged["total"], joint["total"]
    for k in ("qps", "fpdus", "operations", "incomplete", "bytes", "crc_errors", "terminates",
              "retransmissions", "gaps", "gap_bytes"):
        check(t[k] == jt[k], "total %s: merged %s, joint %s" % (k, t[k], jt[k]))
    check_ops("total", t["ops"], jt["ops"])
    if check(("rpc" in t) == ("rpc" in jt), "total rpc present in one only") and jt.get("rpc"):
        check(t["rpc"]["other"] == jt["rpc"]["other"], "total rpc other")
        key = lambda g: (g["program"], g["version"], g["procedure"])  # noqa: E731
        jr = {key(g): g for g in jt["rpc"]["procs"]}
        mr = {key(g): g for g in t["rpc"]["procs"]}
        check(sorted(jr, key=str) == sorted(mr, key=str), "rpc groups differ")
        for g in set(jr) & set(mr):
            for k in ("count", "complete", "rdma_bytes"):
                check(mr[g][k] == jr[g][k], "rpc %s %s: merged %s, joint %s" % (g, k, mr[g][k], jr[g][k]))
            for k in ("latency_ns", "think_ns", "data_ns"):
                check_dist("rpc %s %s" % (g, k), mr[g][k], jr[g][k])
    if check(("nvme" in t) == ("nvme" in jt), "total nvme present in one only") and "nvme" in jt:
        for k in ("qps", "commands", "incomplete", "errors"):
            check(t["nvme"][k] == jt["nvme"][k], "total nvme %s" % k)
        jg = {(g["qid"], g["op"]): g for g in jt["nvme"]["ops"]}
        mg = {(g["qid"], g["op"]): g for g in t["nvme"]["ops"]}
        check(sorted(jg, key=str) == sorted(mg, key=str), "nvme groups differ")
        for key in set(jg) & set(mg):
            for k in ("count", "complete", "errors", "bytes"):
                check(mg[key][k] == jg[key][k], "nvme %s %s" % (key, k))
            for k in ("latency_ns", "data_ns"):
                check_dist("nvme %s %s" % (key, k), mg[key][k], jg[key][k])
        # the all-queue rows, per command type over every host's queues:
        # exact counts and span ends, quantiles within the bound; fio's
        # ladder is not recomputed from several inputs (null)
        ja = {g["op"]: g for g in jt["nvme"]["all_ops"]}
        ma = {g["op"]: g for g in t["nvme"]["all_ops"]}
        check(sorted(ja) == sorted(ma), "nvme all rows %s, joint %s" % (sorted(ma), sorted(ja)))
        for op in set(ja) & set(ma):
            for k in ("count", "complete", "errors", "bytes", "first_ns", "last_ns"):
                check(ma[op][k] == ja[op][k], "nvme all %s %s: merged %s, joint %s" % (op, k, ma[op][k], ja[op][k]))
            for k in ("latency_ns", "data_ns"):
                check_dist("nvme all %s %s" % (op, k), ma[op][k], ja[op][k])
    c, jc = merged["capture"], joint["capture"]
    for k in ("frames", "bytes", "tcp_segments", "tcp_connections", "first_ns", "last_ns"):
        check(c[k] == jc[k], "capture %s: merged %s, joint %s" % (k, c[k], jc[k]))

    # a merge of merges: the same totals
    half = len(inputs) // 2
    a, b = os.path.join(work, "rack-a.json"), os.path.join(work, "rack-b.json")
    for name, part in ((a, inputs[:half]), (b, inputs[half:])):
        with open(name, "w") as f:
            json.dump(merge(tool, part), f)
    again = merge(tool, [a, b])
    check(strip_sketch(again["total"]) == strip_sketch(t), "merge of merges: other totals")
    check(len(again["qps"]) == len(merged["qps"]), "merge of merges: QPs")
    check(again["qps"][0]["source"] == a + "/" + inputs[0], "merge of merges: source %s" %
          again["qps"][0]["source"])

    # one input merged alone is itself (its QPs gain their source)
    for g in inputs[:3] + nvme_inputs(inputs)[:1]:
        alone, orig = merge(tool, [g]), json.load(open(g))
        check(alone["total"] == orig["total"] and alone["capture"] == orig["capture"],
              "%s merged alone: other total or capture" % g)
        check([{k: v for k, v in q.items() if k != "source"} for q in alone["qps"]] == orig["qps"],
              "%s merged alone: other QPs" % g)

    # the same statistics twice (NVMe groups keep their qid and op, counts double)
    nv = nvme_inputs(inputs)
    if check(nv, "no input with NVMe"):
        p = subprocess.run([tool, "merge", "--format", "json", nv[0], nv[0]], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        one, two = json.load(open(nv[0]))["total"]["nvme"], json.loads(p.stdout)["total"]["nvme"]
        check("given twice" in p.stderr.decode(), "no warning for an input given twice")
        check([(g["qid"], g["op"]) for g in one["ops"]] == [(g["qid"], g["op"]) for g in two["ops"]],
              "NVMe groups of a doubled input: other qids or ops")
        check([2 * g["count"] for g in one["ops"]] == [g["count"] for g in two["ops"]],
              "NVMe groups of a doubled input: counts not doubled")
        check(two["commands"] == 2 * one["commands"], "NVMe commands not doubled")

    # windowed inputs (stats --since/--until): the merge names each source's
    # window, as stats does, and the merged window spans them
    wins = []
    for i, (c, lo, hi) in enumerate(((os.path.join(samples, "real", "08-read_bw-64k.pcap"), "+0.5", "+1"),
                                        (os.path.join(samples, "real", "03-send_lat.pcap"), "+0.1", "+0.35"))):
        w = os.path.join(work, "window%d.json" % i)
        with open(w, "w") as f:
            f.write(run_ok(tool, ["stats", "--format", "json", "--since", lo, "--until", hi, c]))
        wins.append((w, json.load(open(w))["capture"], lo, hi))
        check(wins[-1][1]["window"]["frames"] > 0, "%s [%s, %s): no frame in the window" % (c, lo, hi))
    plain = inputs[0]
    mw = merge(tool, [wins[0][0], plain, wins[1][0]])
    want = [dict(wins[0][1]["window"], capture_first_ns=wins[0][1]["first_ns"]), None,
            dict(wins[1][1]["window"], capture_first_ns=wins[1][1]["first_ns"])]
    check(mw.get("source_windows") == want, "merge: source_windows %s, the inputs' %s" % (mw.get("source_windows"), want))
    mwin = mw["capture"].get("window") or {}
    ws = [x[1]["window"] for x in wins]
    check((mwin.get("from_ns"), mwin.get("to_ns"), mwin.get("frames")) ==
          (min(x["from_ns"] for x in ws), max(x["to_ns"] for x in ws), sum(x["frames"] for x in ws)),
          "merge: capture.window %s of %s" % (mwin, ws))
    check("source_windows" not in merge(tool, [plain]), "merge: source_windows without a window")
    srcs = merge(tool, [wins[0][0], plain, wins[1][0]], "text").split("\n\n")[0].splitlines()[1:]
    for (w, cap, lo, hi), line in zip(wins, (srcs[0], srcs[2])):
        rel = lambda t: "+%d.%06d" % divmod(int(float(t[1:]) * 10 ** 6), 10 ** 6)
        named = "  window: %s s to %s s (" % (rel(lo), rel(hi))
        check(named in line and line.endswith(": %d frames" % cap["window"]["frames"]),
              "merge text: source line %r, want %r and its frames" % (line, named))
    check("window" not in srcs[1], "merge text: a window on a source without one: %r" % srcs[1])

    # the text tables
    text = merge(tool, inputs, "text")
    check("Latency on the wire (complete reads and atomics" in text and "\n   all read" in text,
          "text: no tables or no all-QP row")
    check_text_units(text, merge(tool, inputs, "json"))

    # refusals: another bucket layout, another version, no sketch
    bad = copy.deepcopy(stats(tool, [caps[0]]))
    for mutate, word in ((lambda s: s.update(sub_bits=8), "bucket parameters"),
                         (lambda s: s.update(v=2), "version 2"),
                         (lambda s: s.clear(), "")):
        x = copy.deepcopy(bad)
        for q in x["qps"]:
            for o in q["ops"].values():
                for k in ("latency_ns", "delivery_ns"):
                    if o[k]:
                        mutate(o[k]["sketch"])
        name = os.path.join(work, "bad.json")
        with open(name, "w") as f:
            json.dump(x, f)
        p = subprocess.run([tool, "merge", inputs[0], name], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        err = p.stderr.decode()
        check(p.returncode == 2 and not p.stdout and "bad.json" in err and word in err,
              "incompatible sketch (%s): exit %d, %r" % (word, p.returncode, err))
    print("largest quantile error: %.6f of the joint value (bound %.6f) at %s" %
          (worst[0], 1 / BOUND, worst[1]))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
