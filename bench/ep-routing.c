/* The routing alone (what assay-ep builds, untimed, when it stages a point):
 * assay_ep_routing_build + assay_ep_route_stats of N global tokens, top-K
 * of E experts on EP ranks, for one --routing spec; REPS rounds, the
 * median and the fastest CPU ms (and the median wall ms), and a hash of the experts (the same spec
 * and seed give the same hash on every machine). bench/ep-routing.sh runs it.
 * usage: ep-routing SPEC TOKENS TOPK EXPERTS EP REPS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/ep.h"
#include "assay/util.h"

/* This process's CPU seconds: on a shared machine the routing's own cost
 * (it is single-threaded), not the time the scheduler gave to others. */
static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: ep-routing SPEC TOKENS TOPK EXPERTS EP REPS\n");
		return 2;
	}
	long long n = atoll(argv[2]), k = atoll(argv[3]), x = atoll(argv[4]), ep = atoll(argv[5]);
	int reps = atoi(argv[6]);
	struct assay_ep_dist d;
	struct assay_error e;
	if (assay_ep_dist_parse(argv[1], &d, &e) != ASSAY_OK ||
	    assay_ep_dist_prepare(&d, x, k, &e) != ASSAY_OK) {
		fprintf(stderr, "ep-routing: %s\n", e.message);
		return 2;
	}
	struct assay_ep_problem p = {.ep = ep,
				     .tokens = n / ep,
				     .hidden = 32,
				     .experts = x,
				     .topk = k,
				     .seed = 67,
				     .scale_up_domain = ep,
				     .dist = &d};
	if (assay_ep_problem_check(&p, &e) != ASSAY_OK) {
		fprintf(stderr, "ep-routing: %s\n", e.message);
		return 2;
	}
	double *t = xcalloc((size_t)reps, sizeof(*t)), *w = xcalloc((size_t)reps, sizeof(*w));
	unsigned long long hash = 1469598103934665603ull;
	double imb[2] = {0, 0};
	for (int r = 0; r < reps; r++) {
		struct assay_ep_routing rt;
		struct assay_ep_route_stats s;
		double c0 = cpu_seconds(), w0 = assay_monotonic();
		assay_ep_routing_build(&p, &rt);
		assay_ep_route_stats(&p, &rt, &s);
		t[r] = (cpu_seconds() - c0) * 1e3;
		w[r] = (assay_monotonic() - w0) * 1e3;
		if (r == 0)
			for (int64_t i = 0; i < rt.ntok * rt.topk; i++)
				hash = (hash ^ (unsigned)rt.experts[i]) * 1099511628211ull;
		imb[0] = s.imbalance_expert, imb[1] = s.imbalance_rank;
		assay_ep_route_stats_release(&s);
		assay_ep_routing_release(&rt);
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp);
	qsort(w, (size_t)reps, sizeof(*w), cmp);
	printf("%s tokens %lld topk %lld experts %lld ep %lld: median %.1f ms, min %.1f ms CPU "
	       "(%.2f ns per slot; wall median %.1f ms), imbalance expert %.2f rank %.2f, hash "
	       "%016llx\n",
	       argv[1], n, k, x, ep, t[reps / 2], t[0], t[reps / 2] * 1e6 / ((double)n * k),
	       w[reps / 2], imb[0], imb[1], hash);
	free(t);
	free(w);
	assay_ep_dist_release(&d);
	return 0;
}
