#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One count per fact in every view (issue 32 item 2).

Per QP of a capture: the TCP retransmissions (total and by kind: fast, after
a timeout, other), the reordered segments, the duplicate ACKs and each doctor
rule's finding count, as

  stats     `iwarpscope stats --format json` (qps[].tcp, qps[].retransmissions);
            its text form's Operations "retrans" column equals the JSON's
            operations' retransmissions per QP and type
  summary   `iwarpscope summary` (its "retransmissions N (a fast, b after a
            timeout, c other), reordered r" and "duplicate ACKs d" lines, and
            the doctor lines under "! interop doctor")
  report    `iwarpscope report` (the page's data block: qps[].tcp, whose
            findings line says "N TCP retransmissions (a fast, b after a
            timeout, c other), r reordered segments, d duplicate ACKs")
  doctor    `iwarpscope doctor --format json`
  ops       `tshark -z iwarp,ops,raw` (its "TCP:" line per QP)
  zdoctor   `tshark -z iwarp,doctor`
  expert    `tshark -z expert`: the plugin's expert items, one per occurrence
            (totals over the capture: that table does not name QPs)
  fields    the per-frame fields iwarp.rdmap.tcp_event and iwarp.rule, given
            to a QP by the frame's TCP endpoints

must be equal; the three tshark views come from one two-pass tshark run (as an
unprivileged user, with the plugin). And independently of the stream engine,
from the TCP headers of the capture (tshark's tcp.seq_raw and tcp.len, the
same run): per QP and direction, a segment carrying data that repeats octets
already captured, or that fills a hole behind octets already captured, is a
retransmission or a reordered segment (docs/semantics.md, "Where the time
went": the heuristics then tell the two apart, so the sum is compared), a
keep-alive probe (one octet just before the next sequence number) neither.

Usage: views_consistency.py --plugin SO --cli BIN [--preload LIB] [--variants] [--gen GEN --scenario NAME] [CAPTURE...]
Exit: 0 pass, 1 fail, 77 skipped (no tshark).
"""
import argparse
import json
import os
import html as html_mod
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import agree  # noqa: E402
import iwarp_tshark as it  # noqa: E402
import pcaptool  # noqa: E402

# The variants of plugin_agree (agree.py) that move these counts: frames
# lost, swapped, captured twice.
VARIANTS = ("drop", "reorder", "dup")

KINDS = ("fast", "timeout", "other", "reordered", "dupack")
# iwarp.rdmap.tcp_event bits (plugin/packet-iwarp-state.h IWARP_TCP_EV_*)
EV_BITS = {0x01: "fast", 0x02: "timeout", 0x08: "dupack", 0x10: "other", 0x20: "reordered"}
# The plugin's expert summaries of the engine's TCP events
# (plugin/packet-iwarp-timing.c tcp_event_vals)
EXPERT_TCP = [
    ("TCP fast retransmission (after duplicate ACKs) on an iWARP connection", "fast"),
    ("TCP retransmission after a timeout on an iWARP connection", "timeout"),
    ("TCP retransmission (neither after duplicate ACKs nor a timeout) on an iWARP connection", "other"),
    ("TCP reordered on the way (its first transmission, not lost) on an iWARP connection", "reordered"),
    ("TCP duplicate ACK on an iWARP connection", "dupack"),
]
RULE_LINE = re.compile(r"^\s+(error|deviation|performance)\s+([a-z0-9_]+\.[a-z0-9_.]+)\s+(i2r|r2i)\s+(?:at least )?(\d+)")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        raise it.Fail("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode()[-800:]))
    return p.stdout.decode("utf-8", "replace")


def blank():
    return {"tcp": Counter(), "rules": Counter(), "by_dir": Counter()}


def tcp_of(t):
    return Counter(fast=t["fast_retransmits"], timeout=t["timeouts"], other=t["other_retransmits"],
                   reordered=t["reordered"], dupack=t["duplicate_acks"])


def view_stats(stats):
    out = {}
    for q in stats["qps"]:
        v = blank()
        v["tcp"] = tcp_of(q["tcp"])
        v["total"] = q["retransmissions"]
        v["reordered_segments"] = q["reordered_segments"]
        out[q["qp"]] = v
    return out


def stats_text_retrans(text):
    """(QP, op) -> the "retrans" column of `iwarpscope stats`'s Operations
    table (the operations' retransmitted segments, summed)."""
    out, cols = {}, None
    for line in text.splitlines():
        if cols is None:
            if line.split()[:2] == ["QP", "op"] and "retrans" in line.split():
                cols = line.split()
            continue
        parts = line.split()
        if not parts:
            break
        if parts[0].isdigit() and len(parts) == len(cols) - 1:   # ("CRC err" is one column)
            out[(int(parts[0]), parts[1])] = int(parts[cols.index("retrans") - 1])
    return out


def view_summary(text):
    """Per QP its counts; "rules" the doctor lines it lists, per rule and
    direction; "some" when it lists only the most severe of "broken" of them."""
    out, v = {}, None
    for line in text.splitlines():
        m = re.match(r"^QP (\d+)  \S+ > \S+$", line)
        if m:
            v = out[int(m.group(1))] = blank()
            v["tcp"].update(dict.fromkeys(KINDS, 0))
            continue
        if not line.startswith("  "):
            v = None   # the QP's block ended (NVMe-oF, Operations, ...)
        if v is None:
            continue
        m = re.match(r"^  ! interop doctor: (\d+) findings? .*?(; the most severe:)?$", line)
        if m:
            v["broken"], v["some"] = int(m.group(1)), bool(m.group(2))
        m = re.match(r"^  retransmissions (\d+)(?: \((\d+) fast, (\d+) after a timeout, (\d+) other\))?"
                     r"(?:, reordered (\d+))?,", line)
        if m:
            v["total"] = int(m.group(1))
            v["tcp"]["fast"], v["tcp"]["timeout"], v["tcp"]["other"] = (int(m.group(i) or 0) for i in (2, 3, 4))
            v["tcp"]["reordered"] = int(m.group(5) or 0)
        m = re.match(r"^  duplicate ACKs (\d+),", line)
        if m:
            v["tcp"]["dupack"] = int(m.group(1))
        m = RULE_LINE.match(line)
        if m and line.startswith("      "):
            v["rules"][(m.group(2), m.group(3))] += int(m.group(4))
    return out


BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def render(page, work):
    """The page's DOM after its script ran (headless Chromium, as
    tests/report/browser_test.py runs it); None without a browser."""
    b = next((shutil.which(x) for x in BROWSERS if shutil.which(x)), None)
    if b is None:
        return None
    p = subprocess.run([b, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--user-data-dir=" + os.path.join(work, "profile"), "--virtual-time-budget=10000",
                        "--dump-dom", "file://" + os.path.abspath(page)],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=180)
    return p.stdout.decode("utf-8", "replace")


def view_report(cli, cap, work, browser):
    out_html = os.path.join(work, "report.html")
    run([cli, "report", "--no-progress", cap, "-o", out_html])
    html = open(out_html, encoding="utf-8").read()
    blocks = re.findall(r'<script type="application/json" id="iws-data">(.*?)</script>', html, re.S)
    if len(blocks) != 1:
        raise it.Fail("%d data blocks in the report" % len(blocks))
    d = json.loads(blocks[0])
    out = {}
    for q in d["qps"]:
        if q.get("qp") is None:
            continue
        v = blank()
        v["tcp"] = tcp_of(q["tcp"])
        out[q["qp"]] = v
    # the findings the page shows (report.js makes them of those numbers at
    # load time): rendered by a headless Chromium when there is one
    dom = render(out_html, work) if browser else None
    if dom is None:
        return out, None
    shown = {}
    for qp, text in re.findall(r'<li><a class="qp" data-qp="(\d+)">QP \d+</a>: (.*?)</li>', dom):
        v = shown.setdefault(int(qp), blank())
        text = html_mod.unescape(text)
        m = re.match(r"^(\d+) TCP retransmissions? \((\d+) fast, (\d+) after a timeout, (\d+) other\), "
                     r"(?:(\d+) reordered segments?, )?(\d+) duplicate ACKs?", text)
        if m:
            total, fast, rto, other = (int(m.group(i)) for i in (1, 2, 3, 4))
            if total != fast + rto + other:
                raise it.Fail("the report's findings say %r: the kinds do not add up" % text)
            v["tcp"].update(fast=fast, timeout=rto, other=other, reordered=int(m.group(5) or 0),
                            dupack=int(m.group(6)))
            v["tcp_line"] = True
        elif re.match(r"^\d+ TCP retransmission", text):
            raise it.Fail("the report's findings say %r: not every kind of retransmission" % text)
        m = re.match(r"^interop doctor: (\d+) findings? \(.*?\)(; the most severe)?: (.*)$", text)
        if m:
            v["broken"], v["some"] = int(m.group(1)), bool(m.group(2))
            for d in m.group(3).split("; "):
                r = re.match(r"^(error|deviation|performance) (\S+) (i2r|r2i) (?:at least )?(\d+)", d)
                if r:
                    v["rules"][(r.group(2), r.group(3))] += int(r.group(4))
    return out, shown


def view_doctor(doctor):
    out = {}
    for q in doctor["qps"]:
        v = out[q["qp"]] = blank()
        for f in q["findings"] or []:
            v["rules"][f["rule"]] += f["count"]
            v["by_dir"][(f["rule"], f["dir"])] += f["count"]
    return out


def view_zops(text):
    out = {}
    for qp, x in it.parse_loss(text).items():
        if "tcp" not in x:
            continue
        v = out[qp] = blank()
        v["tcp"] = Counter(dict(zip(("fast", "timeout", "other", "reordered", "dupack"), x["tcp"][:5])))
    return out


def view_zdoctor(text):
    out, v = {}, None
    for line in text.splitlines():
        m = re.match(r"^QP (\d+)  ", line)
        if m:
            v = out[int(m.group(1))] = blank()
            continue
        m = RULE_LINE.match(line)
        if m and v is not None:
            v["rules"][m.group(2)] += int(m.group(4))
    return out


def view_expert(text):
    """Totals of the plugin's expert items over the capture; and the rules
    whose items the table splits over several lines (a summary that varies
    by occurrence: the table's count of the rule is then no line's)."""
    tcp, rules, lines = Counter(), Counter(), Counter()
    for line in text.splitlines():
        # Frequency, Group, Protocol (its name may have spaces), Summary
        m = re.match(r"^\s+(\d+)\s+\S+\s+(.*)$", line)
        if not m:
            continue
        n, rest = int(m.group(1)), m.group(2).rstrip()
        for words, kind in EXPERT_TCP:
            if rest.endswith("  " + words):
                tcp[kind] += n
        # the doctor's: "title [rule.id] (reference)"
        r = re.search(r"  \S.* \[([a-z0-9_]+\.[a-z0-9_.]+)\] \(.*\)$", rest)
        if r:
            rules[r.group(1)] += n
            lines[r.group(1)] += 1
    return tcp, rules, sorted(k for k, v in lines.items() if v > 1)


def endpoint(ip, ip6, port):
    return ("[%s]:%s" % (ip6, port)) if ip6 and not ip else "%s:%s" % (ip, port)


FIELDS = ["frame.number", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport",
          "tcp.seq_raw", "tcp.ack_raw", "tcp.len", "tcp.flags", "iwarp.rdmap.tcp_event", "iwarp.rule"]


def first(v):
    return v.split(",")[0] if v else v


def view_fields(rows, qp_of):
    out = defaultdict(blank)
    for f in rows:
        key = frozenset((endpoint(first(f["ip.src"]), first(f["ipv6.src"]), first(f["tcp.srcport"])),
                         endpoint(first(f["ip.dst"]), first(f["ipv6.dst"]), first(f["tcp.dstport"]))))
        qp = qp_of.get(key)
        evs = [int(x, 0) for x in f["iwarp.rdmap.tcp_event"].split(",") if x]
        rules = [x for x in f["iwarp.rule"].split(",") if x]
        if (evs or rules) and qp is None:
            raise it.Fail("frame %s: iWARP items on a TCP connection of no QP" % f["frame.number"])
        for e in evs:
            if e in EV_BITS:
                out[qp]["tcp"][EV_BITS[e]] += 1
        for x in rules:
            out[qp]["rules"][x] += 1
    return out


def unwrap(seq, ref):
    """seq (32 bits) as the integer nearest ref (RFC 9293 §3.4: sequence
    numbers compare modulo 2^32)."""
    d = (seq - ref) & 0xFFFFFFFF
    return ref + d - (1 << 32 if d >= 1 << 31 else 0)


def merge(iv):
    iv.sort()
    out = []
    for a, b in iv:
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out[-64:]


def independent(rows, qp_of):
    """Per QP: the data segments that repeated octets captured before or
    filled a hole behind them, from the TCP headers alone. Octets the
    receiver's cumulative ACK covered while they were missing count as
    captured before (a capture gap: the receiver had them, docs/semantics.md
    "Order across the two directions"), from the direction's first SYN or
    data segment on."""
    seen = {}   # (qp, sender) -> dict(iv: merged [start, end) intervals, top: highest end, next: in-order point)
    out = Counter()
    for f in rows:
        if not f["tcp.seq_raw"]:
            continue
        src = endpoint(first(f["ip.src"]), first(f["ipv6.src"]), first(f["tcp.srcport"]))
        dst = endpoint(first(f["ip.dst"]), first(f["ipv6.dst"]), first(f["tcp.dstport"]))
        qp = qp_of.get(frozenset((src, dst)))
        if qp is None:
            continue
        flags = int(first(f["tcp.flags"]), 16)
        n = int(first(f["tcp.len"]) or 0)
        seq = int(first(f["tcp.seq_raw"]))
        st = seen.get((qp, src))
        if flags & 0x02 and st is None:    # SYN: the data begins after it (RFC 9293 §3.4)
            st = seen[(qp, src)] = {"iv": [[seq, seq + 1]], "top": seq + 1, "next": seq + 1}
        if flags & 0x02:
            seq += 1
        if n and not flags & 0x04:         # data, no RST
            if st is None:
                seen[(qp, src)] = st = {"iv": [[seq, seq + n]], "top": seq + n, "next": seq + n}
            else:
                s0 = unwrap(seq, st["top"])
                e = s0 + n
                keepalive = n == 1 and e == st["top"] and any(a <= s0 < b for a, b in st["iv"])
                if not keepalive and (any(a < e and s0 < b for a, b in st["iv"]) or s0 < st["top"]):
                    out[qp] += 1
                st["iv"] = merge(st["iv"] + [[s0, e]])
                st["top"] = max(st["top"], e)
        # the peer's cumulative ACK of this sender's octets
        peer = seen.get((qp, dst))
        if peer is not None and flags & 0x10 and f["tcp.ack_raw"]:
            a = unwrap(int(first(f["tcp.ack_raw"])), peer["next"])
            if a > peer["next"] and a - peer["next"] <= 1 << 30:
                peer["iv"] = merge(peer["iv"] + [[peer["next"], a]])
                peer["top"] = max(peer["top"], a)
        for st2 in (seen.get((qp, src)), peer):
            if st2 is not None:
                for a, b in st2["iv"]:
                    if a <= st2["next"] <= b:
                        st2["next"] = b
    return out


def block(text, title):
    """The -z block that begins with the line title..., to its closing row of
    "=" (tshark prints the blocks in an order of its own)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title):
            for j in range(i + 1, len(lines)):
                if lines[j].startswith("====="):
                    return "\n".join(lines[i:j])
            return "\n".join(lines[i:])
    raise it.Fail("no %r block in tshark's output" % title)


def check_capture(r, cli, path, browser=True):
    errs = []
    name = os.path.basename(path)
    stats = json.loads(run([cli, "stats", "--format", "json", path]))
    views = {
        "stats": view_stats(stats),
        "summary": view_summary(run([cli, "summary", path])),
        "doctor": view_doctor(json.loads(run([cli, "doctor", "--format", "json", path]))),
    }
    with tempfile.TemporaryDirectory() as work:
        views["report"], shown = view_report(cli, path, work, browser)
    cap = r.stage(path)
    opts = it.load_options(os.path.splitext(name)[0])
    args = ["-2", "-r", cap, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for x in FIELDS:
        args += ["-e", x]
    text = r.run(args + ["-z", "expert", "-z", "iwarp,ops,raw", "-z", "iwarp,doctor"] + opts)
    lines = text.splitlines()
    rows, rest = [], []
    for line in lines:
        parts = line.split("\t")
        if len(parts) == len(FIELDS) and re.match(r"^\d+$", parts[0]):
            rows.append(dict(zip(FIELDS, parts)))
        else:
            rest.append(line)
    rest = "\n".join(rest)
    zdoc, zops = block(rest, "iWARP doctor"), block(rest, "iWARP operations")
    views["ops"] = view_zops(zops)
    views["zdoctor"] = view_zdoctor(zdoc)
    qp_of = {frozenset((q["initiator"], q["responder"])): q["qp"] for q in stats["qps"]}
    views["fields"] = view_fields(rows, qp_of)

    # the text form of stats: its Operations table's retrans column is the
    # operations' retransmissions of the JSON (per QP and operation type)
    want = {(q["qp"], op): o["retransmissions"] for q in stats["qps"] for op, o in (q.get("ops") or {}).items()
            if o["count"]}
    got = stats_text_retrans(run([cli, "stats", path]))
    if got != want:
        errs.append("stats text retrans column %s, stats --format json %s" % (got, want))
    qps = sorted(views["stats"])
    if not qps:
        errs.append("no iWARP QP in stats: nothing to compare (the views agree on nothing)")
    for qp in qps:
        ref = views["stats"][qp]
        rtcp = +ref["tcp"]
        rrules = +views["doctor"].get(qp, blank())["rules"]
        total = ref["tcp"]["fast"] + ref["tcp"]["timeout"] + ref["tcp"]["other"]
        if ref["total"] != total:
            errs.append("QP %d: stats retransmissions %d, its kinds add up to %d" % (qp, ref["total"], total))
        if ref["reordered_segments"] != ref["tcp"]["reordered"]:
            errs.append("QP %d: stats reordered_segments %d, tcp.reordered %d" %
                        (qp, ref["reordered_segments"], ref["tcp"]["reordered"]))
        if views["summary"].get(qp, {}).get("total") != total:
            errs.append("QP %d: summary retransmissions %s, stats %d" %
                        (qp, views["summary"].get(qp, {}).get("total"), total))
        for vn in ("summary", "report", "ops", "fields"):
            got = +views[vn].get(qp, blank())["tcp"]
            if got != rtcp:
                errs.append("QP %d: %s TCP counts %s, stats %s" % (qp, vn, dict(got), dict(rtcp)))
        # the summary's and the report's doctor finding list every rule
        # broken, per direction, or say they list the most severe only (and
        # how many there are)
        dv = views["doctor"].get(qp, blank())["by_dir"]
        for vn, sv in (("summary", views["summary"].get(qp, blank())),
                       ("report findings", (shown or {}).get(qp, blank()))):
            if vn != "summary" and shown is None:
                continue
            if sv.get("broken", 0) != len(+dv):
                errs.append("QP %d: %s says %s findings, doctor --format json has %d" %
                            (qp, vn, sv.get("broken", 0), len(+dv)))
            for k, n in sv["rules"].items():
                if dv[k] != n:
                    errs.append("QP %d: %s %s %s %d, doctor --format json %d" % (qp, vn, k[0], k[1], n, dv[k]))
            if not sv.get("some") and +sv["rules"] != +dv:
                errs.append("QP %d: %s lists %s, doctor --format json %s" % (qp, vn, dict(sv["rules"]), dict(+dv)))
        # the report's findings line of TCP: there when anything was sent
        # again or reordered, with every kind
        if shown is not None:
            sv = shown.get(qp, blank())
            lossy = ref["tcp"]["fast"] + ref["tcp"]["timeout"] + ref["tcp"]["other"] + ref["tcp"]["reordered"]
            if sv.get("tcp_line") and +sv["tcp"] != rtcp:
                errs.append("QP %d: report findings say %s, stats %s" % (qp, dict(+sv["tcp"]), dict(rtcp)))
            if bool(sv.get("tcp_line")) != bool(lossy):
                errs.append("QP %d: report findings %s TCP line, stats counts %d retransmitted or reordered" %
                            (qp, "have a" if sv.get("tcp_line") else "have no", lossy))
        for vn in ("zdoctor", "fields"):
            got = +views[vn].get(qp, blank())["rules"]
            if got != rrules:
                errs.append("QP %d: %s doctor counts %s, doctor --format json %s" % (qp, vn, dict(got), dict(rrules)))
    # the expert table has no QP: totals over the capture
    etcp, erules, split = view_expert(rest)
    if split:
        errs.append("-z expert shows each of %s on several lines (their summaries differ)" % split)
    want_tcp = sum((views["stats"][q]["tcp"] for q in qps), Counter())
    want_rules = sum((views["doctor"][q]["rules"] for q in views["doctor"]), Counter())
    if +etcp != +want_tcp:
        errs.append("-z expert TCP items %s, stats %s" % (dict(+etcp), dict(+want_tcp)))
    if +erules != +want_rules:
        errs.append("-z expert doctor items %s, doctor %s" % (dict(+erules), dict(+want_rules)))
    # independently, from the TCP headers
    ind = independent(rows, qp_of)
    for qp in qps:
        t = views["stats"][qp]["tcp"]
        engine = t["fast"] + t["timeout"] + t["other"] + t["reordered"]
        if ind[qp] != engine:
            errs.append("QP %d: %d segments repeat or fill behind captured octets (TCP headers), the engine "
                        "counts %d retransmissions and reordered" % (qp, ind[qp], engine))
    print("%s: %d QPs; per QP %s; doctor %s; expert %s" %
          (name, len(qps), "; ".join("%d %s" % (q, dict(+views["stats"][q]["tcp"])) for q in qps),
           dict(+want_rules), dict(+etcp)))
    return ["%s: %s" % (name, e) for e in errs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--preload")
    ap.add_argument("--variants", action="store_true",
                    help="also the capture with frames lost, swapped and captured twice (as plugin_agree makes them)")
    ap.add_argument("--gen", help="iwarpscope-gen, to make --scenario's capture")
    ap.add_argument("--scenario", help="a generator scenario (doctor-all: every rule of the catalogue)")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    r = it.Runner(a.plugin, a.preload)
    if not r.tshark:
        print("tshark not found")
        return it.SKIP
    errs = []
    try:
        cases = []
        captures = list(a.captures)
        if a.scenario:
            prefix = os.path.join(r.workdir("scenario"), a.scenario)
            subprocess.run([a.gen, "--scenario", a.scenario, "--out", prefix], check=True)
            captures.append(prefix + ".pcap")
        for c in captures:
            cases.append((c, True))
            if not a.variants:
                continue
            try:
                p = pcaptool.read(c)
            except ValueError:
                continue   # pcapng: the capture itself only
            for name, v in agree.variants(p, True):
                if name in VARIANTS:
                    path = os.path.join(r.workdir("variants"), "%s.%s.pcap" %
                                        (os.path.basename(c).split(".")[0], name))
                    pcaptool.write(path, v)
                    os.chmod(path, 0o644)
                    cases.append((path, False))   # (the page: once per sample)
        for c, browser in cases:
            try:
                errs += check_capture(r, a.cli, c, browser)
            except it.Fail as e:
                errs.append("%s: %s" % (os.path.basename(c), e))
    finally:
        r.close()
    for e in errs:
        print("FAIL", e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
