# the series of a store, one line each with its last point
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: store series --store $STORE
exit: 0
--- stdout
series         rows         last unit         revision     identity
b6f1862d0617     40       2284.1 tokens/s/GPU c39          llama3-70b-pretrain tokens_per_sec_per_gpu/value cluster=mi300x-a scale=2x8 precision=fp8_e4m3
b7bca5ca73da     40       1421.5 tokens/s/GPU c39          llama3-70b-pretrain tokens_per_sec_per_gpu/value cluster=mi300x-a scale=2x8 precision=bf16
--- stderr
