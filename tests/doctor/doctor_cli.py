#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iwarpscope doctor` as a CI gate and as a document:

- --fail-on takes rule ids and severities (exit 1 when one is broken, 0
  when not), with the doctor command and beside any other command; an
  unknown word, or a list that names nothing ("", ","), is a usage error
  (2); the old conditions still work;
- text, json and jsonl carry the same findings; json's totals count them
  per severity; --qp selects QPs; --since/--until and csv are refused;
- --rules lists the whole catalogue (text and json), no capture needed.

Usage: doctor_cli.py IWARPSCOPE SAMPLES-DIR
"""
import json
import os
import subprocess
import sys

ERRS = []


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect_status(cli, args, want, why):
    rc, _, err = run([cli] + args)
    if rc != want:
        ERRS.append("%s: exit %d, expected %d (%s) %s" % (" ".join(args), rc, want, why, err.strip()[-200:]))


def main(argv):
    cli, samples = argv[1], argv[2]
    real = lambda n: os.path.join(samples, "real", n + ".pcap")  # noqa: E731
    gen = lambda n: os.path.join(samples, "generated", n + ".pcap")  # noqa: E731
    killed, bw, clean = real("27-kill-client-write_bw-tail"), real("08-read_bw-64k"), real("01-rping")

    expect_status(cli, ["doctor", "--fail-on", "error", killed], 1, "RST with a Write outstanding")
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
    expect_status(cli, ["doctor", "--since", "+1", bw], 2, "findings are per connection")
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
