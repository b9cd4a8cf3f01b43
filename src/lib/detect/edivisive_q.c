/* The E-divisive detector's Q search: the energy divergence Q of every
 * split of an interval from column prefix sums, by a scalar loop or in
 * SSE2 or AVX2 lanes (the same doubles in every width), the width picked
 * once per process from the CPU. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "detect/edivisive_int.h"

/* The coefficients of Q's three terms depend only on tau - s and kappa - s:
 * for intervals up to COEF_MAX points they come from tables (the same
 * divisions, so the same doubles), which leaves the inner loop without a
 * division. coef_b[k][t] = 2(k - t) / (k (t - 1)), coef_c[k][t] =
 * 2t / (k (k - t - 1)), coef_a[k] = 2 / k; 0 where the term is absent (k:
 * kappa - s, t: tau - s; a row of k holds every split, as the search reads
 * them). The tables are filled up to the longest interval asked for so far
 * (a window of 50 touches 26 of their 65 pages and does 2,450 of their
 * 16,256 divisions: a process detecting a few series pays for what it
 * uses). */
#define COEF_MAX 128
static double coef_a[COEF_MAX + 1], coef_b[COEF_MAX + 1][COEF_MAX], coef_c[COEF_MAX + 1][COEF_MAX];
static _Atomic size_t coef_filled; /* rows k <= coef_filled are ready */
static pthread_mutex_t coef_lock = PTHREAD_MUTEX_INITIALIZER;

static void coef_need(size_t len)
{
	if (atomic_load_explicit(&coef_filled, memory_order_acquire) >= len)
		return;
	pthread_mutex_lock(&coef_lock);
	size_t from = atomic_load_explicit(&coef_filled, memory_order_relaxed) + 1;
	for (size_t k = from; k <= len; k++) {
		coef_a[k] = 2.0 / (double)k;
		for (size_t t = 1; t < k; t++) {
			coef_b[k][t] = t > 1 ? (double)(2 * (k - t)) / (double)(k * (t - 1)) : 0.0;
			coef_c[k][t] =
			    k - t - 1 > 0 ? (double)(2 * t) / (double)(k * (k - t - 1)) : 0.0;
		}
	}
	if (from <= len)
		atomic_store_explicit(&coef_filled, len, memory_order_release);
	pthread_mutex_unlock(&coef_lock);
}

/* The column prefix sums P(k, r) = sum_{i=s}^{r-1} |z_i - z_k| for r in
 * [s, k], at p[(k - s) * len + (r - s)]. Four rows at a time: each row's
 * sum is a chain of dependent additions, so four chains keep the adder
 * busy; every row still adds its terms in the same order. */
static void prefix_rows(const double *z, size_t s, size_t stop, double *p)
{
	size_t len = stop - s, k = s;
	for (; k + 3 < stop; k += 4) {
		double *r0 = p + (k - s) * len, *r1 = r0 + len, *r2 = r1 + len, *r3 = r2 + len;
		double z0 = z[k], z1 = z[k + 1], z2 = z[k + 2], z3 = z[k + 3];
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
		r0[0] = r1[0] = r2[0] = r3[0] = 0.0;
		for (size_t r = s; r < k; r++) {
			double zr = z[r];
			size_t i = r - s + 1;
			r0[i] = a0 += fabs(zr - z0);
			r1[i] = a1 += fabs(zr - z1);
			r2[i] = a2 += fabs(zr - z2);
			r3[i] = a3 += fabs(zr - z3);
		}
		size_t i = k - s + 1;
		r1[i] = a1 += fabs(z0 - z1);
		r2[i] = a2 += fabs(z0 - z2);
		r3[i] = a3 += fabs(z0 - z3);
		r2[i + 1] = a2 += fabs(z1 - z2);
		r3[i + 1] = a3 += fabs(z1 - z3);
		r3[i + 2] = a3 += fabs(z2 - z3);
	}
	for (; k < stop; k++) {
		double *row = p + (k - s) * len;
		row[0] = 0.0;
		for (size_t r = s; r < k; r++)
			row[r - s + 1] = row[r - s] + fabs(z[r] - z[k]);
	}
}

/* The search from the tables, for the splits t in [t0, t1) (relative to
 * s) of an interval of len points, P its prefix table (row k: P(k, r)),
 * sx[t] the pairs within the split's X; each split's best Q into best[t].
 * Split t meets the points k = t, t + 1, ... in turn as they join Y
 * (kappa = k + 1): at k = t its sums start (sxy = P(t, t), syy = 0), after
 * that they grow by P(k, t) and P(k, k) - P(k, t), and every k gives a Q.
 * This is that loop, one split at a time, in the order of the additions
 * every other width keeps. */
static void scores_c(const double *restrict p, size_t len, size_t t0, size_t t1,
		     const double *restrict sx, double *restrict best)
{
	for (size_t t = t0; t < t1; t++) {
		double sxy = 0.0, syy = 0.0, b = 0.0;
		for (size_t k = t; k < len; k++) {
			const double *row = p + k * len;
			size_t kk = k + 1;
			double q;
			if (k == t) {
				sxy = row[t];
				syy = 0.0;
				q = coef_a[kk] * sxy - coef_b[kk][t] * sx[t] - coef_c[kk][t] * 0.0;
				b = q;
				continue;
			}
			sxy = sxy + row[t];
			syy = syy + (row[k] - row[t]);
			q = coef_a[kk] * sxy - coef_b[kk][t] * sx[t] - coef_c[kk][t] * syy;
			b = q > b ? q : b;
		}
		best[t] = b;
	}
}

/* The same for W splits side by side in vector lanes (two vectors of them,
 * so that two chains of additions overlap): each split's sums and best
 * stay in registers for the whole column. In a block's first rows, where
 * its splits start one by one, the lane whose split starts at this row
 * takes its start (sxy = P(k, k), syy = 0, best = its first Q) by a blend;
 * lanes not yet started compute values that their start overwrites. The
 * same operations on the same doubles as scores_c (no fused multiply-add;
 * max(q, best) is q > best ? q : best, as MAXPD computes it). Splits left
 * over at the end run in scores_c. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The width's operations (V a vector, W its lanes) come as arguments:
 * LOAD, STORE, SET1, ADD, SUB, MUL, MAX, BLEND(a, b, mask) (b where mask),
 * LANE(d, off) (the mask of the lane whose index + off is d) and PART(v, n)
 * (the first n doubles of v, the rest 0.0). */
#define SCORES_SIMD(V, W, LOAD, STORE, SET1, ADD, SUB, MUL, MAX, BLEND, LANE, PART)                \
	size_t t = t0;                                                                             \
	V zero = SET1(0.0);                                                                        \
	for (; t + 2 * (W) <= t1; t += 2 * (W)) {                                                  \
		V xs[2] = {zero, zero}, ys[2] = {zero, zero}, bs[2] = {zero, zero};                \
		V sv[2] = {LOAD(sx + t), LOAD(sx + t + (W))};                                      \
		for (size_t k = t; k < len; k++) {                                                 \
			const double *cb = coef_b[k + 1] + t, *cc = coef_c[k + 1] + t;             \
			V a = SET1(coef_a[k + 1]), pkk = SET1(p[k * len + k]);                     \
			bool starting = k < t + 2 * (W); /* a lane's split starts at this row */   \
			for (int h = 0; h < 2; h++) {                                              \
				size_t off = (size_t)h * (W);                                      \
				const double *row = p + k * len + t + off;                         \
				/* lanes past k (not started) read as 0.0: only the row's own      \
				 * doubles are read */                                             \
				V r = k >= t + off + (W)-1                                         \
					  ? LOAD(row)                                              \
					  : PART(row, k + 1 > t + off ? k + 1 - (t + off) : 0);    \
				V x = ADD(xs[h], r), y = ADD(ys[h], SUB(pkk, r));                  \
				V m = zero;                                                        \
				if (starting) {                                                    \
					m = LANE((double)(k - t), (double)off);                    \
					x = BLEND(x, pkk, m);                                      \
					y = BLEND(y, zero, m);                                     \
				}                                                                  \
				V q = SUB(SUB(MUL(a, x), MUL(LOAD(cb + off), sv[h])),              \
					  MUL(LOAD(cc + off), y));                                 \
				bs[h] = starting ? BLEND(MAX(q, bs[h]), q, m) : MAX(q, bs[h]);     \
				xs[h] = x;                                                         \
				ys[h] = y;                                                         \
			}                                                                          \
		}                                                                                  \
		STORE(best + t, bs[0]);                                                            \
		STORE(best + t + (W), bs[1]);                                                      \
	}

__attribute__((target("avx2"))) static inline __m256d part256(const double *v, size_t n)
{
	double tmp[4] = {0, 0, 0, 0};
	for (size_t i = 0; i < n && i < 4; i++)
		tmp[i] = v[i];
	return _mm256_loadu_pd(tmp);
}

__attribute__((target("avx2"))) static inline __m256d blend256(__m256d a, __m256d b, __m256d m)
{
	return _mm256_blendv_pd(a, b, m);
}

__attribute__((target("avx2"))) static inline __m256d lane256(double d, double off)
{
	__m256d idx = _mm256_add_pd(_mm256_set_pd(3, 2, 1, 0), _mm256_set1_pd(off));
	return _mm256_cmp_pd(_mm256_set1_pd(d), idx, _CMP_EQ_OQ);
}

__attribute__((target("avx2"))) static void scores_avx2(const double *restrict p, size_t len,
							size_t t0, size_t t1,
							const double *restrict sx,
							double *restrict best)
{
	SCORES_SIMD(__m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_add_pd,
		    _mm256_sub_pd, _mm256_mul_pd, _mm256_max_pd, blend256, lane256, part256);
	/* SSE code after 256-bit registers with upper halves in use runs
	 * several times slower on some CPUs: clear them. */
	_mm256_zeroupper();
	scores_c(p, len, t, t1, sx, best);
}

static inline __m128d part128(const double *v, size_t n)
{
	return n >= 2 ? _mm_loadu_pd(v) : _mm_set_pd(0.0, n ? v[0] : 0.0);
}

static inline __m128d blend128(__m128d a, __m128d b, __m128d m)
{
	return _mm_or_pd(_mm_and_pd(m, b), _mm_andnot_pd(m, a));
}

static inline __m128d lane128(double d, double off)
{
	return _mm_cmpeq_pd(_mm_set1_pd(d), _mm_add_pd(_mm_set_pd(1, 0), _mm_set1_pd(off)));
}

static void scores_sse2(const double *restrict p, size_t len, size_t t0, size_t t1,
			const double *restrict sx, double *restrict best)
{
	SCORES_SIMD(__m128d, 2, _mm_loadu_pd, _mm_storeu_pd, _mm_set1_pd, _mm_add_pd, _mm_sub_pd,
		    _mm_mul_pd, _mm_max_pd, blend128, lane128, part128);
	scores_c(p, len, t, t1, sx, best);
}
#endif

typedef void scores_fn(const double *restrict, size_t, size_t, size_t, const double *restrict,
		       double *restrict);

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
/* AVX2 usable: the CPU has it and the OS saves the YMM registers. Asked
 * with cpuid here, once, rather than __builtin_cpu_supports, whose libgcc
 * constructor runs cpuid at the start of every assay process (each cpuid
 * a trap to the hypervisor on a virtual machine). */
static bool cpu_avx2(void)
{
	unsigned a, b, c, d, lo, hi;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
		return false;
	__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 6) != 6) /* XMM and YMM state */
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2);
}
#endif

/* The implementation of a width by name; NULL when unknown or the CPU
 * lacks it. */
static scores_fn *scores_named(const char *name)
{
	if (!strcmp(name, "c"))
		return scores_c;
#if defined(__x86_64__) && defined(__GNUC__)
	if (!strcmp(name, "sse2"))
		return scores_sse2;
	if (!strcmp(name, "avx2") && cpu_avx2())
		return scores_avx2;
#endif
	return NULL;
}

/* AVX2 where the CPU has it, else SSE2 (both give the doubles scores_c
 * gives); ASSAY_DETECT_SIMD=c|sse2|avx2 picks one (an unknown name or one
 * the CPU lacks: the default). */
static scores_fn *scores_pick(void)
{
	static scores_fn *_Atomic picked;
	scores_fn *f = atomic_load_explicit(&picked, memory_order_relaxed);
	if (f)
		return f;
	const char *want = getenv("ASSAY_DETECT_SIMD");
	f = want ? scores_named(want) : NULL;
	if (!f)
		f = scores_named("avx2");
	if (!f)
		f = scores_named("sse2");
	if (!f)
		f = scores_c;
	atomic_store_explicit(&picked, f, memory_order_relaxed);
	return f;
}

/* For every split tau in [s+1, stop-1] of z[s..stop), the largest Q over
 * the end points kappa, into tq[tau] (first maximum in kappa order, as
 * numpy's argmax finds it). The column prefix sums make it O(len^2). */
static void split_scores_in(scores_fn *fn, const double *z, size_t s, size_t stop,
			    struct qscratch *q, double *tq)
{
	size_t len = stop - s;
	if (len * len > q->cap) {
		free(q->p);
		q->cap = len * len;
		q->p = xmalloc(q->cap * sizeof(*q->p));
	}
	prefix_rows(z, s, stop, q->p);
#define P(k, r) q->p[((k)-s) * len + ((r)-s)]
	bool table = len <= COEF_MAX;
	double sxx = 0.0;
	if (table) {
		coef_need(len);
		/* sxx[t]: the pairs within z[s..s+t), added in order of t. */
		double sx[COEF_MAX], best[COEF_MAX];
		sx[0] = sx[1] = 0.0;
		for (size_t t = 2; t < len; t++)
			sx[t] = sx[t - 1] + P(s + t - 1, s + t - 1);
		fn(q->p, len, 1, len, sx, best);
		memcpy(tq + s + 1, best + 1, (len - 1) * sizeof(*tq));
		return;
	}
	for (size_t tau = s + 1; tau < stop; tau++) {
		if (tau > s + 1)
			sxx += P(tau - 1, tau - 1); /* pairs within z[s..tau) */
		double sxy = 0.0, syy = 0.0, best = -INFINITY;
		size_t t = tau - s;
		for (size_t kappa = tau + 1; kappa <= stop; kappa++) {
			size_t k = kappa - 1; /* the point joining Y */
			sxy += P(k, tau);
			if (k > tau)
				syy += P(k, k) - P(k, tau);
			size_t kk = kappa - s;
			double a = 2.0 / (double)kk * sxy;
			double b =
			    t > 1 ? (double)(2 * (kk - t)) / (double)(kk * (t - 1)) * sxx : 0.0;
			double c = kk - t - 1 > 0
				       ? (double)(2 * t) / (double)(kk * (kk - t - 1)) * syy
				       : 0.0;
			double qv = a - b - c;
			if (qv > best)
				best = qv;
		}
		tq[tau] = best;
	}
#undef P
}

void ediv_split_scores(const double *z, size_t s, size_t stop, struct qscratch *q, double *tq)
{
	split_scores_in(scores_pick(), z, s, stop, q, tq);
}

bool assay_detect_split_scores(const double *z, size_t len, const char *width, double *best)
{
	scores_fn *fn = width ? scores_named(width) : scores_pick();
	if (!fn)
		return false;
	struct qscratch q = {NULL, 0, {NULL, NULL, 0}};
	if (len >= 2)
		split_scores_in(fn, z, 0, len, &q, best);
	free(q.p);
	return true;
}
