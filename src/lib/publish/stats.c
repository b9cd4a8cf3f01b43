/* The statistics of a publication: stability of one series across runs
 * (spread of the runs' medians, trial drift inside a run, MAD outliers) and
 * its hierarchical bootstrap CI, drawn from a documented, seeded PRNG
 * (xoshiro256** seeded through splitmix64) so a fixed seed gives the same CI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "publish_int.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of x[0..n), sorting x in place. */
static double median_inplace(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double pub_median(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double *c = xmalloc(n * sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	double m = median_inplace(c, n);
	free(c);
	return m;
}

bool pub_is_tail(const char *st)
{
	return st && (!strcmp(st, "max") || (st[0] == 'p' && st[1] == '9'));
}

double pub_ratio(const double *x, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	if (!n || lo == hi)
		return 1;
	if (lo <= 0)
		return INFINITY;
	return hi / lo;
}

void pub_stability_compute(const struct pub_series *s, size_t nruns,
			   const struct assay_publish_limits *lim, struct pub_stability *out)
{
	memset(out, 0, sizeof(*out));
	out->tail = pub_is_tail(s->statistic);
	out->spread_limit = out->tail ? lim->p99_spread : lim->p50_spread;
	double *med = xmalloc((nruns + 1) * sizeof(*med));
	size_t total = 0;
	for (size_t r = 0; r < nruns; r++) {
		med[r] = pub_median(s->vals[r], s->n[r]);
		total += s->n[r];
	}
	out->spread = pub_ratio(med, nruns);
	free(med);
	/* Drift: a run's later half against its earlier half (the middle trial
	 * of an odd count belongs to neither); runs of one trial have none. */
	out->drift = 1;
	for (size_t r = 0; r < nruns; r++) {
		size_t n = s->n[r], h = n / 2;
		if (n < 2)
			continue;
		double halves[2] = {pub_median(s->vals[r], h), pub_median(s->vals[r] + (n - h), h)};
		double d = pub_ratio(halves, 2);
		out->drift = d > out->drift ? d : out->drift;
	}
	/* Outliers: all trials of all runs pooled, beyond mad_k x MAD of their
	 * median and beyond the spread limit's distance from it (the floor: a
	 * run shifted less than the spread limit is the spread check's to
	 * judge, however tight its trials). */
	double *all = xmalloc((total + 1) * sizeof(*all));
	size_t k = 0;
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < s->n[r]; i++)
			all[k++] = s->vals[r][i];
	double m = pub_median(all, total);
	double *dev = xmalloc((total + 1) * sizeof(*dev));
	for (size_t i = 0; i < total; i++)
		dev[i] = fabs(all[i] - m);
	double mad = pub_median(dev, total);
	double floor_dev = (out->spread_limit - 1) * fabs(m);
	double beyond = lim->mad_k * mad > floor_dev ? lim->mad_k * mad : floor_dev;
	if (beyond > 0)
		for (size_t i = 0; i < total; i++)
			out->outliers += fabs(all[i] - m) > beyond;
	out->trials = total;
	out->outlier_fraction = total ? (double)out->outliers / (double)total : 0;
	free(dev);
	free(all);
}

/* ---- the generator: splitmix64 (seeding) and xoshiro256** ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct prng {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t prng_next(struct prng *g)
{
	uint64_t *s = g->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

static void prng_seed(struct prng *g, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix64(&seed);
}

/* A uniform index below n (rejection of the biased top range). */
static size_t prng_below(struct prng *g, size_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = prng_next(g);
	while (x >= lim);
	return (size_t)(x % n);
}

uint64_t pub_series_seed(uint64_t seed, const char *key)
{
	/* The first 16 hex digits of the series key: a series' CI does not
	 * depend on which other series are published with it. */
	uint64_t k = 0;
	for (int i = 0; i < 16 && key && key[i]; i++) {
		char c = key[i];
		k = k << 4 | (uint64_t)(c >= 'a'   ? c - 'a' + 10
					: c >= 'A' ? c - 'A' + 10
						   : c - '0');
	}
	return seed ^ k;
}

/* The q-quantile of sorted x[0..n), interpolating linearly between ranks. */
static double quantile_sorted(const double *x, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

void assay_publish_bootstrap(const double *const *vals, const size_t *counts, size_t nruns,
			     long resamples, double level, uint64_t seed,
			     struct assay_publish_ci *out)
{
	size_t maxn = 1;
	for (size_t r = 0; r < nruns; r++)
		maxn = counts[r] > maxn ? counts[r] : maxn;
	double *med = xmalloc((nruns + 1) * sizeof(*med));
	double *scratch = xmalloc(maxn * sizeof(*scratch));
	for (size_t r = 0; r < nruns; r++)
		med[r] = pub_median(vals[r], counts[r]);
	out->value = pub_median(med, nruns);
	if (resamples < 1 || !nruns) {
		out->low = out->high = out->value;
		free(med);
		free(scratch);
		return;
	}
	double *rep = xmalloc((size_t)resamples * sizeof(*rep));
	struct prng g;
	prng_seed(&g, seed);
	for (long b = 0; b < resamples; b++) {
		for (size_t i = 0; i < nruns; i++) {
			size_t r = prng_below(&g, nruns);
			for (size_t t = 0; t < counts[r]; t++)
				scratch[t] = vals[r][prng_below(&g, counts[r])];
			med[i] = median_inplace(scratch, counts[r]);
		}
		rep[b] = median_inplace(med, nruns);
	}
	qsort(rep, (size_t)resamples, sizeof(*rep), cmp_double);
	double a = (1 - level) / 2;
	out->low = quantile_sorted(rep, (size_t)resamples, a);
	out->high = quantile_sorted(rep, (size_t)resamples, 1 - a);
	free(rep);
	free(med);
	free(scratch);
}
