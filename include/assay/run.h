/* The pipeline: `assay run` drives one suite through launch, watch, parse,
 * gate and store, records every case's outcome, and resumes a run that was
 * interrupted or killed. The only module that knows all the stages. It never
 * prints: progress goes to the caller's event callback. */
#ifndef ASSAY_RUN_H
#define ASSAY_RUN_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/redact.h"
#include "assay/error.h"
#include "assay/gate.h"
#include "assay/outcome.h"
#include "assay/util.h"

/* Which kind of workload failure. */
enum assay_failure {
	ASSAY_FAILURE_NONE = 0,
	ASSAY_FAILURE_EXIT,        /* exited with a non-zero code */
	ASSAY_FAILURE_SIGNAL,      /* killed by a signal it did not get from assay */
	ASSAY_FAILURE_SIGNATURE,   /* an error signature matched; stopped at once */
	ASSAY_FAILURE_TIMEOUT,     /* ran past timeout_s; stopped */
	ASSAY_FAILURE_NOT_STARTED, /* the command could not be started */
	ASSAY_FAILURE_TRAINING,    /* exit 0, but the training log is incomplete or has NaN/Inf */
	ASSAY_FAILURE_PROVENANCE,  /* an expectation ("expect") matched nowhere on a node or rank */
	ASSAY_FAILURE_CORRECTNESS, /* a collective benchmark counted wrong elements (#wrong > 0) */
};
/* "exit-code", "signal", "signature", "timeout", "not-started", "training-log", "provenance",
 * "correctness" ("" for none). */
const char *assay_failure_name(enum assay_failure f);

struct assay_case_outcome {
	char *case_id;
	enum assay_outcome outcome;
	enum assay_failure failure;
	char *reason;    /* one line, redacted; NULL when passed */
	char *signature; /* the signature's name, when failure is a signature */
	char *source;    /* where it matched: stdout, stderr or a log file */
	char *line;      /* the matching line, redacted */
	double duration_s;
	double queue_s;                 /* of duration_s, waiting in a queue (Slurm) */
	size_t rows;                    /* measurement rows stored */
	bool earlier;                   /* finished in an earlier attempt of this run (--resume) */
	char *dir;                      /* the case folder, or NULL when it never ran */
	struct assay_verdicts verdicts; /* its gate verdicts, as stored */
	char *image;                    /* its container image as written, or NULL */
	char *image_digest;             /* what the runtime resolved it to, or NULL */
};

enum assay_run_event_kind {
	ASSAY_EVENT_RUN_START,  /* run_id, total; resumed */
	ASSAY_EVENT_CASE_START, /* index, case_id */
	ASSAY_EVENT_CASE_END,   /* index, outcome */
	ASSAY_EVENT_TICK,       /* about once a second while a case runs */
	ASSAY_EVENT_INTERRUPT,  /* assay was asked to stop; the current case is being stopped */
	ASSAY_EVENT_DRY_CASE,   /* --dry-run: index, case_id, text (what would run) */
	ASSAY_EVENT_CLEANUP,    /* --resume ended what an earlier attempt left: text says what */
	ASSAY_EVENT_STATE,      /* the running case's queue state or nodes changed: text */
	ASSAY_EVENT_SERVER,     /* an inference suite's server started or stopped: text */
};

struct assay_run_event {
	enum assay_run_event_kind kind;
	const char *run_id;
	size_t index; /* 1-based position of the case */
	size_t total; /* cases in the suite */
	const char *case_id;
	const struct assay_case_outcome *outcome;
	double elapsed_s; /* since the run (this attempt) started */
	double case_s;    /* since the current case started */
	double eta_s;     /* estimated seconds left, < 0 when unknown */
	bool resumed;
	const char *text;
};

typedef void (*assay_run_event_fn)(const struct assay_run_event *ev, void *ctx);

struct assay_run_options {
	const char *suite_file;
	const char *store;    /* overrides the suite's store */
	const char *output;   /* overrides the suite's output folder */
	const char *revision; /* overrides the suite's revision */
	const char *resume;   /* a run id or "last": re-run only the cases that did not finish */
	/* A run id or "last": only end and remove what the run's attempts
	 * left running (processes, jobs, containers); run no case. Exit 5
	 * when a container could not be removed. */
	const char *cleanup;
	const char *assay_ep; /* the assay-ep binary; default: the suite's, next to assay, PATH */
	bool dry_run;         /* plan and describe every case; start and write nothing */
	bool fail_fast; /* after the first case that is not passed or unsupported, skip the rest */
	/* Incremented by the caller's SIGINT/SIGTERM/SIGHUP handler: once stops the
	 * current case gracefully, twice kills it now. */
	volatile sig_atomic_t *interrupted;
	assay_run_event_fn on_event;
	void *ctx;
};

struct assay_run_result {
	char run_id[64];
	char *suite;
	char *revision;
	char *run_dir; /* <output>/<run_id> */
	char *store;
	char *store_name; /* store as shown and written: no password */
	assay_err exit_code;
	bool interrupted;
	int attempt;                      /* 1, plus one per --resume */
	char *resume_hint;                /* when interrupted: the command that resumes the run */
	struct assay_case_outcome *cases; /* every case of the suite, in order */
	size_t n;
	size_t counts[ASSAY_OUTCOME_COUNT];
	/* The names of the suite's secrets (never their values), for reports. */
	struct strlist secrets;
	/* Their values as the run read them, for the report written after it
	 * (never written anywhere). */
	struct assay_redactor redact;
};

/* Run (or with dry_run describe) a suite. Returns the run's exit code: the
 * worst outcome (2 > 5 > 3 > 4 > 1 > 0). ASSAY_USAGE (nothing ran, nothing
 * written) and ASSAY_INFRA come with e filled; res is filled as far as the
 * run got. */
assay_err assay_run(const struct assay_run_options *o, struct assay_run_result *res,
		    struct assay_error *e);
void assay_run_result_release(struct assay_run_result *res);

/* The run's summary document (schema assay.run/1), as written to
 * <run_dir>/summary.json. */
json_t *assay_run_summary_json(const struct assay_run_result *res);

#endif
