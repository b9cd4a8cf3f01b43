# Without --combo the "default" cell judges: PASS, RECORD (info, no threshold), SKIPPED (optional)
args: gate --thresholds tests/fixtures/gate/thresholds.json tests/fixtures/gate/primus-complete.ndjson
exit: 0
--- stdout
status   gate       metric                             value                spec               message
PASS     threshold  tflops_per_gpu/steady_mean         508.75 TFLOP/s/GPU   >= 500             508.75 >= 500
PASS     threshold  elapsed_ms_per_iter/steady_mean    585 ms               <= 588 (560 + 5%)  585 <= 588
PASS     threshold  tokens_per_gpu/steady_mean         7150 tokens/s/GPU    7100 +/- 2%        7150 is within [6958, 7242]
RECORD   threshold  mem_usage_ratio/max                0.5933 ratio         info               info: recorded
SKIPPED  threshold  eval_lm_loss/last                  -                    <= 9               missing (optional)
RECORD   threshold  elapsed_ms_per_iter/steady_median  585 ms                                  no threshold
RECORD   threshold  elapsed_ms_per_iter/running_avg    585.2 ms                                no threshold
RECORD   threshold  tflops_per_gpu/steady_median       507.5 TFLOP/s/GPU                       no threshold
RECORD   threshold  tflops_per_gpu/running_avg         509 TFLOP/s/GPU                         no threshold
RECORD   threshold  tokens_per_gpu/steady_median       7150 tokens/s/GPU                       no threshold
RECORD   threshold  tokens_per_gpu/running_avg         7139.3 tokens/s/GPU                     no threshold
RECORD   threshold  lm_loss/last                       10.1 nats                               no threshold
RECORD   threshold  mem_used_gb/max                    170.86 GB                               no threshold
RECORD   threshold  rocm_mem_usage_ratio/max           0.598 ratio                             no threshold
RECORD   threshold  rocm_mem_used_gb/max               172.22 GB                               no threshold
RECORD   threshold  mem_max_allocated_mb/max           121964.93 MB                            no threshold
RECORD   threshold  mem_max_reserved_mb/max            159578 MB                               no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                            no threshold
RECORD   threshold  nan_iterations/total               0 iterations                            no threshold

19 verdicts: 3 pass, 0 fail, 15 record, 1 skipped
--- stderr
