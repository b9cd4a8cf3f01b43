/* Publication: from a few stored runs of one suite and revision to a folder
 * of numbers a team can stand behind (docs/publish.md). Qualify the runs
 * (one revision, one matrix, first attempts, every case valid), check each
 * series' stability across them, attach a hierarchical bootstrap CI, and
 * write NDJSON rows plus a manifest of SHA-256 digests; verify such a folder. */
#ifndef ASSAY_PUBLISH_H
#define ASSAY_PUBLISH_H

#include <stdbool.h>
#include <stdint.h>

#include "assay/error.h"
#include "assay/store.h"
#include "assay/util.h"

/* The schema names written into every row and the manifest. */
#define ASSAY_PUBLISH_ROW_SCHEMA      "assay.publication.row/1"
#define ASSAY_PUBLISH_MANIFEST_SCHEMA "assay.publication/1"

struct assay_publish_limits {
	double p50_spread;   /* max/min of the runs' values, central statistics: 1.10 */
	double p99_spread;   /* the same for tail statistics (p9x, max): 1.25 */
	double trial_drift;  /* within a run: later half's median / earlier half's: 1.10 */
	double mad_k;        /* a trial is an outlier beyond mad_k x MAD of the median: 6 */
	double outlier_frac; /* at most this fraction of a series' trials are outliers: 0.05 */
};

struct assay_publish_opts {
	const char *suite;      /* required */
	struct strlist run_ids; /* explicit runs; empty: the last `last` runs of `revision` */
	long last;              /* with revision */
	const char *revision;   /* with last; with run_ids: the revision they must have */
	struct assay_publish_limits limits;
	long resamples;               /* bootstrap resamples: 10000 */
	double level;                 /* CI level: 0.95 */
	uint64_t seed;                /* PRNG seed: 1 */
	const char *tag;              /* release tag, may be NULL */
	const char *expect_matrix;    /* the locked matrix digest, may be NULL */
	const char *out_dir;          /* the folder to create (must not exist) */
	struct strlist private_names; /* host and user names that must appear nowhere */
	const char *assay_version;    /* written into the manifest */
};
/* The defaults above; the caller fills suite, runs and out_dir. */
void assay_publish_defaults(struct assay_publish_opts *o);

/* What a publication found. problems: one line per failed check, naming
 * the run, case or series ("run R: case C: outcome workload-failed"). */
struct assay_publish_result {
	struct strlist run_ids; /* the runs used, oldest first */
	struct strlist problems;
	size_t series; /* series published */
	bool released; /* a release marker was written */
	char manifest_sha256[65];
};
void assay_publish_result_release(struct assay_publish_result *r);

/* Publish from store s. ASSAY_GATE_FAILED when a check failed (every
 * problem in res->problems, nothing written); ASSAY_USAGE for bad options,
 * an unknown run or an existing out_dir; ASSAY_INFRA for the store or the
 * file system (nothing left behind). */
assay_err assay_publish(struct assay_store *s, const struct assay_publish_opts *o,
			struct assay_publish_result *res, struct assay_error *e);

/* Re-check a publication folder: the manifest's own digest, every file's
 * SHA-256 and size, no file missing or extra, and the schema of the
 * manifest and of every row. ASSAY_GATE_FAILED naming the first problem
 * found in each file (res->problems); ASSAY_USAGE when dir is not a folder. */
assay_err assay_publish_verify(const char *dir, struct assay_publish_result *res,
			       struct assay_error *e);

/* The bootstrap, exposed for tests: the CI of the median over runs of the
 * runs' median trial, resampling runs then each picked run's trials.
 * vals[i] holds counts[i] trials of run i. */
struct assay_publish_ci {
	double value, low, high;
};
void assay_publish_bootstrap(const double *const *vals, const size_t *counts, size_t nruns,
			     long resamples, double level, uint64_t seed,
			     struct assay_publish_ci *out);

#endif
