# A log cut in its last line (issue 35, item 8): Megatron-LM's training_log()
# line cut at "elapsed time per iteration (ms): 50" (of 500.4) is neither a
# value nor the last step: flagged, and the run is incomplete.
args: parse --input-format megatron tests/fixtures/cli/parse/cut-last-line.log
exit: 3
--- stdout-grep
"metric":"elapsed_ms_per_iter","revision":null,"run_id":null,"samples":1,.*"value":500.4
--- stderr
tests/fixtures/cli/parse/cut-last-line.log: warning: line 4 has no line end and no closing "|": the log was cut there; only its error signatures were read
tests/fixtures/cli/parse/cut-last-line.log: incomplete run: the last step is 3 of 4, with no final "iteration N/N" line, no torchrun marker and no Megatron exit line (workload-failed)
