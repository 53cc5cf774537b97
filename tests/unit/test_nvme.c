// SPDX-License-Identifier: GPL-2.0-or-later
/* NVMe/RDMA capsules (NVMe Base 2.0, NVM Command Set 1.0, NVMe-oF 1.1):
 * command and response capsules, Connect data, rdma_cm private data and the
 * NVMe name tables; complete, incomplete and malformed. The capsules are
 * RDMA Send payloads (after the 18-octet untagged DDP header). */
#include "check.h"
#include "iwarpscope/names.h"
#include "iwarpscope/nvme.h"

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* Fabrics Connect of samples/real/30-nvmeof-mixed.pcap frame 8 (admin queue,
 * Connect data pulled by RDMA Read through a keyed descriptor, Invalidate). */
static const char connect_admin[] =
	"7f400000 01000000 00000000 00000000 00000000 00000000"
	"00145b45 3ec13aff 000400 016ccc7b 4f"
	"00000000 1f000000 88130000 00000000 00000000 00000000";

/* Read of 32 LBAs at LBA 64 (frame 1130, I/O queue 1). */
static const char read_128k[] =
	"02407b00 01000000 00000000 00000000 00000000 00000000"
	"0050f049 3ec13aff 000002 076da573 4f"
	"40000000 00000000 1f000000 00000000 00000000 00000000";

/* Property Get of CAP, 8 octets (frame 12): a keyed descriptor of length 0. */
static const char prop_get_cap[] =
	"7f400100 04000000 00000000 00000000 00000000 00000000"
	"00000000 00000000 000000 00000000 40"
	"01000000 00000000 00000000 00000000 00000000 00000000";

static void test_connect(void)
{
	uint8_t b[64];
	struct iws_nvme_command c;
	size_t n = hex2bin(connect_admin, b, sizeof(b));
	CHECK_EQ(n, 64);
	struct iws_result r = iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_UNKNOWN, &c);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(c.opcode, IWS_NVME_OPC_FABRICS);
	CHECK_EQ(c.psdt, 1);
	CHECK_EQ(c.fuse, 0);
	CHECK_EQ(c.cid, 0);
	CHECK(c.fabrics);
	CHECK_EQ(c.fab.fctype, IWS_NVME_FCT_CONNECT);
	CHECK_EQ(c.fab.f_fctype.off, 4);
	CHECK_EQ(c.fab.recfmt, 0);
	CHECK_EQ(c.fab.qid, 0);
	CHECK_EQ(c.fab.sqsize, 31);
	CHECK_EQ(c.fab.kato, 5000);
	CHECK_EQ(c.fab.f_qid.off, 42);
	CHECK_EQ(c.fab.f_kato.off, 48);
	CHECK(c.sgl.keyed);
	CHECK(c.sgl.invalidate);
	CHECK(!c.sgl.in_capsule);
	CHECK_EQ(c.sgl.type, IWS_NVME_SGL_KEYED_DATA_BLOCK);
	CHECK_EQ(c.sgl.subtype, IWS_NVME_SGL_SUB_INVALIDATE);
	CHECK_EQ(c.sgl.addr, 0xff3ac13e455b1400ull);
	CHECK_EQ(c.sgl.length, 1024);
	CHECK_EQ(c.sgl.key, 0x7bcc6c01u);
	CHECK_EQ(c.sgl.f_length.off, 32);
	CHECK_EQ(c.sgl.f_length.len, 3);
	CHECK_EQ(c.sgl.f_key.off, 35);
	CHECK_EQ(c.sgl.f_key.len, 4);
	CHECK_EQ(c.sgl.f_id.off, 39);
	CHECK_EQ(c.icd_len, 0);
	CHECK_EQ(c.warnings, 0);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_UNKNOWN, c.opcode, c.fabrics, c.fab.fctype), "connect"));
	/* every truncation asks for the whole SQE */
	for (size_t k = 0; k < n; k++) {
		r = iws_nvme_parse_command(b, k, IWS_NVME_QUEUE_ADMIN, &c);
		CHECK_STATUS(r, IWS_NEED_MORE);
		CHECK_EQ(r.need, 64);
	}
	/* PSDT 11b is reserved */
	b[1] = 0xC0;
	r = iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_ADMIN, &c);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 1);
	/* PSDT 00b (PRPs) and FUSE 11b only warn */
	b[1] = 0x03;
	CHECK_STATUS(iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.warnings & IWS_NVME_W_PSDT_PRP);
	CHECK(c.warnings & IWS_NVME_W_FUSE);
	b[1] = 0x40;
	/* a reserved SGL descriptor type */
	b[39] = 0x6F;
	r = iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_ADMIN, &c);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 39);
	/* keyed with sub type 1 (Offset) is not defined for keyed descriptors */
	b[39] = 0x41;
	CHECK_STATUS(iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.warnings & IWS_NVME_W_SGL_SUBTYPE);
	CHECK(!c.sgl.invalidate);
}

static void test_read_queues(void)
{
	uint8_t b[64];
	struct iws_nvme_command c;
	size_t n = hex2bin(read_128k, b, sizeof(b));
	CHECK_EQ(n, 64);
	/* on an I/O queue 02h is Read */
	CHECK_STATUS(iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK_EQ(c.opcode, IWS_NVME_IO_READ);
	CHECK_EQ(c.cid, 0x7b);
	CHECK_EQ(c.nsid, 1);
	CHECK(c.rw.valid);
	CHECK_EQ(c.rw.slba, 64);
	CHECK_EQ(c.rw.nlb, 31);
	CHECK_EQ(c.rw.f_slba.off, 40);
	CHECK_EQ(c.rw.f_nlb.off, 48);
	CHECK(!c.adm.log_page);
	CHECK_EQ(c.sgl.length, 131072);
	CHECK_EQ(c.sgl.key, 0x73a56d07u);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_IO, c.opcode, false, 0), "read"));
	/* on the admin queue it is Get Log Page (LID 40h, NUMD from CDW10/11) */
	CHECK_STATUS(iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(!c.rw.valid);
	CHECK(c.adm.log_page);
	CHECK_EQ(c.adm.lid, 0x40);
	CHECK_EQ(c.adm.numd, 0);
	CHECK_EQ(c.adm.lpo, 0x1f);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_ADMIN, c.opcode, false, 0), "get_log_page"));
	/* not knowing the queue: both readings, and no single name */
	CHECK_STATUS(iws_nvme_parse_command(b, n, IWS_NVME_QUEUE_UNKNOWN, &c), IWS_OK);
	CHECK(c.rw.valid && c.adm.log_page);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_UNKNOWN, c.opcode, false, 0), "unknown"));
	/* an opcode with one meaning is named either way */
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_UNKNOWN, IWS_NVME_ADM_KEEP_ALIVE, false, 0), "keep_alive"));
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_IO, IWS_NVME_ADM_KEEP_ALIVE, false, 0), "unknown"));
	CHECK(streq(iws_nvme_op_title(IWS_NVME_QUEUE_IO, IWS_NVME_IO_WRITE_ZEROES, false, 0), "Write Zeroes"));
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_IO, IWS_NVME_OPC_FABRICS, true, 0x7E), "fabrics"));
}

static void sqe(uint8_t *b, uint8_t opc, uint16_t cid, uint32_t nsid)
{
	memset(b, 0, 64);
	b[0] = opc;
	b[1] = 0x40;
	put_le16(b + 2, cid);
	put_le32(b + 4, nsid);
}

static void test_in_capsule(void)
{
	static uint8_t b[64 + 4096];
	struct iws_nvme_command c;
	/* Write of 8 LBAs at LBA 0x123456789, 4096 octets after the SQE,
	 * described by a Data Block descriptor with sub type Offset. */
	sqe(b, IWS_NVME_IO_WRITE, 0x1234, 1);
	put_le64(b + 24, 0);
	put_le32(b + 32, 4096);
	b[39] = 0x01;
	put_le64(b + 40, 0x123456789ull);
	put_le16(b + 48, 7);
	put_le16(b + 50, 0x4000);  /* FUA */
	CHECK_STATUS(iws_nvme_parse_command(b, sizeof(b), IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.sgl.in_capsule);
	CHECK(!c.sgl.keyed);
	CHECK_EQ(c.sgl.length, 4096);
	CHECK_EQ(c.sgl.f_length.len, 4);
	CHECK_EQ(c.icd_len, 4096);
	CHECK_EQ(c.f_icd.off, 64);
	CHECK_EQ(c.rw.slba, 0x123456789ull);
	CHECK_EQ(c.rw.nlb, 7);
	CHECK_EQ(c.rw.control, 0x4000);
	CHECK_EQ(c.warnings, 0);
	/* the capsule ends before the data it describes */
	CHECK_STATUS(iws_nvme_parse_command(b, 64 + 100, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.warnings & IWS_NVME_W_ICD_SHORT);
	/* ... which a caller holding only the head repairs */
	iws_nvme_command_capsule_len(&c, 64 + 4096);
	CHECK_EQ(c.icd_len, 4096);
	CHECK_EQ(c.warnings, 0);
	/* an offset so large that offset + length wraps is still past the capsule */
	b[39] = 0x01;
	put_le64(b + 24, ~0ull - 100);
	CHECK_STATUS(iws_nvme_parse_command(b, sizeof(b), IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.warnings & IWS_NVME_W_ICD_SHORT);
	put_le64(b + 24, 0);
	/* in-capsule octets with a keyed descriptor are not described */
	b[39] = 0x40;
	CHECK_STATUS(iws_nvme_parse_command(b, sizeof(b), IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.warnings & IWS_NVME_W_ICD_UNUSED);
}

static void test_admin_fields(void)
{
	uint8_t b[64];
	struct iws_nvme_command c;
	/* Identify Controller (CNS 1) */
	sqe(b, IWS_NVME_ADM_IDENTIFY, 10, 0);
	put_le32(b + 40, 0x00050001);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.adm.identify);
	CHECK_EQ(c.adm.cns, 1);
	CHECK_EQ(c.adm.cntid, 5);
	CHECK(streq(iws_nvme_cns_name(c.adm.cns), "Identify Controller"));
	char det[96];
	CHECK(streq(iws_nvme_admin_detail(det, sizeof(det), &c.adm), "cns=0x01 (Identify Controller)"));
	/* a CNS the tables do not name: the value alone */
	put_le32(b + 40, 0x1F);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(streq(iws_nvme_admin_detail(det, sizeof(det), &c.adm), "cns=0x1f"));
	/* too small a buffer: cut, still a string */
	CHECK(streq(iws_nvme_admin_detail(det, 4, &c.adm), "cns"));
	/* Get Log Page SMART, 512 octets: NUMDL 127, NUMDU 1 (upper half) */
	sqe(b, IWS_NVME_ADM_GET_LOG_PAGE, 11, 0xFFFFFFFF);
	put_le32(b + 40, 127u << 16 | 0x8000 | 0x02);
	put_le32(b + 44, 1);
	put_le64(b + 48, 4096);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.adm.log_page);
	CHECK_EQ(c.adm.lid, 2);
	CHECK(c.adm.rae);
	CHECK_EQ(c.adm.numd, (1u << 16) | 127);
	CHECK_EQ(c.adm.lpo, 4096);
	CHECK_EQ(c.adm.f_numdu.off, 44);
	CHECK(streq(iws_nvme_lid_name(c.adm.lid), "SMART / Health Information"));
	CHECK(streq(iws_nvme_admin_detail(det, sizeof(det), &c.adm), "lid=0x02 (SMART / Health Information)"));
	/* Get Features, Number of Queues, current value (SEL 0) */
	sqe(b, IWS_NVME_ADM_GET_FEATURES, 12, 0);
	put_le32(b + 40, 0x307);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.adm.features);
	CHECK_EQ(c.adm.fid, 7);
	CHECK_EQ(c.adm.sel, 3);
	CHECK(streq(iws_nvme_fid_name(7), "Number of Queues"));
	CHECK(streq(iws_nvme_admin_detail(det, sizeof(det), &c.adm), "fid=0x07 (Number of Queues)"));
	/* Set Features with Save */
	sqe(b, IWS_NVME_ADM_SET_FEATURES, 13, 0);
	put_le32(b + 40, 0x80000006);
	put_le32(b + 44, 1);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.adm.sv);
	CHECK_EQ(c.adm.fid, 6);
	CHECK_EQ(c.adm.dw11, 1);
	/* Abort CID 7 on SQ 1 */
	sqe(b, IWS_NVME_ADM_ABORT, 14, 0);
	put_le32(b + 40, 7u << 16 | 1);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(c.adm.abort);
	CHECK_EQ(c.adm.abort_sqid, 1);
	CHECK_EQ(c.adm.abort_cid, 7);
	CHECK(streq(iws_nvme_admin_detail(det, sizeof(det), &c.adm), ""));  /* no selector */
	/* Keep Alive and AER: named, nothing else */
	sqe(b, IWS_NVME_ADM_ASYNC_EVENT, 15, 0);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK(!c.adm.identify && !c.adm.features && !c.adm.log_page);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_ADMIN, c.opcode, false, 0), "async_event"));
	/* Dataset Management, 2 ranges, Deallocate */
	sqe(b, IWS_NVME_IO_DSM, 16, 1);
	put_le32(b + 40, 1);
	put_le32(b + 44, 4);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.dsm.valid);
	CHECK_EQ(c.dsm.nr, 1);
	CHECK_EQ(c.dsm.attributes, 4);
	CHECK(!c.rw.valid);
	/* Flush: no LBA fields */
	sqe(b, IWS_NVME_IO_FLUSH, 17, 1);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(!c.rw.valid && !c.dsm.valid);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_IO, c.opcode, false, 0), "flush"));
}

static void test_fabrics_fields(void)
{
	uint8_t b[64];
	struct iws_nvme_command c;
	CHECK_EQ(hex2bin(prop_get_cap, b, sizeof(b)), 64);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK_EQ(c.fab.fctype, IWS_NVME_FCT_PROPERTY_GET);
	CHECK_EQ(c.cid, 1);
	CHECK_EQ(c.fab.attrib, 1);
	CHECK_EQ(c.fab.prop_offset, 0);
	CHECK(c.sgl.keyed);
	CHECK_EQ(c.sgl.length, 0);
	CHECK(streq(iws_nvme_property_name(c.fab.prop_offset), "CAP (Controller Capabilities)"));
	/* Property Set CC = 0x460001, a 4-octet property */
	sqe(b, IWS_NVME_OPC_FABRICS, 2, 0);
	b[4] = IWS_NVME_FCT_PROPERTY_SET;
	put_le32(b + 44, 0x14);
	put_le64(b + 48, 0xdead000000460001ull);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK_EQ(c.fab.prop_offset, 0x14);
	CHECK_EQ(c.fab.prop_value, 0x460001);
	CHECK_EQ(c.fab.f_prop_value.len, 4);
	b[40] = 1;
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK_EQ(c.fab.prop_value, 0xdead000000460001ull);
	/* Authentication Send: SECP E9h, SPSP0/1, TL */
	sqe(b, IWS_NVME_OPC_FABRICS, 3, 0);
	b[4] = IWS_NVME_FCT_AUTH_SEND;
	b[41] = 0x01;
	b[42] = 0x02;
	b[43] = 0xE9;
	put_le32(b + 44, 200);
	CHECK_STATUS(iws_nvme_parse_command(b, 64, IWS_NVME_QUEUE_ADMIN, &c), IWS_OK);
	CHECK_EQ(c.fab.secp, 0xE9);
	CHECK_EQ(c.fab.spsp0, 1);
	CHECK_EQ(c.fab.spsp1, 2);
	CHECK_EQ(c.fab.auth_len, 200);
	CHECK(streq(iws_nvme_op_key(IWS_NVME_QUEUE_ADMIN, c.opcode, true, c.fab.fctype), "auth_send"));
	CHECK(streq(iws_nvme_fctype_title(IWS_NVME_FCT_AUTH_RECV), "Authentication Receive"));
	/* a Fabrics command has no NSID: octet 4 is FCTYPE */
	CHECK_EQ(c.nsid, 0);
	CHECK_EQ(c.f_nsid.len, 0);
}

static void test_completion(void)
{
	uint8_t b[20];
	struct iws_nvme_completion e;
	/* frame 13: Property Get CAP answered: DW0-1 = CAP, SQHD 2, CID 1 */
	size_t n = hex2bin("7f00000f 20080000 0200 0000 0100 0000", b, sizeof(b));
	CHECK_EQ(n, 16);
	struct iws_result r = iws_nvme_parse_completion(b, n, &e);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(e.dw0, 0x0f00007fu);
	CHECK_EQ(e.dw1, 0x820);
	CHECK_EQ(e.sqhd, 2);
	CHECK_EQ(e.sqid, 0);
	CHECK_EQ(e.cid, 1);
	CHECK_EQ(e.status, 0);
	CHECK(!e.phase);
	CHECK_EQ(e.f_cid.off, 12);
	CHECK_EQ(e.f_status.off, 14);
	CHECK(streq(iws_nvme_status_name(e.status, 0), "Successful Completion"));
	for (size_t k = 0; k < n; k++) {
		r = iws_nvme_parse_completion(b, k, &e);
		CHECK_STATUS(r, IWS_NEED_MORE);
		CHECK_EQ(r.need, 16);
	}
	/* LBA Out of Range, DNR, phase 1: status field 4080h, DW3 upper half 8101h */
	put_le16(b + 14, 0x8101);
	CHECK_STATUS(iws_nvme_parse_completion(b, n, &e), IWS_OK);
	CHECK(e.phase);
	CHECK_EQ(e.status, 0x4080);
	CHECK_EQ(e.sc, 0x80);
	CHECK_EQ(e.sct, 0);
	CHECK(e.dnr);
	CHECK(!e.more);
	CHECK(streq(iws_nvme_status_name(e.status, 0), "LBA Out of Range"));
	/* More and CRD 2 */
	put_le16(b + 14, (uint16_t)((0x2000 | 0x1000 | 0x0002) << 1));
	CHECK_STATUS(iws_nvme_parse_completion(b, n, &e), IWS_OK);
	CHECK(e.more);
	CHECK_EQ(e.crd, 2);
	CHECK(streq(iws_nvme_status_name(e.status, 0), "Invalid Field in Command"));
	/* command specific 80h+ depends on the command set */
	CHECK(streq(iws_nvme_status_name(0x182, 1), "Connect Invalid Parameters"));
	CHECK(streq(iws_nvme_status_name(0x182, 0), "Attempted Write to Read Only Range"));
	CHECK(streq(iws_nvme_status_name(0x109, 0), "Invalid Log Page"));
	CHECK(streq(iws_nvme_status_name(0x281, 0), "Unrecovered Read Error"));
	CHECK(streq(iws_nvme_status_name(0x302, 0), "Asymmetric Access Inaccessible"));
	CHECK(iws_nvme_status_name(0x7FF, 0) == NULL);
	CHECK(streq(iws_nvme_sct_name(2), "Media and Data Integrity Errors"));
	/* reserved Status Code Types 4h-6h */
	put_le16(b + 14, (uint16_t)(0x400 << 1));
	r = iws_nvme_parse_completion(b, n, &e);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 14);
	/* a response capsule longer than the CQE only warns */
	put_le16(b + 14, 0);
	CHECK_STATUS(iws_nvme_parse_completion(b, 20, &e), IWS_OK);
	CHECK(e.warnings & IWS_NVME_W_TRAILING);
}

static void test_connect_data(void)
{
	static uint8_t d[1024];
	struct iws_nvme_connect_data cd;
	for (int i = 0; i < 16; i++)
		d[i] = (uint8_t)(0xA0 + i);
	put_le16(d + 16, 0xFFFF);
	strcpy((char *)d + 256, "nqn.2024-01.test:mixed");
	strcpy((char *)d + 512, "nqn.2014-08.org.nvmexpress:uuid:0f0e");
	struct iws_result r = iws_nvme_parse_connect_data(d, sizeof(d), &cd);
	CHECK_STATUS(r, IWS_OK);
	CHECK_EQ(cd.hostid[0], 0xA0);
	CHECK_EQ(cd.hostid[15], 0xAF);
	CHECK_EQ(cd.cntlid, 0xFFFF);
	CHECK(streq(cd.subnqn, "nqn.2024-01.test:mixed"));
	CHECK(streq(cd.hostnqn, "nqn.2014-08.org.nvmexpress:uuid:0f0e"));
	CHECK_EQ(cd.f_subnqn.off, 256);
	CHECK_EQ(cd.f_hostnqn.off, 512);
	r = iws_nvme_parse_connect_data(d, 1023, &cd);
	CHECK_STATUS(r, IWS_NEED_MORE);
	CHECK_EQ(r.need, 1024);
	/* an NQN that fills its field: no terminating NUL */
	memset(d + 512, 'x', 256);
	r = iws_nvme_parse_connect_data(d, sizeof(d), &cd);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 512);
	memset(d + 256, 'y', 256);
	r = iws_nvme_parse_connect_data(d, sizeof(d), &cd);
	CHECK_STATUS(r, IWS_MALFORMED);
	CHECK_EQ(r.err_off, 256);
}

static void test_cm(void)
{
	uint8_t b[32];
	struct iws_nvme_cm_req q;
	struct iws_nvme_cm_rep p;
	/* the MPA Request private data of frame 4 after the enhanced word */
	memset(b, 0, sizeof(b));
	hex2bin("0000 0000 2000 1f00", b, sizeof(b));
	CHECK_STATUS(iws_nvme_parse_cm_req(b, 32, &q), IWS_OK);
	CHECK_EQ(q.qid, 0);
	CHECK_EQ(q.hrqsize, 32);
	CHECK_EQ(q.hsqsize, 31);
	CHECK_EQ(q.f_hsqsize.off, 6);
	b[2] = 3;
	CHECK_STATUS(iws_nvme_parse_cm_req(b, 32, &q), IWS_OK);
	CHECK_EQ(q.qid, 3);
	CHECK_STATUS(iws_nvme_parse_cm_req(b, 31, &q), IWS_NEED_MORE);
	b[0] = 1;
	CHECK_STATUS(iws_nvme_parse_cm_req(b, 32, &q), IWS_MALFORMED);
	/* the Reply of frame 6: CRQSIZE 32 */
	memset(b, 0, sizeof(b));
	hex2bin("0000 2000", b, sizeof(b));
	CHECK_STATUS(iws_nvme_parse_cm_rep(b, 32, &p), IWS_OK);
	CHECK_EQ(p.crqsize, 32);
	CHECK_STATUS(iws_nvme_parse_cm_rep(b, 4, &p), IWS_NEED_MORE);
	b[1] = 1;
	CHECK_STATUS(iws_nvme_parse_cm_rep(b, 32, &p), IWS_MALFORMED);
}

static void test_names(void)
{
	CHECK(streq(iws_nvme_admin_opcode_key(0x0C), "async_event"));
	CHECK(streq(iws_nvme_admin_opcode_title(0x18), "Keep Alive"));
	CHECK(streq(iws_nvme_io_opcode_key(0x09), "dsm"));
	CHECK(streq(iws_nvme_io_opcode_title(0x02), "Read"));
	CHECK(streq(iws_nvme_fctype_key(0x04), "property_get"));
	CHECK(iws_nvme_fctype_key(0x02) == NULL);
	CHECK(streq(iws_nvme_sgl_type_name(4), "Keyed Data Block"));
	CHECK(streq(iws_nvme_sgl_subtype_name(0xF), "Invalidate Key"));
	CHECK(iws_nvme_sgl_type_name(6) == NULL);
	CHECK(streq(iws_nvme_xfer_name(IWS_NVME_XFER_H2C), "rdma_read"));
}

/* An SQE a snapshot length cut: what was captured still names it. */
static void test_command_cut(void)
{
	uint8_t b[64] = { 0 };
	struct iws_nvme_command c;
	b[0] = 0x02;                    /* Read */
	b[1] = 0x40;                    /* PSDT 01b: SGL */
	put_le16(b + 2, 0x1234);
	put_le32(b + 4, 7);
	put_le32(b + 40, 100);          /* SLBA, cut below */
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 3, IWS_NVME_QUEUE_IO, &c), IWS_NEED_MORE);
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 10, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK_EQ(c.captured, 10);
	CHECK_EQ(c.opcode, 0x02);
	CHECK_EQ(c.cid, 0x1234);
	CHECK_EQ(c.nsid, 7);
	CHECK(!c.rw.valid);             /* CDW10-12 were not captured */
	CHECK(!c.sgl.keyed);
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 6, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK_EQ(c.nsid, 0);            /* only 2 of its 4 octets */
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 64, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK_EQ(c.captured, 64);
	CHECK(c.rw.valid && c.rw.slba == 100);
	/* CDW10-12 whole (52 octets; 54 at snaplen 128 without TCP options):
	 * SLBA and NLB kept, CDW13 (DSM) not */
	put_le16(b + 48, 7);            /* NLB 8 */
	put_le32(b + 52, 0xAB);         /* DSM, cut below */
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 54, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(c.rw.valid && c.rw.slba == 100 && c.rw.nlb == 7);
	CHECK_EQ(c.rw.dsmgmt, 0);
	CHECK_EQ(c.rw.f_dsmgmt.len, 0);
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 51, IWS_NVME_QUEUE_IO, &c), IWS_OK);
	CHECK(!c.rw.valid);             /* NLB's CDW12 not whole */
	/* a Fabrics Connect: FCTYPE is octet 4, its QID (CDW10) cut */
	memset(b, 0, sizeof(b));
	b[0] = IWS_NVME_OPC_FABRICS;
	b[1] = 0x40;
	b[4] = IWS_NVME_FCT_CONNECT;
	put_le16(b + 42, 3);
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 30, IWS_NVME_QUEUE_UNKNOWN, &c), IWS_OK);
	CHECK(c.fabrics && c.fab.fctype == IWS_NVME_FCT_CONNECT);
	CHECK_EQ(c.fab.qid, 0);
	/* PSDT 11b is no SQE, cut or not */
	b[1] = 0xC0;
	CHECK_STATUS(iws_nvme_parse_command_cut(b, 10, IWS_NVME_QUEUE_UNKNOWN, &c), IWS_MALFORMED);
}

int main(void)
{
	test_command_cut();
	test_connect();
	test_read_queues();
	test_in_capsule();
	test_admin_fields();
	test_fabrics_fields();
	test_completion();
	test_connect_data();
	test_cm();
	test_names();
	return check_done("test_nvme");
}
