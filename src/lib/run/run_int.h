/* Shared by the pipeline's files: the state of one `assay run`. Not a
 * public header. */
#ifndef ASSAY_RUN_INT_H
#define ASSAY_RUN_INT_H

#include "assay/redact.h"
#include "assay/run.h"
#include "assay/store.h"
#include "assay/suite.h"

struct run_ctx {
	const struct assay_run_options *o;
	struct assay_run_result *res;
	struct assay_suite suite;
	struct assay_redactor redact;
	struct assay_store *store;
	char *assay_ep;
	double t0;
	sig_atomic_t interrupts_seen;
	double timed_s;  /* wall time of the cases run in this attempt */
	size_t timed_n;
	size_t left;     /* runnable cases still to run in this attempt */
};

/* Run one case to its outcome (store begin and finish included). ASSAY_INFRA
 * when the launcher, the store or the file system failed (e filled). */
assay_err run_case(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		   struct assay_case_outcome *out, struct assay_error *e);
/* Emit an event with the run's common fields filled. */
void run_event(struct run_ctx *rc, enum assay_run_event_kind kind, size_t index,
	       const char *case_id, const struct assay_case_outcome *outcome, double case_s,
	       const char *text);
/* Has the caller asked us to stop (again) since we last looked? */
bool run_interrupt_pending(struct run_ctx *rc);

void case_outcome_release(struct assay_case_outcome *o);
/* Set outcome, failure and a printf-style reason (redacted). */
void case_outcome_set(struct run_ctx *rc, struct assay_case_outcome *o, enum assay_outcome outcome,
		      enum assay_failure failure, const char *fmt, ...) ASSAY_PRINTF(5, 6);

#endif
