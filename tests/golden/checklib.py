# SPDX-License-Identifier: GPL-2.0-or-later
"""What the CLI test scripts share: collected failures, running iwarpscope
(in UTC, so that times print the same everywhere), and the final verdict."""
import difflib
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


def run(tool, args):
    """(exit status, stdout, stderr) of iwarpscope, whatever the status."""
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def verdict():
    """Print the failures; the exit status for sys.exit."""
    for f in failures:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


def golden(got, expected, update, label):
    """Compare got with the expected file (or, with update, write it);
    prints a diff, returns the exit status."""
    if update:
        os.makedirs(os.path.dirname(expected), exist_ok=True)
        with open(expected, "w", encoding="utf-8") as f:
            f.write(got)
        return 0
    try:
        with open(expected, encoding="utf-8") as f:
            want = f.read()
    except OSError as e:
        print("no expected output (%s): run tests/golden/update.sh" % e)
        return 1
    if got == want:
        return 0
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), expected, label,
                                     lineterm="", n=2))
    print("\n".join(diff[:80]))
    if len(diff) > 80:
        print("... %d more diff lines" % (len(diff) - 80))
    return 1
