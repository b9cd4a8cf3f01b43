# A table row cut short (an NCCL warning interleaved on stdout, issue 36): the good rows are stored, the cut one is skipped and flagged on stderr with file and line and the header it was read against; exit 0
args: store ingest --store $STORE --cluster mi300x-a tests/fixtures/nccl-text/all_reduce_perf-rccl-truncated.txt
exit: 0
--- stdout-grep
^tests/fixtures/nccl-text/all_reduce_perf-rccl-truncated.txt: nccl-tests-text, 17 new, 0 already present, 1 flagged \(see the warnings\), run [0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$
--- stderr
warning: tests/fixtures/nccl-text/all_reduce_perf-rccl-truncated.txt:18: expected 13 cells (as the header on line 15 says), got 7 (a cut row, or another line written into it); the row is skipped
