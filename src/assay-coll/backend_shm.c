/* assay-coll backend "shm": collectives through one MPI-3 shared window.
 * Each rank's send and receive buffers live in the window, so a peer reads
 * them in place: one copy per byte (all_gather, alltoall, broadcast,
 * sendrecv pull the peers' blocks; all_reduce and reduce reduce this rank's
 * 1/n of the data from every peer and write it to every receiver, a
 * reduce-scatter and all-gather in one pass). Calls whose input is at most
 * COLL_SHM_SMALL bytes copy it into a slot and meet once; larger ones meet
 * on entry and on exit. Ranks meet on sequence counters in the window. */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Input bytes up to which a call takes the one-meeting path. Above it two
 * meetings and one copy straight out of the peers' buffers win (interleaved
 * runs, np 2: all_reduce 4 KiB 1.34 -> 0.56 us, all_gather 8 KiB 1.42 ->
 * 0.47 us, alltoall 16 KiB 2.13 -> 0.53 us): a slot is rewritten every call,
 * so each of its lines crosses between the cores, while a send buffer the
 * caller did not change since the last call stays in both caches. */
#define COLL_SHM_SMALL 512u
#define COLL_SHM_SLOT  4096u /* a slot: at least COLL_SHM_SMALL, a page */
_Static_assert(COLL_SHM_SMALL <= COLL_SHM_SLOT, "a small call's input fits a slot");
#define COLL_SHM_BLOCK (32u << 10) /* reduction block: stays in cache */
#define CTL_BYTES      4096u

struct shm_state {
	MPI_Win win;
	int me, n;
	uint64_t seq;                 /* meetings this rank has entered */
	_Atomic uint64_t **ctl;       /* [n] each rank's counter */
	unsigned char *(*slot)[2];    /* [n][2] each rank's two slots */
	unsigned char **send, **recv; /* [n] each rank's buffers */
	unsigned char **src;          /* [n] the call's sources */
	unsigned char *acc;           /* [COLL_SHM_BLOCK] private */
	unsigned char *stage;         /* [recv bytes] private, in-place staging */
	size_t recv_bytes;
};

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static assay_err shm_setup(struct coll_run *run, size_t send_bytes, size_t recv_bytes, char *reason,
			   size_t len)
{
	if (!ep_shm_one_node(run->comm, run->rank, run->size, reason, len))
		return ASSAY_NO_METRICS;
	struct shm_state *s = xcalloc(1, sizeof(*s));
	s->me = run->rank, s->n = run->size;
	size_t sb = page_round(send_bytes ? send_bytes : 1),
	       rb = page_round(recv_bytes ? recv_bytes : 1);
	size_t total = CTL_BYTES + 2 * COLL_SHM_SLOT + sb + rb;
	unsigned char **seg = xcalloc((size_t)s->n, sizeof(*seg));
	unsigned char *mine = ep_shm_window(run->comm, total, &s->win, seg);
	memset(mine, 0, total); /* first touch outside timing; counters at 0 */
	s->ctl = xcalloc((size_t)s->n, sizeof(*s->ctl));
	s->slot = xcalloc((size_t)s->n, sizeof(*s->slot));
	s->send = xcalloc((size_t)s->n, sizeof(*s->send));
	s->recv = xcalloc((size_t)s->n, sizeof(*s->recv));
	for (int r = 0; r < s->n; r++) {
		unsigned char *b = seg[r];
		s->ctl[r] = (_Atomic uint64_t *)b;
		s->slot[r][0] = b + CTL_BYTES;
		s->slot[r][1] = b + CTL_BYTES + COLL_SHM_SLOT;
		s->send[r] = b + CTL_BYTES + 2 * COLL_SHM_SLOT;
		s->recv[r] = s->send[r] + sb;
	}
	free(seg);
	s->src = xcalloc((size_t)s->n, sizeof(*s->src));
	s->acc = xmalloc(COLL_SHM_BLOCK);
	s->recv_bytes = recv_bytes;
	run->be_state = s;
	run->sendbuf = s->send[s->me];
	run->recvbuf = s->recv[s->me];
	/* Every rank's window is zeroed before anyone meets on it. */
	MPI_CHECK(MPI_Barrier(run->comm));
	return ASSAY_OK;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Meeting number seq+1: publish it, wait until every rank has. */
static void meet(struct shm_state *s)
{
	uint64_t e = ++s->seq;
	atomic_store_explicit(s->ctl[s->me], e, memory_order_release);
	for (int r = 0; r < s->n; r++) {
		unsigned spins = 0;
		while (atomic_load_explicit(s->ctl[r], memory_order_acquire) < e) {
			/* Spin as MPI's shared-memory transport polls; yield
			 * once it lasts, as ranks may share a core. */
			if (++spins < (1u << 12))
				cpu_relax();
			else
				sched_yield();
		}
	}
}

static unsigned char *peer_send(const struct shm_state *s, const struct coll_call *c, int r)
{
	return c->shift + (c->in_place ? s->recv[r] + c->send_stride * (size_t)r : s->send[r]);
}

static unsigned char *peer_recv(const struct shm_state *s, const struct coll_call *c, int r)
{
	return c->shift + s->recv[r] + c->recv_stride * (size_t)r;
}

/* Copies of calls above this many bytes per block store past the caches
 * (non-temporal): the output is not read again before it is evicted, and a
 * store that skips the cache does not read the line first. */
static size_t nt_from(void)
{
	static size_t v;
	if (!v) {
		const char *e = getenv("ASSAY_COLL_NT_BYTES");
		v = e ? (size_t)strtoull(e, NULL, 0) : (size_t)8 << 20;
		if (!v)
			v = SIZE_MAX;
	}
	return v;
}

/* n bytes from src to dst; block: the call's block size, which picks
 * non-temporal stores. */
static void copy_out(unsigned char *dst, const unsigned char *src, size_t n, size_t block)
{
#ifdef __SSE2__
	if (block >= nt_from() && n >= 64) {
		size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
		memcpy(dst, src, head);
		dst += head, src += head, n -= head;
		size_t k = n / 64;
		for (size_t i = 0; i < k; i++, dst += 64, src += 64) {
			__m128i a = _mm_loadu_si128((const __m128i *)src),
				b = _mm_loadu_si128((const __m128i *)(src + 16)),
				c = _mm_loadu_si128((const __m128i *)(src + 32)),
				d = _mm_loadu_si128((const __m128i *)(src + 48));
			_mm_stream_si128((__m128i *)dst, a);
			_mm_stream_si128((__m128i *)(dst + 16), b);
			_mm_stream_si128((__m128i *)(dst + 32), c);
			_mm_stream_si128((__m128i *)(dst + 48), d);
		}
		_mm_sfence();
		memcpy(dst, src, n % 64);
		return;
	}
#endif
	memcpy(dst, src, n);
}

/* dst = the reduction of n sources (rank r's is src[r]) at offset off
 * (bytes), len elements. mulsum adds an odd rank's input times 2 (the
 * kernel's a + 2 * b), an even rank's as it is. */
static void reduce_into(const struct coll_call *c, unsigned char *dst, unsigned char *const *src,
			int n, size_t off, size_t len)
{
	bool mulsum = c->redop == CR_MULSUM;
	if (n == 1)
		memcpy(dst, src[0] + off, len * coll_type_size(c->type));
	else
		coll_reduce(c->type, c->redop, dst, src[0] + off, src[1] + off, len);
	for (int r = 2; r < n; r++)
		coll_reduce(c->type, mulsum && !(r & 1) ? CR_SUM : c->redop, dst, dst, src[r] + off,
			    len);
	coll_finish(c->type, c->redop, dst, len, n);
}

static size_t in_bytes(const struct coll_call *c, int n)
{
	size_t elt = coll_type_size(c->type);
	bool blocks = c->op == COLL_REDUCE_SCATTER || c->op == COLL_ALLTOALL;
	return c->count * elt * (blocks ? (size_t)n : 1);
}

/* Small calls: the input goes into this rank's slot, one meeting, and each
 * rank builds its output from the slots (in place is safe: inputs were
 * copied first). A slot is written again two meetings later at the
 * earliest, after every peer has finished reading it. */
static void small_call(struct shm_state *s, const struct coll_call *c)
{
	int n = s->n, me = s->me, par = (int)((s->seq + 1) & 1);
	size_t elt = coll_type_size(c->type), cb = c->count * elt;
	if (c->op != COLL_BROADCAST || me == c->root)
		memcpy(s->slot[me][par], c->send, in_bytes(c, n));
	meet(s);
	unsigned char **src = s->src;
	for (int r = 0; r < n; r++)
		src[r] = s->slot[r][par];
	unsigned char *out = c->recv;
	switch (c->op) {
	case COLL_ALL_REDUCE: reduce_into(c, out, src, n, 0, c->count); break;
	case COLL_REDUCE:
		if (me == c->root)
			reduce_into(c, out, src, n, 0, c->count);
		break;
	case COLL_REDUCE_SCATTER: reduce_into(c, out, src, n, (size_t)me * cb, c->count); break;
	case COLL_ALL_GATHER:
		for (int r = 0; r < n; r++)
			memcpy(out + (size_t)r * cb, src[r], cb);
		break;
	case COLL_ALLTOALL:
		for (int r = 0; r < n; r++)
			memcpy(out + (size_t)r * cb, src[r] + (size_t)me * cb, cb);
		break;
	case COLL_BROADCAST: memcpy(out, src[c->root], cb); break;
	case COLL_SENDRECV: memcpy(out, src[(me - 1 + n) % n], cb); break;
	default: break;
	}
}

/* This rank's share of count elements: [lo, hi), cache-line aligned. */
static void my_part(size_t count, size_t elt, int n, int me, size_t *lo, size_t *hi)
{
	size_t align = 64 / elt, part = (count + (size_t)n - 1) / (size_t)n;
	part = (part + align - 1) / align * align;
	*lo = part * (size_t)me < count ? part * (size_t)me : count;
	*hi = *lo + part < count ? *lo + part : count;
}

/* A large reduction: this rank's part (all_reduce, reduce) or its own
 * block (reduce_scatter), a cache-sized block at a time, written to every
 * receiver of it. */
static void large_reduce(struct shm_state *s, const struct coll_call *c, size_t elt,
			 unsigned char **src, unsigned char *out)
{
	int n = s->n, me = s->me;
	size_t cb = c->count * elt;
	size_t lo = 0, hi = c->count, base = 0, blk = COLL_SHM_BLOCK / elt;
	if (c->op == COLL_REDUCE_SCATTER)
		base = (size_t)me * cb;
	else
		my_part(c->count, elt, n, me, &lo, &hi);
	for (size_t i = lo; i < hi; i += blk) {
		size_t len = hi - i < blk ? hi - i : blk;
		reduce_into(c, s->acc, src, n, base + i * elt, len);
		if (c->op == COLL_REDUCE_SCATTER)
			memcpy(out + i * elt, s->acc, len * elt);
		else if (c->op == COLL_REDUCE)
			memcpy(peer_recv(s, c, c->root) + i * elt, s->acc, len * elt);
		else
			for (int k = 0; k < n; k++) {
				int r = (me + k) % n;
				memcpy(peer_recv(s, c, r) + i * elt, s->acc, len * elt);
			}
	}
}

/* A large all_gather, pushed: this rank's input goes to its block of every
 * output, a cache-sized piece at a time, so it is read once for n writes
 * (pulling the n blocks reads n inputs). Outputs are free after the entry
 * meeting, and no two ranks write the same block. */
static void large_gather(struct shm_state *s, const struct coll_call *c, size_t elt,
			 unsigned char **src)
{
	int n = s->n, me = s->me;
	size_t cb = c->count * elt, piece = COLL_SHM_BLOCK * 2;
	for (size_t o = 0; o < cb; o += piece) {
		size_t len = cb - o < piece ? cb - o : piece;
		for (int k = 0; k < n; k++) {
			int r = (me + k) % n;
			if (!(c->in_place && r == me))
				copy_out(peer_recv(s, c, r) + (size_t)me * cb + o, src[me] + o, len,
					 cb);
		}
	}
}

/* A large alltoall or sendrecv. In place a peer may still read this rank's
 * buffer: stage the blocks privately, meet, then write them. */
static void large_exchange(struct shm_state *s, const struct coll_call *c, size_t elt,
			   unsigned char **src, unsigned char *out)
{
	int n = s->n, me = s->me;
	size_t cb = c->count * elt;
	unsigned char *dst = out;
	if (c->in_place) {
		if (!s->stage)
			s->stage = xmalloc(s->recv_bytes ? s->recv_bytes : 1);
		dst = s->stage;
	}
	if (c->op == COLL_SENDRECV) {
		memcpy(dst, src[(me - 1 + n) % n], cb);
	} else {
		for (int k = 0; k < n; k++) {
			int r = (me + k) % n;
			copy_out(dst + (size_t)r * cb, src[r] + (size_t)me * cb, cb, cb);
		}
	}
	if (c->in_place) {
		meet(s);
		memcpy(out, dst, cb * (c->op == COLL_SENDRECV ? 1 : (size_t)n));
	}
}

/* Large calls: meet on entry (every input ready, every output free), copy
 * or reduce straight out of the peers' buffers, meet on exit. */
static void large_call(struct shm_state *s, const struct coll_call *c)
{
	int n = s->n, me = s->me;
	size_t elt = coll_type_size(c->type), cb = c->count * elt;
	unsigned char **src = s->src, *out = peer_recv(s, c, me);
	for (int r = 0; r < n; r++)
		src[r] = peer_send(s, c, r);
	meet(s);
	switch (c->op) {
	case COLL_ALL_REDUCE:
	case COLL_REDUCE:
	case COLL_REDUCE_SCATTER: large_reduce(s, c, elt, src, out); break;
	case COLL_ALL_GATHER: large_gather(s, c, elt, src); break;
	case COLL_BROADCAST:
		if (!(c->in_place && me == c->root))
			memcpy(out, src[c->root], cb);
		break;
	case COLL_ALLTOALL:
	case COLL_SENDRECV: large_exchange(s, c, elt, src, out); break;
	default: break;
	}
	meet(s);
}

/* nccl-tests' hypercube: per dimension (mask), pull from the partner
 * rank ^ mask the blocks it holds so far, s ^ mask .. + mask, then meet.
 * In the first dimension the partner holds only its own input: that is read
 * where it lies, in the partner's input buffer. Read from the copy the
 * partner had just made of it in its output (lines still dirty in the
 * partner's cache, taken over one by one), out-of-place 1-64 MiB at np 2
 * ran at 1.4-15 GB/s from run to run, against 12-40 in place
 * (docs/performance.md). */
static void hypercube(struct shm_state *s, const struct coll_call *c, size_t rs)
{
	int me = s->me;
	unsigned char *mine = peer_recv(s, c, me);
	if (mine + (size_t)me * rs != (unsigned char *)c->send)
		memcpy(mine + (size_t)me * rs, c->send, rs);
	for (int mask = 1; mask < s->n; mask <<= 1) {
		if (mask > 1)
			meet(s);
		size_t r = (size_t)((me & ~(mask - 1)) ^ mask);
		const unsigned char *from =
		    mask == 1 ? peer_send(s, c, me ^ mask) : peer_recv(s, c, me ^ mask) + r * rs;
		copy_out(mine + r * rs, from, rs * (size_t)mask, rs);
	}
}

/* alltoallv: this rank's part from each source, in rank order, read from
 * the source's input at the offset of this rank's part there. */
static void exchange_v(struct shm_state *s, const struct coll_call *c, size_t elt,
		       unsigned char **src, unsigned char *out)
{
	int n = s->n, me = s->me;
	unsigned char *dst = out;
	size_t total = coll_v_total(c->count, elt, n) * elt;
	if (c->in_place) {
		if (!s->stage)
			s->stage = xmalloc(s->recv_bytes ? s->recv_bytes : 1);
		dst = s->stage;
	}
	size_t at = 0;
	for (int r = 0; r < n; r++) {
		size_t len = coll_v_bytes(r, me, n, c->count, elt) / elt * elt;
		size_t off = coll_v_offset(r, me, n, c->count, elt) * elt;
		copy_out(dst + at, src[r] + off, len, len);
		at += len;
	}
	if (c->in_place) {
		meet(s);
		memcpy(out, dst, total);
	}
}

/* gather (each rank pushes its block to the root), scatter (each rank
 * pulls its block from the root), hypercube and alltoallv: meet on entry
 * and on exit, as large calls do. */
static void more_call(struct shm_state *s, const struct coll_call *c)
{
	int n = s->n, me = s->me;
	size_t elt = coll_type_size(c->type), cb = c->count * elt;
	unsigned char **src = s->src, *out = peer_recv(s, c, me);
	for (int r = 0; r < n; r++)
		src[r] = peer_send(s, c, r);
	meet(s);
	bool root = me == c->root;
	switch (c->op) {
	case COLL_GATHER:
		if (!(c->in_place && root))
			copy_out(peer_recv(s, c, c->root) + (size_t)me * cb, src[me], cb, cb);
		break;
	case COLL_SCATTER:
		if (!(c->in_place && root))
			copy_out(out, src[c->root] + (size_t)me * cb, cb, cb);
		break;
	case COLL_HYPERCUBE: hypercube(s, c, cb); break;
	case COLL_ALLTOALLV: exchange_v(s, c, elt, src, out); break;
	default: break;
	}
	meet(s);
}

static void shm_call(struct coll_run *run, const struct coll_call *c)
{
	struct shm_state *s = run->be_state;
	if (c->op >= COLL_GATHER)
		more_call(s, c);
	else if (in_bytes(c, s->n) <= COLL_SHM_SMALL)
		small_call(s, c);
	else
		large_call(s, c);
}

static void shm_teardown(struct coll_run *run)
{
	struct shm_state *s = run->be_state;
	if (!s)
		return;
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_CHECK(MPI_Win_free(&s->win));
	free(s->ctl);
	free(s->slot);
	free(s->send);
	free(s->recv);
	free(s->src);
	free(s->acc);
	free(s->stage);
	free(s);
	run->be_state = NULL;
	run->sendbuf = run->recvbuf = NULL;
}

const struct coll_backend coll_backend_shm = {
    .name = "shm",
    .setup = shm_setup,
    .call = shm_call,
    .teardown = shm_teardown,
};
