# A golden-values file with no metric assay knows: no metrics (exit 4), not
# a crash (fuzz/megatron_golden found qsort called on NULL with no points)
args: parse --input-format megatron-golden tests/fixtures/cli/parse/golden-no-known-metric.json
exit: 4
--- stdout
--- stderr
tests/fixtures/cli/parse/golden-no-known-metric.json: no metrics: the log has no iteration line (no-metrics)
