#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile inputs: capture files that overlap in time (issue 33 items 2 and
3). Each case builds its inputs at test time and runs iwarpscope under
/usr/bin/time (field_hostile.py's runner and helpers):

  overlap-fds    more overlapping files than `ulimit -n` allows: every
                 frame read, the same analysis as without the limit and as
                 of the files merged into one; past the files the source
                 keeps open at once, exit 2 with the count of frames not read
  zstd-overlap   zstd files that overlap in time, each decoder with its
                 window: the decoders within their budget (2 x
                 (--max-window + 1 MiB)), the others spilled into $TMPDIR,
                 the analysis that of the decompressed files

  overlap_hostile.py --iwarpscope PATH --dir DIR [--scale F] [--rss-scale K] CASE...
  overlap_hostile.py --list
"""
import os
import resource
import shutil
import struct
import subprocess
import sys
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import field_hostile as fh  # noqa: E402
import mkhostile as mk  # noqa: E402
from field_hostile import T0, PCAP_NS_HEADER, Skip, rec, sample_records, sane, write_pcap  # noqa: E402


def with_client_port(pkt, port):
    """The sample's packet (Ethernet, IPv4, TCP) with the client's port
    (34639) changed: another connection (the CLI does not check TCP
    checksums)."""
    at = 14 + (pkt[14] & 0x0F) * 4
    out = bytearray(pkt)
    for off in (at, at + 2):
        if struct.unpack("!H", pkt[off:off + 2])[0] == 34639:
            out[off:off + 2] = struct.pack("!H", port)
    return bytes(out)


def overlapping_set(d, nfiles, per_file):
    """A set of nfiles files that overlap in time: record k of file i is
    record k * nfiles + i of one capture (also written, merged, as
    merged.pcap); each file holds another connection (the sample with its
    client port changed)."""
    recs = sample_records()
    os.makedirs(d, exist_ok=True)
    files = [[] for _ in range(nfiles)]
    merged = []
    for k in range(per_file):
        data = recs[k % len(recs)][1]
        for i in range(nfiles):
            r = rec(T0 + (k * nfiles + i) * 1000, with_client_port(data, 20000 + i))
            files[i].append(r)
            merged.append(r)
    for i in range(nfiles):
        write_pcap(os.path.join(d, "trace.pcap" + (str(i) if i else "")), files[i])
    write_pcap(os.path.join(d, "merged.pcap"), merged)
    return os.path.join(d, "trace.pcap*"), os.path.join(d, "merged.pcap")


def nofile_limit(n):
    """A preexec function: the child may open n descriptors (ulimit -n n)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return limit


def analysis_of(out):
    """A stats JSON without what names the inputs."""
    d = json.loads(out)
    d["capture"].pop("files", None)
    return d


def case_overlap_fds(c):
    """Issue 33 item 2: files that overlap in time, more of them than the
    process may open (ulimit -n 256): every frame read, the same analysis
    as without the limit and as of the files merged into one; more files
    than the source keeps open at once: exit 2 saying how many frames were
    not read."""
    n = max(300, int(1100 * c.a.scale))
    per = 400
    pat, merged = overlapping_set(os.path.join(c.work, "set"), n, per)
    args = ["stats", "--format", "json", "--no-progress"]
    rc, out, err, secs, rss = c.tool(args + [pat], preexec=nofile_limit(256))
    d = json.loads(out) if rc == 0 else {"capture": {}}
    cap = d["capture"]
    c.check(rc == 0 and cap.get("frames") == n * per and cap.get("read_errors") == 0 and
            not cap.get("warnings") and sane(err),
            "%d overlapping files under ulimit -n 256: exit %s, %s of %d frames, read_errors %s, "
            "%d lines on stderr (%.2f s, %.0f MiB)" % (n, rc, cap.get("frames"), n * per,
                                                       cap.get("read_errors"), err.count("\n"),
                                                       secs, rss))
    c.check(rss <= c.mib(96), "peak RSS %.0f MiB <= %d MiB" % (rss, c.mib(96)))
    rc2, out2, err2, secs2, _ = c.tool(args + [pat])
    c.check(rc2 == 0 and out2 == out, "without the limit: exit %s, the same JSON (%.2f s)" %
            (rc2, secs2))
    rc3, out3, _, _, _ = c.tool(args + [merged])
    c.check(rc3 == 0 and rc == 0 and analysis_of(out3) == analysis_of(out),
            "the same analysis as of the files merged into one")
    shutil.rmtree(os.path.dirname(pat))
    # past the files the source keeps open at once (4096): refused with
    # the count of frames not read, not analysed in part
    many = 4097
    d = os.path.join(c.work, "many")
    os.makedirs(d)
    syn = sample_records()[0][1]
    for i in range(many):
        pkt = with_client_port(syn, 20000 + i)
        write_pcap(os.path.join(d, "t.pcap%d" % i), [rec(T0 + i, pkt), rec(T0 + 10**9 + i, pkt)])
    rc, out, err, secs, _ = c.tool(args + [os.path.join(d, "t.pcap*")], timeout=300)
    c.check(rc == 2 and ("of %d frames were not read" % (2 * many)) in err and not out,
            "%d overlapping files: exit %s: %s" % (many, rc, err.strip()[-160:]))


def zstd_overlapping(d, nfiles, log):
    """nfiles zstd files that overlap in time (record k of file i at
    T0 + (k * nfiles + i) us), each 2^log octets of pcap and more (one
    connection of compressible 1400-octet segments), compressed with
    zstd --long=log from a pipe: each decoder fills a 2^log window. Also
    the decompressed files (plain/), to compare with."""
    if not shutil.which("zstd"):
        raise Skip("no zstd program to make the files")
    os.makedirs(os.path.join(d, "plain"), exist_ok=True)
    payload = b"x" * 1400
    per = (1 << log) // (len(payload) + 54 + 16) + 64
    seq_at = 14 + 20 + 4  # Ethernet, IPv4, TCP: its sequence number
    for i in range(nfiles):
        pkt = mk.tcp_packet(mk.A, mk.B, 20000 + i, 18515, 0, 1, 0x18, payload)
        head, tail = pkt[:seq_at], pkt[seq_at + 4:]
        # the sequence number set in place (the CLI does not check TCP checksums)
        body = PCAP_NS_HEADER + b"".join(
            rec(T0 + (k * nfiles + i) * 1000, head + struct.pack("!I", 1000 + k * 1400) + tail)
            for k in range(per))
        with open(os.path.join(d, "plain", "p.pcap%d" % i), "wb") as f:
            f.write(body)
        with open(os.path.join(d, "z.pcap%d.zst" % i), "wb") as f:
            if subprocess.run(["zstd", "-q", "-1", "--long=%d" % log, "-c"], input=body,
                              stdout=f).returncode:
                raise Skip("zstd --long failed")
    return os.path.join(d, "z.pcap*.zst"), os.path.join(d, "plain", "p.pcap*")


def case_zstd_overlap(c):
    """Issue 33 item 3: zstd files that overlap in time each held a decoder
    with its window (8 files of --long=27: 1.06 GB). The decoders share
    2 x (--max-window + 1 MiB); past it the largest are spilled into a
    temporary file ($TMPDIR) and read from there: the same analysis as of
    the decompressed files, memory under the bound, no file left behind."""
    tmp = os.path.join(c.work, "tmp")
    os.makedirs(tmp)
    args = ["stats", "--format", "json", "--no-progress"]
    env = {"TMPDIR": tmp}
    n = max(8, int(16 * c.a.scale))
    zpat, ppat = zstd_overlapping(os.path.join(c.work, "w24"), n, 24)
    rc, out, err, secs, rss = c.tool(args + ["--max-window", "16M", zpat], env=env)
    if "without libzstd" in err:
        raise Skip("built without libzstd")
    rcp, outp, _, _, rssp = c.tool(args + [ppat])
    c.check(rc == 0 and rcp == 0 and sane(err) and analysis_of(out) == analysis_of(outp),
            "%d overlapping files with 16 MiB windows, --max-window 16M: exit %s, the analysis "
            "of the decompressed files (%.2f s)" % (n, rc, secs))
    # the budget (34 MiB) above what the decompressed files need
    c.check(rss - rssp <= c.mib(48), "decoders %.0f MiB (%.0f - %.0f) <= %d MiB for %d windows "
            "of 16 MiB" % (rss - rssp, rss, rssp, c.mib(48), n))
    c.check(not os.listdir(tmp), "nothing left in $TMPDIR: %s" % os.listdir(tmp)[:3])
    # no temporary file can be made: every frame still read, said
    rc, out2, err, _, _ = c.tool(args + ["--max-window", "16M", zpat],
                                 env={"TMPDIR": os.path.join(c.work, "missing")})
    d2 = analysis_of(out2) if rc == 0 else {"capture": {}}
    said = [w for w in d2["capture"].pop("warnings", []) if "decompressors hold more" in w]
    plain = analysis_of(outp)
    plain["capture"].pop("warnings", None)
    c.check(rc == 0 and d2 == plain and said and "decompressors hold more" in err,
            "without a temporary directory: exit %s, every frame read, said: %s" %
            (rc, said[:1]))
    shutil.rmtree(os.path.dirname(zpat))
    # the default budget (258 MiB) against three 128 MiB windows
    zpat, ppat = zstd_overlapping(os.path.join(c.work, "w27"), 3, 27)
    rc, out, err, secs, rss = c.tool(args + [zpat], env=env, timeout=300)
    rcp, outp, _, _, rssp = c.tool(args + [ppat], timeout=300)
    c.check(rc == 0 and analysis_of(out) == analysis_of(outp),
            "three overlapping files with 128 MiB windows: exit %s, the analysis of the "
            "decompressed files (%.2f s)" % (rc, secs))
    c.check(rss - rssp <= c.mib(272), "decoders %.0f MiB (%.0f - %.0f) <= %d MiB for three windows "
            "of 128 MiB" % (rss - rssp, rss, rssp, c.mib(272)))
    shutil.rmtree(os.path.dirname(zpat))


CASES = {
    "overlap-fds": case_overlap_fds,
    "zstd-overlap": case_zstd_overlap,
}


if __name__ == "__main__":
    sys.exit(fh.main(CASES, __doc__, "hostile-overlap"))
