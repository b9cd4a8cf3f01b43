/* Suite files: one JSON file that says what `assay run` runs and how
 * (docs/suite.md). Two kinds:
 *   "ep"       a platform registry, a sweep and filters: the matrix; every
 *              runnable case is `mpirun -np EP assay-ep run ...`, unsupported
 *              cases are recorded, never run.
 *   "command"  named combos of values, an ordered list of runs, and an argv
 *              template with {NAME} placeholders filled from each combo.
 *   "collective" operations x dtypes x nodes x ranks: each case runs an
 *              nccl-tests program (or assay-coll) with nccl-tests' flags
 *              and its table is read as format nccl-tests-text.
 * Common keys: launcher, store, output, signatures, secrets, env, timeout_s,
 * revision, cluster, gates, expect. Loading is strict (unknown keys, wrong types, a
 * placeholder with no value, a secret's value in the file, a gate that
 * cannot apply: exit 2). */
#ifndef ASSAY_SUITE_H
#define ASSAY_SUITE_H

#include <jansson.h>
#include <stdbool.h>

#include "assay/config.h"
#include "assay/container.h"
#include "assay/detect.h"
#include "assay/error.h"
#include "assay/gate.h"
#include "assay/launch.h"
#include "assay/matrix.h"
#include "assay/redact.h"
#include "assay/training.h"
#include "assay/util.h"
#include "assay/watch.h"

enum assay_suite_kind { ASSAY_SUITE_EP = 0, ASSAY_SUITE_COMMAND = 1, ASSAY_SUITE_COLLECTIVE = 2 };

/* kind "collective" (collective.c): what every case shares. */
struct assay_suite_coll {
	char *binary;    /* a template ({OP}, ...): the benchmark program */
	bool assay_coll; /* the binary is assay-coll: --op and --backend are passed */
	char *backend;   /* assay-coll's backend, or NULL */
	long long min_bytes, max_bytes, factor;
	long long iters, warmups;
	bool check;
	struct strlist args; /* more arguments, templates */
};

/* kind "inference" (src/lib/suite/inference.c): a command suite whose
 * cases (one per cell: ISL/OSL/concurrency combos) run a benchmark client
 * against a server assay starts first, waits for (its health URL), watches
 * and stops (docs/inference.md). Templates hold only the run's built-ins
 * ({RUN_ID}, {OUT}, {HOST}, {RUN_DIR}). */
struct assay_suite_infer {
	struct strlist argv;     /* the server command, templates */
	char *cwd;               /* template or NULL */
	char *health;            /* the health URL, a template */
	double health_timeout_s; /* how long to wait for it (default 600) */
	double stop_grace_s;     /* SIGTERM, then SIGKILL after this (default 30) */
	/* "nodes": the server runs as one process per node through the suite's
	 * ssh launcher (its rank variables set on each); 0: on assay's machine. */
	long long nodes;
	/* "first_host": the first of the launcher's hosts it runs on (0-based);
	 * its nodes are first_host .. first_host + nodes - 1. */
	long long first_host;
	/* "servers" (role servers): the role's name, else NULL; id: the name
	 * its folder in the run and its processes' label carry ("server",
	 * "server-<role>"). */
	char *role;
	char *id;
};

/* One variant of a suite (docs/suite.md, "Variants"): what it changes in
 * every case it runs. Templates may hold placeholders. */
struct assay_suite_variant {
	char *name;
	json_t *vars;                   /* placeholder values over the combo's ({} when none) */
	struct strlist env;             /* NAME=template, over the suite's env */
	struct strlist args;            /* templates appended to the case's argv */
	char *image;                    /* template replacing the container's image, or NULL */
	struct strlist ld_library_path; /* templates prepended to LD_LIBRARY_PATH */
	struct strlist ld_preload;      /* templates prepended to LD_PRELOAD */
	/* Expectations ("expect") take the variant's values through vars: a
	 * candidate's pattern holds its own {VERSION}. */
};

/* One case of a suite, before the run fills in its run id and folder. */
struct assay_suite_case {
	char *id;
	bool runnable;
	char *reason;    /* why not runnable (unsupported), else NULL */
	json_t *factors; /* what the case is: the matrix case, or the combo */
	json_t *vars;    /* placeholder values: the combo (command), {} (ep) */
	long long nodes;
	long long ranks_per_node;      /* GPUs per node (command), ranks per node (ep) */
	const struct assay_case *ep;   /* the matrix case (ep kind), else NULL */
	char *cell;                    /* the thresholds cell: a canonical combo key or "default" */
	struct assay_train_opts train; /* training parsers: seq_len, world size, warm-up */
	/* torchtitan, maxtext (training.final_step): the step every log must reach */
	bool final_step_on;
	long long final_step;
	long ab_baseline; /* ep ab gate: index of this candidate's baseline case, else -1 */
	char *stage;      /* the lifecycle stage it belongs to ("stages"), else NULL */
	/* A command stage: its argv templates (results, logs: none; parser
	 * none); NULL for a combo's case. */
	struct strlist *stage_argv;
	/* Variants and repeats (docs/suite.md, "Variants"): the variant this
	 * case runs (NULL: none), its repeat (1-based; 0 when the suite has
	 * neither) and the id of the case it is a copy of (NULL: none). */
	const struct assay_suite_variant *variant;
	long long rep;
	char *base;
};

/* The gates block (docs/suite.md, "Gates"), checked when the suite loads. */
struct assay_suite_scaling {
	char *baseline;        /* case id of the baseline combo */
	struct strlist cases;  /* case ids it judges */
	double min_efficiency; /* percent; NAN: record only */
	bool enforce;
};
struct assay_suite_checkpoint {
	char *save, *resume; /* case ids */
	struct assay_checkpoint_spec spec;
};
struct assay_suite_regression {
	struct assay_gate_config config; /* changepoint, rolling-mean, thresholds */
	struct strlist metrics;          /* "metric" or "metric/statistic"; empty: every row */
	bool enforce;
};
struct assay_suite_ab {
	char *baseline, *candidate; /* backends, or variants when the suite has them */
	bool variants;              /* baseline and candidate name variants */
	double threshold;           /* fail when the candidate is worse by more */
	struct strlist metrics;     /* as for regression */
	bool enforce;
};
struct assay_suite_gates {
	bool thresholds_on, loss_curve_on, convergence_on, scaling_on, checkpoint_on;
	bool regression_on, ab_on;
	struct assay_thresholds thresholds;
	char thresholds_sha256[65];
	struct assay_loss_curve_spec loss_curve;
	struct assay_convergence_spec convergence;
	struct assay_suite_scaling scaling;
	struct assay_suite_checkpoint checkpoint;
	struct assay_suite_regression regression;
	struct assay_suite_ab ab;
	/* kind "collective": per-size thresholds (src/lib/gate/thresholds_coll.c) */
	bool coll_thresholds_on;
	struct assay_coll_thresholds coll_thresholds;
};
/* Whether a row's "metric/statistic" is selected by a metrics list (empty:
 * every row; an entry is a metric, or metric/statistic). */
bool assay_suite_metric_selected(const struct strlist *metrics, const struct assay_row *r);

/* Provenance expectations ("expect", docs/suite.md): a pattern every
 * node's (or every rank's) output of a case must show, under a name. */
enum assay_expect_per { ASSAY_EXPECT_NODE = 0, ASSAY_EXPECT_RANK = 1 };
struct assay_expect {
	char *name;
	char *pattern; /* a template: placeholders are filled per case */
	enum assay_expect_per per;
};
/* "node" or "rank". */
const char *assay_expect_per_name(enum assay_expect_per per);

struct assay_suite {
	char *file;
	enum assay_suite_kind kind;
	char *name;
	char sha256[65]; /* canonical JSON of the suite and the configs it reads */

	/* Common keys. */
	struct assay_launcher *launcher;
	char *launcher_name;
	char *store;        /* default assay.db */
	char *output;       /* default out */
	char *cluster;      /* NULL: this host's name */
	char *revision;     /* a label, or NULL */
	char *revision_git; /* a source tree to ask `git rev-parse HEAD`, or NULL */
	struct assay_sigset signatures;
	struct strlist secrets; /* variable names */
	/* Patterns (fnmatch, relative to a case folder) of files left as the
	 * workload wrote them: binary artifacts not redacted after a case. */
	struct strlist raw_artifacts;
	struct strlist env; /* NAME=template */
	double timeout_s;   /* 0: none */
	/* The container the cases run in (on: false when none); its strings may
	 * hold placeholders (docs/containers.md). */
	struct assay_container container;
	struct assay_expect *expect; /* in file order */
	size_t n_expect;

	/* kind "command" */
	struct strlist argv;    /* templates */
	char *cwd;              /* template or NULL */
	char *parser;           /* a format name, "auto" or "none" */
	struct strlist results; /* templates of files the parser reads */
	struct strlist logs;    /* templates of log files to watch */
	json_t *context;        /* series fields (values may be templates) */
	bool results_given;     /* results named in the suite (else the default) */
	bool training;          /* parser megatron, primus, megatron-golden or auto */
	bool gpus_given;        /* gpus_per_node named in the suite */
	bool staged;            /* "stages": cases in stage order, each with its stage */

	/* kind "ep" */
	struct assay_registry registry;
	struct assay_sweep sweep;
	struct assay_matrix matrix;
	char *assay_ep; /* the assay-ep binary, or NULL: next to assay, then PATH */

	/* kind "collective" (NULL otherwise) */
	struct assay_suite_coll *coll;

	/* kind "inference" (NULL otherwise): its cases are those of a command
	 * suite (kind ASSAY_SUITE_COMMAND), run against this server. */
	struct assay_suite_infer *infer;
	size_t n_infer; /* 1 ("server"), or the role servers ("servers") in order */

	struct assay_suite_gates gates;

	/* "variants" and "repeat": every case runs once per variant, repeat
	 * times, interleaved (A B A B ...). n_variants 0: none. */
	struct assay_suite_variant *variants;
	size_t n_variants;
	long long repeat; /* 1 by default */

	struct assay_suite_case *cases; /* in run order */
	size_t n_cases;
};

/* Load and validate a suite. ASSAY_USAGE with the file and JSON path. */
assay_err assay_suite_load(const char *file, struct assay_suite *s, struct assay_error *e);
void assay_suite_release(struct assay_suite *s);
const struct assay_suite_case *assay_suite_find_case(const struct assay_suite *s, const char *id);

/* The secrets named by the suite, with their values from the environment.
 * ASSAY_USAGE when one is not set (unless allow_unset), or when a value
 * occurs in the suite or a config file it reads (naming the secret and the
 * JSON path where it occurs). */
assay_err assay_suite_secrets(const struct assay_suite *s, bool allow_unset,
			      struct assay_redactor *r, struct assay_error *e);

/* Everything needed to start one case, with placeholders filled. */
struct assay_case_plan {
	struct strlist argv; /* per-rank program when mpi_ranks > 0 */
	struct strlist env;  /* NAME=VALUE */
	char *cwd;           /* or NULL */
	long long mpi_ranks;
	struct strlist results; /* files to parse, in order */
	struct strlist logs;    /* files to watch */
	char *artifact;         /* ep: the case's artifact file */
	char *timing_file;      /* ep: a timing profile to write first (custom profiles), or NULL */
	json_t *timing;         /* its content */
	json_t *context;        /* series fields for every row */
	const char *parser;
	struct assay_container container; /* this case's, placeholders filled (on: false: none) */
};
/* Plan case c of run run_id whose folder is case_dir. builtins adds values
 * for placeholders (RUN_ID, CASE_ID, CASE_DIR, OUT, NODE, HOST are set
 * here). ASSAY_USAGE when something cannot be resolved. */
assay_err assay_suite_plan(const struct assay_suite *s, const struct assay_suite_case *c,
			   const char *run_id, const char *case_dir, const char *assay_ep,
			   struct assay_case_plan *p, struct assay_error *e);
void assay_case_plan_release(struct assay_case_plan *p);

/* A case's expectations: the patterns with its placeholders filled, compiled. */
struct assay_expect_case {
	char *name;
	char *pattern;
	enum assay_expect_per per;
	void *code; /* assay_pattern_compile() */
};
struct assay_expect_plan {
	struct assay_expect_case *v;
	size_t n;
};
/* Fill and compile the suite's expectations with vars (a case's
 * placeholder values and the built-ins). ASSAY_USAGE naming
 * $.expect[i].pattern when a placeholder has no value or the pattern does
 * not compile. */
assay_err assay_suite_expect_plan(const struct assay_suite *s, const json_t *vars,
				  struct assay_expect_plan *p, struct assay_error *e);
void assay_expect_plan_release(struct assay_expect_plan *p);
/* Whether an expectation of the suite is checked per rank (then each
 * rank's output must be kept apart: docs/suite.md, "Provenance"). */
bool assay_suite_expect_per_rank(const struct assay_suite *s);
/* A case's placeholder values with the run's built-ins (RUN_ID, CASE_ID,
 * CASE_DIR, OUT, NODE, HOST); the caller decrefs. */
json_t *assay_suite_case_vars(const struct assay_suite *s, const struct assay_suite_case *c,
			      const char *run_id, const char *case_dir);

/* The placement fields of a launch spec for case c: its group (the EP
 * shard, or the suite for a command suite), nodes, ranks and GPUs per node,
 * and its platform. */
void assay_suite_place(const struct assay_suite *s, const struct assay_suite_case *c,
		       struct assay_launch_spec *spec);

/* The message sizes a collective suite's cases sweep, as nccl-tests steps
 * them (min, min*factor, ... <= max): how many, in *out (caller frees). */
size_t assay_suite_coll_sizes(const struct assay_suite *s, long long **out);
/* Before a collective suite runs locally (no container): every case's
 * program is there and executable. ASSAY_INFRA naming it otherwise. */
assay_err assay_suite_coll_check(const struct assay_suite *s, struct assay_error *e);

/* Placeholders: "{NAME}" is replaced by vars[NAME] (a string, number or
 * boolean); "{{" and "}}" are literal braces; a "{" that does not start a
 * placeholder is kept. Returns 0, or -1 with *missing (caller frees) the
 * first name without a value. */
int assay_template_expand(const char *tmpl, const json_t *vars, struct sbuf *out, char **missing);
/* The names of the placeholders a built-in provides at run time. */
extern const char *const assay_template_builtins[];

#endif
