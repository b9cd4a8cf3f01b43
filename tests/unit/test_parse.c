/* Unit tests for the format table (src/lib/parse/formats.c): the metrics
 * each parser declares are exactly what it produces. Every declared
 * "metric/statistic" comes out of the format's own fixtures, and every row
 * any fixture (and the shared conformance data, when present) gives is
 * declared, so neither side of the list can rot; assay_format_produces(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/parse.h"
#include "assay/util.h"
#include "conformance.h"

/* The fixtures of each format with a fixed set of metrics; conformance
 * files are under the shared folder and only checked when there. */
static const struct {
	const char *format;
	const char *const files[10];
	const char *const conformance[3]; /* training-logs/... */
} fixtures[] = {
    {"assay-ep",
     {"tests/fixtures/unit/ep-case-valid.json", "tests/fixtures/unit/ep-case-ll.json",
      "tests/fixtures/unit/ep-case-routing.json"},
     {NULL}},
    {"collectivex",
     {"tests/fixtures/collectivex/results/"
      "mi355x-mori-deepseek-v3-normal-decode-ep8-uniform-bf16_20261120T031415Z-c000.json",
      "tests/fixtures/collectivex/results/"
      "mi355x-mori-deepseek-v3-normal-prefill-ep16-uniform-fp8_20261120T031415Z-c001.json"},
     {NULL}},
    {"rccl-ci",
     {"tests/fixtures/ingest/rccl_ci.jsonl", "tests/fixtures/ingest/rccl_ci-history.jsonl",
      "tests/fixtures/ingest/rccl_ci-new.jsonl", "tests/fixtures/rccl-ci/ab-009e1cb.jsonl"},
     {NULL}},
    {"nccl-tests",
     {"tests/fixtures/ingest/nccl_tests.json", "tests/fixtures/metrics/nccl_tests-cpu.json"},
     {NULL}},
    {"nccl-tests-text",
     {"tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log",
      "tests/fixtures/nccl-text/all_reduce_perf-rccl.txt",
      "tests/fixtures/nccl-text/all_gather_perf-rccl-2.12.txt",
      "tests/fixtures/nccl-text/reduce_scatter-nccl-cputime.txt",
      "tests/fixtures/nccl-text/alltoall_perf-rccl-inplace.txt",
      "tests/fixtures/nccl-text/broadcast_perf-rccl-2.12.txt",
      "tests/fixtures/nccl-text/reduce_perf-nccl-2.13.txt",
      "tests/fixtures/nccl-text/sendrecv-nccl-per-iter.txt"},
     {NULL}},
    {"sglang",
     {"tests/fixtures/sglang/benchmark_results.log",
      "tests/fixtures/sglang/benchmark_results-slow.log"},
     {NULL}},
    {"megatron-golden",
     {"tests/fixtures/metrics/megatron-golden.json"},
     {"megatron_golden_gpt3_resume_run1_dgx_h100.json",
      "megatron_golden_gpt3_resume_run2_dgx_h100.json"}},
    {"primus",
     {"tests/fixtures/training/primus-complete.log",
      "tests/fixtures/training/primus-marker-only.log", "tests/fixtures/metrics/primus-extras.log"},
     {"primus_megatron_smoke_tail_mi355x.log", "primus_safe_lens_iteration_lines.log"}},
    {"megatron",
     {"tests/fixtures/training/megatron-basic.log", "tests/fixtures/training/megatron-rocm.log",
      "tests/fixtures/training/megatron-save.log", "tests/fixtures/training/megatron-resume.log",
      "tests/fixtures/metrics/megatron-averages.log"},
     {NULL}},
    {"torchtitan",
     {"tests/fixtures/training/torchtitan-llama3-8b-bf16.log",
      "tests/fixtures/training/torchtitan-nan-nccl.log"},
     {NULL}},
    {"maxtext",
     {"tests/fixtures/training/maxtext-llama3.1-8b-bf16.log",
      "tests/fixtures/training/maxtext-llama3.1-8b-fp8-oom.log"},
     {NULL}},
};

/* Formats whose data names its metrics: no list to declare. */
static const char *const open_formats[] = {
    "rows",       "rows-csv",   "madengine-csv", "madengine-super", "multiple-results",
    "vllm-bench", "atom-bench", /* every numeric key of the file (docs/inference.md) */
    NULL};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Parse path as f and add "metric/statistic" of every row to seen; every
 * one must be declared. */
static void collect(const struct assay_format *f, const char *path, struct strlist *seen)
{
	size_t len;
	struct assay_error e;
	char *data = assay_read_file(path, &len, &e);
	if (!data)
		fail_msg("%s", e.message);
	struct assay_rows rows = {0};
	struct assay_parse_opts o = {.file = path};
	/* sglang derives goodput, per-GPU throughput and MFU from the
	 * context's num_prompts, tp, model_num_params and peak_gpu_tflops. */
	json_t *ctx = !strcmp(f->name, "sglang")
			  ? json_pack("{s:i, s:i, s:f, s:i}", "num_prompts", 640, "tp", 8,
				      "model_num_params", 7e10, "peak_gpu_tflops", 1300)
			  : NULL;
	o.context = ctx;
	if (f->parse(data, len, &o, &rows, &e) != ASSAY_OK)
		fail_msg("%s: %s", path, e.message);
	json_decref(ctx);
	if (!rows.n)
		fail_msg("%s gives no rows as %s", path, f->name);
	for (size_t i = 0; i < rows.n; i++) {
		char pair[256];
		snprintf(pair, sizeof(pair), "%s/%s", rows.v[i].metric, rows.v[i].statistic);
		if (!in_list(f->metrics, pair))
			fail_msg("%s: format %s makes %s, which it does not declare (add it to its "
				 "metrics list)",
				 path, f->name, pair);
		if (!strlist_has(seen, pair))
			strlist_push(seen, pair);
	}
	assay_rows_release(&rows);
	free(data);
}

static void test_declared_metrics_are_produced(void **state)
{
	(void)state;
	for (const struct assay_format *f = assay_formats; f->name; f++) {
		if (!f->metrics) {
			if (!in_list(open_formats, f->name))
				fail_msg(
				    "format %s declares no metrics: declare them in its parser "
				    "file, or list it here as one whose data names them",
				    f->name);
			continue;
		}
		/* Well-formed and unique: "metric/statistic", once each. */
		for (const char *const *m = f->metrics; *m; m++) {
			const char *slash = strchr(*m, '/');
			if (!slash || slash == *m || !slash[1] || strchr(slash + 1, '/'))
				fail_msg("%s: \"%s\" is not metric/statistic", f->name, *m);
			for (const char *const *k = f->metrics; k < m; k++)
				if (!strcmp(*k, *m))
					fail_msg("%s: \"%s\" is declared twice", f->name, *m);
		}
		size_t x = 0;
		while (x < ARRAY_SIZE(fixtures) && strcmp(fixtures[x].format, f->name))
			x++;
		if (x == ARRAY_SIZE(fixtures))
			fail_msg("format %s declares metrics but this test has no fixture for it",
				 f->name);
		struct strlist seen = STRLIST_INIT;
		for (size_t i = 0; i < ARRAY_SIZE(fixtures[x].files) && fixtures[x].files[i]; i++) {
			char path[1024];
			snprintf(path, sizeof(path), "%s/%s", ASSAY_SOURCE_DIR,
				 fixtures[x].files[i]);
			collect(f, path, &seen);
		}
		/* Every declared metric comes out of the project's own fixtures. */
		for (const char *const *m = f->metrics; *m; m++)
			if (!strlist_has(&seen, *m))
				fail_msg(
				    "format %s declares %s, but none of its fixtures produces it",
				    f->name, *m);
		/* Real files may not hold anything undeclared either. */
		for (size_t i = 0;
		     i < ARRAY_SIZE(fixtures[x].conformance) && fixtures[x].conformance[i]; i++) {
			char path[1024];
			if (conformance_file("training-logs", fixtures[x].conformance[i], path,
					     sizeof(path)))
				collect(f, path, &seen);
		}
		strlist_clear(&seen);
	}
}

static void test_format_produces(void **state)
{
	(void)state;
	const struct assay_format *m = assay_format_find("megatron");
	assert_non_null(m);
	assert_int_equal(assay_format_produces(m, "tflops_per_gpu", NULL), 1);
	assert_int_equal(assay_format_produces(m, "tflops_per_gpu", "steady_mean"), 1);
	assert_int_equal(assay_format_produces(m, "tflops_per_gpu", "p99"), 0);
	assert_int_equal(assay_format_produces(m, "tflops", NULL), 0);
	/* A prefix of a declared metric is not that metric. */
	assert_int_equal(assay_format_produces(m, "tflops_per", NULL), 0);
	assert_int_equal(assay_format_produces(m, "mem_used_gb", NULL), 0);
	assert_int_equal(assay_format_produces(assay_format_find("primus"), "mem_used_gb", "max"),
			 1);
	assert_int_equal(assay_format_produces(assay_format_find("rows"), "anything", NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_declared_metrics_are_produced),
	    cmocka_unit_test(test_format_produces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
