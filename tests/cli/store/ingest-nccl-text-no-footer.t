# A log cut at a row boundary (all_reduce_perf-h100-cut.log: the first 40 lines of all_reduce_perf-h100-2n.log, no "# Avg bus bandwidth" footer) is not complete (issue 36): its rows are stored and the missing footer is flagged on stderr
args: store ingest --store $STORE --cluster h100-b tests/fixtures/nccl-text/all_reduce_perf-h100-cut.log
exit: 0
--- stdout-grep
^tests/fixtures/nccl-text/all_reduce_perf-h100-cut.log: nccl-tests-text, 104 new, 0 already present, 1 flagged \(see the warnings\), run [0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$
--- stderr
warning: tests/fixtures/nccl-text/all_reduce_perf-h100-cut.log:26: the table has no footer ('# Avg bus bandwidth'): the output ends early (a cut log or run); its rows are kept
