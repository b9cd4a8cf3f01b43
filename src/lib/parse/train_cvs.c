/* The values ROCm/cvs reads from a Megatron training log (dddd914,
 * cvs/lib/training/megatron/megatron_lib.py, _parse_training_results): the
 * summary lines ROCm's train_llama3.sh appends, read from the log's last 15
 * lines (the last match wins), else the mean of the per-iteration values
 * without the first. Methodology: docs/training.md, "CVS's values". */
#include <math.h>

#include "assay/training.h"

static bool cvs_metric(enum assay_train_metric m)
{
	return m == ASSAY_TM_ELAPSED_MS || m == ASSAY_TM_TFLOPS || m == ASSAY_TM_TOKENS ||
	       m == ASSAY_TM_MEM_RATIO;
}

/* Whether the summary of m is one of the log's last ASSAY_CVS_TAIL_LINES. */
static bool summary_in_tail(const struct assay_train_result *r, enum assay_train_metric m)
{
	return (r->summary_has & (1u << m)) && r->summary_line[m] > 0 &&
	       r->summary_line[m] > r->n_lines - ASSAY_CVS_TAIL_LINES;
}

bool assay_train_cvs_value(const struct assay_train_result *r, enum assay_train_metric m,
			   bool cvs_labels, double *v, enum assay_cvs_source *source)
{
	*source = ASSAY_CVS_MEAN;
	if (!cvs_metric(m))
		return false;
	/* CVS's "mem usages:" pattern matches the ROCm fork's iteration lines
	 * too: among the last lines, the later of the two is its value. */
	if (m == ASSAY_TM_MEM_RATIO && r->mem_iter_line > r->n_lines - ASSAY_CVS_TAIL_LINES &&
	    r->mem_iter_line > 0 &&
	    (!summary_in_tail(r, m) || r->mem_iter_line > r->summary_line[m])) {
		*source = ASSAY_CVS_TAIL;
		*v = r->mem_iter_last;
		return true;
	}
	if (summary_in_tail(r, m)) {
		*source = ASSAY_CVS_SUMMARY;
		*v = r->summary[m];
		return true;
	}
	int k = cvs_labels ? 1 : 0;
	long long ni = r->cvs_n[k][m], n = ni + r->cvs_line_n[m];
	if (!n)
		return false;
	/* The first match is the warm-up iteration CVS leaves out, when there
	 * are others (summary lines follow the iterations). */
	double sum = r->cvs_sum[k][m] + r->cvs_line_sum[m];
	double first = ni ? r->cvs_first[k][m] : r->cvs_line_first[m];
	*v = n > 1 ? (sum - first) / (double)(n - 1) : sum;
	return true;
}

void assay_train_cvs_rows(const struct assay_train_result *r, bool cvs_labels,
			  struct assay_rows *out)
{
	static const enum assay_train_metric ms[] = {ASSAY_TM_ELAPSED_MS, ASSAY_TM_TFLOPS,
						     ASSAY_TM_TOKENS, ASSAY_TM_MEM_RATIO};
	for (size_t i = 0; i < ARRAY_SIZE(ms); i++) {
		double v;
		enum assay_cvs_source src;
		if (!assay_train_cvs_value(r, ms[i], cvs_labels, &v, &src) ||
		    src == ASSAY_CVS_SUMMARY)
			continue;
		int k = cvs_labels ? 1 : 0;
		long long n = r->cvs_n[k][ms[i]] + r->cvs_line_n[ms[i]];
		struct assay_row *row = assay_rows_add(out);
		assay_row_init(row);
		assay_row_set(row, json_object(), assay_train_metric_name(ms[i]),
			      src == ASSAY_CVS_TAIL ? "cvs_tail" : "cvs_mean", v,
			      assay_train_metric_unit(ms[i]), assay_train_metric_direction(ms[i]));
		row->samples = src == ASSAY_CVS_TAIL ? 1 : n > 1 ? n - 1 : 1;
	}
}

void assay_train_cvs_old_rows(const struct assay_train_result *r, struct assay_rows *out)
{
	static const enum assay_train_metric ms[] = {ASSAY_TM_ELAPSED_MS, ASSAY_TM_TFLOPS,
						     ASSAY_TM_TOKENS, ASSAY_TM_MEM_RATIO};
	for (size_t i = 0; i < ARRAY_SIZE(ms); i++) {
		if (r->cvs_old_bad[ms[i]]) {
			/* float() raises on it: CVS stops with an error. */
			struct assay_row *row = assay_rows_add(out);
			assay_row_init(row);
			assay_row_set(row, json_object(), assay_train_metric_name(ms[i]),
				      "cvs_tail_unreadable", (double)r->cvs_old_bad[ms[i]],
				      "matches", ASSAY_DIR_LOWER);
		}
		if (!r->cvs_old_n[ms[i]])
			continue;
		struct assay_row *row = assay_rows_add(out);
		assay_row_init(row);
		assay_row_set(row, json_object(), assay_train_metric_name(ms[i]), "cvs_tail_min",
			      r->cvs_old_min[ms[i]], assay_train_metric_unit(ms[i]),
			      assay_train_metric_direction(ms[i]));
		row->samples = r->cvs_old_n[ms[i]];
	}
}
