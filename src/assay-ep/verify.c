/* Every timed call checked (docs/ep.md "The oracle"). Before a checked timed
 * call every rank fills what that call writes with 0xFF (the received
 * records for a dispatch, the output for a combine, both for a roundtrip or
 * a chained pair); after it, each rank compares what the call wrote with
 * what the full oracle accepted before timing (a 64-bit hash of the bytes,
 * one read of the output), and on any difference runs the full checks on it (so a backend that
 * writes the same rows in another order is judged, not failed). A call that moved nothing leaves
 * the poison and fails. Which calls: every one (--verify all), or
 * (--verify sample, the default) in every trial one timed call of each
 * component and in every chain one pair, drawn from the run's verify seed,
 * which rank 0 draws afresh each run and the artifact records; --verify off
 * checks none. A barrier after the poison and one after the check, neither
 * timed: the checked call and the one after it start with the ranks
 * together, as after any call that ends in a barrier, so neither sample
 * carries the ranks' different poison or check times. No barrier is needed
 * before the poison: the last call ended in a collective and peers write a
 * rank's receive region only after the next call's count exchange, which
 * waits for that rank; nothing reads the regions between calls but a check,
 * which ends in a barrier (the ceiling's pattern rounds, which copy into
 * shm's regions and end without one, are followed by a barrier: harness.c).
 * shm poisons each region by its writers (backend_shm.c).
 * --mode low-latency poisons and compares its own buffers (verify_ll.c)
 * and shares the rest: seed, picks, counts, verdict, artifact. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"

const char *const ep_verify_names[] = {"sample", "all", "off", NULL};

struct ep_verify {
	uint64_t recv_hash;        /* of the received records the oracle accepted */
	uint64_t out_hash;         /* of the combine output it accepted */
	struct assay_ep_verdict v; /* this rank's failures over the checked calls */
	unsigned char *failed;     /* [ncap]: checked call i failed on this rank */
	size_t ncap;
	int64_t calls, dispatches, combines;
};

static uint64_t mix64(uint64_t v)
{
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ull;
	v = (v ^ (v >> 27)) * 0x94D049BB133111EBull;
	return v ^ (v >> 31);
}

/* The hash of what a checked call wrote: 32 lanes of 64 bits; 8-byte word k
 * of each 256-byte block goes to lane k, as h = rotl64((h + w) * K, 29),
 * which for a given h changes with w and for a given w with h, so a lane
 * whose words differ anywhere ends different. The lanes are then chained
 * through mix64 with the length. Equal bytes hash equal; a difference
 * within one lane always shows, one spread over several goes unnoticed with
 * probability about 2^-64. Not for adversaries: for a backend's bugs. The
 * lanes are independent, so they run as vectors: the widest the CPU has
 * (AVX-512 at about the speed of memset here, 10x the scalar 4-lane hash
 * this replaced, which was most of what checking cost), all giving the same
 * hash. */
#define HASH_LANES 32
#define HASH_BLOCK (HASH_LANES * 8)
#define HASH_K     0x9E3779B185EBCA87ull
typedef void hash_blocks_fn(uint64_t *lanes, const unsigned char *p, size_t nblocks);

/* One function per vector type T: HASH_BLOCK / sizeof(T) vectors, kept in
 * registers across the blocks (the inner loop unrolled). */
// clang-format off
#define HASH_BLOCKS(name, attr, T)                                                  \
	attr static void name(uint64_t *lanes, const unsigned char *p, size_t nblocks) \
	{                                                                           \
		T h[HASH_BLOCK / sizeof(T)], w;                                     \
		memcpy(h, lanes, HASH_BLOCK);                                       \
		for (size_t b = 0; b < nblocks; b++, p += HASH_BLOCK) {             \
			_Pragma("GCC unroll 32")                                    \
			for (size_t k = 0; k < HASH_BLOCK / sizeof(T); k++) {       \
				memcpy(&w, p + k * sizeof(T), sizeof(T));           \
				h[k] = (h[k] + w) * HASH_K;                         \
				h[k] = h[k] << 29 | h[k] >> 35;                     \
			}                                                           \
		}                                                                   \
		memcpy(lanes, h, HASH_BLOCK);                                       \
	}
// clang-format on

HASH_BLOCKS(hash_blocks_scalar, , uint64_t)
#if defined(__x86_64__) && defined(__GNUC__)
typedef uint64_t u64x4 __attribute__((vector_size(32)));
typedef uint64_t u64x8 __attribute__((vector_size(64)));
HASH_BLOCKS(hash_blocks_avx2, __attribute__((target("avx2"))), u64x4)
HASH_BLOCKS(hash_blocks_avx512, __attribute__((target("avx512f,avx512dq"))), u64x8)
#endif

static hash_blocks_fn *hash_blocks_pick(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
		return hash_blocks_avx512;
	if (__builtin_cpu_supports("avx2"))
		return hash_blocks_avx2;
#endif
	return hash_blocks_scalar;
}

static uint64_t bytes_hash(const unsigned char *p, size_t n)
{
	static hash_blocks_fn *blocks;
	if (!blocks)
		blocks = hash_blocks_pick();
	uint64_t lanes[HASH_LANES];
	unsigned char tail[HASH_BLOCK] = {0};
	for (int k = 0; k < HASH_LANES; k++)
		lanes[k] = HASH_K * (uint64_t)(2 * k + 1);
	if (n >= HASH_BLOCK)
		blocks(lanes, p, n / HASH_BLOCK);
	/* The last partial block zero-padded (the length tells it apart). */
	if (n % HASH_BLOCK) {
		memcpy(tail, p + n / HASH_BLOCK * HASH_BLOCK, n % HASH_BLOCK);
		blocks(lanes, tail, 1);
	}
	uint64_t h = mix64(n);
	for (int k = 0; k < HASH_LANES; k++)
		h = mix64(h ^ lanes[k]);
	return h;
}

void ep_verify_seed(struct ep_run *run)
{
	uint64_t seed = run->verify_seed;
	if (!run->verify_seed_set && run->rank == 0 &&
	    getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^
		       (uint64_t)getpid() << 32;
	}
	/* JSON integers are signed 64-bit: keep the seed below 2^63. */
	if (!run->verify_seed_set)
		seed >>= 1;
	MPI_CHECK(MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, run->comm));
	run->verify_seed = seed;
}

/* Timed calls a point can check: the components' calls and the chained
 * pairs (every one, or one per component per trial and one per chain). */
static size_t check_capacity(const struct ep_run *run)
{
	const struct assay_timing *tm = &run->timing;
	if (run->verify == EP_VERIFY_ALL)
		return (size_t)(tm->trials * tm->iters_per_trial * 3 +
				tm->chain_trials * tm->chain_pairs);
	return (size_t)(tm->trials * 3 + tm->chain_trials);
}

void ep_verify_capture(struct ep_run *run, struct ep_point *pt, const unsigned char *recs)
{
	if (run->verify == EP_VERIFY_OFF || !run->be->poison_dispatch || pt->verify)
		return;
	struct ep_verify *vf = xcalloc(1, sizeof(*vf));
	size_t nrec = (size_t)pt->nrecv * pt->l.stride;
	size_t nout = (size_t)(pt->p.tokens * pt->p.hidden) * sizeof(float);
	vf->recv_hash = bytes_hash(recs, nrec);
	vf->out_hash = bytes_hash((const unsigned char *)pt->out, nout);
	/* A call identical to what the oracle accepted has its error. */
	vf->v.max_relative_error = pt->verdict[0].max_relative_error;
	vf->ncap = check_capacity(run);
	vf->failed = xcalloc(vf->ncap ? vf->ncap : 1, 1);
	pt->verify = vf;
}

bool ep_verify_pick(const struct ep_run *run, const struct ep_point *pt, int comp, long long trial,
		    long long it)
{
	if (!pt->verify)
		return false;
	if (run->verify == EP_VERIFY_ALL)
		return true;
	const struct assay_timing *tm = &run->timing;
	long long n = comp == EP_PAIR ? tm->chain_pairs : tm->iters_per_trial;
	uint64_t h = assay_ep_counter(run->verify_seed, (uint64_t)pt->p.tokens, (uint64_t)trial,
				      (uint64_t)comp, 2);
	return n > 0 && (long long)(h % (uint64_t)n) == it;
}

static bool writes_dispatch(int comp)
{
	return comp != EP_COMBINE;
}

static bool writes_combine(int comp)
{
	return comp != EP_DISPATCH;
}

void ep_verify_before(struct ep_run *run, struct ep_point *pt, int comp)
{
	if (run->ll) {
		ep_ll_verify_before(run, pt, comp);
		return;
	}
	if (writes_dispatch(comp))
		run->be->poison_dispatch(run, pt);
	if (writes_combine(comp)) {
		/* The host backends' combine (ep_reduce, but for its scalar
		 * loop) writes the output with non-temporal stores, which would
		 * first have to write back lines memset made dirty: the checked
		 * combine took 2-3x an unchecked one. */
		size_t n = (size_t)(pt->p.tokens * pt->p.hidden) * sizeof(*pt->out);
		bool nt = run->be->host_data && strcmp(ep_reduce_names[ep_reduce_isa()], "scalar");
		ep_poison(pt->out, n, nt ? EP_COPY_NT : EP_COPY_MEMCPY);
		run->be->poison_combine(run, pt);
	}
	MPI_CHECK(MPI_Barrier(run->comm));
}

static int64_t failures(const struct assay_ep_verdict *v)
{
	int64_t n = 0;
	for (int c = 0; c < ASSAY_EP_CHECK_COUNT; c++)
		n += v->failures[c];
	return n;
}

void ep_verify_after(struct ep_run *run, struct ep_point *pt, int comp)
{
	if (run->ll) {
		ep_ll_verify_after(run, pt, comp);
		return;
	}
	struct ep_verify *vf = pt->verify;
	int64_t before = failures(&vf->v);
	if (writes_dispatch(comp)) {
		unsigned char *recs = run->be->received(run, pt);
		size_t n = (size_t)pt->nrecv * pt->l.stride;
		if (bytes_hash(recs, n) != vf->recv_hash)
			assay_ep_check_dispatch(&pt->p, &pt->l, &pt->r, run->rank, recs, pt->nrecv,
						&vf->v);
		vf->dispatches++;
	}
	if (writes_combine(comp)) {
		run->be->output(run, pt);
		size_t n = (size_t)(pt->p.tokens * pt->p.hidden) * sizeof(float);
		if (bytes_hash((const unsigned char *)pt->out, n) != vf->out_hash)
			assay_ep_check_combine(&pt->p, &pt->r, run->rank, pt->out, &vf->v);
		vf->combines++;
	}
	if (failures(&vf->v) > before && (size_t)vf->calls < vf->ncap)
		vf->failed[vf->calls] = 1;
	vf->calls++;
	MPI_CHECK(MPI_Barrier(run->comm));
	/* The lines the check read back where the next call finds them
	 * unchecked, the ranks together again after it. */
	if (writes_dispatch(comp) && run->be->reown_dispatch) {
		run->be->reown_dispatch(run, pt);
		MPI_CHECK(MPI_Barrier(run->comm));
	}
}

void ep_verdict_reduce(struct ep_run *run, const struct assay_ep_verdict *mine,
		       struct assay_ep_verdict *out)
{
	MPI_CHECK(MPI_Allreduce(mine->failures, out->failures, ASSAY_EP_CHECK_COUNT, MPI_INT64_T,
				MPI_SUM, run->comm));
	int nan = isnan(mine->max_relative_error), any_nan = 0;
	double err = nan ? 0 : mine->max_relative_error;
	MPI_CHECK(MPI_Allreduce(&nan, &any_nan, 1, MPI_INT, MPI_LOR, run->comm));
	MPI_CHECK(MPI_Allreduce(&err, &out->max_relative_error, 1, MPI_DOUBLE, MPI_MAX, run->comm));
	if (any_nan)
		out->max_relative_error = NAN;
}

void ep_verify_free(struct ep_point *pt)
{
	struct ep_verify *vf = pt->verify;
	if (!vf)
		return;
	free(vf->failed);
	free(vf);
	pt->verify = NULL;
}

void ep_verify_finish(struct ep_run *run, struct ep_point *pt)
{
	struct ep_verify *vf = pt->verify;
	if (!vf)
		return;
	struct ep_timed_check *tc = &pt->timed;
	ep_verdict_reduce(run, &vf->v, &tc->verdict);
	size_t n = (size_t)vf->calls < vf->ncap ? (size_t)vf->calls : vf->ncap;
	unsigned char *any = xcalloc(n ? n : 1, 1);
	MPI_CHECK(MPI_Allreduce(vf->failed, any, (int)n, MPI_UNSIGNED_CHAR, MPI_MAX, run->comm));
	tc->failed = 0;
	for (size_t i = 0; i < n; i++)
		tc->failed += any[i] != 0;
	free(any);
	tc->calls = vf->calls, tc->dispatches = vf->dispatches, tc->combines = vf->combines;
	tc->checked = vf->calls > 0;
	if (failures(&tc->verdict))
		pt->valid = false;
	ep_verify_free(pt);
}

/* The name of the point's check c: low-latency's (enum assay_ep_ll_check)
 * or normal mode's; NULL past the mode's last. */
static const char *timed_check_name(const struct ep_timed_check *tc, int c)
{
	if (tc->ll)
		return c < ASSAY_EP_LL_CHECKS ? assay_ep_ll_check_name((enum assay_ep_ll_check)c)
					      : NULL;
	return c < ASSAY_EP_CHECK_COUNT ? assay_ep_check_name((enum assay_ep_check)c) : NULL;
}

void ep_verify_reasons(const struct ep_point *pt, bool with_tokens, struct strlist *out)
{
	const struct ep_timed_check *tc = &pt->timed;
	for (int c = 0; timed_check_name(tc, c) && tc->checked; c++) {
		if (!tc->verdict.failures[c])
			continue;
		char *tok =
		    with_tokens ? xasprintf("tokens %lld: ", (long long)pt->p.tokens) : xstrdup("");
		char *m =
		    xasprintf("%stimed calls: %s failed (%lld; %lld of %lld checked calls "
			      "failed)",
			      tok, timed_check_name(tc, c), (long long)tc->verdict.failures[c],
			      (long long)tc->failed, (long long)tc->calls);
		strlist_push(out, m);
		free(m);
		free(tok);
	}
}

json_t *ep_verify_json(const struct ep_point *pt)
{
	const struct ep_timed_check *tc = &pt->timed;
	if (!tc->checked)
		return json_null();
	json_t *checks = json_object();
	for (int c = 0; timed_check_name(tc, c); c++) {
		if (c == ASSAY_EP_CHECK_ROUTING && !tc->ll)
			continue; /* compared once per pass, not per call */
		json_object_set_new(checks, timed_check_name(tc, c),
				    json_pack("{s:b, s:I}", "pass", tc->verdict.failures[c] == 0,
					      "failures", (json_int_t)tc->verdict.failures[c]));
	}
	double e = tc->verdict.max_relative_error;
	return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "calls", (json_int_t)tc->calls,
			 "dispatches", (json_int_t)tc->dispatches, "combines",
			 (json_int_t)tc->combines, "failed_calls", (json_int_t)tc->failed,
			 tc->ll ? "diff" : "max_relative_error",
			 isfinite(e) ? json_real(e) : json_null(), "checks", checks);
}

/* ---- for a mode with its own buffers and oracle (verify_ll.c) ---- */

uint64_t ep_verify_hash(const void *p, size_t n)
{
	return bytes_hash(p, n);
}

void ep_verify_open(struct ep_run *run, struct ep_point *pt, double err)
{
	struct ep_verify *vf = xcalloc(1, sizeof(*vf));
	vf->v.max_relative_error = err;
	vf->ncap = check_capacity(run);
	vf->failed = xcalloc(vf->ncap ? vf->ncap : 1, 1);
	pt->verify = vf;
}

void ep_verify_count(struct ep_run *run, struct ep_point *pt, int comp,
		     const struct assay_ep_verdict *call)
{
	struct ep_verify *vf = pt->verify;
	for (int c = 0; c < ASSAY_EP_CHECK_COUNT; c++)
		vf->v.failures[c] += call->failures[c];
	if (writes_combine(comp)) {
		double a = vf->v.max_relative_error, b = call->max_relative_error;
		vf->v.max_relative_error = isnan(a) || isnan(b) ? NAN : fmax(a, b);
		vf->combines++;
	}
	vf->dispatches += writes_dispatch(comp);
	if (failures(call) && (size_t)vf->calls < vf->ncap)
		vf->failed[vf->calls] = 1;
	vf->calls++;
	MPI_CHECK(MPI_Barrier(run->comm));
}
