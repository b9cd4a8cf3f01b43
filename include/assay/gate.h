/* Gates: thresholds on measurement rows, and the training-run gates (run
 * health, loss curve, convergence, scaling efficiency, checkpoint-resume
 * continuity) on parsed training results. Every gate appends verdicts
 * (PASS, FAIL, RECORD, SKIPPED) that `assay gate`, reports and JUnit render.
 * File formats and rules: docs/gate.md. */
#ifndef ASSAY_GATE_H
#define ASSAY_GATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/cfg.h"
#include "assay/error.h"
#include "assay/measure.h"
#include "assay/training.h"

/* ---- verdicts ---- */

enum assay_verdict_status {
	ASSAY_VERDICT_PASS,
	ASSAY_VERDICT_FAIL,
	ASSAY_VERDICT_RECORD,  /* measured, not judged: no spec, info, or enforcement off */
	ASSAY_VERDICT_SKIPPED, /* an optional metric that is missing */
};
#define ASSAY_VERDICT_COUNT 4

struct assay_verdict {
	enum assay_verdict_status status;
	char *gate;   /* "threshold", "run", "loss-curve", "convergence", "scaling", "checkpoint" */
	char *metric; /* "tflops_per_gpu/steady_mean", "lm_loss/slope", ... */
	double value; /* NAN when there is none (a missing metric) */
	char *unit;   /* "" when none */
	char *spec;   /* what was required: ">= 480", "<= 0", "info"; "" when nothing */
	char *message;    /* why, in words */
	char *series_key; /* the series judged (hex key of a row), NULL when none */
	bool acked;       /* a regression let through by an ack (or expected) annotation */
};

struct assay_verdicts {
	struct assay_verdict *v;
	size_t n, alloc;
};
#define ASSAY_VERDICTS_INIT                                                                        \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* "PASS", "FAIL", "RECORD", "SKIPPED". */
const char *assay_verdict_status_name(enum assay_verdict_status s);
/* The status of a name above (case-insensitive); -1 when unknown. */
int assay_verdict_status_parse(const char *name);
/* Append a verdict (series_key NULL, acked false) and return it. */
struct assay_verdict *assay_verdicts_add(struct assay_verdicts *vs,
					 enum assay_verdict_status status, const char *gate,
					 const char *metric, double value, const char *unit,
					 const char *spec, const char *fmt, ...) ASSAY_PRINTF(8, 9);
/* Append a copy of v. */
void assay_verdicts_push_copy(struct assay_verdicts *vs, const struct assay_verdict *v);
void assay_verdicts_release(struct assay_verdicts *vs);
/* ASSAY_GATE_FAILED when any verdict is FAIL, else ASSAY_OK. */
assay_err assay_verdicts_outcome(const struct assay_verdicts *vs);
/* counts[status] for every status. */
void assay_verdicts_count(const struct assay_verdicts *vs, size_t counts[ASSAY_VERDICT_COUNT]);
/* {"status", "gate", "metric", "value" (null when none), "unit", "spec", "message"},
 * plus "series_key" when there is one and "acked": true when acked. */
json_t *assay_verdict_to_json(const struct assay_verdict *v);

/* ---- thresholds (src/lib/gate/thresholds.c) ---- */

enum assay_threshold_kind {
	ASSAY_TH_MIN,
	ASSAY_TH_MAX,
	ASSAY_TH_WITHIN,
	ASSAY_TH_INFO,
	ASSAY_TH_MIN_RATIO, /* CVS: value / the reference metric's value >= v */
};

struct assay_threshold {
	char *metric;
	char *statistic; /* NULL: the metric's default statistic */
	enum assay_threshold_kind kind;
	double value;     /* unused for info */
	double tolerance; /* relative to |value|; 0 when absent */
	bool optional;
	bool missing_fails; /* kind info too fails when the metric is missing (CVS files) */
	/* CVS files, kind "min_every_match": the least of the matches in the
	 * log's tail (cvs_tail_min) at least value; SKIPPED when none. */
	bool every_match;
	char path[256]; /* JSON path of the spec, for messages */
	/* CVS files: the statistics CVS's value is read from, in order
	 * ("summary", then "cvs_mean"), then assay's own for rows that have
	 * neither (not with cvs_labels); NULL-terminated, static. */
	const char *cvs_stats[5];
	char *reference; /* min_ratio: the metric value is a ratio to */
	const char *ref_stats[5];
	/* CVS inference files: a spec CVS never judges (RECORD with this
	 * reason), and the reason an optional one is missing (static). */
	const char *record_why;
	const char *missing_why;
	/* CVS files: the metric (static) and statistics read instead when no
	 * row has metric with cvs_stats: TorchTitan's value of a name Megatron
	 * shares (docs/gate.md, "TorchTitan and MaxText"). */
	const char *alt_metric;
	const char *alt_stats[5];
};

struct assay_threshold_cell {
	char *key; /* "default" or the canonical combo key */
	struct assay_threshold *v;
	size_t n;
};

struct assay_thresholds {
	char *file;
	bool cvs; /* read from a CVS threshold file: cells at "$", not "$.cells" */
	/* Judge CVS files on CVS's values only (`assay gate --as cvs`): no
	 * fallback to assay's own statistics. */
	bool cvs_labels;
	bool enforce;
	struct assay_threshold_cell *cells;
	size_t n_cells;
	int cvs_infer; /* enum assay_cvs_infer: a CVS inference file, and whose rules */
};

/* ---- CVS inference threshold files (thresholds_infer.c, docs/gate.md) ---- */

enum assay_cvs_infer { ASSAY_CVS_INFER_NONE, ASSAY_CVS_INFER_VLLM, ASSAY_CVS_INFER_ATOM };
/* client.*, gpu.*, prom.* or scaling.* (a metric of an inference file). */
bool assay_cvs_infer_metric_name(const char *name);
/* A cell names client.output_tput_per_gpu or scaling.efficiency_pct. */
bool assay_cvs_infer_is_atom(const json_t *doc);
/* Fill th's metric, statistics and CVS's missing/record rules for name. */
void assay_cvs_infer_threshold(const char *name, int flavor, struct assay_threshold *th);
/* min_ratio's reference: an inference metric. */
void assay_cvs_infer_reference(const char *name, struct assay_threshold *th);
/* Whether text is an inference cell key (it has ISL=). */
bool assay_combo_is_infer(const char *text);
/* "ISL=1024,OSL=1024,TP=8,CONC=16" in CVS's order (ISL, OSL, TP, PP, DP,
 * NNODES, CONC; any case of the names); false (e) when malformed. */
bool assay_combo_infer_canonical(const char *text, char *out, size_t size, struct assay_error *e);
/* The parse context of a canonical inference key: {isl, osl, tp, pp, dp,
 * nnodes} as given (new reference). */
json_t *assay_combo_infer_context(const char *canon);
/* ATOM's tier rules on the cell's specs (FAIL a tier without a spec or
 * without a metric the rows have; SKIPPED scaling on one node). */
void assay_gate_cvs_atom_tiers(const struct assay_thresholds *t,
			       const struct assay_threshold_cell *cell,
			       const struct assay_rows *rows, struct assay_verdicts *out);

assay_err assay_thresholds_load(const char *file, struct assay_thresholds *t,
				struct assay_error *e);
assay_err assay_thresholds_parse(const json_t *doc, const char *file, struct assay_thresholds *t,
				 struct assay_error *e);
void assay_thresholds_release(struct assay_thresholds *t);
/* CVS threshold files (src/lib/gate/thresholds_cvs.c): whether doc is one
 * (no "cells", a top-level "_comment" or combo key), and its reader, which
 * assay_thresholds_parse() calls for such a doc. */
bool assay_thresholds_cvs_detect(const json_t *doc);
assay_err assay_thresholds_cvs_parse(const json_t *doc, const char *file,
				     struct assay_thresholds *t, struct assay_error *e);

/* A combo key "MBS=<m>,GBS=<g>,PRECISION=<p>" (any order, any case of the
 * precision) in canonical form "MBS=4,GBS=128,PRECISION=FP8"; false when
 * malformed (why in e, without file). */
bool assay_combo_canonical(const char *text, char *out, size_t size, struct assay_error *e);
/* The cell for a canonical combo key: its own, else "default", else NULL. */
const struct assay_threshold_cell *assay_thresholds_cell(const struct assay_thresholds *t,
							 const char *combo);
/* With enforcement on, a combo without a cell (and no default cell) and a
 * cell that no combo uses are config errors (ASSAY_USAGE naming the file and
 * the cell's JSON path). combos are canonical keys. */
assay_err assay_thresholds_check_combos(const struct assay_thresholds *t, const char *const *combos,
					size_t n, struct assay_error *e);
/* Before judging rows under combo (NULL: "default"): combo has a cell of
 * its own (an unknown combo is ASSAY_USAGE naming $.cells and the cells
 * there are), and every metric of that cell is one a row has or a parser of
 * the format table produces (a misspelt one is ASSAY_USAGE at the
 * threshold's path, not "missing"). */
assay_err assay_thresholds_check_metrics(const struct assay_thresholds *t, const char *combo,
					 const struct assay_rows *rows, struct assay_error *e);
/* Whether a threshold of t reads the older library's rows
 * (assay_train_cvs_old_rows()): kind "min_every_match". */
bool assay_thresholds_every_match(const struct assay_thresholds *t);
/* The statistic a threshold on metric reads when it names none (training
 * metrics: docs/gate.md); NULL for metrics it does not know. */
const char *assay_threshold_default_statistic(const char *metric);
/* Verdicts for rows under combo's cell: one per matching row, FAIL
 * "missing" for a missing metric (SKIPPED when optional), RECORD for rows no
 * threshold names. ASSAY_USAGE for a malformed combo, a combo without a cell
 * while enforcing, or a threshold without a statistic that matches rows of
 * several statistics. */
assay_err assay_gate_thresholds(const struct assay_thresholds *t, const char *combo,
				const struct assay_rows *rows, struct assay_verdicts *out,
				struct assay_error *e);

/* ---- collective thresholds per message size (thresholds_coll.c) ---- */

/* One limit: busbw at least value (GB/s), or time at most value (us), for
 * one operation, message size and placement. */
struct assay_coll_threshold {
	char *operation; /* "all_reduce" (a CVS "all_reduce_perf" without "_perf") */
	long long bytes; /* the message size, as nccl-tests prints it */
	bool max_time;   /* false: busbw/mean >= value; true: time_us/mean <= value */
	double value;
	char placement[16]; /* "in-place" or "out-of-place" */
	char path[256];     /* JSON path of the value, for messages */
};

struct assay_coll_thresholds {
	char *file;
	bool cvs;     /* a ROCm/cvs rccl config (or its "results" object) */
	bool enforce; /* false: every judged size is RECORD (CVS verify_bus_bw "False") */
	/* CVS: a size fails below tolerance x its busbw (0.95; 1 otherwise),
	 * and its dip checks (cvs_params verify_bw_dip, verify_lat_dip). */
	double tolerance;
	bool bw_dip, lat_dip;
	struct assay_coll_threshold *v;
	size_t n;
};

/* Load a per-size thresholds file: assay's shape or CVS's rccl shape
 * (docs/collectives.md, "Thresholds"). ASSAY_USAGE naming the file and the
 * JSON path of what is wrong. */
assay_err assay_coll_thresholds_load(const char *file, struct assay_coll_thresholds *t,
				     struct assay_error *e);
assay_err assay_coll_thresholds_parse(const json_t *doc, const char *file,
				      struct assay_coll_thresholds *t, struct assay_error *e);
void assay_coll_thresholds_release(struct assay_coll_thresholds *t);
/* Whether the file has a threshold for operation. */
bool assay_coll_thresholds_has(const struct assay_coll_thresholds *t, const char *operation);
/* Verdicts for one case of operation whose sweep has sizes[0..n) (NULL: any
 * size): per threshold PASS or FAIL (RECORD when not enforced), FAIL
 * "missing" for a swept size without a row, SKIPPED for a size the case
 * does not sweep; RECORD for a swept size without a threshold (busbw of the
 * judged placement). Every #wrong > 0 is a FAIL ("correctness"), enforced or
 * not. t may be NULL: then only the correctness verdicts. */
void assay_gate_coll_thresholds(const struct assay_coll_thresholds *t, const char *operation,
				const long long *sizes, size_t n, const struct assay_rows *rows,
				struct assay_verdicts *out);
/* The correctness verdicts alone (wrong/count > 0 rows): how many FAIL were
 * added. */
size_t assay_gate_coll_correctness(const struct assay_rows *rows, struct assay_verdicts *out);
/* "1048576" -> 1048576; "1K", "4M", "1G" (x1024, as nccl-tests' -b/-e);
 * false when malformed or negative. */
bool assay_coll_size_parse(const char *text, long long *out);
/* The placement CVS judges for an operation: out-of-place for alltoall,
 * in-place for the others. */
const char *assay_coll_judged_placement(const char *operation);

/* ---- training-run gates ---- */

/* Run health (health.c): complete, no NaN/Inf, some metrics. */
void assay_gate_run(const struct assay_train_result *r, struct assay_verdicts *out);

/* Loss curve (loss_curve.c): least-squares slope of lm loss against step
 * over the steps in milestones plus every sample_every-th step. */
struct assay_loss_curve_spec {
	double max_slope;
	long long sample_every; /* default 1 */
	long long *milestones;
	size_t n_milestones;
	bool enforce; /* default true; false: record only */
};
int assay_loss_curve_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				struct assay_loss_curve_spec *s);
void assay_loss_curve_spec_release(struct assay_loss_curve_spec *s);
/* Least-squares slope of y over x; false when fewer than 2 distinct x. */
bool assay_lsq_slope(const double *x, const double *y, size_t n, double *slope);
void assay_gate_loss_curve(const struct assay_loss_curve_spec *s,
			   const struct assay_train_result *r, struct assay_verdicts *out);

/* Convergence (convergence.c): the final loss against target_value, and the
 * first step (and time) at which the loss reached it. */
enum assay_loss_source { ASSAY_LOSS_AUTO, ASSAY_LOSS_EVAL, ASSAY_LOSS_TRAIN };
struct assay_convergence_spec {
	double target_value;
	enum assay_loss_source source; /* auto: eval loss when the log has one */
	bool enforce;
};
int assay_convergence_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				 struct assay_convergence_spec *s);
void assay_gate_convergence(const struct assay_convergence_spec *s,
			    const struct assay_train_result *r, struct assay_verdicts *out);

/* Scaling efficiency (scaling.c), from tokens per second, never TFLOP/s:
 * (total / (nodes / baseline_nodes)) / baseline_tokens_per_s * 100. */
struct assay_scaling_spec {
	long long nodes, baseline_nodes;
	long long gpus;               /* GPUs in the run; 0: the run's world size */
	double baseline_tokens_per_s; /* total over all GPUs; 0: record only */
	double min_efficiency;        /* percent; NAN: record only */
	bool enforce;
};
int assay_scaling_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
			     struct assay_scaling_spec *s);
/* Efficiency in percent; NAN when the baseline is 0. */
double assay_scaling_efficiency(double total_tokens_per_s, long long nodes,
				long long baseline_nodes, double baseline_tokens_per_s);
void assay_gate_scaling(const struct assay_scaling_spec *s, const struct assay_train_result *r,
			struct assay_verdicts *out);

/* Checkpoint-resume continuity (checkpoint.c) between the run that saved and
 * the run that resumed. */
struct assay_checkpoint_spec {
	double loss_rtol;          /* resume loss may exceed the saved step's by this, relative */
	double overlap_rtol;       /* max relative difference on shared steps; NAN: record only */
	long long last_checkpoint; /* -1: the save log's last saved checkpoint */
	bool enforce;
};
int assay_checkpoint_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				struct assay_checkpoint_spec *s);
void assay_gate_checkpoint(const struct assay_checkpoint_spec *s,
			   const struct assay_train_result *save,
			   const struct assay_train_result *resume, struct assay_verdicts *out);

/* A gate spec file (spec.c): any of "loss_curve", "convergence", "scaling",
 * "checkpoint", each as above. */
struct assay_gate_spec {
	char *file;
	bool has_loss_curve, has_convergence, has_scaling, has_checkpoint;
	struct assay_loss_curve_spec loss_curve;
	struct assay_convergence_spec convergence;
	struct assay_scaling_spec scaling;
	struct assay_checkpoint_spec checkpoint;
};
assay_err assay_gate_spec_load(const char *file, struct assay_gate_spec *s, struct assay_error *e);
assay_err assay_gate_spec_parse(const json_t *doc, const char *file, struct assay_gate_spec *s,
				struct assay_error *e);
void assay_gate_spec_release(struct assay_gate_spec *s);

/* ---- CVS's training-log error dictionaries (errors_cvs.c) ---- */

/* Named patterns a log must not match: ROCm/cvs's Megatron dictionary
 * (case-sensitive, as megatron_lib.py searches), or a config's
 * training.error_patterns, which replaces it (case-insensitive, as CVS's
 * one reader of that key searches). docs/gate.md, "Error patterns". */
struct assay_error_dict {
	char **names, **patterns;
	void **codes; /* compiled */
	size_t n;
	bool icase;
	char source[64]; /* "cvs megatron", or the file */
};
void assay_error_dict_cvs_megatron(struct assay_error_dict *d);
/* A JSON object of name -> pattern, or a CVS config whose
 * training.error_patterns is one. ASSAY_USAGE naming the file and path. */
assay_err assay_error_dict_load(const char *file, struct assay_error_dict *d,
				struct assay_error *e);
void assay_error_dict_release(struct assay_error_dict *d);
/* A FAIL verdict ("run", "errors") per pattern that matches some line of
 * data, naming its first line; returns how many matched. */
size_t assay_gate_error_dict(const struct assay_error_dict *d, const char *data, size_t len,
			     struct assay_verdicts *out);

/* ---- CVS's TorchTitan and MaxText values (cvs_train.c) ---- */

/* A combo key: MBS=<m>,GBS=<g>,PRECISION=<p> in canonical form (as
 * assay_combo_canonical()), or, when it names no MBS, a CVS sweep name of
 * NAME=VALUE pairs (MaxText's NNODES=..,STEPS=..,...) kept as written, as
 * CVS compares it. false (why in e) otherwise. */
bool assay_combo_key(const char *text, char *out, size_t size, struct assay_error *e);
/* th with its alt_metric when the rows have th's metric under none of its
 * statistics but the alternate's (a shallow copy in *tmp), else th. */
const struct assay_threshold *assay_threshold_cvs_alt(const struct assay_threshold *th,
						      const struct assay_rows *rows,
						      struct assay_threshold *tmp);
/* Rows CVS computes from the cell as well as the log: TorchTitan's
 * tokens_per_sec_x_gbs (tokens/s x the cell's GBS, the shipped files'
 * training.tokens_per_gpu) and MaxText's tokens_per_sec_total
 * (tokens/s/GPU x the cell's NNODES x 8). combo may be NULL. */
void assay_cvs_train_rows(const char *combo, struct assay_rows *rows);
/* The run checks CVS makes on a TorchTitan or MaxText log's rows: no
 * NaN/Inf, every value readable, and complete: MaxText's step STEPS-1 (the
 * cell's STEPS=N), TorchTitan's step final_step (CVS's configured
 * training_iterations; 0: not checked). Nothing when no such rows; true
 * when a check failed (the run failed, as a log's run health). */
bool assay_gate_cvs_train(const char *combo, long long final_step, const struct assay_rows *rows,
			  struct assay_verdicts *out);
/* CVS's TorchTitan dictionary (torchtitan_lib.py training_err_dict, the
 * Megatron one searched with re.I) and MaxText's (_TRAINING_ERR_PATTERNS,
 * re.I). */
void assay_error_dict_cvs_torchtitan(struct assay_error_dict *d);
void assay_error_dict_cvs_maxtext(struct assay_error_dict *d);

#endif
