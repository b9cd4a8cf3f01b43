# A table row cut short (an NCCL warning interleaved on stdout): file and line, the header it was read against, exit 2, nothing stored
args: store ingest --store $STORE --cluster mi300x-a tests/fixtures/nccl-text/all_reduce_perf-rccl-truncated.txt
exit: 2
--- stdout
--- stderr
tests/fixtures/nccl-text/all_reduce_perf-rccl-truncated.txt:18: expected 13 cells (as the header on line 15 says), got 7
