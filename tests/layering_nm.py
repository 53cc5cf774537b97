#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layers stay layers in the built code too (issue 35 item 5): what a
library calls, read from its symbols with nm, not from its #include lines.

An include can be hidden (a hand-written prototype of a function of a higher
layer compiles and links, because the executable links every library); a
call cannot. For each static library given, every symbol its objects leave
undefined and another project library defines must belong to a library it
may call:

  core (iwscore)       nothing of the project: it is the bottom;
  cli/<folder>         its own folder, the folders below it (the table of
                       tests/layering.py, CLI_LINKS) and the core;
  the plugin (a module) the core; never a symbol of cli/ (checked on the
                       module's undefined dynamic symbols).

Inside a layer calls run one way too: no object of the core, of the cli
(its folders together) or of a group given with --objects (the plugin's)
calls one that calls it back, directly or round a circle of others.

Usage: layering_nm.py --lib NAME=ARCHIVE... [--plugin MODULE] [--objects NAME=OBJ,OBJ...]
  NAME: core, or a cli folder of CLI_LINKS (common, json, input, ...).
Exit: 0 clean, 1 a call against the direction (each printed), 2 usage or nm
failed.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layering import CLI_LINKS, cli_reach  # noqa: E402

DEFINED = set("TDBRCGSVWiu")


def nm_symbols(path, dynamic=False):
    """(defined, undefined) global symbol sets of an archive or module."""
    args = ["nm", "-P", "-g"] + (["-D"] if dynamic else []) + [path]
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if out.returncode != 0:
        raise RuntimeError("nm %s: %s" % (path, out.stderr.strip()))
    defined, undefined = set(), set()
    for line in out.stdout.splitlines():
        # "name type [value size]"; archive member headers end in ':'
        parts = line.split()
        if len(parts) < 2 or parts[0].endswith(":") and len(parts) == 1:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in DEFINED:
            defined.add(name)
    return defined, undefined - defined


def member_symbols(path):
    """{member: (defined, undefined)} of an archive's objects (a plain object
    file or a module is one member, named after it)."""
    args = ["nm", "-P", "-g", path]
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if out.returncode != 0:
        raise RuntimeError("nm %s: %s" % (path, out.stderr.strip()))
    members, cur = {}, os.path.basename(path)
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 1 and parts[0].endswith("]:") and "[" in parts[0]:
            cur = parts[0][parts[0].rindex("[") + 1:-2]
            continue
        if len(parts) < 2:
            continue
        d, u = members.setdefault(cur, (set(), set()))
        (u if parts[1] == "U" else d if parts[1] in DEFINED else set()).add(parts[0])
    return members


def call_circles(groups):
    """Circles of calls between the objects of each group ({name: [paths]}):
    one object calling another that calls it back, directly or round others
    (the strongly connected components of the call graph)."""
    errs, counts = [], {}
    for gname, paths in sorted(groups.items()):
        units = {}
        for p in paths:
            for m, (d, u) in member_symbols(p).items():
                units[m.replace(".c.o", "").replace(".o", "")] = (d, u)
        counts[gname] = len(units)
        owner = {s: m for m, (d, _) in units.items() for s in d}
        graph = {m: sorted({owner[s] for s in u if s in owner and owner[s] != m}) for m, (_, u) in units.items()}
        # a few hundred objects at most: what each reaches, then the sets
        # of objects that reach each other
        reach = {}
        for m in graph:
            seen, todo = set(), list(graph[m])
            while todo:
                x = todo.pop()
                if x not in seen:
                    seen.add(x)
                    todo.extend(graph.get(x, []))
            reach[m] = seen
        comps, placed = [], set()
        for m in sorted(graph):
            if m in placed or m not in reach[m]:
                continue
            comp = sorted(x for x in reach[m] if m in reach.get(x, ()))
            placed.update(comp)
            comps.append(comp)
        for comp in comps:
            errs.append("%s: a call circle of %d objects: %s" % (gname, len(comp), ", ".join(comp)))
    return errs, counts


def allowed(name):
    if name == "core":
        return {"core"}
    return cli_reach(name) | {"core"}


def check(libs, plugin):
    errs = []
    syms = {n: nm_symbols(p) for n, p in libs.items()}
    owner = {}
    for n, (d, _) in sorted(syms.items()):
        for s in d:
            owner.setdefault(s, n)
    for n, (_, u) in sorted(syms.items()):
        ok = allowed(n)
        for s in sorted(u):
            o = owner.get(s)
            if o is not None and o not in ok:
                errs.append("%s calls %s, defined in %s (it may call %s)" % (n, s, o, ", ".join(sorted(ok))))
    nplug = 0
    if plugin:
        _, u = nm_symbols(plugin, dynamic=True)
        nplug = len(u)
        for s in sorted(u):
            o = owner.get(s)
            if o is not None and o != "core":
                errs.append("the plugin calls %s, defined in %s (it may call the core only)" % (s, o))
    return errs, sum(len(u) for _, u in syms.values()), nplug


def main(argv):
    libs, plugin, objects, i = {}, None, {}, 1
    while i < len(argv):
        if argv[i] == "--lib" and i + 1 < len(argv) and "=" in argv[i + 1]:
            n, p = argv[i + 1].split("=", 1)
            if n != "core" and n not in CLI_LINKS:
                print("layering_nm.py: unknown library name %s (core or one of %s)" % (n, ", ".join(CLI_LINKS)))
                return 2
            libs[n] = p
            i += 2
        elif argv[i] == "--objects" and i + 1 < len(argv) and "=" in argv[i + 1]:
            n, p = argv[i + 1].split("=", 1)
            objects[n] = [x for x in p.split(",") if x]
            i += 2
        elif argv[i] == "--plugin" and i + 1 < len(argv):
            plugin = argv[i + 1]
            i += 2
        else:
            print(__doc__.split("Usage:")[1].split("Exit:")[0].strip())
            return 2
    if "core" not in libs:
        print("layering_nm.py: the core's archive (--lib core=...) is required")
        return 2
    try:
        errs, nundef, nplug = check(libs, plugin)
        # inside the core, the cli (all its folders together) and the plugin,
        # calls run one way too: no object calls one that calls it back
        groups = {"core": [libs["core"]]}
        if len(libs) > 1:
            groups["cli"] = [p for n, p in libs.items() if n != "core"]
        groups.update(objects)
        circles, counts = call_circles(groups)
        errs += circles
    except (OSError, RuntimeError) as e:
        print("layering_nm.py: %s" % e)
        return 2
    for e in errs:
        print("FAIL: " + e)
    print("%d libraries (%s), %d undefined symbols read%s; call circles looked for in %s; "
          "%d call(s) against the direction or round a circle" %
          (len(libs), ", ".join(sorted(libs)), nundef,
           ", the plugin's %d undefined dynamic symbols" % nplug if plugin else "",
           ", ".join("%s (%d objects)" % (n, c) for n, c in sorted(counts.items())), len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
