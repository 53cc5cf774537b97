#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iwarpscope doctor` as a CI gate and as a document:

- --fail-on takes rule ids and severities (exit 1 when one is broken, 0
  when not), with the doctor command and beside any other command; an
  unknown word, or a list that names nothing ("", ","), is a usage error
  (2); the old conditions still work;
- text, json and jsonl carry the same findings; json's totals count them
  per severity; --qp selects QPs; --since/--until make a window; csv is refused;
- --rules lists the whole catalogue (text and json), no capture needed;
- a gate does not pass what it did not check (issue 33 item 4): when
  --max-flows kept connections or packets from the analysis and nothing
  matched, exit 3 (0 with --allow-unanalysed), the doctor's text and JSON
  totals say what was not checked; a match still exits 1.

Usage: doctor_cli.py IWARPSCOPE SAMPLES-DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hostile"))
import mkhostile as mk  # noqa: E402

ERRS = []


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect_status(cli, args, want, why):
    rc, _, err = run([cli] + args)
    if rc != want:
        ERRS.append("%s: exit %d, expected %d (%s) %s" % (" ".join(args), rc, want, why, err.strip()[-200:]))


def held_open_and_orphan(path, held, orphan_first=False):
    """held well-behaved QPs that stay open (a Send each, no FIN) and one QP
    that breaks an error rule (rdmap.orphan_response: a Read Response no one
    asked for), after them or before them."""
    p = mk.Pcap(path)

    def orphan():
        bad = mk.Conn(p, 50000, src=[10, 3, 0, 1])
        bad.s2c(mk.fpdu(mk.read_resp(0xDEAD, 0, b"r" * 16)))
    if orphan_first:
        orphan()
    for i in range(held):
        c = mk.Conn(p, 1024 + i % 60000, src=[10, 2, (i >> 8) & 0xFF, i & 0xFF])
        c.c2s(mk.fpdu(mk.send_ulpdu(1, b"hello")), 10)
    if not orphan_first:
        orphan()
    p.close()


def request_then_orphan(path):
    """A connection that has shown only its MPA Request when a second one
    starts (--max-flows 1 gives it up), then its Reply and an orphan Read
    Response: ignored, so not checked, though no connection went unanalysed."""
    p = mk.Pcap(path)
    a = mk.Conn(p, 50000, src=[10, 3, 0, 1], reply=False)
    other = mk.Conn(p, 50001, src=[10, 3, 0, 2])
    other.c2s(mk.fpdu(mk.send_ulpdu(1, b"hello")))
    a.s2c(mk.MPA_REP)
    a.s2c(mk.fpdu(mk.read_resp(0xDEAD, 0, b"r" * 16)))
    p.close()


def check_gate(cli, work):
    """--fail-on as a gate over what --max-flows left out (issue 33 item 4)."""
    # The capture: 40,000 QPs held open at the default 32768, and
    # the one that breaks a rule among the 7,233 never analysed.
    big = os.path.join(work, "held-40000.pcap")
    held_open_and_orphan(big, 40000)
    rc, out, err = run([cli, "doctor", "--fail-on", "error", big])
    if rc != 3 or "7233 connections not analysed" not in out or "--allow-unanalysed" not in err:
        ERRS.append("40,000 QPs held open, the rule breaker not analysed: exit %d (want 3), "
                    "stdout ends %r, stderr %r" % (rc, out[-160:], err[-300:]))
    expect_status(cli, ["doctor", "--fail-on", "error", "--allow-unanalysed", big], 0, "accepted")
    expect_status(cli, ["doctor", "--fail-on", "error", "--max-flows", "40001", big], 1,
                  "every QP analysed: the rule breaker found")
    small = os.path.join(work, "held-3.pcap")
    held_open_and_orphan(small, 3)
    lim = ["--max-flows", "3"]
    expect_status(cli, ["doctor", "--fail-on", "error"] + lim + [small], 3, "the 4th QP not analysed")
    expect_status(cli, ["doctor", "--fail-on", "error", small], 1, "all 4 analysed")
    expect_status(cli, ["summary", "--fail-on", "crc"] + lim + [small], 3, "any gate, any command")
    expect_status(cli, ["stats", "--format", "json", "--fail-on", "gap", "--allow-unanalysed"] + lim + [small], 0,
                  "accepted with stats")
    expect_status(cli, ["doctor"] + lim + [small], 0, "no gate, no exit 3")
    _, js, _ = run([cli, "doctor", "--format", "json"] + lim + [small])
    tot = json.loads(js)["total"] if js else {}
    if tot.get("flows_not_analysed") != 1 or tot.get("packets_not_analysed") != 5:
        ERRS.append("doctor json total %s: want flows_not_analysed 1, packets_not_analysed 5" % tot)
    first = os.path.join(work, "orphan-first.pcap")
    held_open_and_orphan(first, 3, orphan_first=True)
    expect_status(cli, ["doctor", "--fail-on", "error"] + lim + [first], 1,
                  "a match is exit 1 even with a QP not analysed")
    given_up = os.path.join(work, "given-up.pcap")
    request_then_orphan(given_up)
    rc, out, err = run([cli, "doctor", "--fail-on", "error", "--max-flows", "1", given_up])
    if rc != 3 or "0 connections not analysed, 2 packets ignored" not in out:
        ERRS.append("a connection given up with packets still to come: exit %d (want 3), stdout %r" %
                    (rc, out[-200:]))
    expect_status(cli, ["doctor", "--fail-on", "error", given_up], 1, "the late orphan, analysed")


def main(argv):
    cli, samples = argv[1], argv[2]
    real = lambda n: os.path.join(samples, "real", n + ".pcap")  # noqa: E731
    gen = lambda n: os.path.join(samples, "generated", n + ".pcap")  # noqa: E731
    # the killed server's Reads, captured from the start (27-kill-client-write_bw-tail starts
    # mid-stream: the operations in flight at its RST are not checked, issue 31)
    killed, bw, clean = gen("rst-outstanding"), real("08-read_bw-64k"), real("01-rping")

    expect_status(cli, ["doctor", "--fail-on", "error", killed], 1, "RST with Reads outstanding")
    expect_status(cli, ["doctor", "--fail-on", "error", bw], 0, "siw perftest has no error")
    expect_status(cli, ["doctor", "--fail-on", "framing.fpdu_split", bw], 1, "siw splits its Read Responses")
    expect_status(cli, ["doctor", "--fail-on", "mpa.reject,conn.rst_outstanding", bw], 0, "neither")
    expect_status(cli, ["doctor", "--fail-on", "deviation,performance", clean], 0, "rping is clean")
    expect_status(cli, ["summary", "--fail-on", "performance", bw], 1, "the doctor runs beside the summary")
    expect_status(cli, ["ops", "--format", "jsonl", "--fail-on", "rdmap.terminate", gen("terminate")], 1,
                  "Terminates")
    expect_status(cli, ["summary", bw], 0, "no --fail-on")
    expect_status(cli, ["summary", "--fail-on", "crc,gap", bw], 0, "the old conditions")
    expect_status(cli, ["doctor", "--fail-on", "crc", gen("crc-corrupt")], 1, "the old conditions, with doctor")
    expect_status(cli, ["doctor", "--fail-on", "mpa.nonesuch", bw], 2, "unknown rule")
    # an unset CI variable must not turn the gate off (issue 33 item 5)
    for empty in ("", ",", ",,"):
        expect_status(cli, ["doctor", "--fail-on", empty, killed], 2, "--fail-on %r names nothing" % empty)
        expect_status(cli, ["summary", "--fail-on=" + empty, bw], 2, "--fail-on=%r names nothing" % empty)
    expect_status(cli, ["doctor", "--format", "csv", bw], 2, "no csv")
    # a time window: the findings of its frames (tests/plugin/window_views.py
    # checks the counts); a window after the last frame has none
    expect_status(cli, ["doctor", "--since", "+1", bw], 0, "a time window")
    _, late, _ = run([cli, "doctor", "--format", "json", "--since", "+1000", bw])
    if any(q["findings"] for q in json.loads(late)["qps"]):
        ERRS.append("doctor --since +1000: findings in a window after the capture")
    expect_status(cli, ["summary", "--rules", bw], 2, "--rules is the doctor's")

    # the three formats say the same
    for cap in (bw, gen("terminate"), gen("segmentation")):
        _, text, _ = run([cli, "doctor", cap])
        _, js, _ = run([cli, "doctor", "--format", "json", cap])
        _, jl, _ = run([cli, "doctor", "--format", "jsonl", cap])
        doc = json.loads(js)
        rows = [json.loads(line) for line in jl.splitlines()]
        from_json = [dict(f, qp=q["qp"]) for q in doc["qps"] for f in q["findings"]]
        if sorted(json.dumps(r, sort_keys=True) for r in rows) != \
                sorted(json.dumps(r, sort_keys=True) for r in from_json):
            ERRS.append("%s: json and jsonl findings differ" % cap)
        sev = {"error": 0, "deviation": 0, "performance": 0}
        for r in rows:
            sev[r["severity"]] += 1
        tot = doc["total"]
        if any(tot[k] != v for k, v in sev.items()) or tot["qps"] != len(doc["qps"]) or \
                tot["qps_with_findings"] != sum(1 for q in doc["qps"] if q["findings"]):
            ERRS.append("%s: json totals %s do not count the findings %s" % (cap, tot, sev))
        for r in rows:
            line = [x for x in text.splitlines() if (" %s " % r["rule"]) in x and (" %s " % r["dir"]) in x]
            if not any(" %d" % r["count"] in x and "frames %d..%d" % (r["first_frame"], r["last_frame"]) in x
                       for x in line):
                ERRS.append("%s: text has no line for %s %s %d" % (cap, r["rule"], r["dir"], r["count"]))
        if not text.splitlines()[-1].startswith("%d QP" % len(doc["qps"])):
            ERRS.append("%s: text total line %r" % (cap, text.splitlines()[-1]))

    with tempfile.TemporaryDirectory(prefix="doctor-gate-") as work:
        check_gate(cli, work)

    # --qp
    _, js, _ = run([cli, "doctor", "--format", "json", "--qp", "1", bw])
    if [q["qp"] for q in json.loads(js)["qps"]] != [1]:
        ERRS.append("--qp 1 gives QPs %s" % [q["qp"] for q in json.loads(js)["qps"]])

    # the catalogue
    rc, js, _ = run([cli, "doctor", "--rules", "--format", "json"])
    rules = json.loads(js) if rc == 0 else []
    ids = [r["id"] for r in rules]
    if rc or len(ids) < 35 or len(set(ids)) != len(ids):
        ERRS.append("doctor --rules --format json: %d rules, %d distinct (exit %d)" % (len(ids), len(set(ids)), rc))
    for r in rules:
        if r["severity"] not in ("error", "deviation", "performance") or not r["ref"] or not r["meaning"]:
            ERRS.append("rule %s incomplete: %s" % (r.get("id"), r))
    rc, text, _ = run([cli, "doctor", "--rules"])
    missing = [i for i in ids if i not in text]
    if rc or missing:
        ERRS.append("doctor --rules (text) lacks %s" % missing)

    for e in ERRS:
        print("FAIL:", e)
    print("%d failure(s)" % len(ERRS))
    return 1 if ERRS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
