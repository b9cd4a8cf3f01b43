/* Change-point detection in the library alone: CPU time per series of
 * assay_detect, CI defaults and --otava-compat (max p-value 1e-4), on 300
 * generated series of N points (0-3 steps of 4-5%, 0.5-5% Gaussian noise,
 * one point in 50 a 30% spike), best of REPS passes, and a hash of every
 * change point found (index, p-value, mean before) so that two builds can be
 * compared bit for bit. Built and run by bench/detect-lib.sh.
 *   detect-lib N REPS */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/detect.h"
#include "bench_rng.h"

static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static void mix(uint64_t *h, const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	*h = (*h ^ v) * 1099511628211ULL;
}

int main(int argc, char **argv)
{
	enum { NSERIES = 300 };
	int n = argc > 1 ? atoi(argv[1]) : 200, reps = argc > 2 ? atoi(argv[2]) : 20;
	if (n < 2 || reps < 1) {
		fprintf(stderr, "usage: detect-lib N REPS\n");
		return 2;
	}
	double **x = malloc(NSERIES * sizeof(*x));
	for (int s = 0; s < NSERIES; s++) {
		x[s] = malloc((size_t)n * sizeof(double));
		double level = 100, cv = (0.5 + 4.5 * uniform()) / 100;
		int steps = s % 4;
		for (int i = 0; i < n; i++) {
			for (int k = 0; k < steps; k++)
				if (i == n * (k + 1) / (steps + 1))
					level *= 1 + (k % 2 ? -0.05 : 0.04);
			x[s][i] = level * (1 + cv * gauss());
			if (next_u64() % 50 == 0)
				x[s][i] *= 1.3;
		}
	}
	for (int mode = 0; mode < 2; mode++) {
		struct assay_detect_opts o;
		if (mode) {
			assay_detect_otava_defaults(&o);
			o.max_pvalue = 1e-4;
		} else {
			assay_detect_defaults(&o);
		}
		uint64_t h = 1469598103934665603ULL;
		size_t found = 0;
		double best = INFINITY;
		for (int r = 0; r < reps; r++) {
			double t0 = cpu_s();
			for (int s = 0; s < NSERIES; s++) {
				struct assay_changes c = {0};
				struct assay_error e;
				if (assay_detect(x[s], (size_t)n, &o, &c, &e) != ASSAY_OK) {
					fprintf(stderr, "series %d: %s\n", s, e.message);
					return 1;
				}
				for (size_t i = 0; r == 0 && i < c.n; i++, found++) {
					uint64_t idx = c.v[i].index;
					mix(&h, &idx);
					mix(&h, &c.v[i].pvalue);
					mix(&h, &c.v[i].mean_before);
				}
				assay_changes_release(&c);
			}
			double t = cpu_s() - t0;
			best = t < best ? t : best;
		}
		printf("%-7s %5d points: %.4f ms/series (best of %d), %zu change points, hash "
		       "%016llx\n",
		       mode ? "compat" : "default", n, 1000 * best / NSERIES, reps, found,
		       (unsigned long long)h);
	}
	for (int s = 0; s < NSERIES; s++)
		free(x[s]);
	free(x);
	return 0;
}
