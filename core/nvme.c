// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe/RDMA capsules (see nvme.h): the Submission Queue Entry of a command
 * capsule with the fields of the commands a storage post-mortem asks about,
 * the Completion Queue Entry of a response capsule, the Connect data and the
 * rdma_cm private data. All NVMe fields are little-endian.
 */
#include "iwarpscope/nvme.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "iwarpscope/names.h"

/* SQE octet offsets (NVMe Base 2.0 "Common Command Format"). */
#define SQE_OPC 0
#define SQE_FLAGS 1
#define SQE_CID 2
#define SQE_NSID 4
#define SQE_MPTR 16
#define SQE_DPTR 24
#define SQE_CDW10 40
#define CDW(n) (SQE_CDW10 + 4 * ((n) - 10))

/*
 * The SGL descriptor in DPTR (NVMe Base 2.0 "SGL Descriptor" figures):
 * octets 0-7 address; a Keyed SGL Data Block has a 3-octet length and a
 * 4-octet key, the others a 4-octet length; octet 15 is the SGL Identifier.
 */
static struct iws_result parse_sgl(const uint8_t *p, uint32_t base, struct iws_nvme_sgl *s,
				   uint32_t *warnings)
{
	s->id = p[15];
	s->type = s->id >> 4;
	s->subtype = s->id & 0xF;
	s->addr = iws_le64(p);
	s->f_addr = iws_fld(base, 8);
	s->f_id = iws_fld(base + 15, 1);
	switch (s->type) {
	case IWS_NVME_SGL_KEYED_DATA_BLOCK:
		s->keyed = true;
		s->length = iws_le24(p + 8);
		s->key = iws_le32(p + 11);
		s->f_length = iws_fld(base + 8, 3);
		s->f_key = iws_fld(base + 11, 4);
		/* NVMe RDMA transport: sub type 0h Address, Fh Invalidate Key. */
		s->invalidate = s->subtype == IWS_NVME_SGL_SUB_INVALIDATE;
		if (s->subtype != IWS_NVME_SGL_SUB_ADDRESS && !s->invalidate)
			*warnings |= IWS_NVME_W_SGL_SUBTYPE;
		return iws_ok();
	case IWS_NVME_SGL_DATA_BLOCK:
	case IWS_NVME_SGL_BIT_BUCKET:
	case IWS_NVME_SGL_SEGMENT:
	case IWS_NVME_SGL_LAST_SEGMENT:
	case IWS_NVME_SGL_TRANSPORT_DATA_BLOCK:
	case IWS_NVME_SGL_VENDOR:
		s->length = iws_le32(p + 8);
		s->f_length = iws_fld(base + 8, 4);
		/* Offset: relative to the start of the in-capsule data
		 * (NVMe-oF 1.1 "Capsules and Data Transfer"). */
		s->in_capsule = s->type == IWS_NVME_SGL_DATA_BLOCK &&
				s->subtype == IWS_NVME_SGL_SUB_OFFSET;
		if (s->subtype != IWS_NVME_SGL_SUB_ADDRESS && s->subtype != IWS_NVME_SGL_SUB_OFFSET &&
		    s->subtype != 0xA && s->type != IWS_NVME_SGL_VENDOR)
			*warnings |= IWS_NVME_W_SGL_SUBTYPE;
		return iws_ok();
	default:
		return iws_malformed("SGL descriptor type reserved (NVMe Base 2.0)", base + 15, 1);
	}
}

/* Fabrics command fields (NVMe-oF 1.1: Connect, Property Get/Set,
 * Authentication Send/Receive share the SQE layout, FCTYPE at octet 4). */
static void parse_fabrics(const uint8_t *b, struct iws_nvme_fabrics *f)
{
	f->fctype = b[SQE_NSID];
	f->f_fctype = iws_fld(SQE_NSID, 1);
	switch (f->fctype) {
	case IWS_NVME_FCT_CONNECT:
		f->recfmt = iws_le16(b + CDW(10));
		f->qid = iws_le16(b + CDW(10) + 2);
		f->sqsize = iws_le16(b + CDW(11));
		f->cattr = b[CDW(11) + 2];
		f->kato = iws_le32(b + CDW(12));
		f->f_recfmt = iws_fld(CDW(10), 2);
		f->f_qid = iws_fld(CDW(10) + 2, 2);
		f->f_sqsize = iws_fld(CDW(11), 2);
		f->f_cattr = iws_fld(CDW(11) + 2, 1);
		f->f_kato = iws_fld(CDW(12), 4);
		break;
	case IWS_NVME_FCT_PROPERTY_SET:
	case IWS_NVME_FCT_PROPERTY_GET:
		f->attrib = b[CDW(10)];
		f->prop_offset = iws_le32(b + CDW(11));
		f->f_attrib = iws_fld(CDW(10), 1);
		f->f_prop_offset = iws_fld(CDW(11), 4);
		if (f->fctype == IWS_NVME_FCT_PROPERTY_SET) {
			/* ATTRIB bits 2:0 = 0: a 4-octet property, upper half ignored. */
			f->prop_value = (f->attrib & 7) ? iws_le64(b + CDW(12)) : iws_le32(b + CDW(12));
			f->f_prop_value = iws_fld(CDW(12), (f->attrib & 7) ? 8 : 4);
		}
		break;
	case IWS_NVME_FCT_AUTH_SEND:
	case IWS_NVME_FCT_AUTH_RECV:
		f->spsp0 = b[CDW(10) + 1];
		f->spsp1 = b[CDW(10) + 2];
		f->secp = b[CDW(10) + 3];
		f->auth_len = iws_le32(b + CDW(11));
		f->f_secp = iws_fld(CDW(10) + 3, 1);
		f->f_auth_len = iws_fld(CDW(11), 4);
		break;
	default:
		break;
	}
}

/* NVM Command Set 1.0: the LBA commands and Dataset Management. */
static void parse_io(const uint8_t *b, uint8_t opc, struct iws_nvme_command *c)
{
	switch (opc) {
	case IWS_NVME_IO_READ:
	case IWS_NVME_IO_WRITE:
	case IWS_NVME_IO_COMPARE:
	case IWS_NVME_IO_WRITE_ZEROES:
	case IWS_NVME_IO_WRITE_UNCOR:
	case IWS_NVME_IO_VERIFY: {
		struct iws_nvme_rw *rw = &c->rw;
		rw->valid = true;
		rw->slba = iws_le64(b + CDW(10));
		rw->nlb = iws_le16(b + CDW(12));
		rw->control = iws_le16(b + CDW(12) + 2);
		rw->dsmgmt = iws_le32(b + CDW(13));
		rw->f_slba = iws_fld(CDW(10), 8);
		rw->f_nlb = iws_fld(CDW(12), 2);
		rw->f_control = iws_fld(CDW(12) + 2, 2);
		rw->f_dsmgmt = iws_fld(CDW(13), 4);
		break;
	}
	case IWS_NVME_IO_DSM:
		c->dsm.valid = true;
		c->dsm.nr = b[CDW(10)];
		c->dsm.attributes = iws_le32(b + CDW(11));
		c->dsm.f_nr = iws_fld(CDW(10), 1);
		c->dsm.f_attributes = iws_fld(CDW(11), 4);
		break;
	default:
		break;
	}
}

/* Admin Command Set (NVMe Base 2.0): Identify, Get/Set Features, Get Log
 * Page, Abort. Keep Alive and Asynchronous Event Request have no fields. */
static void parse_admin(const uint8_t *b, uint8_t opc, struct iws_nvme_admin *a)
{
	uint32_t dw10 = iws_le32(b + CDW(10));
	switch (opc) {
	case IWS_NVME_ADM_IDENTIFY:
		a->identify = true;
		a->cns = (uint8_t)dw10;
		a->cntid = (uint16_t)(dw10 >> 16);
		a->f_cns = iws_fld(CDW(10), 1);
		a->f_cntid = iws_fld(CDW(10) + 2, 2);
		break;
	case IWS_NVME_ADM_GET_FEATURES:
	case IWS_NVME_ADM_SET_FEATURES:
		a->features = true;
		a->fid = (uint8_t)dw10;
		if (opc == IWS_NVME_ADM_GET_FEATURES)
			a->sel = (uint8_t)((dw10 >> 8) & 7);
		else
			a->sv = (dw10 >> 31) != 0;
		a->dw11 = iws_le32(b + CDW(11));
		a->f_fid = iws_fld(CDW(10), 1);
		a->f_dw11 = iws_fld(CDW(11), 4);
		break;
	case IWS_NVME_ADM_GET_LOG_PAGE:
		/* NUMD is split: NUMDL in CDW10 bits 31:16, NUMDU in CDW11 bits 15:0. */
		a->log_page = true;
		a->lid = (uint8_t)dw10;
		a->lsp = (uint8_t)((dw10 >> 8) & 0x7F);
		a->rae = (dw10 >> 15) & 1;
		a->numd = (dw10 >> 16) | (uint32_t)iws_le16(b + CDW(11)) << 16;
		a->lpo = iws_le64(b + CDW(12));
		a->f_lid = iws_fld(CDW(10), 1);
		a->f_numdl = iws_fld(CDW(10) + 2, 2);
		a->f_numdu = iws_fld(CDW(11), 2);
		a->f_lpo = iws_fld(CDW(12), 8);
		break;
	case IWS_NVME_ADM_ABORT:
		a->abort = true;
		a->abort_sqid = (uint16_t)dw10;
		a->abort_cid = (uint16_t)(dw10 >> 16);
		a->f_abort = iws_fld(CDW(10), 4);
		break;
	default:
		break;
	}
}

struct iws_result iws_nvme_parse_command(const uint8_t *buf, size_t len, enum iws_nvme_queue queue,
					 struct iws_nvme_command *c)
{
	memset(c, 0, sizeof(*c));
	c->queue = queue;
	if (len < IWS_NVME_SQE_LEN)
		return iws_need(IWS_NVME_SQE_LEN);
	c->opcode = buf[SQE_OPC];
	c->flags = buf[SQE_FLAGS];
	c->fuse = c->flags & 3;
	c->psdt = c->flags >> 6;
	c->cid = iws_le16(buf + SQE_CID);
	c->mptr = iws_le64(buf + SQE_MPTR);
	for (int i = 0; i < 6; i++)
		c->cdw[i] = iws_le32(buf + SQE_CDW10 + 4 * i);
	c->f_opcode = iws_fld(SQE_OPC, 1);
	c->f_flags = iws_fld(SQE_FLAGS, 1);
	c->f_cid = iws_fld(SQE_CID, 2);
	c->f_mptr = iws_fld(SQE_MPTR, 8);
	c->f_dptr = iws_fld(SQE_DPTR, 16);
	c->f_cdw10 = iws_fld(SQE_CDW10, 24);

	/* PSDT (NVMe Base 2.0 "Common Command Format"): 11b is reserved;
	 * fabrics carry SGLs only, so 00b (PRPs) is suspicious but readable. */
	if (c->psdt == 3)
		return iws_malformed("PSDT 11b is reserved", SQE_FLAGS, 1);
	if (c->psdt == 0)
		c->warnings |= IWS_NVME_W_PSDT_PRP;
	if (c->fuse == 3)
		c->warnings |= IWS_NVME_W_FUSE;
	struct iws_result r = parse_sgl(buf + SQE_DPTR, SQE_DPTR, &c->sgl, &c->warnings);
	if (r.status != IWS_OK)
		return r;
	iws_nvme_command_capsule_len(c, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len);

	if (c->opcode == IWS_NVME_OPC_FABRICS) {
		c->fabrics = true;
		parse_fabrics(buf, &c->fab);
		return iws_ok();
	}
	c->nsid = iws_le32(buf + SQE_NSID);
	c->f_nsid = iws_fld(SQE_NSID, 4);
	if (queue != IWS_NVME_QUEUE_ADMIN)
		parse_io(buf, c->opcode, c);
	if (queue != IWS_NVME_QUEUE_IO)
		parse_admin(buf, c->opcode, &c->adm);
	return iws_ok();
}

struct iws_result iws_nvme_parse_command_cut(const uint8_t *buf, size_t have, enum iws_nvme_queue queue,
					     struct iws_nvme_command *c)
{
	if (have >= IWS_NVME_SQE_LEN) {
		struct iws_result r = iws_nvme_parse_command(buf, have, queue, c);
		c->captured = IWS_NVME_SQE_LEN;
		return r;
	}
	if (have < SQE_NSID) {
		memset(c, 0, sizeof(*c));
		return iws_need(SQE_NSID);
	}
	/* Decode the octets captured as if the rest were zero, then forget
	 * what came from the zeros. */
	uint8_t sqe[IWS_NVME_SQE_LEN] = { 0 };
	memcpy(sqe, buf, have);
	struct iws_result r = iws_nvme_parse_command(sqe, IWS_NVME_SQE_LEN, queue, c);
	if (r.status == IWS_MALFORMED && have >= SQE_DPTR + 16)
		return r;  /* captured octets that cannot be an SQE */
	if (r.status != IWS_OK && c->psdt == 3)
		return r;
	if (have < SQE_DPTR + 16) {
		memset(&c->sgl, 0, sizeof(c->sgl));
		c->warnings &= ~(uint32_t)(IWS_NVME_W_ICD_SHORT | IWS_NVME_W_ICD_UNUSED);
		c->warnings &= IWS_NVME_W_PSDT_PRP | IWS_NVME_W_FUSE;
	}
	if (have < SQE_NSID + 4 && !c->fabrics)
		c->nsid = 0;
	/* CDW10-15: what the opcode's fields were read from, except an LBA
	 * command's SLBA, NLB and control when CDW10-12 were captured whole
	 * (54 octets of SQE remain at snaplen 128 without TCP options) */
	struct iws_nvme_rw rw = c->rw;
	memset(&c->rw, 0, sizeof(c->rw));
	if (rw.valid && have >= CDW(13)) {
		c->rw = rw;
		if (have < CDW(14)) {
			c->rw.dsmgmt = 0;
			c->rw.f_dsmgmt = iws_fld(0, 0);
		}
	}
	memset(&c->dsm, 0, sizeof(c->dsm));
	memset(&c->adm, 0, sizeof(c->adm));
	if (c->fabrics) {
		/* FCTYPE is octet 4; the Connect's QID, SQSIZE, KATO are in CDW10-12 */
		uint8_t fct = have > SQE_NSID ? c->fab.fctype : 0;
		struct iws_field ff = c->fab.f_fctype;
		memset(&c->fab, 0, sizeof(c->fab));
		c->fab.fctype = fct;
		c->fab.f_fctype = ff;
	}
	c->captured = (uint32_t)have;
	return iws_ok();
}

/* In-capsule data (NVMe-oF 1.1 "Capsules"): what follows the SQE, described
 * by a Data Block descriptor with sub type Offset. */
void iws_nvme_command_capsule_len(struct iws_nvme_command *c, uint32_t capsule_len)
{
	c->warnings &= ~(uint32_t)(IWS_NVME_W_ICD_SHORT | IWS_NVME_W_ICD_UNUSED);
	c->icd_len = capsule_len > IWS_NVME_SQE_LEN ? capsule_len - IWS_NVME_SQE_LEN : 0;
	c->f_icd = iws_fld(IWS_NVME_SQE_LEN, c->icd_len);
	if (c->sgl.in_capsule) {
		/* addr + length could wrap: compare piecewise */
		if (c->sgl.addr > c->icd_len || c->sgl.length > c->icd_len - c->sgl.addr)
			c->warnings |= IWS_NVME_W_ICD_SHORT;
		else if (c->sgl.addr + c->sgl.length < c->icd_len)
			c->warnings |= IWS_NVME_W_ICD_UNUSED;
	} else if (c->icd_len) {
		c->warnings |= IWS_NVME_W_ICD_UNUSED;
	}
}

/* An NQN field: a UTF-8 string NUL-terminated within its 256 octets
 * (NVMe-oF 1.1 "Connect Command Data"; NVMe Base 2.0 "NVMe Qualified Names"). */
static bool nqn_field(const uint8_t *p, char *out)
{
	const uint8_t *nul = memchr(p, 0, IWS_NVME_NQN_FIELD_LEN);
	if (!nul)
		return false;
	memcpy(out, p, (size_t)(nul - p) + 1);
	return true;
}

struct iws_result iws_nvme_parse_connect_data(const uint8_t *buf, size_t len,
					      struct iws_nvme_connect_data *d)
{
	memset(d, 0, sizeof(*d));
	if (len < IWS_NVME_CONNECT_DATA_LEN)
		return iws_need(IWS_NVME_CONNECT_DATA_LEN);
	/* HOSTID 0-15, CNTLID 16-17, SUBNQN 256-511, HOSTNQN 512-767. */
	memcpy(d->hostid, buf, 16);
	d->cntlid = iws_le16(buf + 16);
	d->f_hostid = iws_fld(0, 16);
	d->f_cntlid = iws_fld(16, 2);
	d->f_subnqn = iws_fld(256, IWS_NVME_NQN_FIELD_LEN);
	d->f_hostnqn = iws_fld(512, IWS_NVME_NQN_FIELD_LEN);
	if (!nqn_field(buf + 256, d->subnqn))
		return iws_malformed("SUBNQN not NUL-terminated", 256, IWS_NVME_NQN_FIELD_LEN);
	if (!nqn_field(buf + 512, d->hostnqn))
		return iws_malformed("HOSTNQN not NUL-terminated", 512, IWS_NVME_NQN_FIELD_LEN);
	return iws_ok();
}

struct iws_result iws_nvme_parse_completion(const uint8_t *buf, size_t len,
					    struct iws_nvme_completion *e)
{
	memset(e, 0, sizeof(*e));
	if (len < IWS_NVME_CQE_LEN)
		return iws_need(IWS_NVME_CQE_LEN);
	e->dw0 = iws_le32(buf);
	e->dw1 = iws_le32(buf + 4);
	e->sqhd = iws_le16(buf + 8);
	e->sqid = iws_le16(buf + 10);
	e->cid = iws_le16(buf + 12);
	uint16_t w = iws_le16(buf + 14);
	/* DW3 bits 31:16: Phase Tag in bit 16, the Status Field above it. */
	e->phase = w & 1;
	e->status = w >> 1;
	e->sc = (uint8_t)e->status;
	e->sct = (e->status >> 8) & 7;
	e->crd = (e->status >> 11) & 3;
	e->more = (e->status >> 13) & 1;
	e->dnr = (e->status >> 14) & 1;
	e->f_dw0 = iws_fld(0, 4);
	e->f_dw1 = iws_fld(4, 4);
	e->f_sqhd = iws_fld(8, 2);
	e->f_sqid = iws_fld(10, 2);
	e->f_cid = iws_fld(12, 2);
	e->f_status = iws_fld(14, 2);
	/* The RDMA transport's response capsule is the CQE alone. */
	if (len > IWS_NVME_CQE_LEN)
		e->warnings |= IWS_NVME_W_TRAILING;
	if (e->sct >= 4 && e->sct <= 6)
		return iws_malformed("Status Code Type reserved (NVMe Base 2.0)", 14, 2);
	return iws_ok();
}

struct iws_result iws_nvme_parse_cm_req(const uint8_t *buf, size_t len, struct iws_nvme_cm_req *r)
{
	memset(r, 0, sizeof(*r));
	if (len < IWS_NVME_CM_REQ_LEN)
		return iws_need(IWS_NVME_CM_REQ_LEN);
	r->recfmt = iws_le16(buf);
	r->qid = iws_le16(buf + 2);
	r->hrqsize = iws_le16(buf + 4);
	r->hsqsize = iws_le16(buf + 6);
	r->f_recfmt = iws_fld(0, 2);
	r->f_qid = iws_fld(2, 2);
	r->f_hrqsize = iws_fld(4, 2);
	r->f_hsqsize = iws_fld(6, 2);
	if (r->recfmt != 0)
		return iws_malformed("RDMA CM private data RECFMT is not 0", 0, 2);
	return iws_ok();
}

struct iws_result iws_nvme_parse_cm_rep(const uint8_t *buf, size_t len, struct iws_nvme_cm_rep *r)
{
	memset(r, 0, sizeof(*r));
	if (len < IWS_NVME_CM_REP_LEN)
		return iws_need(IWS_NVME_CM_REP_LEN);
	r->recfmt = iws_le16(buf);
	r->crqsize = iws_le16(buf + 2);
	r->f_recfmt = iws_fld(0, 2);
	r->f_crqsize = iws_fld(2, 2);
	if (r->recfmt != 0)
		return iws_malformed("RDMA CM private data RECFMT is not 0", 0, 2);
	return iws_ok();
}

/* Opcodes mean different things on the admin and I/O queues (NVMe Base 2.0
 * "Admin Command Set" vs the NVM Command Set); Fabrics is 7Fh on both. */
static const char *op_name(enum iws_nvme_queue q, uint8_t opcode, bool fabrics, uint8_t fctype,
			   bool title)
{
	const char *a, *io;
	if (fabrics) {
		a = title ? iws_nvme_fctype_title(fctype) : iws_nvme_fctype_key(fctype);
		return a ? a : title ? "Fabrics Command" : "fabrics";
	}
	a = title ? iws_nvme_admin_opcode_title(opcode) : iws_nvme_admin_opcode_key(opcode);
	io = title ? iws_nvme_io_opcode_title(opcode) : iws_nvme_io_opcode_key(opcode);
	if (q == IWS_NVME_QUEUE_ADMIN)
		io = NULL;
	else if (q == IWS_NVME_QUEUE_IO)
		a = NULL;
	else if (a && io)
		a = io = NULL;  /* unknown queue, two meanings: say neither */
	if (a)
		return a;
	if (io)
		return io;
	return title ? "Unknown" : "unknown";
}

const char *iws_nvme_op_key(enum iws_nvme_queue q, uint8_t opcode, bool fabrics, uint8_t fctype)
{
	return op_name(q, opcode, fabrics, fctype, false);
}

const char *iws_nvme_op_title(enum iws_nvme_queue q, uint8_t opcode, bool fabrics, uint8_t fctype)
{
	return op_name(q, opcode, fabrics, fctype, true);
}

const char *iws_nvme_xfer_name(enum iws_nvme_xfer x)
{
	switch (x) {
	case IWS_NVME_XFER_IN_CAPSULE:
		return "in_capsule";
	case IWS_NVME_XFER_C2H:
		return "rdma_write";
	case IWS_NVME_XFER_H2C:
		return "rdma_read";
	default:
		return "none";
	}
}

/* names.h names each value; nvme.h says what the one field shows. */
const char *iws_nvme_admin_detail(char *buf, size_t len, const struct iws_nvme_admin *a)
{
	const char *key = NULL, *name = NULL;
	uint32_t v = 0;
	if (a->identify) {
		key = "cns", v = a->cns, name = iws_nvme_cns_name(v);
	} else if (a->log_page) {
		key = "lid", v = a->lid, name = iws_nvme_lid_name(v);
	} else if (a->features) {
		key = "fid", v = a->fid, name = iws_nvme_fid_name(v);
	}
	if (!len)
		return buf;
	if (!key)
		buf[0] = 0;
	else if (name)
		snprintf(buf, len, "%s=0x%02x (%s)", key, (unsigned)v, name);
	else
		snprintf(buf, len, "%s=0x%02x", key, (unsigned)v);
	return buf;
}
