#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Two capture points of one connection, derived from one capture, with truth.

The base capture (Ethernet, IPv4, without loss) is taken as seen at point A,
next to the connections' initiators; point B sits next to the responders,
D ns away on the wire, its clock THETA ns ahead of A's. So a segment the
initiator sends is at A at t and at B at t + D (+ THETA on B's clock); one
the responder sends is at B at t - D and at A at t. D is kept under a third
of the smallest round trip at A, so nothing at B happens before its cause.

Then, on chosen data segments of the connection with the most data in each
direction, loss is injected on a chosen side of each point, each time with
a retransmission R ns after the original (and the receiver's ACKs in
between held at the lost sequence number, as a receiver does):
  before   the original reaches neither point (lost before the upstream one)
  between  the original passes the upstream point and not the downstream one
  after    the original passes both points and is lost after them
  missed   the upstream point's capture misses it (no retransmission: the
           downstream point saw it, and the receiver got it)
Why a generated pair: no real capture set has both ends (26-netem was taken
at the requester only), and only a derived pair knows where each loss was.

Usage: points_pair.py BASE.pcap OUT_A.pcap OUT_B.pcap TRUTH.json
The truth file: the points, D, THETA, and per connection (by initiator and
responder address) and direction the counts of each loss kind.
"""
import json
import struct
import sys

sys.dont_write_bytecode = True
import pcaptool  # noqa: E402

D_NS = 150_000
THETA_NS = 2_500_000
R_NS = 3_000_000
# loss kinds per direction, spread evenly over its data segments
PLAN = {"i2r": ["between", "after"],
        "r2i": ["before", "between", "after", "before", "between", "missed"]}


def parse(rec):
    sec, frac, orig, data = rec
    if struct.unpack(">H", data[12:14])[0] != 0x0800:
        return None
    ip = 14
    ihl = (data[ip] & 15) * 4
    if data[ip + 9] != 6:
        return None
    tot = struct.unpack(">H", data[ip + 2:ip + 4])[0]
    tcp = ip + ihl
    sport, dport, seq, ack = struct.unpack(">HHII", data[tcp:tcp + 12])
    doff = (data[tcp + 12] >> 4) * 4
    flags = data[tcp + 13]
    return {"src": (data[ip + 12:ip + 16], sport), "dst": (data[ip + 16:ip + 20], dport),
            "seq": seq, "ack": ack, "flags": flags, "len": tot - ihl - doff, "ack_off": tcp + 8}


def set_ack(data, off, ack):
    return data[:off] + struct.pack(">I", ack) + data[off + 4:]


def with_ip_id(data, ip_id):
    """data with another IPv4 Identification (the header checksum follows)."""
    ihl = (data[14] & 15) * 4
    h = bytearray(data[14:14 + ihl])
    h[4:6] = struct.pack(">H", ip_id & 0xFFFF)
    h[10:12] = b"\0\0"
    w = sum(struct.unpack(">%dH" % (ihl // 2), bytes(h)))
    while w >> 16:
        w = (w & 0xFFFF) + (w >> 16)
    h[10:12] = struct.pack(">H", ~w & 0xFFFF)
    return data[:14] + bytes(h) + data[14 + ihl:]


def main(argv):
    base_path, out_a, out_b, truth_path = argv[1:5]
    base = pcaptool.read(base_path)
    mul = 1 if base.magic == pcaptool.MAGIC_NS else 1000
    pkts = []
    for i, rec in enumerate(base.records):
        t = parse(rec)
        pkts.append({"ts": rec[0] * 1_000_000_000 + rec[1] * mul, "rec": rec, "tcp": t, "i": i})
    # connections, initiators (SYN senders), data per direction
    conns = {}
    for p in pkts:
        t = p["tcp"]
        if not t:
            continue
        key = frozenset([t["src"], t["dst"]])
        c = conns.setdefault(key, {"init": t["src"], "data": {"i2r": [], "r2i": []}})
        if t["flags"] & 0x12 == 0x02:
            c["init"] = t["src"]
        p["conn"] = key
    for p in pkts:
        t = p["tcp"]
        if t and t["len"] > 0:
            c = conns[p["conn"]]
            p["dir"] = "i2r" if t["src"] == c["init"] else "r2i"
            c["data"][p["dir"]].append(p)
        elif t:
            p["dir"] = "i2r" if t["src"] == conns[p["conn"]]["init"] else "r2i"
    # the smallest round trip at A bounds D
    min_rtt = None
    for p in pkts:
        t = p["tcp"]
        if not t or not t["len"]:
            continue
        end = (t["seq"] + t["len"]) & 0xFFFFFFFF
        for q in pkts[p["i"] + 1:p["i"] + 400]:
            u = q["tcp"]
            if u and u["src"] == t["dst"] and u["flags"] & 0x10 and \
                    ((u["ack"] - end) & 0xFFFFFFFF) < 0x80000000:
                rtt = q["ts"] - p["ts"]
                min_rtt = rtt if min_rtt is None else min(min_rtt, rtt)
                break
    d = min(D_NS, (min_rtt or 3 * D_NS) // 3)
    # the connection with the most data in each direction takes the losses
    victims = {}
    for dr in ("i2r", "r2i"):
        key = max(conns, key=lambda k: len(conns[k]["data"][dr]))
        victims[dr] = key
    truth = {"points": [out_a, out_b], "oneway_ns": d, "clock_offset_ns": THETA_NS,
             "retransmit_ns": R_NS, "connections": []}
    per = {}
    extra = []      # (point, ts, rec): retransmissions
    drop = {"A": set(), "B": set()}
    for dr, kinds in PLAN.items():
        key = victims[dr]
        c = conns[key]
        ent = per.setdefault(key, {k: {"lost_before": 0, "lost_between": 0, "lost_after": 0,
                                       "missed_upstream": 0} for k in ("i2r", "r2i")})
        up, down = ("A", "B") if dr == "i2r" else ("B", "A")
        step = len(c["data"][dr]) // (len(kinds) + 1)
        for n, kind in enumerate(kinds):
            p = c["data"][dr][step * (n + 1)]
            t = p["tcp"]
            if kind in ("before", "between"):
                drop[down].add(p["i"])
            if kind == "before":
                drop[up].add(p["i"])
            if kind == "missed":
                drop[up].add(p["i"])
                ent[dr]["missed_upstream"] += 1
                continue
            ent[dr]["lost_" + kind] += 1
            # the retransmission (same octets), R after the original at the
            # sender, a datagram of its own: the sender's next IP ID (RFC 6864
            # §4.1; not the original's, which would read as reordered)
            last = max((q for q in pkts if q["tcp"] and q["tcp"]["src"] == t["src"]
                        and q["ts"] <= p["ts"] + R_NS), key=lambda q: q["ts"])
            ip_id = struct.unpack(">H", last["rec"][3][18:20])[0] + 1
            extra.append((p["ts"] + R_NS, p["rec"][:3] + (with_ip_id(p["rec"][3], ip_id),), dr))
            # the receiver's ACKs until the retransmission reached it stay at its seq
            lo, hi = p["ts"], p["ts"] + R_NS + (2 * d if dr == "i2r" else 0)
            for q in pkts:
                u = q["tcp"]
                if u and q.get("conn") == key and u["src"] == t["dst"] and lo < q["ts"] < hi \
                        and ((u["ack"] - t["seq"]) & 0xFFFFFFFF) - 1 < 0x7FFFFFFF:
                    q["rec"] = q["rec"][:3] + (set_ack(q["rec"][3], u["ack_off"], t["seq"]),)
    for key, ent in per.items():
        c = conns[key]
        other = [e for e in key if e != c["init"]][0]
        truth["connections"].append({
            "initiator": "%s:%d" % (".".join(map(str, c["init"][0])), c["init"][1]),
            "responder": "%s:%d" % (".".join(map(str, other[0])), other[1]),
            "i2r": ent["i2r"], "r2i": ent["r2i"]})
    # times at each point (base time = A's view of the initiator's packets)
    def at(point, ts, dr):
        if point == "A":
            return ts
        return (ts + d if dr == "i2r" else ts - d) + THETA_NS
    out = {"A": [], "B": []}
    for p in pkts:
        dr = p.get("dir", "i2r")
        for point in ("A", "B"):
            if p["i"] not in drop[point]:
                out[point].append((at(point, p["ts"], dr), p["rec"]))
    for ts, rec, dr in extra:
        for point in ("A", "B"):
            # upstream sees it at ts (its side), downstream D later
            t_up = ts
            if (dr == "i2r") == (point == "A"):
                t = t_up if point == "A" else t_up - d + THETA_NS
            else:
                t = t_up if point == "A" else t_up + d + THETA_NS
            out[point].append((t, rec))
    for point, path in (("A", out_a), ("B", out_b)):
        recs = []
        for ts, rec in sorted(out[point], key=lambda x: x[0]):
            recs.append((ts // 1_000_000_000, ts % 1_000_000_000, rec[2], rec[3]))
        pcaptool.write(path, pcaptool.Pcap(pcaptool.MAGIC_NS, base.snaplen, base.linktype, recs))
    with open(truth_path, "w") as f:
        json.dump(truth, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
