#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layers stay layers (issue 25 item 4), read from the #include lines:

- core/ and include/iwarpscope/ (the pure-C core: no I/O, no printing, no
  front end) include no Wireshark (epan, wsutil, wiretap, ws_*), libpcap or
  GLib header, and no header of cli/ or plugin/;
- every file of cli/ is in one of the folders of CLI_LINKS, and includes
  only headers of its own folder and of the folders below it (those it
  links, directly or through them); the table is the one the build
  enforces (cli/*/CMakeLists.txt, checked here against it), and a header
  name is in one cli folder only, and a header named *_int.h (a folder's
  internals, such as cli/input/points_int.h) is included only in its folder;
- no header of core/, include/, cli/ or plugin/ includes, directly or
  through others, a header that includes it back (an include cycle).

A quoted include is looked for beside the including file, then in include/
and, for a file of cli/, in the cli folders (the build's include path), as
the compiler does; one that is found nowhere in the tree is a system header
for the first rule.

Usage: layering.py [SOURCE_ROOT]   (default: this checkout)
Exit: 0 clean, 1 a violation (each printed with file and line).
"""
import os
import re
import sys

CORE_DIRS = ["core", "include/iwarpscope"]
GRAPH_DIRS = ["core", "include", "cli", "plugin"]
FOREIGN = re.compile(r"^(epan|wsutil|wiretap|ui|ws_[a-z_]+\.h|wireshark|config\.h$|pcap|glib|gmodule|gio|gobject)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# The cli/ folders, bottom up, and the folders each one's library links
# (target_link_libraries(iwscli_<folder> PUBLIC iwscli_<below>...)): a folder
# may include its own headers and those of every folder it reaches here.
CLI_LINKS = {
    "common": [],
    "json": ["common"],
    "input": ["common"],
    "track": ["input"],
    "output": ["track", "json"],
    "merge": ["output"],
    "cmd": ["output", "merge"],
}
LINK = re.compile(r"target_link_libraries\(\s*iwscli_(\w+)\s+PUBLIC([^)]*)\)")


def sources(root, dirs):
    for d in dirs:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(dirpath, f)


def includes(path):
    """[(line number, '<' or '"', name)] of a file's #include lines."""
    out = []
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                out.append((n, m.group(1), m.group(2)))
    return out


def cli_folder(root, path):
    """The cli/ folder a file is in ('' directly in cli/), or None."""
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[0] != "cli":
        return None
    return rel[1] if len(rel) > 2 else ""


def cli_reach(folder):
    """The folders a cli folder may include: itself and all it links."""
    seen, todo = {folder}, [folder]
    while todo:
        for d in CLI_LINKS.get(todo.pop(), []):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def resolve(root, path, kind, name):
    """The file in the tree an include names, or None (a system header)."""
    cands = [os.path.join(root, "include", name)]
    if cli_folder(root, path) is not None:
        cands += [os.path.join(root, "cli", d, name) for d in CLI_LINKS]
    if kind == '"':
        cands.insert(0, os.path.join(os.path.dirname(path), name))
    for c in cands:
        if os.path.isfile(c):
            return os.path.normpath(c)
    return None


def check_core(root):
    errs = []
    for path in sources(root, CORE_DIRS):
        rel = os.path.relpath(path, root)
        for n, kind, name in includes(path):
            target = resolve(root, path, kind, name)
            if target is None:
                if FOREIGN.match(name):
                    errs.append("%s:%d: the core includes %s (Wireshark, libpcap or GLib)" % (rel, n, kind + name + (">" if kind == "<" else kind)))
                continue
            trel = os.path.relpath(target, root)
            if trel.split(os.sep)[0] in ("cli", "plugin"):
                errs.append("%s:%d: the core includes %s, a front end's header" % (rel, n, trel))
    return errs


def check_cli(root):
    errs = []
    # the table mirrors the build's
    for d, below in sorted(CLI_LINKS.items()):
        cm = os.path.join(root, "cli", d, "CMakeLists.txt")
        links = []
        if os.path.isfile(cm):
            with open(cm) as f:
                for m in LINK.finditer(f.read()):
                    if m.group(1) == d:
                        links += re.findall(r"\biwscli_(\w+)", m.group(2))
        if sorted(links) != sorted(below):
            errs.append("cli/%s/CMakeLists.txt: iwscli_%s links %s, the table says %s" %
                        (d, d, ", ".join(sorted(links)) or "no cli folder", ", ".join(sorted(below)) or "none"))
    owner, nfiles = {}, 0
    for path in sources(root, ["cli"]):
        nfiles += 1
        rel = os.path.relpath(path, root)
        folder = cli_folder(root, path)
        if folder not in CLI_LINKS:
            errs.append("%s: not in a cli folder of the layering table (%s)" % (rel, ", ".join(CLI_LINKS)))
            continue
        base = os.path.basename(path)
        if base.endswith(".h"):
            if base in owner:
                errs.append("%s: the name of %s (one cli folder per header name)" % (rel, owner[base]))
            owner.setdefault(base, rel)
        reach = cli_reach(folder)
        for n, kind, name in includes(path):
            target = resolve(root, path, kind, name)
            if target is None:
                continue
            tfolder = cli_folder(root, target)
            if tfolder is not None and tfolder != folder and os.path.basename(target).endswith("_int.h"):
                errs.append("%s:%d: cli/%s includes %s, private to cli/%s" %
                            (rel, n, folder, os.path.relpath(target, root), tfolder))
            elif tfolder is not None and tfolder not in reach:
                errs.append("%s:%d: cli/%s includes %s, of cli/%s (it may include %s)" %
                            (rel, n, folder, os.path.relpath(target, root), tfolder,
                             ", ".join(d for d in CLI_LINKS if d in reach)))
    return errs, nfiles


def check_cycles(root):
    graph = {}
    for path in sources(root, GRAPH_DIRS):
        p = os.path.normpath(path)
        graph.setdefault(p, [])
        for n, kind, name in includes(path):
            t = resolve(root, path, kind, name)
            if t is not None:
                graph[p].append((t, n))
    errs, state, stack = [], {}, []

    def visit(u):
        # depth first; a grey node met again closes a cycle
        state[u] = 1
        stack.append(u)
        for v, n in graph.get(u, []):
            if state.get(v) == 1:
                cyc = stack[stack.index(v):] + [v]
                errs.append("include cycle: " + " -> ".join(os.path.relpath(x, root) for x in cyc))
            elif v not in state:
                visit(v)
        stack.pop()
        state[u] = 2
    for u in sorted(graph):
        if u not in state:
            visit(u)
    return errs, len(graph), sum(len(v) for v in graph.values())


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    core_files = list(sources(root, CORE_DIRS))
    if not core_files:
        print("FAIL: no core sources under %s" % root)
        return 1
    errs = check_core(root)
    cli_errs, ncli = check_cli(root)
    errs += cli_errs
    cyc, nfiles, nedges = check_cycles(root)
    errs += cyc
    for e in errs:
        print("FAIL: " + e)
    print("%d core files read for Wireshark, libpcap, GLib and front-end headers; %d cli files against the "
          "folder table (%d folders); %d files, %d project includes read for cycles; %d violation(s), %d of them "
          "cycles" % (len(core_files), ncli, len(CLI_LINKS), nfiles, nedges, len(errs), len(cyc)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
