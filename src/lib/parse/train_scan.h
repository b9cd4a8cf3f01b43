/* Private to src/lib/parse: the single-pass scanner shared by the
 * Megatron-LM and Primus parsers (train_scan.c and the files it names; its
 * own internals in train_scan_int.h), and the result helpers the
 * golden-values parser shares with them (train_result.c). */
#ifndef ASSAY_PARSE_TRAIN_SCAN_H
#define ASSAY_PARSE_TRAIN_SCAN_H

#include "assay/training.h"

/* Which segment labels of the iteration line a dialect reads. */
enum {
	TRAIN_LABELS_MEGATRON = 1, /* Megatron-LM, plus the ROCm fork's "mem usages" */
	TRAIN_LABELS_PRIMUS = 2,   /* Primus: compute per GPU, harmonic mean tokens, hip/rocm mem */
};

struct train_dialect {
	const char *name;
	unsigned labels;
	/* Called with the text before "iteration" on an iteration line (the
	 * logger prefix); returns the world size it names, 0 if none. May be NULL. */
	long long (*prefix_world)(const char *p, size_t n);
};

extern const struct train_dialect train_megatron, train_primus;

/* Exact counts of the distinct finite values of one metric (train_counts.c);
 * given up past TRAIN_COUNTS_MAX distinct values. */
#define TRAIN_COUNTS_MAX 65536
struct train_counts {
	uint64_t *keys;
	long long *counts;
	size_t cap, n;
	bool overflow;
};
void train_counts_add(struct train_counts *c, double v, long long delta);
/* The median of the values counted (as assay_median()); false when none or overflowed. */
bool train_counts_median(const struct train_counts *c, double *out, size_t *count);
void train_counts_release(struct train_counts *c);

/* A number at p: [+-]digits[.digits][e[+-]digits], or nan / inf / infinity
 * (any case). Returns the end, or NULL when there is none. Never reads at or
 * past end. */
const char *train_number(const char *p, const char *end, double *out);
/* As train_number, times 10^shift (a percentage as a ratio: -2), correctly
 * rounded on the fast path (train_number.c). */
const char *train_decimal(const char *p, const char *end, int shift, double *out);

void train_result_init(struct assay_train_result *r, const char *format);
/* A fresh step: every optional field absent. */
void train_step_init(struct assay_train_step *s);
/* Tokens/s/GPU from global batch size, sequence length and elapsed time,
 * when the step has the elapsed time but no tokens. */
void train_derive_tokens(struct assay_train_step *s, long long seq_len, long long world);
/* Counts s as the next unique step: numbers it (s->index), adds it to the
 * aggregates (s->cum) and keeps it when the thinning keeps its index. */
void train_push_step(struct assay_train_result *r, struct assay_train_step *s);
/* Record a NaN/Inf value (the first one is kept in detail). */
void train_note_nonfinite(struct assay_train_result *r, long long step, long line,
			  const char *label, size_t label_len, const char *text, size_t text_len);
/* World size, derived tokens and the warm-up split; log_world is the world
 * size the log named (0 none). */
/* The warm-up, in steps, that the options' rule gives n unique steps
 * (training.c). */
size_t train_warmup_rule(const struct assay_train_opts *o, size_t n);
void train_finish(struct assay_train_result *r, const struct assay_train_opts *o,
		  long long log_world);

/* Does one of the n marks occur in the first limit bytes of data? For the
 * detect functions. */
bool train_has_mark(const char *data, size_t len, size_t limit, const char *const marks[],
		    size_t n);

/* The rows a Megatron-LM log can give (assay_train_rows: steady state,
 * running averages, summary lines, losses, memory, checkpoints, counts);
 * Primus adds its HIP/ROCm memory. "metric/statistic" strings. */
#define TRAIN_LOG_METRICS                                                                          \
	"elapsed_ms_per_iter/steady_mean", "elapsed_ms_per_iter/steady_median",                    \
	    "elapsed_ms_per_iter/running_avg", "elapsed_ms_per_iter/summary",                      \
	    "tflops_per_gpu/steady_mean", "tflops_per_gpu/steady_median",                          \
	    "tflops_per_gpu/running_avg", "tflops_per_gpu/summary", "tokens_per_gpu/steady_mean",  \
	    "tokens_per_gpu/steady_median", "tokens_per_gpu/running_avg",                          \
	    "tokens_per_gpu/summary", "lm_loss/last", "eval_lm_loss/last", "mem_usage_ratio/max",  \
	    "mem_usage_ratio/summary", "mem_max_allocated_mb/max", "mem_max_reserved_mb/max",      \
	    "checkpoint_save_ms/max", "checkpoint_save_ms/mean", "checkpoint_load_ms/max",         \
	    "checkpoint_load_ms/mean", "skipped_iterations/total", "nan_iterations/total"

/* Parse with the default options and append the rows: the format-table
 * entry points of megatron.c, primus.c and megatron_golden.c. */
assay_err train_table_parse(const char *format, const char *data, size_t len,
			    const struct assay_parse_opts *o, struct assay_rows *out,
			    struct assay_error *e);

/* megatron_golden.c: fill r from a golden-values file. */
assay_err train_golden(const char *data, size_t len, const char *file, struct assay_train_result *r,
		       struct assay_error *e);

#endif
