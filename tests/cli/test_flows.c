// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The conversation table (flows.c) on hand-made TCP segments: tcp.stream
 * numbering as Wireshark's packet-tcp.c does it (one number per
 * conversation in order of its first packet, both directions on one
 * conversation, port reuse by a SYN with another initial sequence number),
 * the table growing past its first buckets, conversations retired into
 * their compact form (still found from both sides, their bases kept, port
 * reuse, many of them retired and some taken back), and endpoint strings.
 */
#include "../unit/check.h"
#include "flows.h"

static struct tcp_pkt seg4(uint32_t a, uint16_t sp, uint32_t b, uint16_t dp, uint8_t flags,
			   uint32_t seq)
{
	struct tcp_pkt t;
	memset(&t, 0, sizeof(t));
	t.af = 4;
	for (int i = 0; i < 4; i++) {
		t.src[i] = (uint8_t)(a >> (24 - 8 * i));
		t.dst[i] = (uint8_t)(b >> (24 - 8 * i));
	}
	t.sport = sp;
	t.dport = dp;
	t.flags = flags;
	t.seq = seq;
	return t;
}

#define A 0xC0000201u /* 192.0.2.1 */
#define B 0xC0000202u
#define SYN IWS_TCP_SYN
#define ACK IWS_TCP_ACK

static void test_numbering(void)
{
	struct flow_table t;
	CHECK(flow_table_init(&t));
	int side;
	enum flow_event ev;
	struct flow *old;

	/* Two conversations interleaved: numbered by first packet. */
	struct tcp_pkt p = seg4(A, 1000, B, 7174, SYN, 100);
	struct flow *f0 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f0 && f0->stream == 0 && side == 0 && ev == FLOW_NEW && !old);
	p = seg4(A, 1001, B, 7174, SYN, 500);
	struct flow *f1 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f1 && f1->stream == 1 && ev == FLOW_NEW);
	/* The reply direction: the same conversation, side 1. */
	p = seg4(B, 7174, A, 1000, SYN | ACK, 9000);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f0 && side == 1 && ev == FLOW_EXISTING);
	CHECK(f0->base_set[1] && f0->base_seq[1] == 9000);
	/* A retransmitted SYN (the same ISN) is not a new conversation. */
	p = seg4(A, 1000, B, 7174, SYN, 100);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f0 && ev == FLOW_EXISTING && !old);
	/* A data segment first: its base is one less than its sequence number. */
	p = seg4(B, 80, A, 2000, ACK, 777);
	struct flow *f2 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f2 && f2->stream == 2 && f2->base_seq[0] == 776);
	/* The peer's first segment of f2 sets the other base. */
	p = seg4(A, 2000, B, 80, ACK, 50);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f2 && side == 1 && f2->base_seq[1] == 49);

	/* Ports reused: a SYN with another ISN starts conversation 3 on the
	 * same 4-tuple; the old one is handed back, no longer in the table. */
	p = seg4(A, 1000, B, 7174, SYN, 123456);
	struct flow *f3 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f3 && f3 != f0 && f3->stream == 3 && ev == FLOW_REUSED && old == f0 && side == 0);
	CHECK_EQ(t.nflows, 3);
	flow_release(old);
	/* Its later packets, either way, are the new conversation's. */
	p = seg4(B, 7174, A, 1000, SYN | ACK, 42);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f3 && side == 1 && !old);
	/* A SYN+ACK with another ISN does not start a new conversation. */
	p = seg4(B, 7174, A, 1000, SYN | ACK, 43);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f3 && ev == FLOW_EXISTING);
	/* A SYN from the responder's side with a new ISN reuses too (the
	 * base of that direction differs). */
	p = seg4(B, 7174, A, 1000, SYN, 99);
	struct flow *f4 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f4 && f4->stream == 4 && ev == FLOW_REUSED && old == f3 && side == 0);
	CHECK(f4->ep[0].port == 7174 && f4->ep[1].port == 1000);
	flow_release(old);
	/* The same ports on other addresses: another conversation. */
	p = seg4(A + 10, 1000, B, 7174, SYN, 100);
	struct flow *f5 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f5 && f5->stream == 5 && ev == FLOW_NEW);
	CHECK_EQ(t.next_stream, 6);

	/* IPv6 and IPv4 with the same octets are different conversations. */
	struct tcp_pkt q = seg4(A, 1000, B, 7174, ACK, 5);
	q.af = 6;
	struct flow *f6 = flow_lookup(&t, &q, &side, &ev, &old);
	CHECK(f6 && f6->stream == 6 && ev == FLOW_NEW);
	flow_table_free(&t);
}

static void test_growth(void)
{
	struct flow_table t;
	CHECK(flow_table_init(&t));
	int side;
	enum flow_event ev;
	struct flow *old;
	uint32_t n = 5000;
	for (uint32_t i = 0; i < n; i++) {
		struct tcp_pkt p = seg4(A + (i >> 12), (uint16_t)(1024 + (i & 0xFFF)), B, 7174, SYN, i);
		struct flow *f = flow_lookup(&t, &p, &side, &ev, &old);
		CHECK(f && f->stream == i);
	}
	CHECK(t.nbuckets >= n);
	/* Every conversation is still found, from either side, after the table grew. */
	uint32_t found = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct tcp_pkt p = seg4(B, 7174, A + (i >> 12), (uint16_t)(1024 + (i & 0xFFF)), ACK, 1);
		struct flow *f = flow_lookup(&t, &p, &side, &ev, &old);
		found += f && f->stream == i && side == 1 && ev == FLOW_EXISTING;
	}
	CHECK_EQ(found, n);
	CHECK_EQ(t.nflows, n);
	flow_table_free(&t);
}

/* Retire the conversation of p (it must exist). */
static void retire(struct flow_table *t, const struct tcp_pkt *p)
{
	int side;
	bool reused;
	struct flow *f = flow_find(t, p, &side, &reused);
	if (f) {
		f->done = true;
		flow_retire(t, f);
	}
}

static void test_retired(void)
{
	struct flow_table t;
	int side;
	enum flow_event ev;
	struct flow *old;
	/* a conversation whose second side has not sent yet, retired */
	struct tcp_pkt p = seg4(A, 1000, B, 7174, SYN, 100);
	CHECK(flow_table_init(&t));
	flow_lookup(&t, &p, &side, &ev, &old)->limit_skipped = true;
	retire(&t, &p);
	CHECK_EQ(t.nflows, 0);
	/* its packets find it from both sides, done and left out as it was */
	p = seg4(B, 7174, A, 1000, SYN | ACK, 9000);
	struct flow *v = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(v == &t.view && side == 1 && ev == FLOW_EXISTING && !old);
	CHECK(v->done && v->limit_skipped && !v->user && v->base_seq[0] == 100);
	/* the base the second side set is kept */
	CHECK(v->base_set[1] && v->base_seq[1] == 9000);
	p = seg4(A, 1000, B, 7174, ACK, 101);
	v = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(v == &t.view && side == 0 && v->base_set[1] && v->base_seq[1] == 9000);
	/* no new number for it: the next conversation is 1 */
	p = seg4(A, 1001, B, 7174, SYN, 5);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old)->stream == 1);
	/* a retransmitted SYN, then a SYN with another ISN: the ports reused */
	p = seg4(A, 1000, B, 7174, SYN, 100);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == &t.view && ev == FLOW_EXISTING);
	p = seg4(A, 1000, B, 7174, SYN, 777);
	struct flow *f2 = flow_lookup(&t, &p, &side, &ev, &old);
	CHECK(f2 && f2 != &t.view && f2->stream == 2 && ev == FLOW_REUSED && !old && !f2->done);
	CHECK(f2->base_seq[0] == 777 && !f2->base_set[1]);
	p = seg4(B, 7174, A, 1000, ACK, 1);
	CHECK(flow_lookup(&t, &p, &side, &ev, &old) == f2 && side == 1);
	/* IPv6: the same, in its own records */
	struct tcp_pkt q = seg4(A, 1000, B, 7174, SYN, 5);
	q.af = 6;
	q.src[15] = 9;
	CHECK(flow_lookup(&t, &q, &side, &ev, &old)->stream == 3);
	retire(&t, &q);
	struct tcp_pkt r = q;
	memcpy(r.src, q.dst, 16);
	memcpy(r.dst, q.src, 16);
	r.sport = q.dport;
	r.dport = q.sport;
	CHECK(flow_lookup(&t, &r, &side, &ev, &old) == &t.view && side == 1 && t.view.ep[0].af == 6);
	CHECK(memcmp(t.view.ep[0].addr, q.src, 16) == 0);

	/* many retired (the slots grow several times), every second one's
	 * ports then reused (removed from the compact form, the last records
	 * moved into the holes): every conversation still the one it was */
	uint32_t n = 20000, base = t.next_stream;
	for (uint32_t i = 0; i < n; i++) {
		p = seg4(A + 1 + (i >> 12), (uint16_t)(1024 + (i & 0xFFF)), B, 7174, SYN, i);
		CHECK(flow_lookup(&t, &p, &side, &ev, &old)->stream == base + i);
		retire(&t, &p);
	}
	uint32_t ok = 0;
	for (uint32_t i = 0; i < n; i += 2) {
		p = seg4(A + 1 + (i >> 12), (uint16_t)(1024 + (i & 0xFFF)), B, 7174, SYN, i + 1);
		struct flow *f = flow_lookup(&t, &p, &side, &ev, &old);
		ok += f && f->stream == base + n + i / 2 && ev == FLOW_REUSED;
	}
	CHECK_EQ(ok, n / 2);
	ok = 0;
	for (uint32_t i = 0; i < n; i++) {
		p = seg4(B, 7174, A + 1 + (i >> 12), (uint16_t)(1024 + (i & 0xFFF)), ACK, 3);
		struct flow *f = flow_lookup(&t, &p, &side, &ev, &old);
		ok += side == 1 && ev == FLOW_EXISTING &&
		      (i % 2 ? f == &t.view && f->base_seq[0] == i : f->stream == base + n + i / 2);
	}
	CHECK_EQ(ok, n);
	flow_table_free(&t);
}

static void test_endpoint_str(void)
{
	char buf[64];
	struct endpoint e;
	memset(&e, 0, sizeof(e));
	e.af = 4;
	e.addr[0] = 10;
	e.addr[3] = 7;
	e.port = 4420;
	CHECK(strcmp(endpoint_str(&e, buf), "10.0.0.7:4420") == 0);
	/* RFC 5952: the longest run of zero groups compressed, lower case. */
	static const struct {
		uint16_t w[8];
		const char *s;
	} v6[] = {
		{ { 0x2001, 0xdb8, 0, 0, 0, 0, 0, 1 }, "[2001:db8::1]:7" },
		{ { 0x2001, 0xdb8, 0, 1, 0, 0, 0, 1 }, "[2001:db8:0:1::1]:7" },
		{ { 0x2001, 0, 0, 1, 0, 0, 0xABCD, 1 }, "[2001::1:0:0:abcd:1]:7" },
		{ { 0, 0, 0, 0, 0, 0, 0, 1 }, "[::1]:7" },
		{ { 0, 0, 0, 0, 0, 0, 0, 0 }, "[::]:7" },
		{ { 0x2001, 0xdb8, 0, 1, 1, 1, 1, 1 }, "[2001:db8:0:1:1:1:1:1]:7" },
		{ { 0xfe80, 0, 0, 0, 1, 0, 0, 0 }, "[fe80::1:0:0:0]:7" },
	};
	for (size_t i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		e.af = 6;
		e.port = 7;
		for (int k = 0; k < 8; k++) {
			e.addr[2 * k] = (uint8_t)(v6[i].w[k] >> 8);
			e.addr[2 * k + 1] = (uint8_t)v6[i].w[k];
		}
		endpoint_str(&e, buf);
		if (strcmp(buf, v6[i].s) != 0)
			fprintf(stderr, "endpoint_str: %s, want %s\n", buf, v6[i].s);
		CHECK(strcmp(buf, v6[i].s) == 0);
	}
}

int main(void)
{
	test_numbering();
	test_growth();
	test_retired();
	test_endpoint_str();
	return check_done("test_flows");
}
