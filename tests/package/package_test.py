#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Debian package (cmake/Packaging.cmake): `cpack -G DEB` in the build
tree makes a .deb that

- is named iwarpscope, and depends on libc6, libpcap0.8 and, with the
  plugin, the libwireshark package of the Wireshark it was built for (what
  dpkg-shlibdeps finds);
- holds /usr/bin/iwarpscope, its man page (compressed), the plugin in
  Wireshark's global plugin directory (the one WiresharkConfig.cmake names)
  and the copyright file; nothing outside /usr;
- works unpacked: the program runs and the man page reads.

With IWS_TEST_DPKG_INSTALL=1, as root, in a disposable machine only: the
package is installed with dpkg -i; `tshark -G plugins` must list the plugin
from the global directory, `man -w iwarpscope` find the page, the program
and `tshark -z iwarp,ops` run on a sample; then it is removed again. It
refuses to run where iwarpscope is installed already.

Usage: package_test.py BUILD_DIR SOURCE_DIR WORKDIR PLUGIN_DIR|-
  PLUGIN_DIR  Wireshark's global plugin directory + /epan ('-': no plugin built)
Exits 77 (skipped) without cpack or dpkg-deb.
"""
import gzip
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from checklib import check, verdict  # noqa: E402


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout.decode(errors="replace"),
                                                  p.stderr.decode(errors="replace")))
    return p.stdout.decode(errors="replace")


def install_check(deb, plugin_dir, sample):
    if os.geteuid() != 0:
        check(False, "IWS_TEST_DPKG_INSTALL=1 needs root")
        return
    st = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "iwarpscope"], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL).stdout.decode()
    if "installed" in st or shutil.which("iwarpscope"):
        check(False, "iwarpscope is installed already: not touching this machine's copy")
        return
    run(["dpkg", "-i", deb])
    try:
        plugins = run(["tshark", "-G", "plugins"])
        line = [l for l in plugins.splitlines() if l.startswith("iwarpscope")]
        check(bool(line), "tshark -G plugins does not list iwarpscope")
        if line and plugin_dir != "-":
            check(os.path.join(plugin_dir, "iwarpscope.so") in line[0],
                  "tshark loads the plugin from elsewhere: %s" % line[0])
        man = run(["man", "-w", "iwarpscope"]).strip()
        check(man == "/usr/share/man/man1/iwarpscope.1.gz", "man -w iwarpscope: %r" % man)
        check(run(["iwarpscope", "--version"]).startswith("iwarpscope "), "iwarpscope --version")
        ops = run(["tshark", "-r", sample, "-q", "-z", "iwarp,ops"])
        check("iWARP operations" in ops, "tshark -z iwarp,ops does not run from the package")
        print("installed: %s; man %s" % (line[0].split()[-1] if line else "?", man))
    finally:
        run(["dpkg", "-r", "iwarpscope"])
    check(not shutil.which("iwarpscope"), "dpkg -r left iwarpscope behind")


def main(argv):
    build, src, work, plugin_dir = argv[1:5]
    for tool in ("cpack", "dpkg-deb", "dpkg-shlibdeps"):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-G", "DEB", "-B", work])
    debs = [f for f in os.listdir(work) if f.endswith(".deb")]
    if not check(len(debs) == 1, "cpack made %s" % debs):
        return verdict()
    deb = os.path.join(work, debs[0])

    info = run(["dpkg-deb", "-I", deb])
    fields = dict(re.findall(r"^ (\w[\w-]*): (.*)$", info, re.M))
    check(fields.get("Package") == "iwarpscope", "Package: %r" % fields.get("Package"))
    deps = [d.strip().split()[0] for d in fields.get("Depends", "").split(",")]
    # The package names of the distribution built on: libwireshark's
    # carries its soname (libwireshark16 for 4.0, 18 for 4.4, 19 for 4.6),
    # and Debian 13 renamed libpcap0.8 libpcap0.8t64 (64-bit time_t).
    want = {"libc6": r"libc6", "libpcap0.8": r"libpcap0\.8(t64)?"}
    if plugin_dir != "-":
        want["libwireshark"] = r"libwireshark\d+"
    for w, pattern in want.items():
        check(any(re.fullmatch(pattern, d) for d in deps), "Depends lacks %s: %s" % (w, fields.get("Depends")))

    files = [l.split()[-1].lstrip(".") for l in run(["dpkg-deb", "-c", deb]).splitlines()]
    want = ["/usr/bin/iwarpscope", "/usr/share/man/man1/iwarpscope.1.gz", "/usr/share/doc/iwarpscope/copyright"]
    if plugin_dir != "-":
        want.append(os.path.join(plugin_dir, "iwarpscope.so"))
        # coloring rules and I/O graphs to import (issue 16 item 3)
        want += ["/usr/share/iwarpscope/iwarp.colorfilters", "/usr/share/iwarpscope/iwarp.io_graphs"]
    for w in want:
        check(w in files, "the package lacks %s" % w)
    check(all(f.startswith("/usr/") or f == "/" for f in files), "files outside /usr: %s" %
          [f for f in files if not f.startswith("/usr/")])

    root = os.path.join(work, "root")
    run(["dpkg-deb", "-x", deb, root])
    check(run([root + "/usr/bin/iwarpscope", "--version"]).startswith("iwarpscope "), "unpacked iwarpscope does not run")
    with gzip.open(root + "/usr/share/man/man1/iwarpscope.1.gz", "rt") as f:
        page = f.read()
    check(".TH IWARPSCOPE 1" in page and "report" in page, "the packaged man page is not iwarpscope(1)")
    print("%s: %d files, Depends: %s" % (os.path.basename(deb), len([f for f in files if not f.endswith("/")]),
                                        fields.get("Depends")))

    if os.environ.get("IWS_TEST_DPKG_INSTALL") == "1":
        install_check(deb, plugin_dir, os.path.join(src, "samples/real/05-read_lat.pcap"))
    else:
        print("(dpkg -i not tried: set IWS_TEST_DPKG_INSTALL=1, as root, on a disposable machine)")
    return verdict()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
