#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The HTML report's promises, on every sample and on captures made here:

- self-contained: no URL the browser would fetch (src, href, url(), @import,
  fetch), a Content-Security-Policy that forbids any, one data block;
- the data agrees with `stats --format json`: per QP the bucketed operations
  add up to its operations (RTR left out), the octets on the wire to its
  payload octets per direction (retransmitted ones a part of them), the
  goodput to at most that, the time in flight to its operations' spans;
  each histogram (NVMe-oF ones too) holds as many samples as the
  distribution it is drawn with, whose numbers are the statistics'; the
  summary text is the summary command's (less its slowest lists) and the
  findings are its "!" lines, given as data; every operation is drawn while
  there are fewer than the limit; a distribution of fewer than 20 samples
  carries them (the page lists them instead of a histogram: MIN_DRAWN), the
  NVMe ones the NVMe commands' latencies (`nvme --format jsonl`), fio's
  ladder of the statistics, and the all-queue rows (nvme_all) the
  statistics' all_ops; the bucket-by-bucket numbers are
  recomputed in wire_check.py, the slowest lists in slowest_check.py;
- a capture with more than 64 QPs: the first 64 drawn alone, the rest as
  "other QPs", and the sums still hold;
- --limit N: at most N drawn, the troubled and the slowest among them;
- text from the capture cannot end the data block (a file named
  "</script>"), and -o to a place that cannot be written fails at once.

Usage: report_check.py IWARPSCOPE ROOT WORKDIR
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from checklib import check, verdict  # noqa: E402
import pcaptool  # noqa: E402
from reportlib import page_data, report  # noqa: E402

FETCHING = re.compile(r'\b(src\s*=|href\s*=\s*"(?!#))|url\((?!#)|@import|\bfetch\(|XMLHttpRequest|https?://(?!www\.w3\.org/2000/svg)', re.I)


def no_sketch(dist):
    """A stats distribution without its mergeable sketch (the page has none)."""
    return {k: v for k, v in dist.items() if k != "sketch"}


MIN_DRAWN = 20


def check_samples(what, x):
    """A distribution of fewer than MIN_DRAWN samples carries them, sorted,
    to be listed; one of more, none (it is drawn)."""
    n = x["stats"]["count"]
    if n >= MIN_DRAWN:
        check("samples" not in x, "%s: %d samples listed, a histogram is drawn from %d" % (what, n, MIN_DRAWN))
        return
    v = x.get("samples")
    check(v is not None and len(v) == n and v == sorted(v) and v[0] == x["stats"]["min"] and v[-1] == x["stats"]["max"],
          "%s: %d samples, listed %s" % (what, n, v))


def nvme_latencies(tool, root, sample):
    """(qp, qid, op) and ("all", op) -> the sorted latencies of the complete
    NVMe commands, from `nvme --format jsonl`."""
    p = subprocess.run([os.path.abspath(tool), "nvme", "--format", "jsonl", sample], cwd=root,
                       stdout=subprocess.PIPE, env=dict(os.environ, TZ="UTC"), check=True)
    out = {}
    for line in p.stdout.decode().splitlines():
        c = json.loads(line)
        if c["complete"] and c["latency_ns"] is not None:
            for k in ((c["qp"], c["qid"], c["op"]), ("all", c["op"])):
                out.setdefault(k, []).append(c["latency_ns"])
    return {k: sorted(v) for k, v in out.items()}


def stats_of(tool, root, sample):
    p = subprocess.run([os.path.abspath(tool), "stats", "--format", "json", sample], cwd=root,
                       stdout=subprocess.PIPE, env=dict(os.environ, TZ="UTC"), check=True)
    return json.loads(p.stdout)


def summary_of(tool, root, sample, *extra):
    p = subprocess.run([os.path.abspath(tool), "summary", "--no-progress", *extra, sample], cwd=root,
                       stdout=subprocess.PIPE, env=dict(os.environ, TZ="UTC"), check=True)
    text = p.stdout.decode()
    cut = [i for i in (text.find("\nSlowest waits"), text.find("\nSlowest deliveries")) if i >= 0]
    return text[:min(cut)] if cut else text


def finding_lines(summary):
    """The summary's "!" lines with their detail lines, as the report's
    findings say them."""
    out, last = [], None
    for line in summary.split("\n"):
        m = re.match(r"^( {2})?! (.*)$", line)
        if m:
            last = [m.group(2)]
            out.append(last)
        elif last is not None and line.startswith("      ") and line.strip():
            last.append(line.strip())
        else:
            last = None
    return out


def check_page(name, html, d, st, summary, limit=10000, nvme=None):
    code = re.sub(r'<script type="application/json" id="iws-data">.*?</script>', "", html, flags=re.S)
    m = FETCHING.search(code)
    check(not m, "%s: the page may fetch something: %r" % (name, m and code[max(0, m.start() - 40):m.end() + 40]))
    check("Content-Security-Policy" in html and "default-src 'none'" in html, "%s: no CSP" % name)
    check(d["summary"] == summary, "%s: the summary text differs from the summary command's" % name)
    by_qp = {q["qp"]: q for q in st["qps"]}
    named = [q for q in d["qps"] if q["qp"] is not None]
    others = [q for q in d["qps"] if q["qp"] is None]
    n = d["grid"]["buckets"]
    for q in d["qps"]:
        for k, v in q["series"].items():
            check(len(v) == n, "%s: QP %s series %s has %d buckets, grid %d" % (name, q["qp"], k, len(v), n))
    got = [[f["text"]] + f["details"] for f in d["findings"]]
    check(got == finding_lines(summary), "%s: the findings are not the summary's ! lines:\n%s\n%s" %
          (name, got, finding_lines(summary)))
    ops_total = 0
    for q in named:
        s = by_qp.get(q["qp"])
        if not check(s is not None, "%s: QP %s not in stats" % (name, q["qp"])):
            continue
        count = sum(o["count"] for o in s["ops"].values())
        check(sum(q["series"]["ops"]) == count, "%s QP %s: %d ops in buckets, stats %d" %
              (name, q["qp"], sum(q["series"]["ops"]), count))
        check(not d["wire"]["unplaced_segments"], "%s: segments not placed" % name)
        for dirn in ("i2r", "r2i"):
            wire = sum(q["series"]["wire_" + dirn])
            check(wire == s["payload_bytes_" + dirn], "%s QP %s %s: %d octets on the wire, stats %d" %
                  (name, q["qp"], dirn, wire, s["payload_bytes_" + dirn]))
            check(sum(q["series"]["retransmitted_" + dirn]) <= wire, "%s QP %s %s: retransmitted > sent" % (name, q["qp"], dirn))
            check(sum(q["series"]["goodput_" + dirn]) <= wire, "%s QP %s %s: goodput > sent" % (name, q["qp"], dirn))
        check(("bytes" not in q["series"]), "%s: a modelled bytes series is back" % name)
        if q.get("nvme"):
            groups = {(g["qid"], g["op"]): g for g in s["nvme"]["ops"]}
            for x in q["nvme"]["dists"]:
                g = groups.get((x["qid"], x["op"]))
                check(g is not None and x["stats"] == no_sketch(g["latency_ns"]),
                      "%s QP %s NVMe %s: stats differ" % (name, q["qp"], x["op"]))
                check(sum(x["counts"]) == x["stats"]["count"], "%s QP %s NVMe %s histogram" % (name, q["qp"], x["op"]))
                check(g is not None and x["ladder"] == g["latency_percentiles_ns"],
                      "%s QP %s NVMe %s: the ladder differs from stats" % (name, q["qp"], x["op"]))
                check_samples("%s QP %s NVMe %s" % (name, q["qp"], x["op"]), x)
                if nvme is not None and "samples" in x:
                    check(x["samples"] == nvme.get((q["qp"], x["qid"], x["op"])),
                          "%s QP %s NVMe %s: samples %s, the commands' %s" % (name, q["qp"], x["op"], x["samples"],
                                                                           nvme.get((q["qp"], x["qid"], x["op"]))))
            check(sum(q["nvme"]["series"]["completed"]) == sum(g["complete"] for g in groups.values()),
                  "%s QP %s: NVMe completions in buckets differ from stats" % (name, q["qp"]))
            st_codes = sorted((g["qid"], g["op"], x["status"], x["count"]) for g in groups.values() for x in g["statuses"])
            check(sorted((x["qid"], x["op"], x["status"], x["count"]) for x in q["nvme"]["statuses"]) == st_codes,
                  "%s QP %s: NVMe statuses differ from stats" % (name, q["qp"]))
        tcp = s["tcp"]
        # (retransmissions before the QP was known to be iWARP are not placed;
        # reordered segments are not retransmissions: issue 22 item 1)
        check(sum(q["series"]["retransmissions"]) <= tcp["fast_retransmits"] + tcp["timeouts"] + tcp["other_retransmits"],
              "%s QP %s: more retransmissions in buckets than in stats" % (name, q["qp"]))
        check(q["tcp"]["fast_retransmits"] == tcp["fast_retransmits"], "%s QP %s: fast retransmits" % (name, q["qp"]))
        check(len(q["teardown"]) == len(s["teardown"]), "%s QP %s: teardown records" % (name, q["qp"]))
        want = {(op, k): no_sketch(o[k + "_ns"]) for op, o in s["ops"].items() for k in ("latency", "delivery") if o[k + "_ns"]}
        got = {(x["op"], x["kind"]): x for x in q["dists"]}
        check(set(got) == set(want), "%s QP %s: distributions %s, stats %s" % (name, q["qp"], sorted(got), sorted(want)))
        for key, x in got.items():
            check(x["stats"] == want.get(key), "%s QP %s %s: stats differ" % (name, q["qp"], key))
            check(sum(x["counts"]) == x["stats"]["count"], "%s QP %s %s: %d in the histogram, %d samples" %
                  (name, q["qp"], key, sum(x["counts"]), x["stats"]["count"]))
            check_samples("%s QP %s %s" % (name, q["qp"], key), x)
        ops_total += count
    wire_total = sum(sum(q["series"]["wire_i2r"]) + sum(q["series"]["wire_r2i"]) for q in d["qps"])
    for q in others:
        ops_total += sum(q["series"]["ops"])
    total = st["total"]["ops"]
    check(ops_total == sum(o["count"] for o in total.values()), "%s: %d ops in all buckets, total %d" %
          (name, ops_total, sum(o["count"] for o in total.values())))
    check(wire_total == sum(q["payload_bytes_i2r"] + q["payload_bytes_r2i"] for q in st["qps"]),
          "%s: octets on the wire in all buckets differ" % name)
    for x in d["all"]["dists"]:
        check(x["stats"] == no_sketch(total[x["op"]][x["kind"] + "_ns"]), "%s: all-QP %s %s stats differ" % (name, x["op"], x["kind"]))
        check(sum(x["counts"]) == x["stats"]["count"], "%s: all-QP %s %s histogram" % (name, x["op"], x["kind"]))
        check_samples("%s: all-QP %s %s" % (name, x["op"], x["kind"]), x)
    # the NVMe all-queue rows: the statistics' all_ops with complete commands
    want = {o["op"]: o for o in st["total"].get("nvme", {}).get("all_ops", []) if o["complete"]}
    got = {x["op"]: x for x in d.get("nvme_all", [])}
    check(sorted(got) == sorted(want), "%s: NVMe all-queue rows %s, stats %s" % (name, sorted(got), sorted(want)))
    for op, x in got.items():
        w = want.get(op, {})
        check(x["stats"] == no_sketch(w.get("latency_ns") or {}) and x["ladder"] == w.get("latency_percentiles_ns"),
              "%s: NVMe all %s: stats or ladder differ" % (name, op))
        check(sum(x["counts"]) == x["stats"]["count"], "%s: NVMe all %s histogram" % (name, op))
        check_samples("%s: NVMe all %s" % (name, op), x)
        if nvme is not None and "samples" in x:
            check(x["samples"] == nvme.get(("all", op)), "%s: NVMe all %s samples" % (name, op))
    drawn = d["ops"]
    check(drawn["total"] == ops_total, "%s: ops.total %d, buckets %d" % (name, drawn["total"], ops_total))
    check(len(drawn["rows"]) == drawn["drawn"] <= max(limit, 1), "%s: %d drawn, limit %d" % (name, drawn["drawn"], limit))
    if drawn["total"] <= limit * 6 // 10:
        check(drawn["drawn"] == drawn["total"], "%s: %d of %d drawn, below the limit" % (name, drawn["drawn"], drawn["total"]))
    starts = [r[drawn["columns"].index("start")] for r in drawn["rows"]]
    check(starts == sorted(starts), "%s: drawn operations not in start order" % name)
    for k in ("waits", "deliveries"):
        times = [s["time_ns"] for s in d["slowest"][k]]
        check(times == sorted(times, reverse=True), "%s: slowest %s not slowest first" % (name, k))


def many_qps(src, dst, copies):
    """multi-qp's connections again and again on other client ports, 2 ms
    apart: copies x 5 QPs."""
    cap = pcaptool.read(src)
    records = []
    for k in range(copies):
        for sec, frac, orig, data in cap.records:
            data = bytearray(data)
            ihl = (data[14] & 0x0F) * 4
            tcp = 14 + ihl
            sport, dport = struct.unpack(">HH", data[tcp:tcp + 4])
            # the client's (the higher) port moves; the server's stays
            if sport > dport:
                sport = (sport + 7 * k) & 0xFFFF
            else:
                dport = (dport + 7 * k) & 0xFFFF
            data[tcp:tcp + 4] = struct.pack(">HH", sport, dport)
            t = sec * 1000000000 + frac * (1000 if cap.magic == pcaptool.MAGIC_US else 1) + k * 2000000
            records.append((t, bytes(data), orig))
    records.sort(key=lambda r: r[0])
    out = pcaptool.Pcap(pcaptool.MAGIC_NS, cap.snaplen, cap.linktype,
                        [(t // 1000000000, t % 1000000000, orig, data) for t, data, orig in records])
    pcaptool.write(dst, out)


def main(argv):
    tool, root, work = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    samples = sorted(glob.glob(os.path.join(root, "samples", "*", "*.pcap*")))
    for path in samples:
        rel = os.path.relpath(path, root)
        html = report(tool, root, rel, os.path.join(work, "page.html"))
        st = stats_of(tool, root, rel)
        nv = nvme_latencies(tool, root, rel) if any("nvme" in q for q in st["qps"]) else None
        check_page(rel, html, page_data(html), st, summary_of(tool, root, rel), nvme=nv)

    # more QPs than the page draws alone
    many = os.path.join(work, "many-qps.pcap")
    many_qps(os.path.join(root, "samples/generated/multi-qp.pcap"), many, 14)
    html = report(tool, root, many, os.path.join(work, "many.html"))
    d = page_data(html)
    st = stats_of(tool, root, many)
    check(len(st["qps"]) == 70, "many-qps: %d QPs, want 70" % len(st["qps"]))
    check(len(d["qps"]) == 65 and d["qps"][-1]["qp"] is None and d["qps"][-1]["nqps"] == 6,
          "many-qps: want 64 QPs and 6 others, got %d entries" % len(d["qps"]))
    check_page("many-qps", html, d, st, summary_of(tool, root, many))

    # two capture points: their findings (loss between the points) are listed too
    a, b = os.path.join(work, "point-a.pcap"), os.path.join(work, "point-b.pcap")
    subprocess.run([sys.executable, os.path.join(root, "tests", "golden", "points_pair.py"),
                    os.path.join(root, "samples/real/26-netem-read_bw-64k.pcap"), a, b,
                    os.path.join(work, "points-truth.json")], check=True, stdout=subprocess.DEVNULL)
    html = report(tool, root, b, os.path.join(work, "points.html"), "--points", a)
    d = page_data(html)
    summ = summary_of(tool, root, b, "--points", a)
    got = [[f["text"]] + f["details"] for f in d["findings"]]
    check(got == finding_lines(summ) and any("loss:" in f["text"] for f in d["findings"]),
          "two capture points: findings %s, summary %s" % (got, finding_lines(summ)))

    # --limit: fewer drawn, the troubled and the slowest first
    rel = "samples/real/26-netem-read_bw-64k.pcap"
    html = report(tool, root, rel, os.path.join(work, "limit.html"), "--limit", "20")
    d = page_data(html)
    check_page(rel + " --limit 20", html, d, stats_of(tool, root, rel), summary_of(tool, root, rel), 20)
    col = d["ops"]["columns"]
    rows = d["ops"]["rows"]
    troubled = [r for r in rows if r[col.index("retransmissions")] or r[col.index("stall")]]
    check(len(troubled) >= 6, "--limit 20: %d troubled drawn, want the 6 the limit keeps for them" % len(troubled))
    slow = d["slowest"]["waits"][0]
    check(any(r[0] == slow["qp"] and r[1] == slow["id"] for r in rows), "--limit 20: the slowest is not drawn")

    # a file name that would end the data block if it were not escaped
    odd = os.path.join(work, "</script><script>alert(1)</script>.pcap")
    try:
        os.makedirs(os.path.dirname(odd), exist_ok=True)
        shutil.copy(os.path.join(root, "samples/real/01-rping.pcap"), odd)
        html = report(tool, root, odd, os.path.join(work, "odd.html"))
        check(page_data(html)["files"] == [odd], "a file name with </script> does not survive the data block")
        check("<script>alert(1)" not in html, "a file name with </script> ends up in the page as markup")
    finally:
        shutil.rmtree(os.path.join(work, "</script><script>alert(1)<"), ignore_errors=True)

    # -o where nothing can be written: exit 2 before reading the capture
    p = subprocess.run([tool, "report", os.path.join(root, rel), "-o", "/nonexistent/dir/x.html"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 2 and b"cannot write" in p.stderr, "-o to a missing directory: exit %d" % p.returncode)
    for bad in (["report", "-T", "json"], ["stats", "-o", "x.html"], ["summary", "--limit", "3"]):
        p = subprocess.run([tool] + bad + [os.path.join(root, rel)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(p.returncode == 2, "%s: exit %d, want 2" % (bad, p.returncode))
    print("%d samples and 5 made-up cases checked" % len(samples))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
