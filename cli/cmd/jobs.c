// SPDX-License-Identifier: GPL-2.0-or-later
/* -j N: one reader, N workers (see jobs.h). */
#include "jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flows.h"
#include "netdecode.h"

/* Each worker's ring: what the reader may be ahead of it by. */
#define RING_BYTES (1u << 20)
/* A frame larger than this travels in a copy of its own. */
#define RING_BIG (RING_BYTES / 4)
/* Positions are published every so many frames (and before waiting), so
 * the reader and a worker do not trade a cache line per packet. */
#define PUBLISH_EVERY 64u

/* A frame in the ring; its octets follow (or, big, sit at *heap). len 0:
 * the rest of the ring is unused, the next record is at its start. */
struct rec {
	uint32_t len;               /* octets of the record, header included, a multiple of 8 */
	uint32_t caplen, wirelen;
	int32_t dlt;
	uint64_t frame;
	int64_t ts_ns;
	uint32_t stream;            /* the conversation it starts (has_stream) */
	uint8_t matched, has_stream, big;
	uint8_t *heap;
};

struct ring {
	uint8_t *buf;
	_Alignas(64) _Atomic size_t head; /* written up to (monotonic) */
	_Alignas(64) _Atomic size_t tail; /* read up to */
	_Atomic bool done;
	/* a side with nothing to do sleeps on its own until the other
	 * publishes: [0] the reader (no room), [1] the worker (no records) */
	pthread_mutex_t mu;
	struct sleeper {
		_Atomic bool waiting;
		pthread_cond_t cv;
	} side[2];
	/* the reader's own */
	_Alignas(64) size_t w_head, w_tail_seen;
	uint32_t w_unpublished;
};

struct worker {
	struct ring r;
	struct analysis a;
	pthread_t th;
	bool started, ready;
	double cpu_s;               /* the thread's CPU time (IWARPSCOPE_JOBS_TRACE) */
};

/* The calling thread's CPU seconds (what bounds -j N: the reader's share
 * against the workers'). */
static double thread_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct jobs {
	struct worker *w;
	unsigned n;
};

unsigned jobs_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (unsigned)n;
}

/* Wake the other side of r if it sleeps (after publishing a position:
 * sequentially consistent, so either the sleeper sees the new position
 * before it sleeps or this sees it waiting). */
static void wake(struct ring *r, int who)
{
	if (atomic_load(&r->side[who].waiting)) {
		pthread_mutex_lock(&r->mu);
		pthread_cond_signal(&r->side[who].cv);
		pthread_mutex_unlock(&r->mu);
	}
}

/* Sleep until ready(r) (the other side published), after a short spin:
 * with as many threads as processors, sleeping at once is cheaper than
 * spinning against the thread that is to make progress. */
static void wait_until(struct ring *r, int who, bool (*ready)(struct ring *r, void *ctx), void *ctx)
{
	struct sleeper *z = &r->side[who];
	for (int i = 0; i < 16; i++) {
		if (ready(r, ctx))
			return;
		sched_yield();
	}
	pthread_mutex_lock(&r->mu);
	atomic_store(&z->waiting, true);
	while (!ready(r, ctx))
		pthread_cond_wait(&z->cv, &r->mu);
	atomic_store(&z->waiting, false);
	pthread_mutex_unlock(&r->mu);
}

/* ---- the reader's side of a ring ---- */

static void publish_head(struct ring *r)
{
	atomic_store(&r->head, r->w_head);
	r->w_unpublished = 0;
	wake(r, 1);
}

struct room {
	size_t need;                /* octets past w_head that must be free */
};

static bool has_room(struct ring *r, void *ctx)
{
	const struct room *m = ctx;
	r->w_tail_seen = atomic_load(&r->tail);
	return r->w_head + m->need - r->w_tail_seen <= RING_BYTES;
}

/* Room for need octets at the ring's head; false only if a worker is gone. */
static uint8_t *ring_reserve(struct ring *r, size_t need)
{
	size_t off = r->w_head & (RING_BYTES - 1);
	size_t pad = off + need > RING_BYTES ? RING_BYTES - off : 0;
	if (r->w_head + pad + need - r->w_tail_seen > RING_BYTES) {
		/* the worker must see what is there before it can make room */
		publish_head(r);
		wait_until(r, 0, has_room, &(struct room){ pad + need });
	}
	if (pad) {
		uint32_t wrap = 0;
		memcpy(r->buf + off, &wrap, sizeof(wrap));
		r->w_head += pad;
		off = 0;
	}
	return r->buf + off;
}

static bool ring_push(struct ring *r, const struct src_packet *p, uint32_t stream, bool has_stream)
{
	struct rec h = {
		.caplen = p->caplen, .wirelen = p->wirelen, .dlt = p->dlt, .frame = p->frame,
		.ts_ns = p->ts_ns, .stream = stream, .matched = p->matched, .has_stream = has_stream,
	};
	size_t body = p->caplen;
	if (body > RING_BIG) {
		h.big = 1;
		h.heap = malloc(body ? body : 1);
		if (!h.heap)
			return false;
		memcpy(h.heap, p->data, body);
		body = 0;
	}
	size_t need = (sizeof(h) + body + 7) & ~(size_t)7;
	h.len = (uint32_t)need;
	uint8_t *dst = ring_reserve(r, need);
	memcpy(dst, &h, sizeof(h));
	if (body)
		memcpy(dst + sizeof(h), p->data, body);
	r->w_head += need;
	if (++r->w_unpublished >= PUBLISH_EVERY)
		publish_head(r);
	return true;
}

static void ring_close(struct ring *r)
{
	atomic_store(&r->done, true);
	publish_head(r);
}

/* ---- a worker ---- */

/* The worker's wait: records published past *tail, or the reader done. */
static bool has_data(struct ring *r, void *ctx)
{
	const size_t *tail = ctx;
	return atomic_load(&r->head) != *tail || atomic_load(&r->done);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct ring *r = &w->r;
	size_t tail = 0, head = 0;
	uint32_t unpublished = 0;
	for (;;) {
		if (tail == head) {
			/* what was read is free for the reader, which may wait for it */
			atomic_store(&r->tail, tail);
			unpublished = 0;
			wake(r, 0);
			/* done is set before the last head is published */
			bool done = atomic_load(&r->done);
			head = atomic_load(&r->head);
			if (tail == head) {
				if (done)
					break;
				wait_until(r, 1, has_data, &tail);
				head = atomic_load(&r->head);
				continue;
			}
		}
		size_t off = tail & (RING_BYTES - 1);
		struct rec h;
		memcpy(&h.len, r->buf + off, sizeof(h.len));
		if (h.len == 0) {
			tail += RING_BYTES - off;
			continue;
		}
		memcpy(&h, r->buf + off, sizeof(h));
		struct src_packet p = {
			.frame = h.frame, .ts_ns = h.ts_ns, .caplen = h.caplen, .wirelen = h.wirelen,
			.data = h.big ? h.heap : r->buf + off + sizeof(h), .dlt = h.dlt,
			.matched = h.matched,
		};
		w->a.in_stream = h.stream;
		w->a.in_new = h.has_stream;
		analysis_packet(&w->a, &p);
		if (h.big)
			free(h.heap);
		tail += h.len;
		if (++unpublished >= PUBLISH_EVERY) {
			atomic_store(&r->tail, tail);
			unpublished = 0;
			wake(r, 0);
		}
	}
	analysis_finish(&w->a);
	w->cpu_s = thread_cpu();
	return NULL;
}

/* ---- the reader ---- */

/* The same worker for both directions of a connection: a symmetric mix of
 * its two endpoints (the canonical 4-tuple, whichever side sent). */
static uint32_t endpoint_hash(const uint8_t *addr, int alen, uint16_t port)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < alen; i++)
		h = (h ^ addr[i]) * 16777619u;
	h = (h ^ port) * 16777619u;
	return h;
}

static unsigned worker_of(const struct tcp_pkt *t, unsigned n)
{
	int alen = t->af == 4 ? 4 : 16;
	uint32_t h = endpoint_hash(t->src, alen, t->sport) + endpoint_hash(t->dst, alen, t->dport);
	h ^= h >> 16;
	h *= 0x45d9f3bu;
	h ^= h >> 16;
	return h % n;
}

void jobs_free(struct jobs *j)
{
	if (!j)
		return;
	for (unsigned k = 0; k < j->n; k++) {
		if (j->w[k].ready)
			analysis_free(&j->w[k].a);
		free(j->w[k].r.buf);
		pthread_mutex_destroy(&j->w[k].r.mu);
		pthread_cond_destroy(&j->w[k].r.side[0].cv);
		pthread_cond_destroy(&j->w[k].r.side[1].cv);
	}
	free(j->w);
	free(j);
}

static struct jobs *jobs_new(const struct analysis_opts *ao, unsigned n)
{
	struct jobs *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->w = calloc(n, sizeof(*j->w));
	j->n = n;
	if (!j->w) {
		free(j);
		return NULL;
	}
	for (unsigned k = 0; k < n; k++) {
		struct worker *w = &j->w[k];
		pthread_mutex_init(&w->r.mu, NULL);
		pthread_cond_init(&w->r.side[0].cv, NULL);
		pthread_cond_init(&w->r.side[1].cv, NULL);
		w->r.buf = malloc(RING_BYTES);
		w->ready = analysis_init(&w->a, ao);
		if (!w->r.buf || !w->ready) {
			jobs_free(j);
			return NULL;
		}
		w->a.ext_stream = true;
	}
	return j;
}

bool jobs_read(struct source *s, struct analysis *dst, const struct analysis_opts *ao,
	       unsigned n, const struct run_hooks *h, struct jobs **jp)
{
	struct jobs *j = jobs_new(ao, n);
	*jp = j;
	if (!j)
		return false;
	struct flow_table ft;
	if (n > JOBS_MAX || !flow_table_init(&ft))
		return false;
	bool ok = true;
	for (unsigned k = 0; k < n && ok; k++)
		ok = j->w[k].started = pthread_create(&j->w[k].th, NULL, work, &j->w[k]) == 0;
	uint64_t packets = 0;
	struct src_packet p;
	for (int rc; ok && (rc = source_next(s, &p)) != 0;) {
		if (rc != 1)
			continue;
		/* the capture points stage sees every record in order, as in run_input */
		if (h->pts)
			points_admit(h->pts, &p);
		struct tcp_pkt t;
		const char *why;
		if (net_decode(p.dlt, p.data, p.caplen, p.wirelen, &t, &why) != NET_TCP) {
			/* counted by dst itself (analysis.c: only TCP needs a conversation) */
			analysis_packet(dst, &p);
		} else {
			/* Numbered here as analysis.c's conversation_of would: the
			 * reader then forgets the conversation (flow_retire keeps
			 * what port reuse needs, 30 octets). */
			int side;
			enum flow_event ev;
			struct flow *old;
			struct flow *f = flow_lookup(&ft, &t, &side, &ev, &old);
			if (old)
				flow_release(old);
			if (!f) {
				ok = false;
				break;
			}
			uint32_t stream = f->stream;
			if (ev != FLOW_EXISTING && !f->user) {
				f->done = true;
				flow_retire(&ft, f);
			}
			ok = ring_push(&j->w[worker_of(&t, n)].r, &p, stream, ev != FLOW_EXISTING);
		}
		/* -c N on files: the first N frames, as tshark -r -c N */
		if (h->stop_count && ++packets >= h->stop_count)
			break;
	}
	for (unsigned k = 0; k < n; k++) {
		ring_close(&j->w[k].r);
		if (j->w[k].started)
			pthread_join(j->w[k].th, NULL);
	}
	flow_table_free(&ft);
	double reader_s = thread_cpu();
	if (!ok)
		return false;
	struct analysis *wa[JOBS_MAX];
	for (unsigned k = 0; k < n; k++)
		wa[k] = &j->w[k].a;
	/* IWARPSCOPE_JOBS_TRACE: how the conversations spread (for the tests;
	 * the workers' counts before analysis_adopt sums them) */
	bool trace = getenv("IWARPSCOPE_JOBS_TRACE") != NULL;
	if (trace) {
		fprintf(stderr, "iwarpscope: jobs: %u workers, conversations", n);
		for (unsigned k = 0; k < n; k++)
			fprintf(stderr, "%c%llu", k ? '+' : ' ', (unsigned long long)wa[k]->c.tcp_conns);
	}
	bool same = analysis_adopt(dst, wa, n);
	if (trace) {
		fprintf(stderr, "%s; CPU s: reader %.3f, workers", same ? "" : ", read again with one",
			reader_s);
		for (unsigned k = 0; k < n; k++)
			fprintf(stderr, "%c%.3f", k ? '+' : ' ', j->w[k].cpu_s);
		fputc('\n', stderr);
	}
	return same;
}
