# The shipped file's accuracy cells load; no assay format reads lm-eval, so
# its metric fails "missing", as CVS reports a metric missing from actuals.
args: gate --thresholds tests/fixtures/sglang/mi30x_sglang_llama_70b_threshold.json --combo BENCH=lm_eval_gsm8k tests/fixtures/sglang/benchmark_results.ndjson
exit: 1
--- stdout-grep
^FAIL +threshold +exact_match_flexible/\* +- +>= 0.95 +missing
--- stderr
