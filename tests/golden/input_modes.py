#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Input paths: every link type, stdin, several files merged by time, a BPF
filter, and Wireshark's tcp.stream numbers.

  - The same packets under Linux cooked v1/v2, raw IP, BSD loopback (DLT_NULL,
    DLT_LOOP) and 802.1ad+802.1Q (QinQ) headers give exactly the operations of
    the Ethernet original (IPv4 and IPv6).
  - `-` reads stdin: same output as the file.
  - Two files holding the two halves of a capture (by connection) merge back into
    the original frame order: same operations, same frame numbers.
  - -f: filtered-out records keep their frame numbers and connections keep
    their tcp.stream numbers.
  - With tshark available: every QP's number and endpoints equal tshark's
    tcp.stream for that connection.

Usage: input_modes.py IWARPSCOPE SAMPLES_DIR WORK_DIR [tcp-stream]
  (tcp-stream: only the tshark cross-check, which is slower)
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def run(tool, args, stdin=None):
    p = subprocess.run([tool] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (args, p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def ops(tool, *paths, extra=()):
    return [json.loads(l) for l in run(tool, ["ops", "--format", "jsonl"] + list(extra) +
                                       list(paths)).splitlines()]


def link_types(tool, samples, work):
    for name in ("real/01-rping.pcap", "generated/v1-ipv6-vlan.pcap"):
        src = os.path.join(samples, name)
        want = ops(tool, src)
        check(len(want) > 0, "%s has operations" % name)
        p = pcaptool.read(src)
        for lt, label in ((pcaptool.LINKTYPE_LINUX_SLL, "sll"),
                          (pcaptool.LINKTYPE_LINUX_SLL2, "sll2"),
                          (pcaptool.LINKTYPE_RAW, "raw"), (pcaptool.LINKTYPE_NULL, "null"),
                          (pcaptool.LINKTYPE_LOOP, "loop"), ("qinq", "qinq")):
            out = os.path.join(work, "%s.%s.pcap" % (os.path.basename(name), label))
            pcaptool.write(out, pcaptool.relink(p, lt))
            check(ops(tool, out) == want, "%s as %s: same operations" % (name, label))
        # IPv4 options / IPv6 extension headers, and IP fragments to skip: the
        # fragments are extra records, so frame numbers shift; compare the rest.
        out = os.path.join(work, "%s.ipext.pcap" % os.path.basename(name))
        pcaptool.write(out, pcaptool.ip_extras(p))
        check(ops(tool, out) == want, "%s with IP options/extension headers: same" % name)
        out = os.path.join(work, "%s.frag.pcap" % os.path.basename(name))
        pf = pcaptool.ip_extras(p, fragment_every=5)
        pcaptool.write(out, pf)
        strip = lambda l: [{k: v for k, v in o.items() if "frame" not in k} for o in l]  # noqa: E731
        check(strip(ops(tool, out)) == strip(want), "%s with IP fragments: same" % name)
        st = json.loads(run(tool, ["stats", "--format", "json", out]))
        check(st["capture"]["ip_fragments"] == len(pf.records) - len(p.records) > 0,
              "%s: every IP fragment counted" % name)
        check("IP fragments skipped" in run(tool, ["summary", out]),
              "%s: fragments reported in the summary" % name)


def stdin(tool, samples):
    src = os.path.join(samples, "real", "13-crc-rping.pcap")
    with open(src, "rb") as f:
        data = f.read()
    got = [json.loads(l) for l in run(tool, ["ops", "--format", "jsonl", "-"],
                                      stdin=data).splitlines()]
    check(got == ops(tool, src), "stdin: same operations as the file")
    s1 = json.loads(run(tool, ["stats", "--format", "json", "-"], stdin=data))
    s2 = json.loads(run(tool, ["stats", "--format", "json", src]))
    s1["capture"].pop("files")
    s2["capture"].pop("files")
    check(s1 == s2, "stdin: same statistics as the file")


def merge(tool, samples, work):
    src = os.path.join(samples, "real", "05-read_lat.pcap")
    p = pcaptool.read(src)
    ts = [(s, f) for s, f, _, _ in p.records]
    # Precondition for an exact round trip: strictly increasing timestamps.
    if not check(all(a < b for a, b in zip(ts, ts[1:])), "05-read_lat: increasing timestamps"):
        return
    want = ops(tool, src)
    qp1 = {o["first_frame"] for o in want if o["qp"] == 1}
    # Split by connection: records of the test QP (its client port) go to one file.
    t = next(o for o in want if o["qp"] == 1)
    client = t["src"] if t["src"].startswith("10.77.0.2:") else t["dst"]
    test_port = client.split(":")[1].encode()
    a, b = [], []
    for i, r in enumerate(p.records):
        data = r[3]
        sport = int.from_bytes(data[34:36], "big") if len(data) > 36 else 0
        dport = int.from_bytes(data[36:38], "big") if len(data) > 38 else 0
        (a if str(sport).encode() == test_port or str(dport).encode() == test_port
         else b).append(r)
    pa, pb = os.path.join(work, "merge-a.pcap"), os.path.join(work, "merge-b.pcap")
    pcaptool.write(pa, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, a))
    pcaptool.write(pb, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, b))
    check(len(a) > 100 and len(b) > 10 and qp1, "merge: both halves have traffic")
    got = ops(tool, pa, pb)
    check(got == want, "merge: two halves give the original operations and frame numbers")
    check(ops(tool, pb, pa) == want, "merge: order of the files does not matter")
    # Two different captures merged: both QPs, numbered by first packet time.
    both = json.loads(run(tool, ["stats", "--format", "json",
                                 os.path.join(samples, "real", "13-crc-rping.pcap"),
                                 os.path.join(samples, "real", "01-rping.pcap")]))
    check([q["qp"] for q in both["qps"]] == [0, 1] and
          both["qps"][0]["responder"] == "10.77.0.1:7174" and
          both["capture"]["frames"] == 98 + 150,
          "merge: two captures, two QPs in time order, every frame")


def bpf(tool, samples):
    src = os.path.join(samples, "real", "03-send_lat.pcap")
    full = ops(tool, src)
    test_qp = 1
    t = next(o for o in full if o["qp"] == test_qp)
    port = (t["src"] if t["src"].startswith("10.77.0.2:") else t["dst"]).split(":")[1]
    got = ops(tool, src, extra=["-f", "tcp port %s" % port])
    check(got == [o for o in full if o["qp"] == test_qp],
          "-f: the filtered QP keeps its tcp.stream number and frame numbers")
    st = json.loads(run(tool, ["stats", "--format", "json", "-f", "tcp port %s" % port, src]))
    check(st["capture"]["frames"] == 446 and st["capture"]["filtered_out"] > 0,
          "-f: filtered-out frames still counted as frames")


def formats_and_filters(tool, samples):
    """ops: text, JSON, JSONL and CSV carry the same operations; --qp, --op,
    --since and --until select exactly what they say."""
    import csv
    import io
    src = os.path.join(samples, "generated", "multi-qp.pcap")
    full = ops(tool, src)
    arr = json.loads(run(tool, ["ops", "--format", "json", src]))
    check(arr == full, "ops --format json: the JSONL objects as one array")
    rows = list(csv.DictReader(io.StringIO(run(tool, ["ops", "--format", "csv", src]))))
    check(len(rows) == len(full), "ops --format csv: one row per operation")
    for r, o in zip(rows, full):
        for k in ("qp", "src", "dst", "op", "first_frame", "start_ns", "bytes", "latency_ns",
                  "stag", "msn"):
            v = o[k]
            want = "" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
            if r[k] != want:
                check(False, "ops --format csv: %s %r != %r" % (k, r[k], want))
                break
    text = run(tool, ["ops", src]).splitlines()
    check(len(text) == len(full) + 1 and text[0].split()[:3] == ["time", "QP", "id"],
          "ops text: a heading, then one line per operation")
    qps = sorted({o["qp"] for o in full})
    check(len(qps) > 2, "multi-qp has several QPs")
    sel = ops(tool, src, extra=["--qp", "%d,%d" % (qps[0], qps[2])])
    check(sel == [o for o in full if o["qp"] in (qps[0], qps[2])], "--qp selects those QPs")
    sel = ops(tool, src, extra=["--op", "read,send"])
    check(sel == [o for o in full if o["op"] in ("read", "send")] and sel,
          "--op selects those types")
    t0 = min(o["start_ns"] for o in full)
    first = json.loads(run(tool, ["stats", "--format", "json", src]))["capture"]["first_ns"]
    lo, hi = full[len(full) // 3]["start_ns"], full[2 * len(full) // 3]["start_ns"]
    rel = lambda ns: "+%d.%09d" % divmod(ns - first, 10 ** 9)  # noqa: E731
    sel = ops(tool, src, extra=["--since", rel(lo), "--until", rel(hi)])
    # a window: the operations that overlap [since, until) (docs/semantics.md)
    end = lambda o: max(o["end_ns"], o["start_ns"])  # noqa: E731
    check(sel == [o for o in full if o["start_ns"] < hi and end(o) >= lo] and sel and t0 < lo,
          "--since/--until (relative) select what overlaps [since, until)")
    sel = ops(tool, src, extra=["--since", "@%d.%09d" % divmod(lo, 10 ** 9)])
    check(sel == [o for o in full if end(o) >= lo], "--since @EPOCH")
    st = run(tool, ["stats", src])
    check("Latency" in st and "Operations" in st, "stats text: both tables")


def tcp_stream(tool, samples):
    tshark = shutil.which("tshark")
    if not tshark:
        print("tshark not found: tcp.stream cross-check skipped")
        return
    for d in ("real", "generated"):
        for name in sorted(os.listdir(os.path.join(samples, d))):
            if not name.endswith((".pcap", ".pcapng")):
                continue
            path = os.path.join(samples, d, name)
            st = json.loads(run(tool, ["stats", "--format", "json", path]))
            p = subprocess.run([tshark, "-n", "-r", path, "-T", "fields", "-e", "tcp.stream",
                                "-e", "ip.src", "-e", "ipv6.src", "-e", "tcp.srcport",
                                "-e", "ip.dst", "-e", "ipv6.dst", "-e", "tcp.dstport",
                                "-Y", "tcp"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            eps = {}
            for line in p.stdout.decode().splitlines():
                f = line.split("\t")
                if len(f) < 7 or not f[0]:
                    continue
                s = (f[1] or "[%s]" % f[2]) + ":" + f[3]
                t = (f[4] or "[%s]" % f[5]) + ":" + f[6]
                eps.setdefault(int(f[0]), {s, t})
            for q in st["qps"]:
                check(eps.get(q["qp"]) == {q["initiator"], q["responder"]},
                      "%s: qp %d is tshark's tcp.stream %d (%s)" % (name, q["qp"], q["qp"],
                                                                 eps.get(q["qp"])))


def main(argv):
    tool, samples, work = argv[1:4]
    os.makedirs(work, exist_ok=True)
    if argv[4:] == ["tcp-stream"]:
        tcp_stream(tool, samples)
    else:
        link_types(tool, samples, work)
        stdin(tool, samples)
        merge(tool, samples, work)
        bpf(tool, samples)
        formats_and_filters(tool, samples)
    for f in failures:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (RuntimeError, OSError, ValueError) as e:
        print("ERROR:", e)
        sys.exit(2)
