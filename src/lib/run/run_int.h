/* Shared by the pipeline's files: the state of one `assay run`. Not a
 * public header. */
#ifndef ASSAY_RUN_INT_H
#define ASSAY_RUN_INT_H

#include "assay/redact.h"
#include "assay/run.h"
#include "assay/store.h"
#include "assay/suite.h"
#include "assay/training.h"

/* One server of an inference suite (its "server", or one role of its
 * "servers"). */
struct run_server {
	const struct assay_suite_infer *k;
	size_t index; /* in the suite's servers */
	pid_t pid;    /* here: its process (0: none running) */
	/* On nodes (infer_nodes.c): its launcher job (NULL: none running) and
	 * its server.log, which the job's output is appended to. */
	struct assay_job *job;
	int log;
};

struct run_ctx {
	const struct assay_run_options *o;
	struct assay_run_result *res;
	struct assay_suite suite;
	struct assay_redactor redact;
	struct assay_store *store;
	char *assay_ep;
	double t0;
	int attempt; /* the run's attempt: 1, plus one per --resume */
	sig_atomic_t interrupts_seen;
	double timed_s; /* wall time of the cases run in this attempt */
	size_t timed_n;
	size_t left;   /* runnable cases still to run in this attempt */
	bool leftover; /* a container of an earlier attempt could not be removed */
	/* Training results later gates read (scaling baseline, checkpoint save),
	 * by case index; NULL when not needed or not kept yet. */
	struct assay_train_result **train;
	/* Inference suites (infer.c): each server's state (suite.n_infer of
	 * them, made at its first start; NULL before). */
	struct run_server *servers;
	bool server_started; /* started in this attempt */
};

/* Run one case to its outcome (store begin and finish included). ASSAY_INFRA
 * when the launcher, the store or the file system failed (e filled). */
assay_err run_case(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		   struct assay_case_outcome *out, struct assay_error *e);
/* The launch spec of case c planned as p in folder dir: the one place it is
 * built, for the run (case.c) and the dry run (run.c), placement included.
 * The output and record callbacks are the caller's to set. */
void run_launch_spec(const struct run_ctx *rc, const struct assay_suite_case *c,
		     const struct assay_case_plan *p, const char *dir,
		     struct assay_launch_spec *spec);
/* Emit an event with the run's common fields filled. */
void run_event(struct run_ctx *rc, enum assay_run_event_kind kind, size_t index,
	       const char *case_id, const struct assay_case_outcome *outcome, double case_s,
	       const char *text);
/* Has the caller asked us to stop (again) since we last looked? */
bool run_interrupt_pending(struct run_ctx *rc);

/* Gate case c (index: 0-based) whose results gave rows and, for a training
 * log, train (else NULL): run health, thresholds, loss curve, convergence,
 * scaling, checkpoint, regression against the store's history, ab against
 * the baseline case (gates.c). Appends to out; ASSAY_INFRA when the store
 * fails. */
assay_err run_gates(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		    const struct assay_rows *rows, const struct assay_train_result *train,
		    struct assay_verdicts *out, struct assay_error *e);
/* The verdicts in brief, for the case's reason: failures named, the rest
 * counted ("gates: 1 FAIL (threshold tflops_per_gpu/steady_mean 460 < 480),
 * 12 PASS, 7 RECORD"). */
void run_verdict_digest(const struct assay_verdicts *vs, struct sbuf *out);
/* Keep case index's training result when a later gate reads it (taken
 * over: r is emptied either way). */
void run_keep_train(struct run_ctx *rc, size_t index, struct assay_train_result *r);
/* Where the redacted copy of watched log i goes: <case>/logs/<i+1>-<name>
 * (case.c). */
char *run_log_copy(const char *case_dir, size_t i, const char *log);

/* A case's results (case_results.c). The results files as they were before
 * the case started (free it), to tell a file the case wrote from one an
 * earlier case left behind. */
struct run_before;
struct run_before *run_results_snapshot(const struct assay_case_plan *p);
/* What parsing a case's results gave. */
struct run_parsed {
	struct assay_rows rows;
	struct assay_train_result train;
	bool have_train; /* a training log was parsed (train is set) */
};
/* Parse the results (planned as p, checked against before when not NULL)
 * into rows and, for a training log, a training result and
 * <case>/steps.ndjson; decide passed or no-metrics, or for a training log
 * workload-failed. With workload_failed set only a training log's steps are
 * kept (the outcome stands). ASSAY_INFRA when steps.ndjson cannot be
 * written. */
assay_err run_parse_results(struct run_ctx *rc, const struct assay_suite_case *c,
			    const struct assay_case_plan *p, const struct run_before *before,
			    const char *case_dir, bool workload_failed,
			    struct assay_case_outcome *out, struct run_parsed *pr,
			    struct assay_error *e);
/* Parse case c's results (in case_dir) as one training log, as the case
 * did: for gates that read a case an earlier attempt finished. */
assay_err run_read_training(struct run_ctx *rc, const struct assay_suite_case *c,
			    const char *case_dir, struct assay_train_result *r, char *why,
			    size_t n);
void run_train_release(struct run_ctx *rc);

/* Redact in place every file under case_dir that holds a secret's value,
 * but the suite's raw_artifacts (case_files.c); *n gets how many were
 * rewritten. ASSAY_INFRA when one cannot be written. */
/* The suite's expectations on a case that ran (expect.c): records its
 * provenance in the store; why gets the first failure (empty: all matched). */
assay_err run_expect(struct run_ctx *rc, const struct assay_suite_case *c, const char *case_dir,
		     struct sbuf *why, struct assay_error *e);
/* --dry-run: "  expect: NAME per node|rank: PATTERN" lines, filled. */
void run_expect_describe(struct run_ctx *rc, const struct assay_suite_case *c, const char *case_dir,
			 struct sbuf *out);
assay_err run_redact_case_dir(struct run_ctx *rc, const char *case_dir, size_t *n,
			      struct assay_error *e);

/* Stages (run.c): the teardown stage's cases run whatever happened before
 * and their outcome does not enter the run's exit code; a case of another
 * stage that did not pass skips the later stages. */
bool run_is_teardown(const struct assay_suite_case *c);
bool run_stage_failed(const struct assay_suite_case *c, const struct assay_case_outcome *o);

/* Collective suites (coll.c): a case whose rows count wrong elements
 * (#wrong > 0) is invalid: workload-failed (failure correctness), with a
 * FAIL verdict per size and placement, and those sizes' rows moved to
 * their own series (verdict "invalid"), as assay-ep's invalid points. */
void run_coll_correctness(struct run_ctx *rc, struct assay_rows *rows,
			  struct assay_case_outcome *out);
/* The per-size thresholds gate of a collective case. */
void run_coll_gate(struct run_ctx *rc, const struct assay_suite_case *c,
		   const struct assay_rows *rows, struct assay_verdicts *out);

/* Inference suites (infer.c): the server running and healthy before a case
 * (started on first use, again when it exited); ASSAY_INFRA (e) when it
 * cannot start or never answers its health URL. Stop: the whole process
 * group, SIGTERM then SIGKILL after the grace period. No-ops otherwise. */
assay_err run_server_start(struct run_ctx *rc, struct assay_error *e);
void run_server_stop(struct run_ctx *rc);
/* End the servers a killed attempt of the run left running (a local one's
 * session, as <run>/<id>/server.pid records it), and say so: --resume and
 * --cleanup. Servers on nodes are ended by the launcher's own leftovers. */
void run_server_leftover(struct run_ctx *rc);
/* A server on nodes (infer_nodes.c), through the suite's launcher: one
 * process per node, its output appended to dir/server.log. start: argv and
 * cwd filled; ASSAY_INFRA (e) when it cannot start. alive: polls it for up
 * to wait_s (its output written); false once it ended (why says how).
 * stop: every node's processes ended, the job released. poll: drain every
 * server's output while a case runs (no-op without one). */
assay_err run_nodes_start(struct run_ctx *rc, struct run_server *sv, const struct strlist *argv,
			  const char *cwd, const char *dir, struct assay_error *e);
bool run_nodes_alive(struct run_ctx *rc, struct run_server *sv, double wait_s, char *why, size_t n);
void run_nodes_stop(struct run_ctx *rc, struct run_server *sv);
void run_server_poll(struct run_ctx *rc);

void case_outcome_release(struct assay_case_outcome *o);
/* Set outcome, failure and a printf-style reason (redacted). */
void case_outcome_set(struct run_ctx *rc, struct assay_case_outcome *o, enum assay_outcome outcome,
		      enum assay_failure failure, const char *fmt, ...) ASSAY_PRINTF(5, 6);

#endif
