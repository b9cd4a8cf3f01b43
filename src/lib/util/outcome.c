/* Case outcomes (include/assay/outcome.h): their stable names, the exit code
 * each contributes to a run, and which ones a resumed run keeps. */
#include <string.h>

#include "assay/outcome.h"

static const char *const names[ASSAY_OUTCOME_COUNT] = {
    "passed",         "gate-failed", "workload-failed", "no-metrics",
    "infrastructure", "unsupported", "skipped",
};

const char *assay_outcome_name(enum assay_outcome o)
{
	return (unsigned)o < ASSAY_OUTCOME_COUNT ? names[o] : "unknown";
}

int assay_outcome_parse(const char *name)
{
	for (int i = 0; name && i < ASSAY_OUTCOME_COUNT; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

assay_err assay_outcome_exit(enum assay_outcome o)
{
	switch (o) {
	case ASSAY_OUTCOME_GATE_FAILED: return ASSAY_GATE_FAILED;
	case ASSAY_OUTCOME_WORKLOAD_FAILED: return ASSAY_WORKLOAD_FAILED;
	case ASSAY_OUTCOME_NO_METRICS: return ASSAY_NO_METRICS;
	case ASSAY_OUTCOME_INFRA: return ASSAY_INFRA;
	default: return ASSAY_OK;
	}
}

bool assay_outcome_final(enum assay_outcome o)
{
	return (unsigned)o < ASSAY_OUTCOME_COUNT && o != ASSAY_OUTCOME_SKIPPED &&
	       o != ASSAY_OUTCOME_INFRA;
}
