#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Captures as they come from the field (issue 14 items 3 and 4).

  - A .pcap.gz, a .pcap.zst, a gzip file of several members, and a rotated set
    of five files (named like tcpdump -W: f.pcap0 ... f.pcap4; given as a list,
    as a quoted pattern and as a directory) give the same report as the plain
    capture: ops (jsonl), stats (json) and the summary but for the file names.
  - Bad input stays bounded: a truncated and a corrupt .gz report what was
    decoded before the damage and say what broke; a rotated set with its middle
    file missing is read, with a warning naming the hole.
  - Two capture points (points_pair.py: a pair with truth derived from a real
    capture): each operation once, latencies at the reference point equal to the
    single capture's, the other point's latency and one-way times as built, the
    clock offset found, the loss placed on the right side of each point, the
    same whichever order the files are named in; points that disagree (other
    octets at the same sequence numbers) are counted and nothing is doubled;
    --points with files that share nothing is an error.

Usage: field_inputs.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import gzip
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402
from checklib import check, failures, run_ok, verdict  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def report(tool, paths):
    """ops, stats (without the file names) and summary (without its first line)."""
    ops = run_ok(tool, ["ops", "--format", "jsonl"] + paths)
    st = json.loads(run_ok(tool, ["stats", "--format", "json"] + paths))
    st["capture"].pop("files")
    summ = run_ok(tool, ["summary"] + paths).split("\n", 1)[1]
    return ops, st, summ


def same_report(tool, plain, paths, what):
    want = report(tool, [plain])
    got = report(tool, paths)
    for i, kind in enumerate(("ops", "stats", "summary")):
        check(got[i] == want[i], "%s: %s differs from the plain capture's" % (what, kind))


def compressed_and_rotated(tool, samples, work):
    for name in ("real/05-read_lat.pcap", "real/26-netem-read_bw-64k.pcap"):
        src = os.path.join(samples, name)
        base = os.path.basename(name)
        raw = open(src, "rb").read()
        gz = os.path.join(work, base + ".gz")
        with gzip.open(gz, "wb") as f:
            f.write(raw)
        same_report(tool, src, [gz], base + ".gz")
        multi = os.path.join(work, base + ".multi.gz")
        with open(multi, "wb") as f:
            f.write(gzip.compress(raw[:len(raw) // 3]) + gzip.compress(raw[len(raw) // 3:]))
        same_report(tool, src, [multi], base + " in two gzip members")
        if shutil.which("zstd"):
            zst = os.path.join(work, base + ".zst")
            subprocess.run(["zstd", "-q", "-f", src, "-o", zst], check=True)
            same_report(tool, src, [zst], base + ".zst")
        # five rotated files, connections continuing from one to the next
        rot = os.path.join(work, base + ".rot")
        shutil.rmtree(rot, ignore_errors=True)
        os.makedirs(rot)
        p = pcaptool.read(src)
        n = len(p.records)
        files = []
        for k in range(5):
            part = pcaptool.Pcap(p.magic, p.snaplen, p.linktype,
                                 p.records[k * n // 5:(k + 1) * n // 5])
            files.append(os.path.join(rot, "f.pcap%d" % k))
            pcaptool.write(files[-1], part)
        same_report(tool, src, files, base + " rotated into five files")
        same_report(tool, src, [os.path.join(rot, "f.pcap*")], base + " rotated, as a pattern")
        same_report(tool, src, [rot], base + " rotated, as a directory")
        # gzip the rotated files: the same again
        for f in files:
            with open(f, "rb") as i, gzip.open(f + ".gz", "wb") as o:
                o.write(i.read())
        same_report(tool, src, [f + ".gz" for f in files], base + " rotated and gzipped")
        # the middle file missing: read, and the hole named
        rc, out, err = run(tool, ["summary"] + files[:2] + files[3:])
        check(rc == 0, "%s: a rotated set without its middle file is read (exit %d)" % (base, rc))
        check("missing before" in out and "f.pcap3" in out,
              "%s: the summary names the missing rotated file" % base)
        rc, _, err = run(tool, ["ops", "--format", "jsonl"] + files[:2] + files[3:])
        check(rc == 0 and "missing before" in err, "%s: ops warns about the hole" % base)

    # damaged compressed files: what came before is reported, the damage named
    src = os.path.join(samples, "real/26-netem-read_bw-64k.pcap")
    full = gzip.compress(open(src, "rb").read())
    cut = os.path.join(work, "cut.pcap.gz")
    open(cut, "wb").write(full[:len(full) // 2])
    rc, out, _ = run(tool, ["summary", cut])
    check(rc == 0 and "gzip data ends early" in out, "a truncated .gz: read, and said so")
    st = json.loads(run_ok(tool, ["stats", "--format", "json", cut]))
    check(st["capture"]["truncated_files"] == 1 and st["capture"]["frames"] > 0,
          "a truncated .gz: counted, its first half analysed")
    bad = bytearray(full)
    for i in range(len(bad) // 2, len(bad) // 2 + 64):
        bad[i] ^= 0x5A
    corrupt = os.path.join(work, "corrupt.pcap.gz")
    open(corrupt, "wb").write(bad)
    rc, out, _ = run(tool, ["summary", corrupt])
    check(rc == 0 and "corrupt gzip data" in out, "a corrupt .gz: read up to the damage, said so")
    rc, _, err = run(tool, ["summary", os.path.join(work, "nothing*.pcap")])
    check(rc == 2 and "no file matches" in err, "a pattern that matches nothing: exit 2")


def ops_of(tool, paths, extra=()):
    return [json.loads(l) for l in run_ok(tool, ["ops", "--format", "jsonl"] + list(extra) +
                                          paths).splitlines()]


def two_points(tool, samples, work):
    base = os.path.join(samples, "real/08-read_bw-64k.pcap")
    a, b, truth_path = (os.path.join(work, n) for n in ("A.pcap", "B.pcap", "pair.truth.json"))
    subprocess.run([sys.executable, os.path.join(HERE, "points_pair.py"), base, a, b, truth_path],
                   check=True)
    truth = json.load(open(truth_path))
    d, theta = truth["oneway_ns"], truth["clock_offset_ns"]
    single = ops_of(tool, [base])
    for order in ((a, b), (b, a)):
        rc, _, err = run(tool, ["summary"] + list(order))
        what = "pair %s" % " ".join(os.path.basename(x) for x in order)
        check("seen at two capture points" in err, "%s: said on stderr" % what)
        got = ops_of(tool, list(order))
        key = lambda o: (o["qp"], o["id"])  # noqa: E731
        check(len(got) == len(single) and len({key(o) for o in got}) == len(got),
              "%s: each operation once (%d, single capture %d)" % (what, len(got), len(single)))
        check(all(o.get("point") == a for o in got), "%s: numbers at A (the initiators')" % what)
        by_id = {key(o): o for o in single}
        reads = [o for o in got if o["op"] == "read" and o["complete"] and
                 not o["retransmissions"]]
        check(len(reads) > 80, "%s: reads untouched by the losses" % what)
        for o in reads:
            s = by_id[key(o)]
            if not check(o["latency_ns"] == s["latency_ns"],
                         "%s: read %s latency at A %s, single capture %s" %
                         (what, key(o), o["latency_ns"], s["latency_ns"])):
                break
            if not check(o["other_latency_ns"] == o["latency_ns"] - 2 * d and
                         o["oneway_ns"] == d + theta and o["oneway_back_ns"] == d - theta,
                         "%s: read %s at B: latency %s (want %d), one-way %s/%s (want %d/%d)" %
                         (what, key(o), o["other_latency_ns"], o["latency_ns"] - 2 * d,
                          o["oneway_ns"], o["oneway_back_ns"], d + theta, d - theta)):
                break
        st = json.loads(run_ok(tool, ["stats", "--format", "json"] + list(order)))
        check([p["name"] for p in st["capture"]["capture_points"]] == list(order),
              "%s: the capture points listed" % what)
        for tc in truth["connections"]:
            qp = [q for q in st["qps"] if q["initiator"] == tc["initiator"]]
            if not check(len(qp) == 1 and qp[0]["capture_points"], "%s: %s seen at both" %
                         (what, tc["initiator"])):
                continue
            cp = qp[0]["capture_points"]
            check(cp["reference"] == a, "%s: reference A" % what)
            want_off = theta if order[0] == a else -theta
            check(cp["clock_offset_ns"] == want_off and
                  cp["clock_offset_min_ns"] <= want_off <= cp["clock_offset_max_ns"],
                  "%s: clock offset %s, want %d" % (what, cp["clock_offset_ns"], want_off))
            for dr in ("i2r", "r2i"):
                got_loss = {k: cp[dr][k] for k in tc[dr]}
                check(got_loss == tc[dr], "%s: %s loss %s, truth %s" % (what, dr, got_loss, tc[dr]))
                check(cp[dr]["upstream"] == (a if dr == "i2r" else b) and
                      cp[dr]["order_measured"], "%s: %s upstream point" % (what, dr))
        summ = run_ok(tool, ["summary", "--points"] + list(order))
        check("numbers (frames, times, latencies) at %s" % a in summ,
              "%s: the summary says where the numbers come from" % what)

    # points that disagree: other octets in some segments at B
    p = pcaptool.read(b)
    recs, changed = [], 0
    for i, (sec, frac, orig, data) in enumerate(p.records):
        if len(data) > 200 and i % 97 == 0:
            data = data[:150] + bytes(x ^ 0xFF for x in data[150:160]) + data[160:]
            changed += 1
        recs.append((sec, frac, orig, data))
    bad_b = os.path.join(work, "B-disagrees.pcap")
    pcaptool.write(bad_b, pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs))
    got = ops_of(tool, [a, bad_b])
    check(len(got) == len(single), "disagreeing points: each operation once (%d)" % len(got))
    st = json.loads(run_ok(tool, ["stats", "--format", "json", a, bad_b]))
    dis = sum(q["capture_points"]["disagreed"] for q in st["qps"] if q["capture_points"])
    check(dis >= changed > 0, "disagreeing points: %d disagreements counted (%d changed)" %
          (dis, changed))
    check("disagree" in run_ok(tool, ["summary", a, bad_b]), "disagreeing points: said so")
    # --points with files that share no connection
    rc, _, err = run(tool, ["--points", os.path.join(samples, "real/01-rping.pcap"),
                            os.path.join(samples, "real/05-read_lat.pcap")])
    check(rc == 2 and "no TCP connection was seen in two" in err,
          "--points without shared connections: exit 2 (%d)" % rc)
    rc, _, _ = run(tool, ["--points", a])
    check(rc == 2, "--points with one file: usage error")


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    compressed_and_rotated(tool, samples, work)
    two_points(tool, samples, work)
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
