#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ground-truth test: the CLI's view of a generated capture must equal its truth file.

For SAMPLE.pcap[ng] with SAMPLE.truth.json (samples/README.md describes the schema):
  - `iwarpscope ops --format jsonl`: the same operations in the same order, every field
    the truth gives (qp, src, dst, op, opcode, first_frame, last_frame, start_ns, end_ns,
    bytes, segments, stag, to, qn, msn, latency_ns exactly, complete, crc_errors, the loss
    attribution first_inorder_frame, retransmissions, reordered, stall_ns, ack_frame, ack_ns,
    after_close, rtr, and the per-type extras);
  - `iwarpscope fpdus`: the same FPDUs (by qp, direction and sequence number) with the
    same framing, frames, markers, CRC status, DDP fields and operation;
  - `iwarpscope stats --format json`: per connection the negotiated MPA parameters, the
    handshake frames, the gaps, the TCP behaviour (`retransmissions`, `reordered_segments`,
    `tcp`) and the
    teardown (each FIN, RST and Terminate with the operations outstanding then, compared as
    operation indices); per QP and type (RTR messages left out) the operation counts, bytes,
    retransmissions and stall, and the latency and delivery distributions recomputed from the
    truth's operations (nearest-rank quantiles, docs/semantics.md).

Usage: truth_check.py IWARPSCOPE SAMPLE.pcap [...]
Exit status: 0 all equal, 1 a difference (each one printed), 2 a tool failure.
"""
import json
import math
import os
import subprocess
import sys

# Checks that are known to disagree, with the reason; they are reported as XFAIL and do
# not fail the test. Keep this empty unless the truth itself is wrong (see the report).
EXPECTED_DIFFS = {
    # (sample basename, check key) -> reason
}


def run(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"))
    if p.returncode not in (0, 1):
        raise RuntimeError("%s %s: exit %d: %s" % (tool, " ".join(args), p.returncode,
                                                    p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def nearest_rank(sorted_vals, q):
    n = len(sorted_vals)
    rank = max(1, math.ceil(q * n - 1e-9))
    return sorted_vals[min(rank, n) - 1]


class Checker:
    def __init__(self, name):
        self.name = name
        self.diffs = []
        self.xfails = []

    def diff(self, key, msg):
        reason = EXPECTED_DIFFS.get((self.name, key))
        if reason:
            self.xfails.append("%s: %s (expected: %s)" % (key, msg, reason))
        else:
            self.diffs.append("%s: %s" % (key, msg))

    def eq(self, key, what, got, want):
        if got != want:
            self.diff(key, "%s: got %r, truth %r" % (what, got, want))


OP_FIELDS = ["qp", "src", "dst", "op", "opcode", "first_frame", "last_frame", "start_ns",
             "end_ns", "bytes", "segments", "stag", "to", "qn", "msn", "latency_ns",
             "complete", "crc_errors", "first_inorder_frame", "retransmissions", "reordered",
             "stall_ns",
             "ack_frame", "ack_ns", "after_close", "rtr", "payload_captured", "pairing"]
OP_EXTRAS = ["term_layer", "term_etype", "term_errcode", "inval_stag", "immediate",
             "atomic_req_id", "atomic_orig_value"]
FPDU_FIELDS = ["wire_len", "first_frame", "frame", "ulpdu_len", "pad", "markers", "crc",
               "tagged", "last", "opcode", "stag", "to", "qn", "msn", "mo"]


def check_ops(ck, truth, ops):
    tops = truth["operations"]
    ck.eq("ops.count", "number of operations", len(ops), len(tops))
    for i, (got, want) in enumerate(zip(ops, tops)):
        for f in OP_FIELDS + [x for x in OP_EXTRAS if x in want]:
            if got.get(f) != want.get(f):
                ck.diff("ops.%s" % f, "operation %d (%s qp %s frame %s): %s got %r, truth %r"
                        % (i, want.get("op"), want.get("qp"), want.get("first_frame"), f,
                           got.get(f), want.get(f)))


def check_fpdus(ck, truth, fpdus, ops):
    # our op (qp, id) -> index in our ops output; the ops comparison above makes that
    # index comparable with the truth's.
    op_index = {(o["qp"], o["id"]): i for i, o in enumerate(ops)}
    # A Read or Atomic paired at the close was tracked under its response's
    # own id until then (response_op_id): the FPDUs listed before say so.
    op_index.update({(o["qp"], o["response_op_id"]): i for i, o in enumerate(ops) if o.get("response_op_id")})
    got = {(f["qp"], f["dir"], f["seq"]): f for f in fpdus}
    want = {(f["qp"], f["dir"], f["seq"]): f for f in truth["fpdus"]}
    for k in sorted(set(want) - set(got)):
        ck.diff("fpdus.missing", "FPDU qp %d %s seq %d (frame %d) not decoded"
                % (k[0], k[1], k[2], want[k]["frame"]))
    for k in sorted(set(got) - set(want)):
        ck.diff("fpdus.extra", "FPDU qp %d %s seq %d (frame %d) is not in the truth"
                % (k[0], k[1], k[2], got[k]["frame"]))
    for k in sorted(set(got) & set(want)):
        g, w = got[k], want[k]
        for f in FPDU_FIELDS:
            if g.get(f) != w.get(f):
                ck.diff("fpdus.%s" % f, "FPDU qp %d %s seq %d: %s got %r, truth %r"
                        % (k[0], k[1], k[2], f, g.get(f), w.get(f)))
        gop = op_index.get((g["qp"], g.get("op_id"))) if g.get("op_id") is not None else None
        if gop != w.get("op"):
            ck.diff("fpdus.op", "FPDU qp %d %s seq %d: operation index got %r, truth %r"
                    % (k[0], k[1], k[2], gop, w.get("op")))


def distribution(vals):
    """min, mean, nearest-rank quantiles and max of vals (docs/semantics.md)."""
    v = sorted(vals)
    return {"count": len(v), "min": v[0], "max": v[-1],
            "mean": (sum(v) + len(v) // 2) // len(v),
            "p50": nearest_rank(v, 0.5), "p90": nearest_rank(v, 0.9),
            "p99": nearest_rank(v, 0.99), "p999": nearest_rank(v, 0.999)}


def check_teardown(ck, truth, stats, ops):
    """Each FIN, RST and Terminate, with the operations outstanding then: our op ids
    become operation indices through the ops output (whose order the ops check compares
    with the truth's)."""
    index = {(o["qp"], o["id"]): i for i, o in enumerate(ops)}
    qps = {q["qp"]: q for q in stats["qps"]}
    for c in truth["connections"]:
        q = qps.get(c["qp"])
        if q is None:
            continue
        ck.eq("conn.retransmissions", "qp %d retransmissions" % c["qp"], q.get("retransmissions"),
              c["retransmissions"])
        ck.eq("conn.reordered_segments", "qp %d reordered_segments" % c["qp"],
              q.get("reordered_segments"), c["reordered_segments"])
        for k, v in c["tcp"].items():
            ck.eq("conn.tcp.%s" % k, "qp %d tcp %s" % (c["qp"], k), (q.get("tcp") or {}).get(k), v)
        want = [(t["kind"], t["from"], t["frame"], t["ns"], t["outstanding"],
                 sorted(t["outstanding_ops"])) for t in c["teardown"]]
        got = []
        for t in q.get("teardown") or []:
            ids = [index.get((c["qp"], i), "id %d" % i) for i in t["outstanding_ids"]]
            got.append((t["kind"], t["from"], t["frame"], t["ns"], t["outstanding"],
                        sorted(ids, key=lambda v: (isinstance(v, str), v if isinstance(v, int) else 0,
                                                   str(v)))))
        got.sort(key=lambda x: (x[2], ["fin", "rst", "terminate"].index(x[0])))
        ck.eq("conn.teardown", "qp %d teardown (kind, from, frame, ns, outstanding, ops)"
              % c["qp"], got, want)


def check_stats(ck, truth, stats):
    qps = {q["qp"]: q for q in stats["qps"]}
    for c in truth["connections"]:
        q = qps.get(c["qp"])
        if q is None:
            if c["mpa"].get("rejected") or c["handshake_captured"] or truth["operations"]:
                ck.diff("conn.missing", "connection qp %d not reported" % c["qp"])
            continue
        ck.eq("conn.endpoints", "qp %d initiator" % c["qp"], q["initiator"], c["initiator"])
        ck.eq("conn.endpoints", "qp %d responder" % c["qp"], q["responder"], c["responder"])
        m = c["mpa"]
        pairs = [("mpa_rev", "rev"), ("crc", "crc"), ("markers_i2r", "markers_i2r"),
                 ("markers_r2i", "markers_r2i"), ("ird", "ird"), ("ord", "ord"),
                 ("p2p", "p2p"), ("rtr", "rtr"), ("rejected", "rejected"),
                 ("request_frame", "request_frame"), ("reply_frame", "reply_frame")]
        for ours, theirs in pairs:
            ck.eq("conn.mpa.%s" % theirs, "qp %d mpa %s" % (c["qp"], theirs), q.get(ours),
                  m.get(theirs))
        # a sender that breaks RFC 5040's formats (issue 22 item 6): named, the
        # others' lists empty
        for d in ("i2r", "r2i"):
            ck.eq("conn.rdmap_deviation", "qp %d rdmap_deviation_%s" % (c["qp"], d),
                  q.get("rdmap_deviation_" + d), c.get("rdmap_deviation_" + d, []))
        want_gaps = sorted((g["dir"], g["seq"], g["len"]) for g in c.get("gaps", []))
        got_gaps = sorted((g["dir"], g["seq"], g["len"]) for g in q.get("gap_list", []))
        ck.eq("conn.gaps", "qp %d gaps (dir, seq, len)" % c["qp"], got_gaps, want_gaps)

    # Per QP and type (RTR messages left out): count, bytes, retransmissions, stall, the
    # latency of complete operations and the delivery time of complete ones with an ACK.
    per = {}
    for o in truth["operations"]:
        if o["rtr"]:
            continue
        e = per.setdefault((o["qp"], o["op"]), {"count": 0, "bytes": 0, "lat": [],
                                                "retransmissions": 0, "reordered": 0,
                                                "stall_ns": 0, "delivery": []})
        e["count"] += 1
        e["bytes"] += o["bytes"]
        e["retransmissions"] += o["retransmissions"]
        e["reordered"] += o["reordered"]
        e["stall_ns"] += o["stall_ns"]
        if o["complete"] and o["latency_ns"] is not None:
            e["lat"].append(o["latency_ns"])
        if o["complete"] and o["ack_ns"] is not None:
            e["delivery"].append(o["ack_ns"])
    got_types = {(q["qp"], t) for q in stats["qps"] for t in q["ops"]}
    ck.eq("stats.types", "(qp, op) pairs", sorted(got_types), sorted(per))
    for (qp, t), e in sorted(per.items()):
        s = qps.get(qp, {}).get("ops", {}).get(t)
        if s is None:
            continue
        ck.eq("stats.count", "qp %d %s count" % (qp, t), s["count"], e["count"])
        ck.eq("stats.bytes", "qp %d %s bytes" % (qp, t), s["bytes"], e["bytes"])
        for k in ("retransmissions", "reordered", "stall_ns"):
            ck.eq("stats.%s" % k, "qp %d %s %s" % (qp, t, k), s.get(k), e[k])
        for key, name, vals in (("latency_ns", "latency", e["lat"]),
                                ("delivery_ns", "delivery", e["delivery"])):
            if not vals:
                ck.eq("stats.%s" % name, "qp %d %s %s" % (qp, t, name), s.get(key), None)
                continue
            got = s.get(key) or {}
            for k, v in distribution(vals).items():
                ck.eq("stats.%s" % name, "qp %d %s %s %s" % (qp, t, name, k), got.get(k), v)


def check_sample(tool, path):
    base = path
    for ext in (".pcapng", ".pcap"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    name = os.path.basename(base)
    with open(base + ".truth.json") as f:
        truth = json.load(f)
    ck = Checker(name)
    ops = jsonl(run(tool, ["ops", "--format", "jsonl", path]))
    fpdus = jsonl(run(tool, ["fpdus", path]))
    stats = json.loads(run(tool, ["stats", "--format", "json", path]))
    check_ops(ck, truth, ops)
    check_fpdus(ck, truth, fpdus, ops)
    check_stats(ck, truth, stats)
    check_teardown(ck, truth, stats, ops)
    return ck


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tool = argv[1]
    failed = 0
    for path in argv[2:]:
        try:
            ck = check_sample(tool, path)
        except (RuntimeError, OSError, ValueError) as e:
            print("ERROR %s: %s" % (path, e))
            return 2
        for x in ck.xfails:
            print("XFAIL %s: %s" % (ck.name, x))
        if ck.diffs:
            failed += 1
            print("FAIL %s: %d difference(s)" % (ck.name, len(ck.diffs)))
            most = int(os.environ.get("TRUTH_MAX_DIFFS", "40"))
            for d in ck.diffs[:most]:
                print("   ", d)
            if len(ck.diffs) > most:
                print("    ... %d more (TRUTH_MAX_DIFFS=N shows N)" % (len(ck.diffs) - most))
        else:
            print("ok   %s" % ck.name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
