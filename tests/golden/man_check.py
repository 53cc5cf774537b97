#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/iwarpscope.1 documents every command and option that `iwarpscope --help`
lists, every output format, and every --fail-on condition.

Usage: man_check.py IWARPSCOPE MANPAGE
"""
import re
import subprocess
import sys


def main(argv):
    tool, man = argv[1], argv[2]
    help_text = subprocess.run([tool, "--help"], stdout=subprocess.PIPE, check=True).stdout.decode()
    with open(man) as f:
        page = f.read().replace("\\-", "-").replace("\\fR", "").replace("\\fP", "")
    words = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", help_text))
    words |= {"summary", "ops", "stats", "fpdus", "nvme", "report", "merge", "text", "json", "jsonl",
              "csv", "sketch", "source"}
    words |= {"crc", "gap", "terminate", "incomplete", "damaged", "malformed", "all"}
    missing = sorted(w for w in words if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(w), page))
    for w in missing:
        print("FAIL: %s is not documented in %s" % (w, man))
    print("%d option(s)/word(s) checked, %d missing" % (len(words), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
