// SPDX-License-Identifier: GPL-2.0-or-later
/* SMB Direct messages (MS-SMBD 2.2.1 - 2.2.3) and the SMB2 header with the
 * READ/WRITE channel (MS-SMB2 2.2.1, 2.2.19, 2.2.21): complete, incomplete
 * and malformed. The real vectors are RDMA Send payloads of
 * samples/real/32-smb-direct-chelsio.pcap (after the 18-octet untagged DDP
 * header); tshark's smb_direct and smb2 dissectors read them the same
 * (values below). */
#include "check.h"
#include "iwarpscope/smbd.h"

/* frame 10: Negotiate Request */
static const char neg_req[] = "000100010000ff00540500000020000000001000";
/* frame 11: Negotiate Response */
static const char neg_resp[] = "0001000100010000ff003f000000000000001000540500005405000000001000";
/* frame 30: a Data Transfer Message with an SMB2 READ request (MessageId 8,
 * Length 174 at offset 0, Channel none) */
static const char read_req[] =
	"ff0003000000000000000000180000007100000000000000fe534d42400001000000000008000100000000000000"
	"00000800000000000000fffe0000050000000d00000000a40000000000000000000000000000000000003100"
	"5000ae0000000000000000000000b70a0000290000001900000029000000000000000000000000000000000000"
	"0000";

static uint8_t b[512];

static void test_negotiate(void)
{
	struct iws_smbd_negotiate n;
	size_t len = hex2bin(neg_req, b, sizeof(b));
	CHECK_STATUS(iws_smbd_parse_negotiate(b, len, &n), IWS_OK);
	CHECK(!n.response);
	CHECK_EQ(n.min_version, 0x0100);
	CHECK_EQ(n.max_version, 0x0100);
	CHECK_EQ(n.credits_requested, 255);
	CHECK_EQ(n.preferred_send_size, 1364);
	CHECK_EQ(n.max_receive_size, 8192);
	CHECK_EQ(n.max_fragmented_size, 1048576);
	len = hex2bin(neg_resp, b, sizeof(b));
	CHECK_STATUS(iws_smbd_parse_negotiate(b, len, &n), IWS_OK);
	CHECK(n.response);
	CHECK_EQ(n.negotiated_version, 0x0100);
	CHECK_EQ(n.credits_requested, 255);
	CHECK_EQ(n.credits_granted, 63);
	CHECK_EQ(n.status, 0);
	CHECK_EQ(n.max_read_write_size, 1048576);
	CHECK_EQ(n.preferred_send_size, 1364);
	CHECK_EQ(n.max_receive_size, 1364);
	/* another length, a version range without 1.0 */
	CHECK_STATUS(iws_smbd_parse_negotiate(b, 31, &n), IWS_MALFORMED);
	b[0] = 0x00, b[1] = 0x02;  /* MinVersion 0x0200 */
	CHECK_STATUS(iws_smbd_parse_negotiate(b, 32, &n), IWS_MALFORMED);
}

static void test_read_request(void)
{
	size_t len = hex2bin(read_req, b, sizeof(b));
	struct iws_smbd_data d;
	CHECK_EQ(len, 137);
	CHECK_STATUS(iws_smbd_parse_data(b, len, &d), IWS_OK);
	CHECK_EQ(d.credits_requested, 255);
	CHECK_EQ(d.credits_granted, 3);
	CHECK_EQ(d.flags, 0);
	CHECK_EQ(d.remaining, 0);
	CHECK_EQ(d.data_offset, 24);
	CHECK_EQ(d.data_length, 113);
	struct iws_smb2_msg m;
	CHECK_STATUS(iws_smb2_parse(b + 24, 113, &m), IWS_OK);
	CHECK_EQ(m.command, IWS_SMB2_READ);
	CHECK_EQ(m.message_id, 8);
	CHECK_EQ(m.flags & IWS_SMB2_FLAGS_RESPONSE, 0);
	CHECK(m.io);
	CHECK_EQ(m.length, 174);
	CHECK_EQ(m.offset, 0);
	CHECK_EQ(m.channel, IWS_SMB2_CHANNEL_NONE);
	CHECK_EQ(m.ndesc, 0);
	/* short: inside the SMBD header, inside the SMB2 header */
	CHECK_STATUS(iws_smbd_parse_data(b, 19, &d), IWS_NEED_MORE);
	CHECK_STATUS(iws_smb2_parse(b + 24, 63, &m), IWS_NEED_MORE);
	/* data past the message, DataOffset not 8-aligned */
	CHECK_STATUS(iws_smbd_parse_data(b, 136, &d), IWS_MALFORMED);
	b[12] = 23;
	CHECK_STATUS(iws_smbd_parse_data(b, len, &d), IWS_MALFORMED);
	b[12] = 24;
	/* not SMB2: the transform header 0xFD 'SMB' */
	b[24] = 0xFD;
	CHECK_STATUS(iws_smb2_parse(b + 24, 113, &m), IWS_MALFORMED);
}

/* An SMB2 WRITE request with Channel RDMA_V1 and two descriptors
 * (MS-SMB2 2.2.21, MS-SMBD 2.2.3.1), built field by field. */
static size_t write_rdma(uint8_t *p, uint16_t cinfo_len)
{
	memset(p, 0, 200);
	p[0] = 0xFE, p[1] = 'S', p[2] = 'M', p[3] = 'B';
	p[4] = 64;
	p[12] = IWS_SMB2_WRITE;
	p[24] = 0x2a;                          /* MessageId 42 */
	uint8_t *w = p + 64;
	w[0] = 49;                             /* StructureSize */
	w[2] = 0x70;                           /* DataOffset */
	w[8] = 0x00, w[9] = 0x10;              /* Offset 4096 */
	w[32] = IWS_SMB2_CHANNEL_RDMA_V1;
	w[36] = 0x00, w[37] = 0x30;            /* RemainingBytes 12288 */
	w[40] = 0x70;                          /* WriteChannelInfoOffset 112 */
	w[42] = (uint8_t)cinfo_len;
	uint8_t *d = p + 0x70;
	d[0] = 0x00, d[1] = 0x10;              /* offset 4096 */
	d[8] = 0x11, d[9] = 0x22, d[10] = 0x33, d[11] = 0x44; /* token 0x44332211 */
	d[13] = 0x20;                          /* length 8192 */
	d += 16;
	d[8] = 0x55;                           /* token 0x55 */
	d[13] = 0x10;                          /* length 4096 */
	return 0x70 + 32;
}

static void test_write_rdma(void)
{
	size_t len = write_rdma(b, 32);
	struct iws_smb2_msg m;
	CHECK_STATUS(iws_smb2_parse(b, len, &m), IWS_OK);
	CHECK_EQ(m.command, IWS_SMB2_WRITE);
	CHECK_EQ(m.message_id, 42);
	CHECK(m.io);
	CHECK_EQ(m.length, 0);
	CHECK_EQ(m.offset, 4096);
	CHECK_EQ(m.remaining, 12288);
	CHECK_EQ(m.channel, IWS_SMB2_CHANNEL_RDMA_V1);
	CHECK_EQ(m.ndesc, 2);
	CHECK_EQ(m.desc[0].offset, 4096);
	CHECK_EQ(m.desc[0].token, 0x44332211u);
	CHECK_EQ(m.desc[0].length, 8192);
	CHECK_EQ(m.desc[1].token, 0x55);
	CHECK_EQ(m.desc[1].length, 4096);
	/* channel info past the message, not whole descriptors */
	CHECK_STATUS(iws_smb2_parse(b, len - 1, &m), IWS_MALFORMED);
	write_rdma(b, 24);
	CHECK_STATUS(iws_smb2_parse(b, len, &m), IWS_MALFORMED);
	/* a hostile offset into the header */
	write_rdma(b, 32);
	b[64 + 40] = 8;
	CHECK_STATUS(iws_smb2_parse(b, len, &m), IWS_MALFORMED);
	/* NextCommand not 8-aligned */
	write_rdma(b, 32);
	b[20] = 3;
	CHECK_STATUS(iws_smb2_parse(b, len, &m), IWS_MALFORMED);
}

static void test_names(void)
{
	CHECK(strcmp(iws_smb2_cmd_name(IWS_SMB2_READ), "read") == 0);
	CHECK(strcmp(iws_smb2_cmd_name(IWS_SMB2_OPLOCK_BREAK), "oplock_break") == 0);
	CHECK(iws_smb2_cmd_name(0x13) == NULL);
	struct iws_smb_counts k = { 0 };
	CHECK(strcmp(iws_smb_verdict_name(iws_smb_verdict_of(&k)), "no-io") == 0);
	k.reads = 2;
	CHECK(strcmp(iws_smb_verdict_name(iws_smb_verdict_of(&k)), "inline-only") == 0);
	k.rdma_writes = 1;
	CHECK(strcmp(iws_smb_verdict_name(iws_smb_verdict_of(&k)), "rdma") == 0);
}

int main(void)
{
	test_negotiate();
	test_read_request();
	test_write_rdma();
	test_names();
	return check_done("test_smbd");
}
