#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fuzz the Wireshark plugin through tshark (issue #6, part 3).

Mutates the captures in samples/ and runs tshark, unprivileged and with the
plugin loaded (the sanitized build in CI: pass --preload with the ASan
runtime), over each mutant with the full tree and the statistics tap, in
both TCP reassembly modes. A run fails on a crash or abort (non-zero exit,
sanitizer report), a hang (timeout), a GLib critical/warning, or a
"Dissector bug" item raised in one of our protocols.

Mutations, chosen per mutant by a seeded PRNG (so a failure can be replayed
with --seed and --only):
  bytes     random octet corruption of TCP payloads, as Wireshark's own
            fuzz-test does with editcap -E (rate 0.1-5 %)
  lengths   ULPDU_Length fields set to 0, 13, 14, 0xFFFF or random
  fpduptr   marker FPDUPTRs set to random / unaligned values
  opcodes   RDMAP opcodes and DDP control bits (T, L, DV, RV) changed
  queues    queue numbers, MSNs and MOs changed
  seqs      TCP sequence numbers shifted (overlaps, holes, wrap)
  mpa       MPA Request/Reply flags, Rev, PD_Length and enhanced word changed
  truncate  records cut short (caplen < len) at random points
Failing mutants are kept in --keep DIR; once fixed, they go into
tests/fuzz/tshark-regress/, which --replay DIR runs (ctest: plugin_tshark_regress).

Usage: tshark-fuzz.py --plugin SO [--preload LIB] [--iterations N | --seconds S]
                      [--seed N] [--keep DIR] [--samples DIR] [--only NAME]
       tshark-fuzz.py --plugin SO [--preload LIB] --replay DIR
"""
import argparse, os, random, struct, sys, time, shutil, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "plugin"))
import iwarp_tshark  # noqa: E402  (the unprivileged tshark runner)


# ---- pcap / pcapng records ----

def read_records(path):
    """Returns (header bytes, [record header, data] list, format) for pcap,
    or None for pcapng (mutated as raw bytes only)."""
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        end = "<"
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        end = ">"
    else:
        return None
    hdr, off, recs = data[:24], 24, []
    while off + 16 <= len(data):
        rh = bytearray(data[off:off + 16])
        caplen = struct.unpack(end + "I", rh[8:12])[0]
        recs.append([rh, bytearray(data[off + 16:off + 16 + caplen])])
        off += 16 + caplen
    return hdr, recs, end


def write_records(path, hdr, recs, end):
    with open(path, "wb") as f:
        f.write(hdr)
        for rh, d in recs:
            rh[8:12] = struct.pack(end + "I", len(d))
            f.write(rh)
            f.write(d)


def tcp_payload_span(frame):
    """Offsets (tcp_header, payload_start) of an Ethernet[/VLAN]/IPv4|IPv6/TCP
    frame, or None."""
    off, et = 12, None
    if len(frame) < 14:
        return None
    et = struct.unpack("!H", frame[12:14])[0]
    off = 14
    while et in (0x8100, 0x88A8) and len(frame) >= off + 4:
        et = struct.unpack("!H", frame[off + 2:off + 4])[0]
        off += 4
    if et == 0x0800 and len(frame) >= off + 20:
        ihl = (frame[off] & 0xF) * 4
        if frame[off + 9] != 6:
            return None
        t = off + ihl
    elif et == 0x86DD and len(frame) >= off + 40:
        if frame[off + 6] != 6:
            return None
        t = off + 40
    else:
        return None
    if len(frame) < t + 20:
        return None
    return t, t + (frame[t + 12] >> 4) * 4


def fpdu_starts(payload):
    """FPDU starts in a payload that begins on an FPDU boundary (no markers)."""
    off, out = 0, []
    while off + 4 <= len(payload):
        l = struct.unpack("!H", payload[off:off + 2])[0]
        if l < 14:
            break
        out.append(off)
        off += 2 + l + ((4 - (2 + l) % 4) % 4) + 4
    return out


def mutate(rng, hdr, recs, end, kind):
    tcp = [(i, s) for i, (rh, d) in enumerate(recs) for s in [tcp_payload_span(d)] if s and s[1] < len(d)]
    if not tcp:
        kind = "bytes"
    n = max(1, len(tcp) // rng.choice([50, 10, 3, 1])) if tcp else 0
    for _ in range(n):
        if not tcp:
            break
        i, (t, p) = rng.choice(tcp)
        d = recs[i][1]
        starts = fpdu_starts(d[p:])
        if kind == "bytes":
            rate = rng.choice([0.001, 0.01, 0.05])
            for k in range(p, len(d)):
                if rng.random() < rate:
                    d[k] = rng.randrange(256)
        elif kind == "lengths" and starts:
            s = p + rng.choice(starts)
            d[s:s + 2] = struct.pack("!H", rng.choice([0, 13, 14, 15, 0xFFFF, rng.randrange(65536)]))
        elif kind == "fpduptr":
            k = p + 4 * rng.randrange(max(1, (len(d) - p) // 4))
            if k + 4 <= len(d):
                d[k:k + 4] = struct.pack("!HH", rng.choice([0, 1, 0xFFFF]), rng.randrange(65536))
        elif kind == "opcodes" and starts:
            s = p + rng.choice(starts) + 2
            if s + 2 <= len(d):
                d[s] = rng.randrange(256) if rng.random() < 0.5 else d[s] ^ (1 << rng.randrange(8))
                d[s + 1] = (d[s + 1] & 0xF0) | rng.randrange(16) if rng.random() < 0.7 else rng.randrange(256)
        elif kind == "queues" and starts:
            s = p + rng.choice(starts) + 2
            if s + 18 <= len(d) and not d[s] & 0x80:
                f = rng.choice([6, 10, 14])
                d[s + f:s + f + 4] = struct.pack("!I", rng.choice([0, 1, 2, 3, 4, 0xFFFFFFFF, rng.randrange(1 << 32)]))
        elif kind == "seqs":
            seq = struct.unpack("!I", d[t + 4:t + 8])[0]
            delta = rng.choice([1, 4, 100, 1460, 65536, -1, -1460, 1 << 31, rng.randrange(1 << 32)])
            d[t + 4:t + 8] = struct.pack("!I", (seq + delta) & 0xFFFFFFFF)
        elif kind == "mpa":
            if d[p:p + 8] == b"MPA ID R" and len(d) >= p + 20:
                k = p + rng.choice([16, 17, 18, 19, 20, 21, 22, 23])
                if k < len(d):
                    d[k] = rng.randrange(256)
        elif kind == "truncate":
            cut = rng.randrange(p, len(d) + 1)
            del d[cut:]
    if kind == "truncate":
        return
    # occasionally drop, duplicate or swap records too
    if tcp and rng.random() < 0.3:
        i = rng.randrange(len(recs))
        op = rng.choice(["drop", "dup", "swap"])
        if op == "drop":
            del recs[i]
        elif op == "dup":
            recs.insert(i, [bytearray(recs[i][0]), bytearray(recs[i][1])])
        elif i + 1 < len(recs):
            recs[i], recs[i + 1] = recs[i + 1], recs[i]


def mutate_raw(rng, data):
    data = bytearray(data)
    for _ in range(max(1, len(data) // 500)):
        k = rng.randrange(len(data))
        data[k] = rng.randrange(256)
    return bytes(data)


KINDS = ["bytes", "lengths", "fpduptr", "opcodes", "queues", "seqs", "mpa", "truncate"]
OUR_PROTOS = ("iwarp.mpa", "iwarp.ddp", "iwarp.rdmap", "iWARP")
FILE_ERRORS = ("appears to be damaged or corrupt", "cut short in the middle of a packet",
               "isn't a capture file in a format", "has a packet larger than")
# tshark's exit status for a capture it cannot read: 2 up to Wireshark 4.0;
# from 4.2 on, ws_exit_codes.h's WS_EXIT_INVALID_FILE (3), WS_EXIT_OPEN_ERROR
# (9) and WS_EXIT_READ_ERROR (14). 4.6's pcapng reader also refuses blocks
# longer than its limit that 4.0 and 4.4 read up to the bad octets.
FILE_ERROR_EXITS = (2, 3, 9, 14)


def check_run(r, path, extra, timeout):
    """Run tshark over a mutant; return a failure string or None."""
    args = ["-r", path, "-V", "-z", "iwarp,ops", "-z", "iwarp,doctor"] + extra
    t0 = time.time()
    try:
        text, err, rc = r.run_raw(args, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang (no result in %d s)" % timeout
    sanitizer = "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err
    # tshark's own verdict on a capture the mutation broke beyond reading
    # (FILE_ERROR_EXITS, "damaged", "cut short"...) is not a plugin failure.
    unreadable = rc in FILE_ERROR_EXITS and any(m in err for m in FILE_ERRORS)
    if rc != 0 and (sanitizer or not unreadable):
        return "tshark exit status %d after %.1f s: %s" % (rc, time.time() - t0, err[-1500:])
    for line in err.splitlines():
        if "CRITICAL" in line or "WARNING **" in line or "runtime error" in line or "AddressSanitizer" in line:
            return "stderr: " + line
    for line in text.splitlines():
        if "Dissector bug" in line and any(p in line for p in OUR_PROTOS):
            return "dissector bug: " + line.strip()
    return None


def replay(a):
    """Every capture in a.replay (mutants that once failed, see
    tests/fuzz/tshark-regress/) must now pass, in both reassembly modes."""
    r = iwarp_tshark.Runner(a.plugin, a.preload)
    failures, n = [], 0
    try:
        for f in sorted(os.listdir(a.replay)):
            if not f.endswith((".pcap", ".pcapng")):
                continue
            path = r.stage(os.path.join(a.replay, f))
            for extra in ([], ["-o", "tcp.reassemble_out_of_order:TRUE"]):
                why = check_run(r, path, extra, a.timeout)
                if why:
                    failures.append("%s %s: %s" % (f, " ".join(extra), why))
                    print("FAIL", failures[-1], flush=True)
            n += 1
    finally:
        r.close()
    print("tshark-fuzz: replayed %d captures, %d failures" % (n, len(failures)))
    return 1 if failures or not n else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--preload", default=None)
    ap.add_argument("--samples", default=os.path.join(ROOT, "samples"))
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--seconds", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default=None)
    ap.add_argument("--only", default=None, help="one sample name")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--max-size", type=int, default=400_000, help="skip larger samples")
    ap.add_argument("--replay", default=None,
                    help="run every capture in this directory (kept failures) instead of mutating")
    a = ap.parse_args()
    if not shutil.which("tshark"):
        print("tshark not found: skipped")
        return 77
    if a.replay:
        return replay(a)
    if not a.iterations and not a.seconds:
        a.iterations = 40
    files = []
    for sub in ("real", "generated"):
        d = os.path.join(a.samples, sub)
        for f in sorted(os.listdir(d)):
            if f.endswith((".pcap", ".pcapng")) and os.path.getsize(os.path.join(d, f)) <= a.max_size:
                if not a.only or f.split(".")[0] == a.only:
                    files.append(os.path.join(d, f))
    r = iwarp_tshark.Runner(a.plugin, a.preload)
    # Mutants go where tshark's user can read them (and where close() removes
    # them), not next to the samples.
    work = r.workdir("mutants")
    rng = random.Random(a.seed)
    start, n, failures = time.time(), 0, []
    try:
        while True:
            if a.iterations and n >= a.iterations:
                break
            if a.seconds and time.time() - start >= a.seconds:
                break
            src = rng.choice(files)
            kind = rng.choice(KINDS)
            seed = rng.randrange(1 << 30)
            mrng = random.Random(seed)
            out = os.path.join(work, "m%05d%s" % (n, os.path.splitext(src)[1]))
            parsed = read_records(src)
            if parsed is None:
                open(out, "wb").write(mutate_raw(mrng, open(src, "rb").read()))
                kind = "raw"
            else:
                hdr, recs, end = parsed
                mutate(mrng, hdr, recs, end, kind)
                write_records(out, hdr, recs, end)
            os.chmod(out, 0o644)
            for extra in ([], ["-o", "tcp.reassemble_out_of_order:TRUE"]):
                why = check_run(r, out, extra, a.timeout)
                if why:
                    name = os.path.basename(src)
                    failures.append("%s %s seed %d %s: %s" % (name, kind, seed, " ".join(extra), why))
                    print("FAIL", failures[-1], flush=True)
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        shutil.copy(out, os.path.join(a.keep, "%s-%s-%d%s" % (
                            name.split(".")[0], kind, seed, os.path.splitext(src)[1])))
                    break
            os.unlink(out)
            n += 1
    finally:
        r.close()
    print("tshark-fuzz: %d mutants of %d samples in %.0f s, %d failures" % (n, len(files), time.time() - start, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
