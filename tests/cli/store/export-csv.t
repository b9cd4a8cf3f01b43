# store export as CSV, filtered by series field and time
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: store export --store $STORE --format csv --match precision=fp8 --since 2026-11-12
exit: 0
--- stdout
series_key,metric,statistic,value,unit,direction,samples,revision,timestamp,run_id,case_id,series
b6f1862d06175ba15d1f7db2cba66bced43e2d5c6a66b33fe070cdc5cd81b96e,tokens_per_sec_per_gpu,value,2284.1,tokens/s/GPU,higher,1,c39,2026-11-12T02:00:00Z,5039,,"{""cluster"":""mi300x-a"",""metric"":""tokens_per_sec_per_gpu"",""precision"":""fp8_e4m3"",""scale"":""2x8"",""statistic"":""value"",""workload"":""llama3-70b-pretrain""}"
--- stderr
