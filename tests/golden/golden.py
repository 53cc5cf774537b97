#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test: run iwarpscope on a sample and compare stdout with the expected file.

Usage: golden.py [--update] TOOL ROOT SAMPLE KIND EXPECTED
  TOOL      the iwarpscope binary
  ROOT      the source tree (the command runs there, so paths in the output are
            relative: samples/real/01-rping.pcap)
  SAMPLE    capture path relative to ROOT
  KIND      summary | ops | stats | stats-text | nvme | nvme-text | rpc | rpc-text (see KINDS)
  EXPECTED  expected output file
With --update the expected file is (re)written instead (tests/golden/update.sh).
Runs with TZ=UTC so calendar times do not depend on the machine.
"""
import os
import subprocess
import sys

from checklib import golden

KINDS = {
    "summary": ["summary", "--no-progress"],
    "ops": ["ops", "--format", "jsonl"],
    "stats": ["stats", "--format", "json"],
    "stats-text": ["stats", "--format", "text"],
    "nvme": ["nvme", "--format", "jsonl"],
    "nvme-text": ["nvme", "--format", "text"],
    "rpc": ["rpc", "--format", "jsonl"],
    "rpc-text": ["rpc", "--format", "text"],
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
    return golden(p.stdout.decode(), expected, update, "iwarpscope")

if __name__ == "__main__":
    sys.exit(main(sys.argv))
