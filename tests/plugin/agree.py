#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin and the CLI agree by construction (one stream engine in the
core): prove it on a capture and on variants made from it, whatever TCP
preferences tshark runs with.

For the capture and each variant, `tshark -q -z iwarp,ops,raw` (as an
unprivileged user, with the plugin) must equal `iwarpscope stats` exactly:
per QP and operation, count, complete, bytes, segments and the latency
min/mean/p50/p90/p99/p99.9/max in integer ns (the raw form of the table people
read in ms: every digit compared); retransmissions, stall and the delivery (ACK) time
distribution; per QP the TCP events and FIN/RST teardown. Every operation's
fields (first transmission, frames, loss attribution, covering ACK,
after_close, RTR: iwarp_tshark.compare_ops_with_cli) must equal `iwarpscope
ops --format jsonl` (on every variant with default preferences, on the
capture with each set). tshark runs with its default preferences, with
tcp.reassemble_out_of_order on, and with tcp.desegment_tcp_streams off.
In the same tshark run, frame.protocols and -z io,phs (issue 21 item 4): the
frames listing each iwarp layer are those with its fields, and the protocol
hierarchy is one stack (iwarp_tshark.check_layer_blocks).

Each tshark start costs about half a second of CPU before it reads a frame,
so (issue 25 item 6) a case takes one single-pass run per preference set for
every statistics table (iwarp_tshark.tap_output: -z iwarp,ops,raw, io,phs,
io,stat and -z iwarp,nvme,raw together) and one two-pass run for every
operation's fields, TCP event and FIN/RST (iwarp_tshark.OpsView); the CLI runs
`stats` and `ops` once per case (it has no preferences).

Variants (classic pcap input only), each a capture people bring to a
post-mortem:
  slice-N     the capture from frame N on (started mid-stream)
  onedir-A/B  only the frames one endpoint sent (a mirror port, a filter)
  drop        every 7th frame carrying payload missing (capture loss: gaps)
  reorder     every 5th payload frame swapped with the next
  dup         every 9th payload frame captured twice (retransmissions)
  port-4420   the server port rewritten to 4420 (NVMe-oF), checksums fixed
  port-5445   ... to 5445 (SMB Direct)

Sampling (CI, issue 25 item 6): with IWS_AGREE_SAMPLE=SEED in the environment
and --index I (the capture's place in the test list), the capture keeps all
three preference sets and only k of its variants run: the kinds at positions
I*k .. I*k+k-1 (mod the number of kinds) of a list rotated by SEED, so
consecutive captures take consecutive kinds and every kind is covered once the
list has 12/k captures. k is IWS_AGREE_KINDS (default SAMPLE_KINDS); the
variants run with default preferences only, or with all three when
IWS_AGREE_PREFS=all; IWS_AGREE_PREFS=default runs the capture itself with
default preferences only too (the sanitizer stage: the plain stage has the
three). Without IWS_AGREE_SAMPLE every variant runs with every preference
set (the whole matrix).

With --nvme the NVMe-oF statistics too: `tshark -q -z iwarp,nvme,raw` equals the
nvme sections of `iwarpscope stats` per QP, queue and command type (count,
complete, errors, bytes, IOPS or none, latency and data-transfer
min/mean/p50/p90/p99/p99.9/max in ns).

Usage: agree.py --plugin SO --cli BIN [--preload LIB] [--quick] [--nvme] CAPTURE
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import iwarp_tshark as it  # noqa: E402
import pcaptool  # noqa: E402

PREFS = [
    ("default", []),
    ("ooo", ["-o", "tcp.reassemble_out_of_order:TRUE"]),
    ("nodesegment", ["-o", "tcp.desegment_tcp_streams:FALSE"]),
]


# ---- just enough Ethernet/IP/TCP to make the variants ----

class Seg:
    """Where the IP and TCP headers of a record are, and what they say."""

    def __init__(self, data, linktype):
        self.ok = False
        if linktype != pcaptool.LINKTYPE_ETHERNET:
            return
        et, pay = pcaptool.ether_payload(data)
        self.l3 = len(data) - len(pay)
        if et == 0x0800 and len(pay) >= 20 and pay[9] == 6:
            ihl = (pay[0] & 15) * 4
            self.v6 = False
            self.src, self.dst = pay[12:16], pay[16:20]
            self.l4 = self.l3 + ihl
            self.ip_payload = struct.unpack(">H", pay[2:4])[0] - ihl
        elif et == 0x86DD and len(pay) >= 40 and pay[6] == 6:
            self.v6 = True
            self.src, self.dst = pay[8:24], pay[24:40]
            self.l4 = self.l3 + 40
            self.ip_payload = struct.unpack(">H", pay[4:6])[0]
        else:
            return
        if len(data) < self.l4 + 20:
            return
        t = data[self.l4:]
        self.sport, self.dport = struct.unpack(">HH", t[:4])
        self.flags = t[13]
        self.payload_len = self.ip_payload - (t[12] >> 4) * 4
        self.ok = True


def tcp_checksum(data, s):
    """Recompute the TCP checksum (RFC 9293 §3.1) when the segment is whole."""
    seg = bytearray(data[s.l4:s.l4 + s.ip_payload])
    if len(seg) != s.ip_payload:
        return data
    seg[16:18] = b"\0\0"
    if s.v6:
        pseudo = s.src + s.dst + struct.pack(">IxxxB", len(seg), 6)
    else:
        pseudo = s.src + s.dst + struct.pack(">xBH", 6, len(seg))
    b = pseudo + bytes(seg) + (b"\0" if len(seg) & 1 else b"")
    total = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    seg[16:18] = struct.pack(">H", ~total & 0xFFFF)
    return data[:s.l4] + bytes(seg) + data[s.l4 + s.ip_payload:]


def server_ports(p):
    """Ports that accepted a connection (the destination of a SYN), else the
    lower port of each connection."""
    syn, pairs = set(), set()
    for _, _, _, d in p.records:
        s = Seg(d, p.linktype)
        if not s.ok:
            continue
        pairs.add(tuple(sorted((s.sport, s.dport))))
        if s.flags & 0x12 == 0x02:
            syn.add(s.dport)
    return syn or {a for a, b in pairs}


def variants(p, quick):
    segs = [Seg(d, p.linktype) for _, _, _, d in p.records]
    if not any(s.ok for s in segs):
        return
    n = len(p.records)
    payload = [i for i, s in enumerate(segs) if s.ok and s.payload_len > 0]
    starts = sorted({max(1, n // 4), max(1, n // 2)} if not quick else {max(1, n // 3)})
    for k in starts:
        yield "slice-%d" % (k + 1), pcaptool.Pcap(p.magic, p.snaplen, p.linktype, p.records[k:])
    # a mirror port's slices (issue 14), from the start and mid-stream
    for snap in ((96,) if quick else (96, 128)):
        yield "snap-%d" % snap, pcaptool.Pcap(p.magic, snap, p.linktype,
                                              [(a, b, o, d[:snap]) for a, b, o, d in p.records])
    k = starts[-1]
    yield "slice-%d-snap-96" % (k + 1), pcaptool.Pcap(p.magic, 96, p.linktype,
                                                      [(a, b, o, d[:96]) for a, b, o, d in p.records[k:]])
    first = next(s for s in segs if s.ok)
    for name, who in (("onedir-A", first.src), ("onedir-B", first.dst)):
        recs = [r for r, s in zip(p.records, segs) if s.ok and s.src == who]
        yield name, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs)
    drop = set(payload[3::7])
    yield "drop", pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                                [r for i, r in enumerate(p.records) if i not in drop])
    recs = list(p.records)
    for j in range(2, len(payload) - 1, 5):
        a, b = payload[j], payload[j + 1]
        recs[a], recs[b] = recs[b], recs[a]
    yield "reorder", pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs)
    dup = set(payload[4::9])
    recs = []
    for i, r in enumerate(p.records):
        recs.append(r)
        if i in dup:
            recs.append(r)
    yield "dup", pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs)
    servers = server_ports(p)
    for port in (4420, 5445):
        recs = []
        for (sec, frac, orig, d), s in zip(p.records, segs):
            if s.ok and (s.sport in servers or s.dport in servers):
                t = bytearray(d)
                if s.sport in servers:
                    t[s.l4:s.l4 + 2] = struct.pack(">H", port)
                if s.dport in servers:
                    t[s.l4 + 2:s.l4 + 4] = struct.pack(">H", port)
                d = tcp_checksum(bytes(t), s)
            recs.append((sec, frac, orig, d))
        yield "port-%d" % port, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs)


# the kinds of variant, in the order variants() yields them; a name's kind is
# its prefix before the first digit ("slice-13-snap-96" -> "slice-snap")
KINDS = ["slice-a", "slice-b", "snap-96", "snap-128", "slice-snap", "onedir-A", "onedir-B",
         "drop", "reorder", "dup", "port-4420", "port-5445"]
SAMPLE_KINDS = 3


def kind_of(name, slices):
    if name.startswith("slice-") and name.endswith("-snap-96"):
        return "slice-snap"
    if name.startswith("slice-"):
        return "slice-a" if name == slices[0] else "slice-b"
    return name


def sampled_kinds(seed, index, k=SAMPLE_KINDS):
    """The k variant kinds this capture runs under sampling: deterministic
    for a seed (the commit) and the capture's index, consecutive indices
    taking consecutive kinds of a seed-rotated list."""
    import zlib
    k = max(1, min(k, len(KINDS)))
    rot = zlib.crc32(seed.encode()) % len(KINDS)
    first = (index * k + rot) % len(KINDS)
    return {KINDS[(first + j) % len(KINDS)] for j in range(k)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload", default=None)
    ap.add_argument("--quick", action="store_true", help="fewer variants, default preferences for them")
    ap.add_argument("--nvme", action="store_true", help="compare -z iwarp,nvme with the CLI's nvme statistics too")
    ap.add_argument("--expect-no-ops", action="store_true",
                    help="the capture has no RDMA operation (a rejected MPA handshake): zero rows expected")
    ap.add_argument("--index", type=int, default=0,
                    help="the capture's place in the test list (for IWS_AGREE_SAMPLE)")
    ap.add_argument("capture")
    a = ap.parse_args()
    seed = os.environ.get("IWS_AGREE_SAMPLE", "")
    kinds = int(os.environ.get("IWS_AGREE_KINDS", "") or SAMPLE_KINDS)
    keep = sampled_kinds(seed, a.index, kinds) if seed else None
    variant_prefs_all = os.environ.get("IWS_AGREE_PREFS", "") == "all"
    capture_prefs_default = keep is not None and os.environ.get("IWS_AGREE_PREFS", "") == "default"
    if not shutil.which("tshark"):
        print("SKIP: tshark is not installed")
        return it.SKIP
    if not os.path.exists(a.capture):
        print("SKIP: %s not present" % a.capture)
        return it.SKIP
    r = it.Runner(a.plugin, a.preload)
    errors, runs, rows, nvme_rows, op_rows = [], 0, 0, 0, 0
    base_rows = None   # rows compared on the capture itself, default preferences
    try:
        base = r.stage(a.capture)
        cases = [("capture", base)]
        try:
            p = pcaptool.read(a.capture)
        except ValueError:
            p = None   # pcapng: the capture itself only
        if p is not None:
            d = r.workdir("variants")
            made = list(variants(p, a.quick))
            slices = [n for n, _ in made if n.startswith("slice-") and not n.endswith("-snap-96")]
            if len(slices) == 1:
                slices.append(None)
            for name, v in made:
                if keep is not None and kind_of(name, slices) not in keep:
                    continue
                path = os.path.join(d, "%s.%s.pcap" % (os.path.basename(a.capture).split(".")[0], name))
                pcaptool.write(path, v)
                os.chmod(path, 0o644)
                cases.append((name, path))
        for name, path in cases:
            prefs = PREFS if (name == "capture" or not (a.quick or (keep and not variant_prefs_all))) \
                else PREFS[:1]
            if capture_prefs_default:
                prefs = PREFS[:1]
            # the CLI has no preferences: one stats and one ops run per case
            stats = it.cli_stats(a.cli, path)
            cli_ops = it.cli_ops_teardown_tcp(a.cli, path, stats)
            for pname, opts in prefs:
                # one single-pass tshark run for every statistics table ...
                taps = it.tap_output(r, path, opts, nvme=a.nvme)
                errs, n = it.compare_with_cli(r, path, a.cli, opts, taps=taps, stats=stats)
                runs += 1
                rows += n
                if name == "capture" and pname == "default":
                    base_rows = n
                errors += ["%s [%s]: %s" % (name, pname, e) for e in errs]
                if pname == "default" or name == "capture":
                    # ... and one two-pass run for every operation's numbers,
                    # TCP event and FIN/RST (issue 13)
                    errs, n, _ = it.compare_ops_with_cli(r, path, *cli_ops, view=it.OpsView(r, path, opts))
                    op_rows += n
                    errors += ["%s [%s] ops: %s" % (name, pname, e) for e in errs]
                if a.nvme:
                    errs, n = it.compare_nvme_with_cli(r, path, a.cli, opts, taps=taps, stats=stats)
                    nvme_rows += n
                    errors += ["%s [%s] nvme: %s" % (name, pname, e) for e in errs]
    except it.Fail as e:
        errors.append(str(e))
    finally:
        r.close()
    # Two front ends that both decode nothing agree too: on a capture with
    # iWARP that is a failure, not a pass.
    if not errors and not a.expect_no_ops and not base_rows:
        errors.append("no QP or operation row compared on the capture itself (both front ends found "
                      "nothing: pass --expect-no-ops only for a capture without RDMA operations)")
    if not errors and a.expect_no_ops and base_rows:
        errors.append("--expect-no-ops, but %d rows were compared" % base_rows)
    if errors:
        print("FAIL: plugin and CLI disagree:\n" + "\n".join(errors[:60]))
        return 1
    print("PASS: plugin equals CLI on %d runs (%d variants x preference sets), %d QP/operation rows, "
          "%d operations field by field%s" %
          (runs, len(cases), rows, op_rows, ", %d QP/queue/command rows" % nvme_rows if a.nvme else ""))
    if keep is not None:
        print("sampled (IWS_AGREE_SAMPLE=%s, index %d): %s" % (seed, a.index, " ".join(n for n, _ in cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
