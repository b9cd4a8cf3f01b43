# TorchTitan (ROCm/cvs dddd914, torchtitan_lib.py, verify_training_results): a matched value float()
# cannot read ("tok/s: 1.2.3") fails the run ("Cannot parse value"): exit 3, as a failed run.
args: gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json --combo MBS=1,GBS=8,PRECISION=bf16 tests/fixtures/training/torchtitan-fallback.log
exit: 3
--- stdout
status   gate       metric                         value                     spec      message
PASS     run        nonfinite/total                0                         0         none: lines with tok/s: or loss: NaN or Inf
FAIL     run        unreadable/total               1                         0         values float() cannot read: CVS's TorchTitan test fails the run
FAIL     threshold  tokens_per_sec/cvs_mean        9050 tokens/s/GPU         >= 10590  9050 < 10590
FAIL     threshold  tokens_per_sec_x_gbs/cvs_mean  72400 tokens/s/GPU x GBS  >= 84720  72400 < 84720
PASS     threshold  loss/last                      9.5 nats                  <= 12.77  9.5 <= 12.77
RECORD   threshold  tokens_per_sec/last            9100 tokens/s/GPU                   no threshold
RECORD   threshold  loss/first                     10.9 nats                           no threshold
RECORD   threshold  mem_usage_gb/max               41.3 GB                             no threshold
RECORD   threshold  steps/max                      4 steps                             no threshold
RECORD   threshold  nonfinite/total                0 lines                             no threshold
RECORD   threshold  unreadable/total               1 values                            no threshold

11 verdicts: 2 pass, 3 fail, 6 record, 0 skipped
--- stderr
