# lint checks a collective suite's regression metrics against what its table
# reader (nccl-tests-text) produces: CVS's "bus_bw" is not a metric
args: lint tests/fixtures/cli/lint/coll-regression.json
exit: 1
--- stdout
tests/fixtures/cli/lint/coll-regression.json:$.gates.regression.metrics[1]: error: gate-metric-not-produced: the nccl-tests-text parser never produces bus_bw (its metrics: time_us, cpu_time_us, algbw, busbw, wrong, error, time_cv)
--- stderr
assay lint: 1 error, 0 warnings in 1 file
