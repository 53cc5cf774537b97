#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin tests pass from a checkout that only its owner may enter.

A clone under /root or in `mktemp -d` is mode 0700, and the plugin tests run
tshark as uid 65534, which cannot enter it however readable the files inside
are. This puts the built plugin and the samples a few real tests need into
such a directory, with TMPDIR pointing into it as well (a private TMPDIR is
the same trap for the driver's HOME), and runs those tests from there through
iwarp_tshark.py: each must pass, and nothing may be left behind.

Usage: private_checkout.py --plugin SO [--samples DIR] [--preload LIB]
Exit status: 0 pass, 1 fail, 77 skipped (tshark absent, or not run as root:
tshark then runs as you and the case does not arise).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import iwarp_tshark

# -z iwarp,ops against the golden file and the error filter on a real
# capture; upper layers against a built-in-only run (another HOME).
TESTS = [("golden", "01-rping"), ("clean", "01-rping"), ("ulp", "rpc-rdma")]


def copy_in(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o644)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--samples", default=os.path.join(iwarp_tshark.ROOT, "samples"))
    ap.add_argument("--preload", default=None)
    a = ap.parse_args()
    if not shutil.which("tshark"):
        print("SKIP: tshark is not installed")
        return iwarp_tshark.SKIP
    if os.geteuid() != 0:
        print("SKIP: not root, so tshark runs as you and can read what you can")
        return iwarp_tshark.SKIP
    priv = tempfile.mkdtemp(prefix="iwarp-private-")
    try:
        # mkdtemp makes it 0700 already; say so, as the test rests on it
        os.chmod(priv, 0o700)
        plugin = os.path.join(priv, "build", "iwarpscope.so")
        copy_in(a.plugin, plugin)
        samples = os.path.join(priv, "samples")
        for _, name in TESTS:
            p = iwarp_tshark.find_sample(a.samples, name)
            sub = os.path.basename(os.path.dirname(p))
            copy_in(p, os.path.join(samples, sub, os.path.basename(p)))
            truth = os.path.splitext(p)[0] + ".truth.json"
            if os.path.exists(truth):
                copy_in(truth, os.path.join(samples, sub, os.path.basename(truth)))
            # Files 0644 in a 0700 directory: the test proves nothing unless
            # tshark's user really cannot read them where they are.
            inside = os.path.join(samples, sub, os.path.basename(p))
            if subprocess.run(iwarp_tshark.NOBODY + ["test", "-r", inside], cwd="/").returncode == 0:
                raise iwarp_tshark.Fail("uid 65534 can read %s: the test would prove nothing" % inside)
        before = sorted(os.listdir(priv))
        env = dict(os.environ, TMPDIR=priv)
        preload = ["--preload", a.preload] if a.preload else []
        failed = []
        for test, name in TESTS:
            cmd = [sys.executable, os.path.join(iwarp_tshark.HERE, "iwarp_tshark.py"), "--plugin", plugin,
                   "--samples", samples] + preload + [test, name]
            p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            print("%s %s: %s" % (test, name, p.stdout.decode("utf-8", "replace").strip()))
            if p.returncode != 0:
                failed.append("%s %s (exit %d)" % (test, name, p.returncode))
        left = sorted(set(os.listdir(priv)) - set(before))
        if left:
            failed.append("left behind in the private directory: %s" % " ".join(left))
        if failed:
            raise iwarp_tshark.Fail("; ".join(failed))
        print("PASS: %d plugin tests from a 0700 directory" % len(TESTS))
        return 0
    except iwarp_tshark.Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(priv, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
