/* The E-divisive detector's significance test: a pooled two-sided t-test
 * of the two sides of a split, as Otava computes it (numpy's summation
 * order) or the assay way (trimmed of outliers, serial correlation allowed
 * for, and a quick bound that settles most window tests without erfc). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/stats.h"
#include "detect/edivisive_int.h"

/* numpy's pairwise summation (blocks of 8 accumulators, halves above 128
 * values), started from 0 as np.add.reduce does, so that means and
 * variances round as Otava's do. */
static double pairwise(const double *a, size_t n)
{
	if (n < 8) {
		double s = 0.0;
		for (size_t i = 0; i < n; i++)
			s += a[i];
		return s;
	}
	if (n <= 128) {
		double r[8];
		size_t i;
		for (int j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - n % 8; i += 8)
			for (int j = 0; j < 8; j++)
				r[j] += a[i + j];
		double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			s += a[i];
		return s;
	}
	size_t half = n / 2;
	half -= half % 8;
	return pairwise(a, half) + pairwise(a + half, n - half);
}

static double np_sum(const double *a, size_t n)
{
	return 0.0 + pairwise(a, n);
}

/* Mean and standard deviation (ddof 0 or 1) of a[0..n), numpy's way. */
static void mean_std(const double *a, size_t n, int ddof, double *mean, double *sd)
{
	*mean = np_sum(a, n) / (double)n;
	*sd = 0.0;
	if (n < 2)
		return;
	double stack[256];
	double *sq = n <= 256 ? stack : malloc(n * sizeof(*sq));
	if (!sq)
		abort();
	for (size_t i = 0; i < n; i++) {
		double d = a[i] - *mean;
		sq[i] = d * d;
	}
	*sd = sqrt(np_sum(sq, n) / (double)(n - (size_t)ddof));
	if (sq != stack)
		free(sq);
}

/* Pooled lag-1 autocorrelation of the residuals of two segments (0 when
 * there are too few points to say). */
static double lag1(const double *x1, size_t n1, double m1, const double *x2, size_t n2, double m2)
{
	double num = 0, den = 0;
	const double *xs[2] = {x1, x2};
	size_t ns[2] = {n1, n2};
	double ms[2] = {m1, m2};
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < ns[k]; i++) {
			double e = xs[k][i] - ms[k];
			den += e * e;
			if (i)
				num += e * (xs[k][i - 1] - ms[k]);
		}
	}
	if (n1 + n2 < 8 || den <= 0)
		return 0.0;
	double r = num / den;
	return r > 0.95 ? 0.95 : r;
}

/* The median and the MAD of n values given sorted (sv), as assay_median()
 * computes them from the values in any order: the MAD is the median of the
 * distances, which run outwards from the median on both sides, so merging
 * the two runs finds it without a second selection. */
/* The k-th smallest (0-based) distance from med of the values left of p
 * (distances grow leftwards) and from p on (growing rightwards), n values
 * in all, into kth, and the (k-1)-th into before (k >= 1): a binary search
 * for how many of the k + 1 nearest come from the left; the k nearest are
 * those without the farthest of them, so the (k-1)-th needs no second
 * search. */
static void kth_distance(const double *sv, size_t n, size_t p, double med, size_t k, double *kth,
			 double *before)
{
#define LD(i) fabs(sv[p - 1 - (i)] - med) /* i-th nearest on the left */
#define RD(j) fabs(sv[p + (j)] - med)     /* j-th nearest on the right */
	size_t nl = p, nr = n - p;
	/* i from the left and k + 1 - i from the right make the k + 1 nearest. */
	size_t lo = k + 1 > nr ? k + 1 - nr : 0, hi = k + 1 < nl ? k + 1 : nl;
	while (lo < hi) {
		size_t i = lo + (hi - lo) / 2; /* too few from the left when LD(i) < RD(k - i) */
		bool more = LD(i) < RD(k - i);
		lo = more ? i + 1 : lo;
		hi = more ? hi : i;
	}
	size_t i = lo, j = k + 1 - lo;
	double a = i ? LD(i - 1) : -INFINITY, b = j ? RD(j - 1) : -INFINITY;
	*kth = a > b ? a : b;
	if (!before)
		return;
	/* Without the farthest: the left one when a > b, else the right one. */
	if (a > b)
		a = i > 1 ? LD(i - 2) : -INFINITY;
	else
		b = j > 1 ? RD(j - 2) : -INFINITY;
	*before = a > b ? a : b;
#undef LD
#undef RD
}

static void median_mad(const double *sv, size_t n, double *med_out, double *mad_out)
{
	double hi = sv[n / 2];
	double med = n % 2 ? hi : 0.5 * (sv[n / 2 - 1] + hi);
	size_t p = n / 2; /* the first value not below the median */
	while (p > 0 && sv[p - 1] >= med)
		p--;
	while (p < n && sv[p] < med)
		p++;
	/* The MAD is the median of the distances, which run outwards from the
	 * median on both sides: the (n/2)-th smallest, averaged with the one
	 * before when n is even. */
	double cur, prev;
	kth_distance(sv, n, p, med, n / 2, &cur, n % 2 ? NULL : &prev);
	*med_out = med;
	*mad_out = n % 2 ? cur : 0.5 * (prev + cur);
}

/* x[0..n) into out without the points further than 3.5 robust standard
 * deviations (1.4826 MAD) from the median (sv: the same values sorted);
 * returns how many were kept. */
static size_t trim_sorted(const double *x, const double *sv, size_t n, double *out)
{
	if (n < 5) {
		memcpy(out, x, n * sizeof(*x));
		return n;
	}
	double med, mad;
	median_mad(sv, n, &med, &mad);
	double lim = 3.5 * 1.4826 * mad;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (mad == 0 || fabs(x[i] - med) <= lim)
			out[k++] = x[i];
	return k;
}

/* The same for x alone: its values sorted into scratch first (insertion
 * sort up to 64 values, where it beats two selections; selections above). */
static size_t trim(const double *x, size_t n, double *out, double *scratch)
{
	if (n < 5) {
		memcpy(out, x, n * sizeof(*x));
		return n;
	}
	if (n <= 64) {
		for (size_t i = 0; i < n; i++) {
			double v = x[i];
			size_t j = i;
			for (; j > 0 && scratch[j - 1] > v; j--)
				scratch[j] = scratch[j - 1];
			scratch[j] = v;
		}
		return trim_sorted(x, scratch, n, out);
	}
	memcpy(scratch, x, n * sizeof(*x));
	double med = assay_median(scratch, n);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - med);
	double mad = assay_median(scratch, n);
	double lim = 3.5 * 1.4826 * mad;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (mad == 0 || fabs(x[i] - med) <= lim)
			out[k++] = x[i];
	return k;
}

/* Pooled two-sided t-test p-value of two samples (sample variances), with
 * the lag-1 autocorrelation allowance when serial. With cut > 0 only
 * whether p <= cut matters: a t whose normal tail probability is already
 * above cut returns that, a lower bound of p (Student's t has heavier tails
 * than the normal at every df: P(|T| > t) >= erfc(t / sqrt 2), checked in
 * tests/unit/test_detect.c), without the incomplete beta function. */
static double pooled_p(const double *x1, size_t n1, const double *x2, size_t n2, bool serial,
		       double cut)
{
	double m1, m2, s1, s2;
	if (n1 < 1 || n2 < 1 || n1 + n2 < 3)
		return 1.0;
	mean_std(x1, n1, n1 > 1, &m1, &s1);
	mean_std(x2, n2, n2 > 1, &m2, &s2);
	double df = (double)(n1 + n2) - 2.0;
	double svar = ((double)(n1 - 1) * s1 * s1 + (double)(n2 - 1) * s2 * s2) / df;
	double denom = sqrt(svar * (1.0 / (double)n1 + 1.0 / (double)n2));
	double d = m1 - m2;
	if (denom == 0)
		return d == 0 ? 1.0 : 0.0;
	double t = d / denom;
	if (serial) {
		/* Serially correlated noise (a machine drifting for a while) makes the
		 * plain test overconfident: shrink t and df by the effective sample
		 * size n (1 - r) / (1 + r), r the pooled lag-1 autocorrelation. */
		double r = lag1(x1, n1, m1, x2, n2, m2);
		if (r > 0) {
			double f = (1.0 - r) / (1.0 + r);
			t *= sqrt(f);
			df = (double)(n1 + n2) * f - 2.0;
			if (df < 1.0)
				df = 1.0;
		}
	}
	if (cut > 0) {
		double lb = erfc(fabs(t) * M_SQRT1_2);
		if (lb > cut * (1.0 + 1e-9))
			return lb;
	}
	double p = assay_t_two_sided(t, df);
	return isnan(p) ? 1.0 : p;
}

/* One side of a window test from its values sorted (sv): what trim_sorted
 * keeps is the run of sorted values within the limit of the median, so its
 * count, and its sum and sum of squares about the median, come out without
 * copying the side. */
struct side_sums {
	double med, sum, ss;
	size_t k;
};

static void side_sums(const double *sv, size_t n, struct side_sums *o)
{
	size_t lo = 0, hi = n;
	double med = n ? sv[n / 2] : 0.0, mad = 0.0;
	if (n >= 5) {
		median_mad(sv, n, &med, &mad);
		double lim = 3.5 * 1.4826 * mad;
		if (mad != 0) {
			while (lo < hi && !(fabs(sv[lo] - med) <= lim))
				lo++;
			while (hi > lo && !(fabs(sv[hi - 1] - med) <= lim))
				hi--;
		}
	}
	/* Four running sums of each kind: the order of the additions does not
	 * matter at surely_fails's margins, and four chains do not wait on the
	 * adder's latency. */
	double s4[4] = {0, 0, 0, 0}, q4[4] = {0, 0, 0, 0};
	size_t i = lo;
	for (; i + 4 <= hi; i += 4)
		for (int u = 0; u < 4; u++) {
			double d = sv[i + u] - med;
			s4[u] += d;
			q4[u] += d * d;
		}
	for (int u = 0; i < hi; i++, u++) {
		double d = sv[i] - med;
		s4[u] += d;
		q4[u] += d * d;
	}
	double sum = (s4[0] + s4[1]) + (s4[2] + s4[3]), ss = (q4[0] + q4[1]) + (q4[2] + q4[3]);
	o->med = med;
	o->k = hi - lo;
	o->sum = sum;
	o->ss = hi > lo ? ss - sum * sum / (double)(hi - lo) : 0.0;
}

/* A t below which erfc(t / sqrt 2) > cut (1 + 1e-9) surely holds, so that
 * most window tests need no erfc: found by bisection once per thread and
 * cut (a detector uses one cut for all its window tests), then lowered by
 * 1e-9 of itself, far more than erfc's rounding can move the comparison
 * (near t = 3, erfc changes by 3e-9 of itself when t moves by 1e-9). */
static double normal_cut(double cut)
{
	static _Thread_local double for_cut = -1.0, below = 0.0;
	if (cut == for_cut)
		return below;
	/* erfc(lo / sqrt 2) > want throughout (from erfc(0) = 1; for a cut of
	 * 1 or more no t qualifies and lo stays 0). */
	double lo = 0.0, hi = 64.0, want = cut * (1.0 + 1e-9);
	for (int it = 0; it < 200 && want < 1.0; it++) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		if (erfc(mid * M_SQRT1_2) > want)
			lo = mid;
		else
			hi = mid;
	}
	for_cut = cut;
	below = lo * (1.0 - 1e-9);
	return below;
}

/* Whether a window test surely fails (p > cut) judged from the sums: its t
 * (sums about each side's median, so rounding stays far below the margins
 * used here) has a normal tail probability above cut. false: undecided,
 * run the exact test. */
static bool surely_fails(const double *sl, size_t n1, const double *sr, size_t n2, double cut)
{
	struct side_sums l, r;
	side_sums(sl, n1, &l);
	side_sums(sr, n2, &r);
	if (l.k < 1 || r.k < 1 || l.k + r.k < 3)
		return false;
	double df = (double)(l.k + r.k) - 2.0;
	double ss = (l.ss > 0 ? l.ss : 0.0) + (r.ss > 0 ? r.ss : 0.0);
	double denom = sqrt(ss / df * (1.0 / (double)l.k + 1.0 / (double)r.k));
	/* Spread so small against the level that rounding could matter: exact. */
	if (!(denom > 1e-6 * (fabs(l.med) + fabs(r.med))) || !isfinite(denom))
		return false;
	double d = (l.med + l.sum / (double)l.k) - (r.med + r.sum / (double)r.k);
	double t = fabs(d / denom) * (1.0 + 1e-7);
	return t < normal_cut(cut) || erfc(t * M_SQRT1_2) > cut * (1.0 + 1e-9);
}

/* Two-sided pooled t-test of x[a..b) against x[b..c).
 * compat: as Otava does it, population standard deviations where the test
 * expects sample ones. Assay flavour: sample standard deviations, points
 * beyond 3.5 robust sd of their side's median left out of the test (spikes,
 * short excursions, heavy tails), and with serial (between neighbouring
 * change points, where segments should be level) an allowance for lag-1
 * autocorrelation. The reported means and sd are of all points. */
void ediv_ttest(const double *x, size_t a, size_t b, size_t c, bool compat, bool serial,
		const struct wsort *w, double cut, struct side_stats *s)
{
	s->n1 = b - a;
	s->n2 = c - b;
	if (compat || cut <= 0) {
		mean_std(x + a, s->n1, compat ? 0 : s->n1 > 1, &s->mean1, &s->sd1);
		mean_std(x + b, s->n2, compat ? 0 : s->n2 > 1, &s->mean2, &s->sd2);
	}
	s->p = 1.0;
	if (!compat) {
		size_t n = c - a;
		double stack[4 * 256];
		double *buf = n <= 256 ? stack : xmalloc(4 * n * sizeof(*buf));
		double *l = buf, *r = buf + n, *scratch = buf + 2 * n;
		size_t nl, nr;
		if (w && 4 * n >= w->n) { /* a pass over w costs about as much as n */
			double *sr = buf + 3 * n;
			wsort_split(w, a, b, c, scratch, sr);
			if (cut > 0 && surely_fails(scratch, s->n1, sr, s->n2, cut)) {
				s->p = 1.0; /* above cut: all a window test needs */
				if (buf != stack)
					free(buf);
				return;
			}
			nl = trim_sorted(x + a, scratch, s->n1, l);
			nr = trim_sorted(x + b, sr, s->n2, r);
		} else {
			nl = trim(x + a, s->n1, l, scratch);
			nr = trim(x + b, s->n2, r, scratch);
		}
		s->p = pooled_p(l, nl, r, nr, serial, cut);
		if (buf != stack)
			free(buf);
		return;
	}
	double df = (double)(s->n1 + s->n2) - 2.0;
	if (df <= 0)
		return;
	double v1 = s->sd1 * s->sd1, v2 = s->sd2 * s->sd2;
	double svar = ((double)(s->n1 - 1) * v1 + (double)(s->n2 - 1) * v2) / df;
	double denom = sqrt(svar * (1.0 / (double)s->n1 + 1.0 / (double)s->n2));
	double d = s->mean1 - s->mean2;
	if (denom == 0) {
		s->p = d == 0 ? 1.0 : 0.0; /* identical constants: no evidence; else certain */
		return;
	}
	s->p = assay_t_two_sided(d / denom, df);
	if (isnan(s->p))
		s->p = 1.0;
}
