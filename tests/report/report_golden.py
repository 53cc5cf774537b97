#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test of the HTML report's data: what the page draws (its iws-data
JSON block, cli/output/out_html.c), not its pixels, equals the expected file.

Usage: report_golden.py [--update] TOOL ROOT SAMPLE EXPECTED WORKDIR
  SAMPLE    capture path relative to ROOT (the source tree)
With --update the expected file is (re)written (tests/golden/update.sh).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from checklib import golden  # noqa: E402
from reportlib import dumps, page_data, report, sample_name  # noqa: E402


def main(argv):
    update = len(argv) > 1 and argv[1] == "--update"
    if update:
        argv = argv[1:]
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    tool, root, sample, expected, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    got = dumps(page_data(report(tool, root, sample, os.path.join(work, sample_name(sample) + ".html")))) + "\n"
    return golden(got, expected, update, "report")

if __name__ == "__main__":
    sys.exit(main(sys.argv))
