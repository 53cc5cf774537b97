# SPDX-License-Identifier: GPL-2.0-or-later
"""What the report tests share: running `iwarpscope report` (in UTC, from the
source tree so paths print relative) and taking the page's data block
<script type="application/json" id="iws-data"> out of the HTML."""
import json
import os
import re
import subprocess

DATA_RE = re.compile(r'<script type="application/json" id="iws-data">(.*?)</script>', re.S)


def report(tool, root, sample, out, *extra):
    """Write the report of sample (relative to root) to out; its HTML text."""
    p = subprocess.run([os.path.abspath(tool), "report", "--no-progress", *extra, sample, "-o", out],
                       cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC", LC_ALL="C"))
    if p.returncode != 0:
        raise RuntimeError("iwarpscope report %s: exit %d %s" % (sample, p.returncode, p.stderr.decode()))
    with open(out, encoding="utf-8") as f:
        return f.read()


def cli(tool, root, *args):
    """iwarpscope's standard output (in UTC, from the source tree)."""
    p = subprocess.run([os.path.abspath(tool), *args], cwd=root, stdout=subprocess.PIPE,
                       env=dict(os.environ, TZ="UTC"), check=True)
    return p.stdout.decode()


def cli_jsonl(tool, root, *args):
    """iwarpscope's JSON lines, parsed."""
    return [json.loads(l) for l in cli(tool, root, *args).splitlines() if l.strip()]


def page_data(html):
    """The parsed data block (exactly one must be there)."""
    blocks = DATA_RE.findall(html)
    if len(blocks) != 1:
        raise ValueError("%d iws-data blocks in the page" % len(blocks))
    return json.loads(blocks[0])


def dumps(v, indent=0):
    """JSON for a reviewer's diff: objects one key a line, arrays of scalars
    and the ops' rows on one line each."""
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = ['%s "%s": %s' % (pad, k, dumps(x, indent + 1)) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list) and any(isinstance(x, dict) or (isinstance(x, list) and x and isinstance(x[0], (dict, list))) for x in v):
        return "[\n" + ",\n".join(pad + " " + dumps(x, indent + 1) for x in v) + "\n" + pad + "]"
    if isinstance(v, list) and v and isinstance(v[0], list):
        return "[\n" + ",\n".join(pad + " " + json.dumps(x) for x in v) + "\n" + pad + "]"
    return json.dumps(v, ensure_ascii=False)


def sample_name(sample):
    """samples/real/01-rping.pcap -> real-01-rping"""
    d = os.path.basename(os.path.dirname(sample))
    n = re.sub(r"\.pcap(ng)?$", "", os.path.basename(sample))
    return d + "-" + n
