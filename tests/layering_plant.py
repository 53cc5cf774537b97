#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layering checks catch what they are for: each kind of fault is
planted in a copy of the tree (or in small libraries built here), and the
check must fail on it, naming it, while the clean copy passes.

  layering.py      the core including Wireshark; a cli folder including a
                   higher folder's header; the plugin including a header of
                   cli/ (by name and by a relative path); a relative include
                   that climbs out of its folder; an include cycle of files;
                   an include cycle of units hidden over two headers
                   (foo.c includes bar.h, bar.c includes foo_int.h); a
                   plugin statistic calling the end of the analysis;
  layering_nm.py   the core calling a cli function through a hand-written
                   prototype; a cli folder calling a higher folder; the
                   plugin calling a cli function; two objects of the core
                   calling each other; three of the plugin calling round a
                   circle.

Usage: layering_plant.py SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERING = os.path.join(HERE, "layering.py")
LAYERING_NM = os.path.join(HERE, "layering_nm.py")


def run(args):
    p = subprocess.run([sys.executable] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def append(path, text):
    with open(path, "a") as f:
        f.write(text)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def plant_tree(src, work):
    """The include faults, each in a fresh copy of the tree."""
    fails = []
    dirs = ["core", "include", "cli", "plugin"]

    def fresh():
        root = os.path.join(work, "tree")
        shutil.rmtree(root, ignore_errors=True)
        for d in dirs:
            shutil.copytree(os.path.join(src, d), os.path.join(root, d),
                            ignore=shutil.ignore_patterns("*.o", "*.a", "*.so"))
        return root

    root = fresh()
    rc, out = run([LAYERING, root])
    if rc != 0:
        fails.append("the clean copy fails layering.py:\n" + out)
        return fails, 0

    def cycle_units(r):
        write(os.path.join(r, "core", "plant_a.h"), "#include \"plant_b.h\"\n")
        write(os.path.join(r, "core", "plant_a.c"), "#include \"plant_a.h\"\n")
        write(os.path.join(r, "core", "plant_b.h"), "int plant_b;\n")
        write(os.path.join(r, "core", "plant_b.c"), "#include \"plant_b.h\"\n#include \"plant_a_int.h\"\n")
        write(os.path.join(r, "core", "plant_a_int.h"), "int plant_a_int;\n")

    def cycle_files(r):
        write(os.path.join(r, "core", "plant_c.h"), "#include \"plant_d.h\"\n")
        write(os.path.join(r, "core", "plant_d.h"), "#include \"plant_c.h\"\n")

    faults = [
        ("the core includes epan", lambda r: append(os.path.join(r, "core", "mpa.c"), "#include <epan/packet.h>\n"),
         "the core includes <epan/packet.h>"),
        ("cli/input includes cli/track", lambda r: append(os.path.join(r, "cli", "input", "flows.c"),
                                                          "#include \"conn.h\"\n"),
         "cli/input includes cli/track/conn.h"),
        ("the plugin names a cli header", lambda r: append(os.path.join(r, "plugin", "packet-iwarp-mpa.c"),
                                                           "#include \"units.h\"\n"),
         "the plugin includes units.h, a header of the CLI"),
        ("the plugin reaches a cli header by a relative path",
         lambda r: append(os.path.join(r, "plugin", "packet-iwarp-mpa.c"), "#include \"../cli/common/units.h\"\n"),
         "climbs out of its folder"),
        ("the core climbs to a cli header", lambda r: append(os.path.join(r, "core", "ddp.c"),
                                                             "#include \"../cli/common/units.h\"\n"),
         "climbs out of its folder"),
        ("a cli file reaches into another folder", lambda r: append(os.path.join(r, "cli", "output", "rows.c"),
                                                                    "#include \"track/conn.h\"\n"),
         "reaches into another folder"),
        ("a statistic ends the analysis", lambda r: append(os.path.join(r, "plugin", "iwarp-stats.c"),
                                                           "static void plant(void) { iwarp_sequential_pass_over(); }\n"),
         "a statistic calls iwarp_sequential_pass_over, which drives the analysis"),
        ("an include cycle of two headers", cycle_files, "include cycle: core/plant_"),
        ("a unit cycle hidden over two headers", cycle_units, "unit include cycle of 2 units: core/plant_a, core/plant_b"),
    ]
    for what, plant, expect in faults:
        r = fresh()
        plant(r)
        rc, out = run([LAYERING, r])
        if rc != 1 or expect not in out:
            fails.append("layering.py on a planted fault (%s): exit %d, expected 1 naming %r:\n%s" %
                         (what, rc, expect, out[-1500:]))
    return fails, len(faults)


def build_lib(work, name, code, cc):
    c = os.path.join(work, name + ".c")
    o = os.path.join(work, name + ".o")
    a = os.path.join(work, "lib" + name + ".a")
    write(c, code)
    subprocess.run([cc, "-c", "-fPIC", "-o", o, c], check=True)
    if os.path.exists(a):
        os.unlink(a)
    subprocess.run(["ar", "rcs", a, o], check=True)
    return a, o


def plant_symbols(work):
    """The call faults, in small libraries built here."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc or not shutil.which("nm") or not shutil.which("ar"):
        return ["no C compiler, nm or ar to build the planted libraries"], 0
    fails = []
    core, _ = build_lib(work, "pcore", "int core_fn(void) { return 1; }\n", cc)
    common, _ = build_lib(work, "pcommon", "int core_fn(void);\nint common_fn(void) { return core_fn(); }\n", cc)
    track, _ = build_lib(work, "ptrack", "int common_fn(void);\nint track_fn(void) { return common_fn(); }\n", cc)
    clean = ["--lib", "core=" + core, "--lib", "common=" + common, "--lib", "track=" + track]
    rc, out = run([LAYERING_NM] + clean)
    if rc != 0:
        fails.append("layering_nm.py fails on clean planted libraries:\n" + out)
    # the core calls up through a prototype of its own
    bad_core, _ = build_lib(work, "pcore2", "int common_fn(void);\nint core_fn(void) { return common_fn(); }\n", cc)
    rc, out = run([LAYERING_NM, "--lib", "core=" + bad_core, "--lib", "common=" + common, "--lib", "track=" + track])
    if rc != 1 or "core calls common_fn, defined in common" not in out:
        fails.append("layering_nm.py on the core calling cli/common: exit %d\n%s" % (rc, out))
    # cli/common calls cli/track (a folder above it)
    bad_common, _ = build_lib(work, "pcommon2",
                              "int track_fn(void);\nint common_fn(void) { return track_fn(); }\n", cc)
    rc, out = run([LAYERING_NM, "--lib", "core=" + core, "--lib", "common=" + bad_common, "--lib", "track=" + track])
    if rc != 1 or "common calls track_fn, defined in track" not in out:
        fails.append("layering_nm.py on cli/common calling cli/track: exit %d\n%s" % (rc, out))
    # the plugin (a module) calls a cli function
    c = os.path.join(work, "pplugin.c")
    so = os.path.join(work, "pplugin.so")
    write(c, "int track_fn(void);\nint core_fn(void);\nint plugin_fn(void) { return track_fn() + core_fn(); }\n")
    subprocess.run([cc, "-shared", "-fPIC", "-o", so, c], check=True)
    rc, out = run([LAYERING_NM] + clean + ["--plugin", so])
    if rc != 1 or "the plugin calls track_fn, defined in track" not in out or "core_fn" in out.split("FAIL")[-1]:
        fails.append("layering_nm.py on the plugin calling cli/track: exit %d\n%s" % (rc, out))
    # two objects of the core calling each other (one archive), and three of
    # the plugin calling round a circle (plain objects, --objects)
    a_o = build_lib(work, "pcirc_a", "int circ_b(void);\nint circ_a(void) { return circ_b(); }\n", cc)[1]
    b_o = build_lib(work, "pcirc_b", "int circ_a(void);\nint circ_b(void) { return circ_a() + 1; }\n", cc)[1]
    circ = os.path.join(work, "libpcirc.a")
    subprocess.run(["ar", "rcs", circ, a_o, b_o], check=True)
    rc, out = run([LAYERING_NM, "--lib", "core=" + circ])
    if rc != 1 or "core: a call circle of 2 objects: pcirc_a, pcirc_b" not in out:
        fails.append("layering_nm.py on two core objects calling each other: exit %d\n%s" % (rc, out))
    objs = [build_lib(work, "pring_%d" % k, "int ring_%d(void);\nint ring_%d(void) { return ring_%d(); }\n" %
                      ((k + 1) % 3, k, (k + 1) % 3), cc)[1] for k in range(3)]
    rc, out = run([LAYERING_NM] + clean + ["--objects", "plugin=" + ",".join(objs)])
    if rc != 1 or "plugin: a call circle of 3 objects: pring_0, pring_1, pring_2" not in out:
        fails.append("layering_nm.py on three plugin objects calling round a circle: exit %d\n%s" % (rc, out))
    return fails, 5


def main(argv):
    src = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(HERE, ".."))
    work = tempfile.mkdtemp(prefix="iws-layering-")
    try:
        f1, n1 = plant_tree(src, work)
        f2, n2 = plant_symbols(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    fails = f1 + f2
    for f in fails:
        print("FAIL: " + f)
    print("%d include faults and %d call faults planted; %d not caught" % (n1, n2, len(fails)))
    return 1 if fails or n1 == 0 or n2 == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
