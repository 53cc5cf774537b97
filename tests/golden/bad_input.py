#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad input: every error path of the CLI contract.

Unreadable or non-capture input: exit 2, nothing on stdout, exactly one line on
stderr naming the file. Damaged packets and truncated files: counted, reported,
and everything decodable still reported (exit 0 unless --fail-on asks otherwise).

Usage: bad_input.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcaptool  # noqa: E402

from checklib import check, verdict  # noqa: E402


def run(tool, args, stdin=None):
    p = subprocess.run([tool] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def unreadable(tool, path, what):
    for cmd in (["summary"], ["ops", "--format", "jsonl"], ["stats", "--format", "json"]):
        rc, out, err = run(tool, cmd + [path])
        lines = err.strip().splitlines()
        check(rc == 2, "%s (%s): exit 2, got %d" % (what, cmd[0], rc))
        check(out == "", "%s (%s): nothing on stdout" % (what, cmd[0]))
        check(len(lines) == 1 and lines[0].startswith("iwarpscope: "),
              "%s (%s): one 'iwarpscope: ...' line on stderr, got %r" % (what, cmd[0], err))
        check(os.path.basename(path) in err or path == "-",
              "%s (%s): the message names the file: %r" % (what, cmd[0], err))


def jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def main(argv):
    tool, samples, work = argv[1:4]
    os.makedirs(work, exist_ok=True)
    rping = os.path.join(samples, "real", "01-rping.pcap")
    w = lambda name: os.path.join(work, name)  # noqa: E731

    # --- unreadable input: exit 2 and one line ---
    with open(w("not-a-capture.txt"), "w") as f:
        f.write("this is plain text, not a capture file\n" * 20)
    unreadable(tool, w("not-a-capture.txt"), "non-pcap file")
    open(w("empty.pcap"), "w").close()
    unreadable(tool, w("empty.pcap"), "empty file")
    os.makedirs(w("a-directory.pcap"), exist_ok=True)
    unreadable(tool, w("a-directory.pcap"), "directory")
    unreadable(tool, w("does-not-exist.pcap"), "nonexistent file")
    with open(rping, "rb") as f:
        head = f.read(12)
    with open(w("cut-in-header.pcap"), "wb") as f:
        f.write(head)
    unreadable(tool, w("cut-in-header.pcap"), "file cut inside the pcap header")
    # one unreadable file among good ones: nothing is analysed
    rc, out, err = run(tool, ["summary", rping, w("empty.pcap")])
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1,
          "a bad file among good ones: exit 2 before any output")
    # stdin that is not a capture
    rc, out, err = run(tool, ["summary", "-"], stdin=b"garbage" * 100)
    check(rc == 2 and out == "" and "stdin" in err, "garbage on stdin: exit 2 naming stdin")

    # --- usage errors: exit 2 ---
    for args in (["--no-such-option", rping], ["summary"], ["summary", "--format", "csv", rping],
                 ["report", "--format", "json", rping], ["stats", "--interval", "0", rping],
                 ["ops", "--op", "frobnicate", rping], ["ops", "--since", "yesterday", rping],
                 ["ops", "--since", "9999-01-01 00:00:00", rping], ["ops", "--until", "+99999999999", rping],
                 ["--max-flows", "0", rping], ["--max-reasm", "1Q", rping],
                 ["-f", "tcp port (", rping], ["--fail-on", "everything", rping]):
        rc, out, err = run(tool, args)
        check(rc == 2 and out == "" and err.startswith("iwarpscope: "),
              "usage error %r: exit 2 with a message (got %d %r)" % (args, rc, err))
    rc, out, _ = run(tool, ["--help"])
    check(rc == 0 and "Usage:" in out, "--help: exit 0 with the usage")
    rc, out, _ = run(tool, ["--version"])
    check(rc == 0 and out.startswith("iwarpscope "), "--version: exit 0")

    full_ops = jsonl(run(tool, ["ops", "--format", "jsonl", rping])[1])
    check(len(full_ops) == 60, "01-rping has 60 operations")

    # --- a file cut in the middle of a record ---
    p = pcaptool.read(rping)
    size = pcaptool.write(w("cut-mid-record.pcap"), p)
    offs, off = [], 24
    for r in p.records:
        offs.append(off)
        off += 16 + len(r[3])
    cut = offs[50] + 16 + 20          # inside the data of record 51
    pcaptool.write(w("cut-mid-record.pcap"), p, cut_at=cut)
    check(cut < size, "truncation point inside the file")
    rc, out, err = run(tool, ["summary", w("cut-mid-record.pcap")])
    check(rc == 0, "truncated file: exit 0 (got %d)" % rc)
    check("file ends inside a record" in out, "truncated file: reported in the summary")
    rc, out, err = run(tool, ["ops", "--format", "jsonl", w("cut-mid-record.pcap")])
    got = jsonl(out)
    check(rc == 0 and "file ends inside a record" in err, "truncated file: ops warns on stderr")
    # Everything that ended before the cut is reported exactly as in the full
    # file, but for an acknowledgement that came after the cut.
    def upto_cut(o):
        o = dict(o)
        if o["ack_frame"] is not None and o["ack_frame"] > 50:
            o["ack_frame"] = o["ack_ns"] = None
            o["ack_with_data"] = False
        return o
    before = [upto_cut(o) for o in full_ops if o["last_frame"] <= 50]
    check(len(before) > 20 and [o for o in got if o["last_frame"] <= 50] == before,
          "truncated file: every operation before the cut still reported")
    check(any(o["ack_frame"] for o in got), "truncated file: ACKs before the cut still found")
    rc, _, _ = run(tool, ["summary", "--fail-on", "damaged", w("cut-mid-record.pcap")])
    check(rc == 1, "truncated file: --fail-on damaged exits 1 (got %d)" % rc)
    rc, _, _ = run(tool, ["summary", "--fail-on", "damaged", rping])
    check(rc == 0, "intact file: --fail-on damaged exits 0 (got %d)" % rc)

    # --- every packet cut by a 100-octet snapshot length ---
    # Ethernet 14 + IPv4 20 + TCP 32 (timestamps) leave 34 octets of TCP payload:
    # the MPA length (2), the DDP header (14 or 18) and, for a Read Request, the
    # sink STag and TO that tie the Read Responses to it (12 more), but not the
    # payload. Operations are still found and counted with their full sizes,
    # complete, with their latencies, marked truncated (payload not captured).
    pcaptool.write(w("snap100.pcap"), pcaptool.snap(p, 100))
    rc, out, err = run(tool, ["summary", w("snap100.pcap")])
    check(rc == 0 and "cut by the snapshot length" in out, "snaplen 100: reported, exit 0")
    got = jsonl(run(tool, ["ops", "--format", "jsonl", w("snap100.pcap")])[1])
    key = lambda o: (o["qp"], o["op"], o["first_frame"], o["bytes"], o["segments"])  # noqa: E731
    check([key(o) for o in got] == [key(o) for o in full_ops],
          "snaplen 100: the same operations with their full sizes")
    check(all(o["complete"] and not o["payload_captured"] and "truncated" in o["flags"]
              for o in got if o["bytes"] > 34),
          "snaplen 100: operations whose payload was cut are complete, marked truncated")
    check([o["latency_ns"] for o in got] == [o["latency_ns"] for o in full_ops],
          "snaplen 100: every latency as in the full capture")
    rc, _, _ = run(tool, ["summary", "--fail-on", "damaged", w("snap100.pcap")])
    check(rc == 1, "snaplen 100: --fail-on damaged exits 1")
    # Shorter still (96: 30 octets, the Read Request's sink TO cut): every FPDU is
    # still counted (rping: 10 x (Read Request, Read Response, Write, 4 Sends) =
    # 70), and the Reads are matched to their responses by order (RFC 5040
    # 5.2.1): the same 60 operations, complete, with the same latencies.
    pcaptool.write(w("snap96.pcap"), pcaptool.snap(p, 96))
    rc, out, err = run(tool, ["stats", "--format", "json", w("snap96.pcap")])
    q = json.loads(out)["qps"][0] if rc == 0 else {}
    check(rc == 0 and q.get("fpdus") == 70 and q.get("operations") == 60 and
          q.get("incomplete") == 0, "snaplen 96: all 70 FPDUs, 60 operations, all complete")
    got = jsonl(run(tool, ["ops", "--format", "jsonl", w("snap96.pcap")])[1])
    check([(key(o), o["latency_ns"]) for o in got] == [(key(o), o["latency_ns"]) for o in full_ops],
          "snaplen 96: the same operations and latencies as the full capture")
    check(all(o["read_size"] is None for o in got if o["op"] == "read"),
          "snaplen 96: the Read Requests' sizes were cut: null, not zero")

    # --- a damaged packet: a record cut inside its IP header ---
    recs = list(p.records)
    s, fr, o, d = recs[29]
    recs[29] = (s, fr, o, d[:24])
    pcaptool.write(w("damaged-packet.pcap"), pcaptool.Pcap(p.magic, p.snaplen, p.linktype, recs))
    rc, out, err = run(tool, ["summary", w("damaged-packet.pcap")])
    check(rc == 0 and "1 damaged packet (first: frame 30" in out,
          "damaged packet: counted and reported with its frame (got %r)" % out[:400])
    got = jsonl(run(tool, ["ops", "--format", "jsonl", w("damaged-packet.pcap")])[1])
    check(len(got) >= 55, "damaged packet: the rest still decoded (%d ops)" % len(got))
    stats = json.loads(run(tool, ["stats", "--format", "json", w("damaged-packet.pcap")])[1])
    check(stats["capture"]["truncated_headers"] == 1, "damaged packet: counted in stats")
    check(stats["qps"][0]["gaps"] == 1, "damaged packet: its data is a gap in the stream")

    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
