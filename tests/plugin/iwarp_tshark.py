#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plugin tests through tshark, run as an unprivileged user.

Wireshark ignores personal plugins when run as root, so the plugin is copied
into a private HOME readable by everybody and tshark runs under setpriv as
uid/gid 65534 (or as the current user when that is not root). Every capture
tshark reads is copied into that HOME first: uid 65534 cannot enter a checkout
under /root or in `mktemp -d` (mode 0700), whatever the capture's own mode.

Usage: iwarp_tshark.py --plugin PATH [--samples DIR] [--golden DIR] TEST [ARGS]
Tests: fields | listed VERSION | real NAME | truth NAME | golden NAME | coexist NAME |
       midstream | badcrc | update-golden [NAME...] | cli NAME | valgrind NAME
Exit status: 0 pass, 1 fail, 77 skipped (tshark absent).
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SKIP = 77
# How root runs a command as the unprivileged user.
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

DESIGN_FIELDS = """
iwarp.mpa.key iwarp.mpa.rev iwarp.mpa.flags.markers iwarp.mpa.flags.crc iwarp.mpa.flags.reject
iwarp.mpa.flags.enhanced iwarp.mpa.pd_len iwarp.mpa.ird iwarp.mpa.ord iwarp.mpa.p2p iwarp.mpa.rtr
iwarp.mpa.ulpdu_len iwarp.mpa.pad iwarp.mpa.crc iwarp.mpa.crc.status iwarp.mpa.marker.fpduptr
iwarp.ddp.tagged iwarp.ddp.last iwarp.ddp.version iwarp.ddp.stag iwarp.ddp.to iwarp.ddp.qn
iwarp.ddp.msn iwarp.ddp.mo iwarp.rdmap.version iwarp.rdmap.opcode iwarp.rdmap.inval_stag
iwarp.rdmap.read.sink_stag iwarp.rdmap.read.sink_to iwarp.rdmap.read.size iwarp.rdmap.read.src_stag
iwarp.rdmap.read.src_to iwarp.rdmap.term.layer iwarp.rdmap.term.etype iwarp.rdmap.term.errcode
iwarp.rdmap.immediate iwarp.rdmap.qp iwarp.rdmap.response_in iwarp.rdmap.request_in
iwarp.rdmap.response_time
""".split()
DESIGN_PREFIXES = ["iwarp.rdmap.atomic."]
# The NVMe-oF layer (issue 15): what users filter on.
NVME_FIELDS = """
iwarp.nvme.opcode iwarp.nvme.op iwarp.nvme.cid iwarp.nvme.nsid iwarp.nvme.slba iwarp.nvme.nlb
iwarp.nvme.blocks iwarp.nvme.sgl.key iwarp.nvme.sgl.addr iwarp.nvme.sgl.length iwarp.nvme.sgl.type iwarp.nvme.icd_len
iwarp.nvme.status iwarp.nvme.sqhd iwarp.nvme.qid iwarp.nvme.fctype iwarp.nvme.connect.qid
iwarp.nvme.connect.sqsize iwarp.nvme.connect.hostnqn iwarp.nvme.connect.subnqn iwarp.nvme.connect.cntlid
iwarp.nvme.property iwarp.nvme.response_in iwarp.nvme.request_in iwarp.nvme.response_time
iwarp.nvme.data_in iwarp.nvme.cmd_in
""".split()
# Where an operation's time went (issue 13).
TIMING_FIELDS = """
iwarp.rdmap.first_transmission iwarp.rdmap.ack_in iwarp.rdmap.ack_time iwarp.rdmap.ack_with_data
iwarp.rdmap.retransmissions iwarp.rdmap.reordered iwarp.rdmap.stall iwarp.rdmap.queued
iwarp.rdmap.after_close iwarp.rdmap.op.id iwarp.rdmap.op.first_inorder_frame iwarp.rdmap.op.rtr iwarp.rdmap.op.after_close
iwarp.rdmap.op.payload_captured iwarp.rdmap.acked_op iwarp.rdmap.teardown.kind iwarp.rdmap.teardown.side
iwarp.rdmap.teardown.outstanding iwarp.rdmap.teardown.op_id iwarp.rdmap.tcp_event
""".split()

# Extra tshark options per sample (tshark-options.txt: "NAME option..."),
# e.g. in-order reassembly of out-of-order segments for captures with
# reordering (docs/plugin.md explains when to use it).
TSHARK_OPTS = []


def load_options(name):
    p = os.path.join(HERE, "tshark-options.txt")
    if not os.path.exists(p):
        return []
    for line in open(p):
        line = line.split("#", 1)[0].split()
        if line and line[0] == name:
            return line[1:]
    return []


class Fail(Exception):
    pass


def wireshark_minor(tshark=None):
    """The major.minor of the Wireshark under test ("4.4"): the personal
    plugin directory is plugins/<major.minor>/epan, and Wireshark loads only a
    plugin built for its own major.minor. CTest passes it in IWS_WS_VERSION
    (the Wireshark the plugin was built for); else tshark --version tells."""
    v = os.environ.get("IWS_WS_VERSION")
    if v:
        return v
    tshark = tshark or shutil.which("tshark")
    if not tshark:
        return "0.0"
    out = subprocess.run([tshark, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    m = re.search(rb"(\d+)\.(\d+)\.\d+", out.split(b"\n", 1)[0])
    if not m:
        raise Fail("cannot tell the Wireshark version from `%s --version`" % tshark)
    return "%s.%s" % (m.group(1).decode(), m.group(2).decode())


def personal_plugin_dir(home, tshark=None):
    """Where a Wireshark run with HOME=home looks for its personal epan plugins."""
    return os.path.join(home, ".local", "lib", "wireshark", "plugins", wireshark_minor(tshark), "epan")


class Runner:
    def __init__(self, plugin, preload=None):
        self.tshark = shutil.which("tshark")
        self.plugin = plugin
        # A sanitizer build of the plugin needs its runtime first in the
        # process (tshark itself is not instrumented). Leak checking is left
        # to valgrind: tshark does not free everything at exit.
        self.san_env = {}
        if preload:
            self.san_env = {
                "LD_PRELOAD": preload,
                "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:verify_asan_link_order=0",
                "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
            }
        self.as_root = os.geteuid() == 0
        # A private TMPDIR (under /root, /run/user/0) is the same trap as a
        # private checkout: uid 65534 could not reach this HOME, the plugin or
        # the captures in it. /tmp then; should even that fail, tshark says so.
        for parent in (None, "/tmp"):
            self.home = tempfile.mkdtemp(prefix="iwarp-tshark-", dir=parent)
            os.chmod(self.home, 0o755)
            if parent or self.can_read(self.home):
                break
            os.rmdir(self.home)
        d = personal_plugin_dir(self.home, self.tshark)
        os.makedirs(d)
        # An empty global plugin directory: a copy installed system-wide
        # (scripts/quickstart does that for root) would otherwise load
        # first and shadow the build under test.
        self.global_dir = os.path.join(self.home, "global-plugins")
        os.makedirs(self.global_dir)
        # An empty extcap directory: `tshark -G plugins` (and -D) run every
        # extcap program to ask what it is, and under a sanitizer build the
        # preloaded ASan runtime goes into those children too, where one
        # waits forever (seen with 4.0's sshdump and friends).
        self.extcap_dir = os.path.join(self.home, "no-extcap")
        os.makedirs(self.extcap_dir)
        if plugin:
            shutil.copy(plugin, os.path.join(d, "iwarpscope.so"))
        for root, dirs, files in os.walk(self.home):
            for x in dirs:
                os.chmod(os.path.join(root, x), 0o755)
            for x in files:
                os.chmod(os.path.join(root, x), 0o644)

    def close(self):
        shutil.rmtree(self.home, ignore_errors=True)

    def can_read(self, path):
        """Whether tshark's user can read path. Only an attempt tells: the
        file's own mode bits say nothing of the directories above it."""
        if not self.as_root:
            return os.access(path, os.R_OK)
        return subprocess.run(NOBODY + ["test", "-r", path], cwd="/").returncode == 0

    def workdir(self, name, mode=0o755):
        """A directory in the HOME for tshark's input (or, 0777, its output),
        removed with it by close()."""
        d = os.path.join(self.home, name)
        os.makedirs(d, exist_ok=True)
        os.chmod(d, mode)
        return d

    def stage(self, path):
        """A copy of the capture at path that tshark can read, under the same
        name (golden files and tshark-options.txt go by it). Always copied,
        as checking would cost a process and samples are small."""
        q = os.path.join(self.workdir("input"), os.path.basename(path))
        shutil.copyfile(path, q)
        os.chmod(q, 0o644)
        return q

    def command(self, args, builtin_only=False):
        """The tshark command line and environment for args."""
        env = dict(os.environ)
        env["HOME"] = self.home
        env["TZ"] = "UTC"
        env["WIRESHARK_PLUGIN_DIR"] = self.global_dir
        env["WIRESHARK_EXTCAP_DIR"] = self.extcap_dir
        env.update(self.san_env)
        cmd = [self.tshark] + args
        if builtin_only:
            env["HOME"] = os.path.join(self.home, "none")
        if self.as_root:
            cmd = NOBODY + ["env", "HOME=" + env["HOME"], "TZ=UTC", "WIRESHARK_PLUGIN_DIR=" + self.global_dir,
                            "WIRESHARK_EXTCAP_DIR=" + self.extcap_dir] + \
                  ["%s=%s" % kv for kv in sorted(self.san_env.items())] + cmd
        return cmd, env

    def run_raw(self, args, timeout=None):
        """(stdout, stderr, exit status); raises subprocess.TimeoutExpired."""
        cmd, env = self.command(args)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/",
                           timeout=timeout)
        return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode

    def run(self, args, check=True, builtin_only=False):
        cmd, env = self.command(args, builtin_only)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
        if check and p.returncode != 0:
            raise Fail("tshark failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode()[-2000:]))
        return p.stdout.decode("utf-8", "replace")

    def run_octets(self, args):
        """tshark's standard output as the octets it wrote."""
        cmd, env = self.command(args, False)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
        if p.returncode != 0:
            raise Fail("tshark failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode()[-2000:]))
        return p.stdout


# A host NQN a hostile or broken host could send (issue 24 item 4): an invalid
# UTF-8 octet, ESC with a colour sequence, BEL, CR, LF and a fake line; then
# the C1 control CSI (U+009B, which terminals may obey as ESC [) with the
# rest of a clear-screen sequence (issue 33 item 10).
HOSTILE_NQN = b"nqn.\xff\x1b[31mX\x07\r\n! FAKE\xc2\x9b2J"
# ... as the field shows it: the CLI's rule (iwarpscope/safetext.h), every
# control and invalid octet a visible escape of its octets.
HOSTILE_NQN_SHOWN = "nqn.\\xff\\x1b[31mX\\x07\\x0d\\x0a! FAKE\\xc2\\x9b2J"


def raw_controls(octets):
    """The control characters (C0 but TAB and LF, DEL, C1) in octets, or a
    message if they are not valid UTF-8."""
    try:
        text = octets.decode("utf-8")
    except UnicodeDecodeError as e:
        return "invalid UTF-8: %s" % e
    return sorted({"U+%04X" % ord(c) for c in text
                   if (ord(c) < 0x20 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f})


def check_hostile_nqn(r, sample_path):
    """The NVMe-oF sample with its subsystem NQN overwritten by HOSTILE_NQN
    (same length, no CRC on that connection): the field's value has visible
    escapes in `tshark -T json` (valid UTF-8 JSON) and in `-T fields` (which
    prints values as they are), and neither these nor `-V` write a raw
    control character (C0, DEL, C1) or invalid UTF-8."""
    data = open(sample_path, "rb").read()
    want = b"nqn.2024-05.example.iwarpscope:nvme-target"
    if not data.count(want):
        raise Fail("the sample's subsystem NQN is not where this test expects it")
    evil = HOSTILE_NQN + b"\0" * (len(want) - len(HOSTILE_NQN))
    q = os.path.join(r.workdir("input"), "hostile-nqn.pcap")
    open(q, "wb").write(data.replace(want, evil))
    os.chmod(q, 0o644)
    js = r.run_octets(["-2", "-r", q, "-Y", "iwarp.nvme.connect.subnqn", "-T", "json"] + TSHARK_OPTS)
    try:
        doc = json.loads(js.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Fail("tshark -T json is not valid UTF-8 JSON: %s" % e)
    found = []

    def walk(v, key=""):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)
        elif key == "iwarp.nvme.connect.subnqn":
            found.append(v)
    walk(doc)
    if not found or any(v != HOSTILE_NQN_SHOWN for v in found):
        raise Fail("subnqn in JSON %r, want %r" % (found, HOSTILE_NQN_SHOWN))
    if raw_controls(js):
        raise Fail("tshark -T json writes %s" % raw_controls(js))
    fields = r.run_octets(["-2", "-r", q, "-Y", "iwarp.nvme.connect.subnqn", "-T", "fields",
                           "-e", "iwarp.nvme.connect.subnqn"] + TSHARK_OPTS)
    if raw_controls(fields):
        raise Fail("tshark -T fields writes %s" % raw_controls(fields))
    values = [v for v in fields.decode("utf-8").split("\n") if v]
    # -T fields prints a string as the field's value up to 4.0; from 4.2 on
    # tshark escapes backslashes itself (write_specified_fields), so the
    # plugin's visible escapes arrive doubled there.
    major, minor = (int(x) for x in wireshark_minor(r.tshark).split("."))
    shown = HOSTILE_NQN_SHOWN if (major, minor) < (4, 2) else HOSTILE_NQN_SHOWN.replace("\\", "\\\\")
    if not values or any(v.split(",") != [shown] * len(v.split(",")) for v in values):
        raise Fail("subnqn in -T fields %r, want %r" % (values, shown))
    text = r.run_octets(["-2", "-r", q, "-V", "-Y", "iwarp.nvme.connect.subnqn"] + TSHARK_OPTS)
    if raw_controls(text):
        raise Fail("tshark -V writes %s" % raw_controls(text))
    if b"\n! FAKE" in text or b"\n ! FAKE" in text:
        raise Fail("the NQN starts a line of its own in -V")
    return "%d NQN fields in -T json and %d lines of -T fields escaped; -V clean" % (len(found), len(values))


def check_crc_label(r, cap_off, cap_on):
    """The CRC field says why it was not checked (issue 32 item 5): "CRC not
    in use" on every FPDU of a connection that did not negotiate CRC, never
    on one that did."""
    counts = []
    for cap, want in ((cap_off, True), (cap_on, False)):
        xml = r.run(["-r", cap, "-Y", "iwarp.mpa.crc", "-T", "pdml"] + TSHARK_OPTS)
        shown = [f.get("showname", "") for _, protos in pdml_packets(xml) for p in protos
                 for f in p.iter("field") if f.get("name") == "iwarp.mpa.crc"]
        says = [("CRC not in use" in x) for x in shown]
        if not shown or any(v != want for v in says):
            raise Fail("%s: %d CRC fields, %d say 'CRC not in use' (want %s)" %
                       (os.path.basename(cap), len(shown), sum(says), "all" if want else "none"))
        counts.append(len(shown))
    return "%d CRC fields not in use said so, %d in use did not" % tuple(counts)


def check_protocol_column(r, cap):
    """The Protocol column names a frame's top layer (issue 32 item 5): the
    frames holding an NVMe command (opcode), a completion (SQ head) or part
    of a capsule say NVMe-oF, the other iWARP frames iWARP.

    The column is read as tshark prints it (-T tabs summary lines), not
    through the _ws.col.protocol field: from 4.2 on that field is filled
    when the frame's dissectors are done, before the postdissectors (the
    plugin is one) run, so it says TCP where the column itself, in tshark's
    lines and in the GUI, says what the plugin set."""
    fmt = 'gui.column.format:"No.","%m","Protocol","%p","Info","%i"'
    cols = {}
    for line in r.run(["-2", "-r", cap, "-T", "tabs", "-o", fmt] + TSHARK_OPTS).splitlines():
        f = line.strip().split("\t")
        if len(f) >= 3 and f[0].isdigit():
            cols[f[0]] = (f[1], f[2])
    out = r.run(["-2", "-r", cap, "-Y", "iwarp.mpa", "-T", "fields", "-e", "frame.number",
                 "-e", "iwarp.nvme.opcode", "-e", "iwarp.nvme.sqhd"] + TSHARK_OPTS)
    n_nvme = n_iwarp = 0
    for line in out.splitlines():
        f = (line.split("\t") + ["", "", ""])[:3]
        if f[0] not in cols:
            raise Fail("frame %s: no summary line" % f[0])
        proto, info = cols[f[0]]
        # a command, a completion, or the first FPDUs of a capsule that
        # spans several
        capsule = bool(f[1] or f[2] or "NVMe capsule (part)" in info)
        want = "NVMe-oF" if capsule else "iWARP"
        if proto != want:
            raise Fail("frame %s: Protocol column %r, want %r (%s)" % (f[0], proto, want, info))
        n_nvme += capsule
        n_iwarp += not capsule
    if not n_nvme:
        raise Fail("no NVMe capsule frame: the sample does not test this")
    return "%d capsule frames say NVMe-oF, %d other iWARP frames say iWARP" % (n_nvme, n_iwarp)


def check_doctor_frame(r, cap):
    """A frame's interop doctor item says findings and rules apart (issue 32
    item 3): "N rules broken" when each of its findings is of another rule,
    else "N findings of M rules", N and M counted from its iwarp.rule items."""
    xml = r.run(["-2", "-r", cap, "-Y", "iwarp.rule", "-T", "pdml"] + TSHARK_OPTS)
    n_frames = n_mixed = 0
    for num, protos in pdml_packets(xml):
        # (the doctor's item is inside the frame's first iwarp.mpa item)
        for proto in [p for top in protos for p in top.iter("proto")]:
            if proto.get("name") != "iwarp":
                continue
            rules = [f.get("show") for f in proto.iter("field") if f.get("name") == "iwarp.rule"]
            n, m = len(rules), len(set(rules))
            want = ("%d rule%s broken" % (m, "" if m == 1 else "s")) if n == m else \
                   ("%d finding%s of %d rule%s" % (n, "" if n == 1 else "s", m, "" if m == 1 else "s"))
            shown = proto.get("showname", "")
            if not shown.endswith(": " + want):
                raise Fail("frame %s: %r, its %d findings are of %d rules" % (num, shown, n, m))
            n_frames += 1
            n_mixed += n != m
    if not n_mixed:
        raise Fail("no frame with several findings of one rule: the sample does not test this")
    return "%d frames say findings and rules apart (%d with several findings of one rule)" % (n_frames, n_mixed)


def find_sample(samples, name):
    """The capture NAME (with or without .pcap/.pcapng) in samples/real or
    samples/generated."""
    for sub in ("real", "generated"):
        for ext in ("", ".pcap", ".pcapng"):
            p = os.path.join(samples, sub, name + ext)
            if os.path.isfile(p):
                return p
    raise Fail("no sample named %s" % name)


# ---- PDML: one record per FPDU, in dissection order ----

def field_val(f):
    v = f.get("show")
    return v


def stack_protos(pkt):
    """The proto elements of a PDML packet in stack order, as the plugin
    shows them: a frame with several PDUs has one iwarp.mpa item holding
    each PDU's stack, then zero-length summary items per further protocol
    (packet-iwarp-layers.c); those are read through, the summaries left out.
    The interop doctor's item ("iwarp"), inside the first iwarp.mpa item, is
    no layer of the stack."""
    out = []
    container = False
    for proto in pkt.findall("proto"):
        inner = [p for p in proto.findall("proto") if p.get("name") != "iwarp"]
        if proto.get("name") == "iwarp.mpa" and inner:
            out.extend(inner)
            container = True
        elif container and proto.get("size") == "0" and proto.get("name", "").startswith("iwarp."):
            continue
        else:
            out.append(proto)
    return out


def pdml_fpdus(xml_text):
    """frame number -> list of FPDU dicts (iwarp.mpa FPDU + ddp + rdmap)."""
    out = {}
    root = ET.fromstring(xml_text)
    for pkt in root.iter("packet"):
        num = None
        cur = None
        lst = []
        for proto in stack_protos(pkt):
            name = proto.get("name")
            if name == "frame":
                for f in proto.iter("field"):
                    if f.get("name") == "frame.number":
                        num = int(f.get("show"))
                        break
            if name not in ("iwarp.mpa", "iwarp.ddp", "iwarp.rdmap"):
                continue
            fields = {}
            for f in proto.iter("field"):
                n = f.get("name")
                if n == "iwarp.mpa.marker.fpduptr":
                    fields.setdefault("markers", []).append(int(f.get("show")))
                if n and n not in fields:
                    fields[n] = f.get("show")
            if name == "iwarp.mpa":
                if "iwarp.mpa.ulpdu_len" in fields:
                    cur = {"mpa": fields}
                    lst.append(cur)
                else:
                    cur = None
            elif cur is not None:
                cur[name.split(".")[1]] = fields
        if lst:
            out[num] = lst
    return out


def as_int(v):
    if v is None:
        return None
    v = v.strip()
    if v in ("True", "true"):
        return 1
    if v in ("False", "false"):
        return 0
    return int(v, 0)


CRC_MAP = {"ok": 1, "bad": 0, "none": 2, "unverifiable": 3}


def check_truth(r, cap, truth_path):
    truth = json.load(open(truth_path))
    xml = r.run(["-2", "-r", cap, "-T", "pdml"] + TSHARK_OPTS)
    got = pdml_fpdus(xml)
    with open(cap, "rb") as f:
        head = f.read(24)
    # a classic pcap's snapshot length below a full frame: sliced
    sliced = len(head) == 24 and struct.unpack("<I", head[16:20])[0] < 1514 and \
        head[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1")
    ops = truth["operations"]
    errors = []
    by_frame = {}
    for t in truth["fpdus"]:
        by_frame.setdefault(t["frame"], []).append(t)
    # first response frame per operation
    first_resp = {}
    for t in truth["fpdus"]:
        if t["op"] is not None and t["op"] >= 0 and t["opcode"] in (2, 11):
            first_resp.setdefault(t["op"], t["frame"])
    for frame, tl in sorted(by_frame.items()):
        gl = got.get(frame, [])
        if len(gl) != len(tl):
            errors.append("frame %d: %d FPDUs decoded, truth has %d" % (frame, len(gl), len(tl)))
            continue
        for i, (t, g) in enumerate(zip(tl, gl)):
            where = "frame %d FPDU %d" % (frame, i + 1)
            ddp = g.get("ddp", {})
            rd = g.get("rdmap", {})
            mpa = g["mpa"]

            def cmp(name, want, have):
                if want is None:
                    return
                if have is None or as_int(have) != want:
                    errors.append("%s: %s = %s, truth %s" % (where, name, have, want))
            cmp("iwarp.mpa.ulpdu_len", t["ulpdu_len"], mpa.get("iwarp.mpa.ulpdu_len"))
            if not (t["crc"] == "none" and sliced and mpa.get("iwarp.mpa.crc.status") is None):
                # (a CRC field not in use is shown only where captured: a
                # sliced capture may have cut it)
                cmp("iwarp.mpa.crc.status", CRC_MAP[t["crc"]], mpa.get("iwarp.mpa.crc.status"))
            want_m = [m["fpduptr"] for m in t["markers"]]
            have_m = mpa.get("markers", [])
            if t["crc"] != "unverifiable" and want_m != have_m:
                errors.append("%s: markers (FPDUPTR) %s, truth %s" % (where, have_m, want_m))
            elif want_m[:len(have_m)] != have_m:
                errors.append("%s: markers (FPDUPTR) %s, truth %s" % (where, have_m, want_m))
            cmp("iwarp.rdmap.opcode", t["opcode"], rd.get("iwarp.rdmap.opcode"))
            cmp("iwarp.ddp.tagged", 1 if t["tagged"] else 0, ddp.get("iwarp.ddp.tagged"))
            cmp("iwarp.ddp.last", 1 if t["last"] else 0, ddp.get("iwarp.ddp.last"))
            cmp("iwarp.ddp.stag", t["stag"], ddp.get("iwarp.ddp.stag"))
            cmp("iwarp.ddp.to", t["to"], ddp.get("iwarp.ddp.to"))
            cmp("iwarp.ddp.qn", t["qn"], ddp.get("iwarp.ddp.qn"))
            cmp("iwarp.ddp.msn", t["msn"], ddp.get("iwarp.ddp.msn"))
            cmp("iwarp.ddp.mo", t["mo"], ddp.get("iwarp.ddp.mo"))
            cmp("iwarp.rdmap.qp", t["qp"], rd.get("iwarp.rdmap.qp"))
            op = ops[t["op"]] if t["op"] is not None and t["op"] >= 0 else None
            if op is None:
                continue
            is_req = t["opcode"] in (1, 10)
            is_resp = t["opcode"] in (2, 11)
            if op["op"] == "read" or op["op"].startswith("atomic"):
                req_seen = any(x["op"] == t["op"] and x["opcode"] in (1, 10) for x in truth["fpdus"])
                if is_resp and req_seen:
                    cmp("iwarp.rdmap.request_in", op["first_frame"], rd.get("iwarp.rdmap.request_in"))
                if is_req and t["op"] in first_resp and first_resp[t["op"]] != frame:
                    cmp("iwarp.rdmap.response_in", first_resp[t["op"]], rd.get("iwarp.rdmap.response_in"))
                if is_resp and t["last"] or t["opcode"] == 11:
                    if op["latency_ns"] is not None and op["complete"]:
                        v = rd.get("iwarp.rdmap.response_time")
                        if v is None:
                            errors.append("%s: iwarp.rdmap.response_time missing, truth %d ns" % (where, op["latency_ns"]))
                        elif round(float(v) * 1e9) != op["latency_ns"]:
                            errors.append("%s: iwarp.rdmap.response_time = %s, truth %d ns" % (where, v, op["latency_ns"]))
    # error-level expert info only where the truth has a bad CRC
    bad = set(x["frame"] for x in truth["fpdus"] if x["crc"] == "bad")
    err = r.run(["-2", "-r", cap, "-Y", "_ws.malformed or _ws.expert.severity >= error", "-T", "fields",
                 "-e", "frame.number", "-e", "_ws.expert.message"] + TSHARK_OPTS)
    for line in err.splitlines():
        if line.strip() and int(line.split("\t")[0]) not in bad:
            errors.append("unexpected error: " + line)
    extra = sorted(set(got) - set(by_frame))
    if extra:
        errors.append("FPDUs decoded in frames the truth has none: %s" % extra[:20])
    if errors:
        raise Fail("\n".join(errors[:60]) + ("\n... %d more" % (len(errors) - 60) if len(errors) > 60 else ""))
    return "%d FPDUs in %d frames match" % (len(truth["fpdus"]), len(by_frame))


def check_fields(r):
    out = r.run(["-G", "fields"])
    have = set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) > 2 and parts[0] == "F":
            have.add(parts[2])
    missing = [f for f in DESIGN_FIELDS + NVME_FIELDS + TIMING_FIELDS if f not in have]
    for p in DESIGN_PREFIXES:
        if not any(h.startswith(p) for h in have):
            missing.append(p + "*")
    for proto in ("iwarp.mpa", "iwarp.ddp", "iwarp.rdmap", "iwarp.nvme"):
        if not re.search(r"^P\t[^\t]*\t%s$" % re.escape(proto), out, re.M):
            missing.append("protocol " + proto)
    if missing:
        raise Fail("missing from -G fields: " + " ".join(missing))
    return "%d DESIGN.md, %d NVMe and %d timing fields present" % (len(DESIGN_FIELDS), len(NVME_FIELDS),
                                                                   len(TIMING_FIELDS))


# Expert warnings and errors a real capture deserves (issue 21 item 4): (sample
# prefix, protocol, a regular expression the message starts with, why). Any other warning or error on
# a real sample is a false alarm: an upper-layer heuristic that declined or
# failed on a payload that is not its protocol gets none.
EXPERT_DESERVED = [
    ("15-crc-read_bw-64k", "TCP", r"Previous segment\(s\) not captured", "the capture starts mid-connection"),
    ("15-crc-read_bw-64k", "TCP", "D-SACK Sequence", "the receiver reports a duplicate segment"),
    ("15-crc-read_bw-64k", "TCP", r"This frame is a \(suspected\) out-of-order segment", "a retransmission after a loss"),
    ("26-netem-read_bw-64k", "TCP", r"Previous segment\(s\) not captured", "netem drops segments"),
    ("26-netem-read_bw-64k", "TCP", "D-SACK Sequence", "netem duplicates and reorders segments"),
    ("26-netem-read_bw-64k", "TCP", r"This frame is a \(suspected\) out-of-order segment", "netem's retransmissions"),
    ("26-netem-read_bw-64k", "iWARP MPA", r"Operation \d+: \d+ TCP segments? of it sent again", "netem's losses"),
    ("26-netem-read_bw-64k", "iWARP MPA", r"Operation \d+ waited .* in TCP reassembly", "netem's losses"),
    ("15-crc-read_bw-64k", "iWARP MPA", r"Operation \d+: \d+ TCP segments? of it sent again",
     "a segment lost on the host"),
    ("15-crc-read_bw-64k", "iWARP MPA", r"Operation \d+ waited .* in TCP reassembly", "a segment lost on the host"),
    ("27-kill-client-write_bw-tail", "TCP", r"Connection reset \(RST\)", "the client was killed: its peer resets"),
    ("27-kill-client-write_bw-tail", "iWARP MPA", "Sent after the peer closed", "the writer goes on after the FIN"),
    ("27-kill-client-write_bw-tail", "iWARP MPA", "FIN with 1 operation outstanding", "teardown mid-write"),
    ("27-kill-client-write_bw-tail", "iWARP MPA", "RST with 1 operation outstanding", "teardown mid-write"),
    ("27-kill-client-write_bw-tail", "iWARP MPA", r"RST with operations outstanding \[conn\.rst_outstanding\]",
     "the interop doctor names the same teardown (issue 23)"),
    ("27-kill-client-write_bw-tail", "iWARP MPA", "Octets of this direction were not captured",
     "the capture is the tail of a connection"),
    ("32-smb-direct-chelsio", "TCP", r"Previous segment\(s\) not captured", "20 octets the redirector lost"),
    ("32-smb-direct-chelsio", "TCP", r"ACKed segment that wasn't captured", "the same 20 octets, ACKed"),
    ("32-smb-direct-chelsio", "iWARP MPA", r"20 octets responder to initiator .* were never captured",
     "the same 20 octets (the RTR's Read Response)"),
    ("32-smb-direct-chelsio", "iWARP MPA", "Octets of this direction were not captured", "the gap"),
    ("32-smb-direct-chelsio", "iWARP MPA", "FPDU boundaries responder to initiator lost", "the gap"),
]


def check_rdmap_frames(r, cap, cli, path):
    """The frames whose frame.protocols lists iwarp.rdmap (two passes) are the
    frames the CLI's `fpdus` list has an RDMAP header completed in (issue 21
    item 4)."""
    got = sorted(int(x) for x in r.run(["-2", "-r", cap, "-Y", 'frame.protocols contains "iwarp.rdmap"', "-T",
                                        "fields", "-e", "frame.number"] + TSHARK_OPTS).split())
    out = subprocess.run([cli, "fpdus", "--format", "jsonl", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True).stdout.decode()
    want = sorted({d["frame"] for d in map(json.loads, filter(str.strip, out.splitlines()))
                   if d.get("opcode") is not None})
    if got != want:
        only_p = sorted(set(got) - set(want))[:20]
        only_c = sorted(set(want) - set(got))[:20]
        raise Fail("frame.protocols lists iwarp.rdmap on %d frames, the CLI has RDMAP headers in %d; only the "
                   "plugin: %s; only the CLI: %s" % (len(got), len(want), only_p, only_c))
    return "frame.protocols lists iwarp.rdmap on the %d frames the CLI's fpdus name" % len(got)


def expert_rows(text):
    """[(severity, count, group, protocol, summary)] of `-z expert,warn` output."""
    rows, sev = [], None
    for l in text.splitlines():
        m = re.match(r"^(Errors|Warns|Notes|Chats|Comments) \(", l)
        if m:
            sev = m.group(1)
            continue
        m = re.match(r"^\s+(\d+)\s+(\S+)\s+(\S.*?)  (\S.*)$", l)
        if m and sev:
            rows.append((sev, int(m.group(1)), m.group(2), m.group(3).strip(), m.group(4).strip()))
    return rows


def check_clean(r, cap, expect_errors=()):
    """The plugin decoded the capture (frames with iwarp.mpa and with RDMAP
    headers: a plugin that decodes nothing is not clean, issue 25 item 5), no
    malformed item and no error-level expert info in any frame; on a real
    sample no warning either, but those EXPERT_DESERVED lists. Returns the
    warnings' count."""
    out = r.run(["-r", cap, "-Y", "_ws.malformed or _ws.expert.severity >= error", "-T", "fields",
                 "-e", "frame.number", "-e", "_ws.expert.message",
                 "-z", "io,stat,0,iwarp.mpa,iwarp.rdmap.opcode"] + TSHARK_OPTS)
    out, iostat = cut_block(out, "IO Statistics")
    decoded = io_stat_frames(iostat)
    if decoded is None or len(decoded) != 2 or not all(decoded):
        raise Fail("the plugin decoded too little: frames with iwarp.mpa, with iwarp.rdmap.opcode: %s\n%s" %
                   (decoded, iostat))
    bad = [l for l in out.splitlines() if l.strip() and not any(e in l for e in expect_errors)]
    if bad:
        raise Fail("frames with malformed items or errors:\n" + "\n".join(bad[:30]))
    name = os.path.basename(cap)
    if not re.match(r"^\d\d-", name):
        return 0
    rows = expert_rows(r.run(["-2", "-q", "-r", cap, "-z", "expert,warn"] + TSHARK_OPTS))
    false = ["%s %d x %s: %s" % (sev, n, proto, msg) for sev, n, _, proto, msg in rows
             if not any(name.startswith(s) and proto == p and re.match(m, msg) for s, p, m, _ in EXPERT_DESERVED)]
    if false:
        raise Fail("expert items the capture does not deserve:\n" + "\n".join(false[:30]))
    return sum(n for _, n, _, _, _ in rows)


def check_listed(r, version):
    """`tshark -G plugins` lists the plugin once, with its version, as a
    dissector, loaded from the personal plugin directory of this Wireshark's
    major.minor: what a user checks first when the protocols do not show."""
    want_dir = personal_plugin_dir(r.home, r.tshark)
    try:
        out, err, rc = r.run_raw(["-G", "plugins"], timeout=120)
    except subprocess.TimeoutExpired:
        raise Fail("tshark -G plugins gave no answer in 120 s")
    if rc != 0:
        raise Fail("tshark -G plugins failed (%d): %s" % (rc, err[-2000:]))
    rows = [line.split("\t") for line in out.splitlines()]
    ours = [[c.strip() for c in row] for row in rows if row and row[0].strip() == "iwarpscope.so"]
    if len(ours) != 1:
        raise Fail("tshark -G plugins lists iwarpscope.so %d times (want once)" % len(ours))
    row = ours[0]
    if len(row) < 4:
        raise Fail("unexpected tshark -G plugins line: %r" % "\t".join(row))
    if row[1] != version:
        raise Fail("listed with version %r, built as %r" % (row[1], version))
    if row[2] != "dissector":
        raise Fail("listed as %r, not as a dissector" % row[2])
    if os.path.dirname(row[3]) != want_dir:
        raise Fail("loaded from %s, not from %s" % (row[3], want_dir))
    return "tshark %s lists iwarpscope.so %s, a dissector, from plugins/%s/epan" % (
        wireshark_minor(r.tshark), version, wireshark_minor(r.tshark))


def check_coexist(r, cap):
    out = r.run(["-r", cap, "-Y", "(iwarp_mpa or iwarp_ddp_rdmap) and (iwarp.mpa or iwarp.ddp or iwarp.rdmap)",
                 "-T", "fields", "-e", "frame.number"] + TSHARK_OPTS)
    both = out.split()
    if both:
        raise Fail("frames decoded by both the built-in and the plugin: " + " ".join(both[:20]))
    out = r.run(["-r", cap, "-Y", "iwarp_mpa or iwarp_ddp_rdmap", "-T", "fields", "-e", "frame.number"] + TSHARK_OPTS)
    if out.split():
        raise Fail("frames still decoded by the built-in dissectors: " + " ".join(out.split()[:20]))
    ours = r.run(["-r", cap, "-Y", "iwarp.mpa", "-T", "fields", "-e", "frame.number"] + TSHARK_OPTS).split()
    if not ours:
        raise Fail("the plugin decoded nothing")
    return "%d frames decoded by the plugin, none by the built-in" % len(ours)


ULP_FIELDS = ["frame.number", "rpcordma.xid", "rpc.xid", "rpc.msgtyp", "nfs.procedure_v3"]


def ulp_frames(r, cap, builtin_only=False, two_pass=True):
    args = (["-2"] if two_pass else []) + ["-r", cap, "-Y", "rpc or rpcordma", "-T", "fields"]
    for f in ULP_FIELDS:
        args += ["-e", f]
    out = r.run(args + TSHARK_OPTS, builtin_only=builtin_only)
    return [l.split("\t") for l in out.splitlines() if l.strip()]


def check_ulp(r, cap, truth_path):
    """Upper layers decode on top of the plugin as they do on the built-in
    dissector: RPC-over-RDMA rebuilds a Read chunk from the Read Request and
    the tagged Read Responses we hand it, and a Write chunk from RDMA Writes."""
    ours = ulp_frames(r, cap)
    theirs = ulp_frames(r, cap, builtin_only=True)
    if not theirs:
        raise Fail("the built-in dissectors decoded no RPC here: the comparison would prove nothing")
    if ours != theirs:
        raise Fail("upper layers differ:\n plugin   %s\n built-in %s" % (ours, theirs))
    truth = json.load(open(truth_path))
    reads = [o for o in truth["operations"] if o["op"] == "read"]
    if not reads:
        raise Fail("the truth has no RDMA Read")
    for two_pass in (True, False):
        rows = ours if two_pass else ulp_frames(r, cap, two_pass=False)
        # NFSv3 WRITE call (procedure 7, message type 0) rebuilt from the Read chunk
        calls = [int(x[0]) for x in rows if x[3] == "0" and x[4] == "7"]
        want = [o["last_frame"] for o in reads]
        if calls != want:
            raise Fail("%s: NFS WRITE call decoded in frames %s, expected in the last Read Response %s" %
                       ("two-pass" if two_pass else "one-pass", calls, want))
    bad = r.run(["-2", "-r", cap, "-Y", "_ws.malformed or _ws.expert.severity >= error", "-T", "fields",
                 "-e", "frame.number"] + TSHARK_OPTS).split()
    if bad:
        raise Fail("malformed or error items in frames " + " ".join(bad))
    return "%d frames with RPC decode as on the built-in; WRITE call rebuilt in frame(s) %s" % (
        len(ours), [o["last_frame"] for o in reads])


# NFSv3 procedure counts of the real NFS/RDMA captures: the server's
# /proc/net/rpc/nfsd proc3 counters after the run minus before (MANIFEST.md),
# procedure number -> calls (NULL 0, GETATTR 1, LOOKUP 3, ACCESS 4, READ 6,
# WRITE 7, CREATE 8, REMOVE 12, READDIRPLUS 17, FSINFO 19, PATHCONF 20, COMMIT 21).
NFS_COUNTS = {
    "31-nfsrdma-v3": {0: 1, 1: 4, 3: 4, 4: 4, 6: 3, 7: 3, 8: 2, 12: 2, 17: 2, 19: 2, 20: 1, 21: 1},
}


def check_nfs(r, cap, name):
    """NFS over RPC-over-RDMA decodes through the plugin: every NFSv3 call the
    server counted is there with its reply (one and two passes), exactly as
    Wireshark's built-in iWARP dissectors alone decode it, and nothing is
    malformed."""
    want = NFS_COUNTS[name]
    ours = ulp_frames(r, cap)
    theirs = ulp_frames(r, cap, builtin_only=True)
    if ours != theirs:
        raise Fail("upper layers differ from the built-in decode:\n plugin   %s\n built-in %s" % (ours[:10], theirs[:10]))
    for two_pass in (True, False):
        rows = ours if two_pass else ulp_frames(r, cap, two_pass=False)
        if not two_pass and rows != ulp_frames(r, cap, builtin_only=True, two_pass=False):
            raise Fail("one-pass upper layers differ from the built-in decode")
        for msgtyp, what in (("0", "calls"), ("1", "replies")):
            got = {}
            for x in rows:
                # (in one pass a READ reply frame shows its NFS layer twice: "6,6")
                t, proc = x[3].split(",")[0], x[4].split(",")[0]
                if t == msgtyp and proc:
                    got[int(proc)] = got.get(int(proc), 0) + 1
            if got != want:
                raise Fail("%s NFSv3 %s per procedure %s, the server counted %s" %
                           ("two-pass" if two_pass else "one-pass", what, sorted(got.items()), sorted(want.items())))
    bad = r.run(["-2", "-r", cap, "-Y", "_ws.malformed or _ws.expert.severity >= error", "-T", "fields",
                 "-e", "frame.number"] + TSHARK_OPTS).split()
    if bad:
        raise Fail("malformed or error items in frames " + " ".join(bad[:20]))
    if r.run(["-r", cap, "-Y", "iwarp.nvme", "-T", "fields", "-e", "frame.number"]).split():
        raise Fail("NFS/RDMA taken for NVMe")
    return "%d NFSv3 calls and their replies decode through the plugin as the server counted them (%d RPC frames, " \
        "as on the built-in)" % (sum(want.values()), len(ours))


def ops_output(r, cap):
    """-z iwarp,ops as people read it (ms, 3 decimals)."""
    return r.run(["-q", "-r", cap, "-z", "iwarp,ops"] + TSHARK_OPTS)


def ops_raw_output(r, cap):
    """-z iwarp,ops,raw: the same tables, times in integer ns (what the tests compare)."""
    return r.run(["-q", "-r", cap, "-z", "iwarp,ops,raw"] + TSHARK_OPTS)


# The distribution columns of every table, and their keys in the CLI's JSON.
DIST_KEYS = ("min", "mean", "p50", "p90", "p99", "p999", "max")


# The statistics with golden files, each capture's three in one tshark run:
# every Wireshark line the plugin builds for (4.0, 4.4, 4.6) must print them
# octet for octet alike, so one set of files serves them all.
GOLDEN_STATS = ("ops", "nvme", "doctor")


def golden_path(gdir, cap, stat="ops"):
    return os.path.join(gdir, "%s.%s.txt" % (os.path.basename(cap), stat))


def split_stats(text):
    """{stat: its text} of a tshark -q run with several -z iwarp,STAT: each
    statistic is a block that opens and closes with a line of '=', named by
    its title line (tshark prints them in no order of ours)."""
    titles = {"iWARP operations": "ops", "NVMe over Fabrics commands": "nvme", "iWARP doctor": "doctor"}
    res, lines, i = {}, text.splitlines(True), 0
    while i < len(lines):
        if not re.match(r"^=+$", lines[i]):
            raise Fail("tshark printed a line outside any statistic: %r" % lines[i][:200])
        j = i + 1
        while j < len(lines) and lines[j].rstrip("\n") != lines[i].rstrip("\n"):
            j += 1
        if j == len(lines):
            raise Fail("a statistic's block is not closed: %r" % "".join(lines[i:i + 2])[:200])
        title = lines[i + 1].split(" (iwarpscope", 1)[0].strip() if i + 1 < j else ""
        stat = titles.get(title)
        if not stat or stat in res:
            raise Fail("unexpected statistic block %r" % title)
        res[stat] = "".join(lines[i:j + 1])
        i = j + 1
    missing = [x for x in GOLDEN_STATS if x not in res]
    if missing:
        raise Fail("tshark printed no %s statistic" % ", ".join(missing))
    return res


def golden_outputs(r, cap):
    """{stat: text} of -z iwarp,ops, -z iwarp,nvme and -z iwarp,doctor."""
    args = ["-q", "-r", cap]
    for stat in GOLDEN_STATS:
        args += ["-z", "iwarp," + stat]
    return split_stats(r.run(args + TSHARK_OPTS))


def check_golden(r, cap, gdir):
    got = golden_outputs(r, cap)
    bad = []
    for stat in GOLDEN_STATS:
        p = golden_path(gdir, cap, stat)
        if not os.path.exists(p):
            raise Fail("no golden file %s (run update-golden)" % p)
        want = open(p).read()
        if got[stat] != want:
            import difflib
            d = "".join(difflib.unified_diff(want.splitlines(True), got[stat].splitlines(True), "golden",
                                             "tshark"))
            bad.append("-z iwarp,%s differs from %s:\n%s" % (stat, p, d[:4000]))
    if bad:
        raise Fail("\n".join(bad))
    return "-z iwarp,%s match their golden files" % ", iwarp,".join(GOLDEN_STATS)


def qp_rows(text, ncols, header):
    """(qp -> {}, [(qp, columns)]) of a -z iwarp,... table: the rows of ncols
    columns under each "QP n" line (and under "All queues", qp "all"), the
    header row (first column header) left out."""
    res, rows = {}, []
    qp = None
    for line in text.splitlines():
        m = re.match(r"^QP (\d+)", line)
        if m or line.startswith("All queues"):
            qp = int(m.group(1)) if m else "all"
            res[qp] = {}
            continue
        parts = line.split()
        if qp is not None and len(parts) == ncols and parts[0] != header and parts[-1] != "Max(ns)":
            rows.append((qp, parts))
    return res, rows


def parse_ops(text):
    """qp -> op -> dict(count, complete, bytes, segments, crc_errors, lat[7] or None) from
    -z iwarp,ops,raw (times in ns)."""
    res, rows = qp_rows(text, 13, "Operation")
    for qp, parts in rows:
        lat = None if parts[6] == "-" else [int(x) for x in parts[6:13]]
        res[qp][parts[0]] = dict(count=int(parts[1]), complete=int(parts[2]), bytes=int(parts[3]),
                                 segments=int(parts[4]), crc_errors=int(parts[5]), lat=lat)
    return res


def parse_loss(text):
    """qp -> dict(ops: op -> dict(retransmissions, stall_ns, acked, ack[5] or None), tcp: [fast
    retransmits, timeouts, other retransmits, reordered, duplicate ACKs, zero windows], teardown: [(kind,
    from, frame, outstanding, ids)]) from the second table and the TCP/Teardown lines of -z iwarp,ops,raw."""
    res, rows = qp_rows(text, 11, "Delivery")
    for qp, parts in rows:
        ack = None if parts[4] == "-" else [int(x) for x in parts[4:11]]
        res[qp].setdefault("ops", {})[parts[0]] = dict(retransmissions=int(parts[1]),
                                                       stall_ns=int(parts[2]),
                                                       acked=int(parts[3]), ack=ack)
    qp = None
    for line in text.splitlines():
        m = re.match(r"^QP (\d+)", line)
        if m:
            qp = int(m.group(1))
            continue
        m = re.match(r"^  TCP: fast retransmits (\d+), timeouts (\d+), other retransmits (\d+), "
                     r"reordered (\d+), duplicate ACKs (\d+), zero windows (\d+)$", line)
        if m and qp is not None:
            res[qp]["tcp"] = [int(x) for x in m.groups()]
        m = re.match(r"^  Teardown: (FIN|RST) from (\S+) frame (\d+) outstanding (\d+) ids (\S+)$", line)
        if m and qp is not None:
            ids = [] if m.group(5) == "-" else [int(x) for x in m.group(5).split(",")]
            res[qp].setdefault("teardown", []).append((m.group(1).lower(), m.group(2), int(m.group(3)),
                                                       int(m.group(4)), ids))
    return res


def check_truth_ops(r, cap, truth_path):
    """-z iwarp,ops counts equal the truth operations (RTR messages left out, as in every
    statistic: docs/semantics.md)."""
    truth = json.load(open(truth_path))
    got = parse_ops(ops_raw_output(r, cap))
    want = {}
    for o in truth["operations"]:
        if o.get("rtr"):
            continue
        q = want.setdefault(o["qp"], {}).setdefault(o["op"], dict(count=0, complete=0, bytes=0, lat=[]))
        q["count"] += 1
        q["complete"] += 1 if o["complete"] else 0
        q["bytes"] += o["bytes"]
        if o["complete"] and o["latency_ns"] is not None:
            q["lat"].append(o["latency_ns"])
    errors = []
    for qp, d in want.items():
        for op, w in d.items():
            g = got.get(qp, {}).get(op)
            if not g:
                errors.append("qp %d %s: missing from -z iwarp,ops" % (qp, op))
                continue
            for k in ("count", "complete", "bytes"):
                if g[k] != w[k]:
                    errors.append("qp %d %s: %s = %d, truth %d" % (qp, op, k, g[k], w[k]))
            if w["lat"]:
                s = sorted(w["lat"])
                n = len(s)
                import math
                def q(p):
                    return s[max(1, math.ceil(p * n - 1e-9)) - 1]
                mean = (sum(s) + n // 2) // n
                exp = [s[0], mean, q(0.5), q(0.9), q(0.99), q(0.999), s[-1]]
                if g["lat"] != exp:
                    errors.append("qp %d %s: latency %s, truth %s" % (qp, op, g["lat"], exp))
    for qp, d in got.items():
        for op in d:
            if op not in want.get(qp, {}):
                errors.append("qp %d %s: in -z iwarp,ops, not in the truth" % (qp, op))
    if errors:
        raise Fail("\n".join(errors))
    return "operation statistics match the truth"


def cli_stats(cli, cap):
    env = dict(os.environ, TZ="UTC")
    return json.loads(subprocess.run([cli, "stats", "--format", "json", cap], stdout=subprocess.PIPE,
                                     check=True, env=env).stdout)


# Frames counted by -z io,stat over the whole capture (issue 21 item 4): the
# frames whose frame.protocols lists a layer, and the frames with that layer's
# own fields, must be the same count.
LAYER_FILTERS = [('frame.protocols contains "iwarp.rdmap"', "iwarp.rdmap.opcode"),
                 ('frame.protocols contains "iwarp.ddp"', "iwarp.ddp"),
                 ('frame.protocols contains "iwarp.mpa"', "iwarp.mpa"),
                 ('frame.protocols contains "iwarp.nvme"', "iwarp.nvme")]
LAYER_ORDER = ["iwarp.mpa", "iwarp.ddp", "iwarp.rdmap", "iwarp.nvme"]


def layer_z_args():
    flt = [f for pair in LAYER_FILTERS for f in pair]
    return ["-z", "io,phs", "-z", "io,stat,0," + ",".join(flt)]


def cut_block(text, title):
    """(text without the -z block whose title line starts with title, the block)."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l.lstrip("| ").startswith(title):
            a = i
            while a > 0 and not lines[a - 1].startswith("==="):
                a -= 1
            a = max(a - 1, 0)
            b = i + 1
            while b < len(lines) and not lines[b].startswith("==="):
                b += 1
            return "\n".join(lines[:a] + lines[b + 1:]), "\n".join(lines[a:b + 1])
    return text, ""


def io_stat_frames(iostat):
    """The frame count of each column of a one-interval -z io,stat block
    (None without its row)."""
    row = None
    for l in iostat.splitlines():
        if "<>" in l:
            row = [int(x.strip()) for x in l.split("|")[2::2] if x.strip()]
    return row


def parse_phs(phs):
    """The -z io,phs block as [(path, frames, bytes)] in its order."""
    rows, path = [], []
    for l in phs.splitlines():
        m = re.match(r"^( *)(\S+)\s+frames:(\d+)\s+bytes:(\d+)", l)
        if m:
            depth = len(m.group(1)) // 2
            path[depth:] = [m.group(2)]
            rows.append((tuple(path), int(m.group(3)), int(m.group(4))))
    return rows


def check_phs_shape(phs):
    """One protocol hierarchy (issue 32 item 5): every iWARP protocol of the
    plugin under TCP only, no branch of the plugin's other protocols (the
    interop doctor's "iwarp" items belong inside a layer, not beside one),
    and no protocol with more frames or octets than its parent."""
    errs = []
    rows = parse_phs(phs)
    at = {p: (f, b) for p, f, b in rows}
    for p, f, b in rows:
        name = p[-1]
        if name == "iwarp" or (name.startswith("iwarp.") and "tcp" not in p):
            errs.append("-z io,phs: a branch of its own: %s" % " > ".join(p))
        if len(p) > 1 and p[:-1] in at:
            pf, pb = at[p[:-1]]
            if f > pf or b > pb:
                errs.append("-z io,phs: %s has %d frames, %d octets, more than its parent's %d, %d" % (
                    " > ".join(p), f, b, pf, pb))
    return errs


def check_layers_two_pass(r, cap):
    """frame.protocols in two passes (issue 32 item 5): tshark -2 -T fields
    -e frame.protocols (the field not primed by a filter: the plugin finds
    it in the frame's tree) lists each iWARP layer on exactly the frames a
    display filter on that layer's own protocol selects, and the two-pass
    -z io,phs has the shape check_phs_shape asks for."""
    errs, counts = [], {}
    listed = {}
    for line in r.run(["-2", "-r", cap, "-T", "fields", "-e", "frame.number", "-e", "frame.protocols"]
                      + TSHARK_OPTS).splitlines():
        f = line.split("\t")
        if len(f) == 2 and f[0].isdigit():
            listed[int(f[0])] = set(f[1].split(":"))
    for layer in LAYER_ORDER:
        want = set(int(x) for x in r.run(["-2", "-r", cap, "-Y", layer, "-T", "fields", "-e", "frame.number"]
                                          + TSHARK_OPTS).split())
        got = set(n for n, ps in listed.items() if layer in ps)
        counts[layer] = len(want)
        if got != want:
            errs.append("%s: frame.protocols lists it on %d frames, -Y %s selects %d; only listed: %s; "
                        "only selected: %s" % (layer, len(got), layer, len(want), sorted(got - want)[:10],
                                               sorted(want - got)[:10]))
    text = r.run(["-2", "-q", "-r", cap, "-z", "io,phs"] + TSHARK_OPTS)
    errs += check_phs_shape(cut_block(text, "Protocol Hierarchy Statistics")[1])
    if not counts.get("iwarp.mpa"):
        errs.append("no iwarp.mpa frame: the sample does not test this")
    if errs:
        raise Fail("\n".join(errs))
    return "two passes: frame.protocols and -Y agree on %s; one hierarchy" % ", ".join(
        "%d %s" % (counts[k], k) for k in LAYER_ORDER)


def check_layer_blocks(phs, iostat):
    """Differences in frame.protocols and -z io,phs (issue 21 item 4): each
    layer's frame count equals the frames with its fields, and no iwarp layer
    sits under itself or a higher one (nor a non-protocol iwarp item)."""
    errs = []
    row = io_stat_frames(iostat)
    if row is None or len(row) != len(LAYER_FILTERS) * 2:
        return ["no -z io,stat row of layer counts:\n" + iostat]
    for k, (a, b) in enumerate(LAYER_FILTERS):
        if row[2 * k] != row[2 * k + 1]:
            errs.append("%d frames match %s, %d have %s" % (row[2 * k], a, row[2 * k + 1], b))
    errs += check_phs_shape(phs)
    path = []
    phs_frames = {}
    started = False
    for l in phs.splitlines():
        m = re.match(r"^( *)(\S+)\s+frames:(\d+)", l)
        if not m:
            continue
        started = True
        depth = len(m.group(1)) // 2
        name = m.group(2).lstrip(".")
        path[depth:] = [name]
        if name.startswith("iwarp."):
            phs_frames[name] = phs_frames.get(name, 0) + int(m.group(3))
            ranks = [LAYER_ORDER.index(x) if x in LAYER_ORDER else -1 for x in path if x.startswith("iwarp.")]
            if -1 in ranks or ranks != sorted(set(ranks)):
                errs.append("-z io,phs: %s" % " > ".join(path))
        elif name == "text" and "tcp" in path:
            errs.append("-z io,phs: a text item in the stack: %s" % " > ".join(path))
    if not started:
        errs.append("no -z io,phs output")
    if phs_frames.get("iwarp.rdmap", 0) != row[0]:
        errs.append("-z io,phs counts %d iwarp.rdmap frames, frame.protocols %d" % (
            phs_frames.get("iwarp.rdmap", 0), row[0]))
    return errs


def tap_output(r, cap, opts=(), nvme=False):
    """The statistics of one single-pass tshark run (tshark options opts) as
    people run it (`tshark -q -z ...`): dict(ops: -z iwarp,ops,raw, phs: -z
    io,phs, iostat: the -z io,stat row of layer counts (layer_z_args) and,
    with nvme, nvme: -z iwarp,nvme,raw). tshark prints each -z block after
    the packets, so one start serves every comparison of the statistics."""
    args = ["-q", "-r", cap] + layer_z_args() + ["-z", "iwarp,ops,raw"]
    text = r.run(args + (["-z", "iwarp,nvme,raw"] if nvme else []) + list(opts))
    out = {}
    if nvme:
        text, out["nvme"] = cut_block(text, "NVMe over Fabrics commands")
    text, out["phs"] = cut_block(text, "Protocol Hierarchy Statistics")
    text, out["iostat"] = cut_block(text, "IO Statistics")
    out["ops"] = text
    return out


def compare_with_cli(r, cap, cli, opts=(), taps=None, stats=None):
    """(differences, rows compared) between the plugin's -z iwarp,ops (with
    tshark options opts) and the CLI's stats on the same capture; in the same
    run, frame.protocols and -z io,phs (check_layer_blocks). taps: that run's
    tap_output already made; stats: cli_stats(cli, cap) already read."""
    if taps is None:
        taps = tap_output(r, cap, opts)
    layer_errs = check_layer_blocks(taps["phs"], taps["iostat"])
    text = taps["ops"]
    got = parse_ops(text)
    loss = parse_loss(text)
    js = cli_stats(cli, cap) if stats is None else stats
    errs = list(layer_errs)
    keys = DIST_KEYS
    for qd in js["qps"]:
        lq = loss.get(qd["qp"])
        if lq is not None:
            # the connection's TCP events and FIN/RST (issue 13)
            t = qd["tcp"]
            want = [t["fast_retransmits"], t["timeouts"], t["other_retransmits"], t["reordered"],
                    t["duplicate_acks"], t["zero_windows"]]
            if lq.get("tcp") != want:
                errs.append("qp %d TCP events: CLI %s, plugin %s" % (qd["qp"], want, lq.get("tcp")))
            want = [(x["kind"], x["from"], x["frame"], x["outstanding"], x["outstanding_ids"])
                    for x in qd["teardown"] if x["kind"] in ("fin", "rst")]
            if lq.get("teardown", []) != want:
                errs.append("qp %d teardown: CLI %s, plugin %s" % (qd["qp"], want, lq.get("teardown", [])))
        for op, st in qd.get("ops", {}).items():
            g = got.get(qd["qp"], {}).get(op)
            if not g:
                if st.get("count"):
                    errs.append("qp %d %s: CLI %d, plugin none" % (qd["qp"], op, st["count"]))
                continue
            gl = (lq or {}).get("ops", {}).get(op)
            if gl is None:
                errs.append("qp %d %s: no retransmission/stall/ack row in the plugin" % (qd["qp"], op))
            else:
                d = st.get("delivery_ns")
                want = dict(retransmissions=st["retransmissions"], stall_ns=st["stall_ns"],
                            acked=d["count"] if d else 0, ack=[d[k] for k in keys] if d else None)
                if gl != want:
                    errs.append("qp %d %s loss/delivery: CLI %s, plugin %s" % (qd["qp"], op, want, gl))
            for k in ("count", "complete", "bytes", "segments"):
                if k in st and st[k] != g[k]:
                    errs.append("qp %d %s %s: CLI %s, plugin %s" % (qd["qp"], op, k, st[k], g[k]))
            lat = st.get("latency_ns")
            if lat and lat.get("min") is not None:
                cl = [lat[k] for k in keys]
                if cl != g["lat"]:
                    errs.append("qp %d %s latency: CLI %s, plugin %s" % (qd["qp"], op, cl, g["lat"]))
    cli_ops = {(qd["qp"], op) for qd in js["qps"] for op, st in qd.get("ops", {}).items() if st.get("count")}
    for qp, d in got.items():
        for op in d:
            if (qp, op) not in cli_ops:
                errs.append("qp %d %s: plugin %d, CLI none" % (qp, op, d[op]["count"]))
    return errs, len(cli_ops)


def pdml_packets(xml_text):
    """(frame number, its proto elements) of every packet of a PDML document."""
    for pkt in ET.fromstring(xml_text).iter("packet"):
        num = None
        protos = stack_protos(pkt)
        for proto in protos:
            if proto.get("name") == "frame":
                for f in proto.iter("field"):
                    if f.get("name") == "frame.number":
                        num = int(f.get("show"))
                        break
        yield num, protos


def pdml_nvme(xml_text):
    """Every iwarp.nvme item: dicts of its fields (lists for repeated ones:
    iwarp.nvme.data_in) with the frame and the QP (iwarp.rdmap.qp)."""
    out = []
    for num, protos in pdml_packets(xml_text):
        qp = None
        for proto in protos:
            name = proto.get("name")
            if name == "iwarp.rdmap":
                for f in proto.iter("field"):
                    if f.get("name") == "iwarp.rdmap.qp":
                        qp = int(f.get("show"))
            elif name == "iwarp.nvme":
                d = {"frame": num, "qp": qp}
                for f in proto.iter("field"):
                    n = f.get("name")
                    if n.startswith("iwarp.nvme."):
                        if n == "iwarp.nvme.data_in":
                            d.setdefault(n, []).append(int(f.get("show")))
                        else:
                            d.setdefault(n, f.get("show"))
                out.append(d)
    return out


def check_nvme_fields(r, cap, want):
    """The plugin's iwarp.nvme items agree with a list of NVMe commands (a truth
    file's `nvme` list or `iwarpscope nvme --format jsonl`): each command's
    capsule decodes in a frame between its first and last frame with its qp,
    cid, opcode, op, nsid, slba, nlb (0's based), blocks, bytes, complete and
    cns/lid/fid (its Info saying "cns=0x01 ..." as the CLI's table); its completion in its
    last frame with its status, request_in (the capsule's frame), response_time
    (latency_ns) and data_time (data_ns); the capsule links to it
    (response_in) and to its data (data_in). Returns the differences."""
    items = pdml_nvme(r.run(["-2", "-r", cap, "-T", "pdml"] + TSHARK_OPTS))
    cmds = [d for d in items if "iwarp.nvme.opcode" in d]
    info = None
    if any(k in w for w in want for k in ("cns", "lid", "fid")):
        # the Info column alone (a column format, not a column field: the
        # field's name differs between versions)
        info = dict(l.strip().split(None, 1) for l in r.run(
            ["-2", "-r", cap, "-o", 'gui.column.format:"No.","%m","Info","%i"'] + TSHARK_OPTS).splitlines()
            if len(l.split()) > 1)
    resps = [d for d in items if "iwarp.nvme.status" in d]
    errs = []

    def num(d, k):
        v = d.get(k)
        return None if v is None else as_int(v)

    def ns(d, k):
        v = d.get(k)
        return None if v is None else round(float(v) * 1e9)
    used = set()
    for i, w in enumerate(want):
        where = "command %d (qp %s cid %s %s, frames %s-%s)" % (i, w["qp"], w["cid"], w["op"], w["first_frame"],
                                                                 w["last_frame"])
        c = None
        if w.get("opcode") is not None:
            cand = [d for d in cmds if d["qp"] == w["qp"] and num(d, "iwarp.nvme.cid") == w["cid"] and
                    w["first_frame"] <= d["frame"] <= w["last_frame"] and id(d) not in used]
            if not cand:
                errs.append("%s: no command capsule decoded" % where)
            else:
                c = cand[0]
                used.add(id(c))
                for k, f in (("opcode", "iwarp.nvme.opcode"), ("nsid", "iwarp.nvme.nsid"), ("slba", "iwarp.nvme.slba"),
                             ("nlb", "iwarp.nvme.nlb"), ("blocks", "iwarp.nvme.blocks"),
                             ("bytes", "iwarp.nvme.bytes"), ("qid", "iwarp.nvme.qid"),
                             ("complete", "iwarp.nvme.complete"), ("cns", "iwarp.nvme.cns"),
                             ("lid", "iwarp.nvme.lid"), ("fid", "iwarp.nvme.fid")):
                    if k in w and num(c, f) != (int(w[k]) if isinstance(w[k], bool) else w[k]):
                        errs.append("%s: %s = %s, want %s" % (where, f, c.get(f), w[k]))
                for k in ("cns", "lid", "fid"):
                    said = "%s=0x%02x" % (k, w[k]) if k in w else None
                    if said and said not in info.get(str(c["frame"]), ""):
                        errs.append("%s: Info of frame %d does not say %s: %s" % (where, c["frame"], said,
                                                                               info.get(str(c["frame"]))))
                if c.get("iwarp.nvme.op") != w["op"]:
                    errs.append("%s: iwarp.nvme.op = %s" % (where, c.get("iwarp.nvme.op")))
                if w.get("status") is not None and c["frame"] != w["last_frame"] and \
                        num(c, "iwarp.nvme.response_in") != w["last_frame"]:
                    errs.append("%s: iwarp.nvme.response_in = %s" % (where, c.get("iwarp.nvme.response_in")))
                if w.get("data_ns") and not c.get("iwarp.nvme.data_in"):
                    errs.append("%s: no iwarp.nvme.data_in" % where)
        if w.get("status") is None:
            continue
        cand = [d for d in resps if d["qp"] == w["qp"] and num(d, "iwarp.nvme.cid") == w["cid"] and
                d["frame"] == w["last_frame"]]
        if not cand:
            errs.append("%s: no completion decoded in frame %d" % (where, w["last_frame"]))
            continue
        e = cand[0]
        if num(e, "iwarp.nvme.status") != w["status"]:
            errs.append("%s: iwarp.nvme.status = %s, want %s" % (where, e.get("iwarp.nvme.status"), w["status"]))
        if c is not None:
            if num(e, "iwarp.nvme.request_in") != c["frame"]:
                errs.append("%s: iwarp.nvme.request_in = %s, capsule in %d" % (where, e.get("iwarp.nvme.request_in"),
                                                                               c["frame"]))
            if w.get("latency_ns") is not None and ns(e, "iwarp.nvme.response_time") != w["latency_ns"]:
                errs.append("%s: iwarp.nvme.response_time = %s, want %d ns" % (
                    where, e.get("iwarp.nvme.response_time"), w["latency_ns"]))
            if w.get("data_ns") and ns(e, "iwarp.nvme.data_time") != w["data_ns"]:
                errs.append("%s: iwarp.nvme.data_time = %s, want %d ns" % (where, e.get("iwarp.nvme.data_time"),
                                                                           w["data_ns"]))
    extra = [d for d in cmds if id(d) not in used]
    if extra:
        errs.append("command capsules decoded that are not in the list: frames %s" % [d["frame"] for d in extra[:20]])
    failed = sorted(d["frame"] for d in resps if num(d, "iwarp.nvme.status"))
    want_failed = sorted(w["last_frame"] for w in want if w.get("status"))
    if failed != want_failed:
        errs.append("error statuses in frames %s, want %s" % (failed, want_failed))
    ex = sorted(set(int(x) for x in r.run(["-2", "-r", cap, "-Y", "_ws.expert.message contains \"failed:\"",
                                           "-T", "fields", "-e", "frame.number"] + TSHARK_OPTS).split()))
    if ex != sorted(set(want_failed)):
        errs.append("iwarp.nvme.status.error expert items in frames %s, want %s" % (ex, sorted(set(want_failed))))
    return errs, len(cmds)


def parse_nvme(text):
    """qp -> (qid, op) -> dict(count, complete, errors, bytes, iops (None: "-"), lat[7] or None,
    data[7] or None) from tshark -z iwarp,nvme,raw (times in ns)."""
    res, rows = qp_rows(text, 21, "Qid")

    def dist(v):
        return None if v[0] == "-" else [int(x) for x in v]
    for qp, parts in rows:
        qid = None if parts[0] == "-" else parts[0] if parts[0] == "all" else int(parts[0])
        res[qp][(qid, parts[1])] = dict(count=int(parts[2]), complete=int(parts[3]), errors=int(parts[4]),
                                        bytes=int(parts[5]), iops=None if parts[6] == "-" else int(parts[6]),
                                        lat=dist(parts[7:14]), data=dist(parts[14:21]))
    return res


def compare_nvme_with_cli(r, cap, cli, opts=(), taps=None, stats=None):
    """(differences, rows compared) between the plugin's -z iwarp,nvme and the
    nvme sections of the CLI's stats, per QP, queue and command type. taps: a
    tap_output(..., nvme=True) of the same run already made; stats: the CLI's."""
    if taps is None:
        taps = dict(nvme=r.run(["-q", "-r", cap, "-z", "iwarp,nvme,raw"] + list(opts)))
    got = parse_nvme(taps["nvme"])
    js = cli_stats(cli, cap) if stats is None else stats
    errs, rows = [], 0
    keys = DIST_KEYS
    cli_rows = set()
    # each QP's rows, then the "all" rows (a row per command type over every
    # queue: the total's all_ops, the plugin's "All queues")
    every = [dict(qp=q["qp"], ops=q.get("nvme", {}).get("ops", [])) for q in js["qps"]]
    every.append(dict(qp="all", ops=[dict(s, qid="all") for s in js["total"].get("nvme", {}).get("all_ops", [])]))
    for qd in every:
        for st in qd["ops"]:
            k = (st["qid"], st["op"])
            cli_rows.add((qd["qp"], k))
            rows += 1
            g = got.get(qd["qp"], {}).get(k)
            if not g:
                errs.append("qp %s qid %s %s: CLI %d commands, plugin none" % (qd["qp"], k[0], k[1], st["count"]))
                continue
            for f in ("count", "complete", "errors", "bytes", "iops"):
                if st[f] != g[f]:
                    errs.append("qp %s qid %s %s %s: CLI %s, plugin %s" % (qd["qp"], k[0], k[1], f, st[f], g[f]))
            for f, gk in (("latency_ns", "lat"), ("data_ns", "data")):
                cl = [st[f][x] for x in keys] if st[f] else None
                if cl != g[gk]:
                    errs.append("qp %s qid %s %s %s: CLI %s, plugin %s" % (qd["qp"], k[0], k[1], f, cl, g[gk]))
    for qp, d in got.items():
        for k in d:
            if (qp, k) not in cli_rows:
                errs.append("qp %s qid %s %s: plugin %d commands, CLI none" % (qp, k[0], k[1], d[k]["count"]))
    return errs, rows


def pdml_op_ends(xml_text):
    """(qp, op id) -> list of the iwarp.rdmap items that carry an operation's
    numbers (those with iwarp.rdmap.retransmissions: its last FPDU), each a
    dict of its fields with the frame."""
    out = {}
    for num, protos in pdml_packets(xml_text):
        for proto in protos:
            if proto.get("name") == "iwarp.rdmap":
                d = {"frame": num}
                for f in proto.iter("field"):
                    n = f.get("name")
                    if n and n.startswith("iwarp.rdmap.") and n not in d:
                        d[n] = f.get("show")
                if "iwarp.rdmap.retransmissions" in d and "iwarp.rdmap.op.id" in d:
                    key = (as_int(d["iwarp.rdmap.qp"]), as_int(d["iwarp.rdmap.op.id"]))
                    out.setdefault(key, []).append(d)
    return out


class OpsView:
    """What the plugin shows of operations, TCP events and FIN/RST, from one
    two-pass tshark run (-T pdml of the frames that carry any of them: an
    operation's numbers on its last FPDU, an iwarp.rdmap.tcp_event, an
    iwarp.rdmap.teardown.kind):
      op_ends    (qp, op id) -> [dict of the iwarp.rdmap fields] (pdml_op_ends)
      tcp_events [(tcp.stream, [event bits])], one per frame with events
      teardowns  [(frame, kind, outstanding, [ids])], one per FIN/RST"""

    FILTER = "iwarp.rdmap.retransmissions or iwarp.rdmap.tcp_event or iwarp.rdmap.teardown.kind"

    def __init__(self, r, cap, opts=None):
        xml = r.run(["-2", "-r", cap, "-Y", self.FILTER, "-T", "pdml", "-J", "frame tcp iwarp.mpa iwarp.rdmap"] +
                    list(TSHARK_OPTS if opts is None else opts))
        self.op_ends = pdml_op_ends(xml)
        self.tcp_events, self.teardowns = [], []
        for pkt in ET.fromstring(xml).iter("packet"):
            vals = {}
            for f in pkt.iter("field"):
                vals.setdefault(f.get("name"), []).append(f.get("show"))
            frame = int(vals["frame.number"][0])
            events = [int(x, 0) for x in vals.get("iwarp.rdmap.tcp_event", [])]
            if events:
                self.tcp_events.append((int(vals["tcp.stream"][0]), events))
            # each FIN/RST lists its outstanding operation ids (at most 1024) after it
            ids = [as_int(x) for x in vals.get("iwarp.rdmap.teardown.op_id", [])]
            for k, o in zip(vals.get("iwarp.rdmap.teardown.kind", []), vals.get("iwarp.rdmap.teardown.outstanding", [])):
                k, o = as_int(k), as_int(o)
                mine, ids = ids[:min(o, 1024)], ids[min(o, 1024):]
                self.teardowns.append((frame, k, o, mine))


def pdml_teardowns(r, cap):
    """[(frame, kind, outstanding, [ids])] of every FIN/RST the plugin shows."""
    return OpsView(r, cap).teardowns


# The CLI's per-operation numbers (ops --format jsonl) and the plugin fields
# that carry them on the operation's last FPDU (times in ns).
OP_FRAMES = (("first_frame", "iwarp.rdmap.first_transmission"), ("first_frame", "iwarp.rdmap.op.first_frame"),
             ("last_frame", "iwarp.rdmap.op.last_frame"),
             ("first_inorder_frame", "iwarp.rdmap.op.first_inorder_frame"))
OP_BOOLS = (("complete", "iwarp.rdmap.op.complete"), ("payload_captured", "iwarp.rdmap.op.payload_captured"),
            ("rtr", "iwarp.rdmap.op.rtr"), ("after_close", "iwarp.rdmap.op.after_close"))
OP_TIMES = (("stall_ns", "iwarp.rdmap.stall"), ("queued_ns", "iwarp.rdmap.queued"),
            ("ack_ns", "iwarp.rdmap.ack_time"), ("latency_ns", "iwarp.rdmap.response_time"))
SEV_FIN, SEV_RST = 10, 11


def compare_ops_with_cli(r, cap, ops, teardown, tcp, view=None):
    """Each operation of the CLI's `ops` list against the plugin's fields on
    its last FPDU: its frames (first transmission, first in order, last), the
    flags (complete, payload_captured, rtr, after_close), retransmissions,
    stall, queued, the covering ACK (ack_in, ack_time, ack_with_data) and the
    response time; every FIN/RST of the CLI's teardown lists with its
    outstanding operations; the TCP events marked frame by frame
    (iwarp.rdmap.tcp_event) summed per QP against the CLI's tcp counts (tcp:
    qp -> that dict). view: the OpsView of the capture already made (else one
    with TSHARK_OPTS). Returns (differences, operations, FIN/RST compared)."""
    if view is None:
        view = OpsView(r, cap)
    got = view.op_ends
    errs, n = [], 0

    def ns(v):
        return None if v is None else round(float(v) * 1e9)
    seen = set()
    for o in ops:
        key = (o["qp"], o["id"])
        seen.add(key)
        where = "qp %d op %d (%s, frames %s-%s)" % (o["qp"], o["id"], o["op"], o["first_frame"], o["last_frame"])
        recs = got.get(key, [])
        if len(recs) != 1:
            errs.append("%s: %d plugin items with its numbers, want 1" % (where, len(recs)))
            continue
        d = recs[0]

        def cmp(name, want, have):
            if want != have:
                errs.append("%s: %s = %s, CLI %s" % (where, name, have, want))
        cmp("frame of its numbers (last FPDU)", o["last_frame"], d["frame"])
        for k, f in OP_FRAMES:
            cmp(f, o[k], as_int(d.get(f)))
        for k, f in OP_BOOLS:
            cmp(f, 1 if o[k] else 0, as_int(d.get(f)))
        cmp("iwarp.rdmap.op.pairing", o.get("pairing"), d.get("iwarp.rdmap.op.pairing"))
        # a pair proven late shows as one proven on the way: the request
        # link on its first response (here its only one)
        if o.get("latency_ns") is not None and o["op"] == "read" and o["segments"] == 2:
            cmp("iwarp.rdmap.request_in", o["first_frame"], as_int(d.get("iwarp.rdmap.request_in")))
        cmp("iwarp.rdmap.retransmissions", o["retransmissions"], as_int(d.get("iwarp.rdmap.retransmissions")))
        cmp("iwarp.rdmap.reordered", o["reordered"], as_int(d.get("iwarp.rdmap.reordered")))
        cmp("iwarp.rdmap.ack_in", o["ack_frame"], as_int(d.get("iwarp.rdmap.ack_in")))
        cmp("iwarp.rdmap.ack_with_data", (1 if o["ack_with_data"] else 0) if o["ack_frame"] is not None else None,
            as_int(d.get("iwarp.rdmap.ack_with_data")))
        for k, f in OP_TIMES:
            want = o[k]
            if k == "queued_ns" and "iwarp.rdmap.queued" not in d and want == 0:
                continue  # shown for reads and atomics only
            cmp(f, want, ns(d.get(f)))
        n += 1
    for key in got:
        if key not in seen:
            errs.append("qp %d op %d: in the plugin, not in the CLI's ops" % key)
    # TCP events frame by frame (iwarp.rdmap.tcp_event), summed per QP, equal
    # the CLI's tcp counts
    ev_names = {1: "fast_retransmits", 2: "timeouts", 4: "zero_windows", 8: "duplicate_acks",
                16: "other_retransmits", 32: "reordered", 64: "keepalives"}
    have_ev = {}
    for stream, events in view.tcp_events:
        for x in events:
            k = (stream, ev_names[x])
            have_ev[k] = have_ev.get(k, 0) + 1
    want_ev = {(qp, k): v for qp, t in tcp.items() for k, v in t.items() if v}
    if have_ev != want_ev:
        errs.append("TCP events (qp, kind): plugin %s, CLI %s" % (sorted(have_ev.items()), sorted(want_ev.items())))
    want_td = sorted((t["frame"], SEV_FIN if t["kind"] == "fin" else SEV_RST, t["outstanding"], t["outstanding_ids"])
                     for t in teardown if t["kind"] in ("fin", "rst"))
    have_td = sorted(view.teardowns)
    if want_td != have_td:
        errs.append("teardown (frame, kind, outstanding, ids): plugin %s, CLI %s" % (have_td[:8], want_td[:8]))
    return errs, n, len(want_td)


def cli_ops_teardown_tcp(cli, cap, stats=None):
    """The CLI's operations (ops --format jsonl), its FIN/RST/Terminate list
    and its TCP events per QP (stats --format json; stats: that JSON already read)."""
    env = dict(os.environ, TZ="UTC")
    out = subprocess.run([cli, "ops", "--format", "jsonl", cap], stdout=subprocess.PIPE, check=True,
                         env=env).stdout.decode()
    st = (cli_stats(cli, cap) if stats is None else stats)["qps"]
    return ([json.loads(x) for x in out.splitlines() if x.strip()],
            [t for qd in st for t in qd.get("teardown", [])], {qd["qp"]: qd["tcp"] for qd in st})


# Where each shipped coloring rule must colour something (issue 16 item 3):
# the sample, and the first frame it may colour there (a rule that matches
# too much, a boolean field tested for presence, colours earlier frames).
COLOR_EXPECT = {
    "iWARP CRC error": ("crc-corrupt", 0),
    "iWARP Terminate": ("terminate", 0),
    "iWARP teardown with work outstanding": ("rst-outstanding", 22),
    "iWARP sent after the peer closed": ("rst-outstanding", 23),
    "iWARP lost octets or framing": ("gap", 0),
    "iWARP operation retransmitted or stalled": ("26-netem-read_bw-64k", 0),
    "iWARP TCP retransmission or zero window": ("zero-window", 0),
}


def check_colorfilters(r, sample, path):
    """plugin/iwarp.colorfilters is a Wireshark coloring rules file whose every
    filter compiles, and the rules colour the frames they are for."""
    rules = []
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^!?@([^@]+)@(.+)@\[(\d+),(\d+),(\d+)\]\[(\d+),(\d+),(\d+)\]$", line)
        if not m or any(int(x) > 65535 for x in m.groups()[2:]):
            raise Fail("not a coloring rule: %r" % line)
        rules.append((m.group(1), m.group(2)))
    errs = []
    for name, filt in rules:
        want, first = COLOR_EXPECT.get(name, (None, 0))
        cap = sample(want or "rst-outstanding")[1]
        try:
            hit = [int(x) for x in r.run(["-2", "-r", cap, "-Y", filt, "-T", "fields", "-e", "frame.number"]).split()]
        except Fail as e:
            errs.append("%s: %s" % (name, e))
            continue
        if want and not hit:
            errs.append("%s: colours no frame of %s" % (name, want))
        if want and hit and min(hit) < first:
            errs.append("%s: colours frames %s of %s, none before %d expected" % (name, hit[:10], want, first))
    missing = [n for n in COLOR_EXPECT if n not in [x[0] for x in rules]]
    if missing:
        errs.append("rules missing: %s" % missing)
    if errs:
        raise Fail("\n".join(errs))
    return "%d coloring rules compile, %d colour their sample" % (len(rules), len(COLOR_EXPECT))


def check_io_graphs(r, sample, path):
    """plugin/iwarp.io_graphs is an io_graphs UAT of Wireshark 4.0 (9 quoted
    fields a line) whose filters compile and whose Y fields, graphed with
    tshark's io,stat (what I/O Graphs computes) on a capture with loss, are
    not all zero."""
    cap = sample("26-netem-read_bw-64k")[1]
    n = 0
    errs = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = re.findall(r'"([^"]*)"', line)
        if len(f) != 9 or f[0] not in ("TRUE", "FALSE") or not re.match(r"^#[0-9a-f]{6}$", f[3]):
            errs.append("not an io_graphs line: %r" % line)
            continue
        n += 1
        calc = re.match(r"^(MAX|MIN|AVG|SUM)\(Y Field\)$", f[5])
        if not calc:
            r.run(["-r", cap, "-Y", f[2], "-T", "fields", "-e", "frame.number"])
            continue
        if "nvme" in f[6]:
            continue  # not on this capture (plugin_nvme_* cover the field)
        out = r.run(["-2", "-q", "-r", cap, "-z", "io,stat,1,%s(%s)%s" % (calc.group(1), f[6], f[2])])
        vals = [float(x) for x in re.findall(r"\|\s+([0-9.]+)\s+\|", out)]
        if not any(vals):
            errs.append("%s: io,stat of %s is all zero" % (f[1], f[6]))
    if errs:
        raise Fail("\n".join(errs))
    return "%d I/O graphs: filters compile, fields plot" % n


def check_valgrind(r, cap):
    """tshark with the plugin under memcheck: no error and no definite leak
    whose stack passes through the plugin. (Errors wholly inside tshark or
    its libraries are counted in the message but are not ours to fix.)"""
    vg = shutil.which("valgrind")
    if not vg:
        print("valgrind not found: skipped")
        sys.exit(SKIP)
    # valgrind runs as tshark's user and writes its report there
    xml = os.path.join(r.workdir("vg", 0o777), "memcheck.xml")
    args = ["-r", cap, "-V", "-z", "iwarp,ops"] + load_options(os.path.basename(cap).split(".")[0])
    cmd, env = r.command(args)
    i = cmd.index(r.tshark)
    cmd[i:i] = [vg, "--keep-debuginfo=yes", "--leak-check=full", "--errors-for-leak-kinds=definite", "--xml=yes",
                "--xml-file=" + xml]
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/")
    if p.returncode != 0:
        raise Fail("valgrind tshark exited %d: %s" % (p.returncode, p.stderr.decode()[-1500:]))
    root = ET.parse(xml).getroot()
    ours, others = [], 0
    for e in root.iter("error"):
        kind = e.findtext("kind")
        if kind.startswith("Leak_") and kind != "Leak_DefinitelyLost":
            continue
        objs = [f.findtext("obj") or "" for f in e.iter("frame")]
        if any(o.endswith("iwarpscope.so") for o in objs):
            fn = [f.findtext("fn") for f in e.iter("frame") if (f.findtext("obj") or "").endswith("iwarpscope.so")]
            ours.append("%s in %s" % (kind, ", ".join(x for x in fn[:3] if x)))
        else:
            others += 1
    if ours:
        raise Fail("memcheck errors in the plugin:\n  " + "\n  ".join(ours))
    print("valgrind: clean in the plugin (%d reports wholly outside it)" % others)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--samples", default=os.path.join(ROOT, "samples"))
    ap.add_argument("--golden", default=os.path.join(HERE, "golden"))
    ap.add_argument("--cli", default=None)
    ap.add_argument("--preload", default=None,
                    help="sanitizer runtime(s) to LD_PRELOAD into tshark (sanitizer builds)")
    ap.add_argument("test")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    if not shutil.which("tshark"):
        print("SKIP: tshark is not installed (apt-get install tshark)")
        return SKIP
    if not os.path.exists(a.plugin):
        print("FAIL: plugin %s not built" % a.plugin)
        return 1
    r = Runner(a.plugin, a.preload)
    try:
        def sample(name):
            """(the sample's path, the copy tshark reads)"""
            p = find_sample(a.samples, name)
            return p, r.stage(p)
        t = a.test
        if a.args:
            TSHARK_OPTS[:] = load_options(a.args[0])
        if t == "fields":
            msg = check_fields(r)
        elif t == "truth":
            p, q = sample(a.args[0])
            tp = os.path.splitext(p)[0] + ".truth.json"
            msg = check_truth(r, q, tp) + "; " + check_truth_ops(r, q, tp)
        elif t == "clean":
            p, q = sample(a.args[0])
            n = check_clean(r, q, a.args[1:])
            msg = "iWARP frames decoded, no malformed items or errors; %d expert warnings, each one the capture " \
                  "deserves" % n
            if a.cli:
                msg += "; " + check_rdmap_frames(r, q, a.cli, p)
        elif t in ("nvme-truth", "nvme-cli"):
            # The plugin's NVMe fields equal the truth's nvme list, or the
            # CLI's `nvme --format jsonl` on the same capture.
            p, q = sample(a.args[0])
            if t == "nvme-truth":
                want = json.load(open(os.path.splitext(p)[0] + ".truth.json"))["nvme"]
            else:
                if not a.cli or not os.access(a.cli, os.X_OK):
                    raise Fail("the CLI %s is not built" % a.cli)
                out = subprocess.run([a.cli, "nvme", "--format", "jsonl", p], stdout=subprocess.PIPE,
                                     check=True).stdout.decode()
                want = [json.loads(x) for x in out.splitlines() if x.strip()]
            if not want:
                raise Fail("no NVMe commands to compare with")
            errs, n = check_nvme_fields(r, q, want)
            if errs:
                raise Fail("\n".join(errs[:60]))
            msg = "%d NVMe commands: every capsule, completion, link and time as %s says" % (
                len(want), "the truth" if t == "nvme-truth" else "the CLI")
        elif t == "ops-cli":
            # Every operation's numbers (issue 13: frames, loss attribution,
            # covering ACK, after_close, RTR) and every FIN/RST with its
            # outstanding operations equal the CLI's on the same capture.
            p, q = sample(a.args[0])
            if not a.cli or not os.access(a.cli, os.X_OK):
                raise Fail("the CLI %s is not built" % a.cli)
            errs, n, ntd = compare_ops_with_cli(r, q, *cli_ops_teardown_tcp(a.cli, p))
            if errs:
                raise Fail("%d differences:\n" % len(errs) + "\n".join(errs[:60]))
            msg = "%d operations x %d fields, %d FIN/RST and the TCP events equal the CLI's" % (
                n, 1 + len(OP_FRAMES) + len(OP_BOOLS) + 4 + len(OP_TIMES), ntd)
        elif t == "hostile-nqn":
            p, q = sample(a.args[0])
            msg = check_hostile_nqn(r, p)
        elif t == "colorfilters":
            msg = check_colorfilters(r, sample, a.args[0])
        elif t == "io-graphs":
            msg = check_io_graphs(r, sample, a.args[0])
        elif t == "nfs":
            p, q = sample(a.args[0])
            msg = check_nfs(r, q, a.args[0])
        elif t == "ulp":
            p, q = sample(a.args[0])
            msg = check_ulp(r, q, os.path.splitext(p)[0] + ".truth.json")
        elif t == "listed":
            msg = check_listed(r, a.args[0])
        elif t == "coexist":
            p, q = sample(a.args[0])
            msg = check_coexist(r, q)
        elif t == "valgrind":
            # CI (issue 25 item 6): with IWS_VALGRIND_SAMPLE=SEED only a third
            # of the captures run under memcheck, chosen by seed and name
            # (the sanitizer stage runs every capture under ASan and UBSan);
            # the others skip, counted by ctest as skipped.
            seed = os.environ.get("IWS_VALGRIND_SAMPLE", "")
            if seed and zlib.crc32(("%s/%s" % (seed, a.args[0])).encode()) % 3:
                print("SKIP: not in this run's memcheck sample (IWS_VALGRIND_SAMPLE=%s)" % seed)
                return SKIP
            p, q = sample(a.args[0])
            check_valgrind(r, q)
            msg = "memcheck clean"

        elif t == "golden":
            p, q = sample(a.args[0])
            msg = check_golden(r, q, a.golden)
        elif t == "update-golden":
            names = a.args
            os.makedirs(a.golden, exist_ok=True)
            for n in names:
                p, q = sample(n)
                for stat, text in golden_outputs(r, q).items():
                    open(golden_path(a.golden, p, stat), "w").write(text)
                    print("wrote", golden_path(a.golden, p, stat))
            msg = "updated the golden files of %d captures" % len(names)
        elif t == "expect":
            p, q = sample(a.args[0])
            got = parse_ops(ops_raw_output(r, q))
            n = 0
            errs = []
            for line in open(os.path.join(HERE, "real-ops.txt")):
                w = line.split("#", 1)[0].split()
                if not w or w[0] != a.args[0]:
                    continue
                qp, op, cnt = int(w[1]), w[2], int(w[3])
                g = got.get(qp, {}).get(op)
                n += 1
                if not g:
                    errs.append("qp %d: no %s operations" % (qp, op))
                    continue
                if g["count"] != cnt or g["complete"] != cnt:
                    errs.append("qp %d %s: %d operations (%d complete), expected %d" % (qp, op, g["count"], g["complete"], cnt))
                if len(w) > 4 and g["bytes"] != int(w[4]):
                    errs.append("qp %d %s: %d bytes, expected %s" % (qp, op, g["bytes"], w[4]))
            if errs:
                raise Fail("\n".join(errs))
            msg = "%d expected operation counts found" % n
        elif t == "midstream":
            # The first complete FPDU of a capture that starts mid-stream is
            # decoded (two passes: the FPDU boundaries are known once a chain
            # of FPDUs has validated, a few frames later).
            p, q = sample(a.args[0])
            first = int(a.args[1])
            out = r.run(["-2", "-r", q, "-Y", "iwarp.rdmap.opcode", "-T", "fields", "-e", "frame.number"] + TSHARK_OPTS).split()
            if not out or int(out[0]) != first:
                raise Fail("first decoded FPDU in frame %s, expected %d" % (out[0] if out else "none", first))
            msg = "first FPDU decoded in frame %d" % first
        elif t == "crc-label":
            msg = check_crc_label(r, sample(a.args[0])[1], sample(a.args[1])[1])
        elif t == "layers-two-pass":
            msg = check_layers_two_pass(r, sample(a.args[0])[1])
        elif t == "protocol-column":
            msg = check_protocol_column(r, sample(a.args[0])[1])
        elif t == "doctor-frame":
            p, q = sample(a.args[0])
            msg = check_doctor_frame(r, q)
        elif t == "badcrc":
            p, q = sample(a.args[0])
            tp = os.path.splitext(p)[0] + ".truth.json"
            truth = json.load(open(tp))
            want = sorted(set(x["frame"] for x in truth["fpdus"] if x["crc"] == "bad"))
            st = sorted(set(int(x) for x in r.run(["-r", q, "-Y", "iwarp.mpa.crc.status == 0", "-T", "fields",
                                                  "-e", "frame.number"] + TSHARK_OPTS).split()))
            ex = sorted(set(int(x) for x in r.run(["-r", q, "-Y", "_ws.expert.message contains \"Bad CRC\"", "-T", "fields",
                                                  "-e", "frame.number"] + TSHARK_OPTS).split()))
            if not want:
                raise Fail("the truth has no bad CRC")
            if st != want or ex != want:
                raise Fail("bad CRC status in %s, expert info in %s; truth %s" % (st, ex, want))
            msg = "bad CRCs flagged exactly in frames %s" % want
        elif t == "cli":
            # -z iwarp,ops equals the CLI's stats on the same capture.
            p, q = sample(a.args[0])
            if not a.cli or not os.access(a.cli, os.X_OK):
                raise Fail("the CLI %s is not built" % a.cli)
            errs, rows = compare_with_cli(r, q, a.cli, TSHARK_OPTS)
            if errs:
                raise Fail("\n".join(errs))
            msg = "plugin statistics equal the CLI's (%d QP/operation rows)" % rows
        elif t == "msgcount":
            # At least as many RDMAP messages as Wireshark's built-in
            # dissector decodes (given every chance: heuristics first, so
            # that no port dissector takes the payload), no malformed frame.
            p, q = sample(a.args[0])

            def count(args, builtin):
                out = r.run(["-r", q, "-T", "fields", "-E", "occurrence=a"] + args, builtin_only=builtin)
                return sum(len([x for x in line.split(",") if x.strip()]) for line in out.splitlines())
            ours = count(["-e", "iwarp.rdmap.opcode"], False)
            theirs = count(["-o", "tcp.try_heuristic_first:TRUE", "-e", "iwarp_rdma.opcode"], True)
            bad = r.run(["-r", q, "-Y", "_ws.malformed", "-T", "fields", "-e", "frame.number"]).split()
            if ours < theirs or bad:
                raise Fail("%d RDMAP messages decoded, the built-in decodes %d; malformed frames: %s" %
                           (ours, theirs, " ".join(bad[:20]) or "none"))
            msg = "%d RDMAP messages decoded (built-in: %d), no malformed frame" % (ours, theirs)
        elif t == "ops":
            p, q = sample(a.args[0])
            sys.stdout.write(ops_output(r, q))
            msg = ""
        elif t == "pdml":
            p, q = sample(a.args[0])
            sys.stdout.write(json.dumps(pdml_fpdus(r.run(["-2", "-r", q, "-T", "pdml"] + TSHARK_OPTS)), indent=1))
            msg = ""
        else:
            ap.error("unknown test " + t)
        print("PASS: " + msg if msg else "")
        return 0
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        r.close()


if __name__ == "__main__":
    sys.exit(main())
