#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real captures: what each tool did, according to the capture manifest
(/work/shared/captures/MANIFEST.md, summarised per check below), must be what
iwarpscope reports.

Usage: real_counts.py IWARPSCOPE SAMPLES_REAL_DIR
Every number asserted here comes from the tool's command line and documented
behaviour (rping, perftest over rdma_cm, Linux siw), not from iwarpscope's output.

Common facts (MANIFEST.md): client 10.77.0.2, server 10.77.0.1, capture on the
client's veth; siw defaults: MPA rev 2 with the enhanced word, no markers, CRC
off unless mpa_crc_required=1; MTU 1500 with TCP timestamps, so MSS 1448.
perftest with -R opens two rdma_cm connections to port 18515: a first one that
exchanges the test parameters with Sends, then the test QP (the later tcp.stream).

Linux siw sizes FPDUs to the MSS (RFC 5044 §4.5): a full tagged FPDU is
2 (ULPDU_Length) + 14 (tagged DDP header) + payload + 4 (CRC) = 1448, so it
carries 1428 payload octets and a 64 KiB message takes ceil(65536 / 1428) = 46
DDP segments.
"""
import json
import math
import os
import sys

from checklib import check, run_ok as run, verdict

SERVER = "10.77.0.1"
CLIENT = "10.77.0.2"
SEGS_64K = math.ceil(65536 / (1448 - 2 - 14 - 4))   # 46

def load(tool, path):
    ops = [json.loads(l) for l in run(tool, ["ops", "--format", "jsonl", path]).splitlines()]
    stats = json.loads(run(tool, ["stats", "--format", "json", path]))
    return ops, stats


def of(ops, qp=None, op=None, src_host=None, rtr=False):
    """The operations asked for; RTR messages (listed, flagged) only with rtr=True."""
    return [o for o in ops if (qp is None or o["qp"] == qp) and (op is None or o["op"] == op)
            and (src_host is None or o["src"].split(":")[0] == src_host)
            and o["rtr"] == rtr]


def qp_by(stats, qp):
    return next((q for q in stats["qps"] if q["qp"] == qp), None)


def rping(name, ops, stats, size, crc=False, rev=2, p2p=False):
    """rping -C 10 (-S size): per iteration the client Sends its source buffer
    (STag, address, length: 16 octets), the server RDMA Reads `size` octets from
    it and Sends a go-ahead, the client Sends its sink buffer, the server RDMA
    Writes `size` octets into it and Sends again: 10 Reads and 10 Writes by the
    server, 2 Sends by each side per iteration, all of 16 octets."""
    check(len(stats["qps"]) == 1, "%s: one QP" % name)
    q = stats["qps"][0]
    check(q["responder"].startswith(SERVER + ":7174"), "%s: rping listens on 7174" % name)
    check(q["mpa_rev"] == rev and q["crc"] == crc, "%s: MPA rev %d, CRC %s" % (name, rev, crc))
    reads, writes, sends = of(ops, op="read"), of(ops, op="write"), of(ops, op="send")
    check(len(reads) == 10 and all(o["bytes"] == size for o in reads),
          "%s: 10 reads of %d octets" % (name, size))
    check(all(o["src"].startswith(SERVER) for o in reads + writes),
          "%s: the server (the MPA responder) reads and writes" % name)
    check(all(o["latency_ns"] is not None and o["latency_ns"] > 0 and o["complete"]
              for o in reads), "%s: every read complete with a latency" % name)
    check(len(writes) == 10 and all(o["bytes"] == size for o in writes),
          "%s: 10 writes of %d octets" % (name, size))
    check(len(sends) == 40 and all(o["bytes"] == 16 for o in sends),
          "%s: 40 sends of 16 octets" % name)
    check(len(of(ops, op="send", src_host=CLIENT)) == 20, "%s: 20 sends by the client" % name)
    check(q["crc_errors"] == 0 and q["gaps"] == 0, "%s: no CRC error, no gap" % name)
    if crc:
        check(q["crc_checked"] == q["fpdus"], "%s: every FPDU's CRC verified" % name)
    check(q["p2p"] == p2p, "%s: peer-to-peer %s" % (name, p2p))
    return q


def perftest(name, ops, stats, op, n, size, per_dir=False, crc=False, rev=2):
    """perftest over rdma_cm: the last QP is the test QP."""
    check(len(stats["qps"]) == 2, "%s: control QP and test QP" % name)
    ctl, test = stats["qps"][0]["qp"], stats["qps"][-1]["qp"]
    check(set(o["op"] for o in of(ops, qp=ctl)) == {"send"},
          "%s: the control QP only Sends parameters" % name)
    t = of(ops, qp=test)
    got = of(ops, qp=test, op=op)
    check(len(got) == len(t) == n, "%s: %d %s operations on the test QP (got %d of %d)"
          % (name, n, op, len(got), len(t)))
    check(all(o["bytes"] == size for o in got), "%s: every %s carries %d octets" % (name, op, size))
    if per_dir:
        check(len(of(ops, qp=test, src_host=CLIENT)) == n // 2,
              "%s: ping-pong, half from each side" % name)
    q = qp_by(stats, test)
    check(q["responder"].endswith(":18515"), "%s: perftest port 18515" % name)
    check(q["mpa_rev"] == rev and q["crc"] == crc, "%s: MPA rev %d, CRC %s" % (name, rev, crc))
    check(q["crc_errors"] == 0 and q["gaps"] == 0, "%s: no CRC error, no gap" % name)
    return got, q


def main(argv):
    tool, real = argv[1], argv[2]

    def load_one(name):
        return load(tool, os.path.join(real, name + ".pcap"))

    # 01: rping -C 10 with the default 64-octet buffer, CRC off.
    ops, st = load_one("01-rping")
    rping("01-rping", ops, st, 64)

    # 03: ib_send_lat -n 200 -s 64: 200 ping-pong iterations, each side Sends 200
    # messages of 64 octets.
    ops, st = load_one("03-send_lat")
    perftest("03-send_lat", ops, st, "send", 400, 64, per_dir=True)

    # 04: ib_write_lat -n 200 -s 64: the same ping-pong with RDMA Writes.
    ops, st = load_one("04-write_lat")
    perftest("04-write_lat", ops, st, "write", 400, 64, per_dir=True)

    # 05: ib_read_lat -n 200 -s 64: the client issues 200 RDMA Reads of 64 octets,
    # one at a time. Each one is a request and one response, with a latency; the
    # wire latency of an operation cannot exceed what the application measured
    # for it, so the smallest is at most the client's t_min (369.72 us).
    ops, st = load_one("05-read_lat")
    reads, q = perftest("05-read_lat", ops, st, "read", 200, 64)
    check(all(o["src"].startswith(CLIENT) and o["segments"] == 2 and o["complete"]
              and o["latency_ns"] is not None for o in reads),
          "05-read_lat: each read: client request + one response, with a latency")
    check(min(o["latency_ns"] for o in reads) <= 369720,
          "05-read_lat: smallest wire latency <= the client's t_min")
    lat = q["ops"]["read"]["latency_ns"]
    check(lat and lat["count"] == 200, "05-read_lat: 200 latency samples")

    # 07: ib_write_bw -n 100 -s 65536: 100 RDMA Writes of 64 KiB from the client,
    # each 46 DDP segments (see SEGS_64K).
    ops, st = load_one("07-write_bw-64k")
    w, _ = perftest("07-write_bw-64k", ops, st, "write", 100, 65536)
    check(all(o["segments"] == SEGS_64K and o["src"].startswith(CLIENT) for o in w),
          "07-write_bw-64k: 46 segments per write, from the client")

    # 08: ib_read_bw -n 100 -s 65536: 100 RDMA Reads of 64 KiB by the client:
    # a request and 46 Read Responses each, all with a latency.
    ops, st = load_one("08-read_bw-64k")
    r, _ = perftest("08-read_bw-64k", ops, st, "read", 100, 65536)
    check(all(o["segments"] == 1 + SEGS_64K and o["latency_ns"] is not None for o in r),
          "08-read_bw-64k: 1 + 46 segments and a latency per read")

    # 13: rping -S 4000 -C 10 with CRC negotiated (mpa_crc_required=1): the same
    # pattern as 01 with 4000-octet reads and writes; every CRC verifies.
    ops, st = load_one("13-crc-rping")
    rping("13-crc-rping", ops, st, 4000, crc=True)

    # 15: ib_read_bw -n 50 -s 65536 with CRC on: 50 reads of 64 KiB, all CRCs good.
    ops, st = load_one("15-crc-read_bw-64k")
    r, q = perftest("15-crc-read_bw-64k", ops, st, "read", 50, 65536, crc=True)
    check(all(o["segments"] == 1 + SEGS_64K and o["complete"] for o in r),
          "15-crc-read_bw-64k: 50 complete reads of 1 + 46 segments")
    check(q["crc_checked"] == q["fpdus"] and q["crc_errors"] == 0,
          "15-crc-read_bw-64k: every CRC verified and good")

    # 19: rping with MPA rev 1; the server failed ("post send error") right after
    # the client's first Send, so the capture holds the rev 1 handshake (no
    # enhanced word: no IRD/ORD) and a single 16-octet Send from the client.
    ops, st = load_one("19-mpav1-rping")
    check(len(st["qps"]) == 1 and st["qps"][0]["mpa_rev"] == 1, "19: MPA rev 1")
    check(st["qps"][0]["ird"] is None and st["qps"][0]["ord"] is None, "19: no IRD/ORD in rev 1")
    check(len(ops) == 1 and ops[0]["op"] == "send" and ops[0]["bytes"] == 16
          and ops[0]["src"].startswith(CLIENT), "19: one 16-octet Send from the client")

    # 20: ib_write_bw -n 50 -s 65536 over MPA rev 1: 50 writes of 64 KiB.
    ops, st = load_one("20-mpav1-write_bw-64k")
    perftest("20-mpav1-write_bw-64k", ops, st, "write", 50, 65536, rev=1)

    # 23: rping with peer_to_peer=1: the enhanced set-up negotiates p2p and siw's
    # RTR, a zero-length RDMA Write (not an operation, RFC 6581 §7); otherwise
    # the 01 pattern.
    ops, st = load_one("23-p2p-rping")
    q = rping("23-p2p-rping", ops, st, 64, p2p=True)
    check(q["rtr"] == "write" and q["rtr_messages"] == 1, "23: one zero-length Write RTR")
    rtr = of(ops, rtr=True)
    check(len(rtr) == 1 and rtr[0]["op"] == "write" and rtr[0]["bytes"] == 0
          and rtr[0]["src"].startswith(CLIENT) and rtr[0]["complete"],
          "23: the RTR listed as a flagged zero-length Write by the initiator")

    # 26: ib_read_bw -n 30 -s 65536 with 2% loss and reordering (netem): TCP
    # recovers, so all 30 reads of 64 KiB complete; the capture shows the
    # retransmissions and out-of-order arrivals.
    ops, st = load_one("26-netem-read_bw-64k")
    r, q = perftest("26-netem-read_bw-64k", ops, st, "read", 30, 65536)
    check(all(o["complete"] and o["latency_ns"] is not None for o in r),
          "26: every read complete with a latency despite the loss")
    check(q["retransmissions"] > 0 and q["out_of_order"] > 0,
          "26: retransmissions and out-of-order segments counted")

    # 27 (tail): ib_write_bw -s 65536, frames 58000-60399 of a run whose client was
    # killed: the capture starts mid-stream (no TCP or MPA handshake: parameters
    # inferred, the first Write cut by the capture start) and the server's FIN/RST
    # end it while the client's last Write is in flight. Every Write the capture
    # shows whole is 64 KiB; only the first and the last are incomplete.
    ops, st = load_one("27-kill-client-write_bw-tail")
    q = st["qps"][0]
    check(q["handshake"] == "inferred" and q["mpa_rev"] is None, "27: handshake not captured")
    w = of(ops, qp=q["qp"], op="write")
    check(len(w) == len(ops) and len(w) > 2, "27: only Writes")
    check(not w[0]["complete"] and "started_before" in w[0]["flags"], "27: first cut by the start")
    check(not w[-1]["complete"], "27: last Write cut by the end")
    # The server's FIN (frame 819) and RSTs: the client kept sending. Writes
    # with octets sent after the FIN cannot have been placed.
    before = [o for o in w if not o["after_close"]]
    after = [o for o in w if o["after_close"]]
    check(len(after) > 10 and all(not o["complete"] and o["first_frame"] < 2400 for o in after)
          and all(o["last_frame"] > 819 for o in after)
          and all(o["last_frame"] < 819 for o in before),
          "27: Writes sent after the server's FIN flagged after_close, not complete")
    check(all(o["complete"] and o["bytes"] == 65536 and o["segments"] == SEGS_64K
              for o in before[1:]), "27: every other Write is 64 KiB in 46 segments")

    # 30: NVMe over Fabrics (nvme-rdma host, nvmet-rdma target, both on siw over lo,
    # 10.77.1.1 both ends, CRC off), `nvme connect -i 2`: the admin queue and two I/O
    # queues, three connections to the target's port 4420. In NVMe/RDMA only the
    # controller moves data: RDMA Writes into the host's buffers (host reads, Identify,
    # logs) and RDMA Reads of them (host writes). A write rides in the command capsule
    # when it fits the target's inline data size (nvmet-rdma: one page, so the four
    # 4 KiB dd writes and the 4 KiB io-passthru write) and on I/O queues only (the
    # admin Connect's 1024 octets are read). RDMA Reads: that Connect data, 4 x 16 KiB,
    # 4 x 64 KiB (dd) and 8 KiB (nvme write). The AER stays outstanding at the NVMe
    # level; every RDMA operation completes. (NVMe-level counts: tests/nvme.)
    ops, st = load_one("30-nvmeof-mixed")
    check(len(st["qps"]) == 3, "30: three connections (admin + 2 I/O queues)")
    check(all(q["responder"] == "10.77.1.1:4420" and q["mpa_rev"] == 2 and not q["crc"]
              for q in st["qps"]), "30: every QP to port 4420, MPA rev 2, CRC off")
    rd = of(ops, op="read")
    resp = lambda o: o["src"].endswith(":4420")
    check(len(rd) == 10 and all(resp(o) and o["complete"] for o in rd),
          "30: 10 RDMA Reads, all by the controller, complete (got %d)" % len(rd))
    check(sorted(o["bytes"] for o in rd) == sorted([1024] + [16384] * 4 + [65536] * 4 + [8192]),
          "30: RDMA Read sizes: Connect data, 4 x 16 KiB, 4 x 64 KiB, 8 KiB")
    check(all(resp(o) for o in of(ops, op="write")), "30: RDMA Writes only by the controller")
    check(all(o["complete"] for o in ops), "30: every RDMA operation complete")

    # 31: NFSv3 over RPC-over-RDMA (nfsd on 10.77.2.1, RDMA port 20049; kernel client on
    # 10.77.2.2; MOUNT and rpcbind over plain TCP). The client's /proc/self/mountstats
    # counts for the rdma transport 31 sends and 31 receives (every RPC is a client Send
    # and a server reply Send), 3 read chunks (NFS WRITE data, wsize 524288: 512 KiB twice
    # and 64 KiB, which the server pulls with RDMA Reads), 3 write chunks and 11 reply
    # chunks, and 1115144 octets of RDMA replies (what the server's RDMA Writes place).
    # Not NVMe: no nvme section.
    ops, st = load_one("31-nfsrdma-v3")
    check(len(st["qps"]) == 1 and st["capture"]["tcp_connections"] == 3,
          "31: one iWARP QP among three TCP connections")
    q = st["qps"][0]
    check(q["responder"] == "10.77.2.1:20049" and q["initiator"].startswith("10.77.2.2:")
          and q["mpa_rev"] == 2 and not q["crc"], "31: client to the nfsd's RDMA port 20049, rev 2")
    sends = of(ops, op="send") + of(ops, op="send_inv")
    check(len(of(sends, src_host="10.77.2.2")) == 31 and len(of(sends, src_host="10.77.2.1")) == 31,
          "31: 31 RPC calls and 31 replies in Sends")
    rd = of(ops, op="read")
    check(sorted(o["bytes"] for o in rd) == [65536, 524288, 524288]
          and all(o["src"].startswith("10.77.2.1") and o["complete"] for o in rd),
          "31: the server's 3 RDMA Reads of the WRITE data")
    wr = of(ops, op="write")
    check(sum(o["bytes"] for o in wr) == 1115144 and all(o["src"].startswith("10.77.2.1") for o in wr),
          "31: 1115144 octets of RDMA Writes by the server")
    check(all(o["complete"] for o in ops) and q["gaps"] == 0, "31: every operation complete, no gap")
    check("nvme" not in q and "nvme" not in st["total"], "31: not taken for NVMe")

    # 32: SMB Direct between two Windows Server 2012 hosts with Chelsio RNICs
    # (Wireshark's sample-capture wiki, external/PROVENANCE.md): MPA revision 1,
    # CRC on (every CRC32c good), legacy IRD/ORD private data (no RFC 6581
    # word: no negotiated RTR); the initiator's first FPDU is a zero-length
    # RDMA Read Request, the RTR such stacks send (issue 31 item 8), whose
    # Read Response lies in the 20 octets the redirector never passed on.
    ops, st = load_one("32-smb-direct-chelsio")
    check(len(st["qps"]) == 1, "32: one QP")
    q = st["qps"][0]
    check(q["responder"] == "192.168.2.1:5445" and q["initiator"] == "192.168.2.254:35325"
          and q["initiator_by"] == "mpa", "32: the client opened SMB Direct's port 5445 with an MPA Request")
    check(q["mpa_rev"] == 1 and q["crc"] and q["rtr"] is None, "32: rev 1, CRC on, no negotiated RTR")
    check(q["fpdus"] == 26 and q["crc_checked"] == 26 and q["crc_errors"] == 0, "32: 26 FPDUs, every CRC good")
    check(q["gaps"] == 1 and q["gap_bytes"] == 20 and q["gap_list"][0]["dir"] == "r2i", "32: one 20-octet gap, r2i")
    check(q["rtr_messages"] == 1, "32: one RTR")
    rtr = of(ops, rtr=True)
    check(len(rtr) == 1 and rtr[0]["op"] == "read" and rtr[0]["bytes"] == 0
          and rtr[0]["src"] == "192.168.2.254:35325" and rtr[0]["first_frame"] == 10,
          "32: the RTR is the initiator's zero-length Read in frame 10")
    sends = of(ops, op="send")
    check(len(of(ops)) == 25 and len(sends) == 25 and sum(o["bytes"] for o in sends) == 7516
          and all(o["complete"] for o in sends), "32: 25 SMB Direct Sends, 7516 octets, all complete")

    return verdict()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (RuntimeError, OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print("ERROR:", repr(e))
        sys.exit(2)
