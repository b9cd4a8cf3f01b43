/* Case outcomes: how every case of a run ends. The names are stable: the
 * store's cases.outcome (docs/store.md), summary.json and reports use them.
 * Each outcome contributes an exit code to its run (docs/exit-codes.md). */
#ifndef ASSAY_OUTCOME_H
#define ASSAY_OUTCOME_H

#include <stdbool.h>

#include "assay/error.h"

/* Every case ends as exactly one of these. */
enum assay_outcome {
	ASSAY_OUTCOME_PASSED = 0,
	ASSAY_OUTCOME_GATE_FAILED,
	ASSAY_OUTCOME_WORKLOAD_FAILED, /* non-zero exit, signal, signature, timeout, not started */
	ASSAY_OUTCOME_NO_METRICS,      /* exit 0, but the parser found no measurements */
	ASSAY_OUTCOME_INFRA,           /* the launcher, store or file system failed for this case */
	ASSAY_OUTCOME_UNSUPPORTED,     /* the matrix or the benchmark says it cannot run here */
	ASSAY_OUTCOME_SKIPPED,         /* not run: interrupted, or --fail-fast after a failure */
};
#define ASSAY_OUTCOME_COUNT 7

/* "passed", "gate-failed", "workload-failed", "no-metrics", "infrastructure",
 * "unsupported", "skipped" ("unknown" otherwise). */
const char *assay_outcome_name(enum assay_outcome o);
/* The outcome of a name above; -1 when unknown. */
int assay_outcome_parse(const char *name);
/* The exit code an outcome contributes: 0, 1, 3, 4, 5, 0, 0. */
assay_err assay_outcome_exit(enum assay_outcome o);
/* Whether the outcome is final: every outcome but skipped and infrastructure.
 * `assay run --resume` keeps final cases and runs the others again. */
bool assay_outcome_final(enum assay_outcome o);

#endif
