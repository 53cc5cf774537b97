#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test: run iwarpscope on a sample and compare stdout with the expected file.

Usage: golden.py [--update] TOOL ROOT SAMPLE KIND EXPECTED
  TOOL      the iwarpscope binary
  ROOT      the source tree (the command runs there, so paths in the output are
            relative: samples/real/01-rping.pcap)
  SAMPLE    capture path relative to ROOT
  KIND      summary | ops | stats | stats-text | nvme | nvme-text (see KINDS)
  EXPECTED  expected output file
With --update the expected file is (re)written instead (tests/golden/update.sh).
Runs with TZ=UTC so calendar times do not depend on the machine.
"""
import difflib
import os
import subprocess
import sys

KINDS = {
    "summary": ["summary", "--no-progress"],
    "ops": ["ops", "--format", "jsonl"],
    "stats": ["stats", "--format", "json"],
    "stats-text": ["stats", "--format", "text"],
    "nvme": ["nvme", "--format", "jsonl"],
    "nvme-text": ["nvme", "--format", "text"],
}


def main(argv):
    update = False
    if len(argv) > 1 and argv[1] == "--update":
        update = True
        argv = argv[1:]
    if len(argv) != 6 or argv[4] not in KINDS:
        print(__doc__, file=sys.stderr)
        return 2
    tool, root, sample, kind, expected = argv[1:]
    env = dict(os.environ, TZ="UTC", LC_ALL="C")
    p = subprocess.run([os.path.abspath(tool)] + KINDS[kind] + [sample], cwd=root,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        print("iwarpscope exited %d: %s" % (p.returncode, p.stderr.decode(errors="replace")))
        return 1
    got = p.stdout.decode()
    if update:
        os.makedirs(os.path.dirname(expected), exist_ok=True)
        with open(expected, "w") as f:
            f.write(got)
        return 0
    try:
        with open(expected) as f:
            want = f.read()
    except OSError as e:
        print("no expected output (%s): run tests/golden/update.sh" % e)
        return 1
    if got == want:
        return 0
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), expected, "iwarpscope",
                                     lineterm="", n=2))
    print("\n".join(diff[:80]))
    if len(diff) > 80:
        print("... %d more diff lines" % (len(diff) - 80))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
