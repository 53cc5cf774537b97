// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB Direct messages (MS-SMBD 2.2) and the SMB2 header with the READ and
 * WRITE requests' RDMA channel (MS-SMB2 2.2.1, 2.2.19 - 2.2.22): see smbd.h.
 * Every offset and length from the wire is checked against the octets
 * there in 64 bits before it is used.
 */
#include "iwarpscope/smbd.h"

#include <string.h>

#include "bytes.h"

struct iws_result iws_smbd_parse_negotiate(const uint8_t *b, size_t len, struct iws_smbd_negotiate *n)
{
	memset(n, 0, sizeof(*n));
	if (len != IWS_SMBD_NEG_REQ_LEN && len != IWS_SMBD_NEG_RESP_LEN)
		return iws_malformed("not the length of an SMBD negotiate message", 0, len);
	n->min_version = iws_le16(b);
	n->max_version = iws_le16(b + 2);
	if (n->min_version > IWS_SMBD_VERSION || n->max_version < IWS_SMBD_VERSION)
		return iws_malformed("SMBD versions without 1.0", 0, 4);
	if (len == IWS_SMBD_NEG_REQ_LEN) {
		/* 2.2.1: MinVersion, MaxVersion, Reserved, CreditsRequested,
		 * PreferredSendSize, MaxReceiveSize, MaxFragmentedSize */
		n->credits_requested = iws_le16(b + 6);
		n->preferred_send_size = iws_le32(b + 8);
		n->max_receive_size = iws_le32(b + 12);
		n->max_fragmented_size = iws_le32(b + 16);
		return iws_ok();
	}
	/* 2.2.2: MinVersion, MaxVersion, NegotiatedVersion, Reserved,
	 * CreditsRequested, CreditsGranted, Status, MaxReadWriteSize,
	 * PreferredSendSize, MaxReceiveSize, MaxFragmentedSize */
	n->response = true;
	n->negotiated_version = iws_le16(b + 4);
	n->credits_requested = iws_le16(b + 8);
	n->credits_granted = iws_le16(b + 10);
	n->status = iws_le32(b + 12);
	n->max_read_write_size = iws_le32(b + 16);
	n->preferred_send_size = iws_le32(b + 20);
	n->max_receive_size = iws_le32(b + 24);
	n->max_fragmented_size = iws_le32(b + 28);
	return iws_ok();
}

struct iws_result iws_smbd_parse_data(const uint8_t *b, size_t len, struct iws_smbd_data *d)
{
	memset(d, 0, sizeof(*d));
	if (len < IWS_SMBD_DATA_HDR_LEN)
		return iws_need(IWS_SMBD_DATA_HDR_LEN);
	d->credits_requested = iws_le16(b);
	d->credits_granted = iws_le16(b + 2);
	d->flags = iws_le16(b + 4);
	d->remaining = iws_le32(b + 8);
	d->data_offset = iws_le32(b + 12);
	d->data_length = iws_le32(b + 16);
	/* 2.2.3: with data, DataOffset is 8-aligned and past the 20 octets
	 * (24 in every stack); without, both are 0 */
	if (!d->data_length)
		return iws_ok();
	if (d->data_offset < IWS_SMBD_DATA_HDR_LEN || (d->data_offset & 7))
		return iws_malformed("SMBD DataOffset", 12, 4);
	if ((uint64_t)d->data_offset + d->data_length > len)
		return iws_malformed("SMBD data past the message", 16, 4);
	return iws_ok();
}

const char *iws_smb2_cmd_name(uint16_t cmd)
{
	static const char *const names[] = {
		"negotiate", "session_setup", "logoff", "tree_connect", "tree_disconnect",
		"create", "close", "flush", "read", "write", "lock", "ioctl", "cancel",
		"echo", "query_directory", "change_notify", "query_info", "set_info", "oplock_break",
	};
	return cmd < sizeof(names) / sizeof(names[0]) ? names[cmd] : NULL;
}

/* The channel info (MS-SMB2 2.2.19 ReadChannelInfo, 2.2.21
 * WriteChannelInfo): off and clen from the header's start; an RDMA
 * channel's is a list of MS-SMBD 2.2.3.1 descriptors. */
static struct iws_result channel_info(const uint8_t *b, size_t len, struct iws_smb2_msg *m, uint32_t off,
				      uint32_t clen, size_t field)
{
	if (m->channel != IWS_SMB2_CHANNEL_RDMA_V1 && m->channel != IWS_SMB2_CHANNEL_RDMA_V1_INVALIDATE)
		return iws_ok();
	if (!clen)
		return iws_ok();
	if ((uint64_t)off + clen > len || off < IWS_SMB2_HDR_LEN)
		return iws_malformed("SMB2 channel info outside the message", field, 4);
	if (clen % 16)
		return iws_malformed("SMB2 channel info not whole descriptors", field + 2, 2);
	m->ndesc = clen / 16;
	for (uint32_t i = 0; i < m->ndesc && i < IWS_SMBD_MAX_DESC; i++) {
		const uint8_t *d = b + off + 16 * i;
		m->desc[i] = (struct iws_smbd_desc){ iws_le64(d), iws_le32(d + 8), iws_le32(d + 12) };
	}
	return iws_ok();
}

struct iws_result iws_smb2_parse(const uint8_t *b, size_t len, struct iws_smb2_msg *m)
{
	memset(m, 0, sizeof(*m));
	if (len < IWS_SMB2_HDR_LEN)
		return iws_need(IWS_SMB2_HDR_LEN);
	/* 2.2.1.1/2.2.1.2: ProtocolId, StructureSize (64), CreditCharge,
	 * Status (or ChannelSequence), Command, CreditRequest/Response, Flags,
	 * NextCommand, MessageId, ... */
	if (b[0] != 0xFE || b[1] != 'S' || b[2] != 'M' || b[3] != 'B')
		return iws_malformed("not an SMB2 header", 0, 4);
	if (iws_le16(b + 4) != IWS_SMB2_HDR_LEN)
		return iws_malformed("SMB2 StructureSize", 4, 2);
	m->status = iws_le32(b + 8);
	m->command = iws_le16(b + 12);
	m->credits = iws_le16(b + 14);
	m->flags = iws_le32(b + 16);
	m->next_command = iws_le32(b + 20);
	m->message_id = iws_le64(b + 24);
	/* 2.2.1: a compound's next header is 8-aligned */
	if (m->next_command & 7)
		return iws_malformed("SMB2 NextCommand not 8-aligned", 20, 4);
	const uint8_t *p = b + IWS_SMB2_HDR_LEN;
	size_t plen = len - IWS_SMB2_HDR_LEN;
	bool resp = m->flags & IWS_SMB2_FLAGS_RESPONSE;
	if (m->command == IWS_SMB2_READ && !resp && plen >= 48) {
		/* 2.2.19: StructureSize 49, Padding, Flags, Length, Offset,
		 * FileId, MinimumCount, Channel, RemainingBytes,
		 * ReadChannelInfoOffset, ReadChannelInfoLength */
		m->io = true;
		m->length = iws_le32(p + 4);
		m->offset = iws_le64(p + 8);
		m->channel = iws_le32(p + 36);
		m->remaining = iws_le32(p + 40);
		return channel_info(b, len, m, iws_le16(p + 44), iws_le16(p + 46), IWS_SMB2_HDR_LEN + 44);
	}
	if (m->command == IWS_SMB2_WRITE && !resp && plen >= 48) {
		/* 2.2.21: StructureSize 49, DataOffset, Length, Offset, FileId,
		 * Channel, RemainingBytes, WriteChannelInfoOffset,
		 * WriteChannelInfoLength, Flags */
		m->io = true;
		m->length = iws_le32(p + 4);
		m->offset = iws_le64(p + 8);
		m->channel = iws_le32(p + 32);
		m->remaining = iws_le32(p + 36);
		return channel_info(b, len, m, iws_le16(p + 40), iws_le16(p + 42), IWS_SMB2_HDR_LEN + 40);
	}
	if (m->command == IWS_SMB2_READ && resp && plen >= 16 && iws_le16(p) == 17) {
		/* 2.2.20: StructureSize 17, DataOffset, Reserved, DataLength,
		 * DataRemaining (what went by RDMA, 3.3.5.12) */
		m->data_length = iws_le32(p + 4);
		m->data_remaining = iws_le32(p + 8);
	} else if (m->command == IWS_SMB2_WRITE && resp && plen >= 16 && iws_le16(p) == 17) {
		m->count = iws_le32(p + 4); /* 2.2.22: StructureSize 17, Reserved, Count */
	}
	return iws_ok();
}

enum iws_smb_verdict iws_smb_verdict_of(const struct iws_smb_counts *k)
{
	if (k->rdma_reads || k->rdma_writes)
		return IWS_SMB_RDMA;
	return k->reads || k->writes ? IWS_SMB_INLINE_ONLY : IWS_SMB_NO_IO;
}

const char *iws_smb_verdict_name(enum iws_smb_verdict v)
{
	switch (v) {
	case IWS_SMB_RDMA:
		return "rdma";
	case IWS_SMB_INLINE_ONLY:
		return "inline-only";
	default:
		return "no-io";
	}
}
