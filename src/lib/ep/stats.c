/* Nearest-rank statistics over pooled latency samples: p50, p90, p95, p99
 * (index ceil(q/100 * n) - 1 on the sorted samples), min and max; and the
 * rotation of the visiting order between trials; the dispatch efficiency. */
#include <math.h>
#include <stdlib.h>

#include "assay/ep.h"

size_t assay_ep_rank_index(size_t n, unsigned q)
{
	size_t k = (q * n + 99) / 100; /* ceil(q*n/100), exact in integers */
	return k ? k - 1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void assay_ep_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

void assay_ep_stats_compute(double *samples, size_t n, struct assay_ep_stats *s)
{
	assay_ep_sort(samples, n);
	s->n = (int64_t)n;
	s->min = samples[0];
	s->max = samples[n - 1];
	s->p50 = samples[assay_ep_rank_index(n, 50)];
	s->p90 = samples[assay_ep_rank_index(n, 90)];
	s->p95 = samples[assay_ep_rank_index(n, 95)];
	s->p99 = samples[assay_ep_rank_index(n, 99)];
}

void assay_ep_rotation(size_t n, long long trial, size_t *order)
{
	for (size_t j = 0; j < n; j++)
		order[j] = (j + (size_t)(trial % (long long)n)) % n;
	if ((trial / (long long)n) % 2)
		for (size_t j = 0; j < n / 2; j++) {
			size_t t = order[j];
			order[j] = order[n - 1 - j];
			order[n - 1 - j] = t;
		}
}

bool assay_ep_efficiency(double pattern_us, double dispatch_us, double *ceiling, double *efficiency)
{
	*ceiling = *efficiency = -1;
	if (!(pattern_us > 0 && dispatch_us > 0 && isfinite(pattern_us) && isfinite(dispatch_us)))
		return false;
	/* Not clipped: a dispatch faster than its copy is reported as such. */
	*ceiling = pattern_us;
	*efficiency = pattern_us / dispatch_us;
	return *efficiency > 1;
}
