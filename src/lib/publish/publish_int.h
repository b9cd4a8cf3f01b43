/* Inside the publication module: the series gathered from the runs, and
 * the statistics each of them gets (stats.c), shared by publish.c. */
#ifndef ASSAY_PUBLISH_INT_H
#define ASSAY_PUBLISH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "assay/measure.h"
#include "assay/publish.h"

/* One series across the runs: run i holds n[i] trials in vals[i]. */
struct pub_series {
	char *key, *case_id, *fields_json, *metric, *statistic, *unit;
	enum assay_direction dir;
	double **vals;
	size_t *n, *alloc;
};

struct pub_stability {
	double spread, spread_limit, drift;
	size_t trials, outliers;
	double outlier_fraction;
	bool tail;
};

/* The median of n values (copied, the input is left as is); NAN for n 0. */
double pub_median(const double *x, size_t n);
/* Whether a statistic is a tail one (p90 and up, max): the p99 limit applies. */
bool pub_is_tail(const char *statistic);
/* max/min of n values: 1 when all equal, INFINITY when they differ and
 * one is not positive. */
double pub_ratio(const double *x, size_t n);
/* Spread, drift and outliers of one series over nruns runs. */
void pub_stability_compute(const struct pub_series *s, size_t nruns,
			   const struct assay_publish_limits *lim, struct pub_stability *out);
/* The seed of one series' generator: the run seed mixed with its key. */
uint64_t pub_series_seed(uint64_t seed, const char *key);

/* The manifest's text as written: canonical JSON and a newline, its
 * manifest_sha256 (set here) the digest of the canonical JSON without it. */
char *pub_manifest_text(json_t *m, char sha_out[65]);

/* Add one line (printf-style) to res->problems; false, so that a check can
 * return pub_problem(...). */
bool pub_problem(struct assay_publish_result *res, const char *fmt, ...) ASSAY_PRINTF(2, 3);

#endif
