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
- the plugin (plugin/) includes no header of cli/, and cli/ none of plugin/:
  the two front ends share only the core; the plugin's statistics
  (iwarp-stats*.c) read finished results and never call the function that
  ends the analysis (STATS_MUST_NOT_CALL);
- no include names a path that climbs out of the including file's folder
  ("../x.h") or reaches into another folder ("track/conn.h"): a header of
  another layer comes through the include path, where the build decides what
  a layer may see (iwarpscope/x.h, the core's public headers, is that path);
- no header of core/, include/, cli/ or plugin/ includes, directly or
  through others, a header that includes it back (an include cycle);
- no unit includes, directly or through other units, a unit that includes
  it back: a unit is foo.c with foo.h and foo_int.h (include/iwarpscope/foo.h
  counts with core/foo.c), so a cycle hidden by splitting a unit's includes
  over two headers is still one.

Symbols are checked by tests/layering_nm.py (the built libraries' calls).

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


# what the plugin's statistics (iwarp-stats*.c) must not call
STATS_MUST_NOT_CALL = ["iwarp_sequential_pass_over"]


def calls(path, names):
    """(line, name) of each call of one of names outside comments."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    out = []
    for ln, line in enumerate(text.splitlines(), 1):
        for name in names:
            if re.search(r"\b%s\s*\(" % re.escape(name), line):
                out.append((ln, name))
    return out


def check_plugin(root):
    errs, n = [], 0
    # a header name of cli/ is one the plugin must not name, whatever include
    # path would find it (the plugin's build has none of cli/)
    cli_headers = {}
    for path in sources(root, ["cli"]):
        if path.endswith(".h"):
            cli_headers.setdefault(os.path.basename(path), os.path.relpath(path, root))
    for path in sources(root, ["plugin"]):
        n += 1
        rel = os.path.relpath(path, root)
        for ln, kind, name in includes(path):
            target = resolve(root, path, kind, name)
            if target is not None and os.path.relpath(target, root).split(os.sep)[0] == "cli":
                errs.append("%s:%d: the plugin includes %s, a header of the CLI" % (rel, ln, os.path.relpath(target, root)))
            elif target is None and os.path.basename(name) in cli_headers:
                errs.append("%s:%d: the plugin includes %s, a header of the CLI (%s)" %
                            (rel, ln, name, cli_headers[os.path.basename(name)]))
        # a statistic reads finished results: it never ends the analysis
        # (packet-iwarp-stream.c does, before any statistic is drawn)
        if os.path.basename(path).startswith("iwarp-stats"):
            for ln, call in calls(path, STATS_MUST_NOT_CALL):
                errs.append("%s:%d: a statistic calls %s, which drives the analysis" % (rel, ln, call))
    for path in sources(root, ["cli"]):
        rel = os.path.relpath(path, root)
        for ln, kind, name in includes(path):
            if os.path.isfile(os.path.join(root, "plugin", name)) and resolve(root, path, kind, name) is None or \
                    name.split("/")[0] == "plugin":
                errs.append("%s:%d: the CLI includes %s, a header of the plugin" % (rel, ln, name))
    return errs, n


def check_paths(root):
    """Quoted includes name a file beside the includer or on the include
    path (iwarpscope/...), never a climb (..) or another folder."""
    errs = []
    for path in sources(root, GRAPH_DIRS):
        rel = os.path.relpath(path, root)
        for ln, kind, name in includes(path):
            if kind != '"':
                continue
            parts = name.split("/")
            if ".." in parts:
                errs.append("%s:%d: relative include %s climbs out of its folder" % (rel, ln, name))
            elif len(parts) > 1 and parts[0] != "iwarpscope":
                errs.append("%s:%d: include %s reaches into another folder" % (rel, ln, name))
    return errs


def unit_of(root, path):
    """foo.c, foo.h and foo_int.h of one folder are one unit; the core's
    public header include/iwarpscope/foo.h belongs with core/foo.c."""
    d, b = os.path.split(os.path.relpath(path, root))
    if d == os.path.join("include", "iwarpscope"):
        d = "core"
    return os.path.join(d, re.sub(r"(_int)?\.[ch]$", "", b))


def check_unit_cycles(root):
    graph = {}
    for path in sources(root, GRAPH_DIRS):
        u = unit_of(root, path)
        graph.setdefault(u, {})
        for ln, kind, name in includes(path):
            t = resolve(root, path, kind, name)
            if t is not None and unit_of(root, t) != u:
                graph[u].setdefault(unit_of(root, t), "%s:%d" % (os.path.relpath(path, root), ln))
    # strongly connected components (Tarjan, iterative): each of more than
    # one unit is a cycle
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    errs = []
    for comp in sccs:
        cs = set(comp)
        edges = ["%s -> %s (%s)" % (u, v, where) for u in comp for v, where in sorted(graph[u].items()) if v in cs]
        errs.append("unit include cycle of %d units: %s; its includes: %s" % (len(comp), ", ".join(comp), "; ".join(edges)))
    return errs, len(graph)


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    core_files = list(sources(root, CORE_DIRS))
    if not core_files:
        print("FAIL: no core sources under %s" % root)
        return 1
    errs = check_core(root)
    cli_errs, ncli = check_cli(root)
    errs += cli_errs
    plug_errs, nplug = check_plugin(root)
    errs += plug_errs
    errs += check_paths(root)
    cyc, nfiles, nedges = check_cycles(root)
    ucyc, nunits = check_unit_cycles(root)
    cyc += ucyc
    errs += cyc
    for e in errs:
        print("FAIL: " + e)
    print("%d core files read for Wireshark, libpcap, GLib and front-end headers; %d cli files against the "
          "folder table (%d folders); %d plugin files for CLI headers; %d files, %d project includes, %d units read "
          "for cycles; %d violation(s), %d of them cycles" %
          (len(core_files), ncli, len(CLI_LINKS), nplug, nfiles, nedges, nunits, len(errs), len(cyc)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
