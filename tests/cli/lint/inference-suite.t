# An inference suite is linted as a suite: its CVS SGLang thresholds' metrics
# are checked against the sglang parser at the statistic CVS's key names
# (mean_ttft_ms: ttft_ms/mean, produced); pass_rate is never produced.
args: lint tests/fixtures/cli/lint/inference/suite.json
exit: 1
--- stdout
tests/fixtures/cli/lint/inference/suite.json:$.gates.thresholds: error: gate-metric-not-produced: tests/fixtures/cli/lint/inference/thresholds.json: $["ISL=1024,OSL=1024,TP=8,PP=1,CONC=64"].pass_rate: the sglang parser never produces pass_rate (its metrics: successful_requests, benchmark_duration, total_input_tokens, total_generated_tokens, request_throughput, input_throughput, output_throughput, e2e_latency_ms, ttft_ms, tpot_ms, itl_ms, goodput, output_throughput_per_gpu, mfu)
--- stderr
assay lint: 1 error, 0 warnings in 1 file
