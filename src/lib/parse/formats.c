/* The table of input formats and the helpers every parser shares. A new
 * format is one parser file and one row here (with the metrics its file
 * declares, or NULL when its data names them, and whether it is a training
 * log), and every command reads it through the reader (read.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"

static bool detect_rows(const char *data, size_t len)
{
	/* An NDJSON row names its series_key or series and metric on the first line. */
	size_t n = 0;
	while (n < len && n < 4096 && data[n] != '\n')
		n++;
	return n && data[0] == '{' && memmem(data, n, "\"series\"", 8) &&
	       memmem(data, n, "\"metric\"", 8);
}

const struct assay_format assay_formats[] = {
    {"rows", "NDJSON measurement rows (assay parse / assay store export output)", assay_parse_rows,
     detect_rows, NULL, true, false, false},
    {"rows-csv", "measurement rows as CSV (assay store export --format csv output)",
     assay_parse_rows_csv, assay_detect_rows_csv, NULL, true, false, false},
    {"assay-ep", "assay-ep case artifacts (schema assay.ep.case/1, docs/ep.md)",
     assay_parse_ep_case, assay_detect_ep_case, assay_ep_case_metrics, true, false, false},
    {"collectivex", "CollectiveX per-case results (record_type case-attempt)",
     assay_parse_collectivex, assay_detect_collectivex, assay_collectivex_metrics, true, false,
     false},
    {"madengine-csv", "madengine perf.csv (29 fixed columns, extra multiple_results columns)",
     assay_parse_madengine_csv, assay_detect_madengine_csv, NULL, true, false, false},
    {"madengine-super", "madengine perf_entry_super.json (with configs and multi_results)",
     assay_parse_madengine_super, assay_detect_madengine_super, NULL, true, false, false},
    {"multiple-results", "a madengine multiple_results CSV (model, performance, metric, ...)",
     assay_parse_multiple_results, assay_detect_multiple_results, NULL, true, false, false},
    {"rccl-ci", "RCCL CI perf history JSONL (run_id, timestamp, commit, workload, ...)",
     assay_parse_rccl_ci, assay_detect_rccl_ci, assay_rccl_ci_metrics, true, false, false},
    {"nccl-tests", "nccl-tests / rccl-tests -J JSON output", assay_parse_nccl_tests,
     assay_detect_nccl_tests, assay_nccl_tests_metrics, true, false, false},
    {"nccl-tests-text", "nccl-tests / rccl-tests text output (the size table on stdout)",
     assay_parse_nccl_tests_text, assay_detect_nccl_tests_text, assay_nccl_tests_text_metrics, true,
     false, false},
    {"vllm-bench", "vllm bench serve --save-result JSON (read as ROCm CVS reads it)",
     assay_parse_vllm_bench, assay_detect_vllm_bench, NULL, true, false, false},
    {"atom-bench", "ATOM benchmark_serving --save-result JSON (read as ROCm CVS reads it)",
     assay_parse_atom_bench, assay_detect_atom_bench, NULL, true, false, false},
    {"sglang", "sglang bench_serving's Serving Benchmark Result block (benchmark_results.log)",
     assay_parse_sglang, assay_detect_sglang, assay_sglang_metrics, false, false, false},
    {"megatron-golden", "Megatron-LM functional-test golden values (JSON, per-step)",
     assay_parse_megatron_golden, assay_detect_megatron_golden, assay_megatron_golden_metrics, true,
     true, false},
    {"primus", "Primus training log (logger prefix, ANSI colours, X/Y values)", assay_parse_primus,
     assay_detect_primus, assay_primus_metrics, false, true, true},
    {"megatron", "Megatron-LM training log (training_log iteration lines)", assay_parse_megatron,
     assay_detect_megatron, assay_megatron_metrics, false, true, true},
    {"torchtitan", "TorchTitan training log (step: N  loss: ...  memory: ...GiB  tps: ...)",
     assay_parse_torchtitan, assay_detect_torchtitan, assay_torchtitan_metrics, false, false,
     false},
    {"maxtext", "JAX MaxText training log (completed step: N, key: value, ...)",
     assay_parse_maxtext, assay_detect_maxtext, assay_maxtext_metrics, false, false, false},
    {NULL, NULL, NULL, NULL, NULL, false, false, false},
};

const struct assay_format *assay_format_find(const char *name)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

const struct assay_format *assay_format_detect(const char *data, size_t len)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		if (f->detect && f->detect(data, len))
			return f;
	return NULL;
}

const struct assay_format *assay_format_detect_record(const char *data, size_t len)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		if (f->by_record && f->detect && f->detect(data, len))
			return f;
	return NULL;
}

int assay_format_produces(const struct assay_format *f, const char *metric, const char *statistic)
{
	if (!f->metrics)
		return -1;
	size_t n = strlen(metric);
	for (const char *const *m = f->metrics; *m; m++)
		if (!strncmp(*m, metric, n) && (*m)[n] == '/' &&
		    (!statistic || !strcmp(*m + n + 1, statistic)))
			return 1;
	return 0;
}

assay_err assay_parse_stamp(struct assay_rows *rows, size_t from, const struct assay_parse_opts *o,
			    struct assay_error *e)
{
	for (size_t i = from; i < rows->n; i++) {
		struct assay_row *r = &rows->v[i];
		if (!r->series)
			r->series = json_object();
		bool added = !r->series_key[0]; /* not finished yet */
		if (o->context) {
			const char *k;
			json_t *v;
			json_object_foreach((json_t *)o->context, k,
					    v) if (!json_object_get(r->series, k))
			{
				assay_row_own_series(r);
				json_object_set(r->series, k, v);
				added = true;
			}
		}
		if (o->run_id) {
			free(r->run_id);
			r->run_id = xstrdup(o->run_id);
		}
		if (o->case_id) {
			free(r->case_id);
			r->case_id = xstrdup(o->case_id);
		}
		if (o->revision && !r->revision)
			r->revision = xstrdup(o->revision);
		if (o->timestamp && !r->timestamp)
			r->timestamp = xstrdup(o->timestamp);
		/* A finished row whose series did not change keeps its key. */
		assay_err rc = added ? assay_row_finish(r, e) : ASSAY_OK;
		if (rc != ASSAY_OK) {
			if (e && o->file && !e->file[0])
				snprintf(e->file, sizeof(e->file), "%s", o->file);
			return rc;
		}
	}
	return ASSAY_OK;
}

const struct assay_format *assay_results_format(const char *hint, const char *data, size_t len,
						enum assay_detect_by by)
{
	if (hint && strcmp(hint, "auto"))
		return assay_format_find(hint);
	if (by == ASSAY_DETECT_RECORD)
		return assay_format_detect_record(data, len);
	if (by == ASSAY_DETECT_TRAINING)
		for (const struct assay_format *f = assay_formats; f->name; f++)
			if (f->training && f->detect && f->detect(data, len))
				return f;
	return assay_format_detect(data, len);
}
