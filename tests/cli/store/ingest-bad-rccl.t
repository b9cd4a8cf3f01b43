# a malformed RCCL CI line
args: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-bad.jsonl
exit: 2
--- stdout
--- stderr
tests/fixtures/ingest/rccl_ci-bad.jsonl:3: $.scale: expected NODESxGPUS such as 2x8, got "eight"
