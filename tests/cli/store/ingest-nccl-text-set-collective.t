# A table from an rccl-tests version that prints no program name (rccl-tests before the NCCL 2.13 resync, fixture built from ROCm/rccl-tests 51af557^ print statements, see tests/unit/test_nccl_text.c) ingests with --set collective=NAME, as the parser's message says (issue 36): the parser gets --set's fields, and every row carries the collective
args: store ingest --store $STORE --force --cluster mi250 --set collective=all_gather tests/fixtures/nccl-text/all_gather_perf-rccl-2.12.txt
exit: 0
--- stdout-grep
^tests/fixtures/nccl-text/all_gather_perf-rccl-2.12.txt: nccl-tests-text, 25 new, 0 already present, run [0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$
--- stderr
