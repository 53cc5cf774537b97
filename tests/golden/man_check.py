#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/iwarpscope.1 documents, each where a reader looks for it, what
`iwarpscope --help` lists: every command as an item of COMMANDS, every option
as the heading of an item of OPTIONS (or of COMMANDS), every output format in
the item of --format, every --fail-on condition in the item of --fail-on, and
the merge document's source and sketch in the item of merge, every exit
status as an item of EXIT STATUS. Each list comes
from --help, so a word found anywhere in the page ("all", "gap") proves
nothing (issue 25 item 5).

Usage: man_check.py IWARPSCOPE MANPAGE
"""
import re
import subprocess
import sys


def plain(line):
    """A man page line as read: no font escapes, \\- as -."""
    return re.sub(r"\\f[BIRP]", "", line.replace("\\-", "-")).replace('"', "")


def items(page):
    """{section: [(heading, bold)]} of the .TP items of each .SH section: the
    heading without its macro name, and the words the body sets in bold (.B
    WORD, the first of .BR/.BI): a name in the prose ("damaged headers") is not
    the item naming it."""
    out, section, cur = {}, None, None
    for line in page.splitlines():
        if line.startswith(".SH "):
            section, cur = line[4:].strip(), None
            continue
        if line.startswith((".SS", ".PP", ".P ", ".LP")):
            cur = None
            continue
        if line.startswith(".TP"):
            cur = [None, []]
            out.setdefault(section, []).append(cur)
            continue
        if cur is None:
            continue
        text = plain(re.sub(r"^\.[A-Z]+\s?", "", line))
        if cur[0] is None:
            cur[0] = text
        elif line.startswith(".B ") or (line.startswith((".BR ", ".BI ")) and text.split()):
            cur[1].append(text if line.startswith(".B ") else text.split()[0])
    return {s: [(h or "", " ".join(b)) for h, b in v] for s, v in out.items()}


def word_in(word, text):
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(word), text) is not None


def help_block(help_text, start, stop=r"^\s*$"):
    """The lines of help_text from the one matching start to the one before stop."""
    lines = help_text.splitlines()
    for i, l in enumerate(lines):
        if re.search(start, l):
            j = i + 1
            while j < len(lines) and not re.search(stop, lines[j]):
                j += 1
            return lines[i:j]
    return []


def main(argv):
    tool, man = argv[1], argv[2]
    help_text = subprocess.run([tool, "--help"], stdout=subprocess.PIPE, check=True).stdout.decode()
    page = open(man).read()
    sec = items(page)
    errors, checked = [], 0

    def need(ok, what):
        nonlocal checked
        checked += 1
        if not ok:
            errors.append(what)

    def item(section, word):
        """The bold words of the item of section whose heading names word, or None."""
        for h, b in sec.get(section, []):
            if word_in(word, h):
                return b
        return None

    commands = [m.group(1) for l in help_block(help_text, r"^Commands:")[1:]
                for m in [re.match(r"^  ([a-z]+)\s{2,}", l)] if m]
    need(len(commands) >= 5, "--help lists %d commands under Commands:" % len(commands))
    for c in commands:
        need(item("COMMANDS", c) is not None, "command %s has no item in COMMANDS" % c)

    options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", help_text)))
    headings = " ".join(h for s in ("OPTIONS", "COMMANDS") for h, _ in sec.get(s, []))
    for o in options:
        need(word_in(o, headings), "option %s heads no item of OPTIONS" % o)

    fmt = re.search(r"--format FMT\s+(.*?) \(", help_text)
    formats = re.findall(r"[a-z]+", fmt.group(1).replace(" or ", ", ")) if fmt else []
    need(len(formats) >= 3, "--help lists %d formats for --format" % len(formats))
    body = item("OPTIONS", "--format") or ""
    for f in formats:
        need(word_in(f, body), "format %s is not in the item of --format" % f)

    fail = " ".join(help_block(help_text, r"--fail-on", r"^\s+-"))
    # the named conditions: the list after "any of:" up to a ';' (doctor rules follow it)
    conditions = re.findall(r"[a-z]+", fail.split("any of:", 1)[1].split(";")[0]) if "any of:" in fail else []
    need(len(conditions) >= 5, "--help lists %d --fail-on conditions" % len(conditions))
    body = item("OPTIONS", "--fail-on") or ""
    for c in conditions:
        need(word_in(c, body), "--fail-on condition %s is not in the item of --fail-on" % c)

    # "Exit status: 0 ok, 1 --fail-on matched, 2 ..., 3 ...": each an item
    ex = " ".join(help_block(help_text, r"^Exit status:", r"^$"))
    statuses = re.findall(r"(?:: |, )(\d+) ", ex)
    need(len(statuses) >= 4, "--help lists %d exit statuses" % len(statuses))
    for st in statuses:
        need(any(h.strip() == st for h, _ in sec.get("EXIT STATUS", [])),
             "exit status %s has no item in EXIT STATUS" % st)

    body = item("COMMANDS", "merge") or ""
    for w in ("sources", "source", "sketch"):
        need(word_in(w, body), "the merge document's %s is not in the item of merge" % w)

    for e in errors:
        print("FAIL: %s (%s)" % (e, man))
    print("%d place(s) checked: %d command(s), %d option(s), %d format(s), %d --fail-on condition(s), "
          "%d exit status(es); %d missing" % (checked, len(commands), len(options), len(formats), len(conditions),
                                              len(statuses), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
