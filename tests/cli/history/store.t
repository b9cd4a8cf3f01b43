# one series' points from a store, --since cutting the older ones
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: history --store $STORE --match precision=fp8 --since 2026-11-12
exit: 0
--- stdout
series b6f1862d06175ba15d1f7db2cba66bced43e2d5c6a66b33fe070cdc5cd81b96e
  llama3-70b-pretrain tokens_per_sec_per_gpu/value cluster=mi300x-a scale=2x8 precision=fp8_e4m3
  1 points, tokens/s/GPU, higher is better

point  timestamp             revision               value  run                       notes
    0  2026-11-12T02:00:00Z  c39                   2284.1  5039                      
--- stderr
