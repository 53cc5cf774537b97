// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding FPDU boundaries without the handshake (RFC 5044 §4.3 notes that a
 * receiver can find FPDUs from markers; without markers we validate a chain
 * of FPDUs, each ULPDU_Length leading exactly to the next header).
 */
#include "iwarpscope/sync.h"

#include <string.h>

#include "bytes.h"
#include "iwarpscope/crc32c.h"
#include "iwarpscope/rdmap.h"

/* Enough marker-free octets for the largest fixed header (18 + 52). */
#define SYNC_PREFIX 72
/* Octets of CRC one iws_sync_find may compute: a stream crafted with a
 * plausible maximum-size FPDU header every few octets would otherwise cost
 * a 64 kB CRC per candidate offset. Past it, a candidate that needs a CRC to
 * be believed is not (real streams never come close: a true boundary needs
 * at most min_chain CRCs). */
#define SYNC_CRC_BUDGET (16u * IWS_FPDU_MAX_WIRE)
/* Marker grids tried per call: a real grid has one phase; data such as an
 * array of small multiples of 4 looks like a grid at many phases, and each
 * try is a scan of its own. */
#define SYNC_MAX_GRIDS 4

/* Which CRCs to compute, and how many octets of them are left. */
struct crc_plan {
	bool want;      /* compute even when not required (to infer CRC use) */
	bool limited;
	uint64_t left;
	bool spent;     /* the budget ran out */
};

/*
 * A necessary condition for iws_rdmap_parse(u, n) not to be MALFORMED, read
 * from the raw octets: the DDP and RDMAP versions, and with the whole DDP
 * header present the opcode, its buffer model and its queue. Hunting tries
 * every offset of a stream; this rejects almost all of them at the cost of a
 * few loads instead of a full decode (which clears two large structures).
 */
static bool header_plausible(const uint8_t *u, size_t n)
{
	if (n < 2)
		return true;
	if ((u[0] & IWS_DDP_DV_MASK) != IWS_DDP_VERSION || (u[1] >> 6) != IWS_RDMAP_VERSION)
		return false;
	bool tagged = (u[0] & IWS_DDP_FLAG_T) != 0;
	if (n < (tagged ? IWS_DDP_TAGGED_HDR_LEN : IWS_DDP_UNTAGGED_HDR_LEN))
		return true;  /* the decoder stops at NEED_MORE first */
	int q = iws_rdmap_opcode_queue(u[1] & IWS_RDMAP_OPCODE_MASK);
	if (q == -2 || (q == -1) != tagged)
		return false;
	return q < 0 || iws_be32(u + 6) == (uint32_t)q;
}

/* One FPDU at wire[0] (seq): 1 valid, 0 invalid, -1 runs past the end of the
 * buffer but what is there is valid. *wire_len receives its length. The CRC
 * is computed when d->crc requires it or cp->want asks for it, within the
 * budget of cp. */
static int check_fpdu(const uint8_t *wire, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
		      struct crc_plan *cp, uint32_t *wire_len, int *crc_state, unsigned *markers_seen)
{
	*crc_state = 0;
	if (d->markers && ((seq - d->marker_base) & 3) != 0)
		return 0;
	uint32_t lo = iws_mpa_len_field_off(d, seq);
	if (len < lo + 2)
		return -1;
	uint16_t ulen = iws_be16(wire + lo);
	if (ulen < IWS_DDP_MIN_HDR_LEN)
		return 0;
	if (!d->markers) {
		/* No marker can split the header: look at it in place first. */
		size_t have = len - lo - 2 < ulen ? len - lo - 2 : ulen;
		if (!header_plausible(wire + lo + 2, have))
			return 0;
	}
	uint32_t w = iws_mpa_fpdu_wire_len(d, seq, ulen);
	*wire_len = w;

	/* Header check on a marker-free prefix. */
	uint8_t tmp[SYNC_PREFIX + 2 + 4 * 2];
	size_t avail = len < w ? len : w;
	size_t take = avail < sizeof(tmp) ? avail : sizeof(tmp);
	size_t n = iws_mpa_strip_markers(wire, take, seq, d, tmp);
	if (n <= 2)
		return -1;
	size_t plen = n - 2 < ulen ? n - 2 : ulen;
	if (!header_plausible(tmp + 2, plen))
		return 0;
	struct iws_msg msg;
	struct iws_result r = iws_rdmap_parse(tmp + 2, plen, &msg);
	if (r.status == IWS_MALFORMED)
		return 0;
	if (r.status == IWS_NEED_MORE && plen == ulen)
		return 0;  /* the whole ULPDU is there and still too short */

	/* Every marker inside must point back to this FPDU. */
	if (d->markers) {
		for (uint32_t o = iws_mpa_next_marker_dist(d, seq); o + 4 <= avail && o < w; o += 512) {
			uint16_t ptr = d->fpduptr_le ? (uint16_t)(wire[o + 2] | wire[o + 3] << 8) : iws_be16(wire + o + 2);
			if (iws_be16(wire + o) != 0 || ptr != iws_mpa_fpduptr_expected(lo, o))
				return 0;
			/* A marker right before the FPDU (FPDUPTR 0) reads like the
			 * zero CRC field of the FPDU before it, with CRC off (siw):
			 * only one that points back into its FPDU proves a grid. */
			if (ptr)
				(*markers_seen)++;
		}
	}
	if (len < w)
		return -1;
	if (!cp->want && !d->crc)
		return 1;
	uint32_t crc_off = w - IWS_MPA_CRC_LEN;
	if (cp->limited) {
		if (cp->left < crc_off) {
			cp->spent = true;
			return d->crc ? 0 : 1;  /* unproven: not valid when CRC is required */
		}
		cp->left -= crc_off;
	}

	uint32_t wire_crc = iws_mpa_crc_read(wire + crc_off);
	uint32_t calc = iws_crc32c_extend(0, wire, crc_off);
	*crc_state = calc == wire_crc ? 1 : (wire_crc == 0 ? 2 : 3);
	if (d->crc && *crc_state != 1)
		return 0;
	return 1;
}

bool iws_sync_header_ok(const uint8_t *wire, uint32_t cap, uint32_t seq, const struct iws_mpa_dir *d,
			uint32_t *wire_len)
{
	if (d->markers && ((seq - d->marker_base) & 3) != 0)
		return false;
	uint32_t lo = iws_mpa_len_field_off(d, seq);
	if (cap < lo + 2)
		return false;
	uint16_t ulen = iws_be16(wire + lo);
	if (ulen < IWS_DDP_MIN_HDR_LEN)
		return false;
	*wire_len = iws_mpa_fpdu_wire_len(d, seq, ulen);
	uint8_t tmp[SYNC_PREFIX + 2 + 4 * 2];
	uint32_t take = cap < *wire_len ? cap : *wire_len;
	if (take > sizeof(tmp))
		take = sizeof(tmp);
	size_t n = iws_mpa_strip_markers(wire, take, seq, d, tmp);
	if (n < 2 + IWS_DDP_MIN_HDR_LEN)
		return false;
	size_t plen = n - 2 < ulen ? n - 2 : ulen;
	bool tagged = (tmp[2] & IWS_DDP_FLAG_T) != 0;
	if (plen < (tagged ? IWS_DDP_TAGGED_HDR_LEN : IWS_DDP_UNTAGGED_HDR_LEN) ||
	    !header_plausible(tmp + 2, plen))
		return false;
	struct iws_msg msg;
	return iws_rdmap_parse(tmp + 2, plen, &msg).status != IWS_MALFORMED;
}

static unsigned chain(const uint8_t *buf, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
		      unsigned max_fpdus, struct crc_plan *cp, bool *ended_cleanly, unsigned *crc_ok,
		      unsigned *crc_zero, unsigned *markers_seen)
{
	unsigned n = 0;
	size_t off = 0;
	struct iws_mpa_dir dd = *d;
	*ended_cleanly = false;
	if (crc_ok)
		*crc_ok = 0;
	if (crc_zero)
		*crc_zero = 0;
	while (n < max_fpdus) {
		if (off == len) {
			*ended_cleanly = true;
			break;
		}
		uint32_t w = 0;
		int cs;
		int v = check_fpdu(buf + off, len - off, seq + (uint32_t)off, &dd, cp, &w, &cs,
				   markers_seen);
		if (v < 0) {
			*ended_cleanly = true;
			break;
		}
		if (v == 0)
			break;
		n++;
		if (cs == 1 && crc_ok)
			(*crc_ok)++;
		if (cs == 2 && crc_zero)
			(*crc_zero)++;
		off += w;
		/* A sender whose marker count leaves CRC fields out: its grid moves
		 * 4 octets on with every FPDU. */
		if (dd.skip_crc)
			dd.marker_base += IWS_MPA_CRC_LEN;
	}
	return n;
}

unsigned iws_sync_chain(const uint8_t *buf, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
			unsigned max_fpdus, bool *ended_cleanly, unsigned *crc_ok, unsigned *crc_zero)
{
	unsigned markers_seen = 0;
	struct crc_plan cp = { crc_ok || crc_zero, false, 0, false };
	return chain(buf, len, seq, d, max_fpdus, &cp, ended_cleanly, crc_ok, crc_zero, &markers_seen);
}

static bool scan(const uint8_t *buf, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
		 unsigned min_chain, uint32_t max_scan, uint32_t step, uint32_t first,
		 bool need_marker, struct crc_plan *cp, struct iws_sync *out, bool *pending)
{
	for (uint32_t off = first; off < max_scan && off < len; off += step) {
		/* The common case on a stream that is not FPDUs: a length or a
		 * version that cannot be, rejected without a call (what
		 * check_fpdu would conclude first). */
		if (!d->markers && len - off >= 4 &&
		    (iws_be16(buf + off) < IWS_DDP_MIN_HDR_LEN ||
		     (buf[off + 2] & IWS_DDP_DV_MASK) != IWS_DDP_VERSION ||
		     (buf[off + 3] >> 6) != IWS_RDMAP_VERSION))
			continue;
		bool clean;
		unsigned ok, zero, mk = 0;
		unsigned n = chain(buf + off, len - off, seq + off, d, min_chain, cp, &clean, &ok, &zero,
				   &mk);
		/* A matching CRC is proof enough; otherwise demand min_chain FPDUs.
		 * A guessed marker grid must also have been seen in the chain. */
		if ((n >= min_chain || (ok > 0 && n >= 1)) && (!need_marker || mk > 0)) {
			out->off = off;
			out->chain = n;
			out->chain_to_end = clean;
			out->crc_ok = ok;
			out->crc_zero = zero;
			out->crc_bad = n - ok - zero;
			out->crc = ok > 0 ? IWS_YES : IWS_NO;
			out->markers = d->markers;
			out->marker_base = d->marker_base;
			out->fpduptr_le = d->markers && d->fpduptr_le;
			out->skip_crc = d->markers && d->skip_crc;
			return true;
		}
		/* Valid as far as the data goes: with more octets this candidate
		 * might still win. */
		if (clean)
			*pending = true;
	}
	return false;
}

/* What the words at one grid phase look like: how many there are (over
 * `periods` intervals, 0: as many as the data holds; counting stops at the
 * first that cannot be a marker), whether all have a
 * zero reserved half and an FPDUPTR that is 4-aligned read most (be) or
 * least (le) significant octet first, and whether any points back (not 0). */
struct grid_words {
	unsigned words;
	bool be, le, pointing;
};

static struct grid_words grid_at(const uint8_t *buf, size_t len, uint32_t p, unsigned periods)
{
	struct grid_words g = { 0, true, true, false };
	for (uint32_t q = p; q + 4 <= len && (!periods || q < p + periods * IWS_MPA_MARKER_INTERVAL);
	     q += IWS_MPA_MARKER_INTERVAL) {
		g.words++;
		if (iws_be16(buf + q)) {
			g.be = g.le = false;
			break;
		}
		g.be &= (iws_be16(buf + q + 2) & 3) == 0;
		g.le &= (buf[q + 2] & 3) == 0;
		g.pointing |= iws_be16(buf + q + 2) != 0;
	}
	return g;
}

/* Chains of FPDUs with markers on the grid at base, FPDUPTR in the byte
 * order(s) the words allow, the grid fixed (RFC 5044 §4.3) or moving on by
 * 4 octets with every FPDU (a sender that does not count CRC octets). */
static bool try_grid(const uint8_t *buf, size_t len, uint32_t seq, const struct iws_mpa_dir *d,
		     uint32_t base, const struct grid_words *g, bool need_marker, unsigned min_chain,
		     uint32_t max_scan, struct crc_plan *cp, struct iws_sync *out, bool *pending)
{
	struct iws_mpa_dir dm = *d;
	dm.markers = true;
	dm.marker_base = base;
	for (int le = 0; le < 2; le++) {
		if (!(le ? g->le : g->be))
			continue;
		for (int skip = 0; skip < 2; skip++) {
			/* With a moving grid, the words found may belong to the FPDU
			 * before the first whole one (the data starts inside it): its
			 * grid is then 4 (or 8) octets on. */
			for (uint32_t j = 0; j < (skip ? 3u : 1u); j++) {
				dm.fpduptr_le = le;
				dm.skip_crc = skip;
				dm.marker_base = base + 4 * j;
				if (scan(buf, len, seq, &dm, min_chain, max_scan, 4, (base - seq) & 3,
					 need_marker, cp, out, pending))
					return true;
			}
		}
	}
	return false;
}

struct iws_result iws_sync_find(const uint8_t *buf, size_t len, uint32_t seq,
				const struct iws_sync_opts *o, struct iws_sync *out)
{
	memset(out, 0, sizeof(*out));
	unsigned min_chain = o->min_chain ? o->min_chain : 3;
	uint32_t max_scan = o->max_scan ? o->max_scan : IWS_FPDU_MAX_WIRE;
	struct iws_mpa_dir d = { false, o->crc == IWS_YES, 0, o->fpduptr_le, o->skip_crc };
	/* CRCs known to be off are not worth computing: they could only match
	 * by accident. */
	struct crc_plan cp = { o->crc != IWS_NO, true, SYNC_CRC_BUDGET, false };
	bool pending = false;

	if (o->markers == IWS_UNKNOWN && o->marker_base_known) {
		/* Only two readings are possible: markers on the known grid, or
		 * none. The words at the grid points decide: a marker has a zero
		 * reserved half and a 4-aligned FPDUPTR (RFC 5044 §4.2). With no
		 * grid point in the data yet, wait (unless it ends here). */
		uint32_t p = (o->marker_base - seq) & (IWS_MPA_MARKER_INTERVAL - 1);
		struct grid_words g = grid_at(buf, len, p, 0);
		if (!g.words && o->min_chain != 1)
			return iws_need(p + 4);
		if (g.words && (g.be || g.le) &&
		    try_grid(buf, len, seq, &d, o->marker_base, &g, false, min_chain, max_scan, &cp, out,
			     &pending))
			return iws_ok();
		if (scan(buf, len, seq, &d, min_chain, max_scan, 1, 0, false, &cp, out, &pending))
			return iws_ok();
	} else if (o->markers == IWS_YES) {
		d.markers = true;
		d.marker_base = o->marker_base;
		uint32_t first = (o->marker_base - seq) & 3;
		if (scan(buf, len, seq, &d, min_chain, max_scan, 4, first, false, &cp, out,
			 &pending))
			return iws_ok();
	} else {
		/* Markers unknown: look for a marker grid first - a chain of FPDUs
		 * small enough to miss every grid point validates without markers
		 * too, so the no-marker answer is only right when no grid exists.
		 * Grid candidates are words 512 octets apart with a zero reserved
		 * half and a 4-aligned FPDUPTR (RFC 5044 §4.2) over four periods;
		 * then, for a sender whose grid moves on with every FPDU (its
		 * marker count leaves CRC fields out), over two. The chain must
		 * cross at least one of them. */
		unsigned grids = 0;
		uint32_t tried[SYNC_MAX_GRIDS];
		for (unsigned periods = 4; periods >= 2 && o->markers == IWS_UNKNOWN; periods -= 2) {
			for (uint32_t p = 0; p < 512 && p + 512 + 4 <= len && grids < SYNC_MAX_GRIDS; p++) {
				struct grid_words g = grid_at(buf, len, p, periods);
				/* All-zero words are what zero-filled payload looks like. */
				if (g.words < 2 || !(g.be || g.le) || !g.pointing)
					continue;
				bool again = false;
				for (unsigned i = 0; i < grids; i++)
					again |= tried[i] == p;
				if (again)
					continue;
				tried[grids++] = p;
				bool pend = false;
				if (try_grid(buf, len, seq, &d, seq + p, &g, true, min_chain, max_scan, &cp, out,
					     &pend))
					return iws_ok();
			}
		}
		if (scan(buf, len, seq, &d, min_chain, max_scan, 1, 0, false, &cp, out, &pending))
			return iws_ok();
	}
	out->crc_budget_spent = cp.spent;
	if (pending)
		return iws_need(len + IWS_FPDU_MAX_WIRE);
	return iws_malformed("no FPDU chain found", 0, len);
}
