#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A time window is a window (issue 32 item 1; docs/semantics.md, "Time window").

For spans of real samples, `iwarpscope stats --format json --since +A --until +B`
must give the numbers of the same span cut out of the capture by editcap
(-A/-B: the frames whose time is in [A, B)), each recomputed without iwarpscope:

- the window's frames and their octets on the wire: the cut's records, and tshark's
  `io,stat,0` over the cut (exact);
- per QP and direction, the TCP payload octets of the frames inside, and its first and
  last frame inside (exact): the cut's IPv4/TCP headers, read here;
- per QP, the FPDUs completed inside and their ULP payload octets (the part of each
  operation inside the window; exact): Wireshark's own iWARP dissector (not the
  plugin) over the whole capture lists each FPDU in the frame that completed it; an
  FPDU counts when that frame is one of the cut's (the cut is matched to the whole
  capture record by record). Payload: tagged (Write, Read Response) ULPDU - 14,
  Send family ULPDU - 18, Read Request 0, Immediate Data 8 (RFC 5040 §4, RFC 7306);
- the operations: the windowed `ops` list is exactly the whole capture's operations
  that overlap [A, B) (start before B, end at or after A); the windowed stats count
  them, and count a latency for exactly those complete inside;
- the summary names the window with its frame count, and its interop doctor's findings
  per QP are the windowed doctor's (tests/plugin/window_views.py checks those against
  the per-frame items);
- the engine's and the tracker's counters, the teardown list and the Terminates of
  [0, m) and [m, end] add up to the whole capture's (4 samples, 3 splits each);
- the time series (`stats --format jsonl --interval 0.1`): its wire rows add up to the
  cut's TCP payload per direction and to Wireshark's FPDU octets per QP, its operation
  rows count the operations starting inside;
- NVMe commands (30-nvmeof): the windowed `nvme` list and the stats' command count are
  the commands overlapping the window, the latencies those of the commands complete inside,
  their octets per QP the RDMA Write and Read Response payload Wireshark's iWARP dissector
  shows in the frames of the cut plus the in-capsule data of the capsules completed there;
- the HTML report of the window: the same window, frames and octets; per QP its wire
  series add up to the cut's TCP payload, its goodput to Wireshark's FPDU octets; its
  latency and delivery histograms hold the statistics' samples;
- the report's zoom: its wire and goodput buckets over a span of whole buckets (what
  the zoomed charts show) add up to the window's TCP payload and octets for that span;
- a window covering the whole capture gives the same statistics as no window.

Usage: window_check.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import datetime
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from collections import Counter

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, run_ok, verdict  # noqa: E402

# (sample, [(A, B) in seconds from the first frame])
SPANS = [
    ("08-read_bw-64k", [(0.5, 1.0), (0.25, 0.75), (1.2, 1.5), (0.0, 0.3), (0.6123, 0.6789)]),
    ("26-netem-read_bw-64k", [(0.35, 0.55), (0.55, 0.85), (0.3, 0.4), (0.0, 0.25)]),
    ("30-nvmeof-mixed", [(4.0, 4.25), (4.25, 4.6), (3.9, 5.0), (0.0, 0.1), (0.5, 2.0)]),
]

# RDMAP opcodes (RFC 5040 §4.3, RFC 7306 §6): the payload octets the operation counts
TAGGED = (0x0, 0x2)                  # RDMA Write, Read Response: ULPDU - 14
SEND = (0x3, 0x4, 0x5, 0x6)          # Send, Send with Invalidate, with SE, both: - 18
IMMEDIATE = (0x8, 0x9)               # Immediate Data (with SE): 8
ATOMIC_REQ = 0xA                     # 8


def fpdu_payload(opcode, ulpdu):
    if opcode in TAGGED:
        return ulpdu - 14
    if opcode in SEND:
        return ulpdu - 18
    if opcode in IMMEDIATE or opcode == ATOMIC_REQ:
        return 8
    return 0


def rec_ns(rec, magic):
    sec, frac = rec[0], rec[1]
    return sec * 1000000000 + (frac if magic == pcaptool.MAGIC_NS else frac * 1000)


def iso(ns):
    d = datetime.datetime.fromtimestamp(ns // 1000000000, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % (ns % 1000000000)


def tcp_of(data):
    """(src 'ip:port', dst 'ip:port', TCP payload length) of an Ethernet/IPv4/TCP
    frame, else None."""
    et, ip = pcaptool.ether_payload(data)
    if et != 0x0800 or len(ip) < 20 or ip[9] != 6:
        return None
    ihl = (ip[0] & 15) * 4
    total = struct.unpack(">H", ip[2:4])[0]
    tcp = ip[ihl:]
    sport, dport = struct.unpack(">HH", tcp[:4])
    doff = (tcp[12] >> 4) * 4
    src = "%d.%d.%d.%d:%d" % (tuple(ip[12:16]) + (sport,))
    dst = "%d.%d.%d.%d:%d" % (tuple(ip[16:20]) + (dport,))
    return src, dst, total - ihl - doff


def iwarp_fpdus(path):
    """[(frame, tcp.stream, [(opcode, ULPDU length)])]: Wireshark's iWARP
    dissector, which (reassembling out-of-order segments too, as the lossy
    26-netem needs) shows each FPDU in the frame that completed it in order."""
    out = subprocess.run(
        ["tshark", "-r", path, "--disable-protocol", "nvme-tcp",
         "-o", "tcp.reassemble_out_of_order:TRUE", "-Y", "iwarp_ddp_rdmap",
         "-T", "fields", "-e", "frame.number", "-e", "tcp.stream", "-e", "iwarp_rdma.opcode",
         "-e", "iwarp_mpa.ulpdulength", "-E", "occurrence=a", "-E", "aggregator=;"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
    res = []
    for line in out.splitlines():
        f = line.split("\t")
        ops = [int(x, 16) for x in f[2].split(";") if x]
        lens = [int(x) for x in f[3].split(";") if x]
        if len(ops) != len(lens):
            raise RuntimeError("%s frame %s: %s opcodes, %s lengths" % (path, f[0], ops, lens))
        res.append((int(f[0]), int(f[1]), list(zip(ops, lens))))
    return res


def fpdus_by_frame(path):
    """{frame: [(tcp.stream, payload octets)]} of every FPDU (iwarp_fpdus)."""
    return {fr: [(s, fpdu_payload(o, n)) for o, n in fp] for fr, s, fp in iwarp_fpdus(path)}


def tagged_by_frame(path):
    """{frame: [(tcp.stream, octets)]}: the payload of the RDMA Writes and Read
    Responses (tagged, RFC 5040 §4.3: ULPDU - 14) in each frame, which on an
    NVMe/RDMA QP is the commands' data."""
    return {fr: [(s, n - 14) for o, n in fp if o in TAGGED] for fr, s, fp in iwarp_fpdus(path)}


def io_stat(path):
    """(frames, bytes) over the whole file: tshark's io,stat with one interval."""
    out = subprocess.run(["tshark", "-r", path, "-q", "-z", "io,stat,0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True).stdout.decode()
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "<>" in cells[0]:
            return int(cells[1]), int(cells[2])
    raise RuntimeError("io,stat: no row in\n" + out)


def jsonl(text):
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def op_key(o):
    return (o["qp"], o["id"])


def check_span(tool, path, cap, fpdus, whole_ops, whole_nvme, a, b, work, label):
    t0 = rec_ns(cap.records[0], cap.magic)
    a_ns, b_ns = t0 + round(a * 1e9), t0 + round(b * 1e9)
    win = ["--since", "+%.9f" % a, "--until", "+%.9f" % b]
    st = json.loads(run_ok(tool, ["stats", "--format", "json"] + win + [path]))
    cut_path = os.path.join(work, "cut.pcap")
    subprocess.run(["editcap", "-F", "pcap", "-A", iso(a_ns), "-B", iso(b_ns), path, cut_path],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cut = pcaptool.read(cut_path)
    w = st["capture"].get("window")
    if not check(w is not None, "%s: no window object" % label):
        return
    last = rec_ns(cap.records[-1], cap.magic)
    check(w["from_ns"] == max(a_ns, t0) and w["to_ns"] == min(b_ns, last),
          "%s: window %s..%s, expected %s..%s" % (label, w["from_ns"], w["to_ns"], a_ns,
                                                  min(b_ns, last)))
    # the cut is a run of the whole capture's records: find its first frame
    n = len(cut.records)
    first = 0
    if n:
        key = cut.records[0]
        first = next((i for i, r in enumerate(cap.records) if r == key), None)
        if not check(first is not None and cap.records[first:first + n] == cut.records,
                     "%s: editcap's cut is not a run of the capture" % label):
            return
    frames = set(range(first + 1, first + n + 1))
    # frames and octets on the wire
    wire = sum(r[2] for r in cut.records)
    check((w["frames"], w["bytes"]) == (n, wire),
          "%s: window frames/bytes %s/%s, the cut %s/%s" % (label, w["frames"], w["bytes"], n,
                                                            wire))
    if n:
        check(io_stat(cut_path) == (n, wire),
              "%s: tshark io,stat of the cut %s, the cut %s" % (label, io_stat(cut_path),
                                                                (n, wire)))
    # TCP payload per direction; each connection's first and last frame inside
    payload, span = {}, {}
    for i, r in enumerate(cut.records):
        t = tcp_of(r[3])
        if t:
            payload[(t[0], t[1])] = payload.get((t[0], t[1]), 0) + t[2]
            k = frozenset((t[0], t[1]))
            here = (first + i + 1, rec_ns(r, cap.magic))
            span[k] = (span[k][0] if k in span else here, here)
    for q in st["qps"]:
        (ff, fns), (lf, lns) = span.get(frozenset((q["initiator"], q["responder"])),
                                        ((0, 0), (0, 0)))
        check((q["first_frame"], q["last_frame"], q["first_ns"], q["last_ns"]) ==
              (ff, lf, fns, lns),
              "%s: QP %d frames %d-%d, the cut's %d-%d" % (label, q["qp"], q["first_frame"],
                                                          q["last_frame"], ff, lf))
    for q in st["qps"]:
        i2r = payload.get((q["initiator"], q["responder"]), 0)
        r2i = payload.get((q["responder"], q["initiator"]), 0)
        check((q["payload_bytes_i2r"], q["payload_bytes_r2i"]) == (i2r, r2i),
              "%s: QP %d payload i2r/r2i %d/%d, the cut %d/%d" % (
                  label, q["qp"], q["payload_bytes_i2r"], q["payload_bytes_r2i"], i2r, r2i))
    # FPDUs completed inside and their payload
    for q in st["qps"]:
        mine = [p for fr in frames for s, p in fpdus.get(fr, []) if s == q["qp"]]
        check(q["fpdus"] == len(mine),
              "%s: QP %d FPDUs %d, Wireshark's in the cut %d" % (label, q["qp"], q["fpdus"],
                                                                len(mine)))
        check(q["bytes"] == sum(mine),
              "%s: QP %d octets %d, Wireshark's in the cut %d" % (label, q["qp"], q["bytes"],
                                                                 sum(mine)))
        span = w["to_ns"] - w["from_ns"]
        want = int(sum(mine) * 8e9 / span) if span > 0 else 0
        check(abs(q["throughput_bps"] - want) <= 1,
              "%s: QP %d %d bit/s, the cut's octets over the window %d" % (
                  label, q["qp"], q["throughput_bps"], want))
    # operations: those overlapping the window, latencies of those complete inside
    wops = jsonl(run_ok(tool, ["ops", "--format", "jsonl"] + win + [path]))
    inside = [o for o in whole_ops
              if o["start_ns"] < b_ns and max(o["end_ns"], o["start_ns"]) >= a_ns]
    check(sorted(map(op_key, wops)) == sorted(map(op_key, inside)),
          "%s: windowed ops %d, overlapping the window %d" % (label, len(wops), len(inside)))
    check(st["total"]["operations"] == len(inside),
          "%s: stats operations %d, overlapping %d" % (label, st["total"]["operations"],
                                                       len(inside)))
    for ty, o in st["total"]["ops"].items():
        mine = [x for x in inside if x["op"] == ty and not x.get("rtr")]
        lat = [x for x in mine if x["complete"] and x.get("latency_ns") is not None and
               a_ns <= x["end_ns"] < b_ns]
        nlat = (o["latency_ns"] or {}).get("count", 0)
        check(o["count"] == len(mine) and nlat == len(lat),
              "%s: %s count/latencies %d/%d, expected %d/%d" % (
                  label, ty, o["count"], nlat, len(mine), len(lat)))
    # NVMe commands: those overlapping, latencies of those complete inside
    if whole_nvme:
        nv = st["total"].get("nvme") or {"commands": 0, "ops": []}
        over = [c for c in whole_nvme
                if c["start_ns"] < b_ns and max(c["end_ns"], c["start_ns"]) >= a_ns]
        timed = [c for c in over if c["complete"] and a_ns <= c["end_ns"] < b_ns]
        nlat = sum((o["latency_ns"] or {}).get("count", 0) for o in nv["ops"])
        check((nv["commands"], nlat) == (len(over), len(timed)),
              "%s: NVMe commands/latencies %d/%d, overlapping/complete inside %d/%d" % (
                  label, nv["commands"], nlat, len(over), len(timed)))
        # their octets: the RDMA data in the FPDUs inside (Wireshark's, on the
        # frames of the cut) and the in-capsule data of the capsules completed
        # inside (NVMe-oF 1.1 §7.3.2)
        tagged = tagged_by_frame(path)
        want = Counter()
        for fr in frames:
            for s_, p in tagged.get(fr, []):
                want[s_] += p
        for c in whole_nvme:
            if c["xfer"] == "in_capsule" and c["capsule_frame"] in frames:
                want[c["qp"]] += c["bytes"]
        got = Counter()
        for q in st["qps"]:
            got[q["qp"]] += sum(o["bytes"] for o in q.get("nvme", {}).get("ops", []))
        check(+got == +want and sum(o["bytes"] for o in nv.get("all_ops", [])) == sum(want.values()),
              "%s: NVMe octets per QP %s, RDMA data and in-capsule data inside %s" % (label, dict(got), dict(want)))
        print("%s: NVMe octets inside %s" % (label, dict(+want)))
        wn = jsonl(run_ok(tool, ["nvme", "--format", "jsonl"] + win + [path]))
        check(sorted((c["qp"], c["id"]) for c in wn) == sorted((c["qp"], c["id"]) for c in over),
              "%s: windowed nvme list %d, overlapping %d" % (label, len(wn), len(over)))
    # the summary names the window, its frames and octets, and says what it does not clip
    summ = run_ok(tool, ["summary"] + win + [path])
    head = "window: +%d.%06d s to " % divmod((w["from_ns"] - t0) // 1000, 10 ** 6)
    wl = [x for x in summ.splitlines() if x.startswith(head)]
    check(len(wl) == 1 and wl[0].endswith(": %d frame%s, %s" % (n, "" if n == 1 else "s",
                                                              wl[0].split(", ")[-1])),
          "%s: the summary's window line %s" % (label, wl))
    # the summary's doctor findings are the window's: per QP, those the
    # windowed doctor lists (window_views.py checks them against the
    # per-frame items of the whole capture)
    docw = Counter(d["qp"] for d in jsonl(run_ok(tool, ["doctor", "--format", "jsonl"] + win + [path])))
    sdoc, qp = Counter(), None
    for x in summ.splitlines():
        m = re.match(r"^QP (\d+) ", x)
        if m:
            qp = int(m.group(1))
        m = re.search(r"interop doctor: (\d+) finding", x)
        if m and qp is not None:
            sdoc[qp] += int(m.group(1))
    check(sdoc == docw, "%s: the summary's doctor findings %s, the windowed doctor's %s" % (label, dict(sdoc),
                                                                                         dict(docw)))
    # the time series: wire rows of the frames inside, operation rows of the
    # operations starting inside
    rows = jsonl(run_ok(tool, ["stats", "--format", "jsonl", "--interval", "0.1"] + win +
                        [path]))
    wb, gb, started = {}, {}, {}
    for r in rows:
        if "dir" in r:
            wb[(r["src"], r["dst"])] = wb.get((r["src"], r["dst"]), 0) + r["wire_bytes"]
            gb[r["qp"]] = gb.get(r["qp"], 0) + r["goodput_bytes"]
        else:
            started[r["op"]] = started.get(r["op"], 0) + r["count"]
    nz = lambda d: {k: v for k, v in d.items() if v}  # noqa: E731
    check(nz(wb) == nz(payload),
          "%s: series wire octets %s, the cut %s" % (label, wb, payload))
    for q in st["qps"]:
        good = sum(p for fr in frames for s_, p in fpdus.get(fr, []) if s_ == q["qp"])
        check(gb.get(q["qp"], 0) == good, "%s: series QP %d goodput %d, Wireshark's %d" % (
            label, q["qp"], gb.get(q["qp"], 0), good))
    want = {}
    for o in whole_ops:
        if a_ns <= o["start_ns"] < b_ns and not o.get("rtr"):
            want[o["op"]] = want.get(o["op"], 0) + 1
    check(started == want, "%s: series operations %s, starting inside %s" % (label, started,
                                                                              want))
    # the report: the same window, its wire and goodput series the cut's
    html = run_ok(tool, ["report"] + win + [path])
    m = re.search(r'<script type="application/json" id="iws-data">(.*?)</script>', html, re.S)
    page = json.loads(m.group(1))
    pw = page["capture"].get("window") or {}
    check((pw.get("frames"), pw.get("bytes"), pw.get("span_ns")) ==
          (n, wire, w["to_ns"] - w["from_ns"]), "%s: report window %s" % (label, pw))
    # its latency and delivery histograms: the statistics' populations
    for kind, key in (("latency", "latency_ns"), ("delivery", "delivery_ns")):
        got = sum(d["stats"]["count"] for q in page["qps"] for d in q["dists"]
                  if d["kind"] == kind)
        want = sum((o[key] or {}).get("count", 0) for o in st["total"]["ops"].values())
        check(got == want, "%s: report %s samples %d, stats %d" % (label, kind, got, want))
    drawn = {q["qp"] for q in page["qps"]}
    check(drawn >= {q["qp"] for q in st["qps"] if q["frames"]},
          "%s: report QPs %s, QPs with frames inside %s" % (
              label, drawn, [q["qp"] for q in st["qps"] if q["frames"]]))
    for q in page["qps"]:
        if q["qp"] is None:
            continue
        init = [x for x in st["qps"] if x["qp"] == q["qp"]][0]
        ser = q["series"]
        i2r = payload.get((init["initiator"], init["responder"]), 0)
        r2i = payload.get((init["responder"], init["initiator"]), 0)
        good = sum(p for fr in frames for s_, p in fpdus.get(fr, []) if s_ == q["qp"])
        check((sum(ser["wire_i2r"]), sum(ser["wire_r2i"])) == (i2r, r2i),
              "%s: report QP %d wire %d/%d, the cut %d/%d" % (
                  label, q["qp"], sum(ser["wire_i2r"]), sum(ser["wire_r2i"]), i2r, r2i))
        check(sum(ser["goodput_i2r"]) + sum(ser["goodput_r2i"]) == good == q["bytes"],
              "%s: report QP %d goodput %d, bytes %d, Wireshark's in the cut %d" % (
                  label, q["qp"], sum(ser["goodput_i2r"]) + sum(ser["goodput_r2i"]),
                  q["bytes"], good))
        check(q["operations"] == init["operations"],
              "%s: report QP %d operations %d, stats %d" % (label, q["qp"], q["operations"],
                                                           init["operations"]))
    print("%s: %d frames, %d octets; %s" % (label, n, wire, ", ".join(
        "QP %d %d ops %d B %d bit/s" % (q["qp"], q["operations"], q["bytes"],
                                         q["throughput_bps"]) for q in st["qps"])))


def check_zoom(tool, path, name):
    """The report's buckets over a span of whole buckets (what its zoom shows there) give
    the numbers of the CLI's window over that span."""
    html = run_ok(tool, ["report", path])
    m = re.search(r'<script type="application/json" id="iws-data">(.*?)</script>', html, re.S)
    page = json.loads(m.group(1))
    width, nb = page["grid"]["width_ns"], page["grid"]["buckets"]
    origin = int(page["grid"]["origin_ns"])
    first = int(page["capture"]["first_ns"])
    for k1, k2 in ((nb // 4, nb // 2), (nb // 3, 2 * nb // 3 + 1),
                   (3 * nb // 4, 7 * nb // 8)):
        a, b = origin - first + k1 * width, origin - first + k2 * width
        st = json.loads(run_ok(tool, ["stats", "--format", "json", "--since",
                                      "+%d.%09d" % divmod(a, 10 ** 9), "--until",
                                      "+%d.%09d" % divmod(b, 10 ** 9), path]))
        for q in page["qps"]:
            if q["qp"] is None:
                continue
            w = [x for x in st["qps"] if x["qp"] == q["qp"]][0]
            ser = q["series"]
            zoom = (sum(ser["wire_i2r"][k1:k2]), sum(ser["wire_r2i"][k1:k2]),
                    sum(ser["goodput_i2r"][k1:k2]) + sum(ser["goodput_r2i"][k1:k2]))
            cli = (w["payload_bytes_i2r"], w["payload_bytes_r2i"], w["bytes"])
            check(zoom == cli, "%s: buckets %d-%d of the report %s, the window %s" % (
                name, k1, k2, zoom, cli))
        print("%s: the report's buckets %d-%d = the window +%.6f..+%.6f s" % (
            name, k1, k2, a / 1e9, b / 1e9))


# The engine's and the tracker's counters a window counts: those of the
# events while its frames were fed (docs/semantics.md, "Time window").
ADDITIVE = ("terminates", "duplicate_segments", "hole_fills", "overlaps", "out_of_order", "snaplen_cut_bytes",
            "ooo_limit_hits", "reasm_limit_hits", "order_forced", "resyncs", "segment_resyncs", "framing_lost",
            "skipped_bytes", "undecodable_fpdus", "truncated_fpdus", "marker_errors", "rtr_messages", "msn_gaps",
            "offset_gaps", "orphan_responses", "hidden_requests", "ird_exceeded", "stag_mismatches", "evicted",
            "ack_wait_forced")
# Samples whose counters, teardown and Terminates are not all 0.
ADDITIVE_SAMPLES = ("26-netem-read_bw-64k", "27-kill-client-write_bw-tail", "13-crc-rping", "30-nvmeof-mixed")


def check_additive(tool, path, name):
    """The counters, the teardown list and the Terminates of [0, m) and
    [m, end] add up to the whole capture's, each close record in the window of
    its time, for a split m at each quarter of the capture."""
    full = json.loads(run_ok(tool, ["stats", "--format", "json", path]))
    c = full["capture"]
    first, last = int(c["first_ns"]), int(c["last_ns"])
    shown = Counter()
    for k in (1, 2, 3):
        m = (last - first) * k // 4
        mid = "+%d.%09d" % divmod(m, 10 ** 9)
        halves = [json.loads(run_ok(tool, ["stats", "--format", "json", "--until", mid, path])),
                  json.loads(run_ok(tool, ["stats", "--format", "json", "--since", mid, path]))]
        for q in full["qps"]:
            h = [[x for x in st["qps"] if x["qp"] == q["qp"]] for st in halves]
            h = [x[0] if x else None for x in h]
            for key in ADDITIVE:
                got = sum(x[key] for x in h if x)
                check(got == q[key], "%s split at %s: QP %d %s %d + %d, the whole capture %d" % (
                    name, mid, q["qp"], key, h[0][key] if h[0] else 0, h[1][key] if h[1] else 0, q[key]))
                shown[key] += q[key] if k == 1 else 0
            for key in ("teardown", "terminate_list"):
                got = sum((x[key] for x in h if x), [])
                check(got == q[key], "%s split at %s: QP %d %s %s + %s, the whole capture %s" % (
                    name, mid, q["qp"], key, h[0] and h[0][key], h[1] and h[1][key], q[key]))
                shown[key] += len(q[key]) if k == 1 else 0
            for i, x in enumerate(h):
                for t in (x or {}).get("teardown", []):
                    check((t["ns"] - first < m) == (i == 0), "%s split at %s: QP %d %s at +%d ns in the wrong half"
                          % (name, mid, q["qp"], t["kind"], t["ns"] - first))
    print("%s: 3 splits add up to the whole: %s" % (name, ", ".join("%s %d" % kv for kv in sorted(shown.items())
                                                                     if kv[1])))


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    tool, samples, work = sys.argv[1:]
    for exe in ("editcap", "tshark"):
        if not shutil.which(exe):
            print("SKIP: %s not found" % exe)
            return 77
    os.makedirs(work, exist_ok=True)
    for name, spans in SPANS:
        path = os.path.join(samples, name + ".pcap")
        cap = pcaptool.read(path)
        fpdus = fpdus_by_frame(path)
        whole_ops = jsonl(run_ok(tool, ["ops", "--format", "jsonl", path]))
        whole_nvme = jsonl(run_ok(tool, ["nvme", "--format", "jsonl", path]))
        for a, b in spans:
            check_span(tool, path, cap, fpdus, whole_ops, whole_nvme, a, b, work,
                       "%s [+%g, +%g)" % (name, a, b))
        check_zoom(tool, path, name)
        # a window over the whole capture changes nothing
        full = json.loads(run_ok(tool, ["stats", "--format", "json", path]))
        all_w = json.loads(run_ok(tool, ["stats", "--format", "json", "--since", "+0",
                                         "--until", "+100000", path]))
        w = all_w["capture"].pop("window")
        # the one difference: a QP's rate is over the window, not its FPDUs' span
        for q, r in zip(full["qps"], all_w["qps"]):
            span = w["to_ns"] - w["from_ns"]
            check(r["data_span_ns"] == span and
                  abs(r["throughput_bps"] - int(r["bytes"] * 8e9 / span)) <= 1,
                  "%s: QP %d's rate over the whole-capture window" % (name, r["qp"]))
            for k in ("data_span_ns", "throughput_bps"):
                del q[k], r[k]
        check(full == all_w, "%s: a window over the whole capture changes the stats" % name)
    for name in ADDITIVE_SAMPLES:
        check_additive(tool, os.path.join(samples, name + ".pcap"), name)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
