// SPDX-License-Identifier: GPL-2.0-or-later
/* -j N: N analyses on N threads, the reader's one of them (see jobs.h). */
#include "jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fastread.h"
#include "flows.h"
#include "netdecode.h"

/* Each worker's ring when frames are copied into it: what the reader may
 * be ahead of it by. */
#define RING_BYTES (1u << 20)
/* When the source holds its records mapped (source_hold) the rings carry
 * only where each frame is (struct rec, 48 octets: about 1300 frames), and
 * the reader is at most LEAD octets of the file ahead of the slowest
 * worker (that many mapped octets stay resident for the workers, instead
 * of the copies). */
#define RING_REFS (64u << 10)
#define LEAD (1u << 20)
/* The reader looks at how far the workers are every so many octets of
 * the file. */
#define LEAD_CHECK (64u << 10)
/* Positions are published every so many frames (and before waiting), so
 * the reader and a worker do not trade a cache line per packet. */
#define PUBLISH_EVERY 64u

/* Where a frame's octets are: after its struct rec in the ring, at ext
 * in a copy of its own (a frame above a quarter of the ring), or at ext in
 * the source's mapping (source_hold: no copy). */
enum { IN_RING, IN_HEAP, IN_MAP };

/* A frame in the ring. len 0: the rest of the ring is unused, the next
 * record is at its start. */
struct rec {
	uint32_t len;               /* octets of the record, header included, a multiple of 8 */
	uint32_t caplen, wirelen;
	int32_t dlt;
	uint64_t frame;
	int64_t ts_ns;
	uint32_t stream;            /* the conversation it starts (has_stream) */
	uint8_t matched, has_stream, where;
	const uint8_t *ext;
};

struct ring {
	uint8_t *buf;
	size_t size;                /* a power of two */
	_Alignas(64) _Atomic size_t head; /* written up to (monotonic) */
	_Alignas(64) _Atomic size_t tail; /* read up to */
	_Atomic bool done;
	/* IN_MAP: the last mapped frame the worker was done with when it
	 * last published tail (every frame it has not finished is after it) */
	_Atomic(const uint8_t *) consumed;
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

/* How long a side with nothing to do spins before it sleeps: about as long
 * as the other side takes to publish (PUBLISH_EVERY frames, tens of
 * microseconds). A sleep costs a wake-up, which in a virtual machine is an
 * interprocessor interrupt and an exit: on the 64-QP bench capture -j 2
 * switched threads 700-1,300 times a run (0.2 s) with 16 spins, 200-400
 * times with 1024 (docs/performance.md). */
#define SPINS 1024

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
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

/* Sleep until ready(r) (the other side published), after a spin (SPINS)
 * that yields the processor now and then, in case the side to make
 * progress waits for it. */
static void wait_until(struct ring *r, int who, bool (*ready)(struct ring *r, void *ctx), void *ctx)
{
	struct sleeper *z = &r->side[who];
	for (int i = 0; i < SPINS; i++) {
		if (ready(r, ctx))
			return;
		if (i % 64 == 63)
			sched_yield();
		else
			cpu_relax();
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
	return r->w_head + m->need - r->w_tail_seen <= r->size;
}

/* Room for need octets at the ring's head; false only if a worker is gone. */
static uint8_t *ring_reserve(struct ring *r, size_t need)
{
	size_t off = r->w_head & (r->size - 1);
	size_t pad = off + need > r->size ? r->size - off : 0;
	if (r->w_head + pad + need - r->w_tail_seen > r->size) {
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
		.where = IN_RING,
	};
	size_t body = p->caplen;
	if (p->mapped) {
		h.where = IN_MAP;
		h.ext = p->data;
		body = 0;
	} else if (body > r->size / 4) {
		uint8_t *heap = malloc(body ? body : 1);
		if (!heap)
			return false;
		memcpy(heap, p->data, body);
		h.where = IN_HEAP;
		h.ext = heap;
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
	const uint8_t *last_mapped = NULL;
	for (;;) {
		if (tail == head) {
			/* what was read is free for the reader, which may wait for it */
			if (last_mapped)
				atomic_store_explicit(&r->consumed, last_mapped, memory_order_relaxed);
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
		size_t off = tail & (r->size - 1);
		struct rec h;
		memcpy(&h.len, r->buf + off, sizeof(h.len));
		if (h.len == 0) {
			tail += r->size - off;
			continue;
		}
		memcpy(&h, r->buf + off, sizeof(h));
		struct src_packet p = {
			.frame = h.frame, .ts_ns = h.ts_ns, .caplen = h.caplen, .wirelen = h.wirelen,
			.data = h.where == IN_RING ? r->buf + off + sizeof(h) : h.ext, .dlt = h.dlt,
			.matched = h.matched,
		};
		w->a.in_stream = h.stream;
		w->a.in_new = h.has_stream;
		analysis_packet(&w->a, &p);
		if (h.where == IN_HEAP)
			free((void *)(uintptr_t)h.ext);
		else if (h.where == IN_MAP)
			last_mapped = h.ext;
		tail += h.len;
		if (++unpublished >= PUBLISH_EVERY) {
			if (last_mapped)
				atomic_store_explicit(&r->consumed, last_mapped, memory_order_relaxed);
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

/* Analysis 0 is the reader's own, with a quarter of a worker thread's
 * share (of 4n - 3 slots it has one, each worker four): reading, decoding
 * and numbering every frame take the rest of its time. With -j 2 on the
 * 64-QP bench capture that balanced the two threads (0.14-0.15 s of CPU
 * each, IWARPSCOPE_JOBS_TRACE; docs/performance.md). */
#define READER_SLOTS 1u
#define WORKER_SLOTS 4u

static unsigned worker_of(const struct tcp_pkt *t, unsigned n)
{
	int alen = t->af == 4 ? 4 : 16;
	uint32_t h = endpoint_hash(t->src, alen, t->sport) + endpoint_hash(t->dst, alen, t->dport);
	h ^= h >> 16;
	h *= 0x45d9f3bu;
	h ^= h >> 16;
	uint32_t slot = h % (READER_SLOTS + WORKER_SLOTS * (n - 1));
	return slot < READER_SLOTS ? 0 : 1 + (slot - READER_SLOTS) / WORKER_SLOTS;
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

static struct jobs *jobs_new(const struct analysis_opts *ao, unsigned n, size_t ring_size)
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
		/* analysis 0 runs in the reader: no ring */
		w->r.size = ring_size;
		w->r.buf = k ? malloc(ring_size) : NULL;
		w->ready = analysis_init(&w->a, ao);
		if ((k && !w->r.buf) || !w->ready) {
			jobs_free(j);
			return NULL;
		}
		w->a.ext_stream = true;
	}
	return j;
}

/* ---- the mapped file's pages (source_hold) ---- */

/* What the reader knows of the mapping the workers read. */
struct mapped_lead {
	struct jobs *j;
	struct fastread *fr;        /* the mapping of the frames handed out */
	const uint8_t *next_check;  /* look at the workers again from here */
};

/* The oldest mapped frame a worker may still read (NULL: none; *who: that
 * worker). A worker whose tail is at the reader's head has finished every
 * frame it was given. */
static const uint8_t *oldest_in_use(struct jobs *j, unsigned *who)
{
	const uint8_t *low = NULL;
	for (unsigned k = 0; k < j->n; k++) {
		struct ring *r = &j->w[k].r;
		if (atomic_load(&r->tail) == r->w_head)
			continue;
		const uint8_t *c = atomic_load_explicit(&r->consumed, memory_order_relaxed);
		if (!low || c < low) {
			low = c;
			*who = k;
		}
	}
	return low;
}

/* The reader's wait for a worker to be done with the frames before *ctx. */
static bool past(struct ring *r, void *ctx)
{
	const uint8_t *const *upto = ctx;
	return atomic_load(&r->tail) == r->w_head ||
	       atomic_load_explicit(&r->consumed, memory_order_relaxed) >= *upto;
}

/* The reader is to hand out p (mapped): the pages before the oldest frame
 * a worker may still read are given back, and the reader waits while that
 * frame is more than LEAD octets behind p (so the file's resident pages
 * stay about LEAD, not the length of the rings). */
static void mapped_ahead(struct mapped_lead *m, const struct src_packet *p)
{
	struct jobs *j = m->j;
	if (p->mapped != m->fr) {
		/* another mapping (the file opened again): the workers first
		 * finish the frames of the last one */
		for (unsigned k = 0; m->fr && k < j->n; k++) {
			struct ring *r = &j->w[k].r;
			publish_head(r);
			const uint8_t *all = (const uint8_t *)UINTPTR_MAX;
			wait_until(r, 0, past, &all);
		}
		m->fr = p->mapped;
		for (unsigned k = 0; k < j->n; k++)
			atomic_store(&j->w[k].r.consumed, p->data);
		m->next_check = p->data;
	}
	if (p->data < m->next_check)
		return;
	m->next_check = p->data + LEAD_CHECK;
	for (;;) {
		unsigned who = 0;
		const uint8_t *low = oldest_in_use(j, &who);
		fastread_keep(m->fr, low ? low : p->data);
		if (!low || (size_t)(p->data - low) <= LEAD)
			return;
		struct ring *r = &j->w[who].r;
		publish_head(r);
		const uint8_t *upto = p->data - LEAD / 2;
		wait_until(r, 0, past, &upto);
	}
}

bool jobs_read(struct source *s, struct analysis *dst, const struct analysis_opts *ao,
	       unsigned n, const struct run_hooks *h, struct jobs **jp)
{
	/* one file read in place: the workers read its mapping (no copies) */
	bool held = source_hold(s);
	struct jobs *j = jobs_new(ao, n, held ? RING_REFS : RING_BYTES);
	*jp = j;
	if (!j)
		return false;
	struct flow_table ft;
	if (n > JOBS_MAX || !flow_table_init(&ft))
		return false;
	bool ok = true;
	for (unsigned k = 1; k < n && ok; k++)
		ok = j->w[k].started = pthread_create(&j->w[k].th, NULL, work, &j->w[k]) == 0;
	struct analysis *own = &j->w[0].a;
	uint64_t packets = 0, in_place = 0, copied = 0;
	struct mapped_lead lead = { .j = j };
	struct src_packet p;
	for (int rc; ok && (rc = source_next(s, &p)) != 0;) {
		if (rc != 1)
			continue;
		/* the capture points stage sees every record in order, as in run_input */
		if (h->pts)
			points_admit(h->pts, &p);
		/* every mapped frame, TCP or not, moves the pages given back on
		 * (a long stretch without TCP would otherwise stay mapped) */
		if (p.mapped)
			mapped_ahead(&lead, &p);
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
			if (p.mapped)
				in_place++;
			else
				copied++;
			unsigned k = worker_of(&t, n);
			if (k == 0) {
				own->in_stream = stream;
				own->in_new = ev != FLOW_EXISTING;
				analysis_decoded(own, &p, NET_TCP, &t, NULL);
			} else {
				ok = ring_push(&j->w[k].r, &p, stream, ev != FLOW_EXISTING);
			}
		}
		/* -c N on files: the first N frames, as tshark -r -c N */
		if (h->stop_count && ++packets >= h->stop_count)
			break;
	}
	analysis_finish(own);
	double reader_s = thread_cpu();
	for (unsigned k = 1; k < n; k++) {
		ring_close(&j->w[k].r);
		if (j->w[k].started)
			pthread_join(j->w[k].th, NULL);
	}
	flow_table_free(&ft);
	if (!ok)
		return false;
	struct analysis *wa[JOBS_MAX];
	for (unsigned k = 0; k < n; k++)
		wa[k] = &j->w[k].a;
	/* IWARPSCOPE_JOBS_TRACE: how the conversations spread (for the tests;
	 * the workers' counts before analysis_adopt sums them) */
	bool trace = getenv("IWARPSCOPE_JOBS_TRACE") != NULL;
	if (trace) {
		fprintf(stderr, "iwarpscope: jobs: %u workers (the reader's first), conversations", n);
		for (unsigned k = 0; k < n; k++)
			fprintf(stderr, "%c%llu", k ? '+' : ' ', (unsigned long long)wa[k]->c.tcp_conns);
		fprintf(stderr, ", frames in place %llu, copied %llu", (unsigned long long)in_place,
			(unsigned long long)copied);
	}
	bool same = analysis_adopt(dst, wa, n);
	if (trace) {
		fprintf(stderr, "%s; CPU s: reader %.3f, worker threads", same ? "" : ", read again with one",
			reader_s);
		for (unsigned k = 1; k < n; k++)
			fprintf(stderr, "%c%.3f", k > 1 ? '+' : ' ', j->w[k].cpu_s);
		fputc('\n', stderr);
	}
	return same;
}
