# SPDX-License-Identifier: GPL-2.0-or-later
"""What the CLI test scripts share: collected failures, running iwarpscope
(in UTC, so that times print the same everywhere), and the final verdict."""
import os
import subprocess

failures = []


def check(cond, what):
    """Record a failure (the script goes on: one run shows every problem);
    returns cond."""
    if not cond:
        failures.append(what)
    return cond


def run_ok(tool, args):
    """iwarpscope's stdout; exit status other than 0 is an error."""
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d %s" % (args, p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def verdict():
    """Print the failures; the exit status for sys.exit."""
    for f in failures:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0
