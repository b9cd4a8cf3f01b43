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
	long long index;            /* 0-based among the log's unique steps */
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
	uint32_t cvs_label; /* metrics read from a label ROCm/cvs's patterns read too */
	uint32_t nonfinite; /* metrics whose value is NaN or Inf */
	bool warmup;        /* excluded from the steady state */
	/* Sums over every unique step up to this one (for the steady state of a
	 * log whose steps were thinned): finite values of the first
	 * ASSAY_TM_AVG_COUNT metrics and how many there were. */
	double cum[ASSAY_TM_AVG_COUNT];
	long long cum_n[ASSAY_TM_AVG_COUNT];
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
	long long world_size;   /* GPUs in the run; 0: from the log (docs/training.md) */
	/* Steps kept in r->steps; beyond it an evenly spaced sample is kept
	 * (0: ASSAY_TRAIN_KEEP_STEPS). Everything else is computed over all steps. */
	size_t keep_steps;
	/* Unique steps whose warm-up metrics are recorded for
	 * assay_train_refine() (0: ASSAY_TRAIN_WARM_RECORD). */
	size_t warm_record;
	bool no_errors; /* do not look for error signatures (the watcher did) */
	/* Called once for every unique step as it is read (warmup is not known
	 * yet: see assay_train_result.warmup_logged). */
	void (*on_step)(const struct assay_train_step *s, void *arg);
	void *on_step_arg;
};
#define ASSAY_TRAIN_KEEP_STEPS 65536
/* Unique steps whose warm-up metrics are recorded (6 MiB). */
#define ASSAY_TRAIN_WARM_RECORD 262144
/* Lines longer than this are scanned in pieces (docs/training.md). */
#define ASSAY_TRAIN_LINE_CAP (1u << 20)
void assay_train_opts_init(struct assay_train_opts *o);
/* The warm-up setting as text: "N" (exactly N steps) or "MIN,PCT%" (the rule;
 * the % sign is optional). false when malformed. */
bool assay_train_warmup_parse(const char *text, struct assay_train_opts *o);

/* How Megatron-LM said it stopped training (docs/training.md). */
enum assay_train_exit {
	ASSAY_TRAIN_EXIT_NONE,
	ASSAY_TRAIN_EXIT_DONE,     /* "[after training is done]" */
	ASSAY_TRAIN_EXIT_INTERVAL, /* "exiting program at iteration N" (--exit-interval) */
	ASSAY_TRAIN_EXIT_DURATION, /* "exiting program after X minutes" (--exit-duration-in-mins) */
	ASSAY_TRAIN_EXIT_SIGNAL,   /* "exiting program after receiving SIGTERM." */
};

/* An error signature (the watcher's built-in table, include/assay/watch.h)
 * found in the log: the first line of each signature, and how many lines. */
struct assay_train_error {
	char signature[40], family[24];
	long line;
	size_t count;
	char text[208]; /* the first matching line, cut */
};

struct assay_train_result {
	const char *format;             /* "megatron", "primus" or "megatron-golden" */
	struct assay_train_step *steps; /* unique steps in log order (a sample when stride > 1) */
	size_t n_steps, alloc_steps;
	size_t n_logged;      /* unique steps in the log (n_steps when none was thinned out) */
	size_t keep;          /* at most this many in steps */
	long long stride;     /* steps holds the unique steps whose index is a multiple of it */
	size_t duplicates;    /* repeated steps ignored (the first copy counts) */
	size_t warmup;        /* leading kept steps excluded from the steady state */
	size_t warmup_logged; /* the same among all unique steps (index < warmup_logged) */

	/* Completion: "iteration N/N" seen, the torchrun marker seen, an exit line. */
	bool complete_iteration, complete_marker;
	long marker_line;
	enum assay_train_exit exit_kind;
	long exit_line;
	long long exit_iteration; /* INTERVAL: N; -1 otherwise */

	/* Megatron's counters on the iteration lines, over every logged step. */
	long long nan_iters_total, skipped_total;
	size_t nan_lines, skipped_lines; /* lines that printed them */
	long long nan_first_step;        /* the first line with a non-zero nan count */
	long nan_first_line;

	/* Aggregates over every unique step (thinned ones included). */
	double agg_max[ASSAY_TM_COUNT], agg_last[ASSAY_TM_COUNT], agg_avg_last[ASSAY_TM_AVG_COUNT];
	long long agg_last_step[ASSAY_TM_COUNT];
	size_t agg_n[ASSAY_TM_COUNT];
	uint32_t agg_has_avg;
	long double agg_sum[ASSAY_TM_AVG_COUNT];
	long long agg_sum_n[ASSAY_TM_AVG_COUNT];
	/* Thinned logs: exact value counts of those metrics (private), and the
	 * warm-up steps' sums once assay_train_refine() took them out. */
	void *counts;
	bool refined;
	long double warm_sum[ASSAY_TM_AVG_COUNT];
	long long warm_n[ASSAY_TM_AVG_COUNT];
	/* Those metrics of the first ASSAY_TRAIN_WARM_RECORD unique steps (NaN
	 * where absent or not finite), so that the warm-up of a log up to ten
	 * times that long comes out of them instead of a second read. */
	double (*warm_rec)[ASSAY_TM_AVG_COUNT];
	size_t n_warm_rec, alloc_warm_rec, warm_cap;

	/* Error signatures found (none with opts.no_errors). */
	struct assay_train_error *errors;
	size_t n_errors, alloc_errors;

	/* Lines longer than ASSAY_TRAIN_LINE_CAP, scanned in pieces. */
	size_t long_lines;
	long long_line_first;
	/* The log's last line had no line end and did not close with the "|"
	 * Megatron-LM and Primus print after every field: the log was cut
	 * there, and only its error signatures were read. Its number; 0 none. */
	long cut_line;
	/* Format "auto" and no line told it, but error signatures matched (a
	 * crash before training): format says "megatron", the shared dialect. */
	bool format_unknown;
	/* With --format megatron, the first line only Primus prints (its fields
	 * were not read); 0 none. */
	long other_family_line;

	/* NaN or Inf in any metric of any line. */
	size_t n_nonfinite;
	long long nonfinite_step; /* the first one: step (-1 outside iteration lines) */
	long nonfinite_line;
	char nonfinite_label[64];
	char nonfinite_text[32];

	long long world_size; /* from opts or the log; 0 unknown */
	long world_line;      /* the log line that named it; 0 none */
	long long seq_len;    /* the sequence length given (opts), 0 none */
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
	long summary_line[ASSAY_TM_COUNT]; /* the line of each (the last one) */
	/* The last iteration line's "mem usages" (ROCm fork) and its line:
	 * CVS's summary pattern matches it too. */
	double mem_iter_last;
	long mem_iter_line;
	long n_lines; /* lines in the log (0 for a golden file) */

	/* ROCm/cvs's fallback when a summary is not in the log's last lines
	 * (assay_train_cvs_value()): per metric, over the unique steps, the
	 * first finite value, the sum and count of every finite value; [0] of
	 * every value assay reads, [1] of those read from a label CVS reads. */
	double cvs_first[2][ASSAY_TM_COUNT], cvs_sum[2][ASSAY_TM_COUNT];
	long long cvs_n[2][ASSAY_TM_COUNT];
	/* The same of the summary lines CVS's per-iteration patterns match
	 * too ("tokens/GPU/s:", "mem usages:"), wherever they are. */
	double cvs_line_first[ASSAY_TM_COUNT], cvs_line_sum[ASSAY_TM_COUNT];
	long long cvs_line_n[ASSAY_TM_COUNT];
	/* ROCm/cvs's older library (megatron_training_lib.py): per metric,
	 * the matches of its pattern in the log's last ASSAY_CVS_TAIL_LINES
	 * lines, the least of them, and those float() cannot read. */
	long long cvs_old_n[ASSAY_TM_COUNT];
	double cvs_old_min[ASSAY_TM_COUNT];
	long long cvs_old_bad[ASSAY_TM_COUNT];
};

/* Whether name is a training format: a row of the format table
 * (include/assay/parse.h) marked training: megatron, primus, megatron-golden. */
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

/* Streaming: a text log fed in pieces of any size, in memory bounded by
 * ASSAY_TRAIN_LINE_CAP and opts.keep_steps whatever the log's size. format
 * is "megatron", "primus" or "auto" (named at the end by what the log
 * holds, docs/training.md). r is initialized here. */
struct assay_train_stream;
struct assay_train_stream *assay_train_stream_new(const char *format,
						  const struct assay_train_opts *o,
						  struct assay_train_result *r);
void assay_train_stream_feed(struct assay_train_stream *st, const char *data, size_t len);
/* End of input: finishes r and frees st. ASSAY_USAGE when format was "auto"
 * and nothing in the log is Megatron-LM's or Primus's. */
assay_err assay_train_stream_end(struct assay_train_stream *st, const char *file,
				 struct assay_error *e);
/* A result whose steps were thinned out (stride > 1): take its warm-up
 * steps out of the steady statistics, so the steady mean is over exactly
 * the steps the warm-up rule leaves and the median is exact (while the log
 * has at most 65536 distinct values). The warm-up comes from the record of
 * the first steps (r->warm_rec) when it is that short, else it is read
 * again from the start of fd (a file it can seek in; fd < 0 or a pipe:
 * nothing is done). o as for the first pass. Nothing to do (ASSAY_OK)
 * otherwise. */
assay_err assay_train_refine(struct assay_train_result *r, int fd, const struct assay_train_opts *o,
			     const char *file, struct assay_error *e);
/* Parse what fd gives until its end (a golden-values file, small, is read
 * whole). Every byte read is also written to tee_fd when it is >= 0 (so a
 * pipe can be read a second time). ASSAY_USAGE when fd cannot be read. */
assay_err assay_train_parse_fd(const char *format, int fd, int tee_fd,
			       const struct assay_train_opts *o, const char *file,
			       struct assay_train_result *r, struct assay_error *e);

/* Where ROCm/cvs's value of a metric comes from (assay_train_cvs_value()). */
enum assay_cvs_source {
	ASSAY_CVS_MEAN,    /* the mean of the per-iteration values without the first */
	ASSAY_CVS_SUMMARY, /* a summary line among the log's last lines */
	ASSAY_CVS_TAIL,    /* an iteration line's "mem usages" among them, after any summary */
};
/* ROCm/cvs's value of metric m (ELAPSED_MS, TFLOPS, TOKENS, MEM_RATIO), as
 * its megatron_lib.py selects it (docs/training.md, "CVS's values"): the
 * last match of its summary pattern within the log's last
 * ASSAY_CVS_TAIL_LINES lines, else the mean of the per-iteration values
 * without the first. cvs_labels: only values read from labels CVS's
 * patterns read (no tokens, no Primus-only labels, nothing derived, every
 * copy of a repeated line). false when it has none. */
#define ASSAY_CVS_TAIL_LINES 15
bool assay_train_cvs_value(const struct assay_train_result *r, enum assay_train_metric m,
			   bool cvs_labels, double *v, enum assay_cvs_source *source);
/* Rows for those of the four metrics whose CVS value is not a summary row:
 * "<metric>/cvs_mean" (the fallback mean) or "mem_usage_ratio/cvs_tail"
 * (an iteration line in the tail), appended to out. */
void assay_train_cvs_rows(const struct assay_train_result *r, bool cvs_labels,
			  struct assay_rows *out);
/* Rows of ROCm/cvs's older library (megatron_training_lib.py): for each of
 * the four metrics its patterns matched in the log's last lines,
 * "<metric>/cvs_tail_min", the least match (samples: how many), and
 * "<metric>/cvs_tail_unreadable", how many matches Python's float() cannot
 * read ("1.2.3"), when there are any. */
void assay_train_cvs_old_rows(const struct assay_train_result *r, struct assay_rows *out);

/* The run's outcome: ASSAY_WORKLOAD_FAILED when it logged steps but did not
 * finish (no "iteration N/N", no torchrun marker, no Megatron exit line), a
 * value is NaN/Inf, "number of nan iterations" is not 0 or an error
 * signature matched; ASSAY_NO_METRICS when it logged no step; else ASSAY_OK
 * (the worst when several hold). */
assay_err assay_train_outcome(const struct assay_train_result *r);
bool assay_train_incomplete(const struct assay_train_result *r);
/* "after training is done", "exit interval", "exit duration", "exit signal", "none". */
const char *assay_train_exit_name(enum assay_train_exit k);
/* One line per problem ("incomplete: ...", "lm loss is nan at step 7 (line
 * 42)", "no iteration lines"), "" when the outcome is ok; into buf. */
const char *assay_train_outcome_text(const struct assay_train_result *r, char *buf, size_t size);

/* How many unique steps are steady (not warm-up). */
size_t assay_train_steady_count(const struct assay_train_result *r);
/* Mean and median of the finite values of metric m over the steady steps;
 * returns how many there were (0: *mean and *median untouched). When steps
 * were thinned out (stride > 1) the mean is still over every steady step,
 * the median over the kept ones. */
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

/* A MaxText log's completed steps and their losses as a training result
 * (maxtext.c), for the loss-curve and convergence gates; release with
 * assay_train_result_release(). */
void assay_maxtext_train(const char *data, size_t len, struct assay_train_result *r);

#endif
