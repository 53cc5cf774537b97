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

Usage: layering_nm.py --lib NAME=ARCHIVE... [--plugin MODULE]
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
    libs, plugin, i = {}, None, 1
    while i < len(argv):
        if argv[i] == "--lib" and i + 1 < len(argv) and "=" in argv[i + 1]:
            n, p = argv[i + 1].split("=", 1)
            if n != "core" and n not in CLI_LINKS:
                print("layering_nm.py: unknown library name %s (core or one of %s)" % (n, ", ".join(CLI_LINKS)))
                return 2
            libs[n] = p
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
    except (OSError, RuntimeError) as e:
        print("layering_nm.py: %s" % e)
        return 2
    for e in errs:
        print("FAIL: " + e)
    print("%d libraries (%s), %d undefined symbols read%s; %d call(s) against the direction" %
          (len(libs), ", ".join(sorted(libs)), nundef,
           ", the plugin's %d undefined dynamic symbols" % nplug if plugin else "", len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
