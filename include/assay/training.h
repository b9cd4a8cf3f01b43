/* Training runs: a Megatron-LM or Primus log (or a Megatron golden-values
 * file) parsed into per-step records and a result (completion, NaN/Inf,
 * warm-up, memory, checkpoints, evaluation), the run's outcome, and the
 * measurement rows derived from it. Methodology: docs/training.md. */
#ifndef ASSAY_TRAINING_H
#define ASSAY_TRAINING_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assay/error.h"
#include "assay/measure.h"
#include "assay/parse.h"

/* Per-step metrics. Values are doubles as logged; a metric is present when
 * its bit (1u << id) is set in has (instantaneous) or has_avg (the running
 * average the log prints after a slash or as "(avg Y)"). */
enum assay_train_metric {
	ASSAY_TM_ELAPSED_MS, /* elapsed time per iteration (ms) */
	ASSAY_TM_TFLOPS,     /* throughput (or compute) per GPU, TFLOP/s/GPU */
	ASSAY_TM_TOKENS,     /* tokens/s/GPU (logged, or derived: docs/training.md) */
	ASSAY_TM_LM_LOSS,    /* lm loss */
	ASSAY_TM_GRAD_NORM,  /* grad norm */
	ASSAY_TM_LR,         /* learning rate */
	ASSAY_TM_LOSS_SCALE, /* loss scale */
	ASSAY_TM_MEM_RATIO,  /* HIP memory usage ratio (0..1), or ROCm Megatron "mem usages" */
	ASSAY_TM_MEM_GB,     /* HIP memory in use, GB */
	ASSAY_TM_ROCM_RATIO, /* ROCm memory usage ratio (0..1) */
	ASSAY_TM_ROCM_GB,    /* ROCm memory in use, GB */
	ASSAY_TM_COUNT
};
/* Metrics with a running average slot (avg[]). */
#define ASSAY_TM_AVG_COUNT 3

struct assay_train_step {
	long long step;
	long long total;            /* the N of "iteration S/N"; -1 when absent */
	long line;                  /* 1-based line in the log; 0 for golden files */
	long long consumed_samples; /* -1 when absent */
	long long gbs;              /* global batch size; -1 when absent */
	long long skipped;          /* number of skipped iterations; -1 when absent */
	long long nan_iters;        /* number of nan iterations; -1 when absent */
	double v[ASSAY_TM_COUNT];
	double avg[ASSAY_TM_AVG_COUNT];
	uint32_t has, has_avg;
	uint32_t derived;   /* metrics computed rather than read (tokens) */
	uint32_t nonfinite; /* metrics whose value is NaN or Inf */
	bool warmup;        /* excluded from the steady state */
};

enum assay_ckpt_op { ASSAY_CKPT_SAVE, ASSAY_CKPT_LOAD };

/* A checkpoint saved ("successfully saved checkpoint from iteration N") or
 * loaded ("successfully loaded checkpoint ... at iteration N"), with the
 * duration of the save-checkpoint / load-checkpoint timer that followed. */
struct assay_train_ckpt {
	enum assay_ckpt_op op;
	long long iteration; /* -1 when only the timer line was seen */
	double ms;           /* NAN when no timer line */
	long line;
};

/* "validation loss at iteration N | lm loss value: X" (N = -1 for the
 * end-of-training evaluation). */
struct assay_train_eval {
	long long step;
	double loss;
	long line;
};

/* Parse options; assay_train_opts_init() sets the defaults. */
struct assay_train_opts {
	long long warmup_steps; /* >= 0: exactly this many; < 0: the rule below */
	long long warmup_min;   /* rule: max(warmup_min, ceil(warmup_percent% of steps)) */
	double warmup_percent;  /* default 10 */
	long long seq_len;      /* for derived tokens/s/GPU; 0 unknown */
	long long world_size;   /* GPUs in the run; 0: from the log (Primus rank-R/W) */
};
void assay_train_opts_init(struct assay_train_opts *o);
/* The warm-up setting as text: "N" (exactly N steps) or "MIN,PCT%" (the rule;
 * the % sign is optional). false when malformed. */
bool assay_train_warmup_parse(const char *text, struct assay_train_opts *o);

struct assay_train_result {
	const char *format;             /* "megatron", "primus" or "megatron-golden" */
	struct assay_train_step *steps; /* unique steps in log order */
	size_t n_steps, alloc_steps;
	size_t duplicates; /* repeated steps ignored (the first copy counts) */
	size_t warmup;     /* leading steps excluded from the steady state */

	/* Completion: "iteration N/N" seen, the torchrun marker seen. */
	bool complete_iteration, complete_marker;
	long marker_line;

	/* NaN or Inf in any metric of any line. */
	size_t n_nonfinite;
	long long nonfinite_step; /* the first one: step (-1 outside iteration lines) */
	long nonfinite_line;
	char nonfinite_label[64];
	char nonfinite_text[32];

	long long world_size; /* from opts or the log; 0 unknown */
	bool tokens_derived;  /* tokens/s/GPU computed from gbs, seq_len, elapsed */

	/* "[Rank R] (after N iterations) memory (MB)" lines: maxima, NAN when none. */
	size_t n_mem_lines;
	double mem_max_allocated_mb, mem_max_reserved_mb;

	struct assay_train_ckpt *ckpts;
	size_t n_ckpts, alloc_ckpts;
	struct assay_train_eval *evals;
	size_t n_evals, alloc_evals;

	/* Summary lines some launch scripts append ("throughput per GPU: X", ...);
	 * bits of summary_has by metric. */
	double summary[ASSAY_TM_COUNT];
	uint32_t summary_has;
};

/* The formats this module parses, NULL-terminated: megatron, primus,
 * megatron-golden. */
extern const char *const assay_train_formats[];
bool assay_train_format_known(const char *name);
/* The training format of data ("primus", "megatron", "megatron-golden"), or NULL. */
const char *assay_train_detect(const char *data, size_t len);

/* Parse len bytes (need not be NUL-terminated) as format ("auto" detects;
 * ASSAY_USAGE when it cannot, or for a malformed golden file). A text log
 * never fails to parse: whatever it lacks shows in the result and in
 * assay_train_outcome(). file names the input in errors. */
assay_err assay_train_parse(const char *format, const char *data, size_t len,
			    const struct assay_train_opts *o, const char *file,
			    struct assay_train_result *r, struct assay_error *e);
void assay_train_result_release(struct assay_train_result *r);

/* The run's outcome: ASSAY_WORKLOAD_FAILED when it is incomplete (no
 * "iteration N/N" and no torchrun marker) or a value is NaN/Inf,
 * ASSAY_NO_METRICS when it logged no step, else ASSAY_OK (the worst when
 * several hold). */
assay_err assay_train_outcome(const struct assay_train_result *r);
bool assay_train_incomplete(const struct assay_train_result *r);
/* One line per problem ("incomplete: ...", "lm loss is nan at step 7 (line
 * 42)", "no iteration lines"), "" when the outcome is ok; into buf. */
const char *assay_train_outcome_text(const struct assay_train_result *r, char *buf, size_t size);

/* The steady-state steps: [r->warmup, r->n_steps). */
size_t assay_train_steady_count(const struct assay_train_result *r);
/* Mean and median of the finite values of metric m over the steady steps;
 * returns how many there were (0: *mean and *median untouched). */
size_t assay_train_steady(const struct assay_train_result *r, enum assay_train_metric m,
			  double *mean, double *median);
/* The running average printed on the last step that has one; false if none. */
bool assay_train_running_avg(const struct assay_train_result *r, enum assay_train_metric m,
			     double *out);
/* The last finite value of m over all steps (and its step); false if none. */
bool assay_train_last(const struct assay_train_result *r, enum assay_train_metric m, double *out,
		      long long *step);
/* The last saved checkpoint's iteration, the last loaded one; -1 when none. */
long long assay_train_last_saved(const struct assay_train_result *r);
long long assay_train_loaded(const struct assay_train_result *r);

/* Measurement rows (docs/training.md lists metric, statistic, unit and
 * direction), stamped and finished with assay_parse_stamp(o). */
assay_err assay_train_rows(const struct assay_train_result *r, const struct assay_parse_opts *o,
			   struct assay_rows *out, struct assay_error *e);

/* Metric names, units and directions as in the rows: "elapsed_ms_per_iter",
 * "ms", ASSAY_DIR_LOWER, ... */
const char *assay_train_metric_name(enum assay_train_metric m);
const char *assay_train_metric_unit(enum assay_train_metric m);
enum assay_direction assay_train_metric_direction(enum assay_train_metric m);

/* The per-step record as a JSON object (`assay parse --steps`). */
json_t *assay_train_step_to_json(const struct assay_train_step *s);

/* Format-table entry points (src/lib/parse/formats.c). */
assay_err assay_parse_megatron(const char *data, size_t len, const struct assay_parse_opts *o,
			       struct assay_rows *out, struct assay_error *e);
assay_err assay_parse_primus(const char *data, size_t len, const struct assay_parse_opts *o,
			     struct assay_rows *out, struct assay_error *e);
assay_err assay_parse_megatron_golden(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e);
/* Their metrics ("metric/statistic", the format table's metrics). */
extern const char *const assay_megatron_metrics[];
extern const char *const assay_primus_metrics[];
extern const char *const assay_megatron_golden_metrics[];
bool assay_detect_megatron(const char *data, size_t len);
bool assay_detect_primus(const char *data, size_t len);
bool assay_detect_megatron_golden(const char *data, size_t len);

#endif
