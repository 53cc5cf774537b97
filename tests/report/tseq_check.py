#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's time-sequence data, recomputed from tshark's fields (issue
32 item 8): on every capture whose report keeps segments around losses,
for each kept segment

- the receive window it advertises: tshark's tcp.window_size (the window
  field scaled by the shift its sender announced in its SYN, RFC 7323 §2),
  and none where tshark does not know the scale (the SYNs not captured);
- its SACK blocks (RFC 2018 §3): tshark's tcp.options.sack_le / sack_re,
  absolute;
- the sender's octets in flight after it (data segments): recomputed here
  from every segment of the connection in capture order as the highest
  sequence number the sender has sent (end of data, SYN and FIN counting
  one) less the peer's highest cumulative ACK so far. This is not
  tcp.analysis.bytes_in_flight: Wireshark leaves that out on segments after
  a capture gap and restarts it from them (docs/semantics.md);
- the retransmission flag: on the frames the report marks, tshark too
  flags a retransmission, fast retransmission or out-of-order segment.

Fails if a sample with losses keeps nothing, or a field disagrees.
Skipped (77) without tshark.

Usage: tseq_check.py IWARPSCOPE ROOT WORKDIR
"""
import os
import shutil
import subprocess
import sys

from reportlib import page_data, report, sample_name

SAMPLES = ["samples/real/26-netem-read_bw-64k.pcap", "samples/generated/gap.pcap",
           "samples/generated/retransmit-reorder-dup.pcap", "samples/generated/rto.pcap",
           "samples/generated/loss-read-response.pcap"]
# 26-netem from frame 30 on (editcap): its QPs' SYNs not captured, so no
# window scale known; made in WORKDIR
MIDSTREAM = ("samples/real/26-netem-read_bw-64k.pcap", "30-2260")
FIELDS = ["frame.number", "tcp.stream", "tcp.srcport", "tcp.dstport", "tcp.seq", "tcp.len", "tcp.ack", "tcp.flags.syn",
          "tcp.flags.fin", "tcp.flags.ack", "tcp.window_size", "tcp.window_size_scalefactor",
          "tcp.options.sack_le", "tcp.options.sack_re", "tcp.analysis.retransmission",
          "tcp.analysis.fast_retransmission", "tcp.analysis.out_of_order", "tcp.analysis.spurious_retransmission"]
M32 = 1 << 32


def after(a, b):
    d = (a - b) % M32
    return 0 < d < (1 << 31)


def frames_of(cap):
    out = subprocess.run(["tshark", "-r", cap, "-o", "tcp.relative_sequence_numbers:FALSE", "-T", "fields"] +
                         sum((["-e", f] for f in FIELDS), []), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) != len(FIELDS) or not f[1]:
            continue
        rows[int(f[0])] = dict(zip(FIELDS, f))
    return rows


def flights(rows):
    """{frame: octets in flight} by the definition above, per connection."""
    end, acked, got = {}, {}, {}
    yes = ("1", "True")
    for n in sorted(rows):
        r = rows[n]
        me = (r["tcp.stream"], r["tcp.srcport"])
        peer = (r["tcp.stream"], r["tcp.dstport"])
        seq, ln = int(r["tcp.seq"]), int(r["tcp.len"])
        if r["tcp.flags.ack"] in yes:
            ack = int(r["tcp.ack"])
            if peer not in acked or after(ack, acked[peer]):
                acked[peer] = ack
        e = (seq + ln + (1 if r["tcp.flags.syn"] in yes or r["tcp.flags.fin"] in yes else 0)) % M32
        if me not in end or after(e, end[me]):
            end[me] = e
        if ln and me in acked and not after(acked[me], end[me]):
            got[n] = (end[me] - acked[me]) % M32
    return got


def check(tool, root, work, sample):
    page = os.path.join(work, sample_name(sample) + ".html")
    d = page_data(report(tool, root, sample, page))
    rows = frames_of(os.path.join(root, sample))
    fl = flights(rows)
    errs, n = [], {"segments": 0, "windows": 0, "sack": 0, "flight": 0, "retransmitted": 0}
    for q in d["qps"]:
        t = q.get("tseq")
        if not t:
            continue
        base = t["base"]
        for s in t["segments"]:
            ts, dr, rel, ln, ack, flags, frame, win, flight, sack = s
            r = rows.get(frame)
            if r is None:
                errs.append("frame %d: not a TCP segment to tshark" % frame)
                continue
            n["segments"] += 1
            scale = int(r["tcp.window_size_scalefactor"] or -1)
            if scale == -1 and not (flags & 4):
                if win is not None:
                    errs.append("frame %d: window %d where the scale is unknown" % (frame, win))
            elif win is None or str(win) != r["tcp.window_size"]:
                errs.append("frame %d: window %s, tshark %s" % (frame, win, r["tcp.window_size"]))
            else:
                n["windows"] += 1
            mine = [((a + base[1 - dr]) % M32, (b + base[1 - dr]) % M32) for a, b in (sack or [])]
            theirs = list(zip(map(int, filter(None, r["tcp.options.sack_le"].split(","))),
                              map(int, filter(None, r["tcp.options.sack_re"].split(",")))))
            if mine != theirs:
                errs.append("frame %d: SACK %s, tshark %s" % (frame, mine, theirs))
            n["sack"] += bool(mine)
            if flight != fl.get(frame):
                errs.append("frame %d: %s octets in flight, recomputed %s" % (frame, flight, fl.get(frame)))
            n["flight"] += flight is not None
            if flags & 1:
                n["retransmitted"] += 1
                if not any(r[k] for k in FIELDS[-4:]):
                    errs.append("frame %d: marked retransmitted, tshark flags nothing" % frame)
    if not n["segments"]:
        errs.append("no segment kept")
    if "from-30" in sample and n["windows"]:
        errs.append("%d windows known without the SYNs" % n["windows"])
    return errs, n


def main(argv):
    tool, root, work = argv[1], argv[2], argv[3]
    if not shutil.which("tshark"):
        print("SKIP: no tshark")
        return 77
    os.makedirs(work, exist_ok=True)
    failures = 0
    samples = list(SAMPLES)
    if shutil.which("editcap"):
        src, keep = MIDSTREAM
        cut = os.path.join(os.path.abspath(work), "26-netem-from-30.pcap")
        subprocess.run(["editcap", "-r", os.path.join(root, src), cut, keep], check=True)
        samples.append(os.path.relpath(cut, root))
    for sample in samples:
        if not os.path.exists(os.path.join(root, sample)):
            print("FAIL %s: missing" % sample)
            failures += 1
            continue
        errs, n = check(tool, root, work, sample)
        print("%-4s %s %s" % ("ok" if not errs else "FAIL", sample, n))
        for e in errs[:20]:
            print("  " + e)
        failures += bool(errs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
