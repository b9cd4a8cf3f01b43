# TorchTitan as CVS reads it (ROCm/cvs dddd914, cvs/lib/training/torchtitan/torchtitan_lib.py, TRAINING_RESULT_PATTERNS):
# every tps: value, commas dropped; the unchanged shipped mi355_llama3_1_8b_single threshold file.
# Its names mean (docs/gate.md): training.throughput_per_gpu the mean tps leaving out step 1,
# training.tokens_per_gpu that x the cell's GBS (the file's _calculation), training.loss the last loss.
args: gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json --combo MBS=1,GBS=8,PRECISION=bf16 tests/fixtures/training/torchtitan-llama3-8b-bf16.log
exit: 0
--- stdout
status   gate       metric                         value                         spec      message
PASS     run        nonfinite/total                0                             0         none: lines with tok/s: or loss: NaN or Inf
PASS     run        unreadable/total               0                             0         none: values float() cannot read
PASS     threshold  tokens_per_sec/cvs_mean        11762.556 tokens/s/GPU        >= 10590  11762.6 >= 10590
PASS     threshold  tokens_per_sec_x_gbs/cvs_mean  94100.444 tokens/s/GPU x GBS  >= 84720  94100.4 >= 84720
PASS     threshold  loss/last                      10.6417 nats                  <= 12.77  10.6417 <= 12.77
RECORD   threshold  tokens_per_sec/last            11764 tokens/s/GPU                      no threshold
RECORD   threshold  loss/first                     12.2473 nats                            no threshold
RECORD   threshold  mem_usage_gb/max               60.22 GiB                               no threshold
RECORD   threshold  steps/max                      10 steps                                no threshold
RECORD   threshold  nonfinite/total                0 lines                                 no threshold
RECORD   threshold  unreadable/total               0 values                                no threshold

11 verdicts: 5 pass, 0 fail, 6 record, 0 skipped
--- stderr
