# Enforcement off: every verdict is RECORD, exit 0
args: gate --thresholds tests/data/gate/thresholds-record.json --combo MBS=1,GBS=8,PRECISION=BF16 tests/data/gate/primus-complete.ndjson
exit: 0
--- stdout
status   gate       metric                             value                spec      message
RECORD   threshold  tflops_per_gpu/steady_mean         508.75 TFLOP/s/GPU   >= 520    not enforced: would fail (508.75 < 520)
RECORD   threshold  tokens_per_gpu/running_avg         7139.3 tokens/s/GPU  >= 7000   not enforced: would pass (7139.3 >= 7000)
RECORD   threshold  lm_loss/last                       10.1 nats            <= 10     not enforced: would fail (10.1 > 10)
RECORD   threshold  checkpoint_save_ms/max             -                    <= 30000  missing (not enforced)
RECORD   threshold  elapsed_ms_per_iter/steady_mean    585 ms                         no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  585 ms                         no threshold
RECORD   threshold  elapsed_ms_per_iter/running_avg    585.2 ms                       no threshold
RECORD   threshold  tflops_per_gpu/steady_median       507.5 TFLOP/s/GPU              no threshold
RECORD   threshold  tflops_per_gpu/running_avg         509 TFLOP/s/GPU                no threshold
RECORD   threshold  tokens_per_gpu/steady_mean         7150 tokens/s/GPU              no threshold
RECORD   threshold  tokens_per_gpu/steady_median       7150 tokens/s/GPU              no threshold
RECORD   threshold  mem_usage_ratio/max                0.5933 ratio                   no threshold
RECORD   threshold  mem_used_gb/max                    170.86 GB                      no threshold
RECORD   threshold  rocm_mem_usage_ratio/max           0.598 ratio                    no threshold
RECORD   threshold  rocm_mem_used_gb/max               172.22 GB                      no threshold
RECORD   threshold  mem_max_allocated_mb/max           121964.93 MB                   no threshold
RECORD   threshold  mem_max_reserved_mb/max            159578 MB                      no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                   no threshold
RECORD   threshold  nan_iterations/total               0 iterations                   no threshold

19 verdicts: 0 pass, 0 fail, 19 record, 0 skipped
--- stderr
