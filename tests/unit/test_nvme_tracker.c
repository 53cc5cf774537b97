// SPDX-License-Identifier: GPL-2.0-or-later
/* The NVMe command tracker on synthetic DDP segments: commands tied to their
 * data by STag and to their completions by CID, queues from Connect, CM data
 * or CQE, reassembled capsules, anomalies, gaps and the bounds. */
#include "check.h"
#include "iwarpscope/nvme.h"

#define MAX_CMDS 64
static struct iws_nvme_cmd cmds[MAX_CMDS];
static int n_cmds;

static void on_cmd(void *ctx, const struct iws_nvme_cmd *c)
{
	(void)ctx;
	if (n_cmds < MAX_CMDS)
		cmds[n_cmds] = *c;
	n_cmds++;
}

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* ---- segments ---- */

static uint8_t ub[70000];
static uint64_t frame_no;

/* Feed the ULPDU in ub[0, len) as one segment of direction dir, in frame
 * frame_no + 1 at time frame * 1000 ns; cap: captured payload (-1: all). */
static void feed(struct iws_nvme_tracker *t, uint8_t dir, size_t len, long cap)
{
	struct iws_msg m;
	CHECK_STATUS(iws_rdmap_parse(ub, len, &m), IWS_OK);
	frame_no++;
	struct iws_nvme_seg s = {
		.dir = dir,
		.first_frame = frame_no,
		.first_ts_ns = (int64_t)frame_no * 1000,
		.frame = frame_no,
		.ts_ns = (int64_t)frame_no * 1000,
		.msg = &m,
		.payload = ub + m.payload_off,
		.payload_cap = cap < 0 ? m.payload_len : (uint32_t)cap,
	};
	iws_nvme_tracker_segment(t, &s);
}

static void send_seg(struct iws_nvme_tracker *t, uint8_t dir, uint8_t opcode, uint32_t msn,
		     uint32_t mo, int last, const uint8_t *data, uint32_t len, uint32_t inval, long cap)
{
	ub[0] = (uint8_t)(0x01 | (last ? 0x40 : 0));
	ub[1] = (uint8_t)(0x40 | opcode);
	put_be32(ub + 2, inval);
	put_be32(ub + 6, 0);
	put_be32(ub + 10, msn);
	put_be32(ub + 14, mo);
	memcpy(ub + 18, data, len);
	feed(t, dir, 18 + len, cap);
}

static void tagged(struct iws_nvme_tracker *t, uint8_t dir, uint8_t opcode, uint32_t stag,
		   uint64_t to, int last, uint32_t len)
{
	ub[0] = (uint8_t)(0x81 | (last ? 0x40 : 0));
	ub[1] = (uint8_t)(0x40 | opcode);
	put_be32(ub + 2, stag);
	put_be64(ub + 6, to);
	for (uint32_t i = 0; i < len; i++)
		ub[14 + i] = (uint8_t)i;
	feed(t, dir, 14 + len, -1);
}

static void read_req(struct iws_nvme_tracker *t, uint32_t msn, uint32_t sink, uint64_t sink_to,
		     uint32_t size, uint32_t src, uint64_t src_to)
{
	memset(ub, 0, 46);
	ub[0] = 0x41;
	ub[1] = 0x41;
	put_be32(ub + 6, 1);
	put_be32(ub + 10, msn);
	put_be32(ub + 18, sink);
	put_be64(ub + 22, sink_to);
	put_be32(ub + 30, size);
	put_be32(ub + 34, src);
	put_be64(ub + 38, src_to);
	feed(t, IWS_DIR_R2I, 46, -1);
}

/* ---- capsules ---- */

static uint8_t cap_buf[64 + 8192];
static uint32_t msn_i2r, msn_r2i;

static uint8_t *sqe(uint8_t opc, uint16_t cid, uint32_t nsid)
{
	memset(cap_buf, 0, sizeof(cap_buf));
	cap_buf[0] = opc;
	cap_buf[1] = 0x40;
	put_le16(cap_buf + 2, cid);
	put_le32(cap_buf + 4, nsid);
	return cap_buf;
}

static void keyed(uint8_t *b, uint64_t addr, uint32_t len, uint32_t key, int inval)
{
	put_le64(b + 24, addr);
	b[32] = (uint8_t)len;
	b[33] = (uint8_t)(len >> 8);
	b[34] = (uint8_t)(len >> 16);
	put_le32(b + 35, key);
	b[39] = inval ? 0x4F : 0x40;
}

static void rw(uint8_t *b, uint64_t slba, uint16_t nlb0)
{
	put_le64(b + 40, slba);
	put_le16(b + 48, nlb0);
}

/* The command capsule in cap_buf, in segments of at most seg octets. */
static void command(struct iws_nvme_tracker *t, uint32_t len, uint32_t seg)
{
	uint32_t msn = ++msn_i2r;
	for (uint32_t mo = 0; mo < len; mo += seg) {
		uint32_t n = len - mo < seg ? len - mo : seg;
		send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, msn, mo, mo + n == len, cap_buf + mo, n, 0, -1);
	}
}

static void response(struct iws_nvme_tracker *t, uint16_t cid, uint16_t sqid, uint16_t status,
		     uint32_t dw0, uint32_t inval_stag)
{
	uint8_t e[16] = { 0 };
	put_le32(e, dw0);
	put_le16(e + 8, 1);
	put_le16(e + 10, sqid);
	put_le16(e + 12, cid);
	put_le16(e + 14, (uint16_t)(status << 1 | 1));
	send_seg(t, IWS_DIR_R2I, inval_stag ? IWS_OP_CODE_SEND_INV : IWS_OP_CODE_SEND, ++msn_r2i, 0, 1,
		 e, 16, inval_stag, -1);
}

static struct iws_nvme_tracker *fresh(uint32_t max_inflight)
{
	struct iws_nvme_limits lim = { max_inflight };
	n_cmds = 0;
	frame_no = 0;
	msn_i2r = msn_r2i = 0;
	return iws_nvme_tracker_new(&lim, 7, on_cmd, NULL);
}

/* Admin queue: Connect whose data the controller pulls by RDMA Read, then
 * Identify answered by RDMA Write, Keep Alive, and an AER left outstanding. */
static void test_admin_queue(void)
{
	struct iws_nvme_tracker *t = fresh(0);
	uint8_t *b = sqe(0x7F, 0, 0);
	b[4] = IWS_NVME_FCT_CONNECT;
	keyed(b, 0x7f0000001000ull, 1024, 0x1234AB01, 1);
	put_le16(b + 44, 31);
	put_le32(b + 48, 5000);
	command(t, 64, 4096);                                          /* frame 1 */
	CHECK_EQ(iws_nvme_tracker_info(t)->qid, 0);
	CHECK_EQ(iws_nvme_tracker_info(t)->qid_src, IWS_NVME_QID_CONNECT);
	read_req(t, 1, 0x5500AA00, 0x9000, 1024, 0x1234AB01, 0x7f0000001000ull); /* 2 */
	/* the host's Read Responses carry the Connect data */
	static uint8_t cd[1024];
	memset(cd, 0, sizeof(cd));
	put_le16(cd + 16, 0xFFFF);
	strcpy((char *)cd + 256, "nqn.2024-01.test:sub");
	strcpy((char *)cd + 512, "nqn.2024-01.test:host");
	for (int i = 0; i < 2; i++) {
		ub[0] = (uint8_t)(0x81 | (i ? 0x40 : 0));
		ub[1] = 0x42;
		put_be32(ub + 2, 0x5500AA00);
		put_be64(ub + 6, 0x9000 + 512u * (uint32_t)i);
		memcpy(ub + 14, cd + 512 * i, 512);
		feed(t, IWS_DIR_I2R, 14 + 512, -1);                    /* 3, 4 */
	}
	response(t, 0, 0, 0, 0x0001, 0x1234AB01);                     /* 5 */
	CHECK_EQ(n_cmds, 1);
	const struct iws_nvme_cmd *c = &cmds[0];
	CHECK_EQ(c->qp, 7);
	CHECK_EQ(c->qid, 0);
	CHECK(streq(c->op, "connect"));
	CHECK(streq(c->title, "Connect"));
	CHECK(!c->has_nsid);
	CHECK_EQ(c->xfer, IWS_NVME_XFER_H2C);
	CHECK_EQ(c->bytes, 1024);
	CHECK_EQ(c->data_segments, 3);
	CHECK_EQ(c->first_frame, 1);
	CHECK_EQ(c->last_frame, 5);
	CHECK_EQ(c->start_ns, 1000);
	CHECK_EQ(c->end_ns, 5000);
	CHECK_EQ(c->latency_ns, 4000);
	CHECK_EQ(c->data_first_frame, 2);
	CHECK_EQ(c->data_last_frame, 4);
	CHECK_EQ(c->data_ns, 2000);
	CHECK(c->send_inv);
	CHECK_EQ(c->inval_stag, 0x1234AB01u);
	CHECK(c->complete);
	CHECK_EQ(c->flags, 0);
	const struct iws_nvme_qp_info *in = iws_nvme_tracker_info(t);
	CHECK(in->has_connect);
	CHECK_EQ(in->sqsize, 31);
	CHECK_EQ(in->kato, 5000);
	CHECK(in->has_connect_data);
	CHECK(streq(in->cdata.subnqn, "nqn.2024-01.test:sub"));
	CHECK(streq(in->cdata.hostnqn, "nqn.2024-01.test:host"));
	CHECK(in->has_cntlid);
	CHECK_EQ(in->cntlid, 1);

	/* Identify Controller: 4096 octets by two RDMA Writes */
	b = sqe(0x06, 1, 0);
	keyed(b, 0x7f0000002000ull, 4096, 0x2222BB02, 1);
	put_le32(b + 40, 1);
	command(t, 64, 4096);                                          /* 6 */
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x2222BB02, 0x7f0000002000ull, 0, 2048); /* 7 */
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x2222BB02, 0x7f0000002800ull, 1, 2048); /* 8 */
	response(t, 1, 0, 0, 0, 0x2222BB02);                          /* 9 */
	CHECK_EQ(n_cmds, 2);
	c = &cmds[1];
	CHECK(streq(c->op, "identify"));
	CHECK_EQ(c->sqe.adm.cns, 1);
	CHECK_EQ(c->xfer, IWS_NVME_XFER_C2H);
	CHECK_EQ(c->bytes, 4096);
	CHECK_EQ(c->data_ns, 1000);
	CHECK_EQ(c->latency_ns, 3000);
	CHECK(c->complete);
	/* Keep Alive, answered by a plain Send */
	sqe(0x18, 2, 0);
	command(t, 64, 4096);
	response(t, 2, 0, 0, 0, 0);
	CHECK_EQ(n_cmds, 3);
	CHECK(streq(cmds[2].op, "keep_alive"));
	CHECK_EQ(cmds[2].xfer, IWS_NVME_XFER_NONE);
	CHECK(!cmds[2].send_inv);
	CHECK(cmds[2].complete);
	/* AER: outstanding when the capture ends, by design (awaits an event) */
	sqe(0x0C, 3, 0);
	command(t, 64, 4096);
	CHECK_EQ(n_cmds, 3);
	iws_nvme_tracker_finish(t, IWS_NVMEF_UNFINISHED);
	CHECK_EQ(n_cmds, 4);
	c = &cmds[3];
	CHECK(streq(c->op, "async_event"));
	CHECK(!c->complete);
	CHECK(!c->has_completion);
	CHECK_EQ(c->flags, IWS_NVMEF_AWAITS_EVENT);
	CHECK_EQ(c->latency_ns, 0);
	CHECK_EQ(c->last_frame, c->first_frame);
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	CHECK_EQ(n->capsules, 4);
	CHECK_EQ(n->responses, 3);
	CHECK_EQ(n->reported, 4);
	CHECK_EQ(n->incomplete, 1);
	CHECK_EQ(n->bytes_h2c, 1024);
	CHECK_EQ(n->bytes_c2h, 4096);
	CHECK_EQ(n->inflight, 0);
	iws_nvme_tracker_free(t);
}

/* I/O queue: a Connect with in-capsule data over two DDP segments, an
 * in-capsule Write, keyed Read and Write, out-of-order completions, an error. */
static void test_io_queue(void)
{
	struct iws_nvme_tracker *t = fresh(0);
	uint8_t *b = sqe(0x7F, 0, 0);
	b[4] = IWS_NVME_FCT_CONNECT;
	put_le32(b + 32, 1024);
	b[39] = 0x01;                         /* Data Block, Offset */
	put_le16(b + 42, 1);                  /* QID 1 */
	put_le16(b + 44, 127);
	put_le16(b + 64 + 16, 5);             /* CNTLID 5 */
	strcpy((char *)b + 64 + 256, "nqn.sub");
	strcpy((char *)b + 64 + 512, "nqn.host");
	command(t, 64 + 1024, 700);                                    /* frames 1-2 */
	response(t, 0, 1, 0, 0, 0);                                    /* 3 */
	CHECK_EQ(n_cmds, 1);
	CHECK(streq(cmds[0].op, "connect"));
	CHECK_EQ(cmds[0].qid, 1);
	CHECK_EQ(cmds[0].xfer, IWS_NVME_XFER_IN_CAPSULE);
	CHECK_EQ(cmds[0].bytes, 1024);
	CHECK_EQ(cmds[0].first_frame, 1);
	CHECK_EQ(cmds[0].capsule_frame, 2);
	CHECK_EQ(cmds[0].data_ns, 0);
	CHECK(cmds[0].complete);
	const struct iws_nvme_qp_info *in = iws_nvme_tracker_info(t);
	CHECK(in->has_connect_data);
	CHECK(streq(in->cdata.hostnqn, "nqn.host"));
	CHECK(in->has_cntlid);
	CHECK_EQ(in->cntlid, 5);

	/* in-capsule Write of 8 LBAs (4096 octets) in three segments */
	b = sqe(0x01, 10, 1);
	put_le32(b + 32, 4096);
	b[39] = 0x01;
	rw(b, 800, 7);
	command(t, 64 + 4096, 1460);                                   /* 4-6 */
	response(t, 10, 1, 0, 0, 0);                                   /* 7 */
	CHECK_EQ(n_cmds, 2);
	const struct iws_nvme_cmd *c = &cmds[1];
	CHECK(streq(c->op, "write"));
	CHECK(c->has_lba);
	CHECK_EQ(c->slba, 800);
	CHECK_EQ(c->nlb, 7);     /* as on the wire: 0's based */
	CHECK_EQ(c->blocks, 8);
	CHECK_EQ(c->nsid, 1);
	CHECK_EQ(c->xfer, IWS_NVME_XFER_IN_CAPSULE);
	CHECK_EQ(c->bytes, 4096);
	CHECK_EQ(c->first_frame, 4);
	CHECK_EQ(c->capsule_frame, 6);
	CHECK_EQ(c->latency_ns, 3000);
	CHECK(c->complete);
	CHECK_EQ(c->flags, 0);

	/* nothing pending between commands; a capsule still arriving is */
	int64_t ps;
	uint64_t pf;
	CHECK(!iws_nvme_tracker_pending(t, &ps, &pf));
	/* two keyed Reads outstanding, completed in the other order */
	b = sqe(0x02, 20, 1);
	keyed(b, 0x10000, 8192, 0xAAAA0001, 1);
	rw(b, 0, 15);
	command(t, 64, 4096);                                          /* 8 */
	b = sqe(0x02, 21, 1);
	keyed(b, 0x20000, 512, 0xAAAA0002, 1);
	rw(b, 100, 0);
	command(t, 64, 4096);                                          /* 9 */
	CHECK(iws_nvme_tracker_pending(t, &ps, &pf));
	CHECK_EQ(pf, 8);
	CHECK_EQ(ps, 8000);
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0xAAAA0002, 0x20000, 1, 512);  /* 10 */
	response(t, 21, 1, 0, 0, 0xAAAA0002);                         /* 11 */
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0xAAAA0001, 0x10000, 0, 4096); /* 12 */
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0xAAAA0001, 0x11000, 1, 4096); /* 13 */
	response(t, 20, 1, 0, 0, 0xAAAA0001);                         /* 14 */
	CHECK_EQ(n_cmds, 4);
	CHECK_EQ(cmds[2].cid, 21);
	CHECK_EQ(cmds[2].bytes, 512);
	CHECK_EQ(cmds[2].latency_ns, 2000);
	CHECK_EQ(cmds[2].data_ns, 0);
	CHECK_EQ(cmds[3].cid, 20);
	CHECK_EQ(cmds[3].nlb, 15);
	CHECK_EQ(cmds[3].blocks, 16);
	CHECK_EQ(cmds[3].bytes, 8192);
	CHECK_EQ(cmds[3].data_segments, 2);
	CHECK_EQ(cmds[3].latency_ns, 6000);
	CHECK_EQ(cmds[3].data_ns, 1000);
	CHECK(cmds[2].complete && cmds[3].complete);

	CHECK(!iws_nvme_tracker_pending(t, &ps, &pf));
	/* the first segment of a capsule in several is pending already */
	b = sqe(0x01, 90, 1);
	put_le32(b + 32, 2048);
	b[39] = 0x01;
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, ++msn_i2r, 0, 0, b, 1000, 0, -1);
	CHECK(iws_nvme_tracker_pending(t, &ps, &pf));
	CHECK_EQ(pf, frame_no);
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, msn_i2r, 1000, 1, b + 1000, 64 + 2048 - 1000, 0, -1);
	response(t, 90, 1, 0, 0, 0);
	CHECK_EQ(n_cmds, 5);
	CHECK_EQ(cmds[4].first_frame, pf);
	CHECK(!iws_nvme_tracker_pending(t, &ps, &pf));
	/* keyed Write: the controller reads the host buffer in two requests */
	b = sqe(0x01, 30, 1);
	keyed(b, 0x40000, 16384, 0xBBBB0003, 1);
	rw(b, 4096, 31);
	command(t, 64, 4096);                                          /* 18 */
	read_req(t, 1, 0xCC00, 0x500000, 8192, 0xBBBB0003, 0x40000); /* 19 */
	read_req(t, 2, 0xCC00, 0x502000, 8192, 0xBBBB0003, 0x42000); /* 20 */
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_READ_RESP, 0xCC00, 0x500000, 1, 8192); /* 21 */
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_READ_RESP, 0xCC00, 0x502000, 1, 8192); /* 22 */
	response(t, 30, 1, 0, 0, 0xBBBB0003);                         /* 23 */
	CHECK_EQ(n_cmds, 6);
	c = &cmds[5];
	CHECK(streq(c->op, "write"));
	CHECK_EQ(c->xfer, IWS_NVME_XFER_H2C);
	CHECK_EQ(c->bytes, 16384);
	CHECK_EQ(c->data_segments, 4);
	CHECK_EQ(c->data_first_frame, 19);
	CHECK_EQ(c->data_last_frame, 22);
	CHECK_EQ(c->data_ns, 3000);
	CHECK_EQ(c->latency_ns, 5000);
	CHECK(c->complete);

	/* an error: LBA Out of Range with DNR, no data moved */
	b = sqe(0x02, 40, 1);
	keyed(b, 0x50000, 4096, 0xDDDD0004, 1);
	rw(b, 1ull << 40, 7);
	command(t, 64, 4096);
	response(t, 40, 1, 0x4080, 0, 0xDDDD0004);
	CHECK_EQ(n_cmds, 7);
	c = &cmds[6];
	CHECK_EQ(c->status, 0x4080);
	CHECK(streq(c->status_name, "LBA Out of Range"));
	CHECK(c->cqe.dnr);
	CHECK_EQ(c->bytes, 0);
	CHECK(c->complete);
	CHECK_EQ(c->flags, 0);
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	CHECK_EQ(n->errors, 1);
	CHECK_EQ(n->bytes_in_capsule, 1024 + 4096 + 2048);
	CHECK_EQ(n->unmatched_data, 0);
	iws_nvme_tracker_free(t);
}

/* What the connection does not say: queue from the CQE, from CM data, or
 * never; completions without commands; CID reuse; mismatches. */
static void test_queue_sources_and_anomalies(void)
{
	struct iws_nvme_tracker *t = fresh(0);
	/* no Connect: the completion's SQ Identifier names the queue */
	uint8_t *b = sqe(0x02, 5, 1);
	keyed(b, 0x1000, 4096, 0x11, 0);
	rw(b, 9, 7);
	command(t, 64, 4096);
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x11, 0x1000, 1, 4096);
	response(t, 5, 3, 0, 0, 0);
	CHECK_EQ(n_cmds, 1);
	CHECK_EQ(cmds[0].qid, 3);
	CHECK(streq(cmds[0].op, "read"));
	CHECK(cmds[0].has_lba);
	CHECK_EQ(cmds[0].slba, 9);
	CHECK_EQ(cmds[0].sqe.queue, IWS_NVME_QUEUE_IO);
	CHECK(!cmds[0].sqe.adm.log_page);
	CHECK_EQ(iws_nvme_tracker_info(t)->qid_src, IWS_NVME_QID_CQE);
	CHECK(cmds[0].complete);
	/* later SQ Identifiers must agree */
	sqe(0x00, 6, 1);
	command(t, 64, 4096);
	response(t, 6, 4, 0, 0, 0);
	CHECK(cmds[1].flags & IWS_NVMEF_SQID_MISMATCH);
	CHECK(cmds[1].complete);
	/* a Send with Invalidate of another STag than the command's key */
	b = sqe(0x02, 7, 1);
	keyed(b, 0x1000, 512, 0x22, 1);
	command(t, 64, 4096);
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x22, 0x1000, 1, 512);
	response(t, 7, 3, 0, 0, 0x99);
	CHECK(cmds[2].flags & IWS_NVMEF_INVAL_MISMATCH);
	/* a completion whose command the capture lacks */
	response(t, 77, 3, 0, 0, 0);
	CHECK_EQ(n_cmds, 4);
	CHECK(cmds[3].flags & IWS_NVMEF_NO_COMMAND);
	CHECK(streq(cmds[3].op, "unknown"));
	CHECK_EQ(cmds[3].cid, 77);
	CHECK(!cmds[3].complete);
	CHECK_EQ(cmds[3].latency_ns, 0);
	/* a CID reused while outstanding: the first never saw its completion */
	b = sqe(0x01, 8, 1);
	keyed(b, 0x3000, 512, 0x33, 0);
	command(t, 64, 4096);
	b = sqe(0x01, 8, 1);
	keyed(b, 0x4000, 512, 0x34, 0);
	command(t, 64, 4096);
	CHECK_EQ(n_cmds, 5);
	CHECK(cmds[4].flags & IWS_NVMEF_REPLACED);
	CHECK(!cmds[4].complete);
	read_req(t, 1, 0x77, 0x0, 512, 0x34, 0x4000);
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_READ_RESP, 0x77, 0x0, 1, 512);
	/* data only the keys of gone commands name: unmatched */
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x33, 0x3000, 1, 512);
	response(t, 8, 3, 0, 0, 0);
	CHECK_EQ(n_cmds, 6);
	CHECK(cmds[5].flags & IWS_NVMEF_CID_REUSE);
	CHECK_EQ(cmds[5].bytes, 512);
	CHECK(cmds[5].complete);
	/* a successful command that moved less than its SGL says */
	b = sqe(0x02, 9, 1);
	keyed(b, 0x5000, 1024, 0x44, 0);
	command(t, 64, 4096);
	tagged(t, IWS_DIR_R2I, IWS_OP_CODE_WRITE, 0x44, 0x5000, 1, 512);
	response(t, 9, 3, 0, 0, 0);
	CHECK(cmds[6].flags & IWS_NVMEF_DATA_MISMATCH);
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	CHECK_EQ(n->orphan_responses, 1);
	CHECK_EQ(n->cid_reuse, 1);
	CHECK_EQ(n->unmatched_data, 1);
	iws_nvme_tracker_free(t);

	/* the queue from the rdma_cm private data, before any Connect */
	t = fresh(0);
	struct iws_nvme_cm_req cm = { .qid = 0 };
	iws_nvme_tracker_set_cm(t, &cm);
	sqe(0x02, 1, 0);
	command(t, 64, 4096);
	response(t, 1, 0, 0, 0, 0);
	CHECK(streq(cmds[0].op, "get_log_page"));
	CHECK_EQ(iws_nvme_tracker_info(t)->qid_src, IWS_NVME_QID_CM);
	iws_nvme_tracker_free(t);

	/* never told: both readings kept, the name says unknown */
	t = fresh(0);
	sqe(0x02, 1, 1);
	command(t, 64, 4096);
	sqe(0x06, 2, 0);
	command(t, 64, 4096);
	iws_nvme_tracker_finish(t, IWS_NVMEF_ABORTED);
	CHECK_EQ(n_cmds, 2);
	CHECK(streq(cmds[0].op, "unknown"));
	CHECK(cmds[0].sqe.rw.valid && cmds[0].sqe.adm.log_page);
	CHECK_EQ(cmds[0].qid, -1);
	CHECK_EQ(cmds[0].flags, IWS_NVMEF_ABORTED | IWS_NVMEF_QUEUE_UNKNOWN);
	CHECK(streq(cmds[1].op, "identify"));
	iws_nvme_tracker_free(t);
}

/* Captures that lose things: gaps, snapshot lengths, capture starts. */
static void test_partial_captures(void)
{
	struct iws_nvme_tracker *t = fresh(0);
	/* a command outstanding across a gap that never completes */
	uint8_t *b = sqe(0x01, 1, 1);
	keyed(b, 0x1000, 512, 0x10, 0);
	command(t, 64, 4096);
	iws_nvme_tracker_gap(t, IWS_DIR_R2I);
	/* a capsule cut by a gap between its segments is dropped */
	b = sqe(0x01, 2, 1);
	put_le32(b + 32, 4096);
	b[39] = 0x01;
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, 10, 0, 0, b, 1460, 0, -1);
	iws_nvme_tracker_gap(t, IWS_DIR_I2R);
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, 10, 2920, 1, b + 2920, 1240, 0, -1);
	/* a capsule whose SQE the snapshot length cut after its SGL: named by
	 * what was captured (docs/semantics.md) */
	sqe(0x02, 3, 1);
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, 11, 0, 1, cap_buf, 64, 0, 40);
	/* in-capsule data cut by the snapshot length: fields known, data not */
	b = sqe(0x01, 4, 1);
	put_le32(b + 32, 512);
	b[39] = 0x01;
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, 12, 0, 1, b, 64 + 512, 0, 100);
	response(t, 4, 1, 0, 0, 0);
	CHECK_EQ(n_cmds, 1);
	CHECK_EQ(cmds[0].cid, 4);
	CHECK(cmds[0].flags & IWS_NVMEF_DATA_TRUNCATED);
	CHECK_EQ(cmds[0].bytes, 512);
	CHECK(cmds[0].complete);
	/* an I/O queue Connect whose in-capsule offset wraps around (found by
	 * fuzz_nvme): no Connect data is read from outside the capsule */
	b = sqe(0x7F, 5, 0);
	b[4] = IWS_NVME_FCT_CONNECT;
	put_le64(b + 24, ~0ull - 63);
	put_le32(b + 32, 1024);
	b[39] = 0x01;
	put_le16(b + 42, 1);
	command(t, 64 + 1024, 4096);
	CHECK(!iws_nvme_tracker_info(t)->has_connect_data);
	CHECK(iws_nvme_tracker_info(t)->has_connect);
	/* the middle of a Send whose start was never seen */
	send_seg(t, IWS_DIR_I2R, IWS_OP_CODE_SEND, 13, 100, 1, cap_buf, 64, 0, -1);
	iws_nvme_tracker_finish(t, IWS_NVMEF_UNFINISHED);
	CHECK_EQ(n_cmds, 4);
	CHECK_EQ(cmds[1].cid, 1);
	CHECK_EQ(cmds[1].flags, IWS_NVMEF_UNFINISHED | IWS_NVMEF_GAP);
	CHECK_EQ(cmds[2].cid, 3);
	CHECK_EQ(cmds[2].opcode, 0x02);
	CHECK(cmds[2].flags & IWS_NVMEF_SQE_TRUNCATED);
	CHECK(cmds[2].has_nsid && !cmds[2].has_lba);
	CHECK_EQ(cmds[3].cid, 5);
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	CHECK_EQ(n->capsules, 4);
	CHECK_EQ(n->undecodable, 3);
	iws_nvme_tracker_free(t);
}

/* Bounded memory: past max_inflight the oldest command is given up. */
static void test_limits(void)
{
	struct iws_nvme_tracker *t = fresh(4);
	for (uint16_t cid = 0; cid < 10; cid++) {
		uint8_t *b = sqe(0x02, cid, 1);
		keyed(b, 0x1000u * cid, 512, 0x100u + cid, 0);
		command(t, 64, 4096);
	}
	const struct iws_nvme_counts *n = iws_nvme_tracker_counts(t);
	CHECK_EQ(n->evicted, 6);
	CHECK_EQ(n->inflight, 4);
	CHECK_EQ(n->max_inflight_seen, 4);
	CHECK_EQ(n_cmds, 6);
	CHECK_EQ(cmds[0].cid, 0);
	CHECK(cmds[0].flags & IWS_NVMEF_EVICTED);
	/* a completion of an evicted command is an orphan now */
	response(t, 0, 1, 0, 0, 0);
	CHECK(cmds[6].flags & IWS_NVMEF_NO_COMMAND);
	/* 20000 Read Requests nobody answers stay bounded too */
	uint8_t *b = sqe(0x01, 100, 1);
	keyed(b, 0, 1u << 20, 0x5555, 0);
	command(t, 64, 4096);
	for (uint32_t i = 0; i < 20000; i++)
		read_req(t, i + 1, 0x9000 + i, 0, 4096, 0x5555, 4096ull * i);
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_READ_RESP, 0x9000 + 19999, 0, 1, 4096);
	CHECK_EQ(n->unmatched_data, 0);
	iws_nvme_tracker_finish(t, IWS_NVMEF_UNFINISHED);
	CHECK_EQ(n->inflight, 0);
	iws_nvme_tracker_free(t);
	/* the smallest limit: one command, one pending read; the oldest read
	 * gives way to the next (the FIFO empties and refills) */
	t = fresh(1);
	b = sqe(0x01, 1, 1);
	keyed(b, 0, 8192, 0x6666, 0);
	command(t, 64, 4096);
	read_req(t, 1, 0xA1, 0, 4096, 0x6666, 0);
	read_req(t, 2, 0xA2, 0, 4096, 0x6666, 4096);
	read_req(t, 3, 0xA3, 0, 4096, 0x6666, 8192 - 4096);
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_READ_RESP, 0xA3, 0, 1, 4096);
	response(t, 1, 1, 0, 0, 0);
	CHECK_EQ(n_cmds, 1);
	CHECK_EQ(cmds[0].bytes, 4096);
	CHECK_EQ(cmds[0].data_segments, 4);
	n = iws_nvme_tracker_counts(t);
	/* a lone segment that is not NVMe is only counted */
	tagged(t, IWS_DIR_I2R, IWS_OP_CODE_WRITE, 0x1, 0, 1, 16);
	CHECK_EQ(n->unmatched_data, 1);
	iws_nvme_tracker_free(t);
	iws_nvme_tracker_free(NULL);
}

int main(void)
{
	test_admin_queue();
	test_io_queue();
	test_queue_sources_and_anomalies();
	test_partial_captures();
	test_limits();
	return check_done("test_nvme_tracker");
}
