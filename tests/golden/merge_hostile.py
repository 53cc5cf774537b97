#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile inputs for `iwarpscope merge` (issue 17 item 6): each is refused with
exit status 2 and one clear line on stderr (or, where it is valid, merged),
in bounded time, and never crashes (sanitizer reports count as failures).

Usage: merge_hostile.py IWARPSCOPE SAMPLES_DIR WORK_DIR
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import check, run_ok, verdict  # noqa: E402

SECONDS = 20


def bucket_of(v):
    """The sketch's bucket of v (core/stats.c, sub_bits 9)."""
    if v < 512:
        return v
    shift = v.bit_length() - 9
    return 512 + (shift - 1) * 256 + (v >> shift) - 256


def lat(count, mn, mx, buckets, sum_=None, v=1, sub=9):
    return {"count": count, "min": mn, "max": mx, "mean": mn, "p50": mn, "p90": mx, "p99": mx,
            "p999": mx, "exact": False,
            "sketch": {"v": v, "sub_bits": sub, "sum": mn * count if sum_ is None else sum_,
                       "buckets": buckets}}


def doc(total_ops=None, qps=None, **extra):
    d = {"capture": {"files": ["x.pcap"], "frames": 1}, "qps": qps or [],
         "total": {"qps": 0, "ops": total_ops or {}}}
    d.update(extra)
    return d


def keys_of(o):
    """Every member name in a JSON document."""
    if isinstance(o, dict):
        return set(o) | set().union(*(keys_of(v) for v in o.values()))
    if isinstance(o, list):
        return set().union(*(keys_of(v) for v in o)) if o else set()
    return set()


def mutated(o, key, mutate):
    """A copy of o with mutate(obj, key) applied to every object holding key."""
    if isinstance(o, dict):
        c = {k: mutated(v, key, mutate) for k, v in o.items()}
        if key in c:
            mutate(c, key)
        return c
    if isinstance(o, list):
        return [mutated(v, key, mutate) for v in o]
    return o


def run(tool, args, stdin=None):
    t0 = time.monotonic()
    try:
        p = subprocess.run([tool, "merge"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           input=stdin, timeout=SECONDS)
    except subprocess.TimeoutExpired:
        return None, b"", "timeout", SECONDS
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), time.monotonic() - t0


def main(argv):
    tool, samples, work = argv[1], argv[2], argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    good = os.path.join(work, "good.json")
    with open(good, "w") as f:
        f.write(run_ok(tool, ["stats", "--format", "json",
                              os.path.join(samples, "real", "05-read_lat.pcap")]))
    with open(good, "rb") as f:
        text = f.read()
    rng = random.Random(17)
    big_bucket = lat(3 * 10**9, 1000, 1000, [bucket_of(1000), 3 * 10**9])
    cases = [
        # name, content (bytes), expected exit status, a word the message must hold
        ("empty", b"", 2, "empty"),
        ("spaces", b" \n\t ", 2, "not valid JSON"),
        ("cut10", text[:len(text) // 10], 2, "not valid JSON"),
        ("cut50", text[:len(text) // 2], 2, "not valid JSON"),
        ("cut-last", text[:-2], 2, "not valid JSON"),
        ("garbage", bytes(rng.randrange(256) for _ in range(1 << 20)), 2, "not valid JSON"),
        ("deep", b"[" * 1000000, 2, "nested deeper"),
        ("deep-object", b'{"a":' * 100000, 2, "nested deeper"),
        ("bom", b"\xef\xbb\xbf" + text, 2, "not valid JSON"),
        ("nul", text[:100] + b"\0" + text[100:], 2, "not valid JSON"),
        ("bad-utf8", json.dumps(doc()).replace('"x.pcap"', '"x\xff.pcap"').encode("latin-1"), 2,
         "UTF-8"),
        ("u0000", json.dumps(doc()).replace('"x.pcap"', '"x\\u0000"').encode(), 2, "u0000"),
        ("lone-surrogate", json.dumps(doc()).replace('"x.pcap"', '"\\ud800"').encode(), 2,
         "surrogate"),
        ("array", b"[1, 2, 3]", 2, "not the output"),
        ("no-total", json.dumps({"qps": []}).encode(), 2, "not the output"),
        ("qp-no-number", json.dumps(doc(qps=[{"qp": "one"}])).encode(), 2, "qp"),
        ("qp-not-object", json.dumps(doc(qps=[7])).encode(), 2, "qp"),
        ("many-keys", json.dumps(doc(**{"capture": {"k%d" % i: i for i in range(100000)}})).encode(),
         2, "members"),
        ("many-groups", json.dumps(doc(total_ops=None, **{"total": {"nvme": {"ops": [
            {"qid": i, "op": "read", "count": 1} for i in range(70000)]}}})).encode(), 2, "entries"),
        ("float-count", json.dumps(doc(**{"total": {"bytes": 1.5}})).encode(), 2, "integer"),
        ("huge-count", b'{"qps": [], "total": {"bytes": 1' + b"0" * 400 + b"}}", 2, "integer"),
        ("sketch-v2", json.dumps(doc({"read": {"latency_ns": lat(1, 5, 5, [5, 1], v=2)}})).encode(),
         2, "version 2"),
        ("sketch-layout", json.dumps(doc({"read": {"latency_ns": lat(1, 5, 5, [5, 1], sub=7)}})).encode(),
         2, "bucket parameters"),
        ("sketch-missing", json.dumps(doc({"read": {"latency_ns": {"count": 1, "min": 5, "max": 5,
                                                                    "p50": 5}}})).encode(), 2, "no sketch"),
        ("sketch-lies", json.dumps(doc({"read": {"latency_ns": lat(3, 5, 5, [5, 1])}})).encode(), 2,
         "disagree"),
        ("sketch-range", json.dumps(doc({"read": {"latency_ns": lat(1, 5, 5, [10**9, 1])}})).encode(),
         2, "out of range"),
        ("long-array", json.dumps(doc(**{"capture": {"warnings": list(range(1000000))}})).encode(),
         0, ""),
    ]
    for name, content, want, word in cases:
        path = os.path.join(work, name + ".json")
        with open(path, "wb") as f:
            f.write(content)
        # the hostile file second: a good file before it must not matter
        args = [good, path] if want == 2 else ["--format", "json", path]
        rc, out, err, took = run(tool, args)
        where = "%s: exit %s, %.1f s, %r" % (name, rc, took, err[:200])
        sane = "Sanitizer" not in err and "runtime error" not in err
        if want == 2:
            check(rc == 2 and not out and sane and err.startswith("iwarpscope merge: ") and
                  err.count("\n") == 1 and name + ".json" in err and word in err, where)
        else:
            check(rc == 0 and sane and json.loads(out)["qps"] == [], where)
        print("%-16s exit %s in %.2f s: %s" % (name, rc, took, err.strip()[:110]))

    # every member missing, or of the wrong type, in turn: merged or refused, never a crash.
    # The NVMe sample's groups have string members ("op") that the text tables print.
    nvme = json.loads(run_ok(tool, ["stats", "--format", "json",
                                    os.path.join(samples, "real", "30-nvmeof-mixed.pcap")]))
    keys = sorted(keys_of(nvme))
    shapes = 0
    for key in keys:
        for how, mutate in (("without", lambda o, k: o.pop(k)), ("null", lambda o, k: o.update({k: None})),
                            ("list", lambda o, k: o.update({k: []}))):
            # in the QPs only (the total still has it) and everywhere
            for where in ("qps", "all"):
                if where == "qps":
                    shaped = dict(nvme, qps=mutated(nvme["qps"], key, mutate))
                else:
                    shaped = mutated(nvme, key, mutate)
                path = os.path.join(work, "shape.json")
                with open(path, "w") as f:
                    json.dump(shaped, f)
                for fmt in ("text", "json"):
                    rc, out, err, took = run(tool, ["--format", fmt, path, path])
                    sane = "Sanitizer" not in err and "runtime error" not in err
                    check(rc in (0, 2) and sane and took < SECONDS,
                          "%s %s in %s, %s: exit %s %r" % (how, key, where, fmt, rc, err[-300:]))
                    shapes += 1
    check(shapes >= 12 * 40, "the NVMe stats have %d keys" % len(keys))
    print("%-16s %d merges of %d keys removed, null or a list: no crash" % ("shapes", shapes, len(keys)))

    # two buckets that overflow only once merged
    a = os.path.join(work, "big-a.json")
    with open(a, "w") as f:
        json.dump(doc({"read": {"latency_ns": big_bucket}}), f)
    rc, out, err, took = run(tool, [a, a])
    check(rc == 2 and "2^32-1" in err, "merged bucket overflow: exit %s %r" % (rc, err))
    print("%-16s exit %s in %.2f s: %s" % ("bucket-overflow", rc, took, err.strip()[:110]))
    # usage: stdin twice, no input, a directory
    for args, word in ((["-", "-"], "stdin"), ([], "no input"), ([work], work)):
        rc, out, err, took = run(tool, args, stdin=b"")
        check(rc == 2 and word in err, "%s: exit %s %r" % (args, rc, err))
    # stdin works once
    rc, out, err, took = run(tool, ["--format", "json", "-", good], stdin=text)
    check(rc == 0 and len(json.loads(out)["qps"]) == 4, "stdin + file: exit %s %r" % (rc, err))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print("peak RSS of a merge: %d MiB" % (peak // 1024))
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
