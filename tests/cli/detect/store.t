# change points of every series in a store, as CSV: the BF16 series' drop at c30
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: detect --store $STORE --format csv
exit: 0
--- stdout
series_key,index,revision,previous_revision,timestamp,mean_before,stddev_before,n_before,mean_after,stddev_after,n_after,change_percent,pvalue,kind,annotation,direction,unit,series
b7bca5ca73daf99bf4ddf77d0e7266270addfe4da24820989aef7f21360f4fbb,30,c30,c29,2026-11-03T02:00:00Z,1501.3099999999997,5.83889160478372,30,1423.35,6.12957312271144,10,-5.192798289493828,4.949464285800591e-31,regression,,higher,tokens/s/GPU,"{""cluster"":""mi300x-a"",""metric"":""tokens_per_sec_per_gpu"",""precision"":""bf16"",""scale"":""2x8"",""statistic"":""value"",""workload"":""llama3-70b-pretrain""}"
--- stderr
