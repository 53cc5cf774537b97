// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-iwarp-state.c - what the plugin knows of the capture being read:
 * its TCP connections (iwarp_conv, by tcp.stream), the record of every frame
 * that carries something of an iWARP connection (iwarp_frame_rec, by frame
 * number), each connection's operations (iwarp_op_link, by id), and how far
 * the first pass got. The driver (packet-iwarp-stream.c) fills it on the
 * first pass; every pass renders from it. All of it is file scoped: it
 * lives from the file's init routine to its cleanup routine.
 */
#include <epan/packet.h>
#include <epan/to_str.h>

#include <string.h>

#include "packet-iwarp-state.h"

/* The record store of the capture being read. */
static struct {
	wmem_map_t *convs;           /* tcp.stream -> iwarp_conv */
	wmem_map_t *frames;          /* frame number -> iwarp_frame_rec */
	wmem_list_t *iwarp_convs;    /* iwarp_conv carrying iWARP, by tcp.stream */
	gboolean finished;           /* the sequential (first) pass is over */
	guint32 last_num;            /* the last frame of the first pass */
} store;

/* The tap record of the capture's last frame (no connection): see
 * packet-iwarp-state.h. */
const iwarp_frame_rec iwarp_capture_end = { NULL };

void iwarp_state_init(void)
{
	memset(&store, 0, sizeof(store));
	store.convs = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	store.frames = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	store.iwarp_convs = wmem_list_new(wmem_file_scope());
}

void iwarp_state_foreach_conv(GHFunc fn, gpointer user_data)
{
	if (store.convs)
		wmem_map_foreach(store.convs, fn, user_data);
}

void iwarp_state_reset(void)
{
	memset(&store, 0, sizeof(store));
}

gboolean iwarp_state_started(void)
{
	return store.convs != NULL;
}

gboolean iwarp_state_finished(void)
{
	return store.finished;
}

void iwarp_state_set_finished(void)
{
	store.finished = TRUE;
}

void iwarp_state_saw_frame(guint32 num)
{
	if (num > store.last_num)
		store.last_num = num;
}

guint32 iwarp_state_last_frame(void)
{
	return store.last_num;
}

/* ---- connections ---- */

iwarp_conv *iwarp_conv_lookup(guint32 stream)
{
	return store.convs ? (iwarp_conv *)wmem_map_lookup(store.convs, GUINT_TO_POINTER(stream)) : NULL;
}

iwarp_conv *iwarp_conv_add(guint32 stream, const address *src, const address *dst, guint32 sport, guint32 dport)
{
	iwarp_conv *ic = wmem_new0(wmem_file_scope(), iwarp_conv);
	ic->qp = stream;
	copy_address_wmem(wmem_file_scope(), &ic->addr[0], src);
	copy_address_wmem(wmem_file_scope(), &ic->addr[1], dst);
	ic->port[0] = sport;
	ic->port[1] = dport;
	ic->ops = wmem_map_new(wmem_file_scope(), g_int64_hash, g_int64_equal);
	ic->leftover = wmem_array_new(wmem_file_scope(), sizeof(iwarp_op_link *));
	ic->nvme_cmds = wmem_map_new(wmem_file_scope(), g_int64_hash, g_int64_equal);
	ic->nvme_leftover = wmem_array_new(wmem_file_scope(), sizeof(iwarp_nvme_link *));
	wmem_map_insert(store.convs, GUINT_TO_POINTER(stream), ic);
	return ic;
}

void iwarp_conv_found_iwarp(iwarp_conv *ic)
{
	if (ic->iwarp)
		return;
	ic->iwarp = TRUE;
	wmem_list_append(store.iwarp_convs, ic);
}

wmem_list_t *iwarp_conversations(void)
{
	return store.iwarp_convs;
}

char *iwarp_endpoint_str(wmem_allocator_t *scope, const iwarp_conv *ic, guint8 dir)
{
	int side = dir == IWS_DIR_I2R ? ic->init_side : !ic->init_side;
	char *a = address_to_str(scope, &ic->addr[side]);
	char *s = wmem_strdup_printf(scope, ic->addr[side].type == AT_IPv6 ? "[%s]:%u" : "%s:%u", a,
				     ic->port[side]);
	wmem_free(scope, a);
	return s;
}

const struct iws_mpa_conn *iwarp_conv_mpa(const iwarp_conv *ic)
{
	return ic->eng ? iws_stream_mpa(ic->eng) : &ic->mpa;
}

/* ---- frames ---- */

iwarp_frame_rec *iwarp_frame_lookup(guint32 num)
{
	return store.frames ? (iwarp_frame_rec *)wmem_map_lookup(store.frames, GUINT_TO_POINTER(num)) : NULL;
}

iwarp_frame_rec *iwarp_frame_get(guint32 num, iwarp_conv *ic)
{
	iwarp_frame_rec *fr = iwarp_frame_lookup(num);
	if (!fr) {
		fr = wmem_new0(wmem_file_scope(), iwarp_frame_rec);
		fr->ic = ic;
		wmem_map_insert(store.frames, GUINT_TO_POINTER(num), fr);
	}
	return fr;
}

/* ---- operations ---- */

iwarp_op_link *iwarp_op_link_get(iwarp_conv *ic, guint64 id)
{
	iwarp_op_link *l = (iwarp_op_link *)wmem_map_lookup(ic->ops, &id);
	if (!l) {
		l = wmem_new0(wmem_file_scope(), iwarp_op_link);
		l->op.id = id;
		wmem_map_insert(ic->ops, &l->op.id, l);
	}
	return l;
}

